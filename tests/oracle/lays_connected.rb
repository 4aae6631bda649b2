# The engine's lays WITH the corporation's connectivity: before every corporation's lay_tile
# still in force, the tiles and rotations the engine's track step allows that corporation on
# that hex. As ../shared/reference/18xxgames/oracle/lays.rb without switching connectivity off.
# usage: ENGINE_LOG_LEVEL=4 ruby lays_connected.rb ORACLE_DIR RECORD.json
require_relative File.join(ARGV[0], 'shim')
require 'engine'
require 'json'
data = JSON.parse(File.read(ARGV[1]))
filt = Engine::Game::Base.filtered_actions(data['actions'])[0]
lays = data['actions'].each_with_index.select { |a, i| filt[i] && a['type'] == 'lay_tile' && a['entity_type'] == 'corporation' }.map(&:first)
game = Engine::Game.load(data, at_action: 0)
lays.each do |act|
  id = act['id']
  prev = data['actions'].select { |a| a['id'] < id }.map { |a| a['id'] }.max || 0
  game.process_to_action(prev)
  step = game.round.active_step
  entity = game.corporation_by_id(act['entity'])
  unless step.respond_to?(:upgradeable_tiles)
    puts JSON.generate(id: id, error: "active step #{step.class} lays no tiles"); next
  end
  hex = game.hex_by_id(act['hex'])
  legal = step.upgradeable_tiles(entity, hex).to_h { |t| [t.name, t.legal_rotations.sort] }
  puts JSON.generate(id: id, entity: act['entity'], hex: act['hex'], legal: legal)
rescue StandardError => e
  puts JSON.generate(id: id, error: "#{e.class}: #{e.message[0, 160]}")
end
