"""Pausing a service mid-transaction, for the fault tests: the production code knows nothing of it.

A pause wraps one function the service calls before it commits: after the function returns, the
first caller in any process creates the marker file (writing its pid, so a test can kill it) and
sleeps; later callers, finding the marker, go on. In the test process a test installs it with
``monkeypatch``; a Celery worker gets it from ``tests.celery_worker`` (``pause=``), which installs
it before the worker forks its child.
"""

from __future__ import annotations

import functools
import importlib
import os
import time
from dataclasses import dataclass
from pathlib import Path

# A run has written its list, entries and record, inside its still open transaction.
AFTER_RUN_WRITES = "ratings.persistence.writers.write_record"
# A publication has flipped the list's status, inside its still open transaction.
AFTER_PUBLICATION_WRITES = "ratings.services.input_watch.notice_published"


@dataclass(frozen=True)
class Pause:
    after: str  # dotted path of the function the pause follows
    marker: Path
    seconds: float

    def as_env(self) -> str:
        return f"{self.after}|{self.marker}|{self.seconds}"

    @classmethod
    def from_env(cls, value: str) -> Pause:
        after, marker, seconds = value.split("|")
        return cls(after, Path(marker), float(seconds))


def _pause_once(marker: Path, seconds: float) -> None:
    try:
        with open(marker, "x") as handle:
            handle.write(str(os.getpid()))
    except FileExistsError:
        return
    time.sleep(seconds)


def paused(pause: Pause):
    """The function named by ``pause.after``, followed by the pause."""
    module_name, name = pause.after.rsplit(".", 1)
    original = getattr(importlib.import_module(module_name), name)

    @functools.wraps(original)
    def wrapper(*args, **kwargs):
        result = original(*args, **kwargs)
        _pause_once(pause.marker, pause.seconds)
        return result

    return wrapper


def install(pause: Pause, monkeypatch) -> Path:
    """Pause this process (its threads included) for the test; returns the marker to wait for."""
    monkeypatch.setattr(pause.after, paused(pause))
    return pause.marker
