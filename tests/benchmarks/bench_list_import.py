"""Player lists at scale (issue 16 item 6), each figure beside a comparison from the same run:

1. the real EGD world list (43,965 players) imported with --publish into an empty federation on
   PostgreSQL, vs a raw COPY of the same player rows (what parsing, checking, the list and its
   publication add); then the second, no-op import, vs parsing the file alone;
2. a generated FIDE XML of 1,000,000 players read in a child process: time vs reading the file
   without parsing, and the child's peak memory vs reading a 10,000-player file (flat memory
   means a ratio near 1); then the same file imported into PostgreSQL (COPY as it is read), its
   peak memory vs the 10,000-player import.

Needs PostgreSQL on 127.0.0.1 (BENCH_DATABASE_URL overrides; its own database fedratings_lists);
prints 'skipped' with the reason otherwise. BENCH_FIDE_PLAYERS sizes the generated file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from tests.benchmarks.report import emit as bench

DB_NAME = "fedratings_lists"
DEFAULT_URL = f"postgres://postgres@127.0.0.1:5432/{DB_NAME}"
ROOT = Path(__file__).resolve().parents[2]


def _psql(sql: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", sql], capture_output=True, text=True
    )


def _child(task: str, *args: str) -> dict:
    """Run one measurement in a fresh process (its own peak memory, its own Django setup)."""
    env = {**os.environ, "DATABASE_URL": os.environ.get("BENCH_DATABASE_URL", DEFAULT_URL)}
    env.pop("REDIS_URL", None)
    done = subprocess.run(
        [sys.executable, "-m", "tests.benchmarks.bench_list_import", task, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{task} failed: {done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def write_fide_xml(path: Path, count: int) -> None:
    with path.open("w", encoding="utf-8") as out:
        out.write('<?xml version="1.0" encoding="utf-8"?>\n<playerslist>\n')
        for i in range(count):
            out.write(
                f"<player><fideid>{1_000_000 + i}</fideid><name>Surname{i}, Given</name>"
                f"<country>GER</country><sex>M</sex><title></title><w_title></w_title>"
                f"<o_title></o_title><foa_title></foa_title><rating>{1000 + i % 1800}</rating>"
                f"<games>{i % 9}</games><k>20</k><birthday>{1950 + i % 60}</birthday>"
                f"<flag></flag></player>\n"
            )
        out.write("</playerslist>\n")


def main() -> None:
    from tests.realdata_files import realdata

    if "BENCH_DATABASE_URL" not in os.environ:
        dropped = _psql(f"DROP DATABASE IF EXISTS {DB_NAME}")
        if dropped.returncode != 0:
            print(f"skipped: PostgreSQL not reachable ({dropped.stderr.strip()})")
            return
        _psql(f"CREATE DATABASE {DB_NAME}")
    world = realdata("egd_world_list_2018-07-01.txt")
    if world.exists():
        result = _child("egd", str(world))
        bench("egd_world_list_import", result["import"], "s", "raw_copy_of_players", result["copy"])
        bench("egd_world_list_second_import", result["again"], "s", "parse_only", result["parse"])
        # CPU, which a busy machine cannot inflate: this process's, and with the database
        # backend's (read from /proc) the whole import's, vs the raw COPY's
        bench(
            "egd_world_list_import_cpu", result["cpu"], "s", "parse_only_cpu", result["parse_cpu"]
        )
        bench(
            "egd_world_list_import_cpu_with_database",
            result["total_cpu"],
            "s",
            "raw_copy_cpu_with_database",
            result["copy_cpu"],
        )
    else:
        print(f"skipped the EGD world list: {world} is absent")
    count = int(os.environ.get("BENCH_FIDE_PLAYERS", "1000000"))
    with tempfile.TemporaryDirectory() as folder:
        big, small = Path(folder) / "standard_jan26frl_xml.xml", Path(folder) / "small.xml"
        started = time.perf_counter()
        write_fide_xml(big, count)
        write_fide_xml(small, 10_000)
        print(
            f"generated {count:,} players, {big.stat().st_size / 1e6:.0f} MB, "
            f"in {time.perf_counter() - started:.1f} s"
        )
        parsed, read_only, small_parse = (
            _child("parse", str(big)),
            _child("read", str(big)),
            _child("parse", str(small)),
        )
        assert parsed["rows"] == count, parsed
        bench(
            f"fide_xml_{count}_parse",
            parsed["seconds"],
            "s",
            "read_without_parsing",
            read_only["seconds"],
        )
        bench(
            f"fide_xml_{count}_parse_peak_rss",
            parsed["rss_mb"],
            "MB",
            "fide_xml_10000_parse_peak_rss",
            small_parse["rss_mb"],
        )
        imported = _child("fide", str(big), "big")
        small_import = _child("fide", str(small), "small")
        bench(
            f"fide_xml_{count}_import_postgres",
            imported["seconds"],
            "s",
            "parse_only",
            parsed["seconds"],
        )
        bench(
            f"fide_xml_{count}_import_peak_rss",
            imported["rss_mb"],
            "MB",
            "fide_xml_10000_import_peak_rss",
            small_import["rss_mb"],
        )


# ------------------------------------------------------------------- measurements (child side)


def _peak_rss_mb() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _django():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _server_cpu(connection):
    """CPU seconds used so far by this connection's PostgreSQL backend (same machine: /proc)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    ticks = os.sysconf("SC_CLK_TCK")

    def used() -> float:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / ticks  # utime + stime

    return used


