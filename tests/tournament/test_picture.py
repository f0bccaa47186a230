"""The bracket picture: its size is the layout's, it is drawn (not blank),
every match has a box and no two boxes overlap. Its speed is measured in
benchmarks, not here."""

from __future__ import annotations

import io
from itertools import combinations

import pytest
from PIL import Image, ImageChops

from bot.render.bracket import (
    BOX_W,
    HEADER_H,
    PITCH,
    BracketLabels,
    bracket_png,
    draw_bracket,
    layout_bracket,
    png_bytes,
)
from bot.tournament.events import ReadyPress
from bot.tournament.model import Format, Settings, Tournament
from bot.tournament.state import apply
from tests.tournament.play import higher_seed, play_out, players, started, upset_in_the_final


def names(t: Tournament) -> dict[int, str]:
    return {team.id: f"player {team.players[0]} & player {team.players[1]}" for team in t.teams}


def picture(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


def assert_laid_out(t: Tournament) -> None:
    layout = layout_bracket(t)
    assert sorted(box.match.number for box in layout.boxes) == list(range(1, len(t.matches) + 1))
    for one, other in combinations(layout.boxes, 2):
        apart = abs(one.x - other.x) >= BOX_W or abs(one.y - other.y) >= PITCH
        assert apart, (one.match.number, other.match.number)
    for box in layout.boxes:
        assert box.x >= 0 and box.x + BOX_W <= layout.width
        assert box.y >= HEADER_H and box.y - HEADER_H + PITCH <= layout.height


@pytest.mark.parametrize("fmt", ["single", "double"])
@pytest.mark.parametrize("teams", range(2, 65))
def test_every_match_has_its_own_box(teams: int, fmt: Format) -> None:
    assert_laid_out(started(teams, fmt))


def test_the_second_final_has_its_own_box() -> None:
    end, _ = play_out(started(6, "double"), upset_in_the_final)
    assert end.matches[-1].bracket == "GF2"
    assert_laid_out(end)


def test_the_picture_is_drawn_at_every_stage() -> None:
    t = started(8, "double")
    t = apply(t, ReadyPress(1, players(1)[0]), 1)
    middle = picture(bracket_png(t, names(t)))
    end, _ = play_out(t, higher_seed)
    done = picture(bracket_png(end, names(end), BracketLabels(champion="Sieger")))
    layout = layout_bracket(end)
    assert done.format == "PNG" and done.size == (layout.width, layout.height)
    for image in (middle, done):
        colours = image.getcolors(maxcolors=100_000)
        assert colours is not None and len(colours) > 10  # text and lines, not blank
    assert middle.tobytes() != done.tobytes()


def test_before_the_draw_the_picture_has_the_title_alone() -> None:
    t = Tournament(1, 2, 3, 4, Settings("Spring open"))
    image = picture(bracket_png(t, {}))
    assert image.size == (layout_bracket(t).width, layout_bracket(t).height)
    assert image.getcolors(maxcolors=100_000) is not None
    assert len(image.getcolors(maxcolors=100_000) or []) > 1


def test_the_png_looks_like_the_drawing() -> None:
    """The PNG is written in a palette of the picture's colours: every
    pixel stays within a few levels of the drawing, the background exact."""
    end, _ = play_out(started(12, "double"), upset_in_the_final)
    drawn = draw_bracket(end, layout_bracket(end), names(end), BracketLabels())
    written = picture(png_bytes(drawn)).convert("RGB")
    assert written.getpixel((1, 1)) == drawn.getpixel((1, 1)) == (255, 255, 255)
    difference = ImageChops.difference(drawn, written)
    worst = max(difference.tobytes())
    assert worst <= 12
