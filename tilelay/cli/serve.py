"""``tilelay serve``: run the web app (tiles, maps, Carcassonne) with uvicorn."""

from __future__ import annotations

import argparse
from typing import Any

from tilelay.errors import TilelayError


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add the ``serve`` command."""
    p = sub.add_parser("serve", help="run the web app on the built-in games")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
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


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from tilelay.web import create_app

    if not 0 <= args.port <= 65535:
        raise TilelayError(f"--port must be 0-65535, got {args.port}")
    print(f"tilelay: serving on http://{args.host}:{args.port}/ (Ctrl-C stops)", flush=True)
    from tilelay.store import default_path

    db = args.db if args.db else default_path()
    print(f"tilelay: saved boards in {db}", flush=True)
    uvicorn.run(create_app(db=db), host=args.host, port=args.port, log_level=args.log_level)
    return 0
