"""Recorded games on the board page: import, step through, compare runs with the best.

A record (an 18xx.games JSON export, file or paste) is replayed once when imported; a record
that cannot be read or replayed is refused (400) saying which action failed and why. It is
kept in the store as a document of kind ``record``, so the page steps through it by number:

* ``PATCH /api/records/<id>`` – ``{name}``: rename;
* ``POST /api/records`` – the record as the body (at most :data:`MAX_RECORD` bytes; ``?name=``):
  201 with ``{record, game, steps, runs, chart}``: every action in force (``steps``: number,
  id, type, entity, a short text), each ``run_routes`` (``runs``: the corporation, its
  trains, the revenue run and the best, and what was missed) and the chart of each
  corporation's revenue, run and best, as SVG. The best routes are searched for in half
  the request's time limit at most: the runs after the time is up have ``best`` and
  ``missed`` null (18USA's late runs take seconds each), and their steps search;
* ``GET /api/records`` – the records kept; ``GET /api/records/<id>`` – as ``POST`` answers;
  ``DELETE /api/records/<id>``;
* ``GET /api/records/<id>/steps/<n>`` – the board after step ``n``: the map, the phase, and
  at a ``run_routes`` the routes run beside the best ones (two maps) and the revenue missed
  (the best searched for in three quarters of the time limit at most, else null);
* ``POST /api/records/<id>/branch`` – ``{step}``: a new board state from that step (the
  tiles and tokens then, the phase, the corporation that acted and its trains).
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from tilelay.audit import rate_recorded
from tilelay.games import Game
from tilelay.replay import (
    RecordError,
    ReplayStep,
    read_record,
    record_game,
    recorded_routes,
    replay_steps,
)
from tilelay.routes import Route as TrainRoute
from tilelay.routes import RoutePlanner, RunResult
from tilelay.rules import Start, rules_for
from tilelay.sandbox import BoardState, board_actions, game_key, setup_problem
from tilelay.store import MAX_NAME, Store, StoreError
from tilelay.svg import ROUTE_COLORS, map_svg
from tilelay.svg.charts import revenue_chart
from tilelay.svg.text import css_color
from tilelay.web.board import MAP_SIZE
from tilelay.web.compute import compute, limited_search, search_seconds
from tilelay.web.errors import WebError
from tilelay.web.params import check_query, json_body, read_body
from tilelay.web.stores import get_store, store_error

__all__ = ["MAX_RECORD", "Analysis", "analyse_record", "routes"]

#: The largest record imported (bytes); recorded games are far smaller (50–500 kB).
MAX_RECORD = 5 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Analysis:
    """A replayed record: the game, every step (the board after each action in force) and
    what the page lists (steps, runs, chart)."""

    game: Game
    steps: tuple[ReplayStep, ...]
    summary: dict[str, Any]
    #: a digest of the record, which names its steps' searches however the record is kept
    #: (a run whose search took too long is not searched again: :func:`_step_drawn`)
    digest: str
    #: the record's players' names by their ids
    players: Mapping[object, str] = field(default_factory=dict)
    #: how the record's game was started (its seed and players: a board branched from a
    #: step starts so)
    start: Start = field(default_factory=Start)
    #: the views of the steps shown so far, a run's once its search went to the end (a run
    #: the import had no time for is searched once, and listed searched after)
    shown: dict[int, dict[str, Any]] = field(default_factory=dict)


def _players(record: Mapping[str, Any]) -> dict[object, str]:
    """The record's players' names by their ids (those it names)."""
    found: dict[object, str] = {}
    players = record.get("players")
    for p in players if isinstance(players, list) else ():
        if isinstance(p, Mapping) and isinstance(p.get("name"), str):
            pid = p.get("id")
            if isinstance(pid, (int, str)) and not isinstance(pid, bool):
                found[pid] = " ".join(p["name"].split())[:60] or str(pid)
    return found


def _label(action: Mapping[str, Any], players: Mapping[object, str]) -> str:
    kind = str(action.get("type", "?"))
    entity = action.get("entity")
    if action.get("entity_type") == "player" and isinstance(entity, (int, str)):
        entity = players.get(entity, entity)
    who = f"{entity} " if entity is not None else ""
    if kind == "lay_tile":
        rotation = action.get("rotation", 0)
        return f"{who}lays {action.get('tile')} at {action.get('hex')} (rotation {rotation})"
    if kind == "place_token":
        return f"{who}places a token in {action.get('city')}"
    if kind == "buy_train":
        return f"{who}buys train {action.get('train')} for {action.get('price', '?')}"
    if kind == "run_routes":
        routes = action.get("routes")
        n = len(routes) if isinstance(routes, list) else 0
        return f"{who}runs {n} route{'' if n == 1 else 's'}"
    return f"{who}{kind.replace('_', ' ')}"


def _corp_of(game: Game, step: ReplayStep) -> str | None:
    entity = step.action.get("entity")
    if isinstance(entity, str) and entity in {c.sym for c in game.corporations}:
        return entity
    return None


def _runs(
    step: ReplayStep,
    planner: RoutePlanner,
    corp: str,
    seconds: float | None,
    key: object = None,
) -> dict[str, Any]:
    """The routes run at a ``run_routes`` step (found on the board where the record gives
    no revenue) and the best ones, searched for at most ``seconds`` (None: for as long as
    the search takes); where the search takes longer, ``best`` and ``missed`` are None and
    ``best_routes`` empty. With ``key`` (what names the search), a search that took longer
    before is not tried again (:func:`~tilelay.web.compute.limited_search`)."""
    held = step.trains.get(corp, {})
    best: RunResult | None = limited_search(
        key, seconds, lambda: planner.best(step.runnable_names(corp))
    )
    rated = rate_recorded(planner, recorded_routes(step.action), held)
    drawn: list[TrainRoute] = [run.route for run in rated.runs if run.route is not None]
    ran: list[dict[str, Any]] = [
        {
            "train": run.train,
            "type": run.train_type,
            "hexes": list(run.hexes),
            "revenue": run.ran,
            "drawn": run.route is not None,
            "problem": run.problem,
        }
        for run in rated.runs
    ]
    # what the run earned, as the audit says (the game's whole-run rule applied: not the
    # sum of its routes' own revenues; None where a recorded route is not legal and the
    # record gives no revenue)
    run_total = rated.ran
    routes = best.routes if best is not None else ()
    return {
        "corporation": corp,
        "phase": step.phase.name,
        "trains": [f"{t} ({held[t]})" for t in sorted(held)],
        "ran": ran,
        "run": run_total,
        "best": best.revenue if best is not None else None,
        "missed": (
            max(best.revenue - run_total, 0) if best is not None and run_total is not None else None
        ),
        # what the game's whole-run rule adds to the best routes' own revenues (18TN's
        # Civil War takes the lowest away)
        "best_run_bonus": best.run_bonus if best is not None else None,
        "best_routes": [
            {
                "train": r.train,
                "revenue": r.revenue,
                "hexes": list(r.hexes),
                "color": ROUTE_COLORS[i % len(ROUTE_COLORS)],
            }
            for i, r in enumerate(routes)
        ],
        "_drawn": drawn,
        "_best": list(routes),
    }


def analyse_record(record: Mapping[str, Any], *, seconds: float | None = None) -> Analysis:
    """Replay ``record`` (refused with the action that failed) and list its steps and runs
    with the best revenue at each: the best routes searched for at most ``seconds`` in all
    (None: for as long as the searches take); the runs the time left unsearched have
    ``best`` and ``missed`` None (their step searches on its own: :func:`record_step`)."""
    game = record_game(record)
    steps = tuple(replay_steps(record, game))
    players = _players(record)
    rows: list[dict[str, Any]] = []
    runs: list[dict[str, Any]] = []
    series: dict[str, list[tuple[int, int, int | None]]] = {}
    end = time.monotonic() + seconds if seconds is not None else None
    for n, step in enumerate(steps):
        action = step.action
        rows.append(
            {
                "n": n,
                "id": step.action_id,
                "type": str(action.get("type", "")),
                "entity": action.get("entity"),
                "text": _label(action, players),
                "phase": step.phase.name,
            }
        )
        corp = _corp_of(game, step)
        if action.get("type") == "run_routes" and corp is not None:
            planner = RoutePlanner(step.board, corp, step.phase, facts=step.facts)
            left = None if end is None else max(end - time.monotonic(), 0.0)
            run = _runs(step, planner, corp, left)
            if run["best"] is None:
                end = time.monotonic()  # the time is up: no later run is searched
            runs.append(
                {
                    "n": n,
                    "id": step.action_id,
                    "corporation": corp,
                    "run": run["run"],
                    "best": run["best"],
                    "missed": run["missed"],
                }
            )
            points = series.setdefault(corp, [])
            if run["run"] is not None:  # (else not drawn: a recorded route is not legal)
                points.append((n, run["run"], run["best"]))
    colors = {c.sym: css_color(c.color) for c in game.corporations}
    chart = revenue_chart(series, colors, last_step=max(len(steps) - 1, 1))
    summary = {
        "game": {"name": game_key(game), "title": game.title, "options": list(game.chosen_options)},
        "steps": rows,
        "runs": runs,
        "chart": chart,
        "totals": {corp: _totals([r for r in runs if r["corporation"] == corp]) for corp in series},
    }
    return Analysis(game, steps, summary, _digest(record), players, Start.of_record(record))


def _totals(runs: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """A corporation's runs summed: what they earned and their best (where known), how many
    runs were not searched and how many earned what is not known (a recorded route not
    legal, in a record that gives no revenue)."""
    return {
        "run": sum(r["run"] for r in runs if r["run"] is not None),
        "best": sum(r["best"] for r in runs if r["best"] is not None),
        "unsearched": sum(1 for r in runs if r["best"] is None),
        "unknown": sum(1 for r in runs if r["run"] is None),
    }


def _digest(record: Mapping[str, Any]) -> str:
    """A digest of ``record`` (JSON data)."""
    text = json.dumps(record, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# ------------------------------------------------------------------------------ cache

_KEPT = 6
#: Analyses by (store, record, version, whether the runs' best routes were searched)
_CACHE: OrderedDict[tuple[str, int, int, bool], Analysis] = OrderedDict()
_LOCK = threading.Lock()


def _analysis(
    store: Store, record_id: int, *, bests: bool = True
) -> tuple[dict[str, Any], Analysis]:
    """Record ``record_id`` analysed (kept for the next requests of this process); with
    ``bests`` False, only its steps are needed (a step and a branch, which a process of the
    server other than the one that imported the record may answer): where no analysis is
    kept, the record is replayed without searching its runs, so that the step's own search
    has the request's time."""
    doc = store.get(record_id, "record")
    base = (str(store.path), record_id, doc.version)
    with _LOCK:
        for key in [(*base, True)] + ([] if bests else [(*base, False)]):
            hit = _CACHE.get(key)
            if hit is not None:
                _CACHE.move_to_end(key)
                return doc.summary(), hit
    hit = analyse_record(doc.body, seconds=search_seconds(_IMPORT_SHARE) if bests else 0)
    _keep((*base, bests), hit)
    return doc.summary(), hit


