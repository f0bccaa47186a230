"""What a replay viewer shows: the words and cards of a frame's picture, its
message (the coach's line, the buttons) and the ids those buttons carry.

Ids: ``spades-replay:<step>:<game>:<frame>``. Each carries the frame it
leads to (◀, ▶, a hand in the menu) or shows (Share), so a viewer works
after any restart, with no state kept between clicks.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from bot.coach.bid_review import BidEffect
from bot.coach.review import Effect
from bot.game.rules import RuleSet
from bot.game.sides import solo
from bot.i18n import ENGLISH, N_, ntr, tr
from bot.render.decks import Style, card_text
from bot.render.hand import bid_text
from bot.render.house_rules import rules_line
from bot.render.replay_picture import Scene
from bot.render.spec import (
    ButtonSpec,
    MessageSpec,
    SelectOption,
    SelectSpec,
    number_pattern,
    seat_name,
    side_name,
)
from bot.replay.frames import Frame, Replay
from bot.replay.review import BidMark, GameReview, Mark

PREFIX = "spades-replay"
_SHAPE = re.compile(
    rf"(?P<step>[a-z]+):(?P<game>{number_pattern(18)}):(?P<frame>{number_pattern(5)})"
)
#: A select menu lists at most 25 options: the hands around the one shown.
MENU_HANDS = 25


class Step(StrEnum):
    OPEN = "open"  # the Replay button of a finished game: its first frame
    PREVIOUS = "prev"
    NEXT = "next"
    HAND = "hand"  # the menu of hands; the value is the frame chosen
    SHARE = "share"


@dataclass(frozen=True, slots=True)
class ReplayId:
    step: Step
    game: int
    frame: int

    def __str__(self) -> str:
        return f"{PREFIX}:{self.step.value}:{self.game}:{self.frame}"


def parse_replay_id(rest: str) -> ReplayId | None:
    """What follows ``spades-replay:``; None for an id the bot never sends."""
    match = _SHAPE.fullmatch(rest)
    if match is None:
        return None
    try:
        step = Step(match["step"])
    except ValueError:
        return None
    return ReplayId(step, int(match["game"]), int(match["frame"]))


# -- the coach's line ------------------------------------------------------------

#: Why the better card was better, per effect (``{n}``: bags, counted).
_REASONS = {
    Effect.KEEP_PARTNER_NIL: N_("it keeps the partner's Nil"),
    Effect.KEEP_OWN_NIL: N_("it keeps their own Nil"),
    Effect.MAKE_CONTRACT: N_("it makes the team's contract"),
    Effect.BREAK_THEIR_NIL: N_("it breaks the opponents' Nil"),
    Effect.SET_THEM: N_("it sets the opponents"),
    Effect.MORE_POINTS: N_("it scores more"),
}
#: What the coach's bid would have done, per effect (``{n}``: bags, counted):
#: words of their own, as the card's pronoun would not fit a bid in every language.
_BID_REASONS = {
    BidEffect.MAKE_NIL: N_("a Nil made, as they took no trick"),
    BidEffect.MAKE_CONTRACT: N_("the contract made"),
    BidEffect.MORE_POINTS: N_("more points for the team"),
}


def _reason(mark: Mark, lang: str) -> str:
    template = _REASONS.get(mark.effect)
    if template is not None:
        return tr(lang, template)
    return ntr(lang, "it saves {n} bag", "it saves {n} bags", mark.number)


def coach_line(mark: Mark, names: Sequence[str], lang: str = ENGLISH) -> str:
    """One line: who played what, its cost in points, the better card and why."""
    return ntr(
        lang,
        "Coach: {name}'s {played} cost {n} point; the {better} was better: {reason}.",
        "Coach: {name}'s {played} cost {n} points; the {better} was better: {reason}.",
        mark.points,
        name=names[mark.seat],
        played=card_text(mark.played, lang),
        better=card_text(mark.better, lang),
        reason=_reason(mark, lang),
    )


def bid_line(mark: BidMark, names: Sequence[str], lang: str = ENGLISH) -> str:
    """One line: who bid what, its cost in points with the tricks as they
    fell (the play under another bid is unknown), the coach's bid and why."""
    return ntr(
        lang,
        "Coach: with the tricks as they fell, {name}'s bid of {bid} cost {n} point; "
        "the coach would have bid {better}: {reason}.",
        "Coach: with the tricks as they fell, {name}'s bid of {bid} cost {n} points; "
        "the coach would have bid {better}: {reason}.",
        mark.points,
        name=names[mark.seat],
        bid=bid_text(mark.bid, lang),
        better=bid_text(mark.better, lang),
        reason=_bid_reason(mark, lang),
    )


