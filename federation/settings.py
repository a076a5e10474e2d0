"""Settings read from the environment.

Embedded default (nothing set): SQLite file in the project, Celery tasks run eagerly in-process,
DEBUG on. Production (PRODUCTION=1): SECRET_KEY and ALLOWED_HOSTS must come from the environment,
HTTPS-only cookies, HSTS and a content security policy; passes `check --deploy`.
"""

from __future__ import annotations

import os
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from federation.env import database_from_url, env_bool, env_list

BASE_DIR = Path(__file__).resolve().parent.parent

PRODUCTION = env_bool("PRODUCTION", False)
DEBUG = env_bool("DEBUG", not PRODUCTION)

_DEV_SECRET = "dev-only-insecure-key-do-not-use-in-production-0123456789abcdef"
SECRET_KEY = os.environ.get("SECRET_KEY", "" if PRODUCTION else _DEV_SECRET)
if PRODUCTION and (not SECRET_KEY or SECRET_KEY == _DEV_SECRET):
    raise ImproperlyConfigured("PRODUCTION=1 needs SECRET_KEY in the environment")

ALLOWED_HOSTS = env_list(
    "ALLOWED_HOSTS", [] if PRODUCTION else ["127.0.0.1", "localhost", "testserver", "[::1]"]
)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_filters",
    "ninja",  # its own static files for the Swagger UI at /api/v1/docs/ (no CDN)
    "federation",
    "tournaments",
    "ratings",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "federation.middleware.ContentSecurityPolicyMiddleware",
    "federation.middleware.HostileInputMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "federation.urls"
WSGI_APPLICATION = "federation.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "federation.cycle_free.DjangoTemplates",  # leaves no reference cycle
        "NAME": "django",  # as Django names its own
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": database_from_url(os.environ.get("DATABASE_URL"), str(BASE_DIR / "db.sqlite3"))
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# A covering index's INCLUDE columns are PostgreSQL's; on SQLite (the demo) the index keeps its
# keys only, which is all the demo needs (ratings.models.HISTORY_COLUMNS).
SILENCED_SYSTEM_CHECKS = ["models.W040"]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
# Public pages in English (no prefix), German (/de/…) and French (/fr/…); see federation/urls.py.
LANGUAGES = [("en", "English"), ("de", "Deutsch"), ("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = ["federation.formats"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
# Files written once at publication (a list's exports), served by the site.
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "media"))

LOGIN_URL = "admin:login"

# Uploaded results tables are parsed in memory; nothing larger is a results table.
DATA_UPLOAD_MAX_MEMORY_SIZE = 12 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 12 * 1024 * 1024
DATA_UPLOAD_MAX_NUMBER_FIELDS = 20000  # an event's inline games

# Public pages (published lists, players, events) are cached whole for this many seconds; a
# publication invalidates them at once (ratings/web/page_cache.py). 0 turns the cache off.
PUBLIC_PAGE_CACHE_SECONDS = int(os.environ.get("PUBLIC_PAGE_CACHE_SECONDS", "300"))

# Login throttling (federation/login_throttle.py): failed attempts per (username, client address)
# within the window; a username is refused from every address after USERNAME_FACTOR times that.
LOGIN_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
# Addresses (or networks) of the reverse proxies whose X-Forwarded-For is believed; from any
# other peer the header is ignored and the peer's own address is the client.
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", ["127.0.0.1", "::1"] if PRODUCTION else [])
LOGIN_FAILURE_WINDOW_SECONDS = int(os.environ.get("LOGIN_FAILURE_WINDOW_SECONDS", "900"))

# Every key has a lifetime (ratings/web/page_cache.py). The per-process cache is bounded by entries;
# production needs CACHE_REDIS_URL (checked by `check --deploy`): a Redis instance of its own
# with maxmemory and allkeys-lru, never the broker's (DEPLOYMENT.md).
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "federation-ratings",
        "TIMEOUT": 300,
        "OPTIONS": {"MAX_ENTRIES": 1000},
    }
}
if os.environ.get("CACHE_REDIS_URL"):
    CACHES["default"] = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": os.environ["CACHE_REDIS_URL"],
        "TIMEOUT": 300,
    }

# --- Celery -------------------------------------------------------------------------------
# Reliability first: a task is acknowledged only after it ran (a killed worker's task is
# redelivered), one message prefetched at a time, hard limits so nothing hangs forever, and a
# Redis visibility timeout above the hard limit so a long task is not delivered twice.
REDIS_URL = os.environ.get("REDIS_URL", "")
CELERY_TASK_SOFT_TIME_LIMIT = int(os.environ.get("CELERY_TASK_SOFT_TIME_LIMIT", "1500"))
CELERY_TASK_TIME_LIMIT = int(os.environ.get("CELERY_TASK_TIME_LIMIT", "1800"))
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_DEFAULT_QUEUE = "ratings"
CELERY_TASK_ROUTES = {"ratings.*": {"queue": "ratings"}}
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": CELERY_TASK_TIME_LIMIT + 600,
}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULE = {
    "schedule-due-runs": {
        "task": "ratings.schedule_due_runs",
        "schedule": 24 * 60 * 60,
    },
    "reap-stuck-runs": {
        "task": "ratings.reap_stuck_runs",
        "schedule": 60,  # a dead worker's run is re-queued within a minute
    },
    # Unofficial live ratings, also refreshed after each acceptance (ratings.services.live).
    "refresh-live-ratings": {
        "task": "ratings.refresh_all_live_ratings",
        "schedule": 24 * 60 * 60,
    },
}
# The reaper re-queues, at once, runs a worker took but no longer holds (the worker died), and
# runs never taken after this many seconds (their message was lost); a re-queued run that is in
# fact executing is a no-op (its row is locked).
RATING_RUN_REAP_AFTER_SECONDS = int(os.environ.get("RATING_RUN_REAP_AFTER_SECONDS", "900"))

# --- Security -----------------------------------------------------------------------------
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; object-src 'none'; base-uri 'self'; frame-ancestors 'none'; "
    "form-action 'self'"
)
if PRODUCTION:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(365 * 24 * 3600)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
