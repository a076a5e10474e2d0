"""The ratings admin: periods, runs and lists (runs), player-list imports, the dashboard."""

from ratings.admin import runs  # noqa: F401  registers the ModelAdmins
