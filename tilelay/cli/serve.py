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
    p.set_defaults(func=_serve)


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from tilelay.web import create_app

    if not 0 <= args.port <= 65535:
        raise TilelayError(f"--port must be 0-65535, got {args.port}")
    print(f"tilelay: serving on http://{args.host}:{args.port}/ (Ctrl-C stops)", flush=True)
    uvicorn.run(create_app(), host=args.host, port=args.port, log_level=args.log_level)
    return 0
