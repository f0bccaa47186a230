"""Claiming the rest of the tricks at the table: the claimer's cards shown,
the opponents answering with buttons, computer opponents answering by the
exact check."""

from __future__ import annotations

from functools import partial

import pytest

from bot.ai.rest_claim import claim_holds
from bot.game.cards import parse_card, rank_of
from bot.game.rest_claim import tricks_left
from bot.game.state import Game
from bot.game.types import ActionKind, Phase
from bot.tables.model import Table
from tests.discord.at_once import custom_id, together
from tests.discord.harness import Button, World, embed_text, finished, labels_of
from tests.discord.privacy import PrivacyWatch


def alice_to_play(table: Table, tricks: int) -> bool:
    game = table.game
    assert game is not None
    return game.phase is Phase.PLAYING and len(game.tricks) >= tricks and game.waited_on() == 0


async def test_two_people_accept_a_claim_and_the_hand_is_scored(world: World) -> None:
    watch = PrivacyWatch(world.env)
    watch.watch(world.bot.app.tables)
    alice, bob, carol, dave = (world.user(n) for n in ("alice", "bob", "carol", "dave"))
    await world.seat_four(alice, bob, carol, dave)
    await world.click(alice, "Start")
    table = await world.play_until(lambda t: alice_to_play(t, 9))
    assert "Claim the rest" in labels_of(world.table_message())
    refused = await world.click(bob, "Claim the rest")  # not bob's turn
    assert refused.followups[0].content == "You can claim the rest only on your turn to play."

    await world.click(alice, "Claim the rest")
    game = (await world.table()).game
    assert game is not None and game.rest.claimer == 0
    left = tricks_left(game)
    text = embed_text(world.table_message())
    assert f"<@{alice.id}> claims the {left} remaining tricks" in text
    assert f"<@{alice.id}>'s cards:" in text
    assert labels_of(world.table_message())[-2:] == ["Accept the claim", "Refuse the claim"]
    assert "Claim the rest" not in labels_of(world.table_message())
    notices = [m.content for m in world.talk().history() if not m.embeds]
    assert f"<@{bob.id}>, a claim of the rest waits for your answer at table 1." in notices
    refused = await world.click(carol, "Accept the claim")  # alice's partner
    assert refused.followups[0].content == "Only the claimer's opponents answer a claim."
    await world.click(bob, "Accept the claim")
    await world.restart()  # the waiting claim and bob's answer are kept
    assert f"<@{dave.id}> to answer the claim" in embed_text(world.table_message())
    await world.click(dave, "Accept the claim")

    table = await world.table()
    game = table.game
    assert game is not None and game.phase is Phase.HAND_OVER
    record = game.hand_records[-1]
    assert record.claim == (0, left)
    assert len(record.tricks) == 13 - left
    assert record.tricks_won[0] == sum(t.winner == 0 for t in record.tricks) + left
    assert "claim" in record.to_json("1", game.rules)
    assert watch.violations() == []  # only alice's claimed cards were shown


@pytest.mark.simcord(settle_timeout=0.5)  # the turn clock's sleeps wait for advance_time
async def test_an_opponent_late_to_answer_a_claim_is_reminded_of_the_answer(world: World) -> None:
    alice, bob, carol, dave = (world.user(n) for n in ("alice", "bob", "carol", "dave"))
    await world.seat_four(alice, bob, carol, dave, turn_limit=5)  # minutes: a reminder at half
    await world.click(alice, "Start")
    await world.play_until(lambda t: alice_to_play(t, 9))
    await world.click(alice, "Claim the rest")
    await world.click(bob, "Accept the claim")
    for _ in range(160):
        await world.env.advance_time(1)
    reminders = [m.content for m in world.talk().history() if "is waiting for" in m.content]
    assert reminders == [
        f"<@{dave.id}>, table 1 is waiting for your answer to a claim of the rest:"
        " 2 minutes left before the other team can claim the win."
    ]


