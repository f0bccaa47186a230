"""The table service: every table's lifecycle, from the lobby to the rematch.

Each public action takes the acting user's id and the table ``version`` the
click was made against, and either commits exactly one log row (plus the
version bump and whatever rows the action derives) before returning the new
:class:`~bot.tables.model.Table`, or raises and writes nothing:

* the core's :class:`~bot.refusals.Refusal` (unknown table, not seated, stale, ...);
* the engine's :class:`~bot.game.refusals.IllegalAction` for rules refusals.

Checks run in this order: who is acting (seated, spectator, host), then the
version, then the phase and the rules. The version refuses a click only if
what the players see changed since it was drawn: a spectator coming or
going does not count. Joining, leaving and looking at one's cards mean the
same whatever the table showed: they apply to the table as it is now and
never ask to retry.

Actions on one table run one at a time (a lock per table); each makes the
table's next frozen value (:mod:`bot.tables.step`), kept once committed.

After each commit, outside the table lock, every subscriber is awaited with
``(table, event)``; ``event`` is the log kind of the action (see
:mod:`bot.tables.kinds`). A subscriber's exception is logged and never
undoes the action. Two actions on one table may notify in either order:
subscribers compare ``table.version``.

Behind it: ``registry`` (tables in memory: first touch, commit), ``step``
(an action's step, the checks, the game's actions), ``lobby`` and
``seat_requests`` (the other actions).
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Literal

from bot import refusals
from bot.game.types import Action, ActionKind
from bot.tables import lobby, seat_requests
from bot.tables.kinds import COMPUTER_KINDS, CREATE, REMATCH, START
from bot.tables.model import EMPTY_SEAT, OpenTable, Seat, Table, TableOptions, TableStatus
from bot.tables.registry import Owns, Planner, TableRegistry
from bot.tables.step import Act, Write, card_value, check_id, engine_write, is_int, moderator_write
from db.store import ChannelTaken, LogEntry, Store

__all__ = ["REMATCH", "START", "Planner", "TableService", "random_seed"]

log = logging.getLogger(__name__)

Clock = Callable[[], float]
SeedSource = Callable[[], int]
Listener = Callable[[Table, str], Awaitable[None]]


DEFAULT_OPTIONS = TableOptions()  # a table opened with no choice made


def random_seed() -> int:
    """A fresh game seed (fits SQLite's signed 64-bit integers)."""
    return secrets.randbits(62)


class TableService:
    """Create with ``await TableService.open(store)``: tables load on first touch."""

    def __init__(
        self,
        store: Store,
        *,
        now: Clock = time.time,
        seed_source: SeedSource = random_seed,
        owns: Owns | None = None,
    ) -> None:
        self.store = store
        self.now = now
        self.seed_source = seed_source
        self._registry = TableRegistry(store, owns)
        self._listeners: list[Listener] = []

    @classmethod
    async def open(
        cls,
        store: Store,
        *,
        now: Clock = time.time,
        seed_source: SeedSource = random_seed,
        owns: Owns | None = None,
    ) -> TableService:
        """A service over ``store`` that knows every lobby and playing table,
        each, once asked for, as it was (seats, spectators, version, game).
        ``owns`` (a server id's test) limits it to the servers of this
        process's shards; without it, it serves every server."""
        service = cls(store, now=now, seed_source=seed_source, owns=owns)
        await service._registry.resume()
        return service

    # -- subscription ----------------------------------------------------------

    def plan_with(self, planner: Planner | None) -> None:
        """Have each action's step plan the deadlines of the table it leaves
        with ``planner`` (the turn clock), written in the action's one
        transaction and then handed to ``planner.adopt``; None: no deadlines."""
        self._registry.planner = planner

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Await ``listener(table, event)`` after every committed action.
        Returns a function that unsubscribes it."""
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    async def _notify(self, table: Table, event: str) -> None:
        for listener in list(self._listeners):
            try:
                await listener(table, event)
            except Exception:
                log.exception("a table listener failed on %s at table %d", event, table.id)

    # -- lookups ---------------------------------------------------------------

    async def get(self, table_id: int) -> Table:
        """The table's current snapshot (any status). Raises UnknownTable."""
        return (await self._registry.held(table_id)).table

    async def in_channel(self, channel_id: int) -> Table | None:
        """The open (lobby or playing) table of the channel, or of the thread
        it talks in, if any."""
        table_id = self._registry.by_channel.get(channel_id)
        if table_id is None:  # a table's thread: rare, a walk over the open tables
            table_id = next((t.id for t in self.open_tables() if t.thread_id == channel_id), None)
        tables = await self._still_open([] if table_id is None else [table_id])
        return tables[0] if tables else None

    async def tables_of_user(self, user_id: int) -> list[Table]:
        """Open tables where the user has a seat."""
        return await self._still_open([t.id for t in self.open_tables() if user_id in t.user_ids])

    async def bring_in(self, table_ids: list[int]) -> None:
        await self._registry.bring_in(table_ids)  # see TableRegistry.bring_in

    async def serves(self, table_id: int) -> bool:
        """Whether the table is this process's (see :meth:`TableRegistry.serves`)."""
        return await self._registry.serves(table_id)

    def open_tables(self) -> list[OpenTable]:
        """Every open (lobby or playing) table as its stored rows tell, without
        bringing any into memory."""
        return self._registry.open_tables()

    async def unfinished(self) -> list[Table]:
        """Every open (lobby or playing) table, each brought into memory."""
        return await self._still_open([t.id for t in self.open_tables()])

    async def _still_open(self, table_ids: list[int]) -> list[Table]:
        """Those of the tables that are still open once in memory."""
        tables = [await self.get(table_id) for table_id in table_ids]
        return [table for table in tables if table.is_open]

    # -- lobby -----------------------------------------------------------------

    async def create(
        self,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        options: TableOptions = DEFAULT_OPTIONS,
    ) -> Table:
        """Open a table in the channel with the host in seat 0 (version 1).
        Raises ChannelBusy if the channel already has an open table."""
        check_id(channel_id, "channel")
        check_id(host_id, "user")
        if guild_id is not None:
            check_id(guild_id, "server")
        if not self._registry.owns(guild_id):
            raise refusals.OtherShard()
        if channel_id in self._registry.by_channel:
            raise refusals.ChannelBusy()
        at = self.now()
        seats = [Seat(user_id=host_id), EMPTY_SEAT, EMPTY_SEAT, EMPTY_SEAT]
        entry = LogEntry(
            CREATE,
            host_id,
            {"guild_id": guild_id, "channel_id": channel_id, "options": options.model_dump()},
            at,
        )
        try:
            table_id = await self.store.create_table(
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                options=options.model_dump(),
                seats=lobby.seat_rows(seats),
                entry=entry,
                language=options.language,
            )
        except ChannelTaken:
            raise refusals.ChannelBusy() from None
        table = Table(
            id=table_id,
            guild_id=guild_id,
            channel_id=channel_id,
            message_id=None,
            host_id=host_id,
            options=options,
            status=TableStatus.LOBBY,
            version=1,
            seats=(seats[0], seats[1], seats[2], seats[3]),
            spectators=(),
            game=None,
            game_number=0,
            game_id=None,
            created_at=at,
            updated_at=at,
            visible_version=1,
        )
        self._registry.add(table)
        await self._notify(table, CREATE)
        return table

    async def set_message(self, table_id: int, message_id: int | None) -> Table:
        """Remember the Discord message showing the table. Not an action: the
        version stays, so buttons already rendered remain valid; no event."""
        return await self._set_place(table_id, "message", message_id)

    async def set_thread(self, table_id: int, thread_id: int | None) -> Table:
        """Remember the thread the table talks in, or (None) that it talks in
        its channel again. Not an action, like :meth:`set_message`."""
        return await self._set_place(table_id, "thread", thread_id)

    async def _set_place(
        self, table_id: int, place: Literal["message", "thread"], place_id: int | None
    ) -> Table:
        if place_id is not None:
            check_id(place_id, place)
        held = await self._registry.held(table_id)
        async with held.lock:
            if place == "message":
                await self.store.set_message(table_id, place_id)
                held.table = replace(held.table, message_id=place_id)
            else:
                await self.store.set_thread(table_id, place_id)
                held.table = replace(held.table, thread_id=place_id)
            return held.table

    async def join(self, table_id: int, user_id: int, version: int) -> Table:
        """Take the lowest free seat in the lobby; once the seats are full (or
        the game has started) become a spectator instead. ``version`` may be
        out of date: the table as it is now decides."""
        return await self._write(table_id, user_id, version, lobby.join, user_id, version)

    async def leave(self, table_id: int, user_id: int, version: int) -> Table:
        """Give up a seat before the start, or stop watching. The host cannot
        leave (they cancel); once the game started a player resigns instead.
        ``version`` may be out of date."""
        return await self._write(table_id, user_id, version, lobby.leave, user_id, version)

    async def choose_partner(
        self, table_id: int, user_id: int, version: int, partner_seat: int
    ) -> Table:
        """The host picks the partner who will sit across (seat 2) by the seat
        they sit at now (1-3); the other two form the other team in their
        current order. Host only, lobby, four seated."""
        return await self._write(
            table_id, user_id, version, lobby.choose_partner, user_id, partner_seat, version
        )

    async def add_computers(
        self, table_id: int, user_id: int, version: int, level: str = "heuristic"
    ) -> Table:
        """Fill every empty seat with a computer player of ``level``. Host only,
        before the start."""
        return await self._write(
            table_id, user_id, version, lobby.add_computers, user_id, version, level
        )

    async def house_rule(
        self, table_id: int, user_id: int, version: int, key: str, value: str
    ) -> Table:
        """Set one house rule (``key=value`` as bot.game.house writes it).
        Host only, before the start; BadHouseRule when the rules it makes
        cannot be played."""
        return await self._write(
            table_id, user_id, version, lobby.house_rule, user_id, key, value, version
        )

    async def start(self, table_id: int, user_id: int, version: int) -> Table:
        """Deal the first hand. Host only, four seated."""
        return await self._act(
            table_id,
            user_id,
            version,
            lambda table, at: lobby.start(table, user_id, version, at, self.seed_source),
        )

    async def rematch(
        self, table_id: int, user_id: int, version: int, swap_teams: bool = False
    ) -> Table:
        """Start the next game at a finished table, by any seated player. With
        ``swap_teams`` the host's partner and the player at seat 1 trade places.
        A click that lost the race to another rematch gets RematchStarted."""

        def act(table: Table, at: float) -> Write:
            busy = table.channel_id in self._registry.by_channel
            return lobby.rematch(
                table, user_id, version, swap_teams, at, self.seed_source, channel_busy=busy
            )

        return await self._act(table_id, user_id, version, act)

    async def cancel(self, table_id: int, user_id: int, version: int) -> Table:
        """Close a table that has not started. Host only."""
        return await self._write(table_id, user_id, version, lobby.cancel, user_id, version)

    async def ask_seat(
        self, table_id: int, user_id: int, version: int, seat: int, away: frozenset[int]
    ) -> Table:
        """Ask for a computer's seat between hands (see :mod:`.seat_requests`)."""
        return await self._write(
            table_id, user_id, version, seat_requests.ask, user_id, seat, version, away
        )

    async def answer_seat(
        self, table_id: int, user_id: int, version: int, accept: bool, away: frozenset[int]
    ) -> Table:
        """The host's answer to the waiting request for a seat."""
        return await self._write(
            table_id, user_id, version, seat_requests.reply, user_id, accept, version, away
        )

    # -- the game --------------------------------------------------------------

    async def look(self, table_id: int, user_id: int, version: int) -> Table:
        """Record that the player looked at their hand (it rules out Blind Nil).
        Only where the cards are face down: a table with Blind Nil, before the
        seat bids. ``version`` may be out of date."""
        return await self._engine_act(table_id, user_id, version, ActionKind.LOOK, 0)

    async def bid(self, table_id: int, user_id: int, bid: int, version: int) -> Table:
        """Bid 1-13, NIL (0) or BLIND_NIL (-1)."""
        if not is_int(bid):
            raise refusals.Malformed("a bid is a number of tricks, or Nil")
        return await self._engine_act(table_id, user_id, version, ActionKind.BID, bid)

    async def play(self, table_id: int, user_id: int, card: int | str, version: int) -> Table:
        """Play a card: its int, or its name in the table's deck ('AS', 'BJ'),
        read under the table's lock."""

        def value(table: Table) -> int:
            return card_value(card, table.options.rules().deck.value)

        return await self._engine_act(table_id, user_id, version, ActionKind.PLAY, value)

    async def pass_cards(
        self, table_id: int, user_id: int, cards: int, version: int, hand: int
    ) -> Table:
        """Choose the cards (a mask) to pass in hand ``hand``'s Nil exchange.
        A choice made against an older version of the same exchange holds:
        the partner's pass, made meanwhile, changes nothing of it."""

        def value(table: Table) -> int:
            if not is_int(cards) or table.game is None or table.game.hand_number != hand:
                raise refusals.StaleAction()
            return cards

        return await self._engine_act(table_id, user_id, version, ActionKind.PASS, value)

    async def challenge(
        self,
        table_id: int,
        user_id: int,
        accused_user_id: int | None,
        version: int,
        *,
        accused_seat: int | None = None,
    ) -> Table:
        """Call a revoke on an opponent (a user, or ``accused_seat`` for a
        computer player). It ends the game either way."""

        def value(table: Table) -> int:
            if accused_user_id is not None:
                check_id(accused_user_id, "user")
                seat = table.seat_of(accused_user_id)
                return -1 if seat is None else seat  # the engine refuses -1
            if not is_int(accused_seat):
                raise refusals.Malformed("say whom you accuse of revoking")
            assert accused_seat is not None
            return accused_seat

        return await self._engine_act(table_id, user_id, version, ActionKind.CHALLENGE, value)

    async def next_hand(self, table_id: int, user_id: int, version: int) -> Table:
        return await self._engine_act(table_id, user_id, version, ActionKind.NEXT_HAND, 0)

    async def resign(self, table_id: int, user_id: int, version: int) -> Table:
        """Give up: the player's team loses the game."""
        return await self._engine_act(table_id, user_id, version, ActionKind.RESIGN, 0)

    async def claim_timeout(
        self, table_id: int, user_id: int, version: int, *, stand_in: bool = False
    ) -> Table:
        """Win because the other team has kept the table waiting past the turn
        limit. ``stand_in``: the caller's word that a computer takes late
        players' turns at this table, so there is nothing to claim
        (NoClaimAtStandIn)."""
        return await self._engine_act(
            table_id, user_id, version, ActionKind.CLAIM_TIMEOUT, 0, stand_in=stand_in
        )

    async def end_by_moderator(self, table_id: int, moderator_id: int, note: str) -> Table:
        """A moderator ends the table (see :func:`play.moderator_write`); the
        caller has checked they moderate its server."""
        check_id(moderator_id, "user")

        def act(table: Table, at: float) -> Write:
            return moderator_write(table, moderator_id, note, at)

        return await self._act(table_id, moderator_id, (await self.get(table_id)).version, act)

    async def claim_rest(self, table_id: int, user_id: int, version: int) -> Table:
        """Claim every trick left in the hand, on the player's turn to play:
        their cards are shown and the opponents answer (not the turn clock's
        win, :meth:`claim_timeout`)."""
        return await self._engine_act(table_id, user_id, version, ActionKind.CLAIM_REST, 0)

    async def answer_rest(self, table_id: int, user_id: int, version: int, accept: bool) -> Table:
        """An opponent's answer to a claim of the rest of the tricks; made against
        an older version of the same waiting claim, it holds (``check_this_claim``)."""
        kind = ActionKind.ACCEPT_REST if accept else ActionKind.REFUSE_REST
        return await self._engine_act(table_id, user_id, version, kind, 0)

    async def computer_act(self, table_id: int, seat: int, version: int, action: Action) -> Table:
        """A computer player's action for its own seat, through the same checks
        and commit as a person's. The action's ``at`` is replaced by the clock."""
        if not is_int(seat) or not 0 <= seat <= 3:
            raise refusals.Malformed("a seat is a number from 0 to 3")
        if not isinstance(action, Action) or action.seat != seat:
            raise refusals.Malformed("a computer player acts for its own seat")
        if action.kind not in COMPUTER_KINDS:
            raise refusals.Malformed(
                f"computer players do not {action.kind.value.replace('_', ' ')}"
            )
        return await self._engine_act(
            table_id, None, version, action.kind, action.value, computer_seat=seat
        )

    # -- internals -------------------------------------------------------------

    async def _act(
        self,
        table_id: int,
        user_id: int | None,
        version: int,
        act: Act,
    ) -> Table:
        """Make the step of ``act`` under the table's lock, commit it, then
        notify outside the lock."""
        if user_id is not None:
            check_id(user_id, "user")
        table, event = await self._registry.run(table_id, version, act, self.now)
        await self._notify(table, event)
        return table

    async def _write(
        self, table_id: int, user_id: int, version: int, plan: Callable[..., Write], *args: object
    ) -> Table:
        """The action whose write ``plan(table, *args, at)`` makes (the lobby's shape)."""
        return await self._act(table_id, user_id, version, lambda table, at: plan(table, *args, at))

    async def _engine_act(
        self,
        table_id: int,
        user_id: int | None,
        version: int,
        kind: ActionKind,
        value: int | Callable[[Table], int],
        *,
        computer_seat: int | None = None,
        stand_in: bool = False,
    ) -> Table:
        def act(table: Table, at: float) -> Write:
            return engine_write(
                table,
                user_id,
                version,
                kind,
                value,
                at,
                computer_seat=computer_seat,
                stand_in=stand_in,
            )

        return await self._act(table_id, user_id, version, act)
