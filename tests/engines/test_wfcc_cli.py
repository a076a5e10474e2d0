"""``python -m ratings.engines wfcc INPUT.json``: JSON out, and exit 2 with one stderr line on bad
input (nothing on stdout)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# The plain case of test_wfcc_golden (Slope 0.05, Intercept -68, KT 2), with s2's second
# half-rating: PerfRat (48 + 68)/0.05 = 2320, full rating (2310.5 + 2320)/2 = 2315.25.
GOOD = {
    "params": {"floor": 0},
    "tournament": {
        "id": "ECSC-2026",
        "kt": 2,
        "multi_location": False,
        "problems": [6, 6],
        "solvers": [
            {"id": "A", "country": "SRB", "rating": 2400, "rounds": [25, 25], "time": 410},
            {"id": "B", "country": "POL", "rating": 2200.0, "rounds": [30, 16], "time": 380},
            {"id": "C", "country": "GER", "rating": 2000, "rounds": [10, 20]},
            {"id": "s2", "country": "POL", "half_ratings": [2310.5], "rounds": [20, 28]},
        ],
    },
}


def run(payload, *, raw: str | None = None):
    text = raw if raw is not None else json.dumps(payload)
    return subprocess.run(
        [sys.executable, "-m", "ratings.engines", "wfcc", "-"],
        input=text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


def test_rates_a_tournament(tmp_path):
    path = tmp_path / "in.json"
    path.write_text(json.dumps(GOOD))
    done = subprocess.run(
        [sys.executable, "-m", "ratings.engines", "wfcc", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    t = out["tournament"]
    assert t["id"] == "ECSC-2026" and t["sorted"] is False and t["corrected"] is False
    assert t["slope"] == pytest.approx(0.05) and t["intercept"] == pytest.approx(-68)
    assert t["rmas"] == 58.0 and t["correlation"] == pytest.approx(5 / 28**0.5)
    solvers = out["solvers"]
    assert [s["id"] for s in solvers] == ["A", "s2", "B", "C"]
    a, s2 = solvers[0], solvers[1]
    assert a["place"] == 1 and a["result"] == 50.0 and a["expected"] == pytest.approx(52)
    assert (a["change"], a["rating"], a["published_rating"], a["norms"]) == (-4.0, 2396.0, 2396, [])
    assert a["performance"] == 2360.0
    assert s2["place"] == 2 and s2["result"] == 48.0 and "expected" not in s2
    assert s2["half_ratings"] == [2310.5, 2320.0]
    assert (s2["rating"], s2["published_rating"]) == (2315.25, 2315)


def test_params_are_optional():
    payload = {"tournament": GOOD["tournament"]}
    assert run(payload).returncode == 0


def mutate(*changes):
    """GOOD with each (dotted path, value) change applied; list indices as numbers."""
    payload = copy.deepcopy(GOOD)
    for i in range(0, len(changes), 2):
        path, value = changes[i], changes[i + 1]
        *parents, last = path.split(".")
        node = payload
        for key in parents:
            node = node[int(key)] if key.isdigit() else node[key]
        key = int(last) if last.isdigit() else last
        if value is DELETE:
            del node[key]
        else:
            node[key] = value
    return payload


DELETE = object()

BAD = [
    # (what, payload, entry named on stderr)
    (
        "one rated solver",
        mutate("tournament.solvers", GOOD["tournament"]["solvers"][2:]),
        "tournament.solvers",
    ),
    (
        "equal ratings",
        mutate("tournament.solvers.0.rating", 2000, "tournament.solvers.1.rating", 2000.0),
        "tournament.solvers",
    ),
    (
        "more than 5 per problem",
        mutate("tournament.solvers.1.rounds", [30.25, 16]),
        "tournament.solvers[1].rounds[0]",
    ),
    (
        "negative points",
        mutate("tournament.solvers.2.rounds", [-1, 20]),
        "tournament.solvers[2].rounds[0]",
    ),
    (
        "three decimals",
        mutate("tournament.solvers.2.rounds", [10.125, 20]),
        "tournament.solvers[2].rounds[0]",
    ),
    ("negative time", mutate("tournament.solvers.0.time", -1), "tournament.solvers[0].time"),
    (
        "round count",
        mutate("tournament.solvers.3.rounds", [20, 28, 1]),
        "tournament.solvers[3].rounds",
    ),
    ("duplicate id", mutate("tournament.solvers.3.id", "A"), "tournament.solvers[3].id"),
    ("kt outside the Annex", mutate("tournament.kt", 5), "tournament.kt"),
    ("missing kt", mutate("tournament.kt", DELETE), "tournament.kt"),
    (
        "multi_location not a bool",
        mutate("tournament.multi_location", "no"),
        "tournament.multi_location",
    ),
    ("unknown entry", mutate("tournament.solvers.0.ratng", 2400), "tournament.solvers[0].ratng"),
    (
        "rating as text",
        mutate("tournament.solvers.0.rating", "2400"),
        "tournament.solvers[0].rating",
    ),
    (
        "half-ratings with a rating",
        mutate("tournament.solvers.0.half_ratings", [2300]),
        "tournament.solvers[0].half_ratings",
    ),
    (
        "two half-ratings",
        mutate("tournament.solvers.3.half_ratings", [2300, 2310]),
        "tournament.solvers[3].half_ratings",
    ),
    ("floor as text", mutate("params.floor", "zero"), "params.floor"),
    (
        "no regression: equal results",
        mutate("tournament.solvers.1.rounds", [25, 25], "tournament.solvers.2.rounds", [20, 30]),
        "tournament.solvers",
    ),
    ("problems not a count", mutate("tournament.problems", [6, 0]), "tournament.problems[1]"),
]


@pytest.mark.parametrize(("what", "payload", "where"), BAD, ids=[b[0] for b in BAD])
def test_rejects_bad_input(what, payload, where):
    done = run(payload)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"{where}: ")


@pytest.mark.parametrize("raw", ["", "{", '{"tournament": NaN}', "[]"])
def test_rejects_malformed_json(raw):
    done = run(None, raw=raw)
    assert done.returncode == 2 and done.stdout == "" and len(done.stderr.splitlines()) == 1
