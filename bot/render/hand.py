"""A player's private hand message, drawn from their PlayerView only, and its Nil pass.

Only a seated player has a hand. The message is drawn from that seat's
:class:`~bot.game.view.PlayerView`, which holds the seat's own cards and the
public state, nothing else, so it cannot show anyone else's hand. It is sent
ephemeral to its owner; at a table with hints on, with the coach's Hint button.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from bot import refusals
from bot.coach.hint import can_hint, decision_stamp
from bot.game.cards import card_name
from bot.game.rules import Bidding
from bot.game.scoring import BLIND_NIL, NIL
from bot.game.types import Phase
from bot.game.view import PlayerView, view_of
from bot.i18n import ENGLISH, N_, ntr, tr
from bot.render.coach_text import HINT_EMOJI, hint_button_label
from bot.render.decks import Deck, Style, by_suit, card_text, cards_text
from bot.render.spec import (
    CONTENT,
    MAX_PER_ROW,
    MAX_ROWS,
    Act,
    ButtonSpec,
    ComponentId,
    MessageSpec,
    Row,
    chunk,
    clip,
    grouped_rows,
    read_number,
    seat_labels,
)
from bot.tables.model import Table


def bid_text(bid: int | None, lang: str = ENGLISH) -> str:
    if bid is None:
        return "-"
    if bid == NIL:
        return tr(lang, "Nil")
    if bid == BLIND_NIL:
        return tr(lang, "Blind Nil")
    return str(bid)


def tricks_over_bid(taken: int, bid: int | None) -> str:
    """``2/3``: tricks taken over tricks bid (Nil counts as 0)."""
    if bid is None:
        return "-"
    return f"{taken}/{max(bid, 0)}"


def trick_line(
    view_leader: int, trick: Sequence[int], names: Sequence[str], lang: str = ENGLISH
) -> str:
    """The trick in progress in play order: ``alice 7♥ · bob K♥``."""
    if not trick:
        return tr(lang, "no card yet")
    return " · ".join(
        f"{names[(view_leader + i) & 3]} {card_text(card, lang)}" for i, card in enumerate(trick)
    )


def hand_screen(
    table: Table,
    user_id: int,
    deck: Deck,
    note: str | None = None,
    lang: str = ENGLISH,
    selection: int = 0,
) -> MessageSpec:
    """The private hand message of ``user_id`` in their ``lang``; a refusal
    for anyone without a hand. ``selection``: the cards chosen so far to pass."""
    seat = table.seat_of(user_id)
    if seat is None:
        if table.is_spectator(user_id):
            raise refusals.Spectator(N_("you are watching: only players have a hand"))
        raise refusals.NotSeated()
    if table.game is None:
        raise refusals.NotStarted()
    view = view_of(table.game, seat)
    spec = hand_message(
        view,
        table_id=table.id,
        version=table.version,
        names=seat_labels(table, lang),
        deck=deck,
        note=note,
        lang=lang,
        selection=selection,
    )
    if table.options.hints:
        stamp = decision_stamp(table.game)
        spec = with_hint_button(spec, view, table.id, table.version, stamp, lang)
    return spec


def hand_moment(table: Table, user_id: int) -> tuple[object, ...]:
    """What decides the buttons of a hand: the hand, the phase, whose turn.

    An editable hand is redrawn when this changes: when the owner's turn comes or
    goes, or a hand starts or ends. In between, the owner's buttons are all
    disabled, so the message may show an older trick without harm.
    """
    game = table.game
    seat = table.seat_of(user_id)
    if game is None or seat is None:
        return (table.status,)
    if game.phase is Phase.PASSING:  # partners choose at once: not the seat's turn, its choice
        exchange = game.exchange
        mine = (seat in exchange.choosing(), exchange.received(seat))
        return (table.status, game.hand_number, game.phase, mine)
    return (table.status, game.hand_number, game.phase, game.waited_on() == seat)


def hand_message(
    view: PlayerView,
    *,
    table_id: int,
    version: int,
    names: Sequence[str],
    deck: Deck,
    note: str | None = None,
    lang: str = ENGLISH,
    selection: int = 0,
) -> MessageSpec:
    """The private message of ``view.seat`` in the owner's ``lang``. ``names``
    are the four seats' names (plain text: they are not pinged). ``note`` goes
    first, e.g. why the hand was redrawn; ``selection``, the cards chosen so
    far to pass (the Nil pass, below)."""
    lines = [] if note is None else [f"> {note}"]
    seat = view.seat
    lines.append(_title(view, table_id, names, lang))
    rows: list[tuple[ButtonSpec, ...]] = []
    button = _Buttons(table_id, version).make

    if view.phase is Phase.BIDDING:
        face_down = view.hand == 0 and not view.looked and view.bids[seat] is None
        if face_down:
            lines.append(
                tr(lang, "Your cards are face down. Blind Nil is bid before you look at them.")
            )
            rows.append(
                (
                    button(Act.LOOK, None, tr(lang, "Show my cards"), style=Style.BLURPLE),
                    button(
                        Act.BID,
                        str(BLIND_NIL),
                        bid_text(BLIND_NIL, lang),
                        style=Style.RED,
                        disabled=BLIND_NIL not in view.legal_bids,
                    ),
                )
            )
        elif view.rules.bidding is Bidding.MIRROR:
            lines.append(deck.hand_text(view.hand, lang))
            lines.append(_mirror_line(lang))
        else:
            lines.append(deck.hand_text(view.hand, lang))
            bids = [NIL, *range(1, 14)]
            rows.extend(
                chunk(
                    [
                        button(
                            Act.BID,
                            str(b),
                            bid_text(b, lang),
                            style=Style.BLURPLE if b == NIL else Style.GREY,
                            disabled=b not in view.legal_bids,
                        )
                        for b in bids
                    ]
                )
            )
        lines.append(_bids_line(view, names, lang))
        lines.append(_turn_line(view, names, lang))
    elif view.phase is Phase.PASSING:
        lines.append(deck.hand_text(view.hand, lang))
        lines.append(_bids_line(view, names, lang))
        lines.extend(pass_lines(view, names, selection, lang))
        if choosing(view):
            rows.extend(pass_rows(view, selection, deck, button, lang))
    elif view.phase is Phase.PLAYING:
        trick = trick_line(view.leader, view.trick, names, lang)
        number = len(view.tricks) + 1
        if view.spades_broken:
            line = tr(lang, "Trick {number}: {trick} (spades broken)", number=number, trick=trick)
        else:
            line = tr(
                lang, "Trick {number}: {trick} (spades not broken)", number=number, trick=trick
            )
        lines.append(deck.card_line(line))
        taken = view.tricks_won[seat]
        lines.append(
            tr(
                lang,
                "Your bid {bid}, taken {taken}",
                bid=bid_text(view.bids[seat], lang),
                taken=tricks_over_bid(taken, view.bids[seat]),
            )
        )
        if view.received and not view.tricks:  # the exchange, until the first trick is done
            lines.append(exchange_line(view, names, lang))
        lines.append(_turn_line(view, names, lang))
        rows.extend(_card_rows(view, deck, button, lang))
    else:
        lines.append(tr(lang, "This hand is over: the table message shows the result."))
    return MessageSpec(content=clip("\n".join(lines), CONTENT), rows=tuple(rows))


def _title(view: PlayerView, table_id: int, names: Sequence[str], lang: str) -> str:
    """The table and hand, with the owner's partner (nobody's in solo)."""
    if view.partner is None:
        return tr(
            lang,
            "**Table {table} · hand {hand}** · solo: you play on your own",
            table=table_id,
            hand=view.hand_number,
        )
    return tr(
        lang,
        "**Table {table} · hand {hand}** · partner: {partner}",
        table=table_id,
        hand=view.hand_number,
        partner=names[view.partner],
    )


def _mirror_line(lang: str) -> str:
    """Under Mirror nobody chooses a bid: the table makes it in turn."""
    return tr(
        lang,
        "Mirror bidding: each bid is the number of spades held (none: Nil), made for you in turn.",
    )


def _bids_line(view: PlayerView, names: Sequence[str], lang: str) -> str:
    """The bids made so far, in seat order; a line of dashes says nothing."""
    made = [s for s in range(4) if view.bids[s] is not None]
    if not made:
        return tr(lang, "No bids yet.")
    bids = ", ".join(f"{names[s]} {bid_text(view.bids[s], lang)}" for s in made)
    return tr(lang, "Bids: {bids}", bids=bids)


def _turn_line(view: PlayerView, names: Sequence[str], lang: str) -> str:
    if view.to_act is None:
        return ""
    bidding = view.phase is Phase.BIDDING
    if view.rest_claimer >= 0:
        if view.my_turn:
            return tr(lang, "**Answer the claim of the rest on the table message.**")
        claimer = names[view.rest_claimer]
        return tr(lang, "Waiting for the answers to {player}'s claim.", player=claimer)
    if view.my_turn:
        return tr(lang, "**Your turn to bid.**") if bidding else tr(lang, "**Your turn to play.**")
    if bidding:
        return tr(lang, "Waiting for {player} to bid.", player=names[view.to_act])
    return tr(lang, "Waiting for {player} to play.", player=names[view.to_act])


def _card_rows(
    view: PlayerView, deck: Deck, button: Callable[..., ButtonSpec], lang: str
) -> list[tuple[ButtonSpec, ...]]:
    """One button per card, a row per suit when that fits Discord's five rows."""

    def card_button(card: int) -> ButtonSpec:
        face = deck.face(card, lang)
        return button(
            Act.PLAY,
            card_name(card),
            face.label,
            style=face.style,
            emoji=face.emoji,
            disabled=not view.playable_cards >> card & 1,
        )

    return grouped_rows([[card_button(c) for c in suit] for suit in by_suit(view.hand)])


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


