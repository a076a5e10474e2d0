"""The read API's URLs, included by name from federation/urls.py (the site package does not
import the ratings app): namespace "api"."""

from ratings.web.api.endpoints import api

urlpatterns, _library, app_name = api.urls
