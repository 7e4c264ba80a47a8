-- Meet: an in-world character, the keeper, answers whatever it hears. Speech is perceivable: a
-- social.say is heard by every agent within earshot (20 m), and the keeper's scripted policy
-- reads the lines in its perception (`request.perception.heard`) and answers the latest one.
-- Outside clients take part by embodying agents over MCP (agent.embody), talking (social.say)
-- and listening (agent.perceive); headless, a scripted visitor plays their part.
--
--   limina run demos/meet.lua                   -- the visitor talks with the keeper
--   echo "meet-token social.actor" > meet.tokens
--   limina mcp --http --scene demos/meet.lua --tokens meet.tokens
--   python3 examples/meet_client.py --token meet-token   -- embody, walk up, talk, listen

local function call(skill, input)
	local r = limina.call(skill, input)
	if not r.success then
		error(string.format("%s failed: %s (%s)", skill, r.error.message, r.error.code), 2)
	end
	return r.result
end

call("render.setCamera", { position = { 0, 6, 12 }, target = { 0, 1, 0 }, fov = 55 })
local ground = call("scene.createEntity", { shape = "box", position = { 0, -0.5, 0 }, static = true, color = 0x5d7b4a, friction = 0.9 }).entity
call("ecs.updateComponent", { entity = ground, component = "scale", value = { 40, 1, 40 } })

-- The keeper's answer to a line it heard (at most 280 characters, as social.say takes).
local function answer(line)
	local text = string.sub(line.text, 1, 160)
	local lower = string.lower(text)
	local who = line.speaker
	if string.find(lower, "bye") then
		return "Farewell, " .. who .. ". Come back any time."
	elseif string.find(lower, "hello") or string.find(lower, "^hi") then
		return "Hello, " .. who .. "! I am the keeper of this meeting place."
	elseif string.find(text, "?", 1, true) then
		return "You ask '" .. text .. "' -- I only know this clearing, " .. who .. ", and everyone who talks in it."
	end
	return "I heard you, " .. who .. ": " .. text
end

-- Each decision: the lines heard since the last one; the latest gets an answer.
limina.scripted_policy("keeper", function(request)
	local p = request.perception
	if not p or not p.heard then
		return {}
	end
	local line = p.heard[#p.heard]
	return { { tool = "social.say", input = { text = answer(line) } } }
end)

-- The visitor (standing in for an outside client when nobody connects): walks up, says its
-- lines one by one, each when it has heard the keeper answer the previous one.
local LINES = { "Hello, keeper!", "What is this place?", "Goodbye, keeper." }
local said = 0
limina.scripted_policy("visitor", function(request)
	local p = request.perception
	if said == 0 then
		said = 1
		return {
			{ tool = "social.approach", input = { target = "agt_keeper", talkDistance = 2 } },
			{ tool = "social.say", input = { text = LINES[1] } },
		}
	end
	if said < #LINES and p.heard then
		for _, line in p.heard do
			if line.speaker == "agt_keeper" then
				said += 1
				return { { tool = "social.say", input = { text = LINES[said] } } }
			end
		end
	end
	return {}
end)

for _, a in { { id = "agt_keeper", at = { 0, 0.5, 0 }, color = 0xc08040, model = "keeper" }, { id = "agt_visitor", at = { 8, 0.5, 3 }, color = 0x6080c0, model = "visitor" } } do
	local made = call("agent.spawn", {
		id = a.id,
		body = { shape = "box", size = 0.9, color = a.color, position = a.at, friction = 0 },
		perceptionRadius = 20,
		decisionIntervalTicks = 10,
		profile = "social.actor",
		llm = { provider = "scripted", model = a.model },
	})
	call("ui.label", { anchor = { kind = "world", entity = made.entity, offset = { 0, -0.9, 0 } }, text = a.id })
end

print("meet: the keeper (agt_keeper) answers what it hears within 20 m; a visitor comes to talk")

-- The world log's lines, as they are said.
local after = -1
limina.on_step(function(tick)
	if tick % 5 ~= 0 then
		return
	end
	local r = call("trace.tail", { type = "social.said", afterSeq = after })
	for _, e in r.events do
		print(string.format("tick %4d  %s: %s", tick, e.actorId, e.payload.text))
	end
	if type(r.nextAfterSeq) == "number" then
		after = r.nextAfterSeq
	end
end)

return { frames = 900 }
