"""The Carcassonne tester's defects: seeds that saved but did not load, web exports the command
line could not resume, tile sets read in quadratic time, the River's U-turn rule, the number of
players, input accepted where it should be refused, options a loaded game ignored, wording."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tilelay.carcassonne import tileset as tileset_module
from tilelay.carcassonne.board import ABBOT, Board, Rules, ScoreEvent
from tilelay.carcassonne.errors import CarcassonneError, IllegalMoveError
from tilelay.carcassonne.game import (
    MAX_PLAYERS,
    MAX_SEED,
    MIN_PLAYERS,
    Game,
    GreedyPlayer,
    Move,
    RandomPlayer,
    describe_event,
)
from tilelay.carcassonne.players import make_player, new_game
from tilelay.carcassonne.record import FORMAT, GameRecord, load_game, record, save_game
from tilelay.carcassonne.tile import Kind
from tilelay.carcassonne.tileset import load_tileset, parse_tileset
from tilelay.cli import main


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The one line ``tilelay ARGV`` writes on standard error, exiting 2 with no output."""
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err


def _saved(**fields: Any) -> dict[str, Any]:
    """A saved game's JSON form (no moves, two random players, seed 3), with ``fields``."""
    return {
        "format": FORMAT,
        "version": 1,
        "seed": 3,
        "rules": {},
        "players": ["random", "random"],
        "moves": [],
        **fields,
    }


# --- 1. every seed a game may have saves and loads back ----------------------------------------


