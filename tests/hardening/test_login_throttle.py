"""Failed admin logins are throttled by client address (django-axes, settings.AXES_*): after the
limit the address is refused, whatever the username and whether or not it exists, until the
window has passed; X-Forwarded-For is believed only from TRUSTED_PROXIES."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.urls import reverse

from federation import login_throttle

LOCKED = "Too many failed login attempts. Try again in 10 minutes."


@pytest.fixture(autouse=True)
def throttle(settings):
    settings.AXES_FAILURE_LIMIT = 3
    settings.AXES_COOLOFF_TIME = timedelta(minutes=10)
    settings.AXES_COOLOFF_MESSAGE = LOCKED
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed


def _login(client, username, password, address="10.0.0.1", **extra):
    return client.post(
        reverse("admin:login"),
        {"username": username, "password": password},
        REMOTE_ADDR=address,
        **extra,
    )


def _logged_in(response) -> bool:
    return response.status_code == 302


def _refused(response) -> bool:
    return response.status_code == 429 and response.content.decode() == LOCKED


@pytest.mark.django_db
def test_right_password_is_refused_after_the_limit_of_failures_from_that_address(client):
    from tests.factories import make_user

    make_user("officer")
    assert _logged_in(_login(client, "officer", "pw-officer"))
    client.logout()
    for _ in range(2):
        response = _login(client, "officer", "wrong")
        assert response.status_code == 200 and "Too many" not in response.content.decode()
    assert _refused(_login(client, "officer", "wrong"))  # the limit's failure
    assert _refused(_login(client, "officer", "pw-officer"))
    # The owner at another address is not locked out by someone guessing elsewhere.
    assert _logged_in(_login(client, "officer", "pw-officer", address="10.9.9.9"))


@pytest.mark.django_db
def test_the_refusal_does_not_tell_whether_the_user_exists(client):
    from tests.factories import make_user

    make_user("officer")
    for _ in range(3):
        _login(client, "officer", "wrong", address="10.0.0.1")
        _login(client, "nobody", "wrong", address="10.0.0.2")
    known = _login(client, "officer", "pw-officer", address="10.0.0.1")
    unknown = _login(client, "nobody", "pw-nobody", address="10.0.0.2")
    assert _refused(known) and _refused(unknown)
    assert known.headers.items() == unknown.headers.items()


@pytest.mark.django_db
def test_one_address_trying_many_usernames_is_throttled(client):
    from tests.factories import make_user

    make_user("victim")
    for i in range(3):
        _login(client, f"guess{i}", "wrong", address="10.6.6.6")
    assert _refused(_login(client, "victim", "pw-victim", address="10.6.6.6"))
    assert _logged_in(_login(client, "victim", "pw-victim", address="10.0.0.2"))


@pytest.mark.django_db
def test_the_window_expires(client):
    from tests.factories import make_user

    make_user("officer")
    for _ in range(3):
        _login(client, "officer", "wrong")
    assert _refused(_login(client, "officer", "pw-officer"))
    AccessAttempt.objects.update(
        attempt_time=AccessAttempt.objects.get().attempt_time - timedelta(minutes=11)
    )
    assert _logged_in(_login(client, "officer", "pw-officer"))


@pytest.mark.django_db
def test_a_success_clears_the_count(client):
    from tests.factories import make_user

    make_user("officer")
    for _ in range(2):
        _login(client, "officer", "wrong")
    assert _logged_in(_login(client, "officer", "pw-officer"))
    client.logout()
    for _ in range(2):
        _login(client, "officer", "wrong")
    assert _logged_in(_login(client, "officer", "pw-officer"))


@pytest.mark.django_db
def test_the_password_is_not_stored():
    from django.test import Client

    _login(Client(), "officer", "secret-guess")
    attempt = AccessAttempt.objects.get()
    assert "secret-guess" not in attempt.post_data and attempt.ip_address == "10.0.0.1"


def test_forwarded_for_is_believed_only_from_trusted_proxies(rf, settings):
    request = rf.post("/", REMOTE_ADDR="10.0.0.254", HTTP_X_FORWARDED_FOR="6.6.6.6, 192.0.2.7")
    settings.TRUSTED_PROXIES = []
    assert login_throttle.client_address(request) == "10.0.0.254"  # no proxy declared
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    assert login_throttle.client_address(request) == "10.0.0.254"  # the header alone is not trust
    settings.TRUSTED_PROXIES = ["10.0.0.0/24"]
    assert login_throttle.client_address(request) == "192.0.2.7"  # "6.6.6.6" was the client's
    chained = rf.post(
        "/", REMOTE_ADDR="10.0.0.254", HTTP_X_FORWARDED_FOR="6.6.6.6, 1.2.3.4, 10.0.0.9"
    )
    assert login_throttle.client_address(chained) == "1.2.3.4"  # the inner proxy is skipped
    garbage = rf.post("/", REMOTE_ADDR="10.0.0.254", HTTP_X_FORWARDED_FOR="not-an-address")
    assert login_throttle.client_address(garbage) == "10.0.0.254"


@pytest.mark.django_db
def test_the_address_behind_a_trusted_proxy_is_counted(client, settings):
    from tests.factories import make_user

    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    make_user("officer")
    for _ in range(3):
        _login(client, "officer", "wrong", address="127.0.0.1", HTTP_X_FORWARDED_FOR="192.0.2.1")
    behind = dict(address="127.0.0.1", HTTP_X_FORWARDED_FOR="192.0.2.1")
    assert _refused(_login(client, "officer", "pw-officer", **behind))
    other = dict(address="127.0.0.1", HTTP_X_FORWARDED_FOR="192.0.2.2")
    assert _logged_in(_login(client, "officer", "pw-officer", **other))


@pytest.mark.django_db
def test_rotating_forwarded_for_from_an_untrusted_peer_does_not_escape_the_limit(client, settings):
    """gunicorn reached directly: each attempt claims another X-Forwarded-For; the peer counts."""
    from tests.factories import make_user

    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    make_user("officer")
    for i in range(3):
        _login(
            client,
            "officer",
            "wrong",
            address="203.0.113.5",
            HTTP_X_FORWARDED_FOR=f"198.51.100.{i}",
        )
    response = _login(
        client, "officer", "pw-officer", address="203.0.113.5", HTTP_X_FORWARDED_FOR="198.51.100.99"
    )
    assert _refused(response)
