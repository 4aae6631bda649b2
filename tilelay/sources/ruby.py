"""Literal data in Ruby source, read with a real Ruby parser (tree-sitter-ruby).

Game data in Ruby projects such as the 18xx.games engine are constants: hashes, arrays,
strings, symbols and numbers, often built on other modules' constants. This module reads them
without running Ruby. :func:`parse` turns source into a :class:`RubyFile` (a syntax tree);
a :class:`Program` gathers the modules, classes, ``include``\\ s, superclasses and constants of
many files and evaluates a constant on demand, resolving constant references the way Ruby
does: through the lexical nesting of the definition, then the ancestors (included modules and
superclasses) of the innermost module or class.

What counts as data:

* hashes (``key: v``, ``'k' => v``, ``'k': v``, ``**other``), arrays (``*other`` too),
  strings (``'…'``, ``"…"`` with escapes, ``%q``/``%Q``, ``'a' \\`` continuations and
  adjacent literals, heredocs ``<<ID``, ``<<-ID``, ``<<~ID`` and quoted ``<<~'ID'``),
  interpolation of data (``"#{X}"``), ``%w[]``/``%W[]``/``%i[]``, symbols (``:a``,
  ``:"a b"``), integers and floats (``1_000``, ``0x1f``, ``-3``), ``nil``, ``true``,
  ``false``, ranges of data (``1..3``, read as :class:`Range`), parentheses around one value;
* references to constants (``TILES``, ``Map::TILES``, ``G1867::Map::HEXES``, ``::X``); a
  reference to a module or class reads as :class:`ModuleRef`, its full name
  (``GAME_IS_VARIANT_OF = G18ZOO::Meta``);
* a few pure operations, each found in real game sources: ``.freeze``, ``.dup``,
  ``.clone`` and ``.deep_freeze`` (the value itself); ``hash.merge(other, …)`` (a new hash,
  later keys win, as the engine's ``*_TEXT`` constants use); ``a + b`` on two
  arrays, two strings or two numbers and ``a - b`` on two arrays (``G1822CaWrs::TRAINS``,
  ``G18USA``'s tile lists) or two numbers; ``array.uniq`` (``G18USA::COMPANIES``);
  ``hash[key]`` and ``array[index]`` (``RESOURCE_LABELS[:coal]``, ``YELLOW['3']``);
  ``range.to_a`` of integers or letters (``(3..6).to_a`` in ``G1858``'s options);
  ``a == b``, ``a != b``, ``a && b``, ``a || b``, ``!a`` and ``list.include?(x)`` on data;
  ``list.slice(start, length)``; ``size``/``length`` of an array, a hash or a string;
  ``hash.keys`` and ``hash.values``; ``reject``, ``select`` and ``filter`` on an array
  (``|x|``) or a hash (``|key, value|``), ``map`` on an array and ``transform_keys`` or
  ``transform_values`` on a hash, whose block is one such expression (``G18LosAngeles``'
  tiles: ``.reject { |k, _v| %w[298 299 300].include?(k) }``; 18ZOO's corporations;
  ``G18LosAngeles1``'s companies: ``.map { |c| X[c[:sym]] || c }``; 18MEX's Baja map:
  ``.transform_keys { |coords| coords - OPTION_REMOVE_HEXES }``);
* a constant changed in place by a later statement of the same module body:
  ``X.update(h)`` and ``X.merge!(h)`` with data are applied (1822 CA's scenarios copy
  ``LOCATION_NAMES`` with ``.dup`` and update it); any other change in place (``X << v``,
  ``X[k] = v``, ``X.push``…) makes the constant not data.

* a call of a module method (``def self.name``, from its module or as ``Mod.name(…)``) that
  only builds data, run as a method is (below): 1822 CA's ``HEXES = merge_hexes(WEST, EAST)``,
  1835's ``plus_train_distance(2)``.

A method that only builds data (:meth:`Program.method_value`: the engine's ``game_trains``,
``optional_hexes``, ``num_trains(train)``…) runs with its parameters and local variables; its
statements may be assignments (``+=``, ``-=`` of arrays and strings), ``return``, ``if``,
``elsif``, ``else``, ``unless`` and ``case``/``when`` on the game's options or on data
(``<``, ``>``, ``*`` of numbers, ``max``/``min``, ``to_sym`` too), ``each`` over data
(``&.each`` over nil: nothing) and ``each_key``, ``Hash.new { |h, k| h[k] = value }``,
``update`` of a hash it made and ``hash[key] = value`` on a local hash (a copy: the data it
came from is left as it is); it may call the game's
own methods without arguments that only build data too (1824's ``map_optional_hexes``, an
option test such as ``option_goods_time``); given the number of players, ``@players.size``
is it (1846's ``num_trains``). :meth:`Program.method_state` runs a method on instance
variables it is given, which it may filter in place (``@tiles.reject! { |t| t.id == x }``),
their items objects whose attributes it reads (:class:`GameObject`: a tile's ``id`` and
``name``; ``start_with?`` and ``end_with?`` of text): the engine's ``optional_tiles``.

Anything else — any other method, any other block, a condition on the players or the game's
state — is not data: evaluating it raises :class:`~tilelay.errors.NotDataError` naming the
file, the line and why. A constant whose value refers to a constant that is not data is not
data either.

Ruby symbols are read as :class:`Symbol`, a ``str`` holding the name (so ``{yellow: 1}``
reads as ``{Symbol("yellow"): 1}``, equal to ``{"yellow": 1}``); arrays used as hash keys
(``%w[A1 B2] => code``) are read as tuples. Values are shared between the constants that
refer to them: treat them as read-only.

>>> literal("{ white: { %w[A1 B2] => 'city=revenue:0', ['C3'] => '' }, 'n' => 1_000 }")
{Symbol('white'): {('A1', 'B2'): 'city=revenue:0', ('C3',): ''}, 'n': 1000}
>>> literal("X = %i[a b].freeze\\n[*X, 'c' 'd', :\\"e f\\"]")
[Symbol('a'), Symbol('b'), 'cd', Symbol('e f')]
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypeAlias, TypeGuard

import tree_sitter
import tree_sitter_ruby

from tilelay.errors import NotDataError, RubySyntaxError

__all__ = [
    "GameObject",
    "Key",
    "ModuleRef",
    "Problem",
    "Program",
    "Range",
    "RubyFile",
    "Symbol",
    "Value",
    "literal",
    "parse",
]

Node: TypeAlias = tree_sitter.Node


class ModuleRef(str):
    """A reference to a module or class (``G18ZOO::Meta``): a ``str`` holding its full name.

    >>> literal("module A; module B; end; X = B; end; A::X")
    ModuleRef('A::B')
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return f"ModuleRef({str.__repr__(self)})"


class Symbol(str):
    """A Ruby symbol (``:yellow``): a ``str`` holding its name.

    >>> Symbol("yellow") == "yellow", repr(Symbol("yellow"))
    (True, "Symbol('yellow')")
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return f"Symbol({str.__repr__(self)})"


@dataclass(frozen=True, slots=True)
class Range:
    """A Ruby range of data (``1..3``; ``exclusive`` for ``1...3``)."""

    first: Value
    last: Value
    exclusive: bool = False


Key: TypeAlias = "bool | int | float | str | Range | tuple[Key, ...] | None"
"""A hash key: a value, with arrays read as tuples."""

Value: TypeAlias = (
    "bool | int | float | str | Range | tuple[Key, ...] | list[Value] | dict[Key, Value] | None"
)
"""What a Ruby literal reads as."""


@dataclass(frozen=True, slots=True)
class Problem:
    """A constant that could not be read as data: where, which and why.

    >>> str(Problem("g_x/map.rb", 12, "Engine::Game::GX::Map::HEXES", "calls method build"))
    'g_x/map.rb:12: Engine::Game::GX::Map::HEXES: calls method build'
    """

    source: str
    line: int
    constant: str
    message: str

    def __str__(self) -> str:
        return f"{self.source}:{self.line}: {self.constant}: {self.message}"

    @classmethod
    def of(cls, err: NotDataError) -> Problem:
        """The problem an error describes."""
        return cls(err.source or "", err.line or 0, err.constant, err.message)


# ---------------------------------------------------------------------- parsing

_LANGUAGE: tree_sitter.Language | None = None


def _parser() -> tree_sitter.Parser:
    global _LANGUAGE
    if _LANGUAGE is None:
        _LANGUAGE = tree_sitter.Language(tree_sitter_ruby.language())
    return tree_sitter.Parser(_LANGUAGE)


class RubyFile:
    """One parsed Ruby file: its ``name`` (for messages), ``source`` bytes and syntax ``tree``."""

    __slots__ = ("_heredocs", "name", "source", "tree")

    def __init__(self, name: str, source: bytes, tree: tree_sitter.Tree) -> None:
        self.name = name
        self.source = source
        self.tree = tree
        self._heredocs: dict[int, Node] | None = None

    def __repr__(self) -> str:
        return f"RubyFile({self.name!r})"

    @property
    def root(self) -> Node:
        """The syntax tree's root node."""
        return self.tree.root_node

    def text(self, node: Node) -> str:
        """The source text of ``node``."""
        return self.source[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def heredoc_body(self, beginning: Node) -> Node | None:
        """The body of the heredoc that ``beginning`` (``<<~ID``) starts.

        Bodies follow their line in the order of the beginnings on it, wherever the parser puts
        them in the tree, so the n-th beginning of the file owns the n-th body.
        """
        if self._heredocs is None:
            starts: list[Node] = []
            bodies: list[Node] = []
            stack = [self.root]
            while stack:  # only files that hold heredocs get here
                node = stack.pop()
                if node.type == "heredoc_beginning":
                    starts.append(node)
                elif node.type == "heredoc_body":
                    bodies.append(node)
                else:
                    stack.extend(node.children)
            starts.sort(key=lambda n: n.start_byte)
            bodies.sort(key=lambda n: n.start_byte)
            self._heredocs = {s.start_byte: b for s, b in zip(starts, bodies, strict=False)}
        return self._heredocs.get(beginning.start_byte)


def _line(node: Node) -> int:
    return node.start_point[0] + 1


def _first_error(root: Node) -> Node | None:
    """The first error node, narrowed to the innermost error inside it (an outer ``ERROR``
    often spans from the start of the enclosing ``module``)."""
    node = root
    found: Node | None = None
    while True:
        for child in node.children:
            if child.type == "ERROR" or child.is_missing or child.has_error:
                if child.type == "ERROR" or child.is_missing:
                    found = child
                node = child
                break
        else:
            return found if found is not None else (node if node is not root else None)


def parse(source: str | bytes | Path, name: str | None = None) -> RubyFile:
    """Parse Ruby ``source`` (text, bytes, or a file to read); ``name`` is used in messages.

    Raises :class:`~tilelay.errors.RubySyntaxError` naming the file and line of the first
    syntax error.

    >>> parse("X = [1,", name="x.rb")
    Traceback (most recent call last):
    ...
    tilelay.errors.RubySyntaxError: x.rb:1: syntax error: missing ']'
    """
    if isinstance(source, Path):
        name = name or str(source)
        data = source.read_bytes()
    else:
        data = source.encode() if isinstance(source, str) else source
    name = name or "<ruby>"
    tree = _parser().parse(data)
    if tree.root_node.has_error:
        bad = _first_error(tree.root_node)
        line = _line(bad) if bad is not None else tree.root_node.end_point[0] + 1
        if bad is not None and bad.is_missing:
            what = f"missing {bad.type!r}"
        elif bad is not None:
            near = data[bad.start_byte : bad.end_byte].decode("utf-8", "replace").strip()
            near = near.splitlines()[0][:40] if near else ""
            what = f"unexpected {near!r}" if near else "unexpected end of input"
        else:  # the whole file is one error: something opened is never closed
            what = "unexpected end of input (something opened is not closed)"
        raise RubySyntaxError(f"syntax error: {what}", source=name, line=line)
    return RubyFile(name, data, tree)


# ---------------------------------------------------------------------- modules


class _Def:
    """Where something is written: a node, its file and the lexical nesting there."""

    __slots__ = ("file", "line", "nesting", "node")

    def __init__(self, node: Node, file: RubyFile, nesting: tuple[str, ...]) -> None:
        self.node = node
        self.file = file
        self.nesting = nesting  # innermost first
        self.line = _line(node)


class _Module:
    __slots__ = (
        "changes",
        "consts",
        "includes",
        "is_class",
        "metas",
        "methods",
        "name",
        "singletons",
        "superclass",
    )

    def __init__(self, name: str) -> None:
        self.name = name
        self.is_class = False
        self.consts: dict[str, _Def] = {}
        self.methods: dict[str, _Def] = {}  # instance methods (def name), for reports
        self.singletons: dict[str, _Def] = {}  # the module's own methods (def self.name)
        self.changes: dict[str, list[_Def]] = {}  # statements changing a constant in place
        self.includes: list[_Def] = []  # in order: later ones come first among ancestors
        self.metas: list[_Def] = []  # ``include_meta(X)``: X's constants are copied in
        self.superclass: _Def | None = None


def _join(outer: str, name: str) -> str:
    return f"{outer}::{name}" if outer else name


_MUTATORS = frozenset(  # methods that change a hash or array in place (and any name!)
    {
        "update",
        "store",
        "delete",
        "delete_if",
        "keep_if",
        "clear",
        "replace",
        "push",
        "append",
        "prepend",
        "concat",
        "insert",
        "unshift",
        "shift",
        "pop",
    }
)
_SKIPPED = frozenset({"comment", "heredoc_body"})
_IDENTITY = frozenset({"freeze", "dup", "clone", "deep_freeze"})
#: The methods that filter a list or hash by a block.
_FILTERS = frozenset({"reject", "reject!", "select", "select!", "filter"})
#: The methods whose block :meth:`_Evaluator.block_call` runs (``map`` too).
_BLOCKS = _FILTERS | {"transform_keys", "transform_values"}

_ESCAPES = {
    "n": "\n",
    "t": "\t",
    "s": " ",
    "r": "\r",
    "0": "\0",
    "e": "\x1b",
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "v": "\v",
    "\n": "",
}


def _unescape(seq: str) -> str:
    """The character(s) a double-quoted escape sequence (``\\n``, ``\\u00e9``…) stands for."""
    body = seq[1:]
    if not body:
        return ""
    if body[0] == "u":
        hexes = body[2:-1].split() if body.startswith("u{") else [body[1:]]
        return "".join(chr(int(h, 16)) for h in hexes)
    if body[0] == "x":
        return chr(int(body[1:], 16))
    if body[0] in "01234567" and len(body) > 1:
        return chr(int(body, 8))
    return _ESCAPES.get(body[0], body)


def _unescape_single(text: str) -> str:
    """Single-quoted content: only ``\\\\`` and ``\\'`` are escapes."""
    if "\\" not in text:
        return text
    out: list[str] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text) and text[i + 1] in "\\'":
            out.append(text[i + 1])
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _int(text: str) -> int:
    if text.isdigit() and (len(text) == 1 or text[0] != "0"):
        return int(text)
    t = text.replace("_", "").lower()
    sign = -1 if t.startswith("-") else 1
    t = t.lstrip("+-")
    if t.startswith(("0x", "0b", "0o")):
        return sign * int(t, 0)
    if t.startswith("0d"):
        return sign * int(t[2:])
    if len(t) > 1 and t.startswith("0"):
        return sign * int(t[1:], 8)
    return sign * int(t)


