"""EGF what-if: the reader's games of one tournament, with colour and handicap.
The engine's own explain function computes it; the shared form plumbing, ``Calculator`` and
``calculate`` are ratings.web.whatif."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ratings.engines.core.grades import normalise_grade
from ratings.web.whatif import (
    COLOURS,
    Calculator,
    Outcome,
    WhatIfForm,
    parse_number,
    parse_result,
    rating_token,
)


class EgfForm(WhatIfForm):
    rating = forms.FloatField(
        label=_("Your GoR"),
        required=False,
        min_value=100,
        max_value=3200,
        help_text=_("Empty: a new player starts from the grade."),
    )
    grade = forms.CharField(label=_("Your grade (e.g. 3k, 2d)"), required=False, max_length=3)
    tournament_class = forms.ChoiceField(
        label=_("Tournament class"), choices=[(c, c) for c in "ABCD"], initial="A"
    )
    opponents = forms.CharField(
        label=_(
            "Games: one a line, the opponent's GoR, your result (1, 0.5, 0), your colour "
            "(w/b) and the handicap stones Black received"
        ),
        widget=forms.Textarea(attrs={"rows": 6, "cols": 30}),
        max_length=10000,
    )

    def clean_grade(self):
        text = self.cleaned_data["grade"]
        if not text:
            return ""
        try:
            return normalise_grade(text)
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from None

    def clean_opponents(self):
        games = []
        for n, parts in self._lines(self.cleaned_data["opponents"]):
            where = _("line %(n)s") % {"n": n}
            if len(parts) not in (2, 3, 4):
                raise forms.ValidationError(
                    _("%(where)s: give GoR, result, and optionally colour and handicap"),
                    params={"where": where},
                )
            rating = parse_number(parts[0], where, 100, 3200)
            result = parse_result(parts[1], where)
            colour = COLOURS.get(parts[2].lower()) if len(parts) >= 3 else "white"
            if colour is None:
                raise forms.ValidationError(
                    _("%(where)s: the colour is w or b"), params={"where": where}
                )
            stones = int(parse_number(parts[3], where, 0, 30)) if len(parts) == 4 else 0
            games.append((rating, result, colour, stones))
        if not games:
            raise forms.ValidationError(_("Enter at least one game."))
        return games

    def clean(self):
        data = super().clean()
        if data.get("rating") is None and not data.get("grade"):
            raise forms.ValidationError(_("Give your GoR or, as a new player, your grade."))
        return data


def compute_egf(data: dict, params):
    from ratings.engines import egf

    players = [egf.PlayerEntry("you", data.get("grade") or "1k", data.get("rating"))]
    games = []
    for i, (rating, result, colour, stones) in enumerate(data["opponents"]):
        opp = f"opponent {i + 1}"
        players.append(egf.PlayerEntry(opp, "1k", rating))
        if colour == "white":
            games.append(egf.Game("you", opp, result, stones))
        else:
            games.append(egf.Game(opp, "you", 1.0 - result, stones))
    tournament = egf.Tournament(
        id="what-if",
        tournament_class=data["tournament_class"],
        date=None,
        players=tuple(players),
        games=tuple(games),
    )
    explanation = egf.explain_player(tournament, "you", params)
    return Outcome(explanation, explanation.after)


def _egf_prefill(k) -> dict:
    return {"rating": k.rating, "grade": k.grade}


def _egf_params(raw: dict):
    from ratings.engines.egf import params_from_json

    return params_from_json(raw)


CALCULATOR = Calculator(
    "egf",
    _("EGF go (GoR)"),
    EgfForm,
    compute_egf,
    "ratings/_explain_egf.html",
    "opponents",
    _egf_params,
    rating_token,
    _egf_prefill,
)
