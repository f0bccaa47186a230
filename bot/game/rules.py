"""Every rule option of a table, and the presets the project supports.

A preset is just a validated, frozen :class:`RuleSet`; the engine reads the
fields and never asks which preset it is playing.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, model_validator


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


class RuleSet(BaseModel):
    """All options of a table. Frozen: a game's rules never change under it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    preset: str = "standard"
    target: int = Field(500, gt=0)
    losing_score: int | None = Field(-200, lt=0)
    nil_value: int = Field(100, gt=0)
    failed_nil_tricks_count_for_partner: bool = False
    set_penalty: SetPenalty = SetPenalty.PER_TRICK_BID
    blind_nil: bool = False
    blind_nil_min_deficit: int = Field(100, ge=0)
    blind_nil_value: int = Field(200, gt=0)
    first_lead: FirstLead = FirstLead.ANY_BUT_UNBROKEN_SPADE
    spades_break: SpadesBreak = SpadesBreak.ANY_SPADE
    tie: TieRule = TieRule.ANOTHER_HAND
    bag_limit: int = Field(10, gt=0)
    bag_penalty: int = Field(100, ge=0)
    revokes: RevokeRule = RevokeRule.ALLOWED
    first_dealer: FirstDealer = FirstDealer.HOST
    turn_limit_s: int = Field(DEFAULT_TURN_LIMIT_S, gt=0)

    @model_validator(mode="after")
    def _losing_below_target(self) -> RuleSet:
        if self.losing_score is not None and self.losing_score >= self.target:
            raise ValueError("the losing score must be below the target")
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
