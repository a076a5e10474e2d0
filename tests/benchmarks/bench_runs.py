"""Rating runs end to end on PostgreSQL: an ICCF period of 20,000 players and 200,000 games
(read, compute, write the draft list and event ratings), and an EGF history of 5,000 tournaments
re-rated from scratch, period after period. Needs PostgreSQL on 127.0.0.1 (BENCH_DATABASE_URL to
override); prints 'skipped' otherwise.

Comparison in the same run: the engine alone on the same input (what the database adds), and the
ICCF period's floor (bench_iccf: the median of BENCH_ICCF_REPEATS runs, 3 by default, against the
least of their floors).
"""

from __future__ import annotations

import cProfile
import gc
import os
import pstats
import random
import statistics
import subprocess
import time
from datetime import date, timedelta

from tests.benchmarks.copy_rows import copy_rows

DB_NAME = "fedratings_bench_runs"
ICCF_REPEATS = int(os.environ.get("BENCH_ICCF_REPEATS", "3"))
GAME_COLUMNS = [
    *("event", "round", "white", "black", "result", "handicap"),
    *("finished_on", "reported_on", "updated_at"),
]
DEFAULT_URL = f"postgres://postgres@127.0.0.1:5432/{DB_NAME}"


def _prepare_database() -> bool:
    url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_URL)
    if "BENCH_DATABASE_URL" not in os.environ:
        dropped = subprocess.run(
            [
                "psql",
                "-h",
                "127.0.0.1",
                "-U",
                "postgres",
                "-qc",
                f"DROP DATABASE IF EXISTS {DB_NAME}",
            ],
            capture_output=True,
        )
        if dropped.returncode != 0:
            print(f"skipped: PostgreSQL not reachable ({dropped.stderr.decode().strip()})")
            return False
        subprocess.run(
            ["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", f"CREATE DATABASE {DB_NAME}"],
            check=True,
            capture_output=True,
        )
    os.environ["DATABASE_URL"] = url
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    return True


def _players(federation, count: int, rng: random.Random) -> list[int]:
    from federation.models import Player
    from federation.names import fold

    copy_rows(
        Player,
        ["federation", "federation_player_id", "surname", "given_name", "country"]
        + ["surname_folded", "given_name_folded"],
        (
            (federation.pk, str(i + 1), f"Player{i}", "B", "DE", fold(f"Player{i}"), fold("B"))
            for i in range(count)
        ),
    )
    return list(
        Player.objects.filter(federation=federation).order_by("id").values_list("id", flat=True)
    )


def bench_iccf(rng: random.Random) -> None:
    """The period ICCF_REPEATS times, each in a federation of its own with the same players,
    list and games (one seed), and its floor after each. Every federation is loaded first, so
    that each run reads from the same tables. The figure is the median run against the least
    floor: single runs varied by a quarter on a noisy machine, their floors by half, and later
    floors came out slower (a read after the runs' writes, a core after their allocations), so
    the fastest floor is the strict comparison."""
    seed = rng.randrange(1 << 30)
    federations = [_iccf_federation(random.Random(seed), n) for n in range(ICCF_REPEATS)]
    _settle()
    from ratings.services import runs

    runs.digest_engine_versions()  # as a worker does when it starts (ratings.tasks)
    totals, floors = [], []
    for repeat, federation in enumerate(federations):
        run, total, floor = _iccf_period(federation, first=repeat == 0)
        print(f"  run {repeat + 1}: {total:.3f} s, floor {floor:.3f} s, ratio {total / floor:.3f}")
        totals.append(total)
        floors.append(floor)
    from tests.benchmarks.report import emit

    emit("iccf_period_e2e", statistics.median(totals), "s", "floor", min(floors))


