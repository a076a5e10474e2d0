"""Failed admin logins are throttled per username and per client address (Django cache)."""

from __future__ import annotations

import pytest
from django.core.cache import cache
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
def test_right_password_is_refused_after_the_limit_of_failures(client):
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
    # From another address too: the counter is the account's.
    assert not _logged_in(_login(client, "officer", "pw-officer", address="10.9.9.9"))


@pytest.mark.django_db
def test_the_window_expires(client, settings):
    from tests.factories import make_user

    make_user("officer")
    for _ in range(3):
        _login(client, "officer", "wrong")
    assert login_throttle.is_throttled(None, "officer")
    cache.delete(login_throttle._key("user", "officer"))  # what the cache does after the window
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
    assert "officer" not in key


def test_behind_the_proxy_the_address_is_the_last_forwarded_one(rf, settings):
    request = rf.post("/", REMOTE_ADDR="10.0.0.254", HTTP_X_FORWARDED_FOR="6.6.6.6, 192.0.2.7")
    assert login_throttle.client_address(request) == "10.0.0.254"  # no proxy declared
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    assert login_throttle.client_address(request) == "192.0.2.7"  # "6.6.6.6" was the client's
