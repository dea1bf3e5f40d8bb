"""Production settings (config/settings.py, config/security.py).

With DEBUG=false and HTTPS=true (behind a TLS proxy) the deployment check passes with no
warning, plain HTTP is redirected, and the cookies are Secure; without HTTPS=true (a club's
server on a local network) signing in over plain HTTP works. Each case runs manage.py in a
process of its own, since the settings are read from the environment once.
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]
HOST = "example.org"
PASSWORD = "pw-alice-security-1"

# Signs in through allauth's form with CSRF checks on, as a browser would, and reports
# the statuses, headers and cookie flags it saw.
LOGIN_SCRIPT = """
import json, os
from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from django.test import Client

host = os.environ["TEST_HOST"]
secure = os.environ.get("HTTPS") == "true"
scheme = "https" if secure else "http"
proxy = {"HTTP_X_FORWARDED_PROTO": "https"} if secure else {}
user = User.objects.create_user("alice", email="alice@example.org",
                                password=os.environ["TEST_PASSWORD"])
EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
client = Client(enforce_csrf_checks=True, HTTP_HOST=host)
out = {}
plain = client.get("/accounts/login/")
out["plain"] = [plain.status_code, plain.get("Location")]
page = client.get("/accounts/login/", **proxy)
out["page"] = page.status_code
out["csp"] = page.get("Content-Security-Policy")
out["hsts"] = page.get("Strict-Transport-Security")
posted = client.post(
    "/accounts/login/",
    {"login": "alice", "password": os.environ["TEST_PASSWORD"],
     "csrfmiddlewaretoken": client.cookies["csrftoken"].value},
    HTTP_ORIGIN=f"{scheme}://{host}", **proxy)
out["login"] = [posted.status_code, posted.get("Location")]
out["cookies"] = {name: {"secure": bool(m["secure"]), "httponly": bool(m["httponly"]),
                         "samesite": m["samesite"]} for name, m in client.cookies.items()}
out["account"] = client.get("/account/", **proxy).status_code
print("RESULT " + json.dumps(out))
"""


def production_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "REDIS_URL", "ACCOUNT_RATE_LIMITS_OFF", "HTTPS",
                        "ACCOUNT_EMAIL_VERIFICATION", "TEST_FIXED_DEALS")}
    env.update(DEBUG="false", SECRET_KEY=secrets.token_urlsafe(50), ALLOWED_HOSTS=HOST,
               VAR_DIR=str(tmp_path), EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
               TEST_HOST=HOST, TEST_PASSWORD=PASSWORD, LOG_LEVEL="ERROR")
    env.update(extra)
    return env


def manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "manage.py"), *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=180)


def sign_in(env: dict[str, str]) -> dict[str, Any]:
    migrated = manage(env, "migrate", "--noinput", "-v0")
    assert migrated.returncode == 0, migrated.stderr
    ran = manage(env, "shell", "-c", LOGIN_SCRIPT)
    assert ran.returncode == 0, ran.stderr
    line = next(x for x in ran.stdout.splitlines() if x.startswith("RESULT "))
    result: dict[str, Any] = json.loads(line.removeprefix("RESULT "))
    return result


def test_the_deployment_check_passes_behind_tls(tmp_path: Path) -> None:
    env = production_env(tmp_path, HTTPS="true")
    checked = manage(env, "check", "--deploy", "--fail-level", "WARNING")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "WARNINGS" not in checked.stdout + checked.stderr


def test_without_https_the_deployment_check_names_what_is_missing(tmp_path: Path) -> None:
    checked = manage(production_env(tmp_path), "check", "--deploy")
    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in checked.stdout + checked.stderr


def test_behind_tls_http_is_redirected_and_cookies_are_secure(tmp_path: Path) -> None:
    seen = sign_in(production_env(tmp_path, HTTPS="true"))
    assert seen["plain"] == [301, f"https://{HOST}/accounts/login/"]
    assert seen["page"] == 200
    assert "max-age=31536000" in seen["hsts"] and "includeSubDomains" in seen["hsts"]
    assert "script-src 'self'" in seen["csp"]
    assert seen["login"] == [302, "/"]
    assert seen["cookies"]["sessionid"] == {"secure": True, "httponly": True, "samesite": "Lax"}
    assert seen["cookies"]["csrftoken"]["secure"] is True
    assert seen["account"] == 200


def test_over_plain_http_signing_in_works(tmp_path: Path) -> None:
    seen = sign_in(production_env(tmp_path))
    assert seen["plain"] == [200, None]
    assert seen["hsts"] is None
    assert "default-src 'self'" in seen["csp"]
    assert seen["login"] == [302, "/"]
    # Secure cookies would never come back over plain HTTP: sign-in would fail its CSRF check.
    assert seen["cookies"]["sessionid"]["secure"] is False
    assert seen["cookies"]["csrftoken"]["secure"] is False
    assert seen["account"] == 200


@pytest.mark.django_db
def test_every_page_carries_the_content_security_policy() -> None:
    client = Client()
    for path in ("/", "/rules/", "/accounts/login/", "/api/me", "/does-not-exist/"):
        policy = client.get(path).get("Content-Security-Policy", "")
        directives = dict(d.split(" ", 1) for d in policy.split("; "))
        assert directives["script-src"] == "'self'", (path, policy)
        assert directives["style-src"] == "'self'"
        assert directives["frame-ancestors"] == "'none'"
        assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy
        # Websockets to this host only, never to any host.
        assert directives["connect-src"] == "'self' ws://testserver wss://testserver"
