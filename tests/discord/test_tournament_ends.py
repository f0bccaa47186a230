"""What a tournament's decisions and end do to its tables and its results
channel: a decided or cancelled match's table ends, a match table offers no
rematch, the final standings reach the results channel once across a restart,
and the tournament's message shows them even if a stop came before its edit."""

from __future__ import annotations

import logging

import discord
import pytest
from simcord import assert_error

from bot.game import EndReason
from bot.tournament.events import TournamentRefusal
from cogs.tournament_desk import TournamentDesk
from tests.discord.harness import World, embed_text, labels_of
from tests.discord.tournament_harness import Cup, final_under_way

pytestmark = pytest.mark.simcord(settle_timeout=5.0)


async def test_a_decision_ends_the_match_table_in_play(world: World) -> None:
    cup, playing = await final_under_way(world)
    table_id = playing.table_id or 0
    answer = await cup.organizer.slash(
        world.channel,
        "spades tournament decide",
        match=playing.number,
        winner=playing.b,
        reason="their table lost its connection",
    )
    assert answer.response is not None and "goes to team" in answer.response.content
    state = cup.state()
    assert state.phase == "over" and state.champion == playing.b
    table = await world.bot.app.tables.get(table_id)
    assert table.status.value == "finished" and table.result is not None
    assert table.result.reason is EndReason.MODERATOR
    assert table.result.note == "their table lost its connection"
    assert table.result.winner is None


async def test_a_refused_decision_leaves_the_table_playing(world: World) -> None:
    cup, playing = await final_under_way(world)
    table_id = playing.table_id or 0
    outsider = world.user("erin")
    answer = await outsider.slash(
        world.channel,
        "spades tournament decide",
        match=playing.number,
        winner=playing.b,
        reason="I say so",
    )
    assert answer.response is not None and answer.ephemeral
    assert answer.response.content.startswith("Only the organizer")
    assert_error(world.env, TournamentRefusal)  # answered by the one error path
    table = await world.bot.app.tables.get(table_id)
    assert table.status.value == "playing"
    assert cup.matches("playing")


async def test_cancelling_ends_the_tables_in_play(world: World) -> None:
    cup, playing = await final_under_way(world)
    table_id = playing.table_id or 0
    answer = await cup.organizer.slash(
        world.channel, "spades tournament cancel", reason="the server closes tonight"
    )
    assert answer.response is not None
    assert cup.state().phase == "cancelled"
    table = await world.bot.app.tables.get(table_id)
    assert table.status.value == "finished" and table.result is not None
    assert table.result.reason is EndReason.MODERATOR
    assert table.result.note == "the server closes tonight"


async def test_a_match_table_offers_no_rematch(world: World) -> None:
    cup, playing = await final_under_way(world)
    await cup.resign(playing, playing.b or 0)
    table = await world.bot.app.tables.get(playing.table_id or 0)
    assert table.status.value == "finished" and cup.state().phase == "over"
    message = world.table_message(cup.channel(table.channel_id))
    assert not [label for label in labels_of(message) if "Rematch" in label]
    assert "its result goes to the bracket" in embed_text(message)
    # The table message as an earlier version drew it, with a rematch button:
    # a press is refused in one private line.
    view = discord.ui.View(timeout=None)
    custom_id = f"spades:rematch:{table.id}:{table.version}:same"
    view.add_item(discord.ui.Button(label="Rematch: same teams", custom_id=custom_id))
    thread = world.bot.get_partial_messageable(table.channel_id, guild_id=world.guild.id)
    await thread.get_partial_message(message.id).edit(view=view)
    view.stop()
    pressed = world.table_message(cup.channel(table.channel_id))
    player = cup.team_players(playing.a or 0)[0]
    answer = await player.click(pressed, label="Rematch: same teams")
    private = answer.followups[0] if answer.followups else answer.response
    assert private is not None and private.ephemeral, answer
    assert private.content == "A tournament match has no rematch: the bracket goes on."
    assert (await world.bot.app.tables.get(table.id)).game_number == 1


