import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Selectors cache facts of published lists by list id; ids are reused between tests."""
    cache.clear()
    yield
    cache.clear()
