"""Random complete games under every preset, checked card by card against the
plain restatement of the rules in ``oracle``."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.game.cards import DECK_MASK, cards_of, mask_of
from bot.game.refusals import IllegalAction
from bot.game.rules import PRESETS, RevokeRule, preset
from bot.game.scoring import BLIND_NIL
from bot.game.state import Game
from bot.game.types import Action, ActionKind, Phase, team_of

from . import oracle

# Only stops a runaway: random play usually ends a game in a few hands, but
# bags and sets can hold the scores near zero for long (blind-nil, seed 2427,
# low bids: 71 hands), so the limit is far above any game seen.
MAX_HANDS = 300
SETTINGS = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def check_deal(game: Game, dealer: int) -> None:
    assert game.phase is Phase.BIDDING
    assert game.dealer == dealer
    assert game.to_act == (dealer + 1) % 4
    union = 0
    for hand in game.dealt:
        assert hand.bit_count() == 13
        assert not union & hand
        union |= hand
    assert union == DECK_MASK
    assert game.hands == game.dealt


def bid_hand(game: Game, rng: random.Random, low_bids: bool) -> None:
    """Random legal bids; with ``low_bids`` mostly 1-3, so that contracts are
    usually made and scores climb to the target."""
    rules = game.rules
    for k in range(4):
        seat = game.to_act
        assert seat == (game.dealer + 1 + k) % 4
        if rules.blind_nil and rng.random() < 0.3:
            game.look(seat)
        team = team_of(seat)
        deficit = game.scores[1 - team] - game.scores[team]
        blind_open = (
            rules.blind_nil and not game.looked[seat] and deficit >= rules.blind_nil_min_deficit
        )
        expected = ([BLIND_NIL] if blind_open else []) + list(range(14))
        bids = game.legal_bids(seat)
        assert sorted(bids) == sorted(expected)
        assert game.legal_bids((seat + 1) % 4) == []
        if low_bids and rng.random() < 0.9:
            game.bid(seat, rng.randint(1, 3))
        else:
            game.bid(seat, rng.choice(bids))
    assert game.phase is Phase.PLAYING


def play_hand(game: Game, rng: random.Random, revoke_rate: float) -> list[tuple[int, int]]:
    """Play the hand's 52 cards, checking every one; returns the revokes made."""
    rules = game.rules
    hands = [set(cards_of(m)) for m in game.dealt]
    leader = (game.dealer + 1) % 4
    broken = False
    won = [0, 0, 0, 0]
    revokes: list[tuple[int, int]] = []
    played: list[int] = []
    for trick_index in range(13):
        trick: list[int] = []
        for position in range(4):
            seat = (leader + position) % 4
            assert game.to_act == seat and game.leader == leader
            legal = oracle.legal_cards(hands[seat], trick, broken, trick_index == 0, rules)
            assert game.legal_play_mask(seat) == mask_of(legal)
            assert set(game.legal_cards(seat)) == legal
            assert game.legal_play_mask((seat + 1) % 4) == 0
            choices = sorted(legal)
            if trick and rules.revokes is RevokeRule.ALLOWED and rng.random() < revoke_rate:
                choices = sorted(hands[seat])  # anything, a revoke if it does not follow
            assert set(cards_of(game.playable_mask(seat))) >= set(choices)
            card = rng.choice(choices)
            if card not in legal:
                revokes.append((seat, trick_index))
            game.play(seat, card)
            hands[seat].remove(card)
            trick.append(card)
            played.append(card)
            broken = broken or oracle.breaks_spades(card, trick[0], rules)
        taker = oracle.trick_taker(leader, trick)
        done = game.tricks[trick_index]
        assert (done.leader, list(done.cards), done.winner) == (leader, trick, taker)
        won[taker] += 1
        leader = taker
    assert sorted(played) == list(range(52))
    assert all(not hand for hand in hands)
    assert game.tricks_won == won
    assert game.revokes == revokes
    return revokes


def check_scoring(game: Game, before: list[int], bags_before: list[int]) -> None:
    record = game.hand_records[-1]
    bids = [b for b in game.bids]
    assert None not in bids
    for team in (0, 1):
        points, bags = oracle.team_hand(
            game.rules,
            (bids[team], bids[team + 2]),  # type: ignore[arg-type]
            (game.tricks_won[team], game.tricks_won[team + 2]),
            bags_before[team],
        )
        assert record.hand_score[team] == points
        assert game.bags[team] == bags and 0 <= bags <= 9
        assert game.scores[team] == before[team] + points
    assert record.score_before == before and record.bags_before == bags_before
    assert record.score_after == game.scores and record.bags_after == game.bags
    totals = [sum(r.hand_score[team] for r in game.hand_records) for team in (0, 1)]
    assert game.scores == totals


