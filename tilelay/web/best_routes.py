"""The best-routes page: a recorded game's board after a chosen action, with the best routes of
the corporation that ran, drawn on the map beside the routes the record says were run.

The server keeps nothing: the record (an 18xx.games JSON export) stays in the page, which sends
it with each request.

* ``GET /routes/<game>`` – the page: a text area (or a file) for the record;
* ``POST /routes/<game>`` – the same page, server-rendered, for a form posted without script
  (``record=…&action=ID``);
* ``POST /api/routes/<game>?action=ID`` – the record as the body; answers JSON
  ``{svg, routes, recorded, actions, …, panel}`` (``panel`` is the result as HTML, which the
  page's script swaps in).

Without ``action`` the last ``run_routes`` action is shown; an ``action`` of another type
answers 400 naming it ("action 50 is a dividend, not a run_routes"). Bodies above :data:`MAX_BODY`
answer 413, malformed JSON or a record of another game 400 saying why, an unknown game 404.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import parse_qs, quote

from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from tilelay.audit import rate_recorded
from tilelay.errors import NotFoundError, TilelayError
from tilelay.games import Game, game_names, load_game
from tilelay.limits import check_trains
from tilelay.replay import (
    RecordError,
    ReplayStep,
    actions_in_force,
    read_record,
    recorded_routes,
    replay_steps,
)
from tilelay.routes import Route as TrainRoute
from tilelay.routes import RoutePlanner
from tilelay.svg import ROUTE_COLORS, map_svg
from tilelay.web.compute import compute
from tilelay.web.errors import WebError, web_error
from tilelay.web.params import check_query, parse_int, read_body, safe_name
from tilelay.web.templating import environment, render

__all__ = ["MAX_BODY", "RoutesView", "analyse", "parse_record", "routes"]

#: The largest request body accepted (bytes); recorded games are far smaller (50–80 kB).
MAX_BODY = 5 * 1024 * 1024

#: Hex circumradius (px) of the drawn map.
MAP_SIZE = 52


@dataclass(frozen=True, slots=True)
class RoutesView:
    """Everything the page shows for one action: ours and the recorded routes, and navigation
    among the record's ``run_routes`` actions (``actions`` as ``(id, corporation)``)."""

    game: Game
    action: int
    corporation: str
    phase: str
    trains: tuple[str, ...]
    routes: tuple[TrainRoute, ...]
    revenue: int
    #: what the game's whole-run rule adds to the best routes' sum (negative: takes away)
    run_bonus: int
    recorded: tuple[dict[str, Any], ...]
    #: what the recorded run earned (None: not known, a recorded route not being legal)
    recorded_total: int | None
    svg: str
    actions: tuple[tuple[int, str], ...]

    def nav(self) -> dict[str, int | None]:
        """Ids of the first, previous, next and last ``run_routes`` actions (None: none)."""
        ids = [a for a, _ in self.actions]
        i = ids.index(self.action) if self.action in ids else -1
        return {
            "first": ids[0] if ids else None,
            "prev": ids[i - 1] if i > 0 else None,
            "next": ids[i + 1] if 0 <= i < len(ids) - 1 else None,
            "last": ids[-1] if ids else None,
        }

    def as_json(self) -> dict[str, Any]:
        """The JSON answer of the API (without the HTML panel)."""
        return {
            "game": self.game.name,
            "action": self.action,
            "corporation": self.corporation,
            "phase": self.phase,
            "trains": list(self.trains),
            "routes": [_route_json(r) for r in self.routes],
            "revenue": self.revenue,
            "run_bonus": self.run_bonus,
            "recorded": list(self.recorded),
            "recorded_total": self.recorded_total,
            "actions": [{"id": a, "corporation": c} for a, c in self.actions],
            "nav": self.nav(),
            "svg": self.svg,
        }


def _route_json(route: TrainRoute) -> dict[str, Any]:
    return {
        "train": route.train,
        "revenue": route.revenue,
        "hexes": list(route.hexes),
        "stops": [[c, n] for c, n in route.stops],
    }


# ------------------------------------------------------------------------------ analysis


