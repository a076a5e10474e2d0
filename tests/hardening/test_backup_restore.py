"""A pg_dump of the database restored into an empty database reproduces every published list's
digest: recomputed from the restored rows with the same function the runs use, and equal to the
digest stored at publication. The restored lists are still immutable (the triggers came along).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from types import SimpleNamespace

import psycopg
import pytest
from django.conf import settings
from django.db import connection

from federation.permissions import COMMAND_LINE
from ratings.services import publication, runs

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

LISTS = """SELECT l.id, r.engine, l.output_digest, l.run_id FROM ratings_ratinglist l
           JOIN ratings_ratingrun r ON r.id = l.run_id
           WHERE l.status IN ('published', 'superseded') ORDER BY l.id"""
ENTRIES = """SELECT player_id, rating, rd, published_rating, published_rd, games, provisional,
                    half_rating, listed FROM ratings_ratingentry WHERE rating_list_id = %s"""
EVENTS = """SELECT event_id, player_id, before, after, games FROM ratings_eventrating
            WHERE run_id = %s"""
NORMS = "SELECT event_id, player_id, title FROM ratings_solvingnorm WHERE run_id = %s"


def digests(cursor) -> dict[int, tuple[str, str]]:
    """Per published list: (stored digest, digest recomputed from its rows)."""
    cursor.execute(LISTS)
    out = {}
    for list_id, engine, stored, run_id in cursor.fetchall():
        cursor.execute(ENTRIES, [list_id])
        entries = [
            SimpleNamespace(
                player_id=p,
                rating=r,
                rd=rd,
                published_rating=pr,
                published_rd=prd,
                games=g,
                provisional=pv,
                half_rating=h,
                listed=ls,
            )
            for p, r, rd, pr, prd, g, pv, h, ls in cursor.fetchall()
        ]
        if engine == "import":  # a carried-over list: digest of ids, ratings and RDs
            recomputed = runs.canonical_digest(
                sorted((e.player_id, repr(e.rating), repr(e.rd)) for e in entries)
            )
        else:
            cursor.execute(EVENTS, [run_id])
            events = [
                SimpleNamespace(event_id=e, player_id=p, before=b, after=a, games=g)
                for e, p, b, a, g in cursor.fetchall()
            ]
            cursor.execute(NORMS, [run_id])
            norms = [
                SimpleNamespace(event_id=e, player_id=p, title=t) for e, p, t in cursor.fetchall()
            ]
            recomputed = runs._output_digest(
                SimpleNamespace(entries=entries, event_ratings=events, norms=norms)
            )
        out[list_id] = (stored, recomputed)
    return out


def _pg_env() -> dict:
    db = settings.DATABASES["default"]
    env = {
        **os.environ,
        "PGHOST": db["HOST"] or "127.0.0.1",
        "PGPORT": str(db["PORT"] or 5432),
        "PGUSER": db["USER"],
    }
    if db["PASSWORD"]:
        env["PGPASSWORD"] = db["PASSWORD"]
    return env


def test_dump_restored_into_an_empty_database_reproduces_the_published_digests(
    iccf_world, tmp_path
):
    if not (shutil.which("pg_dump") and shutil.which("pg_restore") and shutil.which("createdb")):
        pytest.skip("pg_dump, pg_restore or createdb is not installed")
    federation = iccf_world["federation"]
    for code in ("2026Q1", "2026Q2"):
        run = runs.run_now(federation=federation, period_code=code, by=COMMAND_LINE)
        publication.publish_list(list_id=run.rating_list.pk, by=COMMAND_LINE)
    with connection.cursor() as cursor:
        before = digests(cursor)
    assert len(before) == 3  # the imported starting list and two rated periods
    assert all(stored == recomputed for stored, recomputed in before.values()), before

    env, name = _pg_env(), settings.DATABASES["default"]["NAME"]
    dump, restored = tmp_path / "ratings.dump", f"{name}_restore_{os.getpid()}"
    subprocess.run(
        ["pg_dump", "--format=custom", "--no-owner", "--file", str(dump), name],
        env=env,
        check=True,
        capture_output=True,
        timeout=120,
    )
    subprocess.run(["dropdb", "--if-exists", restored], env=env, check=True, timeout=60)
    subprocess.run(["createdb", restored], env=env, check=True, timeout=60)
    try:
        subprocess.run(
            ["pg_restore", "--no-owner", "--exit-on-error", "--dbname", restored, str(dump)],
            env=env,
            check=True,
            capture_output=True,
            timeout=120,
        )
        with psycopg.connect(
            dbname=restored,
            host=env["PGHOST"],
            port=env["PGPORT"],
            user=env["PGUSER"],
            password=env.get("PGPASSWORD"),
        ) as conn:
            with conn.cursor() as cursor:
                after = digests(cursor)
            assert after == before
            with (
                conn.cursor() as cursor,
                pytest.raises(psycopg.errors.IntegrityConstraintViolation, match="immutable"),
            ):
                cursor.execute("UPDATE ratings_ratingentry SET rating = rating + 1")
    finally:
        subprocess.run(["dropdb", "--if-exists", restored], env=env, timeout=60)