def with_hint_button(
    spec: MessageSpec,
    view: PlayerView,
    table_id: int,
    version: int,
    stamp: int,
    lang: str = ENGLISH,
) -> MessageSpec:
    """``spec`` with a Hint button while the hand is bid or played: enabled
    on the owner's turn, greyed out otherwise. ``stamp`` (the game's action
    count) names the decision it was drawn for. It takes a row of its own,
    or, when the cards fill every row, the last row with room. Its label is
    in the owner's ``lang``."""
    if view.phase not in (Phase.BIDDING, Phase.PASSING, Phase.PLAYING):
        return spec
    button = ButtonSpec(
        str(ComponentId(Act.HINT, table_id, version, str(stamp))),
        hint_button_label(lang),
        Style.GREEN,
        HINT_EMOJI,
        disabled=not can_hint(view),
    )
    rows: list[Row] = list(spec.rows)
    if len(rows) < MAX_ROWS:
        rows.append((button,))
        return replace(spec, rows=tuple(rows))
    for index in range(len(rows) - 1, -1, -1):
        row = rows[index]
        if isinstance(row, tuple) and len(row) < MAX_PER_ROW:
            rows[index] = (*row, button)
            return replace(spec, rows=tuple(rows))
    return spec


# -- the Nil pass --------------------------------------------------------------
# While its seat chooses (bot.game.passing), the hand shows each card as a
# button that toggles it and a Pass button, enabled once the exchange's number
# of cards is chosen. The choice so far lives in the buttons' ids: a card's
# button carries the selection its click makes, Pass the selection it passes
# (``spades:pass_pick:<table>:<version>:<mask>-<hand>``, the mask in hex), so
# the server keeps nothing and a restart in the middle of a choice loses
# nothing. The hand number names the exchange: a choice holds through the
# partner's pass, which moves the table's version on, but never into another
# hand. Once the cards have changed hands, each hand shows what it gave and
# received, nobody else's.

