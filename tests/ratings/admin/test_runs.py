"""Rating officers request runs, review the diff and publish, from the admin."""

from __future__ import annotations

import pytest
from django.urls import reverse

from federation.models import Official, OfficialRole
from federation.permissions import COMMAND_LINE
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
    # The run page follows the run until its draft is written, then opens the draft's diff.
    assert client.get(response.url).url == reverse(
        "admin:ratings_ratinglist_change", args=[draft.pk]
    )
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


def test_a_period_outside_the_open_ones_is_a_form_error(client, iccf_world, officer):
    from ratings.services import runs

    client.force_login(officer)
    runs_before = iccf_world["federation"].runs.count()
    page = client.get(reverse("admin:ratings_ratingrun_request"))
    offered = [
        code
        for _group, choices in page.context["form"].fields["period"].choices
        for code, _ in choices
    ]
    # Newest first, every one after the imported 2025Q4 list and none beyond the next list due.
    last = runs.calendar_bounds(iccf_world["federation"])[1]
    assert offered[0] == last.code and offered[-1] == "2026Q1" and offered == sorted(offered)[::-1]
    assert "1 event, 5 results" in page.content.decode()
    assert page.context["form"].fields["federation"].initial == iccf_world["federation"].pk
    for code in ("2026Q7", "2100Q1", "2025Q3"):
        response = client.post(
            reverse("admin:ratings_ratingrun_request"),
            {"federation": iccf_world["federation"].pk, "period": code},
        )
        assert response.status_code == 200
        assert "Select a valid choice" in response.content.decode()
    assert iccf_world["federation"].runs.count() == runs_before


def test_the_service_refuses_periods_outside_the_calendar(iccf_world):
    from ratings.services import runs

    federation = iccf_world["federation"]
    with pytest.raises(runs.RunError, match="2100Q1 is not open yet for icc: the next list due"):
        runs.request_run(
            federation=federation, period_code="2100Q1", enqueue=False, by=COMMAND_LINE
        )
    with pytest.raises(runs.RunError, match="2025Q3 is before the first list of icc"):
        runs.request_run(
            federation=federation, period_code="2025Q3", enqueue=False, by=COMMAND_LINE
        )
    with pytest.raises(runs.RunError, match="'Q1 2027' is not a period of icc"):
        runs.request_run(
            federation=federation, period_code="Q1 2027", enqueue=False, by=COMMAND_LINE
        )
    assert not federation.runs.exclude(engine="import").exists()


def test_run_and_period_pages_are_read_only(client, iccf_world, officer):
    from ratings.services import runs

    run = runs.run_now(federation=iccf_world["federation"], period_code="2026Q1", by=COMMAND_LINE)
    client.force_login(officer)
    for name, pk in (("ratingrun", run.pk), ("ratingperiod", run.period_id)):
        url = reverse(f"admin:ratings_{name}_change", args=[pk])
        page = client.get(url)
        assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
        assert client.post(url, {"status": "queued"}).status_code == 403
    run.refresh_from_db()
    assert run.status == RunStatus.SUCCEEDED and run.input_digest
    assert (
        f"list {run.rating_list.pk} (draft)"
        in client.get(reverse("admin:ratings_ratingrun_change", args=[run.pk])).content.decode()
    )


def test_a_queued_run_shows_its_progress(client, iccf_world, officer):
    from ratings.services import runs

    run = runs.request_run(
        federation=iccf_world["federation"], period_code="2026Q1", enqueue=False, by=COMMAND_LINE
    )
    client.force_login(officer)
    body = client.get(reverse("admin:ratings_ratingrun_change", args=[run.pk])).content.decode()
    assert "<strong>queued</strong>" in body and 'http-equiv="refresh"' in body


def test_tournament_director_cannot_publish(client, iccf_world):
    from ratings.services import runs

    run = runs.run_now(federation=iccf_world["federation"], period_code="2026Q1", by=COMMAND_LINE)
    director = make_official(
        "td-icc", iccf_world["federation"], role=OfficialRole.TOURNAMENT_DIRECTOR
    )
    client.force_login(director)
    response = client.post(
        reverse("admin:ratings_ratinglist_publish", args=[run.rating_list.pk]), follow=True
    )
    # The service refuses; the admin says so as a message on the list's page.
    assert "Only a rating officer of icc may publish its lists." in response.content.decode()
    assert RatingList.objects.get(pk=run.rating_list.pk).status == ListStatus.DRAFT


def test_other_federation_cannot_publish(client, iccf_world):
    from federation.models import Federation
    from ratings.services import runs

    run = runs.run_now(federation=iccf_world["federation"], period_code="2026Q1", by=COMMAND_LINE)
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
