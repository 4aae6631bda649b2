"""Rails' ``CompanyManager.xml``: public companies and privates (read only).

``<CompanyType name class>`` elements give defaults to the ``<Company name type>`` elements of
that type; both may hold ``<Float percentage>`` and ``<BaseTokens><LayCost method cost>``.
A type whose Java class is a ``PrivateCompany`` makes privates, every other type public
companies (majors, minors, state companies). What is read (``<IfOption>`` blocks resolved with
:class:`~tilelay.xml.rails_options.OptionResolver`):

* a public company: ``name`` (its symbol), ``longname``, ``tokens`` (how many), ``fgColour`` /
  ``bgColour`` (``RRGGBB`` or ``R,G,B``), ``<Home hex [city]>`` (several hexes mean the owner
  chooses; ``city`` is Rails' station number on the hex's tile, 1 for the first; 0 or none
  means not decided), the token costs of ``<LayCost method="sequence" cost>`` (one per token,
  the last repeated) and the float percentage;
* a private: ``name``, ``longname``, ``basePrice``, ``revenue`` (Rails allows one per phase)
  and the hexes of ``<Blocking hex>``.

Special properties, share certificates, start packets and the like are not read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from tilelay.errors import ReadWarning, XMLFormatError
from tilelay.limits import MAX_AMOUNT, MAX_ITEMS, shown, whole
from tilelay.xml.rails_map import rails_coord
from tilelay.xml.rails_options import OptionResolver
from tilelay.xml.safe import element_line, parse_xml

__all__ = ["RailsCompanies", "RailsPrivate", "RailsPublic", "rails_colour", "read_rails_companies"]


@dataclass(frozen=True, slots=True)
class RailsPublic:
    """A public company (major, minor, state company) of a Rails game.

    ``homes`` are tilelay coordinates (usually one; several when the owner chooses);
    ``home_city`` is Rails' station number on the home hex (``None``: not decided).
    ``token_costs`` has one cost per token, the home token first (empty when the file gives no
    sequence of costs); ``lay_cost`` names another method of costing tokens (``distance``).
    """

    sym: str
    name: str
    type: str
    homes: tuple[str, ...] = ()
    home_city: int | None = None
    tokens: int | None = None
    token_costs: tuple[int, ...] = ()
    lay_cost: str | None = None
    color: str | None = None
    text_color: str | None = None
    float_percent: int | None = None
    line: int | None = None


@dataclass(frozen=True, slots=True)
class RailsPrivate:
    """A private company: price, revenue (one value, or one per phase) and blocked hexes."""

    sym: str
    name: str
    value: int
    revenue: tuple[int, ...]
    blocks: tuple[str, ...] = ()
    line: int | None = None


@dataclass(frozen=True, slots=True)
class RailsCompanies:
    """The companies of a ``CompanyManager.xml``, in file order."""

    publics: tuple[RailsPublic, ...]
    privates: tuple[RailsPrivate, ...]
    source: str | None = None
    warnings: tuple[ReadWarning, ...] = ()


def rails_colour(text: str | None) -> str | None:
    """A Rails colour (``60E060`` or ``96,224,96``) as ``#60e060``; ``None`` for none.

    Raises :class:`ValueError` for anything else.
    """
    if text is None or not text.strip():
        return None
    t = text.strip()
    if "," in t:
        values = [whole(p, 0, 255) for p in t.split(",")]
        parts = [v for v in values if v is not None]
        if len(parts) != 3 or len(values) != 3:
            raise ValueError(f"bad colour {shown(text)}: expected R,G,B with values 0-255")
        return "#" + "".join(f"{p:02x}" for p in parts)
    if len(t) == 6 and all(c in "0123456789abcdefABCDEF" for c in t):
        return "#" + t.lower()
    raise ValueError(f"bad colour {text!r}: expected RRGGBB or R,G,B")


class _Reader:
    def __init__(self, resolver: OptionResolver, source: str | None) -> None:
        self.r = resolver
        self.source = source
        self.warnings: list[ReadWarning] = []

    def fail(self, message: str, el: etree._Element) -> XMLFormatError:
        return XMLFormatError(message, source=self.source, line=element_line(el))

    def warn(self, message: str, el: etree._Element) -> None:
        self.warnings.append(ReadWarning(message, self.source, element_line(el)))

    def ints(self, text: str | None, what: str, el: etree._Element) -> tuple[int, ...]:
        if text is None or not text.strip():
            return ()
        values = [whole(v, -MAX_AMOUNT, MAX_AMOUNT) for v in text.split(",") if v.strip()]
        if any(v is None for v in values) or len(values) > MAX_ITEMS:
            raise self.fail(
                f"{what} {shown(text)} must be at most {MAX_ITEMS} whole numbers from "
                f"{-MAX_AMOUNT:,} to {MAX_AMOUNT:,}",
                el,
            )
        return tuple(v for v in values if v is not None)

    def coords(self, text: str | None, what: str, el: etree._Element) -> tuple[str, ...]:
        out: list[str] = []
        for name in (text or "").replace(" ", ",").split(","):
            if name.strip():
                try:
                    out.append(rails_coord(name))
                except ValueError as err:
                    if name.strip()[:1] != "@":
                        raise self.fail(f"{what}: {err}", el) from None
                    self.warn(f"{what}: {err}; left out", el)
        return tuple(out)

    def colour(self, text: str | None, what: str, el: etree._Element) -> str | None:
        try:
            return rails_colour(text)
        except ValueError as err:
            self.warn(f"{what}: {err}; not kept", el)
            return None

    def settings(self, el: etree._Element, into: dict[str, object]) -> None:
        """Float percentage and token lay costs of a ``<CompanyType>`` or ``<Company>``."""
        for child in self.r.children(el):
            if child.tag == "Float":
                pct = self.ints(self.r.attributes(child).get("percentage"), "float", child)
                if pct:
                    into["float"] = pct[0]
            elif child.tag == "BaseTokens":
                lay = self.r.find(child, "LayCost")
                if lay is not None:
                    attrs = self.r.attributes(lay)
                    into["method"] = (attrs.get("method") or "sequence").strip()
                    into["costs"] = self.ints(attrs.get("cost"), "token cost", lay)


def read_rails_companies(
    data: bytes | str | Path,
    *,
    source: str | None = None,
    options: Mapping[str, str] | None = None,
) -> RailsCompanies:
    """Read a Rails ``CompanyManager.xml`` (path, bytes or text) with its options resolved.

    Raises :class:`~tilelay.errors.XMLFormatError` (file and line) for a company without a
    name or of an unknown type, and for numbers and hex names that do not read.
    """
    if isinstance(data, Path):
        source = source or str(data)
    root = parse_xml(data, source=source)
    resolver = OptionResolver(options or {}, source)
    rd = _Reader(resolver, source)
    types: dict[str, tuple[bool, dict[str, object]]] = {}
    publics: list[RailsPublic] = []
    privates: list[RailsPrivate] = []
    for el in resolver.children(root):
        if el.tag == "CompanyType":
            attrs = resolver.attributes(el)
            settings: dict[str, object] = {}
            rd.settings(el, settings)
            private = "PrivateCompany" in (attrs.get("class") or "")
            types[attrs.get("name") or ""] = (private, settings)
        elif el.tag == "Company":
            _company(rd, el, types, publics, privates)
    return RailsCompanies(
        tuple(publics), tuple(privates), source, (*resolver.warnings, *rd.warnings)
    )


def _company(
    rd: _Reader,
    el: etree._Element,
    types: Mapping[str, tuple[bool, dict[str, object]]],
    publics: list[RailsPublic],
    privates: list[RailsPrivate],
) -> None:
    attrs = rd.r.attributes(el)
    sym = (attrs.get("name") or "").strip()
    if not sym:
        raise rd.fail("<Company> has no name", el)
    kind = attrs.get("type") or ""
    if kind not in types:
        raise rd.fail(f"company {sym}: unknown type {kind!r}", el)
    private, defaults = types[kind]
    long_name = (attrs.get("longname") or attrs.get("longName") or sym).strip()
    line = element_line(el)
    if private:
        blocks: list[str] = []
        for child in rd.r.children(el):
            if child.tag == "Blocking":
                blocks.extend(
                    rd.coords(rd.r.attributes(child).get("hex"), f"{sym} blocking", child)
                )
        value = rd.ints(attrs.get("basePrice"), f"company {sym}: basePrice", el)
        revenue = rd.ints(attrs.get("revenue"), f"company {sym}: revenue", el)
        privates.append(
            RailsPrivate(
                sym, long_name, value[0] if value else 0, revenue or (0,), tuple(blocks), line
            )
        )
        return
    settings = dict(defaults)
    rd.settings(el, settings)
    homes: tuple[str, ...] = ()
    city: int | None = None
    for child in rd.r.children(el):
        if child.tag == "Home":
            home = rd.r.attributes(child)
            homes = rd.coords(home.get("hex"), f"company {sym} home", child)
            number = rd.ints(home.get("city"), f"company {sym} home city", child)
            city = number[0] if number and number[0] > 0 else None
    tokens_attr = rd.ints(attrs.get("tokens"), f"company {sym}: tokens", el)
    tokens = tokens_attr[0] if tokens_attr else None
    method = settings.get("method")
    costs = settings.get("costs", ())
    assert isinstance(costs, tuple)
    token_costs: tuple[int, ...] = ()
    lay_cost: str | None = None
    if method == "sequence" and costs:
        n = tokens if tokens is not None else len(costs)
        token_costs = tuple(costs[min(i, len(costs) - 1)] for i in range(n))
    elif method is not None and method != "sequence":
        lay_cost = f"{method} {','.join(str(c) for c in costs)}".strip()
    fp = settings.get("float")
    publics.append(
        RailsPublic(
            sym=sym,
            name=long_name,
            type=kind,
            homes=homes,
            home_city=city,
            tokens=tokens,
            token_costs=token_costs,
            lay_cost=lay_cost,
            color=rd.colour(attrs.get("bgColour"), f"company {sym} bgColour", el),
            text_color=rd.colour(attrs.get("fgColour"), f"company {sym} fgColour", el),
            float_percent=fp if isinstance(fp, int) else None,
            line=line,
        )
    )
