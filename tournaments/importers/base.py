"""What every importer shares: the refusal, player look-up, the open-for-entry rule, audit rows.

An importer has two steps: ``preview_…`` (reads, never writes; every bad line named) and
``confirm_…``/``save_…`` (re-reads the same input inside one transaction, refuses with
``ImportRefused`` if anything is wrong, else saves everything with its audit rows).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Model

from federation import audit
from federation.models import AuditEvent, Federation, Player
from federation.player_search import player_name_q
from tournaments.models import Event, EventStatus
from tournaments.ports import results_formats_by_system

# Results are entered while the event is being prepared; once a rating officer accepted it, a
# change goes through the game's own page (which marks a rated period for re-run).
OPEN_FOR_ENTRY = (EventStatus.DRAFT, EventStatus.SUBMITTED, EventStatus.REJECTED)
CHUNK = 500  # values per IN (...) query: SQLite's limit of variables per statement


class ImportRefused(Exception):
    """The input cannot be saved; ``errors`` say what and where (``line N: …``)."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__("; ".join(errors))
        self.errors = errors


def systems_reading(results_format: str) -> list[str]:
    """The systems whose events' results come in ``results_format``: each system declares its
    own (``System.results_format``), each importer the format it reads (``RESULTS_FORMAT``)."""
    return sorted(
        system
        for system, its_format in results_formats_by_system().items()
        if its_format == results_format
    )


def reads_results_of(system: str, results_format: str) -> bool:
    """Whether the importer of ``results_format`` is the one for ``system``'s events."""
    return results_formats_by_system().get(system) == results_format


def entry_closed_reason(event: Event) -> str | None:
    """Why results cannot be entered into ``event`` now, or None."""
    if event.status in OPEN_FOR_ENTRY:
        return None
    return (
        f"{event.code} is {event.get_status_display().lower()}; results are entered while it is "
        "a draft, submitted or rejected (change an accepted event's games one by one)"
    )


@dataclass(frozen=True)
class Lookup:
    """Players found for what was written (an id or a name), and why the others were not."""

    found: dict[str, Player]
    problems: dict[str, str]


def find_players(federation: Federation, written: Iterable[str]) -> Lookup:
    """Each text as a federation id, else as a name matching exactly one player
    (``federation.player_search``: "Surname, Given", "Given Surname", any case or accents)."""
    texts = sorted({t.strip() for t in written if t.strip()})
    mine = Player.objects.filter(federation=federation)
    found: dict[str, Player] = {}
    for start in range(0, len(texts), CHUNK):
        for player in mine.filter(federation_player_id__in=texts[start : start + CHUNK]):
            found[player.federation_player_id] = player
    problems: dict[str, str] = {}
    for text in texts:
        if text in found:
            continue
        candidates = list(mine.filter(player_name_q(text)).order_by("surname", "given_name")[:4])
        if len(candidates) == 1:
            found[text] = candidates[0]
        elif not candidates:
            problems[text] = f"no player of {federation.code} with id or name {text!r}"
        else:
            shown = ", ".join(f"{p.full_name} ({p.federation_player_id})" for p in candidates[:3])
            more = " and more" if len(candidates) > 3 else ""
            problems[text] = f"{text!r} matches several players: {shown}{more}; write the id"
    return Lookup(found, problems)


def audit_rows(
    *, actor, action: str, objects: Iterable[Model], message: str, federation_id: int, old=None
) -> list[AuditEvent]:
    """One audit row per object, built for a single bulk insert (the values audit.record writes);
    ``old``: the values before, per object pk (changes and deletions)."""
    return [
        audit.build(
            actor=actor,
            action=action,
            obj=obj,
            old=(old or {}).get(obj.pk, {}),
            new=audit.snapshot(obj) if action != "delete" else {},
            message=message,
            federation_id=federation_id,
        )
        for obj in objects
    ]


def locked_event(event: Event) -> Event:
    """The event re-read under its row lock (inside the caller's transaction), so two officials
    saving results into it at once are serialised and each preview is checked afresh."""
    return Event.objects.select_for_update().select_related("federation").get(pk=event.pk)
