"""What players noticed in the texts, each drawn from a snapshot as they see it."""

from __future__ import annotations

from dataclasses import replace

from bot.game.cards import mask_of
from bot.game.record import HandRecord
from bot.game.rules import preset
from bot.game.scoring import NIL, score_hand
from bot.game.state import Game
from bot.game.types import EndReason, GameResult, Phase
from bot.game.view import view_of
from bot.render.decks import DECKS, DeckName
from bot.render.hand import hand_message
from bot.render.results import end_of_game_text, hand_summary, result_text, team_names
from bot.render.spec import seat_labels
from bot.render.table import table_message
from bot.stats.counting import RecordOutcome
from bot.stats.records import FinishedGame
from bot.tables.model import Seat, Table, TableStatus
from tests.discord.test_render import table_of as any_table
from tests.stats.games import computer, human

COMPUTERS = (
    Seat(100),
    Seat(computer_level="random"),
    Seat(computer_level="heuristic"),
    Seat(computer_level="search"),
)


def table_of(game: Game | None, status: TableStatus = TableStatus.PLAYING) -> Table:
    """A table of one person and three computer players."""
    return any_table(game, status, COMPUTERS)


def ended(scores: tuple[int, int], winner: int | None, reason: EndReason, seat: int | None) -> Game:
    game = Game.new(preset("standard"), 1)
    game.scores[0], game.scores[1] = scores
    game.result = GameResult(winner, reason, seat)
    return game


def test_each_computer_player_has_its_own_name_with_its_level() -> None:
    lobby = table_of(None, TableStatus.LOBBY)
    assert seat_labels(lobby) == [
        "<@100>",
        "🤖 Wren (random)",
        "🤖 Nell (heuristic)",
        "🤖 Ezra (search)",
    ]
    spec = table_message(lobby)
    assert spec.embed is not None
    seats = spec.embed.fields[0].value
    assert "**West** 🤖 Wren (random)" in seats and "**East** 🤖 Ezra (search)" in seats
    # The same names in the result, the end-of-game post and the picture.
    timeout = ended((120, 40), 0, EndReason.TIMEOUT, 3)
    assert "🤖 Ezra (search) let the turn limit pass" in result_text(table_of(timeout), timeout)
    seats_played = (human(100), computer("random"), computer("heuristic"), computer("search"))
    names = {100: "alice"}.__getitem__
    assert team_names(seats_played, names) == (
        "alice & 🤖 Nell (heuristic)",
        "🤖 Wren (random) & 🤖 Ezra (search)",
    )
    # The picture's font has no emoji.
    assert team_names(seats_played, names, plain=True)[1] == "Wren (random) & Ezra (search)"


def test_the_winning_team_comes_first() -> None:
    game = ended((-240, -120), 1, EndReason.LOSING_SCORE, None)
    text = result_text(table_of(game), game)
    assert text.startswith("**West & East win** (-120 to -240)")
    draw = ended((300, 300), None, EndReason.TARGET, None)
    assert result_text(table_of(draw), draw) == "**Draw** at 300 to 300."


def finished_game(scores: tuple[int, int], winner: int | None) -> FinishedGame:
    return FinishedGame(
        guild_id=1,
        game_id=9,
        finished_at=0.0,
        rules=preset("standard"),
        seats=(human(100), computer("random"), computer("random"), human(101)),
        winner=winner,
        reason=EndReason.LOSING_SCORE,
        reason_seat=None,
        final_scores=scores,
        hand_records=(),
    )


def test_the_end_of_game_post_names_players_and_writes_negative_scores() -> None:
    game = finished_game((-198, -257), 0)
    names = team_names(game.seats, {100: "alice", 101: "bob"}.__getitem__)
    unrated = RecordOutcome(rated=False, changes=())
    assert end_of_game_text(4, game, names, unrated) == (
        "Table 4: alice & 🤖 Nell (random) win -198 to -257. "
        "Not rated (computer players took part)."
    )
    losers_first = finished_game((-257, -198), 1)
    text = end_of_game_text(4, losers_first, names, unrated)
    assert text.startswith("Table 4: 🤖 Wren (random) & bob win -198 to -257.")
    assert "random computer" not in text


