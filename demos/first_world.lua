-- A first world: a floor, a tower of five crates and a ball thrown at it (`limina run demos/first_world.lua`).
local function make(input) return limina.call("scene.createEntity", input).result.entity end
make({ shape = "box", size = 40, position = { 0, -20, 0 }, static = true, color = 0x4a7a3a })
for i = 0, 4 do make({ shape = "box", position = { 0, 0.5 + i, 0 }, dynamic = true, color = 0xb07a3a }) end
local ball = make({ shape = "sphere", size = 1.2, position = { -6, 3.5, 0 }, dynamic = true, color = 0xd1281f })
limina.call("physics.applyImpulse", { entity = ball, impulse = { 20, 2, 0 } })
limina.call("render.setCamera", { position = { -4, 7, 16 }, target = { 3, 1, 0 }, fov = 50 })
limina.step(240)
local top = limina.call("scene.queryEntities", { near = { 0, 4.5, 0 }, radius = 0.5 }).result.entities
print(#top == 0 and "the tower fell" or "the tower stands")
