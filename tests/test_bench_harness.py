"""`make bench`'s runner (tests/benchmarks/run.py): which modules it runs, how it reports each
one's status, and the BENCH line every figure is printed as. Dummy modules, no real benchmark."""

from __future__ import annotations

import math
import re

import pytest

from tests.benchmarks import run
from tests.benchmarks.report import bench_line

LINE = re.compile(
    r"^BENCH name=(?P<name>\S+) value=(?P<value>\S+) unit=(?P<unit>\S+) vs=(?P<vs>\S+) "
    r"vs_value=(?P<vs_value>\S+) ratio=(?P<ratio>\S+)$"
)


def test_bench_line_is_parseable_and_its_ratio_is_value_over_vs_value():
    fields = LINE.match(bench_line("iccf_cli", 0.4, "s", "glicko2_cli", 1.6)).groupdict()
    assert (fields["name"], fields["unit"], fields["vs"]) == ("iccf_cli", "s", "glicko2_cli")
    assert float(fields["ratio"]) == pytest.approx(float(fields["value"]) / 1.6)
    assert math.isnan(float(LINE.match(bench_line("x", 1, "s", "y", 0)).group("ratio")))


def test_selection_by_name_with_or_without_the_prefix():
    names = ["bench_egf", "bench_iccf", "bench_site"]
    assert run.select(names, []) == (names, [])
    assert run.select(names, ["iccf", "bench_site"]) == (["bench_iccf", "bench_site"], [])
    assert run.select(names, ["iccf", "nope"]) == (["bench_iccf"], ["bench_nope"])


def test_every_benchmark_module_is_found():
    assert {"bench_iccf", "bench_egf", "bench_runs", "bench_site"} <= set(run.benchmark_names())
    assert all(n.startswith("bench_") for n in run.benchmark_names())  # no helper modules


DUMMIES = {
    "bench_good": "print('BENCH name=a value=1 unit=s vs=b vs_value=2 ratio=0.5')",
    "bench_skips": "print('skipped: no PostgreSQL here')",
    "bench_raises": "raise SystemExit(3)",
    "bench_hangs": "import time\nprint('started', flush=True)\ntime.sleep(60)",
}


@pytest.fixture
def dummies(tmp_path, monkeypatch):
    package = tmp_path / "dummy_benchmarks"
    package.mkdir()
    (package / "__init__.py").write_text("")
    for name, code in DUMMIES.items():
        (package / f"{name}.py").write_text(code + "\n")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    return "dummy_benchmarks"


@pytest.mark.parametrize(
    ("name", "status", "figures"),
    [
        ("bench_good", "ok", 1),
        ("bench_skips", "skipped: skipped: no PostgreSQL here", 0),
        ("bench_raises", "FAILED: exit 3", 0),
        ("bench_hangs", "FAILED: stopped after 2 s", 0),
    ],
)
def test_each_module_reports_its_status(dummies, name, status, figures, capsys):
    found_status, lines = run.run_module(name, seconds=2, package=dummies)
    assert (found_status, len(lines)) == (status, figures)
