"""The catalogs against the code: every message the code uses is translated
in every language, with the same placeholders, none fuzzy, none left over."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot import i18n
from bot.i18n import ENGLISH, TEMPLATE, TRANSLATED, ntr, resolve, tr
from bot.i18n_catalogs import PLURAL_FORMS, extracted, placeholders, read_catalog

CODE = extracted()


def test_the_code_has_its_messages_found() -> None:
    # The extraction itself: known messages of each kind are found, so an
    # empty difference below means "translated", not "nothing was read".
    assert "Join" in CODE  # a tr() call
    assert "you are not seated at this table" in CODE  # an N_() mark in the engine
    assert ("{n} bag", "{n} bags") in CODE  # an ntr() call
    assert "Open a Spades table in this channel" in CODE  # a command description
    assert len(CODE) > 300


def test_the_template_is_the_code_s_messages() -> None:
    with TEMPLATE.open("rb") as source:
        template = {m.id for m in read_po(source) if m.id}
    assert template == set(CODE), "run python -m bot.i18n_catalogs extract"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_and_none_is_stale(lang: str) -> None:
    catalog = read_catalog(lang)
    entries = {m.id: m for m in catalog if m.id}
    missing = [m for m in CODE if m not in entries]
    stale = [m for m in entries if m not in CODE]
    fuzzy = [m for m, entry in entries.items() if entry.fuzzy]
    empty = [
        m
        for m, entry in entries.items()
        if not all(entry.string or ()) or (isinstance(m, tuple) and len(entry.string or ()) != 2)
    ]
    assert (missing, stale, fuzzy, empty) == ([], [], [], [])
    assert not catalog.fuzzy  # nor the header


@pytest.mark.parametrize("lang", TRANSLATED)
def test_placeholders_are_the_source_s(lang: str) -> None:
    wrong = []
    for entry in read_catalog(lang):
        if not entry.id:
            continue
        sources = _texts(entry.id)
        strings = _texts(entry.string)
        wanted = set().union(*(placeholders(s) for s in sources))
        wrong += [(entry.id, s) for s in strings if placeholders(s) != wanted]
    assert wrong == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_each_catalog_has_its_language_s_plural_rule(lang: str) -> None:
    catalog = read_catalog(lang)
    assert catalog.num_plurals == 2
    assert PLURAL_FORMS[lang].split("plural=")[1].rstrip(";") == catalog.plural_expr


def test_plural_forms_follow_each_language() -> None:
    assert [ntr(ENGLISH, "{n} bag", "{n} bags", n) for n in (0, 1, 2)] == [
        "0 bags",
        "1 bag",
        "2 bags",
    ]
    # In French zero is singular; in the other languages plural.
    assert ntr("fr", "{n} bag", "{n} bags", 0) == "0 sac"
    assert ntr("pt_BR", "{n} bag", "{n} bags", 0) == "0 sacos"
    assert ntr("de", "{n} bag", "{n} bags", 0) == "0 Überstiche"
    assert ntr("es", "{n} bag", "{n} bags", 1) == "1 bolsa"


def test_discord_locales_fall_back_sensibly() -> None:
    assert resolve("pt-BR") == resolve("pt-PT") == resolve("pt") == "pt_BR"
    assert resolve("es-ES") == resolve("es-419") == "es"
    assert resolve("fr") == "fr" and resolve("de") == "de"
    assert resolve("en-GB") == resolve("it") == resolve("ja") == resolve(None) == ENGLISH
    assert resolve("pt_BR") == "pt_BR"  # a stored choice reads as itself


def test_unknown_messages_and_languages_read_as_english() -> None:
    assert tr("de", "Not in any catalog {x}", x=1) == "Not in any catalog 1"
    assert tr("xx", "Join") == "Join"


def test_a_catalog_is_compiled_when_missing_or_older_than_its_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = i18n.po_path("de")
    copy = tmp_path / "de" / "LC_MESSAGES" / "spades.po"
    copy.parent.mkdir(parents=True)
    copy.write_bytes(source.read_bytes())
    monkeypatch.setattr(i18n, "po_path", lambda lang: tmp_path / lang / "LC_MESSAGES" / "spades.po")
    compiled = copy.with_suffix(".mo")
    assert not compiled.exists()
    first = i18n.compiled("de")
    assert compiled.read_bytes() == first  # made from the .po
    # A stale .mo (older than its .po) is made again, never read.
    compiled.write_bytes(b"stale")
    os.utime(compiled, (0, 0))
    assert i18n.compiled("de") == first


def _texts(value: str | Sequence[str] | None) -> tuple[str, ...]:
    """A catalog entry's message or translation as its texts (two for a plural)."""
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(value)
