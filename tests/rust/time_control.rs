//! Time answers to the agent's clock: `world.pause`, `world.resume` and `world.step` (by ticks or
//! until a condition), granted only by the operator (`world.time`). A pause holds the tick while
//! calls still apply; a step stops exactly where its condition first holds; a client without the
//! grant is refused with no effect; a log of a paused and stepped run replays to its hash; and
//! `limina mcp --paused` starts frozen.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use limina::host::{Engine, EngineConfig, Output};
use limina::mcp::{McpSession, handle_text};
use limina::policy::{Grant, Permission, PermissionSet, Profile};
use serde_json::{Value, json};

use crate::mcp::StdioServer;

fn engine_with(log: Option<&Path>) -> Engine {
    let mut config = EngineConfig { output: Output::Silent, ..EngineConfig::new(crate::root()) };
    config.log = log.map(|l| limina::durable::LogConfig { checkpoint_every: 7, ..limina::durable::LogConfig::new(l) });
    Engine::new(config).unwrap()
}

fn time_grant() -> Grant {
    Grant { profile: Profile::BuilderReadWrite, extra: PermissionSet::of(&[Permission::WorldTime]) }
}

/// A standard MCP session, initialized, under `grant`.
fn session(engine: &Engine, connection: u64, grant: Grant) -> McpSession {
    let mut s = McpSession::new(connection, grant.profile, engine).with_grant(grant);
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    let answer = handle_text(engine, &mut s, &init.to_string());
    assert!(answer[0].get("result").is_some(), "{answer:?}");
    s
}

/// Calls a tool; the structured result, or the error text when the call failed.
fn call(engine: &Engine, s: &mut McpSession, name: &str, arguments: Value) -> Result<Value, String> {
    let request = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": arguments}});
    let answer = handle_text(engine, s, &request.to_string());
    let result = &answer[0]["result"];
    if result["isError"] == json!(true) {
        return Err(result["content"][0]["text"].as_str().unwrap_or_default().to_string());
    }
    assert!(result.get("structuredContent").is_some(), "{answer:?}");
    Ok(result["structuredContent"].clone())
}

/// A floor and a ball dropped onto it: it bounces, rolls to rest and sleeps.
fn drop_a_ball(engine: &Engine, s: &mut McpSession) {
    call(engine, s, "scene.createEntity", json!({"shape": "box", "size": 20, "position": [0, -10, 0], "static": true})).unwrap();
    call(engine, s, "scene.createEntity", json!({"shape": "sphere", "position": [0, 3, 0], "dynamic": true, "restitution": 0.3})).unwrap();
}

fn count(engine: &Engine, event_type: &str) -> usize {
    engine.trace().durable().filter_map(Result::ok).filter(|e| &*e.event_type == event_type).count()
}

