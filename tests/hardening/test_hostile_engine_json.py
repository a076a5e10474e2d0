"""Every engine command line fed generated hostile JSON: never a traceback; exit 2 with one
stderr line naming the place for input that is surely wrong; exit 0 only with strict JSON out.

In-process (``ratings.engines.__main__.main``) for speed, plus real subprocess runs for the
cases where the process boundary matters (bytes on stdin, a 10 MB file, an empty file).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.engines.__main__ import main
from tests.hardening.hostile import SEEDS, SYSTEMS, TRIED, Case, dumps, json_cases, run_main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = int(os.environ.get("HARDEN_EXAMPLES", "100"))  # a longer hunt: HARDEN_EXAMPLES=5000
# "where: what" -- where names the entry: input, players[3].rating, tournament.solvers[0], ...
ONE_MESSAGE = re.compile(r"^[^\s:][^:\n]*: \S[^\n]*\n$")


def check(outcome, case: Case) -> None:
    assert outcome.code in (0, 2), (case.label, outcome)
    if outcome.code == 2:
        assert outcome.stdout == "", case.label
        assert ONE_MESSAGE.match(outcome.stderr), (case.label, outcome.stderr)
    else:
        assert not case.must_fail, (case.label, outcome.stdout[:200])
        json.loads(outcome.stdout, parse_constant=lambda name: pytest.fail(name))


def test_seeds_are_accepted(tmp_path):
    """The mutations start from inputs each engine accepts, so a refusal is the mutation's."""
    for system, seed in SEEDS.items():
        path = tmp_path / f"{system}.json"
        path.write_text(dumps(seed))
        outcome = run_main(main, [system, str(path)])
        assert outcome.code == 0, (system, outcome.stderr)


@pytest.mark.parametrize("system", SYSTEMS)
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_engine_command_line_never_raises(system, data, tmp_path_factory):
    case = data.draw(json_cases(system))
    path = tmp_path_factory.mktemp("in") / "input.json"
    path.write_bytes(case.data)
    TRIED[f"engine {system}"] += 1
    check(run_main(main, [system, str(path)]), case)


def _subprocess(system: str, data: bytes, *, stdin: bool, tmp_path: Path):
    args = [sys.executable, "-m", "ratings.engines", system]
    if stdin:
        return subprocess.run([*args, "-"], input=data, capture_output=True, cwd=ROOT, timeout=120)
    path = tmp_path / "input.json"
    path.write_bytes(data)
    return subprocess.run([*args, str(path)], capture_output=True, cwd=ROOT, timeout=120)


def _ten_megabytes(system: str) -> bytes:
    """A 10 MB document: the seed with one entry's id padded, then a junk tail (so it is
    refused for the junk, after the whole file was read)."""
    text = dumps(SEEDS[system])
    return (text + " " * (10 * 1024 * 1024 - len(text)) + "x").encode()


def _first_rating(system: str, number: str) -> bytes:
    """The seed with its first rating written as ``number``."""
    return re.sub(
        r'"rating": [0-9.]+', f'"rating": {number}', dumps(SEEDS[system]), count=1
    ).encode()


SUBPROCESS_CASES = {
    "non-UTF-8 bytes": lambda s: b'{"players": ["\xff\xfe"]}',
    "empty file": lambda s: b"",
    "NaN": lambda s: _first_rating(s, "NaN"),
    "Infinity": lambda s: _first_rating(s, "-Infinity"),
    "1e400": lambda s: _first_rating(s, "1e400"),
    "huge number": lambda s: _first_rating(s, "9" * 5000),
    "truncated": lambda s: dumps(SEEDS[s]).encode()[:-7],
    "10 MB": _ten_megabytes,
}


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("name", list(SUBPROCESS_CASES))
def test_real_process_refuses_with_one_line(system, name, tmp_path):
    data = SUBPROCESS_CASES[name](system)
    done = _subprocess(system, data, stdin=name != "10 MB", tmp_path=tmp_path)
    TRIED[f"engine {system} (subprocess)"] += 1
    assert done.returncode == 2, (name, done.stdout[:200], done.stderr[-500:])
    assert done.stdout == b""
    assert b"Traceback" not in done.stderr
    assert ONE_MESSAGE.match(done.stderr.decode()), done.stderr
