"""Content-Security-Policy on every response (Django 5.2 has no built-in CSP).

The pages load scripts and styles only from /static/: no inline scripts, no style
attributes, no eval. Data a script needs comes in ``<script type="application/json">``
(json_script), which CSP allows since it is never executed. The policy is sent in every
mode, DEBUG included, so the browser tests see any violation the pages would cause.

Websockets: ``connect-src 'self'`` covers same-origin ws:/wss: in current browsers, but
older Safari does not count them as 'self', so the request's own host is named for both
schemes (never ws:/wss: to any host).
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse
from django.utils.deprecation import MiddlewareMixin

HEADER = "Content-Security-Policy"

# The directives as settings.CONTENT_SECURITY_POLICY holds them: name -> sources.
Policy = dict[str, list[str]]


def policy_for(request: HttpRequest) -> Policy:
    """The policy from settings, with this host's websocket origins added."""
    configured: Policy = settings.CONTENT_SECURITY_POLICY
    policy = {name: list(sources) for name, sources in configured.items()}
    try:
        host = request.get_host()
    except DisallowedHost:
        return policy  # a 400 page: nothing on it opens sockets
    if "connect-src" in policy:
        schemes = ["wss"] if request.is_secure() else ["ws", "wss"]
        policy["connect-src"] += [f"{scheme}://{host}" for scheme in schemes]
    return policy


def render_policy(policy: Policy) -> str:
    return "; ".join(" ".join([name, *sources]) for name, sources in policy.items())


class ContentSecurityPolicyMiddleware(MiddlewareMixin):
    """Adds the policy to responses that do not set one of their own."""

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if HEADER not in response:
            response[HEADER] = render_policy(policy_for(request))
        return response
