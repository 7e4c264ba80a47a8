local h = require("./helpers")

describe("inspector.snapshot", function()
	it("pages through entities with transforms, tags and bodies", function()
		local ids = {}
		for i = 1, 5 do
			table.insert(ids, h.entity({ position = { i, 0, 0 }, dynamic = i == 1 }))
		end
		h.ok("ecs.addComponent", { entity = ids[2], component = "target" })
		local page = h.ok("inspector.snapshot", { limit = 2 })
		expect(page.page.limit).toBe(2)
		expect(page.page.totalEntities).toBe(5)
		expect(page.page.nextAfterEntity).toBe(ids[2])
		expect(#page.entities).toBe(2)
		expect(page.entities[1].entity).toBe(ids[1])
		expect(page.entities[1].physics.bodyId).toBeTruthy()
		expect(page.entities[2].physics.bodyId).toBeNil()
		expect(page.entities[2].tags).toEqual({ "target" })
		expect(page.entities[1].transform.rotation).toEqual({ 0, 0, 0, 1 })
		local seen = #page.entities
		local after = page.page.nextAfterEntity
		while after do
			local next = h.ok("inspector.snapshot", { limit = 2, afterEntity = after })
			seen += #next.entities
			after = next.page.nextAfterEntity
		end
		expect(seen).toBe(5)
	end)

	it("reports skills, permissions, resources and trace metadata", function()
		local snap = h.ok("inspector.snapshot", {})
		expect(#snap.skills).toBeGreaterThan(15)
		expect(snap.permissions.caller).toContain("scene.write")
		expect(snap.permissions.profiles["system.readonly"]).toEqual({ "scene.read", "ecs.read", "physics.read", "agent.read", "trace.read" })
		expect(snap.resources.counts.skills).toBe(#snap.skills)
		expect(snap.trace.eventCount).toBeGreaterThan(0)
		expect(snap.trace.actors).toContain("agt_script")
		expect(snap.world.tick).toBe(limina.tick())
		expect(snap.agents).toEqual({})
	end)

	it("bounds the page size and rejects a malformed cursor", function()
		expect(h.fails("inspector.snapshot", { limit = 501 }, "invalid_input")).toContain("limit")
		expect(h.fails("inspector.snapshot", { afterEntity = "nope" }, "invalid_input")).toContain("afterEntity")
	end)

	it("needs the four read permissions", function()
		local nobody = limina.session({ profile = "nobody" })
		h.fails("inspector.snapshot", {}, "forbidden", nobody)
		local ro = limina.session({ profile = "system.readonly" })
		expect(ro:call("inspector.snapshot", {}).success).toBe(true)
	end)
end)

describe("dev.reload", function()
	it("re-registers a core skill and records the completion", function()
		local r = h.ok("dev.reload", { target = "skill", name = "scene.createEntity", reason = "test" })
		expect(r.ok).toBe(true)
		expect(r.invalidated).toEqual({ "scene.createEntity" })
		expect(h.entity()).toMatch("^ent_")
		local events = h.ok("trace.tail", { type = "dev.skill.reload.completed", limit = 10 }).events
		expect(events[#events].payload.name).toBe("scene.createEntity")
	end)

	it("fails honestly for targets that cannot reload", function()
		local r = h.ok("dev.reload", { target = "scene", name = "main" })
		expect(r.ok).toBe(false)
		expect(r.reason).toContain("nothing to re-run")
		local events = h.ok("trace.tail", { type = "dev.scene.reload.failed", limit = 10 }).events
		expect(#events).toBe(1)
		local missing = h.ok("dev.reload", { target = "skill", name = "no.such.skill" })
		expect(missing.ok).toBe(false)
		expect(missing.reason).toContain("no skill named")
	end)

	it("validates its input", function()
		expect(h.fails("dev.reload", { target = "skill" }, "invalid_input")).toContain("name")
		expect(h.fails("dev.reload", { target = "everything" }, "invalid_input")).toContain("target")
		expect(h.fails("dev.reload", { target = "skill", name = "x", reason = string.rep("a", 201) }, "invalid_input")).toContain("reason")
	end)
end)
