"""The Russian, Portuguese and French catalogues are complete, and their .mo files are the
compiled form of the .po files that sit beside them.

The .po files are read with a small parser of our own (no polib, no gettext tools), and
each .mo is loaded with Python's ``gettext.GNUTranslations``, the reader Django uses.
Whether a .mo is out of date is decided by its content, not its timestamp: a checkout
gives both files arbitrary modification times, while a .mo that lacks, or differs from,
a translation of its .po is stale whatever the clock says.
"""

from __future__ import annotations

import gettext
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("ru", "pt", "fr")
SHOWN = 15  # entries named in a failure message

# What a translation must carry over from its msgid: %-style and brace placeholders,
# HTML tags and entities.
PLACEHOLDER = re.compile(r"%\([A-Za-z_]+\)[sdif]|%[sdif]|\{[A-Za-z_0-9]*\}|</?[a-z]+[^>]*>"
                         r"|&[a-z]+;")
ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "a": "\a", "b": "\b",
           "f": "\f", "v": "\v"}


@dataclass
class Entry:
    line: int
    msgctxt: str | None = None
    msgid: str = ""
    msgid_plural: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)

    @property
    def key(self) -> str:
        """The key GNUTranslations files the entry under."""
        return self.msgid if self.msgctxt is None else f"{self.msgctxt}\x04{self.msgid}"

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags

    @property
    def translated(self) -> bool:
        return bool(self.msgstr) and all(self.msgstr.values())

    def __str__(self) -> str:
        context = f" [{self.msgctxt}]" if self.msgctxt is not None else ""
        return f"line {self.line}: {self.msgid!r}{context}"


def unquote(text: str, where: str) -> str:
    """The value of one quoted .po string, C escapes decoded."""
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise ValueError(f"{where}: expected a quoted string, got {text!r}")
    body, out, i = text[1:-1], [], 0
    while i < len(body):
        char = body[i]
        if char != "\\":
            out.append(char)
            i += 1
            continue
        code = body[i + 1: i + 2]
        if code in ESCAPES:
            out.append(ESCAPES[code])
            i += 2
        elif code.isdigit():  # octal, up to three digits
            digits = re.match(r"[0-7]{1,3}", body[i + 1:])
            assert digits is not None
            out.append(chr(int(digits.group(), 8)))
            i += 1 + len(digits.group())
        else:
            raise ValueError(f"{where}: unknown escape \\{code}")
    return "".join(out)


def read_po(path: Path) -> list[Entry]:
    """The live entries of a .po file (obsolete ``#~`` ones left out), header included.

    A state machine over the lines: a comment or a msgctxt/msgid after a msgstr starts
    a new entry, a quoted line continues the field before it."""
    entries: list[Entry] = []
    current: Entry | None = None
    target: tuple[str, int] | None = None  # the field a continuation line extends
    seen_msgstr = False
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        where = f"{path.name}:{number}"
        if not line or line.startswith("#~"):
            if not line:
                current, target, seen_msgstr = None, None, False
            continue
        starts_entry = line.startswith("#") or line.startswith(("msgctxt", "msgid "))
        if current is None or (seen_msgstr and starts_entry):
            current, target, seen_msgstr = Entry(line=number), None, False
            entries.append(current)
        if line.startswith("#"):
            if line.startswith("#,"):
                current.flags.update(flag.strip() for flag in line[2:].split(",") if flag.strip())
            target = None
            continue
        if line.startswith('"'):
            if target is None:
                raise ValueError(f"{where}: a string with no keyword before it")
            value = unquote(line, where)
            name, index = target
            if name == "msgctxt":
                current.msgctxt = (current.msgctxt or "") + value
            elif name == "msgid":
                current.msgid += value
            elif name == "msgid_plural":
                current.msgid_plural = (current.msgid_plural or "") + value
            else:
                current.msgstr[index] += value
            continue
        keyword, _, rest = line.partition(" ")
        value = unquote(rest, where)
        plural = re.fullmatch(r"msgstr\[(\d+)\]", keyword)
        if keyword in ("msgctxt", "msgid", "msgid_plural"):
            setattr(current, keyword, value)
            target = (keyword, 0)
        elif keyword == "msgstr" or plural:
            index = int(plural.group(1)) if plural else 0
            current.msgstr[index] = value
            target, seen_msgstr = ("msgstr", index), True
        else:
            raise ValueError(f"{where}: unknown keyword {keyword!r}")
    return entries


def catalogue(language: str) -> tuple[Entry, list[Entry]]:
    """A language's header entry and its messages."""
    path = ROOT / "locale" / language / "LC_MESSAGES" / "django.po"
    entries = read_po(path)
    header = [e for e in entries if e.msgid == "" and e.msgctxt is None]
    assert len(header) == 1, f"{path}: expected one header entry"
    return header[0], [e for e in entries if e is not header[0]]


