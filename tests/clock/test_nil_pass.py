"""The turn clock in the Nil pass: a late person's cards are chosen by a
computer, said as for a late play, and a computer partner passes on its own."""

from __future__ import annotations

import pytest

from bot.ai.base import make_player, register_level
from bot.clock import ClockSettings
from bot.clock.deadlines import CLAIM_MARGIN_S
from bot.game.scoring import NIL
from bot.game.types import Action, ActionKind, Phase
from bot.game.view import PlayerView
from bot.render.clock_text import reminder, together
from bot.tables.model import Table
from tests.clock.world import HOST, World

DELAY = 2.0
LIMIT = 300


class BidsThree:
    """A computer player that bids 3 and otherwise plays as the heuristic
    level: the host's Nil is then the hand's only one."""

    def __init__(self, seed: int | None = None) -> None:
        self.heuristic = make_player("heuristic", seed)

    def decide(self, view: PlayerView) -> Action:
        if view.phase is Phase.BIDDING:
            return Action(ActionKind.BID, view.seat, 3)
        return self.heuristic.decide(view)


async def _host_bids_nil(world: World) -> Table:
    """Three computers and the host, who bids Nil when their turn comes."""
    register_level("bids-three-for-tests", BidsThree)
    table = await world.table_with_computers(
        "bids-three-for-tests", turn_limit_s=LIMIT, house="nil_pass=3"
    )
    for _ in range(20):
        table = await world.current(table.id)
        assert table.game is not None
        if table.game.waited_on() == 0 and table.game.phase is Phase.BIDDING:
            return await world.svc.bid(table.id, HOST, NIL, table.version)
        await world.clock.advance(DELAY)
    raise AssertionError("the host was never asked to bid")


@pytest.mark.parametrize(
    "clock_settings",
    [ClockSettings(computer_delay_s=DELAY, stand_in_default=True, stand_in_level="heuristic")],
)
async def test_a_late_pass_is_chosen_by_a_computer_and_the_table_is_told(world: World) -> None:
    table = await _host_bids_nil(world)
    while table.game is not None and table.game.phase is Phase.BIDDING:
        await world.clock.advance(DELAY)
        table = await world.current(table.id)
    game = table.game
    assert game is not None and game.phase is Phase.PASSING
    assert game.exchange.choosing() == (0, 2)
    began = game.waiting_since
    for stand_in, then in ((True, "a computer chooses them for you"), (False, "claim the win")):
        told = reminder(table, 0, 60, stand_in=stand_in)
        assert told is not None and "waiting for you to choose the cards you pass" in told.text
        assert then in told.text and told.ping == (HOST,)
    world.notifier.notes.clear()
    # The game waits on the host, whose limit passes: a computer chooses for
    # them, then their partner, a computer, passes.
    await world.clock.advance(LIMIT + CLAIM_MARGIN_S + 3 * DELAY)
    table = await world.current(table.id)
    game = table.game
    assert game is not None and game.phase is not Phase.PASSING
    assert [(n.what, n.seat) for n in world.notifier.notes][-1] == ("stood_in", 0)
    stood_in = world.notifier.of("stood_in")[0]
    assert stood_in.at - began == LIMIT + CLAIM_MARGIN_S
    passes = [a for a in game.actions if a.kind is ActionKind.PASS]
    assert [a.seat for a in passes] == [0, 2]
    assert all(a.value.bit_count() == 3 for a in passes)
    assert game.exchange.received(0) == passes[1].value


PEOPLE = ClockSettings(computer_delay_s=DELAY, stand_in_default=True, stand_in_level="heuristic")


async def _people_pass(world: World) -> Table:
    """Four people; the host bids Nil, the others 3: the host and their
    partner (seat 2) pass, both at once."""
    table = await world.table_of_four(turn_limit_s=LIMIT, house="nil_pass=3")
    while table.game is not None and table.game.phase is Phase.BIDDING:
        seat = table.game.waited_on()
        assert seat is not None
        user = table.seats[seat].user_id
        assert user is not None
        table = await world.svc.bid(table.id, user, NIL if seat == 0 else 3, table.version)
    game = table.game
    assert game is not None and game.phase is Phase.PASSING
    assert game.exchange.choosing() == (0, 2)
    return table


