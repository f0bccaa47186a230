"""The slash commands, the lobby buttons, deck designs and turn mentions."""

from __future__ import annotations

from pathlib import Path

import pytest
from simcord import assert_error

from bot.config import Settings
from bot.refusals import ChannelBusy, HostCannotLeave
from bot.runner import health
from bot.tables.model import TableStatus
from tests.discord.harness import World, buttons_of, embed_text, labels_of

SPADES_COMMANDS = {
    "spades new",
    "spades join",
    "spades leave",
    "spades hand",
    "spades resign",
    "spades deck",
    "spades rules",
    "spades cancel",
    "revoke",
}


async def test_the_commands_are_published_and_no_privileged_intent_is_asked(
    world: World,
) -> None:
    intents = world.bot.intents
    assert intents.guilds and intents.guild_messages
    assert not (intents.members or intents.presences or intents.message_content)
    alice = world.user("alice")
    assert set(alice.available_commands(world.channel)) >= SPADES_COMMANDS
    assert sorted(await world.bot.sync_commands(world.guild.id)) == sorted(
        c.name for c in world.bot.tree.get_commands()
    )


async def test_new_table_options_and_a_busy_channel(world: World) -> None:
    alice = world.user("alice")
    await world.new_table(alice, target=250, revokes="blocked", preset="cardgames", turn_limit=720)
    table = await world.table()
    assert table.options.target == 250 and table.options.revokes == "blocked"
    assert table.options.preset == "cardgames" and table.options.turn_limit_s == 12 * 3600
    text = embed_text(world.table_message())
    assert "game to 250 · revokes blocked · cardgames rules · turn limit 12 hours" in text
    again = await alice.slash(world.channel, "spades new")
    assert again.response is not None and "already open in this channel" in again.response.content
    assert_error(world.env, ChannelBusy)


async def test_defaults_are_500_allowed_standard_48_hours(world: World) -> None:
    await world.new_table(world.user("alice"))
    options = (await world.table()).options
    assert (options.target, options.revokes, options.preset, options.turn_limit_s) == (
        500,
        "allowed",
        "standard",
        48 * 3600,
    )


async def test_lobby_join_leave_partner_and_start(world: World) -> None:
    alice, bob, carol, dave = (world.user(n) for n in ("alice", "bob", "carol", "dave"))
    await world.new_table(alice)
    joined = await bob.slash(world.channel, "spades join")
    assert joined.response is not None and joined.response.content == "You sit West at table 1."
    left = await bob.slash(world.channel, "spades leave")
    assert left.response is not None and left.response.content == "You left table 1."
    host_leaves = await alice.slash(world.channel, "spades leave")
    assert host_leaves.response is not None and "cancel" in host_leaves.response.content
    assert_error(world.env, HostCannotLeave)
    for user in (bob, carol, dave):
        await world.click(user, "Join")
    message = world.table_message()
    start = next(b for b in buttons_of(message) if b.label == "Start")
    assert not start.disabled
    # Only the host picks a partner or starts.
    refused = await bob.select(message, ["3"], custom_id=_select_id(message))
    assert refused.followups[0].content == "Only the host can do that."
    await alice.select(message, ["3"], custom_id=_select_id(message))
    table = await world.table()
    assert [s.user_id for s in table.seats] == [alice.id, bob.id, dave.id, carol.id]
    assert "**North** <@" + str(dave.id) + ">" in embed_text(world.table_message())
    not_host = await world.click(carol, "Start")
    assert not_host.followups[0].content == "Only the host can do that."
    await world.click(alice, "Start")
    table = await world.table()
    assert table.status is TableStatus.PLAYING
    assert labels_of(world.table_message()) == ["My hand", "Watch"]


def _select_id(message: object) -> str:
    from tests.discord.harness import components_of

    for row in components_of(message):  # type: ignore[arg-type]
        for item in row["components"]:
            if item["type"] == 3:
                return str(item["custom_id"])
    raise AssertionError("no partner menu")


async def test_only_the_host_adds_computers_and_start_waits_for_four(world: World) -> None:
    alice, bob = world.user("alice"), world.user("bob")
    await world.new_table(alice)
    await world.click(bob, "Join")
    start = next(b for b in buttons_of(world.table_message()) if b.label == "Start")
    assert start.disabled
    refused = await world.click(bob, "Add computer players")
    assert refused.followups[0].content == "Only the host can do that."
    await world.click(alice, "Add computer players")
    table = await world.table()
    assert [s.is_computer for s in table.seats] == [False, False, True, True]


async def test_cancel_closes_the_lobby(world: World) -> None:
    alice, bob = world.user("alice"), world.user("bob")
    await world.new_table(alice)
    refused = await bob.slash(world.channel, "spades cancel")
    assert refused.response is not None and "not seated" in refused.response.content.lower()
    world.env.errors  # noqa: B018 - acknowledged: a refusal through the command error path
    done = await alice.slash(world.channel, "spades cancel")
    assert done.response is not None and done.response.content == "Table 1 is closed."
    assert "The host closed this table." in embed_text(world.table_message())
    assert labels_of(world.table_message()) == []
    assert await world.bot.app.tables.in_channel(world.channel.id) is None


