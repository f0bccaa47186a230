"""A refusal in the reader's language: the short private answer to a click
or a command that was refused; and the short answers to commands whose text
lists things that can be many.

Refusals carry an English ``template`` with named ``params`` (see
:mod:`bot.game.refusals`); the template is looked up in the catalog and the
values that are words in their own right are written in the reader's
language too: a card name as their decks print it, a duration, a suit.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence

from bot.game.cards import CardError, parse_card
from bot.i18n import ENGLISH, N_, tr
from bot.refusals import QUOTED_HOUSE_RULE, BadHouseRule, IllegalAction, Refusal, SeveralTables
from bot.render.clock_text import duration_text
from bot.render.decks import card_text
from bot.render.house_rules import localized_values
from bot.render.spec import CONTENT, fit_lines, seat_name
from bot.tables.model import Table

#: Wording for a click, where the service's or the engine's is too terse or
#: speaks of seat numbers. Always used for these codes:
ALWAYS = {
    "stale": N_("The table has moved on since that was drawn. Look again and retry."),
    "malformed": N_("That button is not valid."),  # only a crafted click gets here
    "not_your_turn": N_("It is not your turn."),
}
#: Used when the error carries its class's default message:
DEFAULTS = {
    "spectator": N_("You are watching this table; only seated players can do that."),
    "not_seated": N_("You are not seated at this table."),
    "unknown_table": N_("That table does not exist any more."),
}
SUIT_WORDS = {
    "clubs": N_("clubs"),
    "diamonds": N_("diamonds"),
    "hearts": N_("hearts"),
    "spades": N_("spades"),
}


def refusal_text(error: BaseException, lang: str = ENGLISH) -> str | None:
    """The answer for a refusal of the core, or None for any other error."""
    if isinstance(error, SeveralTables):
        return several_tables_text(error.channel_ids, lang)
    if not isinstance(error, Refusal | IllegalAction):
        return None
    template = ALWAYS.get(error.code)
    if isinstance(error, Refusal) and error.template == type(error).default_message:
        template = template or DEFAULTS.get(error.code)
    if template is None:
        template = error.template
    params = _localized(error.params, lang)
    if error.code == "bad_house_rule":  # a conflict names the other rule's value
        params = localized_values(params, lang)
    return sentence(tr(lang, template, **params) if params else tr(lang, template))


def house_rule_line(error: BadHouseRule, lang: str = ENGLISH) -> str:
    """A refused house rule's own line in ``lang``, to follow words of the
    caller's: a conflict translated, any other line as the rule set wrote it."""
    if error.template == QUOTED_HOUSE_RULE:
        return error.line
    params = localized_values(_localized(error.params, lang), lang)
    return tr(lang, error.template, **params)


def sentence(text: str) -> str:
    """``text`` as a sentence: a capital first, a full stop last."""
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def _localized(params: Mapping[str, object], lang: str) -> dict[str, object]:
    values = dict(params)
    for key, value in params.items():
        if key.endswith("_s") and isinstance(value, int | float):
            values[key[:-2]] = duration_text(lang, value)
        elif key == "suit" and isinstance(value, str) and value in SUIT_WORDS:
            values[key] = tr(lang, SUIT_WORDS[value])
        elif key == "card" and isinstance(value, str):
            values[key] = _card_words(value, lang)
    return values


def _card_words(name: str, lang: str) -> str:
    """A card name of any deck in words; not a card name (a malformed
    request): shown as it came. Each name is printed alike in every deck."""
    for deck in ("standard", "jjdd"):  # jjdd: the jokers
        with contextlib.suppress(CardError):
            return card_text(parse_card(name, deck), lang)
    return name


# -- short answers ---------------------------------------------------------------


def several_tables_text(channel_ids: Sequence[int], lang: str = ENGLISH) -> str:
    """Why a command for "your table" cannot pick one: the user plays at
    several, so it names their channels (as many as fit in one message)."""
    empty = tr(lang, "You play at several tables: use this command in {channels}.", channels="")
    more = tr(lang, "… and {n} more")
    channels = fit_lines([f"<#{c}>" for c in channel_ids], CONTENT - len(empty), more, ", ")
    return tr(
        lang, "You play at several tables: use this command in {channels}.", channels=channels
    )


#: The answer to resigning (the command, or its confirmation pressed later) with no game going on.
NO_GAME_TO_RESIGN = N_("There is no game in progress to resign from.")


def resign_question(table: Table, lang: str = ENGLISH) -> str:
    """The question before resigning: the player's team loses, or in solo the player."""
    if table.solo:
        return tr(lang, "Resign at table {table}? You lose the game at once.", table=table.id)
    return tr(lang, "Resign at table {table}? Your team loses the game at once.", table=table.id)


def joined_text(lang: str, seat: int | None, table_id: int) -> str:
    """The private answer to joining: the seat taken, or watching."""
    if seat is None:
        return tr(lang, "You are watching table {table}.", table=table_id)
    return tr(lang, "You sit {seat} at table {table}.", seat=seat_name(seat, lang), table=table_id)
