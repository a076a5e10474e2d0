"""The list page's query string: its filters (a django-filter FilterSet over the list's entries)
and its sorting and paging (a plain form). The page writes the inputs itself
(templates/ratings/_list_filters.html).

Bad input never reaches the database: each value is validated by a form field, and an invalid
query string is shown back to the reader as form errors (status 400), never a 500.
"""

from __future__ import annotations

import hashlib
from urllib.parse import urlencode

import django_filters
from django import forms
from django.core.validators import RegexValidator
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from federation.player_search import player_name_q
from ratings.models import RatingEntry, RatingList
from ratings.selectors.common import KEYSET_SORTS, PAGE_SIZE, SORTS

# The patterns are shared with the API's query schema (ratings.web.api.schemas), which documents them.
PRINTABLE = r"^[^\x00-\x1f\x7f]*$"
COUNTRY = r"^[A-Za-z]{2}$"
GRADE = r"^[0-9A-Za-z]*$"
_PRINTABLE = RegexValidator(PRINTABLE, _("Control characters are not allowed."))


class ListFilterSet(django_filters.FilterSet):
    """The listed entries of one published list matching the query string's filters."""

    q = django_filters.CharFilter(
        label=_("Name or id"),
        method="by_name",
        max_length=100,
        validators=[_PRINTABLE],
    )
    country = django_filters.CharFilter(
        label=_("Country"),
        method="by_country",
        max_length=2,
        validators=[RegexValidator(COUNTRY, _("A two-letter country code, e.g. DE."))],
    )
    club = django_filters.CharFilter(
        label=_("Club"), field_name="player__club", max_length=100, validators=[_PRINTABLE]
    )
    grade = django_filters.CharFilter(
        label=_("Title or grade"),
        field_name="player__grade",
        max_length=3,
        validators=[RegexValidator(GRADE, _("Letters and digits only."))],
    )
    # Yes, no or any: "true"/"false" (or True/False, 2/3); anything else reads as any.
    active = django_filters.BooleanFilter(label=_("Active"), field_name="player__active")

    def __init__(self, data, rating_list: RatingList):
        entries = RatingEntry.objects.filter(rating_list=rating_list, listed=True)
        super().__init__(data, queryset=entries)
        self.rating_list = rating_list

    def by_name(self, queryset: QuerySet, _name: str, value: str) -> QuerySet:
        return queryset.filter(player_name_q(value, prefix="player__"))

    def by_country(self, queryset: QuerySet, _name: str, value: str) -> QuerySet:
        return queryset.filter(player__country=value.upper())


def entries_filterset(data, rating_list: RatingList) -> ListFilterSet:
    return ListFilterSet(data, rating_list)


class ListNavForm(forms.Form):
    """Sorting and paging: keyset cursors (after/before, a rank) or a page number."""

    sort = forms.ChoiceField(choices=[(k, k) for k in SORTS], required=False)
    after = forms.IntegerField(min_value=0, max_value=10**9, required=False)
    before = forms.IntegerField(min_value=0, max_value=10**9, required=False)
    page = forms.IntegerField(min_value=1, max_value=10**6, required=False)
    size = forms.IntegerField(min_value=1, max_value=200, required=False)

    def clean(self):
        data = super().clean()
        if data.get("after") is not None and data.get("before") is not None:
            raise forms.ValidationError(_("Give either 'after' or 'before', not both."))
        data["sort"] = data.get("sort") or "rank"
        data["page"] = data.get("page") or 1
        data["size"] = data.get("size") or PAGE_SIZE
        return data


FILTER_PARAMS = tuple(ListFilterSet.base_filters)
# Every query parameter the list page reads (the page cache keys on these only).
LIST_PARAMS = (*FILTER_PARAMS, "sort", "after", "before", "page", "size")


def filter_params(data) -> dict[str, str]:
    """The filter part of a query string, to carry into sort links, pages and exports."""
    return {k: data[k] for k in FILTER_PARAMS if data.get(k)}


def order_key(rating_list: RatingList, filterset: ListFilterSet, sort: str) -> str | None:
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
