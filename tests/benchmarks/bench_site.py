"""Public-site latency on PostgreSQL behind gunicorn: 100,000 players, 2,000,000 history rows.

main():
  1. (re)creates the database BENCH_DATABASE_URL (default postgres://127.0.0.1/bench_site as the
     current user), migrates it and loads a seeded synthetic federation: 100,000 players on 20
     published quarterly lists (2,000,000 RatingEntry rows, ranks stored), 20 events with
     100,000 EventRating rows and 20,000 games;
  2. serves the site with gunicorn on 127.0.0.1 (sync workers, one per CPU);
  3. runs a bounded load (a fixed number of requests, a fixed number of client threads, loopback
     only) over the pages below, interleaved in one run, and prints median and p95 latency of
     each next to the floor: a minimal Django view measured in the same run.

Skips with the reason when PostgreSQL or gunicorn is not available. BENCH_REUSE=1 keeps a database
loaded by an earlier run; BENCH_REQUESTS and BENCH_CLIENTS size the load.
Usage: python -m tests.benchmarks.run site      (or: python -m tests.benchmarks.bench_site)
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from http.client import HTTPConnection
from pathlib import Path

from tests.benchmarks.report import emit

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = 100_000
LISTS = 20
EVENTS = 20
EVENT_PLAYERS = 5_000
GAMES_PER_EVENT = 1_000
SEED = 2026
REQUESTS_PER_PAGE = int(os.environ.get("BENCH_REQUESTS", "300"))
CLIENTS = int(os.environ.get("BENCH_CLIENTS", str(max(1, os.cpu_count() or 1))))
TARGET_MS = 50.0
FLOOR_FACTOR = 3.0
COUNTRIES = [
    "DE",
    "FR",
    "NL",
    "GB",
    "IT",
    "ES",
    "PL",
    "CZ",
    "SE",
    "RU",
    "US",
    "BR",
    "AR",
    "IN",
    "AT",
    "CH",
    "BE",
    "DK",
    "NO",
    "FI",
]
SYLLABLES = [
    "ka",
    "lo",
    "mi",
    "ner",
    "sta",
    "vo",
    "den",
    "ri",
    "bas",
    "tu",
    "gel",
    "han",
    "pe",
    "mor",
    "li",
    "zan",
    "ko",
    "wit",
    "ber",
    "sen",
]


def database_url() -> str:
    return os.environ.get("BENCH_DATABASE_URL", "postgres://127.0.0.1/bench_site")


# ---------------------------------------------------------------------------------------------
# Database


def _admin_dsn(url: str) -> tuple[str, str]:
    parsed = urllib.parse.urlparse(url)
    name = parsed.path.lstrip("/")
    admin = parsed._replace(path="/postgres").geturl()
    return admin, name


def recreate_database(url: str) -> None:
    import psycopg

    admin, name = _admin_dsn(url)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def _surname(rng: random.Random) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3))).capitalize()


def load() -> None:
    """Runs in a child process with DATABASE_URL set: migrate, then bulk-load with COPY."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings")
    django.setup()
    from datetime import UTC, date, datetime

    from django.core.management import call_command
    from django.db import connection

    from federation.models import Federation, Player
    from federation.names import fold
    from ratings.engines.core.rounding import half_up_int
    from ratings.models import EventRating, RatingEntry, RatingList, RatingPeriod, RatingRun
    from tests.benchmarks.copy_rows import copy_rows
    from tournaments.models import Event, Game

    call_command("migrate", verbosity=0)
    rng = random.Random(SEED)
    fed = Federation.objects.create(code="bench", name="Bench Federation", system="iccf")
    started = time.perf_counter()
    names = [(_surname(rng), _surname(rng)) for _ in range(PLAYERS)]
    copy_rows(
        Player,
        ["federation", "federation_player_id", "surname", "given_name", "country", "club"]
        + ["active", "surname_folded", "given_name_folded"],
        (
            (fed.pk, str(100000 + i), surname, given, rng.choice(COUNTRIES))
            + (f"Club {rng.randint(1, 300)}", rng.random() > 0.1, fold(surname), fold(given))
            for i, (surname, given) in enumerate(names)
        ),
    )
    ids = list(Player.objects.filter(federation=fed).order_by("id").values_list("id", flat=True))
    ratings = {pid: rng.gauss(1800, 200) for pid in ids}
    rds = {pid: rng.uniform(50, 150) for pid in ids}
    lists = []
    previous = None
    for k in range(LISTS):
        year, quarter = 2021 + (k + 1) // 4, (k + 1) % 4 + 1
        valid = date(year, 3 * quarter - 2, 1)
        period = RatingPeriod.objects.create(
            federation=fed,
            code=f"{year}Q{quarter}",
            starts_on=date(year - 1, 1, 1),
            ends_on=date(year - 1, 12, 31),
            list_published_on=valid,
            valid_from=valid,
        )
        run = RatingRun.objects.create(federation=fed, period=period, status="succeeded")
        rating_list = RatingList.objects.create(
            federation=fed, period=period, run=run, previous=previous, entry_count=len(ids)
        )
        before = dict(ratings)
        for pid in ids:
            ratings[pid] += rng.gauss(0, 15)
            rds[pid] = min(250.0, max(30.0, rds[pid] + rng.uniform(-5, 4)))
        ranked = sorted(ids, key=lambda p: -ratings[p])
        copy_rows(
            RatingEntry,
            ["rating_list", "player", "rating", "rd", "published_rating", "published_rd"]
            + ["games", "total_games", "change", "previous_rating", "rank"],
            (
                (rating_list.pk, pid, ratings[pid], rds[pid])
                + (half_up_int(ratings[pid]), half_up_int(rds[pid]))
                + (rng.randint(0, 12), rng.randint(12, 400))
                + ((None, None) if previous is None else (ratings[pid] - before[pid], before[pid]))
                + (rank,)
                for rank, pid in enumerate(ranked, start=1)
            ),
        )
        lists.append((rating_list, run, valid, before))
        previous = rating_list
    events = []
    for k, (_list, run, valid, before) in enumerate(lists[:EVENTS]):
        event = Event.objects.create(
            federation=fed,
            name=f"Bench Open {k}",
            code=f"BO{k:02d}",
            kind="individual",
            status="rated",
            start=date(valid.year - 1, 2, 1),
            end=date(valid.year - 1, 11, 30),
        )
        events.append(event)
        players = rng.sample(ids, EVENT_PLAYERS)
        copy_rows(
            EventRating,
            ["run", "event", "player", "before", "after", "games", "score"],
            ((run.pk, event.pk, pid, before[pid], before[pid] + 3.0, 4, 2.5) for pid in players),
        )
        pairs = [rng.sample(players, 2) for _ in range(GAMES_PER_EVENT)]
        copy_rows(
            Game,
            ["event", "round", "white", "black", "result", "handicap"],
            (
                (event.pk, 1 + g % 9, a, b, rng.choice(["1-0", "1/2", "0-1"]), 0)
                for g, (a, b) in enumerate(pairs)
            ),
        )
    RatingList.objects.filter(federation=fed).update(
        status="published", published_at=datetime.now(UTC)
    )
    with connection.cursor() as cur:
        # Settle the freshly loaded tables before measuring: statistics, visibility map (no
        # autovacuum pass during the run) and a checkpoint (no write burst during the run).
        cur.execute("VACUUM ANALYZE")
        # CHECKPOINT needs superuser or pg_checkpoint; the bench works without it.
        with contextlib.suppress(Exception):
            cur.execute("CHECKPOINT")
        cur.execute("SELECT count(*) FROM ratings_ratingentry")
        entries = cur.fetchone()[0]
    print(
        json.dumps(
            {
                "players": len(ids),
                "history_rows": entries,
                "latest": lists[-1][0].period.code,
                "load_seconds": round(time.perf_counter() - started, 1),
            }
        )
    )


