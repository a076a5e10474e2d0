"""Every admin URL of every registered model, requested by an official of federation A for
objects of federation B (and with hostile ids and query strings): 0 leaks, 0 server errors, and
B's rows unchanged. Staff without a role see nothing at all.

Extends tests/federation/test_admin_scoping.py (change lists, change/delete/history, choices) to
add, autocomplete, actions, custom views (acceptability, EGF import, run request, publish,
discard), view-on-site, list filters and query strings.
"""

from __future__ import annotations

import base64
from collections import Counter

import pytest
from django.contrib import admin
from django.contrib.contenttypes.models import ContentType
from django.core import signing
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import NoReverseMatch, reverse

from federation.models import Federation
from tests.hardening.hostile_tables import SEED
from tournaments.admin.egf_import import SIGNING_SALT
from tournaments.models import Event

REGISTERED = sorted(admin.site._registry.items(), key=lambda item: item[0]._meta.label)
THEIRS = "zq"  # their federation code: every marker below contains it
MARKERS = [
    "Alphazq",
    "Bravozq",
    "Charliezq",
    "Open zq",
    "zq-OPEN",
    "Team zq",
    "Federation zq",
    "zq-official",
]
HOSTILE_IDS = [
    "0",
    "-1",
    "99999999999999999999999",
    "abc",
    "1'--",
    "1%00",
    "..%2F..",
    "1.5",
    "%F0%9F%92%A9",
    "1 OR 1=1",
]
HOSTILE_QUERIES = [
    {"q": "Alphazq"},
    {"q": "' OR 1=1 --"},
    {"q": "\x00"},
    {"q": "z" * 5000},
    {"o": "99"},
    {"o": "-1.-2.abc"},
    {"p": "999999"},
    {"p": "-1"},
    {"e": "1"},
    {"all": ""},
    {"_to_field": "password"},
    {"_popup": "1", "_to_field": "id"},
    {"federation__id__exact": None},
    {"federation__code": THEIRS},
    {"event__federation__id__exact": None},
    {"id__gt": "0"},
    {"status__exact": "published"},
    {"federation__id__in": "1,2,3,999999"},
]


@pytest.fixture
def worlds(db):
    from tests.factories import make_world

    theirs = make_world(THEIRS)
    theirs["egf"] = Federation.objects.create(code="zq-egf", name="Federation zq EGF", system="egf")
    return make_world("mq"), theirs


def _name(model, view):
    return f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}"


def _snapshot(models):
    # Everything but users (logging in stamps last_login) and sessions.
    return {
        m._meta.label: sorted(map(repr, m.objects.values()))
        for m in models
        if m._meta.app_label != "auth"
    }


class Sweep:
    def __init__(self, client, theirs):
        self.client = client
        self.client.raise_request_exception = False
        self.theirs = theirs
        self.codes = Counter()
        self.problems = []
        self.requests = 0

    def __call__(self, method, url, data=None, **extra):
        response = getattr(self.client, method)(url, data or {}, **extra)
        self.requests += 1
        self.codes[response.status_code] += 1
        body = response.content.decode("utf-8", "replace")
        if response.status_code >= 500:
            self.problems.append(f"{method.upper()} {url} {data}: server error")
        echoed = " ".join(map(str, (data or {}).values()))  # a search box shows its own term
        leaked = [m for m in MARKERS if m in body and m not in echoed]
        if leaked:
            self.problems.append(f"{method.upper()} {url} {data}: shows {leaked}")
        location = response.get("Location", "")
        if any(m in location for m in MARKERS):
            self.problems.append(f"{method.upper()} {url}: redirects to {location}")
        return response


def _their_object(theirs, model):
    if model._meta.label == "auth.User":
        return theirs["user"]
    if model._meta.label == "auth.Group":
        from django.contrib.auth.models import Group

        return Group.objects.get_or_create(name="zq-officials")[0]
    return theirs[model._meta.label]


def _sweep_model(sweep, model, model_admin, their_obj, their_federation):
    changelist = reverse(_name(model, "changelist"))
    for query in HOSTILE_QUERIES:
        query = {k: (their_federation.pk if v is None else v) for k, v in query.items()}
        sweep("get", changelist, query)
    sweep("get", reverse(_name(model, "add")))
    sweep("post", reverse(_name(model, "add")), {"federation": their_federation.pk})
    for object_id in [their_obj.pk, *HOSTILE_IDS]:
        for view in ("change", "delete", "history"):
            try:
                url = reverse(_name(model, view), args=[object_id])
            except NoReverseMatch:
                continue
            sweep("get", url)
        sweep("get", f"{changelist}{object_id}/")
    sweep(
        "post",
        reverse(_name(model, "change"), args=[their_obj.pk]),
        {"federation": their_federation.pk, "_save": "1"},
    )
    sweep("post", reverse(_name(model, "delete"), args=[their_obj.pk]), {"post": "yes"})
    actions = list(model_admin.get_actions(sweep.fake_request(model_admin)) or [])
    for action in [*actions, "delete_selected", "no_such_action"]:
        sweep(
            "post",
            changelist,
            {
                "action": action,
                "_selected_action": [their_obj.pk],
                "post": "yes",
                "reason": "sweep",
            },
        )
    content_type = ContentType.objects.get_for_model(model)
    sweep("get", reverse("admin:view_on_site", args=[content_type.pk, their_obj.pk]))


