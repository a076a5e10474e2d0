"""The one line every benchmark figure is printed as, with its comparison from the same run."""

from __future__ import annotations

import math


def bench_line(name: str, value: float, unit: str, vs: str, vs_value: float) -> str:
    ratio = value / vs_value if vs_value else math.nan
    return (
        f"BENCH name={name} value={value:.6g} unit={unit} vs={vs} "
        f"vs_value={vs_value:.6g} ratio={ratio:.4g}"
    )


def emit(name: str, value: float, unit: str, vs: str, vs_value: float) -> None:
    print(bench_line(name, value, unit, vs, vs_value), flush=True)
