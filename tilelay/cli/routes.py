"""``tilelay routes``: the best routes of a corporation's trains.

Two ways to say the position:

* a recorded 18xx.games game: ``tilelay routes RECORD.json --action ID`` (the corporation that
  ran routes in that action, its trains and the phase then) or ``--corporation SYM`` (its
  latest ``run_routes``); the recorded revenue is printed beside ours;
* a game (built-in, or from ``--games``) and a hand-built board: ``tilelay routes GAME
  --lay COORD=TILE[-ROT] ... --token COORD=SYM[@CITY] ... --corporation SYM --trains 2,3
  [--phase 3]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tilelay.actions import TileLay, TokenPlacement
from tilelay.audit import rate_recorded
from tilelay.board import Board
from tilelay.cli import about, integer, record_argument
from tilelay.errors import TilelayError
from tilelay.games import Game, load_game
from tilelay.limits import check_trains
from tilelay.replay import ReplayStep, recorded_routes, replay_steps
from tilelay.routes import Route, RoutePlanner, RunResult
from tilelay.trains import Phase


def register(sub: Any) -> None:
    """Add the ``routes`` command."""
    p = sub.add_parser(
        "routes",
        help="the best routes of a corporation's trains (recorded game or hand-built board)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "target", help="a recorded game (JSON file; - reads it from stdin) or a game's name"
    )
    p.add_argument("--action", type=integer, help="record: the run_routes action id to replay to")
    p.add_argument("--corporation", help="the corporation symbol")
    p.add_argument(
        "--lay",
        action="append",
        default=[],
        metavar="COORD=TILE[-ROT]",
        help="game: lay a tile (repeatable), e.g. K4=57-1",
    )
    p.add_argument(
        "--token",
        action="append",
        default=[],
        metavar="COORD=SYM[@CITY]",
        help="game: place a station token (repeatable), e.g. K4=KO",
    )
    p.add_argument("--trains", help="game: the trains, comma separated, e.g. 2,3")
    p.add_argument("--phase", help="game: the phase name (default: the phase the trains bring)")
    p.set_defaults(func=cmd_routes)


def cmd_routes(args: argparse.Namespace) -> int:
    """Run ``tilelay routes``."""
    path = Path(args.target)
    if args.target == "-" or path.suffix.lower() == ".json" or path.is_file():
        try:
            return _from_record(args, path)
        except TilelayError as err:
            named = about(str(path), str(err))
            if named == str(err):
                raise
            raise TilelayError(named) from None
    return _from_game(args)


# ------------------------------------------------------------------------------ records


def _from_record(args: argparse.Namespace, path: Path) -> int:
    if args.lay or args.token or args.trains or args.phase:
        raise TilelayError("--lay, --token, --trains and --phase apply to a game, not a record")
    if args.action is None and args.corporation is None:
        raise TilelayError("a record needs --action ID or --corporation SYM")
    record = record_argument(str(path))
    chosen: ReplayStep | None = None
    for step in replay_steps(record):
        action = step.action
        if args.action is not None:
            if step.action_id == args.action:
                chosen = step
                break
        elif action.get("type") == "run_routes" and action.get("entity") == args.corporation:
            chosen = step
    if chosen is None:
        if args.action is not None:
            raise TilelayError(f"{path}: no action {args.action} in force in the record")
        raise TilelayError(f"{path}: corporation {args.corporation!r} never ran routes")
    action = chosen.action
    corp = args.corporation or str(action.get("entity", ""))
    game = chosen.board.game
    game.corporation(corp)
    trains = check_trains(corp, chosen.runnable_names(corp))
    planner = RoutePlanner(chosen.board, corp, chosen.phase, facts=chosen.facts)
    t0 = time.perf_counter()
    result = planner.best(trains)
    seconds = time.perf_counter() - t0
    recorded = (
        _recorded(planner, action, chosen.trains.get(corp, {}))
        if corp == str(action.get("entity")) and action.get("type") == "run_routes"
        else None
    )
    head = f"{game.name} action {action.get('id')} ({action.get('type')}): {corp}"
    held = chosen.trains.get(corp, {})
    if not trains and held:
        # (after its run, in the same operating round: the position of a dividend, say)
        head += f" (its trains {', '.join(sorted(held.values()))} have run this round)"
    _print(head, result, trains, seconds, recorded)
    return 0


def _recorded(
    planner: RoutePlanner, action: Mapping[str, Any], held: Mapping[str, str]
) -> tuple[int | None, bool]:
    """What the recorded run earned, as the audit says (:func:`tilelay.audit.ran_revenue`:
    the record's revenue, else ours for its routes with the game's whole-run rule; None
    where a recorded route is not legal), and whether it is the record's."""
    rated = rate_recorded(planner, recorded_routes(action), held)
    return rated.ran, rated.given is not None


