"""Every kind of bad input is refused with a specific error and leaves the
database byte-for-byte as it was (compared through a full dump)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from bot import refusals as core
from bot.game import refusals as rules
from bot.game.types import Action, ActionKind, Phase
from bot.tables.model import Table, TableOptions
from bot.tables.service import TableService
from tests.service.conftest import dump
from tests.service.driver import GUESTS, HOST, Chooser, seated_table, waited_user

OUTSIDER = 9999
WATCHER = 8888

Attempt = Callable[[TableService, Table], Awaitable[object]]


async def refused(
    service: TableService, table: Table, attempt: Attempt, error: type[Exception]
) -> Exception:
    before = await dump(service.store)
    before_table = await service.get(table.id)
    with pytest.raises(error) as caught:
        await attempt(service, table)
    assert await dump(service.store) == before
    assert await service.get(table.id) == before_table
    message = getattr(caught.value, "message", "")
    assert isinstance(message, str) and message
    assert isinstance(getattr(caught.value, "code", None), str)
    return caught.value


@pytest.fixture
async def lobby(service: TableService) -> Table:
    table = await service.create(1, 500, HOST)
    table = await service.join(table.id, GUESTS[0], table.version)
    return table


@pytest.fixture
async def full_lobby(service: TableService) -> Table:
    table = await seated_table(service)
    return await service.join(table.id, WATCHER, table.version)


@pytest.fixture
async def playing(full_lobby: Table, service: TableService) -> Table:
    return await service.start(full_lobby.id, HOST, full_lobby.version)


LOBBY_CASES: list[tuple[str, Attempt, type[Exception]]] = [
    ("unknown table", lambda s, t: s.join(424242, 5, 1), core.UnknownTable),
    ("table id not a number", lambda s, t: s.join("1", 5, 1), core.UnknownTable),  # type: ignore[arg-type]
    # Joining does not depend on the version shown (see test_versions), but
    # the host's actions do.
    ("stale version", lambda s, t: s.cancel(t.id, HOST, t.version - 1), core.StaleAction),
    ("future version", lambda s, t: s.join(t.id, 5, t.version + 1), core.StaleAction),
    ("version not a number", lambda s, t: s.join(t.id, 5, "2"), core.Malformed),  # type: ignore[arg-type]
    ("negative user id", lambda s, t: s.join(t.id, -5, t.version), core.Malformed),
    ("user id a bool", lambda s, t: s.join(t.id, True, t.version), core.Malformed),
    ("join twice", lambda s, t: s.join(t.id, GUESTS[0], t.version), core.AlreadyJoined),
    ("host leaves", lambda s, t: s.leave(t.id, HOST, t.version), core.HostCannotLeave),
    ("outsider leaves", lambda s, t: s.leave(t.id, OUTSIDER, t.version), core.NotSeated),
    ("guest starts", lambda s, t: s.start(t.id, GUESTS[0], t.version), core.HostOnly),
    ("outsider starts", lambda s, t: s.start(t.id, OUTSIDER, t.version), core.NotSeated),
    ("start with two seated", lambda s, t: s.start(t.id, HOST, t.version), core.NotEnoughPlayers),
    ("guest cancels", lambda s, t: s.cancel(t.id, GUESTS[0], t.version), core.HostOnly),
    (
        "guest adds computers",
        lambda s, t: s.add_computers(t.id, GUESTS[0], t.version, "random"),
        core.HostOnly,
    ),
    (
        "unknown computer level",
        lambda s, t: s.add_computers(t.id, HOST, t.version, "oracle"),
        core.Malformed,
    ),
    (
        "partner before four seated",
        lambda s, t: s.choose_partner(t.id, HOST, t.version, 1),
        core.NotEnoughPlayers,
    ),
    ("bid in the lobby", lambda s, t: s.bid(t.id, HOST, 3, t.version), core.NotStarted),
    ("play in the lobby", lambda s, t: s.play(t.id, HOST, 5, t.version), core.NotStarted),
    ("resign in the lobby", lambda s, t: s.resign(t.id, HOST, t.version), core.NotStarted),
    ("rematch in the lobby", lambda s, t: s.rematch(t.id, HOST, t.version), core.NotOver),
    ("create in a busy channel", lambda s, t: s.create(1, 500, 77), core.ChannelBusy),
    (
        "target not offered",
        lambda s, t: s.create(1, 600, 77, TableOptions.chosen(target=300)),
        core.Malformed,
    ),
    (
        "unknown revoke rule",
        lambda s, t: s.create(1, 600, 77, TableOptions.chosen(revokes="maybe")),
        core.Malformed,
    ),
    (
        "unknown preset",
        lambda s, t: s.create(1, 600, 77, TableOptions.chosen(preset="hearts")),
        core.Malformed,
    ),
    (
        "turn limit zero",
        lambda s, t: s.create(1, 600, 77, TableOptions.chosen(turn_limit_s=0)),
        core.Malformed,
    ),
    ("channel id text", lambda s, t: s.create(1, "600", 77), core.Malformed),  # type: ignore[arg-type]
    ("message id negative", lambda s, t: s.set_message(t.id, -1), core.Malformed),
]


@pytest.mark.parametrize(("name", "attempt", "error"), LOBBY_CASES, ids=[c[0] for c in LOBBY_CASES])
async def test_lobby_refusals_change_nothing(
    service: TableService,
    lobby: Table,
    name: str,
    attempt: Attempt,
    error: type[Exception],
) -> None:
    await refused(service, lobby, attempt, error)


FULL_LOBBY_CASES: list[tuple[str, Attempt, type[Exception]]] = [
    (
        "computers with no empty seat",
        lambda s, t: s.add_computers(t.id, HOST, t.version, "random"),
        core.TableFull,
    ),
    (
        "partner is the host",
        lambda s, t: s.choose_partner(t.id, HOST, t.version, 0),
        core.BadPartner,
    ),
    (
        "partner seat not a number",
        lambda s, t: s.choose_partner(t.id, HOST, t.version, "2"),  # type: ignore[arg-type]
        core.BadPartner,
    ),
    (
        "partner seat out of range",
        lambda s, t: s.choose_partner(t.id, HOST, t.version, 4),
        core.BadPartner,
    ),
    (
        "guest picks a partner",
        lambda s, t: s.choose_partner(t.id, GUESTS[0], t.version, 2),
        core.HostOnly,
    ),
    ("spectator starts", lambda s, t: s.start(t.id, WATCHER, t.version), core.HostOnly),
    # t.version - 1 is before the spectator came, which the host's view does
    # not show: still up to date. Before the last guest sat down is not.
    ("stale start", lambda s, t: s.start(t.id, HOST, t.version - 2), core.StaleAction),
]


@pytest.mark.parametrize(
    ("name", "attempt", "error"), FULL_LOBBY_CASES, ids=[c[0] for c in FULL_LOBBY_CASES]
)
async def test_full_lobby_refusals_change_nothing(
    service: TableService,
    full_lobby: Table,
    name: str,
    attempt: Attempt,
    error: type[Exception],
) -> None:
    await refused(service, full_lobby, attempt, error)


def _first_bidder(t: Table) -> int:
    return waited_user(t)


def _not_first_bidder(t: Table) -> int:
    return waited_user(t, 1)


PLAYING_CASES: list[tuple[str, Attempt, type[Exception]]] = [
    ("spectator bids", lambda s, t: s.bid(t.id, WATCHER, 3, t.version), core.Spectator),
    ("outsider bids", lambda s, t: s.bid(t.id, OUTSIDER, 3, t.version), core.NotSeated),
    ("outsider resigns", lambda s, t: s.resign(t.id, OUTSIDER, t.version), core.NotSeated),
    (
        "bid out of turn",
        lambda s, t: s.bid(t.id, _not_first_bidder(t), 3, t.version),
        rules.NotYourTurn,
    ),
    ("bid 14", lambda s, t: s.bid(t.id, _first_bidder(t), 14, t.version), rules.BidOutOfRange),
    ("bid as text", lambda s, t: s.bid(t.id, _first_bidder(t), "3", t.version), core.Malformed),  # type: ignore[arg-type]
    (
        "blind nil not played",
        lambda s, t: s.bid(t.id, _first_bidder(t), -1, t.version),
        rules.BlindNilNotAllowed,
    ),
    (
        "play while bidding",
        lambda s, t: s.play(t.id, _first_bidder(t), 3, t.version),
        rules.WrongPhase,
    ),
    ("card 56", lambda s, t: s.play(t.id, _first_bidder(t), 56, t.version), core.Malformed),
    (
        "card name nonsense",
        lambda s, t: s.play(t.id, _first_bidder(t), "ZZ", t.version),
        core.Malformed,
    ),
    ("card a float", lambda s, t: s.play(t.id, _first_bidder(t), 3.0, t.version), core.Malformed),  # type: ignore[arg-type]
    ("stale bid", lambda s, t: s.bid(t.id, _first_bidder(t), 3, t.version - 1), core.StaleAction),
    (
        "join twice while playing",
        lambda s, t: s.join(t.id, WATCHER, t.version),
        core.AlreadyJoined,
    ),
    (
        "seated player leaves",
        lambda s, t: s.leave(t.id, GUESTS[0], t.version),
        core.AlreadyStarted,
    ),
    ("start again", lambda s, t: s.start(t.id, HOST, t.version), core.AlreadyStarted),
    ("cancel a started table", lambda s, t: s.cancel(t.id, HOST, t.version), core.AlreadyStarted),
    (
        "add computers after start",
        lambda s, t: s.add_computers(t.id, HOST, t.version, "random"),
        core.AlreadyStarted,
    ),
    ("rematch before the end", lambda s, t: s.rematch(t.id, HOST, t.version), core.NotOver),
    ("next hand while bidding", lambda s, t: s.next_hand(t.id, HOST, t.version), rules.WrongPhase),
    (
        "early timeout claim",
        lambda s, t: s.claim_timeout(t.id, HOST, t.version),
        rules.ClaimRefused,
    ),
    (
        "challenge before any card",
        lambda s, t: s.challenge(t.id, HOST, GUESTS[0], t.version),
        rules.ChallengeRefused,
    ),
    (
        "challenge a stranger",
        lambda s, t: s.challenge(t.id, HOST, OUTSIDER, t.version),
        rules.ChallengeRefused,
    ),
    ("challenge nobody", lambda s, t: s.challenge(t.id, HOST, None, t.version), core.Malformed),
    (
        "computer acts for a human seat",
        lambda s, t: s.computer_act(t.id, 1, t.version, Action(ActionKind.BID, 1, 3)),
        core.NotAComputer,
    ),
    (
        "computer seat 7",
        lambda s, t: s.computer_act(t.id, 7, t.version, Action(ActionKind.BID, 7, 3)),
        core.Malformed,
    ),
    (
        "computer acts for another seat",
        lambda s, t: s.computer_act(t.id, 1, t.version, Action(ActionKind.BID, 2, 3)),
        core.Malformed,
    ),
    (
        "computer action not an Action",
        lambda s, t: s.computer_act(t.id, 1, t.version, {"kind": "bid"}),  # type: ignore[arg-type]
        core.Malformed,
    ),
]


@pytest.mark.parametrize(
    ("name", "attempt", "error"), PLAYING_CASES, ids=[c[0] for c in PLAYING_CASES]
)
async def test_playing_refusals_change_nothing(
    service: TableService,
    playing: Table,
    name: str,
    attempt: Attempt,
    error: type[Exception],
) -> None:
    await refused(service, playing, attempt, error)


async def test_rules_refusals_in_play_change_nothing(service: TableService) -> None:
    """Card not held, revoke at a blocked table, computer challenge, and a
    repeated click (the same version twice)."""
    table = await seated_table(service, humans=3, revokes="blocked")
    table = await service.start(table.id, HOST, table.version)
    chooser = Chooser(2)
    while table.game is not None and table.game.phase is Phase.BIDDING:
        table = await chooser.step(service, table)
    # Steer to a trick where a human must follow suit and holds another suit.
    for _ in range(200):
        game = table.game
        assert game is not None
        seat = game.waited_on()
        if seat is not None and table.seats[seat].is_human and game.trick:
            led = game.trick[0] // 13
            hand = game.hands[seat]
            follow = hand & (0x1FFF << (13 * led))
            other = hand & ~follow
            if follow and other:
                break
        table = await chooser.step(service, table)
    else:  # pragma: no cover - the seeded game always gets there
        pytest.fail("no revoke opportunity")
    user = table.seats[seat].user_id
    assert user is not None
    off_suit = (other & -other).bit_length() - 1
    await refused(
        service,
        table,
        lambda s, t: s.play(t.id, user, off_suit, t.version),
        rules.MustFollowSuit,
    )
    missing = next(c for c in range(52) if not hand >> c & 1)
    await refused(
        service,
        table,
        lambda s, t: s.play(t.id, user, missing, t.version),
        rules.CardNotInHand,
    )
    computer = next(n for n, seat in enumerate(table.seats) if seat.is_computer)
    await refused(
        service,
        table,
        lambda s, t: s.computer_act(
            t.id, computer, t.version, Action(ActionKind.CHALLENGE, computer, 0)
        ),
        core.Malformed,
    )
    legal = (follow & -follow).bit_length() - 1
    played = await service.play(table.id, user, legal, table.version)
    await refused(
        service,
        played,
        lambda s, t: s.play(t.id, user, legal, table.version),
        core.StaleAction,
    )


async def test_refusals_at_closed_tables(service: TableService) -> None:
    cancelled = await service.create(1, 500, HOST)
    cancelled = await service.cancel(cancelled.id, HOST, cancelled.version)
    closed_cases: list[tuple[Attempt, type[Exception]]] = [
        (lambda s, t: s.join(t.id, 5, t.version), core.TableClosed),
        (lambda s, t: s.start(t.id, HOST, t.version), core.TableClosed),
        (lambda s, t: s.cancel(t.id, HOST, t.version), core.TableClosed),
        (lambda s, t: s.rematch(t.id, HOST, t.version), core.TableClosed),
    ]
    for attempt, error in closed_cases:
        await refused(service, cancelled, attempt, error)
    finished = await seated_table(service, channel=501)
    finished = await service.start(finished.id, HOST, finished.version)
    finished = await service.resign(finished.id, HOST, finished.version)
    finished_cases: list[tuple[Attempt, type[Exception]]] = [
        (lambda s, t: s.join(t.id, 5, t.version), core.TableClosed),
        (lambda s, t: s.resign(t.id, HOST, t.version), rules.GameIsOver),
        (lambda s, t: s.bid(t.id, GUESTS[0], 3, t.version), rules.GameIsOver),
        (lambda s, t: s.leave(t.id, GUESTS[0], t.version), core.TableClosed),
        (
            lambda s, t: s.rematch(t.id, HOST, t.version, swap_teams="yes"),  # type: ignore[arg-type]
            core.Malformed,
        ),
    ]
    for attempt, error in finished_cases:
        await refused(service, finished, attempt, error)