def _sweep_autocomplete(sweep, theirs):
    """Every autocomplete field of every admin, searching for their rows by name."""
    for model, model_admin in REGISTERED:
        fields = list(model_admin.autocomplete_fields)
        for inline in model_admin.inlines:
            fields += [(inline.model, f) for f in inline.autocomplete_fields]
        for field in fields:
            source, name = field if isinstance(field, tuple) else (model, field)
            for term in ["zq", "Alphazq", "Open zq", "", "' OR 1=1 --"]:
                sweep(
                    "get",
                    reverse("admin:autocomplete"),
                    {
                        "app_label": source._meta.app_label,
                        "model_name": source._meta.model_name,
                        "field_name": name,
                        "term": term,
                    },
                )
    for hostile in [
        {"app_label": "auth", "model_name": "user", "field_name": "groups"},
        {"app_label": "federation", "model_name": "official", "field_name": "user", "term": "zq"},
        {"app_label": "nope", "model_name": "x", "field_name": "y"},
        {
            "app_label": "tournaments",
            "model_name": "game",
            "field_name": "white",
            "term": "Alphazq",
            "page": "99999999999999",
        },
    ]:
        sweep("get", reverse("admin:autocomplete"), hostile)


def _sweep_custom_views(sweep, theirs, mine):
    event, rating_list = theirs["tournaments.Event"], theirs["ratings.RatingList"]
    for rule_id in ["WFCC-R12", "ICCF-1", "x"]:
        url = reverse("admin:tournaments_event_attest", args=[event.pk, rule_id])
        sweep("get", url)
        sweep("post", url, {"note": "sweep"})
    url = reverse("admin:tournaments_event_override", args=[event.pk])
    sweep("get", url)
    sweep("post", url, {"rule_ids": ["WFCC-R4"], "reason": "sweep"})
    for action in ["submit", "accept", "reject", "mark_rated", "reopen", "nonsense"]:
        url = reverse("admin:tournaments_event_transition", args=[event.pk, action])
        sweep("get", url)
        sweep("post", url, {"reason": "sweep"})
    for object_id in HOSTILE_IDS[:4]:
        sweep("get", reverse("admin:tournaments_event_override", args=[object_id]))
    for view in ("publish", "discard"):
        url = reverse(f"admin:ratings_ratinglist_{view}", args=[rating_list.pk])
        sweep("get", url)
        sweep("post", url)
    url = reverse("admin:ratings_ratingrun_request")
    sweep("get", url)
    sweep("post", url, {"federation": theirs["federation.Federation"].pk, "period": "2026Q1"})
    url = reverse("admin:tournaments_event_import_egf")
    sweep("get", url)
    sweep(
        "post",
        url,
        {
            "federation": theirs["federation.Federation"].pk,
            "table": SimpleUploadedFile("t.h9", SEED.encode()),
        },
    )
    sweep("post", url, {"confirm": "1", "token": "forged:token"})
    # A correctly signed token (as if the preview had been made) naming their EGF federation.
    their_egf = theirs["egf"]
    token = signing.dumps(
        {
            "federation": their_egf.pk,
            "filename": "t.h9",
            "reduction": None,
            "data": base64.b64encode(SEED.encode()).decode(),
        },
        salt=SIGNING_SALT,
        compress=True,
    )
    sweep(
        "post",
        url,
        {"federation": their_egf.pk, "table": SimpleUploadedFile("t.h9", SEED.encode())},
    )
    response = sweep("post", url, {"confirm": "1", "token": token})
    assert response.status_code == 403
    assert not Event.objects.filter(federation=their_egf).exists()
    for app in ("federation", "tournaments", "ratings", "auth"):
        sweep("get", reverse("admin:app_list", args=[app]))
    sweep("get", reverse("admin:index"))


def _run_sweep(client, user, theirs, mine):
    from django.test import RequestFactory

    client.force_login(user)
    sweep = Sweep(client, theirs)

    def fake_request(model_admin):
        request = RequestFactory().get("/")
        request.user = user
        return request

    sweep.fake_request = fake_request
    for model, model_admin in REGISTERED:
        _sweep_model(
            sweep, model, model_admin, _their_object(theirs, model), theirs["federation.Federation"]
        )
    _sweep_autocomplete(sweep, theirs)
    _sweep_custom_views(sweep, theirs, mine)
    return sweep


def test_official_of_one_federation_sees_and_changes_nothing_of_another(client, worlds):
    mine, theirs = worlds
    models = [m for m, _ in REGISTERED] + [
        type(theirs[k]) for k in theirs if k.startswith(("ratings.", "tournaments."))
    ]
    before = _snapshot(set(models))
    sweep = _run_sweep(client, mine["user"], theirs, mine)
    print(
        f"admin sweep as an official: {sweep.requests} requests, status codes "
        f"{dict(sorted(sweep.codes.items()))}"
    )
    assert sweep.problems == [], "\n".join(sweep.problems)
    assert _snapshot(set(models)) == before
    assert sweep.requests > 500


def test_staff_without_a_role_sees_nothing(client, worlds):
    from tests.factories import make_user

    mine, theirs = worlds
    user = make_user("plain-staff-sweep")
    models = [m for m, _ in REGISTERED]
    before = _snapshot(set(models))
    global MARKERS
    saved = MARKERS
    MARKERS = saved + ["Alphamq", "Open mq", "Federation mq"]  # neither federation is visible
    try:
        sweep = _run_sweep(client, user, theirs, mine)
    finally:
        MARKERS = saved
    print(
        f"admin sweep as staff without a role: {sweep.requests} requests, status codes "
        f"{dict(sorted(sweep.codes.items()))}"
    )
    assert sweep.problems == []
    assert _snapshot(set(models)) == before
    # 400: NUL in a query string or id, refused before any view (federation.middleware).
    assert set(sweep.codes) <= {200, 302, 400, 403, 404, 405}
    index = client.get(reverse("admin:index"))
    assert index.context["app_list"] == []
