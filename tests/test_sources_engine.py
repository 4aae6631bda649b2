"""Games read from the 18xx.games engine's Ruby sources (tilelay.sources.engine).

Against the reference: for every game in ``18xxgames/facts/`` (the facts as the engine itself
holds them once loaded) the importer's data must be equal; where they differ the cause is
named below. Then, over all the engine's games, how many load with a complete map and
manifest. The bad-input tests build a tiny engine tree of their own.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import REFERENCE, reference

from tilelay import dsl
from tilelay.errors import NoGameError, TilelayError
from tilelay.games import UNLIMITED
from tilelay.hexgeo import Layout
from tilelay.sources.engine import (
    EngineCheckout,
    EngineGame,
    find_games,
    generic_tiles,
    read_game,
    read_games,
)
from tilelay.sources.games import engine_game
from tilelay.svg import tile_svg

FACTS_DIR = REFERENCE / "18xxgames" / "facts"
FACT_GAMES = sorted(p.stem for p in FACTS_DIR.glob("*.json")) if FACTS_DIR.is_dir() else []

#: (game, facts field): (constant, what the problem says, the cause). None now: 1835's TRAINS
#: call the game's own plus_train_distance(n), a module method that only builds data, and read.
KNOWN_DIFFERENCES: dict[tuple[str, str], tuple[str, str, str]] = {}


@pytest.fixture(scope="module")
def checkout() -> EngineCheckout:
    co = EngineCheckout(reference("18xxgames", "engine"))
    co.load_all()
    return co


@pytest.fixture(scope="module")
def games(checkout: EngineCheckout) -> dict[str, EngineGame]:
    return {g.name: g for g in checkout.read_all()}


def _facts(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(reference("18xxgames", "facts", f"{name}.json").read_text())
    return data


def _canonical(code: str) -> str:
    """A tile string as tilelay writes it back, or the string itself where tilelay's tile
    language cannot read it (see test_every_tile_string_parses_unless_the_engine_misreads_it)."""
    try:
        return dsl.write(dsl.parse(code))
    except TilelayError:
        return f"(unparsed) {code}"


def _known(game: EngineGame, field: str) -> bool:
    """Whether ``field`` of ``game`` is a known difference; checks its problem says why."""
    known = KNOWN_DIFFERENCES.get((game.name, field))
    if known is None:
        return False
    constant, message, cause = known
    problem = game.problem(constant)
    assert problem is not None, f"{game.name}: expected a problem reading {constant} ({cause})"
    assert message in problem.message, f"{problem} does not say: {message} ({cause})"
    print(f"{game.name} {field}: known difference: {cause}; reported as {problem}")
    return True


# ---------------------------------------------------------------------- (a) equal the facts


@pytest.mark.parametrize("name", FACT_GAMES)
def test_hexes_equal_the_facts(games: dict[str, EngineGame], name: str) -> None:
    facts, game = _facts(name), games[name]
    if _known(game, "hexes"):
        return
    assert set(game.hexes) == set(facts["hexes"])
    wrong = []
    for coord, want in facts["hexes"].items():
        got = game.hexes[coord]
        if got["color"] != want["color"] or _canonical(got["code"]) != _canonical(want["code"]):
            wrong.append((coord, want, got))
    assert not wrong


@pytest.mark.parametrize("name", FACT_GAMES)
def test_tile_manifest_equals_the_facts(games: dict[str, EngineGame], name: str) -> None:
    facts, game = _facts(name), games[name]
    if _known(game, "tiles"):
        assert game.tiles is None
        return
    want, got = facts["tiles"], game.tiles
    if want is None:
        assert got is None
        return
    assert got is not None and set(got) == set(want)
    for tile, entry in want.items():
        if isinstance(entry, dict):
            mine = got[tile]
            assert isinstance(mine, dict)
            assert {k: v for k, v in mine.items() if k != "code"} == {
                k: v for k, v in entry.items() if k != "code"
            }, tile
            assert _canonical(mine["code"]) == _canonical(entry["code"]), tile
        else:
            assert got[tile] == entry, tile


@pytest.mark.parametrize("name", FACT_GAMES)
def test_location_names_equal_the_facts(games: dict[str, EngineGame], name: str) -> None:
    facts, game = _facts(name), games[name]
    if _known(game, "location_names"):
        return
    assert game.location_names == (facts["location_names"] or {})


@pytest.mark.parametrize("name", FACT_GAMES)
def test_corporations_and_homes_equal_the_facts(games: dict[str, EngineGame], name: str) -> None:
    facts, game = _facts(name), games[name]
    if _known(game, "corporations"):
        assert game.corporations == []
        return

    def homes(corps: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
        return [(c.get("sym"), c.get("coordinates"), c.get("city")) for c in corps]

    mine = game.facts()["corporations"]
    assert homes(mine) == homes(facts["corporations"])
    assert mine == facts["corporations"]  # names and tokens too


@pytest.mark.parametrize("name", FACT_GAMES)
def test_trains_and_distances_equal_the_facts(games: dict[str, EngineGame], name: str) -> None:
    facts, game = _facts(name), games[name]
    if _known(game, "trains"):
        assert game.trains == []
        return
    mine = game.facts()["trains"]
    assert [(t["name"], t.get("distance")) for t in mine] == [
        (t["name"], t.get("distance")) for t in facts["trains"]
    ]
    assert mine == facts["trains"]  # price, num, rusts_on, obsolete_on, variants too


@pytest.mark.parametrize("name", FACT_GAMES)
def test_title_layout_phases_companies_equal_the_facts(
    games: dict[str, EngineGame], name: str
) -> None:
    facts, game = _facts(name), games[name]
    mine = game.facts()
    for field in ("title", "module", "layout", "axes", "phases", "companies"):
        if not _known(game, field):
            assert mine[field] == facts[field], field


def test_every_known_difference_is_still_one(games: dict[str, EngineGame]) -> None:
    """A known difference that disappears (the engine changed, or the reader learnt more)
    must be taken off the list."""
    for (name, field), (constant, _message, _cause) in KNOWN_DIFFERENCES.items():
        if name not in FACT_GAMES:
            continue
        want = _facts(name)[field]
        assert game_field(games[name], field) != want, (name, field)
        assert games[name].problem(constant) is not None


def game_field(game: EngineGame, field: str) -> Any:
    return game.facts()[field]


FIELD_CONSTANTS = {
    "hexes": "HEXES",
    "tiles": "TILES",
    "location_names": "LOCATION_NAMES",
    "trains": "TRAINS",
    "phases": "PHASES",
    "corporations": "CORPORATIONS",
    "companies": "COMPANIES",
    "layout": "LAYOUT",
    "axes": "AXES",
    "title": "GAME_TITLE",
}


def test_every_game_against_the_engine_itself(games: dict[str, EngineGame], tmp_path: Path) -> None:
    """All 130 games, against facts the engine writes in this run (the reference keeps 45):
    every field is equal, or the importer reported a problem for that field's constant — no
    difference is silent. Needs Ruby (``apt-get install -y ruby``)."""
    if shutil.which("ruby") is None:
        pytest.skip("ruby not found: cannot run the engine (apt-get install -y ruby)")
    oracle = reference("18xxgames", "oracle")
    subprocess.run(
        ["ruby", str(oracle / "facts.rb"), str(tmp_path)],
        check=True,
        capture_output=True,
        env={"ENGINE_LOG_LEVEL": "4", "PATH": "/usr/bin:/bin"},
        timeout=300,
    )
    written = sorted(tmp_path.glob("*.json"))
    assert len(written) >= len(FACT_GAMES)
    silent: list[str] = []
    reported = 0
    for path in written:
        want, game = json.loads(path.read_text()), games[path.stem]
        mine = game.facts()
        if want["tiles"] == [] and mine["tiles"] == {}:  # Rolling Stock: TILES = [] (no tiles)
            want["tiles"] = {}
        for field, constant in FIELD_CONSTANTS.items():
            a, b = want[field], mine[field]
            if field == "hexes" and set(a) == set(b):
                a = {c: (h["color"], _canonical(h["code"])) for c, h in a.items()}
                b = {c: (h["color"], _canonical(h["code"])) for c, h in b.items()}
            if a == b:
                continue
            if game.problem(constant) is not None:
                reported += 1
            else:
                silent.append(f"{game.name} {field}")
    print(f"\n{len(written)} games written by the engine; {reported} fields differ, each reported")
    assert not silent


# ---------------------------------------------------------------------- (b) the 95 % criterion


def _map_reason(game: EngineGame) -> str:
    """Why a game has no HEXES constant: where its map is built in code, or that it has none."""
    built = [
        f"def {m} at {game.built_in_code[m]}"
        for m in ("game_hexes", "optional_hexes")
        if m in game.built_in_code
    ]
    if built:
        return "map built in code: " + "; ".join(built)
    if not game.tiles and not game.hexes:
        return "no map and no tiles: not a tile-laying game"
    return "no HEXES constant and no map method found"


def test_engine_games_load_with_a_complete_map_and_manifest(
    games: dict[str, EngineGame],
) -> None:
    with_hexes = [g for g in games.values() if g.defines("HEXES")]
    complete: list[EngineGame] = []
    failures: list[str] = []
    for game in with_hexes:
        why = [
            str(p)
            for c in ("HEXES", "TILES", "LOCATION_NAMES", "LAYOUT")
            if (p := game.problem(c)) is not None
        ]
        if not game.hexes and not why:
            why.append("HEXES is empty")
        if not game.tiles and not why:
            why.append("TILES is absent or empty")
        if why:
            failures.append(f"  {game.name}: " + " | ".join(why))
        else:
            complete.append(game)
    code_built = [g for g in games.values() if not g.defines("HEXES")]
    share = len(complete) / len(with_hexes)
    print(
        f"\n{len(games)} engine games; {len(with_hexes)} define HEXES as a constant; "
        f"{len(complete)} of them ({share:.1%}) load with a complete map and manifest"
    )
    print(f"not complete ({len(failures)}):", *failures, sep="\n")
    print(f"no HEXES constant ({len(code_built)}):")
    for game in code_built:
        print(f"  {game.name}: {_map_reason(game)}")
    assert len(games) >= 130
    assert share >= 0.95
    for game in code_built:
        assert _map_reason(game) != "no HEXES constant and no map method found", game.name


# ---------------------------------------------------------------------- tile strings

# Every engine string that tilelay.dsl does not read is one the engine itself mis-reads: a
# mistake in the string that the engine's lenient reader (Tile.decode: split on ';', '=' and
# ',', to_h, to_i) passes over by silently losing part of it. Reading such a string as the
# engine does would hide the loss, so tilelay.dsl.parse keeps it an error naming the column
# (a game read from the engine's sources reads it as the engine does, dsl.read_as_engine,
# and says so in a problem naming the columns). Keyed by
# a substring of tilelay's error; the value says what the engine does and how many strings.
# Where the engine's leniency reads what a string means, tilelay reads it the same way (edge
# 6 as 0, node locs beyond 5.5 modulo 6, 18CO co7's trailing comma, 18Dixie 599's empty
# label=, the sub parts the engine ignores): see the tests of tests/test_dsl.py.
ENGINE_MISREADS: dict[str, tuple[int, str]] = {
    "bad node reference '_1border=": (
        2,
        "1840 F8/F10: a ';' missing before border=; the engine's split('=') keeps 'b:_1border' "
        "('1border'.to_i is 1) and drops the border",
    ),
    "sub part 'groups' given twice": (
        7,
        "1868 Wyoming's Billings and Ogden offboards give groups:Billings and groups:W; the "
        "engine's to_h keeps the last (W) and drops Billings",
    ),
    "terminal must be 1 or 2, got '1path=": (
        1,
        "18NY 1E A17: a ';' missing after terminal:1; the engine keeps terminal '1path' and "
        "drops the second path",
    ),
    "offboard: unknown sub part 'b'": (
        1,
        "1893 D9 (its map built by base_map): a ';' missing after groups:Wuppertal; the "
        "engine's split('=') keeps the group 'Wuppertalpath' and drops the first path",
    ),
    "b_lane must be width.index, got '5.3\\n": (
        1,
        "22 Mars B3: a newline where a ';' belongs; the engine reads b_lane 5.3 by to_f and "
        "drops the path after the newline",
    ),
}


def _engine_strings(games: dict[str, EngineGame]) -> list[tuple[EngineGame, str, str, str]]:
    """(game, what, colour, code) of every hex and tile string of every engine game."""
    out: list[tuple[EngineGame, str, str, str]] = []
    for game in games.values():
        hexes = {**game.hexes, **game.played_map()}  # (both: 1824's are 1837's and its own)
        out += [(game, f"hex {c}", h["color"], h["code"]) for c, h in hexes.items()]
        out += [
            (game, f"tile {n}", t["color"], t["code"])
            for n, t in (game.tiles or {}).items()
            if isinstance(t, dict) and isinstance(t.get("code"), str)
        ]
    return out


def test_every_tile_string_parses_unless_the_engine_misreads_it(
    games: dict[str, EngineGame],
) -> None:
    """Every hex and tile string of the 130 games (their maps as written and as a game starts
    them) reads, writes and reads back to an equal tile, and draws in its game's layout; the
    12 that do not read are the engine's own mistakes in ENGINE_MISREADS."""
    seen: Counter[str] = Counter()
    unknown: list[str] = []
    strings = _engine_strings(games)
    read = 0
    for game, what, color, code in strings:
        try:
            tile = dsl.parse(code, color=color)
        except TilelayError as err:
            misread = next((m for m in ENGINE_MISREADS if m in str(err)), None)
            if misread is None:
                unknown.append(f"{game.name} {what} {code!r}: {err}")
            else:
                seen[misread] += 1
            continue
        read += 1
        assert dsl.parse(dsl.write(tile), color=color) == tile, (game.name, what, code)
        layout = Layout(game.layout or "flat")
        assert tile_svg(tile, layout=layout).startswith("<svg"), (game.name, what)
        assert tile_svg(tile.rotated(1), layout=layout).startswith("<svg"), (game.name, what)
    print(f"\n{len(strings)} hex and tile strings; {read} read; not read:")
    for misread, count in seen.most_common():
        print(f"  {count:4} {ENGINE_MISREADS[misread][1]}")
    assert not unknown, "\n".join(unknown)
    assert dict(seen) == {m: n for m, (n, _) in ENGINE_MISREADS.items()}
    assert len(strings) - read == sum(n for n, _ in ENGINE_MISREADS.values()) == 12


