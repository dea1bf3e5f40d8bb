"""ASGI entry point: HTTP through Django, websockets through Channels."""

import gc
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.core.asgi import get_asgi_application

# daphne serves /static/ itself, so `make run` needs nothing else (platform/README.md).
django_asgi_app = ASGIStaticFilesHandler(get_asgi_application())

from django.conf import settings  # noqa: E402

from config.collector import start_periodic_collection  # noqa: E402
from config.routing import build_application  # noqa: E402
from games.heartbeat import start_web_heartbeat  # noqa: E402

application = build_application(django_asgi_app)

# Long-lived objects (Django, the URLconf, models) out of the collector's way, and
# fewer young-generation passes: full collections were pausing the event loop. With
# so high a threshold the automatic collections all but stop in steady state, so a
# timer runs the full ones (config/collector.py).
gc.freeze()
gc.set_threshold(50_000, 20, 20)
start_periodic_collection(settings.WEB_GC_INTERVAL_S)
start_web_heartbeat()  # the web tier's liveness, for telling an outage from a silent player
