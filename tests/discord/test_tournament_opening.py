"""Opening a tournament: what ``/spades tournament new`` refuses, briefly and
privately in the organizer's language, leaving nothing behind."""

from __future__ import annotations

import pytest
import simcord
from simcord import assert_error

from bot.refusals import BadHouseRule
from bot.render.spec import CONTENT
from tests.discord.harness import World

pytestmark = pytest.mark.simcord(settle_timeout=5.0)


async def test_house_rules_are_as_long_as_a_table_s_at_most(world: World) -> None:
    """Discord itself refuses longer text (the bound is on the option), as it
    does for /spades new; the longest allowed is answered in one message."""
    alice = world.user("alice")
    with pytest.raises(simcord.OptionError):
        await alice.slash(world.channel, "spades tournament new", name="Cup", house="x" * 301)
    refused = await alice.slash(world.channel, "spades tournament new", name="Cup", house="x" * 300)
    assert refused.ephemeral and refused.response is not None
    assert refused.response.content.startswith("That house rule cannot be played")
    assert len(refused.response.content) <= CONTENT
    assert_error(world.env, BadHouseRule)  # answered through the command error path
    assert world.bot.tournaments.in_channel(world.channel.id) is None
