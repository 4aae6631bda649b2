"""Rails' Map.xml, CompanyManager.xml and game options (tilelay.xml.rails_map,
rails_companies, rails_options)."""

from __future__ import annotations

import pytest

from tests.conftest import reference
from tilelay.errors import XMLFormatError
from tilelay.hexgeo import Layout
from tilelay.xml.rails import read_rails_tileset
from tilelay.xml.rails_companies import rails_colour, read_rails_companies
from tilelay.xml.rails_map import rails_coord, read_rails_map
from tilelay.xml.rails_options import OptionResolver, game_options
from tilelay.xml.safe import parse_xml

MAP = b"""<Map tileOrientation="EW" letterOrientation="vertical" even="B">
  <Defaults><Access type="city" runTo="yes"/></Defaults>
  <Hex name="A9" tile="-901" orientation="1" value="30,50" city="Canadian West"/>
  <Hex name="B16" tile="-10" impassable="C17, C15"/>
  <Hex name="B18" tile="0" river="C17"/>
  <IfOption name="Variant" value="Basegame,Simple">
    <Hex name="F2" tile="-903" orientation="5" value="40,70" city="Chicago"/>
  </IfOption>
  <IfOption name="Variant" value="Wabash">
    <Hex name="F2" tile="0"/>
  </IfOption>
  <Hex name="U99" tile="0" cost="80,120" ciry="Nowhere"/>
  <Hex name="R14" tile="0"><IfOption name="Include" parm="Unit2" value="yes">
    <Attributes reserved="MR"/></IfOption></Hex>
  <Hex name="Q1" tile="-1" label="OO" unknownThing="x"><Access runThrough="no"/></Hex>
</Map>"""


def test_map_hexes_with_options() -> None:
    m = read_rails_map(MAP, source="Map.xml", options={"Variant": "Basegame"})
    assert m.layout is Layout.POINTY and not m.letter_is_x
    by = {h.coord: h for h in m.hexes}
    assert set(by) == {"A9", "B16", "B18", "F2", "U-1", "R14", "Q1"}
    assert by["A9"].values == (30, 50) and by["A9"].orientation == 1
    assert by["A9"].city == "Canadian West"
    assert by["F2"].tile == "-903"
    assert by["B16"].impassable == ("C17", "C15")
    assert by["B18"].rivers == ("C17",) and by["B18"].impassable == ()
    assert by["U-1"].name == "U99" and by["U-1"].costs == (80, 120)
    assert by["U-1"].city == "Nowhere"  # misspelt 'ciry', read and reported
    assert by["R14"].reserved is None  # Include_Unit2 is a toggle: "no" by default
    assert by["Q1"].label == "OO"
    text = [str(w) for w in m.warnings]
    assert any("'ciry' read as 'city'" in w and w.startswith("Map.xml:") for w in text)
    assert any("unknown attribute 'unknownThing'" in w for w in text)
    assert any("<Access> not read" in w for w in text)
    wabash = read_rails_map(MAP, options={"Variant": "Wabash", "Include_Unit2": "yes"})
    by = {h.coord: h for h in wabash.hexes}
    assert by["F2"].tile == "0" and by["R14"].reserved == "MR"


def test_map_errors_name_file_and_line() -> None:
    with pytest.raises(XMLFormatError, match="tileOrientation") as info:
        read_rails_map(b'<Map letterOrientation="vertical"/>', source="m.xml")
    assert str(info.value).startswith("m.xml:1:")
    twice = b"""<Map tileOrientation="NS" letterOrientation="horizontal">
<Hex name="A1" tile="0"/>
<Hex name="A1" tile="0"/></Map>"""
    with pytest.raises(XMLFormatError, match="defined twice") as info:
        read_rails_map(twice, source="m.xml")
    assert info.value.line == 3
    with pytest.raises(XMLFormatError, match="cost"):
        read_rails_map(
            b'<Map tileOrientation="NS" letterOrientation="horizontal">'
            b'<Hex name="A1" tile="0" cost="a lot"/></Map>'
        )
    with pytest.raises(XMLFormatError, match="entity"):
        read_rails_map(b'<!DOCTYPE m [<!ENTITY e "x">]><Map tileOrientation="NS"/>')


def test_rails_coordinates() -> None:
    assert rails_coord("K8") == "K8"
    assert rails_coord("U99") == "U-1"
    assert rails_coord("AA97") == "AA-3"
    assert rails_coord("[66") == "AA66"
    with pytest.raises(ValueError, match="row @"):
        rails_coord("@18")
    with pytest.raises(ValueError, match="letters and a number"):
        rails_coord("K")


