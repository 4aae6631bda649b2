"""Overlays drawn over a map (tilelay.svg.overlays): routes and their stops."""

from __future__ import annotations

import math
import re

from tests.conftest import reference
from tilelay.replay import load_record, replay_steps
from tilelay.routes import RoutePlanner
from tilelay.svg import map_svg, route_polyline
from tilelay.svg.overlays import _Nodes
from tilelay.tile import NodeKind


def test_a_route_to_an_off_board_ends_at_its_arrow_not_over_its_revenue() -> None:
    """1889's KO at action 158 runs to Sakaide & Okayama (J1) and Naruto & Awaji (L7): the
    line ran on to the hex's centre and the stop's mark covered the phases' revenue there.
    Both now end at the tip of the off-board's arrow."""
    record = load_record(reference("18xxgames", "fixtures", "1889_314.json"))
    step = next(s for s in replay_steps(record) if s.action_id == 158)
    corp = str(step.action["entity"])
    result = RoutePlanner(step.board, corp, step.phase, facts=step.facts).best(
        step.runnable_names(corp)
    )
    game, size = step.board.game, 60.0
    svg = map_svg(game, board=step.board, routes=result.routes, size=size)
    marks = [
        (float(x), float(y))
        for x, y in re.findall(r'class="route-stop" cx="([-\d.]+)" cy="([-\d.]+)"', svg)
    ]
    nodes = _Nodes(game, step.board, size)
    off_boards = 0
    for route in result.routes:
        line = route_polyline(game, step.board, route, size=size)
        for coord, index in route.stops:
            if step.board.tile_at(coord).nodes[index].kind is not NodeKind.OFFBOARD:
                continue
            off_boards += 1
            centre = nodes.centre(coord)
            end = min((line[0], line[-1]), key=lambda p: math.dist(p, centre))
            # the line ends half a hex from the centre (the arrow's tip), and a mark is there
            assert math.dist(end, centre) > size * 0.3, (coord, end, centre)
            assert any(math.dist(end, m) < 0.01 for m in marks), (coord, end)
            assert not any(math.dist(centre, m) < size * 0.3 for m in marks), coord
    assert off_boards == 2
