"""FIDE rating lists (list_import): kept whole as a FideList of their date, for ICCF rule 2.1a.
Rows are COPYed as they are read (flat memory for 1,000,000 rows); repeated FIDE IDs are found
by one query afterwards; the same list again is recognised by its digest."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from datetime import date
from typing import TYPE_CHECKING

from django.db.models import Count

from federation.models import FideList, FideRating
from ratings.persistence import writers
from tournaments.formats import fide_list
from tournaments.formats.player_lists import ListProblem

if TYPE_CHECKING:
    from ratings.services.imports import ListImportPreview, Source

_FIDE_COLUMNS = ["fide_list_id", "fide_id", "name", "fed", "rating", "games", "birth_year", "title"]


def import_fide_list(
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
            writers.bulk_insert(FideRating, _FIDE_COLUMNS, rows)
        else:
            for _ in rows:
                pass
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
