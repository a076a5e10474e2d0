"""Slow scalar ICCF rating period, written straight from RULES §1 for the tests.

One player at a time, one game at a time, ``math.exp`` and ``math.fsum``; the constants are
repeated here on purpose so that a typo in the fast engine cannot hide in a shared value.
Input must already be valid (``ratings.engines.iccf.validate_period`` checks it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ratings.engines.core.rounding import half_up_int
from ratings.engines.iccf.types import (
    GameExplanation,
    Params,
    PlayerExplanation,
    PlayerResult,
    SubstituteDecision,
)

SCALE = 173.7
BETA0 = 1.0986
BETA1 = 0.17037


# §1.2 period start ---------------------------------------------------------------------------


def start_of_period(rating, rd, fide, params: Params) -> tuple[float, float]:
    """(r, RD) at the start of the period from the values the last period carried."""
    if rating is None:
        if fide is not None:
            return float(fide), 150.0
        return 1800.0, 250.0
    if rd > 120:
        return float(rating), float(rd)
    inflated = math.sqrt(rd * rd + params.c * params.c)
    if params.rd_cap is not None:
        inflated = min(inflated, params.rd_cap)
    return float(rating), max(inflated, 30.0)


# §1.3 steps (c)-(e) for one game --------------------------------------------------------------


def probabilities(mu: float, m: float, x: int, params: Params) -> tuple[float, float, float]:
    """Pr(win), Pr(draw), Pr(loss) of the player (mu, colour x) against opponent value m."""
    mbar = (mu + m) / 2
    colour = x * (params.alpha0 + params.alpha1 * mbar) / 4
    win = math.exp(mu + colour)
    draw = math.exp(BETA0 + (1 + BETA1) * mbar)
    loss = math.exp(m - colour)
    s = win + draw + loss
    return win / s, draw / s, loss / s


@dataclass(frozen=True)
class Terms:
    pw_minus: float
    pw_plus: float
    pd_minus: float
    pd_plus: float
    pl_minus: float
    pl_plus: float
    p: float
    w1_minus: float
    w1_plus: float
    w2_minus: float
    w2_plus: float
    d1: float
    d2: float


def game_terms(mu: float, mu_j: float, sigma_j: float, y: float, x: int, params: Params) -> Terms:
    """Steps (d) and (e): the observed result's pair picked case by case, then D1 and D2 as the
    seeds write them with y = 1, 0.5 or 0 in place (RULES §1.3)."""
    pw_m, pd_m, pl_m = probabilities(mu, mu_j - sigma_j, x, params)
    pw_p, pd_p, pl_p = probabilities(mu, mu_j + sigma_j, x, params)
    if y == 1:
        po_m, po_p = pw_m, pw_p
    elif y == 0.5:
        po_m, po_p = pd_m, pd_p
    else:
        po_m, po_p = pl_m, pl_p
    p = po_m + po_p
    w1_m = pw_m + 0.5 * pd_m
    w1_p = pw_p + 0.5 * pd_p
    w2_m = pw_m + 0.25 * pd_m
    w2_p = pw_p + 0.25 * pd_p
    d1 = (po_m * (y - w1_m) + po_p * (y - w1_p)) / p
    d2 = (
        po_m * (y * y - w2_m + 2 * w1_m * (w1_m - y))
        + po_p * (y * y - w2_p + 2 * w1_p * (w1_p - y))
    ) / p - d1 * d1
    return Terms(pw_m, pw_p, pd_m, pd_p, pl_m, pl_p, p, w1_m, w1_p, w2_m, w2_p, d1, d2)


# §1.5 and §1.6: who each game counts for and whom the opponent faced ---------------------------


@dataclass(frozen=True)
class Entry:
    """One game as it enters one player's update."""

    player: str
    game: int
    colour: str
    y: float
    played_by: str
    opponent: str
    opponent_played_by: str
    opponent_rating: float
    opponent_rd: float


def _d1_only(r, r_j, rd_j, y, x, params) -> float:
    return game_terms((r - 1500) / SCALE, (r_j - 1500) / SCALE, rd_j / SCALE, y, x, params).d1


