"""The Nil pass at a Discord table, by clicks: cards toggled and passed in the
private hand, who is still choosing on the table message, a restart in the
middle of an exchange, games played to the end, and nobody but the two
partners ever seeing a passed card before it is played."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from simcord import MemberActor

from bot.game.cards import cards_of, mask_of
from bot.game.scoring import BLIND_NIL
from bot.game.types import Phase
from bot.game.view import view_of
from bot.render.decks import card_text
from bot.render.hand import CHOSEN_MARK, pass_arg
from bot.tables.model import Table
from tests.discord.harness import (
    PASS_DONE,
    PASS_PICK,
    World,
    buttons_of,
    embed_text,
    finished,
)
from tests.discord.privacy import PrivacyWatch
from tests.discord.test_access import forged
from tests.discord.test_languages import locales, person  # noqa: F401 (a fixture)

PEOPLE = ("alice", "bob", "carol", "dave")


def passing(table: Table) -> bool:
    return table.game is not None and table.game.phase is Phase.PASSING


def nil_for(*who: tuple[int, MemberActor]) -> Callable[[Table, int], str]:
    """A bid chooser: Nil for the (hand, person) pairs given, else 3."""

    def bid(table: Table, seat: int) -> str:
        assert table.game is not None
        mine = (table.game.hand_number, table.seats[seat].user_id)
        return "Nil" if mine in {(hand, user.id) for hand, user in who} else "3"

    return bid


def at(user: MemberActor) -> str:
    """How the bot names a person: a mention (it pings nobody)."""
    return f"<@{user.id}>"


def pass_notices(world: World) -> list[str]:
    """The notices telling people to choose their passes, where the table talks."""
    return [m.content for m in world.talk().history() if "choose the cards you pass" in m.content]


def hand_cards(world: World, table: Table, user: MemberActor) -> list[int]:
    seat = table.seat_of(user.id)
    assert seat is not None and table.game is not None
    return cards_of(table.game.hands[seat])


async def test_a_pass_by_clicks_with_a_restart_halfway_and_the_game_to_its_end(
    world: World,
) -> None:
    watch = PrivacyWatch(world.env)
    watch.watch(world.bot.app.tables)
    alice, bob, carol, dave = people = [world.user(n) for n in PEOPLE]
    await world.seat_four(*people, target=250, house="nil_pass=3")
    await world.click(alice, "Start")
    bids = nil_for((1, alice), (2, bob))
    table = await world.play_until(passing, bid=bids)
    shown = embed_text(world.table_message())
    assert "Hand 1 · the Nil pass" in shown
    assert f"Still choosing the cards they pass: <@{alice.id}>, <@{carol.id}> (" in shown
    # Both partners are told at once, in one notice that pings them both.
    told = f"choose the cards you pass at table {table.id}."
    both_told = [f"{at(alice)}, {told}\n{at(carol)}, {told}"]
    assert pass_notices(world) == both_told

    # Alice chooses three cards one click at a time, and passes them.
    hand = await world.editable_hand(alice)
    assert f"**Choose 3 cards to pass to {at(carol)}**, then press Pass." in hand.content
    assert "0 of 3 chosen" in hand.content
    done = next(b for b in buttons_of(hand) if b.custom_id.startswith(PASS_DONE))
    assert done.disabled and done.label == "Pass 3 cards"
    first = next(b for b in buttons_of(hand) if b.custom_id.startswith(PASS_PICK))
    await alice.click(hand, custom_id=first.custom_id)
    hand = world.message(hand.id)
    assert "1 of 3 chosen: " in hand.content
    assert [b.label for b in buttons_of(hand) if b.label.startswith(CHOSEN_MARK)] == [
        CHOSEN_MARK + first.label
    ]
    # A second click on the same card puts it back.
    again = next(b for b in buttons_of(hand) if b.label == CHOSEN_MARK + first.label)
    await alice.click(hand, custom_id=again.custom_id)
    assert "0 of 3 chosen" in world.message(hand.id).content
    before = await world.table()
    await world.pass_cards(alice)
    after = await world.table()
    assert after.game is not None and after.game.exchange.choosing() == (2,)
    given = after.game.exchange.chosen[0]
    assert given.bit_count() == 3 and before.game is not None
    hand = world.message(hand.id)
    assert all(card_text(c) in hand.content for c in cards_of(given))
    assert "You pass " in hand.content and f" to {at(carol)}." in hand.content
    assert not any(b.custom_id.startswith(PASS_PICK) for b in buttons_of(hand))
    shown = embed_text(world.table_message())
    assert f"Still choosing the cards they pass: {at(carol)} (" in shown
    assert pass_notices(world) == both_told  # Carol was told already: not pinged again

    # Carol chooses one card, then the bot stops as a crash would.
    carol_hand = await world.editable_hand(carol)
    await world.pass_cards(carol, 1, press=False)
    assert "1 of 3 chosen" in world.message(carol_hand.id).content
    await world.restart()
    watch.watch(world.bot.app.tables)
    assert pass_notices(world) == both_told  # nor after the restart

    # Her hand, drawn by the old bot, carries her choice on: two more, and Pass.
    carol_hand = world.message(carol_hand.id)
    assert "1 of 3 chosen" in carol_hand.content
    await world.pass_cards(carol)
    table = await world.table()
    game = table.game
    assert game is not None and game.phase is Phase.PLAYING
    received = game.exchange.received(0)
    assert game.exchange.gave(0) == given and received.bit_count() == 3
    assert game.hands[0] & given == 0 and game.hands[0] & received == received
    for user, partner in ((alice, carol), (carol, alice)):
        hand = await world.editable_hand(user)
        assert "You gave " in hand.content and f" to {at(partner)} and received " in hand.content
    # Bob and Dave were in no exchange: their hands never named those cards.
    for user in (bob, dave):
        hand = await world.editable_hand(user)
        assert "You gave" not in hand.content

    table = await world.play_until(finished, bid=bids)
    assert table.game is not None and table.game.result is not None
    assert sum(1 for record in table.game.hand_records if record.passes) >= 2
    assert watch.violations() == []
    assert len(watch.sent()) > 300


async def test_a_blind_nil_pass_with_computer_partners_to_the_end(world: World) -> None:
    watch = PrivacyWatch(world.env)
    watch.watch(world.bot.app.tables)
    alice, bob = world.user("alice"), world.user("bob")
    await world.new_table(
        alice, target=250, preset="blind-nil", house="nil_pass=1,blind_nil_pass=2"
    )
    await world.click(bob, "Join")
    await world.click(alice, "Add computer players")
    await world.click(alice, "Start")

    def bid(table: Table, seat: int) -> str:
        """A person bids Blind Nil once the rules allow it (their side trails
        by 100), Nil in the first hand, else 3."""
        assert table.game is not None
        if BLIND_NIL in view_of(table.game, seat).legal_bids:
            return "Blind Nil"
        return "Nil" if table.game.hand_number == 1 else "3"

    table = await world.play_until(finished, bid=bid)
    game = table.game
    assert game is not None and game.result is not None
    blind = [
        cards
        for record in game.hand_records
        for giver, to, cards in record.passes
        if BLIND_NIL in (dict(record.bids)[giver], dict(record.bids)[to])
    ]
    assert blind and all(cards.bit_count() == 2 for cards in blind)
    assert watch.violations() == []


async def test_refused_passes_answer_one_private_line_and_change_nothing(
    world: World,
    locales: dict[int, str],  # noqa: F811 (the fixture imported above)
) -> None:
    alice, bob, carol = world.user("alice"), world.user("bob"), world.user("carol")
    dave = person(world, locales, "dave", "fr")
    await world.seat_four(alice, bob, carol, dave, house="nil_pass=3")
    await world.click(alice, "Start")
    table = await world.play_until(passing, bid=nil_for((1, alice)))
    version = table.version

    async def answer(user: MemberActor, arg: str, act: str = "pass") -> str:
        crafted = await forged(world, f"spades:{act}:{table.id}:{version}:{arg}")
        result = await user.click(crafted, label="forged 0")
        private = result.followups[-1] if result.followups else result.response
        assert private is not None and private.ephemeral
        assert (await world.table()).version == version
        return private.content.splitlines()[0]

    def some(user: MemberActor, n: int) -> int:
        return mask_of(hand_cards(world, table, user)[:n])

    assert await answer(carol, pass_arg(some(carol, 2), 1)) == "> Pass exactly 3 cards."
    assert await answer(bob, pass_arg(some(bob, 3), 1)) == "> You pass no cards in this hand."
    said = await answer(dave, pass_arg(some(dave, 3), 1))  # in French
    assert said == "> Tu ne passes aucune carte dans cette donne."
    stale = await answer(carol, pass_arg(some(carol, 3), 2))
    assert stale.startswith("> That hand was out of date")
    assert await answer(alice, pass_arg(some(alice, 1), 2), "pass_pick") == (
        "> That choice is over: here is your hand now."
    )
    assert await answer(alice, "zz-1") == "That button is not valid."
    # A double click: the second Pass is refused, the first stands.
    await world.pass_cards(alice)
    version = (await world.table()).version
    first = (await world.table()).game
    assert first is not None
    again = pass_arg(first.exchange.chosen[0], 1)
    crafted = await forged(world, f"spades:pass:{table.id}:{version}:{again}")
    result = await alice.click(crafted, label="forged 0")
    assert result.followups[-1].content.splitlines()[0] == "> You have already passed your cards."
    assert (await world.table()).version == version


async def test_the_hint_suggests_a_pass_to_each_partner(world: World) -> None:
    alice, _, carol, _ = people = [world.user(n) for n in PEOPLE]
    await world.seat_four(*people, house="nil_pass=3", hints=True)
    await world.click(alice, "Start")
    await world.play_until(passing, bid=nil_for((1, alice)))
    for user, start in ((alice, "You bid Nil: pass "), (carol, f"{at(alice)} bid Nil and needs")):
        hand = await world.editable_hand(user)
        result = await user.click(hand, label="Hint")
        assert result.response is not None and result.response.ephemeral
        assert start in result.response.content, result.response.content


@pytest.mark.parametrize("table_settings", [{"turn_ping_delay_s": 30.0}])
async def test_a_partner_who_passes_before_the_notice_is_not_pinged(world: World) -> None:
    people = [world.user(n) for n in PEOPLE]
    alice, carol = people[0], people[2]
    await world.seat_four(*people, house="nil_pass=3")
    await world.click(alice, "Start")
    table = await world.play_until(passing, bid=nil_for((1, alice)))
    await world.pass_cards(alice)  # before the first notice is due
    after = await world.table()
    assert after.game is not None and after.game.exchange.choosing() == (2,)
    for _second in range(32):
        await world.env.advance_time(1)
    told = f"choose the cards you pass at table {table.id}."
    assert pass_notices(world) == [f"{at(carol)}, {told}"]