@pytest.mark.parametrize("seed", [10**15 + 1, MAX_SEED])
def test_a_game_saved_with_any_seed_loads_back(
    seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--seed 1000000000000001 --save`` worked but ``--load`` refused the number (the JSON
    reader's limit on numbers is 10**15), and ``--seed 9223372036854775807`` (2**63 - 1, the top
    of the range the command promised) was not a whole number to the argument parser."""
    saved = tmp_path / "big.json"
    argv = ["carcassonne", "play", "--seed", str(seed), "--save", str(saved), "--quiet"]
    assert main(argv) == 0
    final = capsys.readouterr().out
    assert main(["carcassonne", "play", "--load", str(saved), "--quiet"]) == 0
    assert capsys.readouterr().out == final
    assert load_game(saved.read_text()).seed == seed


@pytest.mark.parametrize("seed", [MAX_SEED + 1, 10**30, -1])
def test_a_seed_out_of_the_range_is_refused_saying_the_range(
    seed: int, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["carcassonne", "play", "--seed", str(seed)])
    assert exit_info.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1
    assert f"argument --seed: expected a whole number from 0 to {MAX_SEED} (2**63 - 1)" in err


def test_one_seed_range_for_the_argument_the_engine_and_the_reader() -> None:
    assert MAX_SEED == 2**63 - 1
    for bad in (-1, MAX_SEED + 1):
        with pytest.raises(CarcassonneError, match=f"seed {bad}: expected a whole number from 0"):
            Game([RandomPlayer(), RandomPlayer()], bad)
    for bad in (-1, MAX_SEED + 1, 1.0, "7", True, None):
        with pytest.raises(CarcassonneError, match=r"'seed' .*: expected a whole number"):
            GameRecord.from_json(json.dumps(_saved(seed=bad)))
    for seed in (MAX_SEED, 10**15 + 1):
        assert GameRecord.from_json(json.dumps(_saved(seed=seed))).seed == seed
        assert GameRecord.from_json(json.dumps(_saved(seed=seed)).encode()).seed == seed
    # the seed alone may pass the reader's limit on numbers (10**15); other numbers may not
    for data in (_saved(seed=MAX_SEED, extra=10**16), _saved(moves=[{"x": 10**18}])):
        with pytest.raises(CarcassonneError, match="too large: at most 1,000,000,000,000,000"):
            GameRecord.from_json(json.dumps(data))
    with pytest.raises(CarcassonneError, match="not JSON: malformed JSON: the number"):
        GameRecord.from_json(json.dumps(_saved(seed=10**40)))
    with pytest.raises(CarcassonneError, match="not JSON: malformed JSON: Expecting value"):
        GameRecord.from_json('{"seed": 9223372036854775807, "x": ')
    deep: Any = 0
    for _ in range(70):
        deep = [deep]
    with pytest.raises(CarcassonneError, match="not JSON: malformed JSON: nested too deeply"):
        GameRecord.from_json(json.dumps(_saved(seed=MAX_SEED, extra=deep)))


# --- 2. a game with a person to play: refused in one line -------------------------------------


def test_a_game_with_people_to_play_is_refused_naming_the_file_and_the_seats(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A web export of a game not ended with a person's seat failed with "player 1 is a person:
    give the move with make_move()": no file named, and a method named."""
    export = tmp_path / "export.json"
    export.write_text(json.dumps(_saved(players=["greedy", "human", "human"], name="a game")))
    err = _refused(["carcassonne", "play", "--load", str(export)], capsys)
    assert err.startswith(f"tilelay: error: {export}: players 2 and 3 are people")
    assert "/carcassonne/play" in err and "make_move" not in err
    export.write_text(json.dumps(_saved(players=["human", "random"])))
    err = _refused(["carcassonne", "play", "--load", str(export)], capsys)
    assert f"{export}: player 1 is a person," in err


def test_an_ended_game_with_people_loads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = Game([GreedyPlayer("a"), RandomPlayer("b")], 4)
    game.play()
    data = record(game).to_dict()
    data["players"] = ["greedy", "human"]
    saved = tmp_path / "ended.json"
    saved.write_text(json.dumps(data))
    assert main(["carcassonne", "play", "--load", str(saved)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Carcassonne, seed 4, 2 players: greedy, human"
    assert out[-1].startswith("Final score: ")


# --- 3. reading a tile set is linear ------------------------------------------------------------


def _tileset_text(tiles: int) -> str:
    out = ['name = "big"', 'start = "T0"']
    for i in range(tiles):
        out += [f"[tiles.T{i}]", 'about = "a monastery"', "count = 1"]
        out += ['features = ["monastery", "farm Nw Ne En Es Se Sw Ws Wn"]', ""]
    return "\n".join(out)


class _Scanned(str):
    """A text that counts the characters its search methods look at."""

    looked = 0

    def _count(self, start: Any, end: Any) -> None:
        lo, hi, _ = slice(start, end).indices(len(self))
        _Scanned.looked += max(0, hi - lo)

    def find(self, sub: Any, start: Any = None, end: Any = None) -> int:
        self._count(start, end)
        return super().find(sub, start, end)

    def index(self, sub: Any, start: Any = None, end: Any = None) -> int:
        self._count(start, end)
        return super().index(sub, start, end)

    def rfind(self, sub: Any, start: Any = None, end: Any = None) -> int:
        self._count(start, end)
        return super().rfind(sub, start, end)

    def count(self, sub: Any, start: Any = None, end: Any = None) -> int:
        self._count(start, end)
        return super().count(sub, start, end)

    def __getitem__(self, key: Any) -> str:
        if isinstance(key, slice):
            self._count(key.start, key.stop)
        return super().__getitem__(key)


class _CountingRe:
    """The ``re`` module, counting the characters each search is given to look at."""

    def __getattr__(self, name: str) -> Any:
        return getattr(re, name)

    def _looked(self, string: Any, pos: int = 0) -> None:
        if isinstance(string, str):
            _Scanned.looked += len(string) - pos

    def search(self, pattern: Any, string: str, flags: int = 0) -> Any:
        self._looked(string)
        return re.search(pattern, string, flags)

    def match(self, pattern: Any, string: str, flags: int = 0) -> Any:
        self._looked(string)
        return re.match(pattern, string, flags)

    def finditer(self, pattern: Any, string: str, flags: int = 0) -> Any:
        self._looked(string)
        return re.finditer(pattern, string, flags)

    def findall(self, pattern: Any, string: str, flags: int = 0) -> Any:
        self._looked(string)
        return re.findall(pattern, string, flags)

    def compile(self, pattern: Any, flags: int = 0) -> Any:
        raise AssertionError("a pattern compiled here would scan the text uncounted")


def _looked_at(text: str) -> int:
    _Scanned.looked = 0
    ts = parse_tileset(_Scanned(text), source="big.toml")
    assert ts.total == text.count("[tiles.")
    return _Scanned.looked


def test_reading_a_tile_set_scans_its_text_a_few_times_whatever_its_size(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every tile header and feature string was searched for from the start of the text (and
    its line counted from there): 20,000 tiles took 50 s, 40,000 over 5 minutes. The characters
    the reader's searches look at are counted (no clock): a few times the text's length, for
    100 tiles as for 2,000 (the quadratic reader looked at about 4,000 times the text's length
    for 2,000 tiles)."""
    monkeypatch.setattr(tileset_module, "re", _CountingRe())
    small, large = _tileset_text(100), _tileset_text(2000)
    assert _looked_at(small) <= 8 * len(small)
    assert _looked_at(large) <= 8 * len(large)


def test_lines_are_still_named_in_a_large_tile_set(tmp_path: Path) -> None:
    text = _tileset_text(3000)
    lines = text.splitlines()
    # a feature that does not read: its own line; a tile whose features do not fit: its header
    i = lines.index("[tiles.T2999]") + 3
    lines[i] = 'features = ["monastery", "road N Q"]'
    bad = tmp_path / "big.toml"
    bad.write_text("\n".join(lines))
    with pytest.raises(CarcassonneError) as info:
        load_tileset(bad)
    assert str(info.value).startswith(f"{bad}:{i + 1}: feature 'road N Q'")
    lines = text.splitlines()
    i = lines.index("[tiles.T1500]")
    lines[i + 3] = 'features = ["monastery", "farm Nw"]'
    bad.write_text("\n".join(lines))
    with pytest.raises(CarcassonneError) as info:
        load_tileset(bad)
    assert str(info.value).startswith(f"{bad}:{i + 1}: tile T1500: ")


# --- 4. the River: no two curves in a row turning the same way ---------------------------------


def test_a_straight_between_two_curves_lets_the_second_turn_either_way() -> None:
    """The river may not turn back on itself: two curves in a row may not turn the same way.
    A curve turning the same way as the last curve was refused even with straight river tiles
    between."""
    b = Board(players=2, rules=Rules(river=True))
    b.place_at("river-curve", 1, 0, 1)  # from the spring (west): turns left, to the north
    b.score_turn()
    b.place_at("river-straight", 1, -1, 1)
    b.score_turn()
    got = {(p.x, p.y, p.rotation) for p in b.legal_placements("river-curve")}
    assert got == {(1, -2, 0), (1, -2, 3)}  # left (to the west) and right (to the east)
    b.place_at("river-curve", 1, -2, 0)  # left again, after the straight
    b.score_turn()
    # but not another left turn (to the south, rotation 3) straight after it: a U-turn
    got = {(p.x, p.y, p.rotation) for p in b.legal_placements("river-curve")}
    assert got == {(0, -2, 2)}


def test_the_river_never_runs_into_placed_tiles() -> None:
    """Right, straight, right, straight, right: the river heads back to the spring, and may not
    turn into it (placement legality still applies to the river)."""
    b = Board(players=2, rules=Rules(river=True))
    for name, x, y, rotation in [
        ("river-curve", 1, 0, 0),  # right: south
        ("river-straight", 1, 1, 1),
        ("river-curve", 1, 2, 1),  # right: west
        ("river-straight", 0, 2, 0),
        ("river-curve", -1, 2, 2),  # right: north
        ("river-straight", -1, 1, 1),
    ]:
        b.place_at(name, x, y, rotation)
        b.score_turn()
    # at (-1, 0) a right turn would send the river east into the spring's farm: only left
    assert [(p.x, p.y, p.rotation) for p in b.legal_placements("river-curve")] == [(-1, 0, 0)]
    with pytest.raises(IllegalMoveError, match="cannot go"):
        b.place_at("river-curve", -1, 0, 3)


def test_river_games_play_to_the_end() -> None:
    for seed in range(30):
        game = new_game(2, seed=seed, river=True)
        game.play()
        assert game.board.finished
        assert len(game.board.placed) + len(game.discarded) == 84


# --- 5. 2 to 5 players ----------------------------------------------------------------------


def test_a_game_has_2_to_5_players(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (MIN_PLAYERS, MAX_PLAYERS) == (2, 5)
    for count in (1, 6):
        with pytest.raises(CarcassonneError, match=f"{count} players: expected 2 to 5"):
            new_game(count)
        with pytest.raises(CarcassonneError, match=f"{count} players: expected 2 to 5"):
            Game([RandomPlayer() for _ in range(count)])
        err = _refused(["carcassonne", "play", "--players", str(count)], capsys)
        assert f"--players {count}: expected a number from 2 to 5" in err
        saved = tmp_path / "g.json"
        saved.write_text(json.dumps(_saved(players=["random"] * count)))
        err = _refused(["carcassonne", "play", "--load", str(saved)], capsys)
        assert f"{saved}: saved game: 'players' lists {count} players: a game has 2 to 5" in err
    for count in (2, 5):
        assert len(new_game(count).players) == count


# --- 6. input checks ------------------------------------------------------------------------


@pytest.mark.parametrize("version", [True, 1.0, "1", None, 2])
def test_a_saved_game_version_must_be_the_number_1(version: Any) -> None:
    """``"version": true`` and ``1.0`` were read as version 1 (``True == 1``)."""
    with pytest.raises(CarcassonneError, match=r"saved game: 'version' .*: expected 1"):
        GameRecord.from_json(json.dumps(_saved(version=version)))


def _first_move(*, abbot: bool = False, **fields: Any) -> dict[str, Any]:
    game = new_game(["random", "random"], seed=3, abbot=abbot)
    move = game.legal_moves()[0]
    return {"tile": game.tile_name, "x": move.x, "y": move.y, "rotation": move.rotation, **fields}


@pytest.mark.parametrize("follower", [-1, -2, ABBOT, ABBOT + 1])
def test_a_saved_follower_must_be_a_feature(follower: int) -> None:
    """``"follower": -1`` was read as no follower, ``64 + k`` as the abbot on feature k."""
    data = _saved(rules={"abbot": True}, moves=[_first_move(abbot=True, follower=follower)])
    with pytest.raises(CarcassonneError) as info:
        load_game(json.dumps(data))
    assert str(info.value).startswith(f"saved game: move 1: 'follower' {follower}: expected")
    with pytest.raises(CarcassonneError, match=f"follower {follower}: expected a feature"):
        Move(0, 1, 0, follower)
    assert load_game(json.dumps(_saved(moves=[_first_move()]))).turns[0].follower is None


def test_mcts_with_a_colon_and_no_level_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """``--player mcts:`` was played as ``mcts:medium``."""
    with pytest.raises(CarcassonneError, match="unknown level ''"):
        make_player("mcts:")
    err = _refused(["carcassonne", "play", "--player", "mcts:"], capsys)
    assert "--player mcts:: expected one of random, greedy, mcts:easy" in err
    assert make_player("mcts").name == "mcts:medium"
    with pytest.raises(CarcassonneError, match="'players': player 'mcts:'"):
        GameRecord.from_json(json.dumps(_saved(players=["mcts:", "random"])))


_TILE = '[tiles.A]\nfeatures = ["monastery", "farm Nw Ne En Es Se Sw Ws Wn"]\n'


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (
            'name = "x\\u001b[31m"\nstart = "A"\n' + _TILE,
            1,
            "'name' 'x\\x1b[31m' holds the control",
        ),
        ('name = "x"\ntitle = "\\u0000"\nstart = "A"\n' + _TILE, 2, "'title' '\\x00' holds the"),
        ('name = "x"\nstart = "A"\nabout = ["ok", "a\\u0007"]\n' + _TILE, 3, "'about' 'a\\x07'"),
        (
            'name = "x"\nstart = "A"\n[tiles.A]\nabout = "\\u0000"\nfeatures = ["monastery", '
            '"farm Nw Ne En Es Se Sw Ws Wn"]\n',
            3,
            "tile A: 'about' '\\x00' holds the control character U+0000",
        ),
        (
            'name = "x"\nstart = "A\\u0008"\n[tiles."A\\u0008"]\nfeatures = ["monastery", '
            '"farm Nw Ne En Es Se Sw Ws Wn"]\n',
            2,
            "'start' 'A\\x08' holds the control character U+0008",
        ),
        (
            'name = "x"\nstart = "A"\n' + _TILE + '[tiles."B\\u0008"]\nfeatures = ["monastery", '
            '"farm Nw Ne En Es Se Sw Ws Wn"]\n',
            5,
            "tile name 'B\\x08' holds the control character U+0008",
        ),
        ('name = [1]\nstart = "A"\n' + _TILE, 1, "'name' must be a string, not [1]"),
        ('name = "x"\nstart = "A"\nabout = {a = 1}\n' + _TILE, 3, "'about' must be a string or"),
        ('name = "x"\nstart = "A"\nabout = [1]\n' + _TILE, 3, "'about' must be a string, not 1"),
        ('name = "x"\ntitle = 5\nstart = "A"\n' + _TILE, 2, "'title' must be a string, not 5"),
        ('name = "x"\nstart = 1\n' + _TILE, 2, "'start' must be a string, not 1"),
        (
            'name = "x"\nstart = "A"\n[tiles.A]\nabout = 3\nfeatures = ["monastery", '
            '"farm Nw Ne En Es Se Sw Ws Wn"]\n',
            3,
            "tile A: 'about' must be a string, not 3",
        ),
    ],
)
def test_tile_set_texts_are_strings_without_control_characters(
    text: str, line: int, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Control characters in names and descriptions were printed raw (escape sequences, NUL),
    and ``name = [1]`` or ``about = {a = 1}`` were read as their Python texts."""
    bad = tmp_path / "bad.toml"
    bad.write_text(text)
    err = _refused(["carcassonne", "tiles", "--file", str(bad)], capsys)
    assert err.startswith(f"tilelay: error: {bad}:{line}: {message}"), err


# --- 7. options a loaded game cannot take ---------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        ["--players", "3", "--seed", "5", "--river"],
        ["--seed", "0"],
        ["--players", "2"],
        ["--player", "greedy"],
        ["--abbot"],
        ["--small-city-first-edition"],
        ["--farms", "third"],
    ],
)
def test_options_of_a_new_game_are_refused_with_load(
    options: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--load g.json --players 3 --seed 5 --river`` played the saved game, ignoring them."""
    saved = tmp_path / "g.json"
    saved.write_text(save_game(new_game(2, seed=1)))
    err = _refused(["carcassonne", "play", "--load", str(saved), *options], capsys)
    flags = ", ".join(o for o in options if o.startswith("--"))
    assert err.startswith(f"tilelay: error: --load {saved}: {flags} cannot be given with --load")


# --- 8. wording ------------------------------------------------------------------------------


def test_one_tile_is_one_tile() -> None:
    one = ScoreEvent(Kind.FARM, False, 1, 3, (0,))
    assert describe_event(one, ["P1"]) == "farm (1 tile): 3 to P1"
    two = ScoreEvent(Kind.ROAD, True, 2, 2, (0, 1))
    assert describe_event(two, ["P1", "P2"]) == "completed road (2 tiles): 2 to P1, P2"