def resolve(players, games, substitutions, params: Params):
    """Pre-period values, the entries of every player, and the rule 6 decisions."""
    start = {p.id: start_of_period(p.rating, p.rd, p.fide, params) for p in players}
    replaced = {(s.game, s.side): s.replaces for s in substitutions}
    entries: dict[str, list[Entry]] = {p.id: [] for p in players}
    decisions: list[SubstituteDecision] = []
    for index, game in enumerate(games):
        sides = {}
        for side, named, named_start in (
            ("white", game.white, game.white_start),
            ("black", game.black, game.black_start),
        ):
            original = replaced.get((index, side), named)
            # rule 1.4: the opponent sees a player who fell during the event at his start rating
            named_r = start[named][0]
            if named_start is not None and named_start > named_r:
                named_r = named_start
            if original != named and start[named][0] > start[original][0]:
                seen, seen_r = named, named_r
            elif original != named:
                seen, seen_r = original, start[original][0]
            else:
                seen, seen_r = named, named_r
            sides[side] = (named, original, named_r, seen, seen_r, start[seen][1])
        for side, other, y, x in (
            ("white", "black", float(game.result), 1),
            ("black", "white", 1.0 - game.result, -1),
        ):
            named, original, _, _, _, _ = sides[side]
            opp_named, _, opp_named_r, seen, seen_r, seen_rd = sides[other]
            counted = named
            if original != named:
                # rule 6: the substitute keeps the game only if it raises his rating by itself
                d1 = _d1_only(start[named][0], opp_named_r, start[opp_named][1], y, x, params)
                counted = named if d1 > 0 else original
                decisions.append(SubstituteDecision(index, side, named, original, d1, counted))
            entries[counted].append(
                Entry(counted, index, side, y, named, seen, opp_named, seen_r, seen_rd)
            )
    return start, entries, decisions


# §1.3 steps (f)-(g) and §1.4 -------------------------------------------------------------------


def _update(r, rd, terms: list[Terms]) -> tuple[float, float, float, float]:
    mu = (r - 1500) / SCALE
    sigma = rd / SCALE
    sigma_p = math.sqrt(1 / (1 / sigma**2 - math.fsum(t.d2 for t in terms)))
    mu_p = mu + sigma_p**2 * math.fsum(t.d1 for t in terms)
    return sigma_p, mu_p, SCALE * mu_p + 1500, min(max(SCALE * sigma_p, 30.0), 250.0)


def _player_terms(r, player_entries, params) -> list[Terms]:
    mu = (r - 1500) / SCALE
    return [
        game_terms(
            mu,
            (e.opponent_rating - 1500) / SCALE,
            e.opponent_rd / SCALE,
            e.y,
            1 if e.colour == "white" else -1,
            params,
        )
        for e in player_entries
    ]


def rate_period_reference(players, games, substitutions=(), params=None) -> list[PlayerResult]:
    params = params or Params()
    start, entries, _ = resolve(players, games, substitutions, params)
    results = []
    for player in players:
        r, rd = start[player.id]
        mine = entries[player.id]
        if not mine:
            if player.rating is None:
                results.append(PlayerResult(player.id, None, None, None, None, 0))
                continue
            new_r, new_rd = r, min(max(rd, 30.0), 250.0)
        else:
            _, _, new_r, new_rd = _update(r, rd, _player_terms(r, mine, params))
        results.append(
            PlayerResult(
                player.id, new_r, new_rd, half_up_int(new_r), half_up_int(new_rd), len(mine)
            )
        )
    return results


def explain_reference(
    player_id, players, games, substitutions=(), params=None
) -> PlayerExplanation:
    params = params or Params()
    start, entries, decisions = resolve(players, games, substitutions, params)
    player = next(p for p in players if p.id == player_id)
    r, rd = start[player_id]
    mine = entries[player_id]
    terms = _player_terms(r, mine, params)
    if mine:
        sigma_p, mu_p, new_r, new_rd = _update(r, rd, terms)
    elif player.rating is None:
        sigma_p = mu_p = new_r = new_rd = None
    else:
        sigma_p, mu_p = rd / SCALE, (r - 1500) / SCALE
        new_r, new_rd = r, min(max(rd, 30.0), 250.0)
    return PlayerExplanation(
        id=player_id,
        start_rating=r,
        start_rd=rd,
        mu=(r - 1500) / SCALE,
        sigma=rd / SCALE,
        games=tuple(
            GameExplanation(
                game=e.game,
                colour=e.colour,
                y=e.y,
                played_by=e.played_by,
                opponent=e.opponent,
                opponent_played_by=e.opponent_played_by,
                opponent_rating=e.opponent_rating,
                opponent_rd=e.opponent_rd,
                **{name: getattr(t, name) for name in Terms.__dataclass_fields__},
            )
            for e, t in zip(mine, terms, strict=True)
        ),
        substitute_decisions=tuple(d for d in decisions if player_id in (d.substitute, d.replaces)),
        sum_d1=math.fsum(t.d1 for t in terms),
        sum_d2=math.fsum(t.d2 for t in terms),
        sigma_prime=sigma_p,
        mu_prime=mu_p,
        rating=new_r,
        rd=new_rd,
        published_rating=None if new_r is None else half_up_int(new_r),
        published_rd=None if new_rd is None else half_up_int(new_rd),
    )
