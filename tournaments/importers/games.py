"""Game results of ICCF and PlayChess events from pasted lines, the admin grid or a CSV/XLSX file.

``preview_games`` parses (``tournaments.formats.game_lines``), looks the players up and checks
each game against the event (federation, team boards and substitutes, duplicates); it writes
nothing. ``confirm_games`` does the same under the event's row lock and saves every game, its
substitutions and one audit row per game in one transaction, or raises ``ImportRefused``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

from django.db import transaction

from federation import audit
from federation.models import AuditEvent, Player
from tournaments.formats.game_lines import GameLine, LineIssue, parse_rows
from tournaments.formats.tabular import Row
from tournaments.importers.base import (
    ImportRefused,
    audit_rows,
    entry_closed_reason,
    find_players,
    locked_event,
    reads_results_of,
)
from tournaments.models import (
    Event,
    EventKind,
    Game,
    Side,
    Substitution,
    TeamMember,
)
from tournaments.models import Result as StoredResult
from tournaments.signals import results_written

RESULTS_FORMAT = "game-lines"  # a system whose events take it says so (System.results_format)


def handles(system: str) -> bool:
    """Whether this importer reads the results of ``system``'s events."""
    return reads_results_of(system, RESULTS_FORMAT)


@dataclass(frozen=True)
class GameEntry:
    """One game as it will be saved."""

    line: int
    round: int
    white: Player
    black: Player
    result: str
    finished_on: date | None
    reported_on: date | None
    board: int | None = None
    replaced: tuple[tuple[str, Player], ...] = ()  # (side, the member the substitute replaced)

    @property
    def result_label(self) -> str:
        return StoredResult(self.result).label


@dataclass
class GamesPreview:
    event: Event
    games: list[GameEntry]
    errors: list[str] = field(default_factory=list)
    source: str = "lines"

    @property
    def ok(self) -> bool:
        return not self.errors


@dataclass(frozen=True)
class _Teams:
    """Who plays for which team of the event, at which board."""

    team_of: dict[int, int]  # player id -> team id
    board_of: dict[int, int]  # player id -> board
    substitute: set[int]


def _teams(event: Event) -> _Teams:
    members = TeamMember.objects.filter(team__event=event).values_list(
        "player_id", "team_id", "board", "is_substitute"
    )
    team_of, board_of, substitute = {}, {}, set()
    for player_id, team_id, board, is_substitute in members:
        team_of[player_id], board_of[player_id] = team_id, board
        if is_substitute:
            substitute.add(player_id)
    return _Teams(team_of, board_of, substitute)


def preview_games(
    *, event: Event, rows: Sequence[Row], label: str = "line", source: str = "lines"
) -> GamesPreview:
    parsed = parse_rows(rows, label=label)
    errors: list[LineIssue] = list(parsed.errors)
    preview = GamesPreview(event=event, games=[], source=source)
    closed = entry_closed_reason(event)
    if closed:
        preview.errors.append(closed)
    if not handles(event.federation.system) or event.kind == EventKind.SOLVING:
        preview.errors.append(
            f"{event.code} is a {event.federation.system} {event.kind} event; game lines are "
            "for ICCF and PlayChess events"
        )
        return preview
    if not parsed.games and not parsed.errors:
        preview.errors.append("no games: paste or type at least one line")
    written = set()
    for line in parsed.games:
        written |= {line.white, line.black, line.white_replaces or "", line.black_replaces or ""}
    lookup = find_players(event.federation, written)
    teams = _teams(event) if event.kind == EventKind.TEAM else None
    existing = set(Game.objects.filter(event=event).values_list("round", "white_id", "black_id"))
    seen: dict[tuple[int, int, int], int] = {}
    for line in parsed.games:
        problems = [
            f"{side}: {lookup.problems[text]}"
            for side, text in (
                ("white", line.white),
                ("black", line.black),
                ("white_replaces", line.white_replaces),
                ("black_replaces", line.black_replaces),
            )
            if text and text in lookup.problems
        ]
        if problems:
            errors.extend(LineIssue(line.line, p, label) for p in problems)
            continue
        entry, problems = _entry(line, lookup.found, event, teams)
        key = (entry.round, entry.white.pk, entry.black.pk)
        if entry.white.pk == entry.black.pk:
            problems.append(f"{entry.white.full_name} cannot play himself")
        if key in existing:
            problems.append(
                f"round {entry.round}: {entry.white.full_name} – {entry.black.full_name} "
                f"is already entered in {event.code}"
            )
        elif key in seen:
            problems.append(f"the same game as {label} {seen[key]}")
        seen.setdefault(key, line.line)
        errors.extend(LineIssue(line.line, p, label) for p in problems)
        if not problems:
            preview.games.append(entry)
    preview.errors.extend(str(e) for e in sorted(errors, key=lambda e: e.line))
    return preview


