"""Every sentence of the coach, in the reader's language: hints, hand reviews,
and the answers of ``/spades coach``.

Each sentence is one catalog message with named placeholders, so that a
translator can reorder it; a counted number picks its plural form. Cards are
written as the reader's decks print them, suits in the reader's words. The
coach's refusals are :mod:`bot.refusals`, answered like every refusal
(:mod:`bot.render.refusal_text`).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.coach.pass_review import PassEffect, PassReview
from bot.coach.reasons import Count, CountItem, Reason, Why, count_of
from bot.coach.review import Effect, Mistake, Review
from bot.game.cards import SUIT_NAMES, suit_of
from bot.game.scoring import BLIND_NIL, NIL
from bot.i18n import ENGLISH, N_, ntr, tr
from bot.render.decks import card_text, cards_text
from bot.render.refusal_text import SUIT_WORDS

HINT_EMOJI = "💡"

#: The reasons told by one sentence each. Placeholders: ``{card}`` the card to
#: play, ``{winning}`` the card it refers to (the one winning the trick),
#: ``{name}`` the seat it refers to, ``{suit}`` the suit of ``{card}``,
#: ``{contract}`` the team's contract.
REASONS = {
    Why.ONLY_CARD: N_("Play the {card}: it is the only card you may play."),
    Why.OWN_NIL_LEAD: N_("You bid Nil: lead the {card}, a low card that others should beat."),
    Why.OWN_NIL_UNDER: N_("You bid Nil: play the {card}, under the {winning} that wins the trick."),
    Why.OWN_NIL_DISCARD: N_(
        "You bid Nil and cannot follow suit: throw away the {card} before it can win a trick."
    ),
    Why.COVER_NIL: N_("Your partner bid Nil: cover with {card}."),
    Why.COVER_NIL_LOW: N_(
        "Your partner bid Nil and is safe in this trick: play the {card} "
        "and keep your high cards to cover later."
    ),
    Why.NIL_LEAD_LOW: N_("{name} bid Nil: lead your low {card}, so that they may have to win it."),
    Why.NIL_STAY_UNDER: N_(
        "{name} bid Nil: play the {card} and keep the trick low for them to win."
    ),
    Why.DUCK_MADE: N_("Your team has made its {contract}: duck with {card} to avoid a bag."),
    Why.LEAD_LOWEST_CLUB: N_(
        "Spades are not broken and you hold clubs: lead your lowest club, the {card}."
    ),
    Why.CASH_WINNER: N_(
        "The {card} is the highest card left in {suit}: lead it and take the trick."
    ),
    Why.LEAD_SIDE: N_("Spades are not broken: lead the {card}, from a side suit."),
    Why.LEAD_SPADE: N_(
        "Spades are broken: lead the {card} and draw out the other players' spades."
    ),
    Why.LEAD_LOW: N_(
        "Lead the {card}, your lowest card in {suit}, and let the others spend their high cards."
    ),
    Why.LEAD: N_("Lead the {card}: on the deals you may be facing, it does best."),
    Why.PARTNER_WINNING: N_(
        "Your partner's {winning} wins the trick so far: play low with the {card}."
    ),
    Why.DISCARD: N_("You cannot follow suit: throw away the {card}, a card unlikely to win later."),
    Why.LOOK_FIRST: N_(
        "Look at your cards before you bid: Blind Nil is only for a team far behind."
    ),
    Why.PASS_NIL_SPADES: N_(
        "You bid Nil: pass {cards}. High spades are the most dangerous cards for a Nil: "
        "when you cannot follow suit, or spades are led, they win the trick."
    ),
    Why.PASS_NIL_HIGH: N_(
        "You bid Nil: pass {cards}, your highest cards, which could be forced to win a trick."
    ),
    Why.PASS_COVER: N_(
        "{name} bid Nil and needs low cards to duck with: pass {cards}, "
        "and keep your high cards to cover them."
    ),
}

#: The reasons said otherwise to a player on its own (teams=solo).
SOLO_REASONS = {
    Why.DUCK_MADE: N_("You have made your {contract}: duck with {card} to avoid a bag."),
    Why.LOOK_FIRST: N_(
        "Look at your cards before you bid: Blind Nil is only for a player far behind."
    ),
}

#: What the better card would have done, per effect; ``{n}`` is counted.
EFFECTS = {
    Effect.KEEP_PARTNER_NIL: N_(
        "Trick {trick}: the {better} instead of the {played} would have kept your partner's Nil."
    ),
    Effect.KEEP_OWN_NIL: N_(
        "Trick {trick}: the {better} instead of the {played} would have kept your Nil."
    ),
    Effect.MAKE_CONTRACT: N_(
        "Trick {trick}: the {better} instead of the {played} would have made your team's contract."
    ),
    Effect.BREAK_THEIR_NIL: N_(
        "Trick {trick}: the {better} instead of the {played} would have broken the opponents' Nil."
    ),
    Effect.SET_THEM: N_(
        "Trick {trick}: the {better} instead of the {played} would have set the opponents."
    ),
}

#: The same to a player on its own (teams=solo).
SOLO_EFFECTS = {
    Effect.KEEP_OWN_NIL: EFFECTS[Effect.KEEP_OWN_NIL],
    Effect.MAKE_CONTRACT: N_(
        "Trick {trick}: the {better} instead of the {played} would have made your bid."
    ),
}


def hint_text(reason: Reason, names: Sequence[str], lang: str = ENGLISH) -> str:
    """The answer to a Hint click: one short sentence with the bid or card."""
    return f"{HINT_EMOJI} {reason_text(reason, names, lang)}"


def suit_text(suit: int, lang: str = ENGLISH) -> str:
    """A suit in the reader's words, as the rules' refusals name it."""
    return tr(lang, SUIT_WORDS[SUIT_NAMES[suit]])


def _card(card: int | None, lang: str) -> str:
    assert card is not None
    return card_text(card, lang)


def reason_text(reason: Reason, names: Sequence[str], lang: str = ENGLISH) -> str:
    why = reason.why
    template = (reason.solo and SOLO_REASONS.get(why)) or REASONS.get(why)
    if template is not None:
        fields: dict[str, object] = {"contract": reason.number}
        if reason.card is not None:
            fields["card"] = card_text(reason.card, lang)
            fields["suit"] = suit_text(suit_of(reason.card), lang)
        if reason.other is not None:
            fields["winning"] = card_text(reason.other, lang)
        if reason.seat is not None:
            fields["name"] = names[reason.seat]
        if reason.cards:
            fields["cards"] = cards_text(reason.cards, lang)
        return tr(lang, template, **fields)
    card = card_text(reason.card, lang) if reason.card is not None else ""
    if why is Why.TRUMP:
        assert reason.other is not None
        return tr(
            lang,
            "You have no {suit}: trump with the {card} and take the trick.",
            suit=suit_text(suit_of(reason.other), lang),
            card=card,
        )
    if why is Why.WIN_TRICK:
        if reason.number and reason.solo:
            return ntr(
                lang,
                "You need {n} more trick: take this one with the {card}.",
                "You need {n} more tricks: take this one with the {card}.",
                reason.number,
                card=card,
            )
        if reason.number:
            return ntr(
                lang,
                "Your team needs {n} more trick: take this one with the {card}.",
                "Your team needs {n} more tricks: take this one with the {card}.",
                reason.number,
                card=card,
            )
        return tr(
            lang,
            "Take the trick with the {card}: it beats the {winning}.",
            card=card,
            winning=_card(reason.other, lang),
        )
    if why is Why.CANNOT_WIN:
        winning = _card(reason.other, lang)
        if reason.number:
            return tr(
                lang,
                "You cannot beat the {winning}: play your lowest, the {card}.",
                winning=winning,
                card=card,
            )
        return tr(
            lang,
            "You cannot beat the {winning}: the trick is lost anyway, so give the {card} now.",
            winning=winning,
            card=card,
        )
    if why is Why.BID_NIL:
        if reason.other is None:
            return tr(
                lang,
                "Bid Nil: you hold no spade, and your high cards have low ones to hide under.",
            )
        return tr(
            lang,
            "Bid Nil: your highest spade is the {card}, and your high cards have low ones "
            "to hide under.",
            card=card_text(reason.other, lang),
        )
    if why is Why.BID_BLIND_NIL and reason.solo:
        return ntr(
            lang,
            "Bid Blind Nil: you are {n} point behind the leader, and only a gamble can catch up.",
            "Bid Blind Nil: you are {n} points behind the leader, and only a gamble can catch up.",
            reason.number,
        )
    if why is Why.BID_BLIND_NIL:
        return ntr(
            lang,
            "Bid Blind Nil: your team is {n} point behind, and only a gamble can catch up.",
            "Bid Blind Nil: your team is {n} points behind, and only a gamble can catch up.",
            reason.number,
        )
    if why is Why.BID_SPADES:
        return tr(
            lang,
            "Bid {bid}: at this table a bid is the number of spades you hold.",
            bid=reason.number,
        )
    if why in (Why.BID_UNDER_PARTNER, Why.BID_UNDER_TABLE):
        return _bid_under_text(reason, names, lang)
    assert why is Why.BID_COUNT, why
    return _bid_count_text(reason, lang)


def _bid_under_text(reason: Reason, names: Sequence[str], lang: str) -> str:
    """A bid well below the count, with the bids that cut it."""
    fields = {
        "bid": reason.number,
        "items": ", ".join(count_item_text(item, lang) for item in reason.items),
        "claimed": reason.claimed,
    }
    if reason.why is Why.BID_UNDER_PARTNER:
        assert reason.seat is not None
        return ntr(
            lang,
            "Bid {bid}: you count {n} trick ({items}), but {name} bid {claimed}, and your "
            "side's two bids must fit in the 13 tricks of the hand.",
            "Bid {bid}: you count {n} tricks ({items}), but {name} bid {claimed}, and your "
            "side's two bids must fit in the 13 tricks of the hand.",
            count_of(reason.items),
            name=names[reason.seat],
            **fields,
        )
    return ntr(
        lang,
        "Bid {bid}: you count {n} trick ({items}), but the others have bid {claimed} "
        "tricks between them, so fewer are left for you.",
        "Bid {bid}: you count {n} tricks ({items}), but the others have bid {claimed} "
        "tricks between them, so fewer are left for you.",
        count_of(reason.items),
        **fields,
    )


def _bid_count_text(reason: Reason, lang: str) -> str:
    bid = reason.number
    if not reason.items:
        return tr(
            lang,
            "Bid {bid}: no trick is sure, but your middle cards should take about that many.",
            bid=bid,
        )
    count = count_of(reason.items)
    items = ", ".join(count_item_text(item, lang) for item in reason.items)
    if count == bid:
        return tr(lang, "Bid {bid}: {items}.", bid=bid, items=items)
    if count > bid:
        return ntr(
            lang,
            "Bid {bid}: you count {n} trick ({items}), but bidding a little low "
            "is safer than a set.",
            "Bid {bid}: you count {n} tricks ({items}), but bidding a little low "
            "is safer than a set.",
            count,
            bid=bid,
            items=items,
        )
    return ntr(
        lang,
        "Bid {bid}: you count {n} sure trick ({items}), and your other high cards "
        "and length should bring the rest.",
        "Bid {bid}: you count {n} sure tricks ({items}), and your other high cards "
        "and length should bring the rest.",
        count,
        bid=bid,
        items=items,
    )


def count_item_text(item: CountItem, lang: str = ENGLISH) -> str:
    """One source of tricks in a bid's count, as a short phrase."""
    if item.kind is Count.ACE:
        return _card(item.card, lang)
    if item.kind in (Count.KING, Count.TOP_SPADE):
        card = _card(item.card, lang)
        if item.kind is Count.TOP_SPADE and item.number == 0:
            return card  # the top trump needs no guard
        return tr(lang, "{card} guarded", card=card)
    if item.kind is Count.LONG_SPADES:
        if item.number == 1:
            return tr(lang, "a fourth spade")
        return ntr(lang, "{n} spade beyond the third", "{n} spades beyond the third", item.number)
    suit = suit_text(item.suit or 0, lang)
    if item.kind is Count.VOID:
        return tr(lang, "a void in {suit} with spades to trump", suit=suit)
    return tr(lang, "a singleton in {suit} with spades to trump", suit=suit)


