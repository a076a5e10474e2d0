"""Events of each federation stored in the database, passing every rule unless told otherwise."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from federation.models import Federation, OfficialRole
from tests.factories import make_official, make_player
from tournaments.models import (
    Attestation,
    Event,
    EventKind,
    EventStatus,
    Game,
    Problem,
    Result,
    SolverScore,
    SolvingRules,
    TimeSystem,
    Transmission,
)

TODAY = date(2026, 6, 30)
START = date(2026, 5, 16)
GROUPS = ("twomover", "threemover", "moremover", "endgame", "helpmate", "selfmate")


def federation(code: str, system: str) -> Federation:
    return Federation.objects.create(code=code, name=f"Federation {code}", system=system)


def officials(fed: Federation) -> dict:
    return {
        "officer": make_official(f"{fed.code}-officer", fed),
        "director": make_official(f"{fed.code}-director", fed, OfficialRole.TOURNAMENT_DIRECTOR),
    }


def players(fed: Federation, n: int, first: int = 1) -> list:
    countries = ["DE", "CZ", "RS", "GB"]
    made = [make_player(fed, str(first + i), f"P{first + i}") for i in range(n)]
    for i, player in enumerate(made):
        player.country = countries[i % 4]
        player.save(update_fields=["country"])
    return made


def event(fed: Federation, code: str, **fields) -> Event:
    values = dict(
        name=f"Event {code}",
        code=code,
        kind=EventKind.INDIVIDUAL,
        status=EventStatus.SUBMITTED,
        start=START,
        end=START,
    )
    values.update(fields)
    return Event.objects.create(federation=fed, **values)


def iccf_event(fed, code="ICCF-1", *, days=20, moves=10, games=3, **fields) -> Event:
    e = event(
        fed,
        code,
        transmission=Transmission.POSTAL_WEBSERVER,
        reflection_days=days,
        reflection_moves=moves,
        **fields,
    )
    ps = players(fed, 2 * games, first=1000 * (Event.objects.count()))
    Game.objects.bulk_create(
        Game(
            event=e,
            round=1,
            white=ps[2 * i],
            black=ps[2 * i + 1],
            result=Result.DRAW,
            finished_on=START,
            reported_on=START + timedelta(days=1),
        )
        for i in range(games)
    )
    return e


def egf_event(
    fed,
    code="T260516A",
    *,
    rating_class="B",
    basic=40,
    system=TimeSystem.FISCHER,
    bonus=5,
    **fields,
) -> Event:
    return event(
        fed,
        code,
        rating_class=rating_class,
        basic_time_minutes=basic,
        time_system=system,
        fischer_bonus_seconds=bonus,
        **fields,
    )


def playchess_event(fed, code="PC-1", *, games=4, results=None, **fields) -> Event:
    e = event(fed, code, **fields)
    ps = players(fed, 2 * games, first=1000 * (Event.objects.count()))
    results = results or [Result.WHITE_WINS] * games
    Game.objects.bulk_create(
        Game(
            event=e,
            round=1,
            white=ps[2 * i],
            black=ps[2 * i + 1],
            result=results[i],
            finished_on=START,
        )
        for i in range(games)
    )
    return e


def wfcc_event(fed, code="WFCC-1", *, problems=12, solvers=12, rated=None, **fields) -> Event:
    """12 problems in 6 groups over 2 rounds on one day; ``rated`` solvers full-rated on a list."""
    values = dict(
        kind=EventKind.SOLVING,
        announced_on=date(2026, 3, 1),
        documentation_sent_on=START + timedelta(days=2),
        solving_rules=SolvingRules.WCSC,
        rounds=2,
        days=1,
    )
    values.update(fields)
    e = event(fed, code, **values)
    per_round = max(1, (problems + 1) // 2)
    rows = Problem.objects.bulk_create(
        Problem(event=e, round=1 + i // per_round, number=1 + i, group=GROUPS[i % 6], original=True)
        for i in range(problems)
    )
    rows = list(e.problems.order_by("number"))
    ps = players(fed, solvers, first=1000 * (Event.objects.count()))
    SolverScore.objects.bulk_create(
        SolverScore(problem=p, solver=s, points=Decimal("5.00") if (i + j) % 2 else Decimal("2.5"))
        for i, s in enumerate(ps)
        for j, p in enumerate(rows)
    )
    rated = solvers if rated is None else rated
    if rated:
        publish_list(
            fed, {s: 2000 + 10 * i for i, s in enumerate(ps[:rated])}, valid_from=date(2026, 4, 1)
        )
    return e


def publish_list(fed, ratings: dict, *, valid_from: date, half: frozenset = frozenset()):
    """A published list valid from ``valid_from`` with these (player -> rating) entries."""
    from ratings.models import (
        ListStatus,
        RatingEntry,
        RatingList,
        RatingPeriod,
        RatingRun,
        RunStatus,
    )

    code = f"{valid_from.year}Q{(valid_from.month - 1) // 3 + 1}"
    period, _ = RatingPeriod.objects.get_or_create(
        federation=fed,
        code=code,
        defaults=dict(
            starts_on=valid_from - timedelta(days=90),
            ends_on=valid_from - timedelta(days=1),
            list_published_on=valid_from,
            valid_from=valid_from,
        ),
    )
    run = RatingRun.objects.create(federation=fed, period=period, status=RunStatus.SUCCEEDED)
    rating_list = RatingList.objects.create(federation=fed, period=period, run=run)
    RatingEntry.objects.bulk_create(
        RatingEntry(
            rating_list=rating_list, player=p, rating=r, published_rating=r, half_rating=p in half
        )
        for p, r in ratings.items()
    )
    rating_list.status = ListStatus.PUBLISHED
    rating_list.save()
    return rating_list


def attest(e: Event, user, *keys: str) -> None:
    for key in keys:
        Attestation.objects.create(event=e, rule_id=key, by=user)
