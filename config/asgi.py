"""ASGI entry point: HTTP through Django, websockets through Channels."""

import gc
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.core.asgi import get_asgi_application

# daphne serves /static/ itself, so `make run` needs nothing else (platform/README.md).
django_asgi_app = ASGIStaticFilesHandler(get_asgi_application())

from config.routing import build_application  # noqa: E402
from games.heartbeat import start_web_heartbeat  # noqa: E402

application = build_application(django_asgi_app)

# Long-lived objects (Django, the URLconf, models) out of the collector's way, and
# fewer young-generation passes: full collections were pausing the event loop.
gc.freeze()
gc.set_threshold(50_000, 20, 20)
start_web_heartbeat()  # the web tier's liveness, for telling an outage from a silent player
