"""URLs of many table rows that differ in one argument, reversed once per table.

A player page links 20–100 rows to the same view with another period, run or event. A RowUrl
reverses the name once per table with a placeholder (through the process's URL templates,
federation.url_templates) and puts each value where the placeholder was, quoted as
``reverse()`` quotes it; tests/site/test_row_urls.py compares the two on generated values.
"""

from __future__ import annotations

from urllib.parse import quote

from django.urls import reverse
from django.utils.http import RFC3986_SUBDELIMS

from federation.url_templates import reverse_fast

_PLACEHOLDER = "0rowurlplaceholder0"  # digits and letters: matches every converter but <int>
_INT_PLACEHOLDER = 987654320123  # an <int> argument's placeholder
_SAFE = RFC3986_SUBDELIMS + "/~:@"  # what reverse() leaves unquoted


class RowUrl:
    """``RowUrl("ratings:list", "period", federation="ebf")(code)`` is
    ``reverse("ratings:list", kwargs={"federation": "ebf", "period": code})``."""

    def __init__(self, viewname: str, vary: str, *, integer: bool = False, **fixed: object):
        self._viewname, self._vary, self._fixed = viewname, vary, fixed
        placeholder = str(_INT_PLACEHOLDER) if integer else _PLACEHOLDER
        url = reverse_fast(viewname, kwargs={**fixed, vary: placeholder})
        if url.count(placeholder) != 1:  # the fixed arguments spell it too: no shortcut
            self._head = self._tail = None
        else:
            self._head, self._tail = url.split(placeholder)
        self._integer = integer

    def __call__(self, value: object) -> str:
        if self._head is None:
            return self._reverse(value)
        if self._integer:
            if type(value) is not int or value < 0:
                return self._reverse(value)
            return f"{self._head}{value}{self._tail}"
        text = str(value)
        if text.isalnum() and text.isascii():  # most ids: nothing to quote
            return f"{self._head}{text}{self._tail}"
        if not text or "/" in text:  # the converter refuses it: reverse() says so
            return self._reverse(value)
        return f"{self._head}{quote(text, safe=_SAFE)}{self._tail}"

    def _reverse(self, value: object) -> str:
        return reverse(self._viewname, kwargs={**self._fixed, self._vary: value})
