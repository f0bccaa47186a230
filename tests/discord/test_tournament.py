"""A tournament run by clicks through SimCord: registration with partners,
the draw, ready checks, tables in threads, winners advancing, a no-show, an
organizer's decision, the final standings, and restarts on the way."""

from __future__ import annotations

import pytest
from simcord import assert_error

from bot.refusals import BadHouseRule
from bot.tournament.model import Match
from cogs.errors import InteractionRefused
from cogs.guilds import WAIT_S
from cogs.tournament_desk import MatchThreads
from tests.discord.harness import Button, World, buttons_of
from tests.discord.test_languages import locales  # noqa: F401 (a fixture)
from tests.discord.tournament_harness import Cup, final_under_way

pytestmark = pytest.mark.simcord(settle_timeout=5.0)


async def test_two_teams_play_a_final(world: World) -> None:
    alice, bob, carol, dave = (world.user(n) for n in ("alice", "bob", "carol", "dave"))
    cup = Cup(world, alice)
    await cup.open(target=250, house="bags=off", turn_limit=60)
    await cup.pair(alice, bob)
    await cup.pair(carol, dave)
    await cup.click(alice, "Start")
    [final] = cup.matches("ready_check")
    # The message shows the bracket; /spades tournament show draws it for the asker.
    assert [a.filename for a in cup.message().attachments] == ["bracket.png"]
    shown = await carol.slash(world.channel, "spades tournament show")
    assert shown.ephemeral and shown.response is not None, shown
    assert [a.filename for a in shown.response.attachments] == ["bracket.png"]
    await cup.ready(final, final.a or 0, final.b or 0)
    [playing] = cup.matches("playing")
    table = await world.bot.app.tables.get(playing.table_id or 0)
    assert table.status.value == "playing"
    # The tournament's rules at its table.
    options = table.options
    assert (options.target, options.house.text, options.turn_limit_s) == (250, "bags=off", 3600)
    await cup.resign(playing, playing.b or 0)
    state = cup.state()
    assert state.phase == "over"
    assert state.champion == playing.a
    # The match's thread is archived once its game is over, like a table's.
    for _second in range(3):
        await world.env.advance_time(600)
    [thread] = world.channel.threads
    metadata = world.env.backend.get_channel(thread.id).thread_metadata
    assert metadata is not None and metadata.archived
    # A player's statistics show their tournament results.
    champion = cup.team_players(playing.a or 0)[0]
    stats = await champion.slash(world.channel, "spades stats")
    assert stats.response is not None
    [field] = [f for f in stats.response.embeds[0].fields if f.name == "Tournaments"]
    assert (field.value or "").startswith("Cup: place 1 of 2 teams"), field.value


