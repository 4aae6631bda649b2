"""The Ruby literal evaluator (tilelay.sources.ruby) on small snippets written here."""

from __future__ import annotations

import pytest

from tilelay.errors import NotDataError, RubySyntaxError, TilelayError
from tilelay.sources.ruby import ModuleRef, Problem, Program, Range, Symbol, literal, parse

# ---------------------------------------------------------------------- literal forms


def test_hash_keys_every_form() -> None:
    value = literal("{ a: 1, 'b' => 2, \"c\" => 3, 'd': 4, :e => 5, 6 => 7, nil => 8 }")
    assert value == {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, 6: 7, None: 8}
    assert isinstance(value, dict)
    kinds = {k: type(k) for k in value}
    # key: and 'k': and :k are symbols; 'k' => and "k" => are strings
    assert kinds["a"] is Symbol and kinds["d"] is Symbol and kinds["e"] is Symbol
    assert kinds["b"] is str and kinds["c"] is str


def test_arrays_nested_and_trailing_commas() -> None:
    assert literal("[1, [2, [3]], {}, [],\n]") == [1, [2, [3]], {}, []]


def test_array_keys_become_tuples() -> None:
    value = literal("{ white: { %w[A1 B2] => 'city=revenue:0', ['C3'] => '' } }")
    assert value == {"white": {("A1", "B2"): "city=revenue:0", ("C3",): ""}}


def test_bare_pairs_in_an_array_are_one_hash() -> None:
    # Ruby reads [name: '4D', price: 800] as [{name: '4D', price: 800}] (18Dixie's variants)
    assert literal("[name: '4D', price: 800]") == [{"name": "4D", "price": 800}]
    assert literal("[1, a: 2, b: 3]") == [1, {"a": 2, "b": 3}]


def test_splats() -> None:
    assert literal("A = [1, 2]\n[0, *A, 3]") == [0, 1, 2, 3]
    assert literal("H = { a: 1 }\n{ **H, b: 2 }") == {"a": 1, "b": 2}


def test_single_quoted_strings_keep_backslashes_but_two() -> None:
    assert literal(r"'it\'s \\ \n'") == "it's \\ \\n"
    assert literal("''") == ""
    assert literal("%q(raw #{x})") == "raw #{x}"


def test_double_quoted_escapes() -> None:
    assert literal(r'"a\tb\nc\\d\"e\u00e9\u{48 49}\x41\s\#{x}"') == 'a\tb\nc\\d"eéHIA #{x}'
    assert literal('""') == ""


def test_continued_and_adjacent_strings() -> None:
    source = "X = 'city=revenue:30;'\\\n    'path=a:0,b:_0'\nX"
    assert literal(source) == "city=revenue:30;path=a:0,b:_0"
    assert literal("'a' \"b\" 'c'") == "abc"


def test_interpolation_of_data() -> None:
    assert literal("L = 'O'\n\"label=#{L};n=#{1_000}:#{:s}#{nil}\"") == "label=O;n=1000:s"
    with pytest.raises(NotDataError, match="interpolation of a list"):
        literal('"#{[1]}"')


def test_heredocs() -> None:
    squiggly = "X = <<~TEXT\n    hello #{1 + 2}\n      world\n\n    end\n  TEXT\nX"
    assert literal(squiggly) == "hello 3\n  world\n\nend\n"
    dash = "X = <<-TEXT\n  kept\n  TEXT\nX"
    assert literal(dash) == "  kept\n"
    plain = "X = <<TEXT\n  a\\tb\nTEXT\nX"
    assert literal(plain) == "  a\tb\n"
    quoted = "X = <<~'TEXT'\n  raw #{x} \\t\nTEXT\nX"
    assert literal(quoted) == "raw #{x} \\t\n"


def test_two_heredocs_in_one_hash() -> None:
    source = "{\n  a: <<~A,\n    first\n  A\n  b: [<<~B, <<~C],\n    second\n  B\n    third\n  C\n}"
    assert literal(source) == {"a": "first\n", "b": ["second\n", "third\n"]}


def test_word_and_symbol_lists() -> None:
    assert literal("%w[a b  c]") == ["a", "b", "c"]
    assert literal("%w(x)") == ["x"]
    assert literal("N = 2\n%W[a#{N} b]") == ["a2", "b"]
    symbols = literal("%i[yellow green]")
    assert symbols == ["yellow", "green"]
    assert isinstance(symbols, list) and all(type(s) is Symbol for s in symbols)


def test_symbols() -> None:
    assert literal(":yellow") == Symbol("yellow")
    assert literal(':"two words"') == "two words"
    assert type(literal(":'x'")) is Symbol


def test_numbers() -> None:
    assert literal("1_000") == 1000
    assert literal("-3") == -3
    assert literal("+3") == 3
    assert literal("2.5") == 2.5
    assert literal("-0.5") == -0.5
    assert literal("1_000.5") == 1000.5
    assert literal("0x1f") == 31
    assert literal("0b101") == 5
    assert literal("017") == 15


def test_nil_true_false() -> None:
    assert literal("[nil, true, false]") == [None, True, False]


