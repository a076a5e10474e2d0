"""EGF GoR, the old system (Cieplý, RULES §2): rate tournaments in order, vectorised per tournament.

Inside a tournament every game is rated from pre-tournament ratings; across tournaments the
ratings carry over, new players start from their declared grade and a player whose grade jumped
is reset (§2.1). The per-game arithmetic runs as NumPy array operations over all games of one
tournament; the only Python loop of a long history is over tournaments, never over games.
``ratings.engines.reference.egf`` is the formula-shaped scalar version the tests compare with.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import attrgetter
from typing import Any

import numpy as np

from ratings.engines import jsonio
from ratings.engines.errors import EngineInputError

EPSILON = 0.016  # official (RULES §2.2, setting EGF_EPSILON)
CLASS_WEIGHTS: Mapping[str, float] = {"A": 1.0, "B": 0.75, "C": 0.5, "D": 0.25}
FLOOR = 100.0  # bottom value of GoR
MAX_DROP = 100.0  # a rating drops by at most this much at one tournament

# Table II: con at GoR 100, 200, ..., 2700 (116 at/below 100, 10 above 2700).
CON_NODES = np.arange(100.0, 2701.0, 100.0)
CON_VALUES = np.array(
    [116, 110, 105, 100, 95, 90, 85, 80, 75, 70, 65, 60, 55, 51, 47]
    + [43, 39, 35, 31, 27, 24, 21, 18, 15, 13, 11, 10],
    dtype=float,
)


# --------------------------------------------------------------------------------------- grades

_GRADE = re.compile(r"^(\d{1,2})([kdp]?)$")


@dataclass(frozen=True, order=True)
class Grade:
    """A professed grade. ``kind`` is ``k`` (kyu), ``d`` (dan) or ``p`` (professional)."""

    number: int
    kind: str

    @property
    def nominal(self) -> int:
        """The grade's GoR before the floor: 1d = 2100, 100 per grade, 1p = 2700, 30 per pro grade."""
        if self.kind == "k":
            return 2100 - 100 * self.number
        if self.kind == "d":
            return 2000 + 100 * self.number
        return 2670 + 30 * self.number

    @property
    def rating(self) -> float:
        """Starting GoR of a new (or reset) player: weaker than 20k starts at the floor."""
        return max(float(self.nominal), FLOOR)

    @property
    def steps(self) -> int:
        """Grade steps for implicit handicaps (§2.8): kyu k -> -k, dan d -> d - 1, pro as 7d."""
        if self.kind == "k":
            return -self.number
        if self.kind == "d":
            return self.number - 1
        return 6

    def __str__(self) -> str:
        return f"{self.number}{self.kind}"


@lru_cache(maxsize=512)
def parse_grade(text: str) -> Grade:
    """``5k``, ``5K``, ``7d``, ``1p``; a bare number is kyu. Raises ValueError when malformed."""
    match = _GRADE.match(text.strip().lower()) if isinstance(text, str) else None
    if match is None:
        raise ValueError(f"grade must look like 5k, 2d or 1p, not {text!r}")
    number, kind = int(match.group(1)), match.group(2) or "k"
    if number < 1 or (kind != "k" and number > 9):
        raise ValueError(f"grade {text!r} is out of range (1-99 kyu, 1-9 dan, 1-9 pro)")
    return Grade(number, kind)


def grade_rating(grade: str) -> float:
    return parse_grade(grade).rating


@lru_cache(maxsize=512)
def _strength_key(grade: Grade) -> int:
    """Orders grades by strength; 1p (= 7d = 2700) ranks just above 7d."""
    return 2 * grade.nominal + (grade.kind == "p")


def is_reset(grade: Grade, highest_before: Grade | None) -> bool:
    """Reset rule (§2.1): the grade improved by >= 2 amateur grades, or >= 1 professional grade
    when both grades are professional, over the highest grade professed before. [P] Mixed
    amateur/professional pairs compare nominal values (1p = 7d), so 5d -> 1p resets, 6d -> 1p does not.
    """
    if highest_before is None:
        return False
    gain = grade.nominal - highest_before.nominal
    if grade.kind == "p" and highest_before.kind == "p":
        return gain >= 30
    return gain >= 200


# ----------------------------------------------------------------------------------- formulas


