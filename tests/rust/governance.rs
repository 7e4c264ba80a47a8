//! Governance is permissioned and identity is the server's (issue 15, items 2 and 3): each
//! test is an attack, then a check that the engine still works.

use limina::host::{Engine, EngineConfig, Output};
use limina::mcp::{McpSession, handle_message};
use limina::policy::Profile;
use serde_json::{Value, json};

fn engine() -> Engine {
    Engine::new(EngineConfig { output: Output::Silent, ..EngineConfig::new(crate::root()) }).unwrap()
}

fn rpc(engine: &Engine, session: &mut McpSession, id: u64, method: &str, params: Value) -> Value {
    handle_message(engine, session, &json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})).expect("an answer")
}

fn still_sound(engine: &Engine) {
    let caller = engine.script_caller().clone();
    let made = engine.call(&caller, "scene.createEntity", json!({}));
    assert!(made.success, "a benign call still works: {made:?}");
    engine.step(1).unwrap();
}

#[test]
fn no_profile_and_no_client_may_govern() {
    let e = engine();
    // A script sub-session with the widest profile cannot revoke anyone.
    let builder = limina::skills::Caller::new("agt_b", "ses_b", "builder.readWrite");
    let r = e.call(&builder, "policy.revoke", json!({"sessionId": "ses_script"}));
    assert_eq!(
        r.error.as_ref().map(|f| f.message.as_str()),
        Some("missing permission: policy.govern (profile builder.readWrite lacks it; no profile grants it, only the operator)"),
        "{r:?}"
    );
    // Nor can a builder over MCP.
    let mut s = McpSession::new(1, Profile::BuilderReadWrite, &e);
    rpc(
        &e,
        &mut s,
        1,
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
    );
    for (skill, input) in [
        ("policy.revoke", json!({"sessionId": "ses_script"})),
        ("policy.quota", json!({"limit": 0, "windowTicks": 1})),
        ("policy.budget", json!({"sessionId": "ses_script", "calls": 0})),
        ("policy.restore", json!({"agentId": "agt_x"})),
        ("policy.clearQuotas", json!({})),
    ] {
        let r = rpc(&e, &mut s, 2, "tools/call", json!({"name": skill, "arguments": input}));
        assert_eq!(r["result"]["isError"], true, "{skill}: {r}");
        assert!(r["result"]["content"][0]["text"].as_str().unwrap().contains("policy.govern"), "{skill}: {r}");
    }
    // Nothing changed: the operator's own calls still go through.
    assert_eq!(e.policy().snapshot()["quotas"], json!([]));
    still_sound(&e);
}

#[test]
fn the_operator_governs_through_the_registry_and_the_change_is_traced() {
    let e = engine();
    let r = e.call(&e.script_caller().clone(), "policy.revoke", json!({"sessionId": "ses_victim"}));
    assert!(r.success, "{r:?}");
    let victim = limina::skills::Caller::new("agt_v", "ses_victim", "builder.readWrite");
    assert_eq!(e.call(&victim, "skills.list", json!({})).error.map(|f| f.message), Some("session ses_victim was revoked".into()));
    let changed: Vec<_> =
        e.trace().durable().map(Result::unwrap).filter(|ev| &*ev.event_type == "policy.changed").map(|ev| ev.caused_by.clone()).collect();
    assert_eq!(changed.len(), 1);
    assert_eq!(changed[0].len(), 1, "the change links the decision that allowed it");
}

#[test]
fn reading_the_world_log_needs_trace_read() {
    let e = engine();
    // A player (no trace.read) cannot read other agents' calls and payloads.
    let player = limina::skills::Caller::new("agt_p", "ses_p", "player.limited");
    for skill in ["trace.tail", "audit.query", "audit.usage", "trace.export"] {
        let input = if skill == "trace.export" { json!({"name": "x"}) } else { json!({}) };
        let r = e.call(&player, skill, input);
        assert!(!r.success, "{skill} must be denied to a player");
        assert!(r.error.as_ref().unwrap().message.contains("trace."), "{skill}: {r:?}");
    }
    // system.readonly may read but not export.
    let viewer = limina::skills::Caller::new("agt_v", "ses_v", "system.readonly");
    assert!(e.call(&viewer, "trace.tail", json!({})).success);
    assert_eq!(
        e.call(&viewer, "trace.export", json!({"name": "x"})).error.map(|f| f.message),
        Some("missing permission: trace.write (profile system.readonly lacks it; granted by builder.readWrite)".into())
    );
    still_sound(&e);
}

