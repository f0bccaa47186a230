"""Finished games for the statistics tests, played by random computer players."""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.ai.base import make_player
from bot.game.rules import RuleSet, preset
from bot.game.state import Game, Phase
from bot.game.view import view_of
from bot.stats.records import FinishedGame, SeatPlayer, human


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
        game.apply(type(action)(action.kind, action.seat, action.value, at))
    return game


def revoking_game(seed: int, rules: RuleSet | None = None) -> tuple[Game, int]:
    """A game stopped just after a seat revoked; returns it and the revoker."""
    rng = random.Random(seed)
    game = Game.new(rules or preset("standard"), seed)
    players = [make_player("random", seed * 4 + seat) for seat in range(4)]
    at = 0.0
    while True:
        at += 30.0
        if game.over:
            game = Game.new(game.rules, rng.randrange(2**40))
            continue
        if game.phase is Phase.HAND_OVER:
            game.next_hand(game.dealer, at)
            continue
        seat = game.to_act
        if game.phase is Phase.PLAYING and game.trick:
            off_suit = game.playable_mask(seat) & ~game.legal_play_mask(seat)
            if off_suit:
                card = (off_suit & -off_suit).bit_length() - 1
                game.play(seat, card, at)
                return game, seat
        action = players[seat].decide(view_of(game, seat))
        game.apply(type(action)(action.kind, action.seat, action.value, at))


def finish(
    game: Game,
    game_id: int,
    seats: Sequence[SeatPlayer],
    guild_id: int = 1,
    finished_at: float | None = None,
) -> FinishedGame:
    return FinishedGame.from_game(
        game,
        guild_id=guild_id,
        game_id=game_id,
        seats=seats,
        finished_at=finished_at if finished_at is not None else 1_000_000.0 + game_id,
    )


def random_game(
    seed: int,
    game_id: int,
    seats: Sequence[SeatPlayer],
    guild_id: int = 1,
    rules: RuleSet | None = None,
) -> tuple[FinishedGame, Game]:
    game = play_out(Game.new(rules or preset("standard"), seed), seed)
    return finish(game, game_id, seats, guild_id), game
