"""Rating officers request runs, review the diff and publish, from the admin."""

from __future__ import annotations

import pytest
from django.urls import reverse

from federation.models import Official, OfficialRole
from ratings.models import ListStatus, RatingList, RunStatus
from tests.factories import make_official


@pytest.fixture
def officer(iccf_world):
    return make_official("officer-icc", iccf_world["federation"])


def test_officer_requests_reviews_and_publishes(
    client, iccf_world, officer, eager_celery, django_capture_on_commit_callbacks
):
    client.force_login(officer)
    url = reverse("admin:ratings_ratingrun_request")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"federation": iccf_world["federation"].pk, "period": "2026Q1"})
    assert response.status_code == 302
    draft = RatingList.objects.get(period__code="2026Q1", federation=iccf_world["federation"])
    assert draft.run.status == RunStatus.SUCCEEDED
    page = client.get(reverse("admin:ratings_ratinglist_change", args=[draft.pk]))
    body = page.content.decode()
    assert "Largest moves" in body and "Publish this list" in body
    assert page.context["diff"].new_count == 1  # the unrated sixth player
    response = client.post(reverse("admin:ratings_ratinglist_publish", args=[draft.pk]))
    assert response.status_code == 302
    draft.refresh_from_db()
    assert draft.status == ListStatus.PUBLISHED and draft.published_by == officer
    page = client.get(reverse("admin:ratings_ratinglist_change", args=[draft.pk]))
    assert "Publish this list" not in page.content.decode()


def test_bad_period_code_is_a_form_error(client, iccf_world, officer):
    client.force_login(officer)
    runs_before = iccf_world["federation"].runs.count()
    response = client.post(
        reverse("admin:ratings_ratingrun_request"),
        {"federation": iccf_world["federation"].pk, "period": "2026Q7"},
    )
    assert response.status_code == 200
    assert "is not a ICCF period" in response.content.decode()
    assert iccf_world["federation"].runs.count() == runs_before


def test_tournament_director_cannot_publish(client, iccf_world):
    from ratings import services

    run = services.run_now(federation=iccf_world["federation"], period_code="2026Q1")
    director = make_official(
        "td-icc", iccf_world["federation"], role=OfficialRole.TOURNAMENT_DIRECTOR
    )
    client.force_login(director)
    response = client.post(reverse("admin:ratings_ratinglist_publish", args=[run.rating_list.pk]))
    assert response.status_code == 403
    assert RatingList.objects.get(pk=run.rating_list.pk).status == ListStatus.DRAFT


def test_other_federation_cannot_publish(client, iccf_world):
    from federation.models import Federation
    from ratings import services

    run = services.run_now(federation=iccf_world["federation"], period_code="2026Q1")
    other = Federation.objects.create(code="oth", name="Other", system="iccf")
    stranger = make_official("stranger", other)
    assert Official.objects.filter(user=stranger).count() == 1
    client.force_login(stranger)
    response = client.post(reverse("admin:ratings_ratinglist_publish", args=[run.rating_list.pk]))
    assert response.status_code == 404
    response = client.post(
        reverse("admin:ratings_ratingrun_request"),
        {"federation": iccf_world["federation"].pk, "period": "2026Q2"},
    )
    assert "Select a valid choice" in response.content.decode()
    assert RatingList.objects.get(pk=run.rating_list.pk).status == ListStatus.DRAFT
