"""The EGD world list reader and writer (pure): hand-made lines, every problem, a round trip."""

from __future__ import annotations

from datetime import date

from hypothesis import given
from hypothesis import strategies as st

from tests.realdata_files import need
from tournaments.formats import egd_list
from tournaments.formats.player_lists import ListRow, collect

HEAD = b"<pre>\n(01 Jul 2018)\n"
ROW = b" 10537560  Aaij Rene                             NL  Gron    4d   --   2380    95  T180602E"


def read(*lines: bytes):
    return collect(egd_list.read_world_list([*HEAD.splitlines(), *lines]))


def test_a_row_is_read_field_by_field():
    found = read(ROW, b"Number of players: 1")
    assert found.problems == []
    assert found.valid_from == date(2018, 7, 1) and found.declared_count == 1
    assert found.rows == [
        ListRow(
            line=3,
            player_id="10537560",
            surname="Aaij",
            given_name="Rene",
            country="NL",
            club="Gron",
            grade="4d",
            rating=2380,
            tournaments=95,
            last_appearance="T180602E",
        )
    ]


def test_names_encodings_and_missing_fields():
    utf8 = (
        " 17225945  Boukerrouye Naïm                     FR  38EB   20k   --    100     1  T140323D"
    )
    latin1 = " 16749458  Dreelyi_Kis Ágota                     HU  BuPe   20k   --    100     1  T121230A"
    rows = read(
        utf8.encode("utf-8"),
        latin1.encode("latin-1"),
        b" 10825089  Abramov                               RU  00oo   11k   --   1060     1  T980213 ",
        b" 18574413  Laporte Philippe                      FR  38Gr   17k   --    442     0          ",
        b" 17301064  _ _                                   XX  xxx     4d   --   2388     1  T140802A",
        b" 16825589  Aarle Barbara_van                     NL  DBos   17k  16k    356     4  T160516A",
    ).rows
    assert [(r.surname, r.given_name, r.club) for r in rows] == [
        ("Boukerrouye", "Naïm", "38EB"),
        ("Dreelyi Kis", "Ágota", "BuPe"),
        ("Abramov", "", "00oo"),
        ("Laporte", "Philippe", "38Gr"),
        ("_", "_", ""),
        ("Aarle", "Barbara van", "DBos"),
    ]
    assert rows[3].last_appearance == "" and rows[3].tournaments == 0
    assert rows[2].last_appearance == "T980213"


def test_every_problem_line_is_reported_with_its_number():
    found = read(
        ROW,
        b" 12345678  Broken Row                            DE  Berl   4x   --   2000     3  T180101A",
        ROW,
        b"(31 Feb 2018)",
    )
    assert [(p.line, p.message[:20]) for p in found.problems] == [
        (4, "not a player row: ex"),
        (5, "PIN 10537560 is list"),
        (6, "the list's date is n"),
    ]
    assert len(found.rows) == 1


def test_last_appearance_dates():
    assert egd_list.last_appearance_date("T180602E") == date(2018, 6, 2)
    assert egd_list.last_appearance_date("G970705") == date(1997, 7, 5)
    assert egd_list.last_appearance_date("") is None
    assert egd_list.last_appearance_date("T181302A") is None


names = st.text(alphabet="abcdefghijklmnopqrstuvwxyzÄÖÜßéłø-' ", min_size=1, max_size=20).map(
    lambda s: " ".join(s.split())
)
rows = st.builds(
    ListRow,
    line=st.just(0),
    player_id=st.integers(10_000_000, 99_999_999).map(str),
    surname=names.filter(bool),
    given_name=names,
    country=st.sampled_from(["DE", "FR", "CZ", "UK"]),
    club=st.sampled_from(["", "Berl", "75Op", "KA"]),
    grade=st.sampled_from(["20k", "1k", "1d", "7d", "3p"]),
    rating=st.integers(-900, 2900),
    tournaments=st.integers(0, 999),
    last_appearance=st.sampled_from(["", "T180602E", "G970705"]),
)


@given(st.lists(rows, max_size=8, unique_by=lambda r: r.player_id))
def test_the_writer_is_read_back_field_for_field(written):
    text = "".join(egd_list.write_world_list(written, list_date=date(2018, 7, 1), title="T"))
    found = collect(egd_list.read_world_list(text.encode().splitlines()))
    assert found.problems == []
    assert found.valid_from == date(2018, 7, 1) and found.declared_count == len(written)
    assert [r.__class__(**{**r.__dict__, "line": 0}) for r in found.rows] == written


def test_the_real_world_list_reads_every_row():
    path = need("egd_world_list_2018-07-01.txt")
    with path.open("rb") as stream:
        found = collect(egd_list.read_world_list(stream))
    assert found.problems == []
    assert found.declared_count == 43965 == len(found.rows)
    assert found.valid_from == date(2018, 7, 1)
    assert len({r.player_id for r in found.rows}) == 43965