#[test]
fn pause_holds_the_tick_while_calls_still_apply() {
    let mut server = StdioServer::start(&["--grant", "world.time", "--empty"]);
    server.request(
        1,
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
    );
    let tool = |server: &mut StdioServer, id: u64, name: &str, arguments: Value| -> Value {
        let reply = server.request(id, "tools/call", json!({"name": name, "arguments": arguments}));
        assert_eq!(reply["result"]["isError"], json!(false), "{name}: {reply}");
        reply["result"]["structuredContent"].clone()
    };
    let paused = tool(&mut server, 2, "world.pause", json!({}));
    assert_eq!(paused["wasPaused"], json!(false));
    let at = paused["tick"].as_u64().unwrap();
    // Calls apply while paused, at the same tick, however long the world stays paused.
    let ball = tool(&mut server, 3, "scene.createEntity", json!({"shape": "sphere", "position": [0, 5, 0], "dynamic": true}));
    std::thread::sleep(Duration::from_millis(300));
    let listed = tool(&mut server, 4, "scene.queryEntities", json!({}));
    assert_eq!(listed["entities"][0]["entity"], ball["entity"], "{listed}");
    let still = tool(&mut server, 5, "world.pause", json!({}));
    assert_eq!((still["wasPaused"].clone(), still["tick"].as_u64()), (json!(true), Some(at)), "the tick held while paused");
    // The ball has not fallen: no step ran.
    let y = listed["entities"][0]["position"][1].as_f64().unwrap();
    assert!((y - 5.0).abs() < 1e-6, "y {y}");
    // Resumed, the clock runs again.
    let resumed = tool(&mut server, 6, "world.resume", json!({}));
    assert_eq!((resumed["wasPaused"].clone(), resumed["tick"].as_u64()), (json!(true), Some(at)));
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut id = 7;
    loop {
        let tick = tool(&mut server, id, "world.pause", json!({}))["tick"].as_u64().unwrap();
        if tick > at {
            break;
        }
        tool(&mut server, id + 1, "world.resume", json!({}));
        id += 2;
        assert!(Instant::now() < deadline, "the world never ticked after world.resume");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(server.finish(), Some(0));
}

#[test]
fn paused_flag_starts_the_world_frozen() {
    for (args, frozen) in [(&["--grant", "world.time", "--paused"][..], true), (&["--grant", "world.time"][..], false)] {
        let mut server = StdioServer::start(args);
        server.request(
            1,
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
        );
        std::thread::sleep(Duration::from_millis(200));
        let reply = server.request(2, "tools/call", json!({"name": "world.pause", "arguments": {}}));
        let r = &reply["result"]["structuredContent"];
        assert_eq!(r["wasPaused"], json!(frozen), "{args:?}: {reply}");
        if frozen {
            assert_eq!(r["tick"], json!(0), "no tick ran before the first call: {reply}");
        }
        assert_eq!(server.finish(), Some(0));
    }
}

#[test]
fn step_until_stops_exactly_where_its_condition_first_holds() {
    // A tick number: from 0 to exactly 50.
    let engine = engine_with(None);
    let mut s = session(&engine, 1, time_grant());
    call(&engine, &mut s, "world.pause", json!({})).unwrap();
    let r = call(&engine, &mut s, "world.step", json!({"ticks": 3600, "until": {"tick": 50}})).unwrap();
    assert_eq!((r["stopped"].as_str(), r["tick"].as_u64(), r["ticks"].as_u64()), (Some("condition"), Some(50), Some(50)), "{r}");
    assert_eq!(engine.tick(), 50);
    // Already there: no tick runs.
    let r = call(&engine, &mut s, "world.step", json!({"ticks": 10, "until": {"tick": 20}})).unwrap();
    assert_eq!((r["stopped"].as_str(), r["ticks"].as_u64()), (Some("condition"), Some(0)), "{r}");
    // A plain step runs exactly its ticks.
    let r = call(&engine, &mut s, "world.step", json!({"ticks": 120})).unwrap();
    assert_eq!((r["stopped"].as_str(), r["tick"].as_u64(), r["ticks"].as_u64()), (Some("maxTicks"), Some(170), Some(120)), "{r}");

    // An event type: a script says "ping" in the step of tick 37; the step stops right after it.
    let engine = engine_with(None);
    engine
        .run_source(
            "limina.on_step(function() if limina.tick() == 37 then limina.call('agent.emitEvent', {type = 'ping'}) end end)",
            "ping.luau",
        )
        .unwrap();
    let mut s = session(&engine, 1, time_grant());
    call(&engine, &mut s, "world.pause", json!({})).unwrap();
    let r = call(&engine, &mut s, "world.step", json!({"ticks": 500, "until": {"event": "agent.signal.ping"}})).unwrap();
    assert_eq!((r["stopped"].as_str(), r["tick"].as_u64()), (Some("condition"), Some(38)), "{r}");
    let pings: Vec<u64> =
        engine.trace().durable().filter_map(Result::ok).filter(|e| &*e.event_type == "agent.signal.ping").map(|e| e.tick).collect();
    assert_eq!(pings, [37], "the step stopped after the one tick that traced it");

    // All bodies asleep: the first tick at which the ball sleeps, not one later; the same world
    // stepped one tick less is not yet asleep.
    let first = {
        let engine = engine_with(None);
        let mut s = session(&engine, 1, time_grant());
        drop_a_ball(&engine, &mut s);
        call(&engine, &mut s, "world.pause", json!({})).unwrap();
        let r = call(&engine, &mut s, "world.step", json!({"ticks": 3600, "until": {"allAsleep": true}})).unwrap();
        assert_eq!(r["stopped"], "condition", "{r}");
        r["tick"].as_u64().unwrap()
    };
    assert!(first > 10, "the ball fell and rolled first: asleep at tick {first}");
    let engine = engine_with(None);
    let mut s = session(&engine, 1, time_grant());
    drop_a_ball(&engine, &mut s);
    call(&engine, &mut s, "world.pause", json!({})).unwrap();
    let r = call(&engine, &mut s, "world.step", json!({"ticks": first - 1, "until": {"allAsleep": true}})).unwrap();
    assert_eq!((r["stopped"].as_str(), r["tick"].as_u64()), (Some("maxTicks"), Some(first - 1)), "not asleep a tick earlier: {r}");

    // A condition that never holds ends at the bound, and says so.
    let r = call(&engine, &mut s, "world.step", json!({"ticks": 3600, "until": {"event": "never.traced"}})).unwrap();
    assert_eq!((r["stopped"].as_str(), r["ticks"].as_u64()), (Some("maxTicks"), Some(3600)), "{r}");
    assert_eq!(count(&engine, "world.stepped"), 2, "every step is traced");
}

#[test]
fn a_client_without_the_time_permission_is_refused_with_no_effect() {
    let engine = engine_with(None);
    let mut plain = session(&engine, 1, Profile::BuilderReadWrite.into());
    drop_a_ball(&engine, &mut plain);
    let hash = engine.world_hash();
    for name in ["world.pause", "world.resume", "world.step"] {
        let refused = call(&engine, &mut plain, name, json!({})).unwrap_err();
        assert!(refused.contains("missing permission: world.time") && refused.contains("only the operator"), "{name}: {refused}");
    }
    assert!(!engine.paused());
    assert_eq!((engine.tick(), engine.world_hash()), (0, hash.clone()));
    assert_eq!(count(&engine, "security.permission.denied"), 3);
    assert_eq!(count(&engine, "world.paused") + count(&engine, "world.resumed") + count(&engine, "world.stepped"), 0);
    // Narrowing its profile never gains it either, and a claimed profile cannot name it.
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"agentId": "agt_x", "sessionId": "ses_x", "profile": "builder.readWrite"}});
    let mut native = McpSession::new(2, Profile::SystemReadonly, &engine);
    handle_text(&engine, &mut native, &init.to_string());
    let answer = handle_text(
        &engine,
        &mut native,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "callTool", "params": {"name": "world.pause", "arguments": {}}}).to_string(),
    );
    assert_eq!(answer[0]["error"]["data"]["error"]["code"], "forbidden", "{answer:?}");
    assert!(!engine.paused());

    // The tools are not even listed for it; a granted client sees them.
    let listed = |grant: Grant| -> Vec<String> {
        let mut s = session(&engine, 7, grant).with_tools(limina::mcp::ToolsMode::All);
        let answer = handle_text(&engine, &mut s, &json!({"jsonrpc": "2.0", "id": 9, "method": "tools/list", "params": {}}).to_string());
        answer[0]["result"]["tools"].as_array().unwrap().iter().filter_map(|t| t["name"].as_str().map(str::to_string)).collect()
    };
    assert!(!listed(Profile::BuilderReadWrite.into()).iter().any(|n| n == "world.pause" || n == "world.step"));
    assert!(listed(time_grant()).iter().any(|n| n == "world.step"));

    // A granted client: refused to step a running world, refused an absurd bound; nothing ran.
    let mut granted = session(&engine, 3, time_grant());
    let running = call(&engine, &mut granted, "world.step", json!({"ticks": 5})).unwrap_err();
    assert!(running.contains("pause it with world.pause"), "{running}");
    call(&engine, &mut granted, "world.pause", json!({})).unwrap();
    let huge = call(&engine, &mut granted, "world.step", json!({"ticks": 9_223_372_036_854_775_808u64})).unwrap_err();
    assert!(huge.contains("invalid_input") && huge.contains("ticks"), "{huge}");
    let two = call(&engine, &mut granted, "world.step", json!({"until": {"tick": 9, "allAsleep": true}})).unwrap_err();
    assert!(two.contains("exactly one"), "{two}");
    assert_eq!((engine.tick(), engine.world_hash()), (0, hash));

    // The host script holds no time either, and a script could not step from inside a handler.
    let script = engine.run_source("local r = limina.call('world.pause', {}) return r.error.message", "s.luau").unwrap();
    let message = script.as_string().map(|s| s.to_string_lossy()).unwrap_or_default();
    assert!(message.contains("missing permission: world.time"), "{message}");
}

