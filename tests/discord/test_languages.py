"""Every player in their own language, through the real bot on SimCord.

SimCord 3.2 sends every interaction as ``en-US`` from an ``en-US`` server.
The ``locales`` fixture makes its interactions carry each user's Discord
language and the server's preferred one, as Discord does; everything else is
SimCord's.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest
import simcord
import simcord.interactions as simcord_interactions
from simcord import MemberActor, assert_error

from bot.game.types import Phase
from bot.i18n import LANGUAGES
from bot.refusals import HostOnly
from bot.render.spec import OPTION_LABEL
from tests.discord.harness import World, buttons_of, embed_text, my_hand_of
from tests.discord.test_coach import answer_of, seen_by


@pytest.fixture
def locales(monkeypatch: pytest.MonkeyPatch) -> dict[int, str]:
    """User id -> the Discord locale their app sends (``en-US`` if not set)."""
    chosen: dict[int, str] = {}
    original = simcord_interactions.base_payload

    def with_locales(
        backend: Any, *, user_id: int, guild_id: int | None, **rest: Any
    ) -> tuple[Any, dict[str, Any]]:
        record, payload = original(backend, user_id=user_id, guild_id=guild_id, **rest)
        payload["locale"] = chosen.get(user_id, "en-US")
        if guild_id is not None:
            payload["guild_locale"] = backend.get_guild(guild_id).preferred_locale
        return record, payload

    monkeypatch.setattr(simcord_interactions, "base_payload", with_locales)
    return chosen


def person(world: World, locales: dict[int, str], name: str, locale: str) -> MemberActor:
    user = world.user(name)
    locales[user.id] = locale
    return user


def newest_table_message(world: World) -> discord.Message:
    found = [m for m in world.channel.history() if m.embeds]
    assert found, "no table message"
    return found[-1]


async def hand_of(world: World, user: MemberActor, label: str) -> simcord.ResponseMessage:
    """The hand ``user`` brings up with the table message's ``label`` button:
    an ephemeral follow-up of the press, seen by ``user`` alone."""
    return my_hand_of(await user.click(newest_table_message(world), label=label))


async def spanish_table(world: World, locales: dict[int, str]) -> tuple[MemberActor, ...]:
    """A Spanish table: its host from Spain, a Brazilian and an English speaker,
    and a computer player in the fourth seat."""
    host = person(world, locales, "lucia", "es-ES")
    paulo = person(world, locales, "paulo", "pt-BR")
    emma = person(world, locales, "emma", "en-US")
    opened = await host.slash(world.channel, "spades new", language="es")
    assert opened.response is not None and opened.response.content.startswith("La mesa")
    joins = [
        await user.click(newest_table_message(world), label="Unirse") for user in (paulo, emma)
    ]
    # Each is answered privately in their own language.
    assert [j.followups[0].content for j in joins] == [
        "Você senta no lugar Oeste da mesa 1.",
        "You sit North at table 1.",
    ]
    await host.click(newest_table_message(world), label="Añadir jugadores de la computadora")
    await host.click(newest_table_message(world), label="Empezar")
    return host, paulo, emma


async def test_a_brazilian_and_an_english_player_at_a_spanish_table(
    world: World, locales: dict[int, str]
) -> None:
    host, paulo, emma = await spanish_table(world, locales)
    table = newest_table_message(world)
    public = embed_text(table)
    assert public.startswith("Spades · mesa") and "Mano 1" in public
    assert {b.label for b in buttons_of(table)} >= {"Mis cartas", "Mirar"}
    assert "Table" not in public and "Hand" not in public
    # Each opens their hand from the Spanish button and reads it in their own language.
    hands = {user.id: await hand_of(world, user, "Mis cartas") for user in (host, paulo, emma)}
    assert hands[paulo.id].content.startswith("**Mesa ") and "· mão 1** · parceiro:" in (
        hands[paulo.id].content
    )
    assert hands[emma.id].content.startswith("**Table ") and "· hand 1** · partner:" in (
        hands[emma.id].content
    )
    assert "· mano 1** · pareja:" in hands[host.id].content
    # Refusals too: only the host may close the table, in each one's words.
    refused = {user.id: await user.slash(world.channel, "spades cancel") for user in (paulo, emma)}
    answers = {user: refused[user].response for user in refused}
    assert [a.content if a else None for a in (answers[paulo.id], answers[emma.id])] == [
        "Só o anfitrião pode fazer isso.",
        "Only the host can do that.",
    ]
    assert_error(world.env, HostOnly)
    # The public turn mention speaks the table's language.
    mentions = [m.content for m in world.talk().history() if not m.embeds]
    assert mentions and all("te toca" in m for m in mentions), mentions


async def test_spades_language_changes_only_the_caller_s_private_text(
    world: World, locales: dict[int, str]
) -> None:
    _host, paulo, emma = await spanish_table(world, locales)
    before = embed_text(newest_table_message(world))
    chosen = await emma.slash(world.channel, "spades language", language="de")
    assert chosen.response is not None and "Deutsch" in chosen.response.content
    assert chosen.response.content.startswith("Deine eigenen Nachrichten")
    assert (await hand_of(world, emma, "Mis cartas")).content.startswith("**Tisch ")
    assert (await hand_of(world, paulo, "Mis cartas")).content.startswith("**Mesa ")
    assert embed_text(newest_table_message(world)) == before
    asked = await emma.slash(world.channel, "spades language")
    assert asked.response is not None and "Deutsch" in asked.response.content
    # Back to what her Discord app says.
    back = await emma.slash(world.channel, "spades language", language="auto")
    assert back.response is not None and back.response.content.startswith("Your own messages")
    assert (await hand_of(world, emma, "Mis cartas")).content.startswith("**Table ")
    # Kept across a restart, like the deck design.
    await paulo.slash(world.channel, "spades language", language="fr")
    await world.restart()
    assert (await hand_of(world, paulo, "Mis cartas")).content.startswith("**Table ")
    assert "· donne 1** · partenaire" in (await hand_of(world, paulo, "Mis cartas")).content


async def test_a_new_table_speaks_the_server_s_language_unless_told(
    world: World, locales: dict[int, str]
) -> None:
    world.env.backend.get_guild(world.guild.id).preferred_locale = "fr"
    host = person(world, locales, "lucia", "es-ES")
    await host.slash(world.channel, "spades new")
    assert embed_text(newest_table_message(world)).startswith("Spades · table")
    assert "Rejoindre" in {b.label for b in buttons_of(newest_table_message(world))}
    await host.slash(world.channel, "spades cancel")
    await host.slash(world.channel, "spades new", language="en")
    assert "Join" in {b.label for b in buttons_of(newest_table_message(world))}


async def test_a_server_locale_we_lack_falls_back(world: World, locales: dict[int, str]) -> None:
    world.env.backend.get_guild(world.guild.id).preferred_locale = "es-419"
    host = person(world, locales, "ana", "pt-PT")
    opened = await host.slash(world.channel, "spades new")
    assert opened.response is not None and opened.response.content.startswith("A mesa")
    assert "Unirse" in {b.label for b in buttons_of(newest_table_message(world))}
    world.env.backend.get_guild(world.guild.id).preferred_locale = "it"
    locales[host.id] = "ja"
    await host.slash(world.channel, "spades cancel")
    reopened = await host.slash(world.channel, "spades new")
    assert reopened.response is not None and reopened.response.content.startswith("Table")
    assert "Join" in {b.label for b in buttons_of(newest_table_message(world))}


def _commands(world: World) -> dict[str, dict[str, Any]]:
    synced = world.env.backend.commands.get(None) or {}
    return {command["name"]: command for command in synced.values()}


def _walk(node: dict[str, Any]) -> list[dict[str, Any]]:
    found = [node]
    for option in node.get("options") or []:
        found += _walk(option)
    return found


async def test_synced_commands_carry_their_localizations(world: World) -> None:
    commands = _commands(world)
    spades = commands["spades"]
    assert spades["description_localizations"]["pt-BR"] == "Mesas de Spades em duplas"
    new = next(o for o in spades["options"] if o["name"] == "new")
    assert new["description_localizations"]["de"] == "Einen Pik-Tisch in diesem Kanal eröffnen"
    assert new["description_localizations"]["es-419"] == new["description_localizations"]["es-ES"]
    turn_limit = next(o for o in new["options"] if o["name"] == "turn_limit")
    two_days = next(c for c in turn_limit["choices"] if c["value"] == 2880)
    assert two_days["name"] == "48 hours"
    assert two_days["name_localizations"]["fr"] == "48 heures"
    languages = next(o for o in new["options"] if o["name"] == "language")
    assert {c["value"] for c in languages["choices"]} == set(LANGUAGES)
    for command in commands.values():
        for node in _walk(command):
            # Names are shared across languages; texts are translated and fit.
            assert not node.get("name_localizations"), node["name"]
            for text in (node.get("description_localizations") or {}).values():
                assert 0 < len(text) <= 100
            for choice in node.get("choices") or []:
                for name in (choice.get("name_localizations") or {}).values():
                    assert 0 < len(name) <= OPTION_LABEL
    described = [n for c in commands.values() for n in _walk(c) if n.get("description")]
    untranslated = [n["description"] for n in described if not n.get("description_localizations")]
    assert untranslated == []


async def test_the_coach_speaks_each_player_s_own_language(
    world: World, locales: dict[int, str]
) -> None:
    """At an English table: a Brazilian's hint, answers and review in
    Portuguese; a German who chose French reads French; the host English."""
    emma = person(world, locales, "emma", "en-US")
    paulo = person(world, locales, "paulo", "pt-BR")
    hans = person(world, locales, "hans", "de-DE")
    ana = person(world, locales, "ana", "es-ES")
    await world.seat_four(emma, paulo, hans, ana, hints=True)
    turned = await paulo.slash(world.channel, "spades coach", mode="on")
    assert turned.response is not None
    assert turned.response.content.startswith("Seu treinador está ligado")
    await hans.slash(world.channel, "spades language", language="fr")
    await hans.slash(world.channel, "spades coach", mode="on")
    await emma.slash(world.channel, "spades coach", mode="on")
    await world.click(emma, "Start")
    table = await world.table()
    assert table.game is not None and table.seats[table.game.to_act].user_id == paulo.id
    hand = await world.my_hand(paulo)
    assert "Dica" in [b.label for b in buttons_of(hand)]
    hinted = answer_of(await paulo.click(hand, label="Dica"))
    assert hinted.ephemeral and hinted.content.startswith("💡 Aposte ")

    await world.play_until(
        lambda t: t.game is not None and t.game.phase is Phase.HAND_OVER, next_hand=False
    )
    await world.bot.app.wait_background()
    assert f"Mesa {table.id}, mão 1: você apostou " in seen_by(world, paulo)
    assert f"Table {table.id}, donne 1 : tu as annoncé " in seen_by(world, hans)
    assert f"Table {table.id}, hand 1: you bid " in seen_by(world, emma)
