-- The example mods in scripts/ (loaded at start-up for every engine in this project).
local h = require("./helpers")

describe("example mods", function()
	it("greet (asks for local trust) answers with the caller's name", function()
		local r = h.ok("mods.greet", { name = "ada" })
		expect(r.message).toBe("hello, ada (from agt_script)")
		expect(type(r.entities)).toBe("number")
	end)

	it("a manifest's trust only asks: greet runs untrusted until the operator grants it", function()
		local greet = h.ok("package.list", { name = "greet" }).packages[1]
		expect(greet.trustRequested).toBe("local")
		expect(greet.trust).toBe("untrusted")
		expect(greet.trustGranted).toBeNil()
		expect(greet.trustWhy).toContain("limina packages trust greet")
		expect(greet.path).toBe("greet.luau")
	end)

	it("towers (untrusted) builds through host.invoke", function()
		local r = h.ok("towers.build", { base = { 40, 0, 0 }, height = 4 })
		expect(#r.entities).toBe(4)
		local top = h.ok("scene.queryEntities", { tag = "tower_top" }).entities
		expect(top[#top].entity).toBe(r.entities[4])
		expect(h.position(r.entities[4])[2]).toBeCloseTo(3.5, 4)
	end)

	it("towers-plus extends towers and calls its skill", function()
		local r = h.ok("towers.ring", { center = { -40, 0, 0 }, count = 3, height = 2 })
		expect(r.towers).toBe(3)
		expect(r.entities).toBe(6)
	end)

	it("mod skills obey their own permissions", function()
		local ro = limina.session({ profile = "system.readonly" })
		expect(h.fails("towers.build", {}, "forbidden", ro)).toBe("missing permission: scene.write (profile system.readonly lacks it; granted by builder.readWrite)")
	end)

	it("mod skills validate input like core skills", function()
		expect(h.fails("towers.build", { height = 99 }, "invalid_input")).toContain("height")
	end)

	it("package.list shows refs, kinds, capabilities and hashes", function()
		local list = h.ok("package.list", {}).packages
		local byName = {}
		for _, p in list do
			byName[p.name] = p
		end
		expect(byName.towers.ref).toBe("towers@1.1.0")
		expect(byName.towers.kind).toBe("folder")
		expect(byName.towers.declaredCapabilities).toContain("scene.write")
		expect(byName.greet.kind).toBe("single-file")
		expect(byName["towers-plus"].declaredCapabilities).toContain("scene.write")
		expect(byName.towers.contentHash).toMatch("^sha256:%x+$")
	end)

	it("revoking a capability for a package degrades it without unloading it", function()
		limina.policy.revoke({ package = "towers", cap = "scene.write" })
		local r = limina.call("towers.build", { base = { 80, 0, 0 } })
		expect(r.success).toBe(false)
		expect(r.error.message).toContain("capability scene.write was revoked for package towers")
		limina.policy.restore({ package = "towers", cap = "scene.write" })
		expect(limina.call("towers.build", { base = { 80, 0, 0 } }).success).toBe(true)
	end)
end)
