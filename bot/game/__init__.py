"""The Spades rules engine: pure, deterministic, no I/O and no Discord."""

# First of all: whether the compiled engine modules may run (see native.py).
import bot.game.native  # noqa: F401

# isort: split
from bot.game.cards import card_name, cards_of, mask_of, parse_card, parse_cards
from bot.game.errors import IllegalAction
from bot.game.rules import PRESETS, RuleSet, preset
from bot.game.scoring import BLIND_NIL, NIL, score_hand
from bot.game.state import (
    Action,
    ActionKind,
    EndReason,
    Game,
    GameResult,
    HandRecord,
    Phase,
    Trick,
    team_of,
)
from bot.game.view import PlayerView, view_of

__all__ = [
    "BLIND_NIL",
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