# ---------------------------------------------------------------------- generic tiles, paths


def test_generic_tiles_equal_the_reference() -> None:
    want = json.loads(reference("18xxgames", "generic_tiles.json").read_text())
    got = generic_tiles(reference("18xxgames", "engine"))
    assert got == want
    assert len(got) == 476


def test_every_path_form_finds_the_same_games() -> None:
    root = reference("18xxgames", "engine")
    all_games = find_games(root)
    assert len(all_games) == 130 and "G1889" in all_games and "G18ZOOMapA" in all_games
    for path in (root / "lib", root / "lib" / "engine", root / "lib" / "engine" / "game"):
        assert find_games(path) == all_games
    folder = root / "lib" / "engine" / "game" / "g_1861"
    assert find_games(folder) == ["G1861"]


def test_one_folder_reads_what_it_builds_on(games: dict[str, EngineGame]) -> None:
    root = reference("18xxgames", "engine")
    for folder in ("g_18_zoo_map_a", "g_1846_two_player_variant", "g_1822_ca_ers"):
        alone = read_game(root / "lib" / "engine" / "game" / folder)
        assert alone == games[alone.name]  # the same as read with every game loaded
    game = read_game(root / "lib" / "engine" / "game" / "g_1861")  # class Game < G1867::Game
    facts = _facts("G1861")
    assert game.hexes == facts["hexes"]
    assert game.facts()["trains"] == facts["trains"]
    assert game.found["TRAINS"].module.startswith("Engine::Game::G1861")
    assert game.found["HEXES"].source == "lib/engine/game/g_1861/map.rb"
    assert game.meta["GAME_DESIGNER"]


