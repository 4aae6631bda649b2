"""Reading and writing the ``TrainManager`` and ``PhaseManager`` components of a Rails Game.xml.

Seed 003 describes the TrainManager. ``<IfOption name value>`` blocks are resolved for a chosen
set of game options: the ``<GameOption>`` defaults the file declares, Rails' defaults for the
few options files use without declaring them, and the caller's choices on top. ``<Attributes>``
inside an element (or inside an IfOption inside it) adds attributes to that element.

Train attributes apply in the order ``<Defaults>``, ``<TrainType>``, ``<Train>``; phases take
the previous phase's tile colours, operating rounds, train limit step and trading rules unless
they say otherwise. Unknown tags and attributes give warnings (with file and line) in
:attr:`~tilelay.trains.TrainManager.warnings`; a missing required attribute or an impossible
value raises :class:`~tilelay.errors.XMLFormatError`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from lxml import etree

from tilelay import limits
from tilelay.errors import GameDataError, ReadWarning, XMLFormatError
from tilelay.trains import (
    IPO,
    POOL,
    SCRAPHEAP,
    CityScore,
    Extra,
    NewPhase,
    Phase,
    Reach,
    ReachBase,
    Score,
    TownCounting,
    TrainCardType,
    TrainManager,
    TrainType,
)
from tilelay.xml.rails_options import (
    RAILS_OPTION_DEFAULTS,
    check_options,
    declared_options,
    option_values,
)
from tilelay.xml.safe import element_line, parse_xml

_TRAIN_ATTRS = frozenset({"cost", "exchangeCost", "majorStops", "minorStops"})
_CARD_ATTRS = frozenset(
    {
        "name",
        "quantity",
        "quantityIncrement",
        "class",
        "initialPortfolio",
        "obsoleting",
        "category",
        "startPhase",
        "releasedTrain",
        "rustedTrain",
        "alsoReleased",
    }
)
_PHASE_EXTRAS = frozenset(
    {"Privates", "OffBoardRevenue", "Loans", "Float", "Stocks", "Action", "Info", "Investors"}
)
_TRAINS_ATTRS = frozenset(
    {"limitStep", "rusted", "released", "tradingAllowed", "onePerTurn", "onePerTypePerTurn"}
)
_RAILS_TRAIN_MANAGER = "net.sf.rails.game.TrainManager"
_RAILS_PHASE_MANAGER = "net.sf.rails.game.PhaseManager"

_Attrs = dict[str, tuple[str, int | None]]


@dataclass(slots=True)
class _Node:
    """An element after IfOption/Attributes resolution, with the line of every attribute."""

    tag: str
    line: int | None
    attrs: _Attrs = field(default_factory=dict)
    children: list[_Node] = field(default_factory=list)

    def get(self, name: str) -> str | None:
        value = self.attrs.get(name)
        return None if value is None else value[0]

    def line_of(self, name: str) -> int | None:
        value = self.attrs.get(name)
        return self.line if value is None else value[1]


class _Reader:
    def __init__(self, source: str | None, options: Mapping[str, str]) -> None:
        self.source = source
        self.options = options
        self.warnings: list[ReadWarning] = []

    def warn(self, message: str, line: int | None) -> None:
        self.warnings.append(ReadWarning(message, self.source, line))

    def error(self, message: str, line: int | None) -> XMLFormatError:
        return XMLFormatError(message, source=self.source, line=line)

    # -- resolution ---------------------------------------------------------------------------

    def resolve(self, elem: etree._Element) -> _Node:
        node = _Node(str(elem.tag), element_line(elem))
        for key, value in elem.attrib.items():
            node.attrs[str(key)] = (str(value), element_line(elem))
        self._text(elem.text, element_line(elem), str(elem.tag))
        for child in elem:
            self._splice(child, node)
        return node

    def _text(self, text: str | None, line: int | None, tag: str) -> None:
        if text and text.strip():
            self.warn(f"unexpected text {text.strip()[:20]!r} in <{tag}>", line)

    def _splice(self, child: etree._Element, node: _Node) -> None:
        self._text(child.tail, element_line(child), node.tag)
        if not isinstance(child.tag, str):
            return  # a comment or processing instruction
        if child.tag == "IfOption":
            name, values = child.get("name"), child.get("value")
            if name is None or values is None:
                missing = "name" if name is None else "value"
                raise self.error(f"<IfOption> has no {missing} attribute", element_line(child))
            chosen = self.options.get(name)
            wanted = {v.strip().lower() for v in values.split(",")}
            self._text(child.text, element_line(child), "IfOption")
            if chosen is not None and chosen.strip().lower() in wanted:
                for grandchild in child:
                    self._splice(grandchild, node)
        elif child.tag == "Attributes":
            for key, value in child.attrib.items():
                node.attrs[str(key)] = (str(value), element_line(child))
            if len(child):
                self.warn("<Attributes> should have no inner tags; ignored", element_line(child))
        else:
            node.children.append(self.resolve(child))

    # -- attribute helpers --------------------------------------------------------------------

    def check(self, node: _Node, known: frozenset[str], where: str) -> None:
        for key in node.attrs:
            if key not in known:
                place = f"<{node.tag}> of {where}" if where else f"<{node.tag}>"
                self.warn(f"unknown attribute {key!r} on {place}", node.line_of(key))

    def integer(
        self, attrs: _Attrs, key: str, where: str, line: int | None, *, minimum: int = 0
    ) -> int | None:
        if key not in attrs:
            return None
        text, at = attrs[key]
        if limits.whole(text, -limits.MAX_AMOUNT, limits.MAX_AMOUNT) is None:
            raise self.error(
                f"{key} of {where} must be an integer from {minimum} to {limits.MAX_AMOUNT:,}, "
                f"not {limits.shown(text)}",
                at,
            )
        value = int(text.strip())
        if value < minimum:
            raise self.error(f"{key} of {where} must be at least {minimum}, not {value}", at)
        return value

    def required(self, attrs: _Attrs, key: str, where: str, line: int | None) -> int:
        value = self.integer(attrs, key, where, line, minimum=-1 if key == "majorStops" else 0)
        if value is None:
            raise self.error(f"{where} has no {key} attribute (required)", line)
        return value

    def boolean(self, node: _Node, key: str, where: str) -> bool | None:
        text = node.get(key)
        if text is None:
            return None
        flag = text.strip().lower()
        if flag in ("yes", "true"):
            return True
        if flag in ("no", "false"):
            return False
        raise self.error(f"{key} of {where} must be yes or no, not {text!r}", node.line_of(key))

    def choice(self, text: str, allowed: Mapping[str, str], what: str, line: int | None) -> str:
        value = allowed.get(text.strip().lower())
        if value is None:
            wanted = ", ".join(sorted(set(allowed.values())))
            raise self.error(f"{what} must be one of {wanted}, not {text!r}", line)
        return value

    # -- trains -------------------------------------------------------------------------------

    def rules(self, nodes: list[_Node], where: str) -> tuple[Reach, Score]:
        """Reach and Score from <Reach>/<Score> tags, later ones overriding earlier ones."""
        reach, score = Reach(), Score()
        for node in nodes:
            if node.tag == "Reach":
                self.check(node, frozenset({"base", "countTowns"}), where)
                if (base := node.get("base")) is not None:
                    value = self.choice(
                        base, {b.value: b.value for b in ReachBase}, "base", node.line_of("base")
                    )
                    reach = replace(reach, base=ReachBase(value))
                if (count := node.get("countTowns")) is not None:
                    allowed = {t.value: t.value for t in TownCounting}
                    allowed |= {"true": "yes", "false": "no"}
                    value = self.choice(count, allowed, "countTowns", node.line_of("countTowns"))
                    reach = replace(reach, count_towns=TownCounting(value))
            elif node.tag == "Score":
                self.check(node, frozenset({"cities", "towns"}), where)
                if (cities := node.get("cities")) is not None:
                    allowed = {c.value: c.value for c in CityScore}
                    value = self.choice(cities, allowed, "cities", node.line_of("cities"))
                    score = replace(score, cities=CityScore(value))
                towns = self.boolean(node, "towns", where)
                if towns is not None:
                    score = replace(score, towns=towns)
        return reach, score

    def side(
        self,
        name: str,
        attrs: _Attrs,
        rule_nodes: list[_Node],
        where: str,
        line: int | None,
    ) -> TrainType:
        cost = self.required(attrs, "cost", where, line)
        major = self.required(attrs, "majorStops", where, line)
        minor = self.integer(attrs, "minorStops", where, line) or 0
        exchange = self.integer(attrs, "exchangeCost", where, line)
        reach, score = self.rules(rule_nodes, where)
        category = attrs["category"][0] if "category" in attrs else "passenger"
        return TrainType(name, cost, major, minor, exchange, reach, score, category=category)

    def card(
        self, node: _Node, defaults: _Node | None, refs: list[tuple[str, str, int | None]]
    ) -> TrainCardType:
        name = node.get("name")
        if not name:
            raise self.error("<TrainType> has no name attribute (required)", node.line)
        where = f"train type {name!r}"
        self.check(node, _CARD_ATTRS | _TRAIN_ATTRS, where)
        default_attrs: _Attrs = {}
        default_rules: list[_Node] = []
        if defaults is not None:
            default_attrs = {
                k: v for k, v in defaults.attrs.items() if k in _TRAIN_ATTRS or k == "category"
            }
            default_rules = [c for c in defaults.children if c.tag in ("Reach", "Score")]
        card_attrs = {
            **default_attrs,
            **{k: v for k, v in node.attrs.items() if k in _TRAIN_ATTRS or k == "category"},
        }
        card_rules = default_rules + [c for c in node.children if c.tag in ("Reach", "Score")]
        new_phases: list[NewPhase] = []
        trains: list[_Node] = []
        for child in node.children:
            if child.tag == "Train":
                trains.append(child)
            elif child.tag == "NewPhase":
                self.check(child, frozenset({"phaseName", "trainIndex"}), where)
                phase = child.get("phaseName")
                if not phase:
                    raise self.error(f"<NewPhase> of {where} has no phaseName", child.line)
                index = self.integer(child.attrs, "trainIndex", where, child.line, minimum=1)
                new_phases.append(NewPhase(phase, index or 1))
                refs.append(("phase", phase, child.line_of("phaseName")))
            elif child.tag == "Exchange":
                self.check(child, frozenset({"cost"}), where)
                if "cost" not in child.attrs:
                    raise self.error(f"<Exchange> of {where} has no cost", child.line)
                card_attrs["exchangeCost"] = child.attrs["cost"]
            elif child.tag not in ("Reach", "Score"):
                self.warn(f"unknown tag <{child.tag}> in {where}", child.line)
        sides: list[TrainType] = []
        for train in trains:
            tname = train.get("name")
            if not tname:
                raise self.error(f"<Train> of {where} has no name attribute", train.line)
            twhere = f"train {tname!r} of {where}"
            self.check(train, _TRAIN_ATTRS | {"name", "category"}, twhere)
            attrs = {**card_attrs, **{k: v for k, v in train.attrs.items() if k != "name"}}
            for child in train.children:
                if child.tag == "Exchange" and "cost" in child.attrs:
                    attrs["exchangeCost"] = child.attrs["cost"]
                elif child.tag not in ("Reach", "Score"):
                    self.warn(f"unknown tag <{child.tag}> in {twhere}", child.line)
            rules = card_rules + [c for c in train.children if c.tag in ("Reach", "Score")]
            sides.append(self.side(tname, attrs, rules, twhere, train.line))
        if not sides:
            sides.append(self.side(name, card_attrs, card_rules, where, node.line))
        if len(sides) > 2:
            self.warn(f"{where} has {len(sides)} sides; a card has at most two", node.line)
        quantity = self.integer(node.attrs, "quantity", where, node.line, minimum=-1)
        if quantity is None:
            raise self.error(f"{where} has no quantity attribute (required)", node.line)
        increment = self.integer(node.attrs, "quantityIncrement", where, node.line, minimum=-99)
        if increment is not None and quantity != -1:
            quantity += increment
        if quantity == 0 or quantity < -1:
            raise self.error(
                f"quantity of {where} must be more than 0, or -1 for unlimited, not {quantity}",
                node.line_of("quantity"),
            )
        for new in new_phases:
            if quantity != -1 and new.train_index > quantity:
                raise self.error(
                    f"trainIndex {new.train_index} of {where} is more than its quantity",
                    node.line,
                )
        portfolio = IPO
        if (text := node.get("initialPortfolio")) is not None:
            portfolio = self.choice(
                text,
                {"ipo": IPO, "pool": POOL},
                "initialPortfolio",
                node.line_of("initialPortfolio"),
            )
        released = self.names(node, "releasedTrain") + self.names(node, "alsoReleased")
        rusted = self.names(node, "rustedTrain")
        for ref in (*released, *rusted):
            refs.append(("train", ref, node.line))
        start = node.get("startPhase")
        if start is not None and not start.strip():
            start = None  # startPhase="" names no phase
        if start is not None:
            refs.append(("phase", start, node.line_of("startPhase")))
        return TrainCardType(
            name,
            quantity,
            tuple(sides),
            initial_portfolio=portfolio,
            obsoleting=bool(self.boolean(node, "obsoleting", where)),
            category=(
                node.get("category")
                or (defaults.get("category") if defaults is not None else None)
                or "passenger"
            ),
            class_name=node.get("class"),
            new_phases=tuple(new_phases),
            available_from=start,
            rusts=rusted,
            releases=released,
        )

    @staticmethod
    def names(node: _Node, key: str) -> tuple[str, ...]:
        text = node.get(key)
        return () if text is None else tuple(n.strip() for n in text.split(",") if n.strip())

    def train_manager(
        self, comp: _Node, phases: tuple[Phase, ...], phase_comp: _Node | None
    ) -> TrainManager:
        self.check(comp, frozenset({"name", "class", "ObsoleteTrainFor"}), "TrainManager")
        obsolete_for = "EXCEPT_TRIGGERING"
        if (text := comp.get("ObsoleteTrainFor")) is not None:
            allowed = {"all": "ALL", "except_triggering": "EXCEPT_TRIGGERING"}
            obsolete_for = self.choice(
                text, allowed, "ObsoleteTrainFor", comp.line_of("ObsoleteTrainFor")
            )
        defaults: _Node | None = None
        for child in comp.children:
            if child.tag == "Defaults":
                if defaults is not None:
                    self.warn("a second <Defaults> replaces the first", child.line)
                self.check(child, _TRAIN_ATTRS | {"class", "category"}, "TrainManager")
                for grandchild in child.children:
                    if grandchild.tag not in ("Reach", "Score"):
                        self.warn(f"unknown tag <{grandchild.tag}> in <Defaults>", grandchild.line)
                defaults = child
        refs: list[tuple[str, str, int | None]] = []
        cards: list[TrainCardType] = []
        manager = TrainManager(
            (),
            phases,
            default_class=None if defaults is None else defaults.get("class"),
            obsolete_train_for=obsolete_for,
            rails_class=comp.get("class"),
            phase_manager_class=None if phase_comp is None else phase_comp.get("class"),
            source=self.source,
        )
        for child in comp.children:
            if child.tag == "TrainType":
                card = self.card(child, defaults, refs)
                if any(c.name == card.name for c in cards):
                    raise self.error(f"train type {card.name!r} is defined twice", child.line)
                cards.append(card)
            elif child.tag == "TrainBuyingRules":
                self.check(child, frozenset(), "")
                for rule in child.children:
                    if rule.tag == "DualTrainBecomesUndecidedInPool":
                        manager = replace(manager, dual_train_becomes_undecided_in_pool=True)
                    elif rule.tag == "FaceValueIfDifferentPresidents":
                        manager = replace(manager, face_value_if_different_presidents=True)
                    else:
                        self.warn(f"unknown train buying rule <{rule.tag}>", rule.line)
                    self.check(rule, frozenset(), "")
            elif child.tag == "DiscardTrain":
                self.check(child, frozenset({"to"}), "")
                to = child.get("to") or "pool"
                allowed = {"pool": POOL, "scrapheap": SCRAPHEAP}
                manager = replace(
                    manager, discard_to=self.choice(to, allowed, "to", child.line_of("to"))
                )
            elif child.tag == "RemoveTrainBeforeSR":
                self.check(child, frozenset(), "")
                manager = replace(manager, remove_train_before_sr=True)
            elif child.tag != "Defaults":
                self.warn(f"unknown tag <{child.tag}> in TrainManager", child.line)
        names = {c.name for c in cards}
        phase_names = {p.name for p in phases}
        for kind, name, line in refs:
            if kind == "phase" and phase_comp is not None and name not in phase_names:
                raise self.error(f"unknown phase {name!r}", line)
            if kind == "train" and name not in names:
                raise self.error(f"unknown train type {name!r}", line)
        for phase in phases:
            for name in (*phase.rusts, *phase.releases):
                if name not in names:
                    line = phase_comp.line if phase_comp is not None else None
                    raise self.error(f"phase {phase.name!r} names unknown train {name!r}", line)
        return replace(manager, card_types=tuple(cards))

    # -- phases -------------------------------------------------------------------------------

    def extra(self, node: _Node) -> Extra:
        attrs = tuple((k, v[0]) for k, v in node.attrs.items())
        return Extra(node.tag, attrs, tuple(self.extra(c) for c in node.children))

    def phases(self, comp: _Node) -> tuple[Phase, ...]:
        self.check(comp, frozenset({"name", "class"}), "PhaseManager")
        previous = Phase("", limit_step=1)
        result: list[Phase] = []
        for node in comp.children:
            if node.tag != "Phase":
                self.warn(f"unknown tag <{node.tag}> in PhaseManager", node.line)
                continue
            name = node.get("name")
            if not name:
                raise self.error("<Phase> has no name attribute (required)", node.line)
            if any(p.name == name for p in result):
                raise self.error(f"phase {name!r} is defined twice", node.line)
            where = f"phase {name!r}"
            self.check(node, frozenset({"name", "realName"}), where)
            phase = replace(
                previous,
                name=name,
                real_name=node.get("realName"),
                rusts=(),
                releases=(),
                tile_lays=(),
                extras=(),
            )
            for child in node.children:
                if child.tag == "Tiles":
                    self.check(child, frozenset({"colour"}), where)
                    if (colours := child.get("colour")) is not None:
                        tiles = tuple(c.strip() for c in colours.split(",") if c.strip())
                        phase = replace(phase, tiles=tiles)
                    lays: list[Extra] = []
                    for lay in child.children:
                        if lay.tag != "Lays":
                            self.warn(f"unknown tag <{lay.tag}> in <Tiles> of {where}", lay.line)
                        lays.append(self.extra(lay))
                    phase = replace(phase, tile_lays=tuple(lays))
                elif child.tag == "OperatingRounds":
                    self.check(child, frozenset({"number"}), where)
                    rounds = self.integer(child.attrs, "number", where, child.line, minimum=-1)
                    if rounds == 0:
                        raise self.error(
                            f"OperatingRounds number of {where} must not be 0", child.line
                        )
                    if rounds is not None:
                        phase = replace(phase, operating_rounds=rounds)
                elif child.tag == "Trains":
                    phase = self.phase_trains(phase, child, where)
                else:
                    if child.tag not in _PHASE_EXTRAS:
                        self.warn(f"unknown tag <{child.tag}> in {where} (kept)", child.line)
                    phase = replace(phase, extras=(*phase.extras, self.extra(child)))
            result.append(phase)
            previous = phase
        return tuple(result)

    def phase_trains(self, phase: Phase, node: _Node, where: str) -> Phase:
        self.check(node, _TRAINS_ATTRS, where)
        for child in node.children:
            self.warn(f"unknown tag <{child.tag}> in <Trains> of {where}", child.line)
        step = self.integer(node.attrs, "limitStep", where, node.line, minimum=1)
        trading = self.boolean(node, "tradingAllowed", where)
        one = self.boolean(node, "onePerTurn", where)
        one_per_type = self.boolean(node, "onePerTypePerTurn", where)
        return replace(
            phase,
            limit_step=phase.limit_step if step is None else step,
            rusts=(*phase.rusts, *self.names(node, "rusted")),
            releases=(*phase.releases, *self.names(node, "released")),
            trading_allowed=phase.trading_allowed if trading is None else trading,
            one_per_turn=phase.one_per_turn if one is None else one,
            one_per_type_per_turn=(
                phase.one_per_type_per_turn if one_per_type is None else one_per_type
            ),
        )


def _component(root: etree._Element, name: str) -> etree._Element | None:
    if root.tag == "Component" and root.get("name") == name:
        return root
    for comp in root.iter("Component"):
        if comp.get("name") == name:
            return comp
    return None


def read_rails_game(
    data: bytes | str | Path,
    *,
    source: str | None = None,
    options: Mapping[str, str] | None = None,
) -> TrainManager:
    """The trains and phases of a Rails Game.xml, with IfOptions resolved.

    ``data`` is a path, or the XML as bytes or text. ``options`` override the file's option
    defaults; a value that is not one the game uses (declared by a ``<GameOption>``, tested by
    an ``<IfOption>`` of the file or, for a path, of the game's files next to it, or a known
    default) raises :class:`~tilelay.errors.GameDataError` naming the option and those values
    (:func:`tilelay.xml.rails_options.check_options`). The root may be the
    ``<ComponentManager>`` of a Game.xml or a lone ``<Component name="TrainManager">``;
    PhaseManager is optional.
    """
    if isinstance(data, Path):
        source = source or str(data)
    root = parse_xml(data, source=source)
    train_elem = _component(root, "TrainManager")
    if train_elem is None:
        raise XMLFormatError('no <Component name="TrainManager"> found', source=source)
    phase_elem = _component(root, "PhaseManager")
    referenced: dict[str, set[str]] = {}
    for elem in (train_elem, phase_elem):
        for test in () if elem is None else elem.iter("IfOption"):
            name = test.get("name")
            if name:
                values = {v.strip().lower() for v in (test.get("value") or "").split(",")}
                referenced.setdefault(name, set()).update(values)
    chosen = declared_options(root)
    warnings: list[ReadWarning] = []
    for name, values in referenced.items():
        if name not in chosen:
            if name in RAILS_OPTION_DEFAULTS:
                chosen[name] = RAILS_OPTION_DEFAULTS[name]
            elif values <= {"yes", "no"}:
                chosen[name] = "no"
            elif not (options and name in options):
                warnings.append(
                    ReadWarning(f"option {name!r} has no known default; treated as unset", source)
                )
    if options:
        # a value the game does not use would leave out every block of its option (a misspelt
        # variant reads as a game without any): refused, as for a whole game's options
        try:
            check_options(options, option_values(root), source)
        except GameDataError:
            if not isinstance(data, Path):
                raise
            # values the game's other files (Map.xml, ...) use count too: read only then
            check_options(options, option_values(root, data.parent), source)
    for name, value in (options or {}).items():
        if name not in chosen and name not in referenced:
            warnings.append(ReadWarning(f"option {name!r} is not used by this file", source))
        chosen[name] = value
    reader = _Reader(source, chosen)
    reader.warnings.extend(warnings)
    train_comp = reader.resolve(train_elem)
    phase_comp = None if phase_elem is None else reader.resolve(phase_elem)
    phases = () if phase_comp is None else reader.phases(phase_comp)
    manager = reader.train_manager(train_comp, phases, phase_comp)
    return replace(manager, warnings=tuple(reader.warnings))


# --- writing ---------------------------------------------------------------------------------


def _rules(parent: etree._Element, reach: Reach, score: Score) -> None:
    etree.SubElement(
        parent, "Reach", {"base": reach.base.value, "countTowns": reach.count_towns.value}
    )
    etree.SubElement(
        parent, "Score", {"cities": score.cities.value, "towns": "yes" if score.towns else "no"}
    )


def _side_attrs(side: TrainType) -> dict[str, str]:
    attrs = {"majorStops": str(side.major_stops)}
    if side.minor_stops:
        attrs["minorStops"] = str(side.minor_stops)
    attrs["cost"] = str(side.cost)
    if side.exchange_cost is not None:
        attrs["exchangeCost"] = str(side.exchange_cost)
    return attrs


def _side_rules(elem: etree._Element, side: TrainType, reach: Reach, score: Score) -> None:
    if side.reach != reach:
        r = side.reach
        etree.SubElement(elem, "Reach", {"base": r.base.value, "countTowns": r.count_towns.value})
    if side.score != score:
        s = side.score
        etree.SubElement(
            elem, "Score", {"cities": s.cities.value, "towns": "yes" if s.towns else "no"}
        )


def _extra(parent: etree._Element, extra: Extra) -> None:
    elem = etree.SubElement(parent, extra.tag, dict(extra.attributes))
    for child in extra.children:
        _extra(elem, child)


def write_rails_trains(manager: TrainManager) -> bytes:
    """A Game.xml fragment (``<ComponentManager>`` with the TrainManager and PhaseManager
    components) that :func:`read_rails_game` reads back to an equal model.

    Facts only 18xx.games data has (numeric train limits, phase status, discounts per train,
    visit limits, ``obsolete_on``, events) have no place in Rails' format and are left out.
    """
    root = etree.Element("ComponentManager")
    comp = etree.SubElement(
        root,
        "Component",
        {"name": "TrainManager", "class": manager.rails_class or _RAILS_TRAIN_MANAGER},
    )
    if manager.obsolete_train_for != "EXCEPT_TRIGGERING":
        etree.SubElement(comp, "Attributes", {"ObsoleteTrainFor": manager.obsolete_train_for})
    if manager.discard_to != POOL:
        etree.SubElement(comp, "DiscardTrain", {"to": manager.discard_to.lower()})
    if manager.remove_train_before_sr:
        etree.SubElement(comp, "RemoveTrainBeforeSR")
    all_sides = [side for card in manager.card_types for side in card.sides]
    common = Counter((s.reach, s.score) for s in all_sides).most_common(1)
    reach, score = common[0][0] if common else (Reach(), Score())
    defaults = etree.SubElement(comp, "Defaults")
    if manager.default_class:
        defaults.set("class", manager.default_class)
    _rules(defaults, reach, score)
    for card in manager.card_types:
        attrs = {"name": card.name, "quantity": str(card.quantity)}
        if card.class_name:
            attrs["class"] = card.class_name
        if card.initial_portfolio != IPO:
            attrs["initialPortfolio"] = card.initial_portfolio
        if card.obsoleting:
            attrs["obsoleting"] = "yes"
        if card.category != "passenger":
            attrs["category"] = card.category
        if card.available_from:
            attrs["startPhase"] = card.available_from
        if card.releases:
            attrs["releasedTrain"] = ",".join(card.releases)
        if card.rusts:
            attrs["rustedTrain"] = ",".join(card.rusts)
        same_category = all(side.category == card.category for side in card.sides)
        if not card.dual and card.sides[0].name == card.name and same_category:
            attrs |= _side_attrs(card.sides[0])
            elem = etree.SubElement(comp, "TrainType", attrs)
            _side_rules(elem, card.sides[0], reach, score)
        else:
            elem = etree.SubElement(comp, "TrainType", attrs)
            for side in card.sides:
                train_attrs = {"name": side.name} | _side_attrs(side)
                if side.category != card.category:
                    train_attrs["category"] = side.category
                train = etree.SubElement(elem, "Train", train_attrs)
                _side_rules(train, side, reach, score)
        for new in card.new_phases:
            new_attrs = {"phaseName": new.phase}
            if new.train_index != 1:
                new_attrs["trainIndex"] = str(new.train_index)
            etree.SubElement(elem, "NewPhase", new_attrs)
    if manager.dual_train_becomes_undecided_in_pool or manager.face_value_if_different_presidents:
        rules = etree.SubElement(comp, "TrainBuyingRules")
        if manager.dual_train_becomes_undecided_in_pool:
            etree.SubElement(rules, "DualTrainBecomesUndecidedInPool")
        if manager.face_value_if_different_presidents:
            etree.SubElement(rules, "FaceValueIfDifferentPresidents")
    if manager.phases:  # a file without phases reads back without them
        _write_phases(root, manager)
    etree.indent(root, space="\t")
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)


def _write_phases(root: etree._Element, manager: TrainManager) -> None:
    phases = etree.SubElement(
        root,
        "Component",
        {"name": "PhaseManager", "class": manager.phase_manager_class or _RAILS_PHASE_MANAGER},
    )
    previous = Phase("", limit_step=1)
    for phase in manager.phases:
        attrs = {"name": phase.name}
        if phase.real_name is not None:
            attrs["realName"] = phase.real_name
        elem = etree.SubElement(phases, "Phase", attrs)
        if phase.tiles != previous.tiles or phase.tile_lays:
            tiles = etree.SubElement(elem, "Tiles")
            if phase.tiles != previous.tiles:
                tiles.set("colour", ",".join(phase.tiles))
            for lay in phase.tile_lays:
                _extra(tiles, lay)
        if phase.operating_rounds != previous.operating_rounds:
            etree.SubElement(elem, "OperatingRounds", {"number": str(phase.operating_rounds)})
        trains: dict[str, str] = {}
        if phase.limit_step is not None and phase.limit_step != previous.limit_step:
            trains["limitStep"] = str(phase.limit_step)
        if phase.rusts:
            trains["rusted"] = ",".join(phase.rusts)
        if phase.releases:
            trains["released"] = ",".join(phase.releases)
        for key, value, before in (
            ("tradingAllowed", phase.trading_allowed, previous.trading_allowed),
            ("onePerTurn", phase.one_per_turn, previous.one_per_turn),
            ("onePerTypePerTurn", phase.one_per_type_per_turn, previous.one_per_type_per_turn),
        ):
            if value != before:
                trains[key] = "yes" if value else "no"
        if trains:
            etree.SubElement(elem, "Trains", trains)
        for extra in phase.extras:
            _extra(elem, extra)
        previous = phase
