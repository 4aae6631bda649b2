"""Carcassonne: the tile model (and seed 004's quadrant form, extended for rivers and gardens),
the base game's tile set and the 3rd-edition box's River and Abbot, legal placements,
followers, incremental regions and scoring, a game engine with players (random, greedy,
Monte-Carlo search, people), saved games, SVG drawing and a web page.

Modules: :mod:`.tile` (model and seed form), :mod:`.tileset` (TOML tile sets: base, gardens,
river), :mod:`.board` (placement, union-find regions, scoring, River and Abbot rules),
:mod:`.game` (engine, moves, undo, players), :mod:`.mcts` (the Monte-Carlo search player),
:mod:`.record` (saved games as JSON), :mod:`.svg` (drawing), :mod:`.web` (web page routes).
"""

from __future__ import annotations
