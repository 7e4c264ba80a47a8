-- Forest conversation: a wanderer walks up to a fox, then to an owl, and they talk. Every move
-- is `social.approach` and every line `social.say`, decided by each agent's provider and run
-- through the registry under its own session (profile social.actor); the lines appear as speech
-- bubbles over the speakers and in the agent-ops HUD, fed only from the `social.said` events in
-- the world log.
--
--   limina run demos/forest_conversation.lua                    -- scripted: the same talk every run
--   limina run demos/forest_conversation.lua --window           -- watch it
--   limina run demos/forest_conversation.lua --provider ollama  -- a local model speaks for them
--                                                                 (LIMINA_OLLAMA_URL, LIMINA_OLLAMA_MODEL)
--   limina run demos/forest_conversation.lua --provider openai  -- any OpenAI-compatible endpoint
--
-- With a model that cannot be reached, the HUD says "LLM offline" with the reason and nobody
-- speaks: no line is ever made up.

local PROVIDER = limina.provider()

local function call(skill, input)
	local r = limina.call(skill, input)
	if not r.success then
		error(string.format("%s failed: %s (%s)", skill, r.error.message, r.error.code), 2)
	end
	return r.result
end

-- The forest: a mossy floor, trunks and crowns scattered by the seed, a clearing in the middle.
call("three.setLighting", { castShadow = true, direction = { 6, 12, 4 }, shadowCameraExtent = 18, ambientIntensity = 0.9 })
call("render.setCamera", { position = { 0, 5, 9.5 }, target = { -0.5, 1, 0 }, fov = 55 })
local floor = call("scene.createEntity", { shape = "box", position = { 0, -0.5, 0 }, static = true, color = 0x4d6b3a, friction = 0.9 }).entity
call("ecs.updateComponent", { entity = floor, component = "scale", value = { 40, 1, 40 } })
for _ = 1, 24 do
	local angle = math.random() * 2 * math.pi
	local radius = 9 + math.random() * 8
	local x, z = math.cos(angle) * radius, math.sin(angle) * radius
	local height = 2.5 + math.random() * 1.5
	call("scene.createEntity", { shape = "capsule", size = height, position = { x, height / 2, z }, static = true, color = 0x6b4a2b })
	call("scene.createEntity", { shape = "sphere", size = 2.4, position = { x, height + 0.6, z }, static = true, color = 0x2f6b34 })
end

-- The speakers and their bodies.
local SPEAKERS = {
	{ id = "agt_wanderer", at = { -7, 0.5, 3 }, color = 0xd8d0c0, name = "Wanderer" },
	{ id = "agt_fox", at = { -1, 0.5, -2 }, color = 0xd0601c, name = "Fox" },
	{ id = "agt_owl", at = { 5, 0.5, 1 }, color = 0x8a7a68, name = "Owl" },
}
local NAMES = {}
for _, s in SPEAKERS do
	NAMES[s.id] = s.name
end

-- The scripted conversation: who walks where, who says what, in turn. A turn is taken when its
-- speaker next decides and the previous line has had time to be read (typewriter + a pause).
local PLAN = {
	{ agent = "agt_wanderer", approach = "agt_fox" },
	{ agent = "agt_wanderer", say = "Hello, fox! Have you seen the owl?" },
	{ agent = "agt_fox", say = "The owl? She sits by the old oak, over to the east." },
	{ agent = "agt_wanderer", say = "Thank you, friend. I will find her." },
	{ agent = "agt_wanderer", approach = "agt_owl" },
	{ agent = "agt_wanderer", say = "Good evening, owl. The fox sent me." },
	{ agent = "agt_owl", say = "Hoo! Then sit a while — the stars are coming out." },
	{ agent = "agt_wanderer", say = "Gladly. It is quiet here." },
}
local turn, ready_at, walking = 1, 0, nil