def test_option_resolver() -> None:
    root = parse_xml(
        b"""<X a="1"><IfOption name="V" value="p,q"><Attributes a="2"/><Y/></IfOption>
        <IfOption name="T" value="yes"><Z/></IfOption>
        <IfOption name="W" value="one,two"><W/></IfOption>
        <IfOption name="I" parm="U1" value="yes"><U/></IfOption></X>"""
    )
    r = OptionResolver({"V": "Q", "I_U1": "yes"}, "x.xml")
    assert [c.tag for c in r.children(root)] == ["Y", "U"]
    assert r.attributes(root) == {"a": "2"}
    assert len(r.warnings) == 1 and "'W' has no known default" in str(r.warnings[0])
    with pytest.raises(XMLFormatError, match="no value"):
        OptionResolver({}).applies(parse_xml(b'<IfOption name="V"/>'))


def test_game_options_of_the_shared_games() -> None:
    d = reference("rails", "1825")
    options = game_options(d)
    assert options["Include_Unit1"] == "yes" and options["Include_Unit2"] == "no"
    assert game_options(reference("rails", "1830"))["Variant"] == "Basegame"
    assert game_options(d, chosen={"Include_Unit2": "yes"})["Include_Unit2"] == "yes"


def test_tileset_with_options() -> None:
    path = reference("rails", "1830", "TileSet.xml")
    base = read_rails_tileset(path, options={"Variant": "Basegame"})
    assert base["57"].quantity == 4 and "2053" not in {
        i for u in base["-11"].upgrades for i in u.ids
    }
    coal = read_rails_tileset(path, options={"Variant": "Coalfields"})
    assert coal["57"].quantity == 6
    assert all(u.condition is None for e in coal.values() for u in e.upgrades)


COMPANIES = b"""<CompanyManager>
  <CompanyType name="Private" class="net.sf.rails.game.PrivateCompany"/>
  <CompanyType name="Public" class="net.sf.rails.game.PublicCompany">
    <Float percentage="60"/>
    <BaseTokens><LayCost method="sequence" cost="0,40,100"/></BaseTokens>
  </CompanyType>
  <CompanyType name="Minor" class="net.sf.rails.game.PublicCompany">
    <BaseTokens><LayCost method="distance" cost="20"/></BaseTokens>
  </CompanyType>
  <Company name="B&amp;O" type="Private" basePrice="220" revenue="30" longname="Baltimore">
    <Blocking hex="I13,I15"/></Company>
  <Company name="G" type="Private" basePrice="150" revenue="30,50"/>
  <Company name="PRR" type="Public" tokens="4" fgColour="FFFFFF" bgColour="0,128,0"
      longname="Pennsylvania"><Home hex="H12"/></Company>
  <Company name="NYNH" type="Public" tokens="2" fgColour="000000" bgColour="FF8000">
    <Home hex="G19" city="2"/></Company>
  <Company name="1" type="Minor" tokens="2"><Home hex="D10,E15" city="0"/></Company>
  <IfOption name="Variant" value="Simple">
    <Company name="MILW" type="Public" tokens="3"><Home hex="D2"/></Company>
  </IfOption>
</CompanyManager>"""


def test_companies() -> None:
    c = read_rails_companies(COMPANIES, source="cm.xml", options={"Variant": "Basegame"})
    assert [p.sym for p in c.privates] == ["B&O", "G"]
    assert c.privates[0].blocks == ("I13", "I15") and c.privates[0].value == 220
    assert c.privates[1].revenue == (30, 50)
    pubs = {p.sym: p for p in c.publics}
    assert set(pubs) == {"PRR", "NYNH", "1"}
    prr = pubs["PRR"]
    assert prr.homes == ("H12",) and prr.token_costs == (0, 40, 100, 100)
    assert prr.color == "#008000" and prr.text_color == "#ffffff" and prr.float_percent == 60
    assert pubs["NYNH"].home_city == 2 and pubs["NYNH"].token_costs == (0, 40)
    assert pubs["1"].homes == ("D10", "E15") and pubs["1"].home_city is None
    assert pubs["1"].lay_cost == "distance 20" and pubs["1"].token_costs == ()
    with pytest.raises(XMLFormatError, match="unknown type"):
        read_rails_companies(b'<CompanyManager><Company name="X" type="Nope"/></CompanyManager>')


def test_rails_colours() -> None:
    assert rails_colour("60E060") == "#60e060"
    assert rails_colour("255,255,255") == "#ffffff"
    assert rails_colour(None) is None
    with pytest.raises(ValueError):
        rails_colour("blue")


def test_every_shared_map_and_company_file_reads() -> None:
    root = reference("rails")
    maps = sorted(root.glob("*/Map.xml"))
    assert len(maps) == 21
    for path in maps:
        assert read_rails_map(path, options=game_options(path.parent)).hexes
    for path in sorted(root.glob("*/CompanyManager.xml")):
        assert read_rails_companies(path, options=game_options(path.parent)).publics
