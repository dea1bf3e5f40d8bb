"""The fives arithmetic both domino games count by: what a placement scores, and a total
rounded to the nearest multiple of five."""

from __future__ import annotations


def placement_points(ends_sum: int) -> int:
    """A placement scores the counting-ends sum when it is a positive multiple of 5."""
    return ends_sum if ends_sum > 0 and ends_sum % 5 == 0 else 0


def round_to_five(points: int) -> int:
    """Nearest multiple of 5 (whole numbers have no ties): 3 -> 5, 2 -> 0, 17 -> 15."""
    return (points + 2) // 5 * 5
