"""`make bench`: every tests/benchmarks/bench_*.py module, each in its own process.

A separate process per benchmark keeps each one's database and Django settings its own (one
that sets Django up on SQLite cannot leave the next one writing to a read-only file). Each
figure is printed as a `BENCH name=… value=… vs=… vs_value=… ratio=…` line; a benchmark that
cannot run here prints `skipped: <reason>` and does not fail the run; one that raises, or runs
longer than BENCH_MODULE_SECONDS (600), does. The summary gives each module's status and time.

Usage: python -m tests.benchmarks.run [NAME ...]   (NAME = iccf, egf, ... to run only those;
`make bench ONLY=iccf` does the same)
"""

from __future__ import annotations

import os
import pkgutil
import platform
import signal
import subprocess
import sys
import threading
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


# One module may take this long (s) before it is stopped and reported as failed: a stuck
# benchmark must not hang `make bench`.
MODULE_SECONDS = float(os.environ.get("BENCH_MODULE_SECONDS", "600"))


def select(names: list[str], argv: list[str]) -> tuple[list[str], list[str]]:
    """(the modules to run, the unknown names asked for); no names: all of them."""
    wanted = [f"bench_{n.removeprefix('bench_')}" for n in argv]
    unknown = sorted(set(wanted) - set(names))
    return ([n for n in names if n in wanted] if wanted else list(names)), unknown


def run_module(
    name: str, seconds: float = MODULE_SECONDS, package: str = "tests.benchmarks"
) -> tuple[str, list[str]]:
    """Runs one benchmark module in its own process, echoing its output; returns its status
    ("ok", "skipped: why", "FAILED: why") and its BENCH lines."""
    proc = subprocess.Popen(
        [sys.executable, "-m", f"{package}.{name}"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its servers and workers are stopped with it
    )
    timer = threading.Timer(seconds, lambda: os.killpg(proc.pid, signal.SIGKILL))
    timer.start()
    lines, skipped = [], None
    try:
        for line in proc.stdout:
            print(line, end="", flush=True)
            if line.startswith("BENCH "):
                lines.append(line.rstrip("\n"))
            elif "skipped" in line and skipped is None:
                skipped = line.strip()
        code = proc.wait()
    finally:
        timer.cancel()
    if code == -signal.SIGKILL:
        return f"FAILED: stopped after {seconds:.0f} s", lines
    if code != 0:
        return f"FAILED: exit {code}", lines
    if skipped is not None and not lines:
        return f"skipped: {skipped}", lines
    return "ok", lines


def main(argv: list[str]) -> int:
    names, unknown = select(benchmark_names(), argv)
    if unknown:
        print(f"unknown benchmark(s): {', '.join(unknown)}; known: {', '.join(benchmark_names())}")
        return 2
    print(f"machine: {platform.machine()} python {platform.python_version()} load {_load()}")
    began = time.perf_counter()
    statuses, lines = [], []
    for name in names:
        print(f"\n=== {name} (load {_load()}) ===", flush=True)
        started = time.perf_counter()
        status, found = run_module(name)
        lines += found
        statuses.append((name, status, time.perf_counter() - started))
        print(f"({name}: {status}, {statuses[-1][2]:.1f} s)", flush=True)
    print("\n=== summary ===")
    for name, status, seconds in statuses:
        print(f"{name:32} {seconds:7.1f} s  {status}")
    print(f"{'total':32} {time.perf_counter() - began:7.1f} s  (load {_load()})")
    print("\n".join(lines) if lines else "no BENCH figures")
    failed = [name for name, status, _ in statuses if status.startswith("FAILED")]
    if failed:
        print(f"failed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
