"""ICCF what-if: the reader's games against opponents with their RDs.
The engine's own explain function computes it; the shared form plumbing, ``Calculator`` and
``calculate`` are ratings.web.whatif."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ratings.web.whatif import COLOURS, Calculator, Outcome, WhatIfForm, parse_number, parse_result


class IccfForm(WhatIfForm):
    rating = forms.FloatField(
        label=_("Your rating"),
        required=False,
        min_value=0,
        max_value=4000,
        help_text=_("Empty: unrated (you start at 1800, RD 250, or your FIDE rating, RD 150)."),
    )
    rd = forms.FloatField(label=_("Your RD"), required=False, min_value=1, max_value=350)
    fide = forms.FloatField(
        label=_("Unrated: your FIDE rating"), required=False, min_value=1000, max_value=3000
    )
    inflate = forms.BooleanField(
        label=_("Values are from the last list (add the period's RD inflation)"),
        required=False,
        initial=True,
    )
    opponents = forms.CharField(
        label=_(
            "Games: one a line, the opponent's rating, RD, your result (1, 0.5, 0) and "
            "optionally your colour (w/b)"
        ),
        widget=forms.Textarea(attrs={"rows": 6, "cols": 30}),
        max_length=10000,
    )

    def clean_opponents(self):
        games = []
        for n, parts in self._lines(self.cleaned_data["opponents"]):
            where = _("line %(n)s") % {"n": n}
            if len(parts) not in (3, 4):
                raise forms.ValidationError(
                    _("%(where)s: give rating, RD, result and optionally colour"),
                    params={"where": where},
                )
            rating = parse_number(parts[0], where, 0, 4000)
            rd = parse_number(parts[1], where, 1, 350)
            result = parse_result(parts[2], where)
            colour = COLOURS.get(parts[3].lower()) if len(parts) == 4 else "white"
            if colour is None:
                raise forms.ValidationError(
                    _("%(where)s: the colour is w or b"), params={"where": where}
                )
            games.append((rating, rd, result, colour))
        if not games:
            raise forms.ValidationError(_("Enter at least one game."))
        return games

    def clean(self):
        data = super().clean()
        if (data.get("rating") is None) != (data.get("rd") is None):
            raise forms.ValidationError(_("Give both your rating and your RD, or neither."))
        return data


def compute_iccf(data: dict, params):
    from dataclasses import replace

    from ratings.engines import iccf

    params = params if data.get("inflate") else replace(params, c=0.0)
    players = [iccf.Player("you", data.get("rating"), data.get("rd"), data.get("fide"))]
    games = []
    for i, (rating, rd, result, colour) in enumerate(data["opponents"]):
        opp = f"opponent {i + 1}"
        players.append(iccf.Player(opp, rating, rd))
        if colour == "white":
            games.append(iccf.Game("you", opp, result))
        else:
            games.append(iccf.Game(opp, "you", 1.0 - result))
    explanation = iccf.explain("you", players, games, (), params)
    return Outcome(explanation, explanation.rating, explanation.rd)


def _iccf_tokens(k) -> list[str]:
    return [repr(k.rating), repr(k.rd)]


def _iccf_prefill(k) -> dict:
    return {"rating": k.rating, "rd": k.rd, "inflate": True}


def _iccf_params(raw: dict):
    from ratings.engines.iccf.contract import _params_from_json  # the engine's reading

    return _params_from_json(raw)


CALCULATOR = Calculator(
    "iccf",
    _("ICCF correspondence chess (Glicko with win/draw/loss)"),
    IccfForm,
    compute_iccf,
    "ratings/_explain_iccf.html",
    "opponents",
    _iccf_params,
    _iccf_tokens,
    _iccf_prefill,
)
