"""House rules in words: the short line of the rules that differ from the
preset, every rule for ``/spades rules``, and the host's private menus.

The values are bot.game.house's text (``deck=jokers``, ``bags=5:50``); this
module only says them in the reader's language.
"""

from __future__ import annotations

from typing import Final

from bot.game.house import KEYS, changed_keys, house_text
from bot.game.rules import FLOORS, MIN_TEAM_BIDS, TARGETS, RuleSet, preset
from bot.i18n import ENGLISH, N_, tr
from bot.render.ids import Act, ComponentId
from bot.render.limits import OPTION_LABEL, clip
from bot.render.spec import ButtonSpec, MessageSpec, Row, SelectOption, SelectSpec
from bot.tables.model import Table

#: Each rule's name, by key.
RULE_NAMES: Final = {
    "deck": N_("Deck"),
    "bidding": N_("Bidding"),
    "nil": N_("Nil"),
    "nil_tricks": N_("A failed Nil's tricks"),
    "blind_nil": N_("Blind Nil"),
    "bags": N_("Bags"),
    "set": N_("A set costs"),
    "boston": N_("Boston (all 13 tricks)"),
    "ten_for_200": N_("10 for 200"),
    "spades_lead": N_("Leading spades"),
    "first_lead": N_("First lead"),
    "min_team_bid": N_("Team's least bid"),
    "target": N_("Target"),
    "floor": N_("Losing score"),
}

#: The values the host's menus offer, by key (the current value is added
#: when it is not among them).
CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "deck": ("standard", "jokers", "jokers-deuce", "jjdd"),
    "bidding": ("open", "suicide", "mirror", "whiz"),
    "nil": ("off", "50", "100"),
    "nil_tricks": ("bags", "contract"),
    "blind_nil": ("off", "100:100", "100:200", "200:200", "200:300"),
    "bags": ("off", "10:100", "10:50", "5:50", "5:100"),
    "set": ("bid", "short"),
    "boston": ("off", "100", "200", "250", "500"),
    "ten_for_200": ("off", "on"),
    "spades_lead": ("broken", "any"),
    "first_lead": ("any", "lowclub"),
    "min_team_bid": ("0", *(str(n) for n in MIN_TEAM_BIDS)),
    "target": tuple(str(n) for n in TARGETS),
    "floor": ("off", *(str(n) for n in FLOORS)),
}

#: The words of the values that are words.
_WORDS: Final = {
    ("deck", "standard"): N_("standard, 52 cards"),
    ("deck", "jokers"): N_("🃏 Big and Little Joker on top, no 2♣ or 2♦"),
    ("deck", "jokers-deuce"): N_("🃏 Big and Little Joker, then 2♠, no 2♣ or 2♦"),
    ("deck", "jjdd"): N_("🃏 Big and Little Joker, then 2♦ and 2♠, no 2♣ or 2♥"),
    ("bidding", "open"): N_("open: 1 to 13 or Nil"),
    ("bidding", "suicide"): N_("suicide: one partner Nil, the other 4 or more"),
    ("bidding", "mirror"): N_("mirror: everyone bids their spades"),
    ("bidding", "whiz"): N_("whiz: Nil or your number of spades"),
    ("bags", "off"): N_("never cost points"),
    ("nil_tricks", "bags"): N_("bags for the team"),
    ("nil_tricks", "contract"): N_("count toward the contract"),
    ("set", "bid"): N_("10 a trick bid"),
    ("set", "short"): N_("10 a missing trick"),
    ("ten_for_200", "on"): N_("on: a contract of 10+ scores 20 a trick"),
    ("spades_lead", "broken"): N_("once spades are broken"),
    ("spades_lead", "any"): N_("at any time"),
    ("first_lead", "any"): N_("any card"),
    ("first_lead", "lowclub"): N_("the lowest club"),
}


#: Shorter words for the values of the one-line summary.
_SHORT: Final = {
    ("deck", "jokers"): N_("jokers"),
    ("deck", "jokers-deuce"): N_("jokers, 2♠ high"),
    ("deck", "jjdd"): N_("jokers, 2♦ 2♠ high"),
    ("deck", "standard"): N_("standard"),
    ("bidding", "open"): N_("open"),
    ("bidding", "suicide"): N_("suicide"),
    ("bidding", "mirror"): N_("mirror"),
    ("bidding", "whiz"): N_("whiz"),
}


