"""Finished games for the statistics tests.

:class:`Tables` plays games through the real table service and store (the
stats service subscribed as in the bot), so every game the tests count was
stored and counted the way a real one is. :func:`play_out` plays a bare
engine game for the tests that need no database.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from bot.ai.base import Player, make_player
from bot.game.rules import RuleSet, preset
from bot.game.state import Game
from bot.game.types import Action, ActionKind, Phase
from bot.game.view import view_of
from bot.stats.records import FinishedGame, SeatPlayer
from bot.stats.service import StatsService, finished_by
from bot.tables.model import Seat, Table, TableOptions, TableStatus
from bot.tables.service import TableService
from bot.tables.step import game_end
from db.store import Change, GameStart, LogEntry, SeatRow, Store

START_TIME = 1_800_000_000.0


def human(user_id: int) -> SeatPlayer:
    return SeatPlayer(user_id=user_id)


def computer(level: str) -> SeatPlayer:
    return SeatPlayer(computer_level=level)


def counted_by(stats: StatsService) -> Callable[[Table, str], Awaitable[None]]:
    """A table listener that counts the game a change finished before it
    returns: what the leaderboard cog does in the background, made
    synchronous so that a test sees the count right after the action."""

    async def count(table: Table, event: str) -> None:
        record = finished_by(table, event)
        if record is not None:
            await stats.record_game(record)

    return count


def seats_of(*user_ids: int) -> tuple[SeatPlayer, ...]:
    return tuple(human(u) for u in user_ids)


def play_out(
    game: Game, seed: int, stop_after_actions: int | None = None, level: str = "random"
) -> Game:
    """Computer play (random by default) until the game ends (or after some actions)."""
    players = [make_player(level, seed * 4 + seat) for seat in range(4)]
    at = game.started_at
    while not game.over and (stop_after_actions is None or len(game.actions) < stop_after_actions):
        at += 30.0
        if game.phase is Phase.HAND_OVER:
            game.next_hand(game.dealer, at)
            continue
        seat = game.to_act
        action = players[seat].decide(view_of(game, seat))
        game.apply(Action(action.kind, action.seat, action.value, at))
    return game


def finish(
    game: Game,
    game_id: int,
    seats: Sequence[SeatPlayer],
    guild_id: int = 1,
    finished_at: float | None = None,
) -> FinishedGame:
    """The record of a bare engine game (no database)."""
    return FinishedGame.from_game(
        game,
        guild_id=guild_id,
        game_id=game_id,
        seats=seats,
        finished_at=finished_at if finished_at is not None else START_TIME + game_id,
    )


class Clock:
    def __init__(self) -> None:
        self.t = START_TIME

    def __call__(self) -> float:
        self.t += 30.0
        return self.t


#: A scenario looks at the game before each move and may take it over:
#: it returns (kind, seat, value) for a person's move, or None.
Scenario = Callable[[Game], tuple[ActionKind, int, int] | None]


def revoke_then_challenge(game: Game) -> tuple[ActionKind, int, int] | None:
    """Revoke at the first chance, then have the next opponent call it."""
    if game.revokes:
        revoker = game.revokes[0][0]
        return ActionKind.CHALLENGE, (revoker + 1) & 3, revoker
    if game.phase is Phase.PLAYING and game.trick:
        seat = game.to_act
        off_suit = game.playable_mask(seat) & ~game.legal_play_mask(seat)
        if off_suit:
            return ActionKind.PLAY, seat, (off_suit & -off_suit).bit_length() - 1
    return None


def false_claim_after(actions: int) -> Scenario:
    def scenario(game: Game) -> tuple[ActionKind, int, int] | None:
        if len(game.actions) >= actions and game.phase is Phase.PLAYING and not game.revokes:
            seat = game.to_act
            return ActionKind.CHALLENGE, seat, (seat + 1) & 3
        return None

    return scenario


def resign_after(actions: int, seat: int) -> Scenario:
    def scenario(game: Game) -> tuple[ActionKind, int, int] | None:
        if len(game.actions) >= actions:
            return ActionKind.RESIGN, seat, 0
        return None

    return scenario


@dataclass
class Tables:
    """Plays whole games at tables of the real table service."""

    service: TableService
    stats: StatsService
    clock: Clock
    channel: int = 5000
    game_seed: int = 0  # the seed of the next game dealt (the service's seed source)
    stop_counting: Callable[[], None] = lambda: None  # unsubscribes the stats service

    def next_seed(self) -> int:
        return self.game_seed

    async def play(
        self,
        guild_id: int | None,
        users: Sequence[int],
        *,
        computers: int = 0,
        rules: str = "standard",
        target: int = 500,
        level: str = "random",
        seed: int = 0,
        scenario: Scenario | None = None,
        timeout_after: int | None = None,
        channel_id: int | None = None,
    ) -> Table:
        """Seat ``users`` (the first hosts) and ``computers`` computer players,
        deal the game of ``seed`` and play it to the end, the players deciding
        as :func:`play_out` with that seed does; returns the finished table."""
        assert len(users) + computers == 4
        self.game_seed = seed
        self.channel += 1
        service = self.service
        channel = channel_id if channel_id is not None else self.channel
        table = await service.create(
            guild_id, channel, users[0], TableOptions(preset=rules, target=target)
        )
        for user in users[1:]:
            table = await service.join(table.id, user, table.version)
        if computers:
            table = await service.add_computers(table.id, users[0], table.version, level="random")
        table = await service.start(table.id, users[0], table.version)
        return await self.play_on(table, seed, level, scenario, timeout_after)

    async def play_on(
        self,
        table: Table,
        seed: int,
        level: str = "random",
        scenario: Scenario | None = None,
        timeout_after: int | None = None,
    ) -> Table:
        """Play the table's game to its end."""
        players = [make_player(level, seed * 4 + seat) for seat in range(4)]
        while table.status is TableStatus.PLAYING:
            table = await self._move(table, players, scenario, timeout_after)
        return table

    async def _move(
        self,
        table: Table,
        players: list[Player],
        scenario: Scenario | None,
        timeout_after: int | None,
    ) -> Table:
        service = self.service
        game = table.game
        assert game is not None
        if timeout_after is not None and len(game.actions) >= timeout_after:
            waiting = game.waited_on()
            assert waiting is not None
            claimant = next(s for s in range(4) if s & 1 != waiting & 1 and table.seats[s].is_human)
            self.clock.t += game.rules.turn_limit_s + 60
            user = table.seats[claimant].user_id
            assert user is not None
            return await service.claim_timeout(table.id, user, table.version)
        planned = scenario(game) if scenario else None
        if planned is not None and table.seats[planned[1]].is_human:
            kind, seat, value = planned
            user = table.seats[seat].user_id
            assert user is not None
            if kind is ActionKind.CHALLENGE:
                return await service.challenge(
                    table.id, user, None, table.version, accused_seat=value
                )
            if kind is ActionKind.RESIGN:
                return await service.resign(table.id, user, table.version)
            return await service.play(table.id, user, value, table.version)
        if game.phase is Phase.HAND_OVER:
            seat = next(s for s in range(4) if table.seats[s].is_human)
            user = table.seats[seat].user_id
            assert user is not None
            return await service.next_hand(table.id, user, table.version)
        seat = game.to_act
        action = players[seat].decide(view_of(game, seat))
        if table.seats[seat].is_computer:
            return await service.computer_act(table.id, seat, table.version, action)
        user = table.seats[seat].user_id
        assert user is not None
        if action.kind is ActionKind.LOOK:
            return await service.look(table.id, user, table.version)
        if action.kind is ActionKind.BID:
            return await service.bid(table.id, user, action.value, table.version)
        return await service.play(table.id, user, action.value, table.version)


