"""Plans of the lobby's actions and of the starts of games.

Each function validates one action against the table (under its lock)
and returns the :class:`~bot.tables.step.Write` to commit, or raises the
refusal. The seed is drawn only once the action is valid.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from bot import refusals
from bot.ai.base import player_levels
from bot.game.house import KEYS, HouseRuleError
from bot.game.state import Game
from bot.i18n import N_
from bot.tables.kinds import (
    CANCEL,
    COMPUTERS,
    HOUSE,
    JOIN,
    LEAVE,
    PARTNER,
    REMATCH,
    START,
    UNWATCH,
    WATCH,
)
from bot.tables.model import EMPTY_SEAT, Seat, Table, TableStatus
from bot.tables.step import (
    Write,
    check_host,
    check_lobby,
    check_member,
    check_not_ahead,
    check_version,
    is_int,
)
from db.store import Change, GameStart, LogEntry, SeatRow

SeedSource = Callable[[], int]


def seat_rows(seats: Iterable[Seat]) -> tuple[SeatRow, ...]:
    return tuple(SeatRow(n, s.user_id, s.computer_level) for n, s in enumerate(seats))


def join(table: Table, user_id: int, version: int, at: float) -> Write:
    """The lowest free seat in the lobby, else a place among the spectators.
    Whatever the table looked like when the button was drawn."""
    if not table.status.is_open:
        raise refusals.TableClosed()
    if table.seat_of(user_id) is not None or user_id in table.spectators:
        raise refusals.AlreadyJoined()
    check_not_ahead(table, version)
    free = [n for n, seat in enumerate(table.seats) if seat.is_empty]
    if table.status is TableStatus.LOBBY and free:
        seats = list(table.seats)
        seats[free[0]] = Seat(user_id=user_id)
        return Write(
            LogEntry(JOIN, user_id, {"seat": free[0]}, at),
            Change(seats=seat_rows(seats)),
            seats=seats,
        )
    if not table.options.watchers:
        raise refusals.ClosedToWatchers()
    return Write(
        LogEntry(WATCH, user_id, {}, at),
        Change(add_spectator=user_id),
        spectators=[*table.spectators, user_id],
    )


def leave(table: Table, user_id: int, version: int, at: float) -> Write:
    """A seat given up before the start, or a spectator gone; any version."""
    seat = table.seat_of(user_id)
    if seat is None and user_id not in table.spectators:
        raise refusals.NotSeated()
    if seat is not None and user_id == table.host_id:
        raise refusals.HostCannotLeave()
    if seat is not None and table.status is not TableStatus.LOBBY:
        if table.status is TableStatus.PLAYING:
            raise refusals.AlreadyStarted(N_("the game has started: resign to leave it"))
        raise refusals.TableClosed()
    check_not_ahead(table, version)
    if seat is None:
        return Write(
            LogEntry(UNWATCH, user_id, {}, at),
            Change(remove_spectator=user_id),
            spectators=[u for u in table.spectators if u != user_id],
        )
    seats = list(table.seats)
    seats[seat] = EMPTY_SEAT
    return Write(
        LogEntry(LEAVE, user_id, {"seat": seat}, at),
        Change(seats=seat_rows(seats)),
        seats=seats,
    )


def choose_partner(
    table: Table,
    user_id: int,
    chosen: int,
    version: int,
    at: float,
) -> Write:
    check_host(table, user_id)
    check_lobby(table)
    if table.solo:
        raise refusals.NoTeams()
    if any(seat.is_empty for seat in table.seats):
        raise refusals.NotEnoughPlayers(
            N_("all four seats must be taken before you pick a partner")
        )
    if not is_int(chosen) or not 1 <= chosen <= 3:
        raise refusals.BadPartner()
    check_version(table, version)
    others = [n for n in (1, 2, 3) if n != chosen]
    old = table.seats
    seats = [old[0], old[others[0]], old[chosen], old[others[1]]]
    return Write(
        LogEntry(PARTNER, user_id, {"partner_seat": chosen}, at),
        Change(seats=seat_rows(seats)),
        seats=seats,
    )


def add_computers(table: Table, user_id: int, version: int, level: str, at: float) -> Write:
    check_host(table, user_id)
    check_lobby(table)
    if not isinstance(level, str) or level not in player_levels():
        raise refusals.Malformed(
            f"unknown computer player level {level!r}: choose one of {', '.join(player_levels())}"
        )
    empty = [n for n, seat in enumerate(table.seats) if seat.is_empty]
    if not empty:
        raise refusals.TableFull()
    check_version(table, version)
    seats = [Seat(computer_level=level) if seat.is_empty else seat for seat in table.seats]
    return Write(
        LogEntry(COMPUTERS, user_id, {"level": level, "seats": empty}, at),
        Change(seats=seat_rows(seats)),
        seats=seats,
    )


def house_rule(table: Table, user_id: int, key: str, value: str, version: int, at: float) -> Write:
    """The host sets one house rule (``key=value``, bot.game.house's text)
    before the start; the whole rule set is validated again."""
    check_host(table, user_id)
    check_lobby(table)
    if key not in KEYS or not isinstance(value, str):
        raise refusals.Malformed(f"unknown house rule {key!r}")
    check_version(table, version)
    try:
        options = table.options.with_house_rule(key, value)
    except HouseRuleError as exc:
        raise refusals.house_refusal(exc) from None
    return Write(
        LogEntry(HOUSE, user_id, {"key": key, "value": value, "house": options.house.text}, at),
        Change(options=options.model_dump()),
        options=options,
    )


def start(table: Table, user_id: int, version: int, at: float, seed: SeedSource) -> Write:
    check_host(table, user_id)
    check_lobby(table)
    if any(seat.is_empty for seat in table.seats):
        raise refusals.NotEnoughPlayers(N_("four players must be seated to start"))
    check_version(table, version)
    return _new_game(table, START, user_id, list(table.seats), at, seed())


def rematch(
    table: Table,
    user_id: int,
    version: int,
    swap_teams: bool,
    at: float,
    seed: SeedSource,
    *,
    channel_busy: bool,
) -> Write:
    """The next game at a finished table; ``channel_busy`` says whether
    another table is open in its channel."""
    check_member(table, user_id)
    if not table.options.rematch:
        raise refusals.NoRematch()
    if table.status is not TableStatus.FINISHED:
        if table.status is TableStatus.CANCELLED:
            raise refusals.TableClosed()
        if is_int(version) and version < table.game_version and table.game_number > 1:
            raise refusals.RematchStarted()  # drawn at the end of the game before this one
        raise refusals.NotOver(N_("the game is not over yet: a rematch comes after it"))
    if not isinstance(swap_teams, bool):
        raise refusals.Malformed("swap_teams must be true or false")
    if swap_teams and table.solo:
        raise refusals.NoTeams()
    check_version(table, version)
    if channel_busy:
        raise refusals.ChannelBusy()
    old = table.seats
    seats = [old[0], old[2], old[1], old[3]] if swap_teams else list(old)
    return _new_game(table, REMATCH, user_id, seats, at, seed(), swap_teams=swap_teams)


def cancel(table: Table, user_id: int, version: int, at: float) -> Write:
    check_host(table, user_id)
    check_lobby(table)
    check_version(table, version)
    return Write(
        LogEntry(CANCEL, user_id, {}, at),
        Change(status=TableStatus.CANCELLED.value),
        status=TableStatus.CANCELLED,
    )


def _new_game(
    table: Table,
    kind: str,
    user_id: int,
    seats: list[Seat],
    at: float,
    seed: int,
    **extra: Any,
) -> Write:
    rules = table.options.rules()
    game = Game.new(rules, seed, started_at=at)
    number = table.game_number + 1
    rows = seat_rows(seats)
    payload = {"seed": seed, "game_no": number, "seats": [_seat_json(s) for s in seats]}
    payload.update(extra)
    return Write(
        LogEntry(kind, user_id, payload, at),
        Change(
            status=TableStatus.PLAYING.value,
            seats=rows if tuple(seats) != table.seats else None,
            game_start=GameStart(
                game_no=number,
                preset=rules.preset,
                options=rules.model_dump(mode="json"),
                seed=seed,
                started_at=at,
                seats=rows,
                hints=table.options.hints,
            ),
        ),
        status=TableStatus.PLAYING,
        seats=seats,
        game=game,
        new_game=True,
    )


def _seat_json(seat: Seat) -> dict[str, Any]:
    # "bot_level": the logged key (and column) of every earlier version.
    return {"user_id": seat.user_id, "bot_level": seat.computer_level}
