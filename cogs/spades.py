"""The slash commands: ``/spades ...`` and ``/revoke``.

Each command finds the table, calls the service, and answers; refusals are
raised and answered by the one error path (cogs.errors).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.game.durations import format_duration
from bot.game.rules import PRESETS
from bot.render.decks import DECKS, DeckName, Style
from bot.render.ids import Act, ComponentId
from bot.render.rules_text import rules_text
from bot.render.spec import ButtonSpec, MessageSpec
from bot.render.table import SEAT_NAMES
from bot.tables.model import Table
from cogs.components import send_private
from cogs.errors import Refusal

if TYPE_CHECKING:
    from bot.discord_app import SpadesBot

# Minutes: quick tables for people playing together, up to a week for
# tables played over days.
TURN_LIMIT_MINUTES = (5, 60, 720, 1440, 2880, 4320, 10080)
PRESET_CHOICES: list[Choice[str]] = [Choice(name=name, value=name) for name in PRESETS]


def _limit_choice(minutes: int) -> Choice[int]:
    return Choice(name=format_duration(minutes * 60), value=minutes)


@app_commands.guild_only()
class SpadesGroup(app_commands.Group, name="spades", description="Partnership Spades tables"):
    def __init__(self, cog: SpadesCog) -> None:
        super().__init__()
        self.cog = cog

    @property
    def bot(self) -> SpadesBot:
        return self.cog.bot

    @app_commands.command(name="new", description="Open a Spades table in this channel")
    @app_commands.describe(
        target="Points to win",
        revokes="Allow revokes (at the player's risk, /revoke catches them) or block them",
        preset="Rules preset",
        turn_limit="How long the table waits on one player before the others may claim",
        stand_in="Past the turn limit, a computer plays for the late player (else: a claim)",
    )
    @app_commands.choices(
        target=[Choice(name="500 points", value=500), Choice(name="250 points", value=250)],
        turn_limit=[_limit_choice(m) for m in TURN_LIMIT_MINUTES],
    )
    @app_commands.choices(
        revokes=[Choice(name="allow", value="allowed"), Choice(name="block", value="blocked")],
        preset=PRESET_CHOICES,
    )
    async def new(
        self,
        interaction: discord.Interaction[Any],
        target: int = 500,
        revokes: str = "allowed",
        preset: str = "standard",
        turn_limit: int = 2880,
        stand_in: bool | None = None,
    ) -> None:
        # Posting the table message may wait on Discord's rate limits.
        await interaction.response.defer(ephemeral=True, thinking=True)
        assert interaction.channel_id is not None
        table = await self.bot.service.create(
            interaction.guild_id,
            interaction.channel_id,
            interaction.user.id,
            target=target,
            revokes=revokes,
            preset=preset,
            turn_limit_s=turn_limit * 60,
        )
        self.bot.presenter.remember_name(interaction.user)
        turn_clock = getattr(self.bot.get_cog("ClockCog"), "turn_clock", None)
        if stand_in is not None and turn_clock is not None:
            await turn_clock.set_stand_in(table.id, stand_in)
            self.bot.presenter.show(table, check=True)
        await self.bot.presenter.settle(table.id)
        problem = self.bot.presenter.problem(table.id)
        if problem is not None:
            await interaction.followup.send(problem, ephemeral=True)
            return
        await interaction.followup.send(
            f"Table {table.id} is open: you sit South. Others press Join on the table message.",
            ephemeral=True,
        )

    @app_commands.command(name="join", description="Take a seat at this channel's table, or watch")
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        table = await self.cog.channel_table(interaction)
        self.bot.presenter.remember_name(interaction.user)
        table = await self.bot.service.join(table.id, interaction.user.id, table.version)
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            text = f"You are watching table {table.id}."
        else:
            text = f"You sit {SEAT_NAMES[seat]} at table {table.id}."
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(
        name="leave", description="Leave your seat before the start, or stop watching"
    )
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        table = await self.cog.channel_table(interaction)
        await self.bot.service.leave(table.id, interaction.user.id, table.version)
        await interaction.response.send_message(f"You left table {table.id}.", ephemeral=True)

    @app_commands.command(name="hand", description="Show your cards (only you see them)")
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        table = await self.cog.my_table(interaction)
        await self.bot.hands.open(interaction, table)

    @app_commands.command(name="resign", description="Give up the game: your team loses")
    async def resign(self, interaction: discord.Interaction[Any]) -> None:
        table = await self.cog.my_table(interaction)
        if table.game is None or table.game.over:
            raise Refusal("There is no game in progress to resign from.")
        confirm = ButtonSpec(
            str(ComponentId(Act.RESIGN, table.id, table.version)), "Yes, resign", Style.RED
        )
        spec = MessageSpec(
            content=f"Resign at table {table.id}? Your team loses the game at once.",
            rows=((confirm,),),
        )
        await send_private(interaction, spec)

    @app_commands.command(name="cancel", description="Close your table before it starts (host)")
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        table = await self.cog.channel_table(interaction)
        await self.bot.service.cancel(table.id, interaction.user.id, table.version)
        await interaction.response.send_message(f"Table {table.id} is closed.", ephemeral=True)

    @app_commands.command(name="deck", description="Choose how your own cards look")
    @app_commands.describe(design="The deck design; leave it out to see the designs")
    @app_commands.choices(design=[Choice(name=d.title, value=d.name.value) for d in DECKS.values()])
    async def deck_command(
        self, interaction: discord.Interaction[Any], design: str | None = None
    ) -> None:
        if design is None:
            current = await self.bot.hands.deck_of(interaction.user.id)
            lines = [f"Your deck: **{current.title}**."]
            lines += [
                f"- **{d.title}** (`{d.name.value}`): {d.description}" for d in DECKS.values()
            ]
            await interaction.response.send_message("\n".join(lines), ephemeral=True)
            return
        chosen = DECKS[DeckName(design)]
        await self.bot.hands.set_deck(interaction.user.id, chosen)
        await interaction.response.send_message(
            f"Your cards now use the **{chosen.title}** deck. Only you see it.", ephemeral=True
        )

    @app_commands.command(name="rules", description="The rules of this channel's table")
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        table = await self.bot.service.in_channel(interaction.channel_id or 0)
        rules = table.rules if table is not None else PRESETS["standard"]
        await interaction.response.send_message(rules_text(rules), ephemeral=True)


class SpadesCog(commands.Cog):
    def __init__(self, bot: SpadesBot) -> None:
        self.bot = bot
        self.group = SpadesGroup(self)

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.group)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.group.name)

    async def channel_table(self, interaction: discord.Interaction[Any]) -> Table:
        table = await self.bot.service.in_channel(interaction.channel_id or 0)
        if table is None:
            raise Refusal("There is no open table in this channel: start one with /spades new.")
        return table

    async def my_table(self, interaction: discord.Interaction[Any]) -> Table:
        """The table in this channel if the user plays there, else their only table."""
        here = await self.bot.service.in_channel(interaction.channel_id or 0)
        if here is not None and here.is_seated(interaction.user.id):
            return here
        mine = await self.bot.service.tables_of_user(interaction.user.id)
        if len(mine) == 1:
            return mine[0]
        if here is not None:
            return here  # the service answers "you are watching" / "not seated"
        if not mine:
            raise Refusal("You are not playing at any table.")
        channels = ", ".join(f"<#{t.channel_id}>" for t in mine)
        raise Refusal(f"You play at several tables: use this command in {channels}.")

    @app_commands.command(name="revoke", description="Call a revoke on an opponent")
    @app_commands.describe(player="The opponent you say revoked in this hand")
    @app_commands.guild_only()
    async def revoke(self, interaction: discord.Interaction[Any], player: discord.User) -> None:
        table = await self.my_table(interaction)
        done = await self.bot.service.challenge(
            table.id, interaction.user.id, player.id, table.version
        )
        result = done.result
        assert result is not None
        if result.reason.value == "revoke":
            text = (
                f"{interaction.user.mention} called a revoke on {player.mention}: the plays of "
                f"the hand show it. {player.mention}'s team loses the game."
            )
        else:
            text = (
                f"{interaction.user.mention} called a revoke on {player.mention}, but the plays "
                f"of the hand show none. {interaction.user.mention}'s team loses the game."
            )
        await interaction.response.send_message(text)