#[test]
fn two_clients_share_one_clock_and_the_trace_names_each() {
    let engine = engine_with(None);
    let mut a = session(&engine, 1, time_grant());
    let mut b = session(&engine, 2, time_grant());
    call(&engine, &mut a, "world.pause", json!({})).unwrap();
    assert_eq!(call(&engine, &mut b, "world.pause", json!({})).unwrap()["wasPaused"], true, "one clock, paused once");
    call(&engine, &mut b, "world.resume", json!({})).unwrap();
    // A's step finds the world running again: refused, nothing ran.
    let refused = call(&engine, &mut a, "world.step", json!({"ticks": 10})).unwrap_err();
    assert!(refused.contains("the world is running (tick 0)"), "{refused}");
    assert_eq!(engine.tick(), 0);
    let actors: Vec<(String, String)> = engine
        .trace()
        .durable()
        .filter_map(Result::ok)
        .filter(|e| e.event_type.starts_with("world.") && !e.event_type.starts_with("world.snap"))
        .map(|e| (e.event_type.to_string(), e.actor_id.to_string()))
        .collect();
    let expected: Vec<(String, String)> = [("world.paused", "agt_mcp1"), ("world.paused", "agt_mcp2"), ("world.resumed", "agt_mcp2")]
        .into_iter()
        .map(|(t, a)| (t.to_string(), a.to_string()))
        .collect();
    assert_eq!(actors, expected);
}

