-- Gallery: a hall of plinths showing the material range (roughness across, metalness back to
-- front), two glTF models and a tilted statue. Every exhibit is tagged, so
-- scene.queryEntities { tag = "exhibit" } finds them. A hand-written scene: it may compute its
-- numbers with `math` (nothing else is reachable while a scene file is read).
--
--   limina run scenes/gallery.lua --steps 120

local plinth = { kind = "static", friction = 0.7 }
local marble = { roughness = 0.35, metalness = 0, castShadow = true, receiveShadow = true }

return {
	format = 1,
	description = "A gallery of material spheres on plinths, two models and a tilted statue.",
	entities = {
		{ shape = "box", color = 0x2e2f36, position = { 0, -0.5, 0 }, scale = { 20, 1, 14 }, material = { roughness = 0.6, metalness = 0.2 }, tags = { "floor" }, body = { kind = "static" } },
		{ shape = "box", color = 0xe9e4da, position = { 0, 3, -7 }, scale = { 20, 6, 0.5 }, material = { roughness = 0.95, metalness = 0 }, tags = { "wall" }, body = { kind = "static" } },

		-- Front row: roughness 0.1 -> 0.9, plain dielectric.
		{ shape = "box", color = 0xf2efe8, position = { -4, 0.5, 1 }, material = marble, tags = { "plinth" }, body = plinth },
		{ shape = "sphere", color = 0x3d7be0, position = { -4, 1.5, 1 }, material = { roughness = 0.1, metalness = 0 }, tags = { "exhibit", "dielectric" } },
		{ shape = "box", color = 0xf2efe8, position = { 0, 0.5, 1 }, material = marble, tags = { "plinth" }, body = plinth },
		{ shape = "sphere", color = 0x3d7be0, position = { 0, 1.5, 1 }, material = { roughness = 0.5, metalness = 0 }, tags = { "exhibit", "dielectric" } },
		{ shape = "box", color = 0xf2efe8, position = { 4, 0.5, 1 }, material = marble, tags = { "plinth" }, body = plinth },
		{ shape = "sphere", color = 0x3d7be0, position = { 4, 1.5, 1 }, material = { roughness = 0.9, metalness = 0 }, tags = { "exhibit", "dielectric" } },

		-- Back row: the same roughness, fully metallic.
		{ shape = "box", color = 0xf2efe8, position = { -4, 0.5, -3 }, material = marble, tags = { "plinth" }, body = plinth },
		{ shape = "sphere", color = 0xd4a84a, position = { -4, 1.5, -3 }, material = { roughness = 0.1, metalness = 1 }, tags = { "exhibit", "metal" } },
		{ shape = "box", color = 0xf2efe8, position = { 0, 0.5, -3 }, material = marble, tags = { "plinth" }, body = plinth },
		{ shape = "sphere", color = 0xd4a84a, position = { 0, 1.5, -3 }, material = { roughness = 0.5, metalness = 1 }, tags = { "exhibit", "metal" } },
		{ shape = "box", color = 0xf2efe8, position = { 4, 0.5, -3 }, material = marble, tags = { "plinth" }, body = plinth },
		{ shape = "sphere", color = 0xd4a84a, position = { 4, 1.5, -3 }, material = { roughness = 0.9, metalness = 1 }, tags = { "exhibit", "metal" } },

		-- Models from assets/: a crate that drops onto the floor, a ball resting by the wall.
		{ model = "models/crate.glb", position = { -7.5, 3, 3 }, material = { roughness = 0.8, metalness = 0 }, tags = { "exhibit", "model" }, body = { kind = "dynamic", collider = "box", friction = 0.8 } },
		{ model = "models/ball.glb", size = 0.7, color = 0xff8844, position = { 7.5, 0.35, 3 }, tags = { "exhibit", "model" }, body = { kind = "static", collider = "sphere" } },

		-- A statue: a capsule leaning 20 degrees, turned 30 degrees about the vertical.
		{ shape = "capsule", size = 2.4, color = 0xb9b2a6, position = { 8, 1.2, -4.5 }, rotationEuler = { 0, math.rad(30), math.rad(20) }, material = marble, tags = { "exhibit", "statue" } },
	},
	lighting = {
		ambientColor = 0x505a6e,
		ambientIntensity = 1.1,
		directionalColor = 0xfff4e0,
		directionalIntensity = 2.6,
		direction = { 3, 12, 8 },
		castShadow = true,
		shadowCameraExtent = 14,
	},
	camera = { position = { 0, 5, 13 }, target = { 0, 1.2, -1 }, fov = 55 },
}