def nplurals(header: Entry) -> int:
    found = re.search(r"nplurals\s*=\s*(\d+)", header.msgstr.get(0, ""))
    assert found, "the header has no Plural-Forms"
    return int(found.group(1))


def failures(title: str, bad: list[str]) -> str:
    more = f"\n  … and {len(bad) - SHOWN} more" if len(bad) > SHOWN else ""
    return f"{len(bad)} {title}:\n  " + "\n  ".join(bad[:SHOWN]) + more


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_entry_is_translated_and_none_is_fuzzy(language: str) -> None:
    _, entries = catalogue(language)
    assert entries, f"{language}: the catalogue is empty"
    untranslated = [str(e) for e in entries if not e.translated]
    fuzzy = [str(e) for e in entries if e.fuzzy]
    assert not untranslated, failures(f"untranslated entries in {language}", untranslated)
    assert not fuzzy, failures(f"fuzzy entries in {language} (check them, then drop the flag)",
                               fuzzy)


@pytest.mark.parametrize("language", LANGUAGES)
def test_plural_entries_have_every_form(language: str) -> None:
    header, entries = catalogue(language)
    forms = nplurals(header)
    bad = [f"{e} has {len(e.msgstr)} forms" for e in entries
           if e.msgid_plural is not None and sorted(e.msgstr) != list(range(forms))]
    assert not bad, failures(f"plural entries in {language} without {forms} forms", bad)


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_placeholders_and_markup(language: str) -> None:
    _, entries = catalogue(language)
    bad = []
    for entry in entries:
        source = entry.msgid_plural if entry.msgid_plural is not None else entry.msgid
        want = sorted(PLACEHOLDER.findall(source))
        for index, text in entry.msgstr.items():
            if text and sorted(PLACEHOLDER.findall(text)) != want:
                bad.append(f"{entry} msgstr[{index}] {text!r}")
    assert not bad, failures(f"translations in {language} that change a placeholder", bad)


@pytest.mark.parametrize("language", LANGUAGES)
def test_mo_file_loads_and_matches_its_po(language: str) -> None:
    folder = ROOT / "locale" / language / "LC_MESSAGES"
    with (folder / "django.mo").open("rb") as handle:
        translations = gettext.GNUTranslations(handle)
    assert translations.info().get("language") == language
    # _catalog is where GNUTranslations keeps the messages; ngettext needs the plural
    # rule, and this reaches every form without it.
    compiled: dict[object, str] = dict(translations._catalog)  # type: ignore[attr-defined]
    compiled.pop("", None)  # the header
    _, entries = catalogue(language)
    expected: dict[object, str] = {}
    for entry in entries:
        if entry.fuzzy or not entry.translated:
            continue  # msgfmt leaves these out
        if entry.msgid_plural is None:
            expected[entry.key] = entry.msgstr[0]
        else:
            expected.update({(entry.key, i): text for i, text in entry.msgstr.items()})
    missing = [repr(key) for key in expected if key not in compiled]
    differ = [repr(key) for key in expected if key in compiled and compiled[key] != expected[key]]
    extra = [repr(key) for key in compiled if key not in expected]
    stale = "is stale: run `manage.py compilemessages`"
    assert not missing, failures(f"messages of the {language} .po missing from its .mo, which "
                                 f"{stale}", missing)
    assert not differ, failures(f"messages differing between the {language} .po and .mo, "
                                f"which {stale}", differ)
    assert not extra, failures(f"messages in the {language} .mo that its .po no longer has, "
                               f"which {stale}", extra)


def test_the_parser_reads_contexts_plurals_flags_and_escapes(tmp_path: Path) -> None:
    sample = tmp_path / "sample.po"
    sample.write_text(
        'msgid ""\nmsgstr ""\n"Language: xx\\n"\n\n'
        '#: a.py:1\n#, fuzzy, python-format\n#| msgid "old"\nmsgctxt "ctx"\n'
        'msgid "say \\"%(x)s\\""\nmsgstr "dis "\n"\\"%(x)s\\""\n\n'
        'msgid "one"\nmsgid_plural "many"\nmsgstr[0] "un"\nmsgstr[1] ""\n\n'
        '#~ msgid "gone"\n#~ msgstr "parti"\n',
        encoding="utf-8")
    header, fuzzy, plural = read_po(sample)
    assert header.msgstr[0] == "Language: xx\n"
    assert (fuzzy.msgctxt, fuzzy.msgid, fuzzy.msgstr) == ("ctx", 'say "%(x)s"', {0: 'dis "%(x)s"'})
    assert fuzzy.fuzzy and fuzzy.key == 'ctx\x04say "%(x)s"'
    assert plural.msgid_plural == "many" and not plural.translated
