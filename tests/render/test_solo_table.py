"""What a solo table (``teams=solo``) shows: no partners or teams anywhere,
each player's own score, bags, bid and tricks, the four ranked at the end."""

from __future__ import annotations

import random

import pytest

from bot.game.cards import cards_of
from bot.game.house import apply
from bot.game.refusals import IllegalAction
from bot.game.rest_claim import RestClaim
from bot.game.rules import PRESETS
from bot.game.scoring import BLIND_NIL
from bot.game.sides import places
from bot.game.state import Game
from bot.game.types import EndReason, GameResult, Phase
from bot.game.view import view_of
from bot.i18n import ENGLISH, TRANSLATED, tr
from bot.render.clock_text import claim_opened, claimed, reminder
from bot.render.decks import DECKS, DeckName
from bot.render.hand import hand_message
from bot.render.house_rules import PAGES, all_rules_text, house_panel
from bot.render.refusal_text import resign_question
from bot.render.replay import frame_scene
from bot.render.results import end_of_game_text, game_record_text, side_names
from bot.render.rules_text import rules_text
from bot.render.spec import Act, ButtonSpec, EmbedSpec, MessageSpec, SelectSpec, parse
from bot.render.table import table_message
from bot.replay.frames import replay_of
from bot.stats.records import FinishedGame, SeatPlayer
from bot.tables.model import EMPTY_SEAT, Seat, Table, TableOptions, TableStatus

LANGUAGES = [ENGLISH, *TRANSLATED]
SOLO = TableOptions(target=250, house="teams=solo")
FOUR = (Seat(100), Seat(101), Seat(102), Seat(computer_level="random"))
TEAM_WORDS = ("South & North", "West & East", "Team:", "partner")


def _table(
    game: Game | None,
    status: TableStatus,
    seats: tuple[Seat, Seat, Seat, Seat] = FOUR,
    options: TableOptions = SOLO,
) -> Table:
    return Table(
        id=7,
        guild_id=1,
        channel_id=2,
        message_id=3,
        host_id=100,
        options=options,
        status=status,
        version=42,
        seats=seats,
        spectators=(),
        game=game,
        game_number=1,
        game_id=1,
        created_at=0.0,
        updated_at=0.0,
    )


def _embed(spec: MessageSpec) -> EmbedSpec:
    assert spec.embed is not None
    return spec.embed


def _text(spec: MessageSpec) -> str:
    embed = _embed(spec)
    parts = [embed.title, embed.description, embed.footer]
    parts += [f"{f.name}\n{f.value}" for f in embed.fields]
    return "\n".join(parts)


def _buttons(spec: MessageSpec) -> list[ButtonSpec]:
    return [b for row in spec.rows if isinstance(row, tuple) for b in row]


def _labels(spec: MessageSpec) -> list[str]:
    return [b.label for b in _buttons(spec)]


def _played(seed: int, plays: int) -> Game:
    game = Game.new(SOLO.rules(), seed)
    for bid in (3, 4, 2, 3):
        game.bid(game.to_act, bid)
    rng = random.Random(seed)
    for _ in range(plays):
        game.play(game.to_act, rng.choice(cards_of(game.legal_play_mask(game.to_act))))
    return game


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_house_menu_offers_solo_in_every_language(lang: str) -> None:
    table = _table(None, TableStatus.LOBBY, (Seat(100), EMPTY_SEAT, EMPTY_SEAT, EMPTY_SEAT))
    table = _table(None, TableStatus.LOBBY, table.seats, TableOptions(target=250))
    menus = [
        row
        for page in range(len(PAGES))
        for row in house_panel(table, page, lang).rows
        if isinstance(row, SelectSpec)
    ]
    teams = next(m for m in menus if parse(m.custom_id.removeprefix("spades:")).arg == "teams")
    assert parse(teams.custom_id.removeprefix("spades:")).action is Act.HOUSE_RULE
    assert [o.value for o in teams.options] == ["partners", "solo"]
    solo_label = teams.options[1].label
    english = "solo: four players, each on their own"
    assert solo_label.startswith(tr(lang, english))
    assert (tr(lang, english) == english) is (lang == ENGLISH)  # really translated


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_solo_lobby_has_no_partner_line_or_menu(lang: str) -> None:
    spec = table_message(_table(None, TableStatus.LOBBY), lang=lang)
    text = _text(spec)
    assert tr(lang, "South & North play against West & East.") not in text
    assert tr(lang, "Solo: each player plays on their own.") in text
    assert tr(lang, "**All four seated.** The host starts the game.") in text
    assert all(isinstance(row, tuple) for row in spec.rows)  # no partner menu
    partners = table_message(_table(None, TableStatus.LOBBY, options=TableOptions()), lang=lang)
    assert not all(isinstance(row, tuple) for row in partners.rows)  # (it has one)


