"""The command line of one system imports that system's contract and what it needs, nothing more:
start-up is most of a small run (the project's sources compile on each start where bytecode is
not written)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from ratings.engines import SYSTEMS, egf, iccf, playchess, wfcc
from ratings.engines.core.version import ENGINES_ROOT

ROOT = Path(__file__).resolve().parents[3]

PROBE = """
import sys
from ratings.engines.__main__ import main
code = main(sys.argv[1:])
print("\\n".join(sorted(sys.modules)), file=sys.stderr)
sys.exit(code)
"""

INPUTS = {
    "iccf": {
        "players": [{"id": str(i), "rating": 1800 + i, "rd": 60} for i in range(3)]
        + [{"id": "u", "unrated": True}],
        "games": [
            {"white": "0", "black": "1", "result": 1, "white_start": 1850},
            {"white": "1", "black": "2", "result": 0.5},
        ],
        "substitutions": [{"game": 1, "side": "black", "replaces": "u"}],
    },
    "egf": {
        "tournaments": [
            {
                "id": "T",
                "class": "A",
                "players": [{"id": "a", "grade": "1d"}, {"id": "b", "grade": "3k", "rating": 1700}],
                "games": [{"white": "a", "black": "b", "result": 1, "handicap": 2}],
            }
        ]
    },
}


@pytest.mark.parametrize("system", sorted(INPUTS))
def test_one_system_imports_only_its_contract(system, tmp_path):
    path = tmp_path / "input.json"
    path.write_text(json.dumps(INPUTS[system]))
    done = subprocess.run(
        [sys.executable, "-c", PROBE, system, str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    modules = set(done.stderr.split())
    assert f"ratings.engines.{system}.contract" in modules
    unwanted = {
        f"ratings.engines.{system}.reference",
        f"ratings.engines.{system}.explain",
        "ratings.engines.core.version",
        "django",
        "hypothesis",
        "numpy.ma",  # np.unique imports it: 12 ms
    } | {f"ratings.engines.{other}" for other in SYSTEMS if other != system}
    assert not modules & unwanted


@pytest.mark.parametrize("package", [iccf, egf, playchess, wfcc])
def test_every_lazy_export_resolves(package):
    for name in package.__all__:
        assert getattr(package, name) is getattr(package, name)
    assert set(package.__all__) <= set(dir(package))


def test_a_submodule_import_does_not_replace_the_function_of_its_name():
    import ratings.engines.iccf.explain  # noqa: F401  the submodule, imported after the package
    import ratings.engines.wfcc.norms  # noqa: F401

    assert callable(iccf.explain) and callable(wfcc.norms)
    assert iccf.reference.__name__ == "ratings.engines.iccf.reference"


BLAS = {"dot", "vdot", "matmul", "inner", "outer", "tensordot", "einsum", "linalg", "lstsq"}
BLAS |= {"polyfit", "solve", "cov", "corrcoef"}


def test_the_engines_do_no_linear_algebra():
    """The command line runs OpenBLAS on one thread (__main__._run_as_program): that cannot
    change a number only while no engine multiplies matrices."""
    for path in sorted(ENGINES_ROOT.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_bytes())):
            assert not (isinstance(node, ast.Attribute) and node.attr in BLAS), (path, node.attr)
            assert not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult)), path
