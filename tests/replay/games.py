"""Finished games for the replay tests, played by computer players."""

from __future__ import annotations

from bot.ai.base import make_player
from bot.game.house import apply as apply_house
from bot.game.rules import preset
from bot.game.state import Game
from bot.game.types import Action, ActionKind, Phase
from bot.game.view import view_of
from bot.stats.records import FinishedGame, SeatPlayer

USERS = (101, 102, 103, 104)


def played_game(
    preset_name: str = "standard", seed: int = 3, house: str = "", claim_in_hand: int | None = None
) -> Game:
    """A whole game of heuristic players; with ``claim_in_hand``, the player
    on lead at that hand's tenth trick claims the rest and is accepted."""
    rules = preset(preset_name)
    if house:
        rules = apply_house(rules, house)
    game = Game.new(rules, seed)
    players = [make_player("heuristic", seed + s) for s in range(4)]
    at = 0.0
    while not game.over:
        at += 1.0
        if game.phase is Phase.HAND_OVER:
            game.next_hand(game.dealer, at)
            continue
        if (
            claim_in_hand == game.hand_number
            and game.phase is Phase.PLAYING
            and len(game.tricks) == 9
            and not game.trick
        ):
            claimer = game.to_act
            game.apply(Action(ActionKind.CLAIM_REST, claimer, 0, at))
            game.apply(Action(ActionKind.ACCEPT_REST, claimer ^ 1, 0, at))
            game.apply(Action(ActionKind.ACCEPT_REST, claimer ^ 3, 0, at))
            continue
        seat = game.to_act
        action = players[seat].decide(view_of(game, seat))
        game.apply(Action(action.kind, action.seat, action.value, at))
    return game


def finished(game: Game, game_id: int = 7, guild_id: int = 1) -> FinishedGame:
    return FinishedGame.from_game(
        game,
        guild_id=guild_id,
        game_id=game_id,
        seats=tuple(SeatPlayer(user_id=u) for u in USERS),
        finished_at=1000.0,
    )
