"""The engines import the standard library, NumPy and one JSON library (msgspec, read through
core/jsonio.py) and nothing else: no module of the site, no other JSON library. The
import-linter contract in pyproject.toml names what is forbidden; this test holds the
allow-list, which a new dependency cannot slip past."""

from __future__ import annotations

import ast
import sys

from ratings.engines.core.version import ENGINES_ROOT

ALLOWED = {"numpy", "msgspec"}


def _imported(tree: ast.AST) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_the_engines_import_only_stdlib_numpy_and_msgspec():
    outside = {}
    for path in sorted(ENGINES_ROOT.rglob("*.py")):
        for name in _imported(ast.parse(path.read_bytes())):
            top = name.partition(".")[0]
            if top in sys.stdlib_module_names or top in ALLOWED:
                continue
            if name == "ratings.engines" or name.startswith("ratings.engines."):
                continue
            outside.setdefault(name, []).append(path.relative_to(ENGINES_ROOT).as_posix())
    assert not outside


def test_one_module_imports_the_json_library():
    """The engines' one JSON reader (and float writer) is core/jsonio.py."""
    users = sorted(
        path.relative_to(ENGINES_ROOT).as_posix()
        for path in ENGINES_ROOT.rglob("*.py")
        if any(n.partition(".")[0] == "msgspec" for n in _imported(ast.parse(path.read_bytes())))
    )
    assert users == ["core/jsonio.py"]
