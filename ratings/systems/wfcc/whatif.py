"""WFCC what-if: the reader's score in a solving tournament against the other solvers.
The engine's own explain function computes it; the shared form plumbing, ``Calculator`` and
``calculate`` are ratings.web.whatif."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ratings.web.whatif import Calculator, Outcome, WhatIfForm, parse_number


class WfccForm(WhatIfForm):
    kt = forms.TypedChoiceField(
        label=_("Tournament coefficient KT"),
        coerce=float,
        choices=[(str(v), f"{v:g}") for v in (1.0, 1.5, 2.0, 2.5, 3.0, 4.0)],
        initial="1.0",
    )
    rating = forms.FloatField(
        label=_("Your full rating"),
        required=False,
        min_value=0,
        max_value=4000,
        help_text=_("Empty if you have none yet."),
    )
    half_rating = forms.FloatField(
        label=_("Your half-rating (if you have one)"), required=False, min_value=0, max_value=4000
    )
    score = forms.FloatField(label=_("Your score"), min_value=0, max_value=500)
    field = forms.CharField(
        label=_("The other solvers: one a line, rating (- if none) and score"),
        widget=forms.Textarea(attrs={"rows": 10, "cols": 30}),
        max_length=20000,
    )

    def clean_field(self):
        solvers = []
        for n, parts in self._lines(self.cleaned_data["field"]):
            where = _("line %(n)s") % {"n": n}
            if len(parts) != 2:
                raise forms.ValidationError(
                    _("%(where)s: give a rating and a score"), params={"where": where}
                )
            rating = None if parts[0] in ("-", "–") else parse_number(parts[0], where, 0, 4000)
            solvers.append((rating, parse_number(parts[1], where, 0, 500)))
        return solvers

    def clean(self):
        data = super().clean()
        if data.get("rating") is not None and data.get("half_rating") is not None:
            raise forms.ValidationError(_("A full rating and a half-rating exclude each other."))
        return data


def compute_wfcc(data: dict, params):
    from ratings.engines import wfcc
    from ratings.engines.wfcc.types import Solver, Tournament

    halves = () if data.get("half_rating") is None else (data["half_rating"],)
    solvers = [
        Solver(id="you", rounds=(data["score"],), rating=data.get("rating"), half_ratings=halves)
    ]
    for i, (rating, score) in enumerate(data["field"]):
        solvers.append(Solver(id=f"solver {i + 1}", rounds=(score,), rating=rating))
    tournament = Tournament(id="what-if", kt=data["kt"], solvers=tuple(solvers))
    explanation = wfcc.explain_solver(tournament, "you", params)
    return Outcome(explanation, explanation.new_rating)


def _wfcc_tokens(k) -> list[str]:
    return ["-"] if k.half_rating else [repr(k.rating)]


def _wfcc_prefill(k) -> dict:
    return {"half_rating": k.rating} if k.half_rating else {"rating": k.rating}


def _wfcc_params(raw: dict):
    from ratings.engines.wfcc.contract import _params  # the engine's reading of params

    return _params(raw)


CALCULATOR = Calculator(
    "wfcc",
    _("WFCC solving (linear regression)"),
    WfccForm,
    compute_wfcc,
    "ratings/_explain_wfcc.html",
    "field",
    _wfcc_params,
    _wfcc_tokens,
    _wfcc_prefill,
    add_choices=((_("add with score 0 (then type his score)"), "0"),),
)
