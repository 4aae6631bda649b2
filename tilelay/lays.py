"""The legal lays at every tile lay of a recorded game: what the board offered on that hex.

:func:`record_lays` replays an 18xx.games record (:mod:`tilelay.replay`) on the game with the
record's options and, just before every ``lay_tile`` still in force, asks the board
(:meth:`tilelay.board.Board.legal_lays`, connectivity aside) which tiles may be laid on that
hex in which rotations, in the phase then, with what the game's rules say the corporation
may lay there too by the companies it holds (18USA's resource tiles and P11's colour) or may
not (1849's gauges): :func:`tilelay.rules.corporation_lays`. Each answer is a
:class:`RecordedLay`, which also says whether the recorded lay is among them, and, where it
is not, the private company whose ``tile_lay`` ability may have allowed it (the entity
laying, or one its corporation holds, whose ability names that hex and tile): a company's
own lays (18USA's company towns, 1817's PSM) are not judged::

    lays = list(record_lays(load_record("1889_314.json")))
    lays[0].coord, lays[0].legal["8"], lays[0].recorded_is_legal  # ('J3', (0, 1, 3, 5), True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from tilelay.board import Board
from tilelay.errors import TilelayError
from tilelay.games import Game
from tilelay.replay import RecordError, record_game, replay_steps, split_tile_id
from tilelay.rules import RunFacts, corporation_lays

__all__ = ["RecordedLay", "record_lays"]


@dataclass(frozen=True, slots=True)
class RecordedLay:
    """One ``lay_tile`` of a record: its action ``id``, the ``entity`` that laid it, the hex,
    the tile and rotation laid, the phase then, and ``legal``: every tile that the board
    allowed on that hex just before, with its rotations."""

    id: int | None
    entity: str
    coord: str
    tile: str
    rotation: int
    phase: str
    legal: Mapping[str, tuple[int, ...]]
    #: the company whose ``tile_lay`` ability may have allowed the lay where the board does
    #: not (the entity laying, or a company its corporation holds; None: no such ability)
    ability: str | None = None

    @property
    def recorded_is_legal(self) -> bool:
        """Whether the recorded tile and rotation are among the legal ones."""
        return self.rotation in self.legal.get(self.tile, ())

    def to_json(self) -> dict[str, Any]:
        """The lay as JSON data (``legal`` as ``{tile: [rotations]}``)."""
        return {
            "id": self.id,
            "entity": self.entity,
            "hex": self.coord,
            "tile": self.tile,
            "rotation": self.rotation,
            "phase": self.phase,
            "legal": {name: list(rotations) for name, rotations in self.legal.items()},
            "recorded_is_legal": self.recorded_is_legal,
            "ability": self.ability,
        }


def record_lays(
    record: Mapping[str, Any],
    game: Game | None = None,
    *,
    on_error: Callable[[RecordError], None] | None = None,
) -> Iterator[RecordedLay]:
    """Every ``lay_tile`` still in force in ``record`` with the legal lays on its hex just
    before it (see :class:`RecordedLay`). ``game`` defaults to :func:`record_game`. Raises
    :class:`~tilelay.replay.RecordError` (naming the action) where the replay fails, after
    the lays before it; with ``on_error``, such actions are given to it and skipped
    (:func:`~tilelay.replay.replay_steps`)."""
    if game is None:
        game = record_game(record)
    board = Board(game)
    phase = game.phases[0] if game.phases else None
    facts = RunFacts()
    for step in replay_steps(record, game, on_error=on_error):
        action = step.action
        if action.get("type") == "lay_tile":
            coord = str(action.get("hex"))
            try:
                name, _ = split_tile_id(str(action.get("tile")))
                # (with what the corporation's companies let it lay: 18USA's resource tiles;
                # and the game's own test of the corporation's lay, which the engine asks
                # whether or not it checks connectivity: 1849's gauges)
                legal = corporation_lays(
                    board,
                    str(action.get("entity", "")),
                    coord,
                    board.legal_lays(coord, phase=phase),
                    phase=phase,
                    facts=facts,
                )
            except (TilelayError, ValueError) as err:
                error = RecordError(f"action {action.get('id')!r}: {err}")
                if on_error is None:
                    raise error from None
                on_error(error)
                board, phase, facts = step.board, step.phase, step.facts
                continue
            rotation = action.get("rotation", 0)
            entity = str(action.get("entity", ""))
            lay = RecordedLay(
                step.action_id,
                entity,
                board.game.hex_tile(coord).name,
                name,
                rotation if isinstance(rotation, int) else 0,
                phase.name if phase is not None else "",
                legal,
            )
            if not lay.recorded_is_legal:
                lay = replace(lay, ability=_ability(board, facts, entity, lay.coord, name))
            yield lay
        board, phase, facts = step.board, step.phase, step.facts


def _ability(board: Board, facts: RunFacts, entity: str, coord: str, tile: str) -> str | None:
    """The company whose ``tile_lay`` ability may lay ``tile`` on ``coord`` for ``entity``:
    the entity itself where it is a company, else one it holds (``facts``: who owns which
    company); an ability names the hexes it lays on (none: any) and its tiles by name, or
    by a label they carry (18USA's resource tiles: their ore, coal and oil), or none
    (any)."""
    game = board.game
    held = {entity, *facts.owned_by(entity)}
    companies = [c for c in game.companies if c.sym in held]
    try:
        laid = game.tile(tile)
    except TilelayError:
        return None
    labels = {label.text for label in laid.labels}
    for company in companies:
        for ability in company.abilities_of("tile_lay"):
            hexes = ability.get("hexes") or []
            tiles = ability.get("tiles") or []
            if hexes and coord not in hexes:
                continue
            if tiles and tile not in tiles and not labels & {str(t) for t in tiles}:
                continue
            return company.sym
    return None