def _key(value: Value) -> Key:
    if isinstance(value, list):
        return tuple(_key(v) for v in value)
    if isinstance(value, dict):
        raise TypeError("a hash as a hash key")
    return value


class GameObject(dict[Key, Value]):
    """An object of the game's given to a method's run as data (:meth:`Program.method_state`):
    its attributes by name (a tile: ``id``, ``name``), read as ``object.attr``."""

    __slots__ = ()


def _unkey(key: Key) -> Value:
    """A hash key as a value (an array key, a tuple here, is an array again)."""
    if isinstance(key, tuple):
        return [_unkey(k) for k in key]
    return key


def _to_s(value: Value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str | int | float):
        return str(value)
    raise TypeError(type(value).__name__)


class _NotData(Exception):
    """Raised inside evaluation; becomes a :class:`NotDataError` with the file and line."""

    def __init__(self, node: Node, message: str, error: NotDataError | None = None) -> None:
        super().__init__(message)
        self.node = node
        self.message = message
        self.error = error  # set when the problem lies in a constant referred to


_DESCRIBE = {
    "if": "a condition (if)",
    "unless": "a condition (unless)",
    "conditional": "a condition (?:)",
    "case": "a case expression",
    "method": "a method definition",
    "singleton_method": "a method definition",
    "lambda": "a lambda",
    "block": "a block",
    "do_block": "a block",
    "identifier": "a local variable or method call",
    "instance_variable": "an instance variable",
    "class_variable": "a class variable",
    "global_variable": "a global variable",
    "regex": "a regular expression",
    "self": "self",
}


