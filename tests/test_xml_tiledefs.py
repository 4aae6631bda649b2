"""Seed 000's Tile Definitions: the seed's examples, the ge18xx files, round trips, bad input."""

from __future__ import annotations

import pytest

from tests.conftest import REFERENCE
from tilelay import catalogue
from tilelay.errors import XMLFormatError
from tilelay.hexgeo import Loc
from tilelay.tile import Edge, NodeKind, NodeRef, Track
from tilelay.xml import load_tiles
from tilelay.xml.tiledefs import read_tiledefs, write_tiledefs

REF = REFERENCE
GE = REF / "ge18xx" / "Tiles"
COLOURS = ("Yellow", "Green", "Brown", "Grey", "Other")

SEED = b"""<Tiles>
<Tile number="8" type="Yellow"><Track enter="1" exit="3" gauge="NORMAL"/></Tile>
<Tile number="16" type="Green">
 <Track enter="1" exit="3" gauge="NORMAL"/>
 <Track enter="2" exit="4" gauge="OVERPASS"/>
 <Track enter="2" exit="4" gauge="NORMAL"/>
</Tile>
<Tile number="54" type="Green">
 <TileName location="14" name="NY"/>
 <Track enter="0" exit="12" gauge="NORMAL"/>
 <Track enter="5" exit="12" gauge="NORMAL"/>
 <Track enter="3" exit="16" gauge="NORMAL"/>
 <Track enter="4" exit="16" gauge="NORMAL"/>
 <RevenueCenter id="-1" location="12" name="" number="1" type="Single City">
  <Revenue location="17" phase="0" value="60"/></RevenueCenter>
 <RevenueCenter id="-1" location="16" name="" number="1" type="Single City">
  <Revenue location="17" phase="0" value="60"/></RevenueCenter>
</Tile>
<Tile number="9992" type="Red Off Board">
 <Track enter="2" exit="99" gauge="NORMAL"/>
 <Track enter="3" exit="99" gauge="NORMAL"/>
 <RevenueCenter id="-1" location="99" name="" number="0" type="Dead-End Only City">
  <Revenue location="50" phase="1" value="30" layout="vertical"/>
  <Revenue location="50" phase="4" value="40" layout="vertical"/>
  <Revenue location="50" phase="6" value="50" layout="vertical"/>
 </RevenueCenter>
</Tile>
</Tiles>"""


def seed_tiles() -> dict[str, object]:
    return {t.name: t for t in read_tiledefs(SEED)}


def test_tile_8_and_16_overpass_in_the_middle() -> None:
    tiles = {t.name: t for t in read_tiledefs(SEED)}
    t8 = tiles["8"]
    assert [(p.a, p.b) for p in t8.paths] == [(Edge(4), Edge(0))]  # sides 1, 3 -> edges 4, 0
    t16 = tiles["16"]
    assert len(t16.paths) == 2  # OVERPASS is a drawing directive on the second track
    assert [p.over for p in t16.paths] == [False, True]
    assert t16.paths[1].ends == (Edge(5), Edge(1))
    text = write_tiledefs([t16])
    lines = [ln.strip() for ln in text.splitlines() if "<Track" in ln]
    assert lines == [
        '<Track enter="1" exit="3" gauge="NORMAL"/>',
        '<Track enter="2" exit="4" gauge="OVERPASS"/>',
        '<Track enter="2" exit="4" gauge="NORMAL"/>',
    ]
    assert t16.same_topology_up_to_rotation(catalogue.get_tile("16"))


def test_tile_54_cities_at_near_corners() -> None:
    t = {t.name: t for t in read_tiledefs(SEED)}["54"]
    assert [n.kind for n in t.nodes] == [NodeKind.CITY, NodeKind.CITY]
    assert t.labels[0].text == "NY" and t.labels[0].loc == Loc("corner", 4.5)  # location 14
    assert {t.node_exits(0), t.node_exits(1)} == {frozenset({2, 3}), frozenset({0, 1})}
    assert t.same_topology_up_to_rotation(catalogue.get_tile("54"))
    assert t.nodes[0].revenue is not None and t.nodes[0].revenue.value == 60