def a_of(rating: np.ndarray | float) -> np.ndarray:
    """a(R) = 205 - R/20 on [100, 2700]; 200 below, 70 above (Table II, exactly linear)."""
    return 205.0 - np.clip(rating, 100.0, 2700.0) / 20.0


def con_of(rating: np.ndarray | float) -> np.ndarray:
    """con(R): linear interpolation between the Table II nodes, 116 below 100, 10 above 2700."""
    return np.interp(rating, CON_NODES, CON_VALUES)


def handicap_shift(stones: np.ndarray | int) -> np.ndarray:
    """Rating added to the receiver of H stones: 100 (H - 0.5) for H >= 1, else nothing."""
    stones = np.asarray(stones, dtype=float)
    return np.where(stones >= 1, 100.0 * (stones - 0.5), 0.0)


# ------------------------------------------------------------------------------------ input types


@dataclass(frozen=True)
class Params:
    epsilon: float = EPSILON
    weight_before_cap: bool = True  # setting EGF_WEIGHT_BEFORE_CAP (§2.3)


@dataclass(frozen=True)
class PlayerEntry:
    """A player of one tournament. ``rating``: his GoR before it, if the caller knows it."""

    id: str
    grade: str
    rating: float | None = None


@dataclass(frozen=True)
class Game:
    """One played, rated game. ``result`` is White's score (1, 0.5, 0); Black receives ``handicap``."""

    white: str
    black: str
    result: float
    handicap: int = 0


@dataclass(frozen=True)
class Tournament:
    id: str
    tournament_class: str  # A, B, C or D
    date: str | None
    players: tuple[PlayerEntry, ...]
    games: tuple[Game, ...]


# ---------------------------------------------------------------------------------- output types


@dataclass(frozen=True)
class PlayerChange:
    """``start`` tells where ``before`` came from: given, carried, grade (new player) or reset."""

    id: str
    before: float
    after: float
    games: int
    start: str


@dataclass(frozen=True)
class TournamentChange:
    id: str
    players: tuple[PlayerChange, ...]


@dataclass(frozen=True)
class GameExplanation:
    opponent: str
    colour: str  # "w" or "b"
    handicap: int  # stones received by Black
    score: float  # the player's own result: 1, 0.5, 0
    rating: float  # own pre-tournament rating
    opponent_rating: float
    adjusted: float  # own rating shifted by the handicap he received
    opponent_adjusted: float
    a: float
    con: float
    expected: float  # SE
    change: float  # dR = con (score - SE), before the class weight


@dataclass(frozen=True)
class PlayerExplanation:
    id: str
    before: float
    class_weight: float
    games: tuple[GameExplanation, ...]
    sum_of_changes: float  # sum of dR over the games
    weighted: float  # what the class weight makes of it (before the cap when weight_before_cap)
    capped: float  # the change applied after the 100-point drop cap
    after: float  # after the floor


# ----------------------------------------------------------------------------- validation helpers


def _check_class(value: Any, where: str) -> float:
    if value not in CLASS_WEIGHTS:
        raise EngineInputError(where, f"class must be one of A, B, C, D, not {value!r}")
    return CLASS_WEIGHTS[value]


def _check_grade(value: Any, where: str) -> Grade:
    if not isinstance(value, str):
        raise EngineInputError(where, f"must be a grade string such as 3d or 5k, not {value!r}")
    try:
        return parse_grade(value)
    except ValueError as exc:
        raise EngineInputError(where, str(exc)) from None


def _check_handicap(value: Any, where: str) -> int:
    number = jsonio.require_number(value, where)
    if number < 0 or number != int(number):
        raise EngineInputError(where, f"handicap must be a whole number of stones >= 0, not {value!r}")
    return int(number)


# ------------------------------------------------------------------------------ the vectorised core


@dataclass(frozen=True)
class _Sides:
    """Both sides of every game of one tournament, interleaved in game order (white, black, ...)."""

    own: np.ndarray  # local player index (position in the tournament's player list)
    opp: np.ndarray
    shift_own: np.ndarray  # handicap shift of the side's own rating
    shift_opp: np.ndarray
    score: np.ndarray


