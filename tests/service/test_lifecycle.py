"""The table lifecycle of rules text 000 through the service: lobby, teams,
computer players, the game, its result rows and the rematch."""

from __future__ import annotations

import json
import logging

import pytest

from bot import refusals
from bot.game.types import ActionKind, EndReason, Phase
from bot.tables.model import Table, TableOptions, TableStatus
from bot.tables.service import TableService
from db.store import Store
from tests.backends import game_results, table_rows
from tests.service.driver import GUESTS, HOST, Chooser, FakeClock, play_to_end, seated_table


async def test_create_puts_the_host_in_seat_zero(service: TableService) -> None:
    table = await service.create(
        1, 500, HOST, TableOptions(target=250, revokes="blocked", turn_limit_s=3600)
    )
    assert table.status is TableStatus.LOBBY
    assert table.version == 1
    assert table.seat_of(HOST) == 0
    assert [seat.is_empty for seat in table.seats] == [False, True, True, True]
    assert table.rules.target == 250
    assert table.rules.revokes == "blocked"
    assert table.rules.turn_limit_s == 3600
    assert table.game is None and table.game_number == 0
    assert await service.in_channel(500) == table


async def test_the_options_keep_their_stored_shape_and_come_back_whole(
    store: Store, service: TableService, clock: FakeClock
) -> None:
    chosen = TableOptions(target=250, preset="cardgames", hints=True, language="de", stand_in=True)
    table = await service.create(1, 500, HOST, chosen)
    assert table.options == chosen and table.language == "de"
    record = await store.load_table(table.id)
    assert record is not None and record.language == "de"
    # The shape earlier versions wrote, and the choices added since (watchers,
    # thread): no language, no stand-in, which live in their own places.
    assert json.loads(record.options_json) == {
        "target": 250,
        "revokes": "allowed",
        "preset": "cardgames",
        "turn_limit_s": chosen.turn_limit_s,
        "hints": True,
        "watchers": True,
        "thread": False,
    }
    reopened = await TableService.open(store, now=clock)
    again = await reopened.get(table.id)
    assert again.options == chosen.model_copy(update={"stand_in": None})
    assert again.rules is table.rules  # one rule set per set of choices


async def test_options_stored_before_hints_and_languages_still_load(
    store: Store, service: TableService, clock: FakeClock
) -> None:
    table = await service.create(1, 500, HOST, TableOptions(target=250))
    old = '{"target": 250, "revokes": "blocked", "preset": "standard", "turn_limit_s": 600}'
    await store.db.execute("UPDATE tables SET options = ? WHERE id = ?", (old, table.id))
    again = await (await TableService.open(store, now=clock)).get(table.id)
    assert again.options == TableOptions(target=250, revokes="blocked", turn_limit_s=600)
    assert again.language == "en" and again.options.hints is False


async def test_first_three_sit_and_later_ones_watch(service: TableService) -> None:
    table = await service.create(1, 500, HOST)
    for guest in GUESTS:
        table = await service.join(table.id, guest, table.version)
    assert [s.user_id for s in table.seats] == [HOST, *GUESTS]
    table = await service.join(table.id, 2000, table.version)
    assert table.spectators == (2000,)
    assert table.seat_of(2000) is None
    table = await service.leave(table.id, GUESTS[1], table.version)
    assert table.seats[2].is_empty
    # A freed seat goes to the next player who joins, not to a spectator.
    table = await service.join(table.id, 2001, table.version)
    assert table.seat_of(2001) == 2
    table = await service.leave(table.id, 2000, table.version)
    assert table.spectators == ()


async def test_joining_after_the_start_makes_a_spectator(service: TableService) -> None:
    table = await seated_table(service)
    table = await service.start(table.id, HOST, table.version)
    table = await service.join(table.id, 3000, table.version)
    assert table.spectators == (3000,)
    with pytest.raises(refusals.Spectator, match="you are watching this table"):
        await service.resign(table.id, 3000, table.version)


async def test_the_chosen_partner_sits_across_from_the_host(service: TableService) -> None:
    table = await seated_table(service)
    table = await service.choose_partner(table.id, HOST, table.version, 3)
    assert [s.user_id for s in table.seats] == [HOST, GUESTS[0], GUESTS[2], GUESTS[1]]
    table = await service.start(table.id, HOST, table.version)
    # Engine seats: the host's team is seats 0 and 2.
    assert table.seat_of(GUESTS[2]) == 2


async def test_a_computer_player_can_be_the_partner(service: TableService) -> None:
    table = await seated_table(service, humans=2)
    table = await service.choose_partner(table.id, HOST, table.version, 3)
    assert table.seats[2].is_computer and table.seats[1].user_id == GUESTS[0]