def test_ranges() -> None:
    assert literal("1..3") == Range(1, 3)
    assert literal("(1...3)") == Range(1, 3, exclusive=True)
    assert literal("(3..6).to_a") == [3, 4, 5, 6]
    assert literal("('A'..'C').to_a") == ["A", "B", "C"]


def test_identity_methods() -> None:
    assert literal("{ a: [1].freeze }.freeze") == {"a": [1]}
    assert literal("[1].dup") == [1]
    assert literal("{ b: 2 }.deep_freeze") == {"b": 2}


def test_whitelisted_operations() -> None:
    assert literal("{ a: 1, b: 2 }.merge(b: 3, 'c' => 4)") == {"a": 1, "b": 3, "c": 4}
    assert literal("A = { a: 1 }\nB = { c: 3 }\nA.merge({ b: 2 }, B)") == {"a": 1, "b": 2, "c": 3}
    assert literal("[1, 2] + [3]") == [1, 2, 3]
    assert literal("[1, 2, 3, 2] - [2]") == [1, 3]
    assert literal("'a' + 'b'") == "ab"
    assert literal("1 + 2 - 4") == -1
    assert literal("([1, 2] + [2, 3]).uniq") == [1, 2, 3]
    assert literal("H = { coal: 'C' }\n[H[:coal], H[:ore], [7, 8][-1]]") == ["C", None, 8]


def test_parentheses_and_comments() -> None:
    assert literal("(\n  # a comment\n  [1, # one\n   2]\n)") == [1, 2]


def test_module_reference_reads_as_its_name() -> None:
    value = literal("module A\n  module B\n  end\n  X = B\nend\nA::X")
    assert value == "A::B" and type(value) is ModuleRef


# ---------------------------------------------------------------------- constants


def _program(*sources: str) -> Program:
    program = Program()
    for i, source in enumerate(sources):
        program.add(parse(source, name=f"f{i}.rb"))
    return program


GAMES = """
module Engine
  module Game
    class Base
      HEXES = {}.freeze
      LAYOUT = nil
    end

    module G1867
      module Map
        TILES = { '7' => 2 }.freeze
        HEXES = { white: { %w[A1 B2] => '' } }.freeze
      end

      module Entities
        CORPORATIONS = [{ sym: 'CNR', coordinates: 'A1' }].freeze
      end

      module Meta
        GAME_TITLE = '1867'
      end

      class Game < Game::Base
        include_meta(G1867::Meta)
        include Entities
        include Map

        LAYOUT = :flat
        ALL = [TILES, CORPORATIONS, GAME_TITLE].freeze
      end
    end

    module G1861
      module Map
        include G1867::Map

        TILES = G1867::Map::TILES.merge('8' => 1).freeze
        MORE = Map::TILES.merge('9' => 1).freeze
        BARE = TILES
      end

      class Game < G1867::Game
        include Map
      end
    end
  end
end
"""


def test_references_through_nesting_includes_and_superclasses() -> None:
    p = _program(GAMES)
    corporations = [{"sym": "CNR", "coordinates": "A1"}]
    assert p.value("Engine::Game::G1867::Game", "ALL") == [{"7": 2}, corporations, "1867"]
    assert p.value("Engine::Game::G1861::Map", "TILES") == {"7": 2, "8": 1}
    assert p.value("Engine::Game::G1861::Map", "MORE") == {"7": 2, "8": 1, "9": 1}
    assert p.value("Engine::Game::G1861::Map", "BARE") == {"7": 2, "8": 1}
    # the subclass reads its own Map first, then the superclass's chain
    assert p.value("Engine::Game::G1861::Game", "TILES") == {"7": 2, "8": 1}
    assert p.value("Engine::Game::G1861::Game", "LAYOUT") == "flat"
    assert p.value("Engine::Game::G1861::Game", "CORPORATIONS") == [
        {"sym": "CNR", "coordinates": "A1"}
    ]
    assert p.value("Engine::Game::G1861::Game", "HEXES") == {"white": {("A1", "B2"): ""}}


def test_superclass_named_like_the_class_resolves_outside_it() -> None:
    # class Game < Game::Base inside G1867: Game there is Engine::Game, not the class itself
    p = _program(GAMES)
    assert p.superclass("Engine::Game::G1867::Game") == "Engine::Game::Base"
    assert p.superclass("Engine::Game::G1861::Game") == "Engine::Game::G1867::Game"
    assert p.ancestors("Engine::Game::G1861::Game") == [
        "Engine::Game::G1861::Game",
        "Engine::Game::G1861::Map",
        "Engine::Game::G1867::Game",
        "Engine::Game::G1867::Map",
        "Engine::Game::G1867::Entities",
        "Engine::Game::G1867::Meta",
        "Engine::Game::Base",
    ]


def test_where_defines_and_constant_names() -> None:
    p = _program(GAMES)
    where = p.where("Engine::Game::G1861::Game", "TILES")
    assert where == ("Engine::Game::G1861::Map", "f0.rb", 37)
    assert p.defines("Engine::Game::G1861::Game", "GAME_TITLE")  # copied in by include_meta
    assert not p.defines("Engine::Game::G1861::Game", "NOPE")
    with pytest.raises(KeyError):
        p.value("Engine::Game::G1861::Game", "NOPE")
    assert "ALL" in p.constant_names("Engine::Game::G1861::Game")


