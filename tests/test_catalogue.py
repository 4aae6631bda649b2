"""The built-in catalogue of generic tiles."""

from __future__ import annotations

import json

import pytest

from tests.conftest import reference
from tilelay import dsl
from tilelay.catalogue import get_tile, tile_codes, tile_names, tiles
from tilelay.errors import NotFoundError
from tilelay.tile import Color, NodeKind


def test_well_known_tiles() -> None:
    t57 = get_tile("57")
    assert t57.color is Color.YELLOW
    assert [n.kind for n in t57.nodes] == [NodeKind.CITY]
    assert t57.exits() == {0, 3}
    t611 = get_tile("611")
    assert t611.color is Color.BROWN and t611.cities[0].slots == 2
    assert len(t611.exits()) == 5
    assert get_tile("9").exits() == {0, 3} and get_tile("9").nodes == ()
    assert get_tile("57", rotation=1).exits() == {1, 4}


def test_names_are_in_natural_order_and_all_load() -> None:
    names = tile_names()
    assert names.index("2") < names.index("10") < names.index("100")
    assert len(tiles()) == len(names) == len(tile_codes())


def test_catalogue_strings_are_canonical() -> None:
    for name, (color, code) in tile_codes().items():
        assert dsl.write(dsl.parse(code, color=color)) == code, name


def test_unknown_tile_suggests_close_names() -> None:
    with pytest.raises(NotFoundError) as info:
        get_tile("5777")
    assert "57" in info.value.suggestions
    assert "did you mean" in str(info.value)


def test_catalogue_holds_the_same_tiles_as_the_reference() -> None:
    data = json.loads(reference("18xxgames", "generic_tiles.json").read_text())
    assert set(data) == set(tile_codes())
    for name, entry in data.items():
        ref = dsl.parse(entry["code"], name=name, color=entry["color"])
        assert get_tile(name) == ref, name
