-- The world an MCP server starts with unless told `--empty`: a ground to stand on (a static box
-- whose top is y = 0, 64 m square), a sun with shadows, and a camera looking at the middle, so
-- the first dynamic box a client makes lands somewhere and the first capture shows it.
return {
	format = 1,
	description = "The default world: a ground (top at y = 0), a light and a camera.",
	entities = {
		{
			shape = "box",
			color = 0x8a8f86,
			position = { 0, -0.5, 0 },
			scale = { 64, 1, 64 },
			material = { roughness = 0.9, metalness = 0, castShadow = false, receiveShadow = true },
			tags = { "ground" },
			body = { kind = "static", friction = 0.8 },
		},
	},
	lighting = {
		ambientColor = 0x6a7080,
		ambientIntensity = 0.8,
		directionalColor = 0xfff1dc,
		directionalIntensity = 3,
		direction = { -6, 10, 4 },
		castShadow = true,
	},
	camera = { position = { 8, 6, 10 }, target = { 0, 0.5, 0 }, fov = 55 },
}
