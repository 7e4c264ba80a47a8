-- Courtyard: a walled yard with a pyramid of crates, a rolling ball and a lantern post, lit low
-- from the west with real shadows. A hand-written scene (see scenes/README.md for the format).
--
--   limina run scenes/courtyard.lua --steps 120
--   limina run scenes/courtyard.lua --steps 120 --screenshot courtyard.png

local stone = { roughness = 0.9, metalness = 0, castShadow = false, receiveShadow = true }
local wall = { roughness = 0.8, metalness = 0, castShadow = true, receiveShadow = true }
local crate = { kind = "dynamic", friction = 0.8, restitution = 0 }

return {
	format = 1,
	description = "A walled courtyard: a pyramid of dynamic crates, a ball rolling into it, a lantern post.",
	entities = {
		-- The yard: a paved floor and four low walls (static bodies).
		{ shape = "box", color = 0x9a9388, position = { 0, -0.5, 0 }, scale = { 24, 1, 24 }, material = stone, tags = { "ground" }, body = { kind = "static", friction = 0.9 } },
		{ shape = "box", color = 0xc8b89a, position = { 0, 1, -12 }, scale = { 24, 2, 1 }, material = wall, tags = { "wall" }, body = { kind = "static" } },
		{ shape = "box", color = 0xc8b89a, position = { 0, 1, 12 }, scale = { 24, 2, 1 }, material = wall, tags = { "wall" }, body = { kind = "static" } },
		{ shape = "box", color = 0xc8b89a, position = { -12, 1, 0 }, scale = { 1, 2, 22 }, material = wall, tags = { "wall" }, body = { kind = "static" } },
		{ shape = "box", color = 0xc8b89a, position = { 12, 1, 0 }, scale = { 1, 2, 22 }, material = wall, tags = { "wall" }, body = { kind = "static" } },

		-- A pyramid of crates, resting on the floor (its top is y = 0).
		{ shape = "box", color = 0xa0703c, position = { -1.05, 0.5, 0 }, tags = { "crate" }, body = crate },
		{ shape = "box", color = 0xa0703c, position = { 0, 0.5, 0 }, tags = { "crate" }, body = crate },
		{ shape = "box", color = 0xa0703c, position = { 1.05, 0.5, 0 }, tags = { "crate" }, body = crate },
		{ shape = "box", color = 0xb07d45, position = { -0.525, 1.5, 0 }, tags = { "crate" }, body = crate },
		{ shape = "box", color = 0xb07d45, position = { 0.525, 1.5, 0 }, tags = { "crate" }, body = crate },
		{ shape = "box", color = 0xc08a50, position = { 0, 2.5, 0 }, tags = { "crate", "top" }, body = crate },

		-- A ball dropped onto the ramp side of the pyramid.
		{ shape = "sphere", size = 0.8, color = 0xe0533d, position = { 0.3, 6, 0.2 }, material = { roughness = 0.3, metalness = 0.1 }, tags = { "ball" }, body = { kind = "dynamic", restitution = 0.4, friction = 0.4 } },

		-- A lantern post in the corner: a capsule with a bright sphere on top.
		{ shape = "capsule", size = 3, color = 0x3b3b40, position = { -9, 1.5, -9 }, material = { roughness = 0.4, metalness = 0.8 }, tags = { "lantern" }, body = { kind = "static" } },
		{ shape = "sphere", size = 0.6, color = 0xffd27a, position = { -9, 3.3, -9 }, material = { roughness = 0.2, metalness = 0, castShadow = false }, tags = { "lantern" } },
	},
	lighting = {
		ambientColor = 0x606878,
		ambientIntensity = 0.9,
		directionalColor = 0xffe2b8,
		directionalIntensity = 3.2,
		direction = { -8, 10, 5 },
		castShadow = true,
		shadowMapSize = 2048,
		shadowCameraExtent = 18,
	},
	camera = { position = { 7, 5.5, 10 }, target = { -1, 1, -1 }, fov = 50 },
}
