"""``python -m ratings.engines egf INPUT.json``: the JSON contract, run as a subprocess."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[4]

CONTRACT_EXAMPLE = {
    "params": {"epsilon": 0.016},
    "tournaments": [
        {
            "id": "T130727A",
            "class": "A",
            "date": "2013-07-27",
            "players": [
                {"id": "12850431", "grade": "3d", "rating": 2290.5},
                {"id": "2", "grade": "5k"},
            ],
            "games": [{"white": "12850431", "black": "2", "result": 1, "handicap": 0}],
        }
    ],
}


def run(data, tmp_path):
    path = tmp_path / "input.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return subprocess.run(
        [sys.executable, "-m", "ratings.engines", "egf", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_contract_example(tmp_path):
    done = run(CONTRACT_EXAMPLE, tmp_path)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    (tournament,) = out["tournaments"]
    assert tournament["id"] == "T130727A"
    white, black = tournament["players"]
    assert set(white) == {"id", "before", "after", "games"}
    assert (white["id"], white["before"], white["games"]) == ("12850431", 2290.5, 1)
    assert str(white["after"]).startswith("2290.7189")
    assert (black["id"], black["before"], black["games"]) == ("2", 1600.0, 1)
    # Formula by hand: a(1600) = 125, con(1600) = 43. So lopsided that SE(Black) < 0 once
    # eps/2 is taken off: the loser gains a little (a known property of the old system).
    expected_black = 1 / (math.exp((2290.5 - 1600) / 125) + 1) - 0.008
    assert expected_black < 0
    assert black["after"] == pytest.approx(1600 + 43 * (0 - expected_black), abs=1e-9)


def test_ratings_carry_through_the_input_and_epsilon_is_optional(tmp_path):
    second = {
        "id": "T2",
        "class": "B",
        "date": "2013-08-01",
        "players": [{"id": "2", "grade": "5k"}, {"id": "3", "grade": "5k"}],
        "games": [{"white": "3", "black": "2", "result": 0.5}],
    }
    data = {"tournaments": [*CONTRACT_EXAMPLE["tournaments"], second]}
    out = json.loads(run(data, tmp_path).stdout)
    first_after = out["tournaments"][0]["players"][1]["after"]
    assert out["tournaments"][1]["players"][0]["before"] == first_after


@pytest.mark.parametrize(
    ("mutate", "where"),
    [
        (lambda d: d["tournaments"][0].update({"class": "E"}), "tournaments[0].class"),
        (
            lambda d: d["tournaments"][0]["games"][0].update({"result": 2}),
            "tournaments[0].games[0].result",
        ),
        (
            lambda d: d["tournaments"][0]["games"][0].update({"handicap": -1}),
            "tournaments[0].games[0].handicap",
        ),
        (
            lambda d: d["tournaments"][0]["games"][0].update({"black": "9"}),
            "tournaments[0].games[0].black",
        ),
        (
            lambda d: d["tournaments"][0]["players"][1].update({"grade": "12x"}),
            "tournaments[0].players[1].grade",
        ),
        (lambda d: d["params"].update({"epsilon": "x"}), "params.epsilon"),
        (lambda d: d.pop("tournaments"), "input"),
    ],
)
def test_bad_input_exits_2_with_one_line(tmp_path, mutate, where):
    data = json.loads(json.dumps(CONTRACT_EXAMPLE))
    mutate(data)
    done = run(data, tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith(where)


def test_malformed_json(tmp_path):
    done = run("{not json", tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.count("\n") == 1
