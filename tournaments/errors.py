"""What a club or tournament request that cannot be done raises: a translated message for
the user, and the API's code and status (docs/api.md's error shape)."""

from __future__ import annotations


class Refused(Exception):
    status = 400
    code = "bad_request"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Forbidden(Refused):
    """Allowed to someone else: an organizer's or a club admin's action."""

    status = 403
    code = "forbidden"


class NotFound(Refused):
    status = 404
    code = "not_found"
