"""Hostile paths, query strings and forms over every public and every admin URL: never a server
error; NUL characters, out-of-range numbers and dates are refused with 400 before any view or
the database sees them (federation.middleware.HostileInputMiddleware). Meant for PostgreSQL (CI),
where NUL in text is a database error; it runs on SQLite too.

Enumerated: public URLs from the URL configuration (tests/hardening/public_urls.py) × every query
parameter any public view reads × the hostile values; every registered admin's change list ×
every date field's date parts, paging, ordering and id filters; change/delete/history with
hostile ids; an add form with NUL in every text field; the autocomplete; the run request with
periods out of range; an EGF import with dates out of range.
"""

from __future__ import annotations

from collections import Counter
from urllib.parse import quote

import pytest
from django.contrib import admin
from django.db import models
from django.urls import NoReverseMatch, reverse

from ratings.systems import ALL as SYSTEMS
from ratings.web.filters import LIST_PARAMS
from tests.hardening.hostile_tables import SEED
from tests.hardening.public_urls import public_routes, urls_for
from tests.hardening.url_values import world_values
from tests.ratings.web.factories import standard_world

pytestmark = pytest.mark.django_db
PARAMS = sorted(
    {
        *LIST_PARAMS,
        "against",
        "period",
        "limit",
        *(name for s in SYSTEMS for name in s.whatif.form_class.base_fields),
    }
)
NUL_VALUES = ["%00", "a%00b"]
ODD_VALUES = ["9" * 30, "-" + "9" * 25, "1e999", "NaN", "0001", "%ff%fe", "%E2%80%AE", "x" * 3000]
REPORT: dict[str, Counter] = {}


class Tally:
    def __init__(self, client, name):
        self.client, self.codes, self.errors = client, Counter(), []
        self.client.raise_request_exception = False
        REPORT[name] = self.codes

    def get(self, url, **extra):
        return self._check("get", url, None, **extra)

    def post(self, url, data, **extra):
        return self._check("post", url, data, **extra)

    def _check(self, method, url, data, **extra):
        response = (
            getattr(self.client, method)(url, data, **extra)
            if data is not None
            else (getattr(self.client, method)(url, **extra))
        )
        self.codes[response.status_code] += 1
        if response.status_code >= 500:
            self.errors.append(f"{method.upper()} {url} {str(data)[:200]}")
        return response


def test_every_public_url_with_hostile_paths_and_queries(client):
    world = standard_world()
    values = world_values(world)
    tally = Tally(client, "public")
    urls = urls_for(values)
    one_per_route = set(urls_for({k: v[:1] for k, v in values.items()}))
    for url in urls:
        for name in PARAMS:
            for value in NUL_VALUES:
                response = tally.get(f"{url}?{name}={value}")
                assert response.status_code == 400, (url, name, value)
            if url in one_per_route:
                for value in ODD_VALUES:
                    tally.get(f"{url}?{name}={value}")
    # Hostile values in each path parameter (quoted as a browser sends them).
    for route in public_routes():
        for param in route.params:
            for hostile in ["x\x00y", "\x00", "..", "9" * 30, "a/b", "%", "\u202e"]:
                kwargs = {p: values[p][0] for p in route.params}
                marker = "MARKERVALUE"
                try:
                    url = reverse(route.name, kwargs={**kwargs, param: marker})
                except NoReverseMatch:  # an <int:...> or <slug:...> parameter
                    url = reverse(route.name, kwargs=kwargs).replace(
                        f"/{kwargs[param]}/", f"/{marker}/", 1
                    )
                response = tally.get(url.replace(marker, quote(hostile, safe="")))
                if "\x00" in hostile:
                    assert response.status_code == 400, url
    print(
        f"public hostile requests: {sum(tally.codes.values())} {dict(sorted(tally.codes.items()))}"
    )
    assert tally.errors == [], "\n".join(tally.errors[:20])
    assert sum(tally.codes.values()) >= 2000


REGISTERED = sorted(admin.site._registry.items(), key=lambda item: item[0]._meta.label)


def _admin_queries(model) -> list[str]:
    queries = [
        "q=%00",
        "q=a%00b",
        "p=" + "9" * 30,
        "o=" + "9" * 25,
        "id__gt=" + "9" * 25,
        "id__exact=abc",
        "pk__in=1,%00",
        "e=%00",
    ]
    for field in model._meta.get_fields():
        if isinstance(field, models.DateField):
            for part, value in [
                ("year", "99999999999"),
                ("year", "0"),
                ("year", "-1"),
                ("month", "13"),
                ("day", "32"),
                ("year", "%00"),
            ]:
                queries.append(f"{field.name}__{part}={value}")
            queries.append(f"{field.name}__gte=0001-01-01")
            queries.append(f"{field.name}__lte=99999-12-31")
        if field.many_to_one and field.concrete:
            queries.append(f"{field.name}__id__exact=" + "9" * 25)
    return queries


def _text_fields(model) -> list[str]:
    return [
        f.name
        for f in model._meta.concrete_fields
        if isinstance(f, models.CharField | models.TextField) and f.editable
    ]


def test_every_admin_url_with_hostile_queries_forms_and_ids(client, settings):
    from federation.models import Federation
    from tests.factories import make_user, make_world

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    world = make_world("aa")
    egf = Federation.objects.create(code="egf", name="EGF", system="egf")
    client.force_login(make_user("root", superuser=True))
    tally = Tally(client, "admin")
    for model, _model_admin in REGISTERED:
        label = f"admin:{model._meta.app_label}_{model._meta.model_name}"
        changelist = reverse(f"{label}_changelist")
        for query in _admin_queries(model):
            response = tally.get(f"{changelist}?{query}")
            if "%00" in query or "99999999999" in query or "9" * 25 in query:
                assert response.status_code == 400, (changelist, query)
        for object_id in ["1%00", "%00", "9" * 30, "-" + "9" * 30]:
            for view in ("change", "delete", "history"):
                tally.get(reverse(f"{label}_{view}", args=["1"]).replace("/1/", f"/{object_id}/"))
        add = reverse(f"{label}_add")
        data = {name: "a\x00b" for name in _text_fields(model)}
        if data:
            response = tally.post(add, data)
            assert response.status_code == 400, add
    tally.get(reverse("admin:autocomplete") + "?term=%00&app_label=tournaments&model_name=game")
    tally.get(
        reverse("admin:autocomplete")
        + "?term=x&app_label=tournaments&model_name=game&field_name=white&page="
        + "9" * 30
    )
    request_url = reverse("admin:ratings_ratingrun_request")
    fed = world["federation.Federation"]
    for period in ["0001Q1", "9999Q4", "0000Q1", "2026Q5", "1899Q4", "3000Q1", "2026-13"]:
        response = tally.post(request_url, {"federation": fed.pk, "period": period})
        assert response.status_code in (200, 400), period  # the form says why
    import_url = reverse("admin:tournaments_event_import_egf")
    from django.core.files.uploadedfile import SimpleUploadedFile

    for dates in ["0001-01-01,9999-12-31", "1899-12-31,1900-01-02", "9999-12-30,9999-12-31"]:
        table = SEED.replace("DT[2024-03-02,2024-03-03]", f"DT[{dates}]")
        response = tally.post(
            import_url,
            {"federation": egf.pk, "table": SimpleUploadedFile("t.h9", table.encode())},
        )
        assert response.status_code == 200
        assert response.context["preview"].errors, dates  # refused with a message
    print(
        f"admin hostile requests: {sum(tally.codes.values())} {dict(sorted(tally.codes.items()))}"
    )
    assert tally.errors == [], "\n".join(tally.errors[:20])
