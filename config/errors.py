"""The page of a server error (``handler500``), made from as little as possible.

Whatever failed (the database, the session, a context processor) may fail again while
the error's page renders, so 500.html gets only the platform's name and no request
context; and should even that fail, a line of plain text answers.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.template import loader
from django.utils.translation import gettext as _

log = logging.getLogger(__name__)


def server_error(request: HttpRequest) -> HttpResponse:
    try:
        page = loader.get_template("500.html").render({"PLATFORM_NAME": settings.PLATFORM_NAME})
    except Exception:  # the error page must answer whatever broke
        log.exception("the server error's page could not be rendered")
        return HttpResponseServerError(_("Server error"), content_type="text/plain")
    return HttpResponseServerError(page)
