"""Query-string handling of the list page: the filters and the page navigation (plain forms).

Bad input never reaches the database: each value is validated by a form field, and an invalid
query string is shown back to the reader as form errors (status 400), never a 500.
"""

from __future__ import annotations

import hashlib
from functools import cached_property
from urllib.parse import urlencode

from django import forms
from django.core.validators import RegexValidator
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from federation.player_search import player_name_q
from ratings.models import RatingEntry
from ratings.selectors.common import KEYSET_SORTS, PAGE_SIZE, SORTS

# The patterns are shared with the API's query schema (ratings.web.api.schemas), which documents them.
PRINTABLE = r"^[^\x00-\x1f\x7f]*$"
COUNTRY = r"^[A-Za-z]{2}$"
GRADE = r"^[0-9A-Za-z]*$"
_PRINTABLE = RegexValidator(PRINTABLE, _("Control characters are not allowed."))


class _Shared:
    """A form field shared by every form instance instead of deep-copied into each (Django
    copies a form's fields per instance: a millisecond a list page). Safe because these forms
    only validate: nothing changes a field after the class is made, and the page writes its
    own inputs (templates/ratings/list.html)."""

    def __deepcopy__(self, memo):
        return self


class _Text(_Shared, forms.CharField):
    pass


class _YesNo(_Shared, forms.NullBooleanField):
    """Yes, no or any: "true"/"false" (or True/False, 1/0); anything else reads as any."""


class _Number(_Shared, forms.IntegerField):
    pass


class _Choice(_Shared, forms.ChoiceField):
    pass


class _ValidatingForm(forms.Form):
    """A form that only validates a query string: its bound fields are not kept. Each refers to
    its form, and kept on it they would make a cycle that outlives the request until the garbage
    collector runs (federation.cycle_free, tests/site/test_no_reference_cycles.py)."""

    def __getitem__(self, name):
        bound = super().__getitem__(name)
        del self._bound_fields_cache[name]  # Django's cache of them on the form
        return bound


class ListFilterForm(_ValidatingForm):
    q = _Text(label=_("Name or id"), max_length=100, required=False, validators=[_PRINTABLE])
    country = _Text(
        label=_("Country"),
        max_length=2,
        required=False,
        validators=[RegexValidator(COUNTRY, _("A two-letter country code, e.g. DE."))],
    )
    club = _Text(label=_("Club"), max_length=100, required=False, validators=[_PRINTABLE])
    grade = _Text(
        label=_("Title or grade"),
        max_length=3,
        required=False,
        validators=[RegexValidator(GRADE, _("Letters and digits only."))],
    )
    active = _YesNo(label=_("Active"), required=False)


class ListFilters:
    """The filters of a rating list: `.form` validates the query string, `.qs` is the entries
    of the list matching its valid values (no order yet)."""

    def __init__(self, data, rating_list):
        self.form = ListFilterForm(data)
        self.rating_list = rating_list

    def is_valid(self) -> bool:
        return self.form.is_valid()

    @property
    def errors(self):
        return self.form.errors

    @cached_property
    def qs(self) -> QuerySet[RatingEntry]:
        self.form.is_valid()  # validates once; an invalid value is left out, as it is shown back
        values = self.form.cleaned_data
        qs = RatingEntry.objects.filter(rating_list=self.rating_list, listed=True)
        if values.get("q") and values["q"].strip():
            qs = qs.filter(player_name_q(values["q"].strip(), prefix="player__"))
        if values.get("country"):
            qs = qs.filter(player__country=values["country"].upper())
        if values.get("club"):
            qs = qs.filter(player__club=values["club"])
        if values.get("grade"):
            qs = qs.filter(player__grade=values["grade"])
        if values.get("active") is not None:
            qs = qs.filter(player__active=values["active"])
        return qs


def entries_filterset(data, rating_list) -> ListFilters:
    return ListFilters(data, rating_list)


class ListNavForm(_ValidatingForm):
    """Sorting and paging: keyset cursors (after/before, a rank) or a page number."""

    sort = _Choice(choices=[(k, k) for k in SORTS], required=False)
    after = _Number(min_value=0, max_value=10**9, required=False)
    before = _Number(min_value=0, max_value=10**9, required=False)
    page = _Number(min_value=1, max_value=10**6, required=False)
    size = _Number(min_value=1, max_value=200, required=False)

    def clean(self):
        data = super().clean()
        if data.get("after") is not None and data.get("before") is not None:
            raise forms.ValidationError(_("Give either 'after' or 'before', not both."))
        data["sort"] = data.get("sort") or "rank"
        data["page"] = data.get("page") or 1
        data["size"] = data.get("size") or PAGE_SIZE
        return data


FILTER_PARAMS = ("q", "country", "club", "grade", "active")
# Every query parameter the list page reads (the page cache keys on these only).
LIST_PARAMS = (*FILTER_PARAMS, "sort", "after", "before", "page", "size")


def filter_params(data) -> dict[str, str]:
    """The filter part of a query string, to carry into sort links, pages and exports."""
    return {k: data[k] for k in FILTER_PARAMS if data.get(k)}


def order_key(rating_list, filterset, sort: str) -> str | None:
    """Cache key of a filtered or non-rank order of a published list (None: keyset on rank)."""
    data = {k: v for k, v in filterset.form.cleaned_data.items() if v not in (None, "")}
    if not data and sort in KEYSET_SORTS:
        return None
    canonical = urlencode(
        sorted(
            (k, str(v).strip().upper() if k == "country" else str(v).strip())
            for k, v in data.items()
        )
    )
    # a digest: the filters' text may run to kilobytes, and cache keys stay under 250 characters
    return f"{rating_list.pk}:{hashlib.sha256(canonical.encode()).hexdigest()}"
