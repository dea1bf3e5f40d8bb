"""Settings for ``bench.relay_app``: Channels and its Redis layer, nothing else."""

import os

SECRET_KEY = "relay-benchmark-only"
INSTALLED_APPS = ["channels"]
USE_TZ = True
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        # The pool and capacity the platform sets (platform/channels.md): with redis-py's
        # default pool of 100, 500 sockets joining at once fail with "Too many connections".
        "CONFIG": {"hosts": [{"address": os.environ["REDIS_URL"], "max_connections": 1000,
                              "socket_timeout": 30}], "capacity": 5000},
    }
}
if os.environ.get("RELAY_LAYER") == "pubsub":  # the layer the platform uses
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                                  "CONFIG": {"hosts": [os.environ["REDIS_URL"]]}}}
