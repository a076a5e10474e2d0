"""Importing an EGF results table: preview (no writes) and confirm (one transaction).

The file is parsed by the pure ``tournaments.formats.egf``; players are matched to the
federation's players by EGD PIN, else by surname, first name and country ignoring case, diacritics
and name order (federation.names); the rest are created.
A table with any error saves nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from pathlib import PurePath

from django.db import transaction

from federation import audit
from federation.countries import iso_country
from federation.models import Federation, Player
from federation.names import fold, same_person_key
from federation.url_values import url_value_problem
from ratings.calendars import FIRST_YEAR, LAST_YEAR
from ratings.engines.core.errors import EngineInputError
from tournaments.acceptability import egf as egf_rules
from tournaments.formats import egf as egf_format
from tournaments.formats.egf_time import TableTimeControl, read_time_control
from tournaments.importers.base import ImportRefused, reads_results_of
from tournaments.models import Event, EventKind, EventStatus, Game, Placement, Result
from tournaments.ports import published_period_holding
from tournaments.selectors import egf_class_verdict
from tournaments.signals import results_written

RESULTS_FORMAT = "egf-table"  # a system whose events take it says so (System.results_format)


def handles(system: str) -> bool:
    """Whether this importer reads the results of ``system``'s events."""
    return reads_results_of(system, RESULTS_FORMAT)


__all__ = ["ImportRefused", "preview_import", "confirm_import", "summary"]


@dataclass
class PlayerMatch:
    ordinal: int
    surname: str
    first_name: str
    grade: str
    country: str
    pin: str | None
    player: Player | None  # None: a new player will be created
    matched_by: str  # "PIN", "name and country" or "new"

    @property
    def name(self) -> str:
        return f"{self.surname} {self.first_name}".strip()


@dataclass
class ImportPreview:
    federation: Federation
    filename: str
    event_name: str
    event_code: str
    rating_class: str
    start: date | None
    end: date | None
    location: str
    rounds: int
    players: list[PlayerMatch]
    games: list[egf_format.TableGame]
    free_rounds: list[egf_format.FreeRound]
    warnings: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    table: egf_format.ParsedTable | None = None
    time_control: TableTimeControl | None = None
    class_verdict: str = ""
    class_ok: bool | None = None  # None: the table does not say enough to judge
    rerate_from: str | None = None  # a period whose list is published holds the tournament

    @property
    def new_players(self) -> list[PlayerMatch]:
        return [p for p in self.players if p.player is None]

    @property
    def rated_games(self) -> int:
        return sum(1 for g in self.games if g.rated)

    @property
    def game_rows(self) -> list[PreviewGame]:
        """The games as the preview lists them: names, not line ordinals."""
        names = {p.ordinal: p.name for p in self.players}
        return [
            PreviewGame(
                round=g.round,
                white=names.get(g.white, f"#{g.white}"),
                black=names.get(g.black, f"#{g.black}"),
                result=_result_code(g),
                handicap=g.handicap,
                rated=g.rated,
            )
            for g in self.games
        ]


@dataclass(frozen=True)
class PreviewGame:
    round: int
    white: str
    black: str
    result: str
    handicap: int
    rated: bool


def _result_code(game: egf_format.TableGame) -> str:
    if game.white_score is None or game.black_score is None:
        return Result.UNKNOWN
    scores = (game.white_score, game.black_score)
    if game.by_default:
        return {
            (1.0, 0.0): Result.WHITE_WINS_BY_DEFAULT,
            (0.0, 1.0): Result.BLACK_WINS_BY_DEFAULT,
        }.get(scores, Result.DOUBLE_FORFEIT)
    return {
        (1.0, 0.0): Result.WHITE_WINS,
        (0.0, 1.0): Result.BLACK_WINS,
        (0.5, 0.5): Result.DRAW,
        (1.0, 1.0): Result.BOTH_WIN,
        (0.0, 0.0): Result.BOTH_LOSE,
    }.get(scores, Result.UNKNOWN)


FREE_ROUND_RESULTS = {"+": Result.BYE_WIN, "-": Result.BYE_LOSS, "=": Result.BYE_HALF}


