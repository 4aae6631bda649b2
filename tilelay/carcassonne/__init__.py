"""Carcassonne: the tile model (and seed 004's quadrant form), the base game's tile set,
legal placements, followers, incremental regions and scoring, a game engine with players, SVG
drawing and a web page.

Modules: :mod:`.tile` (model and seed form), :mod:`.tileset` (TOML tile sets and the base set),
:mod:`.board` (placement, union-find regions, scoring), :mod:`.game` (engine and players),
:mod:`.svg` (drawing), :mod:`.web` (web page routes).
"""

from __future__ import annotations
