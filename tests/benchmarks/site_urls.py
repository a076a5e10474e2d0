"""URLs of the site benchmark: the real site plus a minimal Django view, the latency floor."""

from django.http import HttpResponse
from django.urls import include, path


def floor(request):
    """The cheapest Django response: middleware, URL routing, no template, no query."""
    return HttpResponse(b"ok", content_type="text/plain")


urlpatterns = [
    path("bench-floor/", floor),
    path("", include("federation.urls")),
]
