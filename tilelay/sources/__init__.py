"""Readers of game data kept by other projects.

* :mod:`tilelay.sources.ruby` — literal data in Ruby source, read with a real Ruby parser.
* :mod:`tilelay.sources.engine` — whole games from a checkout of the 18xx.games engine.
"""
