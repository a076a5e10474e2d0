"""Native list exports: FIDE-style TXT (ICCF, PlayChess) read back by the FIDE reader, the WFCC
solvers' list, the download and its link on the list page."""

from __future__ import annotations

import io

import pytest

from federation.models import Federation, Player
from federation.permissions import COMMAND_LINE
from ratings.models import RatingList
from ratings.services.publication import import_list
from ratings.web.native_download import native_lines
from tournaments.formats import fide_list
from tournaments.formats.player_lists import collect

pytestmark = pytest.mark.django_db


def test_the_iccf_list_as_fide_style_txt_reads_back(iccf_world):
    listing = RatingList.objects.get(federation=iccf_world["federation"])
    text = "".join(native_lines(listing))
    month = listing.period.valid_from  # the rating column is labelled like FIDE's: OCT25
    assert text.splitlines()[0].split()[-3:] == [f"{month:%b%y}".upper(), "Gms", "B-day"]
    rows = collect(fide_list.read_txt(io.BytesIO(text.encode()))).rows
    expected = list(
        listing.entries.filter(listed=True)
        .order_by("rank")
        .values_list("player__federation_player_id", "published_rating")
    )
    assert [(r.player_id, r.rating) for r in rows] == expected


def test_the_wfcc_solvers_list_flags_half_ratings():
    wfcc = Federation.objects.create(code="wf", name="WFCC", system="wfcc")
    full, half = (
        Player.objects.create(
            federation=wfcc,
            federation_player_id=f"W{i}",
            surname=name,
            given_name="Ann",
            country="PL",
        )
        for i, name in enumerate(["Full", "Half"])
    )
    listing = import_list(
        federation=wfcc,
        period_code="2025Q4",
        entries=[
            {"player_id": full.pk, "rating": 2500.4, "published_rating": 2500, "games": 2},
            {
                "player_id": half.pk,
                "rating": 2300.0,
                "published_rating": 2300,
                "games": 1,
                "half_rating": True,
            },
        ],
        by=COMMAND_LINE,
    )
    lines = "".join(native_lines(listing)).splitlines()
    assert lines[3].split() == ["Rank", "Name", "Ctry", "Rating", "Tnmts", "Half"]
    assert lines[4].split() == ["1", "Full,", "Ann", "PL", "2500", "2"]
    assert lines[5].split()[-5:] == ["Ann", "PL", "2300", "1", "H"]


def test_the_download_and_its_link(iccf_world, client):
    federation = iccf_world["federation"]
    page = client.get(f"/federations/{federation.code}/lists/2025Q4/")
    url = f"/federations/{federation.code}/lists/2025Q4/native.txt"
    assert url.encode() in page.content and b"FIDE-style TXT" in page.content
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="icc-2025Q4-fide.txt"'
    assert b"".join(response.streaming_content).decode() == "".join(
        native_lines(RatingList.objects.get(federation=federation))
    )
    assert client.get(f"/federations/{federation.code}/lists/2030Q1/native.txt").status_code == 404
