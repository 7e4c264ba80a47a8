local h = require("./helpers")

-- Loads the shipped scenes (scenes/*.lua) through the skills; saving is tested from Rust, in
-- projects of their own, so this suite never writes into the repository.
describe("scene.load", function()
	it("replaces the world with the courtyard through the scene skills", function()
		h.entity({ position = { 40, 0, 0 } })
		local r = h.ok("scene.load", { name = "courtyard" })
		expect(r.entities).toBe(14)
		expect(r.destroyed).toBe(1)
		expect(r.renumbered).toBe(false)
		expect(h.count()).toBe(14)
		local crates = h.ok("scene.queryEntities", { tag = "crate" }).entities
		expect(#crates).toBe(6)
		local top = h.ok("scene.queryEntities", { tag = "top" }).entities
		expect(top[1].position).toEqual({ 0, 2.5, 0 })
		limina.step(60)
		expect(h.count()).toBe(14)
	end)

	it("refuses names that could leave scenes/, changing nothing", function()
		local hash = limina.world_hash()
		for _, name in { "../courtyard", "/etc/passwd", "scenes/courtyard", "courtyard.lua", "" } do
			h.fails("scene.load", { name = name }, "invalid_input")
		end
		expect(h.fails("scene.load", { name = "no_such_scene" }, "not_found")).toBe("scenes/no_such_scene.lua: no such scene file")
		expect(limina.world_hash()).toBe(hash)
	end)

	it("is denied to players before anything changes", function()
		local hash = limina.world_hash()
		local player = limina.session({ agentId = "agt_visitor", sessionId = "ses_visitor", profile = "player.limited" })
		local message = h.fails("scene.load", { name = "courtyard" }, "forbidden", player)
		expect(message).toContain("missing permission: scene.write")
		h.fails("scene.save", { name = "visitor" }, "forbidden", player)
		expect(limina.world_hash()).toBe(hash)
	end)
end)
