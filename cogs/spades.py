"""The slash commands: ``/spades ...`` and ``/revoke``.

Each command finds the table, calls the application, and answers; refusals
are raised and answered by the one error path (cogs.errors).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.app import PRESET_NAMES, Origin, SpadesApp
from bot.render.clock_text import format_duration
from bot.render.coach_text import hints_table_text
from bot.render.decks import DECKS, DeckName, Style
from bot.render.ids import Act, ComponentId
from bot.render.rules_text import rules_text
from bot.render.spec import ButtonSpec, MessageSpec
from bot.render.table import SEAT_NAMES
from bot.tables.model import DEFAULT_TURN_LIMIT_S
from cogs.components import send_private
from cogs.errors import InteractionRefused
from cogs.hands import HandScreens
from cogs.presenter import TablePresenter

# Minutes: quick tables for people playing together, up to a week for
# tables played over days.
TURN_LIMIT_MINUTES = (5, 60, 720, 1440, 2880, 4320, 10080)
DEFAULT_TURN_LIMIT_MINUTES = DEFAULT_TURN_LIMIT_S // 60
PRESET_CHOICES: list[Choice[str]] = [Choice(name=name, value=name) for name in PRESET_NAMES]


def _limit_choice(minutes: int) -> Choice[int]:
    return Choice(name=format_duration(minutes * 60), value=minutes)


@app_commands.guild_only()
class SpadesGroup(app_commands.Group, name="spades", description="Partnership Spades tables"):
    def __init__(self, cog: SpadesCog) -> None:
        super().__init__()
        self.cog = cog

    @property
    def app(self) -> SpadesApp:
        return self.cog.app

    @app_commands.command(name="new", description="Open a Spades table in this channel")
    @app_commands.describe(
        target="Points to win",
        revokes="Allow revokes (at the player's risk, /revoke catches them) or block them",
        preset="Rules preset",
        turn_limit="How long the table waits on one player before the others may claim",
        stand_in="Past the turn limit, a computer plays for the late player (else: a claim)",
        hints="A Hint button on the players' hands (such games leave ratings alone)",
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
        turn_limit: int = DEFAULT_TURN_LIMIT_MINUTES,
        stand_in: bool | None = None,
        hints: bool | None = None,
    ) -> None:
        # Posting the table message may wait on Discord's rate limits.
        await interaction.response.defer(ephemeral=True, thinking=True)
        presenter = self.cog.presenter
        presenter.remember_name(interaction.user)
        snapshot = await self.app.create(
            Origin(interaction.guild_id, interaction.channel_id),
            interaction.user.id,
            target=target,
            revokes=revokes,
            preset=preset,
            turn_limit_s=turn_limit * 60,
            stand_in=stand_in,
            hints=hints,
        )
        table = snapshot.table
        await presenter.settle(table.id)
        problem = presenter.problem(table.id)
        if problem is not None:
            await interaction.followup.send(problem, ephemeral=True)
            return
        opened = f"Table {table.id} is open: you sit South. Others press Join on the table message."
        if table.options.hints:
            opened += " " + hints_table_text()
        await interaction.followup.send(opened, ephemeral=True)

    @app_commands.command(name="join", description="Take a seat at this channel's table, or watch")
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        table = await self.app.channel_table(interaction.channel_id)
        self.cog.presenter.remember_name(interaction.user)
        table = await self.app.join(table, interaction.user.id)
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
        table = await self.app.channel_table(interaction.channel_id)
        await self.app.leave(table, interaction.user.id)
        await interaction.response.send_message(f"You left table {table.id}.", ephemeral=True)

    @app_commands.command(name="hand", description="Show your cards (only you see them)")
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        table = await self.app.my_table(interaction.user.id, interaction.channel_id)
        await self.cog.hands.open(interaction, table)

    @app_commands.command(name="resign", description="Give up the game: your team loses")
    async def resign(self, interaction: discord.Interaction[Any]) -> None:
        table = await self.app.my_table(interaction.user.id, interaction.channel_id)
        if table.game is None or table.game.over:
            raise InteractionRefused("There is no game in progress to resign from.")
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
        table = await self.app.channel_table(interaction.channel_id)
        await self.app.cancel(table, interaction.user.id)
        await interaction.response.send_message(f"Table {table.id} is closed.", ephemeral=True)

    @app_commands.command(name="deck", description="Choose how your own cards look")
    @app_commands.describe(design="The deck design; leave it out to see the designs")
    @app_commands.choices(design=[Choice(name=d.title, value=d.name.value) for d in DECKS.values()])
    async def deck_command(
        self, interaction: discord.Interaction[Any], design: str | None = None
    ) -> None:
        if design is None:
            current = await self.cog.hands.deck_of(interaction.user.id)
            lines = [f"Your deck: **{current.title}**."]
            lines += [
                f"- **{d.title}** (`{d.name.value}`): {d.description}" for d in DECKS.values()
            ]
            await interaction.response.send_message("\n".join(lines), ephemeral=True)
            return
        chosen = DECKS[DeckName(design)]
        await self.cog.hands.set_deck(interaction.user.id, chosen)
        await interaction.response.send_message(
            f"Your cards now use the **{chosen.title}** deck. Only you see it.", ephemeral=True
        )

    @app_commands.command(name="rules", description="The rules of this channel's table")
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        rules = await self.app.rules_in(interaction.channel_id)
        await interaction.response.send_message(rules_text(rules), ephemeral=True)


class SpadesCog(commands.Cog):
    def __init__(
        self,
        tree: app_commands.CommandTree[Any],
        app: SpadesApp,
        hands: HandScreens,
        presenter: TablePresenter,
    ) -> None:
        self.tree = tree
        self.app = app
        self.hands = hands
        self.presenter = presenter
        self.group = SpadesGroup(self)

    async def cog_load(self) -> None:
        self.tree.add_command(self.group)

    async def cog_unload(self) -> None:
        self.tree.remove_command(self.group.name)

    @app_commands.command(name="revoke", description="Call a revoke on an opponent")
    @app_commands.describe(player="The opponent you say revoked in this hand")
    @app_commands.guild_only()
    async def revoke(self, interaction: discord.Interaction[Any], player: discord.User) -> None:
        table = await self.app.my_table(interaction.user.id, interaction.channel_id)
        done = await self.app.challenge(table, interaction.user.id, player.id)
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