def test_an_include_resolved_as_ruby_saw_it_when_it_ran() -> None:
    # meta.rb's `include Game::Meta` ran before G1::Game existed: Game was Engine::Game then
    source = """
module Engine
  module Game
    module Meta
      DEV_STAGE = :prealpha
    end
    module G1
      module Meta
        include Game::Meta
        GAME_TITLE = 'One'
      end
      class Game
        include_meta(G1::Meta)
      end
    end
  end
end
"""
    p = _program(source)
    assert p.ancestors("Engine::Game::G1::Meta") == ["Engine::Game::G1::Meta", "Engine::Game::Meta"]
    assert p.value("Engine::Game::G1::Game", "DEV_STAGE") == "prealpha"
    assert p.value("Engine::Game::G1::Game", "GAME_TITLE") == "One"


def test_lexical_scope_wins_over_ancestors() -> None:
    source = """
module A
  X = 'included'
end
module Outer
  X = 'lexical'
  class C
    include A
    Y = X
  end
end
"""
    assert _program(source).value("Outer::C", "Y") == "lexical"


def test_later_include_wins() -> None:
    source = """
module M1
  X = 1
end
module M2
  X = 2
end
class C
  include M1
  include M2
end
"""
    assert _program(source).value("C", "X") == 2


def test_constants_across_files() -> None:
    p = _program(
        "module G\n  module Map\n    TILES = { '7' => 1 }\n  end\nend\n",
        "module G\n  class Game\n    include Map\n    T = TILES.merge('8' => 2)\n  end\nend\n",
    )
    assert p.value("G::Game", "T") == {"7": 1, "8": 2}


def test_missing_hook_loads_more_files_on_demand() -> None:
    asked: list[str] = []

    def missing(name: str) -> bool:
        asked.append(name)
        if name == "Other":
            program.add(parse("module Other\n  X = [1]\nend\n", name="other.rb"))
            return True
        return False

    program = Program(missing=missing)
    program.add(parse("module Mine\n  Y = Other::X + [2]\nend\n", name="mine.rb"))
    assert program.value("Mine", "Y") == [1, 2]
    assert asked == ["Other"]


# ---------------------------------------------------------------------- not data


def _not_data(program: Program, module: str, name: str) -> NotDataError:
    with pytest.raises(NotDataError) as info:
        program.value(module, name)
    return info.value


NOT_DATA = """module Map
  A = build_hexes(1)
  B = [1, 2].map { |x| x.succ }
  C = (rand > 0.5 ? 1 : 2)
  D = if x then 1 else 2 end
  E = [A, 2]
  F = local
  G = G
  H = Nope::X
  I = { ok: [1, 2] }
  J = 1 / 2
end
"""


BLOCKS = """module Map
  TILES = { '7' => 1, '298' => 1, '8' => 2 }.freeze
  CORPS = [{ sym: 'GI', n: 1 }, { sym: 'PB', n: 2 }, { sym: 'X', n: 3 }].freeze
  CHANGED = { 'X' => { sym: 'X', n: 30 } }.freeze
  KEPT = TILES.reject { |k, _v| %w[298 299].include?(k) }.merge('9' => 4)
  PICKED = CORPS.select { |c| %w[GI X].include?(c[:sym]) && c[:n] != 1 }
  SWAPPED = CORPS.slice(1, 2).map { |c| CHANGED[c[:sym]] || c }
  ODD = CORPS.map { |c| c.to_proc }
  SIZES = CORPS.map { |c| c.size }
  OUTSIDE = CORPS.select { |c| c[:n] == limit }
end
"""


def test_blocks_that_filter_or_map_data_are_data() -> None:
    # filters and maps whose block is one expression of equality, membership, && and || on
    # data, as 18 Los Angeles' tiles and companies and 18ZOO's corporations are built
    p = Program()
    p.add(parse(BLOCKS, name="lib/g_x/map.rb"))
    assert p.value("Map", "KEPT") == {"7": 1, "8": 2, "9": 4}
    assert p.value("Map", "PICKED") == [{"sym": "X", "n": 3}]
    assert p.value("Map", "SWAPPED") == [{"sym": "PB", "n": 2}, {"sym": "X", "n": 30}]
    assert p.value("Map", "SIZES") == [2, 2, 2]
    assert _not_data(p, "Map", "ODD").message == "calls method to_proc"
    assert _not_data(p, "Map", "OUTSIDE").message == "calls method limit"


