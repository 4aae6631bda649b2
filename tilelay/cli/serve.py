"""``tilelay serve``: run the web app (tiles, maps, routes, Carcassonne) with uvicorn.

The server runs ``--workers`` processes (by default one per core this process may use), each
answering requests with its own event loop and computing off it (:mod:`tilelay.web.compute`),
so throughput grows with the cores and one long request does not hold the others. The address
is tried before anything is printed: a port in use is one line and exit status 2.
"""

from __future__ import annotations

import argparse
import os
import socket
from typing import Any

from tilelay.cli import integer
from tilelay.errors import TilelayError

#: The most worker processes ``--workers`` may ask for.
MAX_WORKERS = 64


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
    p.set_defaults(func=_serve)


def check_address(host: str, port: int) -> None:
    """Raise :class:`~tilelay.errors.TilelayError` when nothing could listen on ``host:port``
    now (the port is in use, the address is not this machine's, the name does not resolve)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as err:
        raise TilelayError(f"cannot listen on {host}:{port}: unknown address ({err})") from None
    family, kind, proto, _, address = infos[0]
    try:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as err:
        reason = err.strerror or str(err)
        if err.errno == 98:  # EADDRINUSE
            reason = "the port is in use (is another server running?)"
        raise TilelayError(f"cannot listen on {host}:{port}: {reason}") from None


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    if not 0 <= args.port <= 65535:
        raise TilelayError(f"--port must be 0-65535, got {args.port}")
    workers = default_workers() if args.workers is None else args.workers
    if not 1 <= workers <= MAX_WORKERS:
        raise TilelayError(f"--workers must be 1-{MAX_WORKERS}, got {workers}")
    check_address(args.host, args.port)
    print(
        f"tilelay: serving on http://{args.host}:{args.port}/ with {workers} worker"
        f"{'s' if workers != 1 else ''} (Ctrl-C stops)",
        flush=True,
    )
    uvicorn.run(
        "tilelay.web:create_app",
        factory=True,
        host=args.host,
        port=args.port,
        workers=workers,
        log_level=args.log_level,
    )
    return 0