# ---------------------------------------------------------------------------------------------
# Server and load


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(env: dict, port: int, workers: int) -> subprocess.Popen:
    gunicorn = [
        sys.executable,
        "-m",
        "gunicorn",
        "federation.wsgi:application",
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        str(workers),
        "--worker-class",
        "sync",
        "--log-level",
        "warning",
    ]
    proc = subprocess.Popen(gunicorn, cwd=ROOT, env=env, start_new_session=True)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            conn = HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/bench-floor/")
            if conn.getresponse().status == 200:
                return proc
        except OSError:
            time.sleep(0.2)
    stop_server(proc)
    raise RuntimeError("gunicorn did not come up")


def stop_server(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=15)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        os.killpg(proc.pid, signal.SIGKILL)


def _get(port: int, url: str) -> tuple[float, int, int]:
    started = time.perf_counter()
    conn = HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", url)
    response = conn.getresponse()
    body = response.read()
    elapsed = (time.perf_counter() - started) * 1000
    conn.close()
    return elapsed, response.status, len(body)


def bounded_load(port: int, requests: list[tuple[str, str]], clients: int) -> dict[str, list]:
    """Each client thread takes the next request from a shared, shuffled list until it is empty."""
    results: dict[str, list[float]] = {name: [] for name, _ in requests}
    errors: list[str] = []
    lock = threading.Lock()
    queue = list(requests)

    def worker():
        while True:
            with lock:
                if not queue:
                    return
                name, url = queue.pop()
            ms, status, _ = _get(port, url)
            with lock:
                if status != 200:
                    errors.append(f"{status} {url}")
                results[name].append(ms)

    threads = [threading.Thread(target=worker) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise RuntimeError(f"{len(errors)} failed requests, e.g. {errors[:3]}")
    return results


# Each page's BENCH name (None: printed in the table only). The page cache is off in the
# benchmark's settings, so every request renders cold, the same URL or not.
FLOOR = "floor (minimal Django view)"
BENCH_NAMES = {
    FLOOR: "minimal_view_p95",
    "list, first page": "page_list_cold_p95",
    "list, deep page (rank > 90,000)": "page_deep_cold_p95",
    "player page (20 lists of history)": "page_player_cold_p95",
    "API list, first page": "api_list_cold_p95",
}


def _pages(period: str, rng: random.Random) -> dict[str, callable]:
    base = f"/federations/bench/lists/{period}/"
    return {
        FLOOR: lambda: "/bench-floor/",
        "list, first page": lambda: base,
        "list, deep page (rank > 90,000)": lambda: f"{base}?after={rng.randint(90_000, 99_900)}",
        "list, by rating ascending, deep": lambda: (
            f"{base}?sort=rating&after={rng.randint(50_000, 60_000)}"
        ),
        "list, filtered DE, sorted by name": lambda: f"{base}?country=DE&sort=name",
        "list, filtered DE, by name, page 40": lambda: f"{base}?country=DE&sort=name&page=40",
        "list, filtered DE + search 'Ka'": lambda: f"{base}?country=DE&q=Ka",
        "player page (20 lists of history)": lambda: (
            f"/federations/bench/players/{100000 + rng.randrange(PLAYERS)}/"
        ),
        "API list, first page": lambda: f"/api/v1/federations/bench/lists/{period}/",
    }


# The CSV export's floor: PostgreSQL writing the same rows and columns as CSV itself.
COPY_SQL = """
COPY (
  SELECT e.rank, p.federation_player_id, p.surname, p.given_name, p.country, p.club,
         e.published_rating, e.published_rd, e.games, e.published_change,
         CASE WHEN e.provisional THEN 'P' WHEN e.half_rating THEN 'H' ELSE '' END
  FROM ratings_ratingentry e
  JOIN federation_player p ON p.id = e.player_id
  JOIN ratings_ratinglist l ON l.id = e.rating_list_id
  JOIN ratings_ratingperiod r ON r.id = l.period_id
  WHERE r.code = %s AND l.status = 'published'
  ORDER BY e.rank
) TO STDOUT WITH (FORMAT csv, HEADER)
"""


def _download_seconds(port: int, url: str) -> tuple[float, int]:
    conn = HTTPConnection("127.0.0.1", port, timeout=120)
    started = time.perf_counter()
    conn.request("GET", url)
    response = conn.getresponse()
    size = len(response.read())
    elapsed = time.perf_counter() - started
    conn.close()
    if response.status != 200:
        raise RuntimeError(f"{response.status} {url}")
    return elapsed, size


def _copy_seconds(url: str, period: str) -> tuple[float, int]:
    import psycopg

    with psycopg.connect(url) as conn, conn.cursor() as cur:
        started = time.perf_counter()
        size = 0
        with cur.copy(COPY_SQL, (period,)) as copy:
            for chunk in copy:
                size += len(chunk)
        return time.perf_counter() - started, size


def measure_export(port: int, url: str, period: str) -> None:
    """The whole list's CSV download, the file written at publication (ratings.web.
    published_files), against COPY of the same rows (median of 3, alternating). The loader
    bypasses publish_list, so a first, untimed download writes the file as publication would."""
    download = f"/federations/bench/lists/{period}/export.csv"
    written, _size = _download_seconds(port, download)
    export, floor = [], []
    for _ in range(3):
        export.append(_download_seconds(port, download))
        floor.append(_copy_seconds(url, period))
    value = statistics.median(t for t, _ in export)
    vs_value = statistics.median(t for t, _ in floor)
    print(
        f"CSV export of the whole list, its file served: {value:.3f} s ({export[0][1]:,} bytes; "
        f"written in {written:.3f} s); COPY TO STDOUT of the same rows: {vs_value:.3f} s "
        f"({floor[0][1]:,} bytes)"
    )
    emit("csv_export_100k", value * 1e3, "ms", "copy_to_stdout_100k", vs_value * 1e3)


def measure(port: int, period: str) -> dict[str, list[float]]:
    rng = random.Random(SEED)
    pages = _pages(period, rng)
    warm = [(name, make()) for name, make in pages.items() for _ in range(10)]
    bounded_load(port, warm, CLIENTS)
    requests = [(name, make()) for name, make in pages.items() for _ in range(REQUESTS_PER_PAGE)]
    rng.shuffle(requests)
    return bounded_load(port, requests, CLIENTS)


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20, method="inclusive")[-1]


