"""The coach in the application core: who may have a hint and when, the
cooldown, the coach preference, the reviews after a hand, and the ratings
of games played with hints."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import refusals
from bot.app import Origin, SpadesApp
from bot.coach.service import HINT_COOLDOWN_S, REVIEW_COOLDOWN_S, CoachService
from bot.game.types import ActionKind, Phase
from bot.prefs import Preferences
from bot.refusals import CoachBusy, HintsOff, NoHintNow
from bot.stats.history import export_document
from bot.stats.service import StatsService
from bot.tables.model import Table, TableOptions, TableStatus
from bot.tables.service import TableService
from db.store import Store
from tests.coach.conftest import quick_search
from tests.discord.conftest import fast_settings
from tests.service.driver import GUESTS, HOST, FakeClock, seated_table, waited_user
from tests.shards.cores import RecordingNotifier
from tests.stats.games import counted_by

SPECTATOR = 4242


async def started(service: TableService, *, hints: bool, humans: int = 4) -> Table:
    table = await seated_table(service, hints=hints, humans=humans)
    return await service.start(table.id, HOST, table.version)


def stamp(table: Table) -> int:
    assert table.game is not None
    return table.game.action_count


async def test_a_hint_answers_the_seat_on_turn(service: TableService, coach: CoachService) -> None:
    table = await started(service, hints=True)
    user = waited_user(table)
    hint = await coach.hint(table, user, table.version, stamp(table))
    assert hint.action.kind is ActionKind.BID
    assert hint.action.seat == table.seat_of(user)
    assert (await service.get(table.id)).version == table.version  # nothing was done


async def test_no_hint_at_a_table_with_hints_off(
    service: TableService, coach: CoachService
) -> None:
    table = await started(service, hints=False)
    with pytest.raises(HintsOff):
        await coach.hint(table, waited_user(table), table.version, stamp(table))
    assert (await service.get(table.id)).version == table.version


async def test_hints_are_off_unless_asked_for(service: TableService) -> None:
    table = await service.create(1, 77, HOST)
    assert table.options.hints is False


async def test_no_hint_for_spectators_or_strangers(
    service: TableService, coach: CoachService
) -> None:
    table = await started(service, hints=True)
    table = await service.join(table.id, SPECTATOR, table.version)
    assert table.is_spectator(SPECTATOR)
    with pytest.raises(refusals.Spectator):
        await coach.hint(table, SPECTATOR, table.version, stamp(table))
    with pytest.raises(refusals.NotSeated):
        await coach.hint(table, 999, table.version, stamp(table))


async def test_no_hint_off_turn_or_before_the_deal(
    service: TableService, coach: CoachService
) -> None:
    lobby = await seated_table(service, hints=True, channel=501)
    with pytest.raises(refusals.NotStarted):
        await coach.hint(lobby, HOST, lobby.version, None)
    table = await started(service, hints=True)
    other = waited_user(table, after=1)
    with pytest.raises(NoHintNow):
        await coach.hint(table, other, table.version, stamp(table))


async def test_no_hint_from_an_outdated_hand(service: TableService, coach: CoachService) -> None:
    table = await started(service, hints=True)
    user = waited_user(table)
    with pytest.raises(refusals.StaleAction):
        await coach.hint(table, user, table.version, stamp(table) - 1)
    with pytest.raises(refusals.StaleAction):
        await coach.hint(table, user, table.version + 1, stamp(table))
    watched = await service.join(table.id, SPECTATOR, table.version)
    # A button without the decision's stamp must match the version exactly...
    with pytest.raises(refusals.StaleAction):
        await coach.hint(watched, user, table.version, None)
    # ...one with it still answers when only a spectator came meanwhile.
    hint = await coach.hint(watched, user, table.version, stamp(table))
    assert hint.action.seat == watched.seat_of(user)


async def test_hints_have_a_cooldown(
    service: TableService, coach: CoachService, clock: FakeClock
) -> None:
    table = await started(service, hints=True)
    user = waited_user(table)
    await coach.hint(table, user, table.version, stamp(table))
    clock.advance(1.0)
    with pytest.raises(CoachBusy) as refused:
        await coach.hint(table, user, table.version, stamp(table))
    assert refused.value.seconds == int(HINT_COOLDOWN_S - 1.0)
    assert f"{refused.value.seconds} seconds" in refused.value.message
    # A refused ask does not restart the wait; other people are not held up.
    clock.advance(HINT_COOLDOWN_S - 1.0)
    await coach.hint(table, user, table.version, stamp(table))


async def test_the_coach_choice_is_kept(store: Store, clock: FakeClock) -> None:
    def prefs() -> Preferences:
        return Preferences(store, clock, fresh_s=None)

    coach = CoachService(prefs(), clock, player=quick_search)
    assert not await coach.coach_on(HOST)
    await coach.set_coach(HOST, True)
    assert await CoachService(prefs(), clock).coach_on(HOST)
    await coach.set_coach(HOST, False)
    assert not await CoachService(prefs(), clock).coach_on(HOST)


async def play_hand(service: TableService, table: Table) -> tuple[Table, str]:
    """Bid 3 everywhere and play the lowest legal card to the end of the hand."""
    event = ""
    game = table.game
    assert game is not None
    hand = game.hand_number
    while game.hand_number == hand and game.phase in (Phase.BIDDING, Phase.PLAYING):
        user = waited_user(table)
        seat = table.seat_of(user)
        assert seat is not None
        if game.phase is Phase.BIDDING:
            table = await service.bid(table.id, user, 3, table.version)
            event = "bid"
        else:
            legal = game.legal_play_mask(seat)
            card = (legal & -legal).bit_length() - 1
            table = await service.play(table.id, user, card, table.version)
            event = "play"
        assert table.game is not None
        game = table.game
    return table, event


async def test_reviews_go_to_those_who_asked_once_per_hand(
    service: TableService, coach: CoachService, clock: FakeClock
) -> None:
    await coach.set_coach(GUESTS[0], True)
    table = await started(service, hints=False)
    assert coach.hand_ended(table, "start") is None
    table, event = await play_hand(service, table)
    record = coach.hand_ended(table, event)
    assert record is not None and record.hand == 1
    assert coach.hand_ended(table, event) is None  # seen once only
    reviews = await coach.reviews(table, record)
    assert [user for user, _ in reviews] == [GUESTS[0]]
    review = reviews[0][1]
    seat = table.seat_of(GUESTS[0])
    assert seat is not None and review.seat == seat and review.bid == 3
    assert review.taken == record.tricks_won[seat]
    # Within the cooldown the same person gets no second review.
    assert await coach.reviews(table, record) == []
    clock.advance(REVIEW_COOLDOWN_S)
    assert [user for user, _ in await coach.reviews(table, record)] == [GUESTS[0]]


async def test_a_game_with_hints_leaves_ratings_alone(
    service: TableService, stats: StatsService
) -> None:
    service.subscribe(counted_by(stats))
    table = await started(service, hints=True)
    table = await service.resign(table.id, HOST, table.version)
    assert table.status is TableStatus.FINISHED
    for user in (HOST, *GUESTS):
        player = await stats.player_stats(1, user)
        assert player is not None
        assert player.rated_games == 0 and player.tally.games == 1  # counted, not rated
    assert table.game_id is not None
    found = await stats.finished_game(table.game_id)
    assert found is not None and found[0].hints
    assert export_document(*found)["hints"] is True
    # Without hints, the same game moves the ratings.
    plain = await seated_table(service, hints=False, channel=502)
    plain = await service.start(plain.id, HOST, plain.version)
    await service.resign(plain.id, HOST, plain.version)
    host = await stats.player_stats(1, HOST)
    assert host is not None and host.rated_games == 1


async def test_a_server_may_rate_games_with_hints(
    service: TableService, stats: StatsService
) -> None:
    await stats.set_rate_computer_games(1, True)
    service.subscribe(counted_by(stats))
    table = await started(service, hints=True)
    await service.resign(table.id, HOST, table.version)
    host = await stats.player_stats(1, HOST)
    assert host is not None and host.rated_games == 1


async def test_no_hint_between_hands(service: TableService, coach: CoachService) -> None:
    table = await started(service, hints=True)
    table, _ = await play_hand(service, table)
    assert table.game is not None and table.game.phase is Phase.HAND_OVER
    with pytest.raises(NoHintNow):
        await coach.hint(table, HOST, table.version, stamp(table))


async def test_hints_are_off_at_a_new_table_unless_the_host_asks(
    store: Store, service: TableService, clock: FakeClock, tmp_path: Path
) -> None:
    """Games are rated, and a game with hints leaves ratings alone: the
    Hint button is there only if the host asks for it."""
    settings = fast_settings(tmp_path / "unused.db")
    app = SpadesApp(settings, store, service, now=clock, notifier=RecordingNotifier())
    opened = await app.create(Origin(1, 601), HOST, TableOptions.chosen(turn_limit_s=3600))
    assert opened.table.options.hints is False
    chosen = await app.create(Origin(1, 611), HOST, TableOptions.chosen(hints=True))
    assert chosen.table.options.hints is True
