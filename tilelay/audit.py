"""Auditing recorded games: every ``run_routes`` of a record replayed, the routes the players
ran rated by tilelay's rules, and the best routes beside them.

:func:`audit_record` audits one record (a file, or a record already read) into a
:class:`RecordAudit`: per ``run_routes`` an :class:`AuditedRun` with the corporation, its
trains, the revenue the record gives (``recorded_revenue``; ``None`` for old records that do not
say), the revenue tilelay computes for the routes the record gives (``computed_revenue``;
``None`` when one of them is not a legal route, with the reason in ``problems``), the optimum,
its routes and the time the search took. A record that cannot be replayed (an unknown game,
an action that cannot be applied) gives a :class:`RecordAudit` with ``error`` naming the action
and why, and the runs audited before it.

:func:`audit_records` audits many records: on a local process pool by default, or on an
existing Dask cluster given its scheduler's address (``pip install tilelay[dask]``); the
results are the same either way (:func:`summarise` totals them: the revenue missed per
corporation, the failures).

>>> audit = audit_record({"title": "1889", "actions": []}, name="empty")
>>> audit.error, audit.runs
(None, ())
"""

from __future__ import annotations

import itertools
import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NamedTuple

from tilelay.errors import TilelayError
from tilelay.games import Game
from tilelay.replay import RecordedRoute, load_record, recorded_routes, replay_steps
from tilelay.routes import Route, RouteError, RoutePlanner

__all__ = [
    "AuditedRun",
    "RatedRun",
    "RecordAudit",
    "RecordedRun",
    "Summary",
    "audit_record",
    "audit_records",
    "ran_revenue",
    "rate_recorded",
    "recorded_total",
    "summarise",
]


@dataclass(frozen=True, slots=True)
class RecordedRun:
    """One route of a ``run_routes`` as the record gives it, rated: the train id and type, the
    hexes, the revenue the record gives and the revenue tilelay computes (``None`` with the
    reason in ``problem`` when it is not a legal route)."""

    train: str
    train_type: str | None
    hexes: tuple[str, ...]
    recorded_revenue: int | None
    computed_revenue: int | None
    problem: str | None = None
    route: Route | None = None

    @property
    def ran(self) -> int | None:
        """What the route earned (:func:`ran_revenue`)."""
        return ran_revenue(self.recorded_revenue, self.computed_revenue)


class RatedRun(NamedTuple):
    """A run's recorded routes rated (:func:`rate_recorded`): each route, the run's total as
    tilelay rates it with the game's whole-run rule (None where a route is not legal), and
    the revenue the record gives (None where it gives none)."""

    runs: tuple[RecordedRun, ...]
    computed: int | None
    given: int | None

    @property
    def ran(self) -> int | None:
        """What the run earned (:func:`ran_revenue`)."""
        return ran_revenue(self.given, self.computed)


@dataclass(frozen=True, slots=True)
class AuditedRun:
    """One ``run_routes`` of a record, audited (see the module docstring)."""

    record: str
    id: int | None
    corporation: str
    phase: str
    trains: tuple[str, ...]
    recorded_revenue: int | None
    computed_revenue: int | None
    optimal_revenue: int | None
    seconds: float
    routes: tuple[Route, ...]
    recorded: tuple[RecordedRun, ...] = ()
    problems: tuple[str, ...] = ()
    error: str | None = None
    #: what the game's whole-run rule adds to the best routes' sum (negative: takes away)
    run_bonus: int = 0

    @property
    def ran(self) -> int | None:
        """What the run earned (:func:`ran_revenue`)."""
        return ran_revenue(self.recorded_revenue, self.computed_revenue)

    @property
    def missed(self) -> int:
        """The revenue the run left on the table: the optimum less what was run
        (:attr:`ran`); 0 when either is unknown."""
        ran = self.ran
        if ran is None or self.optimal_revenue is None:
            return 0
        return max(self.optimal_revenue - ran, 0)

    def as_json(self) -> dict[str, Any]:
        """The run as a JSON object (the command line's ``--json`` lines)."""
        out: dict[str, Any] = {
            "record": self.record,
            "id": self.id,
            "corporation": self.corporation,
            "phase": self.phase,
            "trains": list(self.trains),
            "recorded_revenue": self.recorded_revenue,
            "computed_revenue": self.computed_revenue,
            "optimal_revenue": self.optimal_revenue,
            "seconds": round(self.seconds, 6),
            "routes": [_route_json(r) for r in self.routes],
            "run_bonus": self.run_bonus,
            "recorded_routes": [
                {
                    "train": r.train,
                    "hexes": list(r.hexes),
                    "recorded_revenue": r.recorded_revenue,
                    "computed_revenue": r.computed_revenue,
                    **({"problem": r.problem} if r.problem else {}),
                }
                for r in self.recorded
            ],
        }
        if self.problems:
            out["problems"] = list(self.problems)
        if self.error:
            out["error"] = self.error
        return out


