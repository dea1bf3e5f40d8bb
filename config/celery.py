"""The Celery app (clock deadlines and the beat sweep)."""

import os
from typing import Any

from celery import Celery
from celery.signals import task_postrun, task_prerun, worker_process_init, worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Celery's Django fixup closes every database connection before and after each task
# unless told to reuse them: a new PostgreSQL connection (a forked backend) for every
# deadline task was most of the worker's CPU. Connections are kept, and Django's own
# check (errors, CONN_MAX_AGE, the health check) runs around each task instead, as it
# does around each request. The fixup reads this key as it is spelled here.
app.conf["CELERY_DB_REUSE_MAX"] = 1000
app.autodiscover_tasks()


@task_prerun.connect
@task_postrun.connect
def tidy_connections(**kwargs: Any) -> None:
    from django.db import close_old_connections

    close_old_connections()


@worker_ready.connect
@worker_process_init.connect
def tune_collection(**kwargs: Any) -> None:
    """Timed full collections in the worker (and in each prefork child, after its fork)."""
    from django.conf import settings

    from config.collector import tune_for_worker

    tune_for_worker(settings.WORKER_GC_INTERVAL_S)
