"""A published list's downloads are files written when publish_list commits
(ratings.web.published_files), served as they are; a filtered selection is streamed by the same
writers; a list whose files are missing (published before they existed) gets them written by its
first download."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.files.storage import default_storage
from django.http import FileResponse

from federation.models import Federation, Player
from federation.permissions import COMMAND_LINE
from ratings.models import RatingList
from ratings.services import publication, runs
from ratings.web import exports, published_files
from tests.ratings.web.factories import standard_world
from tournaments.models import Event, Game

pytestmark = pytest.mark.django_db


def _body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def _published_egf_list(django_capture_on_commit_callbacks) -> RatingList:
    federation = Federation.objects.create(code="egf-f", name="EGF files", system="egf")
    players = [
        Player.objects.create(
            federation=federation, federation_player_id=str(i), surname=f"=G{i}", grade="2d"
        )
        for i in range(4)
    ]
    event = Event.objects.create(
        federation=federation,
        name="T1",
        code="T1",
        kind="individual",
        status="accepted",
        rating_class="A",
        start=date(2025, 1, 11),
        end=date(2025, 1, 11),
    )
    Game.objects.create(event=event, round=1, white=players[0], black=players[1], result="1-0")
    Game.objects.create(event=event, round=1, white=players[2], black=players[3], result="0-1")
    run = runs.run_now(federation=federation, period_code="2025-01", by=COMMAND_LINE)
    assert run.status == "succeeded", run.error
    with django_capture_on_commit_callbacks(execute=True):
        return publication.publish_list(list_id=run.rating_list.pk, by=COMMAND_LINE)


def test_publication_writes_the_files_and_the_download_serves_them(
    client, django_capture_on_commit_callbacks, django_assert_num_queries, eager_celery
):
    """Publication enqueues the files' task on commit; run in-process here even where
    REDIS_URL names a real broker (the worker tests prove tasks run on a real worker)."""
    rating_list = _published_egf_list(django_capture_on_commit_callbacks)
    for fmt in published_files.WRITTEN_AT_PUBLICATION:
        assert default_storage.exists(published_files.storage_name(rating_list, fmt)), fmt
    url = "/federations/egf-f/lists/2025-01/"
    client.get(f"{url}export.csv")  # the list's own lookups are cached after the first
    with django_assert_num_queries(0):
        response = client.get(f"{url}export.csv")
    assert isinstance(response, FileResponse)
    assert response["Content-Disposition"] == 'attachment; filename="egf-f-2025-01.csv"'
    served = _body(response).decode()
    assert served.startswith("Rank,Id,Surname,")
    assert served.count("\r\n") == 5 and "'=G0" in served  # every player, formulas neutralised
    filtered = client.get(f"{url}export.csv?club=none-such")
    assert not isinstance(filtered, FileResponse) and filtered.streaming
    assert _body(filtered).decode() == served.split("\r\n")[0] + "\r\n"
    native = client.get(f"{url}native.txt")
    assert isinstance(native, FileResponse) and _body(native)


@pytest.mark.parametrize("fmt", sorted(exports.FORMATS))
def test_a_list_without_files_gets_them_from_its_first_download(client, fmt):
    world = standard_world()
    rating_list = world.lists[1]
    name = published_files.storage_name(rating_list, fmt)
    assert not default_storage.exists(name)
    first = _body(client.get(f"/federations/fed/lists/2026Q2/export.{fmt}"))
    assert default_storage.exists(name)
    again = _body(client.get(f"/federations/fed/lists/2026Q2/export.{fmt}?sort=rank"))
    assert first == again and first
