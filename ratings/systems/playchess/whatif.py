"""PlayChess what-if: the reader's games against rated opponents.
The engine's own explain function computes it; the shared form plumbing, ``Calculator`` and
``calculate`` are ratings.web.whatif."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ratings.web.whatif import (
    Calculator,
    Outcome,
    WhatIfForm,
    parse_number,
    parse_result,
    rating_token,
)


class PlayChessForm(WhatIfForm):
    rating = forms.FloatField(
        label=_("Your rating"),
        required=False,
        min_value=0,
        max_value=4000,
        help_text=_("Empty: unrated (you enter at the default entry rating)."),
    )
    games = forms.IntegerField(
        label=_("Rated games finished so far"), min_value=0, max_value=100000, initial=0
    )
    points_so_far = forms.FloatField(
        label=_("Provisional: points so far"),
        required=False,
        min_value=0,
        max_value=10,
    )
    opponents_so_far = forms.FloatField(
        label=_("Provisional: sum of your opponents' ratings so far"),
        required=False,
        min_value=0,
        max_value=40000,
    )
    opponents = forms.CharField(
        label=_("Games: one a line, the opponent's rating and your result (1, 0.5, 0)"),
        widget=forms.Textarea(attrs={"rows": 6, "cols": 30}),
        max_length=10000,
    )

    def clean_opponents(self):
        games = []
        for n, parts in self._lines(self.cleaned_data["opponents"]):
            where = _("line %(n)s") % {"n": n}
            if len(parts) != 2:
                raise forms.ValidationError(
                    _("%(where)s: give a rating and a result"), params={"where": where}
                )
            rating = parse_number(parts[0], where, 0, 4000)
            result = parse_result(parts[1], where)
            games.append((rating, result))
        if not games:
            raise forms.ValidationError(_("Enter at least one game."))
        return games


def compute_playchess(data: dict, params):
    from ratings.engines import playchess as pc

    me = pc.Player(
        id="you",
        rating=data["rating"],
        games=data["games"],
        score=data.get("points_so_far"),
        opponents=data.get("opponents_so_far"),
    )
    players = [me]
    games = []
    for i, (rating, result) in enumerate(data["opponents"]):
        players.append(pc.Player(id=f"opponent {i + 1}", rating=rating, games=1000))
        games.append(pc.Game(white="you", black=f"opponent {i + 1}", result=result))
    explanation = pc.explain(players, games, "you", params)
    return Outcome(explanation, explanation.result.rating)


def _playchess_prefill(k) -> dict:
    values = {"rating": k.rating, "games": k.total_games}
    if k.provisional:
        values["points_so_far"] = k.state.get("score")
        values["opponents_so_far"] = k.state.get("opponents")
    return values


def _playchess_params(raw: dict):
    from ratings.engines.playchess import params_from_json

    return params_from_json(raw)


CALCULATOR = Calculator(
    "playchess",
    _("PlayChess (Elo with provisional ratings)"),
    PlayChessForm,
    compute_playchess,
    "ratings/_explain_playchess.html",
    "opponents",
    _playchess_params,
    rating_token,
    _playchess_prefill,
)