# -- the review after a hand -------------------------------------------------------


#: What the coach's pass would have spared the Nil; ``{card}`` is the card
#: that makes the difference, ``{cards}`` the coach's pass.
PASS_EFFECTS = {
    PassEffect.KEPT_HIGH_SPADE: N_(
        "Your pass kept the {card}, a high spade that can be forced to win a trick "
        "for your Nil; the coach would have passed {cards}."
    ),
    PassEffect.KEPT_HIGH_CARD: N_(
        "Your pass kept the {card}, a high card with too few low cards under it to keep "
        "your Nil safe; the coach would have passed {cards}."
    ),
    PassEffect.GAVE_SPADE: N_(
        "You passed the {card} to your partner's Nil, a spade that can be forced to "
        "win a trick; the coach would have passed {cards}, your lowest side cards."
    ),
    PassEffect.GAVE_HIGH_CARD: N_(
        "You passed the {card} to your partner's Nil, a high card that may win them "
        "a trick; the coach would have passed {cards}, your lowest cards."
    ),
}


def review_text(review: Review, table_id: int, lang: str = ENGLISH) -> str:
    """The private review of one person's hand: bid against tricks, the
    cards passed under a Nil pass, and the costliest card."""
    lines = [_bid_line(review, table_id, lang)]
    if review.exchange is not None:
        lines.append(pass_text(review.exchange, lang))
    if review.team_bid and not review.solo:
        lines.append(
            tr(
                lang,
                "Your team bid {bid} and took {taken}.",
                bid=review.team_bid,
                taken=review.team_taken,
            )
        )
    if review.mistake is None and review.solo:
        lines.append(tr(lang, "No card of yours cost you anything on this deal: well played."))
    elif review.mistake is None:
        lines.append(
            tr(lang, "No card of yours cost your team anything on this deal: well played.")
        )
    else:
        lines.append(mistake_text(review.mistake, lang, solo=review.solo))
    return "\n".join(lines)


