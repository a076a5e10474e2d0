"""A worker digests its engines' versions when it starts, not in its first run."""

from __future__ import annotations

from celery.signals import worker_init

import ratings.tasks  # noqa: F401  (connects the worker's start-up handler)
from federation.permissions import COMMAND_LINE
from ratings import systems
from ratings.engines.core import version
from ratings.services import runs


class _OtherAppsWorker:
    app = object()


def _start_a_worker() -> None:
    """worker_init as a worker sends it; a worker of another app, so that Celery's Django fixup
    leaves this process's database set-up alone."""
    worker_init.send(sender=_OtherAppsWorker())


def test_a_starting_worker_digests_every_systems_engine_version():
    version.installed_engine_version.cache_clear()
    _start_a_worker()
    assert version.installed_engine_version.cache_info().currsize == len(systems.ALL)
    for system in systems.ALL:
        assert version.installed_engine_version(system.code) == version.engine_version(system.code)


def test_a_run_after_the_start_reads_no_engine_file(iccf_world, monkeypatch):
    version.installed_engine_version.cache_clear()
    _start_a_worker()

    def parse_again(system, root=version.ENGINES_ROOT):
        raise AssertionError(f"the {system} engine's files were read again")

    monkeypatch.setattr(version, "engine_version", parse_again)
    run = runs.run_now(federation=iccf_world["federation"], period_code="2026Q1", by=COMMAND_LINE)
    assert run.status == "succeeded", run.error
    assert run.engine_version.startswith("iccf-")
