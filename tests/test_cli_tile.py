"""``tilelay tile``: parse and show from the command line."""

from __future__ import annotations

import io
import json

import pytest

from tilelay.cli import main


def stdin(data: str | bytes) -> io.TextIOWrapper:
    """Standard input holding ``data`` (its bytes read as given)."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    return io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_parse_prints_the_canonical_string(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "tile", "parse", "city=revenue:20,slots:1;path=a:0,b:_0")
    assert status == 0
    assert out == "city=revenue:20;path=a:0,b:_0\n"


def test_parse_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "tile", "parse", "--json", "--color", "yellow", "path=a:0,b:3")
    data = json.loads(out)
    assert status == 0 and data["color"] == "yellow"
    assert data["paths"] == [{"a": "0", "b": "3"}]


def test_bad_string_exits_2_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "tile", "parse", "city=revenue:20;path=a:0,b:9")
    assert status == 2 and out == ""
    assert err == "tilelay: error: column 26: path: edge 9 out of range: expected 0-5\n"


def test_stdin_one_per_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", stdin("path=a:0,b:3\nfoo=1\ntown=revenue:10\n"))
    status, out, err = run(capsys, "tile", "parse", "-")
    assert status == 2
    lines = out.splitlines()
    assert lines[0] == "path=a:0,b:3"
    assert lines[1].startswith("error: line 2: column 1: unknown part 'foo'")
    assert lines[2] == "town=revenue:10"
    assert "1 line failed" in err
    # with --json every line of the output is JSON, an error an object of its own
    monkeypatch.setattr("sys.stdin", stdin("path=a:0,b:3\nfoo=1\n"))
    status, out, err = run(capsys, "tile", "parse", "--json", "-")
    first, second = (json.loads(line) for line in out.splitlines())
    assert status == 2 and "paths" in first
    assert second["line"] == 2 and second["error"].startswith("column 1: unknown part 'foo'")


def test_stdin_that_is_not_utf8_is_said_so(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A byte that is not UTF-8 was read as U+DCFF: "character U+DCFF is not allowed"."""
    monkeypatch.setattr("sys.stdin", stdin(b"city=revenue:20\xff\npath=a:0,b:3\n"))
    status, out, _ = run(capsys, "tile", "parse", "-")
    first, second = out.splitlines()
    assert status == 2 and first == "error: line 1: not UTF-8 text (byte 16 is 0xff)"
    assert second == "path=a:0,b:3"


def test_stdin_all_good_exits_0(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", stdin("path=a:0,b:3\n"))
    assert run(capsys, "tile", "parse", "-")[0] == 0


def test_show(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "tile", "show", "57", "--rotation", "1")
    assert status == 0 and out == "city=revenue:20;path=a:1,b:_0;path=a:_0,b:4\n"
    status, _, err = run(capsys, "tile", "show", "5777")
    assert status == 2 and "did you mean" in err and "Traceback" not in err


@pytest.mark.parametrize("code", ["label=A\nB", "label=A\tB", "label=A\x01B"])
def test_control_characters_in_a_text_exit_2_with_one_line(
    capsys: pytest.CaptureFixture[str], code: str
) -> None:
    """A label of two lines was printed as two lines, exit 0."""
    status, out, err = run(capsys, "tile", "parse", code)
    assert status == 2 and out == ""
    assert err.startswith("tilelay: error: column 8: ") and err.count("\n") == 1
