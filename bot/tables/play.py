"""Plans of the game's actions: the engine decides, on a copy of its state.

A refused action raises the engine's ``IllegalAction`` (or a table-level
refusal) and the table's game stays as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot import refusals
from bot.game.state import Game
from bot.game.types import Action, ActionKind, team_of
from bot.tables.checks import check_member, check_not_ahead, check_version
from bot.tables.kinds import CANCEL
from bot.tables.model import Table, TableStatus
from bot.tables.step import Write
from db.store import Change, GameEnd, LogEntry, SeatOutcome

Clock = Callable[[], float]


def engine_write(
    table: Table,
    user_id: int | None,
    version: int,
    kind: ActionKind,
    value: int | Callable[[Table], int],
    now: Clock,
    *,
    computer_seat: int | None = None,
    stand_in: bool = False,
) -> Write:
    """One engine action by a person (``user_id``) or by the computer player
    at ``computer_seat``. ``stand_in``: a claim at a table where a computer takes
    late players' turns, which is refused."""
    if user_id is None:
        assert computer_seat is not None
        seat = computer_seat
        if not table.seats[seat].is_computer:
            raise refusals.NotAComputer()
    else:
        seat = check_member(table, user_id)
    if stand_in:
        raise refusals.NoClaimAtStandIn()
    if kind is ActionKind.LOOK:
        check_not_ahead(table, version)  # looking depends on nothing shown
    else:
        check_version(table, version)
    if table.game is None:
        if table.status is TableStatus.CANCELLED:
            raise refusals.TableClosed()
        raise refusals.NotStarted()
    if table.status is TableStatus.CANCELLED:  # pragma: no cover - never started
        raise refusals.TableClosed()
    if kind is ActionKind.LOOK and not _look_matters(table.game, seat):
        raise refusals.Malformed("looking at your cards matters only before a Blind Nil bid")
    number = value if isinstance(value, int) else value(table)
    at = now()
    game = table.game.copy()
    game.apply(Action(kind, seat, number, at))  # IllegalAction: nothing changed
    payload: dict[str, Any] = {"seat": seat, "value": number}
    if user_id is None:
        payload["bot"] = table.seats[seat].computer_level  # the logged key of earlier versions
    write = Write(LogEntry(kind.value, user_id, payload, at), game=game)
    if game.over:
        write.status = TableStatus.FINISHED
        write.change = Change(status=TableStatus.FINISHED.value, game_end=game_end(table, game, at))
    return write


def moderator_write(table: Table, moderator_id: int, note: str, now: Clock) -> Write:
    """A moderator of the server ends the table, whatever its state: a game
    in progress ends with nobody winning (nothing is rated); a table still
    in its lobby is closed. ``note`` is their reason, logged with it."""
    at = now()
    payload: dict[str, Any] = {"moderator": moderator_id, "note": note}
    if table.status is TableStatus.LOBBY:
        closed = TableStatus.CANCELLED
        return Write(
            LogEntry(CANCEL, moderator_id, payload, at), Change(status=closed.value), status=closed
        )
    if table.status is not TableStatus.PLAYING or table.game is None or table.game.over:
        raise refusals.TableClosed()
    game = table.game.copy()
    game.end_by_moderator(note, at)
    payload.update(seat=0, value=0)  # the fields of every engine action
    write = Write(LogEntry(ActionKind.MODERATOR_END.value, moderator_id, payload, at), game=game)
    write.status = TableStatus.FINISHED
    write.change = Change(status=TableStatus.FINISHED.value, game_end=game_end(table, game, at))
    return write


def _look_matters(game: Game, seat: int) -> bool:
    """Cards are face down only where Blind Nil can be bid, until the seat
    looks or bids (a finished game is left to the engine to refuse)."""
    return game.over or (game.rules.blind_nil and game.bids[seat] is None)


def game_end(table: Table, game: Game, at: float) -> GameEnd:
    """The stored result of the table's current game, which ``game`` ended."""
    result = game.result
    assert result is not None
    scores = (game.scores[0], game.scores[1])
    game_id = str(table.game_id)
    outcomes = []
    for seat in range(4):
        team = team_of(seat)
        if result.winner is None:
            outcome = "draw"
        elif result.winner == team:
            outcome = "won"
        else:
            outcome = "lost"
        outcomes.append(SeatOutcome(seat, outcome, scores[team], scores[1 - team]))
    return GameEnd(
        game_no=table.game_number,
        ended_at=at,
        winner=result.winner,
        reason=result.reason.value,
        reason_seat=result.seat,
        scores=scores,
        hands=[r.to_json(game_id, game.rules) for r in game.hand_records],
        seats=tuple(outcomes),
        note=result.note,
    )
