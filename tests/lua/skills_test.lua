local h = require("./helpers")

describe("skills.list", function()
	it("lists every core skill in registration order", function()
		local tools = h.ok("skills.list", {}).tools
		local names = {}
		for _, t in tools do
			table.insert(names, t.name)
			expect(#t.description).toBeGreaterThan(10)
		end
		expect(names[1]).toBe("scene.createEntity")
		for _, name in {
			"scene.createEntity", "scene.destroyEntity", "scene.queryEntities", "ecs.updateComponent", "ecs.addComponent",
			"ecs.removeComponent", "three.setTransform", "physics.applyImpulse", "physics.raycast", "physics.collisionEvents",
			"skills.list", "skills.describe",
		} do
			expect(names).toContain(name)
		end
	end)

	it("needs no permission", function()
		local nobody = limina.session({ profile = "nobody" })
		expect(nobody:call("skills.list", {}).success).toBe(true)
	end)
end)

describe("skills.describe", function()
	it("returns version, category and the draft-07 input schema", function()
		local d = h.ok("skills.describe", { name = "scene.createEntity" })
		expect(d.name).toBe("scene.createEntity")
		expect(d.version).toBe("1.0.0")
		expect(d.category).toBe("scene")
		expect(d.tier).toBe("core")
		expect(h.ok("skills.describe", { name = "audio.play" }).tier).toBe("standard")
		local schema = d.input_schema
		expect(schema["$schema"]).toBe("http://json-schema.org/draft-07/schema#")
		expect(schema.additionalProperties).toBe(false)
		expect(schema.properties.size.maximum).toBe(50)
		expect(schema.properties.size.exclusiveMinimum).toBe(0)
		expect(schema.properties.size.default).toBe(1)
		expect(schema.properties.shape.enum).toEqual({ "box", "sphere", "capsule" })
		-- Every field has a default or is optional, so nothing is required.
		expect(schema.required).toBeNil()
		local destroy = h.ok("skills.describe", { name = "scene.destroyEntity" }).input_schema
		expect(destroy.required).toEqual({ "entity" })
	end)

	it("fails with not_found for an unknown skill", function()
		expect(h.fails("skills.describe", { name = "scene.teleport" }, "not_found")).toContain("scene.teleport")
	end)
end)

describe("discovery", function()
	it("searches, browses and validates categories for a script too", function()
		local hits = h.ok("skills.search", { query = "speech bubble" }).results
		expect(hits[1].name).toBe("ui.speechBubble")
		expect(hits[1].inputSchema.type).toBe("object")
		local cats = h.ok("skills.browse", {}).categories
		expect(#cats).toBeGreaterThan(5)
		local ui = h.ok("skills.browse", { category = "ui" }).skills
		expect(ui[1].category).toBe("ui")
		expect(h.ok("skills.enable", { categories = { "ui" } }).tools).toContain("ui.label")
		expect(h.fails("skills.enable", { categories = { "weather" } }, "invalid_input")).toContain("unknown category 'weather'")
	end)

	it("shows a narrower profile only what it may call", function()
		local viewer = limina.session({ profile = "system.readonly" })
		local r = viewer:call("skills.search", { query = "create entity", limit = 25 })
		expect(#r.result.results).toBeGreaterThan(0)
		for _, hit in r.result.results do
			expect(hit.name).never.toBe("scene.createEntity")
		end
		local listed = viewer:call("skills.list", {}).result.tools
		expect(#listed).toBeGreaterThan(3)
		for _, t in listed do
			expect(t.name).never.toBe("scene.destroyEntity")
		end
	end)
end)

describe("the pipeline", function()
	it("returns not_found for an unknown skill, without throwing", function()
		local r = limina.call("scene.nothing", {})
		expect(r.success).toBe(false)
		expect(r.error.code).toBe("not_found")
	end)

	it("reports metadata: execution time and the events emitted", function()
		local r = limina.call("scene.createEntity", {})
		expect(r.metadata.executionTimeMs).toBeGreaterThanOrEqual(0)
		expect(r.metadata.eventsEmitted).toEqual({ "policy.decision", "skill.executed" })
		local bad = limina.call("scene.createEntity", { size = -1 })
		expect(bad.metadata.eventsEmitted).toEqual({ "skill.failed" })
	end)

	it("accepts a nil input as an empty one", function()
		expect(limina.call("skills.list").success).toBe(true)
	end)

	it("throws only for misuse of the API itself", function()
		expect(function()
			limina.call(42, {})
		end).toThrow("skill name must be a string")
		expect(function()
			limina.call("scene.createEntity", { f = print })
		end).never.toThrow()
		expect(limina.call("scene.createEntity", { f = print }).error.code).toBe("invalid_input")
	end)
end)

describe("errors an agent can act on", function()
	it("suggests the skill a misspelt name meant", function()
		local r = limina.call("scene.createEntty", {})
		expect(r.error.code).toBe("not_found")
		expect(r.error.message).toBe("no skill named 'scene.createEntty' (did you mean 'scene.createEntity'? skills.list shows them all)")
		expect(h.fails("teleport", {}, "not_found")).toBe("no skill named 'teleport' (skills.list shows them all)")
		expect(h.fails("skills.describe", { name = "createEntity" }, "not_found"))
			.toBe("no skill named 'createEntity' (did you mean 'scene.createEntity'? skills.list shows them all)")
	end)

	it("names the field, the rule and what is allowed", function()
		local before = limina.world_hash()
		expect(h.fails("scene.createEntity", { shape = "sphre" }, "invalid_input"))
			.toBe("invalid input for scene.createEntity: shape: 'sphre' is not one of 'box', 'sphere', 'capsule' (did you mean 'sphere'?)")
		expect(h.fails("scene.createEntity", { size = 80 }, "invalid_input"))
			.toBe("invalid input for scene.createEntity: size: 80 is above the maximum of 50; allowed [0.001, 50]")
		expect(h.fails("physics.applyImpulse", { entity = "ent_0001" }, "invalid_input"))
			.toBe("invalid input for physics.applyImpulse: impulse: required, expected a list of 3 numbers (each in [-1000000, 1000000])")
		expect(limina.world_hash()).toBe(before)
	end)
end)
