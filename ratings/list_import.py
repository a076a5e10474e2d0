"""Importing a player list (EGD world list, FIDE TXT/XML, CSV): one service for the command and
the admin.

``import_player_list`` always does the whole import inside one transaction; a dry run (the
preview) then rolls it back, so the preview shows exactly what the confirmation will do. Problem
lines (with their line numbers) refuse the whole file: nothing is changed. Importing the same file
again changes nothing (0 new, 0 updated; an identical starting list is not published twice).

- EGD world list: players by PIN (names, country, club, grade); with ``publish`` their GoR and
  tournament counts become the federation's first published list, valid from the list's date.
- CSV: players by id; with ``publish`` (and a date) their ``rating`` column as the first list.
- FIDE TXT/XML: kept whole as a ``FideList`` of its date, for ICCF rule 2.1a (fide_checks);
  streamed row by row into the database, so memory stays flat for 1,000,000 rows.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import BinaryIO

from django.core.validators import RegexValidator
from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from federation import audit
from federation.countries import iso_country
from federation.models import Federation, FideList, FideRating, Player, RatingSystem
from federation.names import fold
from ratings import periods, persistence
from ratings.engines.core.grades import normalise_grade
from ratings.models import ListStatus, RatingList
from tournaments.formats import egd_list, fide_list, player_csv
from tournaments.formats.player_lists import ListMeta, ListProblem, ListRow

Source = Callable[[], BinaryIO]

FORMATS = {
    "egd": "EGD world list (fixed width)",
    "fide-txt": "FIDE rating list, TXT",
    "fide-xml": "FIDE rating list, XML",
    "csv": "CSV (id, surname, given_name, country, club, grade, rating)",
}
SYSTEMS_OF_FORMAT = {
    "egd": {RatingSystem.EGF},
    "fide-txt": {RatingSystem.ICCF, RatingSystem.PLAYCHESS},
    "fide-xml": {RatingSystem.ICCF, RatingSystem.PLAYCHESS},
    "csv": set(RatingSystem.values),
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
_last_date = functools.lru_cache(maxsize=65536)(egd_list.last_appearance_date)
_active = functools.lru_cache(maxsize=65536)(periods.egf_is_active)


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
    by=None,
) -> ListImportPreview:
    """Import (or, with ``dry_run``, preview) a list; raises ListImportRefused on any problem."""
    fmt = fmt or guess_format(filename)
    preview = ListImportPreview(federation=federation, filename=filename, fmt=fmt)
    if fmt not in FORMATS:
        preview.errors.append(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
        raise ListImportRefused(preview)
    if federation.system not in SYSTEMS_OF_FORMAT[fmt]:
        preview.errors.append(
            f"{federation.code} rates {federation.get_system_display()}; a {FORMATS[fmt]} "
            "is not its list"
        )
        raise ListImportRefused(preview)
    try:
        with transaction.atomic():
            if fmt.startswith("fide"):
                _import_fide(preview, source, valid_from, publish)
            else:
                _import_players(preview, source, valid_from, publish, by)
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
    if not rows and not preview.problems:
        preview.errors.append(
            f"no player rows found (the file was read as: {FORMATS[preview.fmt]})"
        )
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
        _publish(preview, rows, ids, by)


def _write_players(federation, creates, updates, filename: str, by) -> dict[str, int]:
    now = timezone.now()
    persistence.bulk_insert(
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

    actor = by if getattr(by, "is_authenticated", False) else None
    AuditEvent.objects.bulk_create(
        [
            AuditEvent(
                federation=federation,
                actor=actor,
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


# ---------------------------------------------------------------------------- starting lists


def _period_code(federation: Federation, valid_from: date) -> str | None:
    """The calendar's period whose list becomes valid on ``valid_from``, if there is one."""
    from ratings.services import calendar_of

    params = calendar_of(federation)
    period = periods.period_for(federation.system, valid_from - timedelta(days=1), params=params)
    while period.valid_from < valid_from:
        period = periods.next_period(period, params=params)
    return period.code if period.valid_from == valid_from else None


def _entries(preview: ListImportPreview, rows: list[ListRow], ids: dict[str, int]) -> list[dict]:
    entries = []
    for row in rows:
        pid = ids.get(row.player_id)
        if pid is None or row.rating is None:
            continue
        entry = {"player_id": pid, "rating": float(row.rating), "published_rating": row.rating}
        if preview.fmt == "egd":
            entry.update(egd_entry(row, preview.valid_from))
        else:
            entry["total_games"] = row.games or 0
        entries.append(entry)
    return sorted(entries, key=lambda e: e["player_id"])


