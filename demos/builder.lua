-- Builder: an in-process agent discovers the tools, builds a small scene through skills, and is
-- governed by a live policy; a reviewer agent's forbidden write is denied with zero effect; the
-- whole session is exported as a sha256-chained trace and verified.
--
--   limina run demos/builder.lua

local builder = limina.session({ agentId = "agt_builder", sessionId = "ses_builder", profile = "builder.readWrite" })
local reviewer = limina.session({ agentId = "agt_reviewer", sessionId = "ses_reviewer", profile = "system.readonly" })

local function must(session, skill, input)
	local r = session:call(skill, input)
	if not r.success then
		error(string.format("%s failed: [%s] %s", skill, r.error.code, r.error.message), 2)
	end
	return r.result
end

-- 1. Discover: what tools exist, and what does createEntity take?
local tools = must(builder, "skills.list", {}).tools
print(string.format("builder: discovered %d skills", #tools))
local create = must(builder, "skills.describe", { name = "scene.createEntity" })
local fields = {}
for field in create.input_schema.properties do
	table.insert(fields, field)
end
table.sort(fields)
print(string.format("builder: scene.createEntity v%s takes %s", create.version, table.concat(fields, ", ")))

-- 2. The host governs the builder: at most 8 scene writes per second of world time.
limina.policy.quota({ sessionId = "ses_builder", cap = "scene.write", limit = 8, windowTicks = 60 })

-- 3. Build: a floor, a ring of pillars tagged as landmarks, and a ball dropped in the middle.
local floor = must(builder, "scene.createEntity", { shape = "box", static = true, position = { 0, -0.5, 0 }, color = 0x8a8f98 }).entity
must(builder, "ecs.updateComponent", { entity = floor, component = "scale", value = { 20, 1, 20 } })
local pillars = {}
for i = 1, 6 do
	local a = (i - 1) / 6 * math.pi * 2
	local id = must(builder, "scene.createEntity", {
		shape = "box", static = true, color = 0xd9c7a7, position = { math.cos(a) * 6, 1.5, math.sin(a) * 6 },
	}).entity
	must(builder, "ecs.updateComponent", { entity = id, component = "scale", value = { 1, 3, 1 } })
	must(builder, "ecs.addComponent", { entity = id, component = "landmark" })
	table.insert(pillars, id)
end
local ball = must(builder, "scene.createEntity", { shape = "sphere", dynamic = true, position = { 0, 4, 0 }, restitution = 0.6, color = 0xe0533d }).entity
print(string.format("builder: built floor %s, %d pillars, ball %s", floor, #pillars, ball))

-- 4. The quota is live: a burst of extra writes within the same second is refused.
local extra = builder:call("scene.createEntity", { position = { 0, 8, 0 } })
print(string.format("builder: 9th scene write this second -> %s (%s)", extra.success and "allowed" or extra.error.code, extra.success and "" or extra.error.message))

-- 5. A reviewer (system.readonly) tries to remove a pillar: its profile forbids it.
local before = limina.world_hash()
local denied = reviewer:call("scene.destroyEntity", { entity = pillars[1] })
assert(not denied.success and denied.error.code == "forbidden", "the reviewer must be denied")
assert(limina.world_hash() == before, "a denied call must not change the world")
print(string.format("reviewer: scene.destroyEntity -> %s: %s (world unchanged)", denied.error.code, denied.error.message))

-- 6. Let the ball fall and settle, then ask the log why the denial happened.
limina.step(120)
local landmarks = must(reviewer, "scene.queryEntities", { tag = "landmark", near = { 0, 0, 0 } }).entities
print(string.format("reviewer: %d landmarks, nearest %s at %.1f m", #landmarks, landmarks[1].entity, landmarks[1].distance))
local all = must(reviewer, "audit.query", {}).summary
local denials = must(reviewer, "audit.query", { decision = "deny" })
local rules = {}
for rule, n in denials.summary.byRule do
	table.insert(rules, rule .. " x" .. n)
end
table.sort(rules)
print(string.format("audit: %d decisions recorded, %d allowed, %d denied (%s)", all.total, all.allowed, all.denied, table.concat(rules, ", ")))
local why = must(reviewer, "audit.explain", { eventId = denials.decisions[#denials.decisions].eventId })
print(string.format("audit: last denial -> rule %s, reason %q, agent %s", why.decision.rule, why.decision.reason, why.provenance.agentId))

-- 7. Export the world log and verify its chain.
local export = must(builder, "trace.export", { name = "builder" })
print(string.format("trace: exported %d events (%d bytes) to traces/%s.jsonl", export.events, export.bytes, export.name))
local check = limina.verify_trace(export.name)
print(string.format("trace: verify traces/%s.jsonl -> %s", export.name, check))
assert(string.sub(check, 1, 3) == "ok:", check)