#[test]
fn a_native_client_that_claims_a_wider_profile_is_recorded_and_checked_as_what_it_holds() {
    let e = engine();
    let mut s = McpSession::new(7, Profile::PlayerLimited, &e);
    let init = rpc(&e, &mut s, 1, "initialize", json!({"agentId": "agt_claim", "sessionId": "ses_claim", "profile": "builder.readWrite"}));
    assert_eq!(init["result"]["session"]["profile"], "player.limited", "{init}");
    // package.load checks what the caller holds, not the profile name it claimed.
    let r = rpc(
        &e,
        &mut s,
        2,
        "callTool",
        json!({"name": "package.load", "arguments": {"ref": "x@1.0.0", "agentId": "agt_claim", "sessionId": "ses_claim", "profile": "builder.readWrite"}}),
    );
    assert_eq!(r["error"]["code"], -32001, "{r}");
    assert!(r["error"]["message"].as_str().unwrap().contains("do not hold"), "{r}");
    // Its decisions record the effective profile.
    let decision = e
        .trace()
        .durable()
        .map(Result::unwrap)
        .filter(|ev| &*ev.event_type == "policy.decision")
        .last()
        .map(|ev| ev.payload_value())
        .unwrap();
    assert_eq!(decision["context"]["profile"], "player.limited", "{decision}");
    still_sound(&e);
}

#[test]
fn a_client_cannot_take_over_a_live_session_id() {
    let e = engine();
    let mut a = McpSession::new(1, Profile::BuilderReadWrite, &e);
    let mut b = McpSession::new(2, Profile::BuilderReadWrite, &e);
    let ok = rpc(&e, &mut a, 1, "initialize", json!({"agentId": "agt_a", "sessionId": "ses_shared"}));
    assert!(ok.get("result").is_some(), "{ok}");
    let stolen = rpc(&e, &mut b, 1, "initialize", json!({"agentId": "agt_b", "sessionId": "ses_shared"}));
    assert_eq!(stolen["error"]["code"], -32001, "{stolen}");
    assert!(stolen["error"]["message"].as_str().unwrap().contains("in use"), "{stolen}");
    // The host script's session is taken too.
    let script = rpc(&e, &mut b, 2, "initialize", json!({"agentId": "agt_b", "sessionId": "ses_script"}));
    assert_eq!(script["error"]["code"], -32001, "{script}");
    // Once the first client is gone, the id is free.
    drop(a);
    let later = rpc(&e, &mut b, 3, "initialize", json!({"agentId": "agt_b", "sessionId": "ses_shared"}));
    assert!(later.get("result").is_some(), "{later}");
    still_sound(&e);
}

#[test]
fn one_client_reading_collision_events_does_not_take_them_from_another() {
    let e = engine();
    let op = e.script_caller().clone();
    assert!(e.call(&op, "scene.createEntity", json!({"static": true, "size": 10, "position": [0, -5, 0]})).success);
    assert!(e.call(&op, "scene.createEntity", json!({"shape": "sphere", "dynamic": true, "position": [0, 1, 0]})).success);
    e.step(120).unwrap();
    let a = limina::skills::Caller::new("agt_a", "ses_a", "player.limited");
    let b = limina::skills::Caller::new("agt_b", "ses_b", "player.limited");
    let events =
        |c: &limina::skills::Caller| e.call(c, "physics.collisionEvents", json!({})).result.unwrap()["events"].as_array().unwrap().len();
    let first = events(&a);
    assert!(first > 0, "the sphere hit the floor");
    assert_eq!(events(&b), first, "b sees what a already read");
    assert_eq!(events(&a), 0, "a's cursor moved past what it read");
    still_sound(&e);
}