def test_the_table_shows_each_players_score_bags_bid_and_tricks() -> None:
    game = _played(5, 6)
    game.scores[:] = [120, -40, 35, 0]
    game.bags[:] = [3, 0, 1, 2]
    spec = table_message(_table(game, TableStatus.PLAYING))
    text = _text(spec)
    assert not any(word in text for word in TEAM_WORDS)
    players = _embed(spec).fields[:4]
    names = ("South", "West", "North", "East")
    for seat, field in enumerate(players):
        score, bags = game.scores[seat], game.bags[seat]
        assert field.name.startswith(f"{names[seat]} · {score} point")
        assert f"{bags} bag" in field.name
        bid = game.bids[seat]
        assert f"bid {bid}" in field.value
        assert f"tricks {game.tricks_won[seat]}/{bid}" in field.value
    assert _embed(spec).fields[4].name.startswith("Hand 1 · trick")


def test_the_turn_limit_lets_any_other_player_claim_the_game() -> None:
    spec = table_message(_table(_played(2, 1), TableStatus.PLAYING), claim_open=True)
    assert "The turn limit has passed: another player may claim the game." in _text(spec)
    assert "Claim the win" in _labels(spec)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_hand_names_no_partner(lang: str) -> None:
    game = _played(3, 0)
    classic = DECKS[DeckName.CLASSIC]
    view = view_of(game, game.to_act)
    spec = hand_message(view, table_id=7, version=1, names="SWNE", deck=classic, lang=lang)
    first = (spec.content or "").splitlines()[0]
    title = "**Table {table} · hand {hand}** · solo: you play on your own"
    assert first == tr(lang, title, table=7, hand=1)
    assert (tr(lang, title) == title) is (lang == ENGLISH)


def test_blind_nil_is_open_to_a_player_trailing_the_leader_by_the_threshold() -> None:
    rules = apply(PRESETS["standard"], "teams=solo,blind_nil=100:200")
    classic = DECKS[DeckName.CLASSIC]

    def blind_nil_button(scores: list[int]) -> bool:
        game = Game.new(rules, 4)
        game.scores[:] = scores
        seat = game.to_act
        spec = hand_message(view_of(game, seat), table_id=1, version=1, names="SWNE", deck=classic)
        labels = [b.label for b in spec.buttons]
        assert labels == ["Show my cards", "Blind Nil"]  # face down until looked at
        return not spec.buttons[1].disabled and BLIND_NIL in game.legal_bids(seat)

    seat = Game.new(rules, 4).to_act
    behind = [0, 0, 0, 0]
    behind[(seat + 2) & 3] = 100  # the leader is not the seat's partner: there is none
    assert blind_nil_button(behind)
    short = [0, 0, 0, 0]
    short[(seat + 1) & 3] = 90
    assert not blind_nil_button(short)
    assert not blind_nil_button([0, 0, 0, 0])


def _finished(seed: int = 11) -> Game:
    """A solo game played to its end at random (target 250)."""
    game = Game.new(SOLO.rules(), seed)
    rng = random.Random(seed)
    while not game.over:
        if game.phase is Phase.HAND_OVER:
            game.next_hand(0)
        elif game.phase is Phase.BIDDING:
            game.bid(game.to_act, rng.choice(game.legal_bids(game.to_act)))
        else:
            game.play(game.to_act, rng.choice(cards_of(game.legal_play_mask(game.to_act))))
    return game


