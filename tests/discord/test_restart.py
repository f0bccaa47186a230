"""A restart in the middle of a game: the same table message and fresh hands carry on."""

from __future__ import annotations

import pytest

from bot.game.types import Phase
from bot.render.spec import parse
from bot.tables.model import Table
from cogs.presenter import TablePresenter
from tests.discord.harness import World, buttons_of, embed_text


async def four_at_the_table(world: World) -> Table:
    people = [world.user(n) for n in ("alice", "bob", "carol", "dave")]
    await world.seat_four(*people, target=250)
    await world.click(people[0], "Start")
    return await world.table()


async def test_restart_in_the_middle_of_bidding(world: World) -> None:
    table = await four_at_the_table(world)
    message_id = world.table_message().id
    table = await world.play_until(lambda t: t.game is not None and len(t.game.bid_order) == 2)
    assert table.game is not None
    seat = table.game.waited_on()
    assert seat is not None
    player = world.by_id(table.seats[seat].user_id or 0)
    before = await world.my_hand(player)  # drawn by the old bot

    await world.restart()

    after = await world.table()
    assert after.version == table.version and after.game is not None
    assert after.game.bid_order == table.game.bid_order
    # The new bot brought the same message up to date; nothing was reposted.
    assert world.table_message().id == message_id
    assert "Hand 1 · bidding" in embed_text(world.table_message())
    # A hand drawn before the restart still works: its buttons are persistent.
    clicked = await player.click(before, label="2")
    assert clicked.response is not None and clicked.response.id == before.id
    now = await world.table()
    assert now.game is not None and now.game.bids[seat] == 2
    # And the hand goes on to its end from the same table message.
    done = await world.play_until(lambda t: t.game is not None and t.game.hand_number == 2)
    assert done.game is not None and len(done.game.hand_records) == 1
    assert world.table_message().id == message_id


async def test_restart_in_the_middle_of_a_trick(world: World) -> None:
    await four_at_the_table(world)
    message_id = world.table_message().id
    table = await world.play_until(
        lambda t: t.game is not None and t.game.phase is Phase.PLAYING and len(t.game.trick) == 2
    )
    assert table.game is not None
    trick = list(table.game.trick)
    number = len(table.game.tricks)

    await world.restart()

    after = await world.table()
    assert after.game is not None and list(after.game.trick) == trick
    assert world.table_message().id == message_id
    seat = after.game.waited_on()
    assert seat is not None
    player = world.by_id(after.seats[seat].user_id or 0)
    hand = await world.my_hand(player)
    playable = [b for b in buttons_of(hand) if not b.disabled]
    await player.click(hand, custom_id=playable[0].custom_id)
    moved = await world.table()
    assert moved.game is not None and len(moved.game.trick) == 3
    done = await world.play_until(lambda t: t.game is not None and len(t.game.tricks) > number)
    assert done.game is not None and done.game.tricks[number].cards[:2] == tuple(trick)


def turn_mentions(world: World) -> list[tuple[int, str]]:
    return [(m.id, m.content) for m in world.talk().history() if "your turn" in m.content]


async def test_a_turn_mention_from_before_a_restart_is_deleted_when_the_turn_moves_on(
    world: World,
) -> None:
    table = await four_at_the_table(world)
    assert table.game is not None
    first = table.seats[table.game.waited_on() or 0].user_id
    [(before, text)] = turn_mentions(world)
    assert text == f"<@{first}>, your turn to bid at table {table.id}."

    await world.restart()
    table = await world.table()
    await world.act(table)  # the turn moves on, with the new bot

    after = await world.table()
    assert after.game is not None
    second = after.seats[after.game.waited_on() or 0].user_id
    assert second != first
    # The old bot's mention is gone; only the next person's is in the channel.
    assert [text for _id, text in turn_mentions(world)] == [
        f"<@{second}>, your turn to bid at table {table.id}."
    ]
    assert before not in [message_id for message_id, _text in turn_mentions(world)]


PING_DELAY = 30.0


@pytest.mark.simcord(settle_timeout=5.0)
@pytest.mark.parametrize("table_settings", [{"turn_ping_delay_s": PING_DELAY}])
async def test_a_person_told_before_a_restart_is_not_mentioned_again(world: World) -> None:
    table = await four_at_the_table(world)
    assert table.game is not None
    first = table.seats[table.game.waited_on() or 0].user_id
    await world.env.advance_time(PING_DELAY + 1)
    [(before, text)] = turn_mentions(world)
    assert text == f"<@{first}>, your turn to bid at table {table.id}."
    channel = [m.id for m in world.channel.history()]

    await world.restart()
    await world.env.advance_time(PING_DELAY + 1)  # past the new bot's mention delay

    # Still the same turn: the mention from before the restart stays, and
    # nothing new was posted (no second ping for the same person).
    assert turn_mentions(world) == [(before, text)]
    assert [m.id for m in world.channel.history()] == channel

    table = await world.table()
    await world.act(table)  # the person told before the restart acts
    await world.env.advance_time(PING_DELAY + 1)
    after = await world.table()
    assert after.game is not None
    second = after.seats[after.game.waited_on() or 0].user_id
    assert second != first
    [(now, text)] = turn_mentions(world)
    assert now != before
    assert text == f"<@{second}>, your turn to bid at table {table.id}."


@pytest.mark.simcord(settle_timeout=5.0)
@pytest.mark.parametrize("table_settings", [{"turn_ping_delay_s": PING_DELAY}])
async def test_a_mention_for_a_turn_over_before_a_restart_is_replaced_after_it(
    world: World,
) -> None:
    table = await four_at_the_table(world)
    await world.env.advance_time(PING_DELAY + 1)
    [(before, _text)] = turn_mentions(world)
    await world.act(table)  # at once: the old bot stops before mentioning the next person

    await world.restart()
    after = await world.table()
    assert after.game is not None
    second = after.seats[after.game.waited_on() or 0].user_id
    assert [message_id for message_id, _text in turn_mentions(world)] == [before]
    await world.env.advance_time(PING_DELAY + 1)
    [(now, text)] = turn_mentions(world)
    assert now != before
    assert text == f"<@{second}>, your turn to bid at table {table.id}."


async def test_a_move_not_shown_before_a_kill_is_drawn_once_the_server_is_known(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bid was committed, and the bot killed before the table message was
    edited. The restarted bot learns the server only seconds after it
    connected: once it does, the message shows the bid (its buttons carry
    the table's version), and not before."""
    await four_at_the_table(world)
    message_id = world.table_message().id

    async def lost(*_args: object) -> None:
        return None  # waiting for its turn in the outbox when the process died

    monkeypatch.setattr(TablePresenter, "_send", lost)
    table = await world.play_until(lambda t: t.game is not None and len(t.game.bid_order) == 1)
    monkeypatch.undo()
    assert _versions(world) != {table.version}

    transcript = world.env.backend.transcript
    start = len(transcript)
    await world.restart(servers_after_s=5)
    assert world.table_message().id == message_id
    assert _versions(world) == {table.version}
    since = [entry[:2] for entry in transcript[start:]]
    server_known = since.index(("GATEWAY", "GUILD_CREATE"))
    edits = [i for i, (_, route) in enumerate(since) if route.endswith(f"/{message_id}")]
    assert edits and min(edits) > server_known, since


def _versions(world: World) -> set[int]:
    """The table versions the table message's buttons were drawn from."""
    return {parse(b.custom_id.split(":", 1)[1]).version for b in buttons_of(world.table_message())}
