"""PlayChess: every game to be rated has a finished result and two distinct rated players."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from ratings.engines.core.errors import EngineInputError
from tournaments.acceptability.types import RuleResult, Status, plural, result

FINISHED_RESULTS = ("1-0", "0-1", "1/2-1/2")
SHOWN = 5  # game ids named in a message before "..."


@dataclass(frozen=True)
class PlaychessGameFacts:
    id: str | int
    white_id: str | int | None
    black_id: str | int | None
    result: str | None  # "1-0", "0-1", "1/2-1/2"; None or anything else = not finished
    white_rated: bool = True  # the player takes part in rating (not a guest/unrated account)
    black_rated: bool = True


@dataclass(frozen=True)
class PlaychessEventFacts:
    games: tuple[PlaychessGameFacts, ...] = ()

    def __post_init__(self) -> None:
        games = tuple(self.games)
        ids = [g.id for g in games]
        if len(set(ids)) != len(ids):
            raise EngineInputError("games", "game ids must be unique")
        object.__setattr__(self, "games", games)


def _ids(games: list[PlaychessGameFacts]) -> str:
    shown = ", ".join(str(g.id) for g in games[:SHOWN])
    return shown + (" ..." if len(games) > SHOWN else "")


def result_rule(f: PlaychessEventFacts) -> RuleResult:
    rid, title = "PLAYCHESS-RESULT", "Every game has a finished result"
    if not f.games:
        return result(rid, title, Status.FAIL, "no games to rate", games=0)
    open_games = [g for g in f.games if g.result not in FINISHED_RESULTS]
    if open_games:
        return result(
            rid,
            title,
            Status.FAIL,
            f"{len(open_games)} of {plural(len(f.games), 'game')} without a finished result "
            f"(games {_ids(open_games)})",
            games=len(f.games),
            unfinished=[g.id for g in open_games],
        )
    return result(
        rid,
        title,
        Status.PASS,
        f"all {len(f.games)} games have a finished result",
        games=len(f.games),
        unfinished=[],
    )


def players_rule(f: PlaychessEventFacts) -> RuleResult:
    rid, title = "PLAYCHESS-PLAYERS", "Two distinct rated players in every game"
    if not f.games:
        return result(rid, title, Status.NOT_APPLICABLE, "no games", games=0)
    missing = [g for g in f.games if g.white_id is None or g.black_id is None]
    same = [g for g in f.games if g.white_id is not None and g.white_id == g.black_id]
    unrated = [g for g in f.games if not (g.white_rated and g.black_rated)]
    issues = []
    if missing:
        issues.append(
            f"{plural(len(missing), 'game')} without both players (games {_ids(missing)})"
        )
    if same:
        issues.append(
            f"{plural(len(same), 'game')} with the same player on both sides (games {_ids(same)})"
        )
    if unrated:
        issues.append(
            f"{plural(len(unrated), 'game')} with an unrated player (games {_ids(unrated)})"
        )
    facts = dict(
        games=len(f.games),
        missing_player=[g.id for g in missing],
        same_player=[g.id for g in same],
        unrated_player=[g.id for g in unrated],
    )
    if issues:
        return result(rid, title, Status.FAIL, "; ".join(issues), **facts)
    return result(
        rid,
        title,
        Status.PASS,
        f"all {len(f.games)} games have two distinct rated players",
        **facts,
    )


def check(f: PlaychessEventFacts, today: date) -> list[RuleResult]:
    del today
    return [result_rule(f), players_rule(f)]


# What the dispatch (tournaments.acceptability) reads.
FACTS_TYPE = PlaychessEventFacts
ATTESTATIONS: dict[str, str] = {}