def _side_quantities(rpre: np.ndarray, sides: _Sides, half_eps: float):
    """Per side: own/opp rating, adjusted ratings, a, SE, con, dR. The one formula of the engine."""
    r_own = rpre[sides.own]
    r_opp = rpre[sides.opp]
    adj_own = r_own + sides.shift_own
    adj_opp = r_opp + sides.shift_opp
    a = 205.0 - np.clip(np.minimum(adj_own, adj_opp), 100.0, 2700.0) / 20.0
    expected = 1.0 / (np.exp((adj_opp - adj_own) / a) + 1.0) - half_eps
    con = np.interp(r_own, CON_NODES, CON_VALUES)
    change = con * (sides.score - expected)
    return r_own, r_opp, adj_own, adj_opp, a, expected, con, change


def _apply(rpre: np.ndarray, sums: np.ndarray, weight: float, weight_before_cap: bool):
    """Class weight, 100-point drop cap, floor. Returns (weighted, capped, after)."""
    if weight_before_cap:
        weighted = weight * sums
        capped = np.maximum(weighted, -MAX_DROP)
    else:
        weighted = sums
        capped = weight * np.maximum(sums, -MAX_DROP)
    return weighted, capped, np.maximum(rpre + capped, FLOOR)


def _sum_by_player(own: np.ndarray, change: np.ndarray, n_players: int) -> np.ndarray:
    # bincount adds each player's terms one after another in game order (reproducible).
    return np.bincount(own, weights=change, minlength=n_players)


# --------------------------------------------------------------------------- building the arrays


@dataclass(frozen=True)
class _History:
    """The whole input as flat arrays; tournament t owns entries eo[t]:eo[t+1], sides so[t]:so[t+1]."""

    ids: list[str]  # entry -> player id
    entry_player: np.ndarray  # entry -> global player number
    fixed: np.ndarray  # entry -> rating used when not carried (given rating or grade value)
    carried: np.ndarray  # entry -> take the player's current rating
    start: list[str]
    eo: np.ndarray
    so: np.ndarray
    sides: _Sides
    weights: np.ndarray
    game_counts: np.ndarray  # entry -> rated games


def _build(tournaments: Sequence[Tournament]) -> _History:
    number_of: dict[str, int] = {}
    ids: list[str] = []
    grades: list[Grade] = []
    given: list[float] = []
    entry_offsets = [0]
    weights = []
    game_tour: list[np.ndarray] = []
    whites: list[str] = []
    blacks: list[str] = []
    results: list[float] = []
    stones: list[int] = []
    for t_index, tour in enumerate(tournaments):
        where = f"tournaments[{t_index}]"
        weights.append(_check_class(tour.tournament_class, f"{where}.class"))
        seen: set[str] = set()
        for p_index, entry in enumerate(tour.players):
            pwhere = f"{where}.players[{p_index}]"
            if entry.id in seen:
                raise EngineInputError(f"{pwhere}.id", f"player {entry.id!r} appears twice")
            seen.add(entry.id)
            grades.append(_check_grade(entry.grade, f"{pwhere}.grade"))
            if entry.rating is None:
                given.append(np.nan)
            else:
                given.append(jsonio.require_number(entry.rating, f"{pwhere}.rating"))
            number_of.setdefault(entry.id, len(number_of))
            ids.append(entry.id)
        entry_offsets.append(len(ids))
        whites.extend(map(attrgetter("white"), tour.games))
        blacks.extend(map(attrgetter("black"), tour.games))
        results.extend(map(attrgetter("result"), tour.games))
        stones.extend(map(attrgetter("handicap"), tour.games))
        game_tour.append(np.full(len(tour.games), t_index, dtype=np.int64))

    eo = np.asarray(entry_offsets, dtype=np.int64)
    entry_player = np.fromiter(map(number_of.__getitem__, ids), dtype=np.int64, count=len(ids))
    n_entries = len(ids)
    gtour = np.concatenate(game_tour) if game_tour else np.zeros(0, dtype=np.int64)
    result = np.asarray(results, dtype=float) if results else np.zeros(0)
    stone = np.asarray(stones, dtype=float) if stones else np.zeros(0)
    _validate_games(tournaments, result, stone, whites, blacks)

    # Entry of each game's White and Black: look (tournament, player) up among the sorted entries.
    n_ids = max(len(number_of), 1)
    entry_tour = np.repeat(np.arange(len(tournaments), dtype=np.int64), np.diff(eo))
    entry_key = entry_tour * n_ids + entry_player
    order = np.argsort(entry_key, kind="stable")
    sorted_key = entry_key[order]
    own_local = []
    for colour, names in (("white", whites), ("black", blacks)):
        number = np.fromiter((number_of.get(n, -1) for n in names), dtype=np.int64, count=len(names))
        key = gtour * n_ids + number
        pos = np.minimum(np.searchsorted(sorted_key, key), max(n_entries - 1, 0))
        found = (number >= 0) & (sorted_key[pos] == key) if n_entries else number >= 0
        if not found.all():
            _raise_unknown(tournaments, int(np.flatnonzero(~found)[0]), colour)
        own_local.append(order[pos] - eo[gtour])
    white_local, black_local = own_local
    if (white_local == black_local).any():
        bad = int(np.flatnonzero(white_local == black_local)[0])
        t, g = _locate(tournaments, bad)
        raise EngineInputError(f"tournaments[{t}].games[{g}]", "a player cannot play himself")

    # Sides interleaved: side 2g is White of game g, side 2g + 1 its Black.
    n_games = len(result)
    shift_black = handicap_shift(stone)
    sides = _Sides(
        own=np.column_stack([white_local, black_local]).reshape(-1),
        opp=np.column_stack([black_local, white_local]).reshape(-1),
        shift_own=np.column_stack([np.zeros(n_games), shift_black]).reshape(-1),
        shift_opp=np.column_stack([shift_black, np.zeros(n_games)]).reshape(-1),
        score=np.column_stack([result, 1.0 - result]).reshape(-1),
    )
    game_offsets = np.zeros(len(tournaments) + 1, dtype=np.int64)
    np.cumsum(np.bincount(gtour, minlength=len(tournaments)), out=game_offsets[1:])
    side_entry = np.column_stack([white_local, black_local]).reshape(-1) + np.repeat(eo[:-1], 2 * np.diff(game_offsets))
    game_counts = np.bincount(side_entry, minlength=n_entries)

    fixed, carried, start = _starting_points(entry_player, grades, np.asarray(given, dtype=float))
    return _History(
        ids=ids,
        entry_player=entry_player,
        fixed=fixed,
        carried=carried,
        start=start,
        eo=eo,
        so=2 * game_offsets,
        sides=sides,
        weights=np.asarray(weights, dtype=float),
        game_counts=game_counts,
    )