def parse_record(body: bytes, game: Game) -> dict[str, Any]:
    """The record in ``body`` (JSON text); a 400 :class:`WebError` when it is not a record of
    ``game``."""
    try:
        data = read_record(body, source="the record")
    except RecordError as err:
        raise WebError(str(err)) from None
    title = str(data.get("title", ""))
    try:
        other = load_game(title).name if safe_name(title) else None
    except NotFoundError:
        other = None
    if other != game.name:
        raise WebError(f"this is a record of {title or 'an unnamed game'!r}, not {game.name}")
    return data


def _recorded(
    planner: RoutePlanner, action: Mapping[str, Any], held: Mapping[str, str]
) -> tuple[list[dict[str, Any]], int | None]:
    """The routes the record says were run, rated on the position (:func:`rate_recorded`),
    and what the run earned, as the audit says (:func:`ran_revenue`: with the game's
    whole-run rule; None where a recorded route is not legal and the record gives no
    revenue)."""
    rated = rate_recorded(planner, recorded_routes(action), held)
    rows = [
        {
            "train": run.train,
            "hexes": list(run.hexes),
            "revenue": run.ran,
            "evaluated": run.recorded_revenue is None and run.computed_revenue is not None,
        }
        for run in rated.runs
    ]
    return rows, rated.ran


def _with_train_ids(
    routes: Sequence[TrainRoute], held: Mapping[str, str], recorded: Sequence[Mapping[str, Any]]
) -> list[TrainRoute]:
    """The routes with ``train`` set to the id of a held train of that type (``"3-0"``): the
    id of the recorded route over the same hexes when there is one, so rows line up; in id
    order."""
    free = sorted(held)
    ran = {
        str(r["train"]): (tuple(r["hexes"]), tuple(reversed(r["hexes"])))
        for r in recorded
        if r.get("train") in held
    }
    ids: list[str | None] = [None] * len(routes)
    for i, r in enumerate(routes):
        tid = next((t for t in free if held[t] == r.train and r.hexes in ran.get(t, ())), None)
        if tid is not None:
            ids[i] = tid
            free.remove(tid)
    for i, r in enumerate(routes):
        if ids[i] is None:
            ids[i] = next((t for t in free if held[t] == r.train), None)
            if ids[i] is not None:
                free.remove(str(ids[i]))
    out = [r if t is None else replace(r, train=t) for r, t in zip(routes, ids, strict=True)]
    return sorted(out, key=lambda r: r.train)


def _a(kind: object) -> str:
    """An action's type with its article: "a dividend", "an assign"."""
    if not isinstance(kind, str) or not kind:
        return "an action without a type"
    name = kind[:60]
    return ("an " if name[0].lower() in "aeio" or name.lower().startswith("un") else "a ") + name


def _nearest(runs: Sequence[tuple[int, str]], action: int) -> str:
    """The ``run_routes`` actions on either side of ``action``, said after a refusal."""
    before = [a for a, _ in runs if a < action]
    after = [a for a, _ in runs if a > action]
    near = [str(a) for a in (before[-1:] + after[:1])]
    if not near:
        return " (the record has none)"
    return f" (the run_routes nearest it: {' and '.join(near)})"


def analyse(game: Game, record: Mapping[str, Any], action: int | None) -> RoutesView:
    """Replay ``record`` to ``action`` (default: its last ``run_routes``) and find the best
    routes of the corporation that ran there; an action that is not a ``run_routes`` is
    refused (400) by its type, with the ``run_routes`` on either side."""
    in_force = actions_in_force(record.get("actions", []))
    runs = tuple(
        (int(a["id"]), str(a.get("entity", "")))
        for a in in_force
        if a.get("type") == "run_routes" and isinstance(a.get("id"), int)
    )
    if action is None:
        if not runs:
            raise WebError("the record has no run_routes action")
        action = runs[-1][0]
    chosen: ReplayStep | None = None
    for step in replay_steps(record, game):
        if step.action_id == action:
            chosen = step
            break
    if chosen is None:
        raise WebError(f"no action {action} in force in the record")
    kind = chosen.action.get("type")
    if kind != "run_routes":
        # (its best routes would read as a run earning them: a dividend's trains have run)
        raise WebError(f"action {action} is {_a(kind)}, not a run_routes{_nearest(runs, action)}")
    corp = str(chosen.action.get("entity", ""))
    if chosen.action.get("entity_type") not in (None, "corporation", "minor") or corp not in {
        c.sym for c in game.corporations
    }:
        raise WebError(
            f"action {action} is not a corporation's ({corp or 'no entity'}): choose a"
            " run_routes action"
        )
    held = chosen.trains.get(corp, {})
    trains = check_trains(corp, chosen.runnable_names(corp))
    planner = RoutePlanner(chosen.board, corp, chosen.phase, facts=chosen.facts)
    result = planner.best(trains)
    recorded, ran = _recorded(planner, chosen.action, held)
    recorded.sort(key=lambda r: str(r["train"]))
    ours = _with_train_ids(result.routes, held, recorded)
    drawing = map_svg(game, board=chosen.board, routes=ours, size=MAP_SIZE)
    return RoutesView(
        game=game,
        action=action,
        corporation=corp,
        phase=chosen.phase.name,
        trains=tuple(f"{t} ({held[t]})" for t in sorted(held)),
        routes=tuple(ours),
        revenue=result.revenue,
        run_bonus=result.run_bonus,
        recorded=tuple(recorded),
        recorded_total=ran,
        svg=drawing,
        actions=runs,
    )


