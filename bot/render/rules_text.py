"""A table's rules in a few lines, written from its RuleSet (never from the
preset name), in the reader's language. Each line is one whole message."""

from __future__ import annotations

from bot.game.rules import FirstDealer, FirstLead, RuleSet, SetPenalty, TieRule
from bot.game.sides import solo
from bot.i18n import ENGLISH, N_, tr
from bot.render.clock_text import duration_text
from bot.render.house_rules import all_rules_text

#: The play line, by the first-lead rule.
_PLAY = {
    FirstLead.ANY_BUT_UNBROKEN_SPADE: N_(
        "- Follow suit if you can; spades trump; the player left of the dealer leads any "
        "card but a spade; nobody leads a spade before spades are broken unless they hold "
        "only spades."
    ),
    FirstLead.NO_SPADE: N_(
        "- Follow suit if you can; spades trump; the first trick may not open with a spade; "
        "nobody leads a spade before spades are broken unless they hold only spades."
    ),
    FirstLead.LOWEST_CLUB: N_(
        "- Follow suit if you can; spades trump; the first trick opens with the lowest club; "
        "nobody leads a spade before spades are broken unless they hold only spades."
    ),
}


def _winning_line(rules: RuleSet, lang: str) -> str:
    draw = rules.tie is TieRule.DRAW
    target, losing = rules.target, rules.losing_score
    if solo(rules) and losing:  # (a tie at the top always plays on)
        text = N_(
            "- The game ends when a player reaches **{target}** or falls to **{losing}**: "
            "the highest score wins; a tie at the top plays on."
        )
    elif solo(rules):
        text = N_(
            "- The game ends when a player reaches **{target}**: the highest score wins; "
            "a tie at the top plays on."
        )
    elif losing and draw:
        text = N_(
            "- First team to **{target}** wins; a team at **{losing}** or below loses; "
            "a tie at the end is a draw."
        )
    elif losing:
        text = N_(
            "- First team to **{target}** wins; a team at **{losing}** or below loses; "
            "a tie plays on."
        )
    elif draw:
        text = N_("- First team to **{target}** wins; a tie at the end is a draw.")
    else:
        text = N_("- First team to **{target}** wins; a tie plays on.")
    return tr(lang, text, target=target, losing=losing)


#: The contract and the set, by (solo, the set penalty is per trick bid):
#: in solo each player bids for themselves.
_CONTRACT = {
    True: N_(
        "- Solo: everyone plays on their own. Bid 1 to 13 tricks or Nil: your bid is your "
        "contract; it scores 10 a trick bid when made and 1 for each extra trick (a bag)."
    ),
    False: N_(
        "- Bid 1 to 13 tricks or Nil. A team's contract is the sum of its bids; "
        "it scores 10 a trick bid when made and 1 for each extra trick (a bag)."
    ),
}
_SET = {
    (True, True): N_("- A player who takes fewer tricks than their bid loses 10 a trick bid."),
    (True, False): N_("- A player who falls short loses 10 for each trick short."),
    (False, True): N_("- A team that takes fewer tricks than its contract loses 10 a trick bid."),
    (False, False): N_("- A team that falls short loses 10 for each trick it is short."),
}


def rules_text(rules: RuleSet, lang: str = ENGLISH) -> str:
    lines = [tr(lang, "**Rules of this table** (`{preset}` preset)", preset=rules.preset)]
    lines.append(_winning_line(rules, lang))
    per_trick = rules.set_penalty is SetPenalty.PER_TRICK_BID
    lines.append(tr(lang, _CONTRACT[solo(rules)]))
    lines.append(tr(lang, _SET[(solo(rules), per_trick)]))
    if rules.failed_nil_tricks_count_for_partner:
        nil = N_(
            "- Nil: +{value} if the bidder takes no trick, -{value} if not; the Nil bidder's "
            "tricks count for the partner's contract."
        )
    else:
        nil = N_(
            "- Nil: +{value} if the bidder takes no trick, -{value} if not; a failed Nil's "
            "tricks become bags."
        )
    if rules.nil_value is not None:
        lines.append(tr(lang, nil, value=rules.nil_value))
    if rules.blind_nil:
        if solo(rules):
            blind = N_(
                "- Blind Nil (before looking at your cards): ±{value}, allowed when you "
                "trail the leader by {deficit} or more."
            )
        else:
            blind = N_(
                "- Blind Nil (before looking at your cards): ±{value}, allowed when your team "
                "trails by {deficit} or more."
            )
        lines.append(
            tr(lang, blind, value=rules.blind_nil_value, deficit=rules.blind_nil_min_deficit)
        )
    if rules.bag_penalty:
        lines.append(
            tr(
                lang,
                "- Every {bags} bags cost {points} points.",
                bags=rules.bag_limit,
                points=rules.bag_penalty,
            )
        )
    lines.append(tr(lang, _PLAY[rules.first_lead]))
    if rules.revokes == "allowed" and solo(rules):
        lines.append(
            tr(
                lang,
                "- Revokes allowed: you may play off suit at your own risk. Until Next hand, "
                "`/revoke player:@name` calls it: a proven revoke loses the revoker the game, "
                "a false call loses it for the caller.",
            )
        )
    elif rules.revokes == "allowed":
        lines.append(
            tr(
                lang,
                "- Revokes allowed: you may play off suit at your own risk. Until Next hand, "
                "`/revoke player:@name` calls it: a proven revoke loses the revoker's team the "
                "game, a false call loses the caller's.",
            )
        )
    else:
        lines.append(tr(lang, "- Revokes blocked: only cards that follow suit can be played."))
    if rules.first_dealer is FirstDealer.HOST:
        lines.append(tr(lang, "- The host deals first; the deal moves left each hand."))
    else:
        lines.append(tr(lang, "- A random player deals first; the deal moves left each hand."))
    if solo(rules):
        clock = N_("- Turn limit {limit}: after that another player may claim the game.")
    else:
        clock = N_("- Turn limit {limit}: after that the other team may claim the game.")
    lines.append(tr(lang, clock, limit=duration_text(lang, rules.turn_limit_s)))
    lines.append(all_rules_text(rules, lang))
    return "\n".join(lines)
