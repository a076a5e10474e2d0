from django.contrib import admin
from django.urls import include, path

from federation.login_throttle import ThrottledAdminLoginForm
from ratings.api import api

admin.site.login_form = ThrottledAdminLoginForm  # failed logins are throttled

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", api.urls),
    path("", include("ratings.urls")),
]
