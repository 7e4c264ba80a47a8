-- Player: an autonomous agent inhabits a ball and chases the nearest target. Every 10 ticks the
-- engine builds its perception (one batched spatial query), its provider decides, and the
-- decision's tool call (`physics.applyImpulse`) runs through the registry under the agent's own
-- session and the `player.limited` profile, traced as perception -> decision -> action.
--
--   limina run demos/player.lua                      -- headless, prints the chase
--   limina run demos/player.lua --window             -- watch it
--   limina run demos/player.lua --provider ollama    -- an Ollama model decides instead
--                                                       (LIMINA_OLLAMA_URL, LIMINA_OLLAMA_MODEL)

local PROVIDER = limina.provider() -- "scripted" unless --provider says otherwise
local TARGETS = 5

local function call(skill, input)
	local r = limina.call(skill, input)
	if not r.success then
		error(string.format("%s failed: %s (%s)", skill, r.error.message, r.error.code), 2)
	end
	return r.result
end

call("three.setLighting", { castShadow = true, direction = { 5, 12, 3 }, shadowCameraExtent = 16 })
call("render.setCamera", { position = { 0, 22, -18 }, target = { 0, 0, 0 }, fov = 50 })
local floor = call("scene.createEntity", { shape = "box", position = { 0, -0.5, 0 }, static = true, color = 0x3b4a3f, friction = 0.4 }).entity
call("ecs.updateComponent", { entity = floor, component = "scale", value = { 30, 1, 30 } })

-- Targets: static boxes scattered by the seed (the same seed, the same chase).
local isTarget, left = {}, 0
for i = 1, TARGETS do
	local angle = math.random() * 2 * math.pi
	local radius = 5 + math.random() * 7
	local id = call("scene.createEntity", {
		shape = "box",
		size = 0.8,
		color = 0xe0a020,
		position = { math.cos(angle) * radius, 0.4, math.sin(angle) * radius },
		static = true,
	}).entity
	call("ecs.addComponent", { entity = id, component = "target" })
	isTarget[id] = true
	left += 1
end

-- The scripted brain: a pure function of the perception, like the reference's ScriptedProvider.
-- It steers: the velocity it wants (towards the nearest target, slowing on arrival) minus the
-- velocity it sees (from its last two perceptions), as an impulse on its own body.
local SPEED, MASS, GAIN, MAX_PUSH = 4, 0.52, 0.8, 1.5
local last = {} -- per agent: { position, tick }
limina.scripted_policy("chase", function(request)
	local p = request.perception
	if not p.position or not p.selfEntity then
		return {}
	end
	local seen = last[request.agentId]
	last[request.agentId] = { p.position, p.tick }
	local vx, vz = 0, 0
	if seen and p.tick > seen[2] then
		local dt = (p.tick - seen[2]) * limina.FIXED_DT
		vx, vz = (p.position[1] - seen[1][1]) / dt, (p.position[3] - seen[1][3]) / dt
	end
	for _, target in p.nearby do -- nearest first
		if isTarget[target.id] then
			local dx, dz = target.position[1] - p.position[1], target.position[3] - p.position[3]
			local len = math.sqrt(dx * dx + dz * dz)
			local speed = math.min(SPEED, len * 1.5)
			local wx, wz = dx / len * speed, dz / len * speed
			local ix, iz = (wx - vx) * MASS * GAIN, (wz - vz) * MASS * GAIN
			local push = math.sqrt(ix * ix + iz * iz)
			if push > MAX_PUSH then
				ix, iz = ix / push * MAX_PUSH, iz / push * MAX_PUSH
			end
			return { { tool = "physics.applyImpulse", input = { entity = p.selfEntity, impulse = { ix, 0, iz } } } }
		end
	end
	return {}
end)

local player = call("agent.spawn", {
	id = "agt_pursuer",
	-- A ball that rolls where it is pushed (agent bodies walk upright unless told otherwise).
	body = { shape = "sphere", size = 1, color = 0x2a7de1, position = { 0, 0.5, 0 }, friction = 0.8, upright = false },
	perceptionRadius = 40,
	decisionIntervalTicks = 10,
	profile = "player.limited",
	llm = {
		provider = PROVIDER,
		model = if PROVIDER == "scripted" then "chase" else "",
		systemPrompt = "You are a ball on a floor. Pursue the nearest entity tagged target by calling physics.applyImpulse on your own entity (selfEntity) with a small horizontal impulse towards it.",
	},
})
call("ecs.addComponent", { entity = player.entity, component = "player" })
print(string.format("player: %s inhabits %s (%s provider); %d targets; seed %d", player.agentId, player.entity, PROVIDER, TARGETS, limina.seed()))

local failures = 0
limina.on_step(function(tick)
	-- Targets within reach are caught (the script is the referee).
	local pos = call("scene.queryEntities", { tag = "player" }).entities[1].position
	for _, row in call("scene.queryEntities", { near = pos, radius = 1.3, tag = "target" }).entities do
		call("scene.destroyEntity", { entity = row.entity })
		isTarget[row.entity] = nil
		left -= 1
		print(string.format("tick %4d  caught %s at (%5.2f, %5.2f); %d left", tick, row.entity, row.position[1], row.position[3], left))
	end
	-- An unreachable model is reported plainly, once; the player idles, nothing is made up.
	if PROVIDER ~= "scripted" and failures == 0 then
		local failed = call("trace.tail", { type = "agent.decision.failed", limit = 1 }).events
		if #failed > 0 then
			failures += 1
			print(string.format("tick %4d  provider %s is not answering: %s -- the player idles", tick, PROVIDER, failed[1].payload.reason))
		end
	end
	if tick % 60 == 0 then
		local nearest, best = nil, math.huge
		for _, row in call("scene.queryEntities", { near = pos, tag = "target" }).entities do
			if row.distance < best then
				nearest, best = row.entity, row.distance
			end
		end
		print(string.format("tick %4d  player at (%5.2f, %5.2f)  nearest target %s %s", tick, pos[1], pos[3], nearest or "-", if nearest then string.format("%.2f away", best) else ""))
	end
	if left == 0 then
		print(string.format("tick %4d  every target caught", tick))
		limina.quit()
	end
end)

return { frames = 1200 }
