"""Property-based fuzzing of every reader of user input and of the web app (hypothesis).

Every reader (the tile language, JSON tiles, seed 000's tile definitions and tile sets, Rails'
tiles, tile sets and Game.xml, recorded games and their replay, actions, the command line) is
given inputs built from valid ones and then broken (huge and odd numbers, '²', control
characters, wrong types, deep nesting, other encodings, entity declarations, truncation); the
shared fixtures (real records of many games) are replayed with actions taken out, swapped,
repeated or with a field changed, and boards branched off them edited through the board API;
the web app is sent random paths, query parameters, forms and bodies. The properties:

* a reader either reads the input or raises :class:`~tilelay.errors.TilelayError`, nothing
  else (no ``ValueError``, ``TypeError``, ``RecursionError``…);
* the web app answers anything with a status below 500, and under ``/api/`` with the one JSON
  error shape ``{error, status, suggestions}``;
* what is read writes and reads back equal: tile strings, JSON tiles, seed-000 XML, tile sets,
  Rails trains.

In CI each test runs :data:`EXAMPLES` examples (derandomized, so the run is the same every
time). A longer run sets ``TILELAY_FUZZ_EXAMPLES`` (examples per test, randomized), e.g.::

    TILELAY_FUZZ_EXAMPLES=15000 .venv/bin/python -m pytest -q -s tests/test_fuzz.py

which tries about 15,000 inputs for each of the 19 tests (a few run out of distinct inputs
sooner) and prints how many it tried in all.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from tests.conftest import REFERENCE, engine_games_known
from tilelay import dsl
from tilelay.actions import parse_action
from tilelay.audit import audit_record
from tilelay.cli import main
from tilelay.convert import read as convert_read
from tilelay.convert import write as convert_write
from tilelay.errors import TilelayError
from tilelay.games import load_game
from tilelay.limits import whole
from tilelay.replay import read_record, replay
from tilelay.tile_json import tile_from_dict, tile_to_dict
from tilelay.web import create_app
from tilelay.web.errors import WebError
from tilelay.web.params import parse_int, parse_rotations
from tilelay.xml import rails, tiledefs
from tilelay.xml.rails_game import read_rails_game, write_rails_trains
from tilelay.xml.tileset import read_tileset, tileset_to_xml

LONG = int(os.environ.get("TILELAY_FUZZ_EXAMPLES", "0") or 0)
#: Examples per test in CI (a few seconds for the whole file).
EXAMPLES = LONG or 40

FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=not LONG,
    database=None,
    suppress_health_check=list(HealthCheck),
)

#: How many inputs each test tried (printed at the end of a long run).
TRIED: Counter[str] = Counter()


@pytest.fixture(scope="module", autouse=True)
def _count() -> Iterator[None]:
    yield
    if LONG:
        total = sum(TRIED.values())
        each = ", ".join(f"{k} {v:,}" for k, v in TRIED.items())
        print(f"\nfuzz: {total:,} inputs tried ({each})")


def _reads(fn: Callable[[], Any]) -> Any:
    """``fn()``'s value, or ``None`` when it raised TilelayError (anything else fails)."""
    try:
        return fn()
    except TilelayError as err:
        assert str(err), "an error must say something"
        assert "Traceback" not in str(err)
        return None


# ------------------------------------------------------------------------------ values

#: Text that breaks readers: odd digits, huge numbers, signs, control characters, markup.
HOSTILE_TEXT = st.sampled_from(
    [
        "",
        " ",
        "-",
        "²",
        "-²",
        "٣",
        "1_000",
        "+5",
        "0x10",
        "1e400",
        "nan",
        "inf",
        "9" * 5000,
        "-" + "9" * 30,
        "\x00",
        "\x01",
        "\ud800",
        "\ufffe",
        "a;b",
        "a,b",
        "a|b",
        "_",
        "_99",
        "L99",
        "5.5",
        "<x>",
        "&amp;",
        "]]>",
        "é",
        "..",
        "/",
        "%2e%2e",
        "x" * 300,
    ]
)
SMALL_INT = st.integers(min_value=-3, max_value=12)
ANY_INT = st.one_of(SMALL_INT, st.integers(), st.sampled_from([10**20, -(10**20), 2**63]))
NUMBER_TEXT = st.one_of(SMALL_INT.map(str), ANY_INT.map(str), HOSTILE_TEXT)
JSON_LEAF = st.one_of(
    st.none(),
    st.booleans(),
    ANY_INT,
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
    HOSTILE_TEXT,
)
JSON_VALUE = st.recursive(
    JSON_LEAF,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)


