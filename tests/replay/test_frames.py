"""A replay stepped through every trick of recorded games: each frame's hands,
trick, tricks taken and score against the hand records, under every deck and
with a claim; the picture of frames in every deck design."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.game.cards import BIG_JOKER, LITTLE_JOKER, mask_of
from bot.game.state import Game
from bot.render.decks import DeckName
from bot.render.replay import (
    ReplayId,
    Step,
    frame_scene,
    marks_at,
    parse_replay_id,
    viewer_spec,
)
from bot.render.replay_picture import HEIGHT, WIDTH, render_frame
from bot.replay.frames import replay_of
from bot.replay.review import review_game
from tests.replay.games import finished, played_game

GAMES = {
    "standard": lambda: played_game("standard", seed=3),
    "jokers": lambda: played_game("standard", seed=5, house="deck=jokers"),
    "jjdd": lambda: played_game("standard", seed=6, house="deck=jjdd"),
    "claim": lambda: played_game("standard", seed=4, claim_in_hand=2),
    "suicide": lambda: played_game("standard", seed=8, house="bidding=suicide"),
    "blind-nil": lambda: played_game("blind-nil", seed=9),
}


def check_every_frame(game: Game) -> None:
    replay = replay_of(finished(game))
    frames = iter(replay.frames)
    assert len(replay.records) == len(game.hand_records)
    for record in game.hand_records:
        bids = [0, 0, 0, 0]
        for seat, bid in record.bids:
            bids[seat] = bid
        hands = list(record.dealt)
        taken = [0, 0, 0, 0]
        bidding = next(frames)
        assert (bidding.hand, bidding.trick) == (record.hand, 0)
        assert list(bidding.hands) == record.dealt and bidding.table == ()
        assert list(bidding.bids) == bids and list(bidding.score) == record.score_before
        last = bidding
        for number, trick in enumerate(record.tricks, start=1):
            for index, card in enumerate(trick.cards):
                hands[(trick.leader + index) & 3] &= ~(1 << card)
            taken[trick.winner] += 1
            frame = next(frames)
            assert (frame.hand, frame.trick) == (record.hand, number)
            assert list(frame.hands) == hands
            assert [card for _, card in frame.table] == list(trick.cards)
            assert frame.table[0][0] == trick.leader and frame.winner == trick.winner
            assert frame.last_winner == (record.tricks[number - 2].winner if number > 1 else None)
            assert list(frame.taken) == taken and list(frame.bids) == bids
            # Every card dealt is in a hand or was played, once.
            played = mask_of(c for t in record.tricks[:number] for c in t.cards)
            assert sum(frame.hands) | played == sum(record.dealt)
            last = frame
        if record.claim is not None:
            claim = next(frames)
            assert claim.claim == (record.claim[0], 13 - len(record.tricks))
            assert list(claim.taken) == record.tricks_won and list(claim.hands) == hands
            last = claim
        assert last.hand_score is not None and list(last.hand_score) == record.hand_score
        assert last.score_after is not None and list(last.score_after) == record.score_after
    assert next(frames, None) is None


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_trick_of_a_recorded_game(name: str) -> None:
    check_every_frame(GAMES[name]())


def test_jokers_are_in_the_hands_and_drawn() -> None:
    replay = replay_of(finished(GAMES["jokers"]()))
    bidding = replay.frames[0]
    dealt = sum(bidding.hands)
    assert dealt >> BIG_JOKER & 1 and dealt >> LITTLE_JOKER & 1
    names = ["a", "b", "c", "d"]
    png = render_frame(frame_scene(replay, 0, names, ""), DeckName.CLASSIC)
    assert Image.open(io.BytesIO(png)).size == (WIDTH, HEIGHT)


def test_a_claim_is_a_frame_of_its_own() -> None:
    replay = replay_of(finished(GAMES["claim"]()))
    index = next(i for i, f in enumerate(replay.frames) if f.claim is not None)
    frame = replay.frames[index]
    scene = frame_scene(replay, index, ["a", "b", "c", "d"], "")
    seat_word = ("South", "West", "North", "East")[frame.claim[0]] if frame.claim else ""
    assert f"{seat_word} claimed the rest: 4 tricks" in scene.centre_lines
    assert "claim" in viewer_spec(replay, index, [], False).content


@pytest.mark.parametrize("design", list(DeckName))
def test_the_picture_of_frames_in_each_deck(design: DeckName) -> None:
    replay = replay_of(finished(GAMES["standard"]()))
    for index in (0, 1, 5, len(replay.frames) - 1):
        scene = frame_scene(replay, index, ["alice", "bob", "carol", "dave"], "Coach: a note", "fr")
        picture = Image.open(io.BytesIO(render_frame(scene, design, "fr")))
        assert picture.format == "PNG" and picture.size == (WIDTH, HEIGHT)


def test_the_viewer_buttons_step_one_frame_and_stop_at_the_ends() -> None:
    replay = replay_of(finished(GAMES["standard"]()))
    last = len(replay.frames) - 1
    first = viewer_spec(replay, 0, [], False)
    back, forward, share = first.rows[0]  # type: ignore[misc]
    assert back.disabled and not forward.disabled
    assert forward.custom_id == f"spades-replay:next:{replay.game_id}:1"
    assert share.custom_id == f"spades-replay:share:{replay.game_id}:0"
    end = viewer_spec(replay, last, [], False)
    assert end.rows[0][1].disabled  # type: ignore[index]
    menu = end.rows[1]
    starts = replay.hand_starts()
    assert [o.value for o in menu.options] == [str(s) for s in starts][-25:]  # type: ignore[union-attr]


def test_replay_ids_read_back_and_forged_ones_are_refused() -> None:
    shown = ReplayId(Step.NEXT, 12, 34)
    assert parse_replay_id(str(shown).split(":", 1)[1]) == shown
    for forged in ("next:12", "jump:1:2", "next:x:1", "next:1:2:3", "next:1:999999"):
        assert parse_replay_id(forged) is None


@pytest.mark.parametrize("name", ["claim", "jokers", "suicide"])
def test_the_coach_marks_cards_each_seat_held_and_played_in_that_trick(name: str) -> None:
    replay = replay_of(finished(GAMES[name]()))
    marks = review_game(replay.rules, replay.records).cards
    assert marks
    frames = {(f.hand, f.trick): f for f in replay.frames}
    for mark in marks:
        shown = frames[(mark.hand, mark.trick)]
        assert (mark.seat, mark.played) in shown.table
        assert mark in marks_at(shown, marks)
        before = frames[(mark.hand, mark.trick - 1)]  # the hands as the trick began
        assert before.hands[mark.seat] >> mark.better & 1 and mark.better != mark.played
