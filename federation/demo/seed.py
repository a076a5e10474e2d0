"""Deterministic synthetic demo data: four federations, one per rating system.

Everything derives from one random.Random(seed) and fixed calendar dates, so the same seed gives
the same rows (ids aside) on every machine. Nothing here is real data.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.db import transaction

from federation.demo.names import CLUBS, COUNTRIES, GIVEN_NAMES, SURNAMES
from federation.models import Federation, Official, OfficialRole, Player, RatingSystem
from ratings.engines.core.grades import parse_grade
from tournaments.models import (
    Championship,
    Event,
    EventKind,
    EventStatus,
    Game,
    Problem,
    ProblemGroup,
    Result,
    SolverScore,
    SolvingRules,
    Substitution,
    Team,
    TeamMember,
    TimeSystem,
    Transmission,
)

# Shares of the requested player count per federation.
SHARES = {"iccf": 0.4, "egf": 0.3, "playchess": 0.2, "wfcc": 0.1}
DEMO_PASSWORD_SUFFIX = "-demo-2026"


@dataclass(frozen=True)
class DemoLogin:
    username: str
    password: str
    federation: str
    role: str


def demo_logins() -> list[DemoLogin]:
    logins = [DemoLogin("admin", "admin" + DEMO_PASSWORD_SUFFIX, "*", "superuser")]
    for code in SHARES:
        logins.append(
            DemoLogin(
                f"{code}-officer",
                f"{code}{DEMO_PASSWORD_SUFFIX}",
                code,
                OfficialRole.RATING_OFFICER,
            )
        )
        logins.append(
            DemoLogin(
                f"{code}-director",
                f"{code}{DEMO_PASSWORD_SUFFIX}",
                code,
                OfficialRole.TOURNAMENT_DIRECTOR,
            )
        )
    return logins


def _between(rng: random.Random, first: date, last: date) -> date:
    return first + timedelta(days=rng.randint(0, (last - first).days))


def _chess_result(rng: random.Random, diff: float, draw_rate: float) -> str:
    expected = 1 / (1 + 10 ** (-diff / 400))
    if rng.random() < draw_rate:
        return Result.DRAW
    return Result.WHITE_WINS if rng.random() < expected else Result.BLACK_WINS


class DemoSeeder:
    def __init__(self, *, players: int, seed: int) -> None:
        self.rng = random.Random(seed)
        self.total_players = players
        self.strength: dict[int, float] = {}  # player id -> latent strength for results

    # -- helpers ---------------------------------------------------------------------------
    def _players(self, federation: Federation, count: int, first_id: int, **extra) -> list[Player]:
        rng = self.rng
        rows = []
        for i in range(count):
            rows.append(
                Player(
                    federation=federation,
                    federation_player_id=str(first_id + i),
                    surname=rng.choice(SURNAMES),
                    given_name=rng.choice(GIVEN_NAMES),
                    country=rng.choice(COUNTRIES),
                    club=f"{rng.choice(CLUBS)} {rng.choice(['Club', 'Society', 'Circle'])}",
                    active=rng.random() > 0.03,
                    **{k: (v(i) if callable(v) else v) for k, v in extra.items()},
                )
            )
        for row in rows:
            row.fill_folded_names()
        created = Player.objects.bulk_create(rows)
        if created and created[0].pk is None:  # backends that do not return ids
            created = list(Player.objects.filter(federation=federation).order_by("id"))
        return created

    def _set_strengths(self, players: list[Player], mean: float, spread: float) -> None:
        for player in players:
            self.strength[player.pk] = self.rng.gauss(mean, spread)

    # -- federations ---------------------------------------------------------------------------
    def run(self) -> None:
        with transaction.atomic():
            counts = {
                code: max(20, int(self.total_players * share)) for code, share in SHARES.items()
            }
            federations = {
                "iccf": Federation.objects.create(
                    code="iccf",
                    name="International Correspondence Chess Federation",
                    system=RatingSystem.ICCF,
                ),
                "egf": Federation.objects.create(
                    code="egf", name="European Go Federation", system=RatingSystem.EGF
                ),
                "playchess": Federation.objects.create(
                    code="playchess", name="PlayChess", system=RatingSystem.PLAYCHESS
                ),
                "wfcc": Federation.objects.create(
                    code="wfcc",
                    name="World Federation for Chess Composition",
                    system=RatingSystem.WFCC,
                ),
            }
            self.seed_iccf(federations["iccf"], counts["iccf"])
            self.seed_egf(federations["egf"], counts["egf"])
            self.seed_playchess(federations["playchess"], counts["playchess"])
            self.seed_wfcc(federations["wfcc"], counts["wfcc"])
            self.seed_logins(federations)
            self.seed_initial_lists(federations)
            from tournaments.demo import attest_demo_events

            attest_demo_events()

    def seed_initial_lists(self, federations: dict[str, Federation]) -> None:
        """ICCF and WFCC start from a list carried over from their previous system."""
        from federation.permissions import COMMAND_LINE
        from ratings.engines.core.rounding import half_up_int
        from ratings.services.publication import import_list

        rng = self.rng
        for code, share, with_rd in (("iccf", 0.85, True), ("wfcc", 0.75, False)):
            federation = federations[code]
            rows = []
            for player in Player.objects.filter(federation=federation).order_by("id"):
                if rng.random() > share:
                    continue
                rating = round(self.strength[player.pk] + rng.gauss(0, 60), 2)
                row = {
                    "player_id": player.pk,
                    "rating": rating,
                    "published_rating": half_up_int(rating),
                }
                if with_rd:
                    rd = float(rng.randint(40, 140))
                    row.update(rd=rd, published_rd=int(rd))
                else:
                    row["state"] = {"last": "2025-06-01"}
                rows.append(row)
            import_list(federation=federation, period_code="2025Q4", entries=rows, by=COMMAND_LINE)

    def seed_logins(self, federations: dict[str, Federation]) -> None:
        User = get_user_model()
        for login in demo_logins():
            user = User(
                username=login.username, is_staff=True, is_superuser=login.role == "superuser"
            )
            user.set_password(login.password)
            user.save()
            if login.federation != "*":
                Official.objects.create(
                    user=user, federation=federations[login.federation], role=login.role
                )

    def seed_iccf(self, federation: Federation, count: int) -> None:
        rng = self.rng
        fide_date = date(2025, 7, 1)
        players = self._players(
            federation,
            count,
            100001,
            fide_rating=lambda i: rng.randint(1700, 2450) if i % 9 == 0 else None,
            fide_list_date=lambda i: fide_date if i % 9 == 0 else None,
        )
        self._set_strengths(players, 1950, 220)
        # Sections of 7, round robin, games reported from Sep 2025 to Aug 2026.
        rng.shuffle(players)
        sections = [players[i : i + 7] for i in range(0, len(players) - 6, 7)]
        for number, section in enumerate(sections[: max(4, len(sections) * 3 // 4)], start=1):
            start = _between(rng, date(2025, 6, 1), date(2025, 10, 31))
            event = Event.objects.create(
                federation=federation,
                name=f"Demo Open Section {number}",
                code=f"ICCF-DEMO-{number:03d}",
                kind=EventKind.INDIVIDUAL,
                status=EventStatus.ACCEPTED,
                announced_on=start - timedelta(days=60),
                start=start,
                end=date(2026, 8, 31),
                transmission=Transmission.ELECTRONIC,
                reflection_days=50,
                reflection_moves=10,
                location="ICCF webserver",
            )
            self._round_robin(event, section, date(2025, 9, 1), date(2026, 8, 31), 0.45)
        self._iccf_team_event(federation, sections[-4:])
        Event.objects.create(
            federation=federation,
            name="Blitz-by-post experiment (too fast)",
            code="ICCF-DEMO-FAST",
            kind=EventKind.INDIVIDUAL,
            status=EventStatus.SUBMITTED,
            start=date(2026, 3, 1),
            end=date(2026, 9, 30),
            transmission=Transmission.POSTAL_OFF,
            reflection_days=10,
            reflection_moves=10,
        )

    def _round_robin(
        self, event: Event, players: list[Player], first: date, last: date, draw_rate: float
    ) -> list[Game]:
        rng = self.rng
        games = []
        for round_no, (a, b) in enumerate(itertools.combinations(players, 2), start=1):
            white, black = (a, b) if rng.random() < 0.5 else (b, a)
            finished = _between(rng, first, last)
            games.append(
                Game(
                    event=event,
                    round=1 + round_no % max(1, len(players) - 1),
                    white=white,
                    black=black,
                    result=_chess_result(
                        rng, self.strength[white.pk] - self.strength[black.pk], draw_rate
                    ),
                    finished_on=finished,
                    reported_on=min(last, finished + timedelta(days=rng.randint(0, 3))),
                )
            )
        return Game.objects.bulk_create(games)

    def _iccf_team_event(self, federation: Federation, groups: list[list[Player]]) -> None:
        rng = self.rng
        event = Event.objects.create(
            federation=federation,
            name="Demo Nations Cup",
            code="ICCF-DEMO-TEAM",
            kind=EventKind.TEAM,
            status=EventStatus.ACCEPTED,
            announced_on=date(2025, 5, 1),
            start=date(2025, 8, 1),
            end=date(2026, 8, 31),
            transmission=Transmission.ELECTRONIC,
            reflection_days=50,
            reflection_moves=10,
        )
        teams = []
        for index, group in enumerate(groups):
            team = Team.objects.create(
                event=event, name=f"Team {COUNTRIES[index]}", country=COUNTRIES[index]
            )
            regulars, substitutes = group[:4], group[4:6]
            for board, player in enumerate(regulars, start=1):
                TeamMember.objects.create(team=team, player=player, board=board)
            for board, player in enumerate(substitutes, start=5):
                TeamMember.objects.create(team=team, player=player, board=board, is_substitute=True)
            teams.append((team, regulars, substitutes))
        pairings = itertools.combinations(teams, 2)
        for round_no, ((_, home, home_subs), (_, away, away_subs)) in enumerate(pairings, 1):
            for board in range(4):
                white, black = (
                    (home[board], away[board]) if board % 2 == 0 else (away[board], home[board])
                )
                substitution = None
                if rng.random() < 0.15:
                    # A substitute of the white side's team takes this board.
                    subs = home_subs if white in home else away_subs
                    substitution = (white, subs[0])
                    white = subs[0]
                finished = _between(rng, date(2025, 9, 1), date(2026, 8, 31))
                game = Game.objects.create(
                    event=event,
                    round=round_no,
                    white=white,
                    black=black,
                    result=_chess_result(
                        rng, self.strength[white.pk] - self.strength[black.pk], 0.5
                    ),
                    finished_on=finished,
                    reported_on=finished,
                )
                if substitution:
                    Substitution.objects.create(game=game, side="white", replaces=substitution[0])

    def seed_egf(self, federation: Federation, count: int) -> None:
        rng = self.rng

        def grade(i: int) -> str:
            level = min(36, max(0, int(rng.gauss(22, 7))))  # 0 = 30k ... 29 = 1k, 30..36 = 1d..7d
            return f"{30 - level}k" if level < 30 else f"{level - 29}d"

        players = self._players(federation, count, 10000001, grade=grade)
        for player in players:
            nominal = parse_grade(player.grade).nominal
            self.strength[player.pk] = nominal + rng.gauss(0, 80)
        classes = [
            ("A", 90, TimeSystem.BYOYOMI, 30, None),
            ("B", 50, TimeSystem.CANADIAN, 300, 15),
            ("C", 30, TimeSystem.FISCHER, None, None),
        ]
        day = date(2025, 1, 11)
        number = 0
        while day < date(2026, 10, 31):
            number += 1
            cls, basic, system, overtime, stones = classes[number % 3]
            size = min(len(players), rng.randint(24, 48))
            field = sorted(rng.sample(players, size), key=lambda p: -self.strength[p.pk])
            handicap_event = number % 4 == 0
            event = Event.objects.create(
                federation=federation,
                name=f"Demo Go Cup {number}",
                code=f"T{day:%y%m%d}{chr(65 + number % 26)}",
                kind=EventKind.INDIVIDUAL,
                status=EventStatus.ACCEPTED,
                start=day,
                end=day + timedelta(days=1),
                rating_class=cls,
                basic_time_minutes=basic,
                time_system=system,
                overtime_seconds=overtime,
                overtime_moves=stones,
                fischer_bonus_seconds=10 if system == TimeSystem.FISCHER else None,
                handicap_reduction=2 if handicap_event else 9,
                komi=Decimal("6.5"),
                location=rng.choice(["Prague", "Lyon", "Leipzig", "Brno", "Turin", "Utrecht"]),
            )
            self._egf_rounds(event, field, handicap_event, day)
            day += timedelta(days=rng.randint(14, 30))
        Event.objects.create(
            federation=federation,
            name="Rapid night (class A declared, 20 minutes)",
            code="T261107Z",
            kind=EventKind.INDIVIDUAL,
            status=EventStatus.SUBMITTED,
            start=date(2026, 11, 7),
            end=date(2026, 11, 7),
            rating_class="A",
            basic_time_minutes=20,
            time_system=TimeSystem.SUDDEN_DEATH,
        )

    def _egf_rounds(self, event: Event, field: list[Player], handicap: bool, day: date) -> None:
        rng = self.rng
        games = []
        for round_no in range(1, 6):
            order = field[:]
            # Neighbours by strength, lightly shuffled, so pairings vary by round.
            order.sort(key=lambda p: -self.strength[p.pk] + rng.gauss(0, 120))
            for a, b in zip(order[0::2], order[1::2], strict=False):
                stronger, weaker = (a, b) if self.strength[a.pk] >= self.strength[b.pk] else (b, a)
                stones = 0
                if handicap:
                    stones = max(
                        0,
                        min(
                            9,
                            int((self.strength[stronger.pk] - self.strength[weaker.pk]) // 100) - 2,
                        ),
                    )
                white, black = (
                    (stronger, weaker) if stones or rng.random() < 0.5 else (weaker, stronger)
                )
                diff = self.strength[white.pk] - self.strength[black.pk] - 100 * stones
                p_white = 1 / (1 + math.exp(-diff / 110))
                result = Result.WHITE_WINS if rng.random() < p_white else Result.BLACK_WINS
                if rng.random() < 0.01:
                    result = Result.WHITE_WINS_BY_DEFAULT
                games.append(
                    Game(
                        event=event,
                        round=round_no,
                        white=white,
                        black=black,
                        result=result,
                        handicap=stones,
                        komi=Decimal("0.5") if stones else Decimal("6.5"),
                        finished_on=day,
                        reported_on=day + timedelta(days=2),
                    )
                )
            if len(order) % 2:
                games.append(
                    Game(
                        event=event,
                        round=round_no,
                        white=order[-1],
                        black=None,
                        result=Result.BYE_HALF,
                        finished_on=day,
                    )
                )
        Game.objects.bulk_create(games)

    def seed_playchess(self, federation: Federation, count: int) -> None:
        rng = self.rng
        players = self._players(
            federation,
            count,
            500001,
            start_rating=lambda i: float(rng.randrange(1200, 2300, 50)) if i % 5 == 0 else None,
        )
        self._set_strengths(players, 1700, 250)
        month = date(2025, 11, 1)
        while month < date(2026, 11, 1):
            following = (month.replace(day=28) + timedelta(days=4)).replace(day=1)
            event = Event.objects.create(
                federation=federation,
                name=f"Rated games {month:%B %Y}",
                code=f"PC-{month:%Y-%m}",
                kind=EventKind.INDIVIDUAL,
                status=EventStatus.ACCEPTED,
                start=month,
                end=following - timedelta(days=1),
                location="playchess.com",
            )
            games = []
            for number in range(len(players) * 2):
                white, black = rng.sample(players, 2)
                finished = _between(rng, month, following - timedelta(days=1))
                games.append(
                    Game(
                        event=event,
                        round=1 + number // len(players),
                        white=white,
                        black=black,
                        result=_chess_result(
                            rng, self.strength[white.pk] - self.strength[black.pk], 0.2
                        ),
                        finished_on=finished,
                        reported_on=finished,
                    )
                )
            games.sort(key=lambda g: g.finished_on)
            Game.objects.bulk_create(games)
            month = following
        broken = Event.objects.create(
            federation=federation,
            name="Server outage games (results unknown)",
            code="PC-OUTAGE",
            kind=EventKind.INDIVIDUAL,
            status=EventStatus.SUBMITTED,
            start=date(2026, 10, 12),
            end=date(2026, 10, 12),
            location="playchess.com",
        )
        white, black = players[0], players[1]
        Game.objects.create(
            event=broken,
            round=1,
            white=white,
            black=black,
            result=Result.UNKNOWN,
            finished_on=date(2026, 10, 12),
        )

    def seed_wfcc(self, federation: Federation, count: int) -> None:
        rng = self.rng
        players = self._players(federation, count, 900001)
        self._set_strengths(players, 2150, 280)
        groups = list(ProblemGroup.values)
        day = date(2025, 10, 18)
        for number in range(1, 9):
            size = min(len(players), rng.randint(24, 50))
            solvers = rng.sample(players, size)
            championship = Championship.ECSC if number == 5 else Championship.NONE
            event = Event.objects.create(
                federation=federation,
                name=f"Demo Solving Contest {number}",
                code=f"WFCC-DEMO-{number}",
                kind=EventKind.SOLVING,
                status=EventStatus.ACCEPTED,
                announced_on=day - timedelta(days=90),
                start=day,
                end=day + timedelta(days=1 if championship else 0),
                documentation_sent_on=day + timedelta(days=3),
                solving_rules=SolvingRules.WCSC,
                championship=championship,
                rounds=2,
                days=2 if championship else 1,
                rating_class="",
                location=rng.choice(["Belgrade", "Warsaw", "Ohrid", "Rhodes", "Leiden"]),
            )
            self._wfcc_problems(event, solvers, groups, problems_per_round=6)
            day += timedelta(days=rng.randint(40, 80))
        short = Event.objects.create(
            federation=federation,
            name="Club solving evening (11 problems)",
            code="WFCC-DEMO-SHORT",
            kind=EventKind.SOLVING,
            status=EventStatus.SUBMITTED,
            announced_on=date(2026, 9, 1),
            start=date(2026, 9, 5),
            end=date(2026, 9, 5),
            documentation_sent_on=date(2026, 9, 20),
            solving_rules=SolvingRules.OTHER,
            rounds=1,
            days=1,
        )
        self._wfcc_problems(short, rng.sample(players, 12), groups, problems_per_round=11, rounds=1)

    def _wfcc_problems(
        self,
        event: Event,
        solvers: list[Player],
        groups: list[str],
        *,
        problems_per_round: int,
        rounds: int = 2,
    ) -> None:
        rng = self.rng
        problems = []
        number = 0
        for round_no in range(1, rounds + 1):
            for _ in range(problems_per_round):
                group = groups[number % len(groups)]
                number += 1
                original = rng.random() < 0.6
                problems.append(
                    Problem(
                        event=event,
                        round=round_no,
                        number=number,
                        group=group,
                        original=original,
                        first_published_on=None
                        if original
                        else date(rng.randint(1950, 2015), 1, 1),
                        fairy_elements="Grasshopper" if group == ProblemGroup.FAIRY else "",
                        fairy_elements_announced_on=(
                            event.start - timedelta(days=75)
                            if group == ProblemGroup.FAIRY
                            else None
                        ),
                    )
                )
        problems = Problem.objects.bulk_create(problems)
        if problems and problems[0].pk is None:
            problems = list(event.problems.order_by("number"))
        scores = []
        for solver in solvers:
            skill = (self.strength[solver.pk] - 1500) / 1000
            for problem in problems:
                chance = max(0.02, min(0.98, skill + rng.gauss(0, 0.2)))
                if rng.random() < chance:
                    points = Decimal("5.00")
                else:
                    points = Decimal(rng.choice(["0", "0", "1", "2", "2.5", "3", "4"])).quantize(
                        Decimal("0.01")
                    )
                scores.append(
                    SolverScore(
                        problem=problem,
                        solver=solver,
                        points=points,
                        time_used_minutes=rng.randint(5, 20),
                    )
                )
        SolverScore.objects.bulk_create(scores)


def seed_demo(*, players: int = 2000, seed: int = 2026) -> None:
    DemoSeeder(players=players, seed=seed).run()
