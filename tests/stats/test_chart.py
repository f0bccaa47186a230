from __future__ import annotations

import io

from PIL import Image, ImageChops

from bot.game.rules import preset
from bot.game.state import Game
from bot.stats.chart import (
    BAG_COLOUR,
    NOTE_LEFT,
    RIGHT,
    SET_COLOUR,
    TEAM_COLOURS,
    ChartPoint,
    chart_png,
    plot_scores,
    render_png,
)
from bot.stats.records import RecordedHand

from .games import finish, play_out, seats_of

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def long_game() -> tuple[Game, list[RecordedHand]]:
    """A game of careful players with sets and bag penalties in it."""
    rules = preset("standard").with_options(bag_limit=3, target=300)
    game = play_out(Game.new(rules, 11), 11, level="heuristic")
    return game, finish(game, 1, seats_of(1, 2, 3, 4)).hands()


def test_one_point_per_hand_per_team_at_the_recorded_scores() -> None:
    game, hands = long_game()
    chart = plot_scores(hands, ("A", "B"), target=500, losing_score=-200)
    assert len(hands) >= 3
    for team in (0, 1):
        points = chart.points[team]
        assert [p.hand for p in points] == list(range(1, len(hands) + 1))
        assert [p.score for p in points] == [h.score_after[team] for h in game.hand_records]
        xs = [p.x for p in points]
        assert xs == sorted(set(xs))  # left to right, one column per hand
    # A higher score sits higher on the picture.
    everything = sorted(chart.points[0] + chart.points[1], key=lambda p: p.score)
    assert [p.y for p in everything] == sorted((p.y for p in everything), reverse=True)


def test_set_and_bag_penalty_hands_are_marked() -> None:
    game, hands = long_game()
    chart = plot_scores(hands, ("A", "B"), target=500, losing_score=-200)
    for team in (0, 1):
        for point, record in zip(chart.points[team], game.hand_records, strict=True):
            result = record.results[team]
            assert point.set == (result.contract > 0 and not result.made)
            assert point.bag_penalty == (result.bag_penalty < 0)
    marks = [p for team in chart.points for p in team]
    assert any(p.set for p in marks) and any(p.bag_penalty for p in marks)


def _pixel(image: Image.Image, x: int, y: int) -> tuple[int, int, int]:
    value = image.getpixel((x, y))
    assert isinstance(value, tuple)
    return (value[0], value[1], value[2])


def test_the_png_is_valid_and_shows_every_point() -> None:
    _, hands = long_game()
    chart = plot_scores(hands, ("alice & carol", "bob & dave"), 500, -200)
    data = render_png(chart)
    assert data.startswith(PNG_SIGNATURE)
    Image.open(io.BytesIO(data)).verify()  # a well-formed PNG
    image = Image.open(io.BytesIO(data)).convert("RGB")
    assert image.size == (chart.width, chart.height)

    def far_from_the_other_team(p: ChartPoint, team: int) -> bool:
        return all(abs(p.x - q.x) + abs(p.y - q.y) > 12 for q in chart.points[1 - team])

    checked = 0
    for team in (0, 1):
        for p in chart.points[team]:
            if team == 0 and not far_from_the_other_team(p, team):
                continue  # team 1's dot is drawn over it
            assert _pixel(image, p.x, p.y) == TEAM_COLOURS[team]
            checked += 1
            if p.set:
                ring = _pixel(image, p.x, p.y - 9)
                assert ring in (SET_COLOUR, BAG_COLOUR) or not far_from_the_other_team(p, team)
            if p.bag_penalty:
                assert _pixel(image, p.x - 13, p.y) == BAG_COLOUR or not far_from_the_other_team(
                    p, team
                )
    assert checked >= len(hands)


def test_a_game_with_one_hand_and_the_service_helper() -> None:
    game = play_out(Game.new(preset("standard"), 0), 0)
    record = finish(game, 3, seats_of(1, 2, 3, 4))
    data = chart_png(record, ("N", "E"))
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.size[0] > image.size[1]


def test_no_hands_yet_still_draws() -> None:
    chart = plot_scores([], ("A", "B"), 500, -200)
    assert chart.points == ((), ())
    assert render_png(chart).startswith(PNG_SIGNATURE)


def test_the_house_rules_note_is_drawn_beside_the_legend_and_cut_to_fit() -> None:
    _, hands = long_game()
    chart = plot_scores(hands, ("A", "B"), 500, -200)
    plain = Image.open(io.BytesIO(render_png(chart))).convert("RGB")
    long_note = "House rules: " + " · ".join(["Deck: jokers, 2♦ 2♠ high"] * 12)
    noted = Image.open(io.BytesIO(render_png(chart, note=long_note))).convert("RGB")
    # Only the band of the legend's second line, right of where the note may
    # start, differs: the note neither overlaps the legend nor leaves the picture.
    box = ImageChops.difference(plain, noted).getbbox()
    assert box is not None
    left, top, right, bottom = box
    assert left >= NOTE_LEFT and right <= chart.width - RIGHT and top >= 30 and bottom <= 58
