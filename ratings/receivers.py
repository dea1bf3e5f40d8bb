"""Ratings follow the match writer's results (``games.signals``)."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from games.signals import match_annulled, match_finished

from .services import apply_match, rebuild_from


@receiver(match_finished, dispatch_uid="ratings.apply_match")
def rate_finished_match(sender: Any, match: Any, ranks: list[int], **kwargs: Any) -> None:
    apply_match(match, ranks)


@receiver(match_annulled, dispatch_uid="ratings.rebuild_after_annulment")
def rebuild_after_annulment(sender: Any, match: Any, rated_at: int | None,
                            **kwargs: Any) -> None:
    if rated_at is not None:
        rebuild_from(rated_at)  # the ratings from that match on, without it
