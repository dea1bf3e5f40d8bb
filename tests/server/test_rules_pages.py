"""The rules pages: one per game (``/rules/<game>/``), each with a tab for every game, in
every language the site offers, with the numbers a player looks for."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client

from games import registry

pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "ru", "pt", "fr")
TIMES = "\N{MULTIPLICATION SIGN}"

# Numbers each page must show, in every language (they sit outside the translated text or
# survive translation unchanged).
KEY_NUMBERS = {
    "spectacular-bid": ("150", "300"),
    "fives": ("100", "250", "500", f"4 {TIMES} 7 = 28", "3 + 12 + 1 + 4 = 20", "9 + 12 + 7 = 28"),
    "dice": (f"(5 + 5) {TIMES} 2 = 20", "12 + 24 = 36", "36 + 8 = 44", f"14 {TIMES} 4 = 56",
             "1 2 3 4 5 → 75", "2 3 4 5 6 → 100", f"30 {TIMES} 5 = 150", "6 + 6 = 12"),
}

# A sentence of each page that must not be left in English once the page is translated.
ENGLISH_LINE = {
    "spectacular-bid": "How to play Spectacular Bid",
    "fives": "How to play Fives with the cross",
    "dice": "How to play Five dice, five rounds",
}

# The same heading in each translation (the catalogue is in use, not just the fallback).
TRANSLATED_TITLE = {
    "fives": {"ru": "Как играть в пятёрки с крестом",  # noqa: RUF001 (Russian text)
              "pt": "Como jogar Fives com cruz",
              "fr": "Comment jouer aux Fives à la croix"},
    "dice": {"ru": "Как играть в «Пять костей, пять раундов»",
             "pt": "Como jogar Cinco dados, cinco rodadas",
             "fr": "Comment jouer à Cinq dés, cinq manches"},
}


def page(path: str, language: str, *, header: bool = False) -> str:
    client = Client()
    if header:
        response = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
    else:
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        response = client.get(path)
    assert response.status_code == 200, (path, language, response.status_code)
    assert response["Content-Language"] == language
    return response.content.decode()


def tabs(html: str) -> list[tuple[str, bool]]:
    """The rules tabs: (href, is current) for each link of the tab row."""
    row = re.search(r'<nav class="pg-game-tabs"[^>]*data-testid="rules-games">(.*?)</nav>',
                    html, re.S)
    assert row, "no tab row"
    return [(href, "aria-current" in rest)
            for href, rest in re.findall(r'<a href="([^"]+)"([^>]*)>', row.group(1))]


def test_every_game_names_its_rules_page() -> None:
    assert registry.game("fives").rules_template == "games/fives/rules.html"  # type: ignore[attr-defined]
    assert registry.game("dice").rules_template == "games/dice/rules.html"  # type: ignore[attr-defined]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("key", [p.key for p in registry.hosted_games()])  # pages written by hand
def test_rules_page_answers_with_tabs_and_numbers(key: str, language: str) -> None:
    html = page(f"/rules/{key}/", language)
    keys = [plugin.key for plugin in registry.all_games()]
    assert tabs(html) == [(f"/rules/{k}/", k == key) for k in keys]
    for number in KEY_NUMBERS[key]:
        assert number in html, (key, language, number)
    assert 'data-testid="rules-clock-note"' in html
    if language == "en":
        assert ENGLISH_LINE[key] in html
    else:
        assert ENGLISH_LINE[key] not in html, (key, language)
        if key in TRANSLATED_TITLE:
            assert TRANSLATED_TITLE[key][language] in html


@pytest.mark.parametrize("language", ["ru", "pt", "fr"])
def test_accept_language_header_is_honoured(language: str) -> None:
    html = page("/rules/dice/", language, header=True)
    assert TRANSLATED_TITLE["dice"][language] in html


def test_plain_rules_address_is_spectacular_bids_page() -> None:
    html = page("/rules/", "en")
    assert "How to play Spectacular Bid" in html
    assert ("/rules/spectacular-bid/", True) in tabs(html)


@pytest.mark.parametrize("key", [p.key for p in registry.hosted_games()])  # pages written by hand
def test_no_inline_script_or_style(key: str) -> None:
    """The CSP forbids inline code: every script has a src, and nothing carries a style."""
    html = page(f"/rules/{key}/", "en")
    assert not re.search(r"<script(?![^>]*\bsrc=)", html)
    assert "<style" not in html
    assert " style=" not in html


def test_unknown_game_has_no_rules_page() -> None:
    assert Client().get("/rules/no-such-game/").status_code == 404


def texts(html: str) -> set[str]:
    """The article's sentences: each paragraph, item, heading and cell, tags stripped."""
    article = re.search(r"<article.*?</article>", html, re.S)
    assert article
    found = set()
    for block in re.findall(r"<(p|li|h2|h3|td|th)\b[^>]*>(.*?)</\1>", article.group(0), re.S):
        text = " ".join(re.sub(r"<[^>]+>", " ", block[1]).split())
        if len(text) >= 20 and re.search(r"[A-Za-z]{3}", text):
            found.add(text)
    return found


@pytest.mark.parametrize("language", ["ru", "pt", "fr"])
@pytest.mark.parametrize("key", [p.key for p in registry.hosted_games()])  # pages written by hand
def test_every_sentence_is_translated(key: str, language: str) -> None:
    english = texts(page(f"/rules/{key}/", "en"))
    assert len(english) > 40
    left = english & texts(page(f"/rules/{key}/", language))
    assert not left, (language, sorted(left)[:3])
