"""The page buttons of the leaderboard: ``spades-board:<sort>:<page>:<slot>[:<season>]``.

Each button carries its whole request, so it works on any leaderboard
message, after any restart; the cog that loads registers where its bot
finds the pages (no cog is looked up at click time).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar
from weakref import WeakKeyDictionary

import discord
from discord.ui import DynamicItem, Item

from bot.i18n import resolve, tr
from bot.render import leaderboard as screens
from bot.stats.leaderboard import LeaderboardPage, SortKey
from cogs.components import BUTTON_STYLES, to_embed
from cogs.errors import InteractionRefused, report
from cogs.languages import KEY, private_language

#: What a page button asks for: (guild id, sort, page, season) -> the page.
PageSource = Callable[[int, SortKey, int, int | None], Awaitable[LeaderboardPage]]
#: The language a user chose (None: their Discord app's).
LanguageSource = Callable[[int], Awaitable[str | None]]


class BoardButton(DynamicItem[Item[Any]], template=screens.BOARD_PATTERN):
    """A leaderboard page button; it works on any leaderboard message, after
    any restart. The id is checked in the callback, where a bad one can be
    answered (an exception in ``from_custom_id`` would leave it unanswered)."""

    #: Each bot's page source, registered by its cog when it loads.
    sources: ClassVar[WeakKeyDictionary[Any, PageSource]] = WeakKeyDictionary()
    languages: ClassVar[WeakKeyDictionary[Any, LanguageSource]] = WeakKeyDictionary()

    def __init__(self, item: Item[Any], rest: str = "") -> None:
        super().__init__(item)
        self.rest = rest

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Item[Any], match: re.Match[str], /
    ) -> BoardButton:
        return cls(item, match["rest"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            languages = self.languages.get(interaction.client)
            if languages is not None:
                chosen = await languages(interaction.user.id)
                interaction.extras[KEY] = resolve(chosen or interaction.locale)
            lang = private_language(interaction)
            wanted = screens.parse_board_id(self.rest)
            source = self.sources.get(interaction.client)
            if wanted is None or source is None:
                raise InteractionRefused(tr(lang, "That button is not valid."))
            guild = guild_of(interaction)
            page = await source(guild.id, *wanted)
            await interaction.response.edit_message(**board_fields(page, guild.name, lang))
        except Exception as exc:
            await report(interaction, exc)


def board_fields(page: LeaderboardPage, guild_name: str, lang: str) -> dict[str, Any]:
    spec = screens.board_message(page, guild_name, lang)
    assert spec.embed is not None
    view = discord.ui.View(timeout=None)
    for button in spec.buttons:
        item: discord.ui.Button[Any] = discord.ui.Button(
            label=button.label,
            custom_id=button.custom_id,
            disabled=button.disabled,
            style=BUTTON_STYLES[button.style],
        )
        view.add_item(BoardButton(item))
    return {"embed": to_embed(spec.embed), "view": view}


def guild_of(interaction: discord.Interaction[Any]) -> discord.Guild:
    if interaction.guild is None:
        lang = private_language(interaction)
        raise InteractionRefused(
            tr(lang, "The leaderboard belongs to a server: use it in a server channel.")
        )
    return interaction.guild