def _route_json(route: Route) -> dict[str, Any]:
    return {
        "train": route.train,
        "revenue": route.revenue,
        "hexes": list(route.hexes),
        "stops": [f"{c}.{i}" for c, i in route.stops],
    }


@dataclass(frozen=True, slots=True)
class RecordAudit:
    """A record audited: its name, the game, the runs audited, and ``error`` when it could not
    be replayed to the end (naming the action and why); ``notes`` what replay took on trust."""

    record: str
    game: str | None
    runs: tuple[AuditedRun, ...] = ()
    error: str | None = None
    notes: tuple[str, ...] = ()
    seconds: float = 0.0

    def as_json(self) -> list[dict[str, Any]]:
        """JSON objects: one per run, and one ``{record, error}`` when it failed."""
        out = [run.as_json() for run in self.runs]
        if self.error is not None:
            out.append({"record": self.record, "game": self.game, "error": self.error})
        return out


# ------------------------------------------------------------------------------ one record


def rate_recorded(
    planner: RoutePlanner, routes: Sequence[RecordedRoute], held: Mapping[str, str]
) -> RatedRun:
    """The recorded routes of a run rated on ``planner`` (the corporation's position), their
    total with the game's whole-run rule (``None`` when one is not legal: the legal ones are
    still fitted to track, to be drawn) and the revenue the record gives
    (:func:`recorded_total`).

    A route given by ``connections`` must match a legal route's hexes exactly (in either
    direction); an old record's clicked ``hexes`` match a legal route over the same set of
    hexes (with the recorded revenue, when there is one). Where several match, the best
    counts.
    """
    out: list[RecordedRun] = []
    options: list[list[Route]] = []
    #: the recorded "routes" of trains that run none of their own (18EU's pullman: the
    #: game's whole-run rule rates it), by their place in ``out``
    riders: list[int] = []
    ok = True
    for r in routes:
        train = held.get(r.train)
        if train is None:
            out.append(
                RecordedRun(
                    r.train, None, r.hexes, r.revenue, None, f"the corporation has no {r.train}"
                )
            )
            ok = False
            continue
        try:
            if not planner.spec(train).runs:
                riders.append(len(out))
                out.append(RecordedRun(r.train, train, r.hexes, r.revenue, None))
                continue
            found = planner.find(train, r.hexes)
            # the routes matching stay in the recorded hexes: only those are walked
            if not found and r.chains:
                # a loop (a chain from a hex back to it) reads the same both ways round
                want_chains = _chain_key(r.chains)
                found = [
                    c
                    for c in planner.candidates(train, r.hexes)
                    if _chain_key(planner.chains(c)) == want_chains
                ]
            if not found and not r.precise:
                want = set(r.hexes)
                found = [c for c in planner.candidates(train, r.hexes) if set(c.hexes) == want]
        except TilelayError as err:
            out.append(RecordedRun(r.train, train, r.hexes, r.revenue, None, err.message))
            ok = False
            continue
        if not found:
            why = f"no legal route of train {train} passes {'-'.join(r.hexes) or 'nothing'}"
            out.append(RecordedRun(r.train, train, r.hexes, r.revenue, None, why))
            ok = False
            continue
        if r.revenue is not None and any(c.revenue == r.revenue for c in found):
            found = [c for c in found if c.revenue == r.revenue]
        out.append(RecordedRun(r.train, train, r.hexes, r.revenue, found[0].revenue))
        options.append(found)
    total: int | None = None
    if options:
        # the routes' hexes may fit several tracks: the first choice that shares none (the
        # legal routes of a run with others not legal are drawn too; the run has no total)
        best: tuple[int, tuple[Route, ...]] | None = None
        for count, combo in enumerate(itertools.product(*options)):
            if count >= _MAX_CHOICES:
                break
            try:
                value = planner.run_total(combo)
            except RouteError:
                continue
            if best is None or value > best[0]:
                best = (value, combo)
        if best is None:
            out.append(RecordedRun("", None, (), None, None, "the recorded routes share track"))
        else:
            picked = iter(best[1])
            out = [
                replace(r, computed_revenue=(route := next(picked)).revenue, route=route)
                if r.problem is None and k not in riders
                else r
                for k, r in enumerate(out)
            ]
            out, with_riders = _rated_riders(planner, out, riders, best)
            total = with_riders if ok else None
    elif riders:
        out = [
            replace(r, problem=f"train {r.train_type} runs only with another route")
            if k in riders
            else r
            for k, r in enumerate(out)
        ]
    return RatedRun(tuple(out), total, recorded_total(routes))


