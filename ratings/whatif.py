"""What-if calculator: a reader's own numbers through the engine that rates the federation.

Each rating system has a form (GET, so a result is a link one can share, and no JavaScript) and a
compute function that builds the engine's plain input and calls the engine's explain function, so
what the reader sees (expected scores, k, the regression line...) is the engine's own arithmetic.
Engine input errors come back as form errors.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from django import forms
from django.utils.translation import gettext_lazy as _

from ratings.engines.core.errors import EngineInputError
from ratings.engines.core.grades import normalise_grade
from ratings.engines.core.rounding import half_up_int

MAX_LINES = 200
_RESULTS = {
    "1": 1.0,
    "1.0": 1.0,
    "+": 1.0,
    "w": 1.0,
    "win": 1.0,
    "0.5": 0.5,
    ".5": 0.5,
    "=": 0.5,
    "½": 0.5,
    "1/2": 0.5,
    "d": 0.5,
    "draw": 0.5,
    "0": 0.0,
    "0.0": 0.0,
    "-": 0.0,
    "l": 0.0,
    "loss": 0.0,
}


def _number(text: str, where: str, low: float, high: float) -> float:
    try:
        value = float(text.replace(",", "."))
    except ValueError:
        raise forms.ValidationError(
            _("%(where)s: %(text)s is not a number"), params={"where": where, "text": text}
        ) from None
    if not (low <= value <= high):
        raise forms.ValidationError(
            _("%(where)s: %(value)s is outside %(low)s..%(high)s"),
            params={"where": where, "value": text, "low": low, "high": high},
        )
    return value


def _result(text: str, where: str) -> float:
    result = _RESULTS.get(text.lower())
    if result is None:
        raise forms.ValidationError(
            _("%(where)s: the result must be 1, 0.5 or 0"), params={"where": where}
        )
    return result


def _lines(text: str) -> list[tuple[int, list[str]]]:
    lines = [(i + 1, re.split(r"[\s;]+", line.strip())) for i, line in enumerate(text.splitlines())]
    lines = [(n, parts) for n, parts in lines if parts and parts[0]]
    if len(lines) > MAX_LINES:
        raise forms.ValidationError(_("At most %(n)s lines."), params={"n": MAX_LINES})
    return lines


@dataclass(frozen=True)
class Outcome:
    explanation: object  # the engine's explanation object, shown by the system's partial
    rating: float | None  # the new rating, unrounded (None: still no full rating)
    rd: float | None = None

    @property
    def published(self) -> int | None:
        return None if self.rating is None else half_up_int(self.rating)


# ---------------------------------------------------------------------------------------------
# PlayChess


class PlayChessForm(forms.Form):
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
        for n, parts in _lines(self.cleaned_data["opponents"]):
            where = _("line %(n)s") % {"n": n}
            if len(parts) != 2:
                raise forms.ValidationError(
                    _("%(where)s: give a rating and a result"), params={"where": where}
                )
            rating = _number(parts[0], where, 0, 4000)
            result = _result(parts[1], where)
            games.append((rating, result))
        if not games:
            raise forms.ValidationError(_("Enter at least one game."))
        return games


def compute_playchess(data: dict):
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
    explanation = pc.explain(players, games, "you")
    return Outcome(explanation, explanation.result.rating)


# ---------------------------------------------------------------------------------------------
# WFCC


class WfccForm(forms.Form):
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
        for n, parts in _lines(self.cleaned_data["field"]):
            where = _("line %(n)s") % {"n": n}
            if len(parts) != 2:
                raise forms.ValidationError(
                    _("%(where)s: give a rating and a score"), params={"where": where}
                )
            rating = None if parts[0] in ("-", "–") else _number(parts[0], where, 0, 4000)
            solvers.append((rating, _number(parts[1], where, 0, 500)))
        return solvers

    def clean(self):
        data = super().clean()
        if data.get("rating") is not None and data.get("half_rating") is not None:
            raise forms.ValidationError(_("A full rating and a half-rating exclude each other."))
        return data


def compute_wfcc(data: dict):
    from ratings.engines import wfcc
    from ratings.engines.wfcc.types import Solver, Tournament

    halves = () if data.get("half_rating") is None else (data["half_rating"],)
    solvers = [
        Solver(id="you", rounds=(data["score"],), rating=data.get("rating"), half_ratings=halves)
    ]
    for i, (rating, score) in enumerate(data["field"]):
        solvers.append(Solver(id=f"solver {i + 1}", rounds=(score,), rating=rating))
    tournament = Tournament(id="what-if", kt=data["kt"], solvers=tuple(solvers))
    explanation = wfcc.explain_solver(tournament, "you")
    return Outcome(explanation, explanation.new_rating)


# ---------------------------------------------------------------------------------------------
# ICCF

_COLOURS = {"w": "white", "white": "white", "b": "black", "black": "black"}


class IccfForm(forms.Form):
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
        for n, parts in _lines(self.cleaned_data["opponents"]):
            where = _("line %(n)s") % {"n": n}
            if len(parts) not in (3, 4):
                raise forms.ValidationError(
                    _("%(where)s: give rating, RD, result and optionally colour"),
                    params={"where": where},
                )
            rating = _number(parts[0], where, 0, 4000)
            rd = _number(parts[1], where, 1, 350)
            result = _result(parts[2], where)
            colour = _COLOURS.get(parts[3].lower()) if len(parts) == 4 else "white"
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


def compute_iccf(data: dict):
    from ratings.engines import iccf

    params = iccf.Params() if data.get("inflate") else iccf.Params(c=0.0)
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


# ---------------------------------------------------------------------------------------------
# EGF


class EgfForm(forms.Form):
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
        for n, parts in _lines(self.cleaned_data["opponents"]):
            where = _("line %(n)s") % {"n": n}
            if len(parts) not in (2, 3, 4):
                raise forms.ValidationError(
                    _("%(where)s: give GoR, result, and optionally colour and handicap"),
                    params={"where": where},
                )
            rating = _number(parts[0], where, 100, 3200)
            result = _result(parts[1], where)
            colour = _COLOURS.get(parts[2].lower()) if len(parts) >= 3 else "white"
            if colour is None:
                raise forms.ValidationError(
                    _("%(where)s: the colour is w or b"), params={"where": where}
                )
            stones = int(_number(parts[3], where, 0, 30)) if len(parts) == 4 else 0
            games.append((rating, result, colour, stones))
        if not games:
            raise forms.ValidationError(_("Enter at least one game."))
        return games

    def clean(self):
        data = super().clean()
        if data.get("rating") is None and not data.get("grade"):
            raise forms.ValidationError(_("Give your GoR or, as a new player, your grade."))
        return data


def compute_egf(data: dict):
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
    explanation = egf.explain_player(tournament, "you")
    return Outcome(explanation, explanation.after)


# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Calculator:
    system: str
    title: str
    form_class: type[forms.Form]
    compute: Callable[[dict], object]
    partial: str  # template showing the engine's explanation
    template: str = "ratings/whatif.html"


ICCF = Calculator(
    "iccf",
    _("ICCF correspondence chess (Glicko with win/draw/loss)"),
    IccfForm,
    compute_iccf,
    "ratings/_explain_iccf.html",
)
EGF = Calculator("egf", _("EGF go (GoR)"), EgfForm, compute_egf, "ratings/_explain_egf.html")
PLAYCHESS = Calculator(
    "playchess",
    _("PlayChess (Elo with provisional ratings)"),
    PlayChessForm,
    compute_playchess,
    "ratings/_explain_playchess.html",
)
WFCC = Calculator(
    "wfcc",
    _("WFCC solving (linear regression)"),
    WfccForm,
    compute_wfcc,
    "ratings/_explain_wfcc.html",
)


def calculate(calculator: Calculator, form: forms.Form):
    """The engine's explanation, or None with the problem added to the form's errors."""
    if not form.is_valid():
        return None
    try:
        return calculator.compute(form.cleaned_data)
    except EngineInputError as exc:
        form.add_error(None, str(exc))
        return None
