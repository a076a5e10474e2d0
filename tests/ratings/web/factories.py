"""Small published worlds for the public-site tests: a federation, players, two published lists
(the second with a previous list), an event with games, and per-event rating changes.

Lists are filled while draft and then published with one UPDATE, as the publishing service does
(a published list is immutable: model guard and database trigger).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta

from federation.models import Federation, Player
from ratings.models import (
    EventRating,
    ListStatus,
    RatingList,
    RatingPeriod,
    RatingRun,
    RunStatus,
)
from tournaments.models import Event, EventKind, EventStatus, Game, Result

PUBLISHED_AT = datetime(2026, 3, 15, 12, 0, tzinfo=UTC)


@dataclass
class World:
    federation: Federation
    players: list[Player]
    periods: list[RatingPeriod]
    lists: list[RatingList]
    runs: list[RatingRun]
    event: Event | None = None
    games: list[Game] = field(default_factory=list)
    event_ratings: list[EventRating] = field(default_factory=list)


def make_federation(code: str = "fed", system: str = "iccf") -> Federation:
    return Federation.objects.create(code=code, name=f"Federation {code.upper()}", system=system)


def make_players(federation: Federation, specs: list[tuple[str, str, str, str]]) -> list[Player]:
    """specs: (federation id, surname, country, club)."""
    return [
        Player.objects.create(
            federation=federation,
            federation_player_id=fid,
            surname=surname,
            given_name="Ann" if i % 2 else "Bob",
            country=country,
            club=club,
        )
        for i, (fid, surname, country, club) in enumerate(specs)
    ]


def make_period(federation: Federation, code: str, valid_from: date) -> RatingPeriod:
    return RatingPeriod.objects.create(
        federation=federation,
        code=code,
        starts_on=valid_from - timedelta(days=120),
        ends_on=valid_from - timedelta(days=30),
        list_published_on=valid_from - timedelta(days=15),
        valid_from=valid_from,
    )


def publish(rating_list: RatingList, when: datetime = PUBLISHED_AT) -> RatingList:
    from ratings.web.page_cache import bump_generation

    RatingList.objects.filter(pk=rating_list.pk).update(
        status=ListStatus.PUBLISHED, published_at=when
    )
    bump_generation()  # as services.publish_list does: cached public pages are out of date
    rating_list.refresh_from_db()
    return rating_list


def make_list(
    federation: Federation,
    period: RatingPeriod,
    ratings: dict[Player, float],
    *,
    previous: RatingList | None = None,
    rds: dict[Player, float] | None = None,
    unlisted: tuple[Player, ...] = (),
    published: bool = True,
    games: int = 3,
) -> RatingList:
    """Entries ranked by rating (highest first); `unlisted` players are kept but not shown."""
    from ratings.engines.core.rounding import half_up_int
    from ratings.persistence.run_rows import EntryRow
    from ratings.persistence.writers import write_entries
    from ratings.systems.common import base_entries

    # Written by hand, not by an engine: like an imported list, it has no engine input to check.
    run = RatingRun.objects.create(
        federation=federation, period=period, status=RunStatus.SUCCEEDED, engine="import"
    )
    rating_list = RatingList.objects.create(
        federation=federation, period=period, run=run, previous=previous
    )
    # The run's own writer: ranks and changes (unrounded and published) as a real run stores them.
    rows = [
        EntryRow(
            player_id=p.pk,
            rating=r,
            published_rating=half_up_int(r),
            rd=(rds or {}).get(p),
            published_rd=None if (rds or {}).get(p) is None else half_up_int(rds[p]),
            games=games,
            total_games=games * 2,
            listed=p not in unlisted,
        )
        for p, r in ratings.items()
    ]
    write_entries(rating_list, rows, base_entries(previous, with_state=False))
    listed = [row for row in rows if row.listed]
    RatingList.objects.filter(pk=rating_list.pk).update(entry_count=len(listed))
    rating_list.refresh_from_db()
    return publish(rating_list) if published else rating_list


def make_event(
    federation: Federation,
    code: str,
    players: list[Player],
    *,
    end: date = date(2026, 2, 1),
    kind: str = EventKind.INDIVIDUAL,
    status: str = EventStatus.RATED,
) -> tuple[Event, list[Game]]:
    """A round robin of `players`: the earlier player in the list wins (white), or draws."""
    event = Event.objects.create(
        federation=federation,
        name=f"Open {code}",
        code=code,
        kind=kind,
        status=status,
        start=date(end.year, 1, 1) if end.month > 1 else end,
        end=end,
    )
    games = []
    rnd = 1
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            result = Result.DRAW if (i + rnd) % 3 == 0 else Result.WHITE_WINS
            games.append(
                Game.objects.create(event=event, round=rnd, white=a, black=b, result=result)
            )
            rnd += 1
    return event, games


def standard_world(system: str = "iccf", code: str = "fed") -> World:
    """Five players on two published lists (2026Q1 then 2026Q2), one event in the second run."""
    fed = make_federation(code, system)
    players = make_players(
        fed,
        [
            ("101", "Adams", "DE", "Berlin"),
            ("102", "Baker", "FR", "Paris"),
            ("103", "Clark", "DE", "Hamburg"),
            ("104", "Davis", "NL", "Utrecht"),
            ("105", "Evans", "DE", "Berlin"),
        ],
    )
    a, b, c, d, e = players
    p1 = make_period(fed, "2026Q1", date(2026, 1, 1))
    p2 = make_period(fed, "2026Q2", date(2026, 4, 1))
    rds = {p: 80.0 + i for i, p in enumerate(players)} if system == "iccf" else None
    first = make_list(fed, p1, {a: 2000.0, b: 1950.4, c: 1900.0, d: 1800.0}, rds=rds)
    second_ratings = {a: 2010.6, b: 1940.0, c: 1905.5, e: 1700.0, d: 1790.0}
    event, games = make_event(fed, "OPEN-26", [a, b, c, e])
    second = make_list(
        fed, p2, second_ratings, previous=first, rds=rds, unlisted=(d,), published=False
    )
    run = second.run
    ers = []
    for p in (a, b, c, e):
        ers.append(
            EventRating.objects.create(
                run=run,
                event=event,
                player=p,
                before={a: 2000.0, b: 1950.4, c: 1900.0}.get(p),
                after=second_ratings[p],
                games=3,
                score=1.5,
            )
        )
    second = publish(second)
    return World(fed, players, [p1, p2], [first, second], [first.run, run], event, games, ers)