def _deep(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


# ------------------------------------------------------------------------------ tile strings

EDGE = st.sampled_from("012345")


@st.composite
def tile_strings(draw: st.DrawFn) -> str:
    """Tile strings mostly of valid parts, with values now and then broken."""
    parts: list[str] = []
    nodes = 0

    def value(good: st.SearchStrategy[str]) -> str:
        return draw(st.one_of(good, good, good, NUMBER_TEXT))

    for _ in range(draw(st.integers(0, 7))):
        kind = draw(
            st.sampled_from(
                [
                    *("city", "town", "offboard", "junction", "path", "path", "label"),
                    *("upgrade", "border", "icon", "frame", "stripes", "blank", "bogus"),
                    *("halt", "pass", "stub", "partition", "future_label"),
                ]
            )
        )
        subs: list[str] = []
        if kind in ("city", "town", "offboard"):
            revenue = st.one_of(
                st.integers(-100, 300).map(str),
                st.lists(
                    st.tuples(st.sampled_from(["yellow", "green", "brown", "gray"]), SMALL_INT),
                    min_size=1,
                    max_size=3,
                ).map(lambda ps: "|".join(f"{p}_{v * 10}" for p, v in ps)),
            )
            subs.append(f"revenue:{value(revenue)}")
            if kind == "city" and draw(st.booleans()):
                subs.append(f"slots:{value(st.integers(1, 4).map(str))}")
            if kind == "town" and draw(st.booleans()):
                subs.append(f"style:{value(st.sampled_from(['rect', 'dot', 'hidden']))}")
            if draw(st.booleans()):
                subs.append(f"loc:{value(st.sampled_from(['center', '0', '1.5', 'L3', '5']))}")
            if draw(st.booleans()):
                subs.append(f"groups:{value(st.sampled_from(['NY', 'A|B']))}")
            if draw(st.booleans()):
                subs.append(f"hide:{value(st.sampled_from(['0', '1']))}")
            nodes += 1
        elif kind == "junction":
            nodes += 1
        elif kind == "halt":
            subs.append(f"symbol:{value(st.sampled_from(['£', 'H']))}")
            if draw(st.booleans()):
                subs.append(f"route:{value(st.sampled_from(['optional', 'never']))}")
            nodes += 1
        elif kind == "pass":
            subs.append(f"revenue:{value(st.integers(0, 40).map(str))}")
            if draw(st.booleans()):
                subs.append(f"size:{value(st.integers(1, 3).map(str))}")
            if draw(st.booleans()):
                subs.append(f"loc:{value(st.sampled_from(['4.5', '7', '3.0', '99.5']))}")
            nodes += 1
        elif kind == "stub":
            subs.append(f"edge:{value(EDGE)}")
        elif kind == "partition":
            subs += [f"a:{value(EDGE)}", f"b:{value(st.sampled_from(['3', '4+', '5-']))}"]
            if draw(st.booleans()):
                subs.append(f"type:{value(st.sampled_from(['water', 'divider']))}")
            if draw(st.booleans()):
                subs.append(f"length:{value(st.sampled_from(['0.5', '1', '0.25']))}")
        elif kind == "future_label":
            subs.append(f"label:{value(st.sampled_from(['P', 'Chi']))}")
            subs.append(f"color:{value(st.sampled_from(['brown', 'gray']))}")
        elif kind == "path":
            ends = EDGE | st.integers(0, max(nodes, 1)).map(lambda n: f"_{n}")
            subs += [f"a:{value(ends)}", f"b:{value(ends)}"]
            if draw(st.booleans()):
                subs.append(f"terminal:{value(st.sampled_from(['1', '2']))}")
            if draw(st.booleans()):
                subs.append(f"lanes:{value(st.integers(1, 3).map(str))}")
            if draw(st.booleans()):
                subs.append(f"track:{value(st.sampled_from(['broad', 'narrow', 'dual']))}")
            if draw(st.integers(0, 5)) == 0:
                subs.append(f"a_lane:{value(st.sampled_from(['2.0', '2.1', '1.0']))}")
        elif kind == "label":
            parts.append("label=" + value(st.sampled_from(["Y", "OO", "NY", "B-V"])))
            continue
        elif kind == "upgrade":
            subs.append(f"cost:{value(st.integers(0, 120).map(str))}")
            if draw(st.booleans()):
                subs.append(f"terrain:{value(st.sampled_from(['mountain', 'water|hill']))}")
        elif kind == "border":
            subs.append(f"edge:{value(EDGE)}")
            if draw(st.booleans()):
                subs.append(f"type:{value(st.sampled_from(['mountain', 'water']))}")
            if draw(st.booleans()):
                subs.append(f"cost:{value(st.integers(0, 40).map(str))}")
        elif kind == "icon":
            subs.append(f"image:{value(st.sampled_from(['port', 'mine']))}")
        elif kind == "frame":
            subs.append(f"color:{value(st.sampled_from(['red', '#123456']))}")
        elif kind == "stripes":
            subs.append(f"color:{value(st.sampled_from(['brown', 'gray']))}")
        parts.append(f"{kind}=" + ",".join(draw(st.permutations(subs))) if subs else kind)
    text = ";".join(parts)
    if draw(st.integers(0, 6)) == 0:  # break it somewhere
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.one_of(HOSTILE_TEXT, st.text(max_size=4))) + text[at:]
    return text


COLORS = st.one_of(
    st.sampled_from(["white", "yellow", "green", "brown", "gray", "greenbrown"]), HOSTILE_TEXT
)


@FUZZ
@given(tile_strings(), COLORS)
def test_tile_language_reads_or_refuses_and_round_trips(code: str, color: str) -> None:
    TRIED["tile language"] += 1
    tile = _reads(lambda: dsl.parse(code, color=color))
    if tile is None:
        return
    written = dsl.write(tile)
    back = dsl.parse(written, color=tile.color)
    assert dsl.write(back) == written
    assert back == replace(tile, stripe=back.stripe)


