"""PlayChess's calendar (RULES §3.2, §5): batches of ``PLAYCHESS_BATCH_PERIOD`` months, named by
the window (``2026-03``), rated on the day after it. Pure."""

from __future__ import annotations

from ratings.calendars import Calendar, batch_period

CALENDAR = Calendar("playchess", lambda p: p.playchess_batch_months, 0, batch_period, list_lag=None)
