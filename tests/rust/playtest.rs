//! `test.run` over MCP: a playtest passes and fails as its tests do, sees the live world, runs
//! against a copy (the live world hash and tick stay put), times out honestly, and is refused to
//! profiles without `test.run` and for paths outside the project.

use limina::host::{Engine, EngineConfig, Output};
use limina::mcp::{McpSession, handle_message};
use limina::policy::Profile;
use serde_json::{Value, json};

fn engine() -> Engine {
    Engine::new(EngineConfig { output: Output::Silent, ..EngineConfig::new(crate::root()) }).unwrap()
}

fn client(engine: &Engine, profile: &str) -> McpSession {
    let mut session = McpSession::new(7, Profile::parse(profile).expect("a catalog profile"), engine);
    let init = json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}});
    handle_message(engine, &mut session, &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init})).unwrap();
    session
}

fn call(engine: &Engine, session: &mut McpSession, tool: &str, arguments: Value) -> Value {
    let message = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": arguments}});
    handle_message(engine, session, &message).unwrap()["result"].clone()
}

const PLAYTEST: &str = r#"
describe("the scratch world", function()
	it("sees the live world's entities", function()
		local found = limina.call("scene.queryEntities", {}).result.entities
		expect(#found).toBe(3)
	end)
	it("may change its copy freely", function()
		limina.call("scene.destroyEntity", { entity = "ent_0001" })
		for _ = 1, 5 do
			limina.call("scene.createEntity", { dynamic = true, position = { 0, 3, 0 } })
		end
		print("stepping the copy")
		limina.step(30)
	end)
	it("reports a failure where it happened", function()
		expect(1 + 1).toBe(3)
	end)
	xit("is skipped", function() end)
end)
"#;

#[test]
fn a_playtest_reports_like_its_tests_and_leaves_the_live_world_alone() {
    let e = engine();
    let mut builder = client(&e, "builder.readWrite");
    for x in 0..3 {
        let made = call(&e, &mut builder, "scene.createEntity", json!({"dynamic": true, "position": [x * 2, 1, 0]}));
        assert_eq!(made["isError"], false, "{made}");
    }
    e.step(10).unwrap();
    let (hash, tick) = (e.world_hash(), e.tick());

    let run = call(&e, &mut builder, "test.run", json!({"source": PLAYTEST}));
    assert_eq!(run["isError"], false, "{run}");
    let report = &run["structuredContent"];
    assert_eq!((report["passed"].as_u64(), report["failed"].as_u64(), report["skipped"].as_u64()), (Some(2), Some(1), Some(1)), "{report}");
    assert_eq!(report["success"], false);
    assert_eq!(report["isTimeout"], false);
    let failure = report["results"].as_array().unwrap().iter().find(|r| r["ok"] == false && r["skipped"] == false).unwrap();
    assert_eq!(failure["name"], "the scratch world > reports a failure where it happened");
    assert_eq!((failure["file"].as_str(), failure["line"].as_u64()), (Some("test.run"), Some(16)), "{failure}");
    assert!(failure["message"].as_str().unwrap().contains("expected 3"), "{failure}");
    assert_eq!(report["logs"], "stepping the copy\n");

    assert_eq!((e.world_hash(), e.tick()), (hash, tick), "the live world is untouched");
    let passing = call(&e, &mut builder, "test.run", json!({"source": PLAYTEST, "filter": "sees the live"}));
    assert_eq!((passing["structuredContent"]["success"].as_bool(), passing["structuredContent"]["passed"].as_u64()), (Some(true), Some(1)));
    // And the live world keeps working.
    let made = call(&e, &mut builder, "scene.createEntity", json!({}));
    assert_eq!(made["structuredContent"]["entity"], "ent_0004");
}

#[test]
fn a_test_file_in_the_project_runs_and_paths_cannot_leave_it() {
    let e = engine();
    let mut builder = client(&e, "builder.readWrite");
    let run = call(&e, &mut builder, "test.run", json!({"path": "tests/lua/ecs_test.lua"}));
    let report = &run["structuredContent"];
    assert_eq!(report["success"], true, "{run}");
    assert!(report["passed"].as_u64().unwrap() > 0);
    assert!(report["results"][0]["file"].as_str().unwrap().ends_with("ecs_test.lua"), "{report}");
    for (path, why) in [
        ("../secrets.lua", "without '..'"),
        ("/etc/passwd", "relative"),
        ("Cargo.toml", "not a .lua"),
        ("tests/lua/none.lua", "no test file"),
    ] {
        let refused = call(&e, &mut builder, "test.run", json!({"path": path}));
        assert_eq!(refused["isError"], true, "{path}");
        assert!(refused["content"][0]["text"].as_str().unwrap().contains(why), "{path}: {refused}");
    }
    let both = call(&e, &mut builder, "test.run", json!({"path": "tests/lua/ecs_test.lua", "source": "it('x', function() end)"}));
    assert!(both["content"][0]["text"].as_str().unwrap().contains("either path or source"), "{both}");
}

#[test]
fn a_spinning_playtest_times_out_and_cannot_nest() {
    let e = engine();
    let mut builder = client(&e, "builder.readWrite");
    let spin = call(&e, &mut builder, "test.run", json!({"source": "it('spins', function() while true do end end)", "timeoutMs": 200}));
    let report = &spin["structuredContent"];
    assert_eq!(
        (report["isTimeout"].as_bool(), report["success"].as_bool(), report["failed"].as_u64()),
        (Some(true), Some(false), Some(1)),
        "{spin}"
    );
    assert!(report["results"][0]["message"].as_str().unwrap().contains("timed out after 200 ms"), "{report}");
    let load_spin = call(&e, &mut builder, "test.run", json!({"source": "while true do end", "timeoutMs": 200}));
    assert_eq!(load_spin["structuredContent"]["isTimeout"], true, "a file that never finishes loading: {load_spin}");
    // pcall cannot swallow the deadline.
    let sneaky = "it('hides', function() while true do pcall(function() while true do end end) end end)";
    assert_eq!(call(&e, &mut builder, "test.run", json!({"source": sneaky, "timeoutMs": 200}))["structuredContent"]["isTimeout"], true);
    let nested = r#"it('nests', function() local r = limina.call("test.run", { source = "it('x', function() end)" }); expect(r.success).toBe(false); expect(r.error.message).toMatch("inside a playtest") end)"#;
    let run = call(&e, &mut builder, "test.run", json!({"source": nested}));
    assert_eq!(run["structuredContent"]["success"], true, "{run}");
    assert_eq!(
        call(&e, &mut builder, "test.run", json!({"source": "it('ok', function() end)"}))["structuredContent"]["success"],
        true,
        "the engine is fine afterwards"
    );
}

#[test]
fn only_builders_may_playtest() {
    let e = engine();
    for profile in ["system.readonly", "player.limited", "social.actor"] {
        let mut c = client(&e, profile);
        let denied = call(&e, &mut c, "test.run", json!({"source": "it('x', function() end)"}));
        assert_eq!(denied["isError"], true, "{profile}");
        assert!(denied["content"][0]["text"].as_str().unwrap().contains("test.run"), "{profile}: {denied}");
    }
}

#[test]
fn long_rust_side_work_stops_at_the_deadline_and_big_strings_stay_bounded() {
    let e = engine();
    let mut builder = client(&e, "builder.readWrite");
    // `limina.step` runs its steps in Rust, out of the VM interrupt's reach: it must still stop
    // at the deadline (without the check this call runs for hours).
    let stepper = r#"
it("steps forever", function()
	for i = 1, 200 do limina.call("scene.createEntity", { dynamic = true, position = { i, 5, 0 } }) end
	limina.step(10000000)
end)"#;
    let run = call(&e, &mut builder, "test.run", json!({"source": stepper, "timeoutMs": 300}));
    assert_eq!(run["structuredContent"]["isTimeout"], true, "{run}");
    assert_eq!(run["structuredContent"]["success"], false);

    // Names, messages and printed lines are decided by test code: what reaches Rust is bounded.
    let inflated = r#"
local big = string.rep("x", 400000)
for i = 1, 300 do
	it(big .. i, function() print(big, big, big, big, big) end)
end"#;
    // The longest allowed time: building these strings takes a while in a debug build on a busy
    // machine, and the test is about sizes, not time.
    let run = call(&e, &mut builder, "test.run", json!({"source": inflated, "timeoutMs": 30000}));
    let report = &run["structuredContent"];
    assert_eq!(report["passed"], 300, "every test counted");
    let results = report["results"].as_array().unwrap();
    assert_eq!((results.len(), report["resultsOmitted"].as_u64()), (200, Some(100)), "200 kept, the rest counted");
    assert!(results.iter().all(|r| r["name"].as_str().unwrap().len() <= 2048), "names clipped");
    assert!(report["logs"].as_str().unwrap().len() < 70 * 1024, "logs capped at 64 KiB");
    assert!(run.to_string().len() < 2 << 20, "the whole answer stays small: {} bytes", run.to_string().len());
}

/// Exports, snapshots and scene saves go to the playtest's private folder, which is removed
/// afterwards; a scene it saved it can load again, and the project's scenes it can still load.
#[test]
fn a_playtest_writes_no_files_into_the_project() {
    let project = tempfile::tempdir().unwrap();
    std::fs::create_dir(project.path().join("scenes")).unwrap();
    std::fs::write(project.path().join("scenes/given.lua"), "return { format = 1, entities = { {} } }\n").unwrap();
    let before = tree(project.path());
    let e = Engine::new(EngineConfig { output: Output::Silent, ..EngineConfig::new(project.path()) }).unwrap();
    let mut builder = client(&e, "builder.readWrite");
    let source = r#"
        local function ok(skill, input)
            local r = limina.call(skill, input)
            assert(r.success, skill .. ": " .. tostring(r.error and r.error.message))
            return r.result
        end
        it("writes only into its own folder", function()
            ok("scene.createEntity", {})
            ok("trace.export", { name = "probe" })
            ok("world.snapshot", { name = "probe" })
            ok("scene.save", { name = "probe" })
            ok("scene.save", { name = "given", overwrite = true })
            expect(ok("scene.load", { name = "probe" }).entities).toBe(1)
            ok("scene.createEntity", {})
            expect(ok("scene.load", { name = "given" }).entities).toBe(1)
        end)
    "#;
    let run = call(&e, &mut builder, "test.run", json!({"source": source}));
    assert_eq!(run["structuredContent"]["success"], true, "{run}");
    assert_eq!(tree(project.path()), before, "the project is as it was");
    assert_eq!(std::fs::read_to_string(project.path().join("scenes/given.lua")).unwrap(), "return { format = 1, entities = { {} } }\n");
}

/// Every path under `dir` with its bytes.
fn tree(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            let shown = path.strip_prefix(dir).unwrap().display().to_string();
            if path.is_dir() {
                stack.push(path);
                out.push((shown + "/", Vec::new()));
            } else {
                out.push((shown, std::fs::read(&path).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn tags_are_bounded_in_length_and_number() {
    let e = engine();
    let mut builder = client(&e, "builder.readWrite");
    call(&e, &mut builder, "scene.createEntity", json!({}));
    let long = call(&e, &mut builder, "ecs.addComponent", json!({"entity": "ent_0001", "component": "x".repeat(65)}));
    assert_eq!(long["isError"], true, "{long}");
    for i in 0..32 {
        let added = call(&e, &mut builder, "ecs.addComponent", json!({"entity": "ent_0001", "component": format!("tag{i}")}));
        assert_eq!(added["isError"], false, "{added}");
    }
    let full = call(&e, &mut builder, "ecs.addComponent", json!({"entity": "ent_0001", "component": "one-more"}));
    assert_eq!(full["content"][0]["text"], "capacity_exceeded: ent_0001 already carries 32 tags, the limit; remove one first");
    let again = call(&e, &mut builder, "ecs.addComponent", json!({"entity": "ent_0001", "component": "tag3"}));
    assert_eq!(again["isError"], false, "re-adding a tag it has is fine: {again}");
}

#[test]
fn a_playtest_cannot_grow_its_world_log_without_bound_or_reach_a_model() {
    // A model server that would record any request.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let mut providers = limina::agents::provider::ProvidersConfig::default();
    providers.ollama.base_url = format!("http://{}", listener.local_addr().unwrap());
    let e = Engine::new(EngineConfig { output: Output::Silent, providers: Some(providers), ..EngineConfig::new(crate::root()) }).unwrap();
    let mut builder = client(&e, "builder.readWrite");
    let agents = r#"
it("spawns a thinking agent", function()
	local r = limina.call("agent.spawn", { profile = "social.actor", llm = { provider = "ollama", model = "m" }, decisionIntervalTicks = 1 })
	expect(r.success).toBe(true)
	limina.step(90)
end)"#;
    let run = call(&e, &mut builder, "test.run", json!({"source": agents}));
    assert_eq!(run["structuredContent"]["success"], true, "{run}");
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert!(listener.accept().is_err(), "a playtest's agent reached the operator's model");

    let flood = r#"
it("floods the log", function()
	local big = string.rep("p", 1000000)
	for i = 1, 1000 do limina.call("agent.emitEvent", { type = "x", payload = { blob = big } }) end
end)"#;
    let run = call(&e, &mut builder, "test.run", json!({"source": flood, "timeoutMs": 30000}));
    let report = &run["structuredContent"];
    assert_eq!(report["success"], false, "{run:.500}");
    let message = report["results"][0]["message"].as_str().unwrap();
    assert!(message.contains("past its 67108864-byte limit"), "{message}");
}

#[test]
fn a_captured_line_cut_inside_a_multibyte_character_is_cut_cleanly() {
    let e = engine();
    let mut builder = client(&e, "builder.readWrite");
    // Invalid bytes decode to 3-byte replacement characters: 65536 falls inside one.
    let source = r#"it("prints", function() print(string.rep("\255", 30000), "x"); print(string.rep("€", 30000)) end)"#;
    let run = call(&e, &mut builder, "test.run", json!({"source": source}));
    assert_eq!(run["structuredContent"]["success"], true, "{run:.400}");
}
