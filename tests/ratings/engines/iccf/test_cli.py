"""``python -m ratings.engines iccf INPUT.json``: the JSON contract, run as a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[4]

EXAMPLE = {
    "params": {"c": 0},
    "players": [
        {"id": "7", "rating": 1900.0, "rd": 80.0},
        {"id": "1", "rating": 1750, "rd": 150},
        {"id": "2", "rating": 2000, "rd": 70},
        {"id": "3", "rating": 2300, "rd": 50},
        {"id": "8", "unrated": True, "fide": 2150},
        {"id": "9", "unrated": True},
    ],
    "games": [
        {"white": "7", "black": "1", "result": 1},
        {"white": "2", "black": "7", "result": 0.5},
        {"white": "7", "black": "3", "result": 0},
    ],
}


def run(payload: str | bytes, *args: str) -> subprocess.CompletedProcess:
    data = payload.encode() if isinstance(payload, str) else payload
    return subprocess.run(
        [sys.executable, "-m", "ratings.engines", "iccf", *(args or ("-",))],
        input=data,
        capture_output=True,
        cwd=ROOT,
        timeout=60,
    )


def test_worked_example_through_stdin():
    done = run(json.dumps(EXAMPLE))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)["players"]
    assert [p["id"] for p in out] == ["7", "1", "2", "3", "8", "9"]
    me = out[0]
    assert f"{me['rating']:.3f}" == "1903.568" and f"{me['rd']:.5f}" == "78.16604"
    assert (me["published_rating"], me["published_rd"], me["games"]) == (1904, 78, 3)
    # an unrated player who played nothing comes back unrated
    assert out[4] == {"id": "8", "unrated": True, "games": 0}
    assert out[5] == {"id": "9", "unrated": True, "games": 0}


def test_reads_a_file_and_applies_period_start(tmp_path):
    payload = {
        "players": [
            {"id": "a", "rating": 1902.5, "rd": 130.5},
            {"id": "b", "rating": 2000, "rd": 60},
        ],
        "games": [],
    }
    path = tmp_path / "period.json"
    path.write_text(json.dumps(payload))
    done = run(b"", str(path))
    assert done.returncode == 0, done.stderr
    a, b = json.loads(done.stdout)["players"]
    assert a == {
        "id": "a",
        "rating": 1902.5,
        "rd": 130.5,
        "published_rating": 1903,
        "published_rd": 131,
        "games": 0,
    }
    assert b["rd"] == pytest.approx((60**2 + 25**2) ** 0.5, abs=1e-12)


def test_start_ratings_and_substitutions_are_read():
    payload = {
        "players": [
            {"id": "P", "rating": 1900, "rd": 150},
            {"id": "O", "rating": 2000, "rd": 150},
            {"id": "S", "rating": 1800, "rd": 150},
            {"id": "X", "rating": 1700, "rd": 150},
        ],
        "games": [
            {"white": "P", "black": "S", "result": 1},
            {"white": "X", "black": "P", "result": 0, "white_start": 1850},
        ],
        "substitutions": [{"game": 0, "side": "black", "replaces": "O"}],
    }
    done = run(json.dumps(payload))
    assert done.returncode == 0, done.stderr
    games = {p["id"]: p["games"] for p in json.loads(done.stdout)["players"]}
    assert games == {"P": 2, "O": 1, "S": 0, "X": 1}


BAD = [
    ("{not json", "input: malformed JSON"),
    ('{"players": [{"rating": 1900, "rd": 80}], "games": []}', "players[0].id: missing"),
    (
        '{"players": [{"id": "a", "rating": 1900, "rd": 80}, {"id": "a", "unrated": true}],'
        ' "games": []}',
        "players[1].id: duplicate id",
    ),
    (
        '{"players": [{"id": "a", "rating": 1900, "rd": 80}],'
        ' "games": [{"white": "a", "black": "zz", "result": 1}]}',
        "games[0].black: unknown player",
    ),
    (
        '{"players": [{"id": "a", "rating": 1900, "rd": 80}],'
        ' "games": [{"white": "a", "black": "a", "result": 1}]}',
        "games[0]: player 'a' plays against himself",
    ),
    (
        '{"players": [{"id": "a", "unrated": true}, {"id": "b", "unrated": true}],'
        ' "games": [{"white": "a", "black": "b", "result": 0.25}]}',
        "games[0].result: result must be 1, 0.5 or 0",
    ),
    ('{"players": [{"id": "a", "rating": 1900, "rd": 0}], "games": []}', "players[0].rd:"),
    ('{"players": [{"id": "a", "rating": 1900, "rd": -5}], "games": []}', "players[0].rd:"),
    ('{"players": [{"id": "a", "rating": 1900}], "games": []}', "players[0].rd: missing"),
    (
        '{"players": [{"id": "a", "unrated": true}, {"id": "b", "unrated": true}],'
        ' "games": [{"white": "a", "black": "b", "result": 1}],'
        ' "substitutions": [{"game": 1, "side": "white", "replaces": "b"}]}',
        "substitutions[0].game: no game 1",
    ),
    (
        '{"players": [{"id": "a", "unrated": true}, {"id": "b", "unrated": true}],'
        ' "games": [{"white": "a", "black": "b", "result": 1}],'
        ' "substitutions": [{"game": 0, "side": "white", "replaces": "b"}]}',
        "substitutions[0].replaces: player 'b' would play himself",
    ),
    ('{"players": [], "games": [], "params": {"alpha_0": 1}}', "params.alpha_0: unknown field"),
    ('{"players": [], "games": [], "params": {"c": NaN}}', "input: NaN"),
]


@pytest.mark.parametrize(("payload", "message"), BAD, ids=[m.split(":")[0] for _, m in BAD])
def test_bad_input_exits_2_with_one_line_naming_the_entry(payload, message):
    done = run(payload)
    assert done.returncode == 2
    assert done.stdout == b""
    err = done.stderr.decode()
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith(message), err


def test_integer_ids_are_read_as_strings():
    payload = {
        "players": [{"id": 7, "rating": 1900, "rd": 80}, {"id": "8", "unrated": True}],
        "games": [{"white": "7", "black": 8, "result": 0.5}],
    }
    done = run(json.dumps(payload))
    assert done.returncode == 0, done.stderr
    assert [(p["id"], p["games"]) for p in json.loads(done.stdout)["players"]] == [
        ("7", 1),
        ("8", 1),
    ]


def test_missing_file_exits_2(tmp_path):
    done = run(b"", str(tmp_path / "absent.json"))
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr.decode().count("\n") == 1
