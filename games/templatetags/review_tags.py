"""``{% load review_tags %}``: whether a match's page shows its game review."""

from __future__ import annotations

from typing import Any

from django import template

from games.play import review

register = template.Library()


@register.filter
def has_review(match: Any) -> bool:
    """A finished match of a game whose matches are reviewed (``games/play/review.py``)."""
    return match is not None and review.reviewable(match)