def preview_import(
    *,
    federation: Federation,
    data: bytes,
    filename: str,
    default_reduction: int | None = None,
    event_code: str | None = None,
) -> ImportPreview:
    """``event_code``: the new event's code (default: the TC tag, else the file name)."""
    table = egf_format.parse_table(data, filename=filename, default_reduction=default_reduction)
    header = table.header
    errors = [str(issue) for issue in table.errors]
    code = event_code or header.egd_code or PurePath(filename).stem
    start = date.fromisoformat(header.start_date) if header.start_date else None
    end = date.fromisoformat(header.end_date) if header.end_date else start
    if start is None:
        errors.append("line 0: the table has no DT[start,end] dates; add them to the file")
    elif not all(FIRST_YEAR <= d.year <= LAST_YEAR for d in (start, end)):
        errors.append(
            f"line {_tag_line(data, b'DT[')}: the dates {start}, {end} are outside the years "
            f"{FIRST_YEAR}-{LAST_YEAR}"
        )
    if not header.tournament_class:
        errors.append("line 0: the table has no CL[class] tag (A, B, C or D)")
    if Event.objects.filter(federation=federation, code=code).exists():
        errors.append(f"an event with code {code!r} already exists in {federation.code}")
    if not handles(federation.system):
        errors.append(f"{federation.code} is not an EGF federation")
    preview = ImportPreview(
        federation=federation,
        filename=filename,
        event_name=header.name or code,
        event_code=code,
        rating_class=header.tournament_class or "",
        start=start,
        end=end,
        location=header.city or header.place or "",
        rounds=table.rounds,
        players=[],
        games=list(table.games),
        free_rounds=list(table.free_rounds),
        warnings=[str(w) for w in table.warnings],
        errors=errors,
        table=table,
    )
    preview.errors += _storage_errors(
        table, code, _tag_line(data, b"TC[") if header.egd_code else 0
    )
    preview.time_control = read_time_control(header)
    if start is not None:
        _judge_class(preview, _new_event(preview))
    if not table.players:
        return preview
    preview.players = _match_players(federation, table.players)
    preview.errors += _new_id_errors(federation, preview)
    return preview


# What the database can hold (Event.code, Game.handicap and Game.round columns): a table beyond
# them is refused here with a message, not by a database error (a server error in the admin).
MAX_CODE = 40
MAX_HANDICAP = 30
MAX_ROUNDS = 32767


def _tag_line(data: bytes, tag: bytes) -> int:
    """The line number of a header tag (0 if absent), as the parser counts lines."""
    for number, line in enumerate(data.splitlines(), 1):
        if tag in line:
            return number
    return 0


def _storage_errors(table: egf_format.ParsedTable, code: str, code_line: int) -> list[str]:
    errors = []
    problem = url_value_problem(code)
    if problem:
        where = "TC tag" if code_line else "file name"
        errors.append(f"line {code_line}: the event code {code[:50]!r} ({where}): {problem}")
    if len(code) > MAX_CODE:
        errors.append(
            f"line 0: the event code {code[:50]!r} (TC tag or file name) is longer "
            f"than {MAX_CODE} characters"
        )
    if table.rounds > MAX_ROUNDS:
        errors.append(f"line 0: {table.rounds} rounds; the site stores at most {MAX_ROUNDS}")
    lines = {p.ordinal: p.line for p in table.players}
    for game in table.games:
        if game.handicap > MAX_HANDICAP:
            errors.append(
                f"line {lines.get(game.white, 0)}: round {game.round}: "
                f"{game.handicap} handicap stones; the site stores at most "
                f"{MAX_HANDICAP}"
            )
    return errors


def new_player_id(event_code: str, ordinal: int) -> str:
    """The federation id of a player the table gives no PIN: event code and line ordinal,
    cut to what Player.federation_player_id holds (20 characters of letters, digits, . _ -)."""
    suffix = f"-{ordinal}"
    base = re.sub(r"[^A-Za-z0-9_.-]", "", event_code) or "egf"
    return base[: 20 - len(suffix)] + suffix


def _new_id_errors(federation: Federation, preview: ImportPreview) -> list[str]:
    wanted = {
        new_player_id(preview.event_code, m.ordinal): m for m in preview.new_players if not m.pin
    }
    taken = _chunked(
        Player.objects.filter(federation=federation), "federation_player_id__in", set(wanted)
    )
    return [
        f"line 0: player {wanted[p.federation_player_id].name!r} has no EGD PIN and the id "
        f"{p.federation_player_id!r} made for him is already another player's; add the PIN "
        "to the file"
        for p in taken
    ]


