"""``/spades replay``: a private viewer of a finished game, and its buttons.

Every component carries the game and frame it leads to, so a viewer survives a restart;
pictures are drawn in a worker thread, and Share posts through the outbox."""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any

import discord
from discord import app_commands

from bot.app import SpadesApp
from bot.i18n import N_
from bot.refusals import InvalidButton
from bot.render.decks import deck
from bot.render.replay import (
    ReplayId,
    Step,
    coach_lines,
    frame_scene,
    parse_replay_id,
    shared_text,
    viewer_spec,
)
from bot.render.replay_picture import render_frame
from bot.render.results import seat_name
from bot.render.spec import read_number
from bot.replay.frames import Replay
from cogs.components import learn_language, private_language, to_view
from cogs.errors import answer, report
from cogs.guilds import post_to
from cogs.leaderboard import KnownName, display_name
from cogs.outbox import POST, Outbox, Route

log = logging.getLogger(__name__)

NO_MENTIONS = discord.AllowedMentions.none()
#: Display names kept between clicks (four per game viewed).
KEPT_NAMES = 2000
#: The moments last shared (one per person, channel and game) kept in mind.
KEPT_SHARES = 2000
#: Who shared, where, which game: the last moment of it they shared there.
Sharer = tuple[int, int, int]


class ReplayDesk:
    def __init__(
        self, client: discord.Client, app: SpadesApp, outbox: Outbox, known_name: KnownName
    ) -> None:
        self.client = client
        self.app = app
        self.replays = app.replays
        self.outbox = outbox
        self.known_name = known_name
        self._names: dict[int, str] = {}
        #: A repeated Share of the moment last shared (a double click) posts
        #: nothing more; a share that could not be posted is forgotten.
        self._shared: dict[Sharer, int] = {}

    def command(self) -> app_commands.Command[Any, ..., None]:
        """``/spades replay``, made per desk so that each bot has its own."""

        @app_commands.command(name="replay", description=N_("Replay a finished game, privately"))
        @app_commands.describe(game=N_("The game's number (see /spades history)"))
        async def replay(
            interaction: discord.Interaction[Any], game: app_commands.Range[int, 1]
        ) -> None:
            await learn_language(interaction, self.app)
            await self.open(interaction, game)

        return replay

    async def open(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """A new private viewer at the game's first frame."""
        replay = await self.replays.replay(interaction.guild_id, game_id)
        fields = await self._frame(interaction, replay, 0)
        await interaction.response.send_message(
            **fields, ephemeral=True, allowed_mentions=NO_MENTIONS
        )
        fields["view"].stop()  # dispatched by the template, not by the view

    async def on_click(
        self, interaction: discord.Interaction[Any], rest: str, values: list[str]
    ) -> None:
        try:
            await learn_language(interaction, self.app)
            wanted = parse_replay_id(rest)
            if wanted is None:
                raise InvalidButton()
            if wanted.step is Step.OPEN:
                await self.open(interaction, wanted.game)
                return
            replay = await self.replays.replay(interaction.guild_id, wanted.game)
            index = _frame_index(replay, wanted, values)
            if wanted.step is Step.SHARE:
                await self._share(interaction, replay, index)
                return
            fields = await self._frame(interaction, replay, index)
            await interaction.response.edit_message(
                content=fields["content"], attachments=[fields["file"]], view=fields["view"]
            )
            fields["view"].stop()
        except Exception as exc:
            await report(interaction, exc)

    async def _frame(
        self, interaction: discord.Interaction[Any], replay: Replay, index: int
    ) -> dict[str, Any]:
        """The viewer's message at frame ``index``, for the person asking."""
        lang = private_language(interaction)
        coach, reviewing, png = await self._drawn(interaction, replay, index, lang)
        spec = viewer_spec(replay, index, coach, reviewing, lang)
        return {
            "content": spec.content,
            "file": discord.File(io.BytesIO(png), _filename(replay, index)),
            "view": to_view(spec),
        }

    async def _drawn(
        self, interaction: discord.Interaction[Any], replay: Replay, index: int, lang: str
    ) -> tuple[list[str], bool, bytes]:
        """The frame's coach lines, whether the review is still under way, and its picture."""
        review = await self.replays.review(replay)
        names = await self._seat_names(replay, lang)
        coach = [] if review is None else coach_lines(replay.frames[index], review, names, lang)
        design = deck(await self.app.deck_of(interaction.user.id)).name
        scene = frame_scene(replay, index, names, coach[0] if coach else "", lang)
        return coach, review is None, await asyncio.to_thread(render_frame, scene, design, lang)

    async def _share(
        self, interaction: discord.Interaction[Any], replay: Replay, index: int
    ) -> None:
        await self.replays.may_share(replay, interaction.user.id)
        lang = private_language(interaction)
        channel_id, guild_id = interaction.channel_id, interaction.guild_id
        assert channel_id is not None
        sharer = (interaction.user.id, channel_id, replay.game_id)
        if self._shared.get(sharer) == index:
            said = N_("This moment of game {game} is already shared in the channel.")
            await answer(interaction, said, game=replay.game_id)
            return
        self._remember_share(sharer, index)  # before any wait: a second click sees it
        try:
            # Public: the frame in the sharer's deck design and language, as they saw it.
            coach, _, png = await self._drawn(interaction, replay, index, lang)
        except BaseException:
            self._forget_share(sharer, index)
            raise
        text = shared_text(replay, index, interaction.user.id, coach, lang)
        name = _filename(replay, index)

        async def post() -> Route:
            file = discord.File(io.BytesIO(png), name)
            what = f"a moment of game {replay.game_id}"
            fields = {"content": text, "file": file, "allowed_mentions": NO_MENTIONS}
            if not await post_to(self.client, channel_id, guild_id, what, **fields):
                self._forget_share(sharer, index)
            return POST

        # One share per person and game waits at a time: a newer one replaces it.
        self.outbox.put((f"replay-share-{interaction.user.id}", replay.game_id), post)
        shared = N_("This moment of game {game} is shared in the channel.")
        await answer(interaction, shared, game=replay.game_id)

    def _remember_share(self, sharer: Sharer, index: int) -> None:
        self._shared.pop(sharer, None)
        self._shared[sharer] = index  # the newest last
        if len(self._shared) > KEPT_SHARES:
            del self._shared[next(iter(self._shared))]

    def _forget_share(self, sharer: Sharer, index: int) -> None:
        if self._shared.get(sharer) == index:
            del self._shared[sharer]

    async def _seat_names(self, replay: Replay, lang: str) -> list[str]:
        if len(self._names) > KEPT_NAMES:
            self._names.clear()
        for seat in replay.seats:
            if seat.user_id is not None and seat.user_id not in self._names:
                name = await display_name(self.client, self.known_name, seat.user_id)
                self._names[seat.user_id] = name
        return [
            seat_name(replay.seats, s, self._names.__getitem__, plain=True, lang=lang)
            for s in range(4)
        ]


def _frame_index(replay: Replay, wanted: ReplayId, values: list[str]) -> int:
    """The frame a click asks for: the id's, or the menu's choice."""
    index = wanted.frame
    if wanted.step is Step.HAND:
        chosen = read_number(values[0]) if len(values) == 1 else None
        if chosen is None:
            raise InvalidButton()
        index = chosen
    if not 0 <= index < len(replay.frames):
        raise InvalidButton()
    return index


def _filename(replay: Replay, index: int) -> str:
    return f"spades-replay-{replay.game_id}-{index + 1}.png"