def _keep(key: tuple[str, int, int, bool], analysis: Analysis) -> None:
    with _LOCK:
        _CACHE[key] = analysis
        while len(_CACHE) > _KEPT:
            _CACHE.popitem(last=False)


#: The share of a request's time limit (:func:`~tilelay.web.compute.request_seconds`) that
#: an import's route searches may take in all: a record of long searches (18USA's late runs
#: take seconds each) is imported with its later runs unsearched, rather than refused as too
#: busy (a step searches its run as long as a page's search may, and where that is not
#: enough still shows the map and the routes run).
_IMPORT_SHARE = 0.5


def _answer(summary: dict[str, Any], analysis: Analysis) -> dict[str, Any]:
    return {"record": summary, **analysis.summary}


# ------------------------------------------------------------------------------ HTTP


def _id(request: Request) -> int:
    value: int = request.path_params["id"]
    return value


async def _work(request: Request, fn: Any) -> Any:
    store = get_store(request)

    def run() -> Any:
        try:
            return fn(store)
        except StoreError as err:
            raise store_error(err) from None
        except RecordError as err:
            raise WebError(str(err)) from None

    return await compute(run)


async def import_record(request: Request) -> Response:
    """``POST /api/records``: import a record (the body)."""
    check_query(request, ("name",))
    body = await read_body(request, MAX_RECORD)
    name = request.query_params.get("name", "").strip()

    def work(store: Store) -> dict[str, Any]:
        record = read_record(body, source="the record")
        analysis = analyse_record(record, seconds=search_seconds(_IMPORT_SHARE))
        doc = store.create("record", name or _record_name(analysis.game.title, record), record)
        _keep((str(store.path), doc.id, doc.version, True), analysis)
        return _answer(doc.summary(), analysis)

    return JSONResponse(await _work(request, work), status_code=201)


