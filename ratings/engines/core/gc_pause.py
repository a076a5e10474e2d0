"""The cycle collector paused while a run or an import builds and drops millions of small
acyclic objects.

A period's games, the engine's input and output, the columns, a list's rows and the rows
written: none of them form reference cycles, yet each allocation counts toward the next
collection, and the oldest generation is scanned whole again and again. Paused, the same work
is 6-13 % faster for an ICCF period and 15 % for an EGF history (tests/benchmarks/bench_runs.py),
15 % for a long EGF history on the command line, and 23-37 % for the EGD world list and a FIDE
list of a million players (bench_list_import.py), with the same peak memory.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def cycle_collector_paused() -> Iterator[None]:
    """No automatic collection inside; afterwards the collector is as it was (a caller that had
    it off keeps it off), and whatever cyclic garbage there is goes at its next collection."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
