"""A player's private hand message, drawn from their PlayerView only.

The view holds the seat's own cards and the public state, nothing else, so
this message cannot show anyone else's hand. It is sent ephemeral to its owner.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.game.cards import card_name
from bot.game.scoring import BLIND_NIL, NIL
from bot.game.types import Phase
from bot.game.view import PlayerView
from bot.render.decks import Deck, Style, by_suit, card_text
from bot.render.ids import Act, ComponentId
from bot.render.limits import CONTENT, clip
from bot.render.spec import MAX_ROWS, ButtonSpec, MessageSpec, chunk


def bid_text(bid: int | None) -> str:
    if bid is None:
        return "-"
    if bid == NIL:
        return "Nil"
    if bid == BLIND_NIL:
        return "Blind Nil"
    return str(bid)


def tricks_over_bid(taken: int, bid: int | None) -> str:
    """``2/3``: tricks taken over tricks bid (Nil counts as 0)."""
    if bid is None:
        return "-"
    return f"{taken}/{max(bid, 0)}"


def trick_line(view_leader: int, trick: Sequence[int], names: Sequence[str]) -> str:
    """The trick in progress in play order: ``alice 7♥ · bob K♥``."""
    if not trick:
        return "no card yet"
    return " · ".join(
        f"{names[(view_leader + i) & 3]} {card_text(card)}" for i, card in enumerate(trick)
    )


def hand_message(
    view: PlayerView,
    *,
    table_id: int,
    version: int,
    names: Sequence[str],
    deck: Deck,
    note: str | None = None,
) -> MessageSpec:
    """The private message of ``view.seat``. ``names`` are the four seats' names
    (plain text: they are not pinged). ``note`` goes first, e.g. why the hand
    was redrawn."""
    lines = [] if note is None else [f"> {note}"]
    seat = view.seat
    partner = names[view.partner]
    lines.append(f"**Table {table_id} · hand {view.hand_number}** · partner: {partner}")
    rows: list[tuple[ButtonSpec, ...]] = []
    button = _Buttons(table_id, version).make

    if view.phase is Phase.BIDDING:
        face_down = view.hand == 0 and not view.looked and view.bids[seat] is None
        if face_down:
            lines.append("Your cards are face down. Blind Nil is bid before you look at them.")
            rows.append(
                (
                    button(Act.LOOK, None, "Show my cards", style=Style.BLURPLE),
                    button(
                        Act.BID,
                        str(BLIND_NIL),
                        "Blind Nil",
                        style=Style.RED,
                        disabled=BLIND_NIL not in view.legal_bids,
                    ),
                )
            )
        else:
            lines.append(deck.hand_text(view.hand))
            bids = [NIL, *range(1, 14)]
            rows.extend(
                chunk(
                    [
                        button(
                            Act.BID,
                            str(b),
                            bid_text(b),
                            style=Style.BLURPLE if b == NIL else Style.GREY,
                            disabled=b not in view.legal_bids,
                        )
                        for b in bids
                    ]
                )
            )
        lines.append("Bids: " + _bids_line(view, names))
        lines.append(_turn_line(view, names, "bid"))
    elif view.phase is Phase.PLAYING:
        trick_no = len(view.tricks) + 1
        broken = "spades broken" if view.spades_broken else "spades not broken"
        trick = trick_line(view.leader, view.trick, names)
        lines.append(deck.card_line(f"Trick {trick_no}: {trick} ({broken})"))
        taken = view.tricks_won[seat]
        lines.append(
            f"Your bid {bid_text(view.bids[seat])}, taken {tricks_over_bid(taken, view.bids[seat])}"
        )
        lines.append(_turn_line(view, names, "play"))
        rows.extend(_card_rows(view, deck, button))
    else:
        lines.append("This hand is over: the table message shows the result.")
    return MessageSpec(content=clip("\n".join(lines), CONTENT), rows=tuple(rows))


def _bids_line(view: PlayerView, names: Sequence[str]) -> str:
    return ", ".join(f"{names[s]} {bid_text(view.bids[s])}" for s in range(4))


def _turn_line(view: PlayerView, names: Sequence[str], verb: str) -> str:
    if view.to_act is None:
        return ""
    if view.my_turn:
        return f"**Your turn to {verb}.**"
    return f"Waiting for {names[view.to_act]} to {verb}."


def _card_rows(
    view: PlayerView, deck: Deck, button: Callable[..., ButtonSpec]
) -> list[tuple[ButtonSpec, ...]]:
    """One button per card, a row per suit when that fits Discord's five rows.

    With 13 cards at most, rows of at most five per suit always fit; the plain
    five-a-row layout is kept as the fallback for safety.
    """

    def card_button(card: int) -> ButtonSpec:
        face = deck.face(card)
        return button(
            Act.PLAY,
            card_name(card),
            face.label,
            style=face.style,
            emoji=face.emoji,
            disabled=not view.playable_cards >> card & 1,
        )

    suits = by_suit(view.hand)
    suit_rows = [row for suit in suits for row in chunk([card_button(c) for c in suit])]
    if len(suit_rows) <= MAX_ROWS:
        return suit_rows
    ordered = [c for suit in suits for c in suit]
    return chunk([card_button(c) for c in ordered])


@dataclass(frozen=True, slots=True)
class _Buttons:
    table_id: int
    version: int

    def make(
        self,
        act: Act,
        arg: str | None,
        label: str,
        *,
        style: Style = Style.GREY,
        emoji: str | None = None,
        disabled: bool = False,
    ) -> ButtonSpec:
        custom_id = str(ComponentId(act, self.table_id, self.version, arg))
        return ButtonSpec(custom_id, label, style, emoji, disabled)