def _rated_riders(
    planner: RoutePlanner,
    out: list[RecordedRun],
    riders: Sequence[int],
    best: tuple[int, tuple[Route, ...]],
) -> tuple[list[RecordedRun], int | None]:
    """The recorded trains that run no route of their own (18EU's pullman) rated, and the
    run's total with them (None: one is not legal). Each must name a hex another route of
    the run stops at; there it earns what the game's rules say it earns at that stop
    (:meth:`GameRules.rider_revenue`: the stop the player chose), in place of the best the
    whole-run rule gave it."""
    total, picked = best
    if not riders:
        return out, total
    stops = {coord for route in picked for coord, _ in route.stops}
    added = total - sum(route.revenue for route in picked)
    ctx = planner.context
    node_id = ctx.graph.node_id
    nodes = [node_id[stop] for route in picked for stop in route.stops if stop in node_id]
    earned: list[int | None] = []
    for k in riders:
        r = out[k]
        away = [h for h in r.hexes if h not in stops]
        if away or not r.hexes:
            where = "-".join(away) or "nothing"
            problem = f"train {r.train_type} stops at {where}, where no other route does"
            out[k] = replace(r, problem=problem)
            return out, None
        value = None
        if r.train_type is not None:
            value = planner.rules.rider_revenue(ctx, r.train_type, nodes, r.hexes)
        out[k] = replace(r, computed_revenue=value)
        earned.append(value)
    known = [v for v in earned if v is not None]
    if len(known) == len(earned):
        total += sum(known) - added  # the stops the record names, for the rule's best
    elif len(riders) == 1:
        out[riders[0]] = replace(out[riders[0]], computed_revenue=added)
    return out, total


def recorded_total(routes: Sequence[RecordedRoute]) -> int | None:
    """The revenue a record gives a run: the sum of its routes' (None where a route, or the
    run, has none: older records give none)."""
    revenues = [r.revenue for r in routes]
    if not revenues or any(r is None for r in revenues):
        return None
    return sum(r for r in revenues if r is not None)


def ran_revenue(recorded: int | None, computed: int | None) -> int | None:
    """What a run earned: the record's revenue (:func:`recorded_total`), else tilelay's for
    the recorded routes with the game's whole-run rule (:func:`rate_recorded`'s total; a
    route's own revenue is not the run's where the rule takes some away: 18TN's Civil War);
    None when neither is known."""
    return recorded if recorded is not None else computed


def _chain_key(chains: Sequence[Sequence[str]]) -> list[tuple[str, ...]]:
    return sorted(min(tuple(c), tuple(reversed(c))) for c in chains)


#: The most ways of fitting a run's recorded routes to track tried.
_MAX_CHOICES = 10_000


def _record_name(record: Mapping[str, Any] | str | Path, name: str | None) -> str:
    if name is not None:
        return name
    if isinstance(record, str | Path):
        return str(record)
    return f"record {record.get('id', '?')}"


