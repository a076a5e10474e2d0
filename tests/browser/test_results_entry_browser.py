"""Results entry in a real browser, counting what an official submits (and clicks and types).

Each flow runs the way it is done now (the score sheet, the paste) and, where a comparison is
asked for, the way it was done before (one Problem page per problem; the event's inline games
with their autocomplete), at the same size. Submissions are counted from the POST requests the
browser sends and asserted; the seconds are printed as ``BENCH`` lines for the note, never
asserted (the machine is shared).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from datetime import date

import pytest

from federation.permissions import COMMAND_LINE

# the module-scoped Chromium of the site tests (skips with the reason when it is missing)
from tests.browser.test_site_browser import browser  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
# The old flows at full size take minutes (one autocomplete per cell): run them for the note
# with BROWSER_SLOW=1; the small sizes run always.
SLOW = [
    pytest.mark.skipif(not os.environ.get("BROWSER_SLOW"), reason="set BROWSER_SLOW=1"),
    pytest.mark.timeout(1800),
]


@dataclass
class Official:
    """A browser page that counts the official's submissions (POSTs) and actions."""

    page: object
    base: str
    posts: list[str] = field(default_factory=list)
    actions: int = 0

    def go(self, path: str) -> None:
        self.page.goto(self.base + path)

    def fill(self, selector: str, value: str) -> None:
        self.actions += 1
        self.page.fill(selector, value)

    def click(self, selector_or_locator) -> None:
        self.actions += 1
        target = selector_or_locator
        if isinstance(target, str):
            target = self.page.locator(target)
        target.click()

    def submit(self, selector: str) -> None:
        self.actions += 1
        with self.page.expect_navigation():
            self.page.locator(selector).click()

    def autocomplete(self, field_id: str, text: str) -> None:
        """The admin's select2 autocomplete: open, type, pick (three actions)."""
        self.click(f"#{field_id} + span.select2 .select2-selection")
        self.fill(".select2-search__field", text)
        self.click(self.page.locator(".select2-results__option", has_text=text).first)


@pytest.fixture
def official(browser, live_server):  # noqa: F811
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(30_000)
    who = Official(page=page, base=live_server.url)
    page.on("request", lambda r: who.posts.append(r.url) if r.method == "POST" else None)
    yield who
    context.close()


def _login(who: Official, username: str) -> None:
    who.go("/admin/login/")
    who.fill("#id_username", username)
    who.fill("#id_password", "pw-" + username)
    who.submit("input[type=submit]")
    who.posts.clear()
    who.actions = 0


def _bench(name: str, seconds: float, submissions: int, actions: int) -> None:
    print(
        f"BENCH name={name} value={seconds:.2f} unit=s submissions={submissions} actions={actions}"
    )


# --- WFCC: solvers × problems -----------------------------------------------------------------


def _solving_event(solvers: int, problems: int = 12):
    from federation.models import Federation
    from tests.factories import make_official, make_player
    from tournaments.models import Event, EventKind, Problem

    fed = Federation.objects.create(code="wfb", name="WFCC browser", system="wfcc")
    players = [make_player(fed, f"S{i:02d}", f"Solver{i:02d}") for i in range(solvers)]
    event = Event.objects.create(
        federation=fed,
        name="Solving Open",
        code="SOLB",
        kind=EventKind.SOLVING,
        start=date(2026, 3, 7),
        end=date(2026, 3, 7),
    )
    per_round = problems // 3
    made = [
        Problem.objects.create(
            event=event,
            round=1 + n // per_round,
            number=1 + n,
            group="twomover",
            original=True,
        )
        for n in range(problems)
    ]
    make_official("stm", fed)
    return event, players, made


def _points(solver: int, problem: int) -> str:
    return ["5", "2.5", "0", "4/12", "1.5/7"][(solver + problem) % 5]


def _expected_total(solvers: int, problems: int) -> float:
    return sum(float(_points(s, p).split("/")[0]) for s in range(solvers) for p in range(problems))


def _sheet_flow(who: Official, event, players, problems) -> None:
    who.go(f"/admin/tournaments/event/{event.pk}/score-sheet/?rows={len(players)}")
    for row, player in enumerate(players, start=1):
        who.fill(f"input[name='s{row}-solver']", player.federation_player_id)
        for p, problem in enumerate(problems):
            who.fill(f"input[name='s{row}-R{problem.round}.{problem.number}']", _points(row - 1, p))
    who.submit("input[name=save]")


