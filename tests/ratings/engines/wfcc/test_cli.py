"""``python -m ratings.engines wfcc INPUT.json``: JSON out, and exit 2 with one stderr line on bad
input (nothing on stdout)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[4]

# The plain case of wfcc/test_golden (Slope 0.05, Intercept -68, KT 2), with s2's second
# half-rating: PerfRat (48 + 68)/0.05 = 2320, full rating (2310.5 + 2320)/2 = 2315.25.
GOOD = {
    "params": {"floor": 0},
    "half_ratings": {"s2": [2310.5]},
    "tournaments": [
        {
            "id": "ECSC-2026",
            "kt": 2,
            "multi_location": False,
            "problems": [6, 6],
            "solvers": [
                {"id": "A", "country": "SRB", "rating": 2400, "rounds": [25, 25], "time": 410},
                {"id": "B", "country": "POL", "rating": 2200.0, "rounds": [30, 16], "time": 380},
                {"id": "C", "country": "GER", "rating": 2000, "rounds": [10, 20]},
                {"id": "s2", "country": "POL", "rounds": [20, 28]},
            ],
        }
    ],
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
    assert out["not_rated"] == []
    (t,) = out["tournaments"]
    assert t["id"] == "ECSC-2026" and t["sorted"] is False and t["corrected"] is False
    assert t["slope"] == pytest.approx(0.05) and t["intercept"] == pytest.approx(-68)
    assert t["rmas"] == 58.0 and t["correlation"] == pytest.approx(5 / 28**0.5)
    solvers = t["solvers"]
    assert [s["id"] for s in solvers] == ["A", "s2", "B", "C"]
    a, s2 = solvers[0], solvers[1]
    assert a["place"] == 1 and a["result"] == 50.0 and a["expected"] == pytest.approx(52)
    assert (a["change"], a["rating"], a["published_rating"], a["norms"]) == (-4.0, 2396.0, 2396, [])
    assert a["performance"] == 2360.0
    assert s2["place"] == 2 and s2["result"] == 48.0 and "expected" not in s2
    assert s2["half_ratings"] == [2310.5, 2320.0]
    assert (s2["rating"], s2["published_rating"]) == (2315.25, 2315)


def test_params_are_optional():
    payload = {"tournaments": GOOD["tournaments"]}
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
        "more than 5 per problem",
        mutate("tournaments.0.solvers.1.rounds", [30.25, 16]),
        "tournaments[0].solvers[1].rounds[0]",
    ),
    (
        "negative points",
        mutate("tournaments.0.solvers.2.rounds", [-1, 20]),
        "tournaments[0].solvers[2].rounds[0]",
    ),
    (
        "three decimals",
        mutate("tournaments.0.solvers.2.rounds", [10.125, 20]),
        "tournaments[0].solvers[2].rounds[0]",
    ),
    ("negative time", mutate("tournaments.0.solvers.0.time", -1), "tournaments[0].solvers[0].time"),
    (
        "round count",
        mutate("tournaments.0.solvers.3.rounds", [20, 28, 1]),
        "tournaments[0].solvers[3].rounds",
    ),
    ("duplicate id", mutate("tournaments.0.solvers.3.id", "A"), "tournaments[0].solvers[3].id"),
    ("kt outside the Annex", mutate("tournaments.0.kt", 5), "tournaments[0].kt"),
    ("missing kt", mutate("tournaments.0.kt", DELETE), "tournaments[0].kt"),
    (
        "multi_location not a bool",
        mutate("tournaments.0.multi_location", "no"),
        "tournaments[0].multi_location",
    ),
    (
        "unknown entry",
        mutate("tournaments.0.solvers.0.ratng", 2400),
        "tournaments[0].solvers[0].ratng",
    ),
    (
        "rating as text",
        mutate("tournaments.0.solvers.0.rating", "2400"),
        "tournaments[0].solvers[0].rating",
    ),
    (
        "half-ratings with a rating",
        mutate("tournaments.0.solvers.0.half_ratings", [2300]),
        "tournaments[0].solvers[0].half_ratings",
    ),
    (
        "two half-ratings",
        mutate("tournaments.0.solvers.3.half_ratings", [2300, 2310]),
        "tournaments[0].solvers[3].half_ratings",
    ),
    ("floor as text", mutate("params.floor", "zero"), "params.floor"),
    ("half-rating as text", mutate("half_ratings.s2", ["2310.5"]), "half_ratings.s2[0]"),
    ("half-ratings not a list", mutate("half_ratings.s2", 2310.5), "half_ratings.s2"),
    ("a single tournament", {"tournament": GOOD["tournaments"][0]}, "input.tournament"),
    (
        "problems not a count",
        mutate("tournaments.0.problems", [6, 0]),
        "tournaments[0].problems[1]",
    ),
]


@pytest.mark.parametrize(("what", "payload", "where"), BAD, ids=[b[0] for b in BAD])
def test_rejects_bad_input(what, payload, where):
    done = run(payload)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"{where}: ")


@pytest.mark.parametrize("raw", ["", "{", '{"tournaments": NaN}', "[]"])
def test_rejects_malformed_json(raw):
    done = run(None, raw=raw)
    assert done.returncode == 2 and done.stdout == "" and len(done.stderr.splitlines()) == 1


UNRATABLE = [
    # (what, payload): the formulas break down, RULES 4.1 [P]: not rated, flagged
    ("one rated solver", mutate("tournaments.0.solvers", GOOD["tournaments"][0]["solvers"][2:])),
    (
        "equal ratings",
        mutate("tournaments.0.solvers.0.rating", 2000, "tournaments.0.solvers.1.rating", 2000.0),
    ),
    (
        "no regression: equal results",
        mutate(
            "tournaments.0.solvers.1.rounds", [25, 25], "tournaments.0.solvers.2.rounds", [20, 30]
        ),
    ),
]


@pytest.mark.parametrize(("what", "payload"), UNRATABLE, ids=[u[0] for u in UNRATABLE])
def test_a_tournament_the_formulas_cannot_rate_is_reported_not_rated(what, payload):
    """The other tournaments of the period are still rated, as a run rates them."""
    payload["tournaments"].append(GOOD["tournaments"][0] | {"id": "OTHER"})
    done = run(payload)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert [t["id"] for t in out["tournaments"]] == ["OTHER"]
    (not_rated,) = out["not_rated"]
    assert not_rated["id"] == "ECSC-2026"
    assert not_rated["reason"].startswith("tournament.solvers: ")


def test_half_ratings_carry_from_one_tournament_to_the_next():
    """s2's second half-rating (2320 at the first tournament) makes his full rating; a new
    solver's first half-rating at the first tournament is carried into the second."""
    first = copy.deepcopy(GOOD["tournaments"][0])
    first["solvers"].append({"id": "new", "rounds": [22, 22]})
    second = copy.deepcopy(first) | {"id": "LATER"}
    payload = {"half_ratings": GOOD["half_ratings"], "tournaments": [first, second]}
    done = run(payload)
    assert done.returncode == 0, done.stderr
    one, two = ({s["id"]: s for s in t["solvers"]} for t in json.loads(done.stdout)["tournaments"])
    assert one["s2"]["half_ratings"] == [2310.5, 2320.0] and one["s2"]["rating"] == 2315.25
    assert one["new"]["half_ratings"] == [one["new"]["performance"]] and "rating" not in one["new"]
    assert two["new"]["half_ratings"] == [one["new"]["performance"], two["new"]["performance"]]
    # s2 has no full rating on the list valid at the start: he again brings his first half
    assert two["s2"]["half_ratings"] == [2310.5, two["s2"]["performance"]]