def test_the_result_ranks_the_four_and_rematch_keeps_the_seats() -> None:
    game = _finished()
    assert game.result is not None and game.result.reason is EndReason.LOSING_SCORE
    spec = table_message(_table(game, TableStatus.FINISHED))
    result = next(f.value for f in _embed(spec).fields if f.name == "Result")
    lines = result.splitlines()
    winner = game.result.winner
    assert winner is not None
    labels = [f"<@{user}>" for user in (100, 101, 102)] + ["🤖 Ezra (random)"]
    assert lines[0] == f"**{labels[winner]} wins**: a player fell to -200."
    assert len(lines) == 5
    placed = places(game.scores, winner)
    ordinals = ["1st", "2nd", "3rd", "4th"]
    order = sorted(range(4), key=lambda s: (placed[s], s))
    for line, seat in zip(lines[1:], order, strict=True):
        points = "point" if abs(game.scores[seat]) == 1 else "points"
        expected = f"**{ordinals[placed[seat] - 1]}** {labels[seat]} · {game.scores[seat]} {points}"
        assert line == expected
    assert order[0] == winner
    # Every hand's summary names its players, never a team.
    summary = next(f.value for f in _embed(spec).fields if f.name.endswith("result"))
    assert summary.count("→") == 4 and not any(word in summary for word in TEAM_WORDS)
    assert _labels(spec) == ["Rematch"]
    assert _embed(spec).footer == "Rematch keeps every player in their seat."
    cid = parse(_buttons(spec)[0].custom_id.removeprefix("spades:"))
    assert (cid.action, cid.arg) == (Act.REMATCH, "same")


def test_places_put_the_winner_first_and_who_lost_outright_last() -> None:
    assert places([300, 120, 120, 40], 0) == (1, 2, 2, 4)
    assert places([300, 120, 500, 40], 0, last=2) == (1, 2, 4, 3)  # 2 resigned
    assert places([10, 10, 10, 10], None) == (1, 1, 1, 1)


def _finished_record(game: Game) -> FinishedGame:
    seats = [SeatPlayer(user_id=100 + s) for s in range(3)] + [SeatPlayer(computer_level="random")]
    return FinishedGame.from_game(game, guild_id=1, game_id=9, seats=seats, finished_at=1.0)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_end_of_game_post_and_record_rank_the_four(lang: str) -> None:
    game = _finished()
    record = _finished_record(game)
    names = side_names(record, lambda user: f"user{user}", plain=True, lang=lang)
    assert len(names) == 4 and names[0] == "user100" and "Ezra" in names[3]
    assert game.result is not None
    placed = places(game.scores, game.result.winner)
    ordinals = ["1st", "2nd", "3rd", "4th"]
    for text in (end_of_game_text(9, record, names, None, lang), game_record_text(record, lang)):
        for seat in range(4):
            assert f"**{tr(lang, ordinals[placed[seat] - 1])}**" in text
        for score in game.scores:
            assert str(score) in text
        assert tr(lang, "South & North") not in text
        assert (tr(lang, "4th") == "4th") is (lang == ENGLISH)
    english = end_of_game_text(9, record, side_names(record, str, plain=True), None)
    assert english.startswith("Table 9: **")
    assert english.index("**1st**") < english.index("**4th**")


def test_a_resignation_places_the_resigner_last() -> None:
    game = _played(6, 0)
    game.scores[:] = [200, 100, 50, 0]
    game.resign(0)
    assert game.result == GameResult(1, EndReason.RESIGNATION, 0)
    spec = table_message(_table(game, TableStatus.FINISHED))
    result = next(f.value for f in _embed(spec).fields if f.name == "Result").splitlines()
    assert result[0] == "**<@101> wins**: <@100> resigned."
    assert result[1].startswith("**1st** <@101>") and result[4].startswith("**4th** <@100>")


def test_the_replay_shows_four_scores() -> None:
    game = _finished(12)
    replay = replay_of(_finished_record(game))
    last = replay.frames[-1]
    assert last.score_after is not None and len(last.score_after) == 4
    assert list(last.score_after) == game.scores
    scene = frame_scene(replay, len(replay.frames) - 1, ["a", "b", "c", "d"], "")
    assert [line.split(":")[0] for line in scene.score_lines] == ["South", "West", "North", "East"]
    scores = ", ".join(map(str, game.scores))
    assert any(line.endswith(f"score {scores}") for line in scene.centre_lines)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("house", ["teams=solo", "teams=solo,blind_nil=100:200,set=short"])