#: The most of a record's id its name shows.
_ID_SHOWN = 40


def _record_name(title: str, record: Mapping[str, Any]) -> str:
    """The name a record is kept under when none is given: the game and the record's id
    (a number or text; a long one cut, another kind left out), within a name's limit."""
    rid = record.get("id")
    if isinstance(rid, bool) or not isinstance(rid, int | str) or not str(rid).strip():
        return f"{title} · record"[:MAX_NAME]
    text = str(rid).strip()
    if len(text) > _ID_SHOWN:
        text = text[: _ID_SHOWN - 1] + "…"
    return f"{title} · record {text}"[:MAX_NAME]


async def list_records(request: Request) -> Response:
    """``GET /api/records``: the records kept."""

    def work(store: Store) -> list[dict[str, Any]]:
        return [
            {**d.summary(), "game": (d.body or {}).get("title")}
            for d in store.documents("record", fields=("title",))
        ]

    return JSONResponse({"records": await _work(request, work)})


async def get_record(request: Request) -> Response:
    """``GET /api/records/<id>``: a record's steps, runs and chart."""
    record_id = _id(request)
    return JSONResponse(await _work(request, lambda store: _answer(*_analysis(store, record_id))))


async def rename_record(request: Request) -> Response:
    """``PATCH /api/records/<id>``: rename to ``{name}`` (two imports of one record told
    apart)."""
    record_id = _id(request)
    data = await json_body(request, fields=("name",))
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise WebError("'name' must be a non-empty string")

    def work(store: Store) -> dict[str, Any]:
        store.get(record_id, "record")
        return store.rename(record_id, name.strip()).summary()

    return JSONResponse({"record": await _work(request, work)})


