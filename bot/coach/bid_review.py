"""The review of a finished hand's bids: the coach's bid, scored on the tricks as they fell,
for the bidder's side (its team, or under ``teams=solo`` the bidder alone)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.ai.base import Player
from bot.coach.review import MIN_COST, bids_of, team_points
from bot.game import bidding
from bot.game.record import HandRecord
from bot.game.rules import RuleSet, SpadesLead
from bot.game.scoring import BLIND_NIL, score_hand
from bot.game.sides import partner_of, side_of
from bot.game.types import ActionKind, Phase
from bot.game.view import PlayerView


class BidEffect(StrEnum):
    """What the coach's bid would have changed, the tricks as they fell."""

    MAKE_NIL = "make_nil"  # a Nil, by a seat that took no trick
    MAKE_CONTRACT = "make_contract"
    FEWER_BAGS = "fewer_bags"
    MORE_POINTS = "more_points"


@dataclass(frozen=True, slots=True)
class BidMistake:
    seat: int
    bid: int
    better: int  # the coach's bid
    effect: BidEffect
    number: int  # bags saved for FEWER_BAGS, points for MORE_POINTS
    points: int  # what the coach's bid gains the team, the tricks as they fell


def bidding_view(rules: RuleSet, record: HandRecord, seat: int) -> PlayerView | None:
    """What ``seat`` saw at its turn to bid; None for a bid not chosen on its cards."""
    order = [s for s, _ in record.bids]
    if seat not in order:
        return None
    made = record.bids[: order.index(seat)]
    bid = record.bids[order.index(seat)][1]
    bids: list[int | None] = [None, None, None, None]
    for other, other_bid in made:
        bids[other] = other_bid
    hand = record.dealt[seat]
    partner = partner_of(rules, seat)
    legal = bidding.legal_bids(rules, hand, None if partner is None else bids[partner], False)
    if bid == BLIND_NIL or bid not in legal or len(legal) < 2:
        return None
    first = record.tricks[0].leader if record.tricks else (record.dealer + 1) & 3
    return PlayerView(
        seat=seat,
        rules=rules,
        phase=Phase.BIDDING,
        hand_number=record.hand,
        dealer=record.dealer,
        hand=hand,
        looked=True,
        bids=tuple(bids),
        bid_order=tuple(made),
        to_act=seat,
        leader=first,
        trick=(),
        tricks=(),
        tricks_won=(0, 0, 0, 0),
        spades_broken=rules.spades_lead is SpadesLead.ANY,
        scores=tuple(record.score_before),
        bags=tuple(record.bags_before),
        legal_bids=legal,
        legal_cards=0,
        playable_cards=0,
        result=None,
    )


def review_bids(rules: RuleSet, record: HandRecord, player: Player) -> list[BidMistake]:
    """Each seat's bid that cost at least :data:`MIN_COST` against the coach's; CPU work."""
    found = []
    for seat in range(4):
        view = bidding_view(rules, record, seat)
        if view is None:
            continue
        action = player.decide(view)
        if action.kind is not ActionKind.BID:
            continue
        mistake = _judged(rules, record, seat, action.value)
        if mistake is not None:
            found.append(mistake)
    return found


def _judged(rules: RuleSet, record: HandRecord, seat: int, better: int) -> BidMistake | None:
    bids = bids_of(record)
    if better == bids[seat] or not _later_bids_allowed(rules, record, seat, better):
        return None
    instead = list(bids)
    instead[seat] = better
    won, team, before = record.tricks_won, side_of(rules, seat), record.bags_before
    gain = team_points(rules, instead, won, before, team) - team_points(
        rules, bids, won, before, team
    )
    if gain < MIN_COST:
        return None
    real = score_hand(rules, bids, list(won), list(before))[team]
    alternative = score_hand(rules, instead, list(won), list(before))[team]
    if better <= 0 and alternative.nils_made > real.nils_made:
        effect, number = BidEffect.MAKE_NIL, 0
    elif alternative.made and not real.made:
        effect, number = BidEffect.MAKE_CONTRACT, 0
    elif alternative.new_bags < real.new_bags:
        effect, number = BidEffect.FEWER_BAGS, real.new_bags - alternative.new_bags
    else:
        effect, number = BidEffect.MORE_POINTS, gain
    return BidMistake(seat, bids[seat], better, effect, number, gain)


def _later_bids_allowed(rules: RuleSet, record: HandRecord, seat: int, better: int) -> bool:
    """Whether the partner's later bid was still open after the coach's (Suicide, minimums)."""
    order = [s for s, _ in record.bids]
    partner = partner_of(rules, seat)
    if partner is None or partner not in order or order.index(partner) < order.index(seat):
        return True
    partner_bid = record.bids[order.index(partner)][1]
    return partner_bid in bidding.legal_bids(rules, record.dealt[partner], better, True)
