"""Every rule option of a table, and the presets the project supports.

A preset is just a validated, frozen :class:`RuleSet`; the engine reads the
fields and never asks which preset it is playing.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, model_validator


class Deck(StrEnum):
    """Which 52 cards are dealt (see :data:`bot.game.cards.DECK_MASKS`)."""

    STANDARD = "standard"
    #: Both jokers on top of the trumps, the two of clubs and of diamonds out.
    JOKERS = "jokers"
    #: As ``jokers``, and the two of spades ranks just below the Little Joker.
    JOKERS_DEUCE = "jokers-deuce"
    #: Both jokers, then the two of diamonds (a spade) and the two of spades
    #: on top of the trumps; the two of clubs and of hearts out.
    JJDD = "jjdd"


class Bidding(StrEnum):
    #: Each player bids 1 to 13 or Nil.
    OPEN = "open"
    #: In each team one partner bids Nil (or Blind Nil), the other 4 or more.
    SUICIDE = "suicide"
    #: Each player's bid is their number of spades (none: Nil); no choice.
    MIRROR = "mirror"
    #: Each player bids Nil or exactly their number of spades (none: Nil).
    WHIZ = "whiz"


class SpadesLead(StrEnum):
    #: Spades may be led once broken, or from a hand of nothing else.
    BROKEN = "broken"
    #: Spades may be led at any time (the hand starts with them broken).
    ANY = "any"


class FirstLead(StrEnum):
    #: Any card; spades are unbroken at the first lead, so no spade unless the
    #: leader holds nothing else (texts 000 and 002).
    ANY_BUT_UNBROKEN_SPADE = "any_but_unbroken_spade"
    #: Never a spade on the first lead, unless the leader holds only spades
    #: (text 003 states it as a rule of its own).
    NO_SPADE = "no_spade"
    #: The lowest club; without clubs a heart or diamond; a spade only from a
    #: hand of spades (text 001).
    LOWEST_CLUB = "lowest_club"


class SpadesBreak(StrEnum):
    #: Any spade played breaks spades, even one led from a hand of spades
    #: (texts 000 and 002).
    ANY_SPADE = "any_spade"
    #: Only a spade played to a trick led in another suit breaks them (texts
    #: 001, 003 and 004): a spade led from a hand of only spades does not.
    OFF_SUIT_SPADE = "off_suit_spade"


class SetPenalty(StrEnum):
    PER_TRICK_BID = "per_trick_bid"  # set: lose 10 for every trick bid
    PER_TRICK_SHORT = "per_trick_short"  # set: lose 10 for every trick missing


class Teams(StrEnum):
    #: Seats 0 and 2 against seats 1 and 3.
    PARTNERS = "partners"
    #: Four players, each on their own (cutthroat): every bid, score, bag
    #: count and bonus is a player's, and the best player wins.
    SOLO = "solo"


class TieRule(StrEnum):
    ANOTHER_HAND = "another_hand"
    DRAW = "draw"


class RevokeRule(StrEnum):
    ALLOWED = "allowed"  # accepted at the player's risk; opponents may challenge
    BLOCKED = "blocked"  # off-suit cards are refused while the led suit is held


class FirstDealer(StrEnum):
    HOST = "host"  # the host's seat, seat 0
    RANDOM = "random"  # drawn from the game's seed


HOURS = 3600
#: How long a table waits on one player by default (rules text 000: 48 hours).
DEFAULT_TURN_LIMIT_S = 48 * HOURS


#: Where the target and the losing score ("floor") may be, in steps of 50.
TARGETS = range(100, 1001, 50)
FLOORS = range(-100, -1001, -50)
#: A team's smallest total bid when ``min_team_bid`` is on.
MIN_TEAM_BIDS = range(2, 7)
#: The most cards a Nil pass exchanges.
MAX_PASS = 3


class RuleSet(BaseModel):
    """All options of a table. Frozen: a game's rules never change under it.

    The house rules a host picks (see :mod:`bot.game.house` for their names
    and text) are these fields: ``deck``, ``bidding``, ``nil_value`` (None:
    no Nil), ``failed_nil_tricks_count_for_partner`` (``nil_tricks``),
    ``blind_nil*``, ``bag_limit``/``bag_penalty`` (a penalty of 0: bags
    cost nothing), ``set_penalty``, ``boston``, ``ten_for_200``,
    ``spades_lead``, ``first_lead``, ``min_team_bid``, ``target``,
    ``losing_score`` (the floor), ``nil_pass``, ``blind_nil_pass`` and ``teams``.
    Fields added after tables were first stored have defaults that play as
    before, so a stored rule set without them loads unchanged.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    preset: str = "standard"
    # (their ranges are checked with the other rules, in _consistent)
    target: int = 500
    losing_score: int | None = -200
    #: None: Nil is not bid at this table.
    nil_value: int | None = Field(100, gt=0)
    failed_nil_tricks_count_for_partner: bool = False
    set_penalty: SetPenalty = SetPenalty.PER_TRICK_BID
    blind_nil: bool = False
    blind_nil_min_deficit: int = Field(100, ge=0)
    blind_nil_value: int = Field(200, gt=0)
    first_lead: FirstLead = FirstLead.ANY_BUT_UNBROKEN_SPADE
    spades_break: SpadesBreak = SpadesBreak.ANY_SPADE
    tie: TieRule = TieRule.ANOTHER_HAND
    bag_limit: int = Field(10, gt=0)
    #: 0: bags are counted but never cost anything.
    bag_penalty: int = Field(100, ge=0)
    revokes: RevokeRule = RevokeRule.ALLOWED
    first_dealer: FirstDealer = FirstDealer.HOST
    #: Partnerships, or four players each on their own (bot.game.sides).
    teams: Teams = Teams.PARTNERS
    turn_limit_s: int = Field(DEFAULT_TURN_LIMIT_S, gt=0)
    deck: Deck = Deck.STANDARD
    bidding: Bidding = Bidding.OPEN
    #: Points a team scores on top of its bids for taking all 13 tricks (None: none).
    boston: int | None = Field(None, gt=0)
    #: A team contract of 10 or more scores and loses 20 a trick bid.
    ten_for_200: bool = False
    spades_lead: SpadesLead = SpadesLead.BROKEN
    #: The least a team's numeric bids add up to (0: no minimum).
    min_team_bid: int = 0
    #: Cards a Nil bidder and its partner pass each other after the bidding
    #: (None: no pass); ``blind_nil_pass`` the same for a Blind Nil
    #: (:mod:`bot.game.passing`).
    nil_pass: int | None = Field(None, ge=1, le=MAX_PASS)
    blind_nil_pass: int | None = Field(None, ge=1, le=MAX_PASS)

    @model_validator(mode="after")
    def _consistent(self) -> RuleSet:
        # One check per line, each naming the house rule to change. The rules
        # that cannot be played together are declared with the house rules
        # (bot.game.house), which checks them.
        if self.target not in TARGETS:
            raise ValueError("target must be 100 to 1000 in steps of 50")
        if self.losing_score is not None and self.losing_score not in FLOORS:
            raise ValueError("floor must be off or -100 to -1000 in steps of 50")
        if self.min_team_bid and self.min_team_bid not in MIN_TEAM_BIDS:
            raise ValueError("min_team_bid must be 0 (off) or 2 to 6")
        return self

    def with_options(self, **changes: object) -> RuleSet:
        """A validated copy with some options changed (host choices)."""
        return RuleSet.model_validate({**self.model_dump(), **changes})


