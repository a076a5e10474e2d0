"""Pure parsers of results entry: rows from pastes/CSV/XLSX, game lines, the solving sheet, and
the time control an EGF table states."""

from __future__ import annotations

import io
from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.formats.egf import parse_table
from tournaments.formats.egf_time import read_time_control
from tournaments.formats.game_lines import parse_date, parse_rows
from tournaments.formats.solving_sheet import (
    ProblemKey,
    format_cell,
    parse_cell,
    parse_sheet,
)
from tournaments.formats.tabular import (
    Row,
    TabularError,
    csv_rows,
    file_rows,
    pasted_rows,
    xlsx_rows,
)

# --- rows -----------------------------------------------------------------------------------------


def test_pasted_rows_split_by_tab_semicolon_comma_or_blanks_and_keep_line_numbers():
    text = "a\tb c\n\n# a comment\nd;e\nf,g\nh  i\n"
    assert pasted_rows(text) == [
        Row(1, ("a", "b c")),
        Row(4, ("d", "e")),
        Row(5, ("f", "g")),
        Row(6, ("h", "i")),
    ]


def test_csv_rows_number_lines_of_the_file_even_across_quoted_line_breaks():
    data = b'white;black\n"x\ny";z\n\nu;v\n'
    assert csv_rows(data) == [
        Row(1, ("white", "black")),
        Row(2, ("x\ny", "z")),
        Row(5, ("u", "v")),
    ]


def test_xlsx_rows_read_numbers_and_dates_as_written():
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.append(["solver", "R1.1", "R1.2"])
    sheet.append(["S1", 4.5, 5])
    sheet.append([])
    sheet.append(["S2", date(2026, 3, 1), None])
    buffer = io.BytesIO()
    book.save(buffer)
    assert xlsx_rows(buffer.getvalue()) == [
        Row(1, ("solver", "R1.1", "R1.2")),
        Row(2, ("S1", "4.5", "5")),
        Row(4, ("S2", "2026-03-01")),
    ]
    assert file_rows(buffer.getvalue(), "Sheet.XLSX") == xlsx_rows(buffer.getvalue())


def test_unreadable_files_are_refused_with_a_reason():
    with pytest.raises(TabularError, match="not a readable XLSX"):
        xlsx_rows(b"PK\x03\x04 not really a zip")
    with pytest.raises(TabularError, match="control character"):
        pasted_rows("a\x00b;c")


# --- game lines -----------------------------------------------------------------------------------


def test_game_lines_in_every_accepted_spelling():
    rows = pasted_rows(
        "1 2 1-0 2026-01-02 2026-01-03\n"
        "3 4 ½ 02.01.2026 03.01.2026 2\n"
        "5 6 +- 2026-01-02 2026-01-02\n"
        "7;8;*;;2026-01-02\n"  # blanks cannot leave a cell empty: a separator can
    )
    parsed = parse_rows(rows)
    assert parsed.errors == ()
    assert [(g.white, g.black, g.result, g.round) for g in parsed.games] == [
        ("1", "2", "1-0", 1),
        ("3", "4", "1/2", 2),
        ("5", "6", "1-0ff", 1),
        ("7", "8", "*", 1),
    ]


def test_a_header_names_the_columns_in_any_order():
    rows = [
        Row(1, ("Result", "Black ID", "White ID", "Reported on", "Finished on")),
        Row(2, ("0-1", "B", "A", "2026-01-05", "2026-01-04")),
    ]
    (game,) = parse_rows(rows).games
    assert (game.white, game.black, game.result) == ("A", "B", "0-1")
    assert (game.finished_on, game.reported_on) == (date(2026, 1, 4), date(2026, 1, 5))
    bad = parse_rows([Row(1, ("white", "black", "colour")), Row(2, ("a", "b", "c"))])
    assert [str(e) for e in bad.errors] == [
        "line 1: unknown column(s) colour; missing column(s) result, finished, reported"
    ]


def test_every_problem_of_every_line_is_reported():
    rows = [
        Row(3, ("A", "A", "2:0", "2026-02-30", "")),
        Row(4, ("A", "B", "1-0", "2026-02-03", "2026-02-01", "0", "x", "A")),
        Row(9, ("", "B")),
    ]
    assert [str(e) for e in parse_rows(rows, label="row").errors] == [
        "row 3: white and black are both 'A': a player cannot play himself",
        "row 3: result '2:0' is not one of 1-0, 0-1, 1/2, 1-0ff, 0-1ff, 0-0ff, * (not finished)",
        "row 3: finished: '2026-02-30' is no date (write 2026-03-01 or 01.03.2026)",
        "row 4: reported 2026-02-01 before finished 2026-02-03",
        "row 4: round: '0' is not a number from 1 to 999",
        "row 4: board: 'x' is not a number from 1 to 999",
        "row 4: white_replaces: 'A' cannot replace himself",
        "row 9: white: missing",
        "row 9: result: missing",
    ]


