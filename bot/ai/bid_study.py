"""What each bid is worth to the search player in one position, to be read.

    python -m bot.ai.bid_study "AS 6S 5S 4S 3S 2S QH 2D 3D 4D 5D 6D 7D" [--bids 3,1]
                               [--samples 300] [--seed 0]

Deals the given cards to the first seat to bid (the other hands fixed by the
dealing order of the tests, only the searching seat's cards matter: the
others are sampled), makes the earlier bids, and prints, for every bid, its
mean chance of winning the game over the search player's own samples, the
paired difference to the best bid with its standard error, and the bid the
player would actually choose.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from bot.ai.search import SearchPlayer, Tally
from bot.game.cards import DECK_MASK, cards_of, mask_of, parse_cards
from bot.game.rules import PRESETS, preset
from bot.game.scoring import NIL
from bot.game.state import Game
from bot.game.view import PlayerView, view_of


def study_lines(bids: Sequence[int], tally: Tally, chosen: int) -> list[str]:
    """One line per bid: mean value, difference to the best and its error."""
    best = max(range(tally.options), key=tally.mean)
    lines = [f"{len(tally.samples)} samples; the search player bids {bid_name(chosen)}"]
    for i, bid in enumerate(bids):
        if i == best:
            gap = "best"
        else:
            diff, error = tally.advantage(i, best)
            gap = f"{diff:+.4f} ± {error:.4f}"
        lines.append(f"  {bid_name(bid):>4s}  {tally.mean(i):.4f}  {gap}")
    return lines


def bid_name(bid: int) -> str:
    return "Nil" if bid == NIL else str(bid)


def position_view(hand: str, earlier_bids: Sequence[int], rules_name: str) -> PlayerView:
    """The view of the seat bidding after ``earlier_bids`` (seat 1 bids
    first), holding ``hand``; the other seats get the rest of the deck."""
    seat = (1 + len(earlier_bids)) & 3
    own = mask_of(parse_cards(hand))
    rest = cards_of(DECK_MASK & ~own)
    others = [s for s in range(4) if s != seat]
    hands = [0, 0, 0, 0]
    hands[seat] = own
    for index, card in enumerate(rest):
        hands[others[index % 3]] |= 1 << card
    game = Game.new(preset(rules_name), 1, fixed_deals=[hands])
    for bid in earlier_bids:
        game.bid(game.to_act, bid)
    return view_of(game, seat)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.ai.bid_study", description=__doc__)
    parser.add_argument("hand", help="13 cards, e.g. 'AS KS 2H ...'")
    parser.add_argument("--bids", default="", help="earlier bids, comma-separated (0 is Nil)")
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rules", default="standard", choices=sorted(PRESETS))
    args = parser.parse_args(argv)
    earlier = [int(b) for b in args.bids.split(",") if b.strip()]
    view = position_view(args.hand, earlier, args.rules)
    player = SearchPlayer(args.seed, time_budget=3600.0, max_samples=args.samples)
    bids = [b for b in view.legal_bids if b >= 0]
    tally = player.study_bids(view, bids)
    chosen = player.decide(view).value
    print("\n".join(study_lines(bids, tally, chosen)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