def _iccf_federation(rng: random.Random, number: int):
    """A federation of 20,000 players, 18,000 of them on a published list, and 200,000 games in
    2,000 accepted events, for its period 2026Q1."""
    from federation.models import Federation
    from federation.permissions import COMMAND_LINE
    from ratings.services import publication
    from tournaments.models import Event, Game

    federation = Federation.objects.create(
        code=f"bench-iccf-{number + 1}", name=f"Bench ICCF {number + 1}", system="iccf"
    )
    players = _players(federation, 20_000, rng)
    publication.import_list(
        federation=federation,
        period_code="2025Q4",
        entries=[
            {
                "player_id": pid,
                "rating": rng.gauss(1900, 200),
                "published_rating": 1900,
                "rd": rng.uniform(40, 140),
                "published_rd": 80,
            }
            for pid in players[:18_000]
        ],
        by=COMMAND_LINE,
    )
    events = Event.objects.bulk_create(
        Event(
            federation=federation,
            name=f"S{i}",
            code=f"S{i}",
            kind="individual",
            status="accepted",
            start=date(2025, 6, 1),
            end=date(2026, 6, 1),
        )
        for i in range(2_000)
    )
    now = "2026-01-01 00:00:00+00"
    start = date(2025, 9, 1)
    rows = []
    for i in range(200_000):
        white, black = rng.sample(players, 2)
        day = start + timedelta(days=rng.randint(0, 90))
        rows.append(
            (
                events[i % 2000].pk,
                1,
                white,
                black,
                rng.choice(["1-0", "1/2", "0-1"]),
                0,
                day,
                day,
                now,
            )
        )
    copy_rows(Game, GAME_COLUMNS, rows)
    return federation


def _iccf_period(federation, *, first: bool):
    """The federation's period end to end: (the run, its seconds, its floor's)."""
    from federation.permissions import COMMAND_LINE
    from ratings.engines import iccf
    from ratings.services import runs
    from ratings.systems.common import Context, base_list_for
    from ratings.systems.iccf import runner

    gc.collect()  # each run starts without the garbage of the ones before it
    profile = cProfile.Profile() if os.environ.get("BENCH_PROFILE") == "1" else None
    started = time.perf_counter()
    if profile is not None:
        profile.enable()
    run = runs.run_now(federation=federation, period_code="2026Q1", by=COMMAND_LINE)
    total = time.perf_counter() - started
    if profile is not None:  # BENCH_PROFILE=1: where the period's time goes, by function
        profile.disable()
        pstats.Stats(profile).sort_stats(
            os.environ.get("BENCH_PROFILE_SORT", "tottime")
        ).print_stats(int(os.environ.get("BENCH_PROFILE_LINES", "20")))
    assert run.status == "succeeded", run.error
    stages = run.stage_seconds
    print(
        f"ICCF period end to end (20,000 players, 200,000 games, PostgreSQL): {total:.2f} s "
        f"(target < 20 s)"
    )
    for name in ("read", "compute", "interpret", "entries", "store", "digest", "write"):
        print(f"  {name:10} {stages[name]:7.2f} s  {100 * stages[name] / total:5.1f} %")
    rest = total - sum(stages.values())
    print(f"  {'other':10} {rest:7.2f} s  {100 * rest / total:5.1f} %  (claim, commit, audit)")
    ctx = Context(federation, run.period, base_list_for(federation, run.period), {})
    engine_input = runner.build(ctx).engine_input
    if first:  # the same input every time: what is stored, and the engine alone, once
        print(f"  entries {run.rating_list.entry_count}, event ratings {run.event_ratings.count()}")
        _report_stored(run, "iccf_200k")
        best = min(_timed(lambda: iccf.run_json(engine_input)) for _ in range(3))
        print(
            f"  comparison: the engine alone on the same input (run_json, best of 3): {best:.3f}"
            f" s = {100 * best / total:.1f} % of the end-to-end time"
        )
    return run, total, _floor(run, engine_input)


