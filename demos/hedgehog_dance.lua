-- Hedgehog dance: a synthesized beat and melody from the audio.* skills, three hedgehogs bobbing
-- to it, and a line sung (well, spoken in time) by the TTS voice from where the lead hedgehog
-- stands. Every note is a world-state sound placed in the world, so the song is the same for the
-- same seed, and the camera hears it from where it looks.
--
--   limina run demos/hedgehog_dance.lua --audio-out song.wav   -- headless: writes the song (8 s)
--   limina run demos/hedgehog_dance.lua --window               -- watch and listen (a sound card)
--
-- Without espeak-ng the song plays without its words and says so.

local function call(skill, input)
	local r = limina.call(skill, input)
	if not r.success then
		error(string.format("%s failed: %s (%s)", skill, r.error.message, r.error.code), 2)
	end
	return r.result
end

local BPM = 120
local TICKS_PER_BEAT = 60 * 60 / BPM -- 30 ticks a beat at 60 steps/s
local BEATS = 16

call("three.setLighting", { castShadow = true, direction = { 3, 9, 5 }, shadowCameraExtent = 8 })
call("render.setCamera", { position = { 0, 1.8, 5 }, target = { 0, 0.6, 0 }, fov = 55 })
local floor = call("scene.createEntity", { shape = "box", position = { 0, -0.5, 0 }, static = true, color = 0x5a7d3a })
call("ecs.updateComponent", { entity = floor.entity, component = "scale", value = { 12, 1, 8 } })

-- A hedgehog: a brown body, a lighter face and a ring of spines (no physics: they dance on cue).
local hedgehogs = {}
for i, x in { -2.2, 0, 2.2 } do
	local body = call("scene.createEntity", { shape = "sphere", size = 1.1, position = { x, 0.55, 0 }, color = 0x6b4a2b }).entity
	local face = call("scene.createEntity", { shape = "sphere", size = 0.45, position = { x, 0.5, 0.45 }, color = 0xd8b48a }).entity
	local spines = {}
	for k = 0, 5 do
		local a = k / 6 * 2 * math.pi
		local spine = call("scene.createEntity", {
			shape = "capsule",
			size = 0.5,
			position = { x + math.cos(a) * 0.45, 0.8, math.sin(a) * 0.35 - 0.1 },
			color = 0x3a2614,
		}).entity
		table.insert(spines, { id = spine, dx = math.cos(a) * 0.45, dz = math.sin(a) * 0.35 - 0.1 })
	end
	hedgehogs[i] = { x = x, body = body, face = face, spines = spines, phase = i * 0.7 }
end
call("ui.label", { anchor = { kind = "world", entity = hedgehogs[2].body, offset = { 0, 1.1, 0 } }, text = "♪ the hedgehog trio ♪" })

-- The song: a kick on every beat, a hi-hat between, and a melody in A minor, each note a sound
-- placed where its player stands.
local MELODY = { 440, 523.25, 659.25, 587.33, 523.25, 440, 493.88, 523.25 }
call("audio.ambient", { volume = 0.25 })
local sung = false
local can_sing = true

limina.on_step(function(tick)
	local beat = tick / TICKS_PER_BEAT
	if tick % TICKS_PER_BEAT == 0 and beat < BEATS then
		call("audio.playAt", { freq = 60, secs = 0.25, position = { 0, 0, 0 }, volume = 0.9 })
		local note = MELODY[(beat % #MELODY) + 1]
		local player = hedgehogs[(beat % 3) + 1]
		call("audio.playAt", { freq = note, secs = 0.4, position = { player.x, 0.6, 0 }, volume = 0.6 })
	elseif tick % TICKS_PER_BEAT == TICKS_PER_BEAT / 2 and beat < BEATS then
		call("audio.playAt", { freq = 6000, secs = 0.05, position = { 2.2, 0.5, 0 }, volume = 0.15 })
	end
	-- The lead hedgehog sings on beat 4.
	if tick == 4 * TICKS_PER_BEAT and not sung then
		sung = true
		local r = limina.call("audio.speak", { text = "Dance, little hedgehogs, dance in the moonlight", position = { 0, 0.8, 0 }, volume = 1 })
		if not r.success then
			can_sing = false
			print("the voice is silent: " .. r.error.message)
		end
	end
	-- Bobbing: a hop on each beat, a sway between.
	for _, h in hedgehogs do
		local t = (tick / TICKS_PER_BEAT + h.phase * 0.1) % 1
		local hop = math.max(0, math.sin(t * math.pi)) * 0.35
		local sway = math.sin((tick / TICKS_PER_BEAT + h.phase) * math.pi) * 0.25
		call("three.setTransform", { entity = h.body, position = { h.x, 0.55 + hop, 0 }, rotationEuler = { 0, sway, sway * 0.4 } })
		call("three.setTransform", { entity = h.face, position = { h.x + math.sin(sway) * 0.45, 0.5 + hop, math.cos(sway) * 0.45 } })
		for _, s in h.spines do
			call("three.setTransform", { entity = s.id, position = { h.x + s.dx, 0.8 + hop, s.dz }, rotationEuler = { s.dz, 0, -s.dx } })
		end
	end
	if tick == BEATS * TICKS_PER_BEAT then
		print(string.format("the song is over after %d beats at %d BPM%s", BEATS, BPM, if can_sing then ", with a sung line" else ""))
	end
end)

print(string.format("hedgehog dance: 3 hedgehogs, %d beats at %d BPM; seed %d", BEATS, BPM, limina.seed()))
return { frames = BEATS * TICKS_PER_BEAT + 30 }