#[test]
fn a_log_of_pauses_and_steps_replays_to_the_live_hash() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("time.log");
    let live = {
        let engine = engine_with(Some(&log));
        let mut s = session(&engine, 1, time_grant());
        drop_a_ball(&engine, &mut s);
        engine.step(15).unwrap(); // real-time steps
        call(&engine, &mut s, "world.pause", json!({})).unwrap();
        // Changed while frozen, then stepped and looked at.
        call(&engine, &mut s, "scene.createEntity", json!({"shape": "box", "position": [0.4, 6, 0], "dynamic": true})).unwrap();
        let r = call(&engine, &mut s, "world.step", json!({"ticks": 120})).unwrap();
        assert_eq!(r["tick"], 135);
        call(&engine, &mut s, "scene.createEntity", json!({"shape": "sphere", "position": [-0.3, 4, 0.2], "dynamic": true})).unwrap();
        call(&engine, &mut s, "world.step", json!({"ticks": 2000, "until": {"allAsleep": true}})).unwrap();
        call(&engine, &mut s, "world.resume", json!({})).unwrap();
        engine.step(9).unwrap();
        engine.make_durable().unwrap();
        engine.world_hash()
    };
    let out =
        Command::new(env!("CARGO_BIN_EXE_limina")).arg("replay").arg(&log).arg("--verify").current_dir(crate::root()).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text} {}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains(&format!("world_hash={live}")), "live {live}, replay: {text}");
    let verified: u64 = text.split("checkpoints_verified=").nth(1).and_then(|t| t.split(' ').next()).and_then(|n| n.parse().ok()).unwrap();
    assert!(verified >= 20, "{text}");
    // Time calls are not in the log: it holds the steps they caused.
    let written = std::fs::read_to_string(&log).unwrap();
    assert!(!written.contains("world.pause") && !written.contains("world.step"), "time control is not a command");
}