def report(results: dict[str, list[float]]) -> bool:
    """One line per page, floor first: median and p95, p95 against the floor, both targets."""
    floor_name = FLOOR
    floor_p95 = _p95(results[floor_name])
    ok = True
    print(
        f"{'page':40} {'median ms':>10} {'p95 ms':>8} {'p95/floor':>10} "
        f"{'p95<' + str(int(TARGET_MS)) + 'ms':>9} {'<=' + str(int(FLOOR_FACTOR)) + 'x floor':>11}"
    )
    names = [floor_name] + [n for n in results if n != floor_name]
    for name in names:
        values = results[name]
        p95 = _p95(values)
        ratio = p95 / floor_p95
        fast = p95 < TARGET_MS
        near = ratio <= FLOOR_FACTOR
        ok &= name == floor_name or (fast and near)
        print(
            f"{name:40} {statistics.median(values):10.2f} {p95:8.2f} {ratio:9.2f}x "
            f"{'ok' if fast else 'MISSED':>9} {'ok' if near else 'MISSED':>11}"
        )
    print(
        f"({REQUESTS_PER_PAGE} requests per page interleaved, {CLIENTS} client threads, "
        "loopback; p95 = 95th percentile)"
    )
    for name, bench_name in BENCH_NAMES.items():
        if name != floor_name:
            emit(bench_name, _p95(results[name]), "ms", BENCH_NAMES[floor_name], floor_p95)
    return ok


