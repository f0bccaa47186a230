"""``python -m bot screenshots``: the scripted game reaches every screen.

The preview documents need no browser, so they are checked everywhere; the
PNG pictures only where Chromium is installed (CI has none: skipped there).
"""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

import pytest

from bot.runner import picture_bot, screenshots
from bot.screenshots.album import Album, make_album
from bot.screenshots.chromium import BrowserMissing, find_browser
from bot.screenshots.scenes import locale_of

SCREENS = {
    "lobby",
    "bid",
    "table",
    "hand-classic",
    "hand-four-colour",
    "hand-large-print",
    "summary",
    "end",
    "end-picture",
    "leaderboard",
    "thread",
    "seat-request",
    "mygames",
    "admin",
    "tournament",
    "season",
    "replay",
}


def target(document: dict[str, Any]) -> dict[str, Any]:
    message: dict[str, Any] = document["messages"][document["targetId"]]
    return message


def embed_text(message: dict[str, Any]) -> str:
    parts = []
    for embed in message["embeds"]:
        parts += [embed.get("title", ""), embed.get("description", "")]
        parts += [f"{field['name']}\n{field['value']}" for field in embed.get("fields", [])]
    return "\n".join(parts)


def buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        item
        for row in message["components"]
        for item in row.get("components", [])
        if item.get("type") == 2
    ]


def labels(message: dict[str, Any]) -> list[str]:
    return [str(item.get("label")) for item in buttons(message)]


def mention_labels(tokens: Any) -> list[str]:
    """Every user mention the preview draws, anywhere in a token tree."""
    found = []
    if isinstance(tokens, dict):
        if tokens.get("type") == "mention":
            found.append(tokens["label"])
        tokens = list(tokens.values())
    if isinstance(tokens, list):
        for item in tokens:
            found += mention_labels(item)
    return found