def _entry(line: GameLine, found: dict[str, Player], event: Event, teams: _Teams | None):
    problems: list[str] = []
    for name, day in (("finished", line.finished_on), ("reported", line.reported_on)):
        if day is not None and day < event.start:
            problems.append(f"{name} {day} is before {event.code} started ({event.start})")
    replaced = []
    for side in ("white", "black"):
        written = getattr(line, f"{side}_replaces")
        if written:
            replaced.append((side, found[written]))
    entry = GameEntry(
        line=line.line,
        round=line.round,
        white=found[line.white],
        black=found[line.black],
        result=line.result,
        finished_on=line.finished_on,
        reported_on=line.reported_on,
        board=line.board,
        replaced=tuple(replaced),
    )
    if teams is None:
        if replaced or line.board is not None:
            problems.append(f"{event.code} is no team event: no board or substitute here")
        return entry, problems
    problems += _team_problems(entry, teams)
    return entry, problems


def _team_problems(entry: GameEntry, teams: _Teams) -> list[str]:
    problems = []
    original = {"white": entry.white, "black": entry.black}
    for side, member in entry.replaced:
        substitute = original[side]
        if substitute.pk not in teams.substitute:
            problems.append(f"{side}: {substitute.full_name} is no substitute of a team here")
        if member.pk not in teams.team_of:
            problems.append(f"{side}_replaces: {member.full_name} plays for no team here")
        elif teams.team_of.get(substitute.pk) != teams.team_of[member.pk]:
            problems.append(
                f"{side}_replaces: {member.full_name} plays for another team than "
                f"{substitute.full_name}"
            )
        original[side] = member
    for side, player in original.items():
        if player.pk not in teams.team_of:
            problems.append(f"{side}: {player.full_name} plays for no team of this event")
    if problems:
        return problems
    white, black = original["white"], original["black"]
    if teams.team_of[white.pk] == teams.team_of[black.pk]:
        return [f"{white.full_name} and {black.full_name} play for the same team"]
    boards = {teams.board_of[white.pk], teams.board_of[black.pk]}
    if len(boards) > 1:
        problems.append(
            f"{white.full_name} plays board {teams.board_of[white.pk]}, "
            f"{black.full_name} board {teams.board_of[black.pk]}: not the same board"
        )
    elif entry.board is not None and entry.board not in boards:
        problems.append(f"board {entry.board}, but they play board {boards.pop()}")
    return problems


def confirm_games(
    *, event: Event, rows: Sequence[Row], by, label: str = "line", source: str = "lines"
) -> GamesPreview:
    """Save every game of ``rows`` into ``event`` with audit rows, or nothing (ImportRefused)."""
    with transaction.atomic():
        event = locked_event(event)
        preview = preview_games(event=event, rows=rows, label=label, source=source)
        if preview.errors:
            raise ImportRefused(preview.errors)
        games = Game.objects.bulk_create(
            [
                Game(
                    event=event,
                    round=g.round,
                    white=g.white,
                    black=g.black,
                    result=g.result,
                    finished_on=g.finished_on,
                    reported_on=g.reported_on,
                )
                for g in preview.games
            ]
        )
        if games and games[0].pk is None:  # a backend that returns no ids: read them back
            games = _read_back(event, preview.games)
        Substitution.objects.bulk_create(
            [
                Substitution(game=game, side=Side(side), replaces=member)
                for game, entry in zip(games, preview.games, strict=True)
                for side, member in entry.replaced
            ]
        )
        message = f"entered from {preview.source} ({len(games)} game(s) at once)"
        audit.record(
            actor=by,
            action="import",
            obj=event,
            message=f"{len(games)} game(s) entered from {preview.source}",
        )
        AuditEvent.objects.bulk_create(
            audit_rows(
                actor=by,
                action="create",
                objects=games,
                message=message,
                federation_id=event.federation_id,
            )
        )
        # bulk_create sends no post_save: say so, for the periods that read this event.
        results_written.send(
            Game, event_ids=[event.pk], description=f"{len(games)} game(s) from {preview.source}"
        )
    return preview


def _read_back(event: Event, entries: list[GameEntry]) -> list[Game]:
    by_key = {
        (g.round, g.white_id, g.black_id): g
        for g in Game.objects.filter(event=event).select_related("white", "black")
    }
    return [by_key[(e.round, e.white.pk, e.black.pk)] for e in entries]
