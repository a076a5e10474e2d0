"""The tournaments admin: events with their acceptability panel, results entry and imports."""

from tournaments.admin import events  # noqa: F401  registers the ModelAdmins
