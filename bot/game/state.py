"""Partnership Spades: one game, from the first deal to the result.

Rules and action space
----------------------
Four seats; seats 0 and 2 are team 0, seats 1 and 3 team 1; play moves to the
next seat number. Each hand is dealt from the game's seed, the deal moving one
seat on every hand. Phases:

* ``BIDDING``: from the dealer's next seat, each seat bids once: 1-13,
  :data:`NIL`, or :data:`BLIND_NIL` where the rules allow it and the seat has
  not looked at its cards (``look`` records that it has).
* ``PLAYING``: 13 tricks. The dealer's next seat leads the first under the
  rules' first-lead option; players follow suit; spades trump; nobody leads a
  spade before spades are broken (by any spade played, or only by one played
  off suit, as the rules say) unless they hold nothing else. Where revokes
  are allowed an off-suit card is accepted and remembered, and an opponent may
  ``challenge`` until the next hand starts.
* ``HAND_OVER``: the hand is scored; ``next_hand`` deals the next one.
* ``GAME_OVER``: a team reached the target or the losing score, a revoke
  challenge settled the game, a player resigned, or a timeout was claimed.

The state is the seed plus an append-only list of :class:`Action`; every
method that changes the state validates first and raises an
:class:`~bot.game.errors.IllegalAction` subclass without touching anything.
The engine owns no clock: actions carry the time they were made.

``play``, ``bid`` and ``legal_cards`` are the hot paths of simulations: they
work on a few private fields derived from the public ones (the seat to play,
the suit led, the action log as plain tuples), which every other method keeps
up to date.
"""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final, NamedTuple, cast

from bot.game import errors
from bot.game.cards import (
    CARDS_OF_PATTERN,
    CLUB_CARDS,
    DIAMOND_CARDS,
    FULL_SUIT,
    HEART_CARDS,
    NON_SPADE_MASK,
    SPADE_CARDS,
    SPADES,
    SUIT_MASKS,
    SUIT_NAMES,
    card_name,
    cards_of,
    cards_tuple,
    lowest_card,
)
from bot.game.rules import FirstDealer, FirstLead, RevokeRule, RuleSet, SpadesBreak, TieRule
from bot.game.scoring import BLIND_NIL, NIL, TeamHandResult, bid_text, score_hand


class Phase(StrEnum):
    BIDDING = "bidding"
    PLAYING = "playing"
    HAND_OVER = "hand_over"
    GAME_OVER = "game_over"


class ActionKind(StrEnum):
    LOOK = "look"
    BID = "bid"
    PLAY = "play"
    CHALLENGE = "challenge"
    NEXT_HAND = "next_hand"
    RESIGN = "resign"
    CLAIM_TIMEOUT = "claim_timeout"


class EndReason(StrEnum):
    TARGET = "target"
    LOSING_SCORE = "losing_score"
    REVOKE = "revoke"  # a proven revoke challenge
    FALSE_CLAIM = "false_claim"  # an unproven revoke challenge
    RESIGNATION = "resignation"
    TIMEOUT = "timeout"


class Action(NamedTuple):
    """One accepted move. ``value`` is the bid, the card or the accused seat.

    A named tuple rather than a dataclass: the engine records one per card
    played, and a tuple is several times cheaper to build.
    """

    kind: ActionKind
    seat: int
    value: int = 0
    at: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "seat": self.seat, "value": self.value, "at": self.at}

    @classmethod
    def from_json(cls, data: object) -> Action:
        if not isinstance(data, dict):
            raise errors.MalformedAction(f"that action is malformed: {data!r} is not an object")
        try:
            kind = ActionKind(data["kind"])
            seat = int(data["seat"])
            value = int(data.get("value", 0))
            at = float(data.get("at", 0.0))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise errors.MalformedAction(f"that action is malformed: {exc}") from None
        return cls(kind, seat, value, at)


class Trick(NamedTuple):
    leader: int
    cards: tuple[int, ...]  # in play order from the leader
    winner: int


