"""The command line of ``python -m bot screenshots OUTDIR``."""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.screenshots.album import MakeBot

WIDTH_CHOICES = ("desktop", "phone", "both")
#: What SimCord's preview needs beyond the bot's own dependencies.
PREVIEW_MODULES = ("simcord", "markdown_it", "linkify_it", "regex")


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bot screenshots",
        description="Play a scripted game in SimCord and save a PNG of each key screen "
        "in OUTDIR, as SimCord's preview of Discord draws it in headless Chromium.",
    )
    parser.add_argument("outdir", type=Path, help="folder for the pictures (made if missing)")
    parser.add_argument(
        "--language",
        default=None,
        help="the table's language, passed to /spades new as its `language` option "
        "(and to /spades language for each player, where the bot has it); default English",
    )
    parser.add_argument("--width", choices=WIDTH_CHOICES, default="both", help="default: both")
    parser.add_argument(
        "--documents",
        action="store_true",
        help="also write each screen's preview document (NAME.json), the picture's source",
    )
    return parser.parse_args(argv)


def main(argv: list[str], make_bot: MakeBot) -> int:
    """``make_bot`` builds the bot the pictures are taken of (the entry point's)."""
    options = parse(argv)
    missing = [name for name in PREVIEW_MODULES if importlib.util.find_spec(name) is None]
    if missing:
        print(
            f"screenshots: missing {', '.join(missing)}: "
            "install the extra with `pip install -e '.[screenshots]'`",
            file=sys.stderr,
        )
        return 2
    from bot.screenshots.chromium import BrowserFailed, BrowserMissing, find_browser

    try:
        find_browser()
        written = asyncio.run(take_pictures(options, make_bot))
    except (BrowserMissing, BrowserFailed) as exc:
        print(f"screenshots: {exc}", file=sys.stderr)
        return 1
    pictures = [path for path in written if path.suffix == ".png"]
    print(f"{len(pictures)} pictures in {options.outdir}")
    return 0


async def take_pictures(options: argparse.Namespace, make_bot: MakeBot) -> list[Path]:
    from bot.screenshots.album import WIDTHS, Album, make_album
    from bot.screenshots.chromium import Browser

    widths = tuple(WIDTHS) if options.width == "both" else (options.width,)
    browser = await Browser.launch()
    try:
        album = Album(options.outdir, widths, options.language, browser, options.documents)
        return await make_album(album, make_bot)
    finally:
        await browser.close()
