"""The error types of tilelay.

Every error a user can cause by giving bad input is a :class:`TilelayError`. Its message names
where the problem is (file, line, column, part) and what was expected, so the command line can
print it as it is, with no traceback.
"""

from __future__ import annotations

from dataclasses import dataclass


class TilelayError(Exception):
    """Base class of every error tilelay raises on bad input.

    ``source`` is a file name (or ``None``), ``line`` and ``column`` are 1-based positions
    (or ``None`` when unknown). ``str(error)`` gives ``source:line:column: message``.
    """

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.message = message
        self.source = source
        self.line = line
        self.column = column
        super().__init__(self.__str__())

    def where(self) -> str:
        """The position prefix, e.g. ``tiles.xml:12:`` or ``column 7:``; empty when unknown."""
        bits: list[str] = []
        if self.source is not None:
            bits.append(self.source)
        if self.line is not None:
            bits.append(f"line {self.line}" if self.source is None else str(self.line))
        if self.column is not None:
            bits.append(
                f"column {self.column}"
                if self.source is None and self.line is None
                else str(self.column)
            )
        return ":".join(bits)

    def __str__(self) -> str:
        where = self.where()
        return f"{where}: {self.message}" if where else self.message

    def located(self, *, source: str | None = None, line: int | None = None) -> TilelayError:
        """A copy of this error with a file name and/or line filled in where missing."""
        err = type(self).__new__(type(self))
        TilelayError.__init__(
            err,
            self.message,
            source=self.source if self.source is not None else source,
            line=self.line if self.line is not None else line,
            column=self.column,
        )
        return err


class TileSyntaxError(TilelayError, ValueError):
    """A tile string (the 18xx.games tile language) that does not parse."""


class TileModelError(TilelayError, ValueError):
    """A tile that is structurally impossible (e.g. a path to a node that does not exist)."""


class XMLFormatError(TilelayError, ValueError):
    """An XML file (seed 000 tile definitions, tile sets, Rails files) that is malformed."""


class GameDataError(TilelayError, ValueError):
    """A game definition that is malformed or inconsistent."""


class GameSourceError(TilelayError, ValueError):
    """A path given as a game of another engine (a Rails or GE18XX game directory) that holds
    no game; the message names the path."""


class IncompleteGameError(GameSourceError):
    """A game directory that lacks files the game needs; ``missing`` names them."""

    missing: tuple[str, ...] = ()

    def __init__(
        self, message: str, *, missing: tuple[str, ...] = (), source: str | None = None
    ) -> None:
        self.missing = missing
        super().__init__(message, source=source)


class NotFoundError(TilelayError, LookupError):
    """A named thing (tile, game, hex) that does not exist; ``suggestions`` lists close names."""

    def __init__(self, message: str, *, suggestions: list[str] | None = None) -> None:
        self.suggestions = list(suggestions or [])
        full = message
        if self.suggestions:
            full += " (did you mean: " + ", ".join(self.suggestions) + "?)"
        super().__init__(full)


@dataclass(frozen=True, slots=True)
class ReadWarning:
    """Something in the input that was not understood or not used, with where it is.

    Readers keep going past these (an unknown tag, attribute or key; a constant built by code;
    a home on a hex that is not on the map) and list them next to what they read.
    """

    message: str
    source: str | None = None
    line: int | None = None

    def __str__(self) -> str:
        where = ":".join(
            bit for bit in (self.source, None if self.line is None else str(self.line)) if bit
        )
        return f"{where}: {self.message}" if where else self.message


class SourceError(TilelayError, ValueError):
    """A game source (e.g. a checkout of the 18xx.games engine) that cannot be read."""


class RubySyntaxError(SourceError):
    """A Ruby file that does not parse; ``source`` and ``line`` say where."""


class NotDataError(SourceError):
    """A Ruby constant whose value is not literal data (a method call, a block, a condition…).

    ``constant`` is the constant's full name (``Engine::Game::G1822CA::Map::HEXES``), or empty
    for an expression that is no constant's value.
    """

    constant: str = ""

    def __init__(
        self,
        message: str,
        *,
        constant: str = "",
        source: str | None = None,
        line: int | None = None,
    ) -> None:
        self.constant = constant
        super().__init__(message, source=source, line=line)


class NoGameError(SourceError, LookupError):
    """A path that holds no game (no ``g_<name>`` folder of the 18xx.games engine)."""
