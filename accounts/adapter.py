"""allauth's adapter: sign-up refuses usernames that look like another player's."""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter

from .usernames import validate_username


class AccountAdapter(DefaultAccountAdapter):  # type: ignore[misc]
    def clean_username(self, username: str, shallow: bool = False) -> str:
        username = super().clean_username(username, shallow=shallow)
        if not shallow:  # shallow: allauth generating a name, without database look-ups
            validate_username(username)
        return username
