"""A request cut short when daphne stops is not logged as an error (config/log_filters.py);
any other exception a task left behind still is."""

from __future__ import annotations

import asyncio
import gc
import logging

import pytest
from django.core.exceptions import RequestAborted


def _abandoned_task_raising(error: Exception) -> None:
    """A task that raised ``error`` and that nobody awaited, collected: asyncio logs it
    through its default exception handler, as at daphne's stop."""
    async def fail() -> None:
        raise error

    loop = asyncio.new_event_loop()
    try:
        task = loop.create_task(fail())
        loop.run_until_complete(asyncio.sleep(0.01))
        assert task.done()
        del task
        gc.collect()
    finally:
        loop.close()


def test_a_request_aborted_by_a_stop_is_not_logged(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR):
        _abandoned_task_raising(RequestAborted())
        _abandoned_task_raising(ValueError("a real fault"))
    left = [record for record in caplog.records if record.name == "asyncio"]
    assert [type(record.exc_info[1]) for record in left if record.exc_info] == [ValueError]
    assert "never retrieved" in left[0].getMessage()
