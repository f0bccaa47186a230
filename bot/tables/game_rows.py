"""What a game writes besides its log rows: the stored engine state after
each action (see :mod:`bot.game.checkpoint`) and, when it ends, its result."""

from __future__ import annotations

import dataclasses

from bot.game import checkpoint
from bot.game.state import Game
from bot.game.types import ActionKind, Phase, team_of
from bot.tables.live import LiveTable, Write
from db.store import Change, GameEnd, SeatOutcome, StateWrite


def state_format() -> str | None:
    """The stored state's format, or None where checkpoints cannot be used
    (the games are then rebuilt from their logs)."""
    return checkpoint.FINGERPRINT if checkpoint.USABLE else None


def readable_formats() -> tuple[str, ...]:
    """The formats of the stored states this code can resume from."""
    return checkpoint.READ_FINGERPRINTS if checkpoint.USABLE else ()


def stores_state(kind: ActionKind, game: Game) -> bool:
    """Whether the game as ``kind`` left it is stored with the action. Not
    after a card that leaves its trick unfinished, nor after a bid or look
    that leaves the bidding open: a resume replays those (a handful at most)
    from the log on top of the last stored state, and they are most actions
    of a hand, each spared a kilobyte to encode and write."""
    if kind is ActionKind.PLAY:
        return not game.trick or game.phase is not Phase.PLAYING
    if kind is ActionKind.BID or kind is ActionKind.LOOK:
        return game.phase is not Phase.BIDDING
    return True


def add_state(live: LiveTable, game: Game, write: Write, game_no: int, *, new_game: bool) -> None:
    """Add the checkpoint of ``game`` to the planned write: the history part
    only when a hand was finished since it was last written."""
    state_format_now = state_format()
    if state_format_now is None:
        return
    # The table's last checkpoint, if it was of this game.
    packed = None if new_game else live.packed
    history: bytes | None = None
    keep = False
    if new_game:
        extent = (0, 0)
    elif packed is None or len(game.hand_records) != packed.extent[0]:
        history, packed = checkpoint.encode_history_from(game, packed)
        extent = packed.extent
    else:
        extent = packed.extent
        keep = True
    current, packed = checkpoint.encode_current_from(game, extent, packed)
    state = StateWrite(
        game_no=game_no,
        format=state_format_now,
        current=current,
        history=history,
        keep_history=keep,
    )
    # A new Change rather than dataclasses.replace on an empty one: replace
    # is slow, and most actions change nothing else.
    change = write.change
    write.change = (
        Change(state=state) if change is None else dataclasses.replace(change, state=state)
    )
    write.packed = packed


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
        hands=[r.json_text(game_id, game.rules) for r in game.hand_records],
        seats=tuple(outcomes),
    )