def test_not_data_is_reported_with_file_line_and_why() -> None:
    p = Program()
    p.add(parse(NOT_DATA, name="lib/g_x/map.rb"))
    a = _not_data(p, "Map", "A")
    assert (a.source, a.line, a.constant) == ("lib/g_x/map.rb", 2, "Map::A")
    assert a.message == "calls method build_hexes"
    assert str(a) == "lib/g_x/map.rb:2: calls method build_hexes"
    assert _not_data(p, "Map", "B").message == "calls method succ"
    assert "condition" in _not_data(p, "Map", "C").message
    assert _not_data(p, "Map", "D").line == 5
    e = _not_data(p, "Map", "E")
    assert e.line == 6
    assert e.message == (
        "refers to Map::A, which is not data (lib/g_x/map.rb:2: calls method build_hexes)"
    )
    assert "local variable or method call" in _not_data(p, "Map", "F").message
    assert _not_data(p, "Map", "G").message.startswith("refers to Map::G")
    assert "unknown constant Nope" in _not_data(p, "Map", "H").message
    assert "operator /" in _not_data(p, "Map", "J").message
    # a constant that is not data does not stop the others
    assert p.value("Map", "I") == {"ok": [1, 2]}
    problem = Problem.of(a)
    assert str(problem) == "lib/g_x/map.rb:2: Map::A: calls method build_hexes"


CHANGED = """module M
  BASE = { 'A1' => 'a' }.freeze
  NAMES = BASE.dup
  NAMES.update({ 'B2' => 'b' })
  NAMES.merge!('C3' => 'c')
  NAMES.freeze
  LIST = [1]
  LIST << 2
  H = {}
  H['x'] = 1
  OK = { a: 1 }
  OK.merge(b: 2)
end
"""


def test_constants_changed_in_place() -> None:
    # 1822 CA's scenarios: LOCATION_NAMES = G1822CA::Map::LOCATION_NAMES.dup, then .update(...)
    p = Program()
    p.add(parse(CHANGED, name="m.rb"))
    assert p.value("M", "NAMES") == {"A1": "a", "B2": "b", "C3": "c"}
    assert p.value("M", "BASE") == {"A1": "a"}  # the constant it was copied from is untouched
    assert p.value("M", "OK") == {"a": 1}  # a statement that changes nothing is ignored
    lst = _not_data(p, "M", "LIST")
    assert (lst.line, lst.message) == (8, "changed in place by LIST << 2, which is not data")
    h = _not_data(p, "M", "H")
    assert (h.line, h.message) == (10, "changed in place by H['x'] = 1, which is not data")


def test_not_data_errors_are_tilelay_errors() -> None:
    with pytest.raises(TilelayError):
        literal("[foo]")


# ---------------------------------------------------------------------- syntax errors


def test_syntax_error_names_file_and_line() -> None:
    with pytest.raises(RubySyntaxError) as info:
        parse("module A\n  X = [1, 2\n  Y = 3\nend\n", name="bad.rb")
    err = info.value
    assert err.source == "bad.rb"
    assert err.line is not None and 2 <= err.line <= 4
    assert str(err).startswith(f"bad.rb:{err.line}: syntax error")
    with pytest.raises(RubySyntaxError, match=r"^x\.rb:1: "):
        parse("X = {", name="x.rb")
    with pytest.raises(RubySyntaxError, match=r"^y\.rb:4: .*not closed"):
        parse("module A\n  B = [1,\nend\n", name="y.rb")


def test_parse_reads_files(tmp_path: object) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    path = tmp_path / "a.rb"
    path.write_text("X = 1\n")
    assert parse(path).name == str(path)


def test_doctests() -> None:
    import doctest

    from tilelay.sources import engine, ruby

    for module in (ruby, engine):
        result = doctest.testmod(module)
        assert result.failed == 0, module.__name__


def test_a_data_method_read_with_the_options_off() -> None:
    """``Program.method_value``: locals, option tests (off unless given), ``self.class::X``,
    ``super``, filters by simple blocks, ternaries inside literals (18GA's cotton port)."""
    from tilelay.sources.ruby import Program, parse

    source = """
    module G
      class Base
        TRAINS = [{ name: '2' }, { name: '3' }].freeze
        def game_trains
          self.class::TRAINS
        end
      end
      class Game < Base
        EXTRA = [{ name: 'D' }].freeze
        def game_trains
          list = super
          excluded = eight_train_variant? ? '3' : '8'
          list += self.class::EXTRA if @optional_rules&.include?(:diesels)
          list.reject { |t| t[:name] == excluded }
        end
        def game_corporations
          [{ sym: 'GA', tokens: cotton_port? ? [0, 0] : [0, 40] }]
        end
        def game_phases
          return [] unless @optional_rules.include?(:short)
          [{ name: '1' }]
        end
      end
    end
    """
    program = Program()
    program.add(parse(source, name="g.rb"))
    assert program.method_value("G::Game", "game_trains") == [{"name": "2"}, {"name": "3"}]
    with_diesels = program.method_value("G::Game", "game_trains", options=frozenset({"diesels"}))
    assert [t["name"] for t in with_diesels] == ["2", "3", "D"]
    assert program.method_value("G::Game", "game_corporations") == [
        {"sym": "GA", "tokens": [0, 40]}
    ]
    assert program.method_value("G::Game", "game_phases") == []
    assert program.method_value("G::Game", "game_phases", options=frozenset({"short"})) == [
        {"name": "1"}
    ]


