from django.urls import include, path

from ratings.web import views

app_name = "ratings"

federation_patterns = [
    path("", views.federation, name="federation"),
    path("lists/<str:period>/", views.rating_list, name="list"),
    path("lists/<str:period>/export.<str:fmt>", views.list_export, name="list_export"),
    path("lists/<str:period>/native.txt", views.list_native_export, name="list_native_export"),
    path("lists/<str:period>/diff/", views.list_diff, name="list_diff"),
    path("players/<str:player>/", views.player, name="player"),
    path("players/<str:player>/explain/<int:run>/", views.explain, name="explain"),
    path("players/<str:player>/live/", views.live_explain, name="live_explain"),
    path("events/<str:code>/", views.event, name="event"),
    path("runs/<int:run>/<str:part>.json", views.run_file, name="run_file"),
]

urlpatterns = [
    path("", views.home, name="home"),
    path("search/", views.search, name="search"),
    path("federations/<slug:federation>/", include(federation_patterns)),
    path("what-if/", views.whatif_index, name="whatif_index"),
    path("what-if/<slug:system>/", views.whatif, name="whatif"),
]
