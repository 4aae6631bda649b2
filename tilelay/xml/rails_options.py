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

A choice must be a value the game uses (:func:`option_values`, checked by
:func:`check_options`): one its ``<GameOption>`` declares, one an ``<IfOption>`` tests (yes or
no for a toggle), or its known default. Any other value is refused with
:class:`~tilelay.errors.GameDataError` naming the option and the values the game uses: a
misspelt value would otherwise leave out every block of the option, a game quietly changed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from lxml import etree

from tilelay.errors import GameDataError, ReadWarning, XMLFormatError
from tilelay.xml.safe import element_line, parse_xml

__all__ = [
    "RAILS_GAME_OPTIONS",
    "RAILS_OPTION_DEFAULTS",
    "OptionResolver",
    "check_options",
    "declared_options",
    "game_options",
    "option_values",
]

#: Defaults of options Rails declares in its games list rather than in Game.xml; an undeclared
#: option tested only for yes/no defaults to "no".
RAILS_OPTION_DEFAULTS: Mapping[str, str] = {
    "Variant": "Basegame",
    "1856AlternateTrains": "no",
    "Extra3Trains": "0",
    "Extra4Trains": "0",
}


def declared_options(root: etree._Element) -> dict[str, str]:
    """The ``<GameOption>`` defaults a Game.xml declares (toggles default to "no", value
    lists to their first value)."""
    found: dict[str, str] = {}
    for option in root.iter("GameOption"):
        name = option.get("name")
        if not name:
            continue
        if option.get("parm"):
            name = f"{name}_{option.get('parm')}"
        default = option.get("default")
        if default is None:
            values = option.get("values")
            default = values.split(",")[0] if values else "no"
        found[name] = default
    return found


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


#: Options Rails sets from the game's set-up rather than from a list of values (the number of
#: players): any whole number is a value of theirs.
_COUNT_OPTIONS = frozenset({"NumberOfPlayers"})


def _add(values: dict[str, dict[str, str]], name: str, texts: Iterable[str]) -> None:
    out = values.setdefault(name, {})
    for text in texts:
        if text.strip():
            out.setdefault(text.strip().lower(), text.strip())


def _file_values(root: etree._Element, values: dict[str, dict[str, str]]) -> None:
    """Add what one file declares (``<GameOption>``) and tests (``<IfOption>``)."""
    for option in root.iter("GameOption"):
        if not option.get("name"):
            continue
        key = _key(option)
        listed = option.get("values")
        if listed:
            _add(values, key, listed.split(","))
        else:  # a toggle (type="toggle", or no values)
            _add(values, key, ["yes", "no"])
        _add(values, key, [option.get("default") or ""])
    for test in root.iter("IfOption"):
        if not test.get("name"):
            continue
        tested = (test.get("value") or "").split(",")
        _add(values, _key(test), tested)
        if {t.strip().lower() for t in tested if t.strip()} <= _TOGGLE:
            _add(values, _key(test), ["yes", "no"])


def option_values(
    game_xml: etree._Element | None,
    directory: Path | None = None,
    game: str | None = None,
) -> dict[str, dict[str, str]]:
    """Each option a Rails game uses, with the values it may take (lower case -> as written).

    The values are those the game's ``<GameOption>`` elements declare (a value list; yes and no
    for a toggle; the default), those its ``<IfOption>`` blocks test (yes and no when only yes
    or no is tested) and the known defaults (:data:`RAILS_OPTION_DEFAULTS`,
    :data:`RAILS_GAME_OPTIONS` of ``game``: default the name its ``<Game>`` element gives, or
    the directory's) of the options it uses. ``game_xml`` is the parsed
    ``Game.xml``; with ``directory``, the files of the game next to it count too: those its
    ``<Component file>`` attributes name and a ``GameOptions.xml``.
    """
    values: dict[str, dict[str, str]] = {}
    roots: list[etree._Element] = [] if game_xml is None else [game_xml]
    if game is None and game_xml is not None:
        game = next((g.get("name", "").strip() for g in game_xml.iter("Game")), None)
    if not game and directory is not None:
        game = directory.name
    if directory is not None:
        names = ["GameOptions.xml"]
        for root in list(roots):
            names += [c.get("file") or "" for c in root.iter("Component")]
        if game_xml is None:
            names += ["Map.xml", "TileSet.xml", "CompanyManager.xml"]
        for name in dict.fromkeys(names):
            path = directory / name
            if name and Path(name).name == name and path.is_file():
                roots.append(parse_xml(path, source=str(path)))
    for root in roots:
        _file_values(root, values)
    defaults = {**RAILS_OPTION_DEFAULTS, **RAILS_GAME_OPTIONS.get(game or "", {})}
    for name, default in defaults.items():
        if name in values:
            _add(values, name, [default])
    return values


def check_options(
    chosen: Mapping[str, str],
    values: Mapping[str, Mapping[str, str]],
    source: str | None = None,
) -> None:
    """Raise :class:`~tilelay.errors.GameDataError` for a choice of ``chosen`` that is not one
    of the values ``values`` (:func:`option_values`) gives its option, naming the option and
    those values. Options the game does not use are left to the readers (they warn)."""
    for name, value in chosen.items():
        allowed = values.get(name)
        if allowed is None:
            continue
        text = value.strip().lower()
        if text in allowed:
            continue
        if name in _COUNT_OPTIONS and re.fullmatch(r"[0-9]{1,3}", text):
            continue
        uses = "a whole number" if name in _COUNT_OPTIONS else ", ".join(allowed.values())
        raise GameDataError(
            f"option {name!r}: {value!r} is not one of the values the game uses ({uses})",
            source=source,
        )


def game_options(
    directory: Path,
    game: str | None = None,
    *,
    game_xml: etree._Element | None = None,
    chosen: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """The option settings of the Rails game in ``directory`` (see the module docstring).

    ``game`` names the game for :data:`RAILS_GAME_OPTIONS` (default: the directory's name);
    ``game_xml`` is its parsed ``Game.xml`` when already read; ``chosen`` overrides. Raises
    :class:`~tilelay.errors.GameDataError` for a choice that is not a value of its option the
    game uses (:func:`check_options`).
    """
    if chosen:
        root = game_xml
        game_path = directory / "Game.xml"
        if root is None and game_path.is_file():
            root = parse_xml(game_path, source=str(game_path))
        values = option_values(root, directory, game or directory.name)
        check_options(chosen, values, str(game_path if root is not None else directory))
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