def egd_entry(row: ListRow, valid_from: date) -> dict:
    """An EGD row as the EGF runner carries it on: grade, highest grade, last tournament date,
    tournament count; listed when active on the list's date (RULES §2.5)."""
    grade = _grade(row.grade)
    state = {"grade": grade, "max_grade": grade, "tournaments": row.tournaments or 0}
    last = _last_date(row.last_appearance)
    if row.last_appearance:
        state["egd_last"] = row.last_appearance
    if last is not None:
        state["last"] = last.isoformat()
    listed = last is not None and _active(grade, last, valid_from)
    return {"state": state, "listed": listed}


def _publish(preview: ListImportPreview, rows: list[ListRow], ids: dict[str, int], by) -> None:
    from ratings.services import canonical_digest, import_list

    federation = preview.federation
    if preview.valid_from is None:
        preview.errors.append("the list has no date: give the date it is valid from")
        return
    code = _period_code(federation, preview.valid_from)
    if code is None:
        preview.errors.append(
            f"{preview.valid_from} is no list date of {federation.code}'s calendar"
        )
        return
    entries = _entries(preview, rows, ids)
    published = RatingList.objects.filter(
        federation=federation, status=ListStatus.PUBLISHED
    ).select_related("run", "period")
    imported = published.filter(period__code=code, run__engine="import")
    same = (
        imported.filter(run__input_digest=canonical_digest(entries)).first()
        if imported.exists()  # 44,000 entries: digest them only when there is one to compare
        else None
    )
    if same is not None:
        preview.publication = f"the list of {code} is already published with these ratings"
        preview.list_id = same.pk
        return
    if published.exists():
        preview.errors.append(
            f"{federation.code} already has published lists; a starting list can only be a "
            "federation's first list"
        )
        return
    rating_list = import_list(
        federation=federation,
        period_code=code,
        entries=entries,
        by=by,
        note=f"starting list imported from {preview.filename}",
    )
    preview.list_id = rating_list.pk
    preview.publication = (
        f"published the starting list of {code} ({len(entries)} entries, "
        f"{rating_list.entry_count} listed)"
    )


# ------------------------------------------------------------------------------- FIDE lists

_FIDE_COLUMNS = ["fide_list_id", "fide_id", "name", "fed", "rating", "games", "birth_year", "title"]


def _import_fide(
    preview: ListImportPreview, source: Source, valid_from: date | None, publish: bool
) -> None:
    if publish:
        preview.errors.append("a FIDE list is reference data for rule 2.1a; it is not published")
        return
    preview.valid_from = valid_from or fide_list.valid_from_of_name(preview.filename)
    if preview.valid_from is None:
        preview.errors.append(
            "the FIDE list's date is neither given nor in its file name (like standard_jul25frl)"
        )
        return
    if preview.valid_from.day != 1:
        preview.errors.append(
            f"a FIDE list is valid from the 1st of a month, not {preview.valid_from}"
        )
        return
    federation = preview.federation
    existing = FideList.objects.filter(federation=federation, valid_from=preview.valid_from).first()
    digest = hashlib.sha256()
    target = existing or FideList.objects.create(
        federation=federation, valid_from=preview.valid_from, filename=preview.filename[:200]
    )
    with source() as stream:
        rows = _fide_rows(preview, stream, target.pk, digest)
        if existing is None:
            persistence.bulk_insert(FideRating, _FIDE_COLUMNS, rows)
        else:
            for _ in rows:
                pass
    if not preview.rows_read and not preview.problems:
        preview.errors.append(
            f"no player rows found (the file was read as: {FORMATS[preview.fmt]})"
        )
    if not preview.ok:
        return
    if existing is not None:
        if existing.digest != digest.hexdigest():
            preview.errors.append(
                f"a different FIDE list of {preview.valid_from} is already imported; "
                "delete it in the admin first"
            )
        preview.unchanged = preview.rows_read
        preview.list_id = existing.pk
        return
    _refuse_repeated_ids(preview, target)
    target.row_count = preview.new_count = preview.rows_read
    target.digest = digest.hexdigest()
    target.save()
    preview.list_id = target.pk


def _fide_rows(preview, stream, list_id: int, digest) -> Iterator[tuple]:
    items = fide_list.read_xml(stream) if preview.fmt == "fide-xml" else fide_list.read_txt(stream)
    for item in items:
        if isinstance(item, ListProblem):
            preview.problem(item)
            continue
        name = f"{item.surname}, {item.given_name}" if item.given_name else item.surname
        row = (
            list_id,
            item.player_id,
            name[:200],
            item.country[:3],
            item.rating,
            item.games if item.games is None or item.games < 32768 else None,
            item.birth_year,
            item.title[:4],
        )
        digest.update(repr(row[1:]).encode())
        preview.rows_read += 1
        yield row


def _refuse_repeated_ids(preview: ListImportPreview, target: FideList) -> None:
    repeated = (
        FideRating.objects.filter(fide_list=target)
        .values("fide_id")
        .annotate(times=Count("id"))
        .filter(times__gt=1)
        .order_by("fide_id")[:50]
    )
    for row in repeated:
        preview.errors.append(f"FIDE ID {row['fide_id']} is listed {row['times']} times")