def test_a_map_built_with_an_option_from_the_games_own_hexes() -> None:
    """An option's map as 1860's, 18MEX's and 18GA's ``optional_hexes`` build it: the
    colours' ``keys`` (or ``each_key``), each colour's hexes with ``transform_keys`` leaving
    some coordinates out of their keys (arrays, as keys), hexes added to a local hash by
    ``new_map[coords] = code`` (the constant left as it is), ``&.each`` over nil."""
    from tilelay.sources.ruby import Program, parse

    source = """
    module G
      class Game
        HEXES = {
          white: { %w[A1 A3] => '', ['B2'] => 'town=revenue:0' },
          red: { ['C1'] => 'offboard=revenue:20' },
        }.freeze
        REMOVE = %w[A3].freeze
        ADD = { white: { %w[D2] => 'city=revenue:0' } }.freeze
        def optional_hexes
          return self.class::HEXES unless @optional_rules.include?(:small)

          new_hexes = {}
          HEXES.keys.each do |color|
            new_map = self.class::HEXES[color].transform_keys do |coords|
              coords - REMOVE
            end
            ADD[color]&.each { |coords, tile_str| new_map[coords] = tile_str }
            new_hexes[color] = new_map
          end
          new_hexes
        end
        def game_hexes
          out = {}
          HEXES.each_key { |color| out[color] = HEXES[color].keys.size }
          out
        end
      end
    end
    """
    program = Program()
    program.add(parse(source, name="g.rb"))
    plain = program.method_value("G::Game", "optional_hexes")
    small = program.method_value("G::Game", "optional_hexes", options=frozenset({"small"}))
    assert plain == {
        "white": {("A1", "A3"): "", ("B2",): "town=revenue:0"},
        "red": {("C1",): "offboard=revenue:20"},
    }
    assert small == {
        "white": {("A1",): "", ("B2",): "town=revenue:0", ("D2",): "city=revenue:0"},
        "red": {("C1",): "offboard=revenue:20"},
    }
    assert program.value("G::Game", "HEXES") == plain  # (the constant is left as it was)
    assert program.method_value("G::Game", "game_hexes") == {"white": 2, "red": 1}


def test_a_hook_that_takes_tiles_out_runs_on_the_games_tiles() -> None:
    """``Program.method_state``: the game's ``@tiles`` given to the run (objects with an
    ``id`` and a ``name``) and filtered in place, as 1889's, 1860's and 1893's
    ``optional_tiles`` take tiles out unless (or once) an option is chosen, through methods
    of their own with arguments and ``each`` over a constant's ids."""
    from tilelay.sources.ruby import GameObject, Program, parse

    source = """
    module G
      class Game
        OPTION_TILES = %w[7-1].freeze
        def optional_tiles
          remove_beginner_tiles unless beginner?
          remove_tiles(OPTION_TILES) if @optional_rules.include?(:small)
        end
        def beginner?
          @optional_rules.include?(:beginner)
        end
        def remove_beginner_tiles
          @tiles.reject! { |tile| tile.id.start_with?('Beg') }
          @all_tiles.reject! { |tile| tile.id.start_with?('Beg') }
        end
        def remove_tiles(ids)
          ids.each do |ot|
            @tiles.reject! { |t| t.id == ot }
          end
        end
      end
    end
    """
    program = Program()
    program.add(parse(source, name="g.rb"))
    tiles = [GameObject(id=i, name=i.split("-")[0]) for i in ("7-0", "7-1", "Beg1-0")]

    def left(*options: str) -> list[object]:
        given = {"@tiles": tiles, "@all_tiles": list(tiles)}
        after = program.method_state("G::Game", "optional_tiles", given, options=frozenset(options))
        return [t["id"] for t in after["@tiles"]]  # type: ignore[index, union-attr]

    assert left() == ["7-0", "7-1"]
    assert left("beginner") == ["7-0", "7-1", "Beg1-0"]
    assert left("beginner", "small") == ["7-0", "Beg1-0"]
    assert [t["id"] for t in tiles] == ["7-0", "7-1", "Beg1-0"]  # (the list given is left)


