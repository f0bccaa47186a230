"""The picture of a tournament's bracket, drawn with Pillow in the colours
and font of the end-of-game score chart.

:func:`layout_bracket` places every match (a box of two rows, one per
team, under a line with its number and state) without drawing anything;
:func:`draw_bracket` draws it. The winners' bracket runs left to right with
the grand final after its last round, the losers' bracket below it. A
match sits where it would in the full bracket, so each one lines up with
the two it follows; a column with byes keeps its gaps rather than its
neighbours' places.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from PIL import Image, ImageDraw

from bot.i18n import N_
from bot.stats import chart
from bot.stats.chart import AXIS, BACKGROUND, GRID, TARGET_COLOUR, TEAM_COLOURS, TEXT
from bot.tournament.bracket import full_round_size
from bot.tournament.model import Bracket, Destination, Match, Tournament

BOX_W = 200
ROW_H = 20
HEADER_H = 15
#: The height a match takes in its column: its header, two rows and a gap.
PITCH = HEADER_H + 2 * ROW_H + 10
COLUMN_W = BOX_W + 36
MARGIN = 20
TITLE_H = 40
LABEL_H = 26
SEED_W = 24
SCORE_W = 40

FAINT = (160, 166, 178)
PLAYING = TEAM_COLOURS[0]
WAITING_READY = TEAM_COLOURS[1]
#: Every colour drawn on the background.
INKS = (TEXT, AXIS, FAINT, GRID, PLAYING, WAITING_READY, TARGET_COLOUR)
#: The steps of an ink's blend with the background at anti-aliased edges.
BLEND_STEPS = 16


@dataclass(frozen=True, slots=True)
class Box:
    """Where a match is drawn: the top-left corner of its two rows (its
    header line is above them, within the match's :data:`PITCH`)."""

    match: Match
    x: int
    y: int


@dataclass(frozen=True, slots=True)
class BracketLayout:
    width: int
    height: int
    boxes: tuple[Box, ...]
    #: The section titles: (which, x, y).
    labels: tuple[tuple[Bracket, int, int], ...]


@dataclass(frozen=True, slots=True)
class BracketLabels:
    """The words of the picture, in the reader's language (the caller
    translates them; the defaults are the English source and the catalog's
    messages). ``winner_of`` and ``loser_of`` keep a ``{match}`` placeholder."""

    winners: str = N_("Winners' bracket")
    losers: str = N_("Losers' bracket")
    final: str = N_("Grand final")
    second_final: str = N_("Second final")
    playing: str = N_("playing")
    ready_check: str = N_("ready check")
    no_show: str = N_("no show")
    decided: str = N_("decided")
    champion: str = N_("Champion")
    winner_of: str = N_("winner of #{match}")
    loser_of: str = N_("loser of #{match}")


def _section(matches: list[Match], teams: int, left: int, top: int) -> tuple[list[Box], int]:
    """Boxes for one section (its rounds as columns) and its height.

    A round's matches are spread over the section's height by their place
    in the full bracket; the height is the least that keeps the closest
    two boxes of every column a pitch apart."""
    rounds = sorted({m.round for m in matches})
    height = PITCH
    for r in rounds:
        places = sorted(m.position for m in matches if m.round == r)
        size = full_round_size(teams, matches[0].bracket, r)
        closest = min((b - a for a, b in pairwise(places)), default=size)
        height = max(height, -(-PITCH * size // closest))  # rounded up

    def offset(m: Match) -> int:
        """The match's distance from the section's top, in whole pixels:
        rounding down keeps every gap at least the pitch."""
        return (2 * m.position + 1) * height // (2 * full_round_size(teams, m.bracket, m.round))

    first = min(offset(m) for m in matches)
    boxes = [
        Box(m, left + rounds.index(m.round) * COLUMN_W, top + HEADER_H + offset(m) - first)
        for m in matches
    ]
    return boxes, max(offset(m) for m in matches) - first + PITCH


def layout_bracket(t: Tournament) -> BracketLayout:
    """Where every match of ``t`` goes in the picture."""
    teams = len(t.teams)
    winners = [m for m in t.matches if m.bracket == "W"]
    losers = [m for m in t.matches if m.bracket == "L"]
    finals = [m for m in t.matches if m.bracket in ("GF", "GF2")]
    top = TITLE_H + LABEL_H
    if not winners:  # not drawn yet: the title alone
        return BracketLayout(BOX_W + 2 * MARGIN, TITLE_H + MARGIN, (), ())
    boxes, height = _section(winners, teams, MARGIN, top)
    labels: list[tuple[Bracket, int, int]] = [("W", MARGIN, TITLE_H)]
    columns = len({m.round for m in winners})
    final_y = boxes[-1].y  # the winners' final
    for index, m in enumerate(finals):
        x = MARGIN + (columns + index) * COLUMN_W
        boxes.append(Box(m, x, final_y))
        labels.append((m.bracket, x, TITLE_H))
    width = MARGIN * 2 + (columns + len(finals)) * COLUMN_W
    bottom = top + height
    if losers:
        labels.append(("L", MARGIN, bottom + 10))
        low, low_height = _section(losers, teams, MARGIN, bottom + 10 + LABEL_H)
        boxes.extend(low)
        bottom += 10 + LABEL_H + low_height
        width = max(width, MARGIN * 2 + len({m.round for m in losers}) * COLUMN_W)
    return BracketLayout(width, bottom + MARGIN, tuple(boxes), tuple(labels))


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """The picture's inks, each blended with the background in
    :data:`BLEND_STEPS` steps (the edges of text). A picture of a 64-team
    bracket in these colours is written as PNG in a third of the time its
    RGB form takes, and looks the same."""
    colours: list[tuple[int, ...]] = [BACKGROUND]
    for ink in INKS:
        for step in range(1, BLEND_STEPS + 1):
            share = step / BLEND_STEPS  # of the pixel the ink covers
            blend = tuple(
                round(i * share + back * (1 - share))
                for i, back in zip(ink, BACKGROUND, strict=True)
            )
            # Pillow maps colours to a palette by cells of four levels a
            # channel: a blend that close to the background would take its place.
            if max(abs(c - back) for c, back in zip(blend, BACKGROUND, strict=True)) >= 8:
                colours.append(blend)
    colours += [BACKGROUND] * (256 - len(colours))
    image = Image.new("P", (1, 1))
    image.putpalette([channel for colour in colours for channel in colour])
    return image


def draw_bracket(
    t: Tournament, layout: BracketLayout, names: Mapping[int, str], labels: BracketLabels
) -> Image.Image:
    """Draw ``layout`` on a new RGB image."""
    image = Image.new("RGB", (layout.width, layout.height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    title = t.settings.name
    if t.champion is not None:
        title = f"{title}   {labels.champion}: {names.get(t.champion, '?')}"
    title = chart.fit(title, 18, layout.width - 2 * MARGIN)
    draw.text((MARGIN, 12), title, fill=TEXT, font=chart.font(18))
    section = {
        "W": labels.winners,
        "L": labels.losers,
        "GF": labels.final,
        "GF2": labels.second_final,
    }
    for which, x, y in layout.labels:
        draw.text((x, y + 4), section[which], fill=AXIS, font=chart.font(15))
    where = {box.match.number: box for box in layout.boxes}
    for box in layout.boxes:
        _connector(draw, box, where)
    feeders = _feeders(t)
    for box in layout.boxes:
        _match(draw, box, names, labels, feeders)
    return image


def png_bytes(image: Image.Image) -> bytes:
    """``image`` as a PNG in the picture's palette."""
    return chart.png(image.quantize(palette=_palette(), dither=Image.Dither.NONE))


def _feeders(t: Tournament) -> dict[tuple[int, str], str]:
    """What fills each empty slot: ``(match, slot)`` -> "winner of #3"."""
    found: dict[tuple[int, str], str] = {}
    for m in t.matches:
        for to, kind in ((m.winner_to, "winner"), (m.loser_to, "loser")):
            if to is not None:
                found[(to.match, to.slot)] = f"{kind}:{m.number}"
    return found


def _connector(draw: ImageDraw.ImageDraw, box: Box, where: Mapping[int, Box]) -> None:
    """The line from a match to the next one its winner plays, when that one
    is in the same section (or is a final)."""
    to = box.match.winner_to
    if to is None and box.match.bracket == "GF":
        to = Destination(box.match.number + 1, "a")  # the second final, once there is one
    if to is None or to.match not in where:
        return
    target = where[to.match]
    if (box.match.bracket == "L") != (target.match.bracket == "L"):
        return
    start = (box.x + BOX_W, box.y + ROW_H)
    end_y = target.y + (ROW_H // 2 if to.slot == "a" else ROW_H + ROW_H // 2)
    middle = box.x + BOX_W + (target.x - box.x - BOX_W) // 2
    draw.line([start, (middle, start[1]), (middle, end_y), (target.x, end_y)], fill=GRID, width=2)


def _match(
    draw: ImageDraw.ImageDraw,
    box: Box,
    names: Mapping[int, str],
    labels: BracketLabels,
    feeders: Mapping[tuple[int, str], str],
) -> None:
    m = box.match
    small = chart.font(12)
    state = {
        "playing": labels.playing,
        "ready_check": labels.ready_check,
        "waiting": "",
        "done": {"no_show": labels.no_show, "decided": labels.decided}.get(m.how or "", ""),
    }[m.state]
    draw.text((box.x, box.y - 2), f"#{m.number}", fill=AXIS, font=small, anchor="ls")
    colour = {"playing": PLAYING, "ready_check": WAITING_READY}.get(m.state, AXIS)
    draw.text((box.x + BOX_W, box.y - 2), state, fill=colour, font=small, anchor="rs")
    outline = colour if m.state in ("playing", "ready_check") else GRID
    draw.rectangle(
        (box.x, box.y, box.x + BOX_W, box.y + 2 * ROW_H),
        fill=BACKGROUND,
        outline=outline,
        width=2 if outline is not GRID else 1,
    )
    draw.line([(box.x, box.y + ROW_H), (box.x + BOX_W, box.y + ROW_H)], fill=GRID)
    for row, (slot, team) in enumerate((("a", m.a), ("b", m.b))):
        y = box.y + row * ROW_H + ROW_H // 2
        if team is None:
            kind, _, number = feeders.get((m.number, slot), ":").partition(":")
            hint = labels.winner_of if kind == "winner" else labels.loser_of
            text = hint.format(match=number) if number else ""
            draw.text(
                (box.x + SEED_W, y),
                chart.fit(text, 12, BOX_W - SEED_W),
                fill=FAINT,
                font=small,
                anchor="lm",
            )
            continue
        lost = m.winner is not None and m.winner != team
        ink = FAINT if lost else TEXT
        if m.winner == team:
            draw.rectangle((box.x, y - ROW_H // 2, box.x + 3, y + ROW_H // 2), fill=TARGET_COLOUR)
        draw.text((box.x + SEED_W - 6, y), str(team), fill=AXIS, font=small, anchor="rm")
        name = chart.fit(names.get(team, "?"), 13, BOX_W - SEED_W - SCORE_W)
        draw.text((box.x + SEED_W, y), name, fill=ink, font=chart.font(13), anchor="lm")
        right = (box.x + BOX_W - 6, y)
        if m.scores is not None:
            score = m.scores[0 if slot == "a" else 1]
            draw.text(right, str(score), fill=ink, font=chart.font(13), anchor="rm")
        elif m.state == "ready_check" and team in m.ready:
            x, r = right[0] - 4, 4
            draw.ellipse((x - r, y - r, x + r, y + r), fill=TARGET_COLOUR)


def bracket_png(
    t: Tournament, names: Mapping[int, str], labels: BracketLabels = BracketLabels()
) -> bytes:
    """The bracket of ``t`` as PNG bytes: every match with its number, its
    teams (``names``: team id -> display name, shown after the seed),
    scores, who advanced and the matches in progress; the winners' bracket,
    the losers' bracket and the grand final."""
    return png_bytes(draw_bracket(t, layout_bracket(t), names, labels))
