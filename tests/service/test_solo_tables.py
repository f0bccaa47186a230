"""Solo tables (``teams=solo``) through the service: the house rule offered
in the lobby and by server defaults (never by tournaments), no partner to
choose, a whole game, the rematch in the same seats, and a claim of the rest
answered by the claimer's three opponents."""

from __future__ import annotations

import pytest

from bot import refusals
from bot.game.cards import HAND_SIZE
from bot.game.refusals import RestClaimRefused
from bot.game.rules import Teams
from bot.game.sides import solo
from bot.game.types import Phase
from bot.i18n import ENGLISH, TRANSLATED
from bot.render.refusal_text import refusal_text
from bot.servers import ServerSettings
from bot.tables.model import Table, TableOptions, TableStatus
from bot.tables.service import TableService
from bot.tournament.events import TournamentRefusal
from bot.tournament.model import Settings
from bot.tournament.service import check_partnership
from tests.service.driver import GUESTS, HOST, Chooser, play_to_end, seated_table

PLAYERS = (HOST, *GUESTS)


async def test_the_lobby_server_defaults_and_new_tables_offer_solo(service: TableService) -> None:
    table = await service.create(1, 500, HOST)
    table = await service.house_rule(table.id, HOST, table.version, "teams", "solo")
    assert table.rules.teams is Teams.SOLO and table.options.house.text == "teams=solo"
    assert TableOptions.chosen(house="deck=jokers,teams=solo").rules().teams is Teams.SOLO
    options = ServerSettings(defaults={"house": "teams=solo"}).table_options()
    assert options.rules().teams is Teams.SOLO
    # A rule solo cannot be played with is still one line, and changes nothing.
    with pytest.raises(refusals.BadHouseRule):
        await service.house_rule(table.id, HOST, table.version, "bidding", "suicide")
    assert (await service.get(table.id)).version == table.version


def test_tournaments_still_refuse_solo() -> None:
    with pytest.raises(TournamentRefusal) as refused:
        check_partnership(Settings("Cup", house="teams=solo"))
    assert refused.value.code == "partners_only"


async def _solo_table(service: TableService, humans: int = 4) -> Table:
    return await seated_table(service, humans=humans, house="teams=solo")


@pytest.mark.parametrize("lang", [ENGLISH, *TRANSLATED])
async def test_nobody_chooses_a_partner_at_a_solo_table(service: TableService, lang: str) -> None:
    table = await _solo_table(service)
    for seat in (1, 2, 3):
        with pytest.raises(refusals.NoTeams) as refused:
            await service.choose_partner(table.id, HOST, table.version, seat)
    text = refusal_text(refused.value, lang) or ""
    english = refusal_text(refused.value, ENGLISH)
    assert text and "\n" not in text.strip() and (text == english) is (lang == ENGLISH)
    after = await service.get(table.id)
    assert after.version == table.version and after.seats == table.seats


async def test_a_solo_game_plays_to_its_end_and_the_rematch_keeps_the_seats(
    service: TableService,
) -> None:
    table = await _solo_table(service, humans=2)
    seats = table.seats
    table = await service.start(table.id, HOST, table.version)
    assert table.game is not None and solo(table.game.rules) and len(table.game.scores) == 4
    table = await play_to_end(service, table, Chooser(5))
    assert table.status is TableStatus.FINISHED and table.game is not None
    result = table.game.result
    assert result is not None and result.winner is not None
    assert table.game.scores[result.winner] == max(table.game.scores)
    with pytest.raises(refusals.NoTeams):
        await service.rematch(table.id, GUESTS[0], table.version, swap_teams=True)
    assert (await service.get(table.id)).status is TableStatus.FINISHED
    table = await service.rematch(table.id, GUESTS[0], table.version)
    assert table.status is TableStatus.PLAYING and table.game_number == 2
    assert table.seats == seats
    assert table.game is not None and solo(table.game.rules)


async def _first_lead(service: TableService) -> Table:
    """A solo table of four people, bids made, the first card to lead."""
    table = await _solo_table(service)
    table = await service.start(table.id, HOST, table.version)
    assert table.game is not None
    while table.game.phase is Phase.BIDDING:
        seat = table.game.to_act
        table = await service.bid(table.id, PLAYERS[seat], 2, table.version)
    return table


async def test_a_claim_of_the_rest_is_answered_by_all_three_opponents(
    service: TableService,
) -> None:
    table = await _first_lead(service)
    assert table.game is not None
    claimer = table.game.to_act
    table = await service.claim_rest(table.id, PLAYERS[claimer], table.version)
    others = [(claimer + n) & 3 for n in (1, 2, 3)]
    assert table.game is not None and table.game.rest.opponents() == tuple(others)
    # Two accept: the hand waits on the third (nobody may play meanwhile).
    for seat in others[:2]:
        table = await service.answer_rest(table.id, PLAYERS[seat], table.version, True)
        assert table.game is not None and table.game.phase is Phase.PLAYING
    with pytest.raises(RestClaimRefused):  # an accepter cannot answer twice
        await service.answer_rest(table.id, PLAYERS[others[0]], table.version, True)
    with pytest.raises(RestClaimRefused):  # nor the claimer
        await service.answer_rest(table.id, PLAYERS[claimer], table.version, True)
    assert table.game is not None and table.game.waited_on() == others[2]
    table = await service.answer_rest(table.id, PLAYERS[others[2]], table.version, True)
    game = table.game
    assert game is not None and game.phase is Phase.HAND_OVER
    record = game.hand_records[-1]
    assert record.claim == (claimer, HAND_SIZE)
    assert record.tricks_won[claimer] == HAND_SIZE
    assert len(record.score_after) == 4
    # The claimer made 2 and took 11 bags, over the limit of 10 (-100): its
    # own bags; the others, each bidding 2, were set.
    assert record.hand_score[claimer] == 20 + 11 - 100
    assert record.bags_after[claimer] == 1
    assert all(record.hand_score[seat] == -20 for seat in others)


async def test_one_opponent_refusing_a_solo_claim_lets_play_go_on(
    service: TableService,
) -> None:
    table = await _first_lead(service)
    assert table.game is not None
    claimer = table.game.to_act
    table = await service.claim_rest(table.id, PLAYERS[claimer], table.version)
    table = await service.answer_rest(table.id, PLAYERS[(claimer + 1) & 3], table.version, True)
    table = await service.answer_rest(table.id, PLAYERS[(claimer + 3) & 3], table.version, False)
    game = table.game
    assert game is not None and game.phase is Phase.PLAYING and not game.rest.waiting
    assert game.waited_on() == claimer and game.rest.shows(claimer)
    with pytest.raises(RestClaimRefused):  # once a turn
        await service.claim_rest(table.id, PLAYERS[claimer], table.version)
