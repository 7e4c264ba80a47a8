-- UI showcase: every kind of UI element the ui.* skills make, over a small scene — a label, a
-- speech bubble, a thought bubble, a callout and a titled text box anchored in the world (they
-- follow their entities and always face the camera), and a HUD panel pinned to the screen. The
-- lifecycles run in sim time: the bubble types its line, the callout fades in, a toast expires,
-- the HUD's feed scrolls, the text box's queue shows one note after another.
--
--   limina run demos/ui_showcase.lua --screenshot ui.png   -- headless, saves the last frame
--   limina run demos/ui_showcase.lua --window              -- the camera orbits; world panels turn
--                                                            to face it, the HUD stays put

local function call(skill, input)
	local r = limina.call(skill, input)
	if not r.success then
		error(string.format("%s failed: %s (%s)", skill, r.error.message, r.error.code), 2)
	end
	return r.result
end

call("three.setLighting", { castShadow = true, direction = { 4, 9, 5 }, shadowCameraExtent = 10 })
local floor = call("scene.createEntity", { shape = "box", position = { 0, -0.5, 0 }, static = true, color = 0x708090 }).entity
call("ecs.updateComponent", { entity = floor, component = "scale", value = { 16, 1, 10 } })
local crate = call("scene.createEntity", { shape = "box", position = { -4, 0.5, 0 }, color = 0xb07030 }).entity
local robot = call("scene.createEntity", { shape = "capsule", size = 1.6, position = { -1.3, 0.8, 0.5 }, color = 0x3070e0, static = true }).entity
local ball = call("scene.createEntity", { shape = "sphere", position = { 1.5, 0.5, 0 }, color = 0xe0c030 }).entity
local pillar = call("scene.createEntity", { shape = "box", position = { 4.2, 1, -0.5 }, color = 0x9a9aa0, static = true }).entity
call("ecs.updateComponent", { entity = pillar, component = "scale", value = { 0.8, 2, 0.8 } })

local world = function(entity, up)
	return { kind = "world", entity = entity, offset = { 0, up, 0 } }
end

local made = {}
local function place(skill, input)
	local handle = call(skill, input).handle
	table.insert(made, string.format("%s %s", skill, handle))
	return handle
end

place("ui.label", { anchor = world(crate, 0.8), text = "Crate #1 — 12 kg" })
place("ui.speechBubble", {
	anchor = world(robot, 1.3),
	text = "Hello! Grüß dich! Привет! こんにちは! (CJK from fonts-noto-cjk; without it, �)",
	maxWidth = 260,
	lifecycle = { typewriter = { cps = 24 } },
})
place("ui.thoughtBubble", { anchor = world(ball, 0.7), text = "am I round enough?", tail = { count = 3 } })
place("ui.callout", {
	anchor = { kind = "world", point = { 4.2, 2.1, -0.5 } },
	title = "Pillar",
	text = "static collider, 0.8 × 2 × 0.8 m",
	leader = { dx = 70, dy = -50 },
	lifecycle = { fade = { durationMs = 1500 } },
})
place("ui.textBox", {
	anchor = { kind = "screen", corner = "bottom-left" },
	title = "Notes",
	maxWidth = 300,
	lifecycle = { queue = { lines = { "Every element is world state: ui.panel and friends make it, ui.update and ui.remove change it.", "Lifecycles run in sim time, so a replay shows the same frame at the same tick.", "Text is shaped once by cosmic-text; each frame only moves its glyphs, from one atlas." }, defaultHoldMs = 3000 }, typewriter = { cps = 60 } },
})
local hud = place("ui.hudPanel", {
	anchor = { kind = "screen", corner = "top-right" },
	title = "UI showcase",
	lines = { "elements: 7" },
	maxWidth = 260,
	lifecycle = { feed = { maxLines = 5 } },
})
place("ui.panel", {
	kind = "label",
	anchor = { kind = "screen", corner = "top-center", marginPx = { 0, 12 } },
	text = "toast: this one expires after 4 s",
	style = { background = { color = 0x20603a, opacity = 0.9 }, text = { color = 0xffffff } },
	lifecycle = { ttl = 4000, fade = { durationMs = 500 } },
})
for _, line in made do
	print("placed " .. line)
end

limina.on_step(function(tick)
	-- The camera orbits the scene; world panels follow their entities and face it.
	local angle = tick / 600 * 2 * math.pi
	call("render.setCamera", { position = { math.sin(angle) * 11, 5, math.cos(angle) * 11 }, target = { 0, 1, 0 }, fov = 50 })
	if tick > 0 and tick % 60 == 0 then
		call("ui.update", { handle = hud, lines = { string.format("tick %d: %d elements live", tick, #call("inspector.snapshot", { limit = 0 }).ui) } })
	end
end)

return { frames = 360 }
