"""``tilelay serve``: run the web app (tiles, maps, routes, Carcassonne) with uvicorn.

The server runs ``--workers`` processes (by default one per core this process may use), each
answering requests with its own event loop and computing off it (:mod:`tilelay.web.compute`),
so throughput grows with the cores and one long request does not hold the others. Each worker
listens on its own socket of the same port, so that the kernel spreads connections evenly.
The address is tried before anything is printed: a port in use is one line and exit status 2.
"""

from __future__ import annotations

import argparse
import ctypes
import errno
import multiprocessing
import os
import signal
import socket
import time
from pathlib import Path
from typing import Any

from tilelay.cli import integer
from tilelay.errors import TilelayError

#: The most worker processes ``--workers`` may ask for.
MAX_WORKERS = 64
_PR_SET_PDEATHSIG = 1


def default_workers() -> int:
    """One worker per core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add the ``serve`` command."""
    p = sub.add_parser("serve", help="run the web app on the built-in games")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=integer, default=8000, help="port to listen on (default 8000)")
    p.add_argument(
        "--workers",
        type=integer,
        default=None,
        metavar="N",
        help=f"worker processes (default: one per core, here {default_workers()})",
    )
    p.add_argument(
        "--log-level",
        default="info",
        choices=["critical", "error", "warning", "info", "debug"],
        help="uvicorn's log level (default info)",
    )
    p.add_argument(
        "--db",
        metavar="PATH",
        help="the database of saved boards (default: the variable TILELAY_DB, else "
        "tilelay.sqlite3 in the user's data directory)",
    )
    p.set_defaults(func=_serve)


def listen(host: str, port: int, count: int = 1) -> list[socket.socket]:
    """``count`` sockets bound to ``host:port``, one for each worker; a
    :class:`~tilelay.errors.TilelayError` when nothing can listen there (the port is in use,
    the address is not this machine's, the name does not resolve).

    Several sockets share the port (``SO_REUSEPORT``), so the kernel spreads new connections
    evenly over the workers: on one shared socket one worker's event loop accepted every
    connection that was waiting, and keep-alive clients then all talked to that worker. The
    port is first tried without ``SO_REUSEPORT``, so another server on it is reported, not
    joined. Each socket names its protocol (TCP), so that asyncio turns Nagle's algorithm off
    on every connection (uvicorn's own socket has protocol 0, and each answer then waited
    40 ms for the client's delayed acknowledgement).
    """
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as err:
        raise TilelayError(f"cannot listen on {host}:{port}: unknown address ({err})") from None
    family, kind, proto, _, address = infos[0]
    out: list[socket.socket] = []
    try:
        for i in range(count + 1 if count > 1 else 1):
            sock = socket.socket(family, kind, proto or socket.IPPROTO_TCP)
            out.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if count > 1 and i > 0:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            sock.bind(address)
            if count > 1 and i == 0:  # the probe: free, and the port chosen when it was 0
                address = (address[0], sock.getsockname()[1], *address[2:])
                out.pop().close()
    except OSError as err:
        for sock in out:
            sock.close()
        reason = err.strerror or str(err)
        if err.errno == errno.EADDRINUSE:
            reason = "the port is in use (is another server running?)"
        raise TilelayError(f"cannot listen on {host}:{port}: {reason}") from None
    for sock in out:
        sock.set_inheritable(True)
    return out


def _worker(config: Any, sock: socket.socket, parent: int) -> None:  # pragma: no cover
    import uvicorn

    from tilelay.sources.games import add_paths, paths_from_environment

    _end_with(parent)
    # a new process: the games of other engines the server knows (its --games and
    # TILELAY_GAMES, which the server passes on in TILELAY_GAMES) are made known again
    paths = paths_from_environment()
    if paths:
        add_paths(paths)
    config.configure_logging()
    uvicorn.Server(config).run(sockets=[sock])


def _end_with(parent: int) -> None:  # pragma: no cover - a child process
    """Have this worker told to end (SIGTERM) when the server process ``parent`` ends, even
    by SIGKILL, which leaves it no time to stop its workers (Linux's PR_SET_PDEATHSIG)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):  # not Linux: the server stops its workers itself
        pass
    if os.getppid() != parent:  # the server ended before this worker asked
        os._exit(0)


def _supervise(config: Any, sockets: list[socket.socket]) -> None:  # pragma: no cover
    """Run one worker process per socket until Ctrl-C or SIGTERM; a worker that dies is
    started again."""
    context = multiprocessing.get_context("spawn")

    def start(sock: socket.socket) -> multiprocessing.process.BaseProcess:
        process = context.Process(
            target=_worker, args=(config, sock, os.getpid()), name="tilelay worker"
        )
        process.start()
        return process

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    processes = [start(sock) for sock in sockets]
    try:
        while True:
            time.sleep(0.5)
            for i, process in enumerate(processes):
                if not process.is_alive():
                    print(f"tilelay: worker {process.pid} ended; starting another", flush=True)
                    processes[i] = start(sockets[i])
    except KeyboardInterrupt:
        pass
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(timeout=30)


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    if not 0 <= args.port <= 65535:
        raise TilelayError(f"--port must be 0-65535, got {args.port}")
    workers = default_workers() if args.workers is None else args.workers
    if not 1 <= workers <= MAX_WORKERS:
        raise TilelayError(f"--workers must be 1-{MAX_WORKERS}, got {workers}")
    from tilelay.store import ENVIRONMENT_VARIABLE, Store, default_path

    db = Path(args.db) if args.db else default_path()
    if args.db and not db.parent.is_dir():
        # (the default's folder is made; a folder named here is not: a typo would hide the
        # boards in a new one, as every other output path refuses it)
        raise TilelayError(f"--db: the folder '{db.parent}' does not exist")
    Store(db).close()  # a database that cannot be used is said now, not at every request
    os.environ[ENVIRONMENT_VARIABLE] = str(db)  # every worker's create_app() opens this one
    sockets = listen(args.host, args.port, workers)
    port = sockets[0].getsockname()[1]
    print(
        f"tilelay: serving on http://{args.host}:{port}/ with {workers} worker"
        f"{'s' if workers != 1 else ''} (Ctrl-C stops)",
        flush=True,
    )
    print(f"tilelay: saved boards in {db}", flush=True)
    config = uvicorn.Config(
        "tilelay.web:create_app", factory=True, host=args.host, port=port, log_level=args.log_level
    )
    try:
        if workers == 1:
            uvicorn.Server(config).run(sockets=sockets)
        else:
            _supervise(config, sockets)
    except KeyboardInterrupt:  # pragma: no cover - Ctrl-C
        pass
    finally:
        for sock in sockets:
            sock.close()
    return 0
