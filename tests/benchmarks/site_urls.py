"""URLs of the site benchmark: the real site plus a minimal Django view, the latency floor."""

from django.http import HttpResponse
from django.urls import path

from federation.urls import urlpatterns as site_urlpatterns


def floor(request):
    """The cheapest Django response: middleware, URL routing, no template, no query."""
    return HttpResponse(b"ok", content_type="text/plain")


# The site's own patterns appended (not include()d: they hold i18n_patterns, which Django
# allows only in the root URLconf).
urlpatterns = [path("bench-floor/", floor), *site_urlpatterns]
