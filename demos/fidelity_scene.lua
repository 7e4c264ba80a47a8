-- Fidelity scene: a shadow-casting light sweeping over a receiving floor, a textured glTF model,
-- metal and matte spheres, ACES tone mapping and 4x MSAA — all authored through skills.
--
--   limina run demos/fidelity_scene.lua --window
--   limina run demos/fidelity_scene.lua --frames 90 --screenshot fidelity.png

local function call(skill, input)
	local r = limina.call(skill, input)
	if not r.success then
		error(string.format("%s failed: %s", skill, r.error.message), 2)
	end
	return r.result
end

call("render.setCamera", { position = { 6, 5, 9 }, target = { 0, 1, 0 }, fov = 45 })

local floor = call("scene.createEntity", { shape = "box", position = { 0, -0.25, 0 }, color = 0xd8d4cc, static = true }).entity
call("ecs.updateComponent", { entity = floor, component = "scale", value = { 16, 0.5, 16 } })
call("three.setMaterial", { entity = floor, roughness = 0.9, castShadow = false })

local crate = call("three.loadGLTF", { assetId = "models/crate.glb", position = { -2, 0, 0 } })
print(string.format("fidelity: loaded %s (%d meshes, %d textures) as %s", crate.resource.assetId, crate.resource.meshCount, crate.resource.textureCount, crate.entity))

-- A spinning caster whose shadow sweeps the floor.
local spinner = call("scene.createEntity", { shape = "box", size = 1.2, position = { 1.5, 1.6, 0 }, color = 0x3a6fd8 }).entity
call("ecs.updateComponent", { entity = spinner, component = "scale", value = { 2.2, 0.3, 0.6 } })
call("three.setMaterial", { entity = spinner, roughness = 0.35, metalness = 0.2 })

-- A row of spheres from matte to mirror-like.
for i = 0, 4 do
	local ball = call("scene.createEntity", { shape = "sphere", size = 0.8, position = { -2 + i * 1.1, 0.4, 2.6 }, color = 0xd9a441 }).entity
	call("three.setMaterial", { entity = ball, roughness = 1 - i * 0.22, metalness = if i >= 3 then 1 else 0 })
end

limina.on_step(function(tick)
	local t = tick / 60
	-- The sun circles the scene, low enough for long shadows.
	call("three.setLighting", {
		castShadow = true,
		direction = { math.cos(t * 0.6) * 6, 7, math.sin(t * 0.6) * 6 },
		shadowCameraExtent = 9,
		shadowMapSize = 2048,
		directionalIntensity = 3.2,
		ambientIntensity = 1.0,
	})
	call("three.setTransform", { entity = spinner, rotationEuler = { 0, t * 1.5, 0 } })
	if tick % 60 == 0 then
		print(string.format("fidelity: t=%.1fs light circling, caster at %.2f rad", t, t * 1.5))
	end
end)

return { frames = 300 }
