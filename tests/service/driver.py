"""Deterministic game drivers for the table service tests: a fake clock, a
counter of seeds, and random but reproducible players acting through the
service exactly as the Discord layer and the computer players would."""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.ai.base import Player, make_player
from bot.game.cards import cards_of, mask_of
from bot.game.playout import random_card
from bot.game.types import Phase
from bot.game.view import view_of
from bot.tables.model import Table, TableOptions, TableStatus
from bot.tables.service import TableService

HOST = 1000
#: Users who join after the host, in this order.
GUESTS = (1001, 1002, 1003)


class FakeClock:
    """Epoch seconds that move ``step`` on every reading."""

    def __init__(self, start: float = 1_800_000_000.0, step: float = 1.5) -> None:
        self.t = start
        self.step = step

    def __call__(self) -> float:
        self.t += self.step
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


def seed_counter(first: int = 7) -> Callable[[], int]:
    state = [first - 1]

    def next_seed() -> int:
        state[0] += 1
        return state[0]

    return next_seed


class Chooser:
    """Picks the next action for whoever the table waits on.

    Humans bid and play at random; with ``revoke_rate`` they sometimes play
    any card the engine accepts (a revoke where revokes are allowed), look at
    their cards before bidding in Blind Nil tables, and call a revoke now and
    then with ``challenge_rate``. Computer seats use their level's player.
    """

    def __init__(self, seed: int, *, revoke_rate: float = 0.0, challenge_rate: float = 0.0) -> None:
        self.rng = random.Random(seed)
        self.players: dict[tuple[int, int, str], Player] = {}
        self.revoke_rate = revoke_rate
        self.challenge_rate = challenge_rate

    async def step(self, service: TableService, table: Table) -> Table:
        """Make one move at a playing table and return the new snapshot."""
        game = table.game
        assert game is not None and table.status is TableStatus.PLAYING
        rng = self.rng
        version = table.version
        if (
            self.challenge_rate
            and game.rules.revokes == "allowed"
            and (game.tricks or game.trick)
            and rng.random() < self.challenge_rate
        ):
            seat = rng.randrange(4)
            if table.seats[seat].is_human:
                accused = (seat + 1 + 2 * rng.randrange(2)) & 3
                user = table.seats[seat].user_id
                assert user is not None
                return await service.challenge(
                    table.id, user, table.seats[accused].user_id, version, accused_seat=accused
                )
        waiting = game.waited_on()
        if waiting is None:  # the hand is over: anyone seated deals the next
            return await service.next_hand(table.id, HOST, version)
        seat_no = waiting
        player_seat = table.seats[seat_no]
        view = view_of(game, seat_no)
        if player_seat.is_computer:
            assert player_seat.computer_level is not None
            key = (table.id, seat_no, player_seat.computer_level)
            player = self.players.get(key)
            if player is None:
                player = self.players[key] = make_player(key[2], rng.randrange(1 << 30))
            return await service.computer_act(table.id, seat_no, version, player.decide(view))
        user = player_seat.user_id
        assert user is not None
        if game.phase is Phase.BIDDING:
            if game.rules.blind_nil and not game.looked[seat_no] and rng.random() < 0.3:
                return await service.look(table.id, user, version)
            bids = list(view.legal_bids)
            if -1 in bids and rng.random() < 0.5:
                return await service.bid(table.id, user, -1, version)
            return await service.bid(
                table.id, user, rng.choice([b for b in bids if b >= 0]), version
            )
        if game.phase is Phase.PASSING:  # any of its cards, as many as the exchange asks
            cards = rng.sample(cards_of(view.hand), view.pass_count)
            hand = game.hand_number
            return await service.pass_cards(table.id, user, mask_of(cards), version, hand)
        mask = view.playable_cards if rng.random() < self.revoke_rate else view.legal_cards
        return await service.play(table.id, user, random_card(mask, rng), version)


def waited_user(table: Table, after: int = 0) -> int:
    """The user the game waits on (``after`` = 1: the next one round the table)."""
    assert table.game is not None
    seat = table.game.waited_on()
    assert seat is not None
    user = table.seats[(seat + after) & 3].user_id
    assert user is not None
    return user


async def seated_table(
    service: TableService,
    *,
    channel: int = 500,
    humans: int = 4,
    computer_level: str = "random",
    **options: object,
) -> Table:
    """A lobby table with the host and ``humans - 1`` guests seated and the
    remaining seats filled with computer players."""
    table = await service.create(1, channel, HOST, TableOptions.chosen(**options))
    for guest in GUESTS[: humans - 1]:
        table = await service.join(table.id, guest, table.version)
    if humans < 4:
        table = await service.add_computers(table.id, HOST, table.version, computer_level)
    return table


async def play_to_end(service: TableService, table: Table, chooser: Chooser) -> Table:
    while table.status is TableStatus.PLAYING:
        table = await chooser.step(service, table)
    return table
