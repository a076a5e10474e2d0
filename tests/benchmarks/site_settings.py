"""Settings of the site benchmark: the site's own settings with the benchmark's URLs, and the
whole-page cache off, so every figure is a cold render (a cached page costs next to nothing and
would hide what the issue measures)."""

from federation.settings import *  # noqa: F403

ROOT_URLCONF = "tests.benchmarks.site_urls"
DEBUG = False
LOGGING = {"version": 1, "disable_existing_loggers": False}
PUBLIC_PAGE_CACHE_SECONDS = 0
