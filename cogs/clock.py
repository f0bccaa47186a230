"""The turn clock on Discord: its messages, and ``/spades claim``.

:class:`ClockCog` builds the scheduler and the turn clock over the bot's
store and table service (add it after they are open), starts them, and adds
``claim`` to the ``/spades`` group. :class:`DiscordTurnNotifier` is the
clock's voice: short mentions in the table's channel, each pinging only the
people it concerns.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.game.durations import format_duration
from bot.game.types import Phase
from bot.render import ids
from bot.scheduler import Scheduler, SystemClock
from bot.tables.errors import TableError
from bot.tables.model import Table
from bot.turns import ClockSettings, TurnClock
from cogs.errors import Refusal
from cogs.spades import SpadesCog

if TYPE_CHECKING:
    from bot.config import Settings
    from bot.discord_app import SpadesBot

log = logging.getLogger(__name__)

#: Clicks by which a person shows they are back at their table.
BACK_AT_THE_TABLE = frozenset({ids.Act.HAND, ids.Act.LOOK, ids.Act.BID, ids.Act.PLAY})


def clock_settings_from(settings: Settings) -> ClockSettings:
    """The ``[clock]`` section if the settings have one; otherwise the defaults,
    with the computer players' pace of the ``[tables]`` section."""
    section = getattr(settings, "clock", None)
    if isinstance(section, ClockSettings):
        return section
    return ClockSettings(computer_delay_s=settings.tables.computer_delay_s)


class DiscordTurnNotifier:
    """Implements :class:`bot.turns.TurnNotifier` with channel messages."""

    def __init__(self, bot: SpadesBot, turn_clock: TurnClock | None = None) -> None:
        self.bot = bot
        self.turn_clock = turn_clock

    async def remind(self, table: Table, seat: int, left_s: float) -> None:
        user = table.seats[seat].user_id
        if user is None or table.game is None:
            return
        verb = "bid" if table.game.phase is Phase.BIDDING else "play"
        then = (
            "a computer plays for you"
            if self.turn_clock is not None and self.turn_clock.stand_in(table.id)
            else "the other team can claim the win"
        )
        await self._say(
            table,
            f"<@{user}>, table {table.id} is waiting for you to {verb}: "
            f"{format_duration(left_s)} left before {then}.",
            [user],
        )

    async def claim_open(self, table: Table) -> None:
        game = table.game
        seat = game.waited_on() if game is not None else None
        if seat is None:
            return
        late = table.seats[seat].user_id
        opponents = [
            user
            for n in ((seat + 1) & 3, (seat + 3) & 3)
            if (user := table.seats[n].user_id) is not None
        ]
        limit = format_duration(table.rules.turn_limit_s)
        who = f"<@{late}>" if late is not None else "The computer player"
        text = f"{who} has kept table {table.id} waiting longer than the turn limit ({limit})."
        if opponents:
            text += (
                f" {' '.join(f'<@{u}>' for u in opponents)}: you can claim the win with "
                "**Claim the win** on the table message or `/spades claim`."
            )
        await self._say(table, text, opponents)
        self._redraw(table)

    async def stood_in(self, table: Table, seat: int) -> None:
        user = table.seats[seat].user_id
        await self._say(
            table,
            f"<@{user}> is past the turn limit at table {table.id}: a computer plays for them "
            "until they press **My hand**.",
            [user] if user is not None else [],
        )

    async def lobby_closed(self, table: Table) -> None:
        idle = self.turn_clock.settings.lobby_idle_s if self.turn_clock is not None else None
        since = f" in {format_duration(idle)}" if idle is not None else ""
        await self._say(table, f"Table {table.id} is closed: nobody started it{since}.", [])

    async def _say(self, table: Table, text: str, ping: Iterable[int]) -> None:
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        mentions = discord.AllowedMentions(users=[discord.Object(u) for u in ping])
        try:
            await channel.send(text, allowed_mentions=mentions)
        except discord.HTTPException as exc:
            # The game state does not depend on this message; the table message
            # still shows whose turn it is.
            log.info("turn clock message at table %d not sent: %s", table.id, exc)

    def _redraw(self, table: Table) -> None:
        presenter = getattr(self.bot, "presenter", None)
        if presenter is not None:
            presenter.show(table, check=True)


def claim_command(cog: ClockCog) -> app_commands.Command[Any, ..., None]:
    @app_commands.command(
        name="claim", description="Win the game: the other team kept the table waiting too long"
    )
    async def claim(interaction: discord.Interaction[Any]) -> None:
        await cog.claim(interaction)

    return claim


class ClockCog(commands.Cog):
    """Starts the turn clock with the bot and stops it on unload."""

    def __init__(self, bot: SpadesBot, settings: ClockSettings | None = None) -> None:
        self.bot = bot
        self.settings = settings or clock_settings_from(bot.settings)
        self.notifier = DiscordTurnNotifier(bot)
        scheduler = Scheduler(bot.store, SystemClock(bot.now))
        self.turn_clock = TurnClock(bot.service, scheduler, self.notifier, self.settings)
        self.notifier.turn_clock = self.turn_clock
        self.command = claim_command(self)

    async def cog_load(self) -> None:
        group = self.bot.tree.get_command("spades")
        if isinstance(group, app_commands.Group) and group.get_command("claim") is None:
            group.add_command(self.command)
        await self.turn_clock.start()

    async def cog_unload(self) -> None:
        await self.turn_clock.stop()
        group = self.bot.tree.get_command("spades")
        if isinstance(group, app_commands.Group):
            group.remove_command("claim")

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A person opening their hand (or acting from it) is back: a seat the
        computer plays for them while they were late is theirs again."""
        user = interaction.user.id
        try:
            for table_id in await self._tables_opened_by(interaction):
                await self.turn_clock.take_back(table_id, user)
        except TableError:
            pass  # a forged or outdated table id: the click's own answer says so

    async def _tables_opened_by(self, interaction: discord.Interaction[Any]) -> list[int]:
        data: dict[str, Any] = dict(interaction.data or {})
        if interaction.type is discord.InteractionType.component:
            custom_id = str(data.get("custom_id", ""))
            prefix = f"{ids.PREFIX}:"
            if not custom_id.startswith(prefix):
                return []
            try:
                cid = ids.parse(custom_id.removeprefix(prefix))
            except ids.BadComponentId:
                return []
            return [cid.table] if cid.action in BACK_AT_THE_TABLE else []
        if interaction.type is discord.InteractionType.application_command:
            options = data.get("options") or [{}]
            if data.get("name") == "spades" and options[0].get("name") == "hand":
                tables = await self.bot.service.tables_of_user(interaction.user.id)
                return [t.id for t in tables]
        return []

    async def claim(self, interaction: discord.Interaction[Any]) -> None:
        table = await self._table_of(interaction)
        if self.turn_clock.stand_in(table.id):
            raise Refusal(
                "At this table a computer plays for late players, so there is no win to claim."
            )
        done = await self.bot.service.claim_timeout(table.id, interaction.user.id, table.version)
        result = done.result
        late = done.seats[result.seat].user_id if result and result.seat is not None else None
        who = f"<@{late}>" if late is not None else "the late player"
        await interaction.response.send_message(
            f"{interaction.user.mention} claimed the win at table {done.id}: {who} kept the "
            "table waiting past the turn limit, so their team loses.",
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def _table_of(self, interaction: discord.Interaction[Any]) -> Table:
        """The same table ``/spades hand`` would pick for this user."""
        spades = self.bot.get_cog("SpadesCog")
        if not isinstance(spades, SpadesCog):
            raise Refusal("Tables are not available right now.")
        return await spades.my_table(interaction)
