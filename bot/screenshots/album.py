"""Taking the pictures: each screen's preview document, rendered and cropped per width."""

from __future__ import annotations

import contextlib
import itertools
import json
import re
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

import discord
import simcord
from simcord.preview import _markdown

from bot.clock import ClockSettings
from bot.config import DatabaseSettings, DiscordSettings, Settings, TableSettings
from bot.screenshots.chromium import Browser, ChromiumCapture
from bot.screenshots.scenes import Game, PictureBot, Shot, locale_of
from bot.screenshots.server_scenes import (
    replay_screen,
    season_screen,
    server_screens,
    tournament_screen,
)

#: Viewports of a desktop chat column and an upright phone, tall enough for any message.
WIDTHS: dict[str, tuple[int, int]] = {"desktop": (1000, 2000), "phone": (390, 2400)}
#: The height of a picture of a channel (its newest messages, above the message box).
CHANNEL_HEIGHT = 1100
BOT_NAME = "Spades"
#: Discord draws mentions in embed text; SimCord's preview leaves them as ``<@id>``.
MENTIONING_EMBED_PARTS = ("embed_description", "embed_field_value")
#: Parts of a preview document that belong to the preview session, not the screen.
SESSION_PARTS = frozenset(
    {"context", "publication", "activity", "lastAction", "navigation", "history", "commands"}
)
ASSET_HANDLE = re.compile(r'"a_[A-Za-z0-9_-]{16}"')


class AlbumBot(PictureBot, Protocol):
    """The bot the album plays: a Discord client that can publish its slash commands."""

    async def sync_commands(self, guild_id: int | None = None) -> list[str]: ...


#: Builds the bot from settings and a seed source (``bot.runner.picture_bot``).
MakeBot = Callable[[Settings, Callable[[], int]], AlbumBot]


@dataclass
class Album:
    """Where the pictures go: widths, language, the browser (None: no pictures), documents."""

    outdir: Path
    widths: Sequence[str] = tuple(WIDTHS)
    language: str | None = None
    browser: Browser | None = None
    documents: bool = False
    written: list[Path] = field(default_factory=list)

    async def take(self, env: simcord.Env, channel: simcord.ChannelHandle, shot: Shot) -> None:
        self.outdir.mkdir(parents=True, exist_ok=True)
        width, height = WIDTHS[self.widths[0]]
        locales = {locale.value: locale.value for locale in discord.Locale}
        with mentions_in_embeds():
            async with env.preview(
                shot.channel or channel,
                viewers=[shot.viewer],
                layout=shot.layout,
                width=width,
                height=height,
                locale=locale_of(self.language, locales),
            ) as preview:
                if self.documents:
                    await preview.show(shot.message)
                    document = await preview.snapshot()
                    self.write(f"{shot.name}.json", steady(document, shot.caption))
                if self.browser is None:
                    return
                preview._capture_manager = ChromiumCapture(preview, self.browser)
                for name in self.widths:
                    path = self.outdir / f"{shot.name}-{name}.png"
                    view, mode = framing(shot, name)
                    await preview.screenshot(path, target=shot.message, viewport=view, mode=mode)
                    self.written.append(path)

    def write(self, name: str, document: dict[str, Any]) -> None:
        path = self.outdir / name
        path.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", "utf-8")
        self.written.append(path)


def framing(shot: Shot, width: str) -> tuple[tuple[int, int], Literal["surface", "viewport"]]:
    """The browser's viewport and the kept part: the message, or a channel's newest messages."""
    if shot.layout == "channel":
        return (WIDTHS[width][0], CHANNEL_HEIGHT), "viewport"
    return WIDTHS[width], "surface"


def steady(document: dict[str, Any], caption: str) -> dict[str, Any]:
    """The preview document without what changes between runs (ids, cursors, clock), captioned."""
    kept = {key: value for key, value in document.items() if key not in SESSION_PARTS}
    text = json.dumps({"caption": caption, **kept}, ensure_ascii=False)
    numbers: dict[str, str] = {}

    def number(match: re.Match[str]) -> str:
        return numbers.setdefault(match[0], f'"asset-{len(numbers) + 1}"')

    steady_document: dict[str, Any] = json.loads(ASSET_HANDLE.sub(number, text))
    return steady_document


@contextlib.contextmanager
def mentions_in_embeds() -> Iterator[None]:
    saved = {part: _markdown._FIELD_POLICIES[part]["mentions"] for part in MENTIONING_EMBED_PARTS}
    try:
        for part in MENTIONING_EMBED_PARTS:
            _markdown._FIELD_POLICIES[part]["mentions"] = True
        yield
    finally:
        for part, value in saved.items():
            _markdown._FIELD_POLICIES[part]["mentions"] = value


def settings(database: Path) -> Settings:
    """The bot's settings for the pictures: no waits between moves."""
    return Settings(
        discord=DiscordSettings(table_edits_per_channel_s=0, rest_per_s=0),
        database=DatabaseSettings(path=database),
        tables=TableSettings(computer_delay_s=0.0),
        clock=ClockSettings(computer_delay_s=0.0, first_notice_s=0.0),
    )


async def make_album(album: Album, make_bot: MakeBot) -> list[Path]:
    """Play the scripted game and take every screen; the files written."""
    with tempfile.TemporaryDirectory(prefix="spades-screens-") as folder:
        seeds = itertools.count(1)
        bot = make_bot(settings(Path(folder) / "spades.db"), lambda: next(seeds))
        if not isinstance(bot, discord.Client):
            raise TypeError(f"the album plays a Discord client, not {type(bot).__name__}")
        try:
            # The replay scene has the coach review a whole game in a worker
            # thread before the bot settles; a busy machine needs more than 5 s.
            async with simcord.run(bot, settle_timeout=60.0) as env:
                env.backend.bot_user.name = BOT_NAME
                await bot.sync_commands()

                async def take(shot: Shot) -> None:
                    await album.take(env, game.channel, shot)

                game = Game(env, bot, album.language, take)
                await game.play()
                await replay_screen(game)
                await server_screens(game)
                await tournament_screen(game)
                await season_screen(game)
        finally:
            store = getattr(bot, "store", None)
            if store is not None:
                await store.close()
    return album.written