def test_a_data_method_calls_the_games_own_methods() -> None:
    """A data method may call the game's own methods where they only build data (1824's
    ``optional_hexes`` calls ``map_optional_hexes``, which tests an option with
    ``option_goods_time``; 18GB's ``init_scenario(optional_rules)``), and run
    ``if``/``elsif``/``else``/``unless`` statements on the options; a method that is not
    data is reported by name."""
    from tilelay.errors import NotDataError
    from tilelay.sources.ruby import Program, parse

    source = """
    module G
      class Game
        def optional_hexes
          base_map
        end
        def option_goods_time
          @optional_rules&.include?(:goods_time)
        end
        def base_map
          plain = %w[A1 B2 C3]
          town = 'town=revenue:0'
          if option_goods_time
            plain -= %w[B2]
            town += ';label=G'
          elsif self.short_map?
            plain = []
          else
            plain += %w[D4]
          end
          unless option_goods_time
            town += ';label=N'
          end
          { white: { plain => '', %w[E5] => town } }
        end
        def with_argument
          helper(3)
        end
        def helper(n)
          n
        end
        def with_argument_not_data
          counted(1)
        end
        def counted(n)
          @players.size + n
        end
        def in_play
          @players.size
        end
        def with_a_local_test
          base = game_base
          return 'plain' unless base
          'based'
        end
        def game_base
          return 'b' if @optional_rules.include?(:base_2)
          nil
        end
        def uses_in_play
          in_play
        end
      end
    end
    """
    program = Program()
    program.add(parse(source, name="g.rb"))
    assert program.method_value("G::Game", "optional_hexes") == {
        "white": {("A1", "B2", "C3", "D4"): "", ("E5",): "town=revenue:0;label=N"}
    }
    goods = program.method_value("G::Game", "optional_hexes", options=frozenset({"goods_time"}))
    assert goods == {"white": {("A1", "C3"): "", ("E5",): "town=revenue:0;label=G"}}
    # (18ZOO's optional_hexes: ``return hexes unless base``, a local variable)
    assert program.method_value("G::Game", "with_a_local_test") == "plain"
    based = program.method_value("G::Game", "with_a_local_test", options=frozenset({"base_2"}))
    assert based == "based"
    assert program.method_value("G::Game", "with_argument") == 3
    with pytest.raises(NotDataError, match="calls method counted"):
        program.method_value("G::Game", "with_argument_not_data")
    with pytest.raises(NotDataError, match=r"calls method in_play, which is not data \(g\.rb:"):
        program.method_value("G::Game", "uses_in_play")


def test_a_data_method_with_arguments() -> None:
    """``num_trains(train)``: a method's parameters bound to the values given, tests of data
    (``train[:name] == '6'``), ``return … unless``; ``super`` of a method the engine's
    ``Base`` computes in code, and a count of the players, are not data."""
    from tilelay.errors import NotDataError
    from tilelay.sources.ruby import Program, parse

    source = """
    module G
      class Game
        def num_trains(train)
          return super if train[:num] == 'unlimited'
          return train[:num] unless train[:name] == '6'
          optional_6_train ? 3 : 2
        end
        def optional_6_train
          @optional_rules&.include?(:optional_6_train)
        end
        def per_player(train)
          train[:name] == '2' ? @players.size + 4 : 1
        end
      end
    end
    """
    program = Program()
    program.add(parse(source, name="g.rb"))
    six = {"name": "6", "distance": 6}
    assert program.method_value("G::Game", "num_trains", args=(six,)) == 2
    options = frozenset({"optional_6_train"})
    assert program.method_value("G::Game", "num_trains", args=(six,), options=options) == 3
    assert program.method_value("G::Game", "num_trains", args=({"name": "2", "num": 6},)) == 6
    with pytest.raises(NotDataError, match="super of num_trains"):
        program.method_value("G::Game", "num_trains", args=({"name": "D", "num": "unlimited"},))
    with pytest.raises(NotDataError):
        program.method_value("G::Game", "per_player", args=({"name": "2"},))
    assert program.method_value("G::Game", "per_player", args=({"name": "3"},)) == 1
    with pytest.raises(NotDataError, match="takes other parameters"):
        program.method_value("G::Game", "num_trains")


def test_a_constant_built_by_a_module_method() -> None:
    """A constant may call a module method (``def self.name``) that only builds data: 1822
    CA's ``HEXES = merge_hexes(WESTERN, EASTERN)``, which merges with ``Hash.new { |h, k|
    h[k] = {} }``, ``each`` and ``update``, called from its module and from another one.
    A method that changes a hash it did not make is not data."""
    from tilelay.errors import NotDataError
    from tilelay.sources.ruby import Program, parse

    source = """
    module CA
      module Map
        def self.merge_hexes(*hex_sets)
          merged = Hash.new { |h, color| h[color] = {} }
          hex_sets.each do |hex_set|
            hex_set.each do |color, hexes|
              merged[color].update(hexes)
            end
          end
          merged
        end
        def self.spoil(hexes)
          hexes.update(yellow: {})
        end
        WEST = { white: { %w[A1] => '' }, red: { %w[A3] => 'offboard=revenue:20' } }.freeze
        EAST = { white: { %w[B2] => 'city=revenue:10' } }.freeze
        HEXES = merge_hexes(WEST, EAST).freeze
        BLUE = HEXES[:blue]
        SPOILT = spoil(WEST)
      end
    end
    module ERS
      module Map
        HEXES = CA::Map.merge_hexes(CA::Map::EAST)
      end
    end
    """
    program = Program()
    program.add(parse(source, name="map.rb"))
    assert program.value("CA::Map", "HEXES") == {
        "white": {("A1",): "", ("B2",): "city=revenue:10"},
        "red": {("A3",): "offboard=revenue:20"},
    }
    assert program.value("ERS::Map", "HEXES") == {"white": {("B2",): "city=revenue:10"}}
    # (the merged hash is plain once returned: a key it lacks reads as nil, adding none)
    assert program.value("CA::Map", "BLUE") is None
    assert program.value("CA::Map", "HEXES") == {
        "white": {("A1",): "", ("B2",): "city=revenue:10"},
        "red": {("A3",): "offboard=revenue:20"},
    }
    assert program.value("CA::Map", "WEST") == {
        "white": {("A1",): ""},
        "red": {("A3",): "offboard=revenue:20"},
    }
    with pytest.raises(NotDataError, match="calls method spoil, which is not data"):
        program.value("CA::Map", "SPOILT")


