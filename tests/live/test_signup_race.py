"""Ten sign-ups at the same moment with one username (or look-alikes of it) or one e-mail
address, spread over both daphne processes: each answer is a sign-up (302) or the form
with its error (200), never a server error, and one account is made."""

from __future__ import annotations

import threading
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

import pytest
from django.contrib.auth.models import User

from accounts.usernames import confusable_key

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

AT_ONCE = 10
CSRF = "s" * 32  # any 32 letters: the cookie's secret, sent back in the header
PASSWORD = "a-long-race-password-1"


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None  # a 302 is the answer looked at, not the page it leads to


OPENER = urllib.request.build_opener(NoRedirect)


def _post_signup(url: str, username: str, email: str) -> tuple[int, str]:
    body = urllib.parse.urlencode({"username": username, "email": email,
                                   "password1": PASSWORD, "password2": PASSWORD}).encode()
    request = urllib.request.Request(url + "/accounts/signup/", data=body, method="POST",
                                     headers={"Cookie": f"csrftoken={CSRF}",
                                              "X-CSRFToken": CSRF,
                                              "Content-Type": "application/x-www-form-urlencoded"})
    try:
        with OPENER.open(request, timeout=60) as response:
            return response.status, response.read().decode(errors="replace")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace")


def sign_up_at_once(stack: Any, forms: list[tuple[str, str]]) -> list[tuple[int, str]]:
    """``forms`` (username, e-mail) posted together, alternating between the daphnes."""
    barrier = threading.Barrier(len(forms))
    answers: list[tuple[int, str] | None] = [None] * len(forms)

    def one(index: int) -> None:
        username, email = forms[index]
        barrier.wait(timeout=30)
        try:
            answers[index] = _post_signup(stack.urls[index % len(stack.urls)], username, email)
        except Exception as exc:  # noqa: BLE001 - a dropped connection is a failure too
            answers[index] = (599, repr(exc))

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(forms))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    done = [answer for answer in answers if answer is not None]
    assert len(done) == len(forms), "a request did not come back"
    for status, page in done:
        assert status in (200, 302), (status, page[:500])
        if status == 200:
            assert "errorlist" in page, page[:500]  # the form with its error
    return done


def test_one_username_ten_times_at_once(live_stack) -> None:
    answers = sign_up_at_once(live_stack, [("racer", f"racer{i}@example.org")
                                           for i in range(AT_ONCE)])
    assert [status for status, _page in answers].count(302) == 1
    assert User.objects.filter(username__iexact="racer").count() == 1


def test_one_email_address_ten_times_at_once(live_stack) -> None:
    answers = sign_up_at_once(live_stack, [(f"mailer{i}", "same@example.org")
                                           for i in range(AT_ONCE)])
    assert [status for status, _page in answers].count(302) == 1
    assert User.objects.filter(email__iexact="same@example.org").count() == 1


def test_look_alike_usernames_at_once(live_stack) -> None:
    """The database's unique index knows nothing of case or look-alikes: the sign-ups'
    own check, made again under a lock, does."""
    names = ["Sprinter", "sprinter", "SPRINTER", "spr\u0456nter", "\u0455printer",
             "sprinter", "Sprinter", "SPRINTer", "sprinter", "sprinteR"]
    answers = sign_up_at_once(live_stack, [(name, f"sprinter{i}@example.org")
                                           for i, name in enumerate(names)])
    assert [status for status, _page in answers].count(302) == 1
    made = [name for name in User.objects.values_list("username", flat=True)
            if confusable_key(name) == confusable_key("sprinter")]
    assert len(made) == 1, made