#: Marks a chosen card's button (with its colour), whatever the deck.
CHOSEN_MARK = "✓ "
_HEX = frozenset("0123456789abcdef")


def pass_arg(selection: int, hand: int) -> str:
    """The argument of a pass button: a selection of cards in hand ``hand``."""
    return f"{selection:x}-{hand}"


def read_pass_arg(arg: str | None) -> tuple[int, int]:
    """The (selection, hand) of a pass button's argument; ValueError for
    one the bot never draws."""
    mask, _, hand = (arg or "").partition("-")
    number = read_number(hand)
    written = set(mask) <= _HEX and not (mask.startswith("0") and mask != "0")  # as :x writes
    if not mask or not written or number is None:
        raise ValueError(f"not a pass selection: {arg!r}")
    return int(mask, 16), number


def choosing(view: PlayerView) -> bool:
    """Whether the seat is still to choose the cards it passes."""
    return view.phase is Phase.PASSING and bool(view.pass_count) and not view.passed


def still_choosing(table: Table, user_id: int, hand: int) -> bool:
    """Whether ``user_id`` is still to choose the cards they pass in hand ``hand``."""
    game, seat = table.game, table.seat_of(user_id)
    if game is None or seat is None or game.hand_number != hand:
        return False
    return game.phase is Phase.PASSING and seat in game.exchange.choosing()


