"""The game: one game of Spades, from the first deal to the result; its
sides (two partnerships, or four players in solo) are :mod:`bot.game.sides`.

The state is the seed plus an append-only list of :class:`~bot.game.types.Action`;
every method that changes the state validates first (:mod:`bot.game.checks`)
and raises an :class:`~bot.game.refusals.IllegalAction` subclass, touching
nothing. The engine owns no clock: actions carry the time they were made.
``play``, ``bid`` and ``legal_cards``, the hot paths of simulations, work on
private fields derived from the public ones (the seat to play, the suit led,
the log as plain tuples), which every other method keeps up to date.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field, fields
from typing import Any, Final, cast

from bot.game import bidding, checks, observe, passing, refusals, rest_claim
from bot.game.cards import (
    CARD_COUNT,
    HAND_SIZE,
    SUIT_MASKS,
    SUIT_NAMES,
    cards_tuple,
    is_trump,
    suit_of,
)
from bot.game.deal import deal, first_dealer
from bot.game.passing import NO_EXCHANGE, Exchange
from bot.game.record import HandRecord
from bot.game.refusals import N_
from bot.game.rest_claim import NO_CLAIM, RestClaim
from bot.game.rules import Bidding, FirstLead, RevokeRule, RuleSet, SpadesLead
from bot.game.scoring import game_result, score_hand
from bot.game.sides import deficit, side_of, sides, winner_without
from bot.game.trick import (
    Trick,
    breaks_spades,
    follow_cards,
    lead_mask,
    legal_mask,
    winning_index,
)
from bot.game.types import (
    Action,
    ActionKind,
    EndReason,
    GameResult,
    LogEntry,
    Phase,
)

# Bound once: the hot paths build tuples and compare phases without attribute look-ups.
_new_tuple: Final = tuple.__new__
_PLAY: Final = ActionKind.PLAY
_BID: Final = ActionKind.BID
_PLAYING: Final = Phase.PLAYING
_BIDDING: Final = Phase.BIDDING
_HAND_OVER: Final = Phase.HAND_OVER
_LOWEST_CLUB: Final = FirstLead.LOWEST_CLUB
_SPADES_LEAD_ANY: Final = SpadesLead.ANY
_OPEN: Final = Bidding.OPEN
#: No seat (``_turn`` between hands and while bidding). The hot paths refuse
#: negative seats too, so that it never stands for a seat.
NOBODY: Final = -1


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
    #: Per side: team 0 and 1, or seat 0 to 3 in solo (see :meth:`new`).
    scores: list[int] = field(default_factory=lambda: [0, 0])
    bags: list[int] = field(default_factory=lambda: [0, 0])
    hand_records: list[HandRecord] = field(default_factory=list)
    waiting_since: float = 0.0
    result: GameResult | None = None
    rest: RestClaim = NO_CLAIM  # a claim of the rest of the hand's tricks
    exchange: Exchange = NO_EXCHANGE  # the hand's Nil passes

    # Private, derived from the fields above and kept for the hot paths (init
    # fields all the same, so that ``Game(**fields)`` copies a game):
    #: the accepted actions as plain tuples, the cheapest record to append per
    #: card (:attr:`actions` turns them into :class:`Action` on reading);
    _log: list[LogEntry] = field(default_factory=list, repr=False)
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
        count = len(sides(rules))  # a score and bags per side
        fixed = [list(d) for d in fixed_deals or []]
        game = cls(rules, seed, started_at, fixed, scores=[0] * count, bags=[0] * count)
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

    def observable(self) -> dict[str, Any]:
        """Everything observable about the state (:func:`bot.game.observe.observable`)."""
        return observe.observable(self)

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
    def action_count(self) -> int:
        """How many actions were accepted (without listing them)."""
        return len(self._log)

    @property
    def over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    def contract(self, side: int) -> int:
        total = 0
        for seat in sides(self.rules)[side]:
            bid = self.bids[seat]
            if bid is not None and bid > 0:
                total += bid
        return total

    def legal_bids(self, seat: int) -> list[int]:
        """The bids the seat may make now (empty when it is not its turn to
        bid), Blind Nil first, then Nil, then the numbers up (see
        :func:`bot.game.bidding.legal_bids`)."""
        if self.phase is not _BIDDING or seat != self.to_act:
            return []
        partner_bid = self.bids[(seat + 2) & 3]
        open_blind = self.blind_nil_open(seat)
        return list(bidding.legal_bids(self.rules, self.hands[seat], partner_bid, open_blind))

    def forced_bid(self, seat: int) -> int | None:
        """The bid the seat must make now when the rules leave it no choice
        (Mirror, or one bid left by the format), else None: the table may
        make it for the seat."""
        return bidding.forced_bid(self.legal_bids(seat))

    def blind_nil_open(self, seat: int) -> bool:
        """Whether the seat may bid Blind Nil now: the rules allow it, it has
        not looked at its cards and its side trails the leader by enough."""
        rules = self.rules
        if not rules.blind_nil or self.looked[seat]:
            return False
        return deficit(self.scores, side_of(rules, seat)) >= rules.blind_nil_min_deficit

    def legal_play_mask(self, seat: int) -> int:
        """Cards the seat may play without revoking (all cards a computer player considers)."""
        if seat != self._turn or seat < 0:  # the seat to play, in the play phase
            return 0
        return legal_mask(self.hands[seat], self.trick, self.spades_broken, self._club_lead)

    def legal_cards(self, seat: int) -> tuple[int, ...]:
        """:meth:`legal_play_mask` as its cards in the one card order (the
        cheapest way to list or pick a legal card)."""
        if seat != self._turn or seat < 0:
            return ()
        hand = self.hands[seat]
        if self.trick:
            return follow_cards(hand, self._led)
        return cards_tuple(lead_mask(hand, self.spades_broken, self._club_lead))

    def playable_mask(self, seat: int) -> int:
        """Cards the engine accepts from the seat now: with revokes allowed, off-suit too."""
        if self.trick and self.rules.revokes is RevokeRule.ALLOWED:
            if self.phase is not Phase.PLAYING or seat != self.to_act or self.rest.waiting:
                return 0
            return self.hands[seat]
        return self.legal_play_mask(seat)

    def waited_on(self) -> int | None:
        """The seat the table is waiting on to bid or play, or to answer a
        claim of the rest, if any."""
        if self.rest.waiting:
            return self.rest.waiting_on()
        if self.phase in (Phase.BIDDING, Phase.PASSING, Phase.PLAYING):
            return self.to_act
        return None

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
        elif kind is ActionKind.MODERATOR_END:
            self.end_by_moderator(None, action.at)
        elif kind in rest_claim.KINDS:
            rest_claim.apply(self, kind, action.seat, action.at)
        elif kind is ActionKind.PASS:  # a Nil pass's cards, as a mask
            passing.apply(self, action.seat, action.value, action.at)
        else:  # pragma: no cover - ActionKind is closed
            raise refusals.MalformedAction(N_("unknown action {kind}"), kind=repr(kind))

    def look(self, seat: int, at: float = 0.0) -> None:
        checks.check_seat(seat)
        checks.check_not_over(self)
        if self.looked[seat]:
            raise refusals.AlreadyLooked(N_("you have already looked at this hand"))
        self.looked[seat] = True
        self._log.append((ActionKind.LOOK, seat, 0, at))

    def bid(self, seat: int, bid: object, at: float = 0.0) -> None:
        # ``bid`` is typed ``object`` so that a bid of the wrong type is
        # refused like any other bad bid, compiled or not (a compiled engine
        # checks argument types before the method runs).
        rules = self.rules
        if type(bid) is not int:  # 3.0 and True equal bids but are none
            checks.check_bid(self, seat, bid)
        if 0 < bid <= HAND_SIZE and rules.bidding is _OPEN and not rules.min_team_bid:
            # The common case, checked without listing the legal bids: a
            # number at an open table without a team minimum.
            legal = self.phase is _BIDDING and seat == self.to_act
        else:
            legal = bid in self.legal_bids(seat)  # (none out of turn or phase)
        if not legal:
            checks.check_bid(self, seat, bid)
        value: int = bid
        self.bids[seat] = value
        bid_order = self.bid_order
        bid_order.append((seat, value))
        self._log.append((_BID, seat, value, at))
        self.waiting_since = at
        if len(bid_order) < 4:
            self.to_act = (seat + 1) & 3
            return
        if (rules.nil_pass or rules.blind_nil_pass) and passing.begin(self):
            return
        self._start_play()

    def play(self, seat: int, card: int, at: float = 0.0) -> None:
        # The hot path of the engine (simulations and benchmarks): validation
        # and the update are written out inline on private derived fields,
        # every refusal is built in ``refusals``.
        if seat != self._turn or seat < 0:
            raise checks.play_refusal(self, seat, card)
        hands = self.hands
        hand = hands[seat]
        try:
            held = hand >> card & 1 if 0 <= card < CARD_COUNT else 0
        except TypeError:  # not even a number
            held = 0
        if not held:
            raise checks.play_refusal(self, seat, card)
        bit = 1 << card
        trick = self.trick
        if trick:
            led = self._led_mask
            if not bit & led and hand & led:  # a revoke: the suit led is held
                if self.rules.revokes is RevokeRule.BLOCKED:
                    raise refusals.MustFollowSuit(
                        N_("you must follow {suit}"), suit=SUIT_NAMES[self._led]
                    )
                self.revokes.append((seat, len(self.tricks)))
        else:
            if not lead_mask(hand, self.spades_broken, self._club_lead) & bit:
                raise checks.lead_refusal(self, hand, card)
            self._led = led = suit_of(card)
            self._led_mask = SUIT_MASKS[led]
            self._club_lead = False
        # Validated: from here on nothing raises.
        hands[seat] = hand ^ bit
        trick.append(card)
        if not self.spades_broken and is_trump(card):  # (the rules are read only then)
            self.spades_broken = breaks_spades(card, self._led, self.rules.spades_break)
        self._log.append((_PLAY, seat, card, at))
        self.waiting_since = at
        if len(trick) < 4:
            self.to_act = self._turn = (seat + 1) & 3
            return
        taker = winning_index(trick)
        leader = self.leader
        winner = (leader + taker) & 3
        tricks = self.tricks
        tricks.append(_new_tuple(Trick, (leader, tuple(trick), winner)))
        won = self.tricks_won
        won[winner] = won[winner] + 1
        self.trick = []
        if len(tricks) < HAND_SIZE:
            self.to_act = self.leader = self._turn = winner
            return
        self.to_act = self.leader = winner
        self._finish_hand()

    def next_hand(self, seat: int, at: float = 0.0) -> None:
        checks.check_seat(seat)
        checks.check_not_over(self)
        if self.phase is not Phase.HAND_OVER:
            raise refusals.WrongPhase(N_("this hand is not over yet"))
        self._log.append((ActionKind.NEXT_HAND, seat, 0, at))
        self.dealer = (self.dealer + 1) & 3
        self.waiting_since = at
        self._deal_hand()

    def challenge(self, seat: int, accused: int, at: float = 0.0) -> None:
        """A revoke challenge by ``seat`` against ``accused``: it ends the game."""
        checks.check_challenge(self, seat, accused)
        self._log.append((ActionKind.CHALLENGE, seat, accused, at))
        if any(revoker == accused for revoker, _ in self.revokes):
            self._end(GameResult(self._winner_without(accused), EndReason.REVOKE, accused))
        else:
            self._end(GameResult(self._winner_without(seat), EndReason.FALSE_CLAIM, seat))

    def resign(self, seat: int, at: float = 0.0) -> None:
        checks.check_seat(seat)
        checks.check_not_over(self)
        self._log.append((ActionKind.RESIGN, seat, 0, at))
        self._end(GameResult(self._winner_without(seat), EndReason.RESIGNATION, seat))

    def claim_timeout(self, seat: int, at: float = 0.0) -> None:
        waiting = checks.check_timeout_claim(self, seat, at)
        self._log.append((ActionKind.CLAIM_TIMEOUT, seat, 0, at))
        self._end(GameResult(self._winner_without(waiting), EndReason.TIMEOUT, waiting))

    def copy(self) -> Game:
        """An independent copy of this state: what ``apply`` or
        ``end_by_moderator`` does to one, the other never sees. The engine
        changes its list fields in place but never an object inside one (a
        Trick, a HandRecord once its hand is over, a tuple), so each list is
        copied and what it holds is shared."""
        values: list[Any] = [list(v) if type(v) is list else v for v in _FIELD_VALUES(self)]
        return Game(*values)

    def end_by_moderator(self, note: str | None, at: float = 0.0) -> None:
        """A moderator ends the game, nobody winning; ``note`` (their reason)
        stays with the result; the log keeps it beside the action (a replay
        ends the game with it). Logs seat 0."""
        checks.check_not_over(self)
        self._log.append((ActionKind.MODERATOR_END, 0, 0, at))
        self._end(GameResult(None, EndReason.MODERATOR, None, note))

    # -- internals ------------------------------------------------------------

    def _winner_without(self, seat: int) -> int:
        return winner_without(self.rules, self.scores, seat)

    def _deal_hand(self) -> None:
        self.hand_number += 1
        if self.hand_number <= len(self.fixed_deals):
            dealt = list(self.fixed_deals[self.hand_number - 1])
        else:
            dealt = deal(self.seed, self.hand_number, self.dealer, self.rules.deck)
        self.dealt = dealt
        self.hands = list(dealt)
        self.looked = [False] * 4
        self.bids = [None] * 4
        self.bid_order = []
        self.trick = []
        self.tricks = []
        self.tricks_won = [0, 0, 0, 0]
        # Where spades may be led at any time, they are broken from the start.
        self.spades_broken = self.rules.spades_lead is _SPADES_LEAD_ANY
        self.revokes = []
        self.phase = _BIDDING
        self.to_act = self.leader = (self.dealer + 1) & 3
        self._turn = NOBODY
        self._led = -1
        self._led_mask = 0
        self._club_lead = self.rules.first_lead is _LOWEST_CLUB
        self.rest = NO_CLAIM
        self.exchange = NO_EXCHANGE

    def _start_play(self) -> None:
        self.phase = _PLAYING
        self.to_act = self.leader = self._turn = (self.dealer + 1) & 3

    def _finish_hand(self, claim: tuple[int, int] | None = None) -> None:
        bids = cast(list[int], self.bids)  # all four made: the hand was played
        record = HandRecord.of_hand(self, score_hand(self.rules, bids, self.tricks_won, self.bags))
        record.claim = claim  # (seat, tricks) of an accepted claim of the rest
        record.passes = self.exchange.given
        self.scores[:] = record.score_after
        self.bags[:] = record.bags_after
        self.hand_records.append(record)
        self.phase = _HAND_OVER
        self._turn = NOBODY
        result = game_result(self.rules, self.scores)
        if result is not None:
            record.game_over = True
            record.winner = "draw" if result.winner is None else result.winner
            self._end(result)

    def _end(self, result: GameResult) -> None:
        self.result = result
        self.phase = Phase.GAME_OVER
        self._turn = NOBODY


#: A state's fields in order, read at once (:meth:`Game.copy`).
_FIELD_VALUES = operator.attrgetter(*(spec.name for spec in fields(Game)))
