"""GE18XX's Map, Companies, Cities and 18xx-Games files (tilelay.xml.ge18xx_map,
ge18xx_companies, ge18xx_games)."""

from __future__ import annotations

import pytest

from tests.conftest import reference
from tilelay.errors import XMLFormatError
from tilelay.hexgeo import Layout
from tilelay.xml.ge18xx_companies import ge_colour, read_ge_cities, read_ge_companies
from tilelay.xml.ge18xx_games import read_ge_games
from tilelay.xml.ge18xx_map import ge_ids, read_ge_map

MAP = b"""<Map cols="3" direction="EW" rows="2" rowStart="B" colStart="1">
  <TerrainCosts><Terrain cost="80" type="River"/></TerrainCosts>
  <Row index="0" startCol="0">
    <MapCell><Terrain category="base" type="Off Board Green"/></MapCell>
    <MapCell><Terrain category="base" type="Clear"/>
      <Terrain category="optional" location="8" type="River"/>
      <TileName name="OO" location="7"/>
      <RevenueCenter id="3" location="8" name="" number="1" type="Single City"/>
      <Blocked side="4"/></MapCell>
  </Row>
  <Row index="1" startCol="1">
    <MapCell><Terrain category="base" type="Off Board Red"/>
      <Tile number="9807" orientation="2" starting="TRUE"/></MapCell>
    <MapCell><Terrain category="base" type="Ocean"/></MapCell>
    <Gizmo/>
  </Row>
</Map>"""


def test_map_cells_and_names() -> None:
    m = read_ge_map(MAP, source="m.xml")
    assert m.layout is Layout.POINTY and not m.letter_is_x
    by = {c.coord: c for c in m.cells}
    # row 0 is B (rows count down from rowStart), columns 2 * col + row % 2 from 1
    assert set(by) == {"B3", "A4"}
    clear = by["B3"]
    assert clear.label == "OO" and clear.blocked == (4,)
    assert clear.centers[0].type == "Single City" and clear.centers[0].id == 3
    assert [(t.type, t.cost) for t in clear.terrains] == [("River", 80)]
    red = by["A4"]
    assert red.tile == "9807" and red.orientation == 2 and red.base == "Off Board Red"
    assert m.ids == {"B3": "B3", "A4": "A4"}
    assert [str(w) for w in m.warnings] == ["m.xml:15: <Gizmo> in <Row> not read"]


def test_map_errors() -> None:
    with pytest.raises(XMLFormatError, match="direction") as info:
        read_ge_map(b'<Map direction="UP"/>', source="m.xml")
    assert info.value.source == "m.xml" and info.value.line == 1
    with pytest.raises(XMLFormatError, match="outside"):
        read_ge_map(
            b'<Map direction="NS" rowStart="A" colStart="0"><Row index="40">'
            b'<MapCell><Terrain category="base" type="Clear"/></MapCell></Row></Map>'
        )
    with pytest.raises(XMLFormatError, match="entity"):
        read_ge_map(b'<!DOCTYPE m [<!ENTITY e "x">]><Map/>')


def test_row_and_column_names() -> None:
    assert ge_ids("A")[:3] == ["A", "B", "C"]
    assert ge_ids("K")[:3] == ["K", "J", "I"] and ge_ids("K")[-1] == "A"
    assert ge_ids("1")[:3] == ["1", "2", "3"] and ge_ids("0")[0] == "0"
    assert ge_ids("zz")[:3] == ["zz", "a", "b"] and ge_ids("zz")[28] == "ab"
    with pytest.raises(ValueError, match="unknown start"):
        ge_ids("?")


def test_lower_case_columns_are_numbered() -> None:
    m = read_ge_map(reference("ge18xx", "1853", "1853-Map.xml"))
    assert m.ids["Jab"] == "J28"
    assert any("numbers them by place" in str(w) for w in m.warnings)


def test_companies_and_cities() -> None:
    xml = b"""<Corporations xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
      <Private id="1" name="Schuylkill Valley" abbrev="SV" cost="20" revenue="5"
        homeCell1="G15" homeLocation1="10"/>
      <Share id="2" name="Pennsylvania" abbrev="PRR" homeCell1="H12" homeLocation1="14"
        bgColor="Dark Green" fgColor="White" tokens="4" floatPercentage="20%"/>
      <Minor id="3" name="Minor one" abbrev="1" homeCell1="H2" homeLocation1="50"
        bgColor="1,2,3" fgColor="Puce" tokens="2"/>
    </Corporations>"""
    c = read_ge_companies(xml, source="c.xml")
    assert c.privates[0].sym == "SV" and c.privates[0].blocks == ("G15",)
    prr, minor = c.shares
    assert prr.homes == ("H12",) and prr.home_locations == (14,) and prr.tokens == 4
    assert prr.color == "#228b22" and prr.text_color == "#ffffff" and prr.float_percent == 20
    assert minor.kind == "Minor" and minor.color == "#010203" and minor.text_color is None
    assert any("Puce" in str(w) for w in c.warnings)
    cities = read_ge_cities(
        b'<Cities xmlns="https://krazick.github.io/schema">'
        b'<CityInfo id="8" name="New York" type="3"/></Cities>'
    )
    assert cities == {8: "New York"}
    assert ge_colour("Maroon") == "#6e2717"
    with pytest.raises(ValueError):
        ge_colour("no colour")


def test_games_file() -> None:
    games = read_ge_games(reference("ge18xx", "18xx-Games.xml"))
    assert {"1830", "1830+", "1835", "1853", "1856", "1870"} <= set(games)
    g = games["1830"]
    assert g.first_token_cost == 40 and g.later_token_cost == 100 and g.players == (2, 6)
    assert [p.name for p in g.phases] == ["1.1", "2.1", "2.2", "3.1", "3.2", "3.3"]
    assert g.phases[3].tiles == ("yellow", "green", "brown") and g.phases[0].train_limit == 4
    diesel = g.trains[-1]
    assert diesel.name == "Diesel" and diesel.stops is None and diesel.rusts == ("4",)
    assert diesel.trade_in == ("4", "5", "6") and diesel.discount_price == 800
    assert games["1835"].token_type == "RangeCost"
    plus = {t.name: t for t in games["1835"].trains}["2+2"]
    assert plus.stops == 2 and plus.towns == 2
    assert len(games["1870"].trains) == 8  # the trains of <Variants> are not read
