//! Outside clients as agents' brains (issue 27): a client embodies an agent over MCP, acts as
//! it, perceives what it perceives and hears what is said within earshot; two clients and an
//! in-world scripted character hold a conversation; no client embodies beyond its credential,
//! hijacks another's agent, or keeps acting as an agent it released.

use limina::agents::hearing::{EARSHOT_M, INBOX_CAPACITY};
use limina::host::{Engine, EngineConfig, Output};
use limina::mcp::{McpSession, handle_message};
use limina::policy::Profile;
use serde_json::{Value, json};

use crate::mcp::StdioServer;

fn engine() -> Engine {
    Engine::new(EngineConfig { output: Output::Silent, ..EngineConfig::new(crate::root()) }).unwrap()
}

/// An initialized standard MCP session number `n` granted `profile`, calling in process.
fn client(e: &Engine, n: u64, profile: Profile) -> McpSession {
    let mut s = McpSession::new(n, profile, e);
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    handle_message(e, &mut s, &init).unwrap();
    s
}

/// A native session choosing its own ids.
fn native(e: &Engine, n: u64, profile: Profile, agent: &str, session: &str) -> McpSession {
    let mut s = McpSession::new(n, profile, e);
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"agentId": agent, "sessionId": session}});
    let reply = handle_message(e, &mut s, &init).unwrap();
    assert!(reply.get("result").is_some(), "{reply}");
    s
}

fn call(e: &Engine, s: &mut McpSession, name: &str, arguments: Value) -> Value {
    let message = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": arguments}});
    handle_message(e, s, &message).unwrap()
}

/// The result of a call that must succeed (standard or native reply).
fn ok(e: &Engine, s: &mut McpSession, name: &str, arguments: Value) -> Value {
    let reply = call(e, s, name, arguments.clone());
    if let Some(result) = reply["result"].get("structuredContent") {
        assert_eq!(reply["result"]["isError"], false, "{name} {arguments}: {reply}");
        return result.clone();
    }
    assert!(reply.get("error").is_none(), "{name} {arguments}: {reply}");
    reply["result"]["result"].clone()
}

/// The error text of a call that must fail (standard `isError` or native JSON-RPC error).
fn refused(e: &Engine, s: &mut McpSession, name: &str, arguments: Value) -> String {
    let reply = call(e, s, name, arguments.clone());
    if let Some(error) = reply.get("error") {
        return error["message"].as_str().unwrap_or_default().to_string();
    }
    assert_eq!(reply["result"]["isError"], true, "{name} {arguments} should fail: {reply}");
    reply["result"]["content"][0]["text"].as_str().unwrap().to_string()
}

fn events(e: &Engine, kind: &str) -> Vec<(String, Value)> {
    e.trace()
        .durable()
        .map(Result::unwrap)
        .filter(|ev| &*ev.event_type == kind)
        .map(|ev| (ev.actor_id.to_string(), ev.payload_value()))
        .collect()
}

fn heard(look: &Value) -> Vec<(String, String, u64, f64)> {
    look["happened"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["kind"] == "heard")
        .map(|i| {
            (
                i["speaker"].as_str().unwrap().into(),
                i["text"].as_str().unwrap().into(),
                i["tick"].as_u64().unwrap(),
                i["distance"].as_f64().unwrap(),
            )
        })
        .collect()
}

fn at(x: f64, z: f64) -> Value {
    json!({"body": {"shape": "box", "position": [x, 0.5, z]}})
}

/// The in-world character: answers the last line it heard since it last decided.
const ANSWERER: &str = r#"limina.scripted_policy("answer", function(request)
    local p = request.perception
    if not p or not p.heard then return {} end
    local line = p.heard[#p.heard]
    return { { tool = "social.say", input = { text = "I heard " .. line.speaker .. " say: " .. line.text } } }
end)"#;

fn character(e: &Engine, id: &str, x: f64, z: f64, interval: u64) {
    e.run_source(ANSWERER, "answer.lua").unwrap();
    let r = e.call(
        &e.script_caller().clone(),
        "agent.spawn",
        json!({"id": id, "profile": "social.actor", "body": {"shape": "box", "position": [x, 0.5, z]}, "decisionIntervalTicks": interval, "llm": {"model": "answer"}}),
    );
    assert!(r.success, "{r:?}");
}

