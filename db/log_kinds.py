"""The kinds the action log stores in ``actions.kind``; renaming one would orphan its rows."""

from __future__ import annotations

# A table's lobby and life (also the table service's subscriber events).
CREATE = "create"
JOIN = "join"  # took a free seat
WATCH = "watch"  # joined as a spectator
LEAVE = "leave"  # left a seat before the start
UNWATCH = "unwatch"  # a spectator left
PARTNER = "partner"
COMPUTERS = "bots"  # computer players filled the empty seats (the stored word)
START = "start"
REMATCH = "rematch"
CANCEL = "cancel"
HOUSE = "house"  # the host set a house rule in the lobby
# Between hands, someone not seated asks for a computer's seat; the host answers.
SEAT_ASK = "seat_ask"
SEAT_GIVEN = "seat_given"
SEAT_REFUSED = "seat_refused"

#: Log kinds that begin a game at a table.
GAME_STARTS = frozenset({START, REMATCH})
