from django.contrib import admin
from django.urls import include, path

from federation.login_throttle import ThrottledAdminLoginForm

admin.site.login_form = ThrottledAdminLoginForm  # failed logins are throttled

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", include("ratings.api_urls")),
    path("", include("ratings.urls")),
]