async def test_computers_fill_every_empty_seat(service: TableService) -> None:
    table = await service.create(1, 500, HOST)
    table = await service.add_computers(table.id, HOST, table.version, "random")
    assert [seat.is_computer for seat in table.seats] == [False, True, True, True]
    assert all(seat.computer_level == "random" for seat in table.seats[1:])
    table = await service.join(table.id, 4000, table.version)
    assert table.spectators == (4000,)


async def test_a_whole_game_with_bots_writes_its_results(
    service: TableService, store: Store
) -> None:
    table = await seated_table(service, humans=2)
    table = await service.start(table.id, HOST, table.version)
    assert table.status is TableStatus.PLAYING and table.game_number == 1
    table = await play_to_end(service, table, Chooser(3))
    assert table.status is TableStatus.FINISHED
    assert table.result is not None
    assert await service.in_channel(500) is None  # a finished table frees the channel
    [result] = await game_results(store, table.id)
    game = table.game
    assert game is not None
    assert result["game_id"] == table.game_id
    assert result["scores"] == game.scores
    assert result["reason"] == table.result.reason.value
    assert result["hands_played"] == len(game.hand_records) == len(result["hands"])
    assert result["hands"][0]["game"] == str(table.game_id)
    for seat in result["seats"]:
        team = seat["seat"] & 1
        expected = "won" if table.result.winner == team else "lost"
        if table.result.winner is None:
            expected = "draw"
        assert seat["outcome"] == expected
        assert seat["points"] == game.scores[team]
        assert (seat["user_id"], seat["bot_level"]) == (
            table.seats[seat["seat"]].user_id,
            table.seats[seat["seat"]].computer_level,
        )


async def test_rematch_with_swapped_teams(service: TableService) -> None:
    table = await seated_table(service)
    table = await service.start(table.id, HOST, table.version)
    first_seed = table.game.seed if table.game else None
    table = await service.resign(table.id, GUESTS[0], table.version)
    assert table.status is TableStatus.FINISHED
    assert table.result is not None and table.result.reason is EndReason.RESIGNATION
    table = await service.rematch(table.id, GUESTS[2], table.version, swap_teams=True)
    assert table.status is TableStatus.PLAYING and table.game_number == 2
    assert [s.user_id for s in table.seats] == [HOST, GUESTS[1], GUESTS[0], GUESTS[2]]
    assert table.game is not None and table.game.seed != first_seed
    assert table.game.phase is Phase.BIDDING and not table.game.actions
    table = await service.resign(table.id, HOST, table.version)
    table = await service.rematch(table.id, HOST, table.version, swap_teams=False)
    assert [s.user_id for s in table.seats] == [HOST, GUESTS[1], GUESTS[0], GUESTS[2]]
    assert table.game_number == 3


async def test_rematch_waits_for_a_free_channel(service: TableService) -> None:
    table = await seated_table(service)
    table = await service.start(table.id, HOST, table.version)
    table = await service.resign(table.id, HOST, table.version)
    other = await service.create(1, 500, 7777)
    with pytest.raises(refusals.ChannelBusy, match="a table is already open in this channel"):
        await service.rematch(table.id, HOST, table.version)
    await service.cancel(other.id, 7777, other.version)
    table = await service.rematch(table.id, HOST, table.version)
    assert table.status is TableStatus.PLAYING


async def test_cancel_frees_the_channel(service: TableService) -> None:
    table = await service.create(1, 500, HOST)
    table = await service.cancel(table.id, HOST, table.version)
    assert table.status is TableStatus.CANCELLED
    again = await service.create(1, 500, HOST)
    assert again.id != table.id


async def test_a_user_sits_at_tables_in_several_channels(service: TableService) -> None:
    first = await service.create(1, 500, HOST)
    second = await service.create(1, 501, 55)
    second = await service.join(second.id, HOST, second.version)
    mine = await service.tables_of_user(HOST)
    assert sorted(t.id for t in mine) == [first.id, second.id]
    assert {t.id for t in await service.unfinished()} == {first.id, second.id}


async def test_timeout_claim_uses_the_injected_clock(
    service: TableService, clock: FakeClock
) -> None:
    table = await seated_table(service, turn_limit_s=3600)
    table = await service.start(table.id, HOST, table.version)
    game = table.game
    assert game is not None
    waiting = game.waited_on()
    assert waiting == 1  # the host deals first; seat 1 bids first
    claimant = table.seats[0].user_id
    assert claimant is not None
    with pytest.raises(Exception, match="turn limit has not passed"):
        await service.claim_timeout(table.id, claimant, table.version)
    clock.advance(3601)
    table = await service.claim_timeout(table.id, claimant, table.version)
    assert table.result is not None and table.result.reason is EndReason.TIMEOUT
    assert table.result.winner == 0