def main() -> None:
    try:
        import psycopg  # noqa: F401
    except ImportError:
        print("bench_site skipped: psycopg is not installed")
        return
    if shutil.which("gunicorn") is None and not _has_module("gunicorn"):
        print("bench_site skipped: gunicorn is not installed")
        return
    url = database_url()
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DEBUG": "0",
        "CONN_MAX_AGE": "600",
        "PYTHONPATH": str(ROOT),
        # the files written at publication (the CSV export): a directory of this run
        "MEDIA_ROOT": tempfile.mkdtemp(prefix="bench-media-"),
    }
    env.pop("PRODUCTION", None)
    loaded = _reusable(url) if os.environ.get("BENCH_REUSE") == "1" else None
    if loaded is not None:
        print(
            f"reusing {loaded['players']:,} players and {loaded['history_rows']:,} history "
            f"rows already in {url} (BENCH_REUSE=1)"
        )
    else:
        try:
            recreate_database(url)
        except Exception as exc:  # no server, no rights: say why and go on with the others
            print(f"bench_site skipped: cannot create the PostgreSQL database {url}: {exc}")
            return
        started = time.perf_counter()
        out = subprocess.run(
            [sys.executable, "-m", "tests.benchmarks.bench_site", "--load"],
            cwd=ROOT,
            env={**env, "DJANGO_SETTINGS_MODULE": "federation.settings"},
            capture_output=True,
            text=True,
            check=False,
        )
        if out.returncode != 0:
            raise RuntimeError(f"loading failed: {out.stderr[-2000:]}")
        loaded = json.loads(out.stdout.strip().splitlines()[-1])
        print(
            f"loaded {loaded['players']:,} players and {loaded['history_rows']:,} history "
            f"rows in {time.perf_counter() - started:.0f} s (PostgreSQL, COPY)"
        )
    port = _free_port()
    workers = max(1, os.cpu_count() or 1)
    server = start_server(
        {**env, "DJANGO_SETTINGS_MODULE": "tests.benchmarks.site_settings"}, port, workers
    )
    try:
        results = measure(port, loaded["latest"])
        measure_export(port, url, loaded["latest"])
    finally:
        stop_server(server)
    print(f"gunicorn: {workers} sync workers on 127.0.0.1:{port}")
    report(results)


def _reusable(url: str) -> dict | None:
    """The figures of an earlier load of the same size, or None."""
    import psycopg

    try:
        with psycopg.connect(url) as conn:
            players = conn.execute("SELECT count(*) FROM federation_player").fetchone()[0]
            rows = conn.execute("SELECT count(*) FROM ratings_ratingentry").fetchone()[0]
            latest = conn.execute(
                "SELECT p.code FROM ratings_ratingperiod p ORDER BY p.valid_from DESC LIMIT 1"
            ).fetchone()[0]
    except Exception:
        return None
    if players != PLAYERS or rows != PLAYERS * LISTS:
        return None
    return {"players": players, "history_rows": rows, "latest": latest}


def _has_module(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(name) is not None


if __name__ == "__main__":
    if sys.argv[1:] == ["--load"]:
        load()
    else:
        main()