@FUZZ
@given(st.text(max_size=60))
def test_tile_language_any_text(code: str) -> None:
    TRIED["tile language, any text"] += 1
    tile = _reads(lambda: dsl.parse(code))
    if tile is not None:
        assert dsl.parse(dsl.write(tile)) == tile


# ------------------------------------------------------------------------------ JSON tiles


@st.composite
def json_tiles(draw: st.DrawFn) -> Any:
    """Tile JSON from valid tiles, with fields now and then replaced by anything."""
    tile = _reads(lambda: dsl.parse(draw(tile_strings())))
    data: Any = tile_to_dict(tile) if tile is not None else {"nodes": [], "paths": []}
    for _ in range(draw(st.integers(0, 3))):
        target = data
        path = draw(st.lists(st.sampled_from(["nodes", "paths", 0, 1, "revenue", "a", "slots"])))
        for key in path[:-1]:
            if _has(target, key):
                target = target[key]
        key = path[-1] if path else draw(st.sampled_from(["rotation", "name", "nodes"]))
        field = draw(JSON_VALUE)
        if (isinstance(target, dict) and isinstance(key, str)) or _has(target, key):
            target[key] = field
    if draw(st.integers(0, 10)) == 0:
        data = draw(st.sampled_from([_deep(70), [data] * 3, "x", 9**99]))
    return data


def _has(target: Any, key: object) -> bool:
    if isinstance(target, dict):
        return key in target
    return isinstance(target, list) and isinstance(key, int) and key < len(target)


@FUZZ
@given(json_tiles())
def test_json_tiles_read_or_refuse_and_round_trip(data: Any) -> None:
    TRIED["JSON tiles"] += 1
    tile = _reads(lambda: tile_from_dict(data))
    if tile is not None:
        assert tile_from_dict(tile_to_dict(tile)) == tile
    text = _reads(lambda: json.dumps(data))  # the same through the JSON text reader
    if isinstance(text, str):
        tiles = _reads(lambda: convert_read(text.encode(), "json"))
        for t in tiles or []:
            assert convert_read(convert_write([t], "json").text, "json") == [t]


DEEP_JSON = st.sampled_from([b"[" * 5000 + b"]" * 5000, b'{"a":' * 3000 + b"1" + b"}" * 3000])


@FUZZ
@given(st.binary(max_size=80) | st.text(max_size=80).map(str.encode) | DEEP_JSON)
def test_json_and_dsl_files_any_bytes(data: bytes) -> None:
    TRIED["tile files, any bytes"] += 1
    for fmt in ("json", "dsl"):
        _reads(lambda fmt=fmt: convert_read(data, fmt, source="f"))


# ------------------------------------------------------------------------------ XML

