import pytest


@pytest.fixture(autouse=True)
def fast_password_hasher(settings):
    """Officials are users with passwords; the default hasher costs ~0.4 s per user."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
