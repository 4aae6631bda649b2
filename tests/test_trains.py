"""The train model of seed 003: card types, phases, the depot (tilelay.trains)."""

from __future__ import annotations

import pytest

from tests.conftest import reference
from tilelay.errors import NotFoundError, TilelayError
from tilelay.trains import IPO, POOL, SCRAPHEAP, TrainManager
from tilelay.xml.rails_game import read_rails_game


def rails(game: str, **options: str) -> TrainManager:
    return read_rails_game(reference("rails", game, "Game.xml"), options=options)


# --- cards, portfolios and the depot -------------------------------------------------------


def test_depot_buying_dual_cards_and_rusting() -> None:
    m = rails("18Scan")
    depot = m.new_depot()
    assert len(depot.portfolio(IPO)) == 6 + 4 + 3 + 2 + 2 + 6
    card = depot.portfolio(IPO)[0]
    assert card.id == "2/1+1_1" and card.chosen is None
    with pytest.raises(TilelayError, match="choose one of 2, 1\\+1"):
        depot.move(card.id, "SJ")
    depot = depot.move(card.id, "SJ", side="1+1")
    assert depot.train(card.id) == m.train_type("1+1")
    assert [c.id for c in depot.portfolio("SJ")] == ["2/1+1_1"]
    depot = depot.move(card.id, POOL)
    assert depot.card(card.id).chosen is None  # DualTrainBecomesUndecidedInPool
    depot = depot.move(card.id, "NSB", side="2")
    assert depot.train(card.id) is not None and depot.train(card.id).name == "2"  # type: ignore[union-attr]
    depot = depot.rust(["2/1+1"])
    assert len(depot.portfolio(SCRAPHEAP)) == 6 and depot.portfolio("NSB") == ()
    with pytest.raises(NotFoundError):
        depot.card("nope")


def test_depot_unlimited_cards_replenish() -> None:
    m = rails("1870")
    depot = m.new_depot()
    assert [c.id for c in depot.portfolio(IPO) if c.type_name == "12"] == ["12_1"]
    depot = depot.move("12_1", "MKT")
    assert [c.id for c in depot.portfolio(IPO) if c.type_name == "12"] == ["12_2"]
    assert depot.train("12_1") == m.train_type("12")
