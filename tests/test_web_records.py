"""Records on the web (tilelay.web.records): a record's runs say what the audit says."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from tests.conftest import reference
from tilelay.audit import audit_record
from tilelay.sandbox import BoardState
from tilelay.web import create_app
from tilelay.web.records import analyse_record, branch_state


@pytest.mark.usefixtures("engine_games")
@pytest.mark.parametrize("stem", ["18TN__7818", "1889_314"])
def test_a_record_s_runs_earn_what_the_audit_says(stem: str) -> None:
    """18TN's Civil War takes the lowest route of a run away: the web summed the routes'
    own revenues (L&N at action 294 "ran 250, the best 190: nothing missed") where the audit
    rates the run whole (170, missed 20). Both now come from one rule
    (:func:`tilelay.audit.ran_revenue`)."""
    path = reference("18xxgames", "fixtures", f"{stem}.json")
    audited = {r.id: r for r in audit_record(path).runs}
    analysis = analyse_record(json.loads(path.read_text(encoding="utf-8")))
    runs = analysis.summary["runs"]
    assert runs and len(runs) == len(audited)
    for run in runs:
        want = audited[run["id"]]
        assert (run["run"], run["best"]) == (want.ran, want.optimal_revenue), run
        if run["run"] is not None:
            assert run["missed"] == want.missed, run
    by_corp: dict[str, int] = {}
    for run in runs:
        by_corp[run["corporation"]] = by_corp.get(run["corporation"], 0) + (run["run"] or 0)
    assert {c: t["run"] for c, t in analysis.summary["totals"].items()} == by_corp


def test_a_record_with_a_long_id_is_kept_under_a_short_name(tmp_path: Path) -> None:
    """A record whose id ran to 5,000 characters was refused: "a name has at most 200
    characters", though no name was given. Its name now shows the id cut short."""
    record = json.loads(reference("18xxgames", "fixtures", "1889_314.json").read_text())
    record["id"] = "x" * 5000
    with TestClient(create_app(db=tmp_path / "boards.sqlite3")) as client:
        response = client.post("/api/records", content=json.dumps(record))
        assert response.status_code == 201, response.text
        name = response.json()["record"]["name"]
        assert name.startswith("Shikoku 1889 · record xxx") and name.endswith("…")
        assert len(name) < 80
        record["id"] = [1, 2]  # not a number nor text: left out
        response = client.post("/api/records", content=json.dumps(record))
        assert response.json()["record"]["name"].endswith("· record")


def test_a_record_is_renamed(tmp_path: Path) -> None:
    """Two imports of one record looked the same on the saved page, and a record could not
    be renamed (PATCH answered 405)."""
    record = reference("18xxgames", "fixtures", "1889_314.json").read_bytes()
    with TestClient(create_app(db=tmp_path / "boards.sqlite3")) as client:
        made = client.post("/api/records", content=record).json()["record"]
        renamed = client.patch(f"/api/records/{made['id']}", json={"name": "the second try"})
        assert renamed.status_code == 200, renamed.text
        assert renamed.json()["record"]["name"] == "the second try"
        listed = client.get("/api/records").json()["records"]
        assert [r["name"] for r in listed if r["id"] == made["id"]] == ["the second try"]
        assert client.patch(f"/api/records/{made['id']}", json={"name": " "}).status_code == 400
        assert client.patch("/api/records/999", json={"name": "x"}).status_code == 404


@pytest.mark.usefixtures("engine_games")
def test_a_board_branched_from_a_record_starts_as_the_record_did() -> None:
    """A board branched off a step of 18USA (whose red hexes and metropolises the record's
    seed draws) had the map of the game's data: no red hexes, its routes not the record's.
    It now starts from the record's seed and players, its metropolises laid by the game
    and not among its actions, and its board is the step's."""
    record = json.loads(
        reference("18xxgames", "fixtures", "18USA__109372.json").read_text(encoding="utf-8")
    )
    record["actions"] = record["actions"][:330]
    analysis = analyse_record(record, seconds=0)
    step = analysis.steps[-1]
    state = branch_state(analysis, len(analysis.steps) - 1)
    assert (state.seed, state.players) == (109372, 4)
    # the metropolises the game laid are not actions, but a tile laid over one is
    assert "I19=X06-0" not in state.actions and "H22=X01-0" not in state.actions
    assert "D20=592-0" in state.actions
    board = BoardState.from_json(json.loads(json.dumps(state.to_json()))).board()
    assert "A27" in board.game.hexes
    assert board.laid == step.board.laid and board.tokens == step.board.tokens
    # a game that draws nothing keeps no seed, but its players
    shikoku = json.loads(
        reference("18xxgames", "fixtures", "1889_314.json").read_text(encoding="utf-8")
    )
    branched = branch_state(analyse_record(shikoku, seconds=0), 5)
    assert (branched.seed, branched.players) == (None, len(shikoku["players"]))
