-- Numbers party: ~200 agents mill about a plaza, drift towards company, greet whoever they
-- bump into and step back from crowds -- every one of them through the real pipeline: batched
-- perception for the agents whose turn it is, a decision from their provider, and actions run
-- through the registry under their own sessions, traced. The bodies share four meshes, so the
-- renderer draws them instanced.
--
--   limina run demos/numbers_party.lua                    -- headless, prints the party
--   limina run demos/numbers_party.lua --window           -- watch it
--   limina run demos/numbers_party.lua --provider ollama  -- a model decides (slowly) instead

local PROVIDER = limina.provider()
local GUESTS = 200
local PLAZA = 80 -- metres across
local COLORS = { 0xe05d5d, 0xe0a93b, 0x58b368, 0x4a90d9, 0x9b6ad6, 0xd96aa8, 0x3bbfbf, 0xdedede }

local function call(skill, input)
	local r = limina.call(skill, input)
	if not r.success then
		error(string.format("%s failed: %s (%s)", skill, r.error.message, r.error.code), 2)
	end
	return r.result
end

call("three.setLighting", { castShadow = true, direction = { 8, 20, 6 }, shadowCameraExtent = 40 })
call("render.setCamera", { position = { 0, 48, -52 }, target = { 0, 0, 0 }, fov = 55 })
local floor = call("scene.createEntity", { shape = "box", position = { 0, -0.5, 0 }, static = true, color = 0x2f3540, friction = 0.6 }).entity
call("ecs.updateComponent", { entity = floor, component = "scale", value = { PLAZA + 10, 1, PLAZA + 10 } })
-- A low wall keeps the party on the plaza.
for _, side in { -1, 1 } do
	for _, axis in { "x", "z" } do
		local pos = if axis == "x" then { side * (PLAZA / 2 + 1), 0.5, 0 } else { 0, 0.5, side * (PLAZA / 2 + 1) }
		local scale = if axis == "x" then { 1, 1, PLAZA + 3 } else { PLAZA + 3, 1, 1 }
		local wall = call("scene.createEntity", { shape = "box", position = pos, static = true, color = 0x50586a }).entity
		call("ecs.updateComponent", { entity = wall, component = "scale", value = scale })
	end
end

-- The brain (scripted): company is good, crowds are not. A guest heads for the nearest guest
-- it sees beyond arm's length, backs off when three or more are within 2 m, and greets the
-- nearest one when they meet.
local isGuest = {}
local greeted = 0
limina.scripted_policy("party", function(request)
	local p = request.perception
	if not p.selfEntity or not p.position then
		return {}
	end
	local crowd, nearest = 0, nil
	for _, seen in p.nearby do -- nearest first
		if isGuest[seen.id] then
			nearest = nearest or seen
			if seen.distance < 2 then
				crowd += 1
			end
		end
	end
	local calls = {}
	local dx, dz
	if nearest == nil then
		-- Alone: wander in a direction that turns with time and place.
		local a = p.tick * 0.05 + p.position[1] * 0.3
		dx, dz = math.cos(a), math.sin(a)
	elseif crowd >= 3 then
		dx, dz = p.position[1] - nearest.position[1], p.position[3] - nearest.position[3]
	else
		dx, dz = nearest.position[1] - p.position[1], nearest.position[3] - p.position[3]
		if nearest.distance < 1.5 then
			greeted += 1
			table.insert(calls, { tool = "agent.emitEvent", input = { type = "greet", payload = { to = nearest.id } } })
		end
	end
	local len = math.sqrt(dx * dx + dz * dz) + 1e-6
	table.insert(calls, { tool = "physics.applyImpulse", input = { entity = p.selfEntity, impulse = { dx / len * 0.6, 0, dz / len * 0.6 } } })
	return calls
end)

local guests = {}
for i = 1, GUESTS do
	local x = (math.random() - 0.5) * PLAZA * 0.9
	local z = (math.random() - 0.5) * PLAZA * 0.9
	local made = call("agent.spawn", {
		body = { shape = if i % 2 == 0 then "capsule" else "sphere", size = 0.9, color = COLORS[(i - 1) % #COLORS + 1], position = { x, 0.6, z }, friction = 0.9 },
		perceptionRadius = 12,
		decisionIntervalTicks = 30,
		profile = "player.limited",
		llm = {
			provider = PROVIDER,
			model = if PROVIDER == "scripted" then "party" else "",
			systemPrompt = "You are a guest at a party on a plaza. Walk towards other guests with small impulses on your own entity (physics.applyImpulse), greet those you meet with agent.emitEvent type 'greet', and step back from crowds.",
		},
	})
	isGuest[made.entity] = true
	table.insert(guests, made)
	-- Guests arrive over one decision interval, so about a thirtieth decide on any tick.
	if i % 7 == 0 then
		limina.step(1)
	end
end
print(string.format("numbers party: %d guests on a %d m plaza (%s provider); seed %d", GUESTS, PLAZA, PROVIDER, limina.seed()))

local reported = false
limina.on_step(function(tick)
	if tick % 120 == 0 then
		-- Company: guests with another guest within 2 m.
		local together = 0
		local positions = {}
		for _, row in call("scene.queryEntities", {}).entities do
			if isGuest[row.entity] then
				table.insert(positions, row.position)
			end
		end
		for i, a in positions do
			for j, b in positions do
				if i ~= j and (a[1] - b[1]) ^ 2 + (a[3] - b[3]) ^ 2 < 4 then
					together += 1
					break
				end
			end
		end
		print(string.format("tick %4d  %3d/%d guests in company  %4d greetings so far", tick, together, GUESTS, greeted))
	end
	if PROVIDER ~= "scripted" and not reported then
		local failed = call("trace.tail", { type = "agent.decision.failed", limit = 1 }).events
		if #failed > 0 then
			reported = true
			print(string.format("tick %4d  provider %s is not answering: %s -- the guests idle", tick, PROVIDER, failed[1].payload.reason))
		end
	end
end)

return { frames = 900 }
