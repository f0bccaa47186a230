"""Revokes: allowed at the player's risk and caught by /revoke, or blocked outright."""

from __future__ import annotations

from simcord import MemberActor, assert_error

from bot.game.cards import SPADES, SUIT_MASKS
from bot.game.refusals import ChallengeRefused
from bot.game.types import EndReason, Phase
from bot.tables.model import Table, TableStatus
from tests.discord.harness import Button, World, buttons_of, embed_text


def suit_of_button(button: Button) -> int:
    return "CDHS".index(button.custom_id[-1])


def can_revoke(table: Table) -> bool:
    """The seat to play holds the suit led and another suit as well."""
    game = table.game
    if game is None or game.phase is not Phase.PLAYING or not game.trick:
        return False
    seat = game.waited_on()
    assert seat is not None
    led = SUIT_MASKS[game.trick[0] // 13]
    hand = game.hands[seat]
    return bool(hand & led) and bool(hand & ~led)


async def start(world: World, revokes: str) -> list[MemberActor]:
    people = [world.user(n) for n in ("alice", "bob", "carol", "dave")]
    await world.seat_four(*people, revokes=revokes)
    await world.click(people[0], "Start")
    return people


async def revoke_now(world: World) -> tuple[Table, int]:
    """Play until someone can revoke, then have them play off suit."""
    table = await world.play_until(can_revoke)
    assert table.game is not None
    seat = table.game.waited_on()
    assert seat is not None
    player = world.by_id(table.seats[seat].user_id or 0)
    hand = await world.editable_hand(player)
    led = table.game.trick[0] // 13
    off_suit = [b for b in buttons_of(hand) if suit_of_button(b) != led]
    assert off_suit and all(not b.disabled for b in off_suit), "allowed: off-suit cards enabled"
    await player.click(hand, custom_id=off_suit[0].custom_id)
    after = await world.table()
    assert after.game is not None and after.game.revokes
    return after, seat


async def test_a_proven_revoke_loses_the_revokers_team(world: World) -> None:
    people = await start(world, "allowed")
    table, revoker = await revoke_now(world)
    accuser = people[(revoker + 1) & 3]
    # Called in the table's thread: answered there, for everyone to see.
    called = await accuser.slash(world.talk(), "revoke", player=people[revoker])
    assert called.response is not None and not called.ephemeral
    assert "the plays of the hand show it" in called.response.content
    done = await world.table_any()
    assert done.status is TableStatus.FINISHED and done.result is not None
    assert done.result.reason is EndReason.REVOKE and done.result.seat == revoker
    assert done.result.winner == 1 - (revoker & 1)
    assert "revoke proven against" in embed_text(world.table_message())
    del table


async def test_an_unproven_revoke_loses_the_accusers_team(world: World) -> None:
    people = await start(world, "allowed")
    table = await world.play_until(
        lambda t: t.game is not None and t.game.phase is Phase.PLAYING and len(t.game.trick) == 2
    )
    assert table.game is not None and not table.game.revokes
    # Called in the channel: the caller's copy is private, the call goes to the thread.
    called = await people[0].slash(world.channel, "revoke", player=people[1])
    assert called.response is not None and "show none" in called.response.content
    assert called.ephemeral
    await world.env.settle()
    assert any("show none" in m.content for m in world.talk().history())
    done = await world.table_any()
    assert done.result is not None and done.result.reason is EndReason.FALSE_CLAIM
    assert done.result.winner == 1  # alice (South) accused falsely: West & East win


async def test_a_revoke_call_against_ones_partner_is_refused(world: World) -> None:
    people = await start(world, "allowed")
    table, revoker = await revoke_now(world)
    partner = people[(revoker + 2) & 3]
    refused = await partner.slash(world.channel, "revoke", player=people[revoker])
    assert refused.ephemeral and refused.response is not None
    assert "opponent, not your partner" in refused.response.content
    assert_error(world.env, ChallengeRefused)
    still = await world.table()
    assert still.status is TableStatus.PLAYING and still.version == table.version


async def test_a_revoke_call_after_next_hand_is_refused(world: World) -> None:
    people = await start(world, "allowed")
    table, revoker = await revoke_now(world)
    over = await world.play_until(lambda t: t.game is not None and t.game.phase is Phase.HAND_OVER)
    assert "/revoke player:@name" in embed_text(world.table_message())
    await world.click(people[0], "Next hand")
    dealt = await world.table()
    assert dealt.game is not None and dealt.game.hand_number == 2
    refused = await people[(revoker + 1) & 3].slash(world.channel, "revoke", player=people[revoker])
    assert refused.ephemeral and refused.response is not None
    assert "until the next hand starts" in refused.response.content
    assert_error(world.env, ChallengeRefused)
    assert (await world.table()).version == dealt.version
    del table, over


async def test_blocked_revokes_disable_the_off_suit_cards(world: World) -> None:
    people = await start(world, "blocked")
    table = await world.play_until(can_revoke)
    assert table.game is not None
    seat = table.game.waited_on()
    assert seat is not None
    hand = await world.my_hand(people[seat])
    led = table.game.trick[0] // 13
    buttons = buttons_of(hand)
    assert buttons and all(b.disabled == (suit_of_button(b) != led) for b in buttons)
    refused = await people[(seat + 1) & 3].slash(world.channel, "revoke", player=people[seat])
    assert refused.response is not None and "Revokes are blocked" in refused.response.content
    assert_error(world.env, ChallengeRefused)


async def test_no_spade_lead_before_spades_are_broken_in_either_mode(world: World) -> None:
    people = await start(world, "allowed")

    def leading_with_choice(t: Table) -> bool:
        game = t.game
        if game is None or game.phase is not Phase.PLAYING or game.trick or game.spades_broken:
            return False
        seat = game.waited_on()
        assert seat is not None
        hand = game.hands[seat]
        return bool(hand & SUIT_MASKS[SPADES]) and bool(hand & ~SUIT_MASKS[SPADES])

    table = await world.play_until(leading_with_choice)
    assert table.game is not None
    seat = table.game.waited_on()
    assert seat is not None
    hand = await world.my_hand(people[seat])
    for button in buttons_of(hand):
        assert button.disabled == (suit_of_button(button) == SPADES)
