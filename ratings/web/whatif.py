"""What-if calculator: a reader's own numbers through the engine that rates the federation.

Each rating system has a form (GET, so a result is a link one can share, and no JavaScript) and a
compute function, in its package's ``whatif.py`` (``ratings/systems/<code>/whatif.py``), that builds the engine's plain input and calls the engine's explain function, so
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


def parse_number(text: str, where: str, low: float, high: float) -> float:
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


def parse_result(text: str, where: str) -> float:
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


COLOURS = {"w": "white", "white": "white", "b": "black", "black": "black"}


def rating_token(k) -> list[str]:
    """An opponent `#id` line that starts with his rating alone."""
    return [repr(k.rating)]


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