def _bid_reason(mark: BidMark, lang: str) -> str:
    template = _BID_REASONS.get(mark.effect)
    if template is not None:
        return tr(lang, template)
    return ntr(lang, "{n} bag fewer", "{n} bags fewer", mark.number)


def marks_at(frame: Frame, marks: Sequence[Mark]) -> list[Mark]:
    """The coach's marks on the trick this frame shows."""
    if frame.trick == 0 or frame.claim is not None:
        return []
    return [m for m in marks if m.hand == frame.hand and m.trick == frame.trick]


def bid_marks_at(frame: Frame, bids: Sequence[BidMark]) -> list[BidMark]:
    """The coach's marks on the bids of a hand's bidding frame, costliest first."""
    if frame.trick != 0:
        return []
    return sorted((m for m in bids if m.hand == frame.hand), key=lambda m: (-m.points, m.seat))


def coach_lines(
    frame: Frame, review: GameReview, names: Sequence[str], lang: str = ENGLISH
) -> list[str]:
    """The coach's lines on a frame: its costly bids or the costly cards of its trick."""
    return [bid_line(m, names, lang) for m in bid_marks_at(frame, review.bids)] + [
        coach_line(m, names, lang) for m in marks_at(frame, review.cards)
    ]


# -- the picture's words ----------------------------------------------------------


def frame_title(replay: Replay, frame: Frame, lang: str = ENGLISH) -> str:
    if frame.trick == 0:
        return tr(lang, "Game {game} · hand {hand} · bidding", game=replay.game_id, hand=frame.hand)
    if frame.claim is not None:
        return tr(lang, "Game {game} · hand {hand} · claim", game=replay.game_id, hand=frame.hand)
    return tr(
        lang,
        "Game {game} · hand {hand} · trick {trick}",
        game=replay.game_id,
        hand=frame.hand,
        trick=frame.trick,
    )


def _centre(frame: Frame, rules: RuleSet, lang: str) -> list[str]:
    lines = []
    if frame.trick == 0:
        lines.append(tr(lang, "Bidding · dealer: {seat}", seat=seat_name(frame.dealer, lang)))
    elif frame.claim is not None:
        seat, tricks = frame.claim
        lines.append(
            ntr(
                lang,
                "{seat} claimed the rest: {n} trick",
                "{seat} claimed the rest: {n} tricks",
                tricks,
                seat=seat_name(seat, lang),
            )
        )
    elif frame.winner is not None:
        lines.append(tr(lang, "{seat} takes the trick", seat=seat_name(frame.winner, lang)))
    if frame.last_winner is not None and frame.claim is None:
        lines.append(tr(lang, "Last trick: {seat}", seat=seat_name(frame.last_winner, lang)))
    if frame.hand_score is not None and frame.score_after is not None and solo(rules):
        lines.append(
            tr(
                lang,
                "Hand: {points} · score {scores}",
                points=", ".join(map(_signed, frame.hand_score)),
                scores=", ".join(map(str, frame.score_after)),
            )
        )
    elif frame.hand_score is not None and frame.score_after is not None:
        lines.append(
            tr(
                lang,
                "Hand: {a} and {b} · score {c} to {d}",
                a=_signed(frame.hand_score[0]),
                b=_signed(frame.hand_score[1]),
                c=frame.score_after[0],
                d=frame.score_after[1],
            )
        )
    return lines


