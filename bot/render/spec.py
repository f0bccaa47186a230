"""Plain descriptions of messages, free of discord.py: their parts, the ids
their buttons and menus carry, Discord's limits on their sizes, and the
names of seats, teams and players in them.

Every button and menu has the custom_id ``spades:<action>:<table>:<version>[:<arg>]``.
The id carries everything a click needs, so a button works on any message,
after any restart, without server-side view state. ``version`` is the table
state the message was drawn from: the service refuses an action made against
an older state, so an outdated message can never act on a newer one.

Discord refuses a whole message when one part is too long, and the user then
gets no answer at all. Everything that can grow (lists of channels, players,
games) goes through the helpers at the end, which shorten it and say how much
is left out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from bot.game.rules import RuleSet
from bot.game.sides import solo
from bot.i18n import ENGLISH, N_, tr
from bot.render.decks import Style
from bot.tables.model import Table

# -- the ids of buttons and menus ----------------------------------------------

PREFIX = "spades"


def number_pattern(digits: int) -> str:
    """A regex of a number of at most ``digits`` digits as the bot writes it
    in an id (``str(n)``, n >= 0): ASCII digits, no leading zero, no sign.
    (``\\d`` takes any script's digits, and int() reads them.)"""
    return f"(?:0|[1-9][0-9]{{0,{digits - 1}}})"


def read_number(text: str | None, *, negative: bool = False) -> int | None:
    """``text`` as the bot writes a number (``str(n)``; below zero only where
    ``negative``), else None: int() would also read ``1_0``, ``-0``, ``+3``,
    `` 3`` and other scripts' digits."""
    if text is None:
        return None
    digits = text[1:] if negative and text.startswith("-") else text
    if digits != text and digits == "0":
        return None
    return int(text) if _NUMBER.fullmatch(digits) else None


_NUMBER = re.compile(number_pattern(20))
_SHAPE = re.compile(
    rf"(?P<action>[a-z_]+):(?P<table>{number_pattern(18)}):(?P<version>{number_pattern(18)})"
    r"(?::(?P<arg>[A-Za-z0-9_-]{1,20}))?"
)


class Act(StrEnum):
    JOIN = "join"
    LEAVE = "leave"
    PARTNER = "partner"  # host's partner menu; the value is the partner's seat (1-3)
    # The host fills the empty seats with computer players ("bots": the word
    # of the buttons already posted, which must keep working).
    COMPUTERS = "bots"
    START = "start"
    HAND = "hand"  # "My hand": a fresh private hand
    LOOK = "look"  # show my cards (Blind Nil tables)
    BID = "bid"  # arg: the bid, -1 Blind Nil, 0 Nil
    PLAY = "play"  # arg: the card, like QH
    NEXT_HAND = "next"
    REMATCH = "rematch"  # arg: same | swap
    RESIGN = "resign"  # the confirmation button of /spades resign
    CLAIM = "claim"  # claim the game once the turn limit has passed
    HINT = "hint"  # the coach's advice (hints tables); arg: the game's action count
    HOUSE = "house"  # the host's house rules menus (lobby); arg: the page, 0 when absent
    HOUSE_RULE = "house_rule"  # one house rule's menu; arg: its key, the value chosen
    CLAIM_REST = "rest"  # claim the rest of the hand's tricks (not CLAIM, the clock's win)
    ANSWER_REST = "rest_answer"  # an opponent's answer to it; arg: accept | refuse
    SEAT_ASK = "seat_ask"  # between hands, ask for a computer's seat; the value is the seat
    SEAT_ANSWER = "seat_answer"  # the host's answer to it; arg: accept | decline
    # The Nil pass (bot.render.hand); arg: a selection of cards and the hand.
    PASS_PICK = "pass_pick"  # a card toggled: the selection the click makes
    PASS = "pass"  # pass the selection


@dataclass(frozen=True, slots=True)
class ComponentId:
    action: Act
    table: int
    version: int
    arg: str | None = None

    def __str__(self) -> str:
        text = f"{PREFIX}:{self.action.value}:{self.table}:{self.version}"
        return text if self.arg is None else f"{text}:{self.arg}"


class BadComponentId(ValueError):
    """A custom_id the bot never sends: forged or from an older bot."""


def parse(rest: str) -> ComponentId:
    """Parse what follows ``spades:``. Raises BadComponentId."""
    match = _SHAPE.fullmatch(rest)
    if match is None:
        raise BadComponentId(rest)
    try:
        action = Act(match["action"])
    except ValueError:
        raise BadComponentId(rest) from None
    return ComponentId(action, int(match["table"]), int(match["version"]), match["arg"])


# -- messages -----------------------------------------------------------------

MAX_ROWS = 5
MAX_PER_ROW = 5


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    custom_id: str
    label: str
    style: Style = Style.GREY
    emoji: str | None = None
    disabled: bool = False


@dataclass(frozen=True, slots=True)
class SelectOption:
    value: str
    label: str
    #: Shown as chosen when the menu is drawn (the value in play).
    default: bool = False


@dataclass(frozen=True, slots=True)
class SelectSpec:
    custom_id: str
    placeholder: str
    options: tuple[SelectOption, ...]


Row = tuple[ButtonSpec, ...] | SelectSpec


@dataclass(frozen=True, slots=True)
class Field:
    name: str
    value: str
    inline: bool = False


@dataclass(frozen=True, slots=True)
class EmbedSpec:
    title: str
    description: str = ""
    fields: tuple[Field, ...] = ()
    footer: str = ""
    colour: int = 0x2B2D31


@dataclass(frozen=True, slots=True)
class MessageSpec:
    content: str = ""
    embed: EmbedSpec | None = None
    rows: tuple[Row, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        if len(self.rows) > MAX_ROWS:
            raise ValueError(f"{len(self.rows)} rows of components; Discord allows {MAX_ROWS}")
        for row in self.rows:
            if isinstance(row, tuple) and not 0 < len(row) <= MAX_PER_ROW:
                raise ValueError(f"a row of {len(row)} buttons; Discord allows 1 to {MAX_PER_ROW}")

    @property
    def buttons(self) -> list[ButtonSpec]:
        return [b for row in self.rows if isinstance(row, tuple) for b in row]


#: ``button(act, label, style, arg)``: a button of the table message.
MakeButton = Callable[[Act, str, Style, str | None], ButtonSpec]


def chunk(buttons: list[ButtonSpec], size: int = MAX_PER_ROW) -> list[tuple[ButtonSpec, ...]]:
    return [tuple(buttons[i : i + size]) for i in range(0, len(buttons), size)]


def grouped_rows(
    groups: list[list[ButtonSpec]], rows: int = MAX_ROWS
) -> list[tuple[ButtonSpec, ...]]:
    """The buttons a group a row (a suit of cards), when that fits in ``rows``;
    else five a row, the groups one after the other."""
    grouped = [row for group in groups for row in chunk(group)]
    return grouped if len(grouped) <= rows else chunk([b for group in groups for b in group])


# -- Discord's limits ---------------------------------------------------------

CONTENT = 2000
EMBED_TOTAL = 6000
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
FIELDS = 25
BUTTON_LABEL = 80
OPTION_LABEL = 100
OPTIONS = 25
PLACEHOLDER = 150

ELLIPSIS = "…"
MORE = "… and {n} more"


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, ending in an ellipsis when cut."""
    if len(text) <= limit:
        return text
    return text[: max(limit - len(ELLIPSIS), 0)] + ELLIPSIS


def fit_lines(lines: Sequence[str], limit: int, more: str = MORE, sep: str = "\n") -> str:
    """As many of ``lines`` as fit in ``limit`` characters joined by ``sep``,
    then ``more`` (its ``{n}`` the number left out) if some had to go.

    A single line longer than the limit is clipped rather than dropped, so the
    reader always sees something.
    """
    joined = sep.join(lines)
    if len(joined) <= limit:
        return joined
    kept: list[str] = []
    size = 0
    for index, line in enumerate(lines):
        tail = sep + more.format(n=len(lines) - index - 1) if index + 1 < len(lines) else ""
        added = len(line) + (len(sep) if kept else 0)
        if size + added + len(tail) > limit:
            break
        kept.append(line)
        size += added
    left_out = len(lines) - len(kept)
    if not kept:  # even the first line is too long: it is clipped
        tail = sep + more.format(n=left_out - 1) if left_out > 1 else ""
        return clip(lines[0], limit - len(tail)) + tail
    return sep.join(kept) + sep + more.format(n=left_out)


def embed_size(embed: EmbedSpec) -> int:
    """The characters Discord counts against an embed's 6,000."""
    fields = sum(len(f.name) + len(f.value) for f in embed.fields)
    return len(embed.title) + len(embed.description) + len(embed.footer) + fields


def fit_embed(embed: EmbedSpec) -> EmbedSpec:
    """``embed`` with every part within its limit and the whole within 6,000.

    Parts that are built to fit are left as they are; this is the last guard.
    Should the total still be too long, the last fields are the ones shortened.
    """
    fields = [
        Field(clip(f.name, FIELD_NAME) or "-", clip(f.value, FIELD_VALUE) or "-", f.inline)
        for f in embed.fields[:FIELDS]
    ]
    fitted = replace(
        embed,
        title=clip(embed.title, EMBED_TITLE),
        description=clip(embed.description, EMBED_DESCRIPTION),
        footer=clip(embed.footer, FOOTER),
        fields=tuple(fields),
    )
    excess = embed_size(fitted) - EMBED_TOTAL
    if excess > 0 and fitted.description:
        keep = max(len(fitted.description) - excess, 0)
        fitted = replace(fitted, description=clip(fitted.description, keep))
    while embed_size(fitted) > EMBED_TOTAL and fitted.fields:
        fitted = replace(fitted, fields=fitted.fields[:-1])
    return fitted


# -- how seats, teams and players are named in what people read ---------------
# A seat is named by its compass point, a team by its two; in public text a
# seat's occupant is a mention, or the seat's computer player. A table can hold
# up to three computer players, so each needs a name of its own. The name comes
# from the seat alone (each starts with its seat's letter), so it is the same in
# every message, menu, summary and picture of the game, after any restart, and
# needs nothing stored.

#: By seat: South, West, North, East.
SEAT_NAMES = (N_("South"), N_("West"), N_("North"), N_("East"))
TEAM_NAMES = (N_("South & North"), N_("West & East"))
COMPUTER_NAMES = ("Sol", "Wren", "Nell", "Ezra")
ROBOT = "🤖"
#: The built-in levels in words; a level added later shows its own name.
LEVEL_WORDS = {"random": N_("random"), "heuristic": N_("heuristic"), "search": N_("search")}


def computer_name(seat: int, level: str | None, lang: str = ENGLISH) -> str:
    """The plain name of the computer player in ``seat``: ``Wren (random)``
    (plain text, for pictures and anywhere an emoji may not draw)."""
    name = COMPUTER_NAMES[seat & 3]
    if not level:
        return name
    word = tr(lang, LEVEL_WORDS[level]) if level in LEVEL_WORDS else level
    return f"{name} ({word})"


def computer_label(seat: int, level: str | None, lang: str = ENGLISH) -> str:
    """The name in Discord text: ``🤖 Wren (random)``."""
    return f"{ROBOT} {computer_name(seat, level, lang)}"


def seat_name(seat: int, lang: str = ENGLISH) -> str:
    """``South``, ``West``, ``North``, ``East`` in ``lang``."""
    return tr(lang, SEAT_NAMES[seat])


def seat_names(lang: str = ENGLISH) -> list[str]:
    return [seat_name(seat, lang) for seat in range(4)]


def team_name(team: int, lang: str = ENGLISH) -> str:
    """``South & North`` (team 0) or ``West & East`` (team 1) in ``lang``."""
    return tr(lang, TEAM_NAMES[team])


def side_name(rules: RuleSet, side: int, lang: str = ENGLISH) -> str:
    """A side by its seats: a team's two compass points, or in solo the
    player's one (bot.game.sides)."""
    return seat_name(side, lang) if solo(rules) else team_name(side, lang)


def seat_label(table: Table, seat: int, lang: str = ENGLISH) -> str:
    """How the seat is named in public text: ``<@id>`` or the seat's computer
    player, like ``🤖 Wren (random)``."""
    occupant = table.seats[seat]
    if occupant.user_id is not None:
        return f"<@{occupant.user_id}>"
    if occupant.computer_level is not None:
        return computer_label(seat, occupant.computer_level, lang)
    return tr(lang, "(empty)")


def seat_labels(table: Table, lang: str = ENGLISH) -> list[str]:
    return [seat_label(table, s, lang) for s in range(4)]