@pytest.fixture(scope="module")
def documents(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    outdir = tmp_path_factory.mktemp("screens")
    import asyncio

    written = asyncio.run(make_album(Album(outdir, documents=True), picture_bot))
    assert all(path.suffix == ".json" for path in written)  # no browser: no pictures
    return {path.stem: json.loads(path.read_text("utf-8")) for path in written}


def test_every_screen_is_reached(documents: dict[str, dict[str, Any]]) -> None:
    assert set(documents) == SCREENS
    for name, document in documents.items():
        assert document["caption"], name
        assert target(document)["author"]["name"] == "Spades", name
        assert document["diagnostics"] == [], name


def test_each_screen_shows_what_its_caption_says(documents: dict[str, dict[str, Any]]) -> None:
    lobby = target(documents["lobby"])
    assert "All four seated." in embed_text(lobby)
    assert "Start" in labels(lobby)
    bid = target(documents["bid"])
    assert "Nil" in labels(bid) and "13" in labels(bid)
    assert "trick 4 of 13" in embed_text(target(documents["table"]))
    for deck in ("classic", "four-colour", "large-print"):
        hand = target(documents[f"hand-{deck}"])
        cards = [b for b in buttons(hand) if ":play:" in b["custom_id"]]
        assert len(cards) == 9, deck  # the fifth trick is to be led
        assert any(not card.get("disabled") for card in cards), deck
    assert "Nil made" in embed_text(target(documents["summary"]))
    end = target(documents["end"])
    assert "Result" in embed_text(end)
    assert labels(end) == ["Rematch: same teams", "Rematch: swap teams"]
    picture = target(documents["end-picture"])
    assert [a["filename"] for a in picture["attachments"]] == ["spades-game-1.png"]
    assert embed_text(target(documents["leaderboard"])).startswith("Ratings")
    replay = target(documents["replay"])
    assert replay["flags"] & 64 and replay["content"].startswith("**Game 1 · hand")
    assert "Coach: " in replay["content"]
    assert labels(replay) == ["◀", "▶", "Share"]
    assert replay["attachments"][0]["filename"].startswith("spades-replay-1-")


def test_the_server_screens_show_what_their_captions_say(
    documents: dict[str, dict[str, Any]],
) -> None:
    # The channel of a table that talks in its thread: the table message and
    # the line of the thread started from it.
    thread = documents["thread"]
    assert thread["layout"] == "channel"
    assert target(thread)["embeds"][0]["title"] == "Spades · table 2"
    assert any(m.get("type") == 18 for m in thread["messages"].values())  # thread created
    asked = target(documents["seat-request"])
    assert "asks to play West in place of" in embed_text(asked)
    assert labels(asked)[-2:] == ["Accept the request", "Decline the request"]
    mine = target(documents["mygames"])
    assert mine["flags"] & 64 and mine["content"].startswith("Your open tables here:")
    assert mine["content"].index("Table 3") < mine["content"].index("Table 2")  # its turn first
    panel = target(documents["admin"])
    assert panel["flags"] & 64 and "Spades settings of this server" in panel["content"]
    cup = target(documents["tournament"])
    assert embed_text(cup).startswith("Spades · tournament")
    assert [a["filename"] for a in cup["attachments"]] == ["bracket.png"]
    closed = target(documents["season"])
    assert closed["content"] == "**Season 1 is over.** Its final leaderboard:"
    assert embed_text(closed).startswith("Ratings · Season 1 · Card Club")


def test_hands_are_shown_to_their_owner_only(documents: dict[str, dict[str, Any]]) -> None:
    host = documents["lobby"]["viewerId"]
    for deck in ("classic", "four-colour", "large-print"):
        assert documents[f"hand-{deck}"]["viewerId"] == host
        assert target(documents[f"hand-{deck}"])["flags"] & 64  # ephemeral


def test_mentions_in_embeds_are_drawn_as_names(documents: dict[str, dict[str, Any]]) -> None:
    # Discord draws <@id> in embed descriptions and field values as @name.
    drawn = mention_labels(target(documents["lobby"])["embeds"])
    assert {"@Maya", "@Theo", "@Priya", "@Jonas"} <= set(drawn)
    assert "<@" not in json.dumps(mention_labels(target(documents["leaderboard"])["embeds"]))


def test_a_language_is_shown_in_its_discord_locale() -> None:
    locales = {code: code for code in ("en-US", "pt-BR", "es-ES", "es-419", "fr", "de")}
    assert locale_of(None, locales) == "en-US"
    assert locale_of("pt", locales) == "pt-BR"
    assert locale_of("es", locales) == "es-419"
    assert locale_of("es-ES", locales) == "es-ES"
    assert locale_of("de", locales) == "de"
    assert locale_of("pt_BR", locales) == "pt-BR"
    assert locale_of("xx", locales) == "en-US"


def test_a_missing_browser_is_one_clear_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SPADES_CHROMIUM", str(tmp_path / "no-such-chromium"))
    assert screenshots([str(tmp_path / "out")]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    assert "apt-get install -y chromium" in error
    assert not (tmp_path / "out").exists()


def chromium_present() -> bool:
    try:
        find_browser()
    except BrowserMissing:
        return False
    return True


@pytest.mark.skipif(not chromium_present(), reason="needs headless Chromium (not in CI)")
def test_the_pictures_are_taken_at_phone_width(tmp_path: Path) -> None:
    assert screenshots([str(tmp_path), "--width", "phone"]) == 0
    pictures = sorted(tmp_path.glob("*.png"))
    assert not list(tmp_path.glob("*.json"))  # documents only when asked for
    assert {path.name.removesuffix("-phone.png") for path in pictures} == SCREENS
    for path in pictures:
        data = path.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n", path.name
        width, height = struct.unpack(">II", data[16:24])
        assert width == 390 and 150 < height < 2400, (path.name, width, height)
    # A channel is pictured whole, to the height of the view.
    assert struct.unpack(">II", (tmp_path / "thread-phone.png").read_bytes()[16:24])[1] == 1100


def test_a_second_run_gives_the_same_documents(
    documents: dict[str, dict[str, Any]], tmp_path: Path
) -> None:
    import asyncio

    again = asyncio.run(make_album(Album(tmp_path, documents=True), picture_bot))
    assert {path.stem: json.loads(path.read_text("utf-8")) for path in again} == documents


def test_a_game_in_another_language_shows_every_screen_in_it(tmp_path: Path) -> None:
    import asyncio

    written = asyncio.run(make_album(Album(tmp_path, language="pt", documents=True), picture_bot))
    pages = {path.stem: json.loads(path.read_text("utf-8")) for path in written}
    assert set(pages) == SCREENS
    assert "Começar" in labels(target(pages["lobby"]))
    assert "Minhas cartas" in labels(target(pages["table"]))
    assert "vaza 4 de 13" in embed_text(target(pages["table"]))
    assert "Nil cumprido" in embed_text(target(pages["summary"]))
    for name, page in pages.items():
        assert page["diagnostics"] == [], name
