"""Failed admin logins are throttled per (username, address), with a higher ceiling per username
and per client address (Django cache); X-Forwarded-For is believed only from TRUSTED_PROXIES."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import RequestFactory
from django.urls import reverse

from federation import login_throttle


@pytest.fixture(autouse=True)
def fresh_cache(settings):
    settings.LOGIN_FAILURE_LIMIT = 3
    settings.LOGIN_FAILURE_WINDOW_SECONDS = 600
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed
    cache.clear()
    yield
    cache.clear()


def _login(client, username, password, address="10.0.0.1"):
    return client.post(
        reverse("admin:login"), {"username": username, "password": password}, REMOTE_ADDR=address
    )


def _logged_in(response) -> bool:
    return response.status_code == 302


@pytest.mark.django_db
def test_right_password_is_refused_after_the_limit_of_failures_from_that_address(client):
    from tests.factories import make_user

    make_user("officer")
    assert _logged_in(_login(client, "officer", "pw-officer"))
    client.logout()
    for _ in range(3):
        response = _login(client, "officer", "wrong")
        assert response.status_code == 200 and "Too many" not in response.content.decode()
    response = _login(client, "officer", "pw-officer")
    assert not _logged_in(response)
    assert "Too many failed login attempts. Try again in 10 minutes." in response.content.decode()
    # The owner at another address is not locked out by someone guessing elsewhere.
    assert _logged_in(_login(client, "officer", "pw-officer", address="10.9.9.9"))


@pytest.mark.django_db
def test_the_username_ceiling_stops_a_guess_from_many_addresses(client):
    from tests.factories import make_user

    make_user("officer")
    ceiling = 3 * login_throttle.USERNAME_FACTOR
    for i in range(ceiling):
        _login(client, "officer", "wrong", address=f"10.1.{i // 250}.{i % 250}")
    # One failure per address, so no pair and no address counter is full: the ceiling is.
    assert not _logged_in(_login(client, "officer", "pw-officer", address="10.9.9.9"))


@pytest.mark.django_db
def test_the_window_expires(client, settings):
    from tests.factories import make_user

    make_user("officer")
    for _ in range(3):
        _login(client, "officer", "wrong")
    assert login_throttle.is_throttled(None, "officer") is False  # another address (none)
    request = RequestFactory().post("/", REMOTE_ADDR="10.0.0.1")
    assert login_throttle.is_throttled(request, "officer")
    cache.clear()  # what the cache does after the window
    assert _logged_in(_login(client, "officer", "pw-officer"))


@pytest.mark.django_db
def test_a_success_clears_the_username_counter(client):
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
def test_one_address_trying_many_usernames_is_throttled(client):
    from tests.factories import make_user

    make_user("victim")
    for i in range(3 * login_throttle.ADDRESS_FACTOR):
        _login(client, f"guess{i}", "wrong", address="10.6.6.6")
    assert not _logged_in(_login(client, "victim", "pw-victim", address="10.6.6.6"))
    assert _logged_in(_login(client, "victim", "pw-victim", address="10.0.0.2"))


@pytest.mark.django_db
def test_usernames_are_counted_case_insensitively_and_never_stored_in_clear():
    login_throttle.record_failure(None, "Officer ")
    key = login_throttle._key("user", "officer")
    assert cache.get(key) == 1
    assert cache.get(login_throttle._key("pair", "OFFICER", "")) == 1
    assert "officer" not in key


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
def test_rotating_forwarded_for_from_an_untrusted_peer_does_not_escape_the_limit(client, settings):
    """gunicorn reached directly: each attempt claims another X-Forwarded-For; the peer counts."""
    from tests.factories import make_user

    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    make_user("officer")
    for i in range(3):
        client.post(
            reverse("admin:login"),
            {"username": "officer", "password": "wrong"},
            REMOTE_ADDR="203.0.113.5",
            HTTP_X_FORWARDED_FOR=f"198.51.100.{i}",
        )
    response = client.post(
        reverse("admin:login"),
        {"username": "officer", "password": "pw-officer"},
        REMOTE_ADDR="203.0.113.5",
        HTTP_X_FORWARDED_FOR="198.51.100.99",
    )
    assert not _logged_in(response)
