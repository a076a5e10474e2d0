"""A bounded soak on loopback: gunicorn serving the site, rating runs executing meanwhile, N client
threads requesting pages for a few minutes; prints errors and latency figures.

    DATABASE_URL=postgres://…/scratch python -m tests.hardening.soak --prepare \
        --seconds 180 --clients 8 --discover --rate iccf

``--discover`` requests the public pages and API of every federation (``--paths`` names them
instead). ``--prepare`` migrates, seeds the demo data and rates it (use a scratch database: the soak's runs
add draft lists). ``--rate CODE`` re-rates that federation's latest period again and again while
the load runs (``manage.py rate``), so every request meets a run in progress. Not a test: the
figures depend on the machine. Standard library only; only 127.0.0.1 is ever contacted.
"""

from __future__ import annotations

import argparse
import http.client
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HOST = "127.0.0.1"


@dataclass
class Tally:
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    failures: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, path: str, status: int, seconds: float) -> None:
        with self.lock:
            self.latencies[path].append(seconds)
            self.statuses[status] += 1
            if status >= 500:
                self.failures.append(f"{path}: HTTP {status}")

    def fail(self, path: str, error: Exception) -> None:
        with self.lock:
            self.failures.append(f"{path}: {type(error).__name__}: {error}")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def _manage(*args: str, env: dict) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True)


