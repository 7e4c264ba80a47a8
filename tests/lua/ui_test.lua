local h = require("./helpers")

-- UI elements are world state changed only through the ui.* skills. Times are sim time: one
-- tick is 1000/60 ms.

local screen = { kind = "screen", corner = "top-left" }

local function element(handle)
	for _, e in h.ok("inspector.snapshot", {}).ui do
		if e.handle == handle then
			return e
		end
	end
	return nil
end

describe("ui element skills", function()
	it("every kind is made by its own skill and by ui.panel, and shows in the inspector", function()
		local target = h.entity({ position = { 0, 0.5, 0 } })
		local world = { kind = "world", entity = target, offset = { 0, 1, 0 } }
		local made = {
			h.ok("ui.label", { anchor = world, text = "crate" }).handle,
			h.ok("ui.textBox", { anchor = screen, title = "Log", text = "body text that wraps", maxWidth = 120 }).handle,
			h.ok("ui.speechBubble", { anchor = world, text = "Grüß dich! ¿Qué tal?", tail = { side = "bottom", length = 12 } }).handle,
			h.ok("ui.thoughtBubble", { anchor = { kind = "world", point = { 1, 2, 3 } }, text = "hmm", tail = { count = 3 } }).handle,
			h.ok("ui.callout", { anchor = world, text = "look", leader = { dx = 40, dy = -30 } }).handle,
			h.ok("ui.hudPanel", { anchor = { kind = "screen", corner = "bottom-right", marginPx = { 8, 8 } }, lines = { "a", "b" } }).handle,
			h.ok("ui.panel", { kind = "callout", anchor = screen, text = "panel", style = { background = { color = { r = 1, g = 2, b = 3, a = 200 } } } }).handle,
		}
		local kinds = { "label", "textBox", "speechBubble", "thoughtBubble", "callout", "hudPanel", "callout" }
		for i, handle in made do
			expect(string.match(handle, "^ui_%d%d%d%d+$")).never.toBeNil()
			expect(element(handle).kind).toBe(kinds[i])
		end
		expect(element(made[3]).text).toBe("Grüß dich! ¿Qué tal?")
		for _, handle in made do
			expect(h.ok("ui.remove", { handle = handle }).removed).toBe(true)
		end
	end)

	it("changes the world hash, and removing restores it", function()
		local before = limina.world_hash()
		local handle = h.ok("ui.label", { anchor = screen, text = "hash me" }).handle
		local with = limina.world_hash()
		expect(with).never.toBe(before)
		h.ok("ui.update", { handle = handle, text = "changed" })
		expect(limina.world_hash()).never.toBe(with)
		h.ok("ui.remove", { handle = handle })
		expect(limina.world_hash()).toBe(before)
	end)

	it("refuses each bound and unknown fields with invalid_input, changing nothing", function()
		local before = limina.world_hash()
		local bad = {
			{ "ui.label", { anchor = screen, maxWidth = 0 } },
			{ "ui.label", { anchor = screen, width = -1 } },
			{ "ui.label", { anchor = screen, maxLines = 0 } },
			{ "ui.label", { anchor = screen, maxLines = 1.5 } },
			{ "ui.label", { anchor = screen, pixelScale = 0 } },
			{ "ui.label", { anchor = { kind = "screen", corner = "middle" } } },
			{ "ui.label", { anchor = { kind = "screen", distance = 0 } } },
			{ "ui.label", { anchor = { kind = "orbit" } } },
			{ "ui.label", { anchor = { kind = "world" } } },
			{ "ui.label", { anchor = { kind = "world", point = { 1, 2 } } } },
			{ "ui.label", { anchor = screen, tail = { count = 9 } } },
			{ "ui.label", { anchor = screen, tail = { count = 0 } } },
			{ "ui.label", { anchor = screen, leader = { dx = 1 } } },
			{ "ui.label", { anchor = screen, leader = { dx = 1, dy = 1, offset = 1.5 } } },
			{ "ui.label", { anchor = screen, lifecycle = { ttl = 0 } } },
			{ "ui.label", { anchor = screen, lifecycle = { ttl = 1e10 } } },
			{ "ui.label", { anchor = screen, lifecycle = { fade = { durationMs = 1e300 } } } },
			{ "ui.label", { anchor = screen, lifecycle = { typewriter = { cps = 1e6 } } } },
			{ "ui.label", { anchor = screen, lines = table.create(257, "x") } },
			{ "ui.label", { anchor = screen, style = { runs = table.create(257, { text = "" }) } } },
			{ "ui.label", { anchor = screen, lifecycle = { fade = { durationMs = 100, from = 2 } } } },
			{ "ui.label", { anchor = screen, lifecycle = { feed = { maxLines = 65 } } } },
			{ "ui.label", { anchor = screen, lifecycle = { typewriter = { cps = 0 } } } },
			{ "ui.label", { anchor = screen, lifecycle = { queue = { mode = "shuffle" } } } },
			{ "ui.label", { anchor = screen, style = { background = { color = 0x1000000 } } } },
			{ "ui.label", { anchor = screen, style = { background = { color = { r = 256, g = 0, b = 0, a = 0 } } } } },
			{ "ui.label", { anchor = screen, style = { text = { align = "justify" } } } },
			{ "ui.label", { anchor = screen, style = { text = { scale = 0 } } } },
			{ "ui.label", { anchor = screen, style = { padding = -1 } } },
			{ "ui.label", { anchor = screen, style = { border = { width = 1 } } } },
			{ "ui.label", { anchor = screen, text = string.rep("x", 8193) } },
			{ "ui.label", { anchor = screen, colour = 1 } },
			{ "ui.label", { anchor = screen, style = { blink = true } } },
			{ "ui.label", { text = "no anchor" } },
			{ "ui.panel", { anchor = screen } },
			{ "ui.panel", { kind = "tooltip", anchor = screen } },
			{ "ui.update", { handle = "ui_0001", colour = 1 } },
			{ "ui.update", {} },
			{ "ui.remove", { handle = 7 } },
		}
		for _, case in bad do
			h.fails(case[1], case[2], "invalid_input")
		end
		expect(limina.world_hash()).toBe(before)
	end)

	it("names the missing entity of a world anchor and refuses a malformed one", function()
		local msg = h.fails("ui.label", { anchor = { kind = "world", entity = "ent_9999" }, text = "x" }, "not_found")
		expect(string.find(msg, "ent_9999", 1, true)).never.toBeNil()
		msg = h.fails("ui.label", { anchor = { kind = "world", entity = "box1" }, text = "x" }, "invalid_input")
		expect(string.find(msg, "box1", 1, true)).never.toBeNil()
	end)

	it("expires an element at its ttl, traced, and its handle then resolves to nothing", function()
		local handle = h.ok("ui.label", { anchor = screen, text = "brief", lifecycle = { ttl = 100 } }).handle
		limina.step(5)
		expect(element(handle)).never.toBeNil()
		limina.step(2)
		expect(element(handle)).toBeNil()
		local expired = h.ok("trace.tail", { type = "ui.expired" }).events
		expect(expired[#expired].payload.handle).toBe(handle)
		local msg = h.fails("ui.update", { handle = handle, text = "late" }, "not_found")
		expect(string.find(msg, "expired or was removed", 1, true)).never.toBeNil()
		h.fails("ui.remove", { handle = handle }, "not_found")
	end)

	it("update and remove of a stale or made-up handle are not_found and change nothing", function()
		local before = limina.world_hash()
		local msg = h.fails("ui.update", { handle = "ui_99999", text = "x" }, "not_found")
		expect(string.find(msg, "never", 1, true)).never.toBeNil()
		msg = h.fails("ui.remove", { handle = "label-1" }, "not_found")
		expect(string.find(msg, "not a UI handle", 1, true)).never.toBeNil()
		expect(limina.world_hash()).toBe(before)
	end)

	it("update reports whether anything changed", function()
		local handle = h.ok("ui.textBox", { anchor = screen, title = "t", text = "a" }).handle
		local r = h.ok("ui.update", { handle = handle, text = "a" })
		expect(r.ok).toBe(true)
		expect(r.changed).toBe(false)
		r = h.ok("ui.update", { handle = handle, text = "b", style = { text = { color = 0xff0000 } } })
		expect(r.changed).toBe(true)
		expect(element(handle).style.text.color).toBe(0xff0000)
		h.ok("ui.remove", { handle = handle })
	end)

	it("is denied under player.limited with zero effect, and traced", function()
		local before = limina.world_hash()
		local player = limina.session({ profile = "player.limited" })
		local handle = h.ok("ui.label", { anchor = screen, text = "mine" }).handle
		local after_create = limina.world_hash()
		for _, case in {
			{ "ui.label", { anchor = screen, text = "x" } },
			{ "ui.panel", { kind = "hudPanel", anchor = screen } },
			{ "ui.update", { handle = handle, text = "hijack" } },
			{ "ui.remove", { handle = handle } },
		} do
			expect(h.fails(case[1], case[2], "forbidden", player)).toBe("missing permission: ui.write (profile player.limited lacks it; granted by builder.readWrite)")
		end
		expect(limina.world_hash()).toBe(after_create)
		local denied = h.ok("trace.tail", { type = "security.permission.denied" }).events
		expect(denied[#denied].payload.skill).toBe("ui.remove")
		h.ok("ui.remove", { handle = handle })
		expect(limina.world_hash()).toBe(before)
	end)

	it("lets only an element's owner or the operator change it", function()
		local alice = limina.session({ agentId = "agt_alice", sessionId = "ses_alice", profile = "builder.readWrite" })
		local mallory = limina.session({ agentId = "agt_mallory", sessionId = "ses_mallory", profile = "builder.readWrite" })
		local r = alice:call("ui.label", { anchor = screen, text = "alice's" })
		expect(r.success).toBe(true)
		local handle = r.result.handle
		local before = limina.world_hash()
		local msg = h.fails("ui.update", { handle = handle, text = "mallory's" }, "forbidden", mallory)
		expect(string.find(msg, "belongs to agt_alice", 1, true)).never.toBeNil()
		h.fails("ui.remove", { handle = handle }, "forbidden", mallory)
		expect(limina.world_hash()).toBe(before)
		expect(alice:call("ui.update", { handle = handle, text = "still alice's" }).success).toBe(true)
		-- The operator (the host script) may change anything.
		h.ok("ui.remove", { handle = handle })
	end)
end)
