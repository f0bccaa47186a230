"""The catalogs' upkeep: the messages the code uses (read with Babel's
extractor), the template written from them, and each language's ``.po``
brought up to date with it. The tests compare the ``.po`` files with the
same extraction, so a catalog can never fall behind the code unnoticed.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from bot.i18n import (
    DOMAIN,
    KEYWORDS,
    LOCALE_DIR,
    SOURCE_DIRS,
    TEMPLATE,
    TRANSLATED,
    compiled,
    po_path,
)

ROOT = LOCALE_DIR.parent.parent
#: ``{name}`` but not ``{{``: the named placeholders of a message.
PLACEHOLDER = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)\}")

Message = str | tuple[str, str]
#: gettext's plural rules of each language, two forms each; zero is
#: singular in French ("0 point") only ("0 pontos" in Brazil).
PLURAL_FORMS = {
    "pt_BR": "nplurals=2; plural=(n != 1);",
    "es": "nplurals=2; plural=(n != 1);",
    "fr": "nplurals=2; plural=(n > 1);",
    "de": "nplurals=2; plural=(n != 1);",
}
HEADER = """# The {lang} messages of spades-bot (bot/locale/spades.pot translated).
msgid ""
msgstr ""
"Project-Id-Version: spades-bot\\n"
"Language: {lang}\\n"
"Plural-Forms: {plural_forms}\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=utf-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"""


def extracted() -> dict[Message, list[tuple[str, int]]]:
    """Every message in the code -> where it is used (file, line)."""
    found: dict[Message, list[tuple[str, int]]] = {}
    for folder in SOURCE_DIRS:
        for filename, line, message, _comments, _context in extract_from_dir(
            ROOT / folder, method_map=[("**.py", "python")], keywords=KEYWORDS
        ):
            key: Message = message if isinstance(message, str) else (message[0], message[1])
            found.setdefault(key, []).append((f"{folder}/{filename}", line))
    return found


def template() -> Catalog:
    catalog = Catalog(domain=DOMAIN, project="spades-bot", charset="utf-8")
    for message, places in extracted().items():
        catalog.add(message, locations=places)
    return catalog


def write_template(path: Path = TEMPLATE) -> None:
    _write(path, template())


def _write(path: Path, catalog: Catalog) -> None:
    """``catalog`` as a sorted ``.po`` without line numbers (or obsolete messages)."""
    with path.open("wb") as out:
        write_po(
            out, catalog, sort_output=True, width=100, ignore_obsolete=True, include_lineno=False
        )


def read_catalog(lang: str) -> Catalog:
    with po_path(lang).open("rb") as source:
        return read_po(source, locale=lang, domain=DOMAIN)


def update_catalogs() -> None:
    """Merge the template into every ``.po`` (new messages empty, old ones fuzzy)."""
    new = template()
    for lang in TRANSLATED:
        path = po_path(lang)
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(HEADER.format(lang=lang, plural_forms=PLURAL_FORMS[lang]))
        catalog = read_catalog(lang)
        catalog.update(new, update_header_comment=False)
        _write(path, catalog)


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def main(argv: list[str]) -> int:
    """``python -m bot.i18n_catalogs [compile|extract|update]``."""
    command = argv[0] if argv else "compile"
    if command == "compile":
        for lang in TRANSLATED:
            print(f"{lang}: {len(compiled(lang))} bytes compiled")
    elif command == "extract":
        write_template()
    elif command == "update":
        update_catalogs()
    else:
        print(f"unknown command {command!r}: compile, extract or update", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