def audit_record(
    record: Mapping[str, Any] | str | Path,
    *,
    game: Game | None = None,
    name: str | None = None,
    optimum: bool = True,
) -> RecordAudit:
    """Audit every ``run_routes`` still in force in ``record`` (a file or a record read).

    ``game`` defaults to the game the record's ``title`` names; ``optimum`` False skips the
    search for the best routes (only the recorded routes are rated). Never raises for a bad
    record: the audit's ``error`` says what went wrong.
    """
    label = _record_name(record, name)
    start = time.perf_counter()
    runs: list[AuditedRun] = []
    game_name: str | None = game.name if game is not None else None
    notes: tuple[str, ...] = ()
    try:
        data = load_record(record) if isinstance(record, str | Path) else record
        title = data.get("title")
        game_name = game_name or (str(title) if title else None)
        for step in replay_steps(data, game):
            game_name = step.board.game.name
            notes = step.notes
            action = step.action
            if action.get("type") != "run_routes":
                continue
            runs.append(_audit_run(label, step, optimum))
    except TilelayError as err:
        return RecordAudit(
            label, game_name, tuple(runs), str(err), notes, time.perf_counter() - start
        )
    return RecordAudit(label, game_name, tuple(runs), None, notes, time.perf_counter() - start)


def _audit_run(label: str, step: Any, optimum: bool) -> AuditedRun:
    action = step.action
    corp = str(action.get("entity", ""))
    held = step.trains.get(corp, {})
    names = tuple(step.runnable_names(corp))
    recorded = recorded_routes(action)
    given = recorded_total(recorded)
    action_id = step.action_id
    try:
        seconds = 0.0
        best_routes: tuple[Route, ...] = ()
        best: int | None = None
        bonus = 0
        if optimum:
            # the search timed whole: the board's track graph, the corporation's network,
            # every route and the best combination
            t0 = time.perf_counter()
            searcher = RoutePlanner(step.board, corp, step.phase, facts=step.facts)
            result = searcher.best(names)
            seconds = time.perf_counter() - t0
            best, best_routes, bonus = result.revenue, result.routes, result.run_bonus
        planner = RoutePlanner(step.board, corp, step.phase, facts=step.facts)
        rated, computed, _ = rate_recorded(planner, recorded, held)
    except TilelayError as err:
        return AuditedRun(
            label,
            action_id,
            corp,
            step.phase.name,
            names,
            given,
            None,
            None,
            0.0,
            (),
            error=f"action {action_id}: {err}",
        )
    problems = tuple(
        f"action {action_id}: train {r.train}: {r.problem}" for r in rated if r.problem
    )
    return AuditedRun(
        label,
        action_id,
        corp,
        step.phase.name,
        names,
        given,
        computed,
        best,
        seconds,
        best_routes,
        rated,
        problems,
        run_bonus=bonus,
    )


# ------------------------------------------------------------------------------ many records

_ADDED: set[str] = set()


def _know_games(paths: Sequence[str]) -> None:
    """Make the games under ``paths`` known in this process (once per path)."""
    from tilelay.sources.games import add_paths

    new = [p for p in paths if p not in _ADDED]
    if new:
        add_paths(new)
        _ADDED.update(new)


def _audit_path(path: str, game_paths: Sequence[str], optimum: bool) -> RecordAudit:
    try:
        _know_games(game_paths)
    except TilelayError as err:
        return RecordAudit(path, None, error=str(err))
    return audit_record(path, optimum=optimum)


def audit_records(
    paths: Iterable[str | Path],
    *,
    game_paths: Sequence[str | Path] = (),
    processes: int | None = None,
    scheduler: str | Any | None = None,
    optimum: bool = True,
    progress: Callable[[RecordAudit], None] | None = None,
) -> list[RecordAudit]:
    """Audit many record files, in the order given.

    By default on a pool of ``processes`` local processes (default: the CPUs; 1 audits in this
    process). ``scheduler`` — a Dask scheduler's address (``tcp://host:8786``) or a
    ``distributed.Client`` — runs them on that cluster instead. ``game_paths`` are game
    sources (:func:`tilelay.sources.games.add_paths`) every worker must know, besides
    ``TILELAY_GAMES``. ``progress`` is called with each audit as it completes.
    """
    files = [str(p) for p in paths]
    sources = [str(p) for p in game_paths]
    done: dict[int, RecordAudit] = {}

    def finished(i: int, audit: RecordAudit) -> None:
        done[i] = audit
        if progress is not None:
            progress(audit)

    if scheduler is not None:
        _on_dask(files, sources, scheduler, optimum, finished)
    else:
        workers = processes if processes is not None else (os.cpu_count() or 1)
        workers = max(1, min(workers, len(files)))
        if workers == 1:
            for i, path in enumerate(files):
                finished(i, _audit_path(path, sources, optimum))
        else:
            _on_pool(files, sources, workers, optimum, finished)
    return [done[i] for i in range(len(files))]


