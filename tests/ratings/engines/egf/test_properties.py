"""EGF GoR: the vectorised engine against the scalar reference on generated histories."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engines import egf
from ratings.engines.core import grades
from ratings.engines.egf import Game, Params, PlayerEntry, Tournament
from ratings.engines.egf import reference as reference

GRADES = (
    [f"{k}k" for k in (30, 25, 20, 15, 10, 5, 3, 2, 1)]
    + [f"{d}d" for d in range(1, 8)]
    + [
        "1p",
        "2p",
        "5p",
    ]
)


@st.composite
def tournaments(draw, pool: int = 12, max_tournaments: int = 6):
    """A history over a small pool of players, so that players meet again, carry ratings,
    change grades (resets) and sometimes come with a given rating and a highest grade before."""
    history = []
    for t in range(draw(st.integers(0, max_tournaments))):
        members = draw(st.lists(st.integers(0, pool - 1), min_size=2, max_size=pool, unique=True))
        players = tuple(
            PlayerEntry(
                id=f"p{m}",
                grade=draw(st.sampled_from(GRADES)),
                rating=draw(st.none() | st.floats(-50.0, 3200.0, allow_nan=False)),
                highest_grade=draw(st.none() | st.sampled_from(GRADES)),
            )
            for m in members
        )
        games = []
        for _ in range(draw(st.integers(0, 12))):
            white, black = draw(
                st.lists(st.sampled_from(members), min_size=2, max_size=2, unique=True)
            )
            games.append(
                Game(
                    white=f"p{white}",
                    black=f"p{black}",
                    result=draw(st.sampled_from([0.0, 0.5, 1.0])),
                    handicap=draw(st.integers(0, 12)),
                )
            )
        cls = draw(st.sampled_from("ABCD"))
        history.append(Tournament(f"T{t}", cls, None, players, tuple(games)))
    return history


params = st.builds(
    Params, epsilon=st.sampled_from([0.0, 0.016, 0.05]), weight_before_cap=st.booleans()
)


@settings(max_examples=100, deadline=None)
@given(tournaments(), params)
def test_fast_engine_equals_reference(history, p):
    fast = egf.rate_history(history, p)
    slow = reference.rate_history(history, p)
    assert [t.id for t in fast] == [t.id for t in slow]
    for a, b in zip(fast, slow, strict=True):
        for x, y in zip(a.players, b.players, strict=True):
            assert (x.id, x.games, x.start) == (y.id, y.games, y.start)
            assert abs(x.before - y.before) <= 1e-9
            assert abs(x.after - y.after) <= 1e-9


@settings(max_examples=60, deadline=None)
@given(tournaments(max_tournaments=1).filter(bool), params)
def test_explanation_equals_the_engine(history, p):
    (tournament,) = history
    rated = egf.rate_tournament(tournament, p)
    for change in rated.players:
        explained = egf.explain_player(tournament, change.id, p)
        assert explained.before == change.before
        assert explained.after == change.after
        assert len(explained.games) == change.games
        for game in explained.games:
            assert game.change == game.con * (game.score - game.expected)


@settings(max_examples=50, deadline=None)
@given(tournaments(), params)
def test_ratings_stay_on_or_above_the_floor_and_drop_at_most_100(history, p):
    for t in egf.rate_history(history, p):
        for change in t.players:
            assert change.after >= grades.FLOOR
            assert change.after >= change.before - 100.0 or change.after == grades.FLOOR
