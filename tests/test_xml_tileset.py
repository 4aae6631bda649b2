"""Tests of tilelay.xml.tileset: seed 000's TileSet XML read, written and filled."""

from __future__ import annotations

from pathlib import Path

import pytest

from tilelay.cli import main
from tilelay.errors import XMLFormatError
from tilelay.tile import Label, Tile
from tilelay.upgrades import upgrade_table
from tilelay.xml.tiledefs import read_tiledefs
from tilelay.xml.tileset import (
    CityMap,
    apply_upgrades,
    place_labels,
    read_tileset,
    tileset_to_xml,
)

SAMPLE = """<?xml version="1.0" encoding="UTF-8"?>
<TileManifest game="1856" variant="Normal" direction="NS">
  <TileSet color="Yellow">
    <Tile number="8" quantity="8">
      <Upgrade toNumber="16" rotations="0,5"/>
      <Upgrade toNumber="19" rotations="5"/>
    </Tile>
    <Tile number="57" quantity="4" override="true">
      <Upgrade toNumber="14" rotations="2,5" phases="5,6">
        <BaseTileName value="L" />
        <RevenueCenter from="50" to="50" />
      </Upgrade>
    </Tile>
  </TileSet>
  <TileSet color="Green">
    <Tile number="59" quantity="2">
      <Upgrade toNumber="64" rotations="0,2">
        <RevenueCenter from="13" to="13" rotation="0" />
        <RevenueCenter from="16" to="35" rotation="0" />
      </Upgrade>
    </Tile>
    <Tile number="16" quantity="1"/>
  </TileSet>
</TileManifest>
"""

DEFS = """<TileDefinitions>
  <Tile number="8" type="Yellow"><Track enter="1" exit="3" gauge="NORMAL"/></Tile>
  <Tile number="16" type="Green">
    <Track enter="1" exit="3" gauge="NORMAL"/>
    <Track enter="2" exit="4" gauge="OVERPASS"/>
    <Track enter="2" exit="4" gauge="NORMAL"/>
  </Tile>
  <Tile number="5" type="Yellow">
    <Track enter="2" exit="50" gauge="NORMAL"/>
    <Track enter="3" exit="50" gauge="NORMAL"/>
    <RevenueCenter id="-1" location="50" name="" number="1" type="Single City">
      <Revenue location="12" phase="0" value="20"/>
    </RevenueCenter>
  </Tile>
  <Tile number="14" type="Green">
    <Track enter="0" exit="50" gauge="NORMAL"/>
    <Track enter="2" exit="50" gauge="NORMAL"/>
    <Track enter="3" exit="50" gauge="NORMAL"/>
    <Track enter="5" exit="50" gauge="NORMAL"/>
    <RevenueCenter id="-1" location="50" name="" number="2" type="Double City">
      <Revenue location="12" phase="0" value="30"/>
    </RevenueCenter>
  </Tile>
</TileDefinitions>
"""


def test_read_structure() -> None:
    m = read_tileset(SAMPLE)
    assert m.game == "1856"
    assert [g.color for g in m.groups] == ["Yellow", "Green"]
    assert m.quantities() == {"8": 8, "57": 4, "59": 2, "16": 1}
    e8 = m.entry("8")
    assert e8 is not None
    assert [(u.to, u.rotations) for u in e8.upgrades] == [("16", (0, 5)), ("19", (5,))]
    u57 = m.entry("57")
    assert u57 is not None and u57.extra == (("override", "true"),)
    up = u57.upgrade("14")
    assert up is not None
    assert up.phases == ("5", "6") and up.base_tile_name == "L"
    assert up.cities == (CityMap(50, 50),)
    u59 = m.entry("59")
    assert u59 is not None
    assert u59.upgrades[0].cities[1] == CityMap(16, 35, 0)
    assert e8.upgrades[0].line == 5


def test_round_trip_is_stable() -> None:
    m = read_tileset(SAMPLE)
    text = tileset_to_xml(m)
    again = read_tileset(text)
    assert tileset_to_xml(again) == text
    assert again.entries()[1].upgrades[0].cities == m.entries()[1].upgrades[0].cities
    assert '\t\t\t<Upgrade toNumber="16" rotations="0,5" />' in text
    assert '<Tile number="57" quantity="4" override="true">' in text


