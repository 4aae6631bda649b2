"""Carcassonne: the tile model (and seed 004's quadrant form, extended for rivers and gardens),
the base game's tile set and the 3rd-edition box's River and Abbot, legal placements,
followers, incremental regions and scoring, a game engine with players (random, greedy,
Monte-Carlo search, people), saved games, SVG drawing and a web page.

Modules: :mod:`.tile` (model and seed form), :mod:`.tileset` (TOML tile sets: base, gardens,
river), :mod:`.board` (placement, union-find regions, scoring, River and Abbot rules),
:mod:`.game` (engine, moves, undo, simple players), :mod:`.mcts` (the Monte-Carlo search
player), :mod:`.players` (players by name, games seated with them),
:mod:`.record` (saved games as JSON), :mod:`.svg` (drawing), :mod:`.summary` (what scores
are made of); the web pages are in :mod:`tilelay.web.carcassonne` and
:mod:`tilelay.web.carcassonne_play`.
"""

from __future__ import annotations
