"""What the table message and the hands show of the turn clock."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ClockView:
    """The clock's side of one table at one moment, published with its snapshot."""

    #: "Claim the win" is offered: the waited-on seat is past the limit and
    #: no computer stands in for it.
    claim_open: bool
    #: A computer takes late players' turns here, so there is never a win to claim.
    stand_in: bool
    #: Seats a computer currently plays for their late owner.
    away_seats: frozenset[int]
