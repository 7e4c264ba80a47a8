local h = require("./helpers")

local function session(name, profile)
	return limina.session({ agentId = "agt_" .. name, sessionId = "ses_" .. name, profile = profile or "builder.readWrite" })
end

describe("quotas", function()
	it("deny the 4th call of 3 per window with zero effect, and allow again once the window passes", function()
		local s = session("quota")
		limina.policy.quota({ sessionId = "ses_quota", cap = "scene.write", limit = 3, windowTicks = 10 })
		for i = 1, 3 do
			expect(s:call("scene.createEntity", { position = { i, 50, 0 } }).success).toBe(true)
		end
		local before, count = limina.world_hash(), h.count()
		local r = s:call("scene.createEntity", { position = { 4, 50, 0 } })
		expect(r.success).toBe(false)
		expect(r.error.code).toBe("forbidden")
		expect(r.error.message).toContain("quota of 3 calls per 10 ticks")
		expect(limina.world_hash()).toBe(before)
		expect(h.count()).toBe(count)
		-- Reads are not scene.write, so they still work.
		expect(s:call("scene.queryEntities", {}).success).toBe(true)
		limina.step(9)
		expect(s:call("scene.createEntity", {}).success).toBe(false)
		limina.step(1)
		expect(s:call("scene.createEntity", {}).success).toBe(true)
		local denied = h.ok("audit.query", { decision = "deny", sessionId = "ses_quota" })
		expect(denied.summary.byRule["quota.exceeded"]).toBe(2)
	end)
end)

describe("revocation", function()
	it("revoking scene.write mid-session denies the next call", function()
		local s = session("revoke")
		expect(s:call("scene.createEntity", {}).success).toBe(true)
		limina.policy.revoke({ sessionId = "ses_revoke", cap = "scene.write" })
		local r = s:call("scene.createEntity", {})
		expect(r.error.code).toBe("forbidden")
		expect(r.error.message).toBe("capability scene.write was revoked for session ses_revoke")
		-- Other sessions are unaffected; other capabilities of this session too.
		expect(limina.call("scene.createEntity", {}).success).toBe(true)
		expect(s:call("ecs.addComponent", { entity = "ent_0001", component = "x" }).success).toBe(true)
		limina.policy.restore({ sessionId = "ses_revoke", cap = "scene.write" })
		expect(s:call("scene.createEntity", {}).success).toBe(true)
	end)

	it("revoking a session denies everything, even skills needing no permission", function()
		local s = session("gone")
		limina.policy.revoke({ sessionId = "ses_gone" })
		for _, skill in { "scene.createEntity", "skills.list", "trace.tail" } do
			local r = s:call(skill, {})
			expect(r.error.code).toBe("forbidden")
			expect(r.error.message).toBe("session ses_gone was revoked")
		end
		local why = h.ok("audit.query", { sessionId = "ses_gone" })
		expect(why.summary.denied).toBe(3)
		expect(why.summary.byRule["session.revoked"]).toBe(3)
	end)

	it("revoking an agent denies its calls in every session", function()
		local a = limina.session({ agentId = "agt_bad", sessionId = "ses_bad1", profile = "builder.readWrite" })
		local b = limina.session({ agentId = "agt_bad", sessionId = "ses_bad2", profile = "builder.readWrite" })
		limina.policy.revoke({ agentId = "agt_bad" })
		expect(a:call("skills.list", {}).error.message).toBe("agent agt_bad was revoked")
		expect(b:call("skills.list", {}).error.code).toBe("forbidden")
	end)

	it("rejects malformed policy changes with a clear error", function()
		expect(function()
			limina.policy.revoke({})
		end).toThrow("needs {sessionId=...}")
		expect(function()
			limina.policy.revoke({ session = "x" })
		end).toThrow("unknown field 'session'")
		expect(function()
			limina.policy.quota({ limit = 3 })
		end).toThrow("windowTicks is required")
		expect(function()
			limina.policy.quota({ limit = 3, windowTicks = 0 })
		end).toThrow("windowTicks >= 1")
		expect(function()
			limina.policy.budget({ calls = 3 })
		end).toThrow("sessionId is required")
	end)
end)

describe("budgets", function()
	it("a calls budget of N denies call N+1", function()
		local s = session("budget")
		limina.policy.budget({ sessionId = "ses_budget", calls = 4 })
		for i = 1, 4 do
			expect(s:call("skills.list", {}).success).toBe(true)
		end
		local r = s:call("skills.list", {})
		expect(r.error.code).toBe("forbidden")
		expect(r.error.message).toContain("call budget of 4")
		local denied = h.ok("audit.query", { decision = "deny", sessionId = "ses_budget" }).decisions[1]
		expect(denied.rule).toBe("budget.calls")
	end)

	it("a cpu budget stops a session once spent", function()
		local s = session("cpu")
		limina.policy.budget({ sessionId = "ses_cpu", cpuMs = 0.000001 })
		expect(s:call("skills.list", {}).success).toBe(true)
		expect(s:call("skills.list", {}).error.message).toContain("cpu budget")
	end)
end)

describe("audit.usage", function()
	it("counts match the calls made, per session and capability", function()
		local s = session("usage")
		limina.policy.quota({ sessionId = "ses_usage", cap = "physics.write", limit = 2, windowTicks = 1000 })
		local ball = h.entity({ dynamic = true, position = { 0, 80, 0 } })
		for i = 1, 5 do
			s:call("physics.applyImpulse", { entity = ball, impulse = { 0, 1, 0 } })
		end
		for i = 1, 3 do
			s:call("scene.queryEntities", {})
		end
		local usage = h.ok("audit.usage", { sessionId = "ses_usage" })
		local rows = {}
		for _, row in usage.perSessionCap do
			expect(row.sessionId).toBe("ses_usage")
			rows[row.cap] = row
		end
		expect(rows["physics.write"].allowed).toBe(2)
		expect(rows["physics.write"].denied).toBe(3)
		expect(rows["scene.read"].allowed).toBe(3)
		expect(rows["scene.read"].denied).toBe(0)
		expect(#usage.quotas).toBe(1)
		expect(usage.quotas[1].quota[1].limit).toBe(2)
	end)
end)

describe("policy.changed", function()
	it("records who changed the rules", function()
		limina.policy.quota({ cap = "audio.play", limit = 1, windowTicks = 5 })
		local changes = h.ok("trace.tail", { type = "policy.changed", limit = 1000 }).events
		local last = changes[#changes]
		expect(last.actorId).toBe("agt_script")
		expect(last.payload.op).toBe("quota")
		expect(last.payload.cap).toBe("audio.play")
	end)
end)
