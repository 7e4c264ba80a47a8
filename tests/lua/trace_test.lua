local h = require("./helpers")

describe("trace.tail", function()
	it("pages through every event exactly once, in order", function()
		for i = 1, 30 do
			h.entity({ position = { i, 0, 0 } })
		end
		-- Paging emits events too (each call is traced), so page up to a marker.
		local marker = h.ok("trace.explainEvent", { eventId = h.ok("agent.emitEvent", { type = "marker" }).eventId }).event.seq
		local seen, after, pages, last = {}, -1, 0, 0
		while after < marker do
			local page = h.ok("trace.tail", { afterSeq = after, limit = 7 })
			pages += 1
			for _, e in page.events do
				expect(seen[e.seq]).toBeNil()
				expect(e.seq).toBeGreaterThan(last)
				seen[e.seq] = true
				last = e.seq
			end
			after = page.nextAfterSeq
		end
		for seq = 1, marker do
			expect(seen[seq]).toBe(true)
		end
		expect(pages).toBeGreaterThan(8)
	end)

	it("ends with an empty page and a null cursor once a filtered stream is drained", function()
		local src = limina.session({ agentId = "agt_pager", profile = "builder.readWrite" })
		for i = 1, 10 do
			src:call("scene.createEntity", { position = { i, 1, 0 } })
		end
		local total, after = 0, -1
		while true do
			local page = h.ok("trace.tail", { afterSeq = after, limit = 3, actorId = "agt_pager" })
			if #page.events == 0 then
				expect(page.nextAfterSeq).toBeNil()
				break
			end
			total += #page.events
			after = page.nextAfterSeq
		end
		-- One decision and one execution per call.
		expect(total).toBe(20)
	end)

	it("filters by type and actor", function()
		local s = limina.session({ agentId = "agt_filter", profile = "builder.readWrite" })
		s:call("scene.createEntity", {})
		s:call("scene.createEntity", {})
		local page = h.ok("trace.tail", { actorId = "agt_filter", type = "skill.executed", limit = 1000 })
		expect(#page.events).toBe(2)
		for _, e in page.events do
			expect(e.actorId).toBe("agt_filter")
			expect(e.type).toBe("skill.executed")
			expect(e.payload.skill).toBe("scene.createEntity")
			expect(e.id).toMatch("^evt_agt_filter_%d+_%x+$")
		end
	end)

	it("rejects limits and cursors out of bounds, naming the field", function()
		expect(h.fails("trace.tail", { limit = 1001 }, "invalid_input")).toContain("limit")
		expect(h.fails("trace.tail", { limit = -1 }, "invalid_input")).toContain("limit")
		expect(h.fails("trace.tail", { afterSeq = -2 }, "invalid_input")).toContain("afterSeq")
		expect(h.fails("trace.tail", { afterSeq = 1.5 }, "invalid_input")).toContain("afterSeq")
	end)

	it("returns an empty page with limit 0", function()
		expect(#h.ok("trace.tail", { limit = 0 }).events).toBe(0)
	end)
end)

describe("trace.explainEvent and audit.explain", function()
	it("explain an allowed call: decision, rule, reason and the causal chain", function()
		local r = limina.call("scene.createEntity", { position = { 3, 3, 3 } })
		local executed = h.ok("trace.tail", { type = "skill.executed", limit = 1000 }).events
		local event = executed[#executed]
		expect(event.payload.skill).toBe("scene.createEntity")
		local explained = h.ok("trace.explainEvent", { eventId = event.id })
		expect(explained.event.id).toBe(event.id)
		expect(#explained.parents).toBe(1)
		local decision = explained.parents[1]
		expect(decision.type).toBe("policy.decision")
		expect(decision.payload.rule).toBe("profile.grant")
		-- The decision's children include the execution.
		local children = h.ok("trace.explainEvent", { eventId = decision.id }).children
		expect(children[1].id).toBe(event.id)

		local why = h.ok("audit.explain", { eventId = event.id })
		expect(why.found).toBe(true)
		expect(why.eventType).toBe("skill.executed")
		expect(why.decision.allow).toBe(true)
		expect(why.decision.rule).toBe("profile.grant")
		expect(why.decision.reason).toContain("profile grants")
		expect(why.decision.context.requiredPermissions).toEqual({ "scene.write" })
		expect(why.decision.eventId).toBe(decision.id)
		expect(why.provenance.agentId).toBe("agt_script")
		expect(why.provenance.profile).toBe("builder.readWrite")
		expect(why.causalTrace.parents[1].id).toBe(decision.id)
		expect(r.success).toBe(true)
	end)

	it("explain a denied call: the denial links its decision", function()
		local ro = limina.session({ agentId = "agt_ro", sessionId = "ses_ro", profile = "system.readonly" })
		ro:call("scene.createEntity", {})
		local denial = h.ok("trace.tail", { type = "security.permission.denied", limit = 1000 }).events
		local event = denial[#denial]
		expect(event.payload.missing).toBe("scene.write")
		expect(event.payload.agentId).toBe("agt_ro")
		local parents = h.ok("trace.explainEvent", { eventId = event.id }).parents
		expect(parents[1].type).toBe("policy.denied")
		local why = h.ok("audit.explain", { eventId = event.id })
		expect(why.decision.allow).toBe(false)
		expect(why.decision.rule).toBe("profile.denied")
		expect(why.decision.reason).toBe("missing permission: scene.write (profile system.readonly lacks it; granted by builder.readWrite)")
		expect(why.decision.context.sessionId).toBe("ses_ro")
		expect(why.provenance.profile).toBe("system.readonly")
		expect(#why.causalTrace.ancestry).toBe(1)
		-- Explaining the decision itself returns it as the governing decision.
		local direct = h.ok("audit.explain", { eventId = parents[1].id })
		expect(direct.decision.eventId).toBe(parents[1].id)
	end)

	it("refuses unknown and malformed event ids, naming eventId", function()
		expect(h.fails("trace.explainEvent", { eventId = "evt_nobody_000099999999_0000000000000000" }, "invalid_input")).toContain("eventId")
		expect(h.fails("trace.explainEvent", { eventId = "not-an-id" }, "invalid_input")).toContain("eventId")
		expect(h.fails("audit.explain", { eventId = "evt_x_000000000001_ffffffffffffffff" }, "invalid_input")).toContain("eventId")
		expect(h.fails("trace.explainEvent", {}, "invalid_input")).toContain("eventId")
	end)
end)

describe("trace.export", function()
	it("writes traces/NAME.jsonl and it verifies", function()
		h.entity()
		local r = h.ok("trace.export", { name = "trace_test" })
		expect(r.name).toBe("trace_test")
		expect(r.events).toBeGreaterThan(3)
		expect(r.bytes).toBeGreaterThan(100)
		expect(limina.verify_trace("trace_test")).toBe("ok: " .. r.events .. " events")
	end)

	it("refuses names that could escape the traces folder", function()
		for _, bad in { "../evil", "a/b", "..", ".hidden", "/etc/passwd", "a\\b", "x..y", "" } do
			local msg = h.fails("trace.export", { name = bad }, "invalid_input")
			expect(msg).toContain("name")
		end
	end)
end)

describe("the tail is bounded, the history is not", function()
	it("keeps 8192 events in the tail while export holds them all", function()
		for i = 1, 4200 do
			limina.call("skills.list", {})
		end
		local first = h.ok("trace.tail", { limit = 1 }).events[1]
		expect(first.seq).toBeGreaterThan(1)
		local exported = h.ok("trace.export", { name = "trace_test_big" })
		expect(exported.events).toBeGreaterThan(8400)
		expect(limina.verify_trace("trace_test_big")).toBe("ok: " .. exported.events .. " events")
	end)
end)

describe("agent.emitEvent", function()
	it("records agent.signal.<type> attributed to the caller", function()
		local s = limina.session({ agentId = "agt_signal", profile = "player.limited" })
		local r = s:call("agent.emitEvent", { type = "spotted", payload = { what = "ball", at = { 1, 2, 3 } } })
		expect(r.success).toBe(true)
		local e = h.ok("trace.explainEvent", { eventId = r.result.eventId }).event
		expect(e.type).toBe("agent.signal.spotted")
		expect(e.actorId).toBe("agt_signal")
		expect(e.payload).toEqual({ what = "ball", at = { 1, 2, 3 } })
		expect(#e.causedBy).toBe(1)
	end)

	it("defaults the payload and validates the type", function()
		expect(h.ok("agent.emitEvent", { type = "ping" }).eventId).toMatch("^evt_")
		expect(h.fails("agent.emitEvent", { type = "" }, "invalid_input")).toContain("type")
		expect(h.fails("agent.emitEvent", { type = "x", payload = { 1, 2 } }, "invalid_input")).toContain("payload")
		local ro = limina.session({ profile = "system.readonly" })
		expect(h.fails("agent.emitEvent", { type = "x" }, "forbidden", ro)).toBe("missing permission: agent.write (profile system.readonly lacks it; granted by builder.readWrite, player.limited, social.actor)")
	end)
end)