def pass_text(review: PassReview, lang: str = ENGLISH) -> str:
    """One line on the cards a seat passed, against the coach's choice."""
    fields = {"cards": cards_text(review.coach, lang), "gave": cards_text(review.gave, lang)}
    if review.effect is not None and review.card is not None:
        return tr(lang, PASS_EFFECTS[review.effect], card=card_text(review.card, lang), **fields)
    if review.as_coach:
        return tr(lang, "You passed {gave}, as the coach would have.", **fields)
    if review.own_nil:
        return tr(
            lang, "You passed {gave}: your Nil was as safe as with the coach's {cards}.", **fields
        )
    return tr(
        lang,
        "You passed {gave}: your partner's Nil was as safe as with the coach's {cards}.",
        **fields,
    )


#: The review's first line after a Nil or Blind Nil, by (bid, made).
_NIL_LINES = {
    (NIL, True): N_("Table {table}, hand {hand}: you bid Nil and took no trick: made."),
    (NIL, False): N_("Table {table}, hand {hand}: you bid Nil and took {taken}: it failed."),
    (BLIND_NIL, True): N_("Table {table}, hand {hand}: you bid Blind Nil and took no trick: made."),
    (BLIND_NIL, False): N_(
        "Table {table}, hand {hand}: you bid Blind Nil and took {taken}: it failed."
    ),
}
#: The same after a bid of tricks, by the sign of tricks taken less tricks bid.
_BID_LINES = {
    0: N_("Table {table}, hand {hand}: you bid {bid} and took {taken}."),
    1: N_("Table {table}, hand {hand}: you bid {bid} and took {taken}, {more} more than you bid."),
    -1: N_(
        "Table {table}, hand {hand}: you bid {bid} and took {taken}, {fewer} fewer than you bid."
    ),
}