def child_egd(path: str) -> dict:
    _django()
    from django.db import connection

    from federation.models import Federation, Player
    from federation.permissions import COMMAND_LINE
    from ratings.persistence.writers import bulk_insert
    from ratings.services.imports import PLAYER_COLUMNS, import_player_list
    from tournaments.formats import egd_list
    from tournaments.formats.player_lists import collect

    world = Path(path)
    run = os.getpid()  # codes of their own: BENCH_DATABASE_URL may name a database used before
    federation = Federation.objects.create(code=f"egd-{run}", name="EGD bench", system="egf")
    server = _server_cpu(connection)
    started, cpu, server_cpu = time.perf_counter(), time.process_time(), server()
    import_player_list(
        federation=federation,
        source=lambda: world.open("rb"),
        filename=world.name,
        publish=True,
        by=COMMAND_LINE,
    )
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    server_cpu = server() - server_cpu
    started = time.perf_counter()
    import_player_list(
        federation=federation,
        source=lambda: world.open("rb"),
        filename=world.name,
        publish=True,
        by=COMMAND_LINE,
    )
    again = time.perf_counter() - started
    started, parse_cpu = time.perf_counter(), time.process_time()
    with world.open("rb") as stream:
        rows = collect(egd_list.read_world_list(stream)).rows
    parse, parse_cpu = time.perf_counter() - started, time.process_time() - parse_cpu
    # The same player rows COPYed raw into another federation: the floor of any import.
    other = Federation.objects.create(code=f"copy-{run}", name="EGD copy", system="egf")
    started, copy_cpu, copy_server = time.perf_counter(), time.process_time(), server()
    bulk_insert(
        Player,
        PLAYER_COLUMNS,
        (
            (other.pk, r.player_id, r.surname, r.given_name, "", "", "", r.club, r.grade, "")
            + (True, "2026-01-01 00:00:00+00", "2026-01-01 00:00:00+00")
            for r in rows
        ),
    )
    copy = time.perf_counter() - started
    copy_cpu = time.process_time() - copy_cpu + server() - copy_server
    assert connection.vendor == "postgresql"
    return {
        "import": seconds,
        "cpu": cpu,
        "total_cpu": cpu + server_cpu,
        "copy_cpu": copy_cpu,
        "again": again,
        "parse": parse,
        "parse_cpu": parse_cpu,
        "copy": copy,
    }


def child_parse(path: str) -> dict:
    from tournaments.formats import fide_list
    from tournaments.formats.player_lists import ListRow

    started = time.perf_counter()
    with open(path, "rb") as stream:
        rows = sum(1 for item in fide_list.read_xml(stream) if isinstance(item, ListRow))
    return {"seconds": time.perf_counter() - started, "rows": rows, "rss_mb": _peak_rss_mb()}


def child_read(path: str) -> dict:
    started = time.perf_counter()
    with open(path, "rb") as stream:
        while stream.read(1 << 16):
            pass
    return {"seconds": time.perf_counter() - started, "rss_mb": _peak_rss_mb()}


def child_fide(path: str, code: str) -> dict:
    _django()
    from federation.models import Federation
    from federation.permissions import COMMAND_LINE
    from ratings.services.imports import import_player_list

    federation = Federation.objects.create(
        code=f"fide-{code}-{os.getpid()}", name=code, system="iccf"
    )
    source = Path(path)
    started = time.perf_counter()
    preview = import_player_list(
        federation=federation,
        source=lambda: source.open("rb"),
        filename=source.name,
        fmt="fide-xml",
        valid_from=date(2026, 1, 1),
        by=COMMAND_LINE,
    )
    return {
        "seconds": time.perf_counter() - started,
        "rows": preview.rows_read,
        "rss_mb": _peak_rss_mb(),
    }


if __name__ == "__main__":
    if len(sys.argv) == 1:
        main()
    else:
        task, *rest = sys.argv[1:]
        tasks = {"egd": child_egd, "parse": child_parse, "read": child_read, "fide": child_fide}
        print(json.dumps(tasks[task](*rest)))