def _starting_points(entry_player: np.ndarray, grades: list[Grade], given: np.ndarray):
    """Where each entry's pre-tournament rating comes from. Grades do not depend on ratings, so
    the reset rule (highest earlier grade of the same player) is settled for the whole history at
    once: a grouped running maximum over each player's entries in input order."""
    n = len(grades)
    strength = np.fromiter(map(_strength_key, grades), dtype=np.int64, count=n)  # cached grades
    order = np.lexsort((np.arange(n), entry_player))
    players_sorted = entry_player[order]
    first = np.ones(n, dtype=bool)
    first[1:] = players_sorted[1:] != players_sorted[:-1]
    group = np.cumsum(first)
    span = int(strength.max() - strength.min() + 1) if n else 1
    lifted = group * span + (strength[order] - (strength.min() if n else 0))
    running = np.maximum.accumulate(lifted) if n else lifted
    highest_sorted = np.empty(n, dtype=np.int64)
    highest_sorted[1:] = running[:-1] - group[1:] * span + (strength.min() if n else 0)
    highest = np.empty(n, dtype=np.int64)
    highest[order] = highest_sorted
    seen_before = np.empty(n, dtype=bool)
    seen_before[order] = ~first

    has_given = ~np.isnan(given)
    nominal = np.fromiter((g.nominal for g in grades), dtype=np.int64, count=n)
    pro = np.fromiter((g.kind == "p" for g in grades), dtype=bool, count=n)
    highest_nominal, highest_pro = np.divmod(highest, 2)
    threshold = np.where(pro & (highest_pro == 1), 30, 200)
    carried = seen_before & ~has_given
    reset = carried & (nominal - highest_nominal >= threshold)
    carried &= ~reset
    fixed = np.where(has_given, given, np.maximum(nominal, FLOOR)).astype(float)
    start = np.select(
        [has_given, ~seen_before, reset], ["given", "grade", "reset"], "carried"
    ).tolist()
    return fixed, carried, start