# ------------------------------------------------------------------------------ games


def _from_game(args: argparse.Namespace) -> int:
    if args.action is not None:
        raise TilelayError("--action applies to a recorded game (a JSON file)")
    game = load_game(args.target)
    if not args.corporation:
        raise TilelayError("--corporation SYM is required")
    game.corporation(args.corporation)
    if not args.trains:
        raise TilelayError("--trains is required, e.g. --trains 2,3")
    names = [t.strip() for t in str(args.trains).split(",")]
    if not all(names):
        raise TilelayError(f"--trains {args.trains}: an empty train name (give e.g. 2,3)")
    trains = check_trains(args.corporation, names)
    for t in trains:
        game.trains.train_type(t)
    board = Board(game)
    phase = _phase(game, args.phase, trains)
    for text in args.lay:
        lay = TileLay.parse(text)
        why = board.why_illegal(lay.coord, lay.tile, lay.rotation, phase=phase)
        if why is not None:
            # a hand-built board may skip the rules (a brown tile on an empty hex, to see a
            # late board's routes); said, never silently
            print(f"tilelay: warning: --lay {lay}: {why}; laid all the same", file=sys.stderr)
        board = board.apply(lay)
    for text in args.token:
        board = board.apply(TokenPlacement.parse(text))
    planner = RoutePlanner(board, args.corporation, phase)
    t0 = time.perf_counter()
    result = planner.best(trains)
    seconds = time.perf_counter() - t0
    _print(f"{game.name}: {args.corporation}", result, trains, seconds, None)
    return 0


def _phase(game: Game, name: str | None, trains: list[str]) -> Phase:
    manager = game.trains
    if name is not None:
        return manager.phase(name)
    phases = manager.phases
    if not phases:
        raise TilelayError(f"game {game.name} has no phases: give --phase")
    index = 0
    names = [p.name for p in phases]
    for t in trains:
        started = manager.phase_started_by(manager.card_type_of(t).name, side=t)
        if started is not None:
            index = max(index, names.index(started))
    return phases[index]


# ------------------------------------------------------------------------------ output


def _route_line(route: Route) -> str:
    stops = " ".join(c if i == 0 else f"{c}.{i}" for c, i in route.stops)
    return f"  {route.train:>4}  {route.revenue:>5}  {'-'.join(route.hexes)}  (stops {stops})"


def _print(
    head: str,
    result: RunResult,
    trains: list[str],
    seconds: float,
    recorded: tuple[int | None, bool] | None,
) -> None:
    print(f"{head} in phase {result.phase}, trains {', '.join(trains) or 'none'}")
    for route in result.routes:
        print(_route_line(route))
    if result.run_bonus:
        # what the game's whole-run rule adds to the routes (18EU's pullman, 1846's mail
        # contract) or takes away (18TN's Civil War), so that the lines add up to the total
        print(f"  {'run':>4}  {result.run_bonus:>+5}  the game's rule for the whole run")
    line = f"total {result.revenue}"
    if recorded is not None:
        total, given = recorded
        if total is None:
            line += " (the recorded routes are not all legal: see tilelay replay)"
        else:
            line += f" (recorded {total}{'' if given else ', as tilelay rates its routes'})"
    line += f"; {result.candidates} routes enumerated, {seconds * 1000:.1f} ms"
    print(line)
