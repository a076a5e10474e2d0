"""EGF tables: write -> parse gives back the same header, players and games (hypothesis)."""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats import egf as h9

WORD = st.text(
    alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyzéüøš-", min_size=1, max_size=8
)
NAME_PART = st.lists(WORD, min_size=1, max_size=2).map(" ".join)  # inner blanks become "_"
GRADE = st.one_of(
    st.integers(1, 30).map(lambda k: f"{k}k"),
    st.integers(1, 9).map(lambda d: f"{d}d"),
    st.integers(1, 9).map(lambda p: f"{p}p"),
)
CRITERION = st.builds(lambda n, q: f"{n}{'?' if q else ''}", st.integers(0, 999), st.booleans())

HEADERS = st.builds(
    h9.Header,
    tournament_class=st.sampled_from(["A", "B", "C", "D", None]),
    name=st.none()
    | st.text(alphabet="abc XYZ0123-", min_size=1, max_size=12).map(str.strip).filter(bool),
    start_date=st.none() | st.sampled_from(["2024-05-04", "1999-12-31"]),
    handicap_reduction=st.none() | st.integers(0, 9),
    komi=st.none() | st.sampled_from([0.5, 6.5, 7.0]),
    adjusted_time=st.none() | st.integers(30, 300),
    comment=st.none() | st.sampled_from(["Standard byo-yomi", "Fischer 45+15"]),
    egd_code=st.none() | st.sampled_from(["T160130A", "E240504"]),
)


@st.composite
def tables(draw):
    header = draw(HEADERS)
    if header.start_date:
        header = dataclasses.replace(
            header, end_date=draw(st.sampled_from([header.start_date, "2025-01-01"]))
        )
    n = draw(st.integers(2, 10))
    rounds = draw(st.integers(1, 4))
    pins = draw(st.lists(st.integers(10_000_000, 99_999_999), min_size=n, max_size=n, unique=True))
    players = tuple(
        h9.Player(
            line=0,
            ordinal=i + 1,
            place=draw(st.none() | st.just(i + 1)),
            surname=draw(NAME_PART),
            first_name=draw(st.just("") | NAME_PART),
            grade=draw(GRADE),
            country=draw(st.sampled_from(["CZ", "FR", "XX"])),
            club=draw(st.sampled_from(["Brno", "75Op", "xxxx", "eGo"])),
            criteria=tuple(draw(st.lists(CRITERION, max_size=3))),
            pin=str(pins[i]) if draw(st.booleans()) else None,
        )
        for i in range(n)
    )
    games, free = [], []
    for r in range(1, rounds + 1):
        order = draw(st.permutations(range(1, n + 1)))
        pairs = draw(st.integers(0, n // 2))
        for k in range(pairs):
            a, b = sorted(order[2 * k : 2 * k + 2])
            scores = draw(
                st.sampled_from(
                    [(1.0, 0.0), (0.0, 1.0), (0.5, 0.5), (None, None), (1.0, 1.0), (0.0, 0.0)]
                )
            )
            colours_known = draw(st.booleans())
            white, black = (a, b) if not colours_known or draw(st.booleans()) else (b, a)
            by_default = draw(st.booleans())
            handicap = draw(st.integers(0, 12))
            rated = not by_default and colours_known and None not in scores and sum(scores) == 1.0
            games.append(
                h9.TableGame(r, white, black, *scores, handicap, by_default, rated, colours_known)
            )
        for ordinal in order[2 * pairs :]:
            free.append(h9.FreeRound(ordinal, r, draw(st.sampled_from("+-="))))
    return h9.ParsedTable(header, players, tuple(games), tuple(free), rounds, (), ())


def canonical_games(games):
    return sorted(games, key=lambda g: (g.round, min(g.white, g.black)))


@settings(max_examples=100, deadline=None)
@given(tables())
def test_write_then_parse_gives_the_same_table(original):
    parsed = h9.parse_table(h9.write_table(original))
    assert parsed.errors == ()
    assert parsed.rounds == original.rounds
    assert canonical_games(parsed.games) == canonical_games(original.games)
    assert sorted(parsed.free_rounds, key=lambda f: (f.round, f.ordinal)) == sorted(
        original.free_rounds, key=lambda f: (f.round, f.ordinal)
    )
    assert [dataclasses.replace(p, line=0) for p in parsed.players] == list(original.players)
    header = original.header
    assert dataclasses.replace(parsed.header, place=None, country=None, city=None) == header


@settings(max_examples=30, deadline=None)
@given(tables(), st.sampled_from(["latin", "utf-8"]))
def test_bytes_in_either_encoding_parse_the_same(original, encoding):
    text = h9.write_table(original)
    data = text.encode("iso8859_15" if encoding == "latin" else "utf-8")
    assert h9.parse_table(data).players == h9.parse_table(text).players
