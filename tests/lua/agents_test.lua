local h = require("./helpers")

-- Agents are driven by the same skills from a script as from MCP; a test world is fresh per file
-- run, so ids are checked relative to what spawn returns.

describe("agent.spawn from a script", function()
	it("puts a scripted player into the world that perceives and acts through skills", function()
		local seen = nil
		limina.scripted_policy("lua-test", function(request)
			seen = request
			local p = request.perception
			return { { tool = "physics.applyImpulse", input = { entity = p.selfEntity, impulse = { 0, 0, 0.5 } } } }
		end)
		local crate = h.entity({ position = { 2, 0.5, 0 } })
		local made = h.ok("agent.spawn", { body = { position = { 0, 0.5, 0 } }, decisionIntervalTicks = 5, llm = { model = "lua-test", systemPrompt = "push" } })
		expect(made.sessionId).toBe("ses_" .. made.agentId)
		limina.step(6)
		expect(seen).never.toBeNil()
		expect(seen.systemPrompt).toBe("push")
		expect(seen.perception.selfId).toBe(made.agentId)
		expect(seen.perception.selfEntity).toBe(made.entity)
		local ids = {}
		for _, n in seen.perception.nearby do
			ids[n.id] = true
		end
		expect(ids[crate]).toBe(true)
		expect(ids[made.entity]).toBeNil()
		-- The tools offered are the skills player.limited may call, with their schemas.
		local tools = {}
		for _, t in seen.tools do
			tools[t.name] = t
		end
		expect(tools["physics.applyImpulse"]).never.toBeNil()
		expect(tools["physics.applyImpulse"].inputSchema.type).toBe("object")
		expect(tools["scene.createEntity"]).toBeNil()
		-- Its actions ran as the agent: the previous results reached the next decision.
		expect(#seen.previousResults).toBeGreaterThan(0)
		expect(seen.previousResults[1].tool).toBe("physics.applyImpulse")
		expect(seen.previousResults[1].success).toBe(true)
		local mine = h.ok("trace.tail", { actorId = made.agentId, type = "skill.executed" }).events
		expect(#mine).toBeGreaterThan(0)
		h.ok("agent.despawn", { agentId = made.agentId, removeBody = true })
	end)

	it("refuses a profile beyond the caller's, an unknown policy and a bad provider, leaving nothing", function()
		local before = limina.world_hash()
		-- A builder cannot hand out social.act, which it does not hold (only the operator, the
		-- host script here, may put agents of any profile into the world).
		local builder = limina.session({ profile = "builder.readWrite" })
		local r = builder:call("agent.spawn", { profile = "social.actor", body = {}, llm = { model = "lua-test" } })
		expect(r.success).toBe(false)
		expect(r.error.code).toBe("forbidden")
		r = limina.call("agent.spawn", { body = {}, llm = { model = "no-such-policy" } })
		expect(r.error.code).toBe("invalid_input")
		r = limina.call("agent.spawn", { body = {}, llm = { provider = "telepathy" } })
		expect(r.error.code).toBe("invalid_input")
		r = limina.call("agent.spawn", { perceptionRadius = -1 })
		expect(r.error.code).toBe("invalid_input")
		expect(limina.world_hash()).toBe(before)
	end)
end)