def _wait_until_serving(port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((HOST, port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"gunicorn did not start on {HOST}:{port}")


def _client(port: int, paths: list[str], stop: threading.Event, tally: Tally, offset: int):
    connection = http.client.HTTPConnection(HOST, port, timeout=30)
    i = offset
    while not stop.is_set():
        path = paths[i % len(paths)]
        i += 1
        started = time.perf_counter()
        try:
            connection.request("GET", path, headers={"Host": HOST})
            response = connection.getresponse()
            response.read()
            tally.add(path, response.status, time.perf_counter() - started)
        except (OSError, http.client.HTTPException) as error:
            tally.fail(path, error)
            connection.close()
            connection = http.client.HTTPConnection(HOST, port, timeout=30)
    connection.close()


def _rerate(code: str, stop: threading.Event, env: dict, counter: list[int]) -> None:
    while not stop.is_set():
        done = subprocess.run(
            [sys.executable, "manage.py", "rate", code, _latest(code, env)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
        )
        counter.append(done.returncode)


def _latest(code: str, env: dict) -> str:
    script = (
        "import django; django.setup(); from ratings.models import RatingList; "
        f"l = RatingList.objects.filter(federation__code={code!r}, status='published')"
        ".order_by('-period__valid_from').select_related('period').first(); "
        "print(l.period.code)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={**env, "DJANGO_SETTINGS_MODULE": "federation.settings"},
    )
    return done.stdout.strip()


DISCOVER = """
import django; django.setup()
from django.urls import reverse as r
from federation.models import Federation
from ratings.models import RatingList
from tournaments.models import Event
paths = ["/", r("ratings:whatif_index"), r("api:index"), r("api:federations")]
for f in Federation.objects.order_by("code"):
    latest = (RatingList.objects.filter(federation=f, status="published")
              .order_by("-period__valid_from").select_related("period").first())
    # The federation page answers 302 (to its latest list) by design.
    paths += [r("ratings:federation", args=[f.code]), r("api:lists", args=[f.code])]
    if latest is None:
        continue
    period = latest.period.code
    paths += [r("ratings:list", args=[f.code, period]),
              r("ratings:list", args=[f.code, period]) + "?page=2",
              r("ratings:list_export", args=[f.code, period, "csv"]),
              r("ratings:list_diff", args=[f.code, period]),
              r("api:list", args=[f.code, period]),
              r("api:list", args=[f.code, period]) + "?limit=50"]
    for entry in latest.entries.select_related("player").order_by("rank")[:3]:
        pid = entry.player.federation_player_id
        paths.append(r("api:players", args=[f.code]) + "?q=" + entry.player.surname[:3])
        paths += [r("ratings:player", args=[f.code, pid]), r("api:player", args=[f.code, pid]),
                  r("api:history", args=[f.code, pid])]
    event = Event.objects.filter(federation=f, event_ratings__isnull=False).first()
    if event is not None:
        paths.append(r("ratings:event", args=[f.code, event.code]))
print(",".join(paths))
"""


def discover(env: dict) -> str:
    """The public pages and API URLs of the database's federations (latest published lists,
    top players, a rated event)."""
    done = subprocess.run(
        [sys.executable, "-c", DISCOVER],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={**env, "DJANGO_SETTINGS_MODULE": "federation.settings"},
    )
    return done.stdout.strip()


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def report(tally: Tally, seconds: float, runs: list[int]) -> int:
    total = sum(tally.statuses.values())
    print(
        f"\n{total} responses in {seconds:.0f} s ({total / seconds:.1f}/s), status codes "
        f"{dict(sorted(tally.statuses.items()))}; rating runs finished meanwhile: {len(runs)} "
        f"({sum(1 for r in runs if r == 0)} succeeded)"
    )
    print(f"{'path':60} {'n':>7} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for path, values in sorted(tally.latencies.items()):
        ms = [v * 1000 for v in values]
        print(
            f"{path:40} {len(ms):7} {statistics.median(ms):8.1f} {_percentile(ms, 0.9):8.1f} "
            f"{_percentile(ms, 0.99):8.1f} {max(ms):8.1f}"
        )
    groups = {
        "all public pages": [
            v for p, vs in tally.latencies.items() if not p.startswith("/api/") for v in vs
        ],
        "all API": [v for p, vs in tally.latencies.items() if p.startswith("/api/") for v in vs],
    }
    for name, values in groups.items():
        if values:
            ms = [v * 1000 for v in values]
            print(
                f"{name:60} {len(ms):7} {statistics.median(ms):8.1f} "
                f"{_percentile(ms, 0.9):8.1f} {_percentile(ms, 0.99):8.1f} {max(ms):8.1f}"
            )
    print(f"errors: {len(tally.failures)}")
    for failure in tally.failures[:20]:
        print("  " + failure)
    return 1 if tally.failures else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=180)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--paths", default="/,/admin/login/")
    parser.add_argument(
        "--discover",
        action="store_true",
        help="request the public pages and API of the database's federations",
    )
    parser.add_argument("--rate", help="federation code to re-rate during the soak")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--prepare", action="store_true", help="migrate, seed and rate first")
    args = parser.parse_args(argv)
    env = {**os.environ, "DEBUG": "0", "ALLOWED_HOSTS": HOST, "LOG_LEVEL": "WARNING"}
    if args.prepare:
        _manage("migrate", "--noinput", env=env)
        _manage("seed_demo", "--if-empty", env=env)
        _manage("rate_demo", env=env)
    port = _free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "federation.wsgi:application",
            "--bind",
            f"{HOST}:{port}",
            "--workers",
            str(args.workers),
            "--threads",
            "2",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    stop, tally, runs = threading.Event(), Tally(), []
    try:
        _wait_until_serving(port)
        chosen = discover(env) if args.discover else args.paths
        paths = [p.strip() for p in chosen.split(",") if p.strip()]
        print(f"{len(paths)} paths, {args.clients} clients, {args.seconds:.0f} s")
        threads = [
            threading.Thread(target=_client, args=(port, paths, stop, tally, i))
            for i in range(args.clients)
        ]
        if args.rate:
            threads.append(threading.Thread(target=_rerate, args=(args.rate, stop, env, runs)))
        started = time.monotonic()
        for thread in threads:
            thread.start()
        time.sleep(args.seconds)
        stop.set()
        for thread in threads:
            thread.join(120)
        return report(tally, time.monotonic() - started, runs)
    finally:
        server.terminate()
        server.wait(30)


if __name__ == "__main__":
    sys.exit(main())
