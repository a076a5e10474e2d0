"""Production settings: HTTPS-only cookies, HSTS, a content security policy without inline
script, secure headers; and no page of the admin (or the home page) carries inline script, so the
policy does not break them. (check --deploy --fail-level WARNING: tests/federation/test_settings.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib import admin
from django.urls import reverse

from federation.permissions import COMMAND_LINE

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION_ENV = {
    "PRODUCTION": "1",
    "SECRET_KEY": "k" * 30 + "-Zq8!kP2@vL5#mN9$rT3%wY6^bH1",
    "ALLOWED_HOSTS": "ratings.example.org",
}
NAMES = [
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "SESSION_COOKIE_HTTPONLY",
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "SECURE_CONTENT_TYPE_NOSNIFF",
    "X_FRAME_OPTIONS",
    "SECURE_REFERRER_POLICY",
    "SECURE_CROSS_ORIGIN_OPENER_POLICY",
    "SECURE_PROXY_SSL_HEADER",
    "CONTENT_SECURITY_POLICY",
    "DEBUG",
    "ALLOWED_HOSTS",
]


@pytest.fixture(scope="module")
def production():
    """The settings as a production process loads them."""
    env = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY"}}
    code = (
        "import json, django; django.setup(); from django.conf import settings as s; "
        f"print(json.dumps({{n: getattr(s, n, None) for n in {NAMES!r}}}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**env, **PRODUCTION_ENV, "DJANGO_SETTINGS_MODULE": "federation.settings"},
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_cookies_are_https_only(production):
    assert production["SESSION_COOKIE_SECURE"] is True
    assert production["CSRF_COOKIE_SECURE"] is True
    assert production["SESSION_COOKIE_HTTPONLY"] is True


def test_https_is_enforced_with_hsts(production):
    assert production["SECURE_SSL_REDIRECT"] is True
    assert production["SECURE_HSTS_SECONDS"] >= 365 * 24 * 3600
    assert production["SECURE_HSTS_INCLUDE_SUBDOMAINS"] and production["SECURE_HSTS_PRELOAD"]
    assert production["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert production["DEBUG"] is False and production["ALLOWED_HOSTS"] == ["ratings.example.org"]


def _policy(text: str) -> dict[str, list[str]]:
    directives = {}
    for part in text.split(";"):
        name, *sources = part.split()
        directives[name] = sources
    return directives


def test_content_security_policy_has_no_inline_script(production):
    policy = _policy(production["CONTENT_SECURITY_POLICY"])
    scripts = policy.get("script-src", policy["default-src"])
    assert scripts == ["'self'"]
    assert policy["default-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"] and policy["frame-ancestors"] == ["'none'"]
    assert policy["base-uri"] == ["'self'"] and policy["form-action"] == ["'self'"]


def test_secure_headers(production):
    assert production["SECURE_CONTENT_TYPE_NOSNIFF"] is True
    assert production["X_FRAME_OPTIONS"] == "DENY"
    assert production["SECURE_REFERRER_POLICY"] == "same-origin"
    assert production["SECURE_CROSS_ORIGIN_OPENER_POLICY"] == "same-origin"


PRODUCTION_LIKE = dict(
    SECURE_SSL_REDIRECT=True,
    SECURE_HSTS_SECONDS=31536000,
    SECURE_HSTS_INCLUDE_SUBDOMAINS=True,
    SECURE_HSTS_PRELOAD=True,
    SESSION_COOKIE_SECURE=True,
    CSRF_COOKIE_SECURE=True,
    PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
)


@pytest.mark.django_db
def test_responses_carry_the_headers_and_secure_cookies(client, settings):
    from tests.factories import make_user

    for name, value in PRODUCTION_LIKE.items():
        setattr(settings, name, value)
    plain = client.get(reverse("admin:login"))
    assert plain.status_code == 301 and plain["Location"].startswith("https://")
    response = client.get(reverse("admin:login"), secure=True)
    assert response.status_code == 200
    assert response["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"
    assert response["Content-Security-Policy"] == settings.CONTENT_SECURITY_POLICY
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["X-Frame-Options"] == "DENY"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["Cross-Origin-Opener-Policy"] == "same-origin"
    assert response.cookies["csrftoken"]["secure"]
    make_user("cookie-officer")
    response = client.post(
        reverse("admin:login"),
        {"username": "cookie-officer", "password": "pw-cookie-officer"},
        secure=True,
    )
    assert response.status_code == 302
    session = response.cookies[settings.SESSION_COOKIE_NAME]
    assert session["secure"] and session["httponly"] and session["samesite"] == "Lax"


class _InlineScript(HTMLParser):
    """Finds what a policy without 'unsafe-inline' blocks: script bodies, on* handlers and
    javascript: URLs."""

    def __init__(self):
        super().__init__()
        self.found: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}=...>")
            if value and value.strip().lower().startswith("javascript:"):
                self.found.append(f"<{tag} {name}={value[:30]}>")
        data_only = attributes.get("type") in ("application/json", "text/template")
        self._in_script = tag == "script" and "src" not in attributes and not data_only

    def handle_data(self, data):
        if self._in_script and data.strip():
            self.found.append(f"<script>{data.strip()[:60]}</script>")

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = False


def _admin_pages(world) -> list[str]:
    urls = [
        reverse("admin:index"),
        reverse("admin:tournaments_event_import_egf"),
        reverse("admin:ratings_ratingrun_request"),
        reverse("admin:password_change"),
        "/",
    ]
    for model, _model_admin in admin.site._registry.items():
        prefix = f"admin:{model._meta.app_label}_{model._meta.model_name}"
        urls += [reverse(f"{prefix}_changelist"), reverse(f"{prefix}_add")]
        obj = world.get(model._meta.label)
        if obj is not None:
            for view in ("change", "history", "delete"):
                urls.append(reverse(f"{prefix}_{view}", args=[obj.pk]))
    event = world["tournaments.Event"]
    for name, args in [
        ("tournaments_event_override", [event.pk]),
        ("tournaments_event_attest", [event.pk, "WFCC-R12"]),
    ]:
        urls.append(reverse(f"admin:{name}", args=args))
    return urls


@pytest.mark.django_db
def test_no_page_needs_inline_script(client):
    from tests.factories import make_user, make_world

    world = make_world("cs")
    client.force_login(make_user("csp-root", superuser=True))
    pages = _admin_pages(world)
    checked = 0
    for url in pages:
        response = client.get(url)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        parser = _InlineScript()
        parser.feed(response.content.decode())
        assert parser.found == [], (url, parser.found)
        assert response["Content-Security-Policy"] == settings.CONTENT_SECURITY_POLICY
        checked += 1
    assert checked >= 30, checked


def test_the_inline_script_finder_finds_inline_script():
    parser = _InlineScript()
    parser.feed(
        '<script src="/a.js"></script><script type="application/json">{"a": 1}</script>'
        '<script>alert(1)</script><a href="javascript:go()" onclick="x()">x</a>'
    )
    assert parser.found == [
        "<script>alert(1)</script>",
        "<a href=javascript:go()>",
        "<a onclick=...>",
    ]


@pytest.mark.django_db
def test_no_public_page_needs_inline_script(client, iccf_world):
    """The public site too (a rated and published period, its list, players, event, what-if)."""
    from ratings.services import publication, runs

    federation, event = iccf_world["federation"], iccf_world["event"]
    run = runs.run_now(federation=federation, period_code="2026Q1", by=COMMAND_LINE)
    publication.publish_list(list_id=run.rating_list.pk, by=COMMAND_LINE)
    pages = [
        "/",
        reverse("ratings:whatif_index"),
        reverse("ratings:whatif", args=["iccf"]),
        reverse("ratings:list", args=[federation.code, "2026Q1"]),
        reverse("ratings:list_diff", args=[federation.code, "2026Q1"]),
        reverse("ratings:event", args=[federation.code, event.code]),
    ]
    pages += [
        reverse("ratings:player", args=[federation.code, p.federation_player_id])
        for p in iccf_world["players"]
    ]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        parser = _InlineScript()
        parser.feed(response.content.decode())
        assert parser.found == [], (url, parser.found)