# Bound once: the hot paths build tuples and compare phases without attribute look-ups.
_new_tuple: Final = tuple.__new__
_PLAY: Final = ActionKind.PLAY
_BID: Final = ActionKind.BID
_PLAYING: Final = Phase.PLAYING
_BIDDING: Final = Phase.BIDDING
_HAND_OVER: Final = Phase.HAND_OVER
_LOWEST_CLUB: Final = FirstLead.LOWEST_CLUB
_BID_RANGE: Final = (NIL, *range(1, 14))
_BID_SET: Final = frozenset(_BID_RANGE)
#: No seat (``_turn`` between hands and while bidding). The hot paths refuse
#: negative seats too, so that it never stands for a seat.
NOBODY: Final = -1
#: One past the highest card of each suit.
_SUIT_END: Final = (13, 26, 39, 52)


@dataclass(frozen=True, slots=True)
class GameResult:
    winner: int | None  # team 0 or 1; None for a draw
    reason: EndReason
    seat: int | None = None  # who resigned, revoked, claimed falsely or ran out of time

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "reason": self.reason.value, "seat": self.seat}


@dataclass(slots=True)
class HandRecord:
    """A finished hand, in the shape of the simulator's ``--record`` lines."""

    hand: int
    dealer: int
    dealt: list[int]  # the four hands as dealt, as masks (see :attr:`hands`)
    bids: list[tuple[int, int]]  # (seat, bid) in bidding order
    tricks: list[Trick]
    tricks_won: list[int]
    score_before: list[int]
    bags_before: list[int]
    hand_score: list[int]
    score_after: list[int]
    bags_after: list[int]
    results: tuple[TeamHandResult, TeamHandResult]
    game_over: bool = False
    winner: int | str | None = None

    @property
    def hands(self) -> list[list[int]]:
        """The four hands as dealt, each as its cards (listed on reading: a
        finished hand keeps only its four masks)."""
        return [cards_of(mask) for mask in self.dealt]

    def to_json(self, game_id: str, preset: str) -> dict[str, Any]:
        return {
            "game": game_id,
            "hand": self.hand,
            "preset": preset,
            "dealer": self.dealer,
            "hands": [[card_name(c) for c in hand] for hand in self.hands],
            "bids": [{"seat": s, "bid": bid_json(b)} for s, b in self.bids],
            "tricks": [
                {"leader": t.leader, "cards": [card_name(c) for c in t.cards], "winner": t.winner}
                for t in self.tricks
            ],
            "tricks_won": list(self.tricks_won),
            "score_before": list(self.score_before),
            "bags_before": list(self.bags_before),
            "hand_score": list(self.hand_score),
            "score_after": list(self.score_after),
            "bags_after": list(self.bags_after),
            "game_over": self.game_over,
            "winner": self.winner,
        }


def bid_json(bid: int) -> int | str:
    return bid if bid > 0 else bid_text(bid)


def team_of(seat: int) -> int:
    return seat & 1


_DEAL_KEYS: Final = struct.Struct("<52Q")
_DECK_ORDER: Final = range(52)


def seeded_bytes(seed: int, label: str, size: int) -> bytes:
    """``size`` bytes determined by the game's seed and ``label`` alone (the
    same on every machine and Python version)."""
    return hashlib.shake_128(f"spades:{seed}:{label}".encode()).digest(size)


def deal(seed: int, hand_number: int, dealer: int) -> list[int]:
    """The four hands (masks) of one hand of a game: same seed, same deal.

    The deck is shuffled by sorting the cards on 64-bit keys derived from the
    seed and the hand number (equal keys, about one deal in 10**16, would keep
    card order), then dealt one card at a time from the dealer's next seat.
    """
    keys = _DEAL_KEYS.unpack(seeded_bytes(seed, f"hand {hand_number}", 8 * 52))
    deck = sorted(_DECK_ORDER, key=keys.__getitem__)
    # Dealt one card at a time: position k of the deck goes to the dealer's
    # next seat plus k (four masks built in one pass over the deck).
    first = second = third = fourth = 0
    for k in range(0, 52, 4):
        first |= 1 << deck[k]
        second |= 1 << deck[k + 1]
        third |= 1 << deck[k + 2]
        fourth |= 1 << deck[k + 3]
    hands = [0, 0, 0, 0]
    hands[(dealer + 1) & 3] = first
    hands[(dealer + 2) & 3] = second
    hands[(dealer + 3) & 3] = third
    hands[dealer & 3] = fourth
    return hands


def first_dealer(rules: RuleSet, seed: int) -> int:
    if rules.first_dealer is FirstDealer.RANDOM:
        return seeded_bytes(seed, "first dealer", 1)[0] & 3
    return 0  # the host's seat


