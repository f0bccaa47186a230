"""What each house rule cannot be played with (see :class:`bot.game.house.HouseRule`).

Each tuple is one rule's ``conflicts``: the other rule's values that refuse
it, and the one line that says why (its placeholders named like the two
rules' keys). A rule declared before another holds the conflict between them,
so the first refusal found is the one the earlier rule gives.
"""

from __future__ import annotations

from typing import Final

from bot.game.house_values import ON, Conflict
from bot.game.refusals import N_
from bot.game.rules import Bidding, Teams

#: The bidding formats where every bid is the bidder's number of spades or Nil.
_SPADE_COUNT: Final = (Bidding.MIRROR.value, Bidding.WHIZ.value)
_SOLO: Final = (Teams.SOLO.value,)

#: ``teams``: what needs a partner.
SOLO: Final = (
    Conflict(
        _SOLO,
        "bidding",
        (Bidding.SUICIDE.value,),
        N_("{bidding} bidding needs partners: it cannot be played {teams}"),
    ),
    Conflict(
        _SOLO,
        "min_team_bid",
        ON,
        N_("min_team_bid must be 0 when playing {teams}: there are no teams"),
    ),
    Conflict(
        _SOLO,
        "nil_tricks",
        ("contract",),
        N_("a failed Nil's tricks count for no partner when playing {teams}"),
    ),
    # A Nil pass is an exchange between partners: there is nobody to pass to.
    Conflict(_SOLO, "nil_pass", ON, N_("the Nil pass needs partners: it cannot be played {teams}")),
    Conflict(
        _SOLO,
        "blind_nil_pass",
        ON,
        N_("the Blind Nil pass needs partners: it cannot be played {teams}"),
    ),
)
#: ``nil``: the formats where Nil is part of every hand's bidding.
NIL_OFF: Final = (
    Conflict(
        (None,),
        "bidding",
        (Bidding.SUICIDE.value, Bidding.WHIZ.value),
        N_("nil cannot be off with {bidding} bidding"),
    ),
)
BLIND_NIL: Final = (
    Conflict(ON, "bidding", _SPADE_COUNT, N_("blind_nil must be off with {bidding} bidding")),
)
MIN_TEAM_BID: Final = (
    Conflict(ON, "bidding", _SPADE_COUNT, N_("min_team_bid must be 0 with {bidding} bidding")),
)
#: ``nil_pass`` and ``blind_nil_pass``: no bid is chosen under Mirror.
NIL_PASS: Final = (
    Conflict(
        ON, "bidding", (Bidding.MIRROR.value,), N_("there is no Nil pass with {bidding} bidding")
    ),
)