@given(st.dates(min_value=date(1900, 1, 1), max_value=date(2200, 12, 31)))
def test_both_date_spellings_read_the_same_day(day):
    assert parse_date(day.isoformat()) == day
    assert parse_date(f"{day.day:02d}.{day.month:02d}.{day.year}") == day


# --- solving sheet --------------------------------------------------------------------------------

MAX = {ProblemKey(1, 1): Decimal("5.00"), ProblemKey(1, 2): Decimal("2.50")}


@given(
    st.integers(min_value=0, max_value=500),
    st.one_of(st.none(), st.integers(min_value=0, max_value=1440)),
)
def test_a_cell_reads_back_what_format_cell_wrote(hundredths, minutes):
    points = Decimal(hundredths) / 100
    score, problem = parse_cell(format_cell(points, minutes), Decimal("5.00"))
    assert problem is None
    assert (score.points, score.minutes) == (points, minutes)


def test_sheet_errors_are_located_by_line_and_column():
    rows = [
        Row(1, ("solver", "name", "R1.1", "r1#2")),
        Row(2, ("A", "Ann", "5", "2,5/7")),
        Row(3, ("B", "Bob", "5.001", "3")),
        Row(4, ("", "", "", "")),
        Row(5, ("", "", "1", "")),
        Row(6, ("a", "", "1", "")),
    ]
    sheet = parse_sheet(rows, max_points=MAX)
    assert sheet.problems == (ProblemKey(1, 1), ProblemKey(1, 2))
    assert sheet.rows[0].scores == {
        ProblemKey(1, 1): parse_cell("5", Decimal(5))[0],
        ProblemKey(1, 2): parse_cell("2.5/7", Decimal(5))[0],
    }
    assert [str(e) for e in sheet.errors] == [
        "line 3, R1.1: '5.001' is not points (5, 2.5) or points/minutes (5/12)",
        "line 3, R1.2: 3 points; the problem gives at most 2.50",
        "line 5, solver: scores without a solver",
        "line 6, solver: 'a' is already on line 2",
    ]


def test_sheet_header_must_name_solver_and_known_problems():
    sheet = parse_sheet([Row(1, ("who", "R1.1", "R2.1", "R1.1"))], max_points=MAX)
    assert [str(e) for e in sheet.errors] == [
        "line 1: column 'who' is neither solver, name nor a problem (R1.3)",
        "line 1: R2.1 is no problem of the event (R1.1, R1.2)",
        "line 1: column 'R1.1' is twice",
        "line 1: no solver column in the header",
    ]


# --- EGF time control -----------------------------------------------------------------------------


def _header(tags: str):
    return parse_table(tags + "   1 Novak Jan  3d CZ Brno  0  0+\n").header


@pytest.mark.parametrize(
    ("tags", "expected"),
    [
        # OpenGotha's default: only the system and TA; basic time and overtime stay unknown
        ("; TM[82]\n; CM[Standard byo-yomi]\n", ("byoyomi", None, None, None, None)),
        ("; TM[60]\n; CM[Sudden death]\n", ("sudden_death", 60, None, None, None)),
        ("; CM[60 min + 30 s byo-yomi]\n", ("byoyomi", 60, 30, None, None)),
        ("; CM[1.5 h, byo-yomi 5x30s]\n", ("byoyomi", 90, 30, None, None)),
        ("; CM[Canadian 90 min, 25 stones / 10 min]\n", ("canadian", 90, 600, 25, None)),
        ("; CM[Fischer 45 min + 20 s]\n", ("fischer", 45, None, None, 20)),
        ("; TM[82]\n", (None, None, None, None, None)),
    ],
)
def test_time_control_read_from_cm_and_tm(tags, expected):
    tc = read_time_control(_header(tags))
    got = (
        tc.system,
        tc.basic_minutes,
        tc.overtime_seconds,
        tc.overtime_moves,
        tc.fischer_bonus_seconds,
    )
    assert got == expected


def test_what_the_table_does_not_say_is_named():
    tc = read_time_control(_header("; TM[82]\n; CM[Standard byo-yomi]\n"))
    assert (tc.adjusted_minutes, tc.missing_labels) == (
        82,
        ["basic time", "byo-yomi period (seconds)"],
    )
    assert read_time_control(_header("; CM[60 min + 30 s byo-yomi]\n")).missing == ()
