"""The README's examples: its Python block runs and its command lines that need no file of the
user's run, each exiting 0 with something to show (a route search finds routes)."""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import pytest

from tilelay.cli import main

README = Path(__file__).resolve().parents[1] / "README.md"


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def _commands() -> list[list[str]]:
    """The ``tilelay …`` lines of the command-line block, optional ``[…]`` parts left out,
    without those that name a file of the user's or a server (serve, a Dask scheduler)."""
    out: list[list[str]] = []
    block = next(b for b in _blocks("sh") if "tilelay tile parse" in b)
    for line in block.splitlines():
        line = re.sub(r"\s+#.*$", "", line)
        line = re.sub(r"\[[^\]]*\]", "", line).strip()
        if not line.startswith("tilelay ") or "<" in line:
            continue
        argv = shlex.split(line)[1:]
        names = [a for i, a in enumerate(argv) if i == 0 or argv[i - 1] not in ("-o", "--save")]
        if "serve" in argv or "--scheduler" in argv or "--games" in argv:
            continue
        if any(re.search(r"\.(json|xml|txt)$|^~|\*|/$", a) for a in names):
            continue
        out.append(argv)
    return out


COMMANDS = _commands()


def test_the_command_lines_are_found() -> None:
    kinds = {argv[0] for argv in COMMANDS}
    assert {"tile", "render", "games", "upgrades", "routes", "carcassonne"} <= kinds


@pytest.mark.parametrize("argv", COMMANDS, ids=[" ".join(a) for a in COMMANDS])
def test_a_command_line_example_gives_a_result(
    argv: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)  # (the files they write)
    stdin = "57\ncity=revenue:20;path=a:0,b:_0\n"
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(stdin))
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert out.strip()
    assert "warning" not in err, err  # (an example lays legal tiles, reads clean input)
    if argv[0] == "routes":
        assert "total 0;" not in out and re.search(r"total [1-9]", out), out
    if "-o" in argv:
        written = tmp_path / argv[argv.index("-o") + 1]
        assert written.stat().st_size > 1000


def test_the_library_example_runs() -> None:
    (block,) = _blocks("python")
    scope: dict[str, object] = {}
    cwd = os.getcwd()
    try:
        exec(compile(block, str(README), "exec"), scope)
    finally:
        os.chdir(cwd)
    assert scope["t"] is not None
