"""The one way the tests start a real Celery worker process (the rating queue, one child).

``python -m tests.celery_worker`` is the worker itself: Celery's own command, after installing
the fault pause the test asked for (tests.fault_pause) in the parent, which the child inherits
when the pool forks.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

from tests.fault_pause import Pause

ROOT = Path(__file__).resolve().parents[1]
PAUSE_VARIABLE = "TEST_WORKER_FAULT_PAUSE"

CELERY_ARGV = (
    *("-A", "federation", "worker", "-Q", "ratings"),
    *("-c", "1", "-P", "prefork", "--without-gossip", "--without-mingle", "--without-heartbeat"),
    *("-l", "info"),
)
WORKER_ARGV = (sys.executable, "-m", "tests.celery_worker", *CELERY_ARGV)


def start_worker(env: dict, log, pause: Pause | None = None) -> subprocess.Popen:
    """A worker in the project root with ``env``, writing to the open file ``log``; with
    ``pause``, its first call of ``pause.after`` pauses (tests.fault_pause)."""
    env = {k: v for k, v in env.items() if k != PAUSE_VARIABLE}
    if pause is not None:
        env[PAUSE_VARIABLE] = pause.as_env()
    return subprocess.Popen(WORKER_ARGV, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)


def _main() -> None:
    pause = os.environ.get(PAUSE_VARIABLE)
    if pause:
        import django

        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings")
        django.setup()
        from tests.fault_pause import paused

        wanted = Pause.from_env(pause)
        module_name, name = wanted.after.rsplit(".", 1)
        setattr(importlib.import_module(module_name), name, paused(wanted))
    from celery.bin.celery import main

    sys.argv = ["celery", *CELERY_ARGV]
    sys.exit(main())


if __name__ == "__main__":
    _main()
