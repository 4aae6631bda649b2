"""Error type of the Carcassonne package."""

from __future__ import annotations

from tilelay.errors import TilelayError


class CarcassonneError(TilelayError, ValueError):
    """Bad Carcassonne input: a malformed tile or tile set, an illegal move, a bad option."""


class IllegalMoveError(CarcassonneError):
    """A move the rules do not allow: a tile where it does not fit, a follower where it may
    not go."""


class TurnOrderError(IllegalMoveError):
    """A step out of the turn's order: a second follower in one turn, a follower after the turn
    is scored, a tile before the last one is scored, or anything after the end is scored."""
