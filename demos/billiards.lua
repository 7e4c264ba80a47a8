-- Billiards: a bordered table of static rails and a racked break of dynamic spheres struck by a
-- cue ball. Everything is built through skills; Rapier steps the balls and their full transforms
-- (position and rotation) sync back into the world, so they roll.
--
--   limina run demos/billiards.lua            -- headless, prints the break as it happens
--   limina run demos/billiards.lua --seed 7   -- a different (but repeatable) break

local TABLE_W, TABLE_L = 10, 20 -- playing surface, world units
local BALL = 0.6 -- ball diameter
local RAIL_H, RAIL_T = 0.6, 0.4
local BREAK_TICK = 20

local function call(skill, input)
	local r = limina.call(skill, input)
	if not r.success then
		error(string.format("%s failed: %s (%s)", skill, r.error.message, r.error.code), 2)
	end
	return r.result
end

local function box(position, scale, color, restitution)
	local id = call("scene.createEntity", {
		shape = "box",
		position = position,
		static = true,
		color = color,
		friction = 0.3,
		restitution = restitution,
	}).entity
	call("ecs.updateComponent", { entity = id, component = "scale", value = scale })
	return id
end

-- A light with real shadows, and a camera looking across the table from one long side.
call("three.setLighting", { castShadow = true, direction = { 6, 14, -4 }, shadowCameraExtent = 14, directionalIntensity = 2.6 })
call("render.setCamera", { position = { -13, 12, 0 }, target = { 0, -0.5, 0 }, fov = 50 })

-- The felt (top face at y = 0) and four cushions around it.
local felt = box({ 0, -0.25, 0 }, { TABLE_W + 2 * RAIL_T, 0.5, TABLE_L + 2 * RAIL_T }, 0x1f7a3a, 0.2)
call("three.setMaterial", { entity = felt, roughness = 0.95 })
for _, side in { -1, 1 } do
	box({ side * (TABLE_W + RAIL_T) / 2, RAIL_H / 2, 0 }, { RAIL_T, RAIL_H, TABLE_L + 2 * RAIL_T }, 0x5a3418, 0.8)
	box({ 0, RAIL_H / 2, side * (TABLE_L + RAIL_T) / 2 }, { TABLE_W, RAIL_H, RAIL_T }, 0x5a3418, 0.8)
end

local COLORS = { 0xf2c200, 0x1f4fd1, 0xd1281f, 0x5b2a86, 0xf26b1d, 0x1e7a3b, 0x7a1f1f, 0x111111 }

-- Balls are a ringed sphere model (assets/models/ball.glb) tinted per ball, so their roll shows.
local function ball(x, z, color, tag)
	local id = call("three.loadGLTF", {
		assetId = "models/ball.glb",
		size = BALL,
		collider = "sphere",
		position = { x, BALL / 2, z },
		dynamic = true,
		friction = 0.2,
		restitution = 0.9,
	}).entity
	call("ecs.addComponent", { entity = id, component = tag })
	call("three.setMaterial", { entity = id, color = color, roughness = 0.25 })
	return id
end

-- Rack: five rows in a triangle, apex towards the cue ball, a hair of space between balls.
local balls = {}
local spacing = BALL * 1.005
local apex = TABLE_L / 4
local n = 0
for row = 1, 5 do
	for j = 1, row do
		n += 1
		local x = (j - (row + 1) / 2) * spacing
		local z = apex + (row - 1) * spacing * math.sqrt(3) / 2
		table.insert(balls, ball(x, z, COLORS[(n - 1) % #COLORS + 1], "ball"))
	end
end
local cue = ball(0, -TABLE_L / 4, 0xf5f1e6, "cue")
local isBall = { [cue] = true }
for _, id in balls do
	isBall[id] = true
end

-- The break: the seed nudges the cue's aim, so each seed is a different, repeatable break.
local aim = (math.random() - 0.5) * 0.02
local contacts = 0
local last = {}

local function snapshot()
	local positions = {}
	for _, row in call("scene.queryEntities", { tag = "ball" }).entities do
		positions[row.entity] = row.position
	end
	return positions
end

limina.on_step(function(tick)
	if tick == BREAK_TICK then
		call("physics.applyImpulse", { entity = cue, impulse = { aim, 0, 1.8 } })
		print(string.format("tick %4d  break! cue ball %s struck towards the rack", tick, cue))
	end
	for _, e in call("physics.collisionEvents", {}).events do
		if e.started and isBall[e.entityA] and isBall[e.entityB] then
			contacts += 1
		end
	end
	if tick > 0 and tick % 60 == 0 then
		local now = snapshot()
		local moving, spread = 0, 0
		for id, p in now do
			local before = last[id]
			if before and math.abs(p[1] - before[1]) + math.abs(p[3] - before[3]) > 0.05 then
				moving += 1
			end
			spread = math.max(spread, math.sqrt(p[1] ^ 2 + (p[3] - apex) ^ 2))
		end
		last = now
		local cuePos = call("scene.queryEntities", { tag = "cue" }).entities[1].position
		print(string.format(
			"tick %4d  %2d/15 balls moving  %3d ball-ball hits  farthest %5.2f from the rack  cue ball at (%5.2f, %5.2f)",
			tick, moving, contacts, spread, cuePos[1], cuePos[3]
		))
	end
end)

last = snapshot()
print(string.format("billiards: %d balls racked, cue ball %s; seed %d", #balls, cue, limina.seed()))

return { frames = 600 }
