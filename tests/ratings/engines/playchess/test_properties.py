"""PlayChess: the fast engine equals the scalar reference on generated batches; explain() equals
the engine; results that RULES makes order-free do not depend on the order of games or players."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engines import playchess as pc
from ratings.engines.playchess import Game, KTable, Params, Player, PriorGame
from ratings.engines.playchess import reference as ref

ratings = st.integers(min_value=400 * 4, max_value=2900 * 4).map(lambda q: q / 4)
# around the thresholds that matter: new, provisional, the 10th game, g's 30 and 80 nodes
game_counts = st.sampled_from([0, 0, 1, 3, 5, 7, 8, 9, 9, 10, 11, 12, 29, 30, 31, 55, 79, 80, 81])


@st.composite
def a_player(draw, pid: str) -> Player:
    games = draw(game_counts)
    if games == 0:
        return Player(pid, draw(st.none() | ratings))
    rating = draw(ratings)
    if games >= 10:
        return Player(pid, rating, games)
    if draw(st.booleans()):
        history = tuple(
            PriorGame(draw(ratings), draw(st.sampled_from([0.0, 0.5, 1.0]))) for _ in range(games)
        )
        return Player(pid, rating, games, history=history)
    score = draw(st.integers(0, 2 * games)) / 2
    return Player(pid, rating, games, score=score, opponents=games * draw(ratings))


@st.composite
def a_batch(draw):
    n = draw(st.integers(2, 10))
    players = [draw(a_player(f"p{i}")) for i in range(n)]
    pairs = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(lambda t: t[0] != t[1])
    games = [
        Game(f"p{w}", f"p{b}", draw(st.sampled_from([0.0, 0.5, 1.0])))
        for w, b in draw(st.lists(pairs, max_size=40))
    ]
    params = draw(
        st.sampled_from(
            [
                Params(),
                Params(entry_rating=1200.0, cutoff=300.0),
                Params(k_table=KTable(((1800.0, 32.0), (2100.0, 24.0), (2500.0, 16.0)))),
                # g that moves between 0 and 20 games: N of a split batch must be 10
                Params(k_table=KTable(g_nodes=((0.0, 2.0), (20.0, 1.0)))),
            ]
        )
    )
    return players, games, params


def close(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is b
    return a == pytest.approx(b, rel=1e-12, abs=1e-9)


@settings(max_examples=100, deadline=None)
@given(a_batch())
def test_fast_engine_equals_reference(batch):
    players, games, params = batch
    fast = pc.rate_batch(players, games, params)
    slow = ref.rate_batch(players, games, params)
    for f, s in zip(fast.players, slow.players, strict=True):
        assert (f.id, f.games, f.provisional, f.score) == (s.id, s.games, s.provisional, s.score)
        assert close(f.rating, s.rating) and close(f.opponents, s.opponents)
        assert f.published_rating == s.published_rating or abs(f.rating % 1 - 0.5) < 1e-9
    for f, s in zip(fast.games, slow.games, strict=True):
        assert (f.white_provisional, f.black_provisional) == (
            s.white_provisional,
            s.black_provisional,
        )
        assert close(f.white_opponent_rating, s.white_opponent_rating)
        assert close(f.black_opponent_rating, s.black_opponent_rating)
        assert close(f.white_change, s.white_change) and close(f.black_change, s.black_change)


@settings(max_examples=50, deadline=None)
@given(a_batch())
def test_explain_equals_the_engine(batch):
    players, games, params = batch
    out = pc.rate_batch(players, games, params)
    for player, result in zip(players, out.players, strict=True):
        why = pc.explain(players, games, player.id, params)
        assert why.result == result
        rating = why.established.rating if why.established else None
        if rating is None and why.provisional:
            rating = why.provisional.rating
        if rating is not None:
            assert rating == result.rating
        for step in why.provisional.steps if why.provisional else ():
            game = out.games[step.game]
            side = "white" if games[step.game].white == player.id else "black"
            assert step.opponent_rating_used == getattr(game, f"{side}_opponent_rating")
        for step in why.established.steps if why.established else ():
            side = "white" if games[step.game].white == player.id else "black"
            assert step.dr == getattr(out.games[step.game], f"{side}_change")
            assert step.k == step.r * step.g


@settings(max_examples=50, deadline=None)
@given(a_batch(), st.randoms(use_true_random=False))
def test_order_matters_only_where_a_batch_crosses_the_tenth_game(batch, rnd):
    players, games, params = batch
    shuffled_games = games[:]
    rnd.shuffle(shuffled_games)
    shuffled_players = players[:]
    rnd.shuffle(shuffled_players)
    first = {p.id: p for p in pc.rate_batch(players, games, params).players}
    again = {p.id: p for p in pc.rate_batch(shuffled_players, shuffled_games, params).players}
    est = params.established_games
    for player in players:
        crosses = player.games < est < first[player.id].games
        if not crosses:  # exact: fsum sums do not depend on the order
            assert first[player.id] == again[player.id]