def test_tile_9992_three_phased_revenues_vertical() -> None:
    t = {t.name: t for t in read_tiledefs(SEED)}["9992"]
    (node,) = t.nodes
    assert node.kind is NodeKind.OFFBOARD
    assert node.revenue is not None
    assert node.revenue.phases == (("1", 30), ("4", 40), ("6", 50))
    assert node.revenue_layout == "vertical"
    assert all(p.b == NodeRef(0) for p in t.paths)


def test_write_read_is_equal_and_stable() -> None:
    tiles = read_tiledefs(SEED)
    text = write_tiledefs(tiles)
    again = read_tiledefs(text)
    assert again == tiles
    assert write_tiledefs(again) == text


def test_single_tile_root() -> None:
    (t,) = read_tiledefs(b'<Tile number="8" type="Yellow"><Track enter="1" exit="3"/></Tile>')
    assert t.name == "8"


@pytest.mark.parametrize(
    ("xml", "needle"),
    [
        (
            b'<T><Tile number="1" type="Yellow"><Track enter="0" exit="3" gauge="X"/></Tile></T>',
            "unknown gauge",
        ),
        (
            b'<T><Tile number="1" type="Yellow"><Track enter="0" exit="47"/></Tile></T>',
            "out of range",
        ),
        (
            b'<T><Tile number="1" type="Yellow">\n<Track enter="0" exit="14"/></Tile></T>',
            "missing revenue centre",
        ),
        (b'<!DOCTYPE x [<!ENTITY a "aaaa">]><T/>', "entity"),
    ],
)
def test_bad_input_names_what_is_wrong(xml: bytes, needle: str) -> None:
    with pytest.raises(XMLFormatError) as info:
        read_tiledefs(xml, source="bad.xml")
    assert needle in str(info.value)
    assert str(info.value).startswith("bad.xml")


def test_missing_revenue_centre_error_has_line() -> None:
    bad = b'<T><Tile number="1" type="Yellow">\n<Track enter="0" exit="14"/></Tile></T>'
    with pytest.raises(XMLFormatError) as info:
        read_tiledefs(bad, source="f.xml")
    assert info.value.line == 2


def _ge_tiles() -> list[object]:
    if not GE.is_dir():
        pytest.skip(f"reference data absent: {GE}")
    out = []
    for c in COLOURS:
        out += load_tiles(GE / f"{c}-Tile-Definitions.xml")
    return out


# tiles whose numbers the generic catalogue also uses but whose track differs, and why
GE_DIFFERENCES = {
    "80": "ge18xx draws the junction as three side-to-side tracks (same connections)",
    "81": "as 80",
    "82": "as 80",
    "83": "as 80",
    "104": "1870's CD tile: six one-slot cities, the catalogue's 104 one city with six exits",
    "110": "as 104",
    "221": "1835's Hamburg: a double and a single city joined by a tunnel; catalogue: one city",
}


def test_ge18xx_files_read_roundtrip_and_match_catalogue() -> None:
    from tilelay.convert import same_connections_up_to_rotation

    tiles = _ge_tiles()
    assert len(tiles) == 231
    text = write_tiledefs(tiles)  # type: ignore[arg-type]
    assert read_tiledefs(text) == tiles
    names = set(catalogue.tile_names())
    differ = set()
    same = 0
    for t in tiles:
        if t.name in names:  # type: ignore[attr-defined]
            g = catalogue.get_tile(t.name)  # type: ignore[attr-defined]
            if t.same_topology_up_to_rotation(g):  # type: ignore[attr-defined]
                same += 1
            else:
                differ.add(t.name)  # type: ignore[attr-defined]
    assert differ == set(GE_DIFFERENCES)
    assert same == 145
    for n in ("80", "81", "82", "83"):
        t = next(x for x in tiles if x.name == n)  # type: ignore[attr-defined]
        assert same_connections_up_to_rotation(t, catalogue.get_tile(n))  # type: ignore[arg-type]


def test_ge18xx_gauges_and_dead_ends() -> None:
    tiles = {t.name: t for t in _ge_tiles()}  # type: ignore[attr-defined]
    t221 = tiles["221"]
    assert Track.TUNNEL in {p.track for p in t221.paths}
    t721 = tiles["721"]
    assert [p.track for p in t721.paths] == [Track.FERRY]  # FERRY BASE is implied
    t9990 = tiles["9990"]  # dead-end track without a Dead-End Only City: a junction
    assert t9990.nodes[-1].kind is NodeKind.JUNCTION