ENCODINGS = st.sampled_from(
    ["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "latin-1", "utf-7"]
)


def _encode(text: str, encoding: str) -> bytes:
    declared = encoding.removesuffix("-sig").upper()
    head = f'<?xml version="1.0" encoding="{declared}"?>\n'
    try:
        return (head + text).encode(encoding)
    except UnicodeEncodeError:
        return (head + text).encode(encoding, "xmlcharrefreplace")


@st.composite
def broken_xml(draw: st.DrawFn, document: str) -> bytes:
    """``document`` with attribute values replaced, a DOCTYPE with entities added, cut short,
    or in another encoding."""
    text = document
    for _ in range(draw(st.integers(0, 3))):
        quotes = [i for i, ch in enumerate(text) if ch == '"']
        if len(quotes) >= 2:
            k = draw(st.integers(0, len(quotes) // 2 - 1)) * 2
            a, b = quotes[k], quotes[k + 1]
            new = draw(NUMBER_TEXT).replace('"', "").replace("&", "&amp;").replace("<", "&lt;")
            text = text[: a + 1] + new + text[b:]
    choice = draw(st.integers(0, 9))
    if choice == 0:
        text = '<!DOCTYPE r [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]>\n' + text.replace(
            'name="', 'name="&b;'
        )
    elif choice == 1:
        text = text[: draw(st.integers(0, len(text)))]
    elif choice == 2:
        text = "<x>" * 300 + text + "</x>" * 300
    return _encode(text, draw(ENCODINGS))


TILEDEFS = """<Tiles>
<Tile number="54" type="Green">
 <TileName location="14" name="NY"/>
 <Track enter="0" exit="12" gauge="NORMAL"/>
 <Track enter="5" exit="12" gauge="METER_BASE"/>
 <Track enter="5" exit="12" gauge="METER"/>
 <Track enter="3" exit="16" gauge="OVERPASS"/>
 <Track enter="3" exit="16" gauge="NORMAL"/>
 <RevenueCenter id="-1" location="12" name="" number="1" type="Single City">
  <Revenue location="17" phase="0" value="60"/></RevenueCenter>
 <RevenueCenter id="-1" location="16" name="" number="2" type="Double City">
  <Revenue location="17" phase="0" value="60"/></RevenueCenter>
</Tile>
<Tile number="9992" type="Red Off Board">
 <Track enter="2" exit="99" gauge="NORMAL"/>
 <RevenueCenter id="-1" location="99" name="" number="0" type="Dead-End Only City">
  <Revenue location="50" phase="1" value="30" layout="vertical"/>
  <Revenue location="50" phase="4" value="40" layout="vertical"/>
 </RevenueCenter>
</Tile>
</Tiles>"""

TILESET = """<TileManifest game="1830" direction="NS">
<TileSet color="Yellow">
 <Tile number="7" quantity="4"><Upgrade toNumber="18" rotations="0,3"/></Tile>
 <Tile number="8" quantity="8"><Upgrade toNumber="16" rotations="1">
  <RevenueCenter from="12" to="13" rotation="2"/><BaseTileName value="NY"/></Upgrade></Tile>
</TileSet>
</TileManifest>"""

RAILS_TILES = """<Tiles>
<Tile id="57" name="57" colour="yellow">
 <Station id="city1" position="0" type="City" slots="1" value="20"/>
 <Track from="side0" gauge="normal" to="city1"/><Track from="city1" gauge="normal" to="side3"/>
</Tile>
<Tile id="-1" colour="fixed" label="NY">
 <Station id="city1" position="352" type="OffMapCity" value="-1" city="Berlin"/>
 <Track from="side2" gauge="narrow" to="city1"/>
</Tile>
</Tiles>"""

RAILS_TILESET = """<TileManager tiles="Tiles.xml">
 <Tile id="57" quantity="4"><Upgrade id="14,15" hex="-B2"/></Tile>
 <IfOption name="Variant" value="Pere Marquette">
  <Tile id="58"><Attributes quantity="-1"/><Upgrade id="87" phase="3"/></Tile>
 </IfOption>
</TileManager>"""

RAILS_GAME = """<ComponentManager>
<Component name="TrainManager" class="net.sf.rails.game.TrainManager">
 <Defaults><Reach base="stops" countTowns="major"/></Defaults>
 <TrainType name="2" majorStops="2" cost="80" quantity="6"/>
 <TrainType name="3" majorStops="3" cost="180" quantity="5" startPhase="3">
  <NewPhase phaseName="3"/></TrainType>
 <TrainType name="D" majorStops="-1" cost="1100" quantity="-1" rustedTrain="2"/>
</Component>
<Component name="PhaseManager" class="net.sf.rails.game.PhaseManager">
 <Phase name="2"><Tiles colour="yellow"/><OperatingRounds number="1"/></Phase>
 <Phase name="3"><Tiles colour="yellow,green"/><Trains limitStep="2"/></Phase>
</Component>
</ComponentManager>"""


@FUZZ
@given(broken_xml(TILEDEFS), st.sampled_from(["flat", "pointy"]))
def test_tile_definitions_read_or_refuse_and_round_trip(data: bytes, layout: str) -> None:
    TRIED["seed-000 tiles"] += 1
    from tilelay.hexgeo import Layout

    tiles = _reads(lambda: tiledefs.read_tiledefs(data, layout=Layout(layout)))
    if tiles:
        text = tiledefs.write_tiledefs(tiles, layout=Layout(layout))
        assert tiledefs.read_tiledefs(text, layout=Layout(layout)) == tiles


@FUZZ
@given(broken_xml(TILESET))
def test_tile_sets_read_or_refuse_and_round_trip(data: bytes) -> None:
    TRIED["seed-000 tile sets"] += 1
    manifest = _reads(lambda: read_tileset(data))
    if manifest is not None:
        back = read_tileset(tileset_to_xml(manifest))
        assert _entries(back) == _entries(manifest)


def _entries(manifest: Any) -> list[tuple[object, ...]]:
    return [
        (e.number, e.quantity, e.extra, tuple(replace(u, line=None) for u in e.upgrades))
        for e in manifest.entries()
    ]


@FUZZ
@given(broken_xml(RAILS_TILES))
def test_rails_tiles_read_or_refuse(data: bytes) -> None:
    TRIED["Rails tiles"] += 1
    tiles = _reads(lambda: rails.read_rails_tiles(data))
    for t in tiles or []:
        assert tile_from_dict(tile_to_dict(t)) == t
    _reads(lambda: rails.read_rails_tileset(data))


@FUZZ
@given(broken_xml(RAILS_TILESET))
def test_rails_tile_sets_read_or_refuse(data: bytes) -> None:
    TRIED["Rails tile sets"] += 1
    _reads(lambda: rails.read_rails_tileset(data))


@FUZZ
@given(broken_xml(RAILS_GAME))
def test_rails_games_read_or_refuse_and_round_trip(data: bytes) -> None:
    TRIED["Rails Game.xml"] += 1
    manager = _reads(lambda: read_rails_game(data))
    if manager is not None:
        back = read_rails_game(write_rails_trains(manager))
        assert back.card_types == manager.card_types
        assert back.phases == manager.phases


def _other_xml_readers() -> list[tuple[str, Callable[[bytes], object], str]]:
    from tests.test_xml_ge18xx import MAP as GE_MAP
    from tests.test_xml_rails_map import COMPANIES, MAP
    from tilelay.xml.ge18xx_companies import read_ge_cities, read_ge_companies
    from tilelay.xml.ge18xx_games import read_ge_games
    from tilelay.xml.ge18xx_map import read_ge_map
    from tilelay.xml.rails_companies import read_rails_companies
    from tilelay.xml.rails_map import read_rails_map

    companies = (
        '<Corporations><Private id="1" name="SV" abbrev="SV" cost="20" revenue="5" '
        'homeCell1="G15" homeLocation1="10"/><Share id="2" name="P" abbrev="PRR" '
        'homeCell1="H12" homeLocation1="14" bgColor="1,2,3" tokens="4" '
        'floatPercentage="20%"/></Corporations>'
    )
    cities = '<Cities><CityInfo id="8" name="New York" type="3"/></Cities>'
    games = (
        '<GE><Games><Game name="1830" status="Playable"><Info minPlayers="3" '
        'maxPlayers="6" firstTokenCost="0" laterTokenCost="40"/></Game></Games></GE>'
    )
    return [
        ("GE18XX map", read_ge_map, GE_MAP.decode()),
        ("GE18XX companies", read_ge_companies, companies),
        ("GE18XX cities", read_ge_cities, cities),
        ("GE18XX games", read_ge_games, games),
        ("Rails map", read_rails_map, MAP.decode()),
        ("Rails companies", read_rails_companies, COMPANIES.decode()),
    ]


OTHER_XML = _other_xml_readers()


@st.composite
def other_xml(draw: st.DrawFn) -> tuple[str, Callable[[bytes], object], bytes]:
    name, read, document = draw(st.sampled_from(OTHER_XML))
    return name, read, draw(broken_xml(document))


@FUZZ
@given(other_xml())
def test_map_company_and_game_files_read_or_refuse(case: Any) -> None:
    TRIED["maps, companies, games (XML)"] += 1
    _name, read, data = case
    _reads(lambda: read(data))


# ------------------------------------------------------------------------------ records

HEXES = st.sampled_from(["K4", "J3", "I2", "F3", "G4", "E2", "B3"])
TILES = st.sampled_from(["57-0", "57-1", "7-0", "8-0", "9-0", "14-0", "15-0", "K4-0"])
ODD = st.one_of(JSON_LEAF, st.just([1]), st.just({"a": 1}), st.just(1e300))


@st.composite
def records(draw: st.DrawFn) -> Any:
    """Records of 1889 with tile lays, tokens, trains, routes, undo and redo, fields now and
    then of any type."""
    actions: list[dict[str, Any]] = []

    def field(good: st.SearchStrategy[Any]) -> Any:
        return draw(st.one_of(good, good, good, good, ODD))

    for i in range(draw(st.integers(0, 12))):
        kind = draw(
            st.sampled_from(
                [
                    *("lay_tile", "place_token", "buy_train", "run_routes", "undo", "redo"),
                    *("pass", "message", "discard_train"),
                ]
            )
        )
        action: dict[str, Any] = {"type": field(st.just(kind)), "id": field(st.just(i + 1))}
        action["entity"] = field(st.sampled_from(["AR", "IR", "SR", "KO", "TR", "UR"]))
        if kind == "lay_tile":
            action["hex"] = field(HEXES)
            action["tile"] = field(TILES)
            action["rotation"] = field(st.integers(0, 5))
        elif kind == "place_token":
            action["city"] = field(TILES.map(lambda t: t + "-0"))
        elif kind in ("buy_train", "discard_train"):
            action["train"] = field(st.sampled_from(["2-0", "2-1", "3-0", "D-0"]))
            action["price"] = field(st.integers(0, 1100))
        elif kind == "run_routes":
            action["routes"] = field(
                st.lists(
                    st.fixed_dictionaries(
                        {
                            "train": st.sampled_from(["2-0", "3-0"]),
                            "connections": st.one_of(
                                st.lists(st.lists(HEXES, max_size=3), max_size=3), ODD
                            ),
                            "hexes": st.one_of(st.lists(HEXES, max_size=4), ODD),
                            "revenue": st.one_of(st.integers(0, 200), ODD),
                        }
                    ),
                    max_size=2,
                )
            )
        elif kind == "undo" and draw(st.booleans()):
            action["action_id"] = field(st.integers(0, i))
        actions.append(action)
    if draw(st.integers(0, 8)) == 0:  # more trains than the route search takes
        many = draw(st.integers(20, 40))
        actions[:0] = [
            {"type": "buy_train", "id": 1000 + k, "entity": "AR", "train": f"D-{k}"}
            for k in range(many)
        ]
    record: Any = {"title": field(st.just("1889")), "id": field(st.just(7)), "actions": actions}
    if draw(st.integers(0, 12)) == 0:
        record = draw(st.sampled_from([[], {"actions": 5}, {"actions": _deep(70)}, "x"]))
    return record


@FUZZ
@given(records())
def test_records_read_and_replay_or_refuse(record: Any) -> None:
    TRIED["records"] += 1
    data = _reads(lambda: read_record(json.dumps(record)))
    if data is not None:
        _reads(lambda: replay(data, load_game("1889")))


@FUZZ
@given(st.one_of(st.text(max_size=30), HOSTILE_TEXT, st.builds("K4={}-{}".format, ODD, ODD)))
def test_actions_parse_or_refuse(text: str) -> None:
    TRIED["actions"] += 1
    action = _reads(lambda: parse_action(text))
    if action is not None:
        assert parse_action(str(action)) == action


@FUZZ
@given(
    text=st.one_of(NUMBER_TEXT, st.text(alphabet="0123456789-+_ ²٣", max_size=8)),
    low=st.integers(-1000, 10),
    span=st.integers(0, 10**6),
)
def test_numbers_are_read_in_ascii_digits_and_in_range(text: str, low: int, span: int) -> None:
    TRIED["numbers and query parameters"] += 1
    value = whole(text, low, low + span)
    if value is not None:
        assert low <= value <= low + span
        assert text.strip().lstrip("-").isascii() and int(text) == value
    try:
        rotations = parse_rotations(text)
    except WebError as err:
        assert err.status == 400
    else:
        assert set(rotations) <= set(range(6))
    try:
        assert 0 <= parse_int(text, "n", 0, 99) <= 99
    except WebError as err:
        assert err.status == 400


# ------------------------------------------------------------------------------ the web app


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(), raise_server_exceptions=False) as c:
        yield c


SEGMENT = st.one_of(
    st.sampled_from(["57", "57-1", "1889", "1830", "18Chesapeake", "all", "K4", "X1", "A", "D"]),
    HOSTILE_TEXT,
    st.text(max_size=8),
)
PARAMS = st.dictionaries(
    st.sampled_from(["r", "n", "grid", "layout", "code", "color", "action", "seed", "players"])
    | st.sampled_from(["move", "kinds", "autoplay", "rotation"]),
    st.one_of(SEGMENT, NUMBER_TEXT, st.sampled_from(["all", "0+3", "pointy", "greedy,random"])),
    max_size=3,
)
GET_PATHS = st.sampled_from(
    [
        "/",
        "/tiles/all",
        "/tiles/{}",
        "/tiles/{}/{}",
        "/map/{}",
        "/tile",
        "/api/games",
        "/api/tiles/{}",
        "/carcassonne",
        "/carcassonne/game",
        "/carcassonne/board.svg",
        "/carcassonne/tile/{}.svg",
        "/routes/{}",
        "/static/{}",
        "/{}",
    ]
)


def _check(response: Any, path: str) -> None:
    assert response.status_code < 500, (path, response.status_code, response.text[:300])
    if path.startswith("/api/") and response.status_code >= 400:
        body = response.json()
        assert set(body) == {"error", "status", "suggestions"}, body
        assert body["status"] == response.status_code


@FUZZ
@given(template=GET_PATHS, segments=st.lists(SEGMENT, min_size=2, max_size=2), params=PARAMS)
def test_web_pages_answer_below_500(
    client: TestClient, template: str, segments: list[str], params: dict[str, str]
) -> None:
    TRIED["web pages"] += 1
    path = template.format(*(quote(s, safe="", errors="surrogatepass") or "x" for s in segments))
    response = client.get(path + ("?" + _query(params) if params else ""))
    _check(response, response.request.url.path)  # as the client sent it (".." resolved)


@FUZZ
@given(
    game=st.sampled_from(["1889", "1830", "x²"]),
    record=records(),
    params=PARAMS,
    how=st.integers(0, 3),
)
def test_web_routes_answer_below_500(
    client: TestClient, game: str, record: Any, params: dict[str, str], how: int
) -> None:
    TRIED["web routes"] += 1
    body = json.dumps(record).encode()
    if how == 3:
        body = body[: len(body) // 2]
    api = f"/api/routes/{quote(game)}"
    _check(client.post(api + "?" + _query(params), content=body), api)
    form = {"record": body.decode("utf-8", "replace"), **params}
    page = f"/routes/{quote(game)}"
    _check(client.post(page, content=_query(form).encode(), headers=_FORM), page)


def _query(params: dict[str, str]) -> str:
    return urlencode(params, errors="surrogatepass")


_FORM = {"content-type": "application/x-www-form-urlencoded"}


@pytest.fixture(scope="module")
def board_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("fuzz") / "boards.sqlite3"
    with TestClient(create_app(db=db), raise_server_exceptions=False) as c:
        yield c


STATE = st.fixed_dictionaries(
    {
        "game": st.one_of(st.just("1889"), ODD),
        "actions": st.one_of(
            st.lists(st.sampled_from(["I4=57-0", "K4=5-1", "I4=AR@0", "x", "K4=57-9"]), max_size=3),
            ODD,
        ),
    },
    optional={
        "phase": st.one_of(st.sampled_from(["2", "3", "D"]), ODD),
        "options": st.one_of(st.lists(st.text(max_size=5), max_size=2), ODD),
        "corporation": st.one_of(st.sampled_from(["AR", "IR"]), ODD),
        "trains": st.one_of(st.lists(st.sampled_from(["2", "3", "D"]), max_size=30), ODD),
        "done": ODD,
        "undone": ODD,
    },
)
EDIT_BODY = st.fixed_dictionaries(
    {"state": st.one_of(STATE, STATE, ODD)},
    optional={
        "hex": st.one_of(HEXES, ODD),
        "tile": st.one_of(st.sampled_from(["57", "5", "6", "9"]), ODD),
        "rotation": st.one_of(st.integers(0, 5), ODD),
        "corporation": st.one_of(st.sampled_from(["AR", "IR"]), ODD),
        "city": st.one_of(st.integers(0, 2), ODD),
        "phase": st.one_of(st.sampled_from(["2", "3"]), ODD),
        "options": st.one_of(st.lists(st.text(max_size=5), max_size=3), ODD),
        "trains": st.one_of(st.lists(st.sampled_from(["2", "3", "D"]), max_size=60), ODD),
        "step": st.one_of(st.integers(-1, 1), ODD),
        "replace": ODD,
        "remove": ODD,
        "reach": ODD,
        "name": st.one_of(st.text(max_size=10), ODD),
    },
)
BOARD_CALLS = st.sampled_from(
    [
        ("POST", "/api/boards/lays"),
        *(("POST", f"/api/boards/{n}") for n in ("view", "lay", "rotate", "token", "phase")),
        *(("POST", f"/api/boards/{n}") for n in ("options", "routes", "undo", "redo")),
        ("POST", "/api/boards"),
        ("POST", "/api/boards/import"),
        ("GET", "/api/boards"),
        ("GET", "/api/boards/1"),
        ("PUT", "/api/boards/1"),
        ("PATCH", "/api/boards/1"),
        ("GET", "/api/boards/1/export"),
        ("DELETE", "/api/boards/2"),
        ("POST", "/api/records"),
        ("GET", "/api/records"),
        ("GET", "/api/records/1"),
        ("POST", "/api/records/1/branch"),
        ("GET", "/board/1889"),
        ("GET", "/boards"),
        ("GET", "/api/openapi.json"),
    ]
)


@FUZZ
@given(
    call=BOARD_CALLS,
    body=st.one_of(EDIT_BODY, EDIT_BODY, records(), JSON_VALUE),
    raw=st.sampled_from([None, b"", b"[" * 5000, b'{"state": ' + b"9" * 5000 + b"}", b"\xff"]),
    params=PARAMS | st.fixed_dictionaries({"board": NUMBER_TEXT, "record": NUMBER_TEXT}),
)
def test_board_and_store_apis_answer_below_500(
    board_client: TestClient, call: tuple[str, str], body: Any, raw: bytes | None, params: Any
) -> None:
    TRIED["boards, saved boards, records (web)"] += 1
    method, path = call
    content = raw if raw is not None else json.dumps(body).encode()
    url = path + ("?" + _query(params) if params else "")
    response = board_client.request(method, url, content=content)
    _check(response, response.request.url.path)


# ------------------------------------------------------------------------------ command line

CLI = st.sampled_from(
    [
        ["tile", "parse", "{}"],
        ["tile", "show", "{}", "--rotation", "{}"],
        ["upgrades", "1889", "--tile", "{}"],
        ["routes", "1889", "--lay", "{}", "--corporation", "AR", "--trains", "2"],
        ["render", "tile", "{}", "--size", "{}", "-o", "/nonexistent/x.svg"],
        ["carcassonne", "tile", "{}", "--rotation", "{}"],
        ["trains", "{}"],
        ["lays", "{}", "{}"],
        ["carcassonne", "play", "--load", "{}", "--seed", "{}"],
        ["convert", "{}", "--to", "json", "-o", "{}"],
    ]
)


@FUZZ
@given(
    template=CLI,
    values=st.lists(st.one_of(SEGMENT, NUMBER_TEXT, tile_strings()), min_size=2, max_size=2),
)
def test_command_line_exits_0_or_2(
    template: list[str], values: list[str], capsys: pytest.CaptureFixture[str], cli_dir: Path
) -> None:
    TRIED["command line"] += 1
    it = iter(values)
    argv = [next(it) if a == "{}" else a for a in template]
    argv = [a.replace("\x00", "") for a in argv]  # a real command line holds no NUL
    with contextlib.chdir(cli_dir):  # whatever a command writes lands in a scratch folder
        try:
            status = main(argv)
        except SystemExit as exit_:  # argparse
            status = int(exit_.code or 0)
    out = capsys.readouterr()
    assert status in (0, 2), (argv, out.err)
    if status == 2:
        # one line an error (a command given several files reports each that fails)
        lines = out.err.strip().splitlines()
        assert lines and all(line.startswith("tilelay") for line in lines), out.err
        assert "Traceback" not in out.err
        if template[0] != "lays":
            assert len(lines) == 1, out.err


@pytest.fixture(scope="module")
def cli_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cli")


# ------------------------------------------------------------------------------ real records


@functools.cache
def _fixture(stem: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / f"{stem}.json").read_text(encoding="utf-8"))
    return data


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The paths to every value inside ``value`` (its own first)."""
    yield path
    if isinstance(value, dict | list):
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, inner in items:
            yield from _leaves(inner, (*path, key))


def _set(value: Any, path: tuple[Any, ...], new: Any) -> None:
    for key in path[:-1]:
        value = value[key]
    value[path[-1]] = new


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        value = value[key]
    return value


@st.composite
def broken_fixtures(draw: st.DrawFn) -> Any:
    """A shared fixture (a real record of one of many games) up to some action, one to three
    of its actions broken: taken out, swapped with the next, repeated, or a field changed to
    the same field of another action of its type (a near miss: a real hex, tile, train or
    corporation in the wrong place), to a number one off or far off, or to a value of another
    type."""
    stem = draw(st.sampled_from(FIXTURE_STEMS))
    record = json.loads(json.dumps(_fixture(stem)))
    actions: list[dict[str, Any]] = record["actions"]
    at = draw(st.integers(0, len(actions) - 1))
    del actions[at + 30 :]  # the replay goes on a little past the break
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(max(0, at - 10), len(actions) - 1))
        action = actions[i]
        how = draw(st.sampled_from(["drop", "swap", "repeat", "near", "number", "odd"]))
        if how == "drop":
            del actions[i]
        elif how == "swap" and i + 1 < len(actions):
            actions[i], actions[i + 1] = actions[i + 1], action
        elif how == "repeat":
            actions.insert(draw(st.integers(i, len(actions))), json.loads(json.dumps(action)))
        else:
            paths = [p for p in _leaves(action) if p and p[0] not in ("id", "created_at")]
            path = draw(st.sampled_from(paths))
            old = _get(action, path)
            new: Any
            if how == "near":
                same = [a for a in actions if a.get("type") == action.get("type")]
                values = []
                for other in same:
                    with contextlib.suppress(LookupError, TypeError):
                        values.append(_get(other, path))
                new = draw(st.sampled_from(values)) if values else draw(ODD)
            elif how == "number" and isinstance(old, int) and not isinstance(old, bool):
                new = old + draw(st.sampled_from([-100, -7, -1, 1, 6, 10**9]))
            else:
                new = draw(st.one_of(ODD, HOSTILE_TEXT))
            _set(action, path, new)
    return stem, record


FIXTURES = REFERENCE / "18xxgames" / "fixtures"
FIXTURE_STEMS = sorted(p.stem for p in FIXTURES.glob("*.json")) if FIXTURES.is_dir() else []


@pytest.fixture(scope="module")
def _engine_games() -> Iterator[None]:
    # (the last tests of the file: the engine's games are known until the module ends)
    with engine_games_known():
        yield


@pytest.mark.skipif(not FIXTURE_STEMS, reason=f"reference data absent: {FIXTURES}")
@FUZZ
@given(case=broken_fixtures())
def test_real_records_broken_replay_or_refuse(_engine_games: None, case: tuple[str, Any]) -> None:
    stem, record = case
    TRIED["real records"] += 1
    # the audit replays the record and never raises for it: a record it cannot replay (a
    # TilelayError naming the action) is an audit with an error; anything else fails here
    audit = audit_record(record, name=stem, optimum=False)
    assert audit.error is None or "action" in audit.error or "record" in audit.error, audit.error


#: Games with rules of their own, whose records branch boards for the board API below.
BOARD_STEMS = [
    s
    for s in ("1860__19354", "18USA__109372", "1822__33845", "18India__18India_game_end_bank")
    if s in FIXTURE_STEMS
]


@functools.cache
def _analysis(stem: str) -> Any:
    """The fixture replayed, its steps as the board page has them (no route searched)."""
    from tilelay.web.records import analyse_record

    return analyse_record(_fixture(stem), seconds=0)


@st.composite
def real_board_edits(draw: st.DrawFn) -> tuple[Any, list[tuple[str, dict[str, Any]]]]:
    """A board branched off a step of a real record (its game's tiles, tokens, phase,
    corporation and trains), and edits of it drawn from the game's own hexes, tiles,
    corporations, phases, trains and options."""
    from tilelay.web.records import branch_state

    analysis = _analysis(draw(st.sampled_from(BOARD_STEMS)))
    game = analysis.game
    state = branch_state(analysis, draw(st.integers(0, len(analysis.steps) - 1)))
    hexes = st.sampled_from(sorted(game.hexes))
    trains = sorted({s.name for c in game.trains.card_types[:3] for s in c.sides})
    edits: list[tuple[str, dict[str, Any]]] = []
    for _ in range(draw(st.integers(1, 5))):
        kind = draw(st.sampled_from(["lay", "token", "phase", "routes", "rotate", "lays", "view"]))
        body: dict[str, Any] = {}
        if kind == "lay":
            body = {
                "hex": draw(hexes),
                "tile": draw(st.sampled_from(sorted(game.manifest))),
                "rotation": draw(st.integers(0, 5)),
                "replace": draw(st.booleans()),
            }
        elif kind in ("token", "routes"):
            corp = draw(st.sampled_from([c.sym for c in game.corporations]))
            body = {"hex": draw(hexes), "corporation": corp, "city": draw(st.integers(0, 2))}
            if kind == "routes":
                body = {"corporation": corp, "trains": draw(st.lists(st.sampled_from(trains)))}
        elif kind == "phase":
            body = {"phase": draw(st.sampled_from([p.name for p in game.trains.phases]))}
        elif kind in ("rotate", "lays"):
            body = {"hex": draw(hexes), "reach": draw(st.booleans())}
        edits.append((kind, body))
    return state.to_json(), edits


@pytest.mark.skipif(not BOARD_STEMS, reason=f"reference data absent: {FIXTURES}")
@FUZZ
@given(case=real_board_edits())
def test_real_boards_edited_answer_below_500(
    _engine_games: None,
    board_client: TestClient,
    case: tuple[Any, list[tuple[str, dict[str, Any]]]],
) -> None:
    """Boards of real records' games (1860's, 18USA's, 1822's and 18India's rules, each
    record replayed first: 18USA's draws its own setup) edited through the board page's
    API: every answer is below 500 (a state that is no longer legal is refused, 4xx)."""
    state, edits = case
    TRIED["real boards"] += 1
    for kind, body in edits:
        response = board_client.post(f"/api/boards/{kind}", json={"state": state, **body})
        assert response.status_code < 500, (kind, body, response.text[:300])
        if response.status_code == 200 and kind != "lays":
            state = response.json()["state"]