# ------------------------------------------------------------------------------ HTTP


def _game(request: Request) -> Game:
    name = str(request.path_params["game"])
    request.state.suggest = "/routes/{}"
    if not safe_name(name):
        raise NotFoundError(f"no game named {name!r}", suggestions=game_names())
    return load_game(name)


def _action_param(text: str | None) -> int | None:
    if text is None or text.strip() == "":
        return None
    return parse_int(text, "action", 0, 10**9)


def _panel(view: RoutesView | None, error: str | None) -> str:
    template = environment().get_template("routes_panel.html")
    return template.render(
        view=view,
        nav=view.nav() if view else {},
        error=error,
        svg=Markup(view.svg if view else ""),
        colors=ROUTE_COLORS,
    )


async def routes_page(request: Request) -> Response:
    """``GET``/``POST /routes/<game>``: the page (posted: with the result, server-rendered)."""
    game = _game(request)
    record_text = ""
    view: RoutesView | None = None
    error: str | None = None
    status = 200
    if request.method == "POST":
        try:
            body = await read_body(request, MAX_BODY)
            record_text, view = await compute(_posted_form, body, game)
        except TilelayError as err:
            known = web_error(err)
            error, status = known.message, known.status
            if status == 413:
                record_text = ""
            elif isinstance(err, _FormError):
                record_text = err.record_text
    q = quote(game.name, safe="")
    return render(
        request,
        "routes.html",
        {
            "title": f"{game.title}: best routes",
            "game": game,
            "q": q,
            "record": record_text,
            "panel": Markup(_panel(view, error)),
            "max_mb": MAX_BODY // 2**20,
        },
        status_code=status,
    )


async def routes_api(request: Request) -> Response:
    """``POST /api/routes/<game>?action=ID``: the record as the body; the result as JSON."""
    game = _game(request)
    check_query(request, ("action",))
    action = _action_param(request.query_params.get("action"))
    body = await read_body(request, MAX_BODY)
    return JSONResponse(await compute(_api_answer, body, game, action))


def _api_answer(body: bytes, game: Game, action: int | None) -> dict[str, Any]:
    view = analyse(game, parse_record(body, game), action)
    data = view.as_json()
    data["panel"] = _panel(view, None)
    return data


class _FormError(WebError):
    """A posted form's error, with the record text to show again in the page."""

    def __init__(self, err: WebError, record_text: str) -> None:
        super().__init__(err.message, err.status, suggestions=err.suggestions)
        self.record_text = record_text


def _posted_form(body: bytes, game: Game) -> tuple[str, RoutesView]:
    """The record text of a posted form and the view it asks for."""
    try:
        form = parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True, max_num_fields=64)
    except ValueError:  # more fields than max_num_fields
        raise WebError("the form has too many fields: at most 64") from None
    record_text = form.get("record", [""])[-1]
    try:
        key = "pick" if "go" in form else "action"
        action = _action_param(form.get(key, [""])[-1])
        record = parse_record(record_text.encode("utf-8"), game)
        return record_text, analyse(game, record, action)
    except TilelayError as err:
        raise _FormError(web_error(err), record_text) from None


def routes() -> list[BaseRoute]:
    """The routes of the best-routes page and its API."""
    return [
        Route("/routes/{game}", routes_page, methods=["GET", "POST"], name="routes_page"),
        Route("/api/routes/{game}", routes_api, methods=["POST"], name="routes_api"),
    ]
