"""Every screen in every language: within Discord's limits, and with no
English word left where the language has a translation.

Each screen is drawn in English and in the language from the same snapshot;
a word of the English screen that the translated one still shows is a
message left untranslated, unless the language's own catalog uses that word
too (``Nil``, ``Boston``, ``Revanche``...) or it is a name.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import partial

import pytest

from bot import refusals
from bot.coach.reasons import Count, CountItem, Reason, Why
from bot.coach.review import Effect, Mistake, Review
from bot.game.cards import BIG_JOKER, DIAMONDS, HEARTS, LITTLE_JOKER, parse_card
from bot.game.house import HouseRuleError, apply
from bot.game.record import HandRecord
from bot.game.refusals import IllegalAction
from bot.game.rules import PRESETS, preset
from bot.game.scoring import BLIND_NIL, NIL
from bot.game.state import Game
from bot.game.types import EndReason, GameResult
from bot.game.view import view_of
from bot.i18n import ENGLISH, TRANSLATED
from bot.i18n_catalogs import read_catalog
from bot.refusals import (
    CoachBusy,
    HintsOff,
    NoHintNow,
    NoTableHere,
    SeveralTables,
    StaleAction,
    house_refusal,
)
from bot.render import clock_text
from bot.render.coach_text import (
    coach_set_text,
    coach_status_text,
    hint_text,
    hints_table_text,
    review_text,
)
from bot.render.decks import DECKS, Deck, DeckName, card_text
from bot.render.hand import hand_message, with_hint_button
from bot.render.house_rules import PAGES, house_panel
from bot.render.leaderboard import (
    board_message,
    history_embed,
    no_games_text,
    rating_setting_text,
    stats_embed,
)
from bot.render.refusal_text import joined_text, refusal_text, several_tables_text
from bot.render.results import end_of_game_text, game_record_text, hand_summary, team_names
from bot.render.rules_text import rules_text
from bot.render.spec import EmbedSpec, MessageSpec, SelectSpec
from bot.render.table import table_message
from bot.stats.counting import RatingChange, RecordOutcome
from bot.stats.leaderboard import LeaderboardPage, LeaderboardRow, SortKey, page_span
from bot.stats.records import FinishedGame
from bot.stats.summary import PartnerRecord, PlayerStats
from bot.stats.tally import Tally
from bot.tables.model import Seat, Table, TableOptions, TableStatus
from db.stats_records import HistoryRow
from tests.discord.test_render import table_of
from tests.game.helpers import bid_round, lowest_legal, play_out_lowest
from tests.render.fits import embed_problems, problems
from tests.render.test_noticed import hand_of
from tests.stats.games import computer, human

BIG_ID = 10**19 - 1
LONG_NAME = "N" * 120
SEATS = (Seat(100), Seat(computer_level="random"), Seat(102), Seat(computer_level="heuristic"))
#: Words that are names in every language: of computer players, of the
#: rules presets, Discord's own words, and the people of these screens.
NAMES = frozenset(
    {"Sol", "Wren", "Nell", "Ezra", "Discord", "alice", "bob", "carol", "dave", *PRESETS}
    | {w for name in PRESETS for w in name.split("-")}
    | {"Card", "Club"}
)

Screen = Callable[[str], object]


def _texts(drawn: object) -> Iterator[str]:
    if isinstance(drawn, str):
        yield drawn
    elif isinstance(drawn, MessageSpec):
        yield drawn.content
        if drawn.embed is not None:
            yield from _texts(drawn.embed)
        for row in drawn.rows:
            if isinstance(row, SelectSpec):
                yield row.placeholder
                yield from (o.label for o in row.options)
            else:
                yield from (b.label for b in row)
    elif isinstance(drawn, EmbedSpec):
        yield from (drawn.title, drawn.description, drawn.footer)
        for field in drawn.fields:
            yield from (field.name, field.value)


def text_of(drawn: object) -> str:
    return "\n".join(_texts(drawn))


def words(text: str) -> set[str]:
    # Mentions, channels and timestamps are ids, not words.
    text = re.sub(r"<[@#t][^>]*>|`[^`]*`", " ", text)
    return {w for w in re.findall(r"[^\W\d_]{3,}", text) if w not in NAMES}


# -- snapshots ------------------------------------------------------------------------


def table(
    game: Game | None,
    status: TableStatus = TableStatus.PLAYING,
    *,
    language: str = "en",
    options: TableOptions | None = None,
    **changes: object,
) -> Table:
    made = table_of(game, status, SEATS)
    chosen = (options or made.options).model_copy(update={"language": language})
    return replace(made, options=chosen, **changes)  # type: ignore[arg-type]


def bidding() -> Game:
    game = Game.new(preset("standard"), 3)
    game.bid(game.to_act, 4)
    return game


def mid_trick() -> Game:
    game = Game.new(preset("standard"), 3)
    bid_round(game, {0: NIL, 1: 3, 2: 4, 3: 2})
    for _ in range(6):  # a trick done, the next one under way
        game.play(game.to_act, lowest_legal(game))
    return game


def blind_nil_deal() -> Game:
    return Game.new(preset("blind-nil"), 3)


def hand_over() -> Game:
    """A game whose first hand is over, a Nil bid in it."""
    game = Game.new(preset("standard"), 3)
    bid_round(game, {0: NIL, 1: 3, 2: 4, 3: 2})
    play_out_lowest(game)
    return game


def summary() -> HandRecord:
    """A hand with a made Nil, a failed Blind Nil, a set and bags."""
    return hand_of([NIL, 5, 4, BLIND_NIL], [0, 9, 1, 3])


def finished(reason: EndReason, seat: int | None) -> Game:
    game = Game.new(preset("standard"), 1)
    game.scores[0], game.scores[1] = 510, 230
    game.result = GameResult(0, reason, seat)
    return game


def finished_game() -> FinishedGame:
    return FinishedGame(
        guild_id=1,
        game_id=12,
        finished_at=0.0,
        rules=preset("standard"),
        seats=(human(100), computer("random"), human(102), computer("heuristic")),
        winner=1,
        reason=EndReason.TARGET,
        reason_seat=None,
        final_scores=(-120, 510),
        hand_records=(),
    )


def page(sort: SortKey, rows: int) -> LeaderboardPage:
    found = tuple(
        LeaderboardRow(
            rank=n + 1,
            user_id=BIG_ID - n,
            rating=1500 + n,
            rated_games=10,
            games=12,
            wins=7,
            losses=4,
            draws=1,
        )
        for n in range(rows)
    )
    return LeaderboardPage(sort=sort, span=page_span(0, 40, 10), total=40, rows=found)


def stats() -> PlayerStats:
    tally = Tally(12, 7, 4, 1, 80, 3000, 5, 3, 2, 1, 9, 41, 1, 2, 1)
    partners = (PartnerRecord(BIG_ID, 5, 4, 0),)
    return PlayerStats(BIG_ID, tally, 1620, 12, 3, 40, partners, last_game=history()[-2])


def history() -> list[HistoryRow]:
    return [
        HistoryRow(40 + n, 1e9, n % 4, n % 2, reason.value, (510, 230), 102, None, None, 1500, 1512)
        for n, reason in enumerate(EndReason)
    ] + [
        HistoryRow(90, 1e9, 1, None, "target", (300, 300), 9, None, "search", None, None),
        HistoryRow(91, 1e9, 0, None, "moderator", (90, 80), 3, 7, None, None, None, "4711"),
    ]


ERRORS: tuple[BaseException, ...] = (
    StaleAction(),
    NoTableHere(),
    SeveralTables([1, 2, 3]),
    refusals.Spectator(),
    refusals.HostOnly(),
    refusals.TableFull(),
    refusals.NotStarted(),
    refusals.NoClaimAtStandIn(),
    refusals.NotEnoughPlayers("all four seats must be taken before you pick a partner"),
)


def engine_refusals() -> list[IllegalAction]:
    """Refusals the engine gives in play, with their parameters."""
    found: list[IllegalAction] = []
    game = mid_trick()
    seat = game.to_act
    legal = game.legal_play_mask(seat)
    attempts: tuple[Callable[[], None], ...] = (
        lambda: game.play(seat, next(c for c in range(52) if not legal >> c & 1)),
        lambda: game.play((seat + 1) & 3, 0),
        lambda: game.bid(seat, 3),
        lambda: game.claim_timeout(seat, game.waiting_since + 1),
    )
    for attempt in attempts:
        try:
            attempt()
        except IllegalAction as exc:
            found.append(exc)
    blind = Game.new(preset("standard"), 3)
    try:
        blind.bid(blind.to_act, BLIND_NIL)
    except IllegalAction as exc:
        found.append(exc)
    return found


# -- the coach ------------------------------------------------------------------------

PLAYERS = ["alice", "bob", "carol", "dave"]
#: Every source of tricks a bid's count names: 8 tricks in all.
COUNTED = (
    CountItem(Count.ACE, card=parse_card("AH")),
    CountItem(Count.KING, card=parse_card("KD")),
    CountItem(Count.TOP_SPADE, card=parse_card("AS")),
    CountItem(Count.TOP_SPADE, card=parse_card("QS")),
    CountItem(Count.LONG_SPADES, number=2),
    CountItem(Count.VOID, suit=DIAMONDS),
    CountItem(Count.SINGLETON, suit=HEARTS),
)
PASSED = 1 << parse_card("AS") | 1 << parse_card("KH")
#: A reason of each kind, with its variants: a card, the card it refers to,
#: a seat and a number.
HINTS: dict[str, Reason] = {
    **{
        why.value: Reason(why, parse_card("7H"), parse_card("JC"), seat=1, number=2, cards=PASSED)
        for why in Why
        if why is not Why.BID_COUNT
    },
    "win_trick, one more": Reason(Why.WIN_TRICK, parse_card("KC"), parse_card("JC"), number=1),
    "win_trick, beats": Reason(Why.WIN_TRICK, parse_card("KC"), parse_card("JC")),
    "cannot_win, not the lowest": Reason(Why.CANNOT_WIN, parse_card("9C"), parse_card("QC")),
    "bid_nil, no spade": Reason(Why.BID_NIL),
    "bid_blind_nil, far behind": Reason(Why.BID_BLIND_NIL, number=210),
    "bid_count, nothing sure": Reason(Why.BID_COUNT, number=2),
    "bid_count, as counted": Reason(Why.BID_COUNT, number=8, items=COUNTED),
    "bid_count, below the count": Reason(Why.BID_COUNT, number=6, items=COUNTED),
    "bid_count, above the count": Reason(Why.BID_COUNT, number=10, items=COUNTED),
    "bid_count, one sure trick": Reason(
        Why.BID_COUNT, number=3, items=(CountItem(Count.LONG_SPADES, number=1),)
    ),
}


def review(bid: int, taken: int, mistake: Mistake | None) -> Review:
    return Review(hand=3, seat=1, bid=bid, taken=taken, team_bid=6, team_taken=5, mistake=mistake)


def mistake(effect: Effect, number: int = 2) -> Mistake:
    return Mistake(7, parse_card("KD"), parse_card("9D"), effect, number, 40)


REVIEWS: dict[str, Review] = {
    "nil made": review(NIL, 0, mistake(Effect.KEEP_PARTNER_NIL)),
    "nil failed": review(NIL, 2, mistake(Effect.KEEP_OWN_NIL)),
    "blind nil made": review(BLIND_NIL, 0, mistake(Effect.BREAK_THEIR_NIL)),
    "blind nil failed": review(BLIND_NIL, 1, mistake(Effect.SET_THEM)),
    "as bid": review(4, 4, None),
    "above the bid": review(3, 5, mistake(Effect.FEWER_BAGS)),
    "one bag": review(3, 4, mistake(Effect.FEWER_BAGS, 1)),
    "below the bid": review(5, 2, mistake(Effect.MAKE_CONTRACT)),
    "points": review(2, 1, mistake(Effect.MORE_POINTS, 30)),
    "one point": review(2, 1, mistake(Effect.MORE_POINTS, 1)),
}


def hint_hand(lang: str) -> MessageSpec:
    game = mid_trick()
    view = view_of(game, game.to_act)
    spec = hand_message(
        view, table_id=7, version=1, names=PLAYERS, deck=DECKS[DeckName.CLASSIC], lang=lang
    )
    return with_hint_button(spec, view, 7, 1, game.action_count, lang)


def _result_screen(reason: EndReason, lang: str) -> MessageSpec:
    return table_message(table(finished(reason, 1), TableStatus.FINISHED, language=lang))


def _hand_screen(deck: Deck, lang: str) -> MessageSpec:
    return hand_message(
        view_of(mid_trick(), 1),
        table_id=7,
        version=1,
        names=["alice", "bob", "carol", "dave"],
        deck=deck,
        lang=lang,
    )


COACH_SCREENS: dict[str, Screen] = {
    **{f"hint {name}": partial(hint_text, reason, PLAYERS) for name, reason in HINTS.items()},
    **{f"review {name}": partial(review_text, review, 7) for name, review in REVIEWS.items()},
    "hand with a hint button": hint_hand,
    "coach refusals": lambda lang: "\n".join(
        refusal_text(e, lang) or "" for e in (HintsOff(), NoHintNow(), CoachBusy(1), CoachBusy(4))
    ),
    "coach answers": lambda lang: "\n".join(
        (
            *(coach_set_text(on, lang) for on in (True, False)),
            *(coach_status_text(on, lang) for on in (True, False)),
            hints_table_text(lang),
        )
    ),
    "hints table options": lambda lang: table_message(
        table(
            None,
            TableStatus.LOBBY,
            language=lang,
            options=TableOptions(hints=True),
        )
    ),
}


#: A table whose host set a house rule of every kind.
HOUSE_OPTIONS = TableOptions(
    preset="blind-nil",
    house="deck=jokers-deuce,bidding=suicide,nil=50,nil_tricks=contract,blind_nil=200:300,"
    "bags=5:50,set=short,boston=200,ten_for_200=on,spades_lead=any,first_lead=lowclub,"
    "target=300,floor=-500",
)


def _mirror_hand(lang: str) -> MessageSpec:
    game = Game.new(apply(PRESETS["standard"], "bidding=mirror,deck=jjdd"), 3)
    return hand_message(
        view_of(game, game.to_act),
        table_id=7,
        version=1,
        names=["a"] * 4,
        deck=DECKS[next(iter(DECKS))],
        lang=lang,
    )


def _refused(house: str) -> HouseRuleError:
    """The refusal of the house rules ``house``, which cannot be played."""
    with pytest.raises(HouseRuleError) as refused:
        apply(preset("standard"), house)
    return refused.value


HOUSE_SCREENS: dict[str, Screen] = {
    **{
        f"house rules menus {page + 1}": partial(
            lambda page, lang: house_panel(
                table(None, TableStatus.LOBBY, options=HOUSE_OPTIONS), page, lang
            ),
            page,
        )
        for page in range(len(PAGES))
    },
    "house rules lobby": lambda lang: table_message(
        table(None, TableStatus.LOBBY, language=lang, options=HOUSE_OPTIONS)
    ),
    "house rules in words": lambda lang: rules_text(HOUSE_OPTIONS.rules(), lang),
    "house rules refused": lambda lang: "\n".join(
        refusal_text(house_refusal(_refused(house)), lang) or ""
        for house in (
            "nil=off,bidding=whiz",
            "blind_nil=100:200,bidding=mirror",
            "min_team_bid=4,bidding=whiz",
        )
    ),
    "mirror hand": _mirror_hand,
    "jokers": lambda lang: "\n".join(
        DECKS[name].hand_text(1 << BIG_JOKER | 1 << LITTLE_JOKER | 1 << 53, lang) for name in DECKS
    ),
}


SCREENS: dict[str, Screen] = {
    "lobby": lambda lang: table_message(table(None, TableStatus.LOBBY, language=lang)),
    "full lobby": lambda lang: table_message(
        table(None, TableStatus.LOBBY, language=lang, spectators=(5, 6))
    ),
    "cancelled": lambda lang: table_message(table(None, TableStatus.CANCELLED, language=lang)),
    "bidding": lambda lang: table_message(table(bidding(), language=lang)),
    "mid-trick": lambda lang: table_message(
        table(mid_trick(), language=lang), claim_open=True, stand_in=True
    ),
    "hand over": lambda lang: table_message(table(hand_over(), language=lang)),
    "hand summary": lambda lang: hand_summary(table(None), summary(), lang),
    **{f"result {reason.value}": partial(_result_screen, reason) for reason in EndReason},
    **{f"hand {name}": partial(_hand_screen, deck) for name, deck in DECKS.items()},
    "hand bidding": lambda lang: hand_message(
        view_of(bidding(), 1),
        table_id=7,
        version=1,
        names=["a"] * 4,
        deck=DECKS[next(iter(DECKS))],
        lang=lang,
    ),
    "hand face down": lambda lang: hand_message(
        view_of(blind_nil_deal(), blind_nil_deal().to_act),
        table_id=7,
        version=1,
        names=["a"] * 4,
        deck=DECKS[next(iter(DECKS))],
        lang=lang,
    ),
    **{f"rules {name}": partial(rules_text, r) for name, r in PRESETS.items()},
    "reminder": lambda lang: "\n".join(
        m.text
        for stand_in in (True, False)
        for game in (bidding(), mid_trick())
        if (m := clock_text.reminder(table(game, language=lang), 0, 3600, stand_in=stand_in))
    ),
    "claim opened": lambda lang: getattr(
        clock_text.claim_opened(table(mid_trick(), language=lang)), "text", ""
    ),
    "stood in": lambda lang: clock_text.stood_in(table(mid_trick(), language=lang), 0).text,
    "lobby closed": lambda lang: (
        clock_text.lobby_closed(table(None, TableStatus.LOBBY, language=lang), 5400).text
    ),
    "claimed": lambda lang: clock_text.claimed(
        table(finished(EndReason.TIMEOUT, 0), TableStatus.FINISHED, language=lang), 102
    ),
    "leaderboard by rating": lambda lang: board_message(
        page(SortKey.RATING, 10), "Card Club", lang
    ),
    "leaderboard by wins": lambda lang: board_message(page(SortKey.WINS, 10), "Card Club", lang),
    "empty leaderboard": lambda lang: "\n".join(
        text_of(board_message(page(sort, 0), "Card Club", lang)) for sort in SortKey
    ),
    "stats": lambda lang: stats_embed(stats(), "alice", "Card Club", lang),
    "history": lambda lang: history_embed(history(), "alice", lang),
    "no games": lambda lang: no_games_text(None, lang) + no_games_text(5, lang),
    "rating setting": lambda lang: (
        rating_setting_text(True, lang) + rating_setting_text(False, lang)
    ),
    "end of game": lambda lang: end_of_game_text(
        7,
        finished_game(),
        team_names(finished_game().seats, {100: "alice", 102: "bob"}.__getitem__, lang=lang),
        RecordOutcome(rated=False, changes=()),
        lang,
    ),
    "end of game rated": lambda lang: end_of_game_text(
        7,
        finished_game(),
        ("alice & bob", "carol & dave"),
        RecordOutcome(rated=True, changes=(RatingChange(100, 1500, 1512),)),
        lang,
    ),
    "game record": lambda lang: game_record_text(finished_game(), lang),
    "refusals": lambda lang: "\n".join(
        refusal_text(e, lang) or "" for e in (*ERRORS, *engine_refusals())
    ),
    "several tables": lambda lang: several_tables_text([1, 2], lang),
    "joined": lambda lang: joined_text(lang, 2, 7) + joined_text(lang, None, 7),
    **COACH_SCREENS,
    **HOUSE_SCREENS,
}


def vocabulary(lang: str) -> set[str]:
    """The words the language's own catalog uses."""
    found: set[str] = set()
    for entry in read_catalog(lang):
        strings = entry.string if isinstance(entry.string, (tuple, list)) else (entry.string,)
        for text in strings:
            assert text is not None
            found |= words(text)
    return found


