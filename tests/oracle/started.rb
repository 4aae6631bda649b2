# The engine's games as they start: for each line of JSON on standard input
# ({"title", "players", "options"}), the game started with that many players and those
# optional rules, as one line of JSON: the colour of each hex of its map, how many of each
# train its depot holds, how many of each tile its supply holds, its phases, and the
# symbols of the corporations, minors and
# companies its data methods give (game_corporations…: what the game starts from, before its
# setup draws or removes some).
# usage: ENGINE_LOG_LEVEL=4 ruby started.rb ORACLE_DIR < ASKS.jsonl
require_relative File.join(ARGV[0], 'shim')
require 'engine'
require 'json'
$stdin.each_line do |line|
  ask = JSON.parse(line)
  begin
    klass = Engine.game_by_title(ask['title'])
    names = (1..ask['players']).map { |i| "p#{i}" }
    game = klass.new(names, id: 1, optional_rules: ask['options'].map(&:to_sym))
    trains = Hash.new(0)
    game.depot.trains.each { |t| trains[t.name] += 1 }
    puts JSON.generate(
      ask: ask,
      hexes: game.hexes.to_h { |h| [h.id, h.tile.color.to_s] },
      trains: trains,
      phases: game.phase.instance_variable_get(:@phases).map { |p| p[:name] },
      corporations: (game.send(:game_corporations) + game.send(:game_minors)).map { |c| c[:sym].to_s.strip }.sort,
      companies: game.send(:game_companies).map { |c| c[:sym].to_s.strip }.sort,
      tiles: game.tiles.group_by(&:name).transform_values(&:size),
    )
  rescue StandardError, ScriptError => e
    puts JSON.generate(ask: ask, error: "#{e.class}: #{e.message[0, 200]}")
  end
end
