"""The engine version a run stores covers every file that can change a system's numbers."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ratings.engines import SYSTEMS
from ratings.engines.core.version import ENGINES_ROOT, engine_files, engine_version


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A copy of ratings/engines to touch."""
    root = tmp_path / "engines"
    shutil.copytree(ENGINES_ROOT, root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_version_covers_package_core_and_command_line(system):
    names = {p.relative_to(ENGINES_ROOT).as_posix() for p in engine_files(system)}
    package = {f"{system}/{p.name}" for p in (ENGINES_ROOT / system).glob("*.py")}
    core = {f"core/{p.name}" for p in (ENGINES_ROOT / "core").glob("*.py")}
    assert {"__init__.py", "__main__.py"} | package | core <= names
    assert {f"{system}/reference.py", "core/rounding.py", "core/jsonio.py"} <= names
    others = set(SYSTEMS) - {system}
    assert not any(n.split("/")[0] in others for n in names)  # nothing of another system


@pytest.mark.parametrize("system", SYSTEMS)
def test_touching_any_covered_file_changes_the_version(system, tree):
    before = engine_version(system, tree)
    assert before == engine_version(system, ENGINES_ROOT)  # a copy has the same version
    for path in engine_files(system, tree):
        original = path.read_bytes()
        path.write_bytes(original + b"\n# touched\n")
        assert engine_version(system, tree) != before, path
        path.write_bytes(original)
    assert engine_version(system, tree) == before


def test_another_systems_files_do_not_change_the_version(tree):
    before = engine_version("egf", tree)
    (tree / "iccf" / "rate.py").write_bytes(b"# changed\n")
    assert engine_version("egf", tree) == before


def test_a_new_dependency_is_covered_without_a_list(tree):
    """A module outside the packages that a system starts importing joins its version."""
    (tree / "extra.py").write_text("X = 1\n")
    before = engine_version("wfcc", tree)
    rate = tree / "wfcc" / "rate.py"
    rate.write_text(rate.read_text() + "\nfrom ratings.engines.extra import X  # noqa\n")
    assert tree / "extra.py" in engine_files("wfcc", tree)
    touched = engine_version("wfcc", tree)
    (tree / "extra.py").write_text("X = 2\n")
    assert engine_version("wfcc", tree) not in (before, touched)


def test_unknown_system_is_refused():
    with pytest.raises(ValueError, match="no engine package"):
        engine_version("chess")
