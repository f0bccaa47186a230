"""One action's step: from (table, action, now) to the table it leaves, its
log entry and its deadlines.

An action is a pure validation (:data:`Act`): given the frozen
:class:`~bot.tables.model.Table` the service holds and the time, it raises
the :mod:`bot.refusals` refusal that explains itself to the person who
clicked, or says what the action writes (a :class:`Write`). :func:`step`
runs it under the table's lock and gives the next value, the log entry and
the deadlines that value calls for (the turn clock's :data:`Plan`); the
store writes the entry and the deadlines in one transaction, and the
service then keeps the value. Nothing changes in place: a refused action or
a failed commit leaves the table the service holds as it was.

Here too: the checks every action shares (ids, versions, who is acting,
the phase) and the game's own actions, which the engine decides on a copy
of its state (``IllegalAction`` leaves the table's game as it was).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from bot import refusals
from bot.game.cards import CARD_COUNT, parse_card
from bot.game.sides import side_of, solo
from bot.game.state import Game
from bot.game.types import Action, ActionKind
from bot.tables.kinds import CANCEL, SEAT_ASK, UNSEEN_KINDS
from bot.tables.model import Seat, SeatRequest, Table, TableOptions, TableStatus
from db.sql import Deadline
from db.store import Change, GameEnd, LogEntry, SeatOutcome

CLAIM_REST = ActionKind.CLAIM_REST.value
#: The answers to a claim of the rest (see :func:`check_this_claim`).
REST_ANSWERS = frozenset({ActionKind.ACCEPT_REST, ActionKind.REFUSE_REST})


def pending_after(pending: SeatRequest | None, entry: LogEntry) -> SeatRequest | None:
    """The request for a seat waiting once ``entry`` is logged (see
    :mod:`bot.tables.seat_requests`): a new request, or the one before while
    only spectators come and go; anything else (the host's answer, the next
    deal, the end of the game) settles it."""
    if entry.kind == SEAT_ASK and entry.actor is not None:
        return SeatRequest(entry.actor, int(entry.payload["seat"]))
    return pending if entry.kind in UNSEEN_KINDS else None


def last_claim(entries: Sequence[LogEntry]) -> int | None:
    """The version of the last claim of the rest in a game's log entries (a
    resumed table's ``claim_version``)."""
    return next((e.seq for e in reversed(entries) if e.kind == CLAIM_REST), None)


def closing_note(entry: LogEntry) -> str | None:
    """A moderator's reason for closing a table in its lobby, read from the
    closing log entry (the host's own close gives none)."""
    note = entry.payload.get("note") if entry.kind == CANCEL else None
    return note if isinstance(note, str) else None


@dataclasses.dataclass(slots=True)
class Write:
    """A validated action: its log entry, what the store changes beside the
    log, and what changes in the table (None: that part stays)."""

    entry: LogEntry
    change: Change | None = None
    status: TableStatus | None = None
    seats: list[Seat] | None = None
    spectators: list[int] | None = None
    game: Game | None = None  # a new engine state, never the table's own
    new_game: bool = False  # a start or rematch: the game number moves on
    options: TableOptions | None = None  # the lobby's house rules changed


#: An action at a table: its validation, from the table and the time it is
#: made at (epoch seconds) to what it writes; a refusal changes nothing.
Act = Callable[[Table, float], Write]

#: The complete set of deadlines a table calls for as an action leaves it,
#: at a time (the turn clock's plan: it reads the clock's memory, writes nothing).
Plan = Callable[[Table, float], tuple[Deadline, ...]]


@dataclasses.dataclass(frozen=True, slots=True)
class Step:
    """What one action makes: the next table (a new game's stored id is not
    known before the write: None until the store tells it), the log entry,
    what the store changes beside the log (the deadlines among it), and the
    deadlines (None: no plan, the stored ones stay)."""

    table: Table
    entry: LogEntry
    change: Change | None
    deadlines: tuple[Deadline, ...] | None
    new_game: bool


def step(table: Table, act: Act, now: float, plan: Plan | None = None) -> Step:
    """Validate ``act`` at ``table`` at ``now`` and make its step: one version on."""
    write = act(table, now)
    after = _next(table, write)
    change = write.change
    deadlines = None if plan is None else plan(after, now)
    if deadlines is not None:
        change = dataclasses.replace(change or Change(), deadlines=deadlines)
    return Step(after, write.entry, change, deadlines, write.new_game)


def _next(table: Table, write: Write) -> Table:
    version = table.version + 1
    changed: dict[str, Any] = {}
    if write.options is not None:
        changed["options"] = write.options
    if write.status is not None:
        changed["status"] = write.status
    if write.seats is not None:
        changed["seats"] = _four(write.seats)
    if write.spectators is not None:
        changed["spectators"] = tuple(write.spectators)
    if write.game is not None:
        changed["game"] = write.game
    if write.new_game:
        changed.update(game_number=table.game_number + 1, game_id=None, game_version=version)
        changed["claim_version"] = None  # a new game: no claim yet
    if write.entry.kind == CLAIM_REST:
        changed["claim_version"] = version
    if write.entry.kind not in UNSEEN_KINDS:
        changed["visible_version"] = version
    return dataclasses.replace(
        table,
        version=version,
        updated_at=write.entry.at,
        seat_request=pending_after(table.seat_request, write.entry),
        closing_note=closing_note(write.entry) or table.closing_note,
        **changed,
    )


