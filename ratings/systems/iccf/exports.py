"""The published list in this federation's own format: a FIDE-style fixed-width TXT (listed
entries by rank), shared with the other chess system (ratings.systems.list_files)."""

from __future__ import annotations

from ratings.systems.list_files import FIDE_STYLE_TXT

NATIVE_FORMAT = FIDE_STYLE_TXT