class Program:
    """The modules, classes and constants of a set of Ruby files; constants read as data.

    ``missing(name)`` is called when a constant reference finds nothing (with the name as
    written, qualified by the module it was looked up in, e.g. ``G1867`` or
    ``Engine::Game::Base``); it may :meth:`add` more files and return ``True`` to have the
    lookup tried again.

    >>> p = Program()
    >>> p.add(parse('''
    ... module A
    ...   TILES = { '7' => 2 }.freeze
    ... end
    ... module B
    ...   module Map
    ...     include A
    ...     MORE = TILES.merge('8' => 1)
    ...   end
    ...   class Game
    ...     include Map
    ...   end
    ... end
    ... '''))
    >>> p.value("B::Game", "MORE")
    {'7': 2, '8': 1}
    >>> p.ancestors("B::Game")
    ['B::Game', 'B::Map', 'A']
    """

    def __init__(self, missing: Callable[[str], bool] | None = None) -> None:
        self._modules: dict[str, _Module] = {"": _Module("")}  # "" is the top level
        self._values: dict[tuple[str, str], Value | NotDataError] = {}
        self._evaluating: set[tuple[str, str]] = set()
        self._ancestors: dict[str, list[str]] = {}
        self._computing: set[str] = set()
        self._metas: dict[str, list[_Module]] = {}
        self._resolving_metas: set[str] = set()
        #: (module, constant) looked up through the module's meta modules now (a meta module
        #: that includes the module would otherwise be looked through without end)
        self._through_metas: set[tuple[str, str]] = set()
        self._missing = missing
        self.files: list[RubyFile] = []

    # ------------------------------------------------------------------ reading files

    def add(self, file: RubyFile) -> None:
        """Gather the modules, classes, includes and constants ``file`` defines."""
        self.files.append(file)
        self._ancestors.clear()
        self._metas.clear()
        self._collect(file, file.root, ())

    def _collect(self, file: RubyFile, body: Node, nesting: tuple[str, ...]) -> None:
        here = self._modules[nesting[0] if nesting else ""]
        for node in body.named_children:
            kind = node.type
            if kind in ("module", "class"):
                name_node = node.child_by_field_name("name")
                if name_node is None or name_node.type not in ("constant", "scope_resolution"):
                    continue
                qual = self._qualify(file, name_node, nesting)
                mod = self._modules.get(qual)
                if mod is None:
                    mod = self._modules[qual] = _Module(qual)
                inner = (qual, *nesting)
                if kind == "class":
                    mod.is_class = True
                    sup = node.child_by_field_name("superclass")
                    if sup is not None and sup.named_children and mod.superclass is None:
                        mod.superclass = _Def(sup.named_children[0], file, nesting)
                inner_body = node.child_by_field_name("body")
                if inner_body is not None:
                    self._collect(file, inner_body, inner)
            elif kind == "assignment":
                left = node.child_by_field_name("left")
                right = node.child_by_field_name("right")
                if left is not None and right is not None and left.type == "constant":
                    here.consts[file.text(left)] = _Def(right, file, nesting)
                    here.changes.pop(file.text(left), None)
                elif left is not None and left.type == "element_reference":
                    self._note_change(here, file, left.child_by_field_name("object"), node)
            elif (
                kind in ("call", "binary")
                and node.child_by_field_name("receiver" if kind == "call" else "left") is not None
            ):
                target = node.child_by_field_name("receiver" if kind == "call" else "left")
                if kind == "call":
                    method = node.child_by_field_name("method")
                    verb = file.text(method) if method is not None else ""
                    if not (verb in _MUTATORS or verb.endswith(("!", "="))):
                        continue  # LOCATION_NAMES.freeze on a line of its own changes nothing
                else:
                    operator = node.child_by_field_name("operator")
                    if operator is None or file.text(operator) != "<<":
                        continue
                self._note_change(here, file, target, node)
            elif kind == "method" and nesting:
                method_name = node.child_by_field_name("name")
                if method_name is not None:
                    here.methods[file.text(method_name)] = _Def(node, file, nesting)
            elif kind == "singleton_method" and nesting:
                method_name = node.child_by_field_name("name")
                owner = node.child_by_field_name("object")
                if method_name is not None and owner is not None and owner.type == "self":
                    here.singletons[file.text(method_name)] = _Def(node, file, nesting)
            elif kind == "call" and node.child_by_field_name("receiver") is None:
                method = node.child_by_field_name("method")
                args = node.child_by_field_name("arguments")
                if method is None or args is None or not nesting:
                    continue
                verb = file.text(method)
                if verb in ("include", "include_meta"):
                    for arg in args.named_children:
                        if arg.type in ("constant", "scope_resolution"):
                            ref = _Def(arg, file, nesting)
                            (here.metas if verb == "include_meta" else here.includes).append(ref)
            elif kind == "body_statement":
                self._collect(file, node, nesting)

    def _note_change(
        self, here: _Module, file: RubyFile, target: Node | None, statement: Node
    ) -> None:
        """Keep a statement of a module body that may change one of its constants in place
        (``LOCATION_NAMES.update(...)``, ``TILES['x'] = 1``, ``LIST << x``)."""
        if target is None or target.type != "constant":
            return
        name = file.text(target)
        if name in here.consts:
            nesting = here.consts[name].nesting
            here.changes.setdefault(name, []).append(_Def(statement, file, nesting))

    def _qualify(self, file: RubyFile, name_node: Node, nesting: tuple[str, ...]) -> str:
        if name_node.type == "constant":
            return _join(nesting[0] if nesting else "", file.text(name_node))
        scope = name_node.child_by_field_name("scope")
        name = name_node.child_by_field_name("name")
        tail = file.text(name) if name is not None else ""
        if scope is None:  # ::A
            return tail
        outer = self._find_module(scope, file, nesting)
        if outer is None:
            outer = _join(nesting[0] if nesting else "", file.text(scope).replace(" ", ""))
        return _join(outer, tail)

    def _find_module(self, node: Node, file: RubyFile, nesting: tuple[str, ...]) -> str | None:
        try:
            found = self._resolve(node, file, nesting, None)
        except _NotData:
            return None
        return found.name if isinstance(found, _Module) else None

    # ------------------------------------------------------------------ structure

    def modules(self) -> list[str]:
        """The full names of every module and class defined, in the order first seen."""
        return [name for name in self._modules if name]

    def has_module(self, name: str) -> bool:
        """Whether a module or class of that full name is defined."""
        return bool(name) and name in self._modules

    def is_class(self, name: str) -> bool:
        """Whether ``name`` is a class (not a module)."""
        mod = self._modules.get(name)
        return mod is not None and mod.is_class

    def superclass(self, name: str) -> str | None:
        """The full name of the superclass of class ``name``, when it is defined here."""
        mod = self._modules.get(name)
        if mod is None or mod.superclass is None:
            return None
        found = self._ref_module(mod.superclass, exclude=name)
        return found.name if found is not None else None

    def own_constants(self, name: str) -> list[str]:
        """The constants (not modules) that module ``name`` itself defines, in source order."""
        mod = self._modules.get(name)
        return list(mod.consts) if mod is not None else []

    def ancestors(self, name: str) -> list[str]:
        """Module ``name`` and its ancestors as Ruby orders them (includes, then superclass).

        Modules not defined here (an ``include`` of something never read) are left out.
        """
        done = self._ancestors.get(name)
        if done is not None:
            return done
        mod = self._modules.get(name)
        if mod is None:
            return []
        if name in self._computing:  # an include being resolved looks up through ``name``
            return [name]
        self._computing.add(name)
        try:
            sup_chain: list[str] = []
            if mod.superclass is not None:
                sup = self._ref_module(mod.superclass, exclude=name)
                if sup is not None and sup.name != name:
                    sup_chain = self.ancestors(sup.name)
            own: list[str] = []
            for ref in sorted(mod.includes + mod.metas, key=lambda r: (r.file.name, r.line)):
                target = self._ref_module(ref, exclude=None)
                if target is None or target.name == name:
                    target = self._ref_module(ref, exclude=self._leftmost(ref))
                if target is None or target.name == name:
                    continue
                block = [a for a in self.ancestors(target.name) if a not in own]
                own = [a for a in block if a not in sup_chain] + own
            chain = [name, *own, *sup_chain]
        finally:
            self._computing.discard(name)
        self._ancestors[name] = chain
        return chain

    def _leftmost(self, ref: _Def) -> str | None:
        """The module the first name of ``ref`` (``Game`` of ``Game::Meta``) resolves to.

        In Ruby, ``include Game::Meta`` inside ``G1889::Meta`` ran before ``G1889::Game``
        existed, so ``Game`` was ``Engine::Game``. Lookups happen here after every file is
        read, so an include that finds nothing or the module itself is resolved again without
        that first module, as Ruby saw it."""
        node = ref.node
        while node.type == "scope_resolution":
            scope = node.child_by_field_name("scope")
            if scope is None:
                return None
            node = scope
        found = self._find_module(node, ref.file, ref.nesting)
        return found

    def _ref_module(self, ref: _Def, exclude: str | None) -> _Module | None:
        try:
            found = self._resolve(ref.node, ref.file, ref.nesting, exclude)
        except _NotData:
            return None
        return found if isinstance(found, _Module) else None

    # ------------------------------------------------------------------ constants

    def _own(self, mod: _Module, name: str) -> _Module | tuple[str, str] | None:
        """What module ``mod`` itself holds under ``name``: a module or (owner, constant)."""
        if name in mod.consts:
            return (mod.name, name)
        sub = self._modules.get(_join(mod.name, name))
        if sub is not None:
            return sub
        metas = self._meta_modules(mod)
        key = (mod.name, name)
        if not metas or key in self._through_metas:
            return None
        self._through_metas.add(key)
        try:
            for meta in metas:  # include_meta copies their constants in
                found = self._inherited(meta, name)
                if found is not None:
                    return found
        finally:
            self._through_metas.discard(key)
        return None

    def _meta_modules(self, mod: _Module) -> list[_Module]:
        """The modules ``mod`` names in ``include_meta``, latest first (resolved once)."""
        if not mod.metas:
            return []
        done = self._metas.get(mod.name)
        if done is not None:
            return done
        if mod.name in self._resolving_metas:  # the references are being resolved
            return []
        self._resolving_metas.add(mod.name)
        try:
            metas = [self._ref_module(ref, exclude=None) for ref in reversed(mod.metas)]
        finally:
            self._resolving_metas.discard(mod.name)
        done = [m for m in metas if m is not None]
        self._metas[mod.name] = done
        return done

    def _inherited(self, mod: _Module, name: str) -> _Module | tuple[str, str] | None:
        for anc in self.ancestors(mod.name):
            found = self._own(self._modules[anc], name)
            if found is not None:
                return found
        return None

    def _resolve(
        self, node: Node, file: RubyFile, nesting: tuple[str, ...], exclude: str | None
    ) -> _Module | tuple[str, str]:
        """What a constant reference (``X``, ``A::X``, ``::X``) names."""
        if node.type == "constant":
            name = file.text(node)
            for attempt in range(2):
                for outer in nesting:
                    found = self._own(self._modules[outer], name)
                    if found is not None and not (
                        isinstance(found, _Module) and found.name == exclude
                    ):
                        return found
                if nesting:
                    for anc in self.ancestors(nesting[0])[1:]:
                        found = self._own(self._modules[anc], name)
                        if found is not None:
                            return found
                found = self._own(self._modules[""], name)
                if found is not None:
                    return found
                if attempt or self._missing is None or not self._missing(name):
                    break
            raise _NotData(node, f"unknown constant {name}")
        if node.type == "scope_resolution":
            scope = node.child_by_field_name("scope")
            name_node = node.child_by_field_name("name")
            if name_node is None:
                raise _NotData(node, "a scope without a name")
            name = file.text(name_node)
            if scope is None:
                outer_mod = self._modules[""]
            else:
                scoped = self._resolve(scope, file, nesting, exclude)
                if not isinstance(scoped, _Module):
                    raise _NotData(node, f"{file.text(scope)} is not a module")
                outer_mod = scoped
            for attempt in range(2):
                found = self._inherited(outer_mod, name)
                if found is not None:
                    return found
                qual = _join(outer_mod.name, name)
                if attempt or self._missing is None or not self._missing(qual):
                    break
            raise _NotData(node, f"unknown constant {_join(outer_mod.name, name)}")
        raise _NotData(node, f"{node.type} is not a constant")

    def defines(self, module: str, name: str) -> bool:
        """Whether ``module`` (or an ancestor of it) defines the constant ``name``."""
        mod = self._modules.get(module)
        return mod is not None and isinstance(self._inherited(mod, name), tuple)

    def where(self, module: str, name: str) -> tuple[str, str, int] | None:
        """``(owner module, file, line)`` of the definition ``module::name`` reads, if any."""
        mod = self._modules.get(module)
        found = self._inherited(mod, name) if mod is not None else None
        if not isinstance(found, tuple):
            return None
        d = self._modules[found[0]].consts[found[1]]
        return found[0], d.file.name, d.line

    def method_where(self, module: str, name: str) -> tuple[str, str, int] | None:
        """``(owner module, file, line)`` of the instance method ``name`` that ``module``
        (or its nearest ancestor) defines with ``def``, if any."""
        for anc in self.ancestors(module):
            d = self._modules[anc].methods.get(name)
            if d is not None:
                return anc, d.file.name, d.line
        return None

    def method_text(self, module: str, name: str) -> str | None:
        """The source of the instance method ``name`` that ``module`` (or its nearest
        ancestor) defines with ``def``, if any (for facts a game writes in code, read as
        text: what its method calls)."""
        for anc in self.ancestors(module):
            d = self._modules[anc].methods.get(name)
            if d is not None:
                return d.file.text(d.node)
        return None

    def constant_names(self, module: str) -> list[str]:
        """Every constant ``module`` can read as its own (``Module#constants``), no modules."""
        out: dict[str, None] = {}
        self._constant_names(module, out, set())
        return list(out)

    def _constant_names(self, module: str, out: dict[str, None], seen: set[str]) -> None:
        # ``seen``: the modules read already (sources where a module's meta module includes
        # the module itself would otherwise be read without end)
        seen.add(module)
        for anc in self.ancestors(module):
            mod = self._modules[anc]
            out.update(dict.fromkeys(mod.consts))
            for meta in self._meta_modules(mod):
                if meta.name not in seen:
                    self._constant_names(meta.name, out, seen)

    def value(self, module: str, name: str) -> Value:
        """The value of constant ``name`` as read in ``module`` (itself, then its ancestors).

        Raises ``KeyError`` when no such constant is defined and
        :class:`~tilelay.errors.NotDataError` when its value is not data.
        """
        mod = self._modules.get(module)
        found = self._inherited(mod, name) if mod is not None else None
        if not isinstance(found, tuple):
            raise KeyError(_join(module, name))
        return self._const(*found)

    def _const(self, owner: str, name: str) -> Value:
        key = (owner, name)
        done = self._values.get(key, self)
        if done is not self:
            if isinstance(done, NotDataError):
                raise done
            return done  # type: ignore[return-value]
        d = self._modules[owner].consts[name]
        full = _join(owner, name)
        if key in self._evaluating:
            raise NotDataError("refers to itself", constant=full, source=d.file.name, line=d.line)
        self._evaluating.add(key)
        result: Value | NotDataError
        where = d
        try:
            result = _Evaluator(self, d.file, d.nesting).value(d.node)
            for change in self._modules[owner].changes.get(name, ()):
                where = change
                result = _Evaluator(self, change.file, change.nesting).change(result, change.node)
        except _NotData as err:
            message = err.message
            if err.error is not None:
                message = f"{message}, which is not data ({err.error})"
            result = NotDataError(
                message, constant=full, source=where.file.name, line=_line(err.node)
            )
        finally:
            self._evaluating.discard(key)
        self._values[key] = result
        if isinstance(result, NotDataError):
            raise result
        return result

    def method_value(
        self,
        module: str,
        name: str,
        *,
        options: frozenset[str] = frozenset(),
        args: tuple[Value, ...] = (),
        players: int | None = None,
    ) -> Value:
        """What the instance method ``name`` of ``module`` returns when it only builds data:
        its statements run with local variables, the game's optional rules ``options`` on and
        every other option off (``@optional_rules&.include?(:x)``, ``x?`` predicates),
        ``self.class::X`` and ``super`` (the ancestor's method, or ``Base``'s
        ``game_trains`` → ``TRAINS``…) resolved, and filters by simple blocks
        (``list.reject! { |t| t[:name] == x }``); ``args`` are its parameters' values
        (``num_trains(train)``); ``players``, where given, is the number of players
        (``@players.size``; otherwise a count of the players is not data). Raises ``KeyError``
        when no such method is defined and :class:`~tilelay.errors.NotDataError` when it does
        more than that."""
        return self._run(module, name, options, args, players, None)

    def method_state(
        self,
        module: str,
        name: str,
        state: Mapping[str, Value],
        *,
        options: frozenset[str] = frozenset(),
    ) -> dict[str, Value]:
        """The game's instance variables ``state`` after the instance method ``name`` of
        ``module`` runs on them as :meth:`method_value` runs a method (with the optional
        rules ``options`` on), where it only builds data and filters them in place
        (``@tiles.reject! { |t| t.id == x }``: 1860's, 1870's, 1889's and 1893's
        ``optional_tiles``); their items may be :class:`GameObject` (``t.id``). Raises
        ``KeyError`` when no such method is defined and
        :class:`~tilelay.errors.NotDataError` when it does more than that."""
        after = {k: (list(v) if isinstance(v, list) else v) for k, v in state.items()}
        self._run(module, name, options, (), None, after)
        return after

    def _run(
        self,
        module: str,
        name: str,
        options: frozenset[str],
        args: tuple[Value, ...],
        players: int | None,
        state: dict[str, Value] | None,
    ) -> Value:
        """Run the instance method ``name`` of ``module`` as data (:meth:`method_value`,
        :meth:`method_state`)."""
        found = self._method(module, name, None)
        if found is None:
            raise KeyError(_join(module, name))
        owner, d = found
        try:
            evaluator = _MethodEvaluator(
                self, d.file, d.nesting, module, owner, name, options, players=players, state=state
            )
            return evaluator.run(d.node, args)
        except _NotData as err:
            message = err.message
            if err.error is not None:
                message = f"{message}, which is not data ({err.error})"
            raise NotDataError(
                message, constant=f"{owner}#{name}", source=d.file.name, line=_line(err.node)
            ) from None

    def _method(
        self, module: str, name: str, after: str | None, *, singleton: bool = False
    ) -> tuple[str, _Def] | None:
        """The nearest ancestor of ``module`` (after ``after``, when given) defining ``name``
        (a module method, ``def self.name``, with ``singleton``)."""
        seen = after is None
        for anc in self.ancestors(module):
            if not seen:
                seen = anc == after
                continue
            own = self._modules[anc]
            d = (own.singletons if singleton else own.methods).get(name)
            if d is not None:
                return anc, d
        return None

    def evaluate(self, node: Node, file: RubyFile, nesting: tuple[str, ...] = ()) -> Value:
        """The value of expression ``node`` of ``file`` as written inside ``nesting``
        (module full names, innermost first). Raises :class:`~tilelay.errors.NotDataError`."""
        try:
            return _Evaluator(self, file, nesting).value(node)
        except _NotData as err:
            message = err.message
            if err.error is not None:
                message = f"{message}, which is not data ({err.error})"
            raise NotDataError(message, source=file.name, line=_line(err.node)) from None


