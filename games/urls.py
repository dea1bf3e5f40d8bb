from django.urls import path

from . import api, views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz),
    path("rules/", views.rules, name="rules"),
    path("matches/<uuid:match_id>/", views.match_page, name="match"),
    path("api/me", api.me),
    path("api/seeks", api.seeks),
    path("api/seeks/<int:seek_id>/accept", api.seek_accept),
    path("api/seeks/<int:seek_id>/cancel", api.seek_cancel),
    path("api/matches", api.matches),
    path("api/matches/computer", api.play_computer),
    path("api/matches/one-device", api.one_device),
    path("api/matches/<uuid:match_id>", api.match_detail),
    path("api/matches/<uuid:match_id>/commands", api.match_command),
    path("api/matches/<uuid:match_id>/rematch", api.match_rematch),
    path("api/matches/<uuid:match_id>/record", api.match_record),
    path("api/tokens", api.tokens),
    path("api/tokens/<int:token_id>/revoke", api.token_revoke),
]
