"""Other engines' games found under paths, made tilelay games, cached (tilelay.sources.games)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from tests.conftest import reference
from tilelay.cli import main
from tilelay.errors import NoGameError
from tilelay.games import registry
from tilelay.games.model import Game
from tilelay.sources import games as sources
from tilelay.tile import NodeKind


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv(sources.ENVIRONMENT_VARIABLE, "")  # restored (unset) afterwards
    yield
    registry.reset()  # the games the command line added stay with this test


@pytest.fixture(scope="module")
def engine_entries(tmp_path_factory: pytest.TempPathFactory) -> dict[str, registry.GameEntry]:
    mp = pytest.MonkeyPatch()
    try:
        entries = sources.discover(reference("18xxgames", "engine"))
    finally:
        mp.undo()
    return {e.name: e for e in entries}


def test_every_engine_game_with_a_map_loads(engine_entries: dict[str, registry.GameEntry]) -> None:
    assert len(engine_entries) >= 114
    for entry in engine_entries.values():
        game = entry.load()
        assert isinstance(game, Game) and game.hexes, entry.name
        assert game.format == "18xx.games"


def test_1846_from_the_engine(engine_entries: dict[str, registry.GameEntry]) -> None:
    game = engine_entries["1846"].load()
    assert game.layout.value == "pointy" and len(game.hexes) > 70
    assert game.corporation("PRR").home == "F20"
    minors = [c for c in game.corporations if c.kind == "minor"]
    assert {c.sym for c in minors} >= {"MS", "BIG4"}
    assert game.hex_tile("D6").location_name == "Chicago"
    assert game.tile("57").cities and game.manifest["57"] == 4
    # trains the engine counts by the players have a number for each (a game of four: 8 2s)
    assert game.trains.card_type("2").quantity_by_players == ((3, 7), (4, 8), (5, 9))
    assert game.for_players(4).trains.card_type("2").quantity == 8
    assert not any("no num" in str(p) for p in game.problems)


def test_the_cache_answers_the_second_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game_dir = reference("18xxgames", "engine", "lib", "engine", "game", "g_1889")
    first = sources.discover(game_dir)
    assert [e.name for e in first] == ["1889"]
    first[0].load()
    calls: list[str] = []
    monkeypatch.setattr(sources.EngineReader, "games", lambda self: calls.append("games") or [])
    monkeypatch.setattr(sources.EngineReader, "load", lambda self, key: calls.append(key))
    again = sources.discover(game_dir)
    game = again[0].load()
    assert calls == [] and game.name == "1889" and len(game.hexes) == 52


def test_one_game_and_its_checkout_are_apart_through_links(tmp_path: Path) -> None:
    # reached through a symbolic link, one g_<name> folder and the whole checkout around it
    # list the same (resolved) files: the cache must still tell the two sources apart
    game_dir = reference("18xxgames", "engine", "lib", "engine", "game")
    (tmp_path / "engine").symlink_to(game_dir, target_is_directory=True)
    linked = tmp_path / "engine" / "g_1889"
    assert [e.name for e in sources.discover(linked)] == ["1889"]
    assert len(sources.discover(tmp_path / "engine")) > 100
    assert [e.name for e in sources.discover(linked)] == ["1889"]


def test_what_the_cache_says_of_a_file_names_it_as_this_run_does(tmp_path: Path) -> None:
    """The cache is shared by every copy of the same files: a game it could not read is
    named under the folder this run was given, not the first copy's."""
    rails = reference("rails")
    for copy in ("one", "two"):
        for game in ("1830", "1817"):  # 1817: only a Game.xml, not loaded
            (tmp_path / copy / game).mkdir(parents=True)
            for f in (rails / game).iterdir():
                (tmp_path / copy / game / f.name).write_bytes(f.read_bytes())
    sources.discover(tmp_path / "one")
    (warning,) = [
        w
        for w in sources.cache.SourceCache(
            "rails", tmp_path / "two", sources._reader(tmp_path / "two").files()
        ).skipped()
    ]
    assert warning.source == str(tmp_path / "two" / "1817")