class _Evaluator:
    """Evaluates literal data within one file at one lexical nesting."""

    __slots__ = ("file", "nesting", "program")

    def __init__(self, program: Program, file: RubyFile, nesting: tuple[str, ...]) -> None:
        self.program = program
        self.file = file
        self.nesting = nesting

    def value(self, node: Node) -> Value:
        handler = _HANDLERS.get(node.type)
        if handler is None:
            what = _DESCRIBE.get(node.type, f"{node.type.replace('_', ' ')}")
            raise _NotData(node, f"{what} is not data")
        return handler(self, node)

    def _items(self, node: Node) -> list[Node]:
        return [c for c in node.named_children if c.type not in _SKIPPED]

    # ------------------------------------------------------------------ containers

    def pair(self, pair: Node) -> tuple[Key, Value]:
        """The key and value of a hash pair."""
        value_node = pair.child_by_field_name("value")
        if value_node is None:
            raise _NotData(pair, "a hash pair without a value is not data")
        return self.key(pair), self.value(value_node)

    def hash(self, node: Node) -> Value:
        out: dict[Key, Value] = {}
        for child in self._items(node):
            if child.type == "pair":
                key, value = self.pair(child)
                out[key] = value
            elif child.type == "hash_splat_argument" and child.named_children:
                other = self.value(child.named_children[0])
                if not isinstance(other, dict):
                    raise _NotData(child, "** of something that is not a hash")
                out.update(other)
            else:
                raise _NotData(child, f"{child.type.replace('_', ' ')} in a hash is not data")
        return out

    def key(self, pair: Node) -> Key:
        key = pair.child_by_field_name("key")
        if key is None:
            raise _NotData(pair, "a hash pair without a key")
        if key.type == "hash_key_symbol":
            return Symbol(self.file.text(key))
        value = self.value(key)
        separator = pair.child(1)
        arrow = separator is not None and separator.type == "=>"
        if not arrow and isinstance(value, str):  # 'a': 1 is a symbol key
            return Symbol(value)
        try:
            return _key(value)
        except TypeError as err:
            raise _NotData(key, f"{err} is not data") from None

    def array(self, node: Node) -> Value:
        out: list[Value] = []
        loose: dict[Key, Value] | None = None  # [a: 1, b: 2] holds one hash
        for child in self._items(node):
            if child.type == "pair":
                if loose is None:
                    loose = {}
                    out.append(loose)
                key, value = self.pair(child)
                loose[key] = value
            elif child.type == "splat_argument" and child.named_children:
                other = self.value(child.named_children[0])
                if not isinstance(other, list):
                    raise _NotData(child, "* of something that is not an array")
                out.extend(other)
            else:
                out.append(self.value(child))
        return out

    # ------------------------------------------------------------------ strings and symbols

    def pieces(self, node: Node, raw: bool) -> str:
        out: list[str] = []
        for child in node.named_children:
            kind = child.type
            if kind == "string_content":
                text = self.file.text(child)
                out.append(_unescape_single(text) if raw else text)
            elif kind == "escape_sequence":
                text = self.file.text(child)
                out.append(_unescape_single(text) if raw else _unescape(text))
            elif kind == "interpolation":
                out.append(self.interpolation(child))
            else:
                raise _NotData(child, f"{kind.replace('_', ' ')} in a string is not data")
        return "".join(out)

    def interpolation(self, node: Node) -> str:
        inner = [c for c in node.named_children if c.type != "comment"]
        if len(inner) != 1:
            raise _NotData(node, "an interpolation of several statements is not data")
        value = self.value(inner[0])
        try:
            return _to_s(value)
        except TypeError:
            raise _NotData(node, "an interpolation of a list, hash or range") from None

    def string(self, node: Node) -> Value:
        text = self.file.text(node)
        quote = text[:1]
        if (
            quote in ("'", '"')
            and len(text) > 1
            and text[-1] == quote
            and "\\" not in text
            and (quote == "'" or "#{" not in text)
        ):
            return text[1:-1]  # the common case: no escapes, no interpolation
        count = node.child_count
        if count == 2:  # '' or ""
            return ""
        opener = self.file.text(node.children[0]) if count else '"'
        raw = opener.startswith("'") or opener.startswith("%q")
        if count == 3:  # one piece: the common case, read directly
            inner = node.children[1]
            if inner.type == "string_content":
                text = self.file.text(inner)
                return _unescape_single(text) if raw else text
        return self.pieces(node, raw)

    def chained_string(self, node: Node) -> Value:
        parts: list[str] = []
        for child in self._items(node):
            value = self.value(child)
            if not isinstance(value, str):
                raise _NotData(child, "a non-string in a chain of strings")
            parts.append(value)
        return "".join(parts)

    def words(self, node: Node) -> Value:
        symbols = node.type == "symbol_array"
        out: list[Value] = []
        for child in self._items(node):
            text = self.pieces(child, raw=False)
            out.append(Symbol(text) if symbols else text)
        return out

    def simple_symbol(self, node: Node) -> Value:
        return Symbol(self.file.text(node)[1:])

    def delimited_symbol(self, node: Node) -> Value:
        opener = self.file.text(node.children[0]) if node.children else ':"'
        return Symbol(self.pieces(node, raw=opener.startswith(":'")))

    def heredoc(self, node: Node) -> Value:
        head = self.file.text(node)
        squiggly = head.startswith("<<~")
        ident = head[3:] if head[2:3] in ("~", "-") else head[2:]
        raw = ident.startswith("'")
        body = self.file.heredoc_body(node)
        if body is None:
            raise _NotData(node, "a heredoc without a body")
        mark = "\ue000"
        literal_parts: list[str] = []
        values: list[str] = []
        for child in body.named_children:
            kind = child.type
            if kind == "heredoc_end":
                break
            text = self.file.text(child)
            if kind == "heredoc_content" or raw:
                literal_parts.append(text)
            elif kind == "escape_sequence":
                literal_parts.append(mark)
                values.append(_unescape(text))
            elif kind == "interpolation":
                literal_parts.append(mark)
                values.append(self.interpolation(child))
            else:
                raise _NotData(child, f"{kind.replace('_', ' ')} in a heredoc is not data")
        text = "".join(literal_parts)
        text = text[text.index("\n") + 1 :] if "\n" in text else ""
        text = text[: text.rindex("\n") + 1] if "\n" in text else ""
        if squiggly:
            lines = text.split("\n")
            indents = [len(ln) - len(ln.lstrip(" \t")) for ln in lines if ln.strip(" \t")]
            cut = min(indents, default=0)
            text = "\n".join(ln[cut:] for ln in lines)
        if values:
            chunks = text.split(mark)
            text = chunks[0] + "".join(v + c for v, c in zip(values, chunks[1:], strict=False))
        return text

    # ------------------------------------------------------------------ scalars

    def integer(self, node: Node) -> Value:
        return _int(self.file.text(node))

    def float(self, node: Node) -> Value:
        return float(self.file.text(node).replace("_", ""))

    def nil(self, node: Node) -> Value:
        return None

    def true(self, node: Node) -> Value:
        return True

    def false(self, node: Node) -> Value:
        return False

    def unary(self, node: Node) -> Value:
        op = node.child_by_field_name("operator")
        operand = node.child_by_field_name("operand")
        if op is None or operand is None:
            raise _NotData(node, "an operator is not data")
        value = self.value(operand)
        sign = self.file.text(op)
        if sign in ("!", "not"):
            return not _truthy(value)
        if sign in ("-", "+") and isinstance(value, int | float) and not isinstance(value, bool):
            return -value if sign == "-" else value
        raise _NotData(node, f"the operator {sign} is not data")

    def parenthesized(self, node: Node) -> Value:
        inner = list(self._items(node))
        if len(inner) != 1:
            raise _NotData(node, "parentheses around several statements are not data")
        return self.value(inner[0])

    def range(self, node: Node) -> Value:
        begin = node.child_by_field_name("begin")
        end = node.child_by_field_name("end")
        op = node.child_by_field_name("operator")
        first = self.value(begin) if begin is not None else None
        last = self.value(end) if end is not None else None
        exclusive = op is not None and self.file.text(op) == "..."
        return Range(first, last, exclusive)

    # ------------------------------------------------------------------ references and operations

    def constant(self, node: Node) -> Value:
        found = self.program._resolve(node, self.file, self.nesting, None)
        if isinstance(found, _Module):
            return ModuleRef(found.name)
        try:
            return self.program._const(*found)
        except NotDataError as err:
            raise _NotData(node, f"refers to {_join(*found)}", err) from None

    def call(self, node: Node) -> Value:
        method = node.child_by_field_name("method")
        receiver = node.child_by_field_name("receiver")
        args = node.child_by_field_name("arguments")
        name = self.file.text(method) if method is not None else "call"
        if node.child_by_field_name("block") is not None:
            return self.block_call(node)
        arg_nodes = list(self._items(args)) if args is not None else []
        if receiver is None or receiver.type in ("constant", "scope_resolution", "self"):
            called = self.singleton(receiver, name)
            if called is not None:
                return self.singleton_call(node, called, name, arg_nodes)
        if receiver is None:
            raise _NotData(node, f"calls method {name}")
        if name == "map" and len(arg_nodes) == 1 and arg_nodes[0].type == "block_argument":
            return self.mapped(node, self.value(receiver), self.file.text(arg_nodes[0]))
        if name in _IDENTITY and not arg_nodes:
            return self.value(receiver)
        if name == "include?" and len(arg_nodes) == 1:
            container = self.value(receiver)
            if not isinstance(container, list | dict | str):
                raise _NotData(node, "include? on something that is not data")
            return self.value(arg_nodes[0]) in container
        if name == "slice" and len(arg_nodes) == 2:
            items = self.value(receiver)
            start, length = (self.value(a) for a in arg_nodes)
            if (
                isinstance(items, list | str)
                and isinstance(start, int)
                and isinstance(length, int)
                and start >= 0
                and length >= 0
            ):
                return items[start : start + length]
            raise _NotData(node, "slice of something that is not an array, or not by numbers")
        if name in ("start_with?", "end_with?") and len(arg_nodes) == 1:
            text, part = self.value(receiver), self.value(arg_nodes[0])
            if not (isinstance(text, str) and isinstance(part, str)):
                raise _NotData(node, f"{name} of something that is not a string")
            return text.startswith(part) if name == "start_with?" else text.endswith(part)
        if not arg_nodes and getattr(self, "state", None) is not None:
            # (an attribute of an object given to the run: a tile's id; there are such objects
            # only where a run is given the game's instance variables)
            found = self.value(receiver)
            if isinstance(found, GameObject) and name in found:
                return found[name]
        if name in ("size", "length") and not arg_nodes:
            sized = self.value(receiver)
            if not isinstance(sized, list | dict | str):
                raise _NotData(node, f"{name} of something that is not an array, hash or string")
            return len(sized)
        if name in ("keys", "values") and not arg_nodes:
            table = self.value(receiver)
            if not isinstance(table, dict):
                raise _NotData(node, f"{name} of something that is not a hash")
            return [_unkey(k) for k in table] if name == "keys" else list(table.values())
        if name == "uniq" and not arg_nodes:
            items = self.value(receiver)
            if not isinstance(items, list):
                raise _NotData(node, "uniq of something that is not an array")
            return [v for i, v in enumerate(items) if v not in items[:i]]
        if name == "to_a" and not arg_nodes:
            return self.range_list(node, self.value(receiver))
        if name == "zip" and arg_nodes:
            first = self.value(receiver)
            others: list[list[Value]] = []
            for arg in arg_nodes:
                other = self.value(arg)
                if not isinstance(other, list):
                    raise _NotData(node, "zip with something that is not an array")
                others.append(other)
            if not isinstance(first, list):
                raise _NotData(node, "zip of something that is not an array")
            # (as Ruby: as long as the receiver, nil where another array is shorter)
            return [
                [item, *(o[i] if i < len(o) else None for o in others)]
                for i, item in enumerate(first)
            ]
        if name == "merge":
            base = self.value(receiver)
            if not isinstance(base, dict):
                raise _NotData(node, "merge on something that is not a hash")
            return self.merged(base, arg_nodes, name)
        raise _NotData(node, f"calls method {name}")

    def mapped(self, node: Node, items: Value, block: str) -> Value:
        """``items.map(&:dup)`` (a copy), ``map(&:to_i)`` and ``map(&:to_s)`` of data."""
        text = block.replace(" ", "")
        if isinstance(items, list) and text in ("&:dup", "&:clone"):
            return list(items)
        if isinstance(items, list) and text in _MAPPED:
            try:
                return [_MAPPED[text](item) for item in items]
            except TypeError:
                raise _NotData(node, f"map({text}) of something that is not data") from None
        raise _NotData(node, f"calls map({text}) on something that is not an array")

    def frame(self) -> tuple[frozenset[str], int, int | None]:
        """The options in force, how deep in calls of methods, and the number of players
        (where known) of this evaluation: a constant's, none of them."""
        return frozenset(), 0, None

    def singleton(self, receiver: Node | None, name: str) -> tuple[str, _Def] | None:
        """The module method (``def self.name``) a call of ``name`` on ``receiver`` (none or
        ``self``: the module written in) names, if any."""
        program = self.program
        if receiver is None or receiver.type == "self":
            module = self.nesting[0] if self.nesting else ""
        else:
            try:
                found = program._resolve(receiver, self.file, self.nesting, None)
            except _NotData:
                return None
            if not isinstance(found, _Module):
                return None
            module = found.name
        if module not in program._modules:
            return None
        return program._method(module, name, None, singleton=True)

    def singleton_call(
        self, node: Node, called: tuple[str, _Def], name: str, arg_nodes: list[Node]
    ) -> Value:
        """What a module method that only builds data returns (1822 CA's ``merge_hexes``)."""
        owner, d = called
        args: list[Value] = []
        keywords: dict[Key, Value] | None = None
        for a in arg_nodes:
            if a.type == "pair":  # name: value
                key, value = self.pair(a)
                keywords = {} if keywords is None else keywords
                keywords[key] = value
            elif a.type == "hash_splat_argument" and a.named_children:  # **hash
                other = self.value(a.named_children[0])
                if not isinstance(other, dict):
                    raise _NotData(a, "** of something that is not a hash")
                keywords = {} if keywords is None else keywords
                keywords.update(other)
            else:
                args.append(self.value(a))
        return self.called(node, owner, owner, d, name, tuple(args), ".", keywords)

    def called(
        self,
        node: Node,
        klass: str,
        owner: str,
        d: _Def,
        name: str,
        args: tuple[Value, ...],
        joiner: str,
        keywords: dict[Key, Value] | None = None,
        wanted: str | None = None,
    ) -> Value:
        """What the method ``name`` (``d``, of ``owner``, run for ``klass``; named
        ``owner + joiner + name`` in reports) returns called here (``node``) with ``args``
        (and ``keywords``, the ``name: value`` arguments), where it only builds data; the
        options and the depth of calls are this evaluation's. With ``wanted`` (an instance
        variable, :meth:`_MethodEvaluator.ivar`), the run stops at its assignment, raising
        :class:`_Assigned` with the value."""
        options, depth, players = self.frame()
        shown = f"{owner}{joiner}{name}"
        what = f"reads {wanted}" if wanted is not None else f"calls method {name}"
        if depth >= _HELPER_DEPTH:
            raise _NotData(node, what)
        inner = _MethodEvaluator(
            self.program,
            d.file,
            d.nesting,
            klass,
            owner,
            name,
            options,
            depth + 1,
            players,
            getattr(self, "state", None),
        )
        inner.wanted = wanted
        try:
            return inner.run(d.node, args, keywords)
        except _NotData as err:
            line = _line(err.node)
            error = NotDataError(err.message, constant=shown, source=d.file.name, line=line)
            raise _NotData(node, what, error) from None

    def block_call(self, node: Node) -> Value:
        """A block on data: ``list.reject { |x| test }``, ``select`` and ``filter`` (``!`` too),
        the same on a hash with ``|key, value|`` (the items the block's one statement keeps:
        ``G18LosAngeles``' tiles, each 18ZOO map's corporations), ``list.map { |x| value }``
        (``G18LosAngeles1``'s companies: ``X[c[:sym]] || c``) and ``map(&:dup)``. The block's
        statement is evaluated as data with its parameters bound (:meth:`in_block`)."""
        method = node.child_by_field_name("method")
        receiver = node.child_by_field_name("receiver")
        block = node.child_by_field_name("block")
        name = self.file.text(method) if method is not None else ""
        if name == "with_index" and receiver is not None and block is not None:
            return self.map_with_index(node, receiver, block)
        if receiver is None or block is None or (name not in _BLOCKS and name != "map"):
            raise _NotData(node, f"calls {name} with a block")
        items = self.value(receiver)
        if block.type == "block_argument":
            if name == "map":
                return self.mapped(node, items, self.file.text(block))
            raise _NotData(node, f"calls {name} with a block")
        params = [c for c in block.named_children if c.type == "block_parameters"]
        body = [c for c in block.named_children if c.type in ("block_body", "body_statement")]
        names = [self.file.text(c) for c in params[0].named_children] if params else []
        statements = self._items(body[0]) if body else []
        if name == "map" and isinstance(items, list) and len(names) == 1 and len(body) == 1:
            return [self.run_block(node, body[0], {names[0]: item}) for item in items]
        if len(statements) != 1:
            raise _NotData(node, f"calls {name} with a block of several statements")
        statement = statements[0]
        if name in ("transform_keys", "transform_values"):
            # a hash with each key (or value) the block's value of it (18MEX's and 1860's
            # maps without some hexes: coords - OPTION_REMOVE_HEXES)
            if not isinstance(items, dict) or len(names) != 1:
                raise _NotData(node, f"{name} of something that is not a hash")
            if name == "transform_values":
                return {k: self.in_block(statement, {names[0]: v}) for k, v in items.items()}
            try:
                return {
                    _key(self.in_block(statement, {names[0]: _unkey(k)})): v
                    for k, v in items.items()
                }
            except TypeError:
                raise _NotData(node, "transform_keys to a hash key that is a hash") from None
        keep = not name.startswith("reject")
        if isinstance(items, list) and len(names) == 1 and name != "map":
            return [item for item in items if self.passes(statement, {names[0]: item}) == keep]
        if isinstance(items, dict) and len(names) == 2 and name != "map":
            return {
                k: v
                for k, v in items.items()
                if self.passes(statement, {names[0]: k, names[1]: v}) == keep
            }
        raise _NotData(node, f"{name} with {len(names)} block parameters on this value")

    def map_with_index(self, node: Node, receiver: Node, block: Node) -> Value:
        """``list.map.with_index do |item, index| … end`` (1854's local railways)."""
        method = receiver.child_by_field_name("method")
        inner = receiver.child_by_field_name("receiver")
        if (
            receiver.type != "call"
            or method is None
            or self.file.text(method) != "map"
            or inner is None
            or receiver.child_by_field_name("arguments") is not None
            or block.type == "block_argument"
        ):
            raise _NotData(node, "calls with_index with a block on something but map")
        items = self.value(inner)
        params = [c for c in block.named_children if c.type == "block_parameters"]
        body = [c for c in block.named_children if c.type in ("block_body", "body_statement")]
        names = [self.file.text(c) for c in params[0].named_children] if params else []
        if not isinstance(items, list) or len(names) != 2 or len(body) != 1:
            raise _NotData(node, "map.with_index of something but an array, by |item, index|")
        return [
            self.run_block(node, body[0], {names[0]: item, names[1]: i})
            for i, item in enumerate(items)
        ]

    def run_block(self, node: Node, body: Node, bindings: dict[str, Value]) -> Value:
        """A block's statements run with its parameters bound (the last one's value), as a
        method's that only builds data (local variables, ``a, b = list``)."""
        statements = self._items(body)
        if len(statements) == 1:
            return self.in_block(statements[0], bindings)
        runner = self.block_runner()
        runner.locals.update(bindings)
        try:
            return runner.statements(statements)
        except _Return:
            raise _NotData(node, "a block that returns") from None

    def block_runner(self) -> _MethodEvaluator:
        """What runs a block of several statements: a method's evaluation (a constant's
        block sees no local variables)."""
        module = self.nesting[0] if self.nesting else ""
        return _MethodEvaluator(
            self.program, self.file, self.nesting, module, module, "(block)", frozenset()
        )

    def passes(self, statement: Node, bindings: dict[str, Value]) -> bool:
        """Whether a block's statement holds with its parameters bound (Ruby's truth: all but
        ``nil`` and ``false``)."""
        return _truthy(self.in_block(statement, bindings))

    def in_block(self, statement: Node, bindings: dict[str, Value]) -> Value:
        """The value of a block's statement with its parameters bound."""
        return _Block(self.program, self.file, self.nesting, bindings).value(statement)

    def range_list(self, node: Node, value: Value) -> Value:
        """``(1..3).to_a`` and ``('A'..'E').to_a``: ranges of integers or of single letters."""
        if not isinstance(value, Range):
            raise _NotData(node, "to_a of something that is not a range")
        first, last = value.first, value.last
        end = 0 if value.exclusive else 1
        if isinstance(first, int) and isinstance(last, int) and not isinstance(first, bool):
            return list(range(first, int(last) + end))
        if isinstance(first, str) and isinstance(last, str) and len(first) == len(last) == 1:
            return [chr(c) for c in range(ord(first), ord(last) + end)]
        raise _NotData(node, "to_a of a range that is not of integers or letters")

    def element(self, node: Node) -> Value:
        """``HASH[key]`` (``nil`` when absent, as Ruby) and ``ARRAY[index]``."""
        obj = node.child_by_field_name("object")
        args = [c for c in self._items(node) if obj is None or c.id != obj.id]
        if obj is None or len(args) != 1:
            raise _NotData(node, "an element reference ([]) with several indexes is not data")
        container = self.value(obj)
        index = self.value(args[0])
        if isinstance(container, _Defaults):
            key = _key(index)
            if key not in container:
                container[key] = container.make()
            return container[key]
        if isinstance(container, dict):
            try:
                return container.get(_key(index))
            except TypeError:
                raise _NotData(node, "a hash as an index") from None
        if isinstance(container, list) and isinstance(index, int) and not isinstance(index, bool):
            return container[index] if -len(container) <= index < len(container) else None
        raise _NotData(node, "an element reference ([]) into something not a hash or array")

    def merged(self, base: dict[Key, Value], arg_nodes: list[Node], name: str) -> Value:
        """A copy of ``base`` merged with the hashes ``arg_nodes`` give (bare ``a: 1``
        pairs among them are one hash, as Ruby passes them)."""
        merged = dict(base)
        loose: dict[Key, Value] = {}
        for arg in arg_nodes:
            if arg.type == "pair":
                value_node = arg.child_by_field_name("value")
                if value_node is None:
                    raise _NotData(arg, "a hash pair without a value is not data")
                loose[self.key(arg)] = self.value(value_node)
                continue
            other = self.value(arg)
            if not isinstance(other, dict):
                raise _NotData(arg, f"{name} with something that is not a hash")
            merged.update(other)
        merged.update(loose)
        return merged

    def change(self, value: Value, node: Node) -> Value:
        """``value`` after a statement that changes a constant in place: ``X.update(h)`` and
        ``X.merge!(h)`` with data are read as a merge (into a copy: values are shared);
        anything else makes the constant not data."""
        method = node.child_by_field_name("method") if node.type == "call" else None
        name = self.file.text(method) if method is not None else ""
        if name in ("update", "merge!") and isinstance(value, dict):
            args = node.child_by_field_name("arguments")
            return self.merged(value, self._items(args) if args is not None else [], name)
        what = f"{name}" if name else self.file.text(node).split("\n")[0][:40]
        raise _NotData(node, f"changed in place by {what}, which is not data")

    def binary(self, node: Node) -> Value:
        op_node = node.child_by_field_name("operator")
        left_node = node.child_by_field_name("left")
        right_node = node.child_by_field_name("right")
        op = self.file.text(op_node) if op_node is not None else "?"
        if left_node is None or right_node is None:
            raise _NotData(node, f"the operator {op} is not data")
        if op in ("==", "!="):
            return (self.value(left_node) == self.value(right_node)) == (op == "==")
        if op in ("&&", "and"):
            first = self.value(left_node)
            return self.value(right_node) if _truthy(first) else first
        if op in ("||", "or"):
            first = self.value(left_node)
            return first if _truthy(first) else self.value(right_node)
        if op not in ("+", "-", "*", "<", "<=", ">", ">="):
            raise _NotData(node, f"the operator {op} is not data")
        left = self.value(left_node)
        right = self.value(right_node)
        # (an array that was a hash key, a tuple here, is an array: coords - REMOVED)
        if isinstance(left, tuple):
            left = _unkey(left)
        if isinstance(right, tuple):
            right = _unkey(right)
        if op not in ("+", "-"):
            # comparisons and products of numbers (18xx.games counts trains by the players:
            # ``@players.size < 4``, ``num_players + 4``)
            if not (_is_number(left) and _is_number(right)):
                raise _NotData(node, f"{op} on something that is not a number")
            return _NUMBER_OPERATORS[op](left, right)
        if isinstance(left, list) and isinstance(right, list):
            if op == "+":
                return left + right
            return [v for v in left if v not in right]
        if op == "+" and isinstance(left, str) and isinstance(right, str):
            return left + right
        if _is_number(left) and _is_number(right):
            return left + right if op == "+" else left - right
        raise _NotData(node, f"{op} on {type(left).__name__} and {type(right).__name__}")


