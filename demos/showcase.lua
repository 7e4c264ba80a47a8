-- Showcase: everything at once. A builder's market square (glTF crates and balls, shadows from a
-- low sun, a stack that a rolling ball knocks over), three in-world agents who walk up to each
-- other and talk in speech bubbles that the others hear (social.approach, social.say: each line
-- is heard within earshot and spoken aloud at the speaker), a bell and an ambient bed in spatial
-- sound, and a HUD with the live agent ops, fed only from the world log.
--
--   limina run demos/showcase.lua                                   -- headless: prints the talk and the hash
--   limina run demos/showcase.lua --window                          -- watch it
--   limina run demos/showcase.lua --frames 900 --screenshot s.png   -- a picture of it
--   limina run demos/showcase.lua --provider ollama                 -- a local model speaks for them
--
-- Scripted (the default), the same seed gives the same talk and the same world hash every run.

local PROVIDER = limina.provider()

local function call(skill, input)
	local r = limina.call(skill, input)
	if not r.success then
		error(string.format("%s failed: %s (%s)", skill, r.error.message, r.error.code), 2)
	end
	return r.result
end

-- The builder's part: light, camera, the square, the stalls, models and a stack to knock over.
call("three.setLighting", {
	castShadow = true,
	direction = { -7, 9, 5 },
	shadowCameraExtent = 16,
	directionalIntensity = 3.2,
	directionalColor = "#ffe2b8",
	ambientIntensity = 1.0,
})
call("render.setCamera", { position = { 0, 7.5, 13 }, target = { 0, 1, 0 }, fov = 50 })

local square = call("scene.createEntity", { shape = "box", position = { 0, -0.5, 0 }, static = true, color = "#8c8478", friction = 0.8 }).entity
call("ecs.updateComponent", { entity = square, component = "scale", value = { 30, 1, 30 } })
call("three.setMaterial", { entity = square, roughness = 0.95, castShadow = false })

-- Two stalls: a counter and an awning on posts.
local STALLS = { { x = -5, z = -3, awning = "#c0392b" }, { x = 5, z = -3, awning = "#2c7fb8" } }
for _, stall in STALLS do
	local counter = call("scene.createEntity", { shape = "box", position = { stall.x, 0.5, stall.z }, static = true, color = "#7a5230" }).entity
	call("ecs.updateComponent", { entity = counter, component = "scale", value = { 3, 1, 1 } })
	for _, dx in { -1.4, 1.4 } do
		local post = call("scene.createEntity", { shape = "box", position = { stall.x + dx, 1.3, stall.z - 0.4 }, static = true, color = "#5b3a1e" }).entity
		call("ecs.updateComponent", { entity = post, component = "scale", value = { 0.15, 2.6, 0.15 } })
	end
	local awning = call("scene.createEntity", { shape = "box", position = { stall.x, 2.7, stall.z - 0.2 }, static = true, color = stall.awning }).entity
	call("ecs.updateComponent", { entity = awning, component = "scale", value = { 3.4, 0.15, 1.8 } })
	call("three.setMaterial", { entity = awning, roughness = 0.7 })
end

-- Models on the counters (static glTF crates and balls from assets/models).
for i, stall in STALLS do
	call("three.loadGLTF", { assetId = "models/crate.glb", position = { stall.x - 0.8, 1.0, stall.z }, size = 0.8 })
	call("three.loadGLTF", { assetId = "models/ball.glb", position = { stall.x + 0.8, 1.25, stall.z }, size = 0.8 })
	if i == 1 then
		call("three.loadGLTF", { assetId = "models/crate.glb", position = { stall.x, 1.0, stall.z + 0.1 }, size = 0.6 })
	end
end

-- A stack of crates and the ball that rolls into it.
for layer = 0, 3 do
	for i = 0, 3 - layer do
		local x = 7 + (i - (3 - layer) / 2) * 0.62
		call("scene.createEntity", { shape = "box", size = 0.6, position = { x, 0.3 + layer * 0.61, 3 }, dynamic = true, color = if (i + layer) % 2 == 0 then "#b58a4a" else "#a0743a" })
	end
end
local roller = call("scene.createEntity", { shape = "sphere", size = 0.9, position = { -2, 0.45, 3 }, dynamic = true, color = "#e8e0d0", restitution = 0.3 }).entity
call("three.setMaterial", { entity = roller, roughness = 0.2, metalness = 0.6 })

-- The bell tower: a sound in the world, heard louder and from the left or right as the camera stands.
local BELL = { 0, 4.5, -9 }
local tower = call("scene.createEntity", { shape = "box", position = { 0, 2.25, -9 }, static = true, color = "#b9b0a0" }).entity
call("ecs.updateComponent", { entity = tower, component = "scale", value = { 1.6, 4.5, 1.6 } })
call("audio.ambient", { volume = 0.2 })

-- The speakers: bodies, names over them, and a plan of who walks where and says what.
local SPEAKERS = {
	{ id = "agt_mira", at = { -5, 0.5, -1.4 }, color = "#e0b0d0", name = "Mira (fruit seller)" },
	{ id = "agt_tom", at = { 1, 0.5, 6 }, color = "#90c0e0", name = "Tom (visitor)" },
	{ id = "agt_ada", at = { 5, 0.5, -1.4 }, color = "#c0e0a0", name = "Ada (toolmaker)" },
}
local NAMES = {}
for _, s in SPEAKERS do
	NAMES[s.id] = string.match(s.name, "^(%a+)")
