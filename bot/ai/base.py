"""The interface between the table and a computer player: a view in, an action out."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from bot.game.cards import cards_of, mask_of
from bot.game.playout import random_card
from bot.game.types import Action, ActionKind, Phase
from bot.game.view import PlayerView


class Player(Protocol):
    """A computer player. ``decide`` is only called when the view's seat must
    act (``view.my_turn`` in bidding, a Nil pass or play). Returning a ``look`` action is
    allowed while the seat has not looked at its cards."""

    def decide(self, view: PlayerView) -> Action: ...


class RandomPlayer:
    """Random legal actions: bids 1-13 or Nil, follows suit, never revokes."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def decide(self, view: PlayerView) -> Action:
        if view.phase is Phase.BIDDING:
            bids = [b for b in view.legal_bids if b >= 0]
            return Action(ActionKind.BID, view.seat, self.rng.choice(bids))
        if view.phase is Phase.PASSING:
            cards = self.rng.sample(cards_of(view.hand), view.pass_count)
            return Action(ActionKind.PASS, view.seat, mask_of(cards))
        return Action(ActionKind.PLAY, view.seat, random_card(view.legal_cards, self.rng))


PlayerFactory = Callable[[int | None], Player]
#: A level whose thinking time is configurable: seed and seconds per decision.
ThinkingFactory = Callable[[int | None, float], Player]

_LEVELS: dict[str, PlayerFactory] = {"random": RandomPlayer}
#: Levels no longer offered, each with the level that now plays in its place,
#: so that a seat stored or a setting written with the old name still loads.
RETIRED_LEVELS: dict[str, str] = {"heuristic-v1": "heuristic"}
_THINKING: dict[str, ThinkingFactory] = {}


def register_level(
    name: str, factory: PlayerFactory, thinking: ThinkingFactory | None = None
) -> None:
    """Offer level ``name``; ``thinking``, when given, builds it with a time
    budget of its settings' choosing (see :func:`make_player`)."""
    _LEVELS[name] = factory
    if thinking is not None:
        _THINKING[name] = thinking


def player_levels() -> list[str]:
    _load_builtin_levels()
    return list(_LEVELS)


def current_level(level: str) -> str:
    """The level that plays for ``level``: itself, or a retired level's successor."""
    return RETIRED_LEVELS.get(level, level)


def known_level(level: str) -> str:
    """The level that plays for ``level`` (a retired level's successor);
    ValueError naming the choices when there is none, so a setting is refused at start-up."""
    level = current_level(level)
    levels = player_levels()
    if level not in levels:
        raise ValueError(f"unknown computer level {level!r}; choose one of {', '.join(levels)}")
    return level


def make_player(level: str, seed: int | None = None, time_budget: float | None = None) -> Player:
    """A player of ``level`` (a retired level's successor for a retired
    name). ``time_budget`` (seconds per decision) applies to the levels
    registered as configurable (``expert``); the others keep their own pace."""
    _load_builtin_levels()
    level = current_level(level)
    if time_budget is not None and level in _THINKING:
        return _THINKING[level](seed, time_budget)
    try:
        return _LEVELS[level](seed)
    except KeyError:
        raise ValueError(
            f"unknown computer player level {level!r}: choose one of {', '.join(_LEVELS)}"
        ) from None


def _load_builtin_levels() -> None:
    """Import the stronger levels lazily: they register themselves on import.
    By name, through importlib: they import this module, and an import
    statement here would make an import cycle of the computer players."""
    import importlib

    for module in ("bot.ai.heuristic", "bot.ai.search"):
        importlib.import_module(module)
