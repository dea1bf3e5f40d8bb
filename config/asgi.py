"""ASGI entry point: HTTP through Django, websockets through Channels."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.core.asgi import get_asgi_application

# daphne serves /static/ itself, so `make run` needs nothing else (platform/README.md).
django_asgi_app = ASGIStaticFilesHandler(get_asgi_application())

from django.conf import settings  # noqa: E402

from config.collector import tune_for_web  # noqa: E402
from config.routing import build_application  # noqa: E402
from games.live.heartbeat import start_web_heartbeat  # noqa: E402

application = build_application(django_asgi_app)

tune_for_web(settings.WEB_GC_INTERVAL_S)  # frozen start-up, timed full collections
start_web_heartbeat()  # the web tier's liveness, for telling an outage from a silent player