async def test_standings_lost_in_a_stop_are_posted_once_after_the_restart(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stopped when the final had ended but before the outbox posted the
    standings: the restarted bot posts them, and only once."""
    results = world.guild.create_text_channel("results")
    await world.bot.app.servers.change(world.guild.id, results_channel=results.id)
    cup, playing = await final_under_way(world)

    async def lost(*_args: object) -> None:
        return None  # queued in memory, never sent: the process stopped

    monkeypatch.setattr(TournamentDesk, "_post_results", lost)
    await cup.resign(playing, playing.b or 0)
    assert cup.state().phase == "over"
    assert not [m for m in results.history() if "Cup" in m.content]

    monkeypatch.undo()
    for _restart in range(2):
        await world.restart()
        await world.env.settle()
        posted = [m.content for m in results.history() if "Cup" in m.content]
        assert len(posted) == 1 and "1. Team" in posted[0], posted


async def test_a_tournament_decided_just_before_a_kill_shows_its_standings_after_the_restart(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The final's game ended, and the bot was killed before the tournament's
    message was edited: it still read "Matches under way" with a live Ready
    button. The restarted bot (its server known only seconds after it
    connected) shows the final standings, without the button, and a second
    restart leaves the message alone."""
    cup, playing = await final_under_way(world)
    assert "Ready" in labels_of(cup.message())

    async def lost(*_args: object) -> None:
        return None  # waiting for its paced turn when the process died

    monkeypatch.setattr(TournamentDesk, "_show", lost)
    await cup.resign(playing, playing.b or 0)
    assert cup.state().phase == "over"
    assert "Matches under way" in embed_text(cup.message())
    monkeypatch.undo()

    await world.restart(servers_after_s=5)
    message = cup.message()
    assert "Final standings" in embed_text(message) and "1. Team" in embed_text(message)
    assert "Ready" not in labels_of(message)
    edited_at = message.edited_at
    assert edited_at is not None
    await world.restart()
    assert cup.message().edited_at == edited_at  # shown already: not drawn again


async def test_ready_checks_running_out_together_settle_each_match_once(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """Both first-round ready checks end at the same moment: each match goes
    to its ready team, and the deadline that comes due again after the first
    settles nothing twice (no failure logged)."""
    people = [world.user(f"player{n}") for n in range(8)]
    cup = Cup(world, people[0])
    await cup.open(ready_minutes=5)
    for n in range(0, 8, 2):
        await cup.pair(people[n], people[n + 1])
    await cup.click(people[0], "Start")
    first_round = cup.matches("ready_check")
    assert len(first_round) == 2
    for match in first_round:
        await cup.ready(match, match.b or 0)
    with caplog.at_level(logging.INFO):
        await world.env.advance_time(5 * 60 + 1)
    for match in first_round:
        done = cup.state().match(match.number)
        assert done is not None and (done.how, done.winner) == ("no_show", match.b)
    [final] = cup.matches("ready_check")
    assert {final.a, final.b} == {m.b for m in first_round}
    failures = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert failures == [], [r.getMessage() for r in failures]


async def test_the_channel_shows_its_latest_tournament_once_over_and_after_a_restart(
    world: World,
) -> None:
    """An ended tournament's final bracket stays in its channel; a newer open
    one comes first, being the one its players act on."""
    cup, playing = await final_under_way(world)
    await cup.resign(playing, playing.b or 0)
    assert cup.state().phase == "over"
    erin = world.user("erin")

    async def shown() -> discord.Embed:
        answer = await erin.slash(world.channel, "spades tournament show")
        assert answer.ephemeral and answer.response is not None, answer
        assert [a.filename for a in answer.response.attachments] == ["bracket.png"]
        [embed] = answer.response.embeds
        return embed

    for restarted in (False, True):
        if restarted:
            await world.restart()
            await world.env.settle()
        embed = await shown()
        assert embed.title is not None and embed.title.endswith(f"{cup.id} · Cup")
        [standings] = embed.fields
        assert standings.name == "Final standings"
        assert (standings.value or "").startswith(f"1. Team {playing.a}:"), standings.value
    # Acting on it is refused: it is over.
    refused = await cup.organizer.slash(
        world.channel, "spades tournament cancel", reason="too late"
    )
    assert refused.response is not None
    assert refused.response.content == "That tournament is no longer running."
    assert_error(world.env, TournamentRefusal)
    # A new tournament opens here: it is the one shown, until it too is cancelled.
    later = Cup(world, erin)
    await later.open(name="Winter Cup")
    answer = await erin.slash(world.channel, "spades tournament show")
    assert answer.response is not None
    assert answer.response.content == (
        "The bracket is drawn when the organizer starts the tournament."
    )
    await erin.slash(world.channel, "spades tournament cancel")
    answer = await erin.slash(world.channel, "spades tournament show")
    assert answer.response is not None
    assert answer.response.content == "The tournament was cancelled."
