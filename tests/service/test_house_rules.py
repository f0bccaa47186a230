"""The lobby's house rules through the service: who may set them, the rule
set's refusals, and how they are stored and read back (tables stored before
them included)."""

from __future__ import annotations

import json

import pytest

from bot import refusals
from bot.game.rules import PRESETS, Bidding, Deck
from bot.tables.model import TableOptions
from bot.tables.service import TableService
from db.store import Store
from tests.backends import table_rows
from tests.service.driver import GUESTS, HOST, FakeClock, seated_table


async def test_the_house_rules_are_stored_with_the_options_and_come_back(
    store: Store, service: TableService, clock: FakeClock
) -> None:
    table = await service.create(1, 500, HOST, TableOptions(preset="cardgames"))
    table = await service.house_rule(table.id, HOST, table.version, "deck", "jokers")
    table = await service.house_rule(table.id, HOST, table.version, "bags", "off")
    assert table.rules.deck is Deck.JOKERS and table.rules.bag_penalty == 0
    assert table.options.house.text == "deck=jokers,bags=off"
    [(stored,)] = await table_rows(store, "SELECT options FROM tables WHERE id = ?", (table.id,))
    assert json.loads(stored)["house"] == "deck=jokers,bags=off"
    logged = await table_rows(
        store,
        "SELECT kind, payload FROM actions WHERE table_id = ? AND kind = 'house'",
        (table.id,),
    )
    assert [json.loads(payload)["key"] for _, payload in logged] == ["deck", "bags"]
    # A value set back to the preset's leaves the stored text.
    table = await service.house_rule(table.id, HOST, table.version, "bags", "10:100")
    assert table.options.house.text == "deck=jokers"
    again = await (await TableService.open(store, now=clock)).get(table.id)
    assert again.rules == table.rules and again.rules.preset == "cardgames"


async def test_a_game_started_after_them_is_played_under_them(service: TableService) -> None:
    table = await seated_table(service)
    table = await service.house_rule(table.id, HOST, table.version, "bidding", "whiz")
    table = await service.start(table.id, HOST, table.version)
    assert table.game is not None and table.game.rules.bidding is Bidding.WHIZ
    with pytest.raises(refusals.AlreadyStarted):
        await service.house_rule(table.id, HOST, table.version, "bidding", "open")


async def test_a_table_stored_before_house_rules_loads_with_its_presets(
    store: Store, service: TableService, clock: FakeClock
) -> None:
    table = await service.create(1, 500, HOST, TableOptions(preset="low-club"))
    old = '{"target": 500, "revokes": "allowed", "preset": "low-club", "turn_limit_s": 600}'
    await store.db.execute("UPDATE tables SET options = ? WHERE id = ?", (old, table.id))
    again = await (await TableService.open(store, now=clock)).get(table.id)
    assert again.options.house.text == ""
    assert again.rules == PRESETS["low-club"].with_options(turn_limit_s=600)
    # Its options are written back in the shape the earlier versions read.
    assert "house" not in TableOptions(preset="low-club").model_dump()


async def test_only_the_host_sets_them(service: TableService) -> None:
    table = await seated_table(service)
    with pytest.raises(refusals.HostOnly):
        await service.house_rule(table.id, GUESTS[0], table.version, "deck", "jokers")
    with pytest.raises(refusals.NotSeated):
        await service.house_rule(table.id, 9999, table.version, "deck", "jokers")
    assert (await service.get(table.id)).rules.deck is Deck.STANDARD


@pytest.mark.parametrize(
    ("first", "then", "template"),
    [
        (("bidding", "whiz"), ("nil", "off"), "nil cannot be off with {bidding} bidding"),
        (
            ("bidding", "mirror"),
            ("blind_nil", "100:200"),
            "blind_nil must be off with {bidding} bidding",
        ),
        (
            ("min_team_bid", "4"),
            ("bidding", "whiz"),
            "min_team_bid must be 0 with {bidding} bidding",
        ),
    ],
)
async def test_a_combination_the_rule_set_refuses_is_one_translated_line(
    service: TableService, first: tuple[str, str], then: tuple[str, str], template: str
) -> None:
    table = await service.create(1, 500, HOST)
    table = await service.house_rule(table.id, HOST, table.version, *first)
    with pytest.raises(refusals.BadHouseRule) as refused:
        await service.house_rule(table.id, HOST, table.version, *then)
    assert refused.value.template == template
    assert (await service.get(table.id)).version == table.version


async def test_a_forged_value_or_key_is_refused(service: TableService) -> None:
    table = await service.create(1, 500, HOST)
    with pytest.raises(refusals.BadHouseRule) as refused:
        await service.house_rule(table.id, HOST, table.version, "deck", "tarot")
    assert refused.value.params == {
        "line": "bad value deck=tarot: expected standard|jokers|jokers-deuce|jjdd"
    }
    with pytest.raises(refusals.Malformed):
        await service.house_rule(table.id, HOST, table.version, "trumps", "hearts")
    with pytest.raises(refusals.StaleAction):
        await service.house_rule(table.id, HOST, table.version - 1, "deck", "jokers")
