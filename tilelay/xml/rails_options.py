"""Rails' game options: which ``<IfOption>`` blocks of a game's XML files apply.

Every XML file of a Rails game (``Game.xml``, ``Map.xml``, ``CompanyManager.xml``,
``TileSet.xml``) may hold ``<IfOption name [parm] value>`` blocks: their contents count only
when the game option ``name`` (``name_parm`` when a ``parm`` is given) has one of the
comma-separated ``value``\\ s. An ``<Attributes>`` element adds its attributes to the element
that holds it (directly or through an ``<IfOption>`` that applies).

Where the defaults come from, first to last (later ones win):

* :data:`RAILS_GAME_OPTIONS`: the defaults Rails declares for the shared games in files the
  shared data does not hold (``GameOptions.xml``);
* a ``GameOptions.xml`` in the game's directory, and the ``<GameOption>`` elements of its
  ``Game.xml`` (a toggle defaults to ``no``, a value list to its first value);
* the caller's choices.

An option that no file declares is read as ``no`` when every value tested for it is yes or no
(Rails' toggles), and is otherwise left unset (none of its blocks applies) with a warning.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

from lxml import etree

from tilelay.errors import ReadWarning, XMLFormatError
from tilelay.xml.rails_game import RAILS_OPTION_DEFAULTS, declared_options
from tilelay.xml.safe import element_line, parse_xml

__all__ = [
    "RAILS_GAME_OPTIONS",
    "OptionResolver",
    "game_options",
]

#: Option defaults of the shared Rails games that their directories do not declare. Source:
#: Rails' ``src/main/resources/data/<game>/GameOptions.xml`` (repository Rails-18xx/Rails):
#: 1825's ``Include`` toggles (Unit1 yes; Unit2, Unit3, R1-R3 no), 1830's ``Variant`` and
#: ``C&ACertificate(ReadingOnly)``, 1835's ``BYFloatsAt``/``LDIncome`` and 18EU's
#: ``ExtraMinorFor4p``. 18Kaas' ``Version`` is the option Rails now calls ``VersionOf`` (parm
#: MAP), default ``v2``.
RAILS_GAME_OPTIONS: Mapping[str, Mapping[str, str]] = {
    "1825": {
        "Include_Unit1": "yes",
        "Include_Unit2": "no",
        "Include_Unit3": "no",
        "Include_R1": "no",
        "Include_R2": "no",
        "Include_R3": "no",
    },
    "1830": {"Variant": "Basegame", "C&ACertificate(ReadingOnly)": "PRR"},
    "1835": {"Variant": "Clemens", "BYFloatsAt": "50%", "LDIncome": "20M"},
    "18EU": {"ExtraMinorFor4p": "No"},
    "18Kaas": {"Version": "v2"},
}

_TOGGLE = frozenset({"yes", "no"})


def _key(el: etree._Element) -> str:
    name = el.get("name") or ""
    parm = el.get("parm")
    return f"{name}_{parm}" if parm else name


def _values(text: str | None) -> set[str]:
    return {v.strip().lower() for v in (text or "").split(",") if v.strip()}


def game_options(
    directory: Path,
    game: str | None = None,
    *,
    game_xml: etree._Element | None = None,
    chosen: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """The option settings of the Rails game in ``directory`` (see the module docstring).

    ``game`` names the game for :data:`RAILS_GAME_OPTIONS` (default: the directory's name);
    ``game_xml`` is its parsed ``Game.xml`` when already read; ``chosen`` overrides.
    """
    options: dict[str, str] = dict(RAILS_OPTION_DEFAULTS)
    options.update(RAILS_GAME_OPTIONS.get(game or directory.name, {}))
    extra = directory / "GameOptions.xml"
    if extra.is_file():
        options.update(declared_options(parse_xml(extra, source=str(extra))))
    if game_xml is not None:
        options.update(declared_options(game_xml))
    options.update(chosen or {})
    return options


class OptionResolver:
    """Reads a Rails XML tree with its ``<IfOption>`` blocks resolved for ``options``.

    Options a file tests without any default are collected in :attr:`warnings` (once each).
    """

    def __init__(self, options: Mapping[str, str], source: str | None = None) -> None:
        self.options = dict(options)
        self.source = source
        self.warnings: list[ReadWarning] = []
        self._unset: set[str] = set()

    def applies(self, block: etree._Element) -> bool:
        """Whether an ``<IfOption>`` element's contents count."""
        if block.get("name") is None or block.get("value") is None:
            missing = "name" if block.get("name") is None else "value"
            raise XMLFormatError(
                f"<IfOption> has no {missing} attribute",
                source=self.source,
                line=element_line(block),
            )
        key = _key(block)
        wanted = _values(block.get("value"))
        chosen = self.options.get(key)
        if chosen is None:
            if wanted <= _TOGGLE:
                chosen = "no"
            else:
                if key not in self._unset:
                    self._unset.add(key)
                    self.warnings.append(
                        ReadWarning(
                            f"option {key!r} has no known default: its <IfOption> blocks are "
                            "left out",
                            self.source,
                            element_line(block),
                        )
                    )
                return False
        return chosen.strip().lower() in wanted

    def children(self, el: etree._Element) -> Iterator[etree._Element]:
        """The child elements of ``el`` that count, ``<IfOption>`` blocks spliced in;
        ``<Attributes>`` and comments are left out."""
        for child in el:
            if not isinstance(child.tag, str):
                continue
            if child.tag == "IfOption":
                if self.applies(child):
                    yield from self.children(child)
            elif child.tag != "Attributes":
                yield child

    def attributes(self, el: etree._Element) -> dict[str, str]:
        """The attributes of ``el`` with those its ``<Attributes>`` children add."""
        out = {str(k): str(v) for k, v in el.attrib.items()}
        self._add_attributes(el, out)
        return out

    def _add_attributes(self, el: etree._Element, out: dict[str, str]) -> None:
        for child in el:
            if not isinstance(child.tag, str):
                continue
            if child.tag == "Attributes":
                out.update({str(k): str(v) for k, v in child.attrib.items()})
            elif child.tag == "IfOption" and self.applies(child):
                self._add_attributes(child, out)

    def find(self, el: etree._Element, tag: str) -> etree._Element | None:
        """The first child ``<tag>`` of ``el`` that counts, if any."""
        return next((c for c in self.children(el) if c.tag == tag), None)
