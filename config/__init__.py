"""Project configuration (settings, URLs, ASGI, Celery).

It lives in ``config/``: a top-level package named ``platform`` would shadow
Python's own ``platform`` module. ``platform/`` holds deployment notes instead.
"""
