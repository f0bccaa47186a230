"""Helpers to run a tournament through SimCord by clicking, as people would."""

from __future__ import annotations

import discord
import simcord
from simcord import MemberActor

from bot.render.tournament_text import TITLE
from bot.tournament.model import Match, Tournament
from tests.discord.harness import World


class Cup:
    """One tournament in the world's channel, driven by its members' clicks."""

    def __init__(self, world: World, organizer: MemberActor) -> None:
        self.world = world
        self.organizer = organizer
        self.id = 0

    async def open(self, name: str = "Cup", **options: object) -> Tournament:
        result = await self.organizer.slash(
            self.world.channel, "spades tournament new", name=name, **options
        )
        assert result.ephemeral and result.response is not None, result
        self.id = self.state().id if self.id == 0 else self.id
        return self.state()

    def state(self) -> Tournament:
        service = self.world.bot.tournaments
        found = service.get(self.id) if self.id else service.in_channel(self.world.channel.id)
        assert found is not None, "no tournament"
        self.id = found.id
        return found

    def message(self) -> discord.Message:
        found = [
            m
            for m in self.world.channel.history()
            if m.embeds and (m.embeds[0].title or "").startswith(TITLE)
        ]
        assert found, "no tournament message"
        return found[-1]

    async def click(self, user: MemberActor, label: str) -> simcord.InteractionResult:
        return await user.click(self.message(), label=label)

    async def pair(self, user: MemberActor, partner: MemberActor) -> None:
        """``user`` registers with ``partner``, who confirms."""
        menu = await self.click(user, "Register")
        assert menu.ephemeral and menu.response is not None, menu
        asked = await user.select(menu.response, [partner])
        assert asked.response is not None and "asked" in asked.response.content, asked
        confirmed = await self.click(partner, "Confirm partner")
        assert confirmed.response is not None
        assert confirmed.response.content == "You are registered as partners.", confirmed

    def channel(self, channel_id: int) -> simcord.ChannelHandle:
        """The thread (or the channel) a match's table plays in."""
        if channel_id == self.world.channel.id:
            return self.world.channel
        return next(t for t in self.world.channel.threads if t.id == channel_id)

    def player(self, user_id: int) -> MemberActor:
        return self.world.by_id(user_id)

    def team_players(self, team_id: int) -> list[MemberActor]:
        team = self.state().team(team_id)
        assert team is not None
        return [self.player(u) for u in team.players]

    def matches(self, state: str) -> list[Match]:
        return [m for m in self.state().matches if m.state == state]

    async def ready(self, match: Match, *teams: int) -> None:
        """A player of each of ``teams`` presses Ready on the tournament message."""
        for team in teams:
            result = await self.click(self.team_players(team)[0], "Ready")
            assert result.response is not None
            assert result.response.content == f"Your team is ready for match {match.number}.", (
                result.response.content
            )

    async def resign(self, match: Match, loser: int) -> None:
        """A player of team ``loser`` resigns the match's game in its thread."""
        current = self.state().match(match.number)
        assert current is not None and current.table_id is not None, current
        table = await self.world.bot.app.tables.get(current.table_id)
        player = self.team_players(loser)[0]
        asked = await player.slash(self.channel(table.channel_id), "spades resign")
        assert asked.response is not None, asked
        await player.click(asked.response, label="Yes, resign")


async def final_under_way(world: World, target: int = 250) -> tuple[Cup, Match]:
    """Alice and bob, carol and dave registered, both ready: the final's game
    is under way. The cup (alice organizes) and the match as it is playing."""
    alice, bob, carol, dave = (world.user(n) for n in ("alice", "bob", "carol", "dave"))
    cup = Cup(world, alice)
    await cup.open(target=target)
    await cup.pair(alice, bob)
    await cup.pair(carol, dave)
    await cup.click(alice, "Start")
    [final] = cup.matches("ready_check")
    await cup.ready(final, final.a or 0, final.b or 0)
    [playing] = cup.matches("playing")
    assert playing.table_id is not None
    return cup, playing
