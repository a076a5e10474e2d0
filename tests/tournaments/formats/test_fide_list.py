"""FIDE rating lists (pure): TXT with columns from its header (two layouts), XML streamed in
constant memory, the FIDE-style writer read back, dates from FIDE's file names."""

from __future__ import annotations

import io
import tracemalloc
from datetime import date

from tournaments.formats import fide_list
from tournaments.formats.player_lists import ListProblem, ListRow, collect

# FIDE's layout of 2025 (standard_jul25frl.txt) ...
LAYOUT_2025 = [
    ("ID Number", 15),
    ("Name", 61),
    ("Fed", 4),
    ("Sex", 4),
    ("Tit", 5),
    ("WTit", 5),
    ("OTit", 15),
    ("FOA", 4),
    ("JUL25", 6),
    ("Gms", 4),
    ("K", 4),
    ("B-day", 6),
    ("Flag", 4),
]
# ... and an older one: other widths, columns moved, the rating labelled SRtng.
LAYOUT_OLD = [
    ("ID_Number", 12),
    ("Fed", 5),
    ("Name", 34),
    ("Sex", 4),
    ("Tit", 4),
    ("B-day", 7),
    ("SRtng", 7),
    ("SGm", 5),
    ("Flag", 4),
]
PEOPLE = [
    {
        "ID": "1503014",
        "Name": "Carlsen, Magnus",
        "Fed": "NOR",
        "Tit": "GM",
        "R": "2839",
        "G": "10",
        "B": "1990",
    },
    {
        "ID": "24116068",
        "Name": "Müller, Anna-Lena",
        "Fed": "GER",
        "Tit": "",
        "R": "0",
        "G": "0",
        "B": "2011",
    },
    {
        "ID": "4100018",
        "Name": "Pólgar, Judit",
        "Fed": "HUN",
        "Tit": "GM",
        "R": "",
        "G": "",
        "B": "0000",
    },
]


def txt(layout, people) -> bytes:
    def cell(label, person):
        return {
            "ID Number": person["ID"],
            "ID_Number": person["ID"],
            "Name": person["Name"],
            "Fed": person["Fed"],
            "Tit": person["Tit"],
            "JUL25": person["R"],
            "SRtng": person["R"],
            "Gms": person["G"],
            "SGm": person["G"],
            "B-day": person["B"],
        }.get(label, "")

    lines = ["".join(label.ljust(w) for label, w in layout)]
    for person in people:
        lines.append("".join(cell(label, person).ljust(w) for label, w in layout))
    return ("\n".join(lines) + "\n").encode("utf-8")


EXPECTED = [
    ("1503014", "Carlsen", "Magnus", "NOR", 2839, 10, 1990, "GM"),
    ("24116068", "Müller", "Anna-Lena", "GER", None, None, 2011, ""),
    ("4100018", "Pólgar", "Judit", "HUN", None, None, None, "GM"),
]


def shape(rows):
    return [
        (r.player_id, r.surname, r.given_name, r.country, r.rating, r.games, r.birth_year, r.title)
        for r in rows
    ]


def test_txt_columns_come_from_the_header_in_either_layout():
    for layout in (LAYOUT_2025, LAYOUT_OLD):
        found = collect(fide_list.read_txt(io.BytesIO(txt(layout, PEOPLE))))
        assert found.problems == []
        assert shape(found.rows) == EXPECTED
        assert [r.line for r in found.rows] == [2, 3, 4]


def test_txt_problems_name_the_line():
    bad = [dict(PEOPLE[0]), dict(PEOPLE[1], ID="12x4"), dict(PEOPLE[2], R="2k1")]
    found = collect(fide_list.read_txt(io.BytesIO(txt(LAYOUT_2025, bad))))
    assert [(p.line, p.message) for p in found.problems] == [
        (3, "FIDE ID '12x4' is not a number"),
        (4, "rating '2k1' of FIDE ID 4100018 is no number"),
    ]


def test_a_file_without_a_fide_header_is_refused_at_line_one():
    found = collect(fide_list.read_txt(io.BytesIO(b"Surname Given Rating\nA B 2000\n")))
    assert found.rows == [] and found.problems[0].line == 1
    assert "missing id, name" in found.problems[0].message


