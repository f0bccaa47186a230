"""The words about a finished game: the end-of-game post, a game's record
answer, and the team names its picture is labelled with."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.render.limits import CONTENT, clip, fit_lines
from bot.render.names import computer_label, computer_name
from bot.render.table import TEAM_NAMES
from bot.stats.counting import RecordOutcome
from bot.stats.records import FinishedGame, SeatPlayer

#: The display name of a user, as the caller found it.
UserName = Callable[[int], str]


def seat_name(seats: Sequence[SeatPlayer], seat: int, user_name: UserName, *, plain: bool) -> str:
    """A person's display name, or the seat's computer player; ``plain``
    leaves out the emoji (for the picture, whose font has none)."""
    player = seats[seat]
    if player.user_id is not None:
        return user_name(player.user_id)
    name = computer_name if plain else computer_label
    return name(seat, player.computer_level)


def team_names(
    seats: Sequence[SeatPlayer], user_name: UserName, *, plain: bool = False
) -> tuple[str, str]:
    """``alice & 🤖 Nell (random)`` for each team (seats 0 and 2, then 1 and 3)."""

    def team(number: int) -> str:
        return " & ".join(seat_name(seats, s, user_name, plain=plain) for s in (number, number + 2))

    return team(0), team(1)


def score_text(game: FinishedGame) -> str:
    """The final score, the winner's first: ``250 to 120`` (never a dash,
    which would read badly between negative scores)."""
    first = 0 if game.winner is None else game.winner
    return f"{game.final_scores[first]} to {game.final_scores[1 - first]}"


def end_of_game_text(
    table_id: int, game: FinishedGame, names: tuple[str, str], outcome: RecordOutcome | None
) -> str:
    """The words posted with the end-of-game picture. Without ``outcome`` (the
    game was counted before a restart) the rating changes are not repeated."""
    if game.winner is None:
        head = f"Table {table_id}: a draw at {score_text(game)}."
    else:
        head = f"Table {table_id}: {names[game.winner]} win {score_text(game)}."
    if outcome is None:
        return clip(head, CONTENT)
    if not outcome.rated:
        return clip(head + " Not rated (computer players took part).", CONTENT)
    moves = [f"<@{c.user_id}> {c.after} ({c.after - c.before:+d})" for c in outcome.changes]
    budget = CONTENT - len(head) - len(" Ratings: .")
    return clip(f"{head} Ratings: {fit_lines(moves, budget, sep=', ')}.", CONTENT)


def game_record_text(game: FinishedGame) -> str:
    """The answer that comes with a game's files."""
    hands = f"Game {game.game_id}: {len(game.hand_records)} hands"
    if game.winner is None:
        return f"{hands}, a draw at {score_text(game)}."
    return f"{hands}, {TEAM_NAMES[game.winner]} won {score_text(game)}."