VOCABULARY = {lang: vocabulary(lang) for lang in TRANSLATED}


@pytest.mark.parametrize("lang", (ENGLISH, *TRANSLATED))
@pytest.mark.parametrize("name", SCREENS)
def test_every_screen_fits_discord_in_every_language(name: str, lang: str) -> None:
    drawn = SCREENS[name](lang)
    if isinstance(drawn, MessageSpec):
        assert problems(drawn) == []
    elif isinstance(drawn, EmbedSpec):
        assert embed_problems(drawn) == []
    else:
        assert isinstance(drawn, str) and 0 < len(drawn) <= 2000


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("name", SCREENS)
def test_no_english_word_is_left_where_a_translation_exists(name: str, lang: str) -> None:
    english = words(text_of(SCREENS[name](ENGLISH)))
    translated = words(text_of(SCREENS[name](lang)))
    assert translated != english
    assert translated & english - VOCABULARY[lang] == set()


@pytest.mark.parametrize("name", SCREENS)
def test_english_stays_the_source(name: str) -> None:
    # The English screens are the messages themselves: no catalog in between.
    assert "{" not in text_of(SCREENS[name](ENGLISH)).replace("{n}", "")


def test_long_names_fit_in_every_language() -> None:
    for lang in (ENGLISH, *TRANSLATED):
        crowded = table(
            mid_trick(),
            language=lang,
            seats=(Seat(BIG_ID), Seat(BIG_ID - 1), Seat(BIG_ID - 2), Seat(BIG_ID - 3)),
            spectators=tuple(BIG_ID - n for n in range(500)),
        )
        assert problems(table_message(crowded, claim_open=True, stand_in=True)) == []
        lobby = replace(crowded, status=TableStatus.LOBBY, game=None)
        assert problems(table_message(lobby, partner_names=[LONG_NAME] * 4)) == []


def test_cards_print_as_decks_in_each_language_do() -> None:
    queen = parse_card("QH")
    assert [card_text(queen, lang) for lang in ("en", "pt_BR", "es", "fr", "de")] == [
        "Q♥",
        "Q♥",
        "Q♥",
        "D♥",
        "D♥",
    ]
    assert card_text(parse_card("JS"), "de") == "B♠" and card_text(parse_card("KS"), "fr") == "R♠"
    assert card_text(parse_card("TS"), "fr") == "10♠"
    large = DECKS[DeckName.LARGE_PRINT].face(parse_card("JS"), "fr")
    assert large.emoji == "🇻"
