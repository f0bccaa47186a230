"""Every sentence of the coach: hints, hand reviews and the coach's refusals.

Each function returns whole sentences built from one template with named
placeholders, so that they can be translated as they stand.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.coach.reasons import Count, CountItem, Reason, Why, count_of
from bot.coach.review import Effect, Mistake, Review
from bot.game.cards import SUIT_NAMES
from bot.game.scoring import BLIND_NIL, NIL
from bot.render.decks import card_text


def fill(template: str, /, **fields: object) -> str:
    """``template`` with its named placeholders filled in."""
    return template.format(**fields)


def hint_text(reason: Reason, names: Sequence[str]) -> str:
    """The answer to a Hint click: one short sentence with the bid or card."""
    return "💡 " + reason_text(reason, names)


def _card(card: int | None) -> str:
    assert card is not None
    return card_text(card)


def reason_text(reason: Reason, names: Sequence[str]) -> str:
    why = reason.why
    card = card_text(reason.card) if reason.card is not None else ""
    name = names[reason.seat] if reason.seat is not None else ""
    if why is Why.ONLY_CARD:
        return fill("Play the {card}: it is the only card you may play.", card=card)
    if why is Why.OWN_NIL_LEAD:
        return fill("You bid Nil: lead the {card}, a low card that others should beat.", card=card)
    if why is Why.OWN_NIL_UNDER:
        return fill(
            "You bid Nil: play the {card}, under the {winning} that wins the trick.",
            card=card,
            winning=_card(reason.other),
        )
    if why is Why.OWN_NIL_DISCARD:
        return fill(
            "You bid Nil and cannot follow suit: throw away the {card} before it can win a trick.",
            card=card,
        )
    if why is Why.COVER_NIL:
        return fill("Your partner bid Nil: cover with {card}.", card=card)
    if why is Why.COVER_NIL_LOW:
        return fill(
            "Your partner bid Nil and is safe in this trick: play the {card} "
            "and keep your high cards to cover later.",
            card=card,
        )
    if why is Why.NIL_LEAD_LOW:
        return fill(
            "{name} bid Nil: lead your low {card}, so that they may have to win it.",
            name=name,
            card=card,
        )
    if why is Why.NIL_STAY_UNDER:
        return fill(
            "{name} bid Nil: play the {card} and keep the trick low for them to win.",
            name=name,
            card=card,
        )
    if why is Why.DUCK_MADE:
        return fill(
            "Your team has made its {contract}: duck with {card} to avoid a bag.",
            contract=reason.number,
            card=card,
        )
    if why is Why.LEAD_LOWEST_CLUB:
        return fill(
            "Spades are not broken and you hold clubs: lead your lowest club, the {card}.",
            card=card,
        )
    if why is Why.CASH_WINNER:
        return fill(
            "The {card} is the highest {suit} left: lead it and take the trick.",
            card=card,
            suit=_suit_singular(reason.card),
        )
    if why is Why.LEAD_SIDE:
        return fill("Spades are not broken: lead the {card}, from a side suit.", card=card)
    if why is Why.LEAD_SPADE:
        return fill(
            "Spades are broken: lead the {card} and draw out the other players' spades.",
            card=card,
        )
    if why is Why.LEAD_LOW:
        return fill(
            "Lead the {card}, your lowest {suit}, and let the others spend their high cards.",
            card=card,
            suit=_suit_singular(reason.card),
        )
    if why is Why.LEAD:
        return fill("Lead the {card}: on the deals you may be facing, it does best.", card=card)
    if why is Why.PARTNER_WINNING:
        return fill(
            "Your partner's {winning} wins the trick so far: play low with the {card}.",
            winning=_card(reason.other),
            card=card,
        )
    if why is Why.TRUMP:
        return fill(
            "You have no {suit}: trump with the {card} and take the trick.",
            suit=SUIT_NAMES[_card_suit(reason.other)],
            card=card,
        )
    if why is Why.WIN_TRICK:
        if reason.number == 1:
            return fill("Your team needs one more trick: take this one with the {card}.", card=card)
        if reason.number:
            return fill(
                "Your team still needs {need} tricks: take this one with the {card}.",
                need=reason.number,
                card=card,
            )
        return fill(
            "Take the trick with the {card}: it beats the {winning}.",
            card=card,
            winning=_card(reason.other),
        )
    if why is Why.CANNOT_WIN:
        if reason.number:
            return fill(
                "You cannot beat the {winning}: play your lowest, the {card}.",
                winning=_card(reason.other),
                card=card,
            )
        return fill(
            "You cannot beat the {winning}: the trick is lost anyway, so give the {card} now.",
            winning=_card(reason.other),
            card=card,
        )
    if why is Why.DISCARD:
        return fill(
            "You cannot follow suit: throw away the {card}, a card unlikely to win later.",
            card=card,
        )
    if why is Why.BID_NIL:
        if reason.other is None:
            return "Bid Nil: you hold no spade, and your high cards have low ones to hide under."
        return fill(
            "Bid Nil: your highest spade is the {card}, and your high cards have low ones "
            "to hide under.",
            card=card_text(reason.other),
        )
    if why is Why.BID_BLIND_NIL:
        return fill(
            "Bid Blind Nil: your team is {points} points behind, and only a gamble can catch up.",
            points=reason.number,
        )
    if why is Why.LOOK_FIRST:
        return "Look at your cards before you bid: Blind Nil is only for a team far behind."
    assert why is Why.BID_COUNT, why
    return _bid_count_text(reason)


def _bid_count_text(reason: Reason) -> str:
    bid = reason.number
    count = count_of(reason.items)
    items = ", ".join(count_item_text(item) for item in reason.items)
    if not reason.items:
        return fill(
            "Bid {bid}: no trick is sure, but your middle cards should take about that many.",
            bid=bid,
        )
    if count == bid:
        return fill("Bid {bid}: {items}.", bid=bid, items=items)
    if count > bid:
        return fill(
            "Bid {bid}: you count {count} tricks ({items}), but bidding a little low "
            "is safer than a set.",
            bid=bid,
            count=count,
            items=items,
        )
    return fill(
        "Bid {bid}: you count {count} sure tricks ({items}), and your other high cards "
        "and length should bring the rest.",
        bid=bid,
        count=count,
        items=items,
    )


def count_item_text(item: CountItem) -> str:
    """One source of tricks in a bid's count, as a short phrase."""
    if item.kind is Count.ACE:
        return fill("{card}", card=_card(item.card))
    if item.kind is Count.KING:
        return fill("{card} guarded", card=_card(item.card))
    if item.kind is Count.TOP_SPADE:
        if item.card is not None and item.card % 13 == 12:
            return fill("{card}", card=_card(item.card))
        return fill("{card} guarded", card=_card(item.card))
    if item.kind is Count.LONG_SPADES:
        if item.number == 1:
            return "a fourth spade"
        return fill("{count} spades beyond the third", count=item.number)
    suit = SUIT_NAMES[item.suit or 0]
    if item.kind is Count.VOID:
        return fill("a void in {suit} with spades to trump", suit=suit)
    return fill("a singleton in {suit} with spades to trump", suit=suit)