#[test]
fn two_clients_and_an_in_world_character_hold_a_conversation() {
    let e = engine();
    character(&e, "agt_fox", 0.0, 4.0, 10);
    let mut alice = client(&e, 1, Profile::SocialActor);
    let mut bob = client(&e, 2, Profile::SocialActor);
    let a = ok(&e, &mut alice, "agent.embody", at(0.0, 0.0));
    let b = ok(&e, &mut bob, "agent.embody", at(3.0, 0.0));
    let (a_id, b_id) = (a["agentId"].as_str().unwrap().to_string(), b["agentId"].as_str().unwrap().to_string());
    assert_eq!(a["profile"], "social.actor");
    e.step(2).unwrap();

    // Alice sees Bob and the fox, by agent id, with distances; nearest first.
    let look = ok(&e, &mut alice, "agent.perceive", json!({}));
    assert_eq!(look["agentId"], a_id.as_str());
    let nearby: Vec<(&str, f64)> =
        look["nearby"].as_array().unwrap().iter().filter_map(|n| Some((n["agent"].as_str()?, n["distance"].as_f64()?))).collect();
    assert_eq!(nearby.iter().map(|n| n.0).collect::<Vec<_>>(), [b_id.as_str(), "agt_fox"], "{look}");
    assert!((nearby[0].1 - 3.0).abs() < 0.1 && (nearby[1].1 - 4.0).abs() < 0.1, "{nearby:?}");

    // Alice speaks as her agent: the line is traced as the agent's, and Bob hears it at once.
    let said_tick = e.tick();
    ok(&e, &mut alice, "social.say", json!({"text": "hello there"}));
    let said = events(&e, "social.said");
    assert_eq!(said.last().unwrap().0, a_id, "spoken as the embodied agent");
    let executed = events(&e, "skill.executed");
    assert_eq!(executed.last().unwrap().0, a_id, "the call is the agent's skill call");
    let bob_look = ok(&e, &mut bob, "agent.perceive", json!({}));
    let lines = heard(&bob_look);
    assert_eq!(lines.len(), 1, "{bob_look}");
    assert_eq!((lines[0].0.as_str(), lines[0].1.as_str(), lines[0].2), (a_id.as_str(), "hello there", said_tick));
    assert!((lines[0].3 - 3.0).abs() < 0.1, "distance {}", lines[0].3);
    let embodied_latency = lines[0].2 - said_tick;

    // The fox hears it too, and answers at its next decision; both clients hear the answer.
    let mut answered = None;
    for _ in 0..60 {
        e.step(1).unwrap();
        if let Some((_, p)) = events(&e, "social.said").into_iter().find(|(who, _)| who == "agt_fox") {
            answered = Some((p["tick"].as_u64().unwrap(), p["text"].as_str().unwrap().to_string()));
            break;
        }
    }
    let (answer_tick, answer) = answered.expect("the fox answered within 60 ticks");
    assert_eq!(answer, format!("I heard {a_id} say: hello there"));
    for (who, s) in [("alice", &mut alice), ("bob", &mut bob)] {
        let look = ok(&e, s, "agent.perceive", json!({}));
        let lines = heard(&look);
        assert!(lines.iter().any(|l| l.0 == "agt_fox" && l.1 == answer), "{who} heard the fox: {look}");
        assert!(!lines.iter().any(|l| l.1 == "hello there" && who == "alice"), "alice does not hear herself");
    }
    // Bob answers Alice; she hears it with its tick.
    ok(&e, &mut bob, "social.say", json!({"text": "hi alice"}));
    let look = ok(&e, &mut alice, "agent.perceive", json!({}));
    assert!(heard(&look).iter().any(|l| l.0 == b_id && l.1 == "hi alice"), "{look}");
    println!(
        "say->heard latency: embodied client {embodied_latency} ticks; in-world character (decisionIntervalTicks 10) answered {} ticks after the line",
        answer_tick - said_tick
    );
}

