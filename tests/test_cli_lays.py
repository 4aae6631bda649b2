"""``tilelay lays``: legal tiles and rotations at every tile lay of recorded games."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from tests.conftest import reference
from tilelay.cli import main


def test_lays_of_1889_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    record = reference("18xxgames", "fixtures", "1889_314.json")
    assert main(["lays", "--json", str(record)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 40  # every lay_tile in force
    first = lines[0]
    assert first["record"] == str(record)
    assert (first["id"], first["hex"], first["tile"], first["rotation"]) == (22, "J3", "8", 3)
    assert first["legal"] == {"7": [0, 1, 2, 5], "8": [0, 1, 3, 5], "9": [0, 2, 3, 5]}
    assert all(line["recorded_is_legal"] for line in lines)
    assert all(set(line) >= {"record", "id", "hex", "legal"} for line in lines)


def test_lays_as_text_and_records_that_fail(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = reference("18xxgames", "fixtures", "1889_314.json")
    data = json.loads(record.read_text(encoding="utf-8"))
    bad = tmp_path / "bad.json"
    actions = data["actions"]
    for a in actions:
        if a.get("id") == 22:
            a["rotation"] = 2  # tile 8 at J3 turned so that it runs off the map
        if a.get("id") == 176:
            a["tile"] = "nosuch-0"
    bad.write_text(json.dumps({**data, "actions": actions}), encoding="utf-8")
    missing = tmp_path / "missing.json"
    assert main(["lays", str(record), str(bad), str(missing)]) == 2
    out, err = capsys.readouterr()
    assert out.splitlines()[0].endswith("#22 KO J3: 8-3 legal | 7: 0 1 2 5; 8: 0 1 3 5; 9: 0 2 3 5")
    assert "bad.json #22 KO J3: 8-2 NOT LEGAL | 7: 0 1 2 5;" in out
    assert "action 176" in err and "nosuch" in err
    assert "missing.json" in err
    assert main(["lays", "--json", str(missing)]) == 2
    line = json.loads(capsys.readouterr().out)
    assert line["record"] == str(missing) and "cannot read record" in line["error"]


def test_a_record_from_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``-`` reads the record from standard input, for lays and routes alike."""
    record = reference("18xxgames", "fixtures", "1889_314.json").read_bytes()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(record)))
    assert main(["lays", "-"]) == 0
    assert capsys.readouterr().out.startswith("- #22 KO J3: 8-3 legal")
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(record)))
    assert main(["routes", "-", "--action", "367"]) == 0
    assert "IR in phase 5" in capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"{")))
    assert main(["lays", "-"]) == 2
    assert capsys.readouterr().err.startswith("tilelay: error: standard input:1:2: malformed")


def test_a_lay_by_a_companys_ability_is_not_called_illegal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """1817's PSM lays its steel mill (X00) by its ability: the text says so rather than
    NOT LEGAL, and the JSON names the company."""
    from tests.conftest import engine_games_known

    record = reference("18xxgames", "fixtures", "1817__15528.json")
    with engine_games_known():
        assert main(["lays", str(record)]) == 0
        out = capsys.readouterr().out
        assert "#178 PSM F13: X00-4 by PSM's ability (not judged) |" in out
        assert main(["lays", "--json", str(record)]) == 0
    (line,) = [json.loads(x) for x in capsys.readouterr().out.splitlines() if '"id": 178' in x]
    assert (line["recorded_is_legal"], line["ability"]) == (False, "PSM")
