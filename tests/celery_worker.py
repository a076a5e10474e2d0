"""The one way the tests start a real Celery worker process (the rating queue, one child)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

WORKER_ARGV = (
    *(sys.executable, "-m", "celery", "-A", "federation", "worker", "-Q", "ratings"),
    *("-c", "1", "-P", "prefork", "--without-gossip", "--without-mingle", "--without-heartbeat"),
    *("-l", "info"),
)


def start_worker(env: dict, log) -> subprocess.Popen:
    """A worker in the project root with ``env``, writing to the open file ``log``."""
    return subprocess.Popen(WORKER_ARGV, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
