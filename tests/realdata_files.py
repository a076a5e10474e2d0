"""The shipped real-data files: ../shared/realdata from the repository root (CI clones main with
shared/ beside it; a worktree sits one level deeper)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def realdata(name: str) -> Path:
    for shared in (ROOT.parent / "shared", ROOT.parent.parent / "shared"):
        if (shared / "realdata" / name).exists():
            return shared / "realdata" / name
    return ROOT.parent / "shared" / "realdata" / name


def need(name: str) -> Path:
    path = realdata(name)
    if not path.exists():
        pytest.skip(f"{path} is absent (the real-data files sit in ../shared/realdata)")
    return path