def test_an_unrated_game_says_why() -> None:
    with_computers = finished_game((250, 100), 0)
    seats = (human(100), human(101), human(102), human(103))
    people = replace(with_computers, seats=seats, hints=True)
    both = replace(with_computers, hints=True)
    unrated = RecordOutcome(rated=False, changes=())
    names = ("us", "them")
    assert end_of_game_text(4, people, names, unrated).endswith(
        "Not rated (the table had hints on)."
    )
    assert end_of_game_text(4, both, names, unrated).endswith(
        "Not rated (computer players took part, and hints were on)."
    )
    assert end_of_game_text(4, with_computers, names, unrated, "de").endswith(
        "Nicht gewertet (Computerspieler haben mitgespielt)."
    )


def hand_of(bids: list[int], tricks: list[int]) -> HandRecord:
    rules = preset("standard")
    results = score_hand(rules, bids, tricks, (0, 0))
    return HandRecord(
        hand=1,
        dealer=3,
        dealt=[0, 0, 0, 0],
        bids=list(enumerate(bids)),
        tricks=[],
        tricks_won=tricks,
        score_before=[0, 0],
        bags_before=[0, 0],
        hand_score=[results[0].points, results[1].points],
        score_after=[results[0].points, results[1].points],
        bags_after=[results[0].bags_after, results[1].bags_after],
        results=results,
    )


def test_a_double_nil_reads_as_two_nils_and_no_contract() -> None:
    summary = hand_summary(table_of(None), hand_of([NIL, 4, NIL, 5], [2, 6, 1, 4]))
    south_north, _, west_east, _ = summary.splitlines()
    assert "Nil failed (South) · Nil failed (North)" in south_north
    assert "contract" not in south_north and "×" not in summary
    assert "contract 9: made" in west_east and "Nil" not in west_east
    one_nil = hand_summary(table_of(None), hand_of([3, NIL, 4, 6], [4, 0, 3, 6]))
    assert "contract 6: made · Nil made (West)" in one_nil.splitlines()[2]


def test_large_print_makes_headings_of_the_card_lines_only() -> None:
    spades, hearts = [51, 50, 40], [38]
    clubs, diamonds = list(range(0, 5)), list(range(13, 17))
    deal = [mask_of(spades + hearts + clubs + diamonds)]
    rest = [c for c in range(52) if not deal[0] >> c & 1]
    deal += [mask_of(rest[0:13]), mask_of(rest[13:26]), mask_of(rest[26:39])]
    game = Game.new(preset("standard"), 1, fixed_deals=[deal])
    while game.to_act != 0:
        game.bid(game.to_act, 3)
    large = DECKS[DeckName.LARGE_PRINT]
    names = ["alice", "bob", "carol", "dave"]
    spec = hand_message(view_of(game, 0), table_id=5, version=1, names=names, deck=large)
    assert spec.content == (
        "**Table 5 · hand 1** · partner: carol\n"
        "## ♠  A K 3\n"
        "## ♥  A\n"
        "## ♣  6 5 4 3 2\n"
        "## ♦  5 4 3 2\n"
        "Bids: bob 3, carol 3, dave 3\n"
        "**Your turn to bid.**"
    )
    game.bid(0, 3)
    game.play(game.to_act, next(c for c in range(52) if game.legal_play_mask(game.to_act) >> c & 1))
    assert game.phase is Phase.PLAYING
    playing = hand_message(view_of(game, 0), table_id=5, version=2, names=names, deck=large)
    headings = [line for line in playing.content.splitlines() if line.startswith("#")]
    assert len(headings) == 1 and headings[0].startswith("## Trick 1: bob ")
    classic = hand_message(
        view_of(game, 0), table_id=5, version=2, names=names, deck=DECKS[DeckName.CLASSIC]
    )
    assert playing.content.replace("## ", "") == classic.content


def test_a_hand_before_any_bid_says_so_instead_of_four_dashes() -> None:
    game = Game.new(preset("standard"), 1)
    names = ["alice", "bob", "carol", "dave"]
    first = game.to_act
    spec = hand_message(
        view_of(game, first), table_id=5, version=1, names=names, deck=DECKS[DeckName.CLASSIC]
    )
    assert "No bids yet." in spec.content.splitlines()
    assert "Bids:" not in spec.content and " -" not in spec.content
