"""A hand with Nil passes read back from its stored record, shown frame by
frame and reviewed: every reader starts from the hands as play began."""

from __future__ import annotations

from bot.ai.base import make_player
from bot.coach.review import review_hand
from bot.game.house import apply
from bot.game.record import HandRecord
from bot.game.rules import preset
from bot.game.state import Game
from bot.replay.frames import hand_frames, hand_record
from bot.simulate import play_game

RULES = apply(preset("standard"), "nil_pass=3,target=300")


def _passed_hands() -> list[HandRecord]:
    game = Game.new(RULES, 4)
    play_game(game, [make_player("heuristic", seat) for seat in range(4)])
    passed = [record for record in game.hand_records if record.passes]
    assert passed
    return passed


def test_a_record_with_passes_reads_back_and_shows_the_hands_after_the_pass() -> None:
    for record in _passed_hands():
        read = hand_record(RULES, record.to_json("g", RULES))
        assert read.passes == record.passes and read.held == record.held
        assert read.dealt == record.dealt and read.held != read.dealt
        frames = hand_frames(read)
        assert list(frames[0].hands) == record.held
        assert list(frames[-1].hands) == [0, 0, 0, 0]  # every card held was played


def test_each_seat_of_a_hand_with_passes_is_reviewed() -> None:
    for record in _passed_hands():
        for seat in range(4):
            review = review_hand(RULES, record, seat)
            if review.mistake is not None:  # both cards were the seat's to play
                for card in (review.mistake.played, review.mistake.better):
                    assert record.held[seat] >> card & 1