def seat_players(table: Table) -> tuple[SeatPlayer, ...]:
    return tuple(
        SeatPlayer(user_id=s.user_id, computer_level=s.computer_level) for s in table.seats
    )


def random_people(rng: random.Random, pool: Sequence[int]) -> list[int]:
    return rng.sample(list(pool), 4)


def rules_of(name: str) -> RuleSet:
    return preset(name)


async def store_finished_game(
    store: Store, game: Game, users: Sequence[int], channel: int, guild_id: int = 1
) -> int:
    """Write ``game`` as a table writes a game it starts and ends (the
    tables do not open solo games yet): returns its game id."""
    seats = tuple(SeatRow(seat, user) for seat, user in enumerate(users))
    table_id = await store.create_table(
        guild_id=guild_id,
        channel_id=channel,
        host_id=users[0],
        options={},
        seats=seats,
        entry=LogEntry("create", users[0], {}, START_TIME),
    )
    start = GameStart(
        1, game.rules.preset, game.rules.model_dump(mode="json"), 7, START_TIME, seats
    )
    committed = await store.commit_action(
        table_id, 1, LogEntry("start", users[0], {}, START_TIME), Change(game_start=start)
    )
    row = await store.db.fetchone("SELECT id FROM games WHERE table_id = ?", (table_id,))
    assert row is not None
    table = Table(
        id=table_id,
        guild_id=guild_id,
        channel_id=channel,
        message_id=None,
        host_id=users[0],
        options=TableOptions(),
        status=TableStatus.PLAYING,
        version=committed.version,
        seats=(Seat(users[0]), Seat(users[1]), Seat(users[2]), Seat(users[3])),
        spectators=(),
        game=game,
        game_number=1,
        game_id=int(row[0]),
        created_at=START_TIME,
        updated_at=START_TIME,
    )
    end = game_end(table, game, game.actions[-1].at)
    await store.commit_action(
        table_id, committed.version, LogEntry("end", None, {}, end.ended_at), Change(game_end=end)
    )
    return table.game_id or 0
