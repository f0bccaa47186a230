"""House rules in words: the short line of the rules that differ from the
preset, every rule for ``/spades rules``, and the host's private menus.

Everything here is derived from the declarations of bot.game.house: their
names, their values' words and their sections of the menus; this module only
says them in the reader's language and lays the menus out.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from bot.game.house import HOUSE_RULES, HouseRule, Menu, by_key, changed_keys
from bot.game.house_values import Value
from bot.game.rules import RuleSet, preset
from bot.i18n import ENGLISH, tr
from bot.render.spec import (
    MAX_PER_ROW,
    MAX_ROWS,
    OPTION_LABEL,
    Act,
    ButtonSpec,
    ComponentId,
    MessageSpec,
    Row,
    SelectOption,
    SelectSpec,
    chunk,
    clip,
)
from bot.tables.model import Table


def value_words(rule: HouseRule, value: Value, lang: str = ENGLISH, *, short: bool = False) -> str:
    """One rule's value in words."""
    message, params = rule.values.said(value, short=short)
    return tr(lang, message, **params)


def localized_values(params: Mapping[str, object], lang: str) -> dict[str, object]:
    """``params`` of a house rule's refusal with each value of a house rule
    (a placeholder named like its key, the value as text) in words."""
    rules = by_key()
    values = dict(params)
    for key, text in params.items():
        rule = rules.get(key)
        if rule is not None and isinstance(text, str):
            with contextlib.suppress(ValueError):  # else shown as it came
                values[key] = value_words(rule, rule.values.read(text), lang, short=True)
    return values


def changed_from_preset(rules: RuleSet) -> tuple[str, ...]:
    return changed_keys(rules, preset(rules.preset))


def rules_line(rules: RuleSet, lang: str = ENGLISH) -> str:
    """The house rules that differ from the preset, in one short line; empty
    when the table plays the preset."""
    changed = set(changed_from_preset(rules))
    if not changed:
        return ""
    parts = [
        f"{tr(lang, rule.name)}: {value_words(rule, rule.read(rules), lang, short=True)}"
        for rule in HOUSE_RULES
        if rule.key in changed
    ]
    return tr(lang, "House rules: {rules}", rules=" · ".join(parts))


def all_rules_text(rules: RuleSet, lang: str = ENGLISH) -> str:
    """The house rules in play at the table, one per line, a changed one in
    bold. A rule left off at the preset's value is not said, so the answer
    stays one message as rules are added (the lobby's menus offer every rule)."""
    changed = set(changed_from_preset(rules))
    lines = [tr(lang, "**House rules** (changed from the preset in bold)")]
    for rule in HOUSE_RULES:
        value = rule.read(rules)
        full = rule.key in changed
        if not full and rule.is_off(value):
            continue
        line = f"{tr(lang, rule.name)}: {value_words(rule, value, lang)}"
        lines.append(f"- **{line}**" if full else f"- {line}")
    return "\n".join(lines)


# -- the host's menus ------------------------------------------------------------------


@dataclass(frozen=True)
class Page:
    """One page of the host's menus: rules of one section (``part`` of
    ``parts`` when the section needs more than one page)."""

    menu: Menu
    rules: tuple[HouseRule, ...]
    part: int = 1
    parts: int = 1

    def label(self, lang: str) -> str:
        name = tr(lang, self.menu.value)
        if self.parts == 1:
            return name
        return tr(lang, "{menu} ({n} of {count})", menu=name, n=self.part, count=self.parts)


def menu_pages(declared: Sequence[HouseRule] = HOUSE_RULES) -> tuple[Page, ...]:
    """The pages of the host's menus: each section's rules offered at tables
    in their declared order, on as few pages as fit a message with the rows
    of page buttons."""
    for menus in range(MAX_ROWS - 1, 0, -1):
        pages = _pages(declared, menus)
        if menus + -(-len(pages) // MAX_PER_ROW) <= MAX_ROWS:  # the menus, then the pages
            return pages
    raise ValueError("too many house rules for the menus of one message")


def _pages(declared: Sequence[HouseRule], menus: int) -> tuple[Page, ...]:
    pages: list[Page] = []
    for menu in Menu:
        rules = [rule for rule in declared if rule.menu is menu]
        count = -(-len(rules) // menus)
        size = -(-len(rules) // count) if count else 0  # pages as even as they can be
        chunks = [tuple(rules[n : n + size]) for n in range(0, len(rules), size or 1)]
        pages += [Page(menu, chunk, n, len(chunks)) for n, chunk in enumerate(chunks, 1)]
    return tuple(pages)


PAGES: Final = menu_pages()


def page_of(key: str, pages: Sequence[Page] = PAGES) -> int | None:
    """The page of the menus that holds the rule ``key`` (None: no such rule)."""
    return next(
        (n for n, page in enumerate(pages) if any(rule.key == key for rule in page.rules)), None
    )


def _menu(table: Table, rule: HouseRule, lang: str) -> SelectSpec:
    """One rule's menu: the values offered, the one in play (added when it is
    not among them) chosen, the preset's marked."""
    current = rule.read(table.rules)
    preset_value = rule.read(preset(table.rules.preset))
    offered = rule.values.offered
    options = []
    for value in offered if current in offered else (current, *offered):
        label = value_words(rule, value, lang)
        if value == preset_value:
            label = tr(lang, "{value} (preset)", value=label)
        text = rule.values.text(value)
        options.append(SelectOption(text, clip(label, OPTION_LABEL), value == current))
    return SelectSpec(
        str(ComponentId(Act.HOUSE_RULE, table.id, table.version, rule.key)),
        clip(tr(lang, rule.name), OPTION_LABEL),
        tuple(options),
    )


def house_panel(
    table: Table, page: int, lang: str = ENGLISH, note: str = "", pages: Sequence[Page] = PAGES
) -> MessageSpec:
    """The host's private message that sets the house rules, one page of menus."""
    rows: list[Row] = [_menu(table, rule, lang) for rule in pages[page].rules]
    buttons = [
        ButtonSpec(
            str(ComponentId(Act.HOUSE, table.id, table.version, str(n))),
            shown.label(lang),
            disabled=n == page,
        )
        for n, shown in enumerate(pages)
    ]
    rows += chunk(buttons)
    head = tr(
        lang,
        "**House rules of table {table}** (`{preset}` preset). Each menu shows the "
        "value in play; the seated players see every change on the table message.",
        table=table.id,
        preset=table.rules.preset,
    )
    content = "\n".join(part for part in (head, rules_line(table.rules, lang), note) if part)
    return MessageSpec(content=content, rows=tuple(rows))