async def test_eight_teams_play_a_double_elimination_through_restarts(world: World) -> None:
    """Eight pairs register (each partner confirms), the bracket is drawn, and
    every match goes through its ready check to a table in its own thread,
    except a no-show (the ready check runs out on the clock) and a match the
    organizer decides. The bot restarts before the draw, during ready checks,
    during a game and after a result; the final standings reach the results
    channel."""
    results = world.guild.create_text_channel("results")
    await world.bot.app.servers.change(world.guild.id, results_channel=results.id)
    people = [world.user(f"player{n}") for n in range(16)]
    organizer = people[0]
    cup = Cup(world, organizer)
    await cup.open(name="Winter cup", format="double", target=250, ready_minutes=10)
    for n in range(0, 16, 2):
        await cup.pair(people[n], people[n + 1])
    refused = await cup.click(people[2], "Register alone")
    assert refused.response is not None
    assert refused.response.content == "You are already registered in this tournament."
    await world.restart()
    refused = await cup.click(people[3], "Start")
    assert refused.response is not None
    assert "Only the organizer" in refused.response.content
    await cup.click(organizer, "Start")
    state = cup.state()
    assert state.phase == "running" and len(state.teams) == 8
    assert len(cup.matches("ready_check")) == 4  # the first round, all at once

    tables: set[int] = set()
    no_show: Match | None = None
    decided = restarted_in_game = False
    for _ in range(40):
        if cup.state().phase != "running":
            break
        for match in cup.matches("ready_check"):
            a, b = match.a or 0, match.b or 0
            if no_show is not None and match.number == no_show.number:
                continue
            if no_show is None:
                await cup.ready(match, a)  # team b never presses Ready
                no_show = match
            elif not decided:
                answer = await organizer.slash(
                    world.channel,
                    "spades tournament decide",
                    match=match.number,
                    winner=b,
                    reason="their table lost its connection",
                )
                assert answer.response is not None
                assert "goes to team" in answer.response.content
                done = cup.state().match(match.number)
                assert done is not None and (done.how, done.winner) == ("decided", b)
                decided = True
            else:
                tables.add(await play(world, cup, match))
                if not restarted_in_game:
                    restarted_in_game = True
                    await world.restart()  # with the next table's game under way
                if len(tables) == 3:
                    await world.restart()
        waiting = [m.number for m in cup.matches("ready_check")]
        if no_show is not None and no_show.how is None and waiting == [no_show.number]:
            # Every other ready check was answered: only the no-show's runs out.
            await world.restart()  # the ready check's deadline survives it
            await world.env.advance_time(10 * 60 + 1)
            no_show = cup.state().match(no_show.number)
            assert no_show is not None and (no_show.how, no_show.winner) == ("no_show", no_show.a)
    state = cup.state()
    assert state.phase == "over" and no_show is not None and decided
    hows = [m.how for m in state.matches]
    assert (hows.count("no_show"), hows.count("decided")) == (1, 1)
    assert len(tables) == len([m for m in state.matches if m.how == "played"])
    # Each table was opened once: every thread holds one table.
    assert len(world.channel.threads) == len(tables)
    places = [s.place for s in state.standings]
    assert places[0] == 1 and sorted(places) == places and len(places) == 8
    posted = [m.content for m in results.history()]
    assert any("Winter cup" in text and "1. Team" in text for text in posted), posted


async def play(world: World, cup: Cup, match: Match) -> int:
    """Both teams press Ready; the table opens in a thread of its own with
    the teams as partners; team b resigns, so team a advances."""
    a, b = match.a or 0, match.b or 0
    # The ready notice's button is for the match's teams only.
    notice = next(
        m for m in world.channel.history() if f"match {match.number} of" in (m.content or "")
    )
    outsider = next(
        p
        for p in world.users.values()
        if (team := cup.state().team_of(p.id)) and team.id not in (a, b)
    )
    refused = await outsider.click(notice, label=f"Ready · match {match.number}")
    assert refused.response is not None
    assert refused.response.content == "Your team does not play in that match."
    await cup.ready(match, a, b)
    opened = cup.state().match(match.number)
    assert opened is not None and opened.state == "playing" and opened.table_id is not None
    table = await world.bot.app.tables.get(opened.table_id)
    assert table.channel_id in {t.id for t in world.channel.threads}
    team_a, team_b = cup.state().team(a), cup.state().team(b)
    assert team_a is not None and team_b is not None
    seats = [s.user_id for s in table.seats]
    assert seats == [team_a.players[0], team_b.players[0], team_a.players[1], team_b.players[1]]
    assert table.options.target == 250
    await cup.resign(opened, b)
    done = cup.state().match(match.number)
    assert done is not None and (done.how, done.winner) == ("played", a), done
    return table.id