@pytest.mark.parametrize("solvers", [4, 40])
def test_wfcc_sheet_in_one_submission(official, solvers):
    from tournaments.models import SolverScore

    event, players, problems = _solving_event(solvers)
    _login(official, "stm")
    started = time.perf_counter()
    _sheet_flow(official, event, players, problems)
    seconds = time.perf_counter() - started
    assert "Score sheet saved" in official.page.locator("ul.messagelist").inner_text()
    scores = SolverScore.objects.filter(problem__event=event)
    assert scores.count() == solvers * 12
    assert float(sum(s.points for s in scores)) == _expected_total(solvers, 12)
    assert len(official.posts) == 1
    _bench(f"wfcc_sheet_{solvers}x12_after", seconds, len(official.posts), official.actions)


def test_wfcc_sheet_shows_errors_in_their_cells_in_the_browser(official):
    from tournaments.models import SolverScore

    event, players, problems = _solving_event(3)
    _login(official, "stm")
    official.go(f"/admin/tournaments/event/{event.pk}/score-sheet/?rows=3")
    official.fill("input[name='s1-solver']", "S00")
    official.fill("input[name='s1-R1.1']", "7")
    official.fill("input[name='s2-solver']", "Solver01")  # a name finds the player
    official.fill("input[name='s2-R1.2']", "5")
    official.submit("input[name=save]")
    bad = official.page.locator("td.error")
    assert bad.count() == 1
    assert bad.inner_text() == "7 points; the problem gives at most 5.00"
    assert SolverScore.objects.count() == 0
    official.fill("input[name='s1-R1.1']", "5")
    official.submit("input[name=save]")
    assert SolverScore.objects.count() == 2


@pytest.mark.parametrize("solvers", [4, pytest.param(40, marks=SLOW)])
def test_wfcc_before_one_problem_page_per_problem(official, solvers):
    """Today's path before the sheet: each Problem's page, one inline row per solver."""
    from tournaments.models import SolverScore

    event, players, problems = _solving_event(solvers)
    _login(official, "stm")
    started = time.perf_counter()
    for p, problem in enumerate(problems):
        official.go(f"/admin/tournaments/problem/{problem.pk}/change/")
        for row, player in enumerate(players):
            if row:
                official.click(official.page.get_by_text("Add another Solver score"))
            official.autocomplete(f"id_scores-{row}-solver", player.surname)
            points, _, minutes = _points(row, p).partition("/")
            official.fill(f"#id_scores-{row}-points", points)
            if minutes:
                official.fill(f"#id_scores-{row}-time_used_minutes", minutes)
        official.submit("input[name=_save]")
    seconds = time.perf_counter() - started
    assert SolverScore.objects.filter(problem__event=event).count() == solvers * 12
    assert len(official.posts) == 12
    _bench(f"wfcc_sheet_{solvers}x12_before", seconds, len(official.posts), official.actions)


# --- ICCF: games ------------------------------------------------------------------------------


def _iccf_world(players: int):
    from federation.models import Federation
    from ratings.services.publication import import_list
    from tests.factories import make_official
    from tests.ratings.web.factories import make_players
    from tournaments.models import Event, EventKind

    fed = Federation.objects.create(code="icb", name="ICCF browser", system="iccf")
    people = make_players(fed, [(str(201 + i), f"Corr{i:02d}", "DE", "") for i in range(players)])
    import_list(
        federation=fed,
        period_code="2025Q4",
        entries=[
            {
                "player_id": p.pk,
                "rating": 2000.0 - 10 * i,
                "published_rating": 2000 - 10 * i,
                "rd": 80.0,
                "published_rd": 80,
            }
            for i, p in enumerate(people)
        ],
        by=COMMAND_LINE,
    )
    event = Event.objects.create(
        federation=fed,
        name="Browser Cup",
        code="BC100",
        kind=EventKind.INDIVIDUAL,
        start=date(2025, 10, 1),
        end=date(2026, 6, 30),
        transmission="electronic",
        reflection_days=50,
        reflection_moves=10,
    )
    make_official("officer", fed)
    return fed, people, event


def _lines(people, count: int) -> list[str]:
    pairs = [(a, b) for a in range(len(people)) for b in range(len(people)) if a < b]
    results = ["1-0", "1/2", "0-1", "1/2"]
    lines = []
    for n, (a, b) in enumerate(pairs[:count]):
        day = 10 + n % 15
        lines.append(
            f"{people[a].federation_player_id}\t{people[b].federation_player_id}\t"
            f"{results[n % 4]}\t2025-10-{day}\t2025-10-{day + 1}"
        )
    return lines


def _paste_flow(who: Official, event, lines: list[str]) -> None:
    who.go(f"/admin/tournaments/event/{event.pk}/results/")
    who.fill("textarea[name=lines]", "\n".join(lines))
    who.submit("input[name=preview]")
    who.submit("input[name=confirm]")


