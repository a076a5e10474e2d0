"""Importing a player list (EGD world list, FIDE TXT/XML, CSV): one service for the command and
the admin.

``import_player_list`` always does the whole import inside one transaction; a dry run (the
preview) then rolls it back, so the preview shows exactly what the confirmation will do. Problem
lines (with their line numbers) refuse the whole file: nothing is changed. Importing the same file
again changes nothing (0 new, 0 updated; an identical starting list is not published twice).

- EGD world list: players by PIN (names, country, club, grade); with ``publish`` their GoR and
  tournament counts become the federation's first published list, valid from the list's date
  (ratings.services.starting_list).
- CSV: players by id; with ``publish`` (and a date) their ``rating`` column as the first list.
- FIDE TXT/XML: kept whole as a ``FideList`` of its date, for ICCF rule 2.1a (fide_checks);
  streamed row by row into the database, so memory stays flat for 1,000,000 rows
  (ratings.systems.iccf.fide_lists).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import BinaryIO

from django.core.validators import RegexValidator
from django.db import transaction
from django.utils import timezone

from federation import audit
from federation.countries import iso_country
from federation.models import Federation, Player
from federation.names import fold
from federation.permissions import Actor, require_rating_officer, user_or_none
from ratings import systems
from ratings.engines.core.gc_pause import cycle_collector_paused
from ratings.engines.core.grades import normalise_grade
from ratings.persistence import writers
from ratings.services.starting_list import publish_starting_list
from ratings.systems.iccf.fide_lists import import_fide_list
from tournaments.formats import egd_list, player_csv
from tournaments.formats.player_lists import ListMeta, ListProblem, ListRow

Source = Callable[[], BinaryIO]

FORMATS = {
    "egd": "EGD world list (fixed width)",
    "fide-txt": "FIDE rating list, TXT",
    "fide-xml": "FIDE rating list, XML",
    "csv": "CSV (id, surname, given_name, country, club, grade, rating)",
}
PLAYER_FIELDS = ("surname", "given_name", "country", "club", "grade")
PROBLEMS_KEPT = 2000  # a file of nothing but bad lines still previews in a moment
# The model's own rule for ids, compiled once (the validator's lazy regex is slow per call).
_ID_OK = re.compile(
    next(
        v.regex.pattern
        for v in Player._meta.get_field("federation_player_id").validators
        if isinstance(v, RegexValidator)
    )
)


class ListImportRefused(Exception):
    def __init__(self, preview: ListImportPreview) -> None:
        super().__init__("; ".join(preview.messages()[:5]))
        self.preview = preview


def guess_format(filename: str) -> str:
    name = filename.lower()
    if name.endswith(".xml"):
        return "fide-xml"
    if name.endswith(".csv"):
        return "csv"
    if "frl" in name or "fide" in name:
        return "fide-txt"
    return "egd"


@dataclass
class PlayerUpdate:
    row: ListRow
    changes: dict[str, tuple[str, str]]  # field -> (old, new)


@dataclass
class ListImportPreview:
    federation: Federation
    filename: str
    fmt: str
    valid_from: date | None = None
    declared_count: int | None = None
    rows_read: int = 0
    new: list[ListRow] = field(default_factory=list)
    new_count: int = 0  # FIDE lists count rows without keeping them
    updated: list[PlayerUpdate] = field(default_factory=list)
    unchanged: int = 0
    problems: list[ListProblem] = field(default_factory=list)
    more_problems: int = 0
    warnings: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # about the file as a whole
    unknown_countries: dict[str, list[int]] = field(default_factory=dict)  # code -> lines
    publication: str = ""  # what publish does: a sentence for the preview
    list_id: int | None = None  # the published (or FIDE) list once confirmed

    @property
    def ok(self) -> bool:
        return not self.errors and not self.problems

    def messages(self) -> list[str]:
        return self.errors + [str(p) for p in self.problems]

    def summary(self) -> str:
        return (
            f"{self.rows_read} rows read: {self.new_count} new, {len(self.updated)} updated, "
            f"{self.unchanged} unchanged"
        )

    def problem(self, item: ListProblem) -> None:
        if len(self.problems) < PROBLEMS_KEPT:
            self.problems.append(item)
        else:
            self.more_problems += 1


# Lists repeat a few dozen grades and countries and many names 44,000 times: ask once each.
_grade = functools.lru_cache(maxsize=256)(normalise_grade)
_country = functools.lru_cache(maxsize=1024)(iso_country)
_fold = functools.lru_cache(maxsize=65536)(fold)


class _RolledBack(Exception):
    """Raised inside the transaction to undo a dry run or a refused import."""


def import_player_list(
    *,
    federation: Federation,
    source: Source,
    filename: str,
    fmt: str | None = None,
    publish: bool = False,
    dry_run: bool = False,
    valid_from: date | None = None,
    by: Actor,
) -> ListImportPreview:
    """Import (or, with ``dry_run``, preview) a list; raises ListImportRefused on any problem,
    NotAllowed if ``by`` is not a rating officer of the federation (nor the system)."""
    require_rating_officer(by, federation, "import its player lists")
    fmt = fmt or guess_format(filename)
    preview = ListImportPreview(federation=federation, filename=filename, fmt=fmt)
    if fmt not in FORMATS:
        preview.errors.append(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
        raise ListImportRefused(preview)
    accepted = systems.of(federation).list_formats  # the formats are the system's own
    if fmt not in accepted:
        preview.errors.append(
            f"{federation.code} rates {federation.get_system_display()}; a {FORMATS[fmt]} "
            f"is not its list (it takes: {'; '.join(FORMATS[known] for known in accepted)})"
        )
        raise ListImportRefused(preview)
    try:
        # (a list's rows are tens of thousands of acyclic objects: no collection on their way)
        with cycle_collector_paused(), transaction.atomic():
            # One import per federation at a time: a second waits and then finds the first's
            # players (instead of colliding with them on the unique ids).
            Federation.objects.select_for_update().filter(pk=federation.pk).first()
            if fmt.startswith("fide"):
                import_fide_list(preview, source, valid_from, publish)
            else:
                _import_players(preview, source, valid_from, publish, by)
            if preview.ok and not preview.rows_read:
                preview.errors.append(
                    f"no player rows found (the file was read as: {FORMATS[fmt]})"
                )
            if not preview.ok or dry_run:
                raise _RolledBack
            audit.record(
                actor=by,
                action="import_list",
                obj=federation,
                message=f"imported {filename} ({FORMATS[fmt]}): {preview.summary()}"
                + (f"; {preview.publication}" if preview.publication else ""),
            )
    except _RolledBack:
        if not preview.ok:
            raise ListImportRefused(preview) from None
    return preview


# ------------------------------------------------------------------------------ player lists


def _read_rows(preview: ListImportPreview, source: Source) -> list[ListRow]:
    reader = egd_list.read_world_list if preview.fmt == "egd" else player_csv.read_csv
    rows = []
    with source() as stream:
        for item in reader(stream):
            if isinstance(item, ListRow):
                rows.append(item)
            elif isinstance(item, ListProblem):
                preview.problem(item)
            else:
                _meta(preview, item)
    preview.rows_read = len(rows)
    if preview.declared_count is not None and preview.declared_count != len(rows):
        preview.errors.append(
            f"the file says it lists {preview.declared_count} players but "
            f"{len(rows)} player rows were read"
        )
    return rows


def _meta(preview: ListImportPreview, meta: ListMeta) -> None:
    preview.valid_from = meta.valid_from or preview.valid_from
    if meta.declared_count is not None:
        preview.declared_count = meta.declared_count


def _player_values(preview: ListImportPreview, row: ListRow) -> dict[str, str] | None:
    """The Player fields of a row, or None (with the problem recorded) when it cannot be one."""

    def bad(message: str) -> None:
        preview.problem(ListProblem(row.line, f"{row.player_id} {row.surname}", message))

    if len(row.player_id) > 20 or not _ID_OK.match(row.player_id):
        return bad(f"id {row.player_id!r}: letters, digits, . _ - only, at most 20")
    for name, value in (("surname", row.surname), ("given name", row.given_name)):
        if len(value) > 100:
            return bad(f"the {name} is longer than 100 characters")
    if len(row.club) > 100:
        return bad("the club is longer than 100 characters")
    grade = ""
    if row.grade:
        try:
            grade = _grade(row.grade)
        except ValueError as error:
            return bad(str(error))
    elif preview.fmt == "egd":
        return bad("no grade")
    country = _country(row.country)
    if country is None:
        preview.unknown_countries.setdefault(row.country, []).append(row.line)
        country = ""
    values = {
        "surname": row.surname,
        "given_name": row.given_name,
        "country": country,
        "club": row.club,
        "grade": grade,
    }
    if preview.fmt == "csv":  # a CSV without a column (or with a blank cell) leaves it alone
        values = {k: v for k, v in values.items() if v or k == "surname"}
    return values


def _import_players(
    preview: ListImportPreview, source: Source, valid_from: date | None, publish: bool, by
) -> None:
    federation = preview.federation
    rows = _read_rows(preview, source)
    preview.valid_from = valid_from or preview.valid_from
    existing = {
        values[1]: values
        for values in Player.objects.filter(federation=federation).values_list(
            "id", "federation_player_id", "merged_into_id", *PLAYER_FIELDS
        )
    }
    creates, updates = [], []
    for row in rows:
        values = _player_values(preview, row)
        if values is None:
            continue
        found = existing.get(row.player_id)
        if found is None:
            creates.append((row, values))
            continue
        if found[2] is not None:
            preview.warnings.append(
                f"line {row.line}: {row.player_id} was merged into another player; "
                "the row is left out"
            )
            continue
        old = dict(zip(PLAYER_FIELDS, found[3:], strict=True))
        changes = {k: (old[k], v) for k, v in values.items() if old[k] != v}
        if changes:
            updates.append((found[0], PlayerUpdate(row, changes)))
        else:
            preview.unchanged += 1
    for code, lines in sorted(preview.unknown_countries.items()):
        shown = ", ".join(map(str, lines[:10])) + (", ..." if len(lines) > 10 else "")
        preview.warnings.append(
            f"country {code!r} is no ISO 3166 code: {len(lines)} player"
            f"{'s' if len(lines) > 1 else ''} stored without a country "
            f"(line{'s' if len(lines) > 1 else ''} {shown})"
        )
    preview.new = [row for row, _ in creates]
    preview.new_count = len(creates)
    preview.updated = [update for _, update in updates]
    if not preview.ok:
        return
    ids = _write_players(federation, creates, updates, preview.filename, by)
    if publish:
        publish_starting_list(preview, rows, ids, by)


def _write_players(federation, creates, updates, filename: str, by) -> dict[str, int]:
    now = timezone.now()
    writers.bulk_insert(
        Player,
        PLAYER_COLUMNS,
        (_new_player(federation, row, values, now) for row, values in creates),
    )
    if updates:
        changed = []
        for pk, update in updates:
            player = Player(pk=pk, federation=federation)
            for name, (_, new) in update.changes.items():
                setattr(player, name, new)
            changed.append(player)
        fields = sorted({name for _, u in updates for name in u.changes})
        if {"surname", "given_name"} & set(fields):
            # bulk_update skips save(): refill the folded search names from the stored ones
            stored = Player.objects.in_bulk([p.pk for p in changed])
            for player in changed:
                for name in ("surname", "given_name"):
                    if name not in fields:
                        setattr(player, name, getattr(stored[player.pk], name))
                player.fill_folded_names()
            fields += ["surname_folded", "given_name_folded"]
        Player.objects.bulk_update(changed, fields, batch_size=1000)
        _audit_updates(federation, updates, filename, by)
    return dict(
        Player.objects.filter(federation=federation).values_list("federation_player_id", "id")
    )


PLAYER_COLUMNS = [
    "federation_id",
    "federation_player_id",
    "surname",
    "given_name",
    "surname_folded",
    "given_name_folded",
    "country",
    "club",
    "grade",
    "fide_id",
    "active",
    "created_at",
    "updated_at",
]


def _new_player(federation, row: ListRow, values: dict[str, str], now) -> tuple:
    """A new player's row for COPY (44,000 players: the ORM's INSERT is the slow part); the
    folded names as Player.fill_folded_names() sets them."""
    return (
        federation.pk,
        row.player_id,
        values["surname"],
        values.get("given_name", ""),
        _fold(values["surname"]),
        _fold(values.get("given_name", "")),
        values.get("country", ""),
        values.get("club", ""),
        values.get("grade", ""),
        "",
        True,
        now,
        now,
    )


def _audit_updates(federation, updates, filename: str, by) -> None:
    from federation.models import AuditEvent

    AuditEvent.objects.bulk_create(
        [
            AuditEvent(
                federation=federation,
                actor=user_or_none(by),
                actor_name=audit.actor_name(by),
                action="change",
                object_type="federation.Player",
                object_id=str(pk),
                object_repr=f"{update.row.surname}, {update.row.given_name} "
                f"({update.row.player_id})"[:300],
                old_values={k: old for k, (old, _) in update.changes.items()},
                new_values={k: new for k, (_, new) in update.changes.items()},
                message=f"updated by the import of {filename}",
            )
            for pk, update in updates
        ],
        batch_size=1000,
    )
