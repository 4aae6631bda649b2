"""A bounded load test on loopback: 32 clients asking for best routes at once, no errors."""

from __future__ import annotations

from pathlib import Path

from tests.loadgen import route_request, run_load
from tests.serving import Server
from tilelay.routes import RoutePlanner
from tilelay.sandbox import BoardState


def test_32_clients_route_requests_without_errors(tmp_path: Path) -> None:
    body = route_request(0)
    state = BoardState.from_json(body["state"])
    best = RoutePlanner(state.board(), body["corporation"], state.current_phase()).best(
        body["trains"]
    )
    assert best.revenue > 0  # the requests do real route searches
    with Server(tmp_path / "boards.sqlite3") as server:
        result = run_load(server, clients=32, per_client=4, seconds=120)
    print(result.summary())
    assert result.errors == []
    assert result.requests == 32 * 4