#[test]
fn lines_carry_only_within_earshot() {
    let e = engine();
    let mut speaker = client(&e, 1, Profile::SocialActor);
    let mut near = client(&e, 2, Profile::SocialActor);
    let mut far = client(&e, 3, Profile::SocialActor);
    ok(&e, &mut speaker, "agent.embody", at(0.0, 0.0));
    ok(&e, &mut near, "agent.embody", at(EARSHOT_M - 1.0, 0.0));
    ok(&e, &mut far, "agent.embody", at(EARSHOT_M + 1.0, 0.0));
    e.step(1).unwrap();
    ok(&e, &mut speaker, "social.say", json!({"text": "can you hear me"}));
    assert_eq!(heard(&ok(&e, &mut near, "agent.perceive", json!({}))).len(), 1);
    assert_eq!(heard(&ok(&e, &mut far, "agent.perceive", json!({}))).len(), 0);
}

#[test]
fn a_cursor_misses_nothing_and_an_overfull_inbox_says_how_much_it_dropped() {
    let e = engine();
    let mut listener = client(&e, 1, Profile::SocialActor);
    ok(&e, &mut listener, "agent.embody", at(0.0, 0.0));
    let start = ok(&e, &mut listener, "agent.perceive", json!({}))["cursor"].as_u64().unwrap();
    // Five speakers of 14 lines each (a speaker's bubble queues 16): 70 lines, 6 more than kept.
    let mut speakers: Vec<McpSession> = (0..5).map(|i| client(&e, 10 + i, Profile::SocialActor)).collect();
    for (i, s) in speakers.iter_mut().enumerate() {
        ok(&e, s, "agent.embody", at(1.0 + i as f64, 0.0));
    }
    let mut n = 0;
    for s in &mut speakers {
        for _ in 0..14 {
            n += 1;
            ok(&e, s, "social.say", json!({"text": format!("line {n}")}));
        }
    }
    let first = ok(&e, &mut listener, "agent.perceive", json!({"cursor": start, "max": 50}));
    assert_eq!(first["dropped"], 70 - INBOX_CAPACITY as u64, "{first}");
    assert_eq!(heard(&first).first().unwrap().1, "line 7");
    assert_eq!(first["more"], INBOX_CAPACITY as u64 - 50);
    let rest = ok(&e, &mut listener, "agent.perceive", json!({"cursor": first["cursor"]}));
    assert_eq!(rest["dropped"], 0);
    let texts: Vec<String> = heard(&rest).into_iter().map(|l| l.1).collect();
    assert_eq!(texts.first().map(String::as_str), Some("line 57"));
    assert_eq!(texts.last().map(String::as_str), Some("line 70"));
    // Read again from the same cursor: the same items (a cursor is a position, not a consumer).
    let again = ok(&e, &mut listener, "agent.perceive", json!({"cursor": first["cursor"]}));
    assert_eq!(heard(&again).len(), texts.len());
}

#[test]
fn a_player_client_cannot_embody_an_agent_wider_than_its_credential() {
    let e = engine();
    let mut player = client(&e, 1, Profile::PlayerLimited);
    let entities = e.world().entity_count();
    let why = refused(&e, &mut player, "agent.embody", json!({"profile": "builder.readWrite", "body": {}}));
    assert!(why.contains("forbidden") && why.contains("scene.write"), "{why}");
    assert_eq!(e.agents().len(), 0, "nothing was made");
    assert_eq!(e.world().entity_count(), entities);
    // Nor take over an agent of a wider profile, even one it spawned as the operator allowed.
    let r = e.call(
        &e.script_caller().clone(),
        "agent.spawn",
        json!({"id": "agt_boss", "profile": "builder.readWrite", "llm": {"provider": "client"}}),
    );
    assert!(r.success, "{r:?}");
    let why = refused(&e, &mut player, "agent.embody", json!({"agentId": "agt_boss"}));
    assert!(why.contains("forbidden"), "{why}");
    // Within its credential it may: the agent gets the client's own profile.
    let made = ok(&e, &mut player, "agent.embody", json!({"body": {}}));
    assert_eq!(made["profile"], "player.limited");
    // And acting as it, it still holds no more than player.limited.
    let why = refused(&e, &mut player, "scene.createEntity", json!({}));
    assert!(why.contains("scene.write"), "{why}");
}

