"""The engine version a run stores: a digest of every source file that can change its numbers.

For one system that is its whole package, every shared core module, the command line
(``__main__.py``), ``ratings/engines/__init__.py``, and any other module under ``ratings.engines``
the package imports (found by reading the import statements, so a new dependency is covered
without a list to maintain).
"""

from __future__ import annotations

import ast
import functools
import hashlib
from pathlib import Path

ENGINES_ROOT = Path(__file__).resolve().parents[1]  # ratings/engines
PACKAGE = "ratings.engines"


def _module_file(module: str, root: Path) -> Path | None:
    """The file of ``ratings.engines.x.y`` under ``root`` (a module or a package), if any."""
    if module == PACKAGE:
        return root / "__init__.py"
    if not module.startswith(PACKAGE + "."):
        return None
    base = root.joinpath(*module.split(".")[2:])
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None  # a name imported from a module, not a module


def _imported_files(path: Path, root: Path) -> set[Path]:
    found = set()
    for node in ast.walk(ast.parse(path.read_bytes(), filename=str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        for name in names:
            file = _module_file(name, root)
            if file is not None:
                found.add(file)
    return found


def engine_files(system: str, root: Path = ENGINES_ROOT) -> list[Path]:
    """Every file the version of ``system`` covers, sorted by path below ``root``."""
    package = root / system
    if not (package / "__init__.py").is_file():
        raise ValueError(f"no engine package {system!r} under {root}")
    files = set(package.glob("*.py")) | set((root / "core").glob("*.py"))
    files |= {root / "__init__.py", root / "__main__.py"}
    pending = list(files)
    while pending:
        for dependency in _imported_files(pending.pop(), root) - files:
            files.add(dependency)
            pending.append(dependency)
    return sorted(files, key=lambda p: p.relative_to(root).as_posix())


def engine_version(system: str, root: Path = ENGINES_ROOT) -> str:
    """``system-`` and 12 hex digits of a SHA-256 over each covered file's path and bytes."""
    digest = hashlib.sha256()
    for path in engine_files(system, root):
        name = path.relative_to(root).as_posix().encode()
        content = path.read_bytes()
        digest.update(b"%d:%s%d:" % (len(name), name, len(content)))
        digest.update(content)
    return f"{system}-{digest.hexdigest()[:12]}"


@functools.cache
def installed_engine_version(system: str) -> str:
    """The version of the engine this process runs, digested once: its files do not change
    under a running process, and parsing them on every run raced when runs ran at once."""
    return engine_version(system)