PRESETS: dict[str, RuleSet] = {
    # Texts 000 and 002: the project's default table.
    "standard": RuleSet(preset="standard"),
    # Text 001: lowest club opens, Nil +/-50 with its tricks counting for the
    # team, a set costs 10 per missing trick, equal totals at the end draw,
    # spades broken by a spade on a trick led in another suit.
    "low-club": RuleSet(
        preset="low-club",
        first_lead=FirstLead.LOWEST_CLUB,
        spades_break=SpadesBreak.OFF_SUIT_SPADE,
        nil_value=50,
        failed_nil_tricks_count_for_partner=True,
        set_penalty=SetPenalty.PER_TRICK_SHORT,
        tie=TieRule.DRAW,
    ),
    # Text 003: no spade on the first lead, set costs 10 per missing trick,
    # random first dealer, spades broken by a spade played when a player
    # cannot follow another suit.
    "cardgames": RuleSet(
        preset="cardgames",
        first_lead=FirstLead.NO_SPADE,
        spades_break=SpadesBreak.OFF_SUIT_SPADE,
        set_penalty=SetPenalty.PER_TRICK_SHORT,
        first_dealer=FirstDealer.RANDOM,
    ),
    # Text 004: Blind Nil for a team behind by 100 or more, worth 200, a team
    # at -300 loses, spades broken by a spade played off suit.
    "blind-nil": RuleSet(
        preset="blind-nil",
        spades_break=SpadesBreak.OFF_SUIT_SPADE,
        blind_nil=True,
        blind_nil_min_deficit=100,
        blind_nil_value=200,
        losing_score=-300,
    ),
}


class UnknownPreset(ValueError):
    pass


def preset(name: str) -> RuleSet:
    try:
        return PRESETS[name]
    except KeyError:
        raise UnknownPreset(
            f"unknown rules preset {name!r}: choose one of {', '.join(PRESETS)}"
        ) from None
