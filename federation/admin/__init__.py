"""The federation admin: federations, players (with duplicates and merges), officials, audit."""

from federation.admin import players  # noqa: F401  registers the ModelAdmins
