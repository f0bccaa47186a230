"""The coach through Discord: the Hint button answers only its asker, and
``/spades coach on`` brings a private review after each hand."""

from __future__ import annotations

from typing import Any

import simcord
from simcord import MemberActor

from bot.game.types import Phase
from bot.render.spec import Act, ComponentId
from bot.tables.model import Table
from tests.discord.harness import World, buttons_of
from tests.discord.test_access import forged


async def started(world: World, **options: Any) -> tuple[Table, list[MemberActor]]:
    people = [world.user(n) for n in ("alice", "bob", "carol", "dave")]
    await world.seat_four(*people, **options)
    await world.click(people[0], "Start")
    return await world.table(), people


def on_turn(world: World, table: Table) -> MemberActor:
    assert table.game is not None
    seat = table.game.waited_on()
    assert seat is not None
    user_id = table.seats[seat].user_id
    assert user_id is not None
    return world.by_id(user_id)


def answer_of(result: simcord.InteractionResult) -> simcord.ResponseMessage:
    """The private answer to a click (a deferred answer is the response itself)."""
    answer = result.followups[-1] if result.followups else result.response
    assert answer is not None, result
    return answer


def seen_by(world: World, user: MemberActor) -> str:
    return "\n".join(m.content for m in world.channel.history(viewer=user))


async def test_the_hint_answers_only_the_asker(world: World) -> None:
    table, people = await started(world, hints=True)
    assert table.options.hints
    asker = on_turn(world, table)
    hand = await world.my_hand(asker)
    hint_button = next(b for b in buttons_of(hand) if b.label == "Hint")
    assert not hint_button.disabled
    assert hint_button.custom_id.startswith(f"spades:hint:{table.id}:{table.version}:")
    waiting = next(p for p in people if p.id != asker.id)
    other_hand = await world.my_hand(waiting)
    assert [b.disabled for b in buttons_of(other_hand) if b.label == "Hint"] == [True]

    answer = answer_of(await asker.click(hand, label="Hint"))
    text = answer.content
    assert answer.ephemeral and text.startswith("💡 Bid ")
    assert text in seen_by(world, asker)
    for other in people:
        if other.id != asker.id:
            assert text not in seen_by(world, other)
    assert (await world.table()).version == table.version  # asking changes nothing

    again = await asker.click(hand, label="Hint")
    assert "The coach needs a moment between answers" in answer_of(again).content


async def test_tables_without_hints_have_no_hint_button_and_refuse_one(world: World) -> None:
    table, _ = await started(world)
    assert not table.options.hints  # games here are rated: hints are off by default
    asker = on_turn(world, table)
    hand = await world.my_hand(asker)
    assert "Hint" not in [b.label for b in buttons_of(hand)]
    assert table.game is not None
    custom_id = str(ComponentId(Act.HINT, table.id, table.version, str(table.game.action_count)))
    message = await forged(world, custom_id)
    refused = await asker.click(message, label="forged 0")
    assert answer_of(refused).ephemeral
    assert answer_of(refused).content.startswith("Hints are off at this table")


async def test_spectators_get_no_hint(world: World) -> None:
    table, _ = await started(world, hints=True)
    erin = world.user("erin")
    await world.click(erin, "Watch")
    table = await world.table()
    assert table.game is not None
    custom_id = str(ComponentId(Act.HINT, table.id, table.version, str(table.game.action_count)))
    refused = await erin.click(await forged(world, custom_id), label="forged 0")
    assert answer_of(refused).content == (
        "You are watching this table; only seated players can do that."
    )


async def test_an_old_hint_button_without_a_stamp_still_works(world: World) -> None:
    table, _ = await started(world, hints=True)
    asker = on_turn(world, table)
    custom_id = str(ComponentId(Act.HINT, table.id, table.version))
    answer = await asker.click(await forged(world, custom_id), label="forged 0")
    assert answer_of(answer).content.startswith("💡 ")


async def test_the_coach_reviews_each_hand_privately(world: World) -> None:
    table, people = await started(world)
    alice = people[0]
    turned = await alice.slash(world.channel, "spades coach", mode="on")
    assert turned.ephemeral and turned.response is not None
    assert turned.response.content.startswith("Your coach is on")
    status = await alice.slash(world.channel, "spades coach")
    assert status.response is not None and status.response.content.startswith("Your coach is on")

    await world.play_until(
        lambda t: (
            t.game is not None
            and t.game.phase is not Phase.BIDDING
            and t.game.phase is not Phase.PLAYING
        ),
        next_hand=False,
    )
    await world.bot.app.wait_background()
    review = f"Table {table.id}, hand 1: you bid 3 and took"
    assert review in seen_by(world, alice)
    for other in people[1:]:
        assert review not in seen_by(world, other)
    lines = seen_by(world, alice).splitlines()
    assert any(line.startswith(("Trick ", "No card of yours")) for line in lines)


async def test_a_review_follows_the_last_click(
    world: World,
) -> None:
    table, people = await started(world)
    bob = people[1]
    await world.bot.app.coach.set_coach(bob.id, True)
    await world.play_until(
        lambda t: t.game is not None and t.game.phase is Phase.HAND_OVER, next_hand=False
    )
    await world.bot.app.wait_background()
    # Bob clicked his cards: his review came as a follow-up there, not by DM.
    assert f"Table {table.id}, hand 1" in seen_by(world, bob)


async def test_a_review_comes_by_direct_message_once_the_last_click_is_old(
    world: World,
) -> None:
    table, people = await started(world)
    for person in people:
        await world.bot.app.coach.set_coach(person.id, True)

    def last_card_due(t: Table) -> bool:
        game = t.game
        return game is not None and len(game.tricks) == 12 and len(game.trick) == 3

    table = await world.play_until(last_card_due)
    last = on_turn(world, table)
    await world.env.advance_time(15 * 60)  # every earlier click is too old for a follow-up
    await world.act(table)
    await world.bot.app.wait_background()
    review = f"Table {table.id}, hand 1: you bid 3 and took"
    assert review in seen_by(world, last)
    for person in people:
        direct = "\n".join(m.content for m in person.user.dm_channel.history())
        assert (review in direct) == (person.id != last.id)


async def test_a_review_follows_a_hand_that_a_computer_finished(world: World) -> None:
    alice = world.user("alice")
    await world.new_table(alice, hints=True)
    await world.click(alice, "Add computer players")
    await alice.slash(world.channel, "spades coach", mode="on")
    await world.click(alice, "Start")
    table = await world.play_until(
        lambda t: t.game is not None and t.game.phase is Phase.HAND_OVER, next_hand=False
    )
    await world.bot.app.wait_background()
    assert table.game is not None
    last_trick = table.game.hand_records[-1].tricks[-1]
    assert table.seats[(last_trick.leader + 3) & 3].is_computer
    reviews = [
        line
        for line in seen_by(world, alice).splitlines()
        if line.startswith(f"Table {table.id}, hand 1: you bid ")
    ]
    assert len(reviews) == 1
