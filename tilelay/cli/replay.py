"""``tilelay replay``: audit recorded games.

For every ``run_routes`` of each record: the action, the corporation, its trains, the revenue
the record gives, the revenue tilelay computes for the recorded routes, the optimum and the
time the search took; then the revenue missed per corporation and the records that could not
be replayed (each naming the action and why). ``--json`` prints one JSON object per line
instead: one per ``run_routes``, one ``{record, game, error}`` per record that failed. A run's
object has ``record``, ``id`` (the action), ``corporation``, ``phase``, ``trains``,
``recorded_revenue`` (null where the record gives none), ``computed_revenue`` (the recorded
routes as tilelay rates them, with the game's whole-run rule; null where one is not legal),
``optimal_revenue``, ``seconds`` (the search), ``routes`` (the best: ``train``, ``revenue``,
``hexes``, ``stops``), ``run_bonus`` (what the game's whole-run rule adds to those routes'
sum), ``recorded_routes`` (``train``, ``hexes``, ``recorded_revenue``,
``computed_revenue``, and ``problem`` where there is one), ``problems`` where there are
any, and ``error`` where the run could not be rated.

Many records run on local processes (``--processes``), or on a Dask cluster
(``--scheduler tcp://HOST:8786``); a progress bar shows on a terminal. Records of any game
tilelay knows: ``tilelay --games PATH replay RECORD…`` for the games of other engines.

A record that cannot be read or replayed does not stop the others: the summary counts it,
and standard error names it, one line each. The exit status is 0 when every record was
replayed, 2 when one could not be (or the command itself was wrong).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tilelay.audit import AuditedRun, RecordAudit, audit_record, audit_records, summarise
from tilelay.cli import about, integer, record_argument
from tilelay.errors import TilelayError

#: The exit status when a record could not be read or replayed (bad input, as elsewhere).
FAILED = 2


def register(sub: Any) -> None:
    """Add the ``replay`` command."""
    p = sub.add_parser(
        "replay",
        help="audit recorded games: recorded, computed and best revenue of every run",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "records",
        nargs="+",
        help="recorded games (JSON files, or folders of them; - for standard input)",
    )
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    p.add_argument(
        "--processes", type=integer, help="local processes (default: the CPUs; 1: this process)"
    )
    p.add_argument("--scheduler", help="a Dask scheduler's address: audit on that cluster")
    p.add_argument(
        "--no-optimum",
        action="store_true",
        help="only rate the recorded routes (no search for the best)",
    )
    p.add_argument("--quiet", action="store_true", help="only the summary")
    p.set_defaults(func=cmd_replay)


def _files(items: list[str]) -> list[Path]:
    out: list[Path] = []
    for item in items:
        path = Path(item)
        if path.is_dir():
            found = sorted(path.glob("*.json"))
            if not found:
                raise TilelayError("holds no .json records", source=str(path))
            out.extend(found)
        elif not path.exists():
            raise TilelayError("no such file", source=str(path))
        else:
            out.append(path)
    # a record named twice (a file and its folder, or two spellings) is audited once: the
    # summary counts records and revenue missed
    seen: set[Path] = set()
    unique: list[Path] = []
    for path in out:
        key = path.resolve()
        if key not in seen:
            seen.add(key)
            unique.append(path)
    return unique


def cmd_replay(args: argparse.Namespace) -> int:
    """Run ``tilelay replay``."""
    items: list[str] = args.records
    if items.count("-") > 1:
        raise TilelayError("standard input (-) is read once: name it once")
    files = _files([item for item in items if item != "-"])
    # standard input is audited in this process, in its place among the files
    at = len(_files(items[: items.index("-")])) if "-" in items else -1
    if args.processes is not None and args.processes < 1:
        raise TilelayError("--processes must be at least 1")
    emit = _json_lines if args.json else _text_lines(args.quiet)
    progress, close = _progress(len(files) + (at >= 0), args.json, emit)
    try:
        piped = _piped(not args.no_optimum, progress) if at >= 0 else None
        audits = audit_records(
            files,
            processes=args.processes,
            scheduler=args.scheduler,
            optimum=not args.no_optimum,
            progress=progress,
        )
    finally:
        close()
    if piped is not None:
        audits.insert(at, piped)
    if not args.json:
        _print_summary(audits, searched=not args.no_optimum)
    failed = [audit for audit in audits if audit.error]
    for audit in failed:
        print(f"tilelay: error: {_failure(audit)}", file=sys.stderr)
    return FAILED if failed else 0


def _piped(optimum: bool, progress: Callable[[RecordAudit], None]) -> RecordAudit:
    """The audit of the record on standard input (one that does not read fails, as a file
    does)."""
    name = "standard input"
    try:
        record = record_argument("-")
    except TilelayError as err:
        audit = RecordAudit(name, None, error=str(err))
    else:
        audit = audit_record(record, name=name, optimum=optimum)
    progress(audit)
    return audit


def _progress(
    total: int, quiet: bool, emit: Callable[[RecordAudit], None]
) -> tuple[Callable[[RecordAudit], None], Callable[[], None]]:
    """A callback per finished record (printing it, and a progress bar on a terminal)."""
    if total < 2 or quiet or not sys.stderr.isatty():
        return emit, lambda: None
    from rich.progress import Progress

    bar = Progress(transient=True)
    task = bar.add_task("auditing", total=total)
    bar.start()

    def step(audit: RecordAudit) -> None:
        bar.console.print(_captured(emit, audit), end="", markup=False, highlight=False)
        bar.advance(task)

    return step, bar.stop


def _captured(emit: Callable[[RecordAudit], None], audit: RecordAudit) -> str:
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        emit(audit)
    return buf.getvalue()


def _json_lines(audit: RecordAudit) -> None:
    for obj in audit.as_json():
        print(json.dumps(obj, separators=(",", ":")))


def _money(value: int | None) -> str:
    return "-" if value is None else str(value)


def _run_line(run: AuditedRun) -> str:
    trains = ",".join(run.trains) or "none"
    if run.error:
        return f"  {run.id!s:>5}  {run.corporation:<6} {trains:<14} {run.error}"
    flag = ""
    ran = run.recorded_revenue if run.recorded_revenue is not None else run.computed_revenue
    if ran is not None and run.optimal_revenue is not None and run.optimal_revenue > ran:
        flag = f"  missed {run.optimal_revenue - ran}"
    return (
        f"  {run.id!s:>5}  {run.corporation:<6} {trains:<14} "
        f"{_money(run.recorded_revenue):>9} {_money(run.computed_revenue):>9} "
        f"{_money(run.optimal_revenue):>8} {run.seconds * 1000:>8.1f}{flag}"
    )


def _failure(audit: RecordAudit) -> str:
    """Why a record failed, led by the record's name (once: a record that could not be read
    names itself already)."""
    return about(audit.record, audit.error or "")


def _text_lines(quiet: bool) -> Callable[[RecordAudit], None]:
    def emit(audit: RecordAudit) -> None:
        if quiet:
            return  # (a failure is named on standard error)
        game = f" ({audit.game})" if audit.game else ""
        print(f"{audit.record}{game}: {len(audit.runs)} runs")
        if audit.runs:
            print(
                f"  {'action':>5}  {'corp':<6} {'trains':<14} {'recorded':>9} "
                f"{'computed':>9} {'optimum':>8} {'ms':>8}"
            )
        for run in audit.runs:
            print(_run_line(run))
            for problem in run.problems:
                print(f"         {problem}")
        if audit.error:
            print(f"  error: {audit.error}")

    return emit


def _print_summary(audits: list[RecordAudit], searched: bool = True) -> None:
    summary = summarise(audits)
    search = f"median search {summary.median_seconds * 1000:.2f} ms" if searched else "no search"
    print(
        f"{summary.records} records, {summary.runs} runs, {summary.failures} records failed, "
        f"{summary.run_errors} runs failed, {summary.illegal_routes} recorded routes not legal; "
        f"{search}"
    )
    missed = [(k, v) for k, v in summary.missed.items() if v[1]]
    if missed:
        print("revenue missed per corporation:")
        for (game, corp), (runs, total) in sorted(missed, key=lambda kv: -kv[1][1]):
            print(f"  {game:<16} {corp:<8} {total:>7} over {runs} runs")
