"""Every command the bot syncs fits Discord's limits, in every language.

Discord refuses a whole sync if one command breaks a limit, so a text that
grows in one translation would take every command away from every server.
The payloads are discord.py's own, translated as ``CommandTree.sync`` does,
from the tree of a bot started with all its cogs: commands added later are
checked without naming them here.

Discord's limits: a name is 1-32 characters, lower case, matching
``^[-_\\w]{1,32}$`` for a slash command and its options; a description is 1-100;
a choice's name 1-100; at most 25 options per command or subcommand, 25
subcommands per group, 25 choices per option. The names, descriptions and
choice values of a command with all its groups, subcommands, options and
choices add up to at most 8,000 characters (4,000 before); where a field is
localized, only its longest version counts.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import discord
from discord.app_commands import CommandTree

from bot.i18n import TRANSLATED, resolve
from tests.discord.harness import World

#: What Discord refuses a command over, in combined characters.
COMBINED_LIMIT = 8_000
#: What it refused earlier: worth knowing how close a command comes.
EARLIER_LIMIT = 4_000
NAME = re.compile(r"^[-_\w]{1,32}$")
DESCRIPTION_LENGTH = 100
CHOICE_NAME_LENGTH = 100
CHOICE_VALUE_LENGTH = 100
MAX_OPTIONS = 25  # options of a command or subcommand; subcommands of a group
MAX_CHOICES = 25
SUBCOMMAND, GROUP = (
    discord.AppCommandOptionType.subcommand.value,
    discord.AppCommandOptionType.subcommand_group.value,
)


@dataclass
class Measure:
    """One top-level command: its combined size, what breaks a limit, and
    which of our languages its texts were found in."""

    name: str
    size: int = 0
    problems: list[str] = field(default_factory=list)
    languages: set[str] = field(default_factory=set)


def longest(node: dict[str, Any], key: str) -> str:
    """The longest version of a localized field (the one Discord counts)."""
    texts: list[str] = [node.get(key) or "", *(node.get(f"{key}_localizations") or {}).values()]
    return max(texts, key=len)


def versions(node: dict[str, Any], key: str) -> Iterator[tuple[str, str]]:
    """(locale, text) of a field: ``en`` for the default, then each localization."""
    yield "en", node.get(key) or ""
    yield from (node.get(f"{key}_localizations") or {}).items()


def measure(command: dict[str, Any]) -> Measure:
    found = Measure(command["name"])
    slash = command.get("type", 1) == discord.AppCommandType.chat_input.value
    _walk(command, command["name"], slash, found, top=True)
    return found


def _walk(node: dict[str, Any], path: str, slash: bool, found: Measure, *, top: bool) -> None:
    found.size += len(longest(node, "name"))
    for locale, name in versions(node, "name"):
        if slash and (not NAME.fullmatch(name) or name != name.lower()):
            found.problems.append(f"{path}: name {name!r} ({locale})")
        elif not 1 <= len(name) <= 32:
            found.problems.append(f"{path}: name of {len(name)} characters ({locale})")
    if slash:  # context menus have no description
        found.size += len(longest(node, "description"))
        for locale, text in versions(node, "description"):
            if not 1 <= len(text) <= DESCRIPTION_LENGTH:
                found.problems.append(f"{path}: description of {len(text)} characters ({locale})")
            if locale != "en":
                found.languages.add(resolve(locale))
    options = node.get("options") or []
    kind = node.get("type")
    if len(options) > MAX_OPTIONS:
        what = "subcommands" if not top and kind == GROUP else "options"
        found.problems.append(f"{path}: {len(options)} {what}")
    choices = node.get("choices") or []
    if len(choices) > MAX_CHOICES:
        found.problems.append(f"{path}: {len(choices)} choices")
    for choice in choices:
        value = str(choice["value"])
        found.size += len(longest(choice, "name")) + len(value)
        for locale, name in versions(choice, "name"):
            if not 1 <= len(name) <= CHOICE_NAME_LENGTH:
                found.problems.append(f"{path}: choice {value} named {name!r} ({locale})")
        if isinstance(choice["value"], str) and not 1 <= len(value) <= CHOICE_VALUE_LENGTH:
            found.problems.append(f"{path}: choice value of {len(value)} characters")
    for option in options:
        _walk(option, f"{path} {option['name']}", slash, found, top=False)


async def payloads(tree: CommandTree[Any]) -> list[dict[str, Any]]:
    """What ``tree.sync`` sends for the global commands: each command's
    payload, translated by the tree's translator when it has one."""
    translator = tree.translator
    commands = tree.get_commands()
    if translator is None:
        return [command.to_dict(tree) for command in commands]
    return [await command.get_translated_payload(tree, translator) for command in commands]


def figures(measures: list[Measure]) -> str:
    lines = [f"{'command':<24} {'characters':>10}  of {COMBINED_LIMIT} (earlier {EARLIER_LIMIT})"]
    for m in sorted(measures, key=lambda m: -m.size):
        lines.append(
            f"/{m.name:<23} {m.size:>10}" + ("  over the earlier limit" * (m.size > EARLIER_LIMIT))
        )
    return "\n".join(lines)


async def test_every_command_fits_discord_s_limits_in_every_language(world: World) -> None:
    sent = await payloads(world.bot.tree)
    measures = [measure(command) for command in sent]
    table = figures(measures)
    print(f"\nCombined characters per command (longest localization of each field):\n{table}")
    assert len(sent) >= 2, table  # /spades and /spades-admin at least: the tree was built
    # What was measured is what the bot really synced.
    synced = (world.env.backend.commands.get(None) or {}).values()
    assert {m.name: m.size for m in map(measure, synced)} == {m.name: m.size for m in measures}
    for m in measures:
        assert m.languages == set(TRANSLATED), f"/{m.name} is not translated into every language"
    problems = [p for m in measures for p in m.problems]
    assert problems == [], "\n".join([*problems, table])
    over = [m.name for m in measures if m.size > COMBINED_LIMIT]
    assert over == [], f"over {COMBINED_LIMIT} characters: {over}\n{table}"
    assert len([c for c in sent if c.get("type", 1) == 1]) <= 100, "at most 100 slash commands"


def test_the_count_takes_each_field_s_longest_localization() -> None:
    """The measure itself, on a payload small enough to count by hand."""
    command: dict[str, Any] = {
        "name": "cmd",
        "description": "Play",  # 4; "Jouer une partie" (16) counts
        "description_localizations": {"fr": "Jouer une partie", "de": "Spielen"},
        "options": [
            {
                "type": 4,
                "name": "target",  # 6
                "description": "Points",  # 6
                "choices": [
                    {"name": "250", "value": 250},  # 3 + 3
                    {"name": "48 hours", "value": 2880, "name_localizations": {"fr": "48 heures"}},
                ],  # 9 + 4
            }
        ],
    }
    found = measure(command)
    assert found.size == 3 + 16 + 6 + 6 + 6 + 13
    assert found.problems == [] and found.languages == {"fr", "de"}
    command["options"][0]["name"] = "Target"
    command["description_localizations"] = {"fr": "x" * 101}
    command["options"][0]["choices"] = [{"name": str(n), "value": n} for n in range(26)]
    assert measure(command).problems == [
        "cmd: description of 101 characters (fr)",
        "cmd Target: name 'Target' (en)",
        "cmd Target: 26 choices",
    ]
