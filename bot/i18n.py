"""Every text a user reads, in their language: one gettext message catalog.

How to write a user-facing text (the whole API):

- ``tr(lang, "Table {table} is open.", table=7)``: the text in ``lang``, its
  named placeholders filled in. ``ntr(lang, "{n} bag", "{n} bags", n)``: a text
  that depends on a number, with the real plural forms of ``lang`` (``{n}`` is
  filled in with ``n``; more named values may follow).
- ``N_("...")`` marks a text written now and translated later, where ``lang``
  is not known yet (class attributes, tables of constants, command
  descriptions); it returns its argument unchanged. ``tr(lang, marked)``
  translates it at the time of use. The engine has its own ``N_`` in
  :mod:`bot.game.refusals` (it may import nothing outside ``bot.game``).
- Placeholders are named (``{table}``, never ``{}`` or ``%s``) and a sentence is
  always one message: never glue translated fragments into a sentence, since
  a translator must be able to reorder it. A literal brace is doubled.
- Languages are ``lang`` codes: :data:`ENGLISH` (the source text, the default
  everywhere), ``pt_BR``, ``es``, ``fr``, ``de`` (:data:`LANGUAGES`).
  :func:`resolve` turns whatever Discord sends (``pt-BR``, ``es-419``, a
  :class:`discord.Locale`'s value) or a stored choice into one of them.

Who reads which language: a render function takes ``lang`` (a keyword,
English when left out) and the caller passes the reader's. On Discord a
private answer (hand, refusal, hint) uses
``cogs.components.private_language(interaction)``; anything public (the table
message, mentions, clock messages, the end-of-game post and picture) uses
``table.language``. Command descriptions and choice names are marked with
``N_`` and translated by ``cogs.translator.CatalogTranslator`` at sync.

The catalogs are ``bot/locale/<lang>/LC_MESSAGES/spades.po``, written by
hand from the template ``bot/locale/spades.pot`` (``python -m
bot.i18n_catalogs extract`` writes it from the code, ``... update`` merges it
into each ``.po``: new messages come empty, changed ones fuzzy, and the tests
fail until they are translated). Each ``.po`` is compiled into its ``.mo``
beside it when that is missing or older than the ``.po``, the first time the
language is used (in memory when the folder is read-only); ``python -m
bot.i18n_catalogs`` compiles them all at once. ``.mo`` files are never
committed.
"""

from __future__ import annotations

import contextlib
import gettext
import io
from functools import cache
from pathlib import Path
from typing import Final

ENGLISH: Final = "en"
#: Code -> the language's own name, as the language menu shows it.
LANGUAGES: Final = {
    ENGLISH: "English",
    "pt_BR": "Português (Brasil)",
    "es": "Español",
    "fr": "Français",
    "de": "Deutsch",
}
TRANSLATED: Final = tuple(code for code in LANGUAGES if code != ENGLISH)
DOMAIN: Final = "spades"
LOCALE_DIR: Final = Path(__file__).resolve().parent / "locale"
TEMPLATE: Final = LOCALE_DIR / f"{DOMAIN}.pot"
#: The functions whose literal arguments are messages: name -> the argument
#: positions (1-based) of the message and of its plural.
KEYWORDS: Final = {"tr": (2,), "ntr": (2, 3), "N_": None}
#: Where the messages are written.
SOURCE_DIRS: Final = ("bot", "cogs")
#: A language we have for a language Discord may send that we do not.
_BY_LANGUAGE: Final = {"pt": "pt_BR", "es": "es", "fr": "fr", "de": "de", "en": ENGLISH}


def N_(message: str) -> str:
    """Mark ``message`` for the catalog; it is translated where it is used."""
    return message


def resolve(locale: object) -> str:
    """The language code for a Discord locale (``pt-BR``, ``es-419``,
    ``en-US``...), a language code or None: exact matches first, then the
    language without its region (``pt-PT`` reads Portuguese), else English."""
    if locale is None:
        return ENGLISH
    code = str(getattr(locale, "value", locale)).replace("-", "_")
    if code in LANGUAGES:
        return code
    return _BY_LANGUAGE.get(code.split("_")[0].lower(), ENGLISH)


def tr(lang: str, message: str, /, **named: object) -> str:
    """``message`` in ``lang`` with its named placeholders filled in."""
    text = _catalog(lang).gettext(message)
    return text.format(**named) if named else text


def ntr(lang: str, singular: str, plural: str, n: int, /, **named: object) -> str:
    """The form of ``singular``/``plural`` that ``lang`` uses for ``n``, with
    ``{n}`` and the other named placeholders filled in."""
    return _catalog(lang).ngettext(singular, plural, n).format(n=n, **named)


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def _catalog(lang: str) -> gettext.NullTranslations:
    if lang not in TRANSLATED:
        return gettext.NullTranslations()  # English: the messages themselves
    return gettext.GNUTranslations(io.BytesIO(compiled(lang)))


def compiled(lang: str) -> bytes:
    """The compiled catalog of ``lang``: its ``.mo``, made again from the
    ``.po`` when missing or older (kept in memory if it cannot be written)."""
    po, mo = po_path(lang), po_path(lang).with_suffix(".mo")
    if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
        return mo.read_bytes()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as source:
        catalog = read_po(source, locale=lang, domain=DOMAIN)
    out = io.BytesIO()
    write_mo(out, catalog)  # fuzzy entries are left out: they read as English
    data = out.getvalue()
    # An installed, read-only package: compiled in memory at each start.
    with contextlib.suppress(OSError):
        mo.write_bytes(data)
    return data
