"""Each side's score after every hand (two teams, or four players in solo):
laid out by :func:`plot_scores`, drawn with Pillow."""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.i18n import ENGLISH, tr
from bot.stats.records import FinishedGame, RecordedHand

WIDTH = 800
HEIGHT = 450
LEFT, RIGHT, TOP, BOTTOM = 64, 24, 64, 44
#: Where the note beside the legend's second line may begin.
NOTE_LEFT = LEFT + 260
DOT_RADIUS = 5
MARK_RADIUS = 10
MAX_NAME = 32  # characters of a team's name in the legend
MAX_SOLO_NAME = 14  # of a player's in solo, where four share the line

BACKGROUND = (255, 255, 255)
GRID = (226, 230, 236)
AXIS = (90, 96, 110)
TEXT = (34, 38, 48)
#: Per side: the two teams, then the third and fourth players of solo.
TEAM_COLOURS = ((37, 99, 235), (234, 88, 12), (22, 163, 74), (147, 51, 234))
SET_COLOUR = (220, 38, 38)
BAG_COLOUR = (124, 58, 237)
TARGET_COLOUR = (22, 163, 74)

_NICE_STEPS = (10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000)


@dataclass(frozen=True, slots=True)
class ChartPoint:
    hand: int
    score: int
    x: int
    y: int
    set: bool
    bag_penalty: bool


@dataclass(frozen=True, slots=True)
class ScoreChart:
    width: int
    height: int
    team_names: tuple[str, ...]  # per side
    points: tuple[tuple[ChartPoint, ...], ...]  # per side, one per hand
    y_ticks: tuple[tuple[int, int], ...]  # (score, y)
    x_ticks: tuple[tuple[int, int], ...]  # (hand, x)
    origin: tuple[int, int]  # where every side's line starts
    target_y: int | None
    losing_y: int | None
    target: int
    losing_score: int | None
    winner: int | None = None  # the side that won, once the game is over


def _step(span: int) -> int:
    for step in _NICE_STEPS:
        if span / step <= 8:
            return step
    return _NICE_STEPS[-1] * math.ceil(span / (_NICE_STEPS[-1] * 8))


def plot_scores(
    hands: Sequence[RecordedHand],
    team_names: Sequence[str],
    target: int,
    losing_score: int | None,
    winner: int | None = None,
    width: int = WIDTH,
    height: int = HEIGHT,
) -> ScoreChart:
    """Where everything goes on the chart of a game's hands."""
    scores = [s for hand in hands for s in hand.score_after]
    low = min([0, *scores])
    high = max([target, *scores])
    if losing_score is not None and low - losing_score <= (high - low) // 4:
        low = min(low, losing_score)  # show the losing line once a team is near it
    step = _step(max(high - low, 1))
    low = math.floor(low / step) * step
    high = math.ceil(high / step) * step
    if high == low:
        high = low + step
    plot_w = width - LEFT - RIGHT
    plot_h = height - TOP - BOTTOM
    count = max(len(hands), 1)

    def x_of(hand: int) -> int:
        return LEFT + round(plot_w * hand / count)

    def y_of(score: int) -> int:
        return TOP + round(plot_h * (high - score) / (high - low))

    points = tuple(
        tuple(
            ChartPoint(
                hand=hand.number,
                score=hand.score_after[team],
                x=x_of(index),
                y=y_of(hand.score_after[team]),
                set=hand.set[team],
                bag_penalty=hand.bag_penalty[team],
            )
            for index, hand in enumerate(hands, start=1)
        )
        for team in range(len(team_names))
    )
    hand_step = max(1, math.ceil(count / 12))
    x_ticks = tuple((h, x_of(h)) for h in range(0, count + 1, hand_step))
    y_ticks = tuple((s, y_of(s)) for s in range(low, high + 1, step))
    inside = range(low, high + 1)
    return ScoreChart(
        width=width,
        height=height,
        team_names=tuple(team_names),
        points=points,
        y_ticks=y_ticks,
        x_ticks=x_ticks,
        origin=(x_of(0), y_of(0)),
        target_y=y_of(target) if target in inside else None,
        losing_y=None if losing_score is None or losing_score not in inside else y_of(losing_score),
        target=target,
        losing_score=losing_score,
        winner=winner,
    )


