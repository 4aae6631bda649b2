"""Error type of the Carcassonne package."""

from __future__ import annotations

from tilelay.errors import TilelayError


class CarcassonneError(TilelayError, ValueError):
    """Bad Carcassonne input: a malformed tile or tile set, an illegal move, a bad option."""