async def test_rules_describe_the_channels_table(world: World) -> None:
    alice = world.user("alice")
    plain = await alice.slash(world.channel, "spades rules")
    assert plain.response is not None and "`standard` preset" in plain.response.content
    await world.new_table(alice, preset="blind-nil", revokes="blocked")
    rules = await alice.slash(world.channel, "spades rules")
    assert rules.ephemeral and rules.response is not None
    text = rules.response.content
    assert "Blind Nil" in text and "Revokes blocked" in text and "-300" in text


async def test_deck_designs_change_only_their_owners_view(world: World) -> None:
    alice, bob, carol, dave = (world.user(n) for n in ("alice", "bob", "carol", "dave"))
    listed = await bob.slash(world.channel, "spades deck")
    assert listed.response is not None and "Classic" in listed.response.content
    chosen = await bob.slash(world.channel, "spades deck", design="four-colour")
    assert chosen.response is not None and "Four colours" in chosen.response.content
    await world.seat_four(alice, bob, carol, dave)
    await world.click(alice, "Start")
    table = await world.play_until(lambda t: t.game is not None and t.game.phase.value == "playing")
    assert table.game is not None
    bob_hand = await world.my_hand(bob)
    alice_hand = await world.my_hand(alice)
    styles_bob = {b.custom_id[-1]: b.style for b in buttons_of(bob_hand)}
    styles_alice = {b.custom_id[-1]: b.style for b in buttons_of(alice_hand)}
    four_colour = {"S": 2, "H": 4, "C": 3, "D": 1}
    classic = {"S": 2, "H": 4, "C": 2, "D": 4}
    assert all(style == four_colour[suit] for suit, style in styles_bob.items())
    assert all(style == classic[suit] for suit, style in styles_alice.items())
    await carol.slash(world.channel, "spades deck", design="large-print")
    carol_hand = await world.my_hand(carol)
    assert all(b.emoji for b in buttons_of(carol_hand))
    # Large print: the line of cards on the table is a heading, the words are not.
    headings = [line for line in carol_hand.content.splitlines() if line.startswith("#")]
    assert len(headings) == 1 and headings[0].startswith("## Trick ")
    assert "### " not in carol_hand.content


@pytest.mark.parametrize("table_settings", [{"turn_ping_delay_s": 0.0}])
async def test_one_turn_mention_at_a_time(world: World) -> None:
    alice, bob, carol, dave = (world.user(n) for n in ("alice", "bob", "carol", "dave"))
    await world.seat_four(alice, bob, carol, dave)
    await world.click(alice, "Start")

    def pings() -> list[str]:
        return [m.content for m in world.talk().history() if "your turn" in m.content]

    assert pings() == [f"<@{bob.id}>, your turn to bid at table 1."]
    ping = next(m for m in world.talk().history() if "your turn" in m.content)
    assert [u.id for u in ping.mentions] == [bob.id]
    await world.act(await world.table())
    assert pings() == [f"<@{carol.id}>, your turn to bid at table 1."]


@pytest.mark.simcord(settle_timeout=5.0)
@pytest.mark.parametrize("table_settings", [{"turn_ping_delay_s": 30.0}])
async def test_a_quick_player_is_not_mentioned(world: World) -> None:
    alice, bob, carol, dave = (world.user(n) for n in ("alice", "bob", "carol", "dave"))
    await world.seat_four(alice, bob, carol, dave)
    await world.click(alice, "Start")
    await world.act(await world.table())  # bob bids at once
    await world.env.advance_time(31)
    assert [m.content for m in world.talk().history() if "your turn" in m.content] == [
        f"<@{carol.id}>, your turn to bid at table 1."
    ]


async def test_hand_command_finds_the_players_table_from_another_channel(world: World) -> None:
    alice, bob, carol, dave = (world.user(n) for n in ("alice", "bob", "carol", "dave"))
    await world.seat_four(alice, bob, carol, dave)
    await world.click(alice, "Start")
    elsewhere = world.guild.create_text_channel("chat")
    hand = await carol.slash(elsewhere, "spades hand")
    assert hand.ephemeral and hand.response is not None
    assert hand.response.content.startswith("**Table 1 · hand 1**")
    nobody = world.user("erin")
    none = await nobody.slash(elsewhere, "spades hand")
    assert (
        none.response is not None and none.response.content == "You are not playing at any table."
    )
    world.env.errors  # noqa: B018 - acknowledged: a refusal through the command error path


async def test_unexpected_errors_are_answered_politely_and_logged(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    alice, bob = world.user("alice"), world.user("bob")
    await world.new_table(alice)

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(world.bot.app.tables, "join", broken)
    answer = await world.click(bob, "Join")
    assert answer.followups[0].content.startswith("Something went wrong on my side")
    assert any("disk on fire" in str(r.exc_info) for r in caplog.records if r.exc_info)


@pytest.mark.simcord(settle_timeout=5.0)
async def test_the_running_bot_keeps_its_heartbeat_fresh(
    world: World, settings: Settings, tmp_path: Path
) -> None:
    beat = settings.heartbeat_path
    assert not beat.exists()  # not before the bot is connected and a beat is due
    await world.env.advance_time(settings.health.heartbeat_every_s + 1)
    assert beat.exists()
    config = tmp_path / "health.toml"
    config.write_text(f'[database]\npath = "{settings.database.path}"\n', encoding="utf-8")
    assert health(["--config", str(config)]) == 0