async def test_a_challenge_ends_the_game(service: TableService) -> None:
    table = await seated_table(service, revokes="allowed")
    table = await service.start(table.id, HOST, table.version)
    chooser = Chooser(5)
    while table.game is not None and table.game.phase is Phase.BIDDING:
        table = await chooser.step(service, table)
    table = await chooser.step(service, table)  # one card on the table
    table = await service.challenge(table.id, HOST, GUESTS[0], table.version)
    assert table.result is not None and table.result.reason is EndReason.FALSE_CLAIM
    assert table.status is TableStatus.FINISHED


async def test_seeds_come_from_the_seed_source_and_are_logged(
    service: TableService, store: Store
) -> None:
    table = await seated_table(service)
    table = await service.start(table.id, HOST, table.version)
    log = await store.action_log(table.id)
    assert log[-1].kind == "start" and log[-1].payload["seed"] == table.game.seed  # type: ignore[union-attr]
    assert [entry.seq for entry in log] == list(range(1, table.version + 1))


async def test_subscribers_hear_every_commit_and_cannot_undo_it(
    service: TableService, caplog: pytest.LogCaptureFixture
) -> None:
    heard: list[tuple[int, str]] = []

    async def listener(table: Table, event: str) -> None:
        heard.append((table.version, event))

    async def broken(table: Table, event: str) -> None:
        raise RuntimeError("listener bug")

    service.subscribe(broken)
    unsubscribe = service.subscribe(listener)
    with caplog.at_level(logging.ERROR):
        table = await service.create(1, 500, HOST)
        table = await service.join(table.id, 1001, table.version)
        table = await service.add_computers(table.id, HOST, table.version, "random")
        table = await service.start(table.id, HOST, table.version)
    assert heard == [(1, "create"), (2, "join"), (3, "bots"), (4, "start")]
    assert "listener bug" in caplog.text
    assert (await service.get(table.id)).version == 4
    unsubscribe()
    table = await service.join(table.id, 1500, table.version)
    assert len(heard) == 4


async def test_set_message_keeps_the_version(service: TableService, store: Store) -> None:
    table = await service.create(1, 500, HOST)
    table = await service.set_message(table.id, 99)
    assert table.message_id == 99 and table.version == 1
    [row] = await table_rows(store, "SELECT message_id FROM tables")
    assert row == (99,)


async def test_look_is_recorded_for_blind_nil(service: TableService, store: Store) -> None:
    table = await seated_table(service, preset="blind-nil")
    table = await service.start(table.id, HOST, table.version)
    bidder = table.seats[1].user_id
    assert bidder is not None
    table = await service.look(table.id, bidder, table.version)
    assert table.game is not None and table.game.looked[1]
    [(kind, payload)] = await table_rows(
        store, "SELECT kind, payload FROM actions ORDER BY seq DESC LIMIT 1"
    )
    assert kind == ActionKind.LOOK.value and json.loads(payload)["seat"] == 1


async def test_published_snapshots_never_change(service: TableService) -> None:
    table = await seated_table(service)
    before = await service.start(table.id, HOST, table.version)
    assert before.game is not None
    frozen = before.game.observable()
    chooser = Chooser(11)
    after = before
    for _ in range(10):
        after = await chooser.step(service, after)
    assert before.game.observable() == frozen
    assert after.version == before.version + 10


async def test_closed_tables_leave_memory_and_come_back_intact(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.tables.registry as registry_module

    monkeypatch.setattr(registry_module, "CLOSED_TABLES_KEPT", 2)
    finished = []
    for n in range(4):
        table = await seated_table(service, channel=900 + n)
        table = await service.start(table.id, HOST, table.version)
        finished.append(await service.resign(table.id, GUESTS[n % 3], table.version))
    assert len(service._registry.tables) == 2  # the two most recently closed
    first = finished[0]
    again = await service.get(first.id)
    assert again.version == first.version and again.status is TableStatus.FINISHED
    assert again.game is not None and first.game is not None
    assert again.game.observable() == first.game.observable()
    assert again.result == first.result
    table = await service.rematch(first.id, HOST, again.version)
    assert table.status is TableStatus.PLAYING and table.game_number == 2


async def test_the_thread_of_a_table_is_kept_and_finds_the_table(
    store: Store, service: TableService, clock: FakeClock
) -> None:
    table = await service.create(1, 500, HOST, TableOptions(thread=True))
    assert table.thread_id is None and table.talk_channel_id == 500
    await service.set_thread(table.id, 900)
    reopened = await TableService.open(store, now=clock)
    again = await reopened.get(table.id)
    assert again.thread_id == 900 and again.talk_channel_id == 900
    assert await reopened.in_channel(900) == again  # a command typed in the thread
    await reopened.set_thread(table.id, None)  # the thread was lost: the channel again
    last = await TableService.open(store, now=clock)
    assert (await last.get(table.id)).thread_id is None
    assert await last.in_channel(900) is None
