local h = require("./helpers")

-- Each test builds far from the others (different x) so they do not interact.
describe("physics.applyImpulse", function()
	it("moves a dynamic body", function()
		local id = h.entity({ shape = "sphere", dynamic = true, position = { 0, 50, 0 } })
		expect(h.ok("physics.applyImpulse", { entity = id, impulse = { 5, 0, 0 } }).ok).toBe(true)
		limina.step(10)
		expect(h.position(id)[1]).toBeGreaterThan(0.5)
	end)

	it("reports ok = false for static bodies and body-less entities, not_found for unknown ids", function()
		local wall = h.entity({ static = true, position = { 100, 0, 0 } })
		local ghost = h.entity({ position = { 110, 0, 0 } })
		expect(h.ok("physics.applyImpulse", { entity = wall, impulse = { 1, 0, 0 } }).ok).toBe(false)
		expect(h.ok("physics.applyImpulse", { entity = ghost, impulse = { 1, 0, 0 } }).ok).toBe(false)
		expect(h.fails("physics.applyImpulse", { entity = "ent_9999", impulse = { 1, 0, 0 } }, "not_found"))
			.toBe("entity: ent_9999 never existed (ids so far go up to " .. ghost .. ")")
	end)

	it("rejects a malformed impulse", function()
		local id = h.entity({ dynamic = true, position = { 200, 50, 0 } })
		expect(h.fails("physics.applyImpulse", { entity = id, impulse = { 1, 0 } }, "invalid_input")).toContain("impulse")
		expect(h.fails("physics.applyImpulse", { entity = id }, "invalid_input")).toContain("impulse: required")
		expect(h.fails("physics.applyImpulse", { entity = id, impulse = { 1, 0, 1e39 } }, "invalid_input")).toContain("impulse[2]")
	end)

	it("is allowed for player.limited, denied for system.readonly", function()
		local id = h.entity({ dynamic = true, shape = "sphere", position = { 300, 50, 0 } })
		local player = limina.session({ profile = "player.limited" })
		expect(player:call("physics.applyImpulse", { entity = id, impulse = { 0, 1, 0 } }).success).toBe(true)
		local ro = limina.session({ profile = "system.readonly" })
		expect(h.fails("physics.applyImpulse", { entity = id, impulse = { 0, 1, 0 } }, "forbidden", ro)).toBe("missing permission: physics.write (profile system.readonly lacks it; granted by builder.readWrite, player.limited)")
	end)
end)

describe("physics.raycast", function()
	it("hits the nearest entity along the ray", function()
		local near = h.entity({ static = true, position = { 400, 0, 0 } })
		h.entity({ static = true, position = { 400, -5, 0 } })
		local r = h.ok("physics.raycast", { origin = { 400, 10, 0 }, direction = { 0, -1, 0 } })
		expect(r.hit).toBe(true)
		expect(r.entity).toBe(near)
		expect(r.distance).toBeCloseTo(9.5, 4)
		expect(r.point[2]).toBeCloseTo(0.5, 4)
	end)

	it("normalizes the direction and respects maxDistance", function()
		local id = h.entity({ static = true, position = { 500, 0, 0 } })
		local r = h.ok("physics.raycast", { origin = { 500, 10, 0 }, direction = { 0, -20, 0 } })
		expect(r.entity).toBe(id)
		expect(r.distance).toBeCloseTo(9.5, 4)
		local miss = h.ok("physics.raycast", { origin = { 500, 10, 0 }, direction = { 0, -1, 0 }, maxDistance = 5 })
		expect(miss.hit).toBe(false)
		expect(miss.entity).toBeNil()
	end)

	it("misses when nothing is there", function()
		local r = h.ok("physics.raycast", { origin = { -1000, 0, 0 }, direction = { -1, 0, 0 } })
		expect(r).toEqual({ hit = false })
	end)

	it("does not hit a destroyed entity", function()
		local id = h.entity({ static = true, position = { 600, 0, 0 } })
		h.ok("scene.destroyEntity", { entity = id })
		expect(h.ok("physics.raycast", { origin = { 600, 10, 0 }, direction = { 0, -1, 0 }, maxDistance = 20 }).hit).toBe(false)
	end)

	it("rejects a zero direction and a non-positive maxDistance", function()
		expect(h.fails("physics.raycast", { origin = { 0, 0, 0 }, direction = { 0, 0, 0 } }, "invalid_input")).toContain("direction")
		expect(h.fails("physics.raycast", { origin = { 0, 0, 0 }, direction = { 0, 1, 0 }, maxDistance = 0 }, "invalid_input")).toContain("maxDistance")
		expect(h.fails("physics.raycast", { direction = { 0, 1, 0 } }, "invalid_input")).toContain("origin: required")
	end)

	it("needs physics.read, which every profile has", function()
		local nobody = limina.session({ profile = "nobody" })
		h.fails("physics.raycast", { origin = { 0, 0, 0 }, direction = { 0, 1, 0 } }, "forbidden", nobody)
		local ro = limina.session({ profile = "system.readonly" })
		expect(ro:call("physics.raycast", { origin = { 0, 0, 0 }, direction = { 0, 1, 0 } }).success).toBe(true)
	end)
end)

describe("physics.collisionEvents", function()
	it("names both entities when a ball lands on a floor, then reports the stop", function()
		h.ok("physics.collisionEvents", {}) -- drain whatever earlier tests left
		local floor = h.entity({ static = true, position = { 700, 0, 0 } })
		local ball = h.entity({ shape = "sphere", dynamic = true, position = { 700, 3, 0 } })
		limina.step(60)
		local events = h.ok("physics.collisionEvents", {}).events
		local started
		for _, e in events do
			if e.started and ((e.entityA == floor and e.entityB == ball) or (e.entityA == ball and e.entityB == floor)) then
				started = e
			end
		end
		expect(started).toBeTruthy()
		expect(type(started.bodyA)).toBe("number")
		expect(#started.point).toBe(3)
		expect(#started.normal).toBe(3)
		-- Drained: a second call returns nothing new.
		expect(#h.ok("physics.collisionEvents", {}).events).toBe(0)
		-- Lift the ball away: the contact stops.
		h.ok("ecs.updateComponent", { entity = ball, component = "position", value = { 700, 30, 0 } })
		limina.step(2)
		local stopped = false
		for _, e in h.ok("physics.collisionEvents", {}).events do
			if not e.started and (e.entityA == ball or e.entityB == ball) then
				stopped = true
			end
		end
		expect(stopped).toBe(true)
	end)

	it("takes no input fields", function()
		expect(h.fails("physics.collisionEvents", { all = true }, "invalid_input")).toContain("unknown field 'all'")
	end)
end)
