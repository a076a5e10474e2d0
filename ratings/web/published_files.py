"""A published list's downloads as files: written once (a published list never changes), kept in
Django's storage (MEDIA_ROOT) and served as they are.

publish_list has a worker write them once its transaction commits (write_all); a list published before, or a
format not written then, is written by its first download. Each file is named by the list's id
and publication time, so a correction (a new list) never meets an older list's file. A filtered
selection is not a file: ratings.web.exports streams it, through the same writers.
"""

from __future__ import annotations

import logging
import tempfile

from django.core.files import File
from django.core.files.storage import default_storage
from django.http import FileResponse, Http404

from ratings import systems
from ratings.models import RatingList
from ratings.selectors import lists
from ratings.web import exports, native_download
from ratings.web.filters import ListFilterSet

logger = logging.getLogger(__name__)

NATIVE = "native"  # the federation's own format (its system's native_export)
# What publication writes: the cheap ones. XLSX (a zip built in memory) waits for its first
# download.
WRITTEN_AT_PUBLICATION = ("csv", "json", "txt", NATIVE)
_NATIVE_TYPE = "text/plain; charset=utf-8"


def write_all(list_id: int) -> None:
    """Write every file of publication; run when publish_list's transaction commits."""
    rating_list = _published(list_id)
    for fmt in WRITTEN_AT_PUBLICATION:
        if fmt != NATIVE or systems.of(rating_list.federation).native_export is not None:
            write(rating_list, fmt)


def response(rating_list: RatingList, fmt: str) -> FileResponse:
    """The download of the whole list in `fmt`, from its file (written now if it is not yet)."""
    name = storage_name(rating_list, fmt)
    if not default_storage.exists(name):
        name = write(rating_list, fmt)
    content_type = _NATIVE_TYPE if fmt == NATIVE else exports.FORMATS[fmt]
    return FileResponse(
        default_storage.open(name, "rb"),
        as_attachment=True,
        filename=download_name(rating_list, fmt),
        content_type=content_type,
    )


def download_name(rating_list: RatingList, fmt: str) -> str:
    code, period = rating_list.federation.code, rating_list.period.code
    if fmt == NATIVE:
        return f"{code}-{period}-{_native(rating_list).suffix}"
    return f"{code}-{period}.{fmt}"


def storage_name(rating_list: RatingList, fmt: str) -> str:
    published = rating_list.published_at
    stamp = published.strftime("%Y%m%dT%H%M%S%f") if published else "unpublished"
    folder = f"lists/{rating_list.federation.code}/{rating_list.pk}-{stamp}"
    return f"{folder}/{download_name(rating_list, fmt)}"


def write(rating_list: RatingList, fmt: str) -> str:
    """Write the file of `fmt` and give its name in the storage (another one if two downloads
    wrote it at once: the storage never overwrites)."""
    with tempfile.TemporaryFile() as out:
        for chunk in _chunks(rating_list, fmt):
            out.write(chunk.encode() if isinstance(chunk, str) else chunk)
        out.seek(0)
        name = default_storage.save(storage_name(rating_list, fmt), File(out))
    logger.info("wrote %s", name)
    return name


def _chunks(rating_list: RatingList, fmt: str):
    if fmt == NATIVE:
        _native(rating_list)  # 404 where the federation has none
        return native_download.native_lines(rating_list)
    rows = lists.export_rows(ListFilterSet(None, rating_list).qs, "rank")
    system = systems.of(rating_list.federation)
    return exports.chunks(rating_list, fmt, rows, system, filters={})


def _native(rating_list: RatingList):
    native = systems.of(rating_list.federation).native_export
    if native is None:
        raise Http404("this federation has no export of its own")
    return native


def _published(list_id: int) -> RatingList:
    return RatingList.objects.select_related("federation", "period").get(pk=list_id)