async def delete_record(request: Request) -> Response:
    """``DELETE /api/records/<id>``."""
    record_id = _id(request)

    def work(store: Store) -> None:
        store.get(record_id, "record")
        store.delete(record_id)

    await _work(request, work)
    return JSONResponse({"deleted": record_id})


def _step_view(analysis: Analysis, n: int) -> dict[str, Any]:
    with _LOCK:
        kept = analysis.shown.get(n)
    if kept is not None:
        return kept
    out = _step_drawn(analysis, n)
    run = out["run"]
    if run is None or run["best"] is None:
        return out  # (not kept: a longer time limit may find it; _runs remembers it)
    with _LOCK:
        analysis.shown[n] = out
        while len(analysis.shown) > _SHOWN:
            del analysis.shown[next(iter(analysis.shown))]
        # the record's list of runs takes the run's best, where the import had no time
        for listed in analysis.summary["runs"]:
            if listed["n"] == n and listed["best"] is None:
                listed["best"], listed["missed"] = run["best"], run["missed"]
                totals = analysis.summary["totals"].get(listed["corporation"])
                if totals is not None:
                    totals["best"] += run["best"]
                    totals["unsearched"] -= 1
    return out


#: How many steps' views a record keeps (each holds two maps).
_SHOWN = 64


def _step_drawn(analysis: Analysis, n: int) -> dict[str, Any]:
    """:func:`_step_view` worked out."""
    game, step = analysis.game, analysis.steps[n]
    corp = _corp_of(game, step)
    out: dict[str, Any] = {
        "n": n,
        "id": step.action_id,
        "text": _label(step.action, analysis.players),
        "type": step.action.get("type"),
        "phase": step.phase.name,
        "run": None,
    }
    if step.action.get("type") == "run_routes" and corp is not None:
        planner = RoutePlanner(step.board, corp, step.phase, facts=step.facts)
        # (the record and the step name the search: a search that took too long is not
        # tried again each time the step is shown, however the record is kept)
        key = ["record step", analysis.digest, n]
        run = _runs(step, planner, corp, search_seconds(), key)
        drawn, best = run.pop("_drawn"), run.pop("_best")
        out["run"] = run
        # (no routes drawn where the search took too long: not "no route")
        shown = best if run["best"] is not None else None
        out["svg"] = map_svg(game, board=step.board, size=MAP_SIZE, routes=shown)
        out["svg_run"] = map_svg(game, board=step.board, size=MAP_SIZE, routes=drawn)
    else:
        out["svg"] = map_svg(game, board=step.board, size=MAP_SIZE)
    return out


