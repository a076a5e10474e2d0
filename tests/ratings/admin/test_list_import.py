"""The admin's list import: upload → preview (new/updated/unchanged, problem lines) → confirm."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from federation.models import Federation, OfficialRole, Player
from ratings.models import RatingList
from tests.factories import make_official
from tests.ratings.services.test_imports import ROWS, egd_file

pytestmark = pytest.mark.django_db
URL = "/admin/ratings/ratinglist/import/"


@pytest.fixture
def egf():
    return Federation.objects.create(code="egd", name="EGD", system="egf")


def upload(client, federation, data: bytes, **fields):
    return client.post(
        URL,
        {
            "federation": federation.pk,
            "file": SimpleUploadedFile("allworld.html", data),
            "format": "egd",
            **fields,
        },
    )


def test_preview_then_confirm(client, egf):
    client.force_login(make_official("officer", egf))
    page = upload(client, egf, egd_file(*ROWS), publish="on")
    assert page.status_code == 200
    preview = page.context["preview"]
    assert (preview.new_count, len(preview.updated), preview.unchanged) == (3, 0, 0)
    assert b"Aakerblom" in page.content and not Player.objects.exists()
    done = client.post(URL, {"confirm": "1", "token": page.context["token"]})
    assert done.status_code == 302
    assert Player.objects.filter(federation=egf).count() == 3
    assert RatingList.objects.filter(federation=egf, status="published").count() == 1
    again = upload(client, egf, egd_file(*ROWS), publish="on")
    assert (again.context["preview"].new_count, again.context["preview"].unchanged) == (0, 3)


def test_problem_lines_are_listed_and_nothing_can_be_confirmed(client, egf):
    client.force_login(make_official("officer", egf))
    page = upload(client, egf, egd_file(ROWS[0], ROWS[1][:50]))
    assert "token" not in page.context
    assert b"line 4: not a player row" in page.content
    assert not Player.objects.exists()


def test_a_tampered_token_and_a_director_are_refused(client, egf):
    director = make_official("director", egf, role=OfficialRole.TOURNAMENT_DIRECTOR)
    client.force_login(director)
    page = upload(client, egf, egd_file(*ROWS))
    assert "federation" in page.context["form"].errors
    client.force_login(make_official("officer", egf))
    response = client.post(URL, {"confirm": "1", "token": "forged"}, follow=True)
    assert b"expired or was altered" in response.content
    assert not Player.objects.exists()
