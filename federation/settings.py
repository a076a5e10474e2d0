"""Settings read from the environment (environs: a value that does not parse is refused with
the variable's name).

Embedded default (nothing set): SQLite file in the project, Celery tasks run eagerly in-process,
DEBUG on. Production (PRODUCTION=1): SECRET_KEY and ALLOWED_HOSTS must come from the environment,
HTTPS-only cookies, HSTS and a content security policy; passes `check --deploy`.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from environs import Env
from marshmallow.validate import Range

BASE_DIR = Path(__file__).resolve().parent.parent
env = Env()


def _names(name: str, default: list[str]) -> list[str]:
    """A comma-separated list: spaces around names and empty entries are dropped."""
    return [item.strip() for item in env.list(name, default) if item.strip()]


PRODUCTION = env.bool("PRODUCTION", False)
DEBUG = env.bool("DEBUG", not PRODUCTION)

_DEV_SECRET = "dev-only-insecure-key-do-not-use-in-production-0123456789abcdef"
SECRET_KEY = env.str("SECRET_KEY", "" if PRODUCTION else _DEV_SECRET)
if PRODUCTION and (not SECRET_KEY or SECRET_KEY == _DEV_SECRET):
    raise ImproperlyConfigured("PRODUCTION=1 needs SECRET_KEY in the environment")

ALLOWED_HOSTS = _names(
    "ALLOWED_HOSTS", [] if PRODUCTION else ["127.0.0.1", "localhost", "testserver", "[::1]"]
)
CSRF_TRUSTED_ORIGINS = _names("CSRF_TRUSTED_ORIGINS", [])

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
    "axes",  # admin login throttling
    "health_check",  # /health/ (federation/urls.py)
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
    "axes.middleware.AxesMiddleware",  # last: turns a locked-out login into its refusal
]

ROOT_URLCONF = "federation.urls"
WSGI_APPLICATION = "federation.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        # No "loaders": Django's cached loader unless DEBUG is on.
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

# DATABASE_URL (dj-database-url): postgres://user:pass@host:5432/name, its query string passed to
# the driver (e.g. ?sslmode=require); unset, the embedded SQLite file.
DATABASES = {"default": env.dj_db_url("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Persistent connections, checked before a request's first query (a restarted server fails
    # no request).
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", 60)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    _options = DATABASES["default"].setdefault("OPTIONS", {})
    # psycopg prepares a statement sent with its values apart after this many runs on a
    # connection (0: at once); empty: never, behind a pooler that cannot keep prepared statements.
    _threshold = env.str("DATABASE_PREPARE_THRESHOLD", "0")
    _options["prepare_threshold"] = (
        env.int("DATABASE_PREPARE_THRESHOLD", 0, validate=Range(min=0)) if _threshold else None
    )
    # On, values go apart from the statement, so psycopg prepares it and PostgreSQL plans a page's
    # queries once per connection: the player page's four queries ran in 0.9 ms instead of 4.5 ms,
    # bench medians player 32.8 -> 25.8 ms, list 21.7 -> 18.0, API 13.1 -> 10.3. On in the site's
    # processes (gunicorn.conf.py), off by default: Django 5.2's own migrations fail with it (an
    # added foreign key is two commands in one statement, which a bound statement cannot hold).
    _options["server_side_binding"] = env.bool("DATABASE_SERVER_SIDE_BINDING", False)
elif DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("timeout", 20)
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
STATIC_ROOT = env.path("STATIC_ROOT", BASE_DIR / "staticfiles")
# Files written once at publication (a list's exports), served by the site.
MEDIA_ROOT = env.path("MEDIA_ROOT", BASE_DIR / "media")

LOGIN_URL = "admin:login"

# Uploaded results tables are parsed in memory; nothing larger is a results table.
DATA_UPLOAD_MAX_MEMORY_SIZE = 12 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 12 * 1024 * 1024
DATA_UPLOAD_MAX_NUMBER_FIELDS = 20000  # an event's inline games

# Public pages (published lists, players, events) are cached whole for this many seconds; a
# publication invalidates them at once (ratings/web/page_cache.py). 0 turns the cache off.
PUBLIC_PAGE_CACHE_SECONDS = env.int("PUBLIC_PAGE_CACHE_SECONDS", 300)

# Admin login throttling (django-axes, failures kept in the database): after LOGIN_FAILURE_LIMIT
# failed logins from one client address within LOGIN_FAILURE_WINDOW_SECONDS, every login from
# that address is refused until the window has passed since its last failure, whatever the
# username (the refusal says nothing of whether it exists); a success clears the address's count.
# `manage.py axes_reset` (or axes_reset_ip ADDRESS) lifts a lockout at once.
LOGIN_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", 5)
LOGIN_FAILURE_WINDOW_SECONDS = env.int("LOGIN_FAILURE_WINDOW_SECONDS", 900)
# Addresses (or networks) of the reverse proxies whose X-Forwarded-For is believed; from any
# other peer the header is ignored and the peer's own address is the client.
TRUSTED_PROXIES = _names("TRUSTED_PROXIES", ["127.0.0.1", "::1"] if PRODUCTION else [])
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: refuses a locked-out client
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = LOGIN_FAILURE_LIMIT
AXES_COOLOFF_TIME = timedelta(seconds=LOGIN_FAILURE_WINDOW_SECONDS)
AXES_LOCKOUT_PARAMETERS = ["ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "federation.login_throttle.client_address"
AXES_ENABLE_ADMIN = False
AXES_DISABLE_ACCESS_LOG = True  # failures only: the audit trail is federation.audit's
AXES_COOLOFF_MESSAGE = (
    "Too many failed login attempts. "
    f"Try again in {max(1, LOGIN_FAILURE_WINDOW_SECONDS // 60)} minutes."
)

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
CACHE_REDIS_URL = env.str("CACHE_REDIS_URL", "")
if CACHE_REDIS_URL:
    CACHES["default"] = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": CACHE_REDIS_URL,
        "TIMEOUT": 300,
    }

# --- Celery -------------------------------------------------------------------------------
# Reliability first: a task is acknowledged only after it ran (a killed worker's task is
# redelivered), one message prefetched at a time, hard limits so nothing hangs forever, and a
# Redis visibility timeout above the hard limit so a long task is not delivered twice.
REDIS_URL = env.str("REDIS_URL", "")
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", 1500)
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", 1800)
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
RATING_RUN_REAP_AFTER_SECONDS = env.int("RATING_RUN_REAP_AFTER_SECONDS", 900)

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
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", 365 * 24 * 3600)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", "WARNING")},
}

# Errors and slow transactions to Sentry, only when SENTRY_DSN is set.
SENTRY_DSN = env.str("SENTRY_DSN", "")
if SENTRY_DSN:
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(
        dsn=SENTRY_DSN,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        environment=env.str("SENTRY_ENVIRONMENT", "production" if PRODUCTION else "development"),
        traces_sample_rate=env.float("SENTRY_TRACES_SAMPLE_RATE", 0.0),
        send_default_pii=False,
    )
