from django.conf import settings
from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path
from health_check.views import HealthCheckView

# /health/: the database, the cache and, where there is one, the Celery broker (200 or 500).
HEALTH_CHECKS = ["health_check.Database", "health_check.Cache"]
if settings.REDIS_URL:
    from redis.asyncio import Redis

    HEALTH_CHECKS.append(
        (
            "health_check.contrib.redis.Redis",
            {"client_factory": lambda: Redis.from_url(settings.REDIS_URL)},
        )
    )

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", include("ratings.web.api.urls")),
    # Unnamed: for the proxy and monitoring, not a page (the public URL sweeps take named ones).
    path("health/", HealthCheckView.as_view(checks=HEALTH_CHECKS)),
]
# The public site in every language: English without a prefix (today's paths keep working),
# /de/… and /fr/… besides. A language is a path, so pages stay cacheable whole and the switcher
# is plain links (no form, no script).
urlpatterns += i18n_patterns(path("", include("ratings.web.urls")), prefix_default_language=False)