@pytest.mark.parametrize(
    ("locale", "twice", "not_organizer", "already_ready"),
    [
        (
            "en-US",
            "You are already registered in this tournament.",
            "Only the organizer",
            "Your team is already marked ready.",
        ),
        (
            "de",
            "Du bist in diesem Turnier schon angemeldet.",
            "Das darf nur der Veranstalter",
            "Dein Team ist schon als bereit markiert.",
        ),
        (
            "es-ES",
            "Ya estás inscrito en este torneo.",
            "Solo el organizador",
            "Tu equipo ya está marcado como listo.",
        ),
        (
            "fr",
            "Vous êtes déjà inscrit à ce tournoi.",
            "Seul l’organisateur",
            "Votre équipe est déjà marquée prête.",
        ),
        (
            "pt-BR",
            "Você já está inscrito neste torneio.",
            "Só o organizador",
            "Sua dupla já está marcada como pronta.",
        ),
    ],
)
async def test_refusals_are_one_private_line_in_the_clickers_language(
    world: World,
    locales: dict[int, str],  # noqa: F811 (the fixture)
    locale: str,
    twice: str,
    not_organizer: str,
    already_ready: str,
) -> None:
    alice, bob = world.user("alice"), world.user("bob")
    carol, dave = world.user("carol"), world.user("dave")
    locales[bob.id] = locales[dave.id] = locale
    cup = Cup(world, alice)
    await cup.open()
    await cup.pair(alice, carol)
    asked = [
        m.content for m in world.channel.history() if f"<@{carol.id}>: <@{alice.id}>" in m.content
    ]
    assert len(asked) == 1 and "Confirm partner" in asked[0], asked
    refused = await cup.click(bob, "Register alone")
    assert refused.ephemeral and refused.response is not None
    refused = await cup.click(bob, "Register alone")
    assert refused.ephemeral and refused.response is not None
    assert refused.response.content == twice
    refused = await cup.click(bob, "Start")
    assert refused.response is not None and refused.response.content.startswith(not_organizer)
    await cup.click(dave, "Register alone")
    await cup.click(world.user("erin"), "Register alone")  # three alone: one is left out
    await cup.click(alice, "Start")
    assert cup.state().phase == "running" and len(cup.state().teams) == 2
    [odd] = cup.state().left_out
    told = [m.content for m in world.channel.history() if "you got no team" in m.content]
    assert len(told) == 1 and told[0].startswith(f"<@{odd}>:"), told
    if odd == bob.id:  # bob has no team to be ready for
        bob, dave = dave, bob
    await cup.click(bob, "Ready")
    partner = next(u for u in cup.state().team_of(bob.id).players if u != bob.id)  # type: ignore[union-attr]
    locales[partner] = locale
    refused = await cup.click(world.by_id(partner), "Ready")  # the team is ready already
    assert refused.ephemeral and refused.response is not None
    assert refused.response.content == already_ready
    cancelled = await alice.slash(world.channel, "spades tournament cancel")
    assert cancelled.response is not None
    assert cup.state().phase == "cancelled"


class Crash(Exception):
    """The process stops here (the restart that follows is the real one)."""


