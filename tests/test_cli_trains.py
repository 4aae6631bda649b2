"""The ``tilelay trains`` command."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
from pathlib import Path

import pytest

from tilelay.cli import trains as trains_cli
from tilelay.errors import TilelayError
from tilelay.games import game_from_data, game_to_data, load_game

REFERENCE = (Path(__file__).parents[1] / ".." / "shared" / "reference").resolve()


def run(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="tilelay")
    trains_cli.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["trains", *argv])
    status: int = args.func(args)
    return status


def game_xml(game: str) -> str:
    path = REFERENCE / "rails" / game / "Game.xml"
    if not path.is_file():
        pytest.skip(f"reference data absent: {path}")
    return str(path)


def test_text_listing(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(game_xml("18Scan")) == 0
    out = capsys.readouterr().out
    assert "  2/1+1: 6x\n    side 2: 2 major stops, cost 100" in out
    assert "    side 1+1: 1 major + 1 minor stops, cost 80, towns count as minor stops" in out
    assert "  4: tiles yellow,green; 2 ORs; train limit step 2; rusts 2/1+1" in out


def test_json_with_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        run(game_xml("1830"), "--options", "Variant=Wabash,WithOptional6Train=yes", "--json") == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert [t["name"] for t in data["trains"]] == ["2", "3", "4", "5", "6", "7"]
    seven = data["trains"][-1]
    assert seven["quantity"] is None and seven["sides"][0]["cost"] == 830
    assert data["trains"][0]["rusts_in_phase"] == "4"
    assert data["phases"][3]["limit_step"] == 3


def test_warnings_go_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(game_xml("18Chesapeake")) == 0
    err = capsys.readouterr().err
    assert err.startswith("tilelay: warning: ") and "Game.xml:45: unknown attribute" in err


def test_bad_options_and_unknown_game() -> None:
    with pytest.raises(TilelayError, match="NAME=VALUE"):
        trains_cli.parse_options(["Variant"])
    assert trains_cli.parse_options(["A=1,B=2", "C=x y"]) == {"A": "1", "B": "2", "C": "x y"}
    games = importlib.import_module("tilelay.games")
    expected = "no-such-game" if hasattr(games, "load_game") else "unknown game 'no-such-game'"
    with pytest.raises(TilelayError, match=expected):
        trains_cli.load("no-such-game")


def test_bad_file_raises_located_error(tmp_path: Path) -> None:
    bad = tmp_path / "Game.xml"
    bad.write_text(
        '<ComponentManager><Component name="TrainManager">\n<Defaults/>\n'
        '<TrainType name="2" cost="80" quantity="3"/></Component></ComponentManager>'
    )
    with pytest.raises(TilelayError) as info:
        run(str(bad))
    assert str(info.value) == f"{bad}:3: train type '2' has no majorStops attribute (required)"


def test_main_exit_status_on_bad_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tilelay import cli

    for name in cli.COMMAND_MODULES:
        if importlib.util.find_spec(f"tilelay.cli.{name}") is None:
            pytest.skip(f"command module tilelay.cli.{name} is not written yet")
    bad = tmp_path / "Game.xml"
    bad.write_text(
        '<ComponentManager><Component name="TrainManager">\n'
        '<TrainType name="2" majorStops="2" cost="80" quantity="0"/>'
        "</Component></ComponentManager>"
    )
    assert cli.main(["trains", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.strip().endswith(
        "Game.xml:2: quantity of train type '2' must be more than 0, or -1 for unlimited, not 0"
    )


@pytest.mark.parametrize(
    ("game", "option", "values"),
    [
        ("1856", "1856AlternateTrains=maybe", "(no, yes)"),
        ("1880", "UnlimitedTiles=bogus", "(No, Yellow Plain, Yes)"),
    ],
)
def test_an_option_value_the_file_does_not_use_exits_2(
    game: str, option: str, values: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not a silently changed game (1856 without its D train): exit 2, one line naming the
    option and the values the file uses."""
    from tilelay import cli

    path = game_xml(game)
    assert cli.main(["trains", path, "--options", option]) == 2
    captured = capsys.readouterr()
    name, _, value = option.partition("=")
    assert captured.out == ""
    assert captured.err == (
        f"tilelay: error: {path}: option {name!r}: {value!r} is not one of the values the "
        f"game uses {values}\n"
    )
    assert cli.main(["trains", path, "--options", f"{name}=Yes"]) == 0


def test_a_number_of_trains_by_the_players_is_listed_so() -> None:
    from tilelay.train_data import trains_from_game_data

    manager = trains_from_game_data(
        [{"name": "2", "distance": 2, "price": 80, "num": {"3": 7, "4": 8}}], [], source="t"
    )
    text = trains_cli.format_text(manager)
    assert "  2: 7x with 3, 8x with 4 players" in text.splitlines()
    assert trains_cli.format_text(manager.for_players(4)).splitlines()[1] == "  2: 8x"


def test_a_games_options_and_players(capsys: pytest.CaptureFixture[str]) -> None:
    """A game's optional rules (``NAME``, ``NAME=yes``, ``NAME=no``) and its number of
    players choose the trains listed; an option the game has not, a value that is not yes or
    no, or a number of players the game is not for is refused, naming it."""
    data = game_to_data(load_game("1889"))
    data["trains"][0]["num"] = {str(n): n + 4 for n in range(2, 7)}
    data["options"].append(
        {
            "name": "diesels",
            "title": "Diesels",
            "trains": [*data["trains"], {"name": "7", "distance": 7, "price": 900, "num": 3}],
        }
    )
    game = game_from_data(data, source="test")
    plain = trains_cli.format_text(game.trains)
    assert "  7:" not in plain and "  2: 6x with 2" in plain
    chosen = game.with_options(trains_cli.game_options(["diesels"]))
    assert "  7: 3x" in trains_cli.format_text(chosen.trains)
    assert "  2: 7x\n" in trains_cli.format_text(chosen.for_players(3).trains)
    assert trains_cli.game_options(["diesels=yes,beginner_game", "beginner_game=no"]) == ["diesels"]
    with pytest.raises(TilelayError, match="NAME=yes or NAME=no, not 'diesels=maybe'"):
        trains_cli.game_options(["diesels=maybe"])
    with pytest.raises(TilelayError, match=r"has no option 'disels'.*did you mean: diesels"):
        game.with_options(trains_cli.game_options(["disels"]))
    assert run("1889", "--options", "beginner_game") == 0
    assert "Train cards" in capsys.readouterr().out
    with pytest.raises(TilelayError, match="1889 is played by 2 to 6"):
        run("1889", "--players", "9")
    assert run("1889", "--players", "3") == 0
    with pytest.raises(TilelayError, match="--players applies to a game"):
        run(game_xml("1830"), "--players", "3")
