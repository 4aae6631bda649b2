"""The ``tilelay carcassonne`` command."""

from __future__ import annotations

from pathlib import Path

import pytest

from tilelay.cli import main


def test_play_prints_the_game_and_final_score(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["carcassonne", "play", "--players", "3", "--seed", "7"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Carcassonne, seed 7, 3 players: random, random, random"
    assert out[1].startswith("  1. P1 (random): ")
    assert out[-1].startswith("Final score: P1 ")
    assert "End of game:" in out
    # the same seed plays the same game
    assert main(["carcassonne", "play", "--players", "3", "--seed", "7"]) == 0
    assert capsys.readouterr().out.splitlines() == out


def test_play_greedy_with_svg(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    svg = tmp_path / "board.svg"
    argv = [
        "carcassonne",
        "play",
        "--players",
        "2",
        "--seed",
        "1",
        "--player",
        "greedy",
        "--player",
        "random",
        "--svg",
        str(svg),
        "--quiet",
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1 and out[0].startswith("Final score: P1 ")
    text = svg.read_text()
    assert text.startswith("<svg ") and text.endswith("</svg>")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "0"], "--players 0: expected a number from 2 to 5"),
        (
            ["--player", "smart"],
            "--player smart: expected one of random, greedy, mcts:easy, mcts:medium, mcts:hard",
        ),
        (
            ["--players", "3", "--player", "random", "--player", "greedy"],
            "--player given 2 times for 3 players",
        ),
    ],
)
def test_bad_arguments_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["carcassonne", "play", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tilelay: error: " + message)
    assert "Traceback" not in err


def test_files_are_checked_before_the_game_and_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = [
        (["--save", str(tmp_path / "g.yaml")], "expected a file name ending in .json"),
        (["--svg", str(tmp_path / "no" / "b.svg")], f"no folder {tmp_path / 'no'} to write"),
    ]
    folder = tmp_path / "taken.json"
    folder.mkdir()
    cases.append((["--save", str(folder)], f"{folder}: it is a folder, not a file"))
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    cases.append((["--load", str(broken)], f"{broken}: saved game: not JSON"))
    for argv, message in cases:
        assert main(["carcassonne", "play", *argv]) == 2
        out, err = capsys.readouterr()
        assert out == "" and message in err and len(err.splitlines()) == 1, err


def test_tiles_and_tile(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["carcassonne", "tiles", "--seed-form"]) == 0
    out = capsys.readouterr().out
    assert "24 types, 72 tiles, start tile D" in out
    assert "seed form: 0 R 1 / R N R / 2 R 3 / walls: none" in out
    assert main(["carcassonne", "tile", "D"]) == 0
    out = capsys.readouterr().out
    assert "0: city N" in out and "0 Fc 0\nR R R\n1 N 1\nwalls: N\n" in out
    assert main(["carcassonne", "tile", "Q9"]) == 2
    assert "no tile 'Q9'" in capsys.readouterr().err
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\nstart = "A"\n[tiles.A]\nfeatures = ["road N Q"]\n')
    assert main(["carcassonne", "tiles", "--file", str(bad)]) == 2
    assert capsys.readouterr().err.startswith(f"tilelay: error: {bad}:4: feature 'road N Q'")


def test_play_river_abbot_mcts_save_and_load(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "game.json"
    argv = ["carcassonne", "play", "--seed", "2", "--river", "--abbot", "--quiet"]
    argv += ["--player", "mcts:easy", "--player", "random", "--save", str(saved)]
    assert main(argv) == 0
    final = capsys.readouterr().out.splitlines()[-1]
    assert final.startswith("Final score: P1 ")
    assert '"river": true' in saved.read_text()
    assert main(["carcassonne", "play", "--load", str(saved)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Carcassonne, seed 2, 2 players: mcts:easy, random, River, Abbot"
    assert out[-1] == final


def test_player_kinds_are_named_as_they_play() -> None:
    """``mcts`` plays at the medium level, and says so (``mcts:`` names no level: refused)."""
    import argparse

    from tilelay.cli.carcassonne import _player_kinds

    args = argparse.Namespace(players=3, player=["mcts:hard", "mcts", "greedy"])
    assert _player_kinds(args) == ["mcts:hard", "mcts:medium", "greedy"]
    assert _player_kinds(argparse.Namespace(players=2, player=["mcts"])) == ["mcts:medium"] * 2