def check_end(game: Game) -> bool:
    """Whether the game is over, checked against the preset's end rule."""
    verdict = oracle.game_end(game.rules, game.scores)
    record = game.hand_records[-1]
    if verdict == oracle.CONTINUES:
        assert game.phase is Phase.HAND_OVER and game.result is None
        assert not record.game_over and record.winner is None
        return False
    assert game.phase is Phase.GAME_OVER and game.result is not None
    assert record.game_over
    if verdict == oracle.DRAW:
        assert game.result.winner is None and record.winner == "draw"
    else:
        assert game.result.winner == verdict == record.winner
    return True


def round_trip(game: Game) -> None:
    copy = Game.from_json(json.loads(json.dumps(game.to_json())))
    assert copy.observable() == game.observable()
    replayed = Game.replay(game.rules, game.seed, game.actions, game.started_at)
    assert replayed.observable() == game.observable()


def play_checked_game(
    rules_name: str, seed: int, moves_seed: int, revoke_rate: float, low_bids: bool
) -> Game:
    rules = preset(rules_name)
    if low_bids:  # a short game, so that a team reaches the target in a few hands
        rules = rules.with_options(target=150)
    game = Game.new(rules, seed)
    rng = random.Random(moves_seed)
    dealer = game.dealer
    for _hand in range(MAX_HANDS):
        check_deal(game, dealer)
        before, bags_before = list(game.scores), list(game.bags)
        bid_hand(game, rng, low_bids)
        play_hand(game, rng, revoke_rate)
        check_scoring(game, before, bags_before)
        if rng.random() < 0.2:
            round_trip(game)
        if check_end(game):
            break
        game.next_hand(rng.randrange(4))
        dealer = (dealer + 1) % 4
    else:
        raise AssertionError("a random game ran past its hand limit")
    round_trip(game)
    return game


@SETTINGS
@given(
    rules_name=st.sampled_from(sorted(PRESETS)),
    seed=st.integers(0, 2**64),
    moves_seed=st.integers(0, 2**32),
    low_bids=st.booleans(),
)
@example(rules_name="blind-nil", seed=2427, moves_seed=2427, low_bids=True)  # 71 hands
def test_random_games_follow_the_rules(
    rules_name: str, seed: int, moves_seed: int, low_bids: bool
) -> None:
    play_checked_game(rules_name, seed, moves_seed, 0.0, low_bids)


@SETTINGS
@given(
    rules_name=st.sampled_from(sorted(PRESETS)),
    seed=st.integers(0, 2**64),
    moves_seed=st.integers(0, 2**32),
)
def test_random_games_with_revokes_follow_the_rules(
    rules_name: str, seed: int, moves_seed: int
) -> None:
    play_checked_game(rules_name, seed, moves_seed, 0.15, low_bids=False)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**64))
def test_the_same_seed_deals_the_same_cards(seed: int) -> None:
    rules = PRESETS["cardgames"]
    first, second = Game.new(rules, seed), Game.new(rules, seed)
    assert first.observable() == second.observable()
    other = Game.new(rules, seed + 1)
    assert other.dealt != first.dealt


def junk_action(game: Game, rng: random.Random) -> tuple[ActionKind, int, int]:
    """An action of any kind from any seat (valid or not), often a wrong one."""
    kind = rng.choice([ActionKind.PLAY, ActionKind.PLAY, ActionKind.BID, ActionKind.NEXT_HAND])
    seat = rng.choice([game.to_act, game.to_act, rng.randrange(-2, 6)])
    if kind is ActionKind.PLAY:
        value = rng.choice([rng.randrange(-2, 54), *cards_of(game.hands[seat % 4])])
    else:
        value = rng.randrange(-2, 15)
    return kind, seat, value


def accepted(game: Game, kind: ActionKind, seat: int, value: int) -> bool:
    """Whether the legal queries allow the action."""
    if kind is ActionKind.PLAY:
        return 0 <= seat < 4 and 0 <= value < 52 and bool(game.playable_mask(seat) >> value & 1)
    if kind is ActionKind.BID:
        return value in game.legal_bids(seat)
    return game.phase is Phase.HAND_OVER and 0 <= seat < 4


@SETTINGS
@given(
    rules_name=st.sampled_from(sorted(PRESETS)),
    revokes=st.sampled_from(["allowed", "blocked"]),
    seed=st.integers(0, 2**64),
    moves_seed=st.integers(0, 2**32),
)
def test_any_action_is_accepted_exactly_when_the_legal_queries_allow_it(
    rules_name: str, revokes: str, seed: int, moves_seed: int
) -> None:
    game = Game.new(preset(rules_name).with_options(revokes=revokes), seed)
    rng = random.Random(moves_seed)
    for _step in range(300):
        if game.over:
            break
        kind, seat, value = junk_action(game, rng)
        expected = accepted(game, kind, seat, value)
        before = game.observable()
        try:
            game.apply(Action(kind, seat, value))
        except IllegalAction:
            assert not expected, (kind, seat, value)
            assert game.observable() == before
        else:
            assert expected, (kind, seat, value)
    round_trip(game)