async def test_a_refused_claim_lets_play_go_on_with_the_cards_shown(world: World) -> None:
    alice, bob, carol, dave = (world.user(n) for n in ("alice", "bob", "carol", "dave"))
    await world.seat_four(alice, bob, carol, dave)
    await world.click(alice, "Start")
    await world.play_until(lambda t: alice_to_play(t, 2))
    await world.click(alice, "Claim the rest")
    await world.click(dave, "Refuse the claim")
    table = await world.table()
    game = table.game
    assert game is not None and game.phase is Phase.PLAYING and game.waited_on() == 0
    text = embed_text(world.table_message())
    assert "The claim was refused: play goes on." in text
    assert f"<@{alice.id}>'s cards:" in text
    assert f"<@{alice.id}> to play" in text
    # Not twice on the same turn: the button comes back on her next turn.
    assert f"<@{alice.id}> may claim again on their next turn." in text
    assert "Claim the rest" not in labels_of(world.table_message())
    await world.act(table)  # alice plays on
    table = await world.table()
    assert table.game is not None and table.game.waited_on() == 1
    assert "may claim again" not in embed_text(world.table_message())
    await world.play_until(lambda t: alice_to_play(t, 3))
    assert "Claim the rest" in labels_of(world.table_message())


async def test_computer_opponents_refuse_a_claim_that_fails_and_accept_one_that_holds(
    world: World,
) -> None:
    alice = world.user("alice")
    await world.new_table(alice)
    await world.click(alice, "Add computer players")
    await world.click(alice, "Start")
    answered = {False: 0, True: 0}
    for _ in range(400):
        if answered[False] and answered[True]:
            break
        table = await world.play_until(lambda t: finished(t) or alice_to_play(t, 0))
        if finished(table):  # a new game, the same players
            await world.click(alice, "Rematch: same teams")
            continue
        game = table.game
        assert game is not None
        holds = claim_holds(game, 0)
        if answered[holds]:
            # Seen already: play on, keeping the high cards for the last tricks
            # (where claims that hold are likelier).
            await world.act(table, card=partial(lowest, game))
            continue
        hand = game.hand_number
        await world.click(alice, "Claim the rest")
        table = await world.table()
        game = table.game
        assert game is not None
        kinds = [a.kind for a in game.actions[-2:]]
        if holds:
            assert kinds == [ActionKind.ACCEPT_REST, ActionKind.ACCEPT_REST]
            assert game.phase is Phase.HAND_OVER
            assert game.hand_records[-1].hand == hand and game.hand_records[-1].claim is not None
        else:
            assert kinds[-1] is ActionKind.REFUSE_REST
            assert game.phase is Phase.PLAYING and game.waited_on() == 0
        answered[holds] += 1
    assert answered == {False: 1, True: 1}


def lowest(game: Game, buttons: list[Button]) -> Button:
    """The button of South's lowest legal card."""
    legal = game.legal_play_mask(0)
    cards = {parse_card(b.custom_id[-2:]): b for b in buttons}
    return cards[min((c for c in cards if legal >> c & 1), key=rank_of)]


async def test_both_opponents_accepting_at_once_score_the_hand(world: World) -> None:
    """Bob's and dave's accepts reach the bot before either is answered, both
    made on the claim as first shown: each holds, and the hand is scored."""
    alice, bob, _carol, dave = people = [world.user(n) for n in ("alice", "bob", "carol", "dave")]
    await world.seat_four(*people)
    await world.click(alice, "Start")
    await world.play_until(lambda t: alice_to_play(t, 9))
    await world.click(alice, "Claim the rest")
    message = world.table_message()
    accept = custom_id(message, "Accept the claim")
    results = await together(world, [(bob, message, accept), (dave, message, accept)])
    assert [r.followups for r in results] == [[], []]  # neither refused
    game = (await world.table()).game
    assert game is not None and game.phase is Phase.HAND_OVER
    assert game.hand_records[-1].claim is not None
