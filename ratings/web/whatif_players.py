"""The what-if calculator in a federation's context: its engine parameters, its players' current
published values (to prefill "you" and to resolve opponents given as `#id`), and the opponent
search (the site's name search, `player_name_q`).

Reads only published lists: a calculator never sees a draft.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django import forms
from django.http import Http404

from federation.models import Federation, Player
from federation.player_search import player_name_q
from ratings.models import ListStatus, RatingEntry
from ratings.services.runs import engine_params_of

OPPONENT_ID = re.compile(r"^#(\S{1,30})$")
SEARCH_LIMIT = 20


@dataclass(frozen=True)
class Known:
    """A player's values on the newest published list he is on."""

    fid: str
    name: str
    period: str
    rating: float
    rd: float | None
    games: int
    total_games: int
    provisional: bool
    half_rating: bool
    grade: str
    state: dict


@dataclass(frozen=True)
class Found:
    fid: str
    name: str
    known: Known | None  # None: on no published list yet


@dataclass(frozen=True)
class FederationContext:
    federation: Federation
    engine_params: dict  # the federation's params["engine"], as its runs use them

    def known(self, fids: list[str]) -> dict[str, Known]:
        return current_values(self.federation, fids)

    def search(self, text: str) -> list[Found]:
        return search(self.federation, text)


def context_for(code: str | None, system: str) -> FederationContext | None:
    """The federation of `?fed=<code>`; 404 when unknown or rated by another system."""
    if not code:
        return None
    federation = Federation.objects.filter(code=code[:20], system=system).first()
    if federation is None:
        raise Http404("no federation with this code uses this rating system")
    return FederationContext(federation, engine_params_of(federation))


def federations_for(system: str) -> list[Federation]:
    return list(Federation.objects.filter(system=system).order_by("name"))


def current_values(federation: Federation, fids: list[str]) -> dict[str, Known]:
    """By federation id: each player's entry on the newest published list he is on."""
    rows = (
        RatingEntry.objects.filter(
            rating_list__federation=federation,
            rating_list__status=ListStatus.PUBLISHED,
            player__federation_player_id__in=set(fids),
        )
        .select_related("player", "rating_list__period")
        .order_by("rating_list__period__valid_from", "rating_list_id")
    )
    found: dict[str, Known] = {}
    for entry in rows:  # oldest first: the newest list wins
        p = entry.player
        found[p.federation_player_id] = Known(
            fid=p.federation_player_id,
            name=p.full_name,
            period=entry.rating_list.period.code,
            rating=entry.rating,
            rd=entry.rd,
            games=entry.games,
            total_games=entry.total_games,
            provisional=entry.provisional,
            half_rating=entry.half_rating,
            grade=p.grade,
            state=entry.state or {},
        )
    return found


def search(federation: Federation, text: str) -> list[Found]:
    """Players found by id or name, with their current values where they have some."""
    players = list(
        Player.objects.filter(federation=federation)
        .filter(player_name_q(text[:100]))
        .order_by("surname_folded", "given_name_folded", "id")[:SEARCH_LIMIT]
    )
    known = current_values(federation, [p.federation_player_id for p in players])
    return [
        Found(p.federation_player_id, p.full_name, known.get(p.federation_player_id))
        for p in players
    ]


def opponent_ids(text: str) -> list[str]:
    """The `#id` tokens at the start of the lines of an opponents box."""
    ids = []
    for line in text.splitlines():
        parts = line.split()
        match = OPPONENT_ID.match(parts[0]) if parts else None
        if match:
            ids.append(match.group(1))
    return ids


@dataclass
class WhatIfPage:
    """What a calculator page shows for one query string."""

    form: object
    calculate: bool  # the reader asked for a result (the form is bound)
    prefilled_from: Known | None = None
    find: str = ""
    found: list[Found] | None = None  # None: no search asked


def _submitted(query, form_class) -> dict:
    """The form's values as submitted; a checkbox missing from a submitted form is off."""
    data = {k: query.get(k) for k in form_class.base_fields if k in query}
    if not data:
        return data  # nothing submitted: the fields keep their own initial values
    for name, field in form_class.base_fields.items():
        if isinstance(field, forms.BooleanField):
            data[name] = name in query
    return data


def read_page(query, calculator, context: FederationContext | None) -> WhatIfPage:
    """Prefill from `player`, append an opponent line (`add`), search (`action=find`) or
    calculate (any other submitted form)."""
    form_class = calculator.form_class
    data = _submitted(query, form_class)
    typed = any(k in query for k in form_class.base_fields)
    player = query.get("player", "")[:30]
    if context is not None and player and not typed:
        known = context.known([player]).get(player)
        if known is None:
            raise Http404("this player is on no published list of the federation")
        return WhatIfPage(
            form_class(initial=calculator.prefill(known)), False, prefilled_from=known
        )
    add = query.get("add", "")[:60]
    if add:
        lines = (data.get(calculator.lines_field) or "").rstrip("\n")
        data[calculator.lines_field] = f"{lines}\n{add}" if lines else add
        return WhatIfPage(form_class(initial=data), False)
    if query.get("action") == "find":
        find = query.get("find", "").strip()[:100]
        found = context.search(find) if context is not None and len(find) >= 2 else []
        return WhatIfPage(form_class(initial=data), False, find=find, found=found)
    if not typed:
        return WhatIfPage(form_class(), False)
    known = None
    if context is not None:
        known = context.known(opponent_ids(query.get(calculator.lines_field, "")))
    form = form_class(query, known=known, opponent_tokens=calculator.opponent_tokens)
    return WhatIfPage(form, True)