def test_a_data_method_by_the_number_of_players() -> None:
    """Given the number of players, ``@players.size`` is it: 1846's ``num_trains`` (a
    ``case`` on the train's name, sums and products, a two-player test of its own), 1840's
    (``[@players.size, 2].max``, a table by count and ``to_sym``). Without it, a count of
    the players is not data."""
    from tilelay.errors import NotDataError
    from tilelay.sources.ruby import Program, parse

    source = """
    module G
      class Game
        TABLE = { 2 => { Y1: 2 }, 3 => { Y1: 4 } }.freeze
        def num_trains(train)
          num_players = @players.size
          case train[:name]
          when '2'
            two_player? ? 7 : num_players + 4
          when '4', '5'
            num_players * 2 - 1
          when 'Y1'
            TABLE[[@players.size, 2].max][train[:name].to_sym]
          else
            num_players < 4 ? 1 : 2
          end
        end
        def two_player?
          @players.size == 2
        end
      end
    end
    """
    program = Program()
    program.add(parse(source, name="g.rb"))

    def count(name: str, players: int) -> object:
        return program.method_value(
            "G::Game", "num_trains", args=({"name": name},), players=players
        )

    assert [count("2", n) for n in (2, 3, 4, 5)] == [7, 7, 8, 9]
    assert [count("5", n) for n in (3, 4)] == [5, 7]
    assert [count("Y1", n) for n in (1, 2, 3)] == [2, 2, 4]
    assert [count("6", n) for n in (3, 4, 5)] == [1, 2, 2]
    with pytest.raises(NotDataError, match="reads @players"):
        program.method_value("G::Game", "num_trains", args=({"name": "6"},))


ZIPPED = """
module Entities
  NAMES = ['Mariazellerbahn', 'Kernhofer Bahn', 'Ybbstalbahn'].freeze
  COORDS = %w[J38 J38 M35].freeze
  CITIES = [0, 1].freeze
  LOCALS = NAMES.zip(COORDS, CITIES).map.with_index do |vals, index|
    name, coords, city = vals
    sym = (index + 1).to_s
    { sym: "L#{sym}", name: "#{name} (#{sym})", coordinates: coords, city: city }
  end.freeze
  PAIRS = NAMES.map do |name|
    short = name
    [short, 1]
  end
  BAD = NAMES.map.with_index { |name| name }
end
"""


def test_zip_map_with_index_and_blocks_of_several_statements() -> None:
    """1854's local railways and their companies: ``zip``, ``map.with_index`` over a block of
    several statements with local variables and ``a, b = list``, ``(i + 1).to_s``."""
    p = Program()
    p.add(parse(ZIPPED, name="lib/g_x/entities.rb"))
    assert p.value("Entities", "LOCALS") == [
        {"sym": "L1", "name": "Mariazellerbahn (1)", "coordinates": "J38", "city": 0},
        {"sym": "L2", "name": "Kernhofer Bahn (2)", "coordinates": "J38", "city": 1},
        {"sym": "L3", "name": "Ybbstalbahn (3)", "coordinates": "M35", "city": None},
    ]
    assert p.value("Entities", "PAIRS") == [
        ["Mariazellerbahn", 1],
        ["Kernhofer Bahn", 1],
        ["Ybbstalbahn", 1],
    ]
    assert "with_index" in _not_data(p, "Entities", "BAD").message


KEYWORDED = """
module Trains
  def self.def_phase(name, limit, tiles, rounds: 2, status: [])
    { name: name, train_limit: limit, tiles: tiles, operating_rounds: rounds,
      status: %w[can_buy] + status }.freeze
  end

  def self.distance(cities, towns = 1)
    [{ 'nodes' => ['town'], 'pay' => towns }, { 'nodes' => %w[city town], 'pay' => cities }]
  end

  def self.def_train(name, price, plus_name, num, **kwargs)
    events = kwargs.delete(:events) || []
    n = name.to_i
    events << { 'type' => 'late' } if n >= 4
    events << { 'type' => 'middle' } if n >= 3 && n <= 7
    cities, towns = plus_name.split('+').map(&:to_i)
    { name: name, distance: n, price: price, variants: [{ name: plus_name,
      distance: distance(cities, towns) }], num: num, events: events }.merge(kwargs).freeze
  end

  def self.def_corporation(**kwargs)
    { float_percent: 20, logo: "wy/#{kwargs[:sym]}" }.merge(kwargs)
  end

  def self.hashed(options)
    options[:a]
  end

  def self.needs(name, key:)
    [name, key]
  end

  EVENTS = [{ 'type' => 'first' }].freeze
  PHASES = [def_phase('2', 4, [:yellow]), def_phase('5', 3, %i[yellow brown], status: %w[full])]
  TRAINS = [
    def_train('2', 80, '2+2', 7, rusts_on: '4', on: nil),
    def_train('4', 300, '4+3', 5, events: EVENTS),
    { name: '2+1', distance: distance(2), num: 1 },
  ]
  CORPORATIONS = [def_corporation(sym: 'UP', coordinates: 'M25')]
  PLAIN = hashed(a: 1, b: 2)
  MISSING = needs('x')
  UNKNOWN = needs('x', key: 1, other: 2)
  TOO_MANY = distance(1, 2, 3)
end
"""


