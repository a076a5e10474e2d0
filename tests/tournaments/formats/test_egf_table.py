"""EGF results tables (RULES §2.6-2.8): the real EGC 2013 table, hand-made tables, every error."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tournaments.formats import egf as h9

ROOT = Path(__file__).resolve().parents[3]
# RULES names it ../shared/realdata/egc2013.h9 from the repository root (a worktree sits one deeper).
REAL = (
    next(
        (
            path
            for path in (
                ROOT.parent / "shared",
                ROOT.parent.parent / "shared",
                Path("/work/shared"),
            )
            if (path / "realdata" / "egc2013.h9").exists()
        ),
        ROOT.parent / "shared",
    )
    / "realdata"
    / "egc2013.h9"
)

HEADER = "; CL[B]\n; EV[Test Cup]\n; PC[CZ,Brno]\n; DT[2024-05-04,2024-05-05]\n; TM[60]\n"


def table(*player_lines: str, header: str = HEADER) -> str:
    return header + "\n".join(player_lines) + "\n"


# ------------------------------------------------------------------------------------ real table


@pytest.fixture(scope="module")
def egc2013():
    if not REAL.exists():
        pytest.skip(f"the real table is not at {REAL}")
    return h9.parse_table(REAL.read_bytes(), filename=REAL.name)


def test_real_table_parses_without_error(egc2013):
    assert egc2013.errors == ()
    assert len(egc2013.players) == 594 and egc2013.rounds == 10


def test_real_table_counts_from_the_rules(egc2013):
    assert len(egc2013.games) == 2259  # 4518 result entries, all symmetric
    assert sum(g.by_default for g in egc2013.games) == 33
    assert Counter(f.symbol for f in egc2013.free_rounds) == {"=": 1418, "+": 2, "-": 2}
    assert sum(p.place is None for p in egc2013.players) == 44
    assert all(g.explicit and g.handicap == 0 for g in egc2013.games)
    assert len(egc2013.warnings) == 33 and all("by default" in w.message for w in egc2013.warnings)
    grades = Counter(p.grade for p in egc2013.players)
    assert "30k" in grades and "7d" in grades


def test_real_table_header(egc2013):
    h = egc2013.header
    assert (h.tournament_class, h.name, h.city, h.country) == ("A", "EGC2013main", "Olsztyn", None)
    assert (h.start_date, h.end_date) == ("2013-07-28", "2013-08-10")
    assert (h.handicap_reduction, h.komi, h.adjusted_time) == (3, 6.5, 195)
    assert h.comment == "Standard byo-yomi"


def test_real_table_players_and_ordinals(egc2013):
    first, tied = egc2013.players[0], egc2013.players[17]
    assert (first.place, first.surname, first.first_name, first.grade, first.country, first.club) == (
        1, "Fan", "Hui", "7d", "FR", "75Op",
    )  # fmt: skip
    assert (tied.line, tied.ordinal, tied.place, tied.surname) == (29, 18, None, "Papazoglou")
    assert egc2013.players[589].surname == "de Groot-Suzuki"
    # Line 17 (ordinal 6) "22+!w0" in round 8: White 6 beat 22 by default.
    game = next(g for g in egc2013.games if g.round == 8 and 6 in (g.white, g.black))
    assert (game.white, game.black, game.result, game.by_default, game.rated) == (
        6,
        22,
        1.0,
        True,
        False,
    )


def test_cli_prints_the_engine_input(egc2013):
    done = subprocess.run(
        [sys.executable, "-m", "tournaments.formats.egf", str(REAL)],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert set(out) == {"tournaments", "warnings"} and len(out["warnings"]) == 33
    (tournament,) = out["tournaments"]
    assert (tournament["class"], tournament["date"]) == ("A", "2013-08-10")
    assert tournament["players"][0] == {"id": "1", "grade": "7d"}
    assert len(tournament["games"]) == 2259 - 33
    assert tournament["games"][0] == {"white": "1", "black": "26", "result": 1.0, "handicap": 0}


def test_real_table_rates_like_the_reference(egc2013):
    from ratings.engines import egf
    from ratings.engines.core import grades
    from ratings.engines.egf import reference

    tournaments = egf.tournaments_from_json(h9.engine_input(egc2013)["tournaments"])
    (fast,) = egf.rate_history(tournaments)
    (slow,) = reference.rate_history(tournaments)
    assert len(fast.players) == 594
    assert sum(p.games for p in fast.players) == 2 * (2259 - 33)
    for x, y in zip(fast.players, slow.players, strict=True):
        assert abs(x.after - y.after) <= 1e-9
        assert x.after >= x.before - 100.0 and x.after >= 100.0
        assert x.before == grades.grade_rating(egc2013.players[int(x.id) - 1].grade)


# ----------------------------------------------------------------------------- hand-made tables


def test_pins_and_place_free_rows():
    text = table(
        "   1 Novak Jan   3d CZ Brno  2  2?  2+/w0  3+/b0 |12345678",
        "     Svoboda Petr  1k CZ Prah  1  2   1-/b0  0+",
        "   3 Dvorak Ales  10 SK      1  1   0-     1-/w0",
    )
    t = h9.parse_table(text)
    assert t.errors == ()
    assert [p.pin for p in t.players] == ["12345678", None, None]
    assert [p.place for p in t.players] == [1, None, 3]
    assert t.players[2].grade == "10k" and t.players[2].club is None
    assert t.players[0].criteria == ("2", "2?")
    assert h9.player_ids(t) == ["12345678", "2", "3"]


def test_question_mark_criteria_before_the_rounds_are_not_rounds():
    text = table(
        "1 A a 3d CZ Brno 2 39?  2+/w0",
        "2 B b 3d CZ Brno 1 40   1-/b0",
    )
    t = h9.parse_table(text)
    assert t.errors == () and t.rounds == 1
    assert t.players[0].criteria == ("2", "39?")


def test_default_unknown_both_win_both_lose_are_warnings_not_rated():
    text = table(
        "1 A a 3d CZ Brno  2+!w0  3+/w0  4?/b0",
        "2 B b 3d CZ Brno  1-!b0  4-/w0  3=/w0",
        "3 C c 3d CZ Brno  4+/w0  1+/b0  2=/b0",
        "4 D d 3d CZ Brno  3-/b0  2-/b0  1?/w0",
    )
    t = h9.parse_table(text)
    assert t.errors == ()
    messages = sorted(w.message.split(": ")[1].split(" (")[0] for w in t.warnings)
    assert messages == [
        "both players lost",
        "both players won",
        "game by default",
        "result unknown",
    ]
    rated = [(g.round, g.white, g.black, g.result) for g in t.games if g.rated]
    assert rated == [(1, 3, 4, 1.0), (3, 2, 3, 0.5)]
    both_win = next(g for g in t.games if g.round == 2 and (g.white, g.black) == (1, 3))
    assert (both_win.white_score, both_win.black_score, both_win.result) == (1.0, 1.0, None)


def test_every_mismatch_is_reported_with_line_and_text():
    text = table(
        "1 A a 3d CZ Brno  2+/w0  3+/w0  4+/w0  5+/w0",  # line 6
        "2 B b 3d CZ Brno  1+/b0  4-/b0  3-/b2  0-",  # line 7: round 1 both...? no: see below
        "3 C c 3d CZ Brno  4+/w0  1-/w0  2+/w1  0-",  # line 8
        "4 D d 3d CZ Brno  3-/b0  2+/w0  1-!b0  0-",  # line 9
        "5 E e 3d CZ Brno  0-     0-     0-     3-/b0",  # line 10
    )
    t = h9.parse_table(text)
    found = {(e.line, e.text, e.message.split(":")[1].strip()) for e in t.errors}
    assert found == {
        (6, "3+/w0", "colours do not agree"),  # round 2: 1 w, 3 w
        (6, "4+/w0", "one side by default ('!'), the other not"),  # round 3
        (6, "5+/w0", "line 10 (player 5) has '3-/b0', not player 1"),  # round 4
        (7, "3-/b2", "handicap stones do not agree"),  # round 3: 2 vs 3 stones 2 / 1
        (10, "3-/b0", "line 8 (player 3) has '0-', not player 5"),
    }
    # round 1 "1+/b0" <-> "2+/w0" is a both-win pair: a warning, not an error.
    assert any("both players won" in w.message for w in t.warnings)
    assert [e.line for e in t.errors] == sorted(e.line for e in t.errors)


def test_results_that_disagree():
    t = h9.parse_table(table("1 A a 3d CZ Brno 2=/w0", "2 B b 3d CZ Brno 1+/b0"))
    assert [(e.line, e.text) for e in t.errors] == [(6, "2=/w0")]
    assert "results do not agree" in t.errors[0].message


def test_unknown_opponent_and_self():
    t = h9.parse_table(table("1 A a 3d CZ Brno 3+/w0", "2 B b 3d CZ Brno 2+/b0"))
    assert [(e.line, e.text, e.message) for e in t.errors] == [
        (6, "3+/w0", "round 1: no such player line"),
        (7, "2+/b0", "round 1: a player cannot play himself"),
    ]


def test_malformed_entries_and_lines_are_all_reported():
    text = table(
        "1 A a 3d CZ Brno 2+/w0 3+/w0",
        "2 B b 3d CZ Brno 1-/x0 0-",  # bad colour
        "3 C c 3d CZ Brno 0- 1-/b0",
        "4 D d CZ Brno 0- 0-",  # no grade
        "5 E e 3d CZ Brno 12+/w0/ 0-",  # junk
    )
    t = h9.parse_table(text)
    assert [(e.line, e.text) for e in t.errors] == [
        (7, "1-/x0"),
        (9, "4 D d CZ Brno 0- 0-"),
        (10, "12+/w0/"),
    ]
    # The pairings between sound lines are still checked and built.
    assert [(g.white, g.black) for g in t.games] == [(1, 3)]


def test_bad_header_tags():
    header = "; CL[E]\n; DT[4.5.2024]\n; HA[x]\n; KM[six]\n; TM[1h]\n; DT[2013-02-30]\n"
    t = h9.parse_table(table("1 A a 3d CZ Brno 0-", header=header))
    assert [e.line for e in t.errors] == [1, 2, 3, 4, 5]
    assert t.errors[0].text == "CL[E]"
    assert [w.line for w in t.warnings] == [6]  # a second DT tag is ignored, with a warning
    t = h9.parse_table(table("1 A a 3d CZ Brno 0-", header="; DT[2013-02-30]\n"))
    assert [(e.line, e.text) for e in t.errors] == [(1, "DT[2013-02-30]")]
    t = h9.parse_table(table("1 A a 3d CZ Brno 0-", header="; DT[2013-08-10,2013-07-28]\n"))
    assert len(t.errors) == 1


def test_bad_pin():
    t = h9.parse_table(
        table("1 A a 3d CZ Brno 0- |12ab", "2 B b 3d CZ Brno 0- |77", "3 C c 2d XX xxxx 0- |77")
    )
    assert [(e.line, e.text) for e in t.errors] == [(6, "|12ab"), (7, "|77"), (8, "|77")]


# ------------------------------------------------------------------------------------- handicaps

TWO = ("1 Strong s 1d CZ Brno 2+", "2 Weak w 5k CZ Brno 1-")


def only_game(text, **options):
    t = h9.parse_table(text, **options)
    assert t.errors == (), t.errors
    (game,) = t.games
    return game


def test_implicit_handicap_from_the_file_extension():
    game = only_game(table(*TWO), filename="t970920b.h2")
    # grade steps 0 (1d) and -5 (5k): 5 - 2 = 3 stones, Black = the weaker grade.
    assert (game.white, game.black, game.handicap, game.result, game.explicit) == (
        1,
        2,
        3,
        1.0,
        False,
    )


def test_ha_tag_beats_the_file_extension_and_h9_means_even():
    assert only_game(table(*TWO, header=HEADER + "; HA[h4]\n"), filename="x.h2").handicap == 1
    assert only_game(table(*TWO), filename="x.h9").handicap == 0
    assert only_game(table(*TWO), default_reduction=0).handicap == 5


def test_implicit_handicap_is_capped_at_nine():
    lines = ("1 Strong s 7d CZ Brno 2+", "2 Weak w 20k CZ Brno 1-")
    assert only_game(table(*lines), default_reduction=0).handicap == 9


def test_missing_reduction_is_an_error():
    t = h9.parse_table(table(*TWO))
    assert len(t.errors) == 1 and t.errors[0].line == 6 and "reduction" in t.errors[0].message


def test_explicit_stones_are_never_recomputed():
    lines = ("1 Strong s 1d CZ Brno 2+/w0", "2 Weak w 5k CZ Brno 1-/b0")
    assert only_game(table(*lines), filename="x.h0").handicap == 0
    lines = ("1 Strong s 1d CZ Brno 2+/w", "2 Weak w 5k CZ Brno 1-/b")  # /w == /w0
    assert only_game(table(*lines), filename="x.h0").handicap == 0
    lines = ("1 Strong s 1d CZ Brno 2+/b2", "2 Weak w 5k CZ Brno 1-/w2")  # the stronger took stones
    game = only_game(table(*lines), filename="x.h0")
    assert (game.white, game.black, game.handicap, game.result) == (2, 1, 2, 0.0)


def test_default_without_colour_needs_no_reduction():
    t = h9.parse_table(table("1 A a 2d CZ Brno 2+!", "2 B b 2k CZ Brno 1-!"))
    assert t.errors == ()
    (game,) = t.games
    assert (game.white, game.black, game.by_default, game.rated) == (1, 2, True, False)


def test_equal_grades_without_colour_are_an_even_rated_game():
    game = only_game(table("1 A a 2k CZ Brno 2=", "2 B b 2k CZ Brno 1="), filename="x.h2")
    assert (game.handicap, game.colours_known, game.rated, game.result) == (0, False, True, 0.5)


# -------------------------------------------------------------------------------------- encoding


def test_latin9_and_utf8_names():
    latin = table("1 Müller Jürgen 3d DE Berl 0-").encode("iso8859_15")
    assert h9.parse_table(latin).players[0].surname == "Müller"
    utf8 = table("1 Müller Jürgen 3d DE Berl 0-").encode("utf-8")
    assert h9.parse_table(utf8).players[0].first_name == "Jürgen"


# ---------------------------------------------------------------------------------------- CLI


def run_cli(path):
    return subprocess.run(
        [sys.executable, "-m", "tournaments.formats.egf", str(path)],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def test_cli_errors_exit_2_one_line_each(tmp_path):
    path = tmp_path / "t240504a.h9"
    path.write_text(table("1 A a 3d CZ Brno 3+/w0 2=/w0", "2 B b 3d CZ Brno 0- 1+/b0"))
    done = run_cli(path)
    assert (done.returncode, done.stdout) == (2, "")
    lines = done.stderr.splitlines()
    assert len(lines) == 2 and all(line.startswith("line 6: round ") for line in lines)


def test_cli_uses_pins_and_file_stem(tmp_path):
    path = tmp_path / "t240504a.h9"
    path.write_text(table("1 A a 3d CZ Brno 2+/w0 |111", "2 B b 3d CZ Brno 1-/b0"))
    out = json.loads(run_cli(path).stdout)
    (tournament,) = out["tournaments"]
    assert tournament["id"] == "t240504a" and tournament["class"] == "B"
    assert tournament["games"] == [{"white": "111", "black": "2", "result": 1.0, "handicap": 0}]
    assert out["warnings"] == []


def test_cli_missing_class_and_missing_file(tmp_path):
    path = tmp_path / "x.h9"
    path.write_text(table("1 A a 3d CZ Brno 0-", header="; EV[x]\n"))
    done = run_cli(path)
    assert done.returncode == 2 and done.stdout == "" and "CL" in done.stderr
    done = run_cli(tmp_path / "missing.h9")
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1
