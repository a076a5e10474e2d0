"""`python -m ratings.engines playchess INPUT.json`: JSON in and out, exit 2 with one stderr line
on bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[4]

ISSUE_INPUT = {
    "players": [
        {"id": "a", "rating": 2200.0, "games": 40},
        {"id": "b", "rating": 2000.0, "games": 5, "score": 2.5, "opponents": 10000.0},
        {"id": "c"},
    ],
    "games": [{"white": "b", "black": "a", "result": 1}],
}


def run(data, tmp_path: Path) -> subprocess.CompletedProcess:
    path = tmp_path / "input.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "ratings.engines", "playchess", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_issue_example(tmp_path):
    done = run(ISSUE_INPUT, tmp_path)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    a, b, c = out["players"]
    assert b["id"] == "b" and round(b["rating"], 2) == 2090.97
    assert {
        k: b[k] for k in ("games", "score", "opponents", "provisional", "published_rating")
    } == {
        "games": 6,
        "score": 3.5,
        "opponents": 12200.0,
        "provisional": True,
        "published_rating": 2091,
    }
    # a: established, k = 18, loses with We = P(200) = 0.759747 -> −13.6754
    assert a["rating"] == pytest.approx(2200 - 13.6754, abs=5e-5)
    assert a["provisional"] is False and "score" not in a and "opponents" not in a
    assert a["published_rating"] == 2186
    assert c == {"id": "c", "games": 0, "score": 0.0, "opponents": 0.0, "provisional": True}
    (game,) = out["games"]
    assert game["white_opponent_rating"] == 2200.0 and game["white_change"] is None
    assert game["black_opponent_rating"] == 2000.0 and game["black_provisional"] is False
    assert game["black_change"] == pytest.approx(-13.6754, abs=5e-5)


def test_params_and_history(tmp_path):
    data = {
        "params": {"entry_rating": 1000, "k_table": {"r": [[0, 20]], "g": [[0, 1]]}},
        "players": [
            {"id": "n1"},
            {"id": "n2"},
            {
                "id": "h",
                "rating": 1500,
                "games": 2,
                "history": [
                    {"opponent_rating": 1400, "result": 1},
                    {"opponent_rating": 1600, "result": 0},
                ],
            },
        ],
        "games": [{"white": "n1", "black": "n2", "result": 1}],
    }
    done = run(data, tmp_path)
    assert done.returncode == 0, done.stderr
    n1, n2, h = json.loads(done.stdout)["players"]
    assert (n1["rating"], n2["rating"]) == (1400.0, 600.0)  # the dummies example at 1000
    assert (h["rating"], h["score"], h["opponents"], h["games"]) == (1500, 1.0, 3000.0, 2)


@pytest.mark.parametrize(
    ("data", "where"),
    [
        ("{", "input"),
        ({"games": []}, "players"),
        ({"players": [{"id": "a", "rating": "x"}]}, "players[0].rating"),
        ({"players": [{"id": "a", "games": 1.5, "rating": 1}]}, "players[0].games"),
        ({"players": [{"id": "a", "games": 5, "rating": 1}]}, "players[0].score"),
        (
            {"players": [{"id": "a"}], "games": [{"white": "a", "black": "z", "result": 1}]},
            "games[0].black",
        ),
        (
            {"players": [{"id": "a"}, {"id": "b"}], "games": [{"white": "a", "black": "b"}]},
            "games[0].result",
        ),
        ({"params": {"k": 1}, "players": []}, "params.k"),
        ({"params": {"cutoff": -1}, "players": []}, "params.cutoff"),
        ({"params": {"k_table": {"r": [[1, 2, 3]]}}, "players": []}, "params.k_table.r[0]"),
    ],
)
def test_bad_input_exits_2_with_one_line(tmp_path, data, where):
    done = run(data, tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(where + ":"), done.stderr
