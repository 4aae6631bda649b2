"""The regions a turn completed and the end-game breakdown (tilelay.carcassonne.summary)."""

from __future__ import annotations

import pytest

from tilelay.carcassonne.board import FarmScoring, Rules
from tilelay.carcassonne.players import new_game
from tilelay.carcassonne.summary import SHEET_KINDS, breakdown, completed_by_last_tile
from tilelay.carcassonne.tile import Kind


@pytest.mark.parametrize("seed", [1, 2, 3, 7])
def test_completed_regions_are_the_turns_completed_events(seed: int) -> None:
    game = new_game(["greedy", "random", "greedy"], seed, abbot=True)
    while (turn := game.step()) is not None:
        regions = completed_by_last_tile(game.board)
        completed = sorted(
            (e.kind, e.tiles) for e in turn.events if e.complete and e.kind is not Kind.FARM
        )
        assert (
            sorted((r.kind, r.tiles if r.kind in (Kind.CITY, Kind.ROAD) else 9) for r in regions)
            == completed
        )
        for r in regions:
            if r.kind in (Kind.CITY, Kind.ROAD):
                assert any(n == game.board.last_tile for n, _f in r.features)


@pytest.mark.parametrize("seed", [4, 5, 6])
def test_breakdown_adds_up(seed: int) -> None:
    game = new_game(["greedy", "greedy"], seed, river=True, abbot=True)
    game.play()
    sheet = breakdown(game)
    assert sheet.totals == tuple(game.board.scores)
    for p in range(2):
        assert sum(sheet.line(p, k).total for k in SHEET_KINDS) == game.board.scores[p]
    farm_points = [0, 0]
    for farm in sheet.farms:
        assert farm.points == 3 * len(farm.cities)
        assert all(c.kind is Kind.CITY for c in farm.cities)
        assert farm.farm.kind is Kind.FARM
        assert max(farm.farmers) > 0
        for p in farm.winners:
            assert farm.farmers[p] == max(farm.farmers)
            farm_points[p] += farm.points
    assert farm_points == [sheet.line(p, Kind.FARM).end for p in range(2)]
    assert all(sheet.line(p, Kind.FARM).during == 0 for p in range(2))


def test_first_edition_farms_are_not_broken_down() -> None:
    game = new_game(["greedy", "greedy"], 3, rules=Rules(farm_scoring=FarmScoring.FIRST_EDITION))
    game.play()
    sheet = breakdown(game)
    assert sheet.farms == ()
    assert sum(line.total for line in sheet.lines) == sum(game.board.scores)


def test_breakdown_mid_game_has_no_farms() -> None:
    game = new_game(["greedy", "greedy"], 3)
    game.play_to(20)
    sheet = breakdown(game)
    assert sheet.farms == () and sheet.totals == tuple(game.board.scores)