def _four(seats: list[Seat]) -> tuple[Seat, Seat, Seat, Seat]:
    return (seats[0], seats[1], seats[2], seats[3])


# -- the checks every action shares ----------------------------------------


def is_int(value: object) -> bool:
    return type(value) is int  # bool is not a number of anything here


def check_id(value: object, what: str) -> None:
    if not is_int(value) or not 0 <= value < 2**63:  # type: ignore[operator]
        raise refusals.Malformed(f"that is not a valid {what} id")


def check_version(table: Table, version: object) -> None:
    """Refuse a click made on a view of the table that the players' side of it
    has changed since: a spectator coming or going does not count, so any
    version from the last visible change up to the current one is accepted.
    ``table.visible_version`` must be known when ``version`` is older than the
    current one (``TableRegistry.run`` sees to it)."""
    check_not_ahead(table, version)
    assert isinstance(version, int)
    if version == table.version:
        return
    assert table.visible_version is not None
    if version < table.visible_version:
        raise refusals.StaleAction()


def check_not_ahead(table: Table, version: object) -> None:
    """The check of actions whose intent does not depend on what was shown
    (join, leave, look): any version will do, but it must be a version the
    table has had."""
    if not is_int(version):
        raise refusals.Malformed("the table version is missing or not a number")
    assert isinstance(version, int)
    if version > table.version:
        raise refusals.StaleAction()


def check_this_game(table: Table, version: object) -> None:
    """The check of a choice that holds through the partner's changes of its
    exchange (the Nil pass): any version of the table's current game."""
    check_not_ahead(table, version)
    assert isinstance(version, int)
    if version < table.game_version:
        raise refusals.StaleAction()


def check_this_claim(table: Table, version: object) -> None:
    """The check of an answer to a claim of the rest: each opponent decides on
    their own, so another's answer, made meanwhile, changes nothing of it. Any
    version since the claim holds while the claim waits; an answer to a claim
    no longer waiting (refused, or followed by another) is stale as any click."""
    claimed = table.claim_version
    if table.game is not None and table.game.rest.waiting and claimed is not None:
        check_not_ahead(table, version)
        assert isinstance(version, int)
        if version >= claimed:
            return
    check_version(table, version)


def check_host(table: Table, user_id: int) -> None:
    if user_id != table.host_id:
        if table.seat_of(user_id) is None and user_id not in table.spectators:
            raise refusals.NotSeated()
        raise refusals.HostOnly()


def check_lobby(table: Table) -> None:
    if table.status is TableStatus.LOBBY:
        return
    if table.status is TableStatus.PLAYING:
        raise refusals.AlreadyStarted()
    raise refusals.TableClosed()


def check_member(table: Table, user_id: int) -> int:
    """The user's seat; Spectator or NotSeated if they have none."""
    seat = table.seat_of(user_id)
    if seat is None:
        if user_id in table.spectators:
            raise refusals.Spectator()
        raise refusals.NotSeated()
    return seat


def card_value(card: object, deck: str = "standard") -> int:
    """A card int, or a card's name in ``deck`` (the names of the jokers
    decks' top trumps mean other ints than in the standard deck)."""
    if is_int(card):
        assert isinstance(card, int)
        if not 0 <= card < CARD_COUNT:
            raise refusals.Malformed(f"{card} is not a card")
        return card
    if isinstance(card, str):
        try:
            return parse_card(card, deck)
        except ValueError:
            raise refusals.Malformed(f"{card[:10]!r} is not a card") from None
    raise refusals.Malformed("that is not a card")


# -- the game's actions ----------------------------------------------------


def engine_write(
    table: Table,
    user_id: int | None,
    version: int,
    kind: ActionKind,
    value: int | Callable[[Table], int],
    at: float,
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
    elif kind is ActionKind.PASS:
        check_this_game(table, version)  # the hand is checked with the cards
    elif kind in REST_ANSWERS:
        check_this_claim(table, version)
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


def moderator_write(table: Table, moderator_id: int, note: str, at: float) -> Write:
    """A moderator of the server ends the table, whatever its state: a game
    in progress ends with nobody winning (nothing is rated); a table still
    in its lobby is closed. ``note`` is their reason, logged with it."""
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
    scores = tuple(game.scores)
    game_id = str(table.game_id)
    outcomes = []
    for seat in range(4):
        side = side_of(game.rules, seat)
        if result.winner is None:
            outcome = "draw"
        elif result.winner == side:
            outcome = "won"
        else:
            outcome = "lost"
        others = max(score for other, score in enumerate(scores) if other != side)
        outcomes.append(SeatOutcome(seat, outcome, scores[side], others))
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
        solo=solo(game.rules),
    )
