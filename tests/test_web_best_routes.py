"""The best-routes page and its JSON API (Starlette TestClient), and the route drawing's
geometry (:func:`tilelay.svg.map_svg` with routes)."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import pytest
from starlette.testclient import TestClient

from tests.conftest import REFERENCE
from tilelay.board import Board
from tilelay.catalogue import get_tile
from tilelay.games import load_game
from tilelay.hexgeo import APOTHEM, Layout, hex_center
from tilelay.replay import replay_steps
from tilelay.routes import best_routes
from tilelay.svg import map_svg, route_polyline
from tilelay.web import create_app
from tilelay.web.best_routes import MAX_BODY

FIXTURES = REFERENCE / "18xxgames" / "fixtures"
RECORDS = {
    "1889": "1889_314.json",
    "1830": "1830_26855.json",
    "18Chesapeake": "18Chesapeake_1277.json",
}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as c:
        yield c


def _fixture(game: str) -> bytes:
    path = FIXTURES / RECORDS[game]
    if not path.exists():
        print(f"skipping: reference fixture absent: {path}")
        pytest.skip(f"reference fixture absent: {path}")
    return path.read_bytes()


def _runs(record: dict[str, Any]) -> list[Any]:
    return [s for s in replay_steps(record) if s.action.get("type") == "run_routes"]


# ------------------------------------------------------------------ the API


@pytest.mark.parametrize("game", sorted(RECORDS))
def test_api_revenues_equal_best_routes(client: TestClient, game: str) -> None:
    body = _fixture(game)
    record = json.loads(body)
    runs = _runs(record)
    assert len(runs) > 5
    for step in (runs[0], runs[len(runs) // 2], runs[-1]):
        action = step.action["id"]
        r = client.post(f"/api/routes/{game}?action={action}", content=body)
        assert r.status_code == 200, r.text
        data = r.json()
        corp = str(step.action["entity"])
        expected = best_routes(step.board, corp, step.train_names(corp), step.phase)
        assert data["action"] == action and data["corporation"] == corp
        assert data["revenue"] == expected.revenue
        assert sorted(x["revenue"] for x in data["routes"]) == sorted(
            x.revenue for x in expected.routes
        )
        assert sum(x["revenue"] for x in data["routes"]) + data["run_bonus"] == data["revenue"]
        # train ids of the corporation's trains, each used once
        held = step.trains[corp]
        assert len({x["train"] for x in data["routes"]}) == len(data["routes"])
        assert all(x["train"] in held for x in data["routes"])
        # the recorded routes, with the record's revenues where it has them
        rec = [x for x in step.action["routes"]]
        assert len(data["recorded"]) == len(rec)
        if all("revenue" in x for x in rec):
            assert data["recorded_total"] == sum(x["revenue"] for x in rec)
        assert data["recorded_total"] <= data["revenue"]
        # navigation among the run_routes actions
        ids = [s.action["id"] for s in runs]
        assert [a["id"] for a in data["actions"]] == ids
        assert data["nav"]["first"] == ids[0] and data["nav"]["last"] == ids[-1]
        # the drawing: one g.route per route, with train and revenue
        drawn = re.findall(
            r'<g class="route" data-train="([^"]+)" data-revenue="(\d+)"', data["svg"]
        )
        assert sorted((t, int(v)) for t, v in drawn) == sorted(
            (x["train"], x["revenue"]) for x in data["routes"]
        )
        assert 'class="route"' in data["panel"]


def test_api_defaults_to_the_last_run(client: TestClient) -> None:
    body = _fixture("1889")
    last = _runs(json.loads(body))[-1]
    data = client.post("/api/routes/1889", content=body).json()
    assert data["action"] == last.action["id"]
    assert data["nav"]["next"] is None and data["nav"]["prev"] is not None


def test_api_errors(client: TestClient) -> None:
    body = _fixture("1889")
    r = client.post("/api/routes/1889", content=b'{"actions": [')
    assert r.status_code == 400 and "malformed JSON" in r.json()["error"]
    r = client.post("/api/routes/1889", content=b"[1, 2]")
    assert r.status_code == 400 and "not a game record" in r.json()["error"]
    r = client.post("/api/routes/1830", content=body)
    assert r.status_code == 400 and "not 1830" in r.json()["error"]
    r = client.post("/api/routes/1889?action=x", content=body)
    assert r.status_code == 400 and "action" in r.json()["error"]
    r = client.post("/api/routes/1889?action=999999", content=body)
    assert r.status_code == 400 and "999999" in r.json()["error"]
    r = client.post("/api/routes/nosuchgame", content=body)
    assert r.status_code == 404 and r.json()["status"] == 404
    r = client.post("/api/routes/1888", content=body)
    assert r.status_code == 404 and "1889" in r.json()["suggestions"]
    r = client.post("/api/routes/1889", content=b" " * (MAX_BODY + 1))
    assert r.status_code == 413 and "too large" in r.json()["error"]
    r = client.get("/api/routes/1889")
    assert r.status_code == 405 and r.json()["status"] == 405


def test_page_get_and_posted_form(client: TestClient) -> None:
    r = client.get("/routes/1889")
    assert r.status_code == 200
    assert 'id="record"' in r.text and "/static/routes.js" in r.text
    # the scripts' shared requests load first
    assert r.text.index("/static/api.js") < r.text.index("/static/routes.js")
    assert client.get("/routes/nosuchgame").status_code == 404
    assert client.get("/static/routes.js").status_code == 200
    api = client.get("/static/api.js")
    assert api.status_code == 200 and "window.tilelay" in api.text
    body = _fixture("1889")
    first = _runs(json.loads(body))[0]
    form = urlencode({"record": body.decode(), "action": str(first.action["id"])})
    headers = {"content-type": "application/x-www-form-urlencoded"}
    r = client.post("/routes/1889", content=form, headers=headers)
    assert r.status_code == 200
    assert len(re.findall(r'<g class="route"', r.text)) == 2  # KO's two 2-trains
    assert 'id="total-ours">100<' in r.text
    r = client.post("/routes/1889", content=urlencode({"record": "{"}), headers=headers)
    assert r.status_code == 400 and "malformed JSON" in r.text
    r = client.post("/routes/1889", content=b"x" * (MAX_BODY + 1), headers=headers)
    assert r.status_code == 413


def test_index_and_map_link_to_the_page(client: TestClient) -> None:
    assert 'href="/routes/1889"' in client.get("/").text
    assert 'href="/routes/1889"' in client.get("/map/1889").text


# ------------------------------------------------------------------ geometry


def _inside_hex(
    p: tuple[float, float], centre: tuple[float, float], layout: Layout, size: float
) -> bool:
    """Whether p lies in the hex (with a small tolerance for points on its sides)."""
    dx, dy = p[0] - centre[0], p[1] - centre[1]
    tol = 0.02 * size
    start = 0.0 if layout is Layout.FLAT else 30.0
    apothem = APOTHEM * size
    for k in range(6):  # the six side normals
        a = math.radians(start + 30.0 + 60.0 * k)
        if dx * math.cos(a) + dy * math.sin(a) > apothem + tol:
            return False
    return True


def _xy(game: Any, coord: str) -> tuple[int, int]:
    col, row = game.coord_xy(coord)
    return (int(col), int(row))


def _check_geometry(game: Any, board: Board, routes: Any, size: float) -> None:
    svg = map_svg(game, board=board, routes=routes, size=size)
    groups = re.findall(r'<g class="route"[^>]*>.*?</g>', svg, re.S)
    assert len(groups) == len(routes)
    lay = Layout(game.layout)
    for group, route in zip(groups, routes, strict=True):
        assert f'data-revenue="{route.revenue}"' in group
        m = re.search(r'points="([^"]+)"', group)
        assert m is not None
        pts: list[tuple[float, float]] = []
        for xy in m.group(1).split():
            x, y = xy.split(",")
            pts.append((float(x), float(y)))
        assert len(pts) >= 2
        exact = route_polyline(game, board, route, size=size)
        assert len(pts) == len(exact)
        assert all(math.dist(p, q) < 0.01 for p, q in zip(pts, exact, strict=True))
        centres = [hex_center(*_xy(game, c), lay, size) for c in route.hexes]
        for p in pts:
            assert any(_inside_hex(p, c, lay, size) for c in centres), (p, route.hexes)
        stops = [
            (float(a), float(b))
            for a, b in re.findall(r'class="route-stop" cx="([-\d.]+)" cy="([-\d.]+)"', group)
        ]
        assert len(stops) == len(route.stops)
        assert math.dist(pts[0], stops[0]) < 0.05 and math.dist(pts[-1], stops[-1]) < 0.05
        # the line passes through every stop, and hex by hex in the route's order
        for s in stops:
            assert min(math.dist(s, p) for p in pts) < 0.05
        cur = 0
        for p in pts:
            if not _inside_hex(p, centres[cur], lay, size):
                nxt = [
                    k for k in range(cur + 1, len(centres)) if _inside_hex(p, centres[k], lay, size)
                ]
                assert nxt, (p, route.hexes, cur)
                cur = nxt[0]
        assert cur == len(centres) - 1
        # the first and last stops are in the first and last hexes
        assert _inside_hex(stops[0], centres[0], lay, size)
        assert _inside_hex(stops[-1], centres[-1], lay, size)
    # the legend lists every route and the total
    assert f"Total {sum(r.revenue for r in routes)}" in svg


def test_routes_svg_geometry_hand_built() -> None:
    game = load_game("1889")
    board = Board(game).with_home_tokens(["KO"]).lay("J3", get_tile("8"), 3)
    result = best_routes(board, "KO", ["2"], "2")
    assert result.revenue == 50
    _check_geometry(game, board, result.routes, 50.0)
    svg = map_svg(game, board=board, routes=result.routes, size=50.0)
    assert '<g class="route" data-train="2" data-revenue="50"' in svg
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")


@pytest.mark.parametrize("game", sorted(RECORDS))
def test_routes_svg_geometry_recorded(game: str) -> None:
    record = json.loads(_fixture(game))
    for step in _runs(record)[-3:]:
        corp = str(step.action["entity"])
        result = best_routes(step.board, corp, step.train_names(corp), step.phase)
        assert result.routes
        _check_geometry(step.board.game, step.board, result.routes, 40.0)


def test_routes_svg_keeps_the_map() -> None:
    game = load_game("1830")
    board = Board(game)
    svg = map_svg(game, board=board, routes=[], size=30.0)
    assert svg.count('<g class="hex"') == len(game.hexes)
    assert '<g class="route"' not in svg and "No route" in svg


def test_a_minor_s_run_is_shown_like_a_corporation_s(client: TestClient) -> None:
    """1846's minors run routes (MS at action 37 of the shared record): the page shows their
    best routes, as it does a corporation's (it refused them as not a corporation's)."""
    from tests.conftest import engine_games_known, reference

    body = reference("18xxgames", "fixtures", "1846__10264.json").read_bytes()
    with engine_games_known():
        response = client.post("/api/routes/1846?action=37", content=body)
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["corporation"] == "MS" and data["revenue"] == 60


def test_an_action_that_is_not_a_run_routes_is_refused_by_its_type(client: TestClient) -> None:
    """Action 50 of the shared 1889 record is KO's dividend: its best routes were answered
    (trains none, revenue 0), which read as a run earning 0. It is refused with the action's
    type, in the app's one error shape, by the API and by the posted form."""
    body = _fixture("1889")
    record = json.loads(body)
    kinds = {a["id"]: a["type"] for a in record["actions"]}
    assert kinds[50] == "dividend" and kinds[1] == "bid"
    r = client.post("/api/routes/1889?action=50", content=body)
    assert r.status_code == 400, r.text[:300]
    data = r.json()
    assert set(data) == {"error", "status", "suggestions"} and data["status"] == 400
    assert data["error"].startswith("action 50 is a dividend, not a run_routes"), data
    # the run_routes on either side are named
    ids = [s.action["id"] for s in _runs(record)]
    before, after = max(i for i in ids if i < 50), min(i for i in ids if i > 50)
    assert f"{before} and {after}" in data["error"]
    r = client.post("/api/routes/1889?action=1", content=body)
    assert r.status_code == 400 and "action 1 is a bid, not a run_routes" in r.json()["error"]
    # a run_routes still answers
    assert client.post(f"/api/routes/1889?action={before}", content=body).status_code == 200
    form = urlencode({"record": body.decode(), "action": "50"})
    headers = {"content-type": "application/x-www-form-urlencoded"}
    r = client.post("/routes/1889", content=form, headers=headers)
    assert r.status_code == 400 and "action 50 is a dividend, not a run_routes" in r.text


@pytest.mark.usefixtures("engine_games")
def test_a_run_under_a_whole_run_rule_earns_what_the_audit_says(client: TestClient) -> None:
    """18TN's Civil War: L&N's three routes at action 294 earn 250 apiece summed, the run
    170 (the lowest taken away), as the audit says; the best's routes and the rule's part
    add up to its revenue."""
    from tests.conftest import reference
    from tilelay.audit import audit_record

    path = reference("18xxgames", "fixtures", "18TN__7818.json")
    (want,) = [r for r in audit_record(path).runs if r.id == 294]
    r = client.post("/api/routes/18TN?action=294", content=path.read_bytes())
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["recorded_total"] == want.ran == 170
    assert data["revenue"] == want.optimal_revenue == 190
    assert data["run_bonus"] < 0
    assert sum(x["revenue"] for x in data["routes"]) + data["run_bonus"] == data["revenue"]
    assert 'class="run-rule"' in data["panel"]  # the rule's part listed on the page too