def test_module_methods_with_defaults_keywords_and_a_keyword_hash() -> None:
    """1868 Wyoming's trains, phases and corporations, built by module methods taking
    ``name = default``, ``name: default`` and ``**kwargs`` and called with keywords: bound as
    Ruby binds them (keywords to a method without keyword parameters are its last hash),
    with ``kwargs.delete``, ``to_i``, ``split``, ``map(&:to_i)`` and ``<<`` on a local
    array (which leaves a constant it came from as it was). Calls that do not fit the
    parameters are not data."""
    p = Program()
    p.add(parse(KEYWORDED, name="lib/g_x/trains.rb"))
    assert p.value("Trains", "PHASES") == [
        {"name": "2", "train_limit": 4, "tiles": [Symbol("yellow")], "operating_rounds": 2,
         "status": ["can_buy"]},
        {"name": "5", "train_limit": 3, "tiles": [Symbol("yellow"), Symbol("brown")],
         "operating_rounds": 2, "status": ["can_buy", "full"]},
    ]  # fmt: skip
    two, four, plus = p.value("Trains", "TRAINS")
    assert two == {
        "name": "2",
        "distance": 2,
        "price": 80,
        "variants": [
            {
                "name": "2+2",
                "distance": [
                    {"nodes": ["town"], "pay": 2},
                    {"nodes": ["city", "town"], "pay": 2},
                ],
            }
        ],
        "num": 7,
        "events": [],
        "rusts_on": "4",
        "on": None,
    }
    assert four["events"] == [{"type": "first"}, {"type": "late"}, {"type": "middle"}]
    assert four["variants"][0]["distance"][0]["pay"] == 3
    assert plus["distance"][0]["pay"] == 1  # the default towns = 1
    assert p.value("Trains", "EVENTS") == [{"type": "first"}]  # << left the constant alone
    assert p.value("Trains", "CORPORATIONS") == [
        {"float_percent": 20, "logo": "wy/UP", "sym": "UP", "coordinates": "M25"}
    ]
    assert p.value("Trains", "PLAIN") == 1
    assert "without its keyword key:" in _not_data(p, "Trains", "MISSING").message
    assert "unknown keyword other:" in _not_data(p, "Trains", "UNKNOWN").message
    assert "other parameters than 3 values" in _not_data(p, "Trains", "TOO_MANY").message


SCENARIOS = """
module G
  class Base
    def init_optional_rules(optional_rules)
      optional_rules
    end
  end
  class Game < Base
    SCENARIOS = {
      '2' => { 'train_counts' => { '2' => 4 }, 'map' => 'small' },
      '2alt' => { 'train_counts' => { '2' => 5 }, 'map' => 'small' },
      '3' => { 'train_counts' => { '2' => 7 }, 'map' => 'big' },
    }.freeze

    def init_scenario(optional_rules)
      alt = optional_rules.include?(:alt)
      case @players.size
      when 2
        SCENARIOS[alt ? '2alt' : '2']
      else
        SCENARIOS['3']
      end
    end

    def init_optional_rules(optional_rules)
      optional_rules = super(optional_rules)
      optional_rules.delete(:alt) if @players.size != 2
      @scenario = init_scenario(optional_rules)
      optional_rules
    end

    def num_trains(train)
      @scenario['train_counts'][train[:name]]
    end

    def reads_unassigned
      @nothing
    end
  end
end
"""


def test_an_instance_variable_the_game_assigns_as_it_starts() -> None:
    """18GB's and 1866's ``@scenario``, assigned once by ``init_optional_rules`` (called with
    the options; ``super(optional_rules)`` gives them back, ``delete`` takes one out) from a
    method of the game's taking them: read as data by the number of players and the
    options; one the game never assigns is not data."""
    p = Program()
    p.add(parse(SCENARIOS, name="g.rb"))
    train = ({Symbol("name"): "2"},)

    def count(players: int, options: frozenset[str] = frozenset()) -> object:
        return p.method_value("G::Game", "num_trains", args=train, players=players, options=options)

    assert [count(2), count(3)] == [4, 7]
    assert count(2, frozenset({"alt"})) == 5
    assert count(3, frozenset({"alt"})) == 7  # (the option only counts for two)
    with pytest.raises(NotDataError, match="reads @scenario, which is not data"):
        p.method_value("G::Game", "num_trains", args=train)  # the players unknown
    with pytest.raises(NotDataError, match="reads @nothing"):
        p.method_value("G::Game", "reads_unassigned")
