"""SVG drawing of tiles, tile sheets and whole maps, with overlays.

The drawing is built as text (f-strings with escaped text and numbers written with at most two
decimals), so it is fast and byte-stable. Every tile is drawn in *tile units*: the hex has a
circumradius of 100 units and is centred on the origin (screen coordinates, y down; geometry
from :mod:`tilelay.hexgeo`). ``size`` is the hex's **circumradius in pixels**: a flat tile of
``size=100`` is 200 px wide and 173 px high, a pointy one 173 px wide and 200 px high. The tile
fragment is scaled by ``size / 100``, so the same tile always gives the same fragment.

>>> from tilelay.catalogue import get_tile
>>> tile_svg(get_tile("57"), size=50).startswith('<svg xmlns="http://www.w3.org/2000/svg"')
True

The modules: :mod:`~tilelay.svg.text` (numbers, text, colours), :mod:`~tilelay.svg.geometry`
(paths and nodes in tile units), :mod:`~tilelay.svg.placement` (where labels go),
:mod:`~tilelay.svg.tiles` (:func:`tile_svg`, :func:`tiles_svg`), :mod:`~tilelay.svg.maps`
(:func:`map_svg`) and :mod:`~tilelay.svg.overlays` (routes, highlights), which
:func:`map_svg` takes as arguments.

Drawn elements carry classes and data attributes for tests and browsers:

* ``<g class="tile" data-tile="57" data-rotation="1" data-color="yellow">`` – one tile;
* ``<path class="track" data-a="0" data-b="_0" data-track="broad">`` – one path (the visible
  stroke; ``class="gap"`` under it is the tile-coloured gap of a crossing or ``over`` path,
  ``class="track-base"`` the white base of narrow track or ferries, ``class="ties"`` tunnel
  ties); terminal track is ``<polygon class="track terminal">``;
* ``<g class="city" data-node="0" data-slots="2">`` with one ``<circle class="slot">`` per slot,
  ``<g class="town" data-style="rect">``, ``<g class="revenue" data-values="20">``,
  ``<text class="label">``, ``<g class="upgrade" data-cost="80">``, ``<line class="border">``,
  ``<g class="icon">``, ``<text class="location-name">``, ``<text class="tile-number">``;
* on maps ``<g class="hex" data-coord="K8">`` and ``<text class="coord">``, and the overlays
  of :mod:`tilelay.svg.overlays`.

Paths are drawn in the order listed, nodes on top of them, then revenues, labels and the other
marks, which are placed in the regions (:func:`tilelay.hexgeo.region_polygons`) that no track
passes through.
"""

from tilelay.svg import geometry, placement, text, tiles
from tilelay.svg.geometry import UNIT
from tilelay.svg.maps import map_svg
from tilelay.svg.overlays import ROUTE_COLORS, route_polyline
from tilelay.svg.text import COLORS, FONT
from tilelay.svg.tiles import tile_svg, tiles_svg

__all__ = [
    "COLORS",
    "FONT",
    "ROUTE_COLORS",
    "UNIT",
    "clear_caches",
    "map_svg",
    "route_polyline",
    "tile_svg",
    "tiles_svg",
]


def clear_caches() -> None:
    """Empty every cache of the drawing modules (for cold-start measurements)."""
    for module in (tiles, placement, geometry, text):
        module.clear_caches()
