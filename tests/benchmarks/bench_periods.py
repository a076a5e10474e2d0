"""Assigning results to periods: the arithmetic calendar against a scan of a precomputed table.

Import and run code calls these per game; this shows the cost per call, and what a caller doing
bulk assignment would gain by caching a table of periods instead (it must also match exactly).
"""

from __future__ import annotations

import random
import time
from bisect import bisect_right
from datetime import date, timedelta

from ratings.calendars import next_period, period_by_code, period_for
from ratings.systems.iccf.calendar import period_for_report as iccf_period_for_report
from tests.benchmarks.report import emit

N = 100_000


def _timed(label: str, fn) -> tuple[float, list]:
    started = time.perf_counter()
    out = fn()
    seconds = time.perf_counter() - started
    print(f"  {label:<44} {seconds * 1e3:9.1f} ms  ({seconds / N * 1e6:.2f} us per call)")
    return seconds, out


def main() -> None:
    rng = random.Random(20261121)
    first = date(2000, 1, 1)
    days = [first + timedelta(days=rng.randrange(36_500)) for _ in range(N)]

    # Reference: every ICCF period of the century, found by bisecting the window starts.
    table = [period_by_code("iccf", "2000Q1")]
    while table[-1].ends_on < date(2101, 1, 1):
        table.append(next_period(table[-1]))
    starts = [p.starts_on for p in table]

    fast_s, fast = _timed("period_for('iccf', day)", lambda: [period_for("iccf", d) for d in days])
    ref_s, ref = _timed(
        "bisect in a precomputed period table",
        lambda: [table[bisect_right(starts, d) - 1] for d in days],
    )
    assert fast == ref
    emit("period_for_100k", fast_s * 1e3, "ms", "bisect_table_100k", ref_s * 1e3)

    pairs = [(d, d + timedelta(days=rng.randrange(60))) for d in days]
    _timed(
        "iccf_period_for_report(finished, reported)",
        lambda: [iccf_period_for_report(r, finished_on=f) for f, r in pairs],
    )


if __name__ == "__main__":
    main()