#[test]
fn a_released_agent_takes_no_more_calls_from_that_client_and_stays_idle() {
    let e = engine();
    let mut c = native(&e, 1, Profile::SocialActor, "agt_alice", "ses_alice");
    let made = ok(&e, &mut c, "agent.embody", json!({"id": "agt_alicebody", "body": {}}));
    assert_eq!(made["agentId"], "agt_alicebody");
    ok(&e, &mut c, "social.say", json!({"text": "before"}));
    let released = ok(&e, &mut c, "agent.release", json!({}));
    assert_eq!(released["released"], "agt_alicebody");
    // The client is itself again: speaking, perceiving or releasing as the agent fail.
    let said = events(&e, "social.said").len();
    let why = refused(&e, &mut c, "social.say", json!({"text": "after"}));
    assert!(why.contains("agt_alice is not an agent"), "{why}");
    assert_eq!(events(&e, "social.said").len(), said);
    assert!(refused(&e, &mut c, "agent.perceive", json!({})).contains("not an agent"));
    assert!(refused(&e, &mut c, "agent.release", json!({})).contains("not an embodied agent"));
    // Nor can it re-initialize under the agent's id or session, in any case.
    for (agent, session) in
        [("agt_alicebody", "ses_x"), ("AGT_AliceBody", "ses_y"), ("agt_z", "ses_agt_alicebody"), ("agt_z", "SES_AGT_ALICEBODY")]
    {
        let mut s = McpSession::new(1, Profile::SocialActor, &e);
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"agentId": agent, "sessionId": session}});
        let reply = handle_message(&e, &mut s, &init).unwrap();
        assert!(reply.get("error").is_some(), "{agent}/{session}: {reply}");
    }
    // The agent stays, idle: in the world, client-driven, never asked to decide.
    e.step(120).unwrap();
    let agents = e.agents();
    let record = agents.get("agt_alicebody").expect("still in the world");
    assert_eq!(record.llm.provider.as_str(), "client");
    assert!(record.last_decision_tick.is_none());
    drop(agents);
    assert!(events(&e, "agent.perception.updated").is_empty());
    // Its owner (the same native session) may embody it again.
    ok(&e, &mut c, "agent.embody", json!({"agentId": "agt_alicebody"}));
    ok(&e, &mut c, "social.say", json!({"text": "back"}));
}

#[test]
fn no_client_hijacks_another_clients_or_the_operators_agent() {
    let e = engine();
    let r = e.call(
        &e.script_caller().clone(),
        "agent.spawn",
        json!({"id": "agt_guard", "profile": "player.limited", "llm": {"provider": "client"}}),
    );
    assert!(r.success, "{r:?}");
    let mut alice = client(&e, 1, Profile::BuilderReadWrite);
    let mut mallory = client(&e, 2, Profile::BuilderReadWrite);
    let a = ok(&e, &mut alice, "agent.embody", json!({"profile": "player.limited"}));
    let id = a["agentId"].as_str().unwrap().to_string();
    // Twice: one agent per client.
    assert!(refused(&e, &mut alice, "agent.embody", json!({"profile": "player.limited"})).contains("already embodies"));
    assert_eq!(e.agents().len(), 2, "the refused second embodiment made nothing");
    // Racing for it, in any case, or for the operator's agent.
    assert!(refused(&e, &mut mallory, "agent.embody", json!({"agentId": id})).contains("embodied by another client"));
    let why = refused(&e, &mut mallory, "agent.embody", json!({"agentId": id.to_uppercase()}));
    assert!(why.contains("not_found") && why.contains("exact"), "{why}");
    assert!(refused(&e, &mut mallory, "agent.embody", json!({"agentId": "agt_guard"})).contains("spawned for session"));
    // Alice disconnects (mid-conversation: her session simply ends): the agent is idle, and
    // still not Mallory's.
    drop(alice);
    let why = refused(&e, &mut mallory, "agent.embody", json!({"agentId": id}));
    assert!(why.contains("spawned for session ses_mcp1"), "{why}");
    // Mallory cannot despawn it or act as it either.
    assert!(refused(&e, &mut mallory, "agent.despawn", json!({"agentId": id})).contains("forbidden"));
    // Embodying, she is an in-world agent: she may not embody or spawn through it.
    ok(&e, &mut mallory, "agent.embody", json!({"profile": "player.limited"}));
    assert!(refused(&e, &mut mallory, "agent.spawn", json!({"body": {}})).contains("forbidden"));
}