def drawn_in_exchange(table: Table, user_id: int, version: int) -> bool:
    """Whether a hand drawn at ``version`` shows its owner's choice in the
    exchange going on at ``table``: they still choose, and nothing but this
    exchange's passes came since (the last bid began it)."""
    game = table.game
    if game is None or not still_choosing(table, user_id, game.hand_number):
        return False
    passes = sum(1 for cards in game.exchange.chosen if cards)
    return 0 <= table.version - version <= passes


def chosen(view: PlayerView, selection: int) -> int:
    """The cards of ``selection`` the seat may pass: its own, no more than the
    exchange's number (a forged larger selection counts as none)."""
    picked = selection & view.hand
    return picked if picked.bit_count() <= view.pass_count else 0


def pass_lines(view: PlayerView, names: Sequence[str], selection: int, lang: str) -> list[str]:
    """What the hand says of the exchange: the choice to make (and made so
    far), the cards passed or exchanged, and who is still choosing."""
    partner = names[view.seat ^ 2]
    lines = []
    if choosing(view):
        n = view.pass_count
        lines.append(
            ntr(
                lang,
                "**Choose {n} card to pass to {partner}**, then press Pass.",
                "**Choose {n} cards to pass to {partner}**, then press Pass.",
                n,
                partner=partner,
            )
        )
        picked = chosen(view, selection)
        count = tr(lang, "{k} of {n} chosen", k=picked.bit_count(), n=n)
        lines.append(f"{count}: {cards_text(picked, lang)}" if picked else count)
    elif view.passed and not view.received:
        cards = cards_text(view.passed, lang)
        lines.append(tr(lang, "You pass {cards} to {partner}.", cards=cards, partner=partner))
    line = exchange_line(view, names, lang)
    if line:
        lines.append(line)
    others = [names[s] for s in view.choosing if s != view.seat]
    if view.phase is Phase.PASSING and others:
        lines.append(
            tr(lang, "Still choosing the cards they pass: {players}", players=", ".join(others))
        )
    return lines


def exchange_line(view: PlayerView, names: Sequence[str], lang: str) -> str:
    """The cards the seat gave and received in this hand's exchange ("" before it)."""
    if not view.received:
        return ""
    return tr(
        lang,
        "You gave {gave} to {partner} and received {received}.",
        gave=cards_text(view.passed, lang),
        partner=names[view.seat ^ 2],
        received=cards_text(view.received, lang),
    )


def pass_rows(
    view: PlayerView,
    selection: int,
    deck: Deck,
    button: Callable[..., ButtonSpec],
    lang: str = ENGLISH,
) -> list[tuple[ButtonSpec, ...]]:
    """A toggle per card, chosen ones marked, and Pass on a row of its own,
    enabled at the exchange's number of cards. Once that many are chosen the
    others are greyed out until one is put back."""
    picked = chosen(view, selection)
    full = picked.bit_count() == view.pass_count
    hand = view.hand_number

    def toggle(card: int) -> ButtonSpec:
        face = deck.face(card, lang)
        on = bool(picked >> card & 1)
        return button(
            Act.PASS_PICK,
            pass_arg(picked ^ 1 << card, hand),
            CHOSEN_MARK + face.label if on else face.label,
            style=Style.GREEN if on else face.style,
            emoji=face.emoji,
            disabled=full and not on,
        )

    label = ntr(lang, "Pass {n} card", "Pass {n} cards", view.pass_count)
    done = button(Act.PASS, pass_arg(picked, hand), label, style=Style.BLURPLE, disabled=not full)
    cards = grouped_rows([[toggle(c) for c in suit] for suit in by_suit(view.hand)], MAX_ROWS - 1)
    return [*cards, (done,)]
