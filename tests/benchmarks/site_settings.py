"""Settings of the site benchmark: the site's own settings with the benchmark's URLs."""

from federation.settings import *  # noqa: F403

ROOT_URLCONF = "tests.benchmarks.site_urls"
DEBUG = False
LOGGING = {"version": 1, "disable_existing_loggers": False}