def _chunked(queryset, lookup: str, values: set[str], size: int = 500):
    """Rows matching ``lookup`` in ``values``, a few hundred values per query: a 10 MB table
    names 200,000 players, beyond SQLite's limit of variables in one statement."""
    ordered = sorted(values)
    for start in range(0, len(ordered), size):
        yield from queryset.filter(**{lookup: ordered[start : start + size]})


def name_key(surname: str, given: str) -> tuple[str, ...]:
    """Tables and the EGD write spaces inside names as ``_``; the rest is same_person_key."""
    return same_person_key(surname.replace("_", " "), given.replace("_", " "))


def _match_players(federation: Federation, players) -> list[PlayerMatch]:
    """By PIN (a merged PIN leads to the player it was merged into), else by surname and given
    name ignoring case, diacritics and their order, and the country."""
    mine = Player.objects.filter(federation=federation)
    pins = {p.pin for p in players if p.pin}
    by_pin = {p.federation_player_id: p for p in _chunked(mine, "federation_player_id__in", pins)}
    kept = {
        p.pk: p
        for p in _chunked(
            mine, "pk__in", {p.merged_into_id for p in by_pin.values() if p.merged_into_id}
        )
    }
    words = {
        fold(part.replace("_", " ")) for p in players for part in (p.surname, p.first_name) if part
    }
    words |= {word for text in set(words) for word in text.split()}
    by_name: dict[tuple, list[Player]] = {}
    unmerged = mine.filter(merged_into__isnull=True)
    seen = set()
    for lookup in ("surname_folded__in", "given_name_folded__in"):
        for candidate in _chunked(unmerged, lookup, words):
            if candidate.pk not in seen:
                seen.add(candidate.pk)
                key = (name_key(candidate.surname, candidate.given_name), candidate.country)
                by_name.setdefault(key, []).append(candidate)
    matches = []
    for p in players:
        country = (p.country or "").upper()
        found, how = None, "new"
        if p.pin and p.pin in by_pin:
            found, how = by_pin[p.pin], "PIN"
            if found.merged_into_id:
                found, how = kept[found.merged_into_id], "PIN (merged)"
        else:
            same = by_name.get((name_key(p.surname, p.first_name), iso_country(country)), [])
            if len(same) == 1:
                found, how = same[0], "name and country"
            elif same:
                how = f"new: {len(same)} players have this name and country"
        matches.append(
            PlayerMatch(p.ordinal, p.surname, p.first_name, p.grade, country, p.pin, found, how)
        )
    return matches


def _new_event(preview: ImportPreview) -> Event:
    """The event the table describes (unsaved): class from CL, time control from CM and TM."""
    header = preview.table.header
    tc = preview.time_control
    return Event(
        federation=preview.federation,
        name=preview.event_name[:200],
        code=preview.event_code,
        kind=EventKind.INDIVIDUAL,
        status=EventStatus.DRAFT,
        start=preview.start,
        end=preview.end,
        rating_class=preview.rating_class,
        location=preview.location[:200],
        handicap_reduction=header.handicap_reduction,
        komi=Decimal(str(header.komi)) if header.komi is not None else None,
        time_system=tc.system or "",
        basic_time_minutes=tc.basic_minutes,
        overtime_seconds=tc.overtime_seconds,
        overtime_moves=tc.overtime_moves,
        fischer_bonus_seconds=tc.fischer_bonus_seconds,
    )


def _judge_class(preview: ImportPreview, event: Event) -> None:
    """The class verdict of the EGF rules (RULES §6.2) and the published-period warning."""
    tc = preview.time_control
    try:
        verdict = egf_class_verdict(event)
    except EngineInputError:
        _judge_by_adjusted_time(preview, tc)
    else:
        preview.class_ok = verdict.status == "pass"
        preview.class_verdict = verdict.message
    if tc.missing:
        preview.warnings.append(
            f"the table does not give the {', '.join(tc.missing_labels)}"
            + (
                f" (TM[{tc.adjusted_minutes}] is the adjusted time only)"
                if tc.adjusted_minutes
                else ""
            )
            + "; enter them on the event after the import"
        )
    held = published_period_holding(event.federation_id, event.end)
    if held is not None:
        period, later = held
        preview.rerate_from = period
        preview.warnings.append(
            f"the tournament ended {event.end}, in period {period}, whose list is already "
            "published"
            + (f" (and so are {', '.join(later)})" if later else "")
            + f": after it is accepted, a re-rate from {period} will be needed"
        )