#[test]
fn a_package_cannot_register_skills_in_a_core_namespace() {
    let dir = tempfile::tempdir().unwrap();
    let scripts = dir.path().join("scripts");
    std::fs::create_dir_all(&scripts).unwrap();
    for (file, name) in [("a.luau", "policy.grantAll"), ("b.luau", "scene.teleport"), ("c.luau", "mods.fine")] {
        let source = format!(
            r#"return {{ skills = {{ {{ name = "{name}", version = "1.0.0", category = "mods", description = "d.", permissions = {{}},
                input = s.object({{}}), output = s.object({{ ok = s.boolean() }}), handler = function() return {{ ok = true }} end }} }} }}"#
        );
        std::fs::write(scripts.join(file), source).unwrap();
    }
    let e = Engine::new(EngineConfig { output: Output::Silent, scripts: Some(scripts), ..EngineConfig::new(dir.path()) }).unwrap();
    assert!(!e.registry().has("policy.grantAll") && !e.registry().has("scene.teleport"));
    let rejected: Vec<String> = e
        .trace()
        .durable()
        .map(Result::unwrap)
        .filter(|ev| &*ev.event_type == "package.rejected")
        .map(|ev| ev.payload_value()["reason"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(rejected.iter().filter(|r| r.contains("reserved for the engine")).count(), 2, "{rejected:?}");
    // A package in its own namespace loads and answers.
    assert!(e.registry().has("mods.fine"));
    let caller = e.script_caller().clone();
    assert!(e.call(&caller, "mods.fine", json!({})).success);
    still_sound(&e);
}

#[test]
fn a_client_cannot_take_another_connections_default_identity() {
    let e = engine();
    let mut reader = McpSession::new(2, Profile::SystemReadonly, &e);
    for (agent, session) in [("agt_mcp1", "ses_mine"), ("agt_mine", "ses_mcp1"), ("agt_mcp01", "ses_mine2")] {
        let r = rpc(&e, &mut reader, 1, "initialize", json!({"agentId": agent, "sessionId": session}));
        assert_eq!(r["error"]["code"], -32001, "{agent}/{session}: {r}");
        assert!(r["error"]["message"].as_str().unwrap().contains("reserved for another connection"), "{r}");
    }
    // Its own defaults are its own.
    let r = rpc(&e, &mut reader, 2, "initialize", json!({"agentId": "agt_mcp2", "sessionId": "ses_mcp2"}));
    assert_eq!(r["result"]["session"]["agentId"], "agt_mcp2", "{r}");
}

/// A native initialize names one of the profiles (the name labels every decision it is traced
/// under: 3 MiB of free text there grew memory without bound), and none of the engine's own
/// identities.
#[test]
fn a_client_names_a_real_profile_and_none_of_the_engine_s_identities() {
    let e = engine();
    let mut client = McpSession::new(6, Profile::SystemReadonly, &e);
    for profile in ["P".repeat(3 << 20), "policy.govern".into(), "builder.readwrite".into()] {
        let r = rpc(&e, &mut client, 1, "initialize", json!({"agentId": "agt_a", "profile": profile}));
        assert_eq!(r["error"]["code"], -32602, "{r:.300}");
        let message = r["error"]["message"].as_str().unwrap();
        assert!(message.contains("is not a profile; use one of builder.readWrite, player.limited"), "{message:.300}");
        assert!(message.len() < 400, "the refusal does not echo the name whole");
    }
    for (agent, session) in [
        ("sys_engine", "ses_a"),
        ("sys_packages", "ses_a"),
        ("engine", "ses_a"),
        ("Engine", "ses_a"),
        ("SYS_packages", "ses_a"),
        ("agt_session1", "ses_a"),
        ("agt_a", "thr_ses_script"),
        ("agt_a", "THR_main"),
        ("agt_a", "ses_session1"),
    ] {
        let r = rpc(&e, &mut client, 2, "initialize", json!({"agentId": agent, "sessionId": session}));
        assert_eq!(r["error"]["code"], -32001, "{agent}/{session}: {r}");
        assert!(r["error"]["message"].as_str().unwrap().contains("are the engine's own"), "{r}");
    }
    let r = rpc(&e, &mut client, 3, "initialize", json!({"agentId": "agt_a", "sessionId": "ses_a", "profile": "player.limited"}));
    assert_eq!(r["result"]["session"]["profile"], "player.limited∩system.readonly", "{r}");
}

/// A client acting under an agent id holds it: no agent can be spawned under it (or the client
/// would act as that agent), ids of the generated form are the engine's, and client-chosen ids
/// are short plain text.
#[test]
fn a_client_cannot_pre_claim_an_agents_identity() {
    let e = engine();
    e.run_source("limina.scripted_policy('idle', function() return {} end)", "setup").unwrap();
    let mut client = McpSession::new(3, Profile::SocialActor, &e);
    let r = rpc(&e, &mut client, 1, "initialize", json!({"agentId": "agt_0001", "sessionId": "ses_x"}));
    assert!(r["error"]["message"].as_str().unwrap().contains("form of generated agent ids"), "{r}");
    let r = rpc(&e, &mut client, 2, "initialize", json!({"agentId": "agt_hero", "sessionId": "ses_x"}));
    assert_eq!(r["result"]["session"]["agentId"], "agt_hero", "{r}");
    // The builder cannot now spawn an agent under the client's id, nor under a client default.
    let spawned = e.call(e.script_caller(), "agent.spawn", json!({"id": "agt_hero", "profile": "social.actor", "llm": {"model": "idle"}}));
    assert!(spawned.error.as_ref().unwrap().message.contains("identity of the host script or a connected client"), "{spawned:?}");
    let spawned = e.call(e.script_caller(), "agent.spawn", json!({"id": "agt_mcp3", "profile": "social.actor", "llm": {"model": "idle"}}));
    assert!(spawned.error.as_ref().unwrap().message.contains("default identities of MCP clients"), "{spawned:?}");
    // Generated ids are unaffected.
    let spawned = e.call(e.script_caller(), "agent.spawn", json!({"profile": "social.actor", "llm": {"model": "idle"}}));
    assert!(spawned.success, "{spawned:?}");
    for bad in ["", "agt_\u{200b}x", &"a".repeat(100_000)] {
        let r = rpc(&e, &mut McpSession::new(4, Profile::SocialActor, &e), 3, "initialize", json!({"agentId": bad, "sessionId": "ses_y"}));
        assert_eq!(r["error"]["code"], -32602, "{bad:.20}: {r:.300}");
        assert!(r.to_string().len() < 1000, "the refusal does not echo a huge id");
    }
    // Nor may it hold an in-world agent's session id (ses_<agent id>).
    let r = rpc(
        &e,
        &mut McpSession::new(5, Profile::SocialActor, &e),
        4,
        "initialize",
        json!({"agentId": "agt_other", "sessionId": "ses_agt_hero2"}),
    );
    assert!(r["error"]["message"].as_str().unwrap().contains("in-world agents' session ids"), "{r}");
    // When the client leaves, the id is free again.
    drop(client);
    let spawned = e.call(e.script_caller(), "agent.spawn", json!({"id": "agt_hero", "profile": "social.actor", "llm": {"model": "idle"}}));
    assert!(spawned.success, "{spawned:?}");
}

/// A refused re-initialize changes nothing: the client keeps the identity it had, and holds no
/// other.
#[test]
fn a_refused_reinitialize_keeps_the_identity_the_client_had() {
    let e = engine();
    let mut one = McpSession::new(11, Profile::SocialActor, &e);
    let mut two = McpSession::new(12, Profile::SocialActor, &e);
    assert!(rpc(&e, &mut one, 1, "initialize", json!({"agentId": "agt_alice", "sessionId": "ses_one"}))["result"].is_object());
    assert!(rpc(&e, &mut two, 1, "initialize", json!({"agentId": "agt_carol", "sessionId": "ses_two"}))["result"].is_object());
    let r = rpc(&e, &mut one, 2, "initialize", json!({"agentId": "agt_bob", "sessionId": "ses_two"}));
    assert_eq!(r["error"]["code"], -32001, "{r}");
    // alice is still one's: nobody else may take it; bob was never one's: anybody may.
    let mut three = McpSession::new(13, Profile::SocialActor, &e);
    let r = rpc(&e, &mut three, 1, "initialize", json!({"agentId": "agt_alice", "sessionId": "ses_three"}));
    assert!(r["error"]["message"].as_str().unwrap().contains("in use by another client"), "{r}");
    let r = rpc(&e, &mut three, 2, "initialize", json!({"agentId": "agt_bob", "sessionId": "ses_three"}));
    assert_eq!(r["result"]["session"]["agentId"], "agt_bob", "{r}");
}

/// Every id a live caller holds cannot be adopted, in any case: the host script's own, each
/// `limina.session` it made (while the session object lives), each client's, each agent's; and
/// the forms the engine hands out are refused in any case (issue 26, item 7).
#[test]
fn no_client_borrows_a_live_identity_in_any_case() {
    let e = engine();
    e.run_source(
        "limina.scripted_policy('idle', function() return {} end)
         held = limina.session({ agentId = 'agt_ro', sessionId = 'ses_ro', profile = 'system.readonly' })
         twin = limina.session({ agentId = 'agt_ro', sessionId = 'ses_ro', profile = 'system.readonly' })
         anon = limina.session({ profile = 'player.limited' })",
        "setup",
    )
    .unwrap();
    let spawned =
        e.call(e.script_caller(), "agent.spawn", json!({"id": "agt_walker", "profile": "social.actor", "llm": {"model": "idle"}}));
    assert!(spawned.success, "{spawned:?}");
    let mut owner = McpSession::new(7, Profile::SocialActor, &e);
    assert!(rpc(&e, &mut owner, 1, "initialize", json!({"agentId": "agt_owner", "sessionId": "ses_owner"}))["result"].is_object());

    let mut thief = McpSession::new(8, Profile::SocialActor, &e);
    for (agent, session) in [
        ("agt_x", "ses_script"),
        ("agt_x", "SES_Script"),
        ("agt_x", "ses_ro"),
        ("agt_x", "SES_RO"),
        ("agt_x", "ses_1"),
        ("agt_x", "SES_0042"),
        ("agt_x", "ses_owner"),
        ("agt_x", "Ses_Owner"),
        ("agt_x", "ses_agt_walker"),
        ("agt_x", "SES_AGT_Walker"),
        ("agt_x", "SES_MCP1"),
        ("agt_x", "ses_Mcp7"),
        ("agt_script", "ses_x"),
        ("agt_Script", "ses_x"),
        ("AGT_SCRIPT", "ses_x"),
        ("agt_RO", "ses_x"),
        ("AGT_Session1", "ses_x"),
        ("agt_owner", "ses_x"),
        ("AGT_Owner", "ses_x"),
        ("agt_walker", "ses_x"),
        ("agt_Walker", "ses_x"),
        ("agt_MCP1", "ses_x"),
        ("AGT_mcp7", "ses_x"),
        ("AGT_0001", "ses_x"),
        ("Sys_engine", "ses_x"),
    ] {
        let r = rpc(&e, &mut thief, 2, "initialize", json!({"agentId": agent, "sessionId": session}));
        assert_eq!(r["error"]["code"], -32001, "{agent}/{session}: {r}");
    }
    // Its own defaults, in another case, are still its own.
    let r = rpc(&e, &mut thief, 3, "initialize", json!({"agentId": "AGT_MCP8", "sessionId": "Ses_Mcp8"}));
    assert_eq!(r["result"]["session"]["agentId"], "AGT_MCP8", "{r}");

    // The script cannot take a client's ids either, nor spawn an agent into one.
    for opts in ["{ agentId = 'AGT_OWNER', profile = 'player.limited' }", "{ sessionId = 'SES_owner', profile = 'player.limited' }"] {
        let err = e.run_source(&format!("limina.session({opts})"), "borrow").unwrap_err().to_string();
        assert!(err.contains("held by a connected client"), "{opts}: {err}");
    }
    for (id, why) in [
        ("agt_OWNER", "identity of the host script or a connected client"),
        ("agt_Walker", "already in use"),
        ("agt_MCP3", "default identities of MCP clients"),
        ("agt_Session9", "default identities of MCP clients"),
        ("agt_SCRIPT", "identity of the host script or a connected client"),
    ] {
        let r = e.call(e.script_caller(), "agent.spawn", json!({"id": id, "profile": "social.actor", "llm": {"model": "idle"}}));
        assert!(r.error.as_ref().is_some_and(|f| f.message.contains(why)), "{id}: {r:?}");
    }

    // One of two script sessions on an id going away leaves it held; both gone, it is free.
    e.run_source("held = nil", "drop one").unwrap();
    e.lua().gc_collect().unwrap();
    let r = rpc(&e, &mut thief, 4, "initialize", json!({"agentId": "agt_y", "sessionId": "ses_ro"}));
    assert_eq!(r["error"]["code"], -32001, "the twin still holds it: {r}");
    e.run_source("twin = nil", "drop both").unwrap();
    e.lua().gc_collect().unwrap();
    let r = rpc(&e, &mut thief, 5, "initialize", json!({"agentId": "agt_ro", "sessionId": "ses_ro"}));
    assert_eq!(r["result"]["session"]["sessionId"], "ses_ro", "{r}");
    still_sound(&e);
}