def _on_pool(
    files: list[str],
    sources: list[str],
    workers: int,
    optimum: bool,
    finished: Callable[[int, RecordAudit], None],
) -> None:
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending: dict[Future[RecordAudit], int] = {
            pool.submit(_audit_path, path, sources, optimum): i for i, path in enumerate(files)
        }
        while pending:
            ready, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in ready:
                i = pending.pop(fut)
                try:
                    audit = fut.result()
                except Exception as err:  # a worker that died: the record fails, others go on
                    audit = RecordAudit(files[i], None, error=f"the audit failed: {err!r}")
                finished(i, audit)


def _on_dask(
    files: list[str],
    sources: list[str],
    scheduler: str | Any,
    optimum: bool,
    finished: Callable[[int, RecordAudit], None],
) -> None:
    try:
        from distributed import Client, as_completed
    except ImportError:  # pragma: no cover - dask is a test dependency
        raise TilelayError(
            "auditing on a Dask cluster needs dask: pip install 'tilelay[dask]'"
        ) from None
    own = not isinstance(scheduler, Client)
    try:
        client: Any = Client(scheduler) if own else scheduler  # type: ignore[no-untyped-call]
    except (OSError, ValueError, TypeError) as err:
        # (a refused or unreachable address; one Dask cannot read: no port, no host)
        raise TilelayError(f"cannot reach the Dask scheduler {scheduler!r}: {err}") from None
    try:
        futures = client.map(_audit_path, files, game_paths=sources, optimum=optimum, pure=False)
        index = {fut.key: i for i, fut in enumerate(futures)}
        for fut in as_completed(futures):  # type: ignore[no-untyped-call]
            i = index[fut.key]
            try:
                audit = fut.result()
            except Exception as err:
                audit = RecordAudit(files[i], None, error=f"the audit failed: {err!r}")
            finished(i, audit)
    finally:
        if own:
            client.close()


# ------------------------------------------------------------------------------ summary


@dataclass(frozen=True, slots=True)
class Summary:
    """Totals of audits: records, runs, failed records, runs that failed, recorded routes
    not legal, and per ``(game, corporation)`` the runs and the revenue missed."""

    records: int
    runs: int
    failures: int
    run_errors: int
    illegal_routes: int
    missed: dict[tuple[str, str], tuple[int, int]] = field(default_factory=dict)
    seconds: tuple[float, ...] = ()

    @property
    def median_seconds(self) -> float:
        """The median time of the searches."""
        times = sorted(self.seconds)
        if not times:
            return 0.0
        mid = len(times) // 2
        return times[mid] if len(times) % 2 else (times[mid - 1] + times[mid]) / 2


def summarise(audits: Iterable[RecordAudit]) -> Summary:
    """The totals of ``audits``."""
    records = runs = failures = run_errors = illegal = 0
    missed: dict[tuple[str, str], tuple[int, int]] = {}
    seconds: list[float] = []
    for audit in audits:
        records += 1
        failures += audit.error is not None
        for run in audit.runs:
            runs += 1
            run_errors += run.error is not None
            illegal += sum(1 for r in run.recorded if r.problem)
            if run.optimal_revenue is not None:
                seconds.append(run.seconds)
            key = (audit.game or "?", run.corporation)
            count, total = missed.get(key, (0, 0))
            missed[key] = (count + 1, total + run.missed)
    return Summary(records, runs, failures, run_errors, illegal, missed, tuple(seconds))
