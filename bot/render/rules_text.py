"""A table's rules in a few lines, written from its RuleSet (never from the preset name)."""

from __future__ import annotations

from bot.game.durations import format_duration
from bot.game.rules import FirstDealer, FirstLead, RuleSet, SetPenalty, TieRule

_FIRST_LEAD = {
    FirstLead.ANY_BUT_UNBROKEN_SPADE: "the player left of the dealer leads any card but a spade",
    FirstLead.NO_SPADE: "the first trick may not open with a spade",
    FirstLead.LOWEST_CLUB: "the first trick opens with the lowest club",
}


def rules_text(rules: RuleSet) -> str:
    lines = [f"**Rules of this table** (`{rules.preset}` preset)"]
    lines.append(
        f"- First team to **{rules.target}** wins"
        + (f"; a team at **{rules.losing_score}** or below loses" if rules.losing_score else "")
        + ("; a tie at the end is a draw." if rules.tie is TieRule.DRAW else "; a tie plays on.")
    )
    lines.append(
        "- Bid 1 to 13 tricks or Nil. A team's contract is the sum of its bids; "
        "it scores 10 a trick bid when made and 1 for each extra trick (a bag)."
    )
    if rules.set_penalty is SetPenalty.PER_TRICK_BID:
        lines.append("- A team that takes fewer tricks than its contract loses 10 a trick bid.")
    else:
        lines.append("- A team that falls short loses 10 for each trick it is short.")
    nil = f"- Nil: +{rules.nil_value} if the bidder takes no trick, -{rules.nil_value} if not"
    nil += (
        "; the Nil bidder's tricks count for the partner's contract."
        if rules.failed_nil_tricks_count_for_partner
        else "; a failed Nil's tricks become bags."
    )
    lines.append(nil)
    if rules.blind_nil:
        lines.append(
            f"- Blind Nil (before looking at your cards): ±{rules.blind_nil_value}, "
            f"allowed when your team trails by {rules.blind_nil_min_deficit} or more."
        )
    lines.append(f"- Every {rules.bag_limit} bags cost {rules.bag_penalty} points.")
    lines.append(
        f"- Follow suit if you can; spades trump; {_FIRST_LEAD[rules.first_lead]}; "
        "nobody leads a spade before spades are broken unless they hold only spades."
    )
    if rules.revokes == "allowed":
        lines.append(
            "- Revokes allowed: you may play off suit at your own risk. Until Next hand, "
            "`/revoke player:@name` calls it: a proven revoke loses the revoker's team the "
            "game, a false call loses the caller's."
        )
    else:
        lines.append("- Revokes blocked: only cards that follow suit can be played.")
    dealer = "the host" if rules.first_dealer is FirstDealer.HOST else "a random player"
    lines.append(f"- {dealer.capitalize()} deals first; the deal moves left each hand.")
    lines.append(
        f"- Turn limit {format_duration(rules.turn_limit_s)}: after that the other team may "
        "claim the game."
    )
    return "\n".join(lines)
