"""The Nil pass at a table: the service's pass action, its refusals, and
games played to the end under both pass rules."""

from __future__ import annotations

import pytest

from bot import refusals
from bot.game import refusals as rules_refusals
from bot.game.cards import cards_of, mask_of
from bot.game.scoring import NIL
from bot.game.types import Action, ActionKind, Phase
from bot.game.view import view_of
from bot.tables.model import Table, TableStatus
from bot.tables.service import TableService
from db.store import Store
from tests.service.conftest import dump
from tests.service.driver import Chooser, play_to_end, seated_table, waited_user


async def _to_the_pass(service: TableService, house: str = "nil_pass=3", humans: int = 4) -> Table:
    """A started table whose first bidder bid Nil and the others 2: its side
    now chooses the cards it passes."""
    table = await seated_table(service, humans=humans, house=house)
    table = await service.start(table.id, table.host_id, table.version)
    while table.game is not None and table.game.phase is Phase.BIDDING:
        seat = table.game.waited_on()
        assert seat is not None
        bid = NIL if not any(b is not None for b in table.game.bids) else 2
        if table.seats[seat].is_computer:
            action = Action(ActionKind.BID, seat, bid)
            table = await service.computer_act(table.id, seat, table.version, action)
        else:
            table = await service.bid(table.id, waited_user(table), bid, table.version)
    assert table.game is not None and table.game.phase is Phase.PASSING
    return table


def _user(table: Table, seat: int) -> int:
    user = table.seats[seat].user_id
    assert user is not None
    return user


def _some(table: Table, seat: int, count: int) -> int:
    assert table.game is not None
    return mask_of(cards_of(table.game.hands[seat])[:count])


async def test_both_partners_pass_and_the_cards_change_hands(service: TableService) -> None:
    table = await _to_the_pass(service)
    assert table.game is not None
    nil_seat, partner = table.game.exchange.choosing()[0], table.game.exchange.choosing()[1]
    assert partner == nil_seat ^ 2
    before = list(table.game.hands)
    give, take = _some(table, nil_seat, 3), _some(table, partner, 3)
    table = await service.pass_cards(table.id, _user(table, nil_seat), give, table.version, 1)
    assert table.game is not None and table.game.phase is Phase.PASSING
    assert table.game.exchange.choosing() == (partner,)
    assert table.game.hands == before  # nothing moves until both have chosen
    # The partner's buttons were drawn before that pass: the choice still holds.
    old_version = table.version - 1
    table = await service.pass_cards(table.id, _user(table, partner), take, old_version, 1)
    game = table.game
    assert game is not None and game.phase is Phase.PLAYING
    assert game.hands[nil_seat] == before[nil_seat] ^ give | take
    assert game.hands[partner] == before[partner] ^ take | give
    assert view_of(game, nil_seat).passed == give and view_of(game, nil_seat).received == take


async def test_refusals_change_nothing(service: TableService, store: Store) -> None:
    table = await _to_the_pass(service)
    assert table.game is not None
    nil_seat = table.game.exchange.choosing()[0]
    outsider = nil_seat ^ 1
    user = _user(table, nil_seat)
    rows = await dump(store)

    async def refused(kind: type[Exception], user_id: int, cards: int, **kw: int) -> None:
        version, hand = kw.get("version", table.version), kw.get("hand", 1)
        with pytest.raises(kind):
            await service.pass_cards(table.id, user_id, cards, version, hand)
        assert (await service.get(table.id)).version == table.version
        assert await dump(store) == rows

    await refused(rules_refusals.WrongPassCount, user, _some(table, nil_seat, 2))
    await refused(rules_refusals.WrongPassCount, user, 0)
    await refused(rules_refusals.CardNotInHand, user, _some(table, outsider, 3))
    await refused(rules_refusals.NotYourPass, _user(table, outsider), _some(table, outsider, 3))
    await refused(refusals.StaleAction, user, _some(table, nil_seat, 3), hand=2)
    await refused(refusals.StaleAction, user, _some(table, nil_seat, 3), version=table.version + 1)
    await refused(refusals.NotSeated, 777, _some(table, nil_seat, 3))
    table = await service.pass_cards(table.id, user, _some(table, nil_seat, 3), table.version, 1)
    rows = await dump(store)
    await refused(rules_refusals.AlreadyPassed, user, _some(table, nil_seat, 3))
    # A wrong phase: after the exchange, during play.
    partner = nil_seat ^ 2
    table = await service.pass_cards(
        table.id, _user(table, partner), _some(table, partner, 3), table.version, 1
    )
    rows = await dump(store)
    await refused(rules_refusals.WrongPhase, user, _some(table, nil_seat, 3))


async def test_a_pass_from_an_earlier_game_is_stale(service: TableService) -> None:
    table = await _to_the_pass(service)
    first_version = table.version
    assert table.game is not None
    nil_seat = table.game.exchange.choosing()[0]
    table = await service.resign(table.id, _user(table, nil_seat ^ 1), table.version)
    assert table.status is TableStatus.FINISHED
    table = await service.rematch(table.id, table.host_id, table.version)
    chooser = Chooser(3)
    while table.game is not None and table.game.phase is Phase.BIDDING:
        table = await chooser.step(service, table)
    with pytest.raises((refusals.StaleAction, rules_refusals.IllegalAction)):
        await service.pass_cards(
            table.id, _user(table, nil_seat), _some(table, nil_seat, 3), first_version, 1
        )


async def test_a_computer_partner_passes_through_the_service(service: TableService) -> None:
    table = await _to_the_pass(service, humans=1)
    assert table.game is not None
    choosing = table.game.exchange.choosing()
    computer = next(s for s in choosing if table.seats[s].is_computer)
    cards = _some(table, computer, 3)
    action = Action(ActionKind.PASS, computer, cards)
    table = await service.computer_act(table.id, computer, table.version, action)
    assert table.game is not None and table.game.exchange.chosen[computer] == cards


@pytest.mark.parametrize(
    "house",
    [
        "nil_pass=3",
        "nil_pass=1,blind_nil_pass=2,blind_nil=100:200",
        "nil_pass=2,blind_nil_pass=3,deck=jokers",
    ],
)
async def test_games_with_passes_are_played_to_the_end(service: TableService, house: str) -> None:
    table = await seated_table(service, humans=2, house=house, target=250)
    table = await service.start(table.id, table.host_id, table.version)
    table = await play_to_end(service, table, Chooser(5))
    assert table.status is TableStatus.FINISHED and table.game is not None
    assert table.game.result is not None
    assert any(record.passes for record in table.game.hand_records)  # the passes were played
