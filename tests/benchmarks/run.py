"""`make bench`: every tests/benchmarks/bench_*.py module, each in its own process.

A separate process per benchmark keeps each one's database and Django settings its own (one
that sets Django up on SQLite cannot leave the next one writing to a read-only file). Each
figure is printed as a `BENCH name=… value=… vs=… vs_value=… ratio=…` line; a benchmark that
cannot run here prints `skipped: <reason>` and does not fail the run; one that raises does.

Usage: python -m tests.benchmarks.run [NAME ...]   (NAME = iccf, egf, ... to run only those;
`make bench ONLY=iccf` does the same)
"""

from __future__ import annotations

import pkgutil
import platform
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).parent
ROOT = HERE.parents[1]


def benchmark_names() -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules([str(HERE)]) if m.name.startswith("bench_"))


def _load() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


def main(argv: list[str]) -> int:
    names = benchmark_names()
    wanted = [f"bench_{n.removeprefix('bench_')}" for n in argv]
    unknown = sorted(set(wanted) - set(names))
    if unknown:
        print(f"unknown benchmark(s): {', '.join(unknown)}; known: {', '.join(names)}")
        return 2
    if wanted:
        names = [n for n in names if n in wanted]
    print(f"machine: {platform.machine()} python {platform.python_version()} load {_load()}")
    failed, lines = [], []
    for name in names:
        print(f"\n=== {name} (load {_load()}) ===", flush=True)
        started = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", f"tests.benchmarks.{name}"],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )
        for line in proc.stdout:
            print(line, end="", flush=True)
            if line.startswith("BENCH "):
                lines.append(line.rstrip("\n"))
        if proc.wait() != 0:
            failed.append(name)
            print(f"{name} FAILED (exit {proc.returncode})")
        print(f"({name} took {time.perf_counter() - started:.1f} s)", flush=True)
    print("\n=== summary ===")
    print("\n".join(lines) if lines else "no BENCH figures")
    if failed:
        print(f"failed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