end

local PLAN = {
	{ agent = "agt_tom", approach = "agt_mira" },
	{ agent = "agt_tom", say = "Good evening! Are those apples fresh?" },
	{ agent = "agt_mira", say = "Picked this morning. Two for a coin." },
	{ agent = "agt_tom", say = "I'll take two. Who sells hammers here?" },
	{ agent = "agt_mira", say = "Ada, at the blue stall. Tell her I sent you." },
	{ agent = "agt_tom", approach = "agt_ada" },
	{ agent = "agt_tom", say = "Mira sent me. I need a hammer." },
	{ agent = "agt_ada", say = "Then you came to the right stall. This one is balanced well." },
	{ agent = "agt_tom", say = "Perfect. Thank you both!" },
}
local turn, ready_at, walking = 1, 0, nil

limina.scripted_policy("showcase", function(request)
	local step = PLAN[turn]
	if not step or step.agent ~= request.agentId or request.perception.tick < ready_at then
		return {}
	end
	if step.approach then
		if walking == nil then
			walking = step.approach
			return { { tool = "social.approach", input = { target = step.approach, talkDistance = 2.0 } } }
		end
		return {} -- still walking; the host moves on when it hears social.approached
	end
	turn += 1
	ready_at = request.perception.tick + math.ceil(#step.say / 30 * 60) + 80
	return { { tool = "social.say", input = { text = step.say } } }
end)

local systemPrompt = "You are %s in a small market square at dusk. Walk to whoever you want to talk to (social.approach) and speak one short line at a time through social.say. Answer people who speak to you."
for _, s in SPEAKERS do
	local made = call("agent.spawn", {
		id = s.id,
		body = { shape = "capsule", size = 1.6, color = s.color, position = s.at, friction = 0 },
		perceptionRadius = 25,
		decisionIntervalTicks = if PROVIDER == "scripted" then 10 else 120,
		profile = "social.actor",
		llm = {
			provider = PROVIDER,
			model = if PROVIDER == "scripted" then "showcase" else "",
			systemPrompt = string.format(systemPrompt, s.name),
		},
	})
	call("ui.label", { anchor = { kind = "world", entity = made.entity, offset = { 0, 1.3, 0 } }, text = s.name })
end

-- The HUD: the agents' own calls and what they said, newest last, read from the world log.
local hud = call("ui.hudPanel", {
	anchor = { kind = "screen", corner = "top-left" },
	title = "agent ops — provider: " .. PROVIDER,
	text = "waiting for the first decision…",
	maxWidth = 520,
	lifecycle = { feed = { maxLines = 8 } },
}).handle

print(string.format("showcase: %d speakers (social.actor, %s provider), %d stalls; seed %d", #SPEAKERS, PROVIDER, #STALLS, limina.seed()))

local seen, arrivals, offline = -1, -1, false
local function newer(kind, after)
	local r = call("trace.tail", { type = kind, afterSeq = after })
	return r.events, if type(r.nextAfterSeq) == "number" then r.nextAfterSeq else after
end

limina.on_step(function(tick)
	if tick == 30 then
		call("physics.applyImpulse", { entity = roller, impulse = { 9, 0, 0 } })
	end
	if tick % 240 == 0 then
		call("audio.playAt", { freq = 660, secs = 0.8, position = BELL, volume = 0.5 })
	end
	if tick % 5 ~= 0 then
		return
	end
	local arrived
	arrived, arrivals = newer("social.approached", arrivals)
	for _, e in arrived do
		if walking and e.payload.agentId == "agt_tom" then
			print(string.format("tick %4d  %s reached %s", tick, NAMES[e.payload.agentId], NAMES[walking]))
			walking = nil
			turn += 1
		end
	end
	-- Every call an agent made, as the world log has it.
	local executed
	executed, seen = newer("skill.executed", seen)
	local lines = {}
	for _, e in executed do
		local who = NAMES[e.actorId]
		if who then
			local line = string.format("%5d %s %s", e.tick, who, e.payload.skill)
			if e.payload.skill == "social.say" then
				line = string.format("%5d %s: %s", e.tick, who, e.payload.input and e.payload.input.text or "(said)")
				print(string.format("tick %4d  %s", tick, line))
			end
			table.insert(lines, line)
		end
	end
	if #lines > 0 then
		call("ui.update", { handle = hud, text = "", lines = lines })
	end
	if PROVIDER ~= "scripted" and not offline then
		local failed = call("trace.tail", { type = "agent.decision.failed", limit = 1 }).events
		if #failed > 0 then
			offline = true
			local reason = tostring(failed[1].payload.reason)
			print(string.format("tick %4d  LLM offline (%s): %s -- nobody speaks", tick, PROVIDER, reason))
			call("ui.update", { handle = hud, title = "agent ops — LLM offline (" .. PROVIDER .. ")", text = "", lines = { "no model answers: " .. reason } })
		end
	end
	if PROVIDER == "scripted" and turn > #PLAN and tick >= ready_at then
		print(string.format("tick %4d  the market closes", tick))
		limina.quit()
	end
end)

return { frames = 4000 }