def test_a_game_written_as_toml_is_read_back_with_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """convert-game's TOML is a source of its own: a file, or a folder of them."""
    rails = str(reference("rails"))
    assert main(["--games", rails, "convert-game", "1830@rails", "--to", "toml"]) == 0
    text = capsys.readouterr().out
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "my1830.toml").write_text(text.replace('title = "1830"', 'title = "My 1830"'))
    (folder / "broken.toml").write_text("title = 5")
    for path in (folder / "my1830.toml", folder):
        (entry,) = sources.discover(path)
        game = entry.load()
        assert (entry.source, entry.format) == (str(folder / "my1830.toml"), "tilelay")
        original = registry.load_game("1830@rails")
        assert game.title == "My 1830" and set(game.hexes) == set(original.hexes)
    skipped = sources.cache.SourceCache(
        "tilelay", folder, sources._reader(folder).files()
    ).skipped()
    assert [w.source for w in skipped] == [str(folder / "broken.toml")]


def test_a_path_without_games_says_so(tmp_path: Path) -> None:
    with pytest.raises(NoGameError, match="holds no game"):
        sources.discover(tmp_path)
    with pytest.raises(NoGameError, match="no such file"):
        sources.discover(tmp_path / "absent")
    # a game file named on its own that does not read: why, naming the file once
    broken = tmp_path / "x.toml"
    broken.write_text('[game]\nname = "X"\n')
    with pytest.raises(NoGameError) as caught:
        sources.discover(broken)
    text = str(caught.value)
    assert text.count(str(broken)) == 1 and "unknown key 'game'" in text


def test_a_path_of_the_environment_that_is_not_there_says_where_it_came_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(sources.ENVIRONMENT_VARIABLE, str(tmp_path / "absent"))
    assert main(["games"]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"tilelay: error: {tmp_path / 'absent'}: no such file or folder (a path of TILELAY_GAMES)\n"
    )


def test_paths_from_the_environment() -> None:
    env = {sources.ENVIRONMENT_VARIABLE: f"/a{sources.os.pathsep}{sources.os.pathsep}/b"}
    assert sources.paths_from_environment(env) == ["/a", "/b"]