def _settle() -> None:
    """VACUUM ANALYZE, as autovacuum would have done by the time a period is run: every run,
    and its floor, plans its reads on statistics of the rows it reads (a run right after the
    load would not, and autovacuum's own timing would make the figures vary)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")


def _floor(run, engine_input: dict) -> float:
    """The floor of an ICCF period measured the same way: a raw read of the period's games, the
    engine core on its arrays, and COPY of the rows the run stored into unindexed temporary
    tables. The run against it is what the site's layers cost."""
    from django.db import connection, transaction

    from ratings.engines import iccf
    from ratings.engines.iccf.contract import _columns_from_json
    from ratings.engines.iccf.rate import bulk_arrays
    from ratings.models import EventRating, RatingEntry

    arrays = bulk_arrays(_columns_from_json(engine_input["players"], engine_input["games"]))
    entry_columns = ["player_id", "rating", "rd", "published_rating", "published_rd", "games"]
    event_columns = ["event_id", "player_id", "before", "after", "games", "score"]
    entries = list(
        RatingEntry.objects.filter(rating_list=run.rating_list).values_list(*entry_columns)
    )
    event_rows = list(EventRating.objects.filter(run=run).values_list(*event_columns))
    event_ids = list(run.period.federation.events.values_list("id", flat=True))
    with transaction.atomic(), connection.cursor() as cursor:
        raw = cursor.cursor
        started = time.perf_counter()
        raw.execute(
            "SELECT id, event_id, white_id, black_id, result, handicap, finished_on, reported_on"
            " FROM tournaments_game WHERE event_id = ANY(%s) AND reported_on <= %s",
            (event_ids, run.period.valid_from),
        )
        games = raw.fetchall()
        read = time.perf_counter() - started
        started = time.perf_counter()
        iccf.rate_arrays(arrays, iccf.Params())
        core = time.perf_counter() - started
        raw.execute(
            "CREATE TEMP TABLE floor_entries (player_id int, rating float8, rd float8,"
            " published_rating int, published_rd int, games int) ON COMMIT DROP;"
            "CREATE TEMP TABLE floor_events (event_id int, player_id int, before float8,"
            " after float8, games int, score float8) ON COMMIT DROP"
        )
        started = time.perf_counter()
        for table, rows in (("floor_entries", entries), ("floor_events", event_rows)):
            with raw.copy(f"COPY {table} FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        write = time.perf_counter() - started
    print(
        f"  floor: raw read of {len(games):,} games {read:.3f} s + core {core:.3f} s + COPY of "
        f"{len(entries):,} entries and {len(event_rows):,} event rows {write:.3f} s"
    )
    return read + core + write


def _report_stored(run, name: str) -> None:
    """What the run stored to be replayable: compressed bytes against the raw canonical JSON."""
    from ratings.models import RunRecord
    from tests.benchmarks.report import emit

    record = RunRecord.objects.get(run=run)
    raw = record.input_size + record.output_size
    print(
        f"  stored: input {record.input_size:,} B raw -> {len(record.engine_input):,} B, output "
        f"{record.output_size:,} B raw -> {len(record.engine_output):,} B, labels "
        f"{len(record.input_labels):,} B"
    )
    emit(f"{name}_run_stored", record.stored_bytes, "bytes", "raw_json", raw)
    from django.db import connection

    with connection.cursor() as cursor:
        for table, key in (("ratings_eventrating", "run_id"), ("ratings_ratingentry", None)):
            where = "run_id = %s" if key else "rating_list_id = %s"
            value = run.pk if key else run.rating_list.pk
            cursor.execute(
                f"SELECT count(*), avg(pg_column_size(t.*)) FROM {table} t WHERE {where}", [value]
            )
            count, size = cursor.fetchone()
            print(f"  {table}: {count:,} rows of {float(size):.0f} bytes each (tuple, no indexes)")


def _timed(fn) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def bench_egf_history(rng: random.Random) -> None:
    from federation.models import Federation
    from federation.permissions import COMMAND_LINE
    from ratings import calendars
    from ratings.engines import egf
    from ratings.services import publication, runs

    federation = Federation.objects.create(code="bench-egf", name="Bench EGF", system="egf")
    players = _players(federation, 5_000, rng)
    from federation.models import Player

    grades = [f"{k}k" for k in range(20, 0, -1)] + [f"{d}d" for d in range(1, 7)]
    for pid in players:
        Player.objects.filter(pk=pid).update(grade=rng.choice(grades))
    from tournaments.models import Event, Game

    first = date(2016, 1, 2)
    events = Event.objects.bulk_create(
        Event(
            federation=federation,
            name=f"T{i}",
            code=f"T{i:05d}",
            kind="individual",
            status="accepted",
            rating_class="ABC"[i % 3],
            start=first + timedelta(days=i // 3),
            end=first + timedelta(days=i // 3),
        )
        for i in range(5_000)
    )
    now = "2026-01-01 00:00:00+00"
    rows = []
    for event in events:
        field = rng.sample(players, 16)
        for round_no in range(1, 6):
            rng.shuffle(field)
            for a, b in zip(field[0::2], field[1::2], strict=True):
                rows.append(
                    (
                        event.pk,
                        round_no,
                        a,
                        b,
                        rng.choice(["1-0", "0-1"]),
                        rng.choice([0, 0, 0, 2, 3]),
                        event.end,
                        event.end,
                        now,
                    )
                )
    copy_rows(Game, GAME_COLUMNS, rows)
    period = calendars.period_for("egf", first)
    last = events[-1].end
    started = time.perf_counter()
    count = 0
    compute = 0.0
    while period.starts_on <= last:
        run = runs.run_now(federation=federation, period_code=period.code, by=COMMAND_LINE)
        assert run.status == "succeeded", run.error
        compute += run.stage_seconds["compute"]
        publication.publish_list(list_id=run.rating_list.pk, by=COMMAND_LINE)
        count += 1
        period = calendars.next_period(period)
    total = time.perf_counter() - started
    print(
        f"EGF history re-rated from scratch: 5,000 tournaments, {len(rows):,} games, "
        f"{count} monthly runs published: {total:.2f} s "
        f"(engine share {compute:.2f} s = {100 * compute / total:.1f} %)"
    )
    from ratings.models import EventRating

    history = {"tournaments": []}
    by_event = {}
    for event_id, white, black, result, handicap in (
        __import__("tournaments.models", fromlist=["Game"])
        .Game.objects.filter(event__federation=federation)
        .order_by("event__end", "event__code", "id")
        .values_list("event_id", "white_id", "black_id", "result", "handicap")
    ):
        by_event.setdefault(event_id, []).append((white, black, result, handicap))
    grade_of = dict(Player.objects.filter(federation=federation).values_list("id", "grade"))
    for event in events:
        games = by_event.get(event.pk, [])
        ids = sorted({p for g in games for p in g[:2]})
        history["tournaments"].append(
            {
                "id": event.code,
                "class": event.rating_class,
                "date": event.end.isoformat(),
                "players": [{"id": str(p), "grade": grade_of[p]} for p in ids],
                "games": [
                    {
                        "white": str(w),
                        "black": str(b),
                        "result": 1 if r == "1-0" else 0,
                        "handicap": h,
                    }
                    for w, b, r, h in games
                ],
            }
        )
    engine_only = _timed(lambda: egf.run_json(history))
    print(
        f"  comparison: the engine alone on the whole history in one call: {engine_only:.2f} s;"
        f" event ratings stored: {EventRating.objects.filter(event__federation=federation).count():,}"
    )


def main() -> None:
    if not _prepare_database():
        return
    rng = random.Random(7)
    parts = os.environ.get("BENCH_RUNS", "iccf,egf").split(",")  # e.g. BENCH_RUNS=iccf
    if "iccf" in parts:
        bench_iccf(rng)
    if "egf" in parts:
        bench_egf_history(rng)


if __name__ == "__main__":
    main()