def test_bare_tileset_root() -> None:
    m = read_tileset('<TileSet><Tile number="8" quantity="8"/></TileSet>')
    assert not m.grouped and m.quantities() == {"8": 8}
    assert '<TileSet>\n\t<Tile number="8" quantity="8" />\n</TileSet>' in tileset_to_xml(m)


@pytest.mark.parametrize(
    ("xml", "message", "line"),
    [
        ('<T>\n<Tile number="8" quantity="x"/></T>', "quantity='x' is not a whole number", 2),
        (
            '<T><Tile number="8">\n<Upgrade rotations="1"/></Tile></T>',
            "needs attribute toNumber",
            2,
        ),
        ('<T><Tile number="8"><Upgrade toNumber="9" rotations="7"/></Tile></T>', "out of range", 1),
        ('<T><Tile number="8"><Upgrade toNumber="9" rotations="a"/></Tile></T>', "0-5", 1),
        ('<T><Tile number="8"/>\n<Tile number="8"/></T>', "listed twice", 2),
        ('<T><Tile number="8"><Foo/></Tile></T>', "expected Upgrade", 1),
        ("<T><Tile", "malformed XML", 1),
    ],
)
def test_errors_name_the_line(xml: str, message: str, line: int) -> None:
    with pytest.raises(XMLFormatError) as info:
        read_tileset(xml, source="t.xml")
    assert message in str(info.value)
    assert info.value.line == line
    assert str(info.value).startswith(f"t.xml:{line}:")


def _defs() -> dict[str, Tile]:
    return {t.name: t for t in read_tiledefs(DEFS)}


def test_apply_upgrades_writes_rotations_and_cities() -> None:
    tiles = _defs()
    manifest = read_tileset(
        '<TileManifest game="x" direction="NS"><TileSet color="Yellow">'
        '<Tile number="8" quantity="8"><Upgrade toNumber="16" rotations="1"/></Tile>'
        '<Tile number="5" quantity="2"/></TileSet><TileSet color="Green">'
        '<Tile number="16" quantity="1"/><Tile number="14" quantity="1"/></TileSet>'
        "</TileManifest>"
    )
    table = upgrade_table(list(tiles.values()))
    out = apply_upgrades(manifest, table, tiles)
    e8 = out.entry("8")
    assert e8 is not None
    assert [(u.to, u.rotations) for u in e8.upgrades] == [("16", (0, 5))]  # hand 1 replaced
    e5 = out.entry("5")
    assert e5 is not None
    up = e5.upgrade("14")
    assert up is not None and up.cities == (CityMap(50, 50),)
    assert up.rotations == (0, 3)  # 14 has sides 0,2,3,5 (adjacent pairs 2-3, 5-0); 5 has 2-3
    text = tileset_to_xml(out)
    assert tileset_to_xml(read_tileset(text)) == text


def test_place_labels() -> None:
    tile = Tile(name="123", labels=(Label("Hamilton"),))
    assert place_labels(tile).location_name == "Hamilton"
    assert place_labels(tile).labels == ()
    oo = Tile(name="59", labels=(Label("OO"),))
    assert place_labels(oo) is oo


def test_cli_tileset_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    defs = tmp_path / "defs.xml"
    defs.write_text(DEFS, encoding="utf-8")
    ts = tmp_path / "ts.xml"
    ts.write_text(SAMPLE, encoding="utf-8")
    out = tmp_path / "out.xml"
    assert main(["tileset", "--tiles", str(defs), "--manifest", str(ts), "-o", str(out)]) == 0
    written = read_tileset(out)
    e8 = written.entry("8")
    assert e8 is not None and e8.upgrades[0].rotations == (0, 5)
    assert ts.read_text(encoding="utf-8") == SAMPLE  # the input is untouched
    assert main(["tileset", "--tiles", str(defs), "--manifest", str(ts), "--check"]) == 1
    text = capsys.readouterr().out
    assert "8 -> 19" in text and "hand-written upgrades agree" in text
    assert main(["tileset", "--tiles", str(defs), "--manifest", str(ts), "--json"]) == 0
    assert '"from": "8"' in capsys.readouterr().out