def _card_suit(card: int | None) -> int:
    assert card is not None
    return card // 13


def _suit_singular(card: int | None) -> str:
    return ("club", "diamond", "heart", "spade")[_card_suit(card)]


# -- the review after a hand -------------------------------------------------------


def review_text(review: Review, table_id: int) -> str:
    """The private review of one person's hand: bid against tricks, and the
    costliest card."""
    lines = [_bid_line(review, table_id)]
    if review.team_bid:
        lines.append(
            fill(
                "Your team bid {bid} and took {taken}.",
                bid=review.team_bid,
                taken=review.team_taken,
            )
        )
    if review.mistake is None:
        lines.append("No card of yours cost your team anything on this deal: well played.")
    else:
        lines.append(mistake_text(review.mistake))
    return "\n".join(lines)


def _bid_line(review: Review, table_id: int) -> str:
    hand, taken = review.hand, review.taken
    if review.bid in (NIL, BLIND_NIL):
        nil = "Blind Nil" if review.bid == BLIND_NIL else "Nil"
        if taken == 0:
            return fill(
                "Table {table}, hand {hand}: you bid {nil} and took no trick: made.",
                table=table_id,
                hand=hand,
                nil=nil,
            )
        return fill(
            "Table {table}, hand {hand}: you bid {nil} and took {taken}: it failed.",
            table=table_id,
            hand=hand,
            nil=nil,
            taken=taken,
        )
    if taken == review.bid:
        return fill(
            "Table {table}, hand {hand}: you bid {bid} and took {taken}.",
            table=table_id,
            hand=hand,
            bid=review.bid,
            taken=taken,
        )
    if taken > review.bid:
        return fill(
            "Table {table}, hand {hand}: you bid {bid} and took {taken}, {more} more than you bid.",
            table=table_id,
            hand=hand,
            bid=review.bid,
            taken=taken,
            more=taken - review.bid,
        )
    return fill(
        "Table {table}, hand {hand}: you bid {bid} and took {taken}, {fewer} fewer than you bid.",
        table=table_id,
        hand=hand,
        bid=review.bid,
        taken=taken,
        fewer=review.bid - taken,
    )


