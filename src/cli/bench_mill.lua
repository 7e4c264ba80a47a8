-- Steer away from the nearest thing seen, or wander when alone.
limina.scripted_policy("mill", function(request)
  local p = request.perception
  if not p.selfEntity then return {} end
  local near = p.nearby[1]
  local dx, dz
  if near then
    dx, dz = p.position[1] - near.position[1], p.position[3] - near.position[3]
  else
    dx, dz = math.sin(p.tick * 0.1), math.cos(p.tick * 0.1)
  end
  local len = math.sqrt(dx * dx + dz * dz) + 1e-6
  return { { tool = "physics.applyImpulse", input = { entity = p.selfEntity, impulse = { dx / len * 0.4, 0, dz / len * 0.4 } } } }
end)