#[test]
fn taking_over_a_scripted_agent_stops_its_decisions() {
    let e = engine();
    e.run_source(r#"limina.scripted_policy("wander", function() return {} end)"#, "p.lua").unwrap();
    let mut c = native(&e, 1, Profile::BuilderReadWrite, "agt_owner", "ses_owner");
    let made = ok(&e, &mut c, "agent.spawn", json!({"id": "agt_pet", "body": {}, "decisionIntervalTicks": 5, "llm": {"model": "wander"}}));
    assert_eq!(made["agentId"], "agt_pet");
    e.step(20).unwrap();
    let decided = events(&e, "agent.perception.updated").len();
    assert!(decided >= 3, "{decided}");
    ok(&e, &mut c, "agent.embody", json!({"agentId": "agt_pet"}));
    e.step(20).unwrap();
    assert_eq!(events(&e, "agent.perception.updated").len(), decided, "a client decides for it now");
    let look = ok(&e, &mut c, "agent.perceive", json!({}));
    assert_eq!(look["agentId"], "agt_pet");
    assert!(look["position"].is_array());
}

#[test]
fn embodying_over_stdio_acts_hears_and_releases() {
    let init = json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}});
    let mut server = StdioServer::start(&["--profile", "social.actor"]);
    assert!(server.request(1, "initialize", init.clone()).get("result").is_some());
    let mut id = 1;
    let mut call = |server: &mut StdioServer, name: &str, arguments: Value| {
        id += 1;
        server.request(id, "tools/call", json!({"name": name, "arguments": arguments}))["result"].clone()
    };
    let made = call(&mut server, "agent.embody", json!({"body": {"position": [0, 0.5, 0]}}));
    assert_eq!(made["isError"], false, "{made}");
    let agent = made["structuredContent"]["agentId"].as_str().unwrap().to_string();
    let said = call(&mut server, "social.say", json!({"text": "hello"}));
    assert_eq!(said["structuredContent"]["speaker"], agent.as_str(), "{said}");
    let look = call(&mut server, "agent.perceive", json!({}));
    assert_eq!(look["structuredContent"]["agentId"], agent.as_str(), "{look}");
    let released = call(&mut server, "agent.release", json!({}));
    assert_eq!(released["isError"], false, "{released}");
    let after = call(&mut server, "social.say", json!({"text": "again"}));
    assert_eq!(after["isError"], true, "a released agent takes no more calls: {after}");
    // --profile player.limited: embodying as builder is refused.
    let mut player = StdioServer::start(&["--profile", "player.limited"]);
    player.request(1, "initialize", init);
    let refused = player.request(2, "tools/call", json!({"name": "agent.embody", "arguments": {"profile": "builder.readWrite"}}));
    assert_eq!(refused["result"]["isError"], true, "{refused}");
    let text = refused["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("forbidden"), "{text}");
}

#[test]
fn the_meet_demo_runs_headless_and_the_keeper_answers_every_line() {
    let run = || {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_limina"))
            .args(["run", "demos/meet.lua"])
            .current_dir(crate::root())
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let first = run();
    for answer in [
        "agt_keeper: Hello, agt_visitor! I am the keeper of this meeting place.",
        "agt_keeper: You ask 'What is this place?'",
        "agt_keeper: Farewell, agt_visitor.",
    ] {
        assert!(first.contains(answer), "{answer} missing from:\n{first}");
    }
    let hash = |out: &str| out.lines().find_map(|l| l.split("world_hash=").nth(1).map(str::to_string)).expect("a world hash");
    assert_eq!(hash(&first), hash(&run()), "the same run, the same world");
}