def test_the_rules_of_a_solo_table_name_no_team(lang: str, house: str) -> None:
    rules = apply(PRESETS["standard"].with_options(revokes="allowed"), house)
    text = rules_text(rules, lang)
    partners = rules_text(PRESETS["standard"].with_options(revokes="allowed"), lang)
    team = {"en": "team", "de": "Team", "es": "equipo", "fr": "équipe", "pt_BR": "dupla"}[lang]
    assert team in partners
    # (Every house rule is listed at the end, the rule "Teams" among them.)
    assert text.endswith(all_rules_text(rules, lang))
    assert team not in text.removesuffix(all_rules_text(rules, lang)).lower()
    clock = "- Turn limit {limit}: after that another player may claim the game."
    assert tr(lang, clock, limit="")[:10] in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_resigning_in_solo_loses_the_player_not_a_team(lang: str) -> None:
    table = _table(_played(1, 0), TableStatus.PLAYING)
    question = resign_question(table, lang)
    assert question == tr(lang, "Resign at table {table}? You lose the game at once.", table=7)
    partners = _table(_played(1, 0), TableStatus.PLAYING, options=TableOptions())
    assert resign_question(partners, lang) != question


def test_a_blind_nil_refused_in_solo_says_the_leader() -> None:
    game = Game.new(apply(PRESETS["standard"], "teams=solo,blind_nil=100:200"), 4)
    with pytest.raises(IllegalAction) as refused:
        game.bid(game.to_act, BLIND_NIL)
    assert str(refused.value) == (
        "Blind Nil is allowed only when you trail the leader by 100 points or more"
    )


def test_the_turn_clock_lets_every_other_player_claim_in_solo() -> None:
    people = (Seat(100), Seat(101), Seat(102), Seat(103))
    game = _played(2, 1)
    table = _table(game, TableStatus.PLAYING, people)
    late = game.waited_on()
    assert late is not None
    opened = claim_opened(table)
    assert opened is not None
    others = tuple(100 + s for s in range(4) if s != late)
    assert sorted(opened.ping) == sorted(others)  # across the table too: no partner
    nudge = reminder(table, late, 60, stand_in=False)
    assert nudge is not None and "before another player can claim the win." in nudge.text
    assert "team" not in nudge.text
    claimer = (late + 2) & 3  # the seat across, a partner in a partnership game
    game.claim_timeout(claimer, at=game.waiting_since + game.rules.turn_limit_s + 1)
    done = _table(game, TableStatus.FINISHED, people)
    text = claimed(done, 100 + claimer)
    assert text.endswith(
        f"<@{100 + late}> kept the table waiting past the turn limit, so they lose."
    )


def test_an_answer_owed_to_a_claim_of_the_rest_is_what_the_reminder_asks_for() -> None:
    game = _played(2, 4)
    claimer = game.to_act
    game.rest = RestClaim(claimer=claimer, solo=True)
    table = _table(game, TableStatus.PLAYING, (Seat(100), Seat(101), Seat(102), Seat(103)))
    late = game.waited_on()
    assert late is not None and late != claimer
    asked = "is waiting for your answer to a claim of the rest: 1 minute left before "
    nudge = reminder(table, late, 60, stand_in=False)
    assert nudge is not None and asked + "another player can claim the win." in nudge.text
    nudge = reminder(table, late, 60, stand_in=True)
    assert nudge is not None and asked + "a computer answers for you." in nudge.text


def test_a_solo_game_a_moderator_ends_ranks_the_four_by_score() -> None:
    game = _played(6, 0)
    game.scores[:] = [10, 80, 80, -30]
    game.end_by_moderator("cheating suspected")
    spec = table_message(_table(game, TableStatus.FINISHED))
    result = next(f.value for f in _embed(spec).fields if f.name == "Result").splitlines()
    assert result[0] == "**Ended by a moderator.** cheating suspected"
    assert [line.split(" · ")[-1] for line in result[1:]] == [
        "80 points",
        "80 points",
        "10 points",
        "-30 points",
    ]
    assert [line.split("**")[1] for line in result[1:]] == ["1st", "1st", "3rd", "4th"]