limina.scripted_policy("forest", function(request)
	local step = PLAN[turn]
	local p = request.perception
	if not step or step.agent ~= request.agentId or p.tick < ready_at then
		return {}
	end
	if step.approach then
		if walking == nil then
			walking = step.approach
			return { { tool = "social.approach", input = { target = step.approach, talkDistance = 2.2 } } }
		end
		return {} -- still walking; the host moves on when it hears social.approached
	end
	turn += 1
	-- 30 characters a second, then a pause to read it.
	ready_at = p.tick + math.ceil(#step.say / 30 * 60) + 90
	return { { tool = "social.say", input = { text = step.say } } }
end)

local systemPrompts = {
	agt_wanderer = "You are a wanderer in a quiet forest. Walk to the fox (social.approach target agt_fox), greet it and ask where the owl is, then walk to the owl (agt_owl) and talk with it. Speak only through social.say, one short line at a time.",
	agt_fox = "You are a fox in a forest. When someone near you speaks to you, answer in one short line through social.say. Otherwise stay silent (call no tool).",
	agt_owl = "You are an old owl in a forest. When someone near you speaks to you, answer in one short line through social.say. Otherwise stay silent (call no tool).",
}

for _, s in SPEAKERS do
	local made = call("agent.spawn", {
		id = s.id,
		body = { shape = "box", size = 0.9, color = s.color, position = s.at, friction = 0 },
		perceptionRadius = 30,
		decisionIntervalTicks = if PROVIDER == "scripted" then 10 else 120,
		profile = "social.actor",
		llm = {
			provider = PROVIDER,
			model = if PROVIDER == "scripted" then "forest" else "",
			systemPrompt = systemPrompts[s.id],
		},
	})
	call("ui.label", { anchor = { kind = "world", entity = made.entity, offset = { 0, -0.9, 0 } }, text = s.name })
end

local hud = call("ui.hudPanel", {
	anchor = { kind = "screen", corner = "top-left" },
	title = "forest — provider: " .. PROVIDER,
	text = "waiting for the first line…",
	maxWidth = 460,
	lifecycle = { feed = { maxLines = 7 } },
}).handle

print(string.format("forest: 3 agents (social.actor, %s provider); seed %d", PROVIDER, limina.seed()))

-- Cursors into the world log: what has been read of each event type.
local arrivals, sayings, offline = -1, -1, false
local function newer(kind, after)
	local r = call("trace.tail", { type = kind, afterSeq = after })
	return r.events, if type(r.nextAfterSeq) == "number" then r.nextAfterSeq else after
end
limina.on_step(function(tick)
	if tick % 5 ~= 0 then
		return
	end
	-- Arrivals move the scripted plan on.
	local arrived
	arrived, arrivals = newer("social.approached", arrivals)
	for _, e in arrived do
		if walking and e.payload.agentId == "agt_wanderer" then
			print(string.format("tick %4d  %s reached %s", tick, NAMES[e.payload.agentId], NAMES[walking] or walking))
			walking = nil
			turn += 1
		end
	end
	-- Lines said go to the HUD's feed, exactly as the world log has them.
	local said
	said, sayings = newer("social.said", sayings)
	local lines = {}
	for _, e in said do
		local line = string.format("%s: %s", NAMES[e.actorId] or e.actorId, e.payload.text)
		print(string.format("tick %4d  %s", tick, line))
		table.insert(lines, line)
	end
	if #lines > 0 then
		call("ui.update", { handle = hud, text = "", lines = lines })
	end
	-- An unreachable model is said plainly, once.
	if PROVIDER ~= "scripted" and not offline then
		local failed = call("trace.tail", { type = "agent.decision.failed", limit = 1 }).events
		if #failed > 0 then
			offline = true
			local reason = tostring(failed[1].payload.reason)
			print(string.format("tick %4d  LLM offline (%s): %s -- nobody speaks", tick, PROVIDER, reason))
			call("ui.update", { handle = hud, title = "forest — LLM offline (" .. PROVIDER .. ")", text = "", lines = { "no model answers: " .. reason } })
		end
	end
	if PROVIDER == "scripted" and turn > #PLAN and tick >= ready_at then
		print(string.format("tick %4d  the conversation is over", tick))
		limina.quit()
	end
end)

return { frames = 3000 }
