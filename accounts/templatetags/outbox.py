"""``{% outbox_url as url %}``: the outbox page's address, or "" once mail is configured."""

from __future__ import annotations

from django import template
from django.urls import reverse

from accounts import outbox

register = template.Library()


@register.simple_tag
def outbox_url() -> str:
    return reverse("outbox") if outbox.is_enabled() else ""