@dataclass(slots=True)
class Game:
    rules: RuleSet
    seed: int
    started_at: float = 0.0
    #: Hands fixed in advance (for tests and puzzles): entry k is the four
    #: masks of hand k+1; later hands come from the seed.
    fixed_deals: list[list[int]] = field(default_factory=list)

    phase: Phase = Phase.BIDDING
    hand_number: int = 0
    dealer: int = 0
    # The fields of the hand in progress (dealt, hands, ... revokes) are set
    # when each hand is dealt; their defaults only stand for "no hand yet".
    dealt: list[int] = field(default_factory=list)
    hands: list[int] = field(default_factory=list)
    looked: list[bool] = field(default_factory=list)
    bids: list[int | None] = field(default_factory=list)
    bid_order: list[tuple[int, int]] = field(default_factory=list)
    to_act: int = 0
    leader: int = 0
    trick: list[int] = field(default_factory=list)
    tricks: list[Trick] = field(default_factory=list)
    tricks_won: list[int] = field(default_factory=list)
    spades_broken: bool = False
    revokes: list[tuple[int, int]] = field(default_factory=list)  # (seat, trick index)
    scores: list[int] = field(default_factory=lambda: [0, 0])
    bags: list[int] = field(default_factory=lambda: [0, 0])
    hand_records: list[HandRecord] = field(default_factory=list)
    waiting_since: float = 0.0
    result: GameResult | None = None

    # Private, derived from the fields above and kept for the hot paths (init
    # fields all the same, so that ``Game(**fields)`` copies a game):
    #: the accepted actions as plain tuples, the cheapest record to append per
    #: card (:attr:`actions` turns them into :class:`Action` on reading);
    _log: list[tuple[ActionKind, int, int, float]] = field(default_factory=list, repr=False)
    _actions: list[Action] = field(default_factory=list, repr=False)
    #: the seat to play while the phase is PLAYING, else NOBODY;
    _turn: int = field(default=NOBODY, repr=False)
    #: the suit led to the trick in progress and its mask (meaningless between tricks);
    _led: int = field(default=-1, repr=False)
    _led_mask: int = field(default=0, repr=False)
    #: whether the next lead is a first lead that must be the lowest club.
    _club_lead: bool = field(default=False, repr=False)

    # -- creation, replay and JSON -------------------------------------------------

    @classmethod
    def new(
        cls,
        rules: RuleSet,
        seed: int,
        started_at: float = 0.0,
        fixed_deals: list[list[int]] | None = None,
    ) -> Game:
        game = cls(rules, seed, started_at, [list(d) for d in fixed_deals or []])
        game.dealer = first_dealer(rules, seed)
        game.waiting_since = started_at
        game._deal_hand()
        return game

    @classmethod
    def replay(
        cls,
        rules: RuleSet,
        seed: int,
        actions: list[Action],
        started_at: float = 0.0,
        fixed_deals: list[list[int]] | None = None,
    ) -> Game:
        game = cls.new(rules, seed, started_at, fixed_deals)
        for action in actions:
            game.apply(action)
        return game

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.model_dump(mode="json"),
            "seed": self.seed,
            "started_at": self.started_at,
            "fixed_deals": [list(d) for d in self.fixed_deals],
            "actions": [a.to_json() for a in self.actions],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Game:
        rules = RuleSet.model_validate(data["rules"])
        actions = [Action.from_json(a) for a in data["actions"]]
        return cls.replay(
            rules,
            int(data["seed"]),
            actions,
            float(data.get("started_at", 0.0)),
            data.get("fixed_deals") or None,
        )

    def snapshot(self) -> dict[str, Any]:
        """Everything observable about the state, for comparing two games."""
        return {
            "phase": self.phase.value,
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "dealt": list(self.dealt),
            "hands": list(self.hands),
            "looked": list(self.looked),
            "bids": list(self.bids),
            "bid_order": list(self.bid_order),
            "to_act": self.to_act,
            "leader": self.leader,
            "trick": list(self.trick),
            "tricks": [(t.leader, t.cards, t.winner) for t in self.tricks],
            "tricks_won": list(self.tricks_won),
            "spades_broken": self.spades_broken,
            "revokes": list(self.revokes),
            "scores": list(self.scores),
            "bags": list(self.bags),
            "hands_played": len(self.hand_records),
            "waiting_since": self.waiting_since,
            "result": self.result.to_json() if self.result else None,
            "actions": len(self._log),
        }

    # -- queries --------------------------------------------------------------

    @property
    def actions(self) -> list[Action]:
        """Every accepted action, oldest first: the game's append-only history.
        Read it; never change the list."""
        actions = self._actions
        done = len(actions)
        if done < len(self._log):
            actions.extend(map(Action._make, self._log[done:]))
        return actions

    @property
    def over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    def team_score(self, team: int) -> int:
        return self.scores[team]

    def contract(self, team: int) -> int:
        total = 0
        for seat in (team, team + 2):
            bid = self.bids[seat]
            if bid is not None and bid > 0:
                total += bid
        return total

    def legal_bids(self, seat: int) -> list[int]:
        """The bids the seat may make now (empty when it is not its turn to bid)."""
        if self.phase is not _BIDDING or seat != self.to_act:
            return []
        if self.rules.blind_nil and self._blind_nil_open(seat):
            return [BLIND_NIL, *_BID_RANGE]
        return list(_BID_RANGE)

    def legal_play_mask(self, seat: int) -> int:
        """Cards the seat may play without revoking (all cards a computer player considers)."""
        if self.phase is not _PLAYING or seat != self.to_act:
            return 0
        hand = self.hands[seat]
        if self.trick:
            follow = hand & SUIT_MASKS[self.trick[0] // 13]
            return follow or hand
        return self._lead_mask(hand)

    def legal_cards(self, seat: int) -> tuple[int, ...]:
        """:meth:`legal_play_mask` as its cards in the one card order (the
        cheapest way to list or pick a legal card)."""
        if seat != self._turn or seat < 0:
            return ()
        hand = self.hands[seat]
        if self.trick:
            led = self._led
            return CARDS_OF_PATTERN[led][hand >> 13 * led & FULL_SUIT] or cards_tuple(hand)
        if self._club_lead:
            return cards_tuple(self._lead_mask(hand))
        # A lead: the three side suits' cards by table look-ups, then the
        # spades (a hand has no bit above 51, so hand >> 39 is its spades),
        # which only a broken suit or a hand of nothing else may lead.
        side = (
            CLUB_CARDS[hand & FULL_SUIT]
            + DIAMOND_CARDS[hand >> 13 & FULL_SUIT]
            + HEART_CARDS[hand >> 26 & FULL_SUIT]
        )
        if self.spades_broken:
            return side + SPADE_CARDS[hand >> 39]
        return side or SPADE_CARDS[hand >> 39]

    def playable_mask(self, seat: int) -> int:
        """Cards the engine accepts from the seat now: with revokes allowed, off-suit too."""
        if self.trick and self.rules.revokes is RevokeRule.ALLOWED:
            if self.phase is not Phase.PLAYING or seat != self.to_act:
                return 0
            return self.hands[seat]
        return self.legal_play_mask(seat)

    def waited_on(self) -> int | None:
        """The seat the table is waiting on to bid or play, if any."""
        if self.phase in (Phase.BIDDING, Phase.PLAYING):
            return self.to_act
        return None

    def timeout_claimable(self, seat: int, now: float) -> bool:
        waiting = self.waited_on()
        return (
            waiting is not None
            and team_of(seat) != team_of(waiting)
            and now - self.waiting_since > self.rules.turn_limit_s
        )

    # -- actions --------------------------------------------------------------

    def apply(self, action: Action) -> None:
        kind = action.kind
        if kind is ActionKind.PLAY:
            self.play(action.seat, action.value, action.at)
        elif kind is ActionKind.BID:
            self.bid(action.seat, action.value, action.at)
        elif kind is ActionKind.LOOK:
            self.look(action.seat, action.at)
        elif kind is ActionKind.NEXT_HAND:
            self.next_hand(action.seat, action.at)
        elif kind is ActionKind.CHALLENGE:
            self.challenge(action.seat, action.value, action.at)
        elif kind is ActionKind.RESIGN:
            self.resign(action.seat, action.at)
        elif kind is ActionKind.CLAIM_TIMEOUT:
            self.claim_timeout(action.seat, action.at)
        else:  # pragma: no cover - ActionKind is closed
            raise errors.MalformedAction(f"unknown action {kind!r}")

    def look(self, seat: int, at: float = 0.0) -> None:
        self._check_seat(seat)
        self._check_not_over()
        if self.looked[seat]:
            raise errors.AlreadyLooked("you have already looked at this hand")
        self.looked[seat] = True
        self._log.append((ActionKind.LOOK, seat, 0, at))

    def bid(self, seat: int, bid: object, at: float = 0.0) -> None:
        # ``bid`` is typed ``object`` so that a bid of the wrong type is
        # refused like any other bad bid, compiled or not (a compiled engine
        # checks argument types before the method runs).
        if (
            self.phase is not _BIDDING
            or seat != self.to_act
            or bid not in _BID_SET
            or type(bid) is not int  # 3.0 and True equal bids but are none
        ):
            self._check_bid(seat, bid)
        value = cast(int, bid)  # one of _BID_SET, or a Blind Nil _check_bid let pass
        self.bids[seat] = value
        bid_order = self.bid_order
        bid_order.append((seat, value))
        self._log.append((_BID, seat, value, at))
        self.waiting_since = at
        if len(bid_order) < 4:
            self.to_act = (seat + 1) & 3
            return
        self.phase = _PLAYING
        self.to_act = self.leader = self._turn = (self.dealer + 1) & 3

    def _check_bid(self, seat: int, bid: object) -> None:
        """Raise the reason a bid is refused; return if it is a valid Blind Nil."""
        self._check_seat(seat)
        if self.phase is not Phase.BIDDING:
            self._check_not_over()
            raise errors.WrongPhase("bidding is over for this hand")
        if seat != self.to_act:
            raise errors.NotYourTurn(f"it is not your turn to bid: seat {self.to_act} bids next")
        if bid == BLIND_NIL and type(bid) is int:
            if not self._blind_nil_open(seat):
                raise errors.BlindNilNotAllowed(self._blind_nil_refusal(seat))
            return
        raise errors.BidOutOfRange("bid from 1 to 13 tricks, or Nil")

    def play(self, seat: int, card: int, at: float = 0.0) -> None:
        # The hot path of the engine (simulations and benchmarks): validation
        # and the update are written out inline on private derived fields,
        # every refusal is built in ``_play_refusal``.
        if seat != self._turn or seat < 0:
            raise self._play_refusal(seat, card)
        hands = self.hands
        hand = hands[seat]
        try:
            held = hand >> card & 1 if 0 <= card < 52 else 0
        except TypeError:  # not even a number
            held = 0
        if not held:
            raise self._play_refusal(seat, card)
        bit = 1 << card
        trick = self.trick
        if trick:
            led = self._led_mask
            if not bit & led and hand & led:  # a revoke: the suit led is held
                if self.rules.revokes is RevokeRule.BLOCKED:
                    raise errors.MustFollowSuit(f"you must follow {SUIT_NAMES[self._led]}")
                self.revokes.append((seat, len(self.tricks)))
        else:
            # Only an unbroken spade or the lowest-club first lead can be refused.
            if ((card >= 39 and not self.spades_broken) or self._club_lead) and not (
                self._lead_mask(hand) & bit
            ):
                raise self._lead_refusal(hand, card)
            self._led = card // 13
            self._led_mask = SUIT_MASKS[card // 13]
            self._club_lead = False
        # Validated: from here on nothing raises.
        hands[seat] = hand ^ bit
        trick.append(card)
        if card >= 39 and not self.spades_broken:
            # Only while spades are unbroken: rare enough to read the rule here.
            self.spades_broken = (
                self._led != SPADES or self.rules.spades_break is SpadesBreak.ANY_SPADE
            )
        self._log.append((_PLAY, seat, card, at))
        self.waiting_since = at
        if len(trick) < 4:
            self.to_act = self._turn = (seat + 1) & 3
            return
        # The trick is full. A card takes the lead from the best so far when
        # it is higher and a spade or of the suit led: spades are the top 13
        # ints, and a higher card below the end of the suit led is of that
        # suit (the best so far is at least the lead). Unrolled: this runs
        # once per trick of every simulated hand.
        end = _SUIT_END[self._led]
        best, second, third, fourth = trick
        taker = 0
        if second > best and (second >= 39 or second < end):
            best, taker = second, 1
        if third > best and (third >= 39 or third < end):
            best, taker = third, 2
        if fourth > best and (fourth >= 39 or fourth < end):
            taker = 3
        leader = self.leader
        winner = (leader + taker) & 3
        tricks = self.tricks
        tricks.append(_new_tuple(Trick, (leader, tuple(trick), winner)))
        won = self.tricks_won
        won[winner] = won[winner] + 1
        self.trick = []
        if len(tricks) < 13:
            self.to_act = self.leader = self._turn = winner
            return
        self.to_act = self.leader = winner
        self._finish_hand()

    def _play_refusal(self, seat: int, card: int) -> errors.IllegalAction:
        if self.phase is not Phase.PLAYING:  # then ``_turn`` is NOBODY
            self._check_seat(seat)
            self._check_not_over()
            return errors.WrongPhase(
                "bidding is not over yet" if self.phase is Phase.BIDDING else "this hand is over"
            )
        if seat != self.to_act:
            self._check_seat(seat)
            return errors.NotYourTurn(f"it is not your turn: seat {self.to_act} plays next")
        if not isinstance(card, int) or not 0 <= card < 52:
            return errors.MalformedAction(f"{card!r} is not a card")
        return errors.CardNotInHand(f"you do not hold the {card_name(card)}")

    def next_hand(self, seat: int, at: float = 0.0) -> None:
        self._check_seat(seat)
        self._check_not_over()
        if self.phase is not Phase.HAND_OVER:
            raise errors.WrongPhase("this hand is not over yet")
        self._log.append((ActionKind.NEXT_HAND, seat, 0, at))
        self.dealer = (self.dealer + 1) & 3
        self.waiting_since = at
        self._deal_hand()

    def challenge(self, seat: int, accused: int, at: float = 0.0) -> None:
        """A revoke challenge by ``seat`` against ``accused``: it ends the game."""
        self._check_seat(seat)
        self._check_not_over()
        if self.rules.revokes is RevokeRule.BLOCKED:
            raise errors.ChallengeRefused("revokes are blocked at this table: nobody can revoke")
        if not 0 <= accused < 4:
            raise errors.ChallengeRefused("you can only challenge a player at this table")
        if team_of(accused) == team_of(seat):
            raise errors.ChallengeRefused("you can only challenge an opponent, not your partner")
        if self.phase is Phase.BIDDING or not (self.tricks or self.trick):
            raise errors.ChallengeRefused(
                "no card has been played in this hand yet; a revoke can only be "
                "called until the next hand starts"
            )
        self._log.append((ActionKind.CHALLENGE, seat, accused, at))
        if any(revoker == accused for revoker, _ in self.revokes):
            self._end(GameResult(1 - team_of(accused), EndReason.REVOKE, accused))
        else:
            self._end(GameResult(1 - team_of(seat), EndReason.FALSE_CLAIM, seat))

    def resign(self, seat: int, at: float = 0.0) -> None:
        self._check_seat(seat)
        self._check_not_over()
        self._log.append((ActionKind.RESIGN, seat, 0, at))
        self._end(GameResult(1 - team_of(seat), EndReason.RESIGNATION, seat))

    def claim_timeout(self, seat: int, at: float = 0.0) -> None:
        self._check_seat(seat)
        self._check_not_over()
        waiting = self.waited_on()
        if waiting is None:
            raise errors.ClaimRefused("the table is not waiting on anyone to bid or play")
        if team_of(seat) == team_of(waiting):
            raise errors.ClaimRefused("only the other team can claim the win")
        if at - self.waiting_since <= self.rules.turn_limit_s:
            left = self.rules.turn_limit_s - (at - self.waiting_since)
            raise errors.ClaimRefused(
                f"the turn limit has not passed yet: {format_duration(left)} to go"
            )
        self._log.append((ActionKind.CLAIM_TIMEOUT, seat, 0, at))
        self._end(GameResult(1 - team_of(waiting), EndReason.TIMEOUT, waiting))

    # -- internals ------------------------------------------------------------

    def _check_seat(self, seat: int) -> None:
        if not isinstance(seat, int) or not 0 <= seat < 4:
            raise errors.NotSeated("you are not seated at this table")

    def _check_not_over(self) -> None:
        if self.phase is Phase.GAME_OVER:
            raise errors.GameIsOver("the game is over")

    def _lead_mask(self, hand: int) -> int:
        if not self.tricks:
            rule = self.rules.first_lead
            if rule is FirstLead.LOWEST_CLUB:
                clubs = hand & SUIT_MASKS[0]
                if clubs:
                    return clubs & -clubs
        if self.spades_broken:
            return hand
        return hand & NON_SPADE_MASK or hand

    def _lead_refusal(self, hand: int, card: int) -> errors.IllegalAction:
        if not self.tricks and self.rules.first_lead is FirstLead.LOWEST_CLUB:
            clubs = hand & SUIT_MASKS[0]
            if clubs:
                lowest = card_name(lowest_card(clubs))
                return errors.FirstLeadRule(f"the first trick opens with your lowest club {lowest}")
        if card // 13 == SPADES and not self.tricks and self.rules.first_lead is FirstLead.NO_SPADE:
            return errors.FirstLeadRule("the first trick may not open with a spade")
        return errors.SpadesNotBroken("spades are not broken: lead another suit")

    def _blind_nil_open(self, seat: int) -> bool:
        if not self.rules.blind_nil or self.looked[seat]:
            return False
        team = team_of(seat)
        return self.scores[1 - team] - self.scores[team] >= self.rules.blind_nil_min_deficit

    def _blind_nil_refusal(self, seat: int) -> str:
        if not self.rules.blind_nil:
            return "Blind Nil is not played at this table"
        if self.looked[seat]:
            return "Blind Nil must be bid before you look at your cards"
        return (
            f"Blind Nil is allowed only when your team trails by "
            f"{self.rules.blind_nil_min_deficit} points or more"
        )

    def _deal_hand(self) -> None:
        self.hand_number += 1
        k = self.hand_number - 1
        if k < len(self.fixed_deals):
            dealt = list(self.fixed_deals[k])
        else:
            dealt = deal(self.seed, self.hand_number, self.dealer)
        self.dealt = dealt
        self.hands = list(dealt)
        self.looked = [False] * 4
        self.bids = [None] * 4
        self.bid_order = []
        self.trick = []
        self.tricks = []
        self.tricks_won = [0, 0, 0, 0]
        self.spades_broken = False
        self.revokes = []
        self.phase = _BIDDING
        self.to_act = self.leader = (self.dealer + 1) & 3
        self._turn = NOBODY
        self._led = -1
        self._led_mask = 0
        self._club_lead = self.rules.first_lead is _LOWEST_CLUB

    def _finish_hand(self) -> None:
        bids = cast(list[int], self.bids)  # all four made: the hand was played
        scores, bags = self.scores, self.bags
        results = score_hand(self.rules, bids, self.tricks_won, bags)
        ours, theirs = results
        before, bags_before = list(scores), list(bags)
        scores[0] += ours.points
        scores[1] += theirs.points
        bags[0] = ours.bags_after
        bags[1] = theirs.bags_after
        record = HandRecord(
            self.hand_number,
            self.dealer,
            list(self.dealt),
            list(self.bid_order),
            list(self.tricks),
            list(self.tricks_won),
            before,
            bags_before,
            [ours.points, theirs.points],
            list(scores),
            list(bags),
            results,
        )
        self.hand_records.append(record)
        self.phase = _HAND_OVER
        self._turn = NOBODY
        result = self._score_result()
        if result is not None:
            record.game_over = True
            record.winner = "draw" if result.winner is None else result.winner
            self._end(result)

    def _score_result(self) -> GameResult | None:
        s0, s1 = self.scores
        rules = self.rules
        reached = s0 >= rules.target or s1 >= rules.target
        fell = rules.losing_score is not None and min(s0, s1) <= rules.losing_score
        if not (reached or fell):
            return None
        reason = EndReason.TARGET if reached else EndReason.LOSING_SCORE
        if s0 != s1:
            return GameResult(0 if s0 > s1 else 1, reason)
        if rules.tie is TieRule.DRAW:
            return GameResult(None, reason)
        return None  # level: another hand

    def _end(self, result: GameResult) -> None:
        self.result = result
        self.phase = Phase.GAME_OVER
        self._turn = NOBODY


def format_duration(seconds: float) -> str:
    whole = max(0, int(seconds))
    hours, rest = divmod(whole, 3600)
    minutes = rest // 60
    if hours:
        return f"{hours} h {minutes:02d} min"
    if minutes:
        return f"{minutes} min"
    return f"{whole} s"
