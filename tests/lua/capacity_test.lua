-- The entity ceiling: 65536 live entities, then capacity_exceeded with nothing half-made.
local h = require("./helpers")

describe("entity capacity", function()
	it("stops at 65536 live entities with capacity_exceeded and nothing half-made", function()
		for i = 1, 65536 do
			local r = limina.call("scene.createEntity", { position = { i, 0, 0 }, dynamic = i % 64 == 0 })
			if not r.success then
				error("entity " .. i .. " failed: " .. r.error.message)
			end
		end
		local before = limina.world_hash()
		local r = limina.call("scene.createEntity", { dynamic = true })
		expect(r.success).toBe(false)
		expect(r.error.code).toBe("capacity_exceeded")
		expect(r.error.message).toContain("65536")
		expect(limina.world_hash()).toBe(before)
		expect(h.count()).toBe(65536)
	end)

	it("makes room again after a destroy, and ids keep counting up", function()
		expect(h.ok("scene.destroyEntity", { entity = "ent_0001" }).removed).toBe(true)
		-- ent_65537 was never issued: the refused create did not consume an id.
		expect(h.entity()).toBe("ent_65537")
		expect(limina.call("scene.createEntity", {}).error.code).toBe("capacity_exceeded")
	end)
end)