def mistake_text(mistake: Mistake) -> str:
    fields = {
        "trick": mistake.trick,
        "better": card_text(mistake.better),
        "played": card_text(mistake.played),
        "number": mistake.number,
    }
    effect = mistake.effect
    if effect is Effect.KEEP_PARTNER_NIL:
        text = (
            "Trick {trick}: the {better} instead of the {played} would have kept "
            "your partner's Nil."
        )
    elif effect is Effect.KEEP_OWN_NIL:
        text = "Trick {trick}: the {better} instead of the {played} would have kept your Nil."
    elif effect is Effect.MAKE_CONTRACT:
        text = (
            "Trick {trick}: the {better} instead of the {played} would have made "
            "your team's contract."
        )
    elif effect is Effect.BREAK_THEIR_NIL:
        text = (
            "Trick {trick}: the {better} instead of the {played} would have broken "
            "the opponents' Nil."
        )
    elif effect is Effect.SET_THEM:
        text = "Trick {trick}: the {better} instead of the {played} would have set the opponents."
    elif effect is Effect.FEWER_BAGS:
        text = (
            "Trick {trick}: the {better} instead of the {played} would have saved "
            "your team {number} bags."
            if mistake.number > 1
            else "Trick {trick}: the {better} instead of the {played} would have saved "
            "your team a bag."
        )
    else:
        text = (
            "Trick {trick}: the {better} instead of the {played} would have gained "
            "your team {number} points."
        )
    return text.format(**fields)


# -- answers about the coach --------------------------------------------------------


def hints_off_text() -> str:
    return "Hints are off at this table: the host chooses them when opening it with /spades new."


def no_hint_now_text() -> str:
    return "There is nothing to hint now: a hint is for your own bid or card on your turn."


def cooldown_text(seconds: int) -> str:
    if seconds <= 1:
        return "The coach needs a moment between answers: ask again in a second."
    return fill(
        "The coach needs a moment between answers: ask again in {seconds} seconds.", seconds=seconds
    )


def coach_set_text(on: bool) -> str:
    if on:
        return "Your coach is on: after each hand you play, you get a private review of it."
    return "Your coach is off: no more reviews after your hands."


def coach_status_text(on: bool) -> str:
    if on:
        return "Your coach is on. Turn it off with /spades coach off."
    return "Your coach is off. Turn it on with /spades coach on."


def hints_table_text() -> str:
    return "Hints are on at this table: press Hint on your hand for advice on your turn."


def hint_button_label() -> str:
    return "Hint"
