"""Checking hand-written tile sets against computed upgrades (tilelay.xml.tileset_check)."""

from __future__ import annotations

from tests.test_xml_tileset import DEFS
from tilelay.tile import Tile
from tilelay.upgrades import rules_for, upgrade_table
from tilelay.xml.tiledefs import read_tiledefs
from tilelay.xml.tileset import read_tileset, tileset_to_xml
from tilelay.xml.tileset_check import check_tileset


def _defs() -> dict[str, Tile]:
    return {t.name: t for t in read_tiledefs(DEFS)}


def test_check_reports_differences_with_reasons() -> None:
    tiles = _defs()
    manifest = read_tileset(
        '<TileManifest><TileSet color="Yellow">'
        '<Tile number="8" quantity="8"><Upgrade toNumber="16" rotations="0,1"/></Tile>'
        '<Tile number="5" quantity="2"><Upgrade toNumber="16" rotations="0"/></Tile>'
        '</TileSet><TileSet color="Green">'
        '<Tile number="16" quantity="1"/><Tile number="14" quantity="1"/></TileSet>'
        "</TileManifest>"
    )
    report = check_tileset(manifest, tiles, rules_for(None))
    assert report.listed == 2 and report.agreeing == 0
    kinds = {(f.old, f.new): f for f in report.findings}
    f816 = kinds[("8", "16")]
    assert f816.kind == "rotations" and f816.computed == (0, 5)
    assert "rotation 1 is illegal" in f816.reason and "omits rotation 5" in f816.reason
    assert kinds[("5", "16")].kind == "only-hand"
    assert kinds[("5", "14")].kind == "only-computed"


def test_check_folds_symmetric_rotations() -> None:
    tiles = _defs()
    manifest = read_tileset(
        '<TileManifest><TileSet color="Yellow">'
        '<Tile number="5" quantity="2"><Upgrade toNumber="14" rotations="0,1,2,3,4,5"/></Tile>'
        '</TileSet><TileSet color="Green"><Tile number="14" quantity="1"/></TileSet>'
        "</TileManifest>"
    )
    report = check_tileset(manifest, tiles, rules_for(None))
    assert report.agreeing == 0  # illegal rotations listed
    exact = upgrade_table(list(tiles.values()))
    rots = next(u.rotations for u in exact if (u.old, u.new) == ("5", "14"))
    sym = tileset_to_xml(manifest).replace("0,1,2,3,4,5", ",".join(str(r) for r in rots))
    assert check_tileset(read_tileset(sym), tiles, rules_for(None)).agreeing == 1
