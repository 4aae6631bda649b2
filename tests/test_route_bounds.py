"""The search's bounds hold: on recorded positions of the games whose rules bound routes
their own way, no route earns a train more than the bound the search prunes it by.

The search rates a route exactly only when its bound can still beat the best found, and
stops walking where no longer route's bound could: a bound below a route's revenue can lose
the optimum without a test of the optimum noticing (the position may not need that route).
So every route of every train (each train's routes walked without thresholds, rated
exactly) is checked against the bound (:class:`tilelay.routes._Search`'s ``upper``), on
every fifth ``run_routes`` of a record (the routes walked with the search's bound values).
"""

from __future__ import annotations

import pytest

from tests.conftest import engine_games_known, reference
from tilelay.replay import load_record, replay_steps
from tilelay.routes import RoutePlanner, _grow, _Reach, _Search, _walk

#: Records whose games bound routes by their own rules: towns filling spare city stops
#: (1860, 1861, 1867), bonuses on hexes passed or stopped at (1817, 1846, 18 Los Angeles,
#: 18USA), leased trains (1860), local trains, the E-train and destinations (1822), variable
#: cities, connections and commodities (18India), pullmans, extenders, subsidies and company
#: towns (18USA).
RECORDS = (
    "1817__15528",
    "1822__33845",
    "1846__10264",
    "1860__19354",
    "1861__29683",
    "1867__21268",
    "18LosAngeles1__19984",
    "18India__18India_game_end_bank",
    "18USA__109372",
)

#: Records whose long trains' routes are too many to walk without thresholds (18USA's late
#: board, for its 7- and 8-trains): the most stops of the trains checked there.
MOST_STOPS = {"18USA__109372": 6}


@pytest.mark.parametrize("stem", RECORDS)
def test_no_route_earns_more_than_its_bound(stem: str) -> None:
    path = reference("18xxgames", "fixtures", f"{stem}.json")
    checked = 0
    with engine_games_known():
        runs = 0
        for step in replay_steps(load_record(path)):
            if step.action.get("type") != "run_routes":
                continue
            runs += 1
            if runs % 5:
                continue
            corp = str(step.action.get("entity"))
            planner = RoutePlanner(step.board, corp, step.phase, facts=step.facts)
            specs = [planner.spec(t) for t in step.runnable_names(corp)]
            running = list(dict.fromkeys(s for s in specs if s.runs))
            if not running:
                continue
            search = _Search(planner, specs, running)
            net = planner._net
            for spec in running:
                if spec.capacity(0b111) > MOST_STOPS.get(stem, spec.capacity(0b111)):
                    continue
                upper = search.upper[spec]
                reach = _Reach([spec])
                routes, _ = _walk(net, reach, _grow(net, reach, search.bound, search.prune))
                for found in routes.values():
                    rated = planner.rated(spec, found)
                    if rated is None:
                        continue
                    assert upper(found) >= rated[0], (step.action_id, spec.name, rated[2][0])
                    checked += 1
    assert checked > 0
