"""The JSON form of tiles (tilelay.tile_json): round trips and errors naming the field."""

from __future__ import annotations

import json
import pathlib

import pytest

from tilelay import dsl
from tilelay.catalogue import get_tile, tile_names
from tilelay.cli import main
from tilelay.errors import TileModelError
from tilelay.hexgeo import Loc
from tilelay.tile import Color, Edge, Node, NodeKind, NodeRef, Path, Revenue, Tile, Track
from tilelay.tile_json import tile_from_dict, tile_to_dict


def test_json_round_trip_of_every_catalogue_tile() -> None:
    for name in tile_names():
        t = get_tile(name)
        data = json.loads(json.dumps(tile_to_dict(t)))
        assert tile_from_dict(data) == t, name


def test_json_keeps_fields_the_tile_language_lacks() -> None:
    t = Tile(
        name="54",
        color=Color.GREEN,
        location_name="New York",
        rotation=2,
        nodes=(
            Node(
                NodeKind.CITY,
                Revenue(0, (("1", 30), ("4", 40))),
                1,
                loc=Loc("location", 12),
                name="NY",
                revenue_loc=Loc("location", 17),
                revenue_layout="vertical",
            ),
        ),
        paths=(Path(Edge(0), NodeRef(0), track=Track.FERRY, over=True),),
    )
    assert tile_from_dict(tile_to_dict(t)) == t


ENGINE_FEATURES = [
    "halt=symbol:£,loc:0;town=revenue:10,boom:1,to_city:1,route:optional;path=a:0,b:_0;"
    "path=a:3,b:_1,track:thin;path=a:1,b:_1,track:future",
    "pass=revenue:0,slots:2,visit_cost:0,color:brown,size:2;path=a:0,b:_0",
    "offboard=revenue:yellow_10|green_20,format:+%d,rows:2,route:never;path=a:2,b:2,terminal:1",
    "city=revenue:0,slots:0,outline:1;stub=edge:4;future_label=label:P,color:brown",
    "partition=a:4-,b:1+,type:water,restrict:inner,length:0.5;border=edge:0,type:divider,"
    "color:red;icon=image:cube,large:1;upgrade=cost:10,terrain:cow_skull,size:40",
]


@pytest.mark.parametrize("code", ENGINE_FEATURES)
def test_json_round_trip_of_the_engine_features(code: str) -> None:
    t = dsl.parse(code, color="gray50")
    for tile in (t, t.rotated(2)):
        data = json.loads(json.dumps(tile_to_dict(tile)))
        assert tile_from_dict(data) == tile


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"color": "magenta"}, "tile.color: expected one of"),
        ({"nodes": [{"kind": "castle"}]}, "tile.nodes[0].kind"),
        ({"nodes": [], "paths": [{"a": "0", "b": "_0"}]}, "refers to node _0"),
        ({"paths": [{"a": "9", "b": "0"}]}, "tile.paths[0].a: expected an edge"),
        ({"paths": [{"a": "0", "b": "1", "a_lane": [2, 2]}]}, "tile.paths[0].a_lane"),
        ({"colour": "red"}, "tile.colour: unknown field"),
        ({"stubs": [9]}, "tile.stubs[0]: expected a whole number from 0 to 5, got 9"),
        ({"partitions": [{"a": 0, "b": 3, "a_sign": 2}]}, "tile.partitions[0].a_sign"),
        ({"partitions": [{"a": 0, "b": 3, "length": "half"}]}, "partitions[0].length"),
        ({"nodes": [{"kind": "town", "route": "maybe"}]}, "tile.nodes[0].route"),
        ({"future_label": {"color": "mauve"}}, "tile.future_label.color"),
        ([1, 2], "tile: expected an object"),
    ],
)
def test_json_errors_name_the_field(data: object, words: str) -> None:
    with pytest.raises(TileModelError) as info:
        tile_from_dict(data, source="t.json")
    assert words in str(info.value)
    assert str(info.value).startswith("t.json: ")


_CITY = {"name": "x", "color": "yellow", "nodes": [{"kind": "city", "revenue": 20}]}


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (
            {**_CITY, "nodes": [{"kind": "city", "revenue": 20, "slot": 2}]},
            "tile.nodes[0].slot: unknown field (did you mean: slots?)",
        ),
        (
            {**_CITY, "nodes": [{"kind": "city", "locc": "1"}]},
            "tile.nodes[0].locc: unknown field (did you mean: loc?)",
        ),
        (
            {**_CITY, "paths": [{"a": "0", "b": "_0", "trak": "narrow"}]},
            "tile.paths[0].trak: unknown field (did you mean: track?)",
        ),
        ({**_CITY, "labels": [{"text": "OO", "lco": "1"}]}, "tile.labels[0].lco: unknown"),
        ({**_CITY, "upgrades": [{"cost": 40, "terrain": ["hill"]}]}, "(did you mean: terrains?)"),
        ({**_CITY, "borders": [{"edge": 1, "typ": "water"}]}, "tile.borders[0].typ: unknown"),
        ({**_CITY, "partitions": [{"a": 0, "b": 3, "sign": 1}]}, "tile.partitions[0].sign"),
        ({**_CITY, "future_label": {"label": "P"}}, "tile.future_label.label: unknown field"),
        ({**_CITY, "icons": [{"image": "port", "larg": True}]}, "(did you mean: large?)"),
        ({**_CITY, "frame": {"color": "red", "colour2": "blue"}}, "(did you mean: color2, color?)"),
        ({**_CITY, "nodes": [{"kind": "city", "zzz": 1}]}, "unknown field; expected one of boom"),
    ],
)
def test_unknown_fields_are_refused_everywhere(data: object, words: str) -> None:
    """A typo in a node, path or any object of the tile (``slot`` for ``slots``) was read as
    nothing: a city of 0 slots. It is refused as at the top level, naming the JSON path."""
    with pytest.raises(TileModelError) as info:
        tile_from_dict(data, source="t.json")
    assert str(info.value).startswith("t.json: ")
    assert words in str(info.value)


def test_a_typo_in_a_json_tile_fails_the_conversion(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "t.json"
    src.write_text(
        '{"name":"x","color":"yellow","nodes":[{"kind":"city","revenue":20,"slot":2}],'
        '"paths":[{"a":"0","b":"_0"}]}'
    )
    assert main(["convert", str(src), "--to", "dsl"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert "tile.nodes[0].slot: unknown field (did you mean: slots?)" in err


def test_texts_hold_no_control_characters_in_json_either() -> None:
    """As in the tile language, a tab or line break in a text is refused (it was kept)."""
    for text in ("A\nB", "A\tB", "A\x01B"):
        with pytest.raises(TileModelError, match=r"label .* holds the control character U\+00"):
            tile_from_dict({"labels": [{"text": text}]})
