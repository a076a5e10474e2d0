"""``manage.py check_event`` run as a command line on its own SQLite database."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SETUP = """
from datetime import date
from tests.tournaments import acceptability_world as w
fed = w.federation("egf", "egf")
people = w.officials(fed)
w.egf_event(fed, "T1", rating_class="A")  # TA 50 min: at most class B
ok = w.egf_event(fed, "T2", rating_class="B")
w.attest(ok, people["officer"], "EGF-RECOGNIZED")
w.egf_event(fed, "DUP")
w.egf_event(w.federation("egf2", "egf"), "DUP", rating_class="B")
"""


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    db = tmp_path_factory.mktemp("cli") / "cli.sqlite3"
    environment = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{db}",
        "DJANGO_SETTINGS_MODULE": "federation.settings",
    }
    for args in (["migrate", "--noinput", "-v0"], ["shell", "-c", SETUP]):
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=environment,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
    return environment


def run(env, *args):
    return subprocess.run(
        [sys.executable, "manage.py", "check_event", *args, "--today", "2026-06-30"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_failing_event_exits_1_and_prints_the_report(env):
    done = run(env, "T1")
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == (
        "T1 Event T1 (federation egf, egf rules, status submitted) on 2026-06-30: fails"
    )
    assert any(line.split()[:2] == ["fail", "EGF-CLASS"] for line in lines)
    assert any(line.split()[:2] == ["needs_attestation", "EGF-RECOGNIZED"] for line in lines)
    assert done.stderr == ""


def test_acceptable_event_exits_0_and_json_has_every_rule(env):
    done = run(env, "T2", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["event"]["code"] == "T2" and report["acceptable"] is True
    assert [r["rule_id"] for r in report["results"]] == [
        "EGF-DATE",
        "EGF-TIME",
        "EGF-CLASS",
        "EGF-RECOGNIZED",
    ]
    assert report["results"][2]["message"] == (
        "class B: basic time 40 min, adjusted time 50 min (fischer) meets 30 / 50 min"
    )
    assert [a["rule_id"] for a in report["attestations"]] == ["EGF-RECOGNIZED"]
    assert report["attestations"][0]["by"] == "egf-officer"


def test_json_of_a_failing_event_names_the_blocking_rules(env):
    done = run(env, "T1", "--json")
    assert done.returncode == 1
    report = json.loads(done.stdout)
    assert report["blocking"] == ["EGF-CLASS", "EGF-RECOGNIZED"]
    assert report["verdict"] == "fails"


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["NOPE"], "CommandError: no event with code 'NOPE'"),
        (
            ["DUP"],
            "CommandError: 2 events have code 'DUP' (federations egf, egf2); name one with "
            "--federation",
        ),
    ],
)
def test_missing_or_ambiguous_event_exits_2_with_one_line(env, args, error):
    done = run(env, *args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == [error]


def test_federation_picks_one_of_several_events_with_the_same_code(env):
    done = run(env, "DUP", "--federation", "egf2", "--json")
    assert json.loads(done.stdout)["event"]["federation"] == "egf2"
    assert done.returncode == 1  # recognition not attested