def test_meta_and_where_constants_came_from(games: dict[str, EngineGame]) -> None:
    g = games["G1889"]
    assert g.title == "1889" and g.display_title == "Shikoku 1889"
    assert g.meta["PLAYER_RANGE"] == [2, 6]
    assert g.meta["GAME_LOCATION"] == "Japan"
    assert g.meta["OPTIONAL_RULES"][0]["sym"] == "beginner_game"
    assert g.found["HEXES"].module == "Engine::Game::G1889::Map"
    assert g.found["MARKET"].source == "lib/engine/game/g_1889/game.rb"
    assert g.market[0][3] == "100p"
    assert games["G18ZOOMapA"].meta["GAME_IS_VARIANT_OF"] == "Engine::Game::G18ZOO::Meta"
    # a game built in code says where
    assert "game_hexes" in games["G1825"].built_in_code


def test_reading_all_twice_gives_equal_games(
    checkout: EngineCheckout, games: dict[str, EngineGame]
) -> None:
    assert checkout.read("G1846") == games["G1846"]
    assert checkout.read("g_1846") == games["G1846"]


# ---------------------------------------------------------------------- bad input


def _engine(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / "lib" / "engine" / "game" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


BASE = """module Engine
  module Game
    class Base
      HEXES = {}.freeze
    end
  end
end
"""
META = """module Engine
  module Game
    module GTest
      module Meta
        GAME_TITLE = 'Test'
      end
    end
  end
end
"""
GAME = """module Engine
  module Game
    module GTest
      class Game < Game::Base
        include_meta(GTest::Meta)
        include Map
        LAYOUT = :pointy
      end
    end
  end
end
"""


def test_a_path_without_games_says_so(tmp_path: Path) -> None:
    with pytest.raises(NoGameError) as info:
        find_games(tmp_path)
    assert str(tmp_path) in str(info.value) and isinstance(info.value, TilelayError)
    with pytest.raises(NoGameError, match="no game"):
        read_games(tmp_path / "nowhere")


def test_a_small_engine_reads_and_reports_not_data(tmp_path: Path) -> None:
    map_rb = """module Engine
  module Game
    module GTest
      module Map
        TILES = { '7' => 2 }.freeze
        HEXES = build_map(3)
        LOCATION_NAMES = { 'A1' => 'Here' }.freeze
      end
    end
  end
end
"""
    root = _engine(
        tmp_path,
        {"base.rb": BASE, "g_test/meta.rb": META, "g_test/game.rb": GAME, "g_test/map.rb": map_rb},
    )
    assert find_games(root) == ["GTest"]
    game = read_game(root)
    assert game.title == "Test" and game.layout == "pointy"
    assert game.tiles == {"7": 2} and game.location_names == {"A1": "Here"}
    assert game.hexes == {}
    problem = game.problem("HEXES")
    assert problem is not None
    assert (problem.source, problem.line) == ("lib/engine/game/g_test/map.rb", 6)
    assert problem.message == "calls method build_map"
    with pytest.raises(NoGameError, match="no game GNope"):
        EngineCheckout(root).read("GNope")


def test_a_meta_module_that_includes_its_game_is_read_once(tmp_path: Path) -> None:
    # (a slip of one character: ``include Game::Meta`` written ``include Game,:Meta``)
    meta = META.replace("module Meta\n", "module Meta\n        include Game\n")
    root = _engine(tmp_path, {"base.rb": BASE, "g_test/meta.rb": meta, "g_test/game.rb": GAME})
    game = read_game(root)
    assert game.title == "Test" and game.layout == "pointy"


def test_a_syntax_error_is_reported_with_file_and_line(tmp_path: Path) -> None:
    broken = "module Engine\n  module Game\n    module GTest\n      module Map\n        TILES = {\n"
    root = _engine(
        tmp_path,
        {"base.rb": BASE, "g_test/meta.rb": META, "g_test/game.rb": GAME, "g_test/map.rb": broken},
    )
    game = read_game(root / "lib" / "engine" / "game" / "g_test")
    assert game.title == "Test"
    syntax = [p for p in game.problems if "syntax error" in p.message]
    assert len(syntax) == 1
    assert syntax[0].source == "lib/engine/game/g_test/map.rb" and syntax[0].line >= 5
    assert game.tiles is None


def test_a_map_built_by_a_method_is_read_as_a_game_starts_it(tmp_path: Path) -> None:
    """A game whose ``optional_hexes`` builds its map with its own methods (1824's, whose
    ``HEXES`` are those of the game it builds on) is read with that map as a game starts with
    its options off; ``hexes`` stay the constant (the engine's facts). Where the method is not
    data, the game says so and keeps ``HEXES``."""
    map_rb = """module Engine
  module Game
    module GTest
      module Map
        TILES = { '7' => 2 }.freeze
        HEXES = { white: { %w[Z9] => '' } }.freeze
        def map_optional_hexes
          towns = %w[A1]
          towns += %w[B2] if option_more_towns
          { white: { towns => 'town=revenue:0', %w[C3] => '' } }
        end
      end
    end
  end
end
"""
    game_rb = GAME.replace(
        "LAYOUT = :pointy\n",
        "LAYOUT = :pointy\n"
        "        def option_more_towns\n"
        "          @optional_rules&.include?(:more_towns)\n"
        "        end\n"
        "        def optional_hexes\n"
        "          map_optional_hexes\n"
        "        end\n",
    )
    files = {"base.rb": BASE, "g_test/meta.rb": META, "g_test/game.rb": game_rb}
    game = read_game(_engine(tmp_path / "a", {**files, "g_test/map.rb": map_rb}))
    assert game.hexes == {"Z9": {"color": "white", "code": ""}}
    assert game.played_map() == {
        "A1": {"color": "white", "code": "town=revenue:0"},
        "C3": {"color": "white", "code": ""},
    }
    assert not game.problems
    loaded = engine_game(game)
    assert sorted(loaded.hexes) == ["A1", "C3"]

    not_data = map_rb.replace("towns = %w[A1]", "towns = @players.map(&:name)")
    game = read_game(_engine(tmp_path / "b", {**files, "g_test/map.rb": not_data}))
    assert game.started_map is None and game.played_map() == game.hexes
    (problem,) = game.problems
    assert problem.constant == "Engine::Game::GTest::Game#optional_hexes"
    assert (problem.source, problem.line) == ("lib/engine/game/g_test/game.rb", 11)
    assert "calls method map_optional_hexes, which is not data" in problem.message
    assert "the map read is Engine::Game::GTest::Map::HEXES" in problem.message

    # a map built for the number of players is read as the most players have it (1824
    # Cisleithania's Budapest: a city for three players, an offboard for two), and the
    # hexes that differ for fewer as theirs (Game.for_players)
    by_players = map_rb.replace("towns = %w[A1]", "towns = @players.size == 3 ? %w[A1 D4] : %w[A1]")
    meta = META.replace(
        "GAME_TITLE = 'Test'", "GAME_TITLE = 'Test'\n        PLAYER_RANGE = [2, 3].freeze"
    )
    game = read_game(
        _engine(tmp_path / "c", {**files, "g_test/meta.rb": meta, "g_test/map.rb": by_players})
    )
    assert sorted(game.played_map()) == ["A1", "C3", "D4"]
    assert not game.problems
    assert game.maps_by_players == {2: {"D4": None}}
    loaded = engine_game(game)
    assert sorted(loaded.hexes) == ["A1", "C3", "D4"]
    assert loaded.hexes_by_players == {2: {"D4": None}}
    assert sorted(loaded.for_players(2).hexes) == ["A1", "C3"]
    assert loaded.for_players(3) is loaded


def test_1824_is_read_on_its_own_map() -> None:
    """1824 builds on 1837 (whose ``HEXES`` it inherits) and builds its own map in
    ``optional_hexes``: read from the engine, its map is 1824's (Wien in E12, the mines of
    C6, A12, A22 and H25), and every corporation's home is a hex of it."""
    root = reference("18xxgames", "engine")
    game = engine_game(EngineCheckout(root).read("G1824"))
    assert len(game.hexes) == 103
    assert "Wien" in str(game.location_names.get("E12"))
    assert {"C6", "A12", "A22", "H25"} <= set(game.hexes)
    assert all(c.home in game.hexes for c in game.corporations if c.home), game.problems
    assert not [p for p in game.problems if "home" in p.message]


def test_train_counts_the_game_works_out_in_code() -> None:
    """Where a game counts its trains in code (``num_trains``) and the count only needs its
    options (off), each train has that count: 1830's 6-trains are 2 (3 with its optional
    rule), not unlimited; 1893's 2-trains 7. Counts that depend on the players (1846's, 18GB's)
    are read by the number of players; a count that is not data stays unknown, reported so."""
    checkout = EngineCheckout(reference("18xxgames", "engine"))
    counts = {t["name"]: t.get("num") for t in checkout.read("G1830").played("TRAINS")}
    assert counts == {"2": 6, "3": 5, "4": 4, "5": 3, "6": 2, "D": "unlimited"}
    assert [t["num"] for t in checkout.read("G1893").played("TRAINS") if t["name"] == "2"] == [7]
    game_1830 = engine_game(checkout.read("G1830"))
    assert game_1830.trains.card_type("6").quantity == 2
    assert not [p for p in game_1830.problems if "no num" in p.message]
    # 1846 counts its 2-, 4- and 5-trains by the players, its 6-trains the same for 3 to 5
    # players (9): read as a number by players, which a game of so many takes
    read_1846 = checkout.read("G1846")
    assert read_1846.counts_by_players["2"] == {3: 7, 4: 8, 5: 9}
    assert [t.get("num") for t in read_1846.played("TRAINS") if t["name"] == "6"] == [9]
    game_1846 = engine_game(read_1846)
    assert game_1846.trains.card_type("6/7/8").quantity == 9
    assert game_1846.trains.card_type("2").quantity_by_players == ((3, 7), (4, 8), (5, 9))
    assert [c.quantity for c in game_1846.for_players(3).trains.card_types] == [7, 4, 3, 9]
    assert not [p for p in game_1846.problems if "no num" in p.message]
    # 1824 takes its counts from a table method of its own (num_trains_map, used by its
    # init_train_handler), 1824 Cisleithania's by the players
    counts_1824 = {t["name"]: t.get("num") for t in checkout.read("G1824").played("TRAINS")}
    assert counts_1824["2"] == 9 and counts_1824["10"] == 20
    assert checkout.read("G1824Cisleithania").counts_by_players["2"] == {2: 6, 3: 8}
    # 18GB and 1866 count them in the scenario their init_optional_rules assigns to
    # @scenario (18GB's by the players and two options, 1866's by its options)
    read_18gb = checkout.read("G18GB")
    assert read_18gb.counts_by_players["2+1"] == {2: 4, 3: 5, 4: 7, 5: 9, 6: 10}
    assert read_18gb.counts_by_players["6X"] == {2: 6, 3: 7, 4: 7, 5: 8, 6: 8}
    counts_1866 = {t["name"]: t.get("num") for t in checkout.read("G1866").played("TRAINS")}
    assert counts_1866["L"] == 20 and counts_1866["8"] == 2 and counts_1866["INF"] == 18
    game_18gb = engine_game(read_18gb)
    assert game_18gb.for_players(2).trains.card_type("2+1").quantity == 4
    assert not [p for p in game_18gb.problems if "no num" in p.message]
    # a count the engine works out otherwise stays unknown, said where TRAINS is written
    unknown = engine_game(replace(read_18gb, counts_by_players={}))
    (problem, *_) = [p for p in unknown.problems if "no num" in p.message]
    trains_at = read_18gb.found["TRAINS"]
    assert (problem.source, problem.line) == (trains_at.source, trains_at.line)


def test_the_1822_scenarios_start_with_their_own_corporations() -> None:
    """1822's scenarios play a part of its map with some of its corporations: the engine
    starts those ``STARTING_CORPORATIONS`` names, changed as ``STARTING_CORPORATIONS_OVERRIDE``
    says (1822 NRS's LNWR starts in N29, city 0, where 1822's starts in London). Read so,
    every home is a hex of the scenario's map. 1822 itself keeps all 40, since its optional
    rule plus_expansion starts the six more of ``STARTING_CORPORATIONS_PLUS``."""
    checkout = EngineCheckout(reference("18xxgames", "engine"))
    nrs = checkout.read("G1822NRS")
    assert len(nrs.corporations) == 40 and len(nrs.played("CORPORATIONS")) == 22
    lnwr = next(c for c in nrs.played("CORPORATIONS") if c["sym"] == "LNWR")
    assert (lnwr["coordinates"], lnwr["city"]) == ("N29", 0)
    assert len(checkout.read("G1822").played("CORPORATIONS")) == 40
    for name in ("G1822MRS", "G1822NRS", "G1822CaErs", "G1822CaWrs", "G1822PnwSrs"):
        game = engine_game(checkout.read(name))
        assert all(c.home in game.hexes for c in game.corporations if c.home), name
        assert not [p for p in game.problems if "home" in p.message], name


# ------------------------------------------------------------------------ optional rules

STARTED = Path(__file__).resolve().parent / "oracle" / "started.rb"


def _started(asks: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The engine's games as they start (``tests/oracle/started.rb``), by the ask's JSON."""
    done = subprocess.run(
        ["ruby", str(STARTED), str(reference("18xxgames", "oracle"))],
        input="".join(json.dumps(a) + "\n" for a in asks),
        check=True,
        capture_output=True,
        text=True,
        env={"ENGINE_LOG_LEVEL": "4", "PATH": "/usr/bin:/bin"},
        timeout=600,
    )
    out: dict[str, dict[str, Any]] = {}
    for line in done.stdout.splitlines():
        answer = json.loads(line)
        out[json.dumps(answer["ask"], sort_keys=True)] = answer
    return out


def _changed(
    before: dict[str, Any], after: dict[str, Any]
) -> tuple[
    dict[str, str | None], dict[str, int], list[str] | None, set[str], set[str], dict[str, int]
]:
    """What differs from ``before`` to ``after`` (each a started game's hexes, trains,
    phases, corporations, companies and tiles): the hexes whose colour changes (None: gone),
    the trains whose count changes, the phases after where they change, the corporations
    and companies added or gone, the tiles whose count changes."""
    hexes = {
        c: after["hexes"].get(c)
        for c in {*before["hexes"], *after["hexes"]}
        if before["hexes"].get(c) != after["hexes"].get(c)
    }
    trains = {
        t: after["trains"].get(t, 0)
        for t in {*before["trains"], *after["trains"]}
        if before["trains"].get(t, 0) != after["trains"].get(t, 0)
    }
    corps = set(before["corporations"]) ^ set(after["corporations"])
    companies = set(before["companies"]) ^ set(after["companies"])
    phases = after["phases"] if after["phases"] != before["phases"] else None
    tiles = {
        t: after["tiles"].get(t, 0)
        for t in {*before["tiles"], *after["tiles"]}
        if before["tiles"].get(t, 0) != after["tiles"].get(t, 0)
    }
    return hexes, trains, phases, corps, companies, tiles


#: The parts :func:`_changed` compares, as a problem of an option names them.
_PARTS = (
    ("the map",),
    ("the trains",),
    ("the phases",),
    ("the corporations", "the minors"),
    ("the private companies",),
    ("the tiles",),
)


def _ours(game: Any, unlimited: int) -> dict[str, Any]:
    """A tilelay game as a started game's facts (an unlimited train counted as the engine's
    depot holds it: ``unlimited``)."""
    return {
        "hexes": {c: t.color.value for c, t in game.hexes.items()},
        "trains": {
            str(t["name"]): t["num"] if isinstance(t.get("num"), int) else unlimited
            for t in game.train_data
        },
        "phases": [p.name for p in game.trains.phases],
        "corporations": sorted(c.sym for c in game.corporations),
        "companies": sorted(c.sym for c in game.companies),
        # (an unlimited tile: as many as the engine's supply holds, one)
        "tiles": {name: 1 if n == UNLIMITED else n for name, n in game.manifest.items() if n},
    }


def test_optional_rules_change_what_the_engine_changes(games: dict[str, EngineGame]) -> None:
    """Every optional rule whose change the reader reads from the game's data methods
    (:class:`~tilelay.sources.engine.OptionEffect`): the engine itself, started with it and
    without it (``tests/oracle/started.rb``, under Ruby), changes the same hexes (those of
    the map, and their colours), counts of trains, phases, corporations and companies as
    tilelay's game does with it and without it (:meth:`Game.with_options`), for the most
    players and for each number of players whose map the option changes (18GB's East-West
    map for two)."""
    if shutil.which("ruby") is None:
        pytest.skip("ruby not found: cannot run the engine (apt-get install -y ruby)")
    cases: list[tuple[EngineGame, str, int]] = []
    for game in games.values():
        span = game.meta.get("PLAYER_RANGE")
        if not isinstance(span, list) or len(span) != 2:
            continue
        rules = {str(r["sym"]): r for r in game.meta.get("OPTIONAL_RULES") or []}
        for option, effect in game.option_effects.items():
            # the most players, those the option is for (it is dropped for others), those
            # whose map it changes
            counts = {
                int(span[1]),
                *rules[option].get("players", []),
                *(effect.maps_by_players or {}),
            }
            cases.extend((game, option, n) for n in sorted(counts))
    assert len(cases) >= 25
    asks = [
        {"title": g.title, "players": n, "options": options}
        for g, option, n in cases
        for options in ([], [option])
    ]
    answers = _started(asks)
    compared = 0
    for game, option, n in cases:
        plain, chosen = (
            answers[json.dumps({"title": game.title, "players": n, "options": o}, sort_keys=True)]
            for o in ([], [option])
        )
        if "error" in plain or "error" in chosen:
            continue  # (the engine does not start the game so: not tilelay's to match)
        try:
            ours = engine_game(game)
        except TilelayError:
            continue  # (a game tilelay does not load: 1841's map is built in code)
        unlimited = max([*plain["trains"].values(), *chosen["trains"].values(), 0])
        mine = _changed(
            _ours(ours.for_players(n), unlimited),
            _ours(ours.with_options([option]).for_players(n), unlimited),
        )
        theirs = _changed(plain, chosen)
        # (an unlimited train: the engine's depot holds some number of it, tilelay none)
        unlimited_trains = {
            str(t["name"])
            for g in (ours, ours.with_options([option]))
            for t in g.train_data
            if not isinstance(t.get("num"), int)
        }
        mine[1].update((t, theirs[1][t]) for t in unlimited_trains if t in theirs[1])
        if n != int(game.meta["PLAYER_RANGE"][1]):
            # (by the number of players tilelay plays a map and the numbers of trains, not
            # corporations or companies: 18GB's scenarios for two draw theirs)
            mine, theirs = (*mine[:3], None, None, mine[5]), (*theirs[:3], None, None, theirs[5])  # type: ignore[assignment]
        # (what the option changes in code that is not data is left as it is, and the
        # game's problems say so: that part is not compared)
        said = " ".join(
            p.message for p in game.problems if p.message.startswith(f"option {option}:")
        )
        for i, words in enumerate(_PARTS):
            if any(f"changes {w} in code" in said for w in words):
                mine_part, theirs_part = list(mine), list(theirs)
                mine_part[i] = theirs_part[i] = None
                mine, theirs = tuple(mine_part), tuple(theirs_part)  # type: ignore[assignment]
        assert mine == theirs, (game.name, option, n)
        compared += 1
    print(f"\n{compared} of {len(cases)} (game, option, players) started by the engine: equal")
    assert compared >= 20
