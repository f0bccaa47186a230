"""The Spades rules engine: pure, deterministic, no I/O and no Discord.

Rules and action space
----------------------
Four seats; seats 0 and 2 are team 0, seats 1 and 3 team 1 (under the house
rule ``teams=solo`` each seat plays and scores on its own: :mod:`bot.game.sides`);
play moves to the next seat number. Each hand is dealt from the game's seed, the deal moving one
seat on every hand, 13 cards a seat from the rules' deck (the standard 52, or
one with jokers: :mod:`bot.game.cards`). The rules are one
:class:`~bot.game.rules.RuleSet`, a preset with the host's house rules
(:mod:`bot.game.house`). Phases:

* ``BIDDING``: from the dealer's next seat, each seat bids once: 1-13,
  :data:`NIL`, or :data:`BLIND_NIL` where the rules allow it and the seat has
  not looked at its cards (``look`` records that it has); the bidding format
  (open, Suicide, Mirror, Whiz) and a team minimum narrow the bids a seat is
  offered (:mod:`bot.game.bidding`).
* ``PASSING``: under ``nil_pass`` or ``blind_nil_pass``, a Nil bidder and its
  partner each ``pass`` that many cards to the other, face down, at once and
  within one wait from the last bid (:mod:`bot.game.passing`); skipped when
  no side has exactly one Nil.
* ``PLAYING``: 13 tricks. The dealer's next seat leads the first under the
  rules' first-lead option; players follow suit; spades trump; nobody leads a
  spade before spades are broken (by any spade played, or only by one played
  off suit, as the rules say) unless they hold nothing else. Where revokes
  are allowed an off-suit card is accepted and remembered, and an opponent may
  ``challenge`` until the next hand starts.
* ``HAND_OVER``: the hand is scored; ``next_hand`` deals the next one.
* ``GAME_OVER``: a side reached the target or the losing score, a revoke
  challenge settled the game, a player resigned, or a timeout was claimed.

The game itself is :class:`bot.game.state.Game`.
"""

# First of all: whether the compiled engine modules may run (see native.py).
import bot.game.native  # noqa: F401

# isort: split
from bot.game.cards import card_name, cards_of, mask_of, parse_card, parse_cards
from bot.game.record import HandRecord
from bot.game.refusals import IllegalAction
from bot.game.rules import PRESETS, RuleSet, preset
from bot.game.scoring import BLIND_NIL, NIL, score_hand
from bot.game.state import Game
from bot.game.trick import Trick
from bot.game.types import (
    ENGINE_KINDS,
    Action,
    ActionKind,
    EndReason,
    GameResult,
    Phase,
    team_of,
)
from bot.game.view import PlayerView, view_of

__all__ = [
    "BLIND_NIL",
    "ENGINE_KINDS",
    "NIL",
    "PRESETS",
    "Action",
    "ActionKind",
    "EndReason",
    "Game",
    "GameResult",
    "HandRecord",
    "IllegalAction",
    "Phase",
    "PlayerView",
    "RuleSet",
    "Trick",
    "card_name",
    "cards_of",
    "mask_of",
    "parse_card",
    "parse_cards",
    "preset",
    "score_hand",
    "team_of",
    "view_of",
]