@lru_cache(maxsize=8)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's own font (the same on every machine) at ``size``; the
    pictures of the bot share it."""
    return ImageFont.load_default(size=size)


@lru_cache(maxsize=512)
def fit(text: str, size: int, room: int) -> str:
    """``text`` cut with an ellipsis to ``room`` pixels of :func:`font`."""
    face = font(size)
    if face.getlength(text) <= room:
        return text
    while text and face.getlength(text + "…") > room:
        text = text[:-1]
    return text + "…"


def png(image: Image.Image) -> bytes:
    """``image`` as PNG bytes, quickly compressed."""
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)
    return out.getvalue()


def _dashed(draw: ImageDraw.ImageDraw, y: int, x0: int, x1: int, colour: tuple[int, ...]) -> None:
    for x in range(x0, x1, 12):
        draw.line([(x, y), (min(x + 6, x1), y)], fill=colour, width=2)


def render_png(chart: ScoreChart, lang: str = ENGLISH, note: str = "") -> bytes:
    """The chart as PNG bytes, labelled in ``lang``, with a one-line ``note``."""
    image = Image.new("RGB", (chart.width, chart.height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    small = font(13)
    right = chart.width - RIGHT
    bottom = chart.height - BOTTOM
    for score, y in chart.y_ticks:
        draw.line([(LEFT, y), (right, y)], fill=GRID, width=1)
        draw.text((LEFT - 8, y), str(score), fill=TEXT, font=small, anchor="rm")
    for hand, x in chart.x_ticks:
        draw.line([(x, bottom), (x, bottom + 4)], fill=AXIS, width=1)
        draw.text((x, bottom + 8), str(hand), fill=TEXT, font=small, anchor="mt")
    axis = tr(lang, "hand")
    draw.text(((LEFT + right) // 2, chart.height - 4), axis, fill=AXIS, font=small, anchor="mb")
    draw.line([(LEFT, TOP), (LEFT, bottom)], fill=AXIS, width=1)
    draw.line([(LEFT, bottom), (right, bottom)], fill=AXIS, width=1)
    for line_y, label, colour in (
        (chart.target_y, tr(lang, "target {points}", points=chart.target), TARGET_COLOUR),
        (chart.losing_y, tr(lang, "loses at {points}", points=chart.losing_score), SET_COLOUR),
    ):
        if line_y is not None:
            _dashed(draw, line_y, LEFT, right, colour)
            draw.text((LEFT + 6, line_y - 3), label, fill=colour, font=small, anchor="lb")
    for team, points in enumerate(chart.points):
        line = [chart.origin, *((p.x, p.y) for p in points)]
        if len(line) > 1:
            draw.line(line, fill=TEAM_COLOURS[team], width=3, joint="curve")
    for points in chart.points:
        for p in points:
            if p.set:
                box = (p.x - MARK_RADIUS, p.y - MARK_RADIUS, p.x + MARK_RADIUS, p.y + MARK_RADIUS)
                draw.ellipse(box, outline=SET_COLOUR, width=3)
            if p.bag_penalty:
                r = MARK_RADIUS + 3
                draw.rectangle((p.x - r, p.y - r, p.x + r, p.y + r), outline=BAG_COLOUR, width=3)
    for team, points in enumerate(chart.points):
        for p in points:
            box = (p.x - DOT_RADIUS, p.y - DOT_RADIUS, p.x + DOT_RADIUS, p.y + DOT_RADIUS)
            draw.ellipse(box, fill=TEAM_COLOURS[team])
    _legend(draw, chart, lang)
    if note:  # at the right of the legend's second line, cut to fit beside it
        right = chart.width - RIGHT
        cut = fit(note, 13, right - NOTE_LEFT)
        draw.text((right, 44), cut, fill=TEXT, font=font(13), anchor="rm")
    return png(image)


def _legend(draw: ImageDraw.ImageDraw, chart: ScoreChart, lang: str) -> None:
    big = font(15)
    small = font(13)
    x = LEFT
    longest = MAX_NAME if len(chart.points) == 2 else MAX_SOLO_NAME
    for team, points in enumerate(chart.points):
        last = points[-1].score if points else 0
        name = chart.team_names[team][:longest]
        if chart.winner == team:
            label = tr(lang, "{team}: {score} (won)", team=name, score=last)
        else:
            label = f"{name}: {last}"
        draw.ellipse((x, 14, x + 12, 26), fill=TEAM_COLOURS[team])
        draw.text((x + 18, 20), label, fill=TEXT, font=big, anchor="lm")
        x += 18 + int(draw.textlength(label, font=big)) + 24
    y = 44
    x = LEFT
    draw.ellipse((x, y - 6, x + 12, y + 6), outline=SET_COLOUR, width=2)
    # Translators: the mark of a hand where a team was set, in the picture's legend.
    went_set = tr(lang, "set")
    draw.text((x + 18, y), went_set, fill=TEXT, font=small, anchor="lm")
    x += 18 + int(draw.textlength(went_set, font=small)) + 24
    draw.rectangle((x, y - 6, x + 12, y + 6), outline=BAG_COLOUR, width=2)
    draw.text((x + 18, y), tr(lang, "bag penalty"), fill=TEXT, font=small, anchor="lm")


def chart_png(
    game: FinishedGame, team_names: Sequence[str], lang: str = ENGLISH, note: str = ""
) -> bytes:
    """The end-of-game picture of a recorded game in ``lang``, with a one-line ``note``
    (house rules); ``team_names`` name its sides (two teams, or the four seats in solo)."""
    rules = game.rules
    chart = plot_scores(game.hands(), team_names, rules.target, rules.losing_score, game.winner)
    return render_png(chart, lang, note)