#: The operators on two numbers besides + and - (``@players.size < 4``, ``n * 2``).
_NUMBER_OPERATORS: dict[str, Callable[[float, float], Value]] = {
    "*": operator.mul,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


def _to_i(value: Value) -> Value:
    """Ruby's ``to_i`` of a string or a number (the leading digits; 0 where none)."""
    if type(value) is int:
        return value
    if type(value) is not str:
        raise TypeError(value)
    digits = re.match(r"\s*([-+]?[0-9]+(?:_[0-9]+)*)", value)
    return int(digits.group(1).replace("_", "")) if digits else 0


#: ``list.map(&:name)`` that read data (``plus_name.split('+').map(&:to_i)``: 1868 Wyoming's
#: trains).
_MAPPED: dict[str, Callable[[Value], Value]] = {"&:to_i": _to_i, "&:to_s": _to_s}


def _is_number(value: Value) -> TypeGuard[int | float]:
    """Whether ``value`` is a whole or decimal number (``true`` and ``false`` are not)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def _truthy(value: Value) -> bool:
    """Ruby's truth: everything but ``nil`` and ``false``."""
    return value is not None and value is not False


class _Block(_Evaluator):
    """Evaluates a block's statement (:meth:`_Evaluator.block_call`) with its parameters
    bound; everything else as literal data."""

    __slots__ = ("bindings",)

    def __init__(
        self,
        program: Program,
        file: RubyFile,
        nesting: tuple[str, ...],
        bindings: dict[str, Value],
    ) -> None:
        super().__init__(program, file, nesting)
        self.bindings = bindings

    def value(self, node: Node) -> Value:
        if node.type == "identifier":
            name = self.file.text(node)
            if name in self.bindings:
                return self.bindings[name]
            raise _NotData(node, f"calls method {name}")
        return super().value(node)


class _Return(Exception):
    def __init__(self, value: Value) -> None:
        self.value = value


class _Assigned(Exception):
    """The value of the instance variable a run was for (:meth:`_MethodEvaluator.ivar`)."""

    def __init__(self, value: Value) -> None:
        self.value = value


#: The engine's ``Base`` data methods and the constant each returns.
_BASE_DATA_METHODS = {
    "game_trains": "TRAINS",
    "game_phases": "PHASES",
    "game_corporations": "CORPORATIONS",
    "game_minors": "MINORS",
    "game_companies": "COMPANIES",
    "game_hexes": "HEXES",
    "game_tiles": "TILES",
    "game_location_names": "LOCATION_NAMES",
    "game_market": "MARKET",
}


#: How deep methods may call one another (:meth:`_Evaluator.called`).
_HELPER_DEPTH = 8


class _MethodEvaluator(_Evaluator):
    """Runs a method that only builds data (see :meth:`Program.method_value`)."""

    __slots__ = (
        "args",
        "depth",
        "fresh",
        "klass",
        "locals",
        "method",
        "options",
        "owner",
        "players",
        "state",
        "wanted",
    )

    def __init__(
        self,
        program: Program,
        file: RubyFile,
        nesting: tuple[str, ...],
        klass: str,
        owner: str,
        method: str,
        options: frozenset[str],
        depth: int = 0,
        players: int | None = None,
        state: dict[str, Value] | None = None,
    ) -> None:
        super().__init__(program, file, nesting)
        self.klass = klass
        self.owner = owner
        self.method = method
        self.options = options
        self.depth = depth
        #: the number of players, where known (``@players.size``)
        self.players = players
        self.locals: dict[str, Value] = {}
        #: the hashes this method made (``Hash.new``), which it may change in place
        self.fresh: set[int] = set()
        #: the values the method was called with (a bare ``super`` passes them on)
        self.args: tuple[Value, ...] = ()
        #: the instance variable whose assignment this run is for (:meth:`ivar`), if any
        self.wanted: str | None = None
        #: the game's instance variables given to the run (:meth:`Program.method_state`),
        #: shared with the methods it calls, which may filter them in place
        self.state = state

    def run(
        self,
        method_node: Node,
        args: tuple[Value, ...] = (),
        keywords: dict[Key, Value] | None = None,
    ) -> Value:
        self.args = args
        self.bind(method_node, list(args), dict(keywords) if keywords is not None else None)
        body = next((c for c in method_node.named_children if c.type == "body_statement"), None)
        if body is None:
            return None
        try:
            result = self.statements(self._items(body))
        except _Return as done:
            result = done.value
        # (a hash made with a default is plain data once returned: a later read of a key it
        # lacks must not add one)
        return dict(result) if isinstance(result, _Defaults) else result

    def bind(self, method_node: Node, args: list[Value], keywords: dict[Key, Value] | None) -> None:
        """The method's parameters bound to ``args`` and ``keywords`` as Ruby binds them:
        names, then ``name = default``, a ``*list``, ``name:`` and ``name: default``, a
        ``**hash`` (a method without keyword parameters takes the keywords as a last hash)."""
        params = method_node.child_by_field_name("parameters")
        items = [] if params is None else params.named_children
        named: list[tuple[str, Node | None]] = []  # positional: name, default
        rest: str | None = None  # *list: the values left
        wanted: list[tuple[str, Node | None]] = []  # keyword: name, default
        more: str | None = None  # **hash: the keywords left
        for param in items:
            t = param.type
            name_node = param.child_by_field_name("name")
            name = self.file.text(name_node) if name_node is not None else None
            if t == "identifier" and rest is None:
                named.append((self.file.text(param), None))
            elif t == "optional_parameter" and name is not None and rest is None:
                named.append((name, param.child_by_field_name("value")))
            elif t == "splat_parameter" and name is not None and rest is None:
                rest = name
            elif t == "keyword_parameter" and name is not None:
                wanted.append((name, param.child_by_field_name("value")))
            elif t == "hash_splat_parameter" and name is not None:
                more = name
            else:
                raise _NotData(
                    method_node,
                    "takes parameters other than names, defaults, a *list, keywords and a **hash",
                )
        if keywords is not None and not wanted and more is None:
            args = [*args, keywords]  # (Ruby: the keywords as a last hash)
            keywords = None
        required = sum(1 for _, default in named if default is None)
        if len(args) < required or (rest is None and len(args) > len(named)):
            raise _NotData(method_node, f"takes other parameters than {len(args)} values")
        optional = len(args) - required  # the defaults given a value, in order
        given = iter(args)
        for name, default in named:
            if default is None or optional > 0:
                if default is not None:
                    optional -= 1
                self.locals[name] = next(given)
            else:
                self.locals[name] = self.value(default)
        if rest is not None:
            self.locals[rest] = list(given)
        left = dict(keywords) if keywords is not None else {}
        for name, default in wanted:
            key = Symbol(name)
            if key in left:
                self.locals[name] = left.pop(key)
            elif default is not None:
                self.locals[name] = self.value(default)
            else:
                raise _NotData(method_node, f"called without its keyword {name}:")
        if more is not None:
            self.fresh.add(id(left))  # (its own: delete may change it)
            self.locals[more] = left
        elif left:
            raise _NotData(method_node, f"called with the unknown keyword {next(iter(left))}:")

    def statements(self, nodes: list[Node]) -> Value:
        result: Value = None
        for node in nodes:
            result = self.statement(node)
        return result

    def statement(self, node: Node) -> Value:
        t = node.type
        if t in ("if_modifier", "unless_modifier"):
            body = node.child_by_field_name("body")
            cond = node.child_by_field_name("condition")
            if body is None or cond is None:
                raise _NotData(node, "a condition without a body")
            if self.truth(cond) == (t == "if_modifier"):
                return self.statement(body)
            return None
        if t == "return":
            args = [c for c in node.named_children if c.type == "argument_list"]
            items = self._items(args[0]) if args else []
            raise _Return(self.value(items[0]) if items else None)
        if t == "assignment":
            left = node.child_by_field_name("left")
            right = node.child_by_field_name("right")
            if left is not None and right is not None and left.type == "left_assignment_list":
                # a, b, c = list: each its item (nil past the list's end)
                targets = left.named_children
                if not all(c.type == "identifier" for c in targets):
                    raise _NotData(node, "an assignment to something other than local variables")
                value = self.value(right)
                if not isinstance(value, list):
                    raise _NotData(node, "a, b = something that is not an array")
                for i, target in enumerate(targets):
                    self.locals[self.file.text(target)] = value[i] if i < len(value) else None
                return value
            if (
                left is not None
                and right is not None
                and left.type == "instance_variable"
                and self.file.text(left) == self.wanted
            ):
                raise _Assigned(self.value(right))  # (what ivar asked for)
            if left is not None and right is not None and left.type == "element_reference":
                return self.store(node, left, self.value(right))
            if left is None or right is None or left.type not in ("identifier",):
                raise _NotData(node, "an assignment to something other than a local variable")
            value = self.value(right)
            self.locals[self.file.text(left)] = value
            return value
        if t == "operator_assignment":
            left = node.child_by_field_name("left")
            right = node.child_by_field_name("right")
            op_node = node.child_by_field_name("operator")
            op = self.file.text(op_node) if op_node is not None else ""
            if left is None or right is None:
                raise _NotData(node, "an assignment without sides")
            if op == "||=" and left.type == "instance_variable":
                return self.value(right)  # a memo: its value
            if left.type != "identifier" or op not in ("+=", "-="):
                raise _NotData(node, f"the assignment {op} is not data")
            name = self.file.text(left)
            old = self.locals.get(name)
            new = self.value(right)
            changed: Value
            if isinstance(old, list) and isinstance(new, list):
                changed = old + new if op == "+=" else [v for v in old if v not in new]
            elif op == "+=" and type(old) is str and type(new) is str:
                changed = old + new
            else:
                raise _NotData(node, f"{op} on something that is not an array or a string")
            self.locals[name] = changed
            return changed
        if t in ("if", "unless"):
            return self.branch(node)
        if t == "call" and node.child_by_field_name("block") is not None:
            return self.block_call(node)
        if t == "binary":
            op_node = node.child_by_field_name("operator")
            left = node.child_by_field_name("left")
            right = node.child_by_field_name("right")
            if op_node is not None and self.file.text(op_node) == "<<" and right is not None:
                # list << item on a local array (a copy bound again: the array may be data
                # a constant holds)
                name = self.file.text(left) if left is not None else ""
                old = (
                    self.locals.get(name)
                    if left is not None and left.type == "identifier"
                    else None
                )
                if not isinstance(old, list):
                    raise _NotData(node, "<< on something that is not a local array")
                self.locals[name] = [*old, self.value(right)]
                return self.locals[name]
        return self.value(node)

    def branch(self, node: Node) -> Value:
        """An ``if`` (its ``elsif``\\ s and ``else``) or ``unless`` statement on the options."""
        cond = node.child_by_field_name("condition")
        if cond is None:
            raise _NotData(node, "a condition without a test")
        taken = self.truth(cond) == (node.type != "unless")
        part = node.child_by_field_name("consequence" if taken else "alternative")
        if part is None:
            return None
        if part.type == "elsif":
            return self.branch(part)
        return self.statements(self._items(part))

    def truth(self, node: Node) -> bool:
        """A condition: tests of the game's options (its own, such as 1824's
        ``option_goods_time``, too) and their combinations, local variables, and tests of
        data (``train[:name] == '6'``)."""
        t = node.type
        text = self.file.text(node)
        if t == "parenthesized_statements":
            inner = self._items(node)
            if len(inner) == 1:
                return self.truth(inner[0])
        if t == "unary" and text.lstrip().startswith(("!", "not")):
            operand = node.child_by_field_name("operand")
            if operand is not None:
                return not self.truth(operand)
        if t == "binary":
            op_node = node.child_by_field_name("operator")
            op = self.file.text(op_node) if op_node is not None else ""
            left = node.child_by_field_name("left")
            right = node.child_by_field_name("right")
            if op in ("&&", "and") and left is not None and right is not None:
                return self.truth(left) and self.truth(right)
            if op in ("||", "or") and left is not None and right is not None:
                return self.truth(left) or self.truth(right)
        if t == "call":
            method = node.child_by_field_name("method")
            receiver = node.child_by_field_name("receiver")
            name = self.file.text(method) if method is not None else ""
            if receiver is not None and name == "include?":
                target = self.file.text(receiver)
                if target in ("@optional_rules", "optional_rules"):
                    args = node.child_by_field_name("arguments")
                    items = self._items(args) if args is not None else []
                    if len(items) == 1:
                        option = self.value(items[0])
                        return isinstance(option, str) and str(option) in self.options
        if t == "identifier" and text in self.locals:
            return _truthy(self.locals[text])
        if t == "identifier" or (
            t == "call"
            and node.child_by_field_name("receiver") is None
            and node.child_by_field_name("arguments") is None
        ):
            name = self.file.text(node.child_by_field_name("method") or node)
            try:  # the game's own test (1824's option_goods_time)
                value = self.helper(node, name)
            except _NotData:
                if not (text.endswith("?") and "(" not in text):
                    raise
                return False  # an option predicate (cotton_port?) that is not data: off
            return _truthy(value)
        if t == "call" and text.endswith("?") and "(" not in text:
            return False  # an option predicate (cotton_port?): off
        if t == "binary" or t == "element_reference":
            # a test of data (``train[:name] == '6'``): Ruby's truth (all but nil and false)
            try:
                value = self.value(node)
            except _NotData:
                pass
            else:
                return _truthy(value)
        raise _NotData(node, f"the condition {text[:40]} is not a test of the game's options")

    def value(self, node: Node) -> Value:
        t = node.type
        if t == "identifier":
            name = self.file.text(node)
            if name in self.locals:
                return self.locals[name]
            if name.endswith("?"):
                return self.truth(node)
            return self.helper(node, name)
        if t == "conditional":
            cond = node.child_by_field_name("condition")
            yes = node.child_by_field_name("consequence")
            no = node.child_by_field_name("alternative")
            if cond is None or yes is None or no is None:
                raise _NotData(node, "an incomplete condition")
            return self.value(yes if self.truth(cond) else no)
        if t == "super":
            return self.super_value(node)
        if t == "instance_variable":
            return self.ivar(node, self.file.text(node))
        if t == "case":
            return self.case(node)
        if t == "scope_resolution":
            scope = node.child_by_field_name("scope")
            name_node = node.child_by_field_name("name")
            if (
                scope is not None
                and name_node is not None
                and self.file.text(scope).replace(" ", "") == "self.class"
            ):
                constant = self.file.text(name_node)
                try:
                    return self.program.value(self.klass, constant)
                except KeyError:
                    raise _NotData(node, f"no constant {constant}") from None
                except NotDataError as err:
                    raise _NotData(node, f"refers to {constant}", err) from None
        if t == "call":
            return self.call_value(node)
        return super().value(node)

    def frame(self) -> tuple[frozenset[str], int, int | None]:
        return self.options, self.depth, self.players

    def case(self, node: Node) -> Value:
        """``case value when a, b then … else … end`` on data (1846's train counts)."""
        subject_node = node.child_by_field_name("value")
        if subject_node is None:
            raise _NotData(node, "a case without a value")
        subject = self.value(subject_node)
        for part in node.named_children:
            if part.type == "when":
                patterns = [c for c in part.named_children if c.type == "pattern"]
                body = part.child_by_field_name("body")
                for pattern in patterns:
                    inner = pattern.named_children
                    if len(inner) != 1:
                        raise _NotData(pattern, "a pattern that is not one value")
                    if self.value(inner[0]) == subject:
                        return self.statements(self._items(body)) if body is not None else None
            elif part.type == "else":
                return self.statements(self._items(part))
        return None

    def helper(self, node: Node, name: str) -> Value:
        """What the game's own method ``name``, called without arguments, returns where it
        only builds data too (1824's ``map_optional_hexes``, 1893's ``base_map``)."""
        found = self.program._method(self.klass, name, None)
        if found is None:
            raise _NotData(node, f"calls method {name}")
        owner, d = found
        params = d.node.child_by_field_name("parameters")
        if params is not None and params.named_children:
            raise _NotData(node, f"calls method {name} with arguments")
        return self.called(node, self.klass, owner, d, name, (), "#")

    def ivar(self, node: Node, name: str) -> Value:
        """An instance variable given to the run (:attr:`state`: 1889's ``@tiles``), or one
        the game assigns once as it starts, where what it assigns is data: the one method of
        the game's (``init_optional_rules``, called with the options, or one without
        parameters) assigning ``name`` at its top, run up to the assignment (18GB's and
        1866's ``@scenario = init_scenario(optional_rules)``, read by their ``num_trains``
        and ``optional_hexes``)."""
        if self.state is not None and name in self.state:
            return self.state[name]
        program = self.program
        found: list[tuple[str, str, _Def]] = []
        seen: set[str] = set()
        for anc in program.ancestors(self.klass):
            if anc == "Engine::Game::Base":
                continue
            for method, d in program._modules[anc].methods.items():
                if method in seen:
                    continue
                seen.add(method)  # (the nearest definition of each)
                body = next((c for c in d.node.named_children if c.type == "body_statement"), None)
                if body is not None and any(
                    c.type == "assignment"
                    and (left := c.child_by_field_name("left")) is not None
                    and left.type == "instance_variable"
                    and d.file.text(left) == name
                    for c in body.named_children
                ):
                    found.append((anc, method, d))
        if len(found) != 1:
            raise _NotData(node, f"reads {name}, which the game does not assign once as data")
        owner, method, d = found[0]
        params = d.node.child_by_field_name("parameters")
        args: tuple[Value, ...] = ()
        if method == "init_optional_rules":
            args = ([Symbol(o) for o in sorted(self.options)],)
        elif params is not None and params.named_children:
            raise _NotData(node, f"reads {name}, assigned in {method}, which takes arguments")
        try:
            self.called(node, self.klass, owner, d, method, args, "#", wanted=name)
        except _Assigned as done:
            return done.value
        raise _NotData(node, f"reads {name}, which {method} does not assign")

    def super_value(self, node: Node, args: tuple[Value, ...] | None = None) -> Value:
        """What the ancestor's method returns (``super``: with the arguments this method was
        given; ``super(x)``: with ``args``)."""
        given = self.args if args is None else args
        found = self.program._method(self.klass, self.method, self.owner)
        if found is not None and found[0] != "Engine::Game::Base":
            owner, d = found
            inner = _MethodEvaluator(
                self.program,
                d.file,
                d.nesting,
                self.klass,
                owner,
                self.method,
                self.options,
                self.depth,
                self.players,
                self.state,
            )
            return inner.run(d.node, given)
        if self.method == "init_optional_rules" and len(given) == 1:
            return list(given[0]) if isinstance(given[0], list) else given[0]  # (Base's: them)
        constant = _BASE_DATA_METHODS.get(self.method)
        if constant is None:
            raise _NotData(node, f"super of {self.method}")
        try:
            return self.program.value(self.klass, constant)
        except (KeyError, NotDataError):
            raise _NotData(node, f"super of {self.method} ({constant} is not data)") from None

    def call_value(self, node: Node) -> Value:
        method = node.child_by_field_name("method")
        receiver = node.child_by_field_name("receiver")
        name = self.file.text(method) if method is not None else ""
        if node.child_by_field_name("block") is not None:
            return self.block_call(node)
        args = node.child_by_field_name("arguments")
        items = self._items(args) if args is not None else []
        if receiver is None and name.endswith("?") and not items:
            return self.truth(node)
        if (receiver is None or self.file.text(receiver) == "self") and not items:
            return self.helper(node, name)
        if receiver is None and method is not None and method.type == "super":
            return self.super_value(node, tuple(self.value(i) for i in items))
        if receiver is None or self.file.text(receiver) == "self":
            found = self.program._method(self.klass, name, None)
            if found is not None:
                # the game's own method called with arguments (18GB's init_scenario)
                owner, d = found
                args_of = tuple(self.value(i) for i in items if i.type != "pair")
                if any(i.type == "pair" for i in items):
                    raise _NotData(node, f"calls method {name} with keywords")
                return self.called(node, self.klass, owner, d, name, args_of, "#")
        if receiver is not None and name == "include?" and len(items) == 1:
            target = self.file.text(receiver)
            if target in ("@optional_rules", "optional_rules"):
                return self.truth(node)
        if receiver is not None and name == "to_i" and not items:
            try:
                return _to_i(self.value(receiver))
            except TypeError:
                raise _NotData(node, "to_i of something that is not a string or a number") from None
        if receiver is not None and name == "split" and len(items) <= 1:
            text = self.value(receiver)
            sep = self.value(items[0]) if items else None
            if type(text) is not str or (sep is not None and (type(sep) is not str or not sep)):
                raise _NotData(node, "split of something that is not a string, or not by a string")
            parts = text.split(sep) if sep is not None else text.split()
            while parts and not parts[-1]:
                parts.pop()  # (Ruby drops the empty strings at the end)
            return list(parts)
        if receiver is not None and name == "delete" and len(items) == 1:
            changed = self.value(receiver)
            gone = self.value(items[0])
            if isinstance(changed, list) and receiver.type == "identifier":
                # (Array#delete on a local array: a copy bound again, as for <<)
                self.locals[self.file.text(receiver)] = [v for v in changed if v != gone]
                return gone if gone in changed else None
            if not isinstance(changed, dict) or id(changed) not in self.fresh:
                raise _NotData(node, "delete changes a hash this method did not make")
            return changed.pop(_key(gone), None)
        if receiver is not None and name in ("to_sym", "to_s") and not items:
            text = self.value(receiver)
            if name == "to_s" and type(text) is int:
                return str(text)  # ((index + 1).to_s: 1854's local railways' numbers)
            if type(text) is not str and not isinstance(text, Symbol):
                raise _NotData(node, f"{name} of something that is not a string")
            return Symbol(text) if name == "to_sym" else str(text)
        if receiver is not None and name in ("max", "min") and not items:
            listed = self.value(receiver)
            items_of = listed if isinstance(listed, list) else []
            numbers = [v for v in items_of if _is_number(v)]
            if numbers and len(numbers) == len(items_of):
                return max(numbers) if name == "max" else min(numbers)
            raise _NotData(node, f"{name} of something that is not numbers")
        if (
            receiver is not None
            and self.players is not None
            and name in ("size", "count", "length")
            and not items
            and self.file.text(receiver) in ("@players", "players")
        ):
            return self.players
        if receiver is not None and name in ("update", "merge!") and items:
            changed = self.value(receiver)
            if not isinstance(changed, dict) or id(changed) not in self.fresh:
                raise _NotData(node, f"{name} changes a hash this method did not make")
            for item in items:
                other = self.value(item)
                if not isinstance(other, dict):
                    raise _NotData(node, f"{name} with something that is not a hash")
                changed.update(other)
            return changed
        if receiver is not None and name in ("dup", "freeze", "clone", "compact") and not items:
            value = self.value(receiver)
            return (
                [v for v in value if v is not None]
                if name == "compact" and isinstance(value, list)
                else value
            )
        return super().value(node)

    def block_call(self, node: Node) -> Value:
        """As :meth:`_Evaluator.block_call`; a ``!`` filter of a local variable changes it;
        ``Hash.new { |h, k| h[k] = value }``, ``each`` over data (``&.each`` over nil:
        nothing) and ``each_key`` run their blocks."""
        method = node.child_by_field_name("method")
        receiver = node.child_by_field_name("receiver")
        block = node.child_by_field_name("block")
        name = self.file.text(method) if method is not None else ""
        if receiver is not None and block is not None and block.type != "block_argument":
            params = block.child_by_field_name("parameters")
            body = block.child_by_field_name("body")
            names = [self.file.text(c) for c in params.named_children] if params else []
            statements = self._items(body) if body is not None else []
            if name == "new" and self.file.text(receiver) == "Hash":
                return self.defaults(node, names, statements)
            if name == "each":
                items = self.value(receiver)
                operator_node = node.child_by_field_name("operator")
                if (
                    items is None
                    and operator_node is not None
                    and self.file.text(operator_node) == "&."
                ):
                    return None  # (nil&.each: nothing)
                return self.each(node, items, names, statements)
            if name == "each_key":
                table = self.value(receiver)
                if not isinstance(table, dict):
                    raise _NotData(node, "each_key of something that is not a hash")
                self.each(node, [_unkey(k) for k in table], names, statements)
                return table
        kept = super().block_call(node)
        method = node.child_by_field_name("method")
        receiver = node.child_by_field_name("receiver")
        name = self.file.text(method) if method is not None else ""
        if receiver is not None and name.endswith("!") and receiver.type == "identifier":
            self.locals[self.file.text(receiver)] = kept
        if (
            receiver is not None
            and name.endswith("!")
            and receiver.type == "instance_variable"
            and self.state is not None
            and self.file.text(receiver) in self.state
        ):
            self.state[self.file.text(receiver)] = kept
        return kept

    def store(self, node: Node, target: Node, value: Value) -> Value:
        """``table[key] = value`` on a local hash: a copy with it, the local bound to the
        copy (a constant's data is never changed: 1860's and 18MEX's maps with hexes
        added)."""
        obj = target.child_by_field_name("object")
        keys = [c for c in self._items(target) if obj is None or c.id != obj.id]
        if obj is None or obj.type != "identifier" or len(keys) != 1:
            raise _NotData(node, "an assignment to an element of something but a local hash")
        name = self.file.text(obj)
        table = self.locals.get(name)
        if not isinstance(table, dict):
            raise _NotData(node, f"an element assignment to {name}, which is not a hash")
        try:
            key = _key(self.value(keys[0]))
        except TypeError:
            raise _NotData(node, "a hash as a hash key") from None
        self.locals[name] = {**table, key: value}
        return value

    def defaults(self, node: Node, names: list[str], statements: list[Node]) -> Value:
        """``Hash.new { |h, k| h[k] = value }``: a hash whose missing keys, read, take a new
        ``value`` (data)."""
        statement = statements[0] if len(statements) == 1 else None
        left = statement.child_by_field_name("left") if statement is not None else None
        right = statement.child_by_field_name("right") if statement is not None else None
        if (
            statement is None
            or statement.type != "assignment"
            or left is None
            or right is None
            or left.type != "element_reference"
            or len(names) != 2
            or [self.file.text(c) for c in left.named_children] != names
        ):
            raise _NotData(node, "Hash.new with a block other than h[k] = value")

        def make() -> Value:
            value = self.value(right)
            self.fresh.add(id(value))
            return value

        made = _Defaults(make)
        self.fresh.add(id(made))
        return made

    def each(self, node: Node, items: Value, names: list[str], statements: list[Node]) -> Value:
        """``items.each do |x| … end`` (``|key, value|`` on a hash): the block's statements
        run for each item, its parameters bound."""
        rows: list[tuple[Value, ...]]
        if isinstance(items, list) and len(names) == 1:
            rows = [(item,) for item in items]
        elif isinstance(items, dict) and len(names) == 2:
            rows = list(items.items())
        else:
            raise _NotData(node, f"each with {len(names)} block parameters on this value")
        saved = {k: self.locals[k] for k in names if k in self.locals}
        try:
            for row in rows:
                self.locals.update(zip(names, row, strict=True))
                self.statements(statements)
        finally:
            for k in names:
                self.locals.pop(k, None)
            self.locals.update(saved)
        return items

    def block_runner(self) -> _MethodEvaluator:
        # (the method's local variables, options and class in reach of the block)
        runner = _MethodEvaluator(
            self.program,
            self.file,
            self.nesting,
            self.klass,
            self.owner,
            self.method,
            self.options,
            self.depth,
            self.players,
            self.state,
        )
        runner.locals.update(self.locals)
        return runner

    def in_block(self, statement: Node, bindings: dict[str, Value]) -> Value:
        """As :meth:`_Evaluator.in_block`, with the method's local variables, options and
        ``self.class::X`` in reach of the block."""
        saved = {k: self.locals[k] for k in bindings if k in self.locals}
        self.locals.update(bindings)
        try:
            return self.value(statement)
        finally:
            for k in bindings:
                self.locals.pop(k, None)
            self.locals.update(saved)


_Handler: TypeAlias = Callable[[_Evaluator, Node], Value]

_HANDLERS: dict[str, _Handler] = {
    "hash": _Evaluator.hash,
    "array": _Evaluator.array,
    "string": _Evaluator.string,
    "chained_string": _Evaluator.chained_string,
    "string_array": _Evaluator.words,
    "symbol_array": _Evaluator.words,
    "simple_symbol": _Evaluator.simple_symbol,
    "delimited_symbol": _Evaluator.delimited_symbol,
    "heredoc_beginning": _Evaluator.heredoc,
    "integer": _Evaluator.integer,
    "float": _Evaluator.float,
    "nil": _Evaluator.nil,
    "true": _Evaluator.true,
    "false": _Evaluator.false,
    "unary": _Evaluator.unary,
    "parenthesized_statements": _Evaluator.parenthesized,
    "range": _Evaluator.range,
    "constant": _Evaluator.constant,
    "scope_resolution": _Evaluator.constant,
    "call": _Evaluator.call,
    "element_reference": _Evaluator.element,
    "binary": _Evaluator.binary,
}


class _Defaults(dict[Key, Value]):
    """A hash made by ``Hash.new { |h, k| h[k] = value }``: ``make`` gives a missing key's."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[], Value]) -> None:
        super().__init__()
        self.make = make


def literal(source: str, name: str = "<ruby>") -> Value:
    """The value of the last statement of ``source``, which may define constants before it.

    >>> literal("A = [1, 2]\\nB = A + [3]\\nB - [1]")
    [2, 3]
    >>> literal("[1, foo(2)]", name="x.rb")
    Traceback (most recent call last):
    ...
    tilelay.errors.NotDataError: x.rb:1: calls method foo
    """
    file = parse(source, name=name)
    program = Program()
    program.add(file)
    statements = [c for c in file.root.named_children if c.type not in ("comment",)]
    if not statements:
        return None
    last = statements[-1]
    if last.type == "assignment":
        right = last.child_by_field_name("right")
        if right is not None:
            last = right
    return program.evaluate(last, file)
