"""`make bench`: runs every tests/benchmarks/bench_*.py module's main() in turn.

Each benchmark prints its figures next to the comparison measured in the same run.
Usage: python -m tests.benchmarks.run [NAME ...]   (NAME = iccf, egf, ... to run only those)
"""

from __future__ import annotations

import importlib
import pkgutil
import platform
import sys
import time
from pathlib import Path


def main(argv: list[str]) -> int:
    here = Path(__file__).parent
    names = sorted(m.name for m in pkgutil.iter_modules([str(here)]) if m.name.startswith("bench_"))
    wanted = {f"bench_{n}" for n in argv}
    if wanted:
        names = [n for n in names if n in wanted]
    print(
        f"machine: {platform.machine()} {platform.processor() or ''} python {platform.python_version()}"
    )
    failures = 0
    for name in names:
        print(f"\n=== {name} ===", flush=True)
        started = time.perf_counter()
        try:
            importlib.import_module(f"tests.benchmarks.{name}").main()
        except Exception as exc:  # report and go on with the other benchmarks
            failures += 1
            print(f"{name} FAILED: {exc!r}")
        print(f"({name} took {time.perf_counter() - started:.1f} s)", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
