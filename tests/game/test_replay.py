"""A game is its seed plus its actions: replays and JSON round trips rebuild it exactly."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

from bot.game import refusals
from bot.game.cards import parse_card
from bot.game.playout import random_card
from bot.game.rules import PRESETS, preset
from bot.game.scoring import BLIND_NIL
from bot.game.state import Game
from bot.game.types import Action, ActionKind, Phase

from .helpers import (
    MIXED_DEAL,
    all_spades_deal,
    bid_round,
    new_game,
    play_out_lowest,
    play_random_game,
)


def random_action(game: Game, rng: random.Random) -> Action:
    seat = game.to_act
    if game.phase is Phase.BIDDING:
        bids = [b for b in game.legal_bids(seat) if b >= 0]
        return Action(ActionKind.BID, seat, bids[int(rng.random() * len(bids))])
    if game.phase is Phase.PLAYING:
        return Action(ActionKind.PLAY, seat, random_card(game.legal_play_mask(seat), rng))
    return Action(ActionKind.NEXT_HAND, game.dealer)


def through_json(game: Game) -> Game:
    return Game.from_json(json.loads(json.dumps(game.to_json())))


def assert_rebuilt(game: Game) -> None:
    copy = through_json(game)
    assert copy.observable() == game.observable()
    assert copy.actions == game.actions
    assert copy.hand_records == game.hand_records
    assert copy.to_json() == game.to_json()
    replayed = Game.replay(
        game.rules, game.seed, list(game.actions), game.started_at, game.fixed_deals or None
    )
    assert replayed.observable() == game.observable()


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_prefix_of_a_random_game_round_trips(name: str) -> None:
    rules = preset(name)
    rng = random.Random(name)
    game = Game.new(rules, rng.randrange(2**63), started_at=1_700_000_000.0)
    play_random_game(game, rng)
    assert game.over
    actions = game.actions
    for cut in sorted({0, 1, 4, 5, 30, len(actions) // 2, len(actions) - 1, len(actions)}):
        partial = Game.replay(rules, game.seed, actions[:cut], game.started_at)
        assert len(partial.actions) == cut
        assert_rebuilt(partial)
    assert_rebuilt(game)


def test_a_game_with_every_kind_of_action_round_trips() -> None:
    # Hand 1: a revoke and a finished hand; hand 2: looks, a Blind Nil and
    # the game ended by a proven revoke challenge.
    deals = [MIXED_DEAL, all_spades_deal(0)]
    game = new_game("blind-nil", deals, seed=11, started_at=100.0)
    bid_round(game, {0: 1, 1: 10, 2: 1, 3: 3}, at=101.0)
    game.play(1, parse_card("2C"), at=102.0)
    game.play(2, parse_card("AH"), at=103.5)  # a revoke
    play_out_lowest(game, at=104.0)
    assert game.phase is Phase.HAND_OVER
    game.next_hand(3, at=105.0)
    game.look(0, at=106.0)
    assert_rebuilt(game)
    if BLIND_NIL in game.legal_bids(game.to_act):
        game.bid(game.to_act, BLIND_NIL, at=107.0)
    bid_round(game, {0: 3, 1: 3, 2: 3, 3: 3}, at=108.0)
    game.play(game.to_act, game.legal_cards(game.to_act)[0], at=109.0)
    assert_rebuilt(game)
    game.challenge(1, 0, at=110.0)
    assert game.over
    kinds = {a.kind for a in game.actions}
    assert kinds >= {ActionKind.BID, ActionKind.PLAY, ActionKind.NEXT_HAND, ActionKind.LOOK}
    assert_rebuilt(game)


@pytest.mark.parametrize(
    ("end", "kind"),
    [
        (lambda g: g.resign(2, at=50.0), ActionKind.RESIGN),
        (lambda g: g.claim_timeout(0, at=10.0 + 49 * 3600), ActionKind.CLAIM_TIMEOUT),
    ],
    ids=["resign", "timeout"],
)
def test_games_ended_by_resignation_or_timeout_round_trip(end, kind) -> None:  # type: ignore[no-untyped-def]
    game = new_game("standard", [MIXED_DEAL], started_at=10.0)
    end(game)
    assert game.actions[-1].kind is kind
    assert_rebuilt(game)


def test_the_log_records_each_action_once_with_its_time() -> None:
    game = new_game("standard", [MIXED_DEAL])
    bid_round(game, {0: 1, 1: 2, 2: 3, 3: 4}, at=7.0)
    game.play(1, parse_card("2C"), at=8.25)
    assert game.actions == [
        Action(ActionKind.BID, 1, 2, 7.0),
        Action(ActionKind.BID, 2, 3, 7.0),
        Action(ActionKind.BID, 3, 4, 7.0),
        Action(ActionKind.BID, 0, 1, 7.0),
        Action(ActionKind.PLAY, 1, parse_card("2C"), 8.25),
    ]
    assert game.actions is game.actions  # read twice, built once
    assert game.waiting_since == 8.25


def test_an_action_round_trips_through_json() -> None:
    action = Action(ActionKind.CHALLENGE, 3, 2, 12.5)
    assert Action.from_json(json.loads(json.dumps(action.to_json()))) == action
    assert Action.from_json({"kind": "look", "seat": 1}) == Action(ActionKind.LOOK, 1)


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "shout", "seat": 1},
        {"seat": 1},
        {"kind": "play", "seat": "north"},
        {"kind": "bid", "seat": 1, "value": None},
        {"kind": "play", "seat": 1, "at": "noon"},
        "play AS",
    ],
)
def test_a_malformed_action_is_refused(data: object) -> None:
    with pytest.raises(refusals.MalformedAction):
        Action.from_json(data)


def test_a_replay_refuses_an_illegal_action() -> None:
    rules = preset("standard")
    with pytest.raises(refusals.NotYourTurn):
        Game.replay(rules, 1, [Action(ActionKind.BID, 3, 4)])


def test_random_action_always_offers_a_legal_move() -> None:
    rng = random.Random(5)
    game = Game.new(preset("low-club"), 5)
    for _ in range(300):
        if game.over:
            break
        game.apply(random_action(game, rng))
    assert_rebuilt(game)


def test_a_game_copies_through_its_constructor_fields() -> None:
    # The table service copies games with Game(**fields), private ones included.
    rng = random.Random(8)
    game = Game.new(preset("low-club"), 8)
    for _ in range(130):
        game.apply(random_action(game, rng))
    fields = {f.name: getattr(game, f.name) for f in dataclasses.fields(game)}
    copies: dict[str, Any] = {k: list(v) if isinstance(v, list) else v for k, v in fields.items()}
    copy = Game(**copies)
    assert copy.observable() == game.observable()
    for _ in range(60):
        if game.over:
            break
        action = random_action(game, rng)
        game.apply(action)
        copy.apply(action)
        assert copy.observable() == game.observable()
        assert copy.legal_cards(copy.to_act) == game.legal_cards(game.to_act)