def _choose(table: Table, seat: int) -> int:
    """Three cards of the seat's hand."""
    assert table.game is not None
    hand, cards = table.game.hands[seat], 0
    for _ in range(3):
        cards |= hand & -hand
        hand &= hand - 1
    return cards


@pytest.mark.parametrize("clock_settings", [PEOPLE])
async def test_both_partners_are_reminded_and_a_computer_chooses_for_both_at_the_limit(
    world: World,
) -> None:
    table = await _people_pass(world)
    began = table.game.waiting_since if table.game is not None else 0.0
    # Said to both at once, in one message that pings each.
    told = together([reminder(table, seat, 60, stand_in=True) for seat in (0, 2)])
    assert told is not None and told.ping == (HOST, table.seats[2].user_id)
    assert told.text.count("waiting for you to choose the cards you pass") == 2
    await world.clock.advance(LIMIT / 2 + 1)
    assert [(n.seat, n.at - began) for n in world.notifier.of("remind")] == [
        (0, LIMIT / 2),
        (2, LIMIT / 2),
    ]
    await world.clock.advance(LIMIT / 2 + CLAIM_MARGIN_S + 3 * DELAY)
    stood_in = world.notifier.of("stood_in")
    assert [(n.seat, n.at - began) for n in stood_in] == [
        (0, LIMIT + CLAIM_MARGIN_S),
        (2, LIMIT + CLAIM_MARGIN_S),
    ]
    table = await world.current(table.id)
    game = table.game
    assert game is not None and game.phase is Phase.PLAYING
    passes = [a for a in game.actions if a.kind is ActionKind.PASS]
    assert sorted(a.seat for a in passes) == [0, 2]
    assert all(a.value.bit_count() == 3 for a in passes)


@pytest.mark.parametrize("clock_settings", [PEOPLE])
async def test_a_partners_pass_keeps_the_other_to_the_deadline_of_the_pass(world: World) -> None:
    table = await _people_pass(world)
    assert table.game is not None
    began = table.game.waiting_since
    await world.clock.advance(LIMIT / 2 + 1)
    table = await world.current(table.id)
    table = await world.svc.pass_cards(table.id, HOST, _choose(table, 0), table.version, 1)
    assert table.game is not None and table.game.exchange.choosing() == (2,)
    assert table.game.waiting_since == began  # the partner's wait goes on
    await world.clock.advance(LIMIT / 2 + CLAIM_MARGIN_S - 2)
    assert world.notifier.of("stood_in") == []
    await world.clock.advance(1 + 3 * DELAY)
    assert [(n.seat, n.at - began) for n in world.notifier.of("stood_in")] == [
        (2, LIMIT + CLAIM_MARGIN_S)
    ]
    table = await world.current(table.id)
    assert table.game is not None and table.game.phase is Phase.PLAYING


@pytest.mark.parametrize("clock_settings", [PEOPLE])
async def test_a_restart_in_the_pass_keeps_its_deadline(world: World) -> None:
    table = await _people_pass(world)
    assert table.game is not None
    began = table.game.waiting_since
    await world.clock.advance(LIMIT / 2 + 1)
    table = await world.svc.pass_cards(table.id, HOST, _choose(table, 0), table.version, 1)
    await world.restart(down_for_s=10)
    await world.clock.advance(LIMIT / 2 + CLAIM_MARGIN_S - 12)
    assert world.notifier.of("stood_in") == []
    await world.clock.advance(1 + 3 * DELAY)
    assert [(n.seat, n.at - began) for n in world.notifier.of("stood_in")] == [
        (2, LIMIT + CLAIM_MARGIN_S)
    ]


@pytest.mark.parametrize("clock_settings", [ClockSettings(computer_delay_s=DELAY)])
async def test_without_a_stand_in_the_claim_opens_at_the_deadline_of_the_pass(
    world: World,
) -> None:
    table = await _people_pass(world)
    assert table.game is not None
    began = table.game.waiting_since
    await world.clock.advance(LIMIT / 2 + 1)
    table = await world.svc.pass_cards(table.id, HOST, _choose(table, 0), table.version, 1)
    await world.clock.advance(LIMIT / 2 + CLAIM_MARGIN_S)
    assert [n.at - began for n in world.notifier.of("claim_open")] == [LIMIT + CLAIM_MARGIN_S]
    table = await world.current(table.id)
    assert world.clk.claim_open(table)