def _judge_by_adjusted_time(preview: ImportPreview, tc: TableTimeControl) -> None:
    """Only TA is known: say what it reaches; the basic-time minimum stays to be checked."""
    declared = preview.rating_class or None
    if tc.adjusted_minutes is None or declared is None:
        preview.class_verdict = "no verdict: the table gives " + (
            "no class (CL)" if declared is None else "no adjusted time (TM)"
        )
        return
    reached = [
        c for c in egf_rules.OFFLINE_ORDER if tc.adjusted_minutes >= egf_rules.MINIMUMS[c][2]
    ]
    needed = egf_rules.MINIMUMS[declared][2]
    best = reached[0] if reached else None
    if tc.adjusted_minutes < needed:
        preview.class_ok = False
        preview.class_verdict = (
            f"declared class {declared} needs adjusted time at least {needed} min; TM[{tc.adjusted_minutes}] "
            + (f"reaches at most class {best}" if best else "reaches no class")
        )
    else:
        preview.class_verdict = (
            f"TM[{tc.adjusted_minutes}] reaches class {declared}'s adjusted time ({needed} min); "
            f"its basic-time minimum ({egf_rules.MINIMUMS[declared][0]} min) is checked once the "
            "basic time is entered"
        )


def summary(preview: ImportPreview) -> str:
    return (
        f"{preview.event_code} {preview.event_name!r}: {len(preview.players)} players "
        f"({len(preview.new_players)} new), {len(preview.games)} games "
        f"({preview.rated_games} rated), {len(preview.free_rounds)} free rounds"
    )


@transaction.atomic
def confirm_import(
    *,
    federation: Federation,
    data: bytes,
    filename: str,
    by=None,
    default_reduction: int | None = None,
    event_code: str | None = None,
) -> Event:
    """Re-parses the file (never trusts an earlier preview) and saves it all or nothing."""
    preview = preview_import(
        federation=federation,
        data=data,
        filename=filename,
        default_reduction=default_reduction,
        event_code=event_code,
    )
    if preview.errors:
        raise ImportRefused(preview.errors)
    event = _new_event(preview)
    event.save()
    audit.record(
        actor=by,
        action="import",
        obj=event,
        message=f"imported {preview.filename}: {len(preview.players)} players, "
        f"{len(preview.games)} games",
    )
    players = {}
    for match in preview.players:
        player = match.player
        if player is None:
            player = Player.objects.create(
                federation=federation,
                federation_player_id=match.pin or new_player_id(preview.event_code, match.ordinal),
                surname=match.surname.replace("_", " ")[:100],
                given_name=match.first_name.replace("_", " ")[:100],
                country=match.country if len(match.country) == 2 and match.country != "XX" else "",
                grade=match.grade,
            )
            audit.record(
                actor=by,
                action="create",
                obj=player,
                new=audit.snapshot(player),
                message=f"created by the import of {preview.filename}",
            )
        players[match.ordinal] = player
    # The table's order is the official placement (the event page shows it as the file has it).
    Placement.objects.bulk_create(
        Placement(event=event, player=players[m.ordinal], place=m.ordinal, grade=m.grade)
        for m in preview.players
    )
    games = Game.objects.bulk_create(
        [
            Game(
                event=event,
                round=g.round,
                white=players[g.white],
                black=players[g.black],
                result=_result_code(g),
                handicap=g.handicap,
                finished_on=preview.end,
            )
            for g in preview.games
        ]
        + [
            Game(
                event=event,
                round=f.round,
                white=players[f.ordinal],
                black=None,
                result=FREE_ROUND_RESULTS[f.symbol],
                finished_on=preview.end,
            )
            for f in preview.free_rounds
        ]
    )
    # bulk_create sends no post_save: say so, for the periods that read this event.
    results_written.send(
        Game,
        event_ids=[event.pk],
        description=f"{len(games)} games imported from {preview.filename}",
    )
    return event
