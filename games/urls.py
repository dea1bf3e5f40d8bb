from django.urls import path, re_path

from games.reads import advice, bests, review
from games.web import api, live_games, pages, views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz),
    path("rules/", views.rules, name="rules"),
    path("rules/<slug:game>/", views.rules, name="game_rules"),
    path("matches/<uuid:match_id>/", views.match_page, name="match"),
    path("matches/<uuid:match_id>/replay/", pages.replay_page, name="replay"),
    path("replay/", pages.replay_upload_page, name="replay_upload"),
    path("history/", pages.history_all, name="history"),
    path("players/<str:username>/history/", pages.history_player, name="player_history"),
    path("games/<slug:game>/bests/", bests.bests_page, name="bests"),
    path("api/matches/<uuid:match_id>/frames", pages.match_frames),
    path("api/replay", pages.replay_upload),
    path("api/me", api.me),
    path("api/live", live_games.live),
    path("api/seeks", api.seeks),
    path("api/seeks/<int:seek_id>/accept", api.seek_accept),
    path("api/seeks/<int:seek_id>/cancel", api.seek_cancel),
    path("api/matches", api.matches),
    path("api/matches/computer", api.play_computer),
    path("api/matches/one-device", api.one_device),
    path("api/matches/<uuid:match_id>", api.match_detail),
    path("api/matches/<uuid:match_id>/commands", api.match_command),
    path("api/matches/<uuid:match_id>/rematch", api.match_rematch),
    path("api/matches/<uuid:match_id>/seed", api.match_seed),
    path("api/matches/<uuid:match_id>/record", api.match_record),
    path("api/matches/<uuid:match_id>/advice", advice.match_advice),
    path("api/matches/<uuid:match_id>/analysis", advice.match_analysis),
    path("api/matches/<uuid:match_id>/review", review.match_review),
    path("api/tokens", api.tokens),
    path("api/tokens/<int:token_id>/revoke", api.token_revoke),
    re_path(r"^api/", api.not_found),  # last: a JSON 404 for any other /api/ path
]
