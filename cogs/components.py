"""Buttons and menus: specs to discord.py objects, clicks back to the bot, and the
language each interaction is answered in.

Every component the bot sends is a :class:`SpadesComponent`, a persistent
DynamicItem whose custom_id holds the whole request, so a click on any
message, however old and after any restart, reaches the handler its client
registered for the id's first word with the same information. The words:
a table's buttons and menus (``spades:``, :mod:`bot.render.spec`), a replay
viewer's (``spades-replay:``), a leaderboard page's (``spades-board:``) and
a tournament's (``tourney:``).
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord.ui import DynamicItem, Item

from bot.app import SpadesApp
from bot.i18n import resolve
from bot.render import leaderboard, replay, tournament_text
from bot.render.decks import Style
from bot.render.spec import PREFIX, ButtonSpec, EmbedSpec, MessageSpec, SelectSpec

#: ``handler(interaction, rest_of_custom_id, values)``: a menu's choices
#: (texts, or the users a user menu chose); none for a button.
ComponentHandler = Callable[[discord.Interaction[Any], str, list[Any]], Awaitable[None]]
#: The first word of every custom_id the bot sends.
PREFIXES = (PREFIX, replay.PREFIX, leaderboard.BOARD_PREFIX, tournament_text.PREFIX)
#: One of those words, a colon and anything after it, newlines included: the
#: handler answers every such id, valid or not.
PATTERN = re.compile(rf"(?P<prefix>{'|'.join(map(re.escape, PREFIXES))}):(?P<rest>.*)", re.DOTALL)
# Per running client (a restarted bot is a new client), per prefix.
_handlers: weakref.WeakKeyDictionary[discord.Client, dict[str, ComponentHandler]] = (
    weakref.WeakKeyDictionary()
)


def handle_components(
    client: discord.Client, handler: ComponentHandler, prefix: str = PREFIX
) -> None:
    """Send the clicks on ``client``'s components whose id starts with
    ``prefix`` to ``handler``."""
    if prefix not in PREFIXES:
        raise ValueError(f"{prefix!r} is not a component prefix of the bot")
    _handlers.setdefault(client, {})[prefix] = handler


def forget_components(client: discord.Client, prefix: str, handler: ComponentHandler) -> None:
    """Stop sending those clicks to ``handler`` (if it is still the one)."""
    handlers = _handlers.get(client, {})
    if handlers.get(prefix) == handler:
        del handlers[prefix]


BUTTON_STYLES = {
    Style.BLURPLE: discord.ButtonStyle.primary,
    Style.GREY: discord.ButtonStyle.secondary,
    Style.GREEN: discord.ButtonStyle.success,
    Style.RED: discord.ButtonStyle.danger,
}


class SpadesComponent(DynamicItem[Item[Any]], template=PATTERN):
    """Any button or menu of the bot. Parsing and validation of the rest
    happen in the handler, never in ``from_custom_id``: an exception there is
    swallowed by discord.py and the click would go unanswered."""

    def __init__(self, item: Item[Any], prefix: str, rest: str) -> None:
        super().__init__(item)
        self.prefix = prefix
        self.rest = rest

    @classmethod
    def of(cls, item: Item[Any], custom_id: str) -> SpadesComponent:
        """``item`` (whose id is ``custom_id``, one of the bot's) as a component."""
        match = PATTERN.fullmatch(custom_id)
        if match is None:
            raise ValueError(f"{custom_id[:40]!r} is not a component id of the bot")
        return cls(item, match["prefix"], match["rest"])

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Item[Any], match: re.Match[str], /
    ) -> SpadesComponent:
        return cls(item, match["prefix"], match["rest"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        handler = _handlers.get(interaction.client, {}).get(self.prefix)
        if handler is not None:
            values = list(getattr(self.item, "values", ()))
            await handler(interaction, self.rest, values)


def _button(spec: ButtonSpec, row: int) -> SpadesComponent:
    button: discord.ui.Button[Any] = discord.ui.Button(
        custom_id=spec.custom_id,
        label=spec.label,
        style=BUTTON_STYLES[spec.style],
        emoji=spec.emoji,
        disabled=spec.disabled,
        row=row,
    )
    return SpadesComponent.of(button, spec.custom_id)


def _select(spec: SelectSpec, row: int) -> SpadesComponent:
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=spec.custom_id,
        placeholder=spec.placeholder,
        options=[
            discord.SelectOption(label=o.label, value=o.value, default=o.default)
            for o in spec.options
        ],
        row=row,
    )
    return SpadesComponent.of(select, spec.custom_id)


def to_view(spec: MessageSpec) -> discord.ui.View:
    """The buttons and menus of ``spec``."""
    view = discord.ui.View(timeout=None)
    for index, row in enumerate(spec.rows):
        if isinstance(row, SelectSpec):
            view.add_item(_select(row, index))
        else:
            for button in row:
                view.add_item(_button(button, index))
    return view


def to_embed(spec: EmbedSpec) -> discord.Embed:
    embed = discord.Embed(title=spec.title, description=spec.description or None)
    embed.colour = discord.Colour(spec.colour)
    for field in spec.fields:
        embed.add_field(name=field.name, value=field.value, inline=field.inline)
    if spec.footer:
        embed.set_footer(text=spec.footer)
    return embed


async def send_private(interaction: discord.Interaction[Any], spec: MessageSpec) -> None:
    """Answer with an ephemeral message drawn from ``spec``.

    discord.py gives the view of an ephemeral answer a 15-minute timeout
    task. Our buttons are dispatched by their DynamicItem template, not by
    the view, so the view is stopped at once instead of lingering.
    """
    fields = message_fields(spec)
    await interaction.response.send_message(
        **fields, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
    )
    fields["view"].stop()


def message_fields(spec: MessageSpec) -> dict[str, Any]:
    """Keyword arguments for send/edit: content, embed and view (emptied when absent)."""
    return {
        "content": spec.content or None,
        "embed": to_embed(spec.embed) if spec.embed is not None else None,
        "view": to_view(spec),
    }


# -- which language a person reads, on Discord ---------------------------------
# Private answers (hands, refusals, hints) are in the language the person
# chose with ``/spades language``, else their Discord app's
# (``interaction.locale``). Public ones (the table message, its mentions, the
# clock's messages, the end-of-game picture) are in the table's language
# (``Table.language``, chosen with ``/spades new``, by default the server's).
#
# The language of an interaction is learnt once, when it arrives
# (:func:`learn_language`: the command tree's check and the component
# dispatchers call it), and kept in ``interaction.extras``, so that every
# answer to it, the error path included, reads it without the database.

#: Where an interaction keeps its reader's language (``interaction.extras``).
LANGUAGE_KEY = "spades_language"


async def learn_language(interaction: discord.Interaction[Any], app: SpadesApp) -> str:
    """The reader's language for the answers to ``interaction``, now known to
    :func:`private_language` too."""
    chosen = await app.language_of(interaction.user.id)
    language = resolve(chosen or interaction.locale)
    interaction.extras[LANGUAGE_KEY] = language
    return language


def private_language(interaction: discord.Interaction[Any]) -> str:
    """The language of a private answer to ``interaction``."""
    known = interaction.extras.get(LANGUAGE_KEY)
    return known if isinstance(known, str) else resolve(interaction.locale)


def server_language(interaction: discord.Interaction[Any]) -> str:
    """The server's preferred language (a new table's default), else English."""
    return resolve(interaction.guild_locale)
