"""What a game writes besides its log rows: the stored engine state after
each action (see :mod:`bot.game.checkpoint`) and, when it ends, its result."""

from __future__ import annotations

import dataclasses

from bot.game import checkpoint
from bot.game.state import Game
from bot.game.types import team_of
from bot.tables.live import LiveTable, Plan
from db.store import Change, GameEnd, SeatOutcome, StateWrite


def state_format() -> str | None:
    """The stored state's format, or None where checkpoints cannot be used
    (the games are then rebuilt from their logs)."""
    return checkpoint.FINGERPRINT if checkpoint.USABLE else None


def add_state(live: LiveTable, game: Game, plan: Plan, game_no: int, *, new_game: bool) -> None:
    """Add the checkpoint of ``game`` to the planned write: the history part
    only when a hand was finished since it was last written."""
    state_format_now = state_format()
    if state_format_now is None:
        return
    marks = live.marks
    history: bytes | None = None
    keep = False
    if new_game:
        marks = (0, 0)
    elif marks is None or len(game.hand_records) != marks[0]:
        history = checkpoint.encode_history(game)
        marks = checkpoint.history_marks(game)
    else:
        keep = True
    state = StateWrite(
        game_no=game_no,
        format=state_format_now,
        current=checkpoint.encode_current(game, marks),
        history=history,
        keep_history=keep,
    )
    plan.change = dataclasses.replace(plan.change or Change(), state=state)
    plan.marks = marks


def game_end(live: LiveTable, game: Game, at: float) -> GameEnd:
    """The stored result of the table's current game, which ``game`` ended."""
    result = game.result
    assert result is not None
    scores = (game.scores[0], game.scores[1])
    game_id = str(live.game_id)
    outcomes = []
    for seat in range(4):
        team = team_of(seat)
        if result.winner is None:
            outcome = "draw"
        elif result.winner == team:
            outcome = "won"
        else:
            outcome = "lost"
        outcomes.append(SeatOutcome(seat, outcome, scores[team], scores[1 - team]))
    return GameEnd(
        game_no=live.game_number,
        ended_at=at,
        winner=result.winner,
        reason=result.reason.value,
        reason_seat=result.seat,
        scores=scores,
        hands=[r.to_json(game_id, game.rules.preset) for r in game.hand_records],
        seats=tuple(outcomes),
    )