def _validate_games(tournaments, result, stone, whites, blacks) -> None:
    bad = ~np.isin(result, (0.0, 0.5, 1.0))
    if bad.any():
        t, g = _locate(tournaments, int(np.flatnonzero(bad)[0]))
        value = tournaments[t].games[g].result
        raise EngineInputError(f"tournaments[{t}].games[{g}].result", f"must be 1, 0.5 or 0, not {value!r}")
    bad = (stone < 0) | (stone != np.floor(stone))
    if bad.any():
        t, g = _locate(tournaments, int(np.flatnonzero(bad)[0]))
        value = tournaments[t].games[g].handicap
        raise EngineInputError(
            f"tournaments[{t}].games[{g}].handicap",
            f"must be a whole number of stones >= 0, not {value!r}",
        )


def _locate(tournaments: Sequence[Tournament], flat_game: int) -> tuple[int, int]:
    for t, tour in enumerate(tournaments):
        if flat_game < len(tour.games):
            return t, flat_game
        flat_game -= len(tour.games)
    raise IndexError(flat_game)


def _raise_unknown(tournaments, flat_game: int, colour: str) -> None:
    t, g = _locate(tournaments, flat_game)
    name = getattr(tournaments[t].games[g], colour)
    raise EngineInputError(
        f"tournaments[{t}].games[{g}].{colour}", f"{name!r} is not a player of this tournament"
    )


# --------------------------------------------------------------------------------- public entry


def rate_history(
    tournaments: Sequence[Tournament], params: Params = Params()
) -> tuple[TournamentChange, ...]:
    """Rates the tournaments in the order given, each from the ratings after all earlier ones."""
    h = _build(tournaments)
    rating = np.zeros(int(h.entry_player.max()) + 1 if len(h.ids) else 0)
    before = np.empty(len(h.ids))
    after = np.empty(len(h.ids))
    half_eps = params.epsilon / 2.0
    s = h.sides
    eo, so = h.eo.tolist(), h.so.tolist()
    for t in range(len(tournaments)):
        e0, e1, s0, s1 = eo[t], eo[t + 1], so[t], so[t + 1]
        players = h.entry_player[e0:e1]
        rpre = np.where(h.carried[e0:e1], rating[players], h.fixed[e0:e1])
        if s1 > s0:
            part = _Sides(s.own[s0:s1], s.opp[s0:s1], s.shift_own[s0:s1], s.shift_opp[s0:s1], s.score[s0:s1])
            change = _side_quantities(rpre, part, half_eps)[-1]
            sums = _sum_by_player(part.own, change, e1 - e0)
        else:
            sums = np.zeros(e1 - e0)
        post = _apply(rpre, sums, h.weights[t], params.weight_before_cap)[2]
        rating[players] = post
        before[e0:e1] = rpre
        after[e0:e1] = post
    before_list, after_list, counts = before.tolist(), after.tolist(), h.game_counts.tolist()
    return tuple(
        TournamentChange(
            id=tour.id,
            players=tuple(
                PlayerChange(h.ids[i], before_list[i], after_list[i], counts[i], h.start[i])
                for i in range(eo[t], eo[t + 1])
            ),
        )
        for t, tour in enumerate(tournaments)
    )


def rate_tournament(tournament: Tournament, params: Params = Params()) -> TournamentChange:
    """One tournament on its own: players without a given rating start from their grade."""
    return rate_history([tournament], params)[0]


