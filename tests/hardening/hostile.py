"""Generated hostile input for the command lines: valid seeds, then one mutation each.

Every seed is a document the command line accepts; a mutation either surely breaks it (the
command must exit 2 with one message naming the place) or may break it (the command must exit 0
or 2, never raise). ``TRIED`` counts what was fed, per command, for the report.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from hypothesis import strategies as st

from tests.ratings.engines.wfcc.test_cli import GOOD as WFCC_GOOD  # the CLI tests' valid input

TRIED: Counter[str] = Counter()

SEEDS: dict[str, dict] = {
    "iccf": {
        "params": {"c": 0},
        "players": [
            {"id": "7", "rating": 1900.0, "rd": 80.0},
            {"id": "1", "rating": 1750, "rd": 150},
            {"id": "2", "rating": 2000, "rd": 70},
            {"id": "8", "unrated": True, "fide": 2150},
        ],
        "games": [
            {"white": "7", "black": "1", "result": 1},
            {"white": "2", "black": "7", "result": 0.5},
            {"white": "8", "black": "2", "result": 0},
        ],
    },
    "egf": {
        "params": {"epsilon": 0.016},
        "tournaments": [
            {
                "id": "T130727A",
                "class": "A",
                "date": "2013-07-27",
                "players": [
                    {"id": "12850431", "grade": "3d", "rating": 2290.5},
                    {"id": "2", "grade": "5k"},
                    {"id": "3", "grade": "1d"},
                ],
                "games": [
                    {"white": "12850431", "black": "2", "result": 1, "handicap": 0},
                    {"white": "3", "black": "2", "result": 0.5, "handicap": 2},
                ],
            }
        ],
    },
    "playchess": {
        "players": [
            {"id": "a", "rating": 2200.0, "games": 40},
            {"id": "b", "rating": 2000.0, "games": 5, "score": 2.5, "opponents": 10000.0},
            {"id": "c"},
        ],
        "games": [
            {"white": "b", "black": "a", "result": 1},
            {"white": "c", "black": "a", "result": 0.5},
        ],
    },
    "wfcc": WFCC_GOOD,
}
SYSTEMS = tuple(SEEDS)


# ------------------------------------------------------------------------------ JSON paths


def leaves(data, path=()) -> list[tuple]:
    """Every path to a value (containers included), root excluded."""
    found = []
    items = data.items() if isinstance(data, dict) else enumerate(data)
    for key, value in items:
        found.append((*path, key))
        if isinstance(value, (dict, list)):
            found += leaves(value, (*path, key))
    return found


def get(data, path):
    for key in path:
        data = data[key]
    return data


def put(data, path, value) -> dict:
    out = copy.deepcopy(data)
    get(out, path[:-1])[path[-1]] = value
    return out


def drop(data, path) -> dict:
    out = copy.deepcopy(data)
    del get(out, path[:-1])[path[-1]]
    return out


class Raw:
    """A JSON number written verbatim (NaN, Infinity, 1e400, a 5000-digit integer)."""

    def __init__(self, text: str) -> None:
        self.text = text


def dumps(data) -> str:
    """JSON with ``Raw`` placeholders written as their text."""
    tokens: dict[str, str] = {}

    def swap(value):
        if isinstance(value, Raw):
            key = f"__raw{len(tokens)}__"
            tokens[key] = value.text
            return key
        if isinstance(value, dict):
            return {k: swap(v) for k, v in value.items()}
        if isinstance(value, list):
            return [swap(v) for v in value]
        return value

    text = json.dumps(swap(data))
    for key, raw in tokens.items():
        text = text.replace(f'"{key}"', raw)
    return text


NON_FINITE = st.sampled_from(["NaN", "Infinity", "-Infinity", "1e400", "-1e400"]).map(Raw)
HUGE_INT = st.sampled_from([4301, 5000, 20000]).map(lambda n: Raw("9" * n))
ODD_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([0, -1, 1e300, -1e300, 1e-320, 2**63, -(2**63), 0.7, 3, 10**18]),
    st.text(max_size=20),
    st.sampled_from(["", "x", "1-0", "white", "black", "?", "\u0000", "\ud7ff", "99k", "0d"]),
    st.just([]),
    st.just({}),
    st.just([[[[[]]]]]),
    st.just({"id": "zz"}),
)


@dataclass(frozen=True)
class Case:
    """One input for a command line: the bytes, and whether it must be refused."""

    label: str
    data: bytes
    must_fail: bool


@st.composite
def json_cases(draw, system: str) -> Case:
    seed = SEEDS[system]
    paths = leaves(seed)
    kind = draw(
        st.sampled_from(
            [
                "non-finite",
                "huge-int",
                "odd-value",
                "drop-key",
                "truncate",
                "non-utf8",
                "empty",
                "deep",
                "unknown-player",
                "self-play",
                "bad-result",
                "round-count",
            ]
        )
    )
    if kind in ("non-finite", "huge-int"):
        numeric = [p for p in paths if type(get(seed, p)) in (int, float)]
        path = draw(st.sampled_from(numeric))
        value = draw(NON_FINITE if kind == "non-finite" else HUGE_INT)
        return Case(f"{kind} at {path}", dumps(put(seed, path, value)).encode(), True)
    if kind == "odd-value":
        path = draw(st.sampled_from(paths))
        value = draw(ODD_VALUES)
        return Case(f"{value!r} at {path}", dumps(put(seed, path, value)).encode(), False)
    if kind == "drop-key":
        path = draw(st.sampled_from(paths))
        return Case(f"no {path}", dumps(drop(seed, path)).encode(), False)
    text = dumps(seed).encode()
    if kind == "truncate":
        cut = draw(st.integers(0, len(text) - 1))
        return Case(f"truncated at {cut}", text[:cut], True)
    if kind == "non-utf8":
        at = draw(st.integers(0, len(text)))
        junk = draw(st.sampled_from([b"\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\x80abc", b"\xfe"]))
        return Case(f"bytes {junk!r} at {at}", text[:at] + junk + text[at:], True)
    if kind == "empty":
        blank = draw(st.sampled_from([b"", b" ", b"\n\n", b"\t \r\n", b"\xef\xbb\xbf"]))
        return Case(f"blank {blank!r}", blank, True)
    if kind == "deep":
        depth = draw(st.sampled_from([1000, 5000, 100_000]))
        return Case(f"nested {depth}", b"[" * depth + b"]" * depth, True)
    return Case(kind, dumps(_semantic(draw, system, kind)).encode(), True)


def _games(data: dict, system: str) -> list[dict]:
    if system == "egf":
        return data["tournaments"][0]["games"]
    return data["games"]


def _semantic(draw, system: str, kind: str) -> dict:
    """Inputs that parse as JSON but break the rules: asymmetric pairings, wrong round counts."""
    data = copy.deepcopy(SEEDS[system])
    if system == "wfcc":
        solvers = data["tournaments"][0]["solvers"]
        solver = solvers[draw(st.integers(0, len(solvers) - 1))]
        if kind == "round-count":
            solver["rounds"] = draw(st.sampled_from([[], [1], [1, 2, 3], [1, 2, 3, 4, 5]]))
        elif kind == "bad-result":
            solver["rounds"] = [draw(st.sampled_from([-1, -0.25, 1e9])), 1]
        elif kind == "self-play":
            solvers.append(copy.deepcopy(solver))  # the same solver twice
        else:
            data["tournaments"][0]["problems"] = draw(st.sampled_from([[], [0, 6], [-1, 6]]))
        return data
    games = _games(data, system)
    game = games[draw(st.integers(0, len(games) - 1))]
    if kind == "unknown-player":
        game[draw(st.sampled_from(["white", "black"]))] = draw(st.sampled_from(["nobody", "", "0"]))
    elif kind == "self-play":
        game["black"] = game["white"]
    elif kind == "bad-result":
        game["result"] = draw(st.sampled_from([0.7, -1, 2, "1-0", None, 0.25]))
    else:  # round-count has no meaning here: a game with a missing side instead
        del game[draw(st.sampled_from(["white", "black", "result"]))]
    return data


# --------------------------------------------------------------------------- running in-process


@dataclass(frozen=True)
class Outcome:
    code: int
    stdout: str
    stderr: str


def run_main(main, argv: list[str]) -> Outcome:
    """A command line's ``main(argv)`` in this process, its output captured. An exception
    escaping ``main`` is the failure these tests look for, so it is let through."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return Outcome(code, out.getvalue(), err.getvalue())


def write(tmp: Path, name: str, data: bytes) -> Path:
    path = tmp / name
    path.write_bytes(data)
    return path
