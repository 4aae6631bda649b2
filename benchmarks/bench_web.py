"""Web app throughput: pages per second through Starlette's TestClient (in process, no network).

Peer: drawing the same SVG with :mod:`tilelay.svg` directly (no routing, templates or HTTP),
measured in the same run — the ratio shows what the web stack adds to each page. A tiny
Starlette page that returns a fixed string is measured too, as the floor of one request.

Run: ``.venv/bin/python benchmarks/bench_web.py``
"""

from __future__ import annotations

import warnings

from _table import best_of, print_table

from tilelay import catalogue, svg
from tilelay.games import load_game
from tilelay.hexgeo import Layout
from tilelay.web import create_app
from tilelay.web.tile_pages import LARGE_SIZE, SMALL_SIZE

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def main() -> None:
    from starlette.applications import Starlette
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route

    async def hello(request: object) -> PlainTextResponse:
        return PlainTextResponse("hello")

    tiles = catalogue.tiles()
    game = load_game("1889")
    with TestClient(create_app()) as c, TestClient(Starlette(routes=[Route("/", hello)])) as h:
        for url in ("/tiles/all", "/map/1889", "/tiles/57"):
            assert c.get(url).status_code == 200  # warm caches
        rows = [
            (
                "peer: svg.tile_svg for all 476 tiles",
                best_of(
                    lambda: [
                        svg.tile_svg(t, layout=Layout.FLAT, size=SMALL_SIZE, standalone=True)
                        for t in tiles
                    ]
                ),
                "no web stack",
            ),
            ("GET /tiles/all", best_of(lambda: c.get("/tiles/all")), f"{len(tiles)} tiles"),
            (
                "peer: svg.map_svg(1889)",
                best_of(lambda: svg.map_svg(game, size=40), repeat=10),
                "no web stack",
            ),
            ("GET /map/1889", best_of(lambda: c.get("/map/1889"), repeat=10), "52 hexes"),
            (
                "peer: svg.tile_svg(57) large",
                best_of(
                    lambda: svg.tile_svg(
                        catalogue.get_tile("57"), layout=Layout.FLAT, size=LARGE_SIZE
                    ),
                    repeat=50,
                ),
                "no web stack",
            ),
            ("GET /tiles/57", best_of(lambda: c.get("/tiles/57"), repeat=50), "one tile"),
            ("GET / on a bare Starlette app", best_of(lambda: h.get("/"), repeat=50), "floor"),
        ]
    print_table("Web pages (best of runs; lower is better)", rows)
    print()
    for page, peer in ((1, 0), (3, 2), (5, 4)):
        name, t, _ = rows[page]
        print(
            f"{name:<20} {1 / t:8.1f} pages/s; the drawing alone is "
            f"{rows[peer][1] / t * 100:5.1f}% of the page time"
        )


if __name__ == "__main__":
    main()
