"""Project configuration (settings, URLs, ASGI, Celery).

It lives in ``config/``: a top-level package named ``platform`` would shadow
Python's own ``platform`` module. ``platform/`` holds deployment notes instead.
"""

# Load the Celery app with Django, so that every process (daphne included) sends
# tasks to the configured broker, not to Celery's default one.
from .celery import app as celery_app

__all__ = ("celery_app",)
