"""The one player-name filter: ids, "Surname, Given", "Given Surname", any case, any marks.

Served by the folded name columns kept on Player (see ``Player.save``), so it behaves the same
on SQLite and PostgreSQL and uses the ``(federation, surname_folded)`` index for prefixes.
"""

from __future__ import annotations

from django.db.models import Q

from federation.names import readings


def player_name_q(query: str, prefix: str = "") -> Q:
    """A filter for players matching ``query`` by id or name; ``prefix`` reaches Player through a
    relation (``"player__"``). An empty query matches nothing."""
    text = query.strip()
    if not text:
        return Q(pk__in=[])
    condition = Q(**{f"{prefix}federation_player_id__iexact": text})
    for split in readings(text):
        part = Q(**{f"{prefix}surname_folded__startswith": split.surname})
        if split.given:
            part &= Q(**{f"{prefix}given_name_folded__startswith": split.given})
        condition |= part
    return condition