def explain_player(
    tournament: Tournament, player_id: str, params: Params = Params()
) -> PlayerExplanation:
    """Every quantity of one player's change at one tournament, as the engine computes it.

    Pre-tournament ratings are the players' ``rating`` (their grade value where it is missing);
    pass the ``before`` values of a history run to explain that run.
    """
    h = _build([tournament])
    local = {pid: i for i, pid in enumerate(h.ids)}
    if player_id not in local:
        raise EngineInputError("player", f"{player_id!r} is not a player of this tournament")
    me = local[player_id]
    rpre = h.fixed.copy()
    quantities = _side_quantities(rpre, h.sides, params.epsilon / 2.0)
    sums = _sum_by_player(h.sides.own, quantities[-1], len(h.ids))
    weighted, capped, after = _apply(rpre, sums, h.weights[0], params.weight_before_cap)
    mine = np.flatnonzero(h.sides.own == me)
    columns = [q[mine].tolist() for q in quantities]
    games = []
    for k, side in enumerate(mine.tolist()):
        game = tournament.games[side // 2]
        white = side % 2 == 0
        games.append(
            GameExplanation(
                opponent=game.black if white else game.white,
                colour="w" if white else "b",
                handicap=int(game.handicap),
                score=float(h.sides.score[side]),
                rating=columns[0][k],
                opponent_rating=columns[1][k],
                adjusted=columns[2][k],
                opponent_adjusted=columns[3][k],
                a=columns[4][k],
                expected=columns[5][k],
                con=columns[6][k],
                change=columns[7][k],
            )
        )
    return PlayerExplanation(
        id=player_id,
        before=float(rpre[me]),
        class_weight=float(h.weights[0]),
        games=tuple(games),
        sum_of_changes=float(sums[me]),
        weighted=float(weighted[me]),
        capped=float(capped[me]),
        after=float(after[me]),
    )


# ------------------------------------------------------------------------------------------ JSON


def params_from_json(data: Any) -> Params:
    if data is None:
        return Params()
    data = jsonio.require_object(data, "params")
    unknown = set(data) - {"epsilon", "weight_before_cap"}
    if unknown:
        raise EngineInputError("params", f"unknown parameter {sorted(unknown)[0]!r}")
    epsilon = EPSILON
    if "epsilon" in data:
        epsilon = jsonio.require_number(data["epsilon"], "params.epsilon")
        if not 0.0 <= epsilon < 1.0:
            raise EngineInputError("params.epsilon", f"must be in [0, 1), not {epsilon!r}")
    before_cap = data.get("weight_before_cap", True)
    if not isinstance(before_cap, bool):
        raise EngineInputError("params.weight_before_cap", "must be true or false")
    return Params(epsilon=epsilon, weight_before_cap=before_cap)


def tournaments_from_json(data: Any) -> tuple[Tournament, ...]:
    items = jsonio.require_list(data, "tournaments")
    result = []
    for t, item in enumerate(items):
        where = f"tournaments[{t}]"
        item = jsonio.require_object(item, where)
        for key in ("id", "class", "players", "games"):
            if key not in item:
                raise EngineInputError(where, f"missing {key!r}")
        date = item.get("date")
        if date is not None and not isinstance(date, str):
            raise EngineInputError(f"{where}.date", "must be a date string")
        players = []
        for p, player in enumerate(jsonio.require_list(item["players"], f"{where}.players")):
            pwhere = f"{where}.players[{p}]"
            player = jsonio.require_object(player, pwhere)
            if "id" not in player or "grade" not in player:
                raise EngineInputError(pwhere, "needs 'id' and 'grade'")
            rating = player.get("rating")
            if rating is not None:
                rating = jsonio.require_number(rating, f"{pwhere}.rating")
            players.append(
                PlayerEntry(jsonio.require_id(player["id"], f"{pwhere}.id"), player["grade"], rating)
            )
        games = []
        for g, game in enumerate(jsonio.require_list(item["games"], f"{where}.games")):
            gwhere = f"{where}.games[{g}]"
            game = jsonio.require_object(game, gwhere)
            for key in ("white", "black", "result"):
                if key not in game:
                    raise EngineInputError(gwhere, f"missing {key!r}")
            games.append(
                Game(
                    white=jsonio.require_id(game["white"], f"{gwhere}.white"),
                    black=jsonio.require_id(game["black"], f"{gwhere}.black"),
                    result=jsonio.require_result(game["result"], f"{gwhere}.result"),
                    handicap=_check_handicap(game.get("handicap", 0), f"{gwhere}.handicap"),
                )
            )
        result.append(
            Tournament(
                id=jsonio.require_id(item["id"], f"{where}.id"),
                tournament_class=item["class"],
                date=date,
                players=tuple(players),
                games=tuple(games),
            )
        )
    return tuple(result)


def run_json(data: dict) -> dict:
    """The contract of ``python -m ratings.engines egf INPUT.json``."""
    data = jsonio.require_object(data, "input")
    if "tournaments" not in data:
        raise EngineInputError("input", "missing 'tournaments'")
    params = params_from_json(data.get("params"))
    changes = rate_history(tournaments_from_json(data["tournaments"]), params)
    return {
        "tournaments": [
            {
                "id": change.id,
                "players": [
                    {"id": p.id, "before": p.before, "after": p.after, "games": p.games}
                    for p in change.players
                ],
            }
            for change in changes
        ]
    }
