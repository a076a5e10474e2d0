"""A clean table in the JSON shape of ``python -m ratings.engines egf``."""

from __future__ import annotations

from tournaments.formats.egf.types import Issue, ParsedTable, TableError


def player_ids(table: ParsedTable) -> list[str]:
    """PINs where present, else line ordinals as strings."""
    return [p.pin or str(p.ordinal) for p in table.players]


def engine_input(table: ParsedTable, *, tournament_id: str | None = None) -> dict:
    """One tournament in the JSON shape of ``python -m ratings.engines egf``: rated games only."""
    ids = player_ids(table)
    if len(set(ids)) != len(ids):
        raise TableError([Issue(0, "", "a PIN equals another player's line ordinal")])
    h = table.header
    if h.tournament_class is None:
        raise TableError([Issue(0, "", "no CL[A|B|C|D] tag: the tournament class is unknown")])
    tournament: dict = {
        "id": tournament_id or h.egd_code or h.name or "T",
        "class": h.tournament_class,
    }
    if h.end_date:
        tournament["date"] = h.end_date
    tournament["players"] = [
        {"id": pid, "grade": p.grade} for pid, p in zip(ids, table.players, strict=True)
    ]
    tournament["games"] = [
        {
            "white": ids[g.white - 1],
            "black": ids[g.black - 1],
            "result": g.result,
            "handicap": g.handicap,
        }
        for g in table.games
        if g.rated
    ]
    return {"tournaments": [tournament], "warnings": [str(w) for w in table.warnings]}