def _bid_line(review: Review, table_id: int, lang: str) -> str:
    bid, taken = review.bid, review.taken
    if bid in (NIL, BLIND_NIL):
        template = _NIL_LINES[(bid, taken == 0)]
    else:
        template = _BID_LINES[(taken > bid) - (taken < bid)]
    fields = {"table": table_id, "hand": review.hand, "bid": bid, "taken": taken}
    return tr(lang, template, more=taken - bid, fewer=bid - taken, **fields)


def mistake_text(mistake: Mistake, lang: str = ENGLISH, *, solo: bool = False) -> str:
    """The costliest card; ``solo``: the player's own points, no team's (solo
    has no partner or team, so no other effect)."""
    fields: dict[str, str | int] = {
        "trick": mistake.trick,
        "better": card_text(mistake.better, lang),
        "played": card_text(mistake.played, lang),
    }
    template = (SOLO_EFFECTS if solo else EFFECTS).get(mistake.effect)
    if template is not None:
        return tr(lang, template, **fields)
    if mistake.effect is Effect.FEWER_BAGS and solo:
        return ntr(
            lang,
            "Trick {trick}: the {better} instead of the {played} would have saved you {n} bag.",
            "Trick {trick}: the {better} instead of the {played} would have saved you {n} bags.",
            mistake.number,
            **fields,
        )
    if mistake.effect is Effect.FEWER_BAGS:
        return ntr(
            lang,
            "Trick {trick}: the {better} instead of the {played} would have saved "
            "your team {n} bag.",
            "Trick {trick}: the {better} instead of the {played} would have saved "
            "your team {n} bags.",
            mistake.number,
            **fields,
        )
    assert mistake.effect is Effect.MORE_POINTS, mistake.effect
    if solo:
        return ntr(
            lang,
            "Trick {trick}: the {better} instead of the {played} would have gained you {n} point.",
            "Trick {trick}: the {better} instead of the {played} would have gained you {n} points.",
            mistake.number,
            **fields,
        )
    return ntr(
        lang,
        "Trick {trick}: the {better} instead of the {played} would have gained "
        "your team {n} point.",
        "Trick {trick}: the {better} instead of the {played} would have gained "
        "your team {n} points.",
        mistake.number,
        **fields,
    )


# -- answers about the coach --------------------------------------------------------


def coach_set_text(on: bool, lang: str = ENGLISH) -> str:
    if on:
        return tr(
            lang, "Your coach is on: after each hand you play, you get a private review of it."
        )
    return tr(lang, "Your coach is off: no more reviews after your hands.")


def coach_status_text(on: bool, lang: str = ENGLISH) -> str:
    if on:
        return tr(lang, "Your coach is on. Turn it off with /spades coach off.")
    return tr(lang, "Your coach is off. Turn it on with /spades coach on.")


def hints_table_text(lang: str = ENGLISH) -> str:
    return tr(lang, "Hints are on at this table: press Hint on your hand for advice on your turn.")


def hint_button_label(lang: str = ENGLISH) -> str:
    return tr(lang, "Hint")