def _step(request: Request) -> int:
    value: int = request.path_params["n"]
    return value


async def record_step(request: Request) -> Response:
    """``GET /api/records/<id>/steps/<n>``: the board after step ``n``."""
    record_id, n = _id(request), _step(request)

    def work(store: Store) -> dict[str, Any]:
        _, analysis = _analysis(store, record_id, bests=False)
        if not 0 <= n < len(analysis.steps):
            raise WebError(f"no step {n}: the record has steps 0-{len(analysis.steps) - 1}", 404)
        return _step_view(analysis, n)

    return JSONResponse(await _work(request, work))


def branch_state(analysis: Analysis, n: int) -> BoardState:
    """A board state from step ``n``: its tiles and tokens, phase, corporation and trains,
    on the game as the record started it (its number of players and, for a game that
    draws its setup, its seed: :class:`~tilelay.sandbox.BoardState`), less the tiles the
    game laid before play where they still lie (the board lays them itself)."""
    game, step = analysis.game, analysis.steps[n]
    corp = _corp_of(game, step)
    first = game.phases[0].name if game.phases else None
    trains = step.train_names(corp) if corp is not None else []
    known = {s.name for card in game.trains.card_types for s in card.sides}
    # the record's players and seed, each where the board can start so (a record may say
    # what the game's board does not take: a seed of a game that draws nothing)
    start = analysis.start
    players = start.players or None
    if setup_problem(game, None, players) is not None:
        players = None
    seed = start.seed if setup_problem(game, start.seed, players) is None else None
    played = step.board.game
    opening = set(rules_for(played).opening_lays(played)) if seed is not None else set()
    return BoardState(
        game_key(game),
        options=game.chosen_options,
        phase=None if step.phase.name == first else step.phase.name,
        actions=tuple(str(a) for a in board_actions(step.board) if a not in opening),
        corporation=corp,
        trains=tuple(t for t in trains if t in known),
        seed=seed,
        players=players,
    )


async def branch(request: Request) -> Response:
    """``POST /api/records/<id>/branch``: ``{step}`` → a new board state."""
    record_id = _id(request)
    data = await json_body(request, fields=("step",))
    n = data.get("step")
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise WebError("'step' must be a step number (0 or more)")

    def work(store: Store) -> dict[str, Any]:
        _, analysis = _analysis(store, record_id, bests=False)
        if n >= len(analysis.steps):
            # (400, not 404: the step is named in the body; the record of the URL is there)
            raise WebError(f"no step {n}: the record has steps 0-{len(analysis.steps) - 1}")
        return {"state": branch_state(analysis, n).to_json()}

    return JSONResponse(await _work(request, work))


def routes() -> list[BaseRoute]:
    """The records' API."""
    return [
        Route("/api/records", list_records, methods=["GET"], name="records_list"),
        Route("/api/records", import_record, methods=["POST"], name="records_import"),
        Route("/api/records/{id:id}", get_record, methods=["GET"], name="records_get"),
        Route("/api/records/{id:id}", rename_record, methods=["PATCH"], name="records_rename"),
        Route("/api/records/{id:id}", delete_record, methods=["DELETE"], name="records_delete"),
        Route(
            "/api/records/{id:id}/steps/{n:id}", record_step, methods=["GET"], name="records_step"
        ),
        Route("/api/records/{id:id}/branch", branch, methods=["POST"], name="records_branch"),
    ]
