"""The search's bounds hold: on recorded positions of the games whose rules bound routes
their own way, no route earns a train more than the bound the search prunes it by.

The search rates a route exactly only when its bound can still beat the best found, and
stops walking where no longer route's bound could: a bound below a route's revenue can lose
the optimum without a test of the optimum noticing (the position may not need that route).
So every route of every train (each train's routes walked without thresholds, rated
exactly) is checked against the bound (:class:`tilelay.routes._Search`'s ``upper``, and
its ``tight``: a game's bound from a route's stops), on
every fifth ``run_routes`` of a record (the routes walked with the search's bound values).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.conftest import engine_games_known, recorded_runs, reference
from tilelay import routes
from tilelay.replay import ReplayStep, load_record, replay_steps
from tilelay.routes import (
    _NO_THRESHOLD,
    RoutePlanner,
    RunResult,
    _beside,
    _Found,
    _grow,
    _grown,
    _Reach,
    _reach_key,
    _resolve,
    _Search,
    _track,
    _walk,
)

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

#: Records whose games bound routes from their stops too (GameRules.stops_bound): 18India.
CLOSER = ("18India__18India_game_end_bank",)

#: Records whose long trains' routes are too many to walk without thresholds (18USA's late
#: board, for its 7- and 8-trains): the most stops of the trains checked there.
MOST_STOPS = {"18USA__109372": 6}


@pytest.mark.parametrize("stem", RECORDS)
def test_no_route_earns_more_than_its_bound(stem: str) -> None:
    checked = closer_checked = 0
    for step, corp in recorded_runs(stem, 5):
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
            closer = search.tight[spec]
            reach = _Reach([spec])
            routes, _ = _walk(
                net,
                reach,
                _grow(net, reach, search.walker_of[spec].bound, search.walker_of[spec].prune),
            )
            for found in routes.values():
                rated = planner.rated(spec, found)
                if rated is None:
                    continue
                assert upper(found) >= rated[0], (step.action_id, spec.name, rated[2][0])
                checked += 1
                if closer is not None:
                    # the game's closer bound from the stops (GameRules.stops_bound)
                    assert closer(found) >= rated[0], (step.action_id, spec.name, rated[2][0])
                    closer_checked += 1
    assert checked > 0
    if stem in CLOSER:
        assert closer_checked > 0


def test_train_ends_leave_out_no_route_the_train_runs() -> None:
    """A train's own route ends (:attr:`tilelay.route_rules.WalkRules.train_ends`, 1822's
    E-train: its own cities, France through the Channel) leave out of the walk only routes
    the train may not run: every route it runs, walked without them, is walked with them,
    its bound (the E-train's own cities) at least its revenue."""
    path = reference("18xxgames", "fixtures", "1822__33845.json")
    checked = 0
    with engine_games_known():
        runs = 0
        for step in replay_steps(load_record(path)):
            if step.action.get("type") != "run_routes":
                continue
            corp = str(step.action.get("entity"))
            names = step.runnable_names(corp)
            if "E" not in names:
                continue
            runs += 1
            if runs % 3:
                continue
            planner = RoutePlanner(step.board, corp, step.phase, facts=step.facts)
            spec = planner.spec("E")
            search = _Search(planner, [spec], [spec])
            walker = search.walker_of[spec]
            net = planner._net
            assert net.train_ends, step.action_id
            reach = _Reach([spec])
            ended, _ = _walk(net, reach, _grow(net, reach, walker.bound, walker.prune))
            ends, net.train_ends = net.train_ends, {}
            net._ends_of.clear()
            try:
                every, _ = _walk(net, reach, _grow(net, reach, walker.bound, walker.prune))
            finally:
                net.train_ends = ends
                net._ends_of.clear()
            assert len(every) > len(ended), step.action_id
            for mask, found in every.items():
                rated = planner.rated(spec, found)
                if rated is None:
                    continue
                assert mask in ended, (step.action_id, rated[2][0])
                assert search.upper[spec](found) >= rated[0], (step.action_id, rated[2][0])
                checked += 1
    assert checked > 0


#: Records whose trains all visit any number of stops of some class (18India's towns, its
#: express trains' cities): the rest of the map is always within their reach, so no arm's
#: ceiling is below the best bound.
UNLIMITED = ("18India__18India_game_end_bank",)

#: Records of games whose routes the generic rules rate, besides :data:`RECORDS`.
GENERIC = ("1830_26855", "1889_314", "18Chesapeake_1277")


@pytest.mark.parametrize("share", [9, 10])
@pytest.mark.parametrize("stem", RECORDS + GENERIC)
def test_ceilings_leave_out_no_route_that_reaches_its_threshold(
    stem: str, share: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ceilings a walk prunes arms by (the best stops the rest of a train's reach may
    add, with the track arriving at them: :class:`tilelay.routes._Ceiling`; the walks on
    from where an arm ends: :func:`tilelay.routes._onward`, here from the first arm) leave
    out no route that reaches the walk's threshold: at a threshold of nine tenths of a
    train's best bound, and at the best bound, the walk with them keeps every route the
    walk without them keeps (and they leave some arms out)."""
    monkeypatch.setattr(routes, "_NEAR_AFTER", 0)
    checked = pruned = 0
    for step, corp in recorded_runs(stem, 5):
        planner = RoutePlanner(step.board, corp, step.phase, facts=step.facts)
        specs = [planner.spec(t) for t in step.runnable_names(corp)]
        for spec in dict.fromkeys(s for s in specs if s.runs):
            if spec.capacity(0b111) > MOST_STOPS.get(stem, spec.capacity(0b111)):
                continue
            search = _Search(planner, [spec], [spec])
            bounds = [planner.rules.route_bound(planner.context, spec)]
            net = planner._net
            every = search._walker([spec], bounds)
            reach = every.reach
            found, _ = _walk(net, reach, _grow(net, reach, every.bound, every.prune))
            if not found:
                continue
            threshold = max(f[1] for f in found.values()) * share // 10
            plain = search._walker([spec], bounds)
            plain.reach.set_thresholds([threshold])
            kept, _ = _walk(net, plain.reach, _grow(net, plain.reach, plain.bound, plain.prune))
            cut = search._walker([spec], bounds)
            cut.reach.set_thresholds([threshold])
            arms = list(
                _grown(net, cut.reach, cut.bound, cut.prune, lambda w=cut, n=net: w.ceiling(n))
            )
            with_ceilings, _ = _walk(net, cut.reach, arms)
            assert set(with_ceilings) == set(kept), (step.action_id, spec.name)
            checked += 1
            pruned += sum(a.pruned is not None for a in arms)
    assert checked > 0
    if stem not in UNLIMITED:
        assert pruned > 0


@pytest.mark.parametrize("stem", ("1817__15528", "1822__33845", "18USA__109372", *GENERIC))
def test_partners_handed_down_leave_out_no_route(
    stem: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The partners an arm found blocked, handed down to its longer arms
    (:func:`tilelay.routes._walk`), leave out no route: with them from a token's first arm
    on, and without them, a walk keeps the same routes (every train's, at nine tenths of
    its best bound, and with no threshold)."""
    checked = 0
    for step, corp in recorded_runs(stem, 10):
        planner = RoutePlanner(step.board, corp, step.phase, facts=step.facts)
        specs = [planner.spec(t) for t in step.runnable_names(corp)]
        net = planner._net
        for spec in dict.fromkeys(s for s in specs if s.runs):
            if spec.capacity(0b111) > MOST_STOPS.get(stem, spec.capacity(0b111)):
                continue
            search = _Search(planner, [spec], [spec])
            walker = search._walker([spec], [planner.rules.route_bound(planner.context, spec)])
            reach = walker.reach
            arms = _grow(net, reach, walker.bound, walker.prune)
            best = 0
            for share in (None, 9):
                if share is not None:
                    reach.set_thresholds([best * share // 10])
                walks = []
                for after in (0, 1 << 30):
                    monkeypatch.setattr(routes, "_SKIPS_AFTER", after)
                    walks.append(_walk(net, reach, arms)[0])
                handed, plain = walks
                assert set(handed) == set(plain), (step.action_id, spec.name, share)
                best = max((f[1] for f in plain.values()), default=0)
                checked += len(plain)
    assert checked > 0


def test_arms_grown_towards_the_ends_leave_out_no_route(monkeypatch: pytest.MonkeyPatch) -> None:
    """1822's E-train, whose routes end only at its corporation's cities: an arm is not
    grown where no chain of track leads on to such a city it has not visited (:func:
    `tilelay.routes._ends_beyond`), yet every route is found. At every run of an E-train
    in the shared 1822 record, its walk with no threshold keeps the same routes as a walk
    that grows every arm, and grows fewer arms."""
    checked = fewer = 0
    for step, corp in recorded_runs("1822__33845"):
        if "E" not in step.runnable_names(corp):
            continue
        planner = RoutePlanner(step.board, corp, step.phase, facts=step.facts)
        spec = planner.spec("E")
        search = _Search(planner, [spec], [spec])
        walker = search._walker([spec], [planner.rules.route_bound(planner.context, spec)])
        net = planner._net
        grown = _grow(net, walker.reach, walker.bound, walker.prune)
        found = _walk(net, walker.reach, grown)[0]
        with monkeypatch.context() as m:
            # every end always ahead: every arm grown
            m.setattr(routes, "_ends_beyond", lambda net, endable, *_: (1 << len(endable)) - 1)
            every = _grow(net, walker.reach, walker.bound, walker.prune)
            assert set(found) == set(_walk(net, walker.reach, every)[0]), step.action_id
        checked += len(found)
        fewer += sum(a.size for a in every) - sum(a.size for a in grown)
    assert checked > 0 and fewer > 0


def _runs_of_several(
    stem: str,
) -> Iterator[tuple[ReplayStep, RoutePlanner, RunResult, _Search, list[dict[int, _Found]]]]:
    """Every third recorded run of the record whose best run has two routes or more: its
    step, planner, best run, a search of its trains and each walk's routes walked without
    thresholds."""
    for step, corp in recorded_runs(stem, 3):
        names = step.runnable_names(corp)
        if len(names) < 2:
            continue
        planner = RoutePlanner(step.board, corp, step.phase, facts=step.facts)
        best = planner.best(names)
        if len(best.routes) < 2:
            continue
        specs = [planner.spec(t) for t in names]
        running = list(dict.fromkeys(s for s in specs if s.runs))
        search = _Search(planner, sorted(specs, key=_reach_key), running)
        net = planner._net
        found = [
            _walk(net, w.reach, _grow(net, w.reach, w.bound, w.prune))[0] for w in search.walkers
        ]
        yield step, planner, best, search, found


@pytest.mark.parametrize(
    "stem",
    ("1817__15528", "1822__33845", "1846__10264", "18India__18India_game_end_bank", *GENERIC),
)
def test_routes_left_out_beside_the_other_trains_are_in_no_better_run(stem: str) -> None:
    """The combination leaves out a route that, with the most the other trains' routes may
    earn beside it (their best routes without the track it shares with them:
    :func:`tilelay.routes._beside`), cannot make a run better than one found: every route of
    the best run stays in (its train's routes walked without thresholds, the run found
    taken as one earning one less), and some routes are left out."""
    checked = left_out = 0
    for step, planner, best, search, found in _runs_of_several(stem):
        held = search._held([list(f.values()) for f in found], {})
        extra = planner.rules.run_bonus_bound(planner.context) if search.run_rules else 0
        kept = _beside(held, search.slots, best.revenue - 1 - extra, planner._net.width)
        for route in best.routes:
            spec, rated = planner._origin[route]
            assert rated[1] in {f[0] for _, _, f in kept[spec][0]}, (step.action_id, route)
        checked += 1
        left_out += sum(len(held[s][0]) - len(kept[s][0]) for s in held)
    assert checked > 0
    assert left_out > 0


@pytest.mark.parametrize(
    "stem",
    ("1817__15528", "1822__33845", "1846__10264", "18India__18India_game_end_bank", *GENERIC),
)
def test_routes_left_out_by_their_exits_are_in_no_better_run(stem: str) -> None:
    """A walk made again keeps a route only where, with the most each other train earns on
    a route using none of the exits (paths leaving the tokens) all its ways use, it may make
    a run better than one found (:class:`tilelay.routes._ExitNeeds`): every route of the
    best run is kept (the other trains' routes walked without thresholds, the run found
    taken as one earning one less), and some routes are left out."""
    checked = left_out = 0
    for step, planner, best, search, found in _runs_of_several(stem):
        extra = planner.rules.run_bonus_bound(planner.context) if search.run_rules else 0
        walked = dict.fromkeys(search.running, _NO_THRESHOLD)
        make = search._exit_needs(search._others_best(found, walked), best.revenue - 1, extra)
        needs = {id(w): make(w) for w in search.walkers}
        for route in best.routes:
            spec, rated = planner._origin[route]
            walker = search.walker_of[spec]
            f = found[search.walkers.index(walker)][rated[1]]
            assert f[1] >= needs[id(walker)].need(_track(f), f[10]), (step.action_id, route)
        for walker, routes_of in zip(search.walkers, found, strict=True):
            by_exits = needs[id(walker)]
            left_out += sum(1 for f in routes_of.values() if f[1] < by_exits.need(_track(f), f[10]))
        checked += 1
    assert checked > 0
    assert left_out > 0


@pytest.mark.parametrize("stem", ("1817__15528", "1846__10264", *GENERIC))
def test_a_run_seeded_from_a_promising_route_runs(stem: str) -> None:
    """Where a first combination's run is far below the trains' bests, the search seeks a
    better one before it walks again (:meth:`tilelay.routes._Search._seeded`): a promising
    route of the longer train, and the other's best on the track it leaves. Asked here after
    no run at all, the run it gives is a run: its routes share no track, earn what it says
    and no more than the best run."""
    seeded = 0
    for _, planner, best, search, found in _runs_of_several(stem):
        walked = dict.fromkeys(search.running, _NO_THRESHOLD)
        none = (0, [-1] * len(search.slots), [], 0)
        total, picks, lists, _ = search._seeded(none, found, search._others_best(found, walked))
        if total == 0:
            continue
        chosen = _resolve(lists, picks)
        assert chosen is not None
        ran = [(s, f) for s, f in zip(search.slots, chosen, strict=True) if f is not None]
        assert len(ran) == 2
        assert not ran[0][1][0] & ran[1][1][0]
        rated = [planner.rated(s, f) for s, f in ran]
        assert total == sum(r[0] for r in rated if r is not None)
        assert total <= best.revenue
        seeded += 1
    assert seeded > 0
