"""Claiming the rest of a hand's tricks (not the turn clock's claim of the
game, ``Game.claim_timeout``).

A player on their turn to play may claim every trick left in the hand. Their
cards are shown, and play waits until every opponent accepts (the hand is
then scored as if the claimer had won those tricks, and its record says
``claim``) or one refuses (play goes on; the cards stay shown for the hand).
The table waits on an answer like on a turn: :meth:`RestClaim.waiting_on`.

The claim is one immutable value of the game, ``Game.rest``, replaced by each
of the three actions, which :func:`apply` runs for the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Protocol

from bot.game import checks, refusals
from bot.game.cards import HAND_SIZE
from bot.game.refusals import N_
from bot.game.rules import RuleSet
from bot.game.sides import solo
from bot.game.trick import Trick
from bot.game.types import ActionKind, LogEntry, Phase

NO_SEAT: Final = -1
KINDS: Final = frozenset({ActionKind.CLAIM_REST, ActionKind.ACCEPT_REST, ActionKind.REFUSE_REST})


@dataclass(frozen=True, slots=True)
class RestClaim:
    #: The seat claiming, while its opponents answer; NO_SEAT when none.
    claimer: int = NO_SEAT
    #: The opponents who accepted the claim (a bit per seat).
    accepted: int = 0
    #: The seats whose cards a claim showed in this hand (a bit per seat).
    shown: int = 0
    #: Whether the game is solo: the claimer's three opponents answer.
    solo: bool = False

    @property
    def waiting(self) -> bool:
        return self.claimer >= 0

    def opponents(self) -> tuple[int, ...]:
        claimer = self.claimer
        if self.solo:
            return (claimer + 1) & 3, (claimer + 2) & 3, (claimer + 3) & 3
        return (claimer + 1) & 3, (claimer + 3) & 3

    def waiting_on(self) -> int | None:
        """The first opponent yet to accept the claim (None: no claim, or
        all accepted)."""
        if self.claimer < 0:
            return None
        return next((seat for seat in self.opponents() if not self.accepted >> seat & 1), None)

    def shows(self, seat: int) -> bool:
        return bool(self.shown >> seat & 1)


NO_CLAIM: Final = RestClaim()


class Game(Protocol):
    """What a claim reads and changes of a game (the game module implements
    it; naming it here keeps this module below the game)."""

    rest: RestClaim
    rules: RuleSet
    phase: Phase
    to_act: int
    trick: list[int]
    tricks: list[Trick]
    tricks_won: list[int]
    waiting_since: float
    _turn: int
    _log: list[LogEntry]

    def _finish_hand(self, claim: tuple[int, int] | None = None) -> None: ...


def claimable(game: Game, seat: int) -> bool:
    """Whether the seat may claim the rest now: on its turn to play, with no
    claim waiting (the table then waits on no seat to play), and not refused
    on this turn."""
    return seat >= 0 and seat == game._turn and not refused_this_turn(game, seat)


def refused_this_turn(game: Game, seat: int) -> bool:
    """Whether the seat claimed on its turn and was refused: it claims again
    on its next turn at the earliest, so that opponents are not asked over
    and over about the same cards. (The claim and its answers are the last
    entries of the log until the claimer plays.)"""
    for kind, who, _, _ in reversed(game._log):
        if kind not in KINDS:
            return False
        if kind == ActionKind.CLAIM_REST and who == seat:
            return True
    return False


def tricks_left(game: Game) -> int:
    """The tricks a claim made now takes: the hand's unfinished ones."""
    return HAND_SIZE - len(game.tricks)


def apply(game: Game, kind: ActionKind, seat: int, at: float) -> None:
    """The claim (:data:`ActionKind.CLAIM_REST`) or an answer to it, checked
    first like every action of the game (nothing changes when refused)."""
    rest = game.rest
    checks.check_seat(seat)
    if game.phase is Phase.GAME_OVER:
        raise refusals.GameIsOver(N_("the game is over"))
    if kind is ActionKind.CLAIM_REST:
        if rest.waiting:
            raise refusals.RestClaimRefused(N_("a claim is already waiting for an answer"))
        if seat != game._turn:
            raise refusals.RestClaimRefused(N_("you can claim the rest only on your turn to play"))
        if refused_this_turn(game, seat):
            raise refusals.RestClaimRefused(
                N_("your claim was refused: you can claim again on your next turn")
            )
        game.rest = RestClaim(seat, 0, rest.shown | 1 << seat, solo(game.rules))
        game._turn = NO_SEAT  # nobody plays until the claim is answered
    else:
        _check_answer(rest, seat)
        if kind is ActionKind.REFUSE_REST:
            game.rest = RestClaim(NO_SEAT, 0, rest.shown, rest.solo)
            game._turn = game.to_act  # the claimer plays on
    game._log.append((kind, seat, 0, at))
    game.waiting_since = at
    if kind is ActionKind.ACCEPT_REST:
        rest = RestClaim(rest.claimer, rest.accepted | 1 << seat, rest.shown, rest.solo)
        game.rest = rest
        if rest.waiting_on() is None:
            claimed = tricks_left(game)
            game.tricks_won[rest.claimer] += claimed
            game.trick = []
            game.rest = RestClaim(NO_SEAT, 0, rest.shown, rest.solo)
            game._finish_hand((rest.claimer, claimed))


def _check_answer(rest: RestClaim, seat: int) -> None:
    if not rest.waiting:
        raise refusals.RestClaimRefused(N_("there is no claim to answer"))
    if seat not in rest.opponents():
        raise refusals.RestClaimRefused(N_("only the claimer's opponents answer a claim"))
    if rest.accepted >> seat & 1:
        raise refusals.RestClaimRefused(N_("you have already accepted this claim"))