def test_cli_games_lists_and_converts(capsys: pytest.CaptureFixture[str]) -> None:
    game_dir = str(reference("18xxgames", "engine", "lib", "engine", "game", "g_1846"))
    assert main(["--games", game_dir, "games", "--json"]) == 0
    listed = {g["title"]: g for g in json.loads(capsys.readouterr().out)}
    assert listed["1846"]["format"] == "18xx.games" and listed["1889"]["format"] == "tilelay"
    assert main(["--games", game_dir, "convert-game", "1846", "--to", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hexes"]["D6"]["color"] == "yellow"  # Chicago is printed yellow
    assert {"sym": "PRR", "home": "F20"}.items() <= data["corporations"][0].items()
    assert main(["--games", "/nonexistent/place", "games"]) == 2
    assert "no such file or folder" in capsys.readouterr().err


def test_cache_key_follows_the_readers_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reader fixed without a new version number must not find its old results."""
    from tilelay.sources import cache

    (tmp_path / "Map.xml").write_text("<Map/>", encoding="utf-8")
    files = [tmp_path / "Map.xml"]
    before = cache._key("rails", tmp_path, files)
    monkeypatch.setattr(cache, "_code_digest", lambda: b"another reader")
    assert cache._key("rails", tmp_path, files) != before
    # and tilelay's data: a game's upgrade rules changed there were read from the cache as
    # they had been (18 India's, added, were not seen)
    digested = {
        p.relative_to(Path(cache.__file__).parents[1]).as_posix() for p in cache._code_files()
    }
    assert {
        "sources/cache.py",
        "data/upgrade_rules.toml",
        "data/known_differences.toml",
    } <= digested


def test_every_game_of_every_source_round_trips_through_toml(tmp_path: Path) -> None:
    """``convert-game --to toml`` of any game known reads back to the same game data; games
    read from Rails and GE18XX write their trains in the 18xx.games shape."""
    from tilelay.games import game_to_data, game_to_toml, read_game_toml

    sources.add_paths([reference("18xxgames", "engine"), reference("rails"), reference("ge18xx")])
    count = 0
    for entry in registry.entries():
        game = entry.load()
        again = read_game_toml(game_to_toml(game), f"{entry.qualified_name}.toml")
        assert game_to_data(again) == game_to_data(game), entry.qualified_name
        # (its upgrade rules all: 18USA's rules that change in play were lost once)
        assert replace(again.upgrade_rules, name="") == replace(game.upgrade_rules, name=""), (
            entry.qualified_name
        )
        count += 1
    assert count >= 140
    rails_1830 = registry.load_game("1830@rails")
    data = game_to_data(rails_1830)
    assert [t["name"] for t in data["trains"]] == ["2", "3", "4", "5", "6", "D"]
    assert data["trains"][1]["distance"] == 3 and data["trains"][0]["rusts_on"] == "4"
    assert {p["name"]: p.get("on") for p in data["phases"]}["3"] == "3"


def test_a_converted_game_replays_records_that_name_cities_by_the_engine_s_parts(
    tmp_path: Path,
) -> None:
    """1849's C1 lists a city after other parts: the engine's records name it by its part
    number, which the converted game keeps (``engine_parts``)."""
    from tilelay.audit import audit_record
    from tilelay.games import game_to_toml, read_game_toml

    sources.add_paths([reference("18xxgames", "engine")])
    converted = read_game_toml(
        game_to_toml(registry.load_game("1849")), str(tmp_path / "1849.toml")
    )
    assert "engine_parts" in game_to_toml(converted)
    audit = audit_record(
        reference("18xxgames", "fixtures", "1849__27939.json"), game=converted, optimum=False
    )
    assert audit.error is None and len(audit.runs) == 48


def test_convert_game_says_what_a_rails_game_loses(capsys: pytest.CaptureFixture[str]) -> None:
    rails = str(reference("rails"))
    assert main(["--games", rails, "convert-game", "1830@rails"]) == 0
    err = capsys.readouterr().err
    assert "tilelay: warning: 1830: train exchange_cost (of D) is not kept" in err
    assert "major_stops" not in err  # 99 and 999 both mean unlimited
    assert main(["convert-game", "1889"]) == 0  # tilelay's own: nothing lost
    assert capsys.readouterr().err == ""


def test_18dixie_s_minors_are_named_without_the_engine_s_spaces(
    engine_entries: dict[str, registry.GameEntry],
) -> None:
    """The engine names 18Dixie's minors ``' 1'`` … ``' 13'`` (the space sorts them first),
    which no action's text can name: tilelay reads them ``1`` … ``13``, and a board takes a
    minor's token and runs its routes; a record naming ``' 1'`` replays onto it
    (:func:`tilelay.replay.actions_in_force`)."""
    from tilelay.replay import RecordError, replay
    from tilelay.sandbox import BoardState

    registry.add_entries([engine_entries["18Dixie"]])
    game = registry.load_game("18Dixie")
    minors = [c for c in game.corporations if c.kind == "minor"]
    assert [c.sym for c in minors] == [str(n) for n in range(1, len(minors) + 1)]
    assert all(c.sym == c.sym.strip() for c in game.companies)
    home = minors[0].home
    assert home is not None
    state = BoardState(game="18Dixie").place_token(home, "1")
    assert state.board().tokens[(home, 0)] == ("1",)
    assert state.with_routes("1", ["2"]).actions == state.actions
    # the engine's record names the minor ' 1': the replay knows it as the board's 1, whose
    # home token its setup placed
    action = {"type": "place_token", "id": 1, "entity": " 1", "entity_type": "minor"}
    with pytest.raises(RecordError, match=f"{home}: 1 already has a token in city 0"):
        replay({"title": "18Dixie", "actions": [{**action, "city": f"{home}-0-0"}]})


def test_a_home_city_on_a_tile_of_one_city_is_that_city(
    engine_entries: dict[str, registry.GameEntry],
) -> None:
    """The engine reserves a tile of one city's city for whatever city a corporation's home
    asks (``Tile#add_reservation!``): 18VA's SR asks for city 1 of Richmond, whose tile has
    one; tilelay homes it there without a word, as it does 18Dixie's SR in Knoxville."""
    for title, hex_ in (("18VA", "F11"), ("18Dixie", "C17")):
        game = engine_entries[title].load()
        sr = game.corporation("SR")
        assert (sr.home, sr.city) == (hex_, None)
        assert len(game.hex_tile(hex_).cities) == 1
        assert not [p for p in game.problems if "SR" in str(p)], game.problems


def test_a_corporation_without_tokens_has_no_home_token_to_place(
    engine_entries: dict[str, registry.GameEntry],
) -> None:
    """1858's private railways stand in towns and have no token: the engine places no home
    token for them, and tilelay gives them no home (before, each was said to have a home
    with no city)."""
    game = engine_entries["1858"].load()
    railway = game.corporation("R&T")
    assert railway.tokens == () and railway.home is None
    assert not [p for p in game.problems if "has no city" in str(p)], game.problems


def test_several_home_stations_each_take_a_home_token(
    engine_entries: dict[str, registry.GameEntry],
) -> None:
    """Where a game's own ``place_home_token`` places a token at each of a corporation's
    coordinates (1894's Ouest at Le Havre and Paris, 18Rhl's CCE, 1866's PLM), the
    corporation has them all as homes, and a board and replay place a token in each; where
    it does not (18CZ's large corporations choose one), the first is used, as the problem
    says. A corporation without tokens has no home and no problem (1866's nationals, 1858's
    private railways, each listing several hexes)."""
    from tilelay.board import Board

    for title, sym, homes in (
        ("1894", "Ouest", (("B3", 0), ("E6", 0))),
        ("1847 AE", "HLB", (("D18", 0), ("C21", 0))),
        ("18Rhl", "CCE", (("E6", 0), ("I10", 0))),
        ("1866", "PLM", (("M9", 0), ("P10", 0))),
    ):
        game = engine_entries[title].load()
        assert game.home_cities(sym) == homes, title
        assert not [p for p in game.problems if "several homes" in str(p)], game.problems
        tokens = Board(game).with_home_tokens([sym]).tokens
        assert {key for key, syms in tokens.items() if sym in syms} == set(homes), title
    # replay places them all when the corporation first acts
    from tilelay.replay import replay

    registry.add_entries([engine_entries["1894"]])
    action = {"type": "pass", "id": 1, "entity": "Ouest", "entity_type": "corporation"}
    board = replay({"title": "1894", "actions": [action]}).board
    assert {key for key, syms in board.tokens.items() if "Ouest" in syms} == {
        ("B3", 0),
        ("E6", 0),
    }
    cz = engine_entries["18CZ"].load()
    assert any("PR: several homes ['A22', 'B19']; the first is used" in str(p) for p in cz.problems)
    assert cz.corporation("PR").more_homes == ()
    for title, sym in (("1866", "GB"), ("1858", "M&A")):
        corp = engine_entries[title].load().corporation(sym)
        assert (corp.home, corp.city, corp.more_homes) == (None, None, ()), title
    quiet = [p for p in engine_entries["1858"].load().problems if "several homes" in str(p)]
    assert not quiet


def test_the_engine_s_own_mistaken_strings_are_drawn_as_the_engine_has_them(
    engine_entries: dict[str, registry.GameEntry],
) -> None:
    """Hexes whose strings hold a mistake the engine reads past (a missing ``;``) are read
    as it reads them, each with a problem naming the columns (they were drawn as plain
    hexes): 1840's F8 and F10 (two towns, four paths; the border lost, as in the engine),
    1893's D9 (an offboard with the path to edge 2; the first path lost), 18NY 1E's A17."""
    game = engine_entries["1840"].load()
    for coord in ("F8", "F10"):
        tile = game.hexes[coord]
        assert [n.kind for n in tile.nodes] == [NodeKind.TOWN, NodeKind.TOWN], coord
        assert len(tile.paths) == 4 and not tile.borders, coord
        (said,) = [p.message for p in game.problems if f"({coord})" in p.message]
        assert "read as 18xx.games reads it" in said and "(column 84) read as _1" in said
    d9 = engine_entries["1893"].load().hexes["D9"]
    assert [n.kind for n in d9.nodes] == [NodeKind.OFFBOARD] and len(d9.paths) == 1
    a17 = engine_entries["18NY 1st Edition"].load().hexes["A17"]
    assert a17.nodes and a17.paths


def test_a_map_the_engine_builds_for_the_players_is_played_for_them(
    engine_entries: dict[str, registry.GameEntry],
) -> None:
    """1824 Cisleithania's Budapest (G12) is a city for three players and an offboard for
    two; 18GB's map for two players is smaller: read for each number of players as the
    engine builds it, played by ``Game.for_players`` (a board or a record of two players),
    with no problem left saying the map was read for the most players only."""
    from tilelay.sandbox import BoardState

    registry.add_entries([engine_entries["1824 Cisleithania"], engine_entries["18GB"]])
    cis = registry.load_game("1824 Cisleithania")
    assert [n.kind for n in cis.hexes["G12"].nodes] == [NodeKind.CITY]
    assert [n.kind for n in cis.for_players(2).hexes["G12"].nodes] == [NodeKind.OFFBOARD]
    assert not [p for p in cis.problems if "number of players" in p.message]
    gb = registry.load_game("18GB")
    assert len(gb.hexes) == 111 and len(gb.for_players(2).hexes) == 92
    assert gb.for_players(6) is gb.for_players(5).for_players(6)
    board = BoardState(game="18GB", players=2).board()
    assert len(board.game.hexes) == 92


def test_upgrade_rules_the_engines_classes_hold_are_the_games(
    engine_entries: dict[str, registry.GameEntry],
) -> None:
    """``TILE_UPGRADES_MUST_USE_MAX_EXITS`` and ``StubsAreRestricted`` are read from the
    game's class, its own or an ancestor's: 1822's scenarios and 1817's variants take their
    parent's most exits for cities, 1893 and 18Rhl restrict stubs, 1807 and 1812 (of 1867)
    both; a game whose class has neither has neither."""
    for title, max_exits, stubs in (
        ("1822MRS", ("cities",), False),
        ("1817NA", ("cities",), False),
        ("1822CA WRS", ("unlabeled_cities",), False),
        ("1893", (), True),
        ("18Rhl", (), True),
        ("1807", ("cities",), True),
        ("1889", (), False),
    ):
        rules = engine_entries[title].load().upgrade_rules
        assert (rules.max_exits, rules.stubs_restricted) == (max_exits, stubs), title


def test_1822s_s_hex_takes_the_yellow_city(engine_entries: dict[str, registry.GameEntry]) -> None:
    """1822's white S hex (D35: a city and a town joined) takes the yellow city 57 alone, its
    town gone (game.rb upgrades_to?), in 1822 and 1822 MRS: in the two rotations its border
    and the map leave."""
    from tilelay.board import Board

    for title in ("1822", "1822MRS"):
        game = engine_entries[title].load()
        assert Board(game).legal_lays("D35", phase=game.phases[0]) == {"57": (2, 5)}, title
