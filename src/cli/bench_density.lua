-- The reference density: 200 agents in dynamic bodies, 256 more bodies, 2000 entities in all.
local side = 100
local function spot(i, n, s, y)
  local u = (i + 0.5) / n
  local v = (i * 0.618033988749895) % 1
  return { (u - 0.5) * s, y, (v - 0.5) * s }
end
local floor = limina.call("scene.createEntity", { shape = "box", size = 1, position = { 0, -0.5, 0 }, static = true }).entity
limina.call("ecs.updateComponent", { entity = floor, component = "scale", value = { side + 20, 1, side + 20 } })
local agents, bodies, entities = 200, 256, 2000
local scenery = entities - 1 - bodies - agents
for i = 0, scenery - 1 do
  limina.call("scene.createEntity", { shape = "box", size = 0.5, position = spot(i, scenery, side, 0.25) })
end
for i = 0, bodies - 1 do
  local p = spot(i, bodies, side * 0.9, 0.5)
  p[1] = p[1] + 0.37
  limina.call("scene.createEntity", { shape = "sphere", size = 1, dynamic = true, restitution = 0.3, position = p })
end
-- The "mill" policy (bench_mill.lua) is run before this script.
-- Agents join over one decision interval (30 ticks), as agents arriving at different times would.
local spawned = 0
limina.on_step(function(tick)
  for _ = 1, 7 do
    if spawned >= agents then return end
    local p = spot(spawned, agents, side * 0.8, 0.5)
    p[3] = p[3] + 0.61
    limina.call("agent.spawn", { body = { shape = "capsule", position = p }, llm = { model = "mill" } })
    spawned = spawned + 1
  end
end)
