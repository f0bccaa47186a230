"""Buttons and menus: specs to discord.py objects, and clicks back to the bot.

Every component the bot sends is a :class:`SpadesComponent`, a persistent
DynamicItem whose custom_id (see bot.render.ids) holds the whole request, so
a click on any message, however old and after any restart, reaches the
handler registered for its client with the same information.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord.ui import DynamicItem, Item

from bot.render.decks import Style
from bot.render.ids import TEMPLATE
from bot.render.spec import ButtonSpec, EmbedSpec, MessageSpec, SelectSpec

#: ``handler(interaction, rest_of_custom_id, selected_values)``
ComponentHandler = Callable[[discord.Interaction[Any], str, list[str]], Awaitable[None]]
# One handler per running client: a restarted bot is a new client.
_handlers: weakref.WeakKeyDictionary[discord.Client, ComponentHandler] = weakref.WeakKeyDictionary()
#: ``spades:`` and anything after it, newlines included: the callback answers
#: every such id, valid or not.
PATTERN = re.compile(TEMPLATE, re.DOTALL)


def handle_components(client: discord.Client, handler: ComponentHandler) -> None:
    """Send the clicks on ``client``'s spades components to ``handler``."""
    _handlers[client] = handler


BUTTON_STYLES = {
    Style.BLURPLE: discord.ButtonStyle.primary,
    Style.GREY: discord.ButtonStyle.secondary,
    Style.GREEN: discord.ButtonStyle.success,
    Style.RED: discord.ButtonStyle.danger,
}


class SpadesComponent(DynamicItem[Item[Any]], template=PATTERN):
    """Any ``spades:...`` button or menu. Parsing and validation of the rest
    happen in the callback, never in ``from_custom_id``: an exception there is
    swallowed by discord.py and the click would go unanswered."""

    def __init__(self, item: Item[Any], rest: str) -> None:
        super().__init__(item)
        self.rest = rest

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Item[Any], match: re.Match[str], /
    ) -> SpadesComponent:
        return cls(item, match["rest"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        handler = _handlers.get(interaction.client)
        if handler is not None:
            values = list(getattr(self.item, "values", ()))
            await handler(interaction, self.rest, values)


def _button(spec: ButtonSpec, row: int, kind: type[SpadesComponent]) -> SpadesComponent:
    button: discord.ui.Button[Any] = discord.ui.Button(
        custom_id=spec.custom_id,
        label=spec.label,
        style=BUTTON_STYLES[spec.style],
        emoji=spec.emoji,
        disabled=spec.disabled,
        row=row,
    )
    return kind(button, spec.custom_id.split(":", 1)[1])


def _select(spec: SelectSpec, row: int, kind: type[SpadesComponent]) -> SpadesComponent:
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=spec.custom_id,
        placeholder=spec.placeholder,
        options=[
            discord.SelectOption(label=o.label, value=o.value, default=o.default)
            for o in spec.options
        ],
        row=row,
    )
    return kind(select, spec.custom_id.split(":", 1)[1])


def to_view(spec: MessageSpec, kind: type[SpadesComponent] = SpadesComponent) -> discord.ui.View:
    """The buttons and menus of ``spec``, as items of ``kind`` (the
    DynamicItem whose template their ids match)."""
    view = discord.ui.View(timeout=None)
    for index, row in enumerate(spec.rows):
        if isinstance(row, SelectSpec):
            view.add_item(_select(row, index, kind))
        else:
            for button in row:
                view.add_item(_button(button, index, kind))
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
