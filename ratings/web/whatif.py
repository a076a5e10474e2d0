"""What-if calculator: a reader's own numbers through the engine that rates the federation.

Each rating system has a form (GET, so a result is a link one can share, and no JavaScript) and a
compute function that builds the engine's plain input and calls the engine's explain function, so
what the reader sees (expected scores, k, the regression line...) is the engine's own arithmetic.
Engine input errors come back as form errors.

In a federation's context (`ratings.web.whatif_players`) the engine runs with the federation's own
parameters, and an opponent line may start with `#<id>` instead of the opponent's numbers: the
form puts in his values from the newest published list (`known`, read by the view).
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


class WhatIfForm(forms.Form):
    """A calculator's form; `known` maps federation ids to published values (for `#id` lines)
    and `opponent_tokens` turns one into the numbers a line of this system starts with."""

    def __init__(self, *args, known=None, opponent_tokens=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.known = known
        self.opponent_tokens = opponent_tokens

    def _lines(self, text: str) -> list[tuple[int, list[str]]]:
        lines = [
            (i + 1, re.split(r"[\s;]+", line.strip())) for i, line in enumerate(text.splitlines())
        ]
        lines = [(n, self._expand(n, parts)) for n, parts in lines if parts and parts[0]]
        if len(lines) > MAX_LINES:
            raise forms.ValidationError(_("At most %(n)s lines."), params={"n": MAX_LINES})
        return lines

    def _expand(self, n: int, parts: list[str]) -> list[str]:
        if not parts[0].startswith("#"):
            return parts
        fid = parts[0][1:]
        if self.known is None:
            raise forms.ValidationError(
                _(
                    "line %(n)s: an opponent by id (#%(id)s) needs a federation: open the calculator from a federation's player page"
                ),
                params={"n": n, "id": fid},
            )
        found = self.known.get(fid)
        if found is None:
            raise forms.ValidationError(
                _("line %(n)s: no player #%(id)s on a published list of this federation"),
                params={"n": n, "id": fid},
            )
        return [*self.opponent_tokens(found), *parts[1:]]


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
            rating = _number(parts[0], where, 0, 4000)
            result = _result(parts[1], where)
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


# ---------------------------------------------------------------------------------------------
# WFCC


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
            rating = None if parts[0] in ("-", "–") else _number(parts[0], where, 0, 4000)
            solvers.append((rating, _number(parts[1], where, 0, 500)))
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


# ---------------------------------------------------------------------------------------------
# ICCF

_COLOURS = {"w": "white", "white": "white", "b": "black", "black": "black"}


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


# ---------------------------------------------------------------------------------------------
# EGF


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


# ---------------------------------------------------------------------------------------------


# ---------------------------------------------------------------------------------------------
# Per system: the numbers an opponent `#id` line starts with, and the values that prefill "you"


def _iccf_tokens(k) -> list[str]:
    return [repr(k.rating), repr(k.rd)]


def _iccf_prefill(k) -> dict:
    return {"rating": k.rating, "rd": k.rd, "inflate": True}


def _rating_token(k) -> list[str]:
    return [repr(k.rating)]


def _egf_prefill(k) -> dict:
    return {"rating": k.rating, "grade": k.grade}


def _playchess_prefill(k) -> dict:
    values = {"rating": k.rating, "games": k.total_games}
    if k.provisional:
        values["points_so_far"] = k.state.get("score")
        values["opponents_so_far"] = k.state.get("opponents")
    return values


def _wfcc_tokens(k) -> list[str]:
    return ["-"] if k.half_rating else [repr(k.rating)]


def _wfcc_prefill(k) -> dict:
    return {"half_rating": k.rating} if k.half_rating else {"rating": k.rating}


def _iccf_params(raw: dict):
    from ratings.engines.iccf.contract import _params_from_json  # the engine's reading

    return _params_from_json(raw)


def _egf_params(raw: dict):
    from ratings.engines.egf import params_from_json

    return params_from_json(raw)


def _playchess_params(raw: dict):
    from ratings.engines.playchess import params_from_json

    return params_from_json(raw)


def _wfcc_params(raw: dict):
    from ratings.engines.wfcc.contract import _params  # the engine's reading of params

    return _params(raw)


GAME_RESULTS = ((_("add as a win"), "1"), (_("as a draw"), "0.5"), (_("as a loss"), "0"))


@dataclass(frozen=True)
class Calculator:
    system: str
    title: str
    form_class: type[WhatIfForm]
    compute: Callable[[dict, object], Outcome]
    partial: str  # template showing the engine's explanation
    lines_field: str  # the box of opponent (or other solver) lines
    params_from_json: Callable[[dict], object]  # the federation's params["engine"] -> engine's
    opponent_tokens: Callable[[object], list[str]]
    prefill: Callable[[object], dict]
    add_choices: tuple = GAME_RESULTS  # (label, what follows `#id` on the added line)
    template: str = "ratings/whatif.html"


ICCF = Calculator(
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
EGF = Calculator(
    "egf",
    _("EGF go (GoR)"),
    EgfForm,
    compute_egf,
    "ratings/_explain_egf.html",
    "opponents",
    _egf_params,
    _rating_token,
    _egf_prefill,
)
PLAYCHESS = Calculator(
    "playchess",
    _("PlayChess (Elo with provisional ratings)"),
    PlayChessForm,
    compute_playchess,
    "ratings/_explain_playchess.html",
    "opponents",
    _playchess_params,
    _rating_token,
    _playchess_prefill,
)
WFCC = Calculator(
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


def calculate(calculator: Calculator, form: WhatIfForm, engine_params: dict | None = None):
    """The engine's explanation, or None with the problem added to the form's errors."""
    if not form.is_valid():
        return None
    try:
        params = calculator.params_from_json(engine_params or {})
        return calculator.compute(form.cleaned_data, params)
    except EngineInputError as exc:
        form.add_error(None, str(exc))
        return None