def _signed(points: int) -> str:
    return f"+{points}" if points > 0 else str(points)


def frame_scene(
    replay: Replay, index: int, names: Sequence[str], note: str, lang: str = ENGLISH
) -> Scene:
    """What the picture of frame ``index`` shows, ``names`` by seat."""
    frame = replay.frames[index]
    seat_lines = tuple(
        tr(
            lang,
            "{seat} · {name}: bid {bid}, took {taken}",
            seat=seat_name(seat, lang),
            name=names[seat],
            bid=bid_text(frame.bids[seat], lang),
            taken=frame.taken[seat],
        )
        for seat in range(4)
    )
    score_lines = tuple(
        ntr(
            lang,
            "{team}: {score} ({n} bag)",
            "{team}: {score} ({n} bags)",
            frame.bags[side],
            team=side_name(replay.rules, side, lang),
            score=frame.score[side],
        )
        for side in range(len(frame.score))
    )
    return Scene(
        title=frame_title(replay, frame, lang),
        score_lines=score_lines,
        seat_lines=(seat_lines[0], seat_lines[1], seat_lines[2], seat_lines[3]),
        hands=frame.hands,
        table=frame.table,
        winner=frame.winner,
        centre_lines=tuple(_centre(frame, replay.rules, lang)),
        rules_line=rules_line(replay.rules, lang),
        note=note,
    )


# -- the message -------------------------------------------------------------------


def replay_button(game: int, lang: str = ENGLISH, *, numbered: bool = False) -> ButtonSpec:
    """The button that opens a game's replay (the end-of-game post, the history)."""
    label = tr(lang, "Replay {game}", game=game) if numbered else tr(lang, "Replay")
    return ButtonSpec(str(ReplayId(Step.OPEN, game, 0)), label, Style.BLURPLE, "🎬")


def viewer_spec(
    replay: Replay, index: int, coach: Sequence[str], reviewing: bool, lang: str = ENGLISH
) -> MessageSpec:
    """The viewer's message at frame ``index``: the coach's lines and the buttons."""
    game, last = replay.game_id, len(replay.frames) - 1
    lines = [f"**{frame_title(replay, replay.frames[index], lang)}** ({index + 1}/{last + 1})"]
    lines += coach
    if reviewing:
        lines.append(tr(lang, "The coach is still reviewing this game: its notes come shortly."))
    steps = (
        ButtonSpec(str(ReplayId(Step.PREVIOUS, game, max(index - 1, 0))), "◀", disabled=index == 0),
        ButtonSpec(
            str(ReplayId(Step.NEXT, game, min(index + 1, last))), "▶", disabled=index == last
        ),
        ButtonSpec(str(ReplayId(Step.SHARE, game, index)), tr(lang, "Share"), Style.GREEN),
    )
    return MessageSpec(content="\n".join(lines), rows=(steps, _hand_menu(replay, index, lang)))


def _hand_menu(replay: Replay, index: int, lang: str) -> SelectSpec:
    starts = replay.hand_starts()
    current = max(h for h, start in enumerate(starts) if start <= index)
    first = max(0, min(current - MENU_HANDS // 2, len(starts) - MENU_HANDS))
    options = tuple(
        SelectOption(
            str(start),
            tr(lang, "Hand {hand}", hand=replay.frames[start].hand),
            default=h == current,
        )
        for h, start in enumerate(starts[first : first + MENU_HANDS], start=first)
    )
    return SelectSpec(
        str(ReplayId(Step.HAND, replay.game_id, index)), tr(lang, "Go to a hand"), options
    )


def shared_text(replay: Replay, index: int, user_id: int, coach: Sequence[str], lang: str) -> str:
    """The public post of a shared frame."""
    frame = replay.frames[index]
    head = tr(
        lang,
        "<@{user}> shares a moment of game {game}: {moment}.",
        user=user_id,
        game=replay.game_id,
        moment=frame_title(replay, frame, lang),
    )
    return "\n".join([head, *coach])
