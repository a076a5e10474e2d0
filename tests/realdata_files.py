"""The shipped real-data files: ../shared/realdata from the repository root (CI clones main with
shared/ beside it; a worktree sits one level deeper; SHARED_DIR overrides)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def realdata(name: str) -> Path:
    candidates = [ROOT.parent / "shared", ROOT.parent.parent / "shared"]
    if os.environ.get("SHARED_DIR"):
        candidates.insert(0, Path(os.environ["SHARED_DIR"]))
    for shared in candidates:
        if (shared / "realdata" / name).exists():
            return shared / "realdata" / name
    return ROOT.parent / "shared" / "realdata" / name


def need(name: str) -> Path:
    path = realdata(name)
    if not path.exists():
        pytest.skip(f"{path} is absent (the real-data files sit in ../shared/realdata)")
    return path
