from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path

from federation.login_throttle import ThrottledAdminLoginForm

admin.site.login_form = ThrottledAdminLoginForm  # failed logins are throttled

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", include("ratings.web.api.urls")),
]
# The public site in every language: English without a prefix (today's paths keep working),
# /de/… and /fr/… besides. A language is a path, so pages stay cacheable whole and the switcher
# is plain links (no form, no script).
urlpatterns += i18n_patterns(path("", include("ratings.web.urls")), prefix_default_language=False)
