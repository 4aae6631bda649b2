"""GE18XX's ``18xx-Games.xml``: the games the engine knows, with their phases and trains.

Each ``<GameInfo name …>`` (18XX Game Engine, repository Krazick/Krazick.github.io) gives a
game's title facts (``subtitle``, ``location``, ``designers``, ``producers``, ``minPlayers`` /
``maxPlayers``), its station token costs (``firstTokenCost`` and ``laterTokenCost`` with
``tokenType="FixedCost"``, the default; ``RangeCost`` games pay by distance), and its
``<Phases>`` and ``<Trains>``:

* ``<Phase name subName rounds tiles trainLimit|majorTrainLimit>``: phase ``name.subName``
  (``2.1``), the operating rounds, the tile colours and the train limit;
* ``<Train name revenueCenters [townRevenueCenters] quantity price [triggerPhase] [rust]
  [discountPrice tradeInTrain]>``: the stops it counts (``unlimited`` allowed), how many
  there are (99: unlimited), the phase its first purchase starts, the trains it rusts.

Trains inside ``<Variants>`` are not read (only the game's own ``<Trains>``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from tilelay.errors import ReadWarning, XMLFormatError
from tilelay.limits import MAX_AMOUNT, shown, whole
from tilelay.xml.safe import element_line, parse_xml

__all__ = ["GeGameInfo", "GePhase", "GeTrain", "read_ge_games"]


@dataclass(frozen=True, slots=True)
class GePhase:
    """A phase: ``name`` is ``name.subName`` (``2.1``), ``major`` the ``name`` alone."""

    name: str
    major: str
    tiles: tuple[str, ...]
    rounds: int
    train_limit: int | None = None


@dataclass(frozen=True, slots=True)
class GeTrain:
    """A train: stops counted (``None``: unlimited), town stops (``None``: none; -1:
    unlimited), quantity (-1: unlimited; ``None``: not given), price, the phase it starts,
    the trains it rusts, and the trade-in price and trains."""

    name: str
    stops: int | None
    towns: int | None
    quantity: int | None
    price: int
    trigger: str | None = None
    rusts: tuple[str, ...] = ()
    discount_price: int | None = None
    trade_in: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class GeGameInfo:
    """One ``<GameInfo>`` of ``18xx-Games.xml``."""

    name: str
    subtitle: str | None = None
    location: str | None = None
    designers: str | None = None
    publisher: str | None = None
    players: tuple[int, int] | None = None
    token_type: str = "FixedCost"
    first_token_cost: int | None = None
    later_token_cost: int | None = None
    phases: tuple[GePhase, ...] = ()
    trains: tuple[GeTrain, ...] = ()
    source: str | None = None
    line: int | None = None
    warnings: tuple[ReadWarning, ...] = ()


def _int(el: etree._Element, attr: str, source: str | None) -> int | None:
    text = el.get(attr)
    if text is None or not text.strip():
        return None
    value = whole(text, -MAX_AMOUNT, MAX_AMOUNT)
    if value is None:
        raise XMLFormatError(
            f"<{el.tag}> {attr}={shown(text)} is not a whole number from {-MAX_AMOUNT:,} to "
            f"{MAX_AMOUNT:,}",
            source=source,
            line=element_line(el),
        )
    return value


def _names(text: str | None) -> tuple[str, ...]:
    return tuple(t.strip() for t in (text or "").split(",") if t.strip())


def read_ge_games(data: bytes | str | Path, *, source: str | None = None) -> dict[str, GeGameInfo]:
    """Every ``<GameInfo>`` of an ``18xx-Games.xml`` (path, bytes or text), by game name.

    Raises :class:`~tilelay.errors.XMLFormatError` (file and line) for numbers that do not
    read and for a phase or train without a name.
    """
    if isinstance(data, Path):
        source = source or str(data)
    root = parse_xml(data, source=source)
    out: dict[str, GeGameInfo] = {}
    for info in root.iter("GameInfo"):
        name = (info.get("name") or "").strip()
        if name and name not in out:
            out[name] = _game(info, name, source)
    return out


def _game(info: etree._Element, name: str, source: str | None) -> GeGameInfo:
    warnings: list[ReadWarning] = []
    low, high = _int(info, "minPlayers", source), _int(info, "maxPlayers", source)
    phases: list[GePhase] = []
    trains: list[GeTrain] = []
    for group in info:
        if not isinstance(group.tag, str):
            continue
        if group.tag == "Phases":
            for el in group:
                if isinstance(el.tag, str) and el.tag == "Phase":
                    phases.append(_phase(el, source))
        elif group.tag == "Trains":
            for el in group:
                if isinstance(el.tag, str) and el.tag == "Train":
                    trains.append(_train(el, source))
    subtitle = info.get("subtitle") or info.get("Subtitle")
    return GeGameInfo(
        name=name,
        subtitle=(subtitle or "").strip() or None,
        location=(info.get("location") or "").strip() or None,
        designers=(info.get("designers") or "").strip() or None,
        publisher=(info.get("producers") or "").strip() or None,
        players=(low, high) if low is not None and high is not None else None,
        token_type=(info.get("tokenType") or "FixedCost").strip(),
        first_token_cost=_int(info, "firstTokenCost", source),
        later_token_cost=_int(info, "laterTokenCost", source),
        phases=tuple(phases),
        trains=tuple(trains),
        source=source,
        line=element_line(info),
        warnings=tuple(warnings),
    )


def _phase(el: etree._Element, source: str | None) -> GePhase:
    major = (el.get("name") or "").strip()
    if not major:
        raise XMLFormatError("<Phase> has no name", source=source, line=element_line(el))
    sub = (el.get("subName") or "").strip()
    limit = _int(el, "trainLimit", source)
    if limit is None:
        limit = _int(el, "majorTrainLimit", source)
    return GePhase(
        name=f"{major}.{sub}" if sub else major,
        major=major,
        tiles=tuple(t.lower().replace("grey", "gray") for t in _names(el.get("tiles"))),
        rounds=_int(el, "rounds", source) or 1,
        train_limit=limit,
    )


def _stops(el: etree._Element, attr: str, source: str | None) -> int | None:
    text = (el.get(attr) or "").strip()
    if text.lower() == "unlimited":
        return -1
    return _int(el, attr, source)


def _train(el: etree._Element, source: str | None) -> GeTrain:
    name = (el.get("name") or "").strip()
    if not name:
        raise XMLFormatError("<Train> has no name", source=source, line=element_line(el))
    stops = _stops(el, "revenueCenters", source)
    towns = _stops(el, "townRevenueCenters", source)
    if towns is None:
        towns = _stops(el, "TownRevenueCenters", source)
    quantity = _int(el, "quantity", source)
    return GeTrain(
        name=name,
        stops=None if stops == -1 else stops,
        towns=towns,
        quantity=-1 if quantity == 99 else quantity,
        price=_int(el, "price", source) or 0,
        trigger=(el.get("triggerPhase") or "").strip() or None,
        rusts=_names(el.get("rust")),
        discount_price=_int(el, "discountPrice", source),
        trade_in=_names(el.get("tradeInTrain")),
    )
