"""Prints how many generated inputs the hardening tests fed each command line."""

from __future__ import annotations

from tests.hardening.hostile import TRIED
from tests.ratings.conftest import iccf_world  # noqa: F401  (a shared fixture)


def pytest_terminal_summary(terminalreporter):
    if not TRIED:
        return
    terminalreporter.section("hostile inputs tried")
    for name, count in sorted(TRIED.items()):
        terminalreporter.write_line(f"{name:40} {count:6}")
    terminalreporter.write_line(f"{'total':40} {sum(TRIED.values()):6}")
