"""Computer players. Each sees a :class:`~bot.game.view.PlayerView` only and
returns an action for its seat."""

from __future__ import annotations

from bot.ai.base import Player, RandomPlayer, make_player, player_levels

__all__ = ["Player", "RandomPlayer", "make_player", "player_levels"]
