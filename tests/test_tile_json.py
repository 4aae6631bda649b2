"""The JSON form of tiles (tilelay.tile_json): round trips and errors naming the field."""

from __future__ import annotations

import json

import pytest

from tilelay import dsl
from tilelay.catalogue import get_tile, tile_names
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
        ({"stubs": [9]}, "stub at 9, expected 0-5"),
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
