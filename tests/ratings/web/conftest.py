import pytest
from django.conf import settings
from django.core.cache import cache
from django.utils import translation


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Selectors cache facts of published lists by list id; ids are reused between tests."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _default_language():
    """Each test starts in the site's default language: a request through the test client
    leaves its page's language active in the thread (a /fr/ page: French) for what follows."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)