def test_iccf_100_games_in_one_paste(official):
    from tournaments.models import Game

    fed, people, event = _iccf_world(20)
    _login(official, "officer")
    started = time.perf_counter()
    _paste_flow(official, event, _lines(people, 100))
    seconds = time.perf_counter() - started
    assert "Saved 100 games" in official.page.locator("ul.messagelist").inner_text()
    assert Game.objects.filter(event=event).count() == 100
    assert len(official.posts) == 2  # preview, confirm
    _bench("iccf_paste_100_after", seconds, len(official.posts), official.actions)


def test_iccf_paste_names_every_bad_line(official):
    from tournaments.models import Game

    fed, people, event = _iccf_world(4)
    _login(official, "officer")
    lines = _lines(people, 4)
    lines[1] = lines[1].replace("1/2", "2-0")
    lines[3] = "299\t" + lines[3].split("\t", 1)[1]  # nobody has id 299
    official.go(f"/admin/tournaments/event/{event.pk}/results/")
    official.fill("textarea[name=lines]", "\n".join(lines))
    official.submit("input[name=preview]")
    errors = official.page.locator("#preview-errors li").all_inner_texts()
    assert [e.split(":")[0] for e in errors] == ["line 2", "line 4"]
    assert official.page.locator("input[name=confirm]").count() == 0
    assert Game.objects.count() == 0


@pytest.mark.parametrize("games", [4, pytest.param(100, marks=SLOW)])
def test_iccf_before_inline_games_on_the_event_page(official, games):
    """Today's path before the paste: the event page's inline rows with autocomplete."""
    from tournaments.models import Game

    fed, people, event = _iccf_world(4 if games == 4 else 20)
    _login(official, "officer")
    started = time.perf_counter()
    official.go(f"/admin/tournaments/event/{event.pk}/change/")
    for i, line in enumerate(_lines(people, games)):
        white, black, result, finished, reported = line.split("\t")
        if i:
            official.click(official.page.get_by_text("Add another Game"))
        prefix = f"games-{i}"
        official.fill(f"#id_{prefix}-round", "1")
        for side, fid in (("white", white), ("black", black)):
            surname = next(p.surname for p in people if p.federation_player_id == fid)
            official.autocomplete(f"id_{prefix}-{side}", surname)
        official.actions += 1
        official.page.select_option(f"#id_{prefix}-result", result)
        official.fill(f"#id_{prefix}-finished_on", finished)
        official.fill(f"#id_{prefix}-reported_on", reported)
    official.submit("input[name=_continue]")
    seconds = time.perf_counter() - started
    assert Game.objects.filter(event=event).count() == games
    _bench(f"iccf_games_{games}_before", seconds, len(official.posts), official.actions)
    # the same games by paste, for the like-for-like figure
    Game.objects.filter(event=event).delete()
    official.posts.clear()
    official.actions = 0
    started = time.perf_counter()
    _paste_flow(official, event, _lines(people, games))
    seconds = time.perf_counter() - started
    assert Game.objects.filter(event=event).count() == games
    _bench(f"iccf_games_{games}_after", seconds, len(official.posts), official.actions)


def test_iccf_from_login_to_the_public_page_after_rating(official, eager_celery):
    """Login, paste 100 games, submit, accept; a rating officer rates and publishes (services:
    the run request page is another change); the public player page shows the new rating."""
    from ratings.models import RatingList
    from ratings.services.publication import publish_list
    from ratings.services.runs import execute_run, request_run
    from tournaments.models import Event

    fed, people, event = _iccf_world(20)
    started = time.perf_counter()
    official.go("/admin/login/")
    official.fill("#id_username", "officer")
    official.fill("#id_password", "pw-officer")
    official.submit("input[type=submit]")
    _paste_flow(official, event, _lines(people, 100))
    official.go(f"/admin/tournaments/event/{event.pk}/change/")
    for action in ("Submit for acceptance", "Accept"):
        official.click(
            official.page.locator("#acceptability-panel a.button", has_text=action).first
        )
        official.submit(f"input[type=submit][value='{action}']")
    entry_seconds = time.perf_counter() - started
    assert Event.objects.get(pk=event.pk).status == "accepted"
    submissions = len(official.posts)
    assert submissions == 1 + 2 + 2  # login; preview, confirm; submit, accept

    run = request_run(federation=fed, period_code="2026Q1", enqueue=False, by=COMMAND_LINE)
    execute_run(run_id=run.pk)
    draft = RatingList.objects.get(federation=fed, period__code="2026Q1")
    publish_list(list_id=draft.pk, by=COMMAND_LINE)
    top = draft.entries.select_related("player").order_by("rank").first()
    official.go(f"/federations/{fed.code}/players/{top.player.federation_player_id}/")
    text = official.page.locator("main").inner_text()
    assert str(top.published_rating) in text and "Browser Cup" in text
    seconds = time.perf_counter() - started
    _bench("iccf_login_to_public_100_games", seconds, submissions, official.actions)
    _bench("iccf_login_to_accepted_100_games", entry_seconds, submissions, official.actions)