def xml(people) -> bytes:
    body = "".join(
        f"<player><fideid>{p['ID']}</fideid><name>{p['Name']}</name><country>{p['Fed']}"
        f"</country><sex>M</sex><title>{p['Tit']}</title><rating>{p['R']}</rating>"
        f"<games>{p['G']}</games><k>10</k><birthday>{p['B']}</birthday><flag></flag></player>"
        for p in people
    )
    return f'<?xml version="1.0" encoding="utf-8"?>\n<playerslist>{body}</playerslist>'.encode()


def test_xml_reads_the_same_players():
    found = collect(fide_list.read_xml(io.BytesIO(xml(PEOPLE))))
    assert found.problems == [] and shape(found.rows) == EXPECTED
    assert [r.line for r in found.rows] == [1, 2, 3]


def test_xml_problems_and_malformed_files():
    found = collect(fide_list.read_xml(io.BytesIO(xml([PEOPLE[0], dict(PEOPLE[1], ID="")]))))
    assert [(p.line, p.message) for p in found.problems] == [(2, "FIDE ID '' is not a number")]
    broken = collect(fide_list.read_xml(io.BytesIO(b"<playerslist><player><fideid>1</player>")))
    assert broken.problems[0].message.startswith("the XML is not well-formed")
    entity = b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><playerslist/>'
    assert "DOCTYPE" in collect(fide_list.read_xml(io.BytesIO(entity))).problems[0].message


class GeneratedXml(io.RawIOBase):
    """A FIDE XML of ``count`` players made on the fly: the file is never in memory."""

    def __init__(self, count: int) -> None:
        self._parts = self._make(count)
        self._buffer = b""

    @staticmethod
    def _make(count):
        yield b'<?xml version="1.0" encoding="utf-8"?>\n<playerslist>\n'
        for i in range(count):
            yield (
                f"<player><fideid>{1000000 + i}</fideid><name>Player{i}, Given</name>"
                f"<country>GER</country><rating>{1400 + i % 1400}</rating><games>0</games>"
                f"<birthday>1990</birthday></player>\n"
            ).encode()
        yield b"</playerslist>\n"

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        size = 65536 if size is None or size < 0 else size
        while len(self._buffer) < size:
            part = next(self._parts, None)
            if part is None:
                break
            self._buffer += part
        data, self._buffer = self._buffer[:size], self._buffer[size:]
        return data


def peak_reading(count: int) -> tuple[int, int]:
    tracemalloc.start()
    rows = sum(1 for item in fide_list.read_xml(GeneratedXml(count)) if isinstance(item, ListRow))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return rows, peak


def test_xml_memory_does_not_grow_with_the_file():
    small_rows, small_peak = peak_reading(1_000)
    large_rows, large_peak = peak_reading(20_000)
    assert (small_rows, large_rows) == (1_000, 20_000)
    # Twenty times the players, the same memory (a tree of them would take ~20 times more).
    assert large_peak < 1.5 * small_peak + 64 * 1024, (small_peak, large_peak)


def test_the_fide_style_writer_is_read_back():
    rows = [
        ListRow(0, "1503014", "Carlsen", "Magnus", "NO", rating=2839, games=10),
        ListRow(0, "77", "Solo", "", "DE", rating=None, games=None),
    ]
    text = "".join(fide_list.write_txt(rows, list_date=date(2026, 1, 1)))
    assert text.splitlines()[0].split() == [
        "ID",
        "Number",
        "Name",
        "Fed",
        "Tit",
        "JAN26",
        "Gms",
        "B-day",
    ]
    found = collect(fide_list.read_txt(io.BytesIO(text.encode())))
    assert found.problems == []
    assert [
        (r.player_id, r.surname, r.given_name, r.country, r.rating, r.games) for r in found.rows
    ] == [
        ("1503014", "Carlsen", "Magnus", "NO", 2839, 10),
        ("77", "Solo", "", "DE", None, None),
    ]


def test_dates_from_fide_file_names():
    assert fide_list.valid_from_of_name("standard_jul25frl.txt") == date(2025, 7, 1)
    assert fide_list.valid_from_of_name("standard_jan26frl_xml.xml") == date(2026, 1, 1)
    assert fide_list.valid_from_of_name("players_list.xml") is None
    assert isinstance(ListProblem(1, "", "x"), ListProblem)