def value_words(key: str, value: str, lang: str = ENGLISH, *, short: bool = False) -> str:
    """One rule's value (house text, like ``5:50``) in words."""
    words = (short and _SHORT.get((key, value))) or _WORDS.get((key, value))
    if words is not None:
        return tr(lang, words)
    if value == "off" or (key == "min_team_bid" and value == "0"):
        return tr(lang, "off")
    first, _, second = value.partition(":")
    if key == "blind_nil":
        return tr(lang, "trailing by {t}, ±{v}", t=first, v=second)
    if key == "bags":
        return tr(lang, "every {limit} cost {points}", limit=first, points=second)
    if key == "min_team_bid":
        return tr(lang, "{n} tricks", n=value)
    if key == "boston":
        return tr(lang, "+{n} points", n=value)
    if key == "nil":
        return tr(lang, "±{n} points", n=value)
    return tr(lang, "{n} points", n=value)


def _values(rules: RuleSet) -> dict[str, str]:
    """Every rule of ``rules`` as its house text value."""
    return dict(item.split("=", 1) for item in house_text(rules).split(","))


def changed_from_preset(rules: RuleSet) -> tuple[str, ...]:
    return changed_keys(rules, preset(rules.preset))


def rules_line(rules: RuleSet, lang: str = ENGLISH) -> str:
    """The house rules that differ from the preset, in one short line; empty
    when the table plays the preset."""
    keys = changed_from_preset(rules)
    if not keys:
        return ""
    values = _values(rules)
    parts = [
        f"{tr(lang, RULE_NAMES[k])}: {value_words(k, values[k], lang, short=True)}" for k in keys
    ]
    return tr(lang, "House rules: {rules}", rules=" · ".join(parts))


def all_rules_text(rules: RuleSet, lang: str = ENGLISH) -> str:
    """Every house rule of the table, one per line."""
    values = _values(rules)
    changed = set(changed_from_preset(rules))
    lines = [tr(lang, "**House rules** (changed from the preset in bold)")]
    for key in KEYS:
        name = tr(lang, RULE_NAMES[key])
        words = value_words(key, values[key], lang)
        lines.append(f"- **{name}: {words}**" if key in changed else f"- {name}: {words}")
    return "\n".join(lines)


# -- the host's menus ------------------------------------------------------------------

#: The rules on each page of the host's menus (a message holds five rows: four
#: menus and the row of pages).
PAGES: Final = (KEYS[0:4], KEYS[4:8], KEYS[8:12], KEYS[12:14])


def house_panel(table: Table, page: int, lang: str = ENGLISH, note: str = "") -> MessageSpec:
    """The host's private message that sets the house rules, one page of menus."""
    rules = table.rules
    values = _values(rules)
    preset_values = _values(preset(rules.preset))
    rows: list[Row] = []
    for key in PAGES[page]:
        current = values[key]
        offered = CHOICES[key] if current in CHOICES[key] else (current, *CHOICES[key])
        preset_value = preset_values[key]
        options = []
        for value in offered:
            label = value_words(key, value, lang)
            if value == preset_value:
                label = tr(lang, "{value} (preset)", value=label)
            options.append(SelectOption(value, clip(label, OPTION_LABEL), value == current))
        rows.append(
            SelectSpec(
                str(ComponentId(Act.HOUSE_RULE, table.id, table.version, key)),
                clip(tr(lang, RULE_NAMES[key]), OPTION_LABEL),
                tuple(options),
            )
        )
    rows.append(
        tuple(
            ButtonSpec(
                str(ComponentId(Act.HOUSE, table.id, table.version, str(n))),
                tr(lang, "Rules {n} of {count}", n=n + 1, count=len(PAGES)),
                disabled=n == page,
            )
            for n in range(len(PAGES))
        )
    )
    head = tr(
        lang,
        "**House rules of table {table}** (`{preset}` preset). Each menu shows the "
        "value in play; the seated players see every change on the table message.",
        table=table.id,
        preset=rules.preset,
    )
    content = "\n".join(part for part in (head, rules_line(rules, lang), note) if part)
    return MessageSpec(content=content, rows=tuple(rows))