@pytest.mark.parametrize("where", ["after the place", "after the table"])
async def test_a_match_table_opens_once_across_a_crash(
    world: World, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    """Stopped after the match's thread was written down (no table yet), or
    after its table was opened and its game started (the tournament not yet
    told): the restarted bot opens the table in the same thread, or takes
    the one it finds there; never a second thread or table."""
    alice, bob, carol, dave = (world.user(n) for n in ("alice", "bob", "carol", "dave"))
    cup = Cup(world, alice)
    await cup.open(target=250)
    await cup.pair(alice, bob)
    await cup.pair(carol, dave)
    await cup.click(alice, "Start")
    [match] = cup.matches("ready_check")
    service = world.bot.tournaments
    if where == "after the place":
        monkeypatch.setattr(service.tables, "_table_at", _crash)
    else:
        original = service._commit

        async def commit(tournament_id: int, event: object) -> object:
            if type(event).__name__ == "TableOpened":
                raise Crash()
            return await original(tournament_id, event)  # type: ignore[arg-type]

        monkeypatch.setattr(service, "_commit", commit)
    await cup.ready(match, match.a or 0, match.b or 0)
    assert cup.state().match(match.number).state == "ready_check"  # type: ignore[union-attr]
    [thread] = world.channel.threads
    tables_before = len(await world.bot.app.tables.unfinished())
    assert tables_before == (0 if where == "after the place" else 1)

    monkeypatch.undo()
    await world.restart()
    opened = cup.state().match(match.number)
    assert opened is not None and opened.state == "playing"
    assert [t.id for t in world.channel.threads] == [thread.id]
    [table] = await world.bot.app.tables.unfinished()
    assert table.id == opened.table_id and table.channel_id == thread.id
    assert table.status.value == "playing"
    await cup.resign(opened, opened.b or 0)
    assert cup.state().phase == "over"


async def _crash(*_args: object) -> None:
    raise Crash()


async def test_partners_drawn_and_registrations_withdrawn_or_declined(world: World) -> None:
    people = [world.user(n) for n in ("ann", "ben", "cat", "dan", "eve")]
    cup = Cup(world, people[0])
    await cup.open(teams="draw")
    assert "Register" not in [b.label for b in _buttons(cup)]  # partners are drawn
    for person in people:
        await cup.click(person, "Register alone")
    left = await cup.click(people[4], "Withdraw")
    assert left.response is not None and left.response.content == "You left the tournament."
    assert people[4].id not in cup.state().registrations.users()
    await cup.click(people[0], "Start")
    teams = cup.state().teams
    assert len(teams) == 2 and {u for t in teams for u in t.players} == {p.id for p in people[:4]}

    other = Cup(world, people[4])
    second = world.guild.create_text_channel("more-spades")
    result = await people[4].slash(second, "spades tournament new", name="Second")
    assert result.response is not None
    other.id = max(t.id for t in world.bot.tournaments.loaded())
    message = next(
        m for m in second.history() if m.embeds and "Second" in (m.embeds[0].title or "")
    )
    menu = await people[4].click(message, label="Register")
    assert menu.response is not None
    await people[4].select(menu.response, [people[0]])
    declined = await people[0].click(message, label="Decline partner")
    assert declined.response is not None
    assert declined.response.content == "You declined the partner request."
    assert other.state().registrations.users() == frozenset()


def _buttons(cup: Cup) -> list[Button]:
    return buttons_of(cup.message())


async def test_only_members_who_may_open_tables_open_a_tournament(world: World) -> None:
    hosts = world.guild.create_role("Hosts")
    await world.bot.app.servers.change(world.guild.id, host_role=hosts.id)
    refused = await world.user("alice").slash(
        world.channel, "spades tournament new", name="Cup", house="bidding=suicide"
    )
    assert refused.ephemeral and refused.response is not None
    assert refused.response.content == f"Only members with <@&{hosts.id}> open tables here."
    assert_error(world.env, InteractionRefused)  # answered by the one error path
    assert world.bot.tournaments.in_channel(world.channel.id) is None
    host = world.guild.add_member(world.env.create_user("host"), roles=[hosts])
    bad = await host.slash(world.channel, "spades tournament new", name="Cup", house="nope=1")
    assert bad.response is not None and "\n" not in bad.response.content
    assert_error(world.env, BadHouseRule, contains="unknown house rule 'nope'")
    assert world.bot.tournaments.in_channel(world.channel.id) is None
    cup = Cup(world, host)
    opened = await cup.open(house="bidding=suicide", turn_limit=60)
    assert opened.settings.house == "bidding=suicide" and opened.settings.turn_limit == 60


async def test_a_result_lost_in_a_crash_advances_the_winner_after_the_restart(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stopped when the game had ended but before the tournament heard of it:
    the restarted bot finds the table finished and the winner advances."""
    cup, playing = await final_under_way(world)
    monkeypatch.setattr(world.bot.tournaments, "_take_result", _crash)
    await cup.resign(playing, playing.a or 0)
    table = await world.bot.app.tables.get(playing.table_id or 0)
    assert table.status.value == "finished" and cup.state().phase == "running"

    monkeypatch.undo()
    await world.restart()
    state = cup.state()
    done = state.match(playing.number)
    assert done is not None and (done.how, done.winner) == ("played", playing.b)
    assert state.phase == "over" and state.champion == playing.b


async def test_a_players_history_names_the_tournament_match_of_a_game(world: World) -> None:
    """The game played at a match's table is listed in a player's history
    with the tournament's name and the match number."""
    cup, playing = await final_under_way(world)
    await cup.resign(playing, playing.b or 0)
    table = await world.bot.app.tables.get(playing.table_id or 0)
    assert table.status.value == "finished"
    [game_id] = await world.bot.app.store.db.fetchall(
        "SELECT id FROM games WHERE table_id = ?", (table.id,)
    )
    player = cup.team_players(playing.b or 0)[0]
    listed = await player.slash(world.channel, "spades history")
    assert listed.ephemeral and listed.response is not None, listed
    lines = (listed.response.embeds[0].description or "").splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"`#{game_id[0]}` "), lines
    assert f"Cup · match {playing.number} · **Lost**" in lines[0], lines


@pytest.mark.parametrize("servers_after_s", [5.0, WAIT_S + 10])
async def test_a_match_table_lost_in_a_kill_opens_in_a_thread_once_the_server_is_known(
    world: World, monkeypatch: pytest.MonkeyPatch, servers_after_s: float
) -> None:
    """Killed after both teams pressed Ready, before the match's thread was
    asked for. The restarted bot learns the server's channels only seconds
    after it connected (and resumed the tournament): it waits for them, and
    the final's table opens in a thread, not in the tournament's channel.
    A server that does not come in time is done without: Discord is asked
    for the channel, and the thread started all the same."""
    alice, bob, carol, dave = (world.user(n) for n in ("alice", "bob", "carol", "dave"))
    cup = Cup(world, alice)
    await cup.open(target=250)
    await cup.pair(alice, bob)
    await cup.pair(carol, dave)
    await cup.click(alice, "Start")
    [match] = cup.matches("ready_check")
    monkeypatch.setattr(MatchThreads, "request", lambda *_args: None)  # the process died
    await cup.ready(match, match.a or 0, match.b or 0)
    assert world.channel.threads == []
    monkeypatch.undo()

    await world.restart(servers_after_s=servers_after_s)
    opened = cup.state().match(match.number)
    assert opened is not None and opened.state == "playing"
    [thread] = world.channel.threads
    [table] = await world.bot.app.tables.unfinished()
    assert table.id == opened.table_id and table.channel_id == thread.id
    [match_table] = await world.bot.tournaments.store.match_tables(cup.id)
    assert match_table.channel_id == thread.id
    fetched = ("HTTP", f"GET /channels/{world.channel.id}", None) in world.env.backend.transcript
    assert fetched == (servers_after_s > WAIT_S)


async def test_partner_requests_of_two_tournaments_waiting_together_are_both_posted(
    world: World,
) -> None:
    """Each tournament's post has a key of its own (the tournament and the
    person): two asking the same partner while the outbox is held up are
    both posted, neither replacing the other."""
    ann, ben, cat = (world.user(n) for n in ("ann", "ben", "cat"))
    first = Cup(world, ann)
    await first.open()
    second_channel = world.guild.create_text_channel("more-spades")
    opened = await cat.slash(second_channel, "spades tournament new", name="Second")
    assert opened.response is not None
    second = next(
        m for m in second_channel.history() if m.embeds and "Second" in (m.embeds[0].title or "")
    )
    world.bot.outbox.pause(30)  # a global 429: what is put meanwhile waits
    for asker, message in ((ann, first.message()), (cat, second)):
        menu = await asker.click(message, label="Register")
        assert menu.response is not None
        asked = await asker.select(menu.response, [ben])
        assert asked.response is not None and "asked" in asked.response.content
    await world.env.advance_time(31)
    await world.env.settle()
    for channel, asker in ((world.channel, ann), (second_channel, cat)):
        posts = [m.content for m in channel.history() if f"<@{asker.id}> asks you" in m.content]
        assert posts == [
            f"<@{ben.id}>: <@{asker.id}> asks you to be their partner in "
            f"{'Cup' if asker is ann else 'Second'}. Press Confirm partner (or Decline "
            "partner) on the tournament message."
        ], (channel, posts)
