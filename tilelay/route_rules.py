"""Route rules: which stops a train may visit, which of them it scores, and how much.

This module states, apart from any game and any search, what a train is on the board: a
:class:`TrainSpec`, made from a :class:`~tilelay.trains.TrainType` by :func:`train_spec`. It
covers everything seed 003 (``<Reach>``, ``<Score>``, n+m stops) and the 18xx.games engine's
``distance`` (a number, or ``{nodes, pay, visit, multiplier}`` rows) can say:

* **stop classes** — a route's stops are cities, towns and offboards (:data:`CITY`,
  :data:`TOWN`, :data:`OFFBOARD`). A spec has **rows** (:class:`Row`), each naming the classes
  it takes, how many stops of them the train may *visit* and how many it *pays* for. A plain
  n-train is one row of all three classes (n, n); an n+m train a row of towns (m, m) and a
  row of all three (n, n) (towns use the town row first); a train whose towns do not count
  has a row of cities and offboards and an unlimited row of towns; a diesel's rows are
  unlimited (:data:`UNLIMITED`);
* **visiting** — a route fits when its stops can be given to rows without exceeding any
  row's ``visit`` (:meth:`TrainSpec.fits`: Hall's condition over the classes, which is what
  the engine's row-by-row filling gives for every train it defines);
* **scoring** — the train scores the best set of the visited stops that can be given to rows
  within their ``pay`` and that holds a stop with the corporation's token
  (:meth:`TrainSpec.paid`). When every row pays for every stop it may visit, that is every
  stop; an **express** train (``pay`` < ``visit``) scores only its best ones. Each scored stop
  earns its revenue in the phase times the multiplier of its class (the first row naming the
  class, else the train's ``multiplier``; Rails' ``<Score cities="double">`` is multiplier 2
  for cities and offboards, ``towns="no"`` multiplier 0 for towns);
* **reach in hexes** — an H-train (``<Reach base="hexes">``) has no stop limit; the route may
  cross at most :attr:`TrainSpec.hexes` hex sides (the hexes it passes after the first);
* **trains that do not run** (``majorStops`` -1, ``distance`` 0) get no route.

A train the router cannot rate exactly is refused with :class:`UnsupportedTrain`: a goods
train (``category="goods"``) of a game whose rules do not say what goods trains score, a
``halt`` stop class of a game whose rules do not say what halts are (to the rows, halts are
towns: a game that has them says how they score and where routes may end), a train bound to
one gauge (1858's narrow-gauge trains) and a train that runs without a token.

>>> from tilelay.trains import TrainType
>>> spec = train_spec(TrainType("2+2", 0, 2, 2))
>>> spec.fits((2, 2, 0)), spec.fits((3, 1, 0)), spec.fits((1, 3, 0))
(True, False, True)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from tilelay.errors import TilelayError
from tilelay.trains import UNLIMITED_STOPS, CityScore, ReachBase, TownCounting, TrainType

__all__ = [
    "CITY",
    "CLASS_NAMES",
    "OFFBOARD",
    "TOWN",
    "UNLIMITED",
    "Row",
    "TrainSpec",
    "UnsupportedTrain",
    "WalkRules",
    "train_spec",
]

#: Stop classes.
CITY, TOWN, OFFBOARD = 0, 1, 2
#: The 18xx.games node type of each stop class.
CLASS_NAMES = ("city", "town", "offboard")
_CLASS_OF = {"city": CITY, "town": TOWN, "offboard": OFFBOARD}
#: A count that stands for "as many as the route has".
UNLIMITED = 1 << 20


class UnsupportedTrain(TilelayError, ValueError):
    """A train the router cannot rate exactly (it is refused, never rated as another)."""


@dataclass(frozen=True, slots=True)
class Row:
    """One stop allowance: a bit mask of stop classes (``1 << CITY`` …), the stops of them the
    train may visit and the stops it pays for (:data:`UNLIMITED` for no limit), and the
    multiplier of the row (``None``: the train's)."""

    classes: int
    pay: int
    visit: int
    multiplier: int | None = None


def _count(value: int) -> int:
    return UNLIMITED if value >= UNLIMITED_STOPS else max(value, 0)


def _within(caps: tuple[int, ...], c: int, t: int, o: int) -> bool:
    """Whether ``c`` cities, ``t`` towns and ``o`` offboards fit capacities given per set of
    classes (Hall's condition: every set's stops within what the rows taking any of its
    classes allow; ``caps[mask - 1]`` for the set's bit mask)."""
    return (
        c <= caps[0]
        and t <= caps[1]
        and c + t <= caps[2]
        and o <= caps[3]
        and c + o <= caps[4]
        and t + o <= caps[5]
        and c + t + o <= caps[6]
    )


@dataclass(frozen=True, slots=True)
class TrainSpec:
    """A train as the router rates it (see the module docstring). ``name`` is the train's
    name; ``min_stops`` the stops a route needs (2); ``category`` ``passenger`` or ``goods``;
    ``diesel`` whether stops pay their diesel revenue (a train named D, as 18xx.games does);
    ``scores_visits`` whether every stop it visits scores whatever their number (a train
    whose reach is a number: stops that use none of its reach score too), else the rows'
    ``pay`` limit the stops scored. ``pool`` is the track the train's routes keep apart
    from: the routes of a corporation's trains of one pool never share track, those of
    trains of different pools may (18 Los Angeles' N and N/M trains; 0 for every train of
    most games)."""

    name: str
    rows: tuple[Row, ...]
    multipliers: tuple[int, int, int]
    hexes: int | None = None
    runs: bool = True
    min_stops: int = 2
    category: str = "passenger"
    diesel: bool = False
    scores_visits: bool = True
    pool: int = 0
    _subsets: tuple[tuple[int, int, int], ...] = field(
        default=(), init=False, repr=False, compare=False
    )
    _hash: int = field(default=0, init=False, repr=False, compare=False)
    _visits: tuple[int, ...] = field(default=(), init=False, repr=False, compare=False)
    _pays: tuple[int, ...] = field(default=(), init=False, repr=False, compare=False)
    _express: bool = field(default=False, init=False, repr=False, compare=False)
    #: the stops of each class the rows pay for, where each row takes one class and no class
    #: is in two rows (then the classes' limits are apart); None otherwise
    _class_pays: tuple[int, int, int] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    def __hash__(self) -> int:
        return self._hash

    def __post_init__(self) -> None:
        object.__setattr__(
            self,
            "_hash",
            hash(
                (
                    self.name,
                    self.rows,
                    self.multipliers,
                    self.hexes,
                    self.runs,
                    self.min_stops,
                    self.category,
                    self.diesel,
                    self.scores_visits,
                    self.pool,
                )
            ),
        )
        # Hall's condition: for each set S of classes, (mask of S, visit and pay capacity of
        # the rows taking any class of S)
        out: list[tuple[int, int, int]] = []
        for mask in range(1, 8):
            rows = [r for r in self.rows if r.classes & mask]
            visit = min(UNLIMITED, sum(r.visit for r in rows))
            pay = min(UNLIMITED, sum(r.pay for r in rows))
            out.append((mask, visit, pay))
        object.__setattr__(self, "_subsets", tuple(out))
        # the same capacities by class mask - 1 (cities 1, towns 2, offboards 4), for fits
        object.__setattr__(self, "_visits", tuple(visit for _, visit, _ in out))
        object.__setattr__(self, "_pays", tuple(pay for _, _, pay in out))
        object.__setattr__(self, "_express", any(r.pay < r.visit for r in self.rows))
        single = [r.classes for r in self.rows]
        if all(c in (1 << CITY, 1 << TOWN, 1 << OFFBOARD) for c in single) and len(
            set(single)
        ) == len(single):
            by_class = [0, 0, 0]
            for r in self.rows:
                by_class[r.classes.bit_length() - 1] = min(UNLIMITED, r.pay)
            object.__setattr__(self, "_class_pays", tuple(by_class))

    @property
    def express(self) -> bool:
        """Whether some visited stops may go unpaid (a row pays for fewer than it visits)."""
        return self._express

    @property
    def unlimited(self) -> bool:
        """Whether the train may visit any number of stops (a diesel, an H-train)."""
        return all(r.visit >= UNLIMITED for r in self.rows)

    def capacity(self, classes: int) -> int:
        """The most stops (counted by their visit cost) of the classes in the bit mask
        ``classes`` (``1 << CITY`` …) the train may visit together."""
        return self._subsets[classes - 1][1] if self.runs and classes else 0

    def pay_capacity(self, classes: int) -> int:
        """The most stops of the classes in the bit mask ``classes`` the train may score
        together."""
        return self._subsets[classes - 1][2] if self.runs and classes else 0

    def max_stops(self, cls: int) -> int:
        """The most stops of class ``cls`` the train may visit."""
        return min(UNLIMITED, sum(r.visit for r in self.rows if r.classes >> cls & 1))

    def fits(self, counts: Sequence[int]) -> bool:
        """Whether a route visiting ``counts[c]`` stops of each class ``c`` fits the train's
        rows (its stop count only: see :attr:`hexes` for H-trains)."""
        return self.runs and _within(self._visits, counts[CITY], counts[TOWN], counts[OFFBOARD])

    def _pay_fits(self, counts: Sequence[int]) -> bool:
        return _within(self._pays, counts[CITY], counts[TOWN], counts[OFFBOARD])

    @property
    def pays_all(self) -> bool:
        """Whether every stop the train may visit scores (no row pays for fewer)."""
        return not self._express

    def paid(
        self, classes: Sequence[int], values: Sequence[int], tokened: Sequence[bool]
    ) -> tuple[int, tuple[int, ...]]:
        """The best revenue of the stops (given by class, value and whether they hold the
        corporation's token) and the indices of the stops it scores.

        Every stop scores when they all fit the rows' ``pay``. Otherwise the scored set is
        the best one that fits the rows' ``pay`` and holds a token (the sets that fit form a
        transversal matroid, so taking stops best first is optimal; with one tokened stop
        forced in when the best set holds none). ``(0, ())`` when no such set exists.
        """
        n = len(classes)
        count = classes.count
        if _within(self._pays, count(CITY), count(TOWN), count(OFFBOARD)):
            return sum(values), tuple(range(n))
        # best first, ties in route order (a stable sort)
        order = sorted(range(n), key=values.__getitem__, reverse=True)
        best = self._greedy(order, classes, values, ())
        if best is not None and any(map(tokened.__getitem__, best[1])):
            return best
        found: tuple[int, tuple[int, ...]] = (0, ())
        for t in range(n):
            if tokened[t]:
                got = self._greedy(order, classes, values, (t,))
                if got is not None and (not found[1] or got[0] > found[0]):
                    found = got
        return found

    def paid_sets(
        self, classes: Sequence[int], tokened: Sequence[bool]
    ) -> Iterator[tuple[int, ...]]:
        """Every set of the stops (by index) the train may score, largest first, as
        18xx.games tries them when a game's bonus depends on the stops scored: sets of the
        largest size that fits the rows' ``pay`` and holds a token, then smaller ones."""
        n = len(classes)
        total_pay = min(UNLIMITED, sum(r.pay for r in self.rows))
        for size in range(min(total_pay, n), 0, -1):
            for chosen in combinations(range(n), size):
                if not any(tokened[i] for i in chosen):
                    continue
                counts = [0, 0, 0]
                for i in chosen:
                    counts[classes[i]] += 1
                if self._pay_fits(counts):
                    yield chosen

    def _greedy(
        self,
        order: Sequence[int],
        classes: Sequence[int],
        values: Sequence[int],
        forced: tuple[int, ...],
    ) -> tuple[int, tuple[int, ...]] | None:
        chosen: list[int] = []
        by_class = self._class_pays
        if by_class is not None:
            # the classes' limits are apart: each class's best stops, as many as it is paid
            left = list(by_class)
            for i in forced:
                left[classes[i]] -= 1
                chosen.append(i)
            if min(left) < 0:
                return None
            for i in order:
                c = classes[i]
                if left[c] > 0 and i not in forced:
                    chosen.append(i)
                    left[c] -= 1
            chosen.sort()
            return sum(map(values.__getitem__, chosen)), tuple(chosen)
        pays = self._pays
        counts = [0, 0, 0]
        for i in forced:
            counts[classes[i]] += 1
            chosen.append(i)
        if not _within(pays, counts[0], counts[1], counts[2]):
            return None
        # the stops the rows still pay for; and the classes no stop of which fits any more
        # (the counts only grow, so a class that does not fit once never fits again)
        room = pays[6] - len(chosen)
        closed = [False, False, False]
        for i in order:
            if room <= 0:
                break
            c = classes[i]
            if closed[c] or i in forced:
                continue
            counts[c] += 1
            if _within(pays, counts[0], counts[1], counts[2]):
                chosen.append(i)
                room -= 1
            else:
                counts[c] -= 1
                closed[c] = True
        chosen.sort()
        return sum(map(values.__getitem__, chosen)), tuple(chosen)


@dataclass(frozen=True, slots=True)
class WalkRules:
    """Route rules a game states so that the search applies them as it walks (never
    following a route they forbid), rather than rating routes it then refuses:

    * ``no_ends``: node ids a route may not begin or end at (1860's halts, 1817's mines);
    * ``pass_once``: node ids a route may pass through at most one of (1860's cities other
      corporations' tokens fill; 18USA's, for the switcher's train);
    * ``distinct_hexes``: a route may not enter a hex again after leaving it (1860);
    * ``hex_bound``: coord -> the most a route earns, besides its stops, for its track
      entering that hex (1817's mines and ranches: a bound, counted each time the track
      enters the hex);
    * ``train_ends``: train name -> the only node ids that train's route may begin and end
      at (1822's E-train: the corporation's token cities, and France through the Channel).
    """

    no_ends: frozenset[int] = frozenset()
    pass_once: frozenset[int] = frozenset()
    distinct_hexes: bool = False
    hex_bound: Mapping[str, int] = field(default_factory=dict)
    train_ends: Mapping[str, frozenset[int]] = field(default_factory=dict)


def _mask(kinds: Sequence[str], where: str, halts: bool) -> int:
    mask = 0
    for kind in kinds:
        if kind == "halt":
            if not halts:
                raise UnsupportedTrain(
                    f"train {where}: it counts halts, and this game's rules do not say "
                    "what halts are"
                )
            kind = "town"
        mask |= 1 << _CLASS_OF[kind]
    return mask


def train_spec(train: TrainType, *, goods: bool = False, halts: bool = False) -> TrainSpec:
    """The :class:`TrainSpec` of a train (see the module docstring).

    ``goods`` says whether the game's rules define goods trains; without them a goods train
    is refused with :class:`UnsupportedTrain`. ``halts`` says whether they define halts
    (which the rows then count as towns); without them a train with a ``halt`` row is
    refused.
    """
    name = train.name
    diesel = name.upper() == "D"
    if train.category != "passenger" and not goods:
        raise UnsupportedTrain(
            f"train {name} is a {train.category} train; this game's rules do not say what "
            f"{train.category} trains score"
        )
    if not train.runs:
        return TrainSpec(name, (), (0, 0, 0), runs=False, category=train.category)
    if train.track != "broad":
        raise UnsupportedTrain(
            f"train {name} runs on {train.track} track only; tilelay's router runs trains on "
            "any gauge that joins"
        )
    if not train.requires_token:
        raise UnsupportedTrain(
            f"train {name} may run without a token; tilelay's router needs one on every route"
        )
    if train.allowances:
        rows = tuple(
            Row(_mask(a.kinds, name, halts), _count(a.pay), _count(a.visit), a.multiplier)
            for a in train.allowances
        )
        per_class: list[int] = []
        for cls in (CITY, TOWN, OFFBOARD):
            first = next((r for r in rows if r.classes >> cls & 1), None)
            m = train.multiplier if first is None or first.multiplier is None else first.multiplier
            per_class.append(m)
        # a class no row names cannot be visited: a row of it with room for nothing
        return TrainSpec(
            name,
            rows,
            (per_class[0], per_class[1], per_class[2]),
            category=train.category,
            diesel=diesel,
            scores_visits=False,
        )
    all_classes = 0b111
    towns_mult = 1 if train.towns_score else 0
    if train.multiplier != 1:
        # 18xx.games: a numeric distance with a multiplier multiplies every stop
        city_mult = train.multiplier
        towns_mult = train.multiplier if train.towns_score else 0
    else:
        city_mult = 2 if train.score.cities is CityScore.DOUBLE else 1
    mults = (city_mult, towns_mult, city_mult)
    if train.reach.base is ReachBase.HEXES:
        reach = train.max_major_stops
        return TrainSpec(
            name,
            (Row(all_classes, UNLIMITED, UNLIMITED),),
            mults,
            hexes=None if reach is None else reach,
            category=train.category,
            diesel=diesel,
        )
    major = _count(train.major_stops)
    minor = _count(train.minor_stops)
    counting = train.reach.count_towns
    majors = (1 << CITY) | (1 << OFFBOARD)
    town = 1 << TOWN
    if counting is TownCounting.NO:
        rows = (Row(majors, major, major), Row(town, UNLIMITED, UNLIMITED))
    elif counting is TownCounting.MINOR:
        rows = (Row(town, minor, minor), Row(majors, major, major))
    elif counting is TownCounting.YES and minor:
        rows = (Row(town, minor, minor), Row(all_classes, major, major))
    else:
        rows = (Row(all_classes, major, major),)
    return TrainSpec(name, rows, mults, category=train.category, diesel=diesel)
