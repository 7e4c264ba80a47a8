//! Agents that live in the world (issue 10): records changed only through skills, perception
//! for due agents only, decisions validated before queueing, actions through the registry under
//! the agent's own session and profile, the causal chain, scheduler caps, determinism.

use limina::host::{Engine, EngineConfig, Output};
use limina::policy::Profile;
use limina::skills::Caller;
use serde_json::{Value, json};

fn engine() -> Engine {
    Engine::new(EngineConfig { output: Output::Silent, ..EngineConfig::new(crate::root()) }).unwrap()
}

fn call(e: &Engine, skill: &str, input: Value) -> Value {
    let r = e.call(&e.script_caller().clone(), skill, input.clone());
    assert!(r.success, "{skill} {input}: {r:?}");
    r.result.unwrap()
}

/// Events of one type, as (id, payload, causes).
fn events(e: &Engine, kind: &str) -> Vec<(String, Value, Vec<String>)> {
    e.trace()
        .durable()
        .map(Result::unwrap)
        .filter(|ev| &*ev.event_type == kind)
        .map(|ev| (ev.id.clone(), ev.payload_value(), ev.caused_by.clone()))
        .collect()
}

/// Registers a scripted policy from Luau source: `function(request) ... end`.
fn policy(e: &Engine, name: &str, body: &str) {
    e.run_source(&format!("limina.scripted_policy({name:?}, function(request) {body} end)"), "policy.lua").unwrap();
}

fn spawn(e: &Engine, input: Value) -> Value {
    call(e, "agent.spawn", input)
}

/// An explicit id of the generated form moves the id counter past it, unless its number is
/// beyond what the counter reaches: `agt_18446744073709551615` wrapped it to `agt_0000`.
#[test]
fn a_huge_explicit_agent_number_leaves_the_generated_ids_alone() {
    let e = engine();
    policy(&e, "idle", "return {}");
    for id in ["agt_18446744073709551615", "agt_9007199254740992"] {
        assert_eq!(spawn(&e, json!({"id": id, "llm": {"model": "idle"}}))["agentId"], id);
    }
    assert_eq!(spawn(&e, json!({"llm": {"model": "idle"}}))["agentId"], "agt_0001");
    assert_eq!(spawn(&e, json!({"id": "agt_0041", "llm": {"model": "idle"}}))["agentId"], "agt_0041");
    assert_eq!(spawn(&e, json!({"llm": {"model": "idle"}}))["agentId"], "agt_0042");
}

#[test]
fn a_policy_returning_a_flood_is_cut_to_the_cap_before_it_is_converted_or_traced() {
    let e = engine();
    // 200,000 entries without a tool, then valid calls: only the cap's worth is ever looked at.
    policy(
        &e,
        "garbage",
        r#"local calls = table.create(200000, { nope = true })
           calls[1] = { tool = "agent.emitEvent", input = { type = "ping" } }
           return calls"#,
    );
    spawn(&e, json!({"llm": {"model": "garbage"}, "budget": {"maxToolCallsPerDecision": 4}}));
    e.step(2).unwrap();
    assert_eq!(events(&e, "agent.decision.completed")[0].1["toolCalls"], 200_000);
    // 64 entries are read (one call, 63 without a tool); of the unparseable ones, 4 are traced.
    assert_eq!(events(&e, "agent.toolcall.rejected").len(), 4, "rejections are traced up to maxToolCallsPerDecision");
    let capped = events(&e, "agent.scheduler.capped");
    assert!(capped.iter().any(|(_, p, _)| p["cap"] == "maxToolCallsPerDecision" && p["dropped"] == 199_995), "{capped:?}");
    assert_eq!(events(&e, "agent.signal.ping").len(), 1, "the one real call ran");
}

#[test]
fn a_revocation_reaches_the_agents_a_session_spawned_and_cannot_be_escaped_by_spawning() {
    let e = engine();
    policy(
        &e,
        "push",
        "return { { tool = 'physics.applyImpulse', input = { entity = request.perception.selfEntity, impulse = {1, 0, 0} } } }",
    );
    let mallory = Caller::new("agt_mallory", "ses_mallory", "builder.readWrite");
    let as_mallory = |skill: &str, input: Value| e.call(&mallory, skill, input);
    // Spawned while mallory held everything: the agent acts.
    let made = as_mallory("agent.spawn", json!({"id": "agt_proxy", "body": {}, "decisionIntervalTicks": 1, "llm": {"model": "push"}}));
    assert!(made.success, "{made:?}");
    e.step(3).unwrap();
    let impulses = |e: &Engine| events(e, "skill.executed").iter().filter(|(_, p, _)| p["skill"] == "physics.applyImpulse").count();
    let before = impulses(&e);
    assert!(before > 0, "the agent acted while its spawner held physics.write");
    // The operator takes physics.write from mallory's session: mallory's agent loses it too.
    call(&e, "policy.revoke", json!({"sessionId": "ses_mallory", "cap": "physics.write"}));
    e.step(3).unwrap();
    assert_eq!(impulses(&e), before, "no impulse after the revocation");
    let denied = events(&e, "policy.denied");
    let reason = denied.last().map(|(_, p, _)| p["reason"].as_str().unwrap_or_default().to_string()).unwrap_or_default();
    assert!(reason.contains("acts for agt_mallory") && reason.contains("physics.write"), "{reason}");
    // Nor can mallory hand the revoked capability to a new agent.
    let refused = as_mallory("agent.spawn", json!({"id": "agt_proxy2", "llm": {"model": "push"}}));
    let message = refused.error.expect("refused").message;
    assert!(message.contains("physics.write") && message.contains("revoked"), "{message}");
    // Revoking the whole session stops the agent's every call, and a restore brings it back.
    call(&e, "policy.restore", json!({"sessionId": "ses_mallory", "cap": "physics.write"}));
    call(&e, "policy.revoke", json!({"sessionId": "ses_mallory"}));
    let at = impulses(&e);
    e.step(3).unwrap();
    assert_eq!(impulses(&e), at, "a revoked session's agent is stopped");
    call(&e, "policy.restore", json!({"sessionId": "ses_mallory"}));
    e.step(3).unwrap();
    assert!(impulses(&e) > at, "restored with its spawner");
}

#[test]
fn agents_are_not_offered_playtests_and_a_call_to_one_is_rejected_before_it_runs() {
    let e = engine();
    policy(
        &e,
        "tester",
        r#"local offered = false
           for _, t in request.tools do if t.name == "test.run" then offered = true end end
           limina.call("agent.emitEvent", { type = if offered then "offered" else "withheld" })
           return { { tool = "test.run", input = { code = "it('x', function() end)" } } }"#,
    );
    spawn(&e, json!({"profile": "builder.readWrite", "llm": {"model": "tester"}}));
    e.step(3).unwrap();
    assert_eq!(events(&e, "agent.signal.withheld").len(), 1, "test.run is not among the tools");
    let rejected = events(&e, "agent.toolcall.rejected");
    assert!(rejected[0].1["reason"].as_str().unwrap().contains("not offered to in-world agents"), "{rejected:?}");
    assert!(events(&e, "skill.executed").iter().all(|(_, p, _)| p["skill"] != "test.run"), "no playtest ran");
}

#[test]
fn previous_results_reach_the_next_decisions_read_only() {
    let e = engine();
    policy(
        &e,
        "remember",
        r#"local first = request.previousResults[1]
           if first then
               local wrote = pcall(function() first.success = false end)
               limina.call("agent.emitEvent", { type = if wrote then "wrote" elseif first.success and first.tool == "agent.emitEvent" then "read" else "odd" })
           end
           return { { tool = "agent.emitEvent", input = { type = "tick" } } }"#,
    );
    spawn(&e, json!({"llm": {"model": "remember"}, "decisionIntervalTicks": 1}));
    e.step(12).unwrap();
    let read = events(&e, "agent.signal.read").len();
    assert!(read >= 8, "each later decision saw the first outcome, intact: {read}");
    assert_eq!((events(&e, "agent.signal.wrote").len(), events(&e, "agent.signal.odd").len()), (0, 0));
}

#[test]
fn the_tools_one_policy_sees_cannot_be_changed_for_another() {
    let e = engine();
    policy(
        &e,
        "vandal",
        r#"local ok = pcall(function() request.tools[1].inputSchema.description = "POISONED" end)
           local ok2 = pcall(function() request.tools[1].inputSchema.properties = nil end)
           limina.call("agent.emitEvent", { type = if ok or ok2 then "wrote" else "refused" })
           return {}"#,
    );
    policy(
        &e,
        "reader",
        r#"limina.call("agent.emitEvent", { type = if request.tools[1].inputSchema.description == "POISONED" then "poisoned" else "clean" }) return {}"#,
    );
    spawn(&e, json!({"llm": {"model": "vandal"}}));
    e.step(1).unwrap();
    spawn(&e, json!({"llm": {"model": "reader"}}));
    e.step(1).unwrap();
    assert_eq!((events(&e, "agent.signal.refused").len(), events(&e, "agent.signal.clean").len()), (1, 1));
}

#[test]
fn an_agent_keeps_acting_for_its_spawners_after_the_agent_between_them_leaves() {
    // Agents spawn agents only where the operator allows it.
    let scheduler = limina::agents::budget::SchedulerBudget { agents_may_spawn: true, ..Default::default() };
    let e = Engine::new(EngineConfig { output: Output::Silent, scheduler, ..EngineConfig::new(crate::root()) }).unwrap();
    policy(&e, "ping", "return { { tool = 'agent.emitEvent', input = { type = 'ping' } } }");
    // A builder agent that spawns a pinger, then leaves.
    policy(
        &e,
        "relay",
        r#"return {
               { tool = "agent.spawn", input = { id = "agt_b", decisionIntervalTicks = 1, llm = { model = "ping" } } },
               { tool = "agent.despawn", input = { agentId = request.agentId } },
           }"#,
    );
    let mallory = Caller::new("agt_mallory", "ses_mallory", "builder.readWrite");
    let made = e.call(&mallory, "agent.spawn", json!({"id": "agt_a", "profile": "builder.readWrite", "llm": {"model": "relay"}}));
    assert!(made.success, "{made:?}");
    e.step(4).unwrap();
    let agents: Vec<String> =
        call(&e, "agent.list", json!({}))["agents"].as_array().unwrap().iter().map(|a| a["id"].as_str().unwrap().to_string()).collect();
    assert_eq!(agents, ["agt_b"], "the relay left, its pinger stayed");
    assert!(!events(&e, "agent.signal.ping").is_empty());
    call(&e, "policy.revoke", json!({"sessionId": "ses_mallory"}));
    let pings = events(&e, "agent.signal.ping").len();
    e.step(4).unwrap();
    assert_eq!(events(&e, "agent.signal.ping").len(), pings, "revoking mallory stops the agent her agent spawned");
    // And an unrelated agent later spawned under the relay's old id does not adopt it.
    call(&e, "policy.restore", json!({"sessionId": "ses_mallory"}));
    call(&e, "policy.budget", json!({"sessionId": "ses_victim", "calls": 1000}));
    let victim = Caller::new("agt_victim", "ses_victim", "builder.readWrite");
    assert!(e.call(&victim, "agent.spawn", json!({"id": "agt_a", "llm": {"model": "ping"}, "decisionIntervalTicks": 1000})).success);
    let budget = |e: &Engine| call(e, "policy.snapshot", json!({}))["budgets"]["ses_victim"]["calls"]["used"].as_u64().unwrap_or(0);
    let used = budget(&e);
    e.step(4).unwrap();
    assert!(budget(&e) <= used + 1, "the pinger is not charged to the victim's session");
}

#[test]
fn the_lua_copies_of_a_despawned_agents_results_are_let_go() {
    let e = engine();
    for i in 0..500 {
        call(&e, "scene.createEntity", json!({"shape": "box", "position": [i % 50, 0, i / 50]}));
    }
    // Each decision queries the whole world: its previous results are large.
    policy(&e, "survey", "return { { tool = 'scene.queryEntities', input = {} } }");
    let cycle = |e: &Engine| {
        for _ in 0..20 {
            spawn(e, json!({"profile": "builder.readWrite", "decisionIntervalTicks": 1, "llm": {"model": "survey"}}));
        }
        e.step(3).unwrap();
        for a in call(e, "agent.list", json!({}))["agents"].as_array().unwrap().clone() {
            call(e, "agent.despawn", json!({"agentId": a["id"]}));
        }
        e.step(1).unwrap();
        e.lua().gc_collect().unwrap();
        e.lua().used_memory()
    };
    let first = cycle(&e);
    let mut last = first;
    for _ in 0..4 {
        last = cycle(&e);
    }
    assert!(last < first + (2 << 20), "the VM grew from {first} to {last} bytes over four rounds of spawn and despawn");
}

#[test]
fn a_tool_call_with_a_huge_input_is_rejected_and_a_huge_result_is_remembered_by_its_size() {
    let e = engine();
    for i in 0..2000 {
        call(&e, "scene.createEntity", json!({"shape": "box", "position": [i % 50, 0, i / 50]}));
    }
    policy(
        &e,
        "big",
        r#"local first = request.previousResults[1]
           if first and first.result.omitted then limina.call("agent.emitEvent", { type = "omitted" }) end
           return {
               { tool = "agent.emitEvent", input = { type = "huge", payload = { blob = string.rep("x", 100000) } } },
               { tool = "scene.queryEntities", input = {} },
           }"#,
    );
    spawn(&e, json!({"profile": "builder.readWrite", "decisionIntervalTicks": 1, "llm": {"model": "big"}}));
    e.step(4).unwrap();
    let rejected = events(&e, "agent.toolcall.rejected");
    assert!(rejected.iter().any(|(_, p, _)| p["reason"].as_str().unwrap().contains("more than 65536 bytes of JSON")), "{rejected:?}");
    assert!(events(&e, "agent.signal.huge").is_empty(), "never ran");
    assert!(!events(&e, "agent.signal.omitted").is_empty(), "a 2000-entity query result is remembered by its size");
}

#[test]
fn an_agent_spends_its_spawners_call_budget() {
    let e = engine();
    // Two pings a decision: the one that finds the budget spent is denied (a spent tree is then
    // asked to decide no more).
    policy(
        &e,
        "ping",
        "return { { tool = 'agent.emitEvent', input = { type = 'ping' } }, { tool = 'agent.emitEvent', input = { type = 'ping' } } }",
    );
    let mallory = Caller::new("agt_mallory", "ses_mallory", "builder.readWrite");
    call(&e, "policy.budget", json!({"sessionId": "ses_mallory", "calls": 4}));
    let made = e.call(&mallory, "agent.spawn", json!({"decisionIntervalTicks": 1, "llm": {"model": "ping"}}));
    assert!(made.success, "{made:?}");
    e.step(10).unwrap();
    // The spawn was one call; the agent's pings spend the other three.
    assert_eq!(events(&e, "agent.signal.ping").len(), 3);
    let denied = events(&e, "policy.denied");
    let reason = denied.last().map(|(_, p, _)| p["reason"].as_str().unwrap_or_default().to_string()).unwrap_or_default();
    assert!(reason.contains("acts for session ses_mallory") && reason.contains("call budget"), "{reason}");
}

#[test]
fn a_policy_that_despawns_its_own_agent_ends_the_perception_with_a_discarded_decision() {
    let e = engine();
    policy(
        &e,
        "quit",
        r#"limina.call("agent.despawn", { agentId = request.agentId })
           return { { tool = "agent.emitEvent", input = { type = "after" } } }"#,
    );
    spawn(&e, json!({"llm": {"model": "quit"}}));
    e.step(2).unwrap();
    let perceived = events(&e, "agent.perception.updated");
    let discarded = events(&e, "agent.decision.discarded");
    assert_eq!(discarded.len(), 1, "{discarded:?}");
    assert_eq!(discarded[0].2, vec![perceived[0].0.clone()], "it ends the perception's chain");
    assert!(discarded[0].1["reason"].as_str().unwrap().contains("despawned while it decided"));
    assert!(events(&e, "agent.signal.after").is_empty(), "nothing it decided ran");
}

#[test]
fn an_agent_whose_body_is_destroyed_lives_on_without_one() {
    let e = engine();
    policy(&e, "idle", "return {}");
    let made = spawn(&e, json!({"body": {}, "llm": {"model": "idle"}}));
    let body = made["entity"].as_str().unwrap().to_string();
    call(&e, "scene.destroyEntity", json!({"entity": body}));
    let row = &call(&e, "agent.list", json!({}))["agents"][0];
    assert_eq!(row["entity"], Value::Null, "agent.list no longer names the dead entity: {row}");
    e.step(2).unwrap();
    let gone = call(&e, "agent.despawn", json!({"agentId": made["agentId"], "removeBody": true}));
    assert_eq!(gone["removed"], true);
}

#[test]
fn no_agent_can_be_spawned_under_the_host_scripts_or_a_sessions_identity() {
    let e = engine();
    policy(&e, "idle", "return {}");
    let refused = |id: &str| {
        let r = e.call(&e.script_caller().clone(), "agent.spawn", json!({"id": id, "llm": {"model": "idle"}}));
        assert!(!r.success, "{id} was spawned");
        r.error.unwrap().message
    };
    assert!(refused("agt_script").contains("host script"), "the operator's own name");
    assert!(refused("agt_session1").contains("reserved"), "a script session's default name, even before it exists");
    assert!(refused("agt_.").contains("pattern"), "an id is a name, not punctuation");
    // A session the script made holds its agent id while it lives.
    e.run_source("held = limina.session({ agentId = 'agt_helper', profile = 'player.limited' })", "s.lua").unwrap();
    assert!(refused("agt_helper").contains("host script or a connected client"));
    assert_eq!(call(&e, "agent.list", json!({}))["agents"], json!([]), "nothing was spawned");
    assert!(events(&e, "skill.executed").iter().all(|(_, p, _)| p["skill"] != "agent.spawn"));
}

#[test]
fn spawn_list_and_despawn_are_skills_and_change_the_world_hash() {
    let e = engine();
    policy(&e, "idle", "return {}");
    let before = e.world_hash();
    let made = spawn(&e, json!({"body": {"position": [1, 0.5, 2]}, "llm": {"model": "idle"}}));
    assert_eq!(made["agentId"], "agt_0001");
    assert_eq!(made["sessionId"], "ses_agt_0001");
    assert!(made["entity"].as_str().unwrap().starts_with("ent_"));
    assert_ne!(e.world_hash(), before, "agents are world state");
    let listed = call(&e, "agent.list", json!({}));
    let row = &listed["agents"][0];
    assert_eq!(
        (row["id"].as_str(), row["profile"].as_str(), row["perceptionRadius"].as_f64()),
        (Some("agt_0001"), Some("player.limited"), Some(15.0))
    );
    assert_eq!(row["decisionIntervalTicks"], 30);
    assert_eq!(row["llm"], json!({"provider": "scripted", "model": "idle"}));
    let gone = call(&e, "agent.despawn", json!({"agentId": "agt_0001", "removeBody": true}));
    assert_eq!(gone["removed"], true);
    assert_eq!(e.world_hash(), before, "despawning with the body restores the world");
    assert_eq!(call(&e, "agent.despawn", json!({"agentId": "agt_0001"}))["removed"], false);
}

#[test]
fn a_spawn_cannot_grant_more_than_the_caller_holds_and_a_refused_spawn_leaves_nothing() {
    let e = engine();
    policy(&e, "idle", "return {}");
    let before = (e.world_hash(), e.world().entity_count());
    // A builder (builder.readWrite) does not hold social.act, so cannot hand it out.
    let builder = Caller::new("agt_b", "ses_b", "builder.readWrite");
    let r = e.call(&builder, "agent.spawn", json!({"profile": "social.actor", "body": {}, "llm": {"model": "idle"}}));
    assert!(!r.success);
    let error = r.error.unwrap();
    assert_eq!(error.code.as_str(), "forbidden");
    assert!(error.message.contains("social.act"), "{}", error.message);
    // A player.limited caller cannot spawn at all (spawning needs scene.write too)...
    let player = Caller::new("agt_p", "ses_p", "player.limited");
    let r = e.call(&player, "agent.spawn", json!({"profile": "player.limited", "llm": {"model": "idle"}}));
    assert_eq!(r.error.map(|f| f.code.as_str()), Some("forbidden"));
    // ...and a system.readonly one neither.
    let reader = Caller::new("agt_r", "ses_r", "system.readonly");
    assert!(!e.call(&reader, "agent.spawn", json!({"llm": {"model": "idle"}})).success);
    // The operator (the host script, holding policy.govern) decides trust: it may.
    let r = e.call(&e.script_caller().clone(), "agent.spawn", json!({"profile": "social.actor", "body": {}, "llm": {"model": "idle"}}));
    assert!(r.success, "{:?}", r.error);
    let spawned = r.result.unwrap()["agentId"].as_str().unwrap().to_string();
    call(&e, "agent.despawn", json!({"agentId": spawned, "removeBody": true}));
    // A scripted agent needs an existing policy; a body and an entity together are refused.
    let r = e.call(&e.script_caller().clone(), "agent.spawn", json!({"body": {}, "llm": {"model": "nope"}}));
    assert!(r.error.unwrap().message.contains("no scripted policy named 'nope'"));
    let r = e.call(&e.script_caller().clone(), "agent.spawn", json!({"body": {}, "entity": "ent_0001", "llm": {"model": "idle"}}));
    assert!(!r.success);
    assert_eq!((e.world_hash(), e.world().entity_count()), before, "nothing half-made");
    assert_eq!(call(&e, "agent.list", json!({}))["agents"], json!([]));
}

#[test]
fn only_due_agents_perceive_and_the_chain_runs_perceive_decide_act() {
    let e = engine();
    let target = call(&e, "scene.createEntity", json!({"position": [3, 0.5, 0]}))["entity"].as_str().unwrap().to_string();
    policy(
        &e,
        "push",
        r#"local p = request.perception
           if not p.selfEntity then return {} end
           return { { tool = "physics.applyImpulse", input = { entity = p.selfEntity, impulse = { 0.5, 0, 0 } } } }"#,
    );
    let a = spawn(&e, json!({"body": {"position": [0, 0.5, 0]}, "decisionIntervalTicks": 10, "llm": {"model": "push"}}));
    spawn(&e, json!({"body": {"position": [50, 0.5, 0]}, "decisionIntervalTicks": 1000, "llm": {"model": "push"}}));
    e.step(25).unwrap();
    // Agent 1 decided at ticks 0, 10, 20; agent 2 only at tick 0 (not due since).
    let perceptions = events(&e, "agent.perception.updated");
    let by = |id: &str| perceptions.iter().filter(|(_, p, _)| p["agentId"] == id).count();
    assert_eq!((by("agt_0001"), by("agt_0002")), (3, 1), "agents not due build nothing");
    // Agent 1 sees the target and not itself.
    let seen = call(&e, "agent.list", json!({}));
    assert_eq!(seen["agents"][0]["lastDecisionTick"], 20);
    let me = Caller::new("agt_0001", "ses_agt_0001", "player.limited");
    let r = e.call(&me, "agent.getPerception", json!({}));
    let perception = &r.result.unwrap()["perception"];
    assert_eq!(perception["selfId"], "agt_0001");
    assert_eq!(perception["selfEntity"], a["entity"]);
    let ids: Vec<&str> = perception["nearby"].as_array().unwrap().iter().map(|n| n["id"].as_str().unwrap()).collect();
    assert!(ids.contains(&target.as_str()), "{perception}");
    assert!(!ids.contains(&a["entity"].as_str().unwrap()), "self is excluded");
    assert_eq!(perception["tick"], 20);
    // The action ran as the agent, and its trace links decision and perception.
    let executed = events(&e, "skill.executed");
    let action = executed.iter().find(|(_, p, _)| p["skill"] == "physics.applyImpulse").expect("an action ran");
    let explained = call(&e, "trace.explainEvent", json!({"eventId": action.0}));
    assert_eq!(explained["event"]["actorId"], "agt_0001");
    assert_eq!(explained["event"]["threadId"], "ses_agt_0001");
    let parents: Vec<&str> = explained["parents"].as_array().unwrap().iter().map(|p| p["type"].as_str().unwrap()).collect();
    assert!(parents.contains(&"agent.decision.completed"), "{parents:?}");
    // One call shows the whole chain: action ← policy decision, decision ← perception.
    let chain: Vec<&str> = explained["ancestors"].as_array().unwrap().iter().map(|p| p["type"].as_str().unwrap()).collect();
    assert!(chain.contains(&"agent.decision.completed") && chain.contains(&"agent.perception.updated"), "{chain:?}");
    let decision = explained["parents"].as_array().unwrap().iter().find(|p| p["type"] == "agent.decision.completed").unwrap();
    let explained = call(&e, "trace.explainEvent", json!({"eventId": decision["id"]}));
    let parents: Vec<&str> = explained["parents"].as_array().unwrap().iter().map(|p| p["type"].as_str().unwrap()).collect();
    assert_eq!(parents, ["agent.perception.updated"]);
    // And the body moved.
    let moved = e.world().transform(e.world().resolve(a["entity"].as_str().unwrap()).unwrap()).unwrap();
    assert!(moved.position[0] > 0.05, "{:?}", moved.position);
}

#[test]
fn a_hallucinated_or_invalid_tool_call_is_rejected_and_never_runs() {
    let e = engine();
    policy(
        &e,
        "liar",
        r#"return {
             { tool = "scene.teleportEverything", input = {} },
             { tool = "physics.applyImpulse", input = { entity = request.perception.selfEntity, impulse = "far" } },
             { input = {} },
           }"#,
    );
    spawn(&e, json!({"body": {}, "llm": {"model": "liar"}}));
    let before = e.world_hash();
    e.step(3).unwrap();
    let rejected = events(&e, "agent.toolcall.rejected");
    assert_eq!(rejected.len(), 3, "{rejected:?}");
    let reasons: Vec<&str> = rejected.iter().map(|(_, p, _)| p["reason"].as_str().unwrap()).collect();
    assert!(reasons.iter().any(|r| r.contains("no skill named 'scene.teleportEverything'")), "{reasons:?}");
    assert!(reasons.iter().any(|r| r.contains("invalid input for physics.applyImpulse") && r.contains("impulse")), "{reasons:?}");
    assert!(reasons.iter().any(|r| r.contains("names no function")), "{reasons:?}");
    assert!(events(&e, "skill.executed").iter().all(|(_, p, _)| p["skill"] != "physics.applyImpulse"));
    let decision = events(&e, "agent.decision.completed");
    assert_eq!(rejected[0].2, vec![decision[0].0.clone()], "a rejection names its decision");
    // Only the agent's cadence state changed.
    assert_ne!(e.world_hash(), before);
    assert_eq!(call(&e, "agent.list", json!({}))["agents"][0]["queueDepth"], 0);
}

#[test]
fn a_player_limited_agent_creating_entities_is_denied_by_policy_with_zero_effect() {
    let e = engine();
    policy(&e, "builder", r#"return { { tool = "scene.createEntity", input = { position = { 1, 1, 1 } } } }"#);
    spawn(&e, json!({"body": {}, "llm": {"model": "builder"}}));
    let entities = e.world().entity_count();
    e.step(3).unwrap();
    assert_eq!(e.world().entity_count(), entities, "no entity was made");
    let denied = events(&e, "policy.denied");
    assert_eq!(denied.len(), 1, "{denied:?}");
    assert_eq!(denied[0].1["context"]["agentId"], "agt_0001");
    let decision = events(&e, "agent.decision.completed");
    assert_eq!(denied[0].2, vec![decision[0].0.clone()], "the denial is linked to the decision");
    let last = call(&e, "agent.list", json!({}));
    assert_eq!(last["agents"][0]["queueDepth"], 0);
}

#[test]
fn scheduler_caps_bite_and_are_traced() {
    let config = EngineConfig {
        output: Output::Silent,
        scheduler: limina::agents::budget::SchedulerBudget {
            max_decision_starts_per_tick: 2,
            max_global_actions_per_tick: 3,
            ..Default::default()
        },
        ..EngineConfig::new(crate::root())
    };
    let e = Engine::new(config).unwrap();
    // A flood: 100 calls per decision.
    policy(
        &e,
        "flood",
        r#"local calls = {}
           for i = 1, 100 do calls[i] = { tool = "agent.emitEvent", input = { type = "ping" } } end
           return calls"#,
    );
    for _ in 0..3 {
        spawn(
            &e,
            json!({"llm": {"model": "flood"}, "budget": {"maxToolCallsPerDecision": 10, "maxQueueDepth": 6, "maxActionsPerTick": 2}}),
        );
    }
    e.step(1).unwrap();
    let capped = events(&e, "agent.scheduler.capped");
    let caps: Vec<&str> = capped.iter().map(|(_, p, _)| p["cap"].as_str().unwrap()).collect();
    assert!(caps.contains(&"maxDecisionStartsPerTick"), "3 due, 2 start: {caps:?}");
    assert!(caps.contains(&"maxToolCallsPerDecision"), "{caps:?}");
    assert!(caps.contains(&"maxQueueDepth"), "{caps:?}");
    let depth = |e: &Engine| -> Vec<u64> {
        call(e, "agent.list", json!({}))["agents"].as_array().unwrap().iter().map(|a| a["queueDepth"].as_u64().unwrap()).collect()
    };
    assert_eq!(depth(&e), [6, 6, 0], "queues hold at most maxQueueDepth; the third agent waits its turn");
    // Next tick: the third agent starts; actions run within the global cap of 3.
    e.step(1).unwrap();
    let signals = events(&e, "agent.signal.ping").len();
    assert_eq!(signals, 3, "maxGlobalActionsPerTick");
    let caps: Vec<String> = events(&e, "agent.scheduler.capped").iter().map(|(_, p, _)| p["cap"].as_str().unwrap().to_string()).collect();
    assert!(caps.iter().any(|c| c == "maxGlobalActionsPerTick"), "{caps:?}");
    assert!(caps.iter().any(|c| c == "maxActionsPerTick"), "6 queued, 2 per tick: {caps:?}");
    // Later ticks keep within the caps and serve every agent.
    e.step(20).unwrap();
    let pings_by_agent = |id: &str| {
        e.trace().durable().map(Result::unwrap).filter(|ev| &*ev.event_type == "agent.signal.ping" && &*ev.actor_id == id).count()
    };
    assert_eq!(pings_by_agent("agt_0001") + pings_by_agent("agt_0002") + pings_by_agent("agt_0003"), events(&e, "agent.signal.ping").len());
    assert!(pings_by_agent("agt_0003") > 0, "weighted-fair order serves every agent");
}

#[test]
fn the_player_demo_is_deterministic_and_matches_its_golden_hash() {
    let run = || {
        let e = engine();
        e.run_file(&crate::root().join("demos/player.lua")).unwrap();
        e.step(600).unwrap();
        (e.world_hash(), events(&e, "skill.executed").iter().filter(|(_, p, _)| p["skill"] == "physics.applyImpulse").count())
    };
    let (a, actions) = run();
    let (b, _) = run();
    assert_eq!(a, b, "same script, same seed, same world hash with agents in it");
    assert!(actions > 10, "the pursuer acted ({actions} impulses)");
    crate::determinism::golden_hash("player_seed0_600", &a);
}

#[test]
fn a_builder_over_mcp_puts_a_player_into_the_world_within_its_own_grants() {
    use limina::mcp::{McpSession, handle_message};
    let e = engine();
    let mut s = McpSession::new(1, Profile::BuilderReadWrite, &e);
    let mut rpc = |id: u64, method: &str, params: Value| {
        handle_message(&e, &mut s, &json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})).expect("an answer")
    };
    rpc(1, "initialize", json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}));
    // The agent tools are not in the core tier: the builder lists them by enabling their category.
    let enabled = rpc(20, "tools/call", json!({"name": "skills.enable", "arguments": {"categories": ["agent"]}}));
    assert_eq!(enabled["result"]["isError"], false, "{enabled}");
    let listed = rpc(2, "tools/list", json!({}));
    let names: Vec<&str> = listed["result"]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    for tool in ["agent.spawn", "agent.despawn", "agent.list", "agent.getPerception"] {
        assert!(names.contains(&tool), "{tool} is listed");
    }
    let made = rpc(
        3,
        "tools/call",
        json!({"name": "agent.spawn", "arguments": {"body": {}, "llm": {"provider": "ollama", "model": "qwen2.5:7b"}}}),
    );
    assert_eq!(made["result"]["isError"], false, "{made}");
    let text = made["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("agt_0001"), "{text}");
    // More than the builder holds: refused, nothing made.
    let entities = e.world().entity_count();
    let refused = rpc(
        4,
        "tools/call",
        json!({"name": "agent.spawn", "arguments": {"body": {}, "profile": "social.actor", "llm": {"provider": "ollama"}}}),
    );
    assert_eq!(refused["result"]["isError"], true, "{refused}");
    assert_eq!(e.world().entity_count(), entities);
    let listed = rpc(5, "tools/call", json!({"name": "agent.list", "arguments": {}}));
    let text = listed["result"]["content"][0]["text"].as_str().unwrap();
    let rows: Value = serde_json::from_str(text).unwrap();
    assert_eq!(rows["agents"].as_array().unwrap().len(), 1);
    assert_eq!(rows["agents"][0]["spawnedBy"], "agt_mcp1");
}

mod off_loop {
    //! HTTP decisions run off the loop: a provider that holds its answer never holds a step, a
    //! decision past its timeout is abandoned, and its late answer is discarded, never run.

    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};

    use limina::agents::provider::{OllamaConfig, ProvidersConfig};
    use limina::host::{Engine, EngineConfig, Output};
    use serde_json::{Value, json};

    use super::{call, events};
    use crate::http_stub::{Reply, StubServer, dead_base_url};

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap()
    }

    fn engine_with_ollama(base_url: &str) -> Engine {
        engine_with_ollama_scheduler(base_url, limina::agents::budget::SchedulerBudget::default())
    }

    fn engine_with_ollama_scheduler(base_url: &str, scheduler: limina::agents::budget::SchedulerBudget) -> Engine {
        let providers = ProvidersConfig {
            ollama: OllamaConfig { base_url: base_url.to_string(), default_model: Some("qwen2.5:7b".into()), ..OllamaConfig::default() },
            ..ProvidersConfig::default()
        };
        Engine::new(EngineConfig { output: Output::Silent, providers: Some(providers), scheduler, ..EngineConfig::new(crate::root()) })
            .unwrap()
    }

    /// An Ollama `/api/chat` answer calling `physics.applyImpulse` on `entity`.
    fn impulse_answer(entity: &str) -> Value {
        json!({
            "model": "qwen2.5:7b",
            "message": {"role": "assistant", "content": "", "tool_calls": [
                {"function": {"name": "physics__applyImpulse", "arguments": {"entity": entity, "impulse": [1, 0, 0]}}}
            ]},
            "done": true,
            "prompt_eval_count": 10,
            "eval_count": 5,
        })
    }

    /// Steps (and sleeps a little) until `kind` has been traced `count` times; generous bound.
    fn step_until(e: &Engine, kind: &str, count: usize) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while events(e, kind).len() < count {
            if Instant::now() >= deadline {
                let kinds: Vec<String> = e.trace().durable().map(Result::unwrap).map(|ev| ev.event_type.to_string()).collect();
                panic!("no {kind} within 30 s; traced: {kinds:?}");
            }
            e.step(1).unwrap();
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn a_held_answer_never_holds_the_loop_and_a_late_one_is_discarded() {
        let rt = runtime();
        let (open, gate) = tokio::sync::watch::channel(false);
        // The answer names the entity the agent will inhabit (the first one made).
        let server = rt.block_on(StubServer::start(Reply::Gated { gate, then: Box::new(Reply::json(&impulse_answer("ent_0001"))) }));
        let e = engine_with_ollama(&server.base_url);
        let made = call(
            &e,
            "agent.spawn",
            json!({"body": {}, "decisionIntervalTicks": 1, "llm": {"provider": "ollama"}, "budget": {"decisionTimeoutMs": 200}}),
        );
        assert_eq!(made["entity"], "ent_0001");
        // A watchdog opens the gate after a minute unless the steps finished first, so a loop
        // that waited on the provider shows up as a failure below instead of a hang.
        let stepped = Arc::new(AtomicBool::new(false));
        let watchdog = {
            let (open, stepped) = (open.clone(), Arc::clone(&stepped));
            std::thread::spawn(move || {
                let until = Instant::now() + Duration::from_secs(60);
                while Instant::now() < until {
                    if stepped.load(Ordering::SeqCst) {
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
                let _ = open.send(true);
            })
        };
        e.step(120).unwrap();
        stepped.store(true, Ordering::SeqCst);
        assert_eq!(e.tick(), 120, "the loop ran every step while the provider held its answer");
        assert!(!*open.borrow(), "the steps ran before the gate opened: nothing waited on the provider");
        // Past its 200 ms the decision is abandoned (by generation) and reported.
        std::thread::sleep(Duration::from_millis(250));
        step_until(&e, "agent.decision.failed", 1);
        let failed = events(&e, "agent.decision.failed");
        assert!(failed[0].1["reason"].as_str().unwrap().contains("timed out after 200 ms"), "{}", failed[0].1);
        // The answer comes late: it is discarded, and its impulse never runs.
        open.send(true).unwrap();
        step_until(&e, "agent.decision.discarded", 1);
        let discarded = events(&e, "agent.decision.discarded");
        assert!(discarded[0].1["reason"].as_str().unwrap().contains("late"), "{}", discarded[0].1);
        watchdog.join().unwrap();
        // With the gate open, a fresh decision answers in time and its action runs as the agent.
        step_until(&e, "agent.decision.completed", 1);
        e.step(2).unwrap();
        let executed: Vec<_> = events(&e, "skill.executed").into_iter().filter(|(_, p, _)| p["skill"] == "physics.applyImpulse").collect();
        assert!(!executed.is_empty(), "the timely decision's action ran");
        let late_generation = discarded[0].1["generation"].as_u64().unwrap();
        let completed = events(&e, "agent.decision.completed");
        assert!(executed.iter().all(|(_, _, causes)| causes.iter().any(|c| completed.iter().any(|(id, _, _)| id == c))));
        assert!(late_generation >= 1);
        // The request the server saw speaks Ollama's tool-calling dialect.
        let first = server.received()[0].json();
        assert_eq!(first["stream"], false);
        assert!(first["tools"].as_array().unwrap().iter().any(|t| t["function"]["name"] == "physics__applyImpulse"));
        assert!(
            !first["tools"].as_array().unwrap().iter().any(|t| t["function"]["name"] == "scene__createEntity"),
            "a player.limited agent is offered only the skills its profile allows"
        );
        drop(rt);
    }

    #[test]
    fn http_decisions_in_flight_are_capped_for_the_whole_engine() {
        let rt = runtime();
        let (open, gate) = tokio::sync::watch::channel(false);
        let server = rt.block_on(StubServer::start(Reply::Gated { gate, then: Box::new(Reply::json(&impulse_answer("ent_0001"))) }));
        let scheduler = limina::agents::budget::SchedulerBudget { max_in_flight_decisions: 2, ..Default::default() };
        let e = engine_with_ollama_scheduler(&server.base_url, scheduler);
        for _ in 0..5 {
            call(&e, "agent.spawn", json!({"llm": {"provider": "ollama"}}));
        }
        e.step(3).unwrap();
        let listed = call(&e, "agent.list", json!({}));
        let flying = listed["agents"].as_array().unwrap().iter().filter(|a| a["inFlight"] == true).count();
        assert_eq!(flying, 2, "{listed}");
        let capped = events(&e, "agent.scheduler.capped");
        assert!(capped.iter().any(|(_, p, _)| p["cap"] == "maxInFlightDecisions" && p["dropped"] == 3 && p["limit"] == 2), "{capped:?}");
        open.send(true).unwrap();
        drop(rt);
    }

    #[test]
    fn a_timed_out_request_still_running_counts_against_the_in_flight_cap() {
        let rt = runtime();
        let (_open, gate) = tokio::sync::watch::channel(false);
        let server = rt.block_on(StubServer::start(Reply::Gated { gate, then: Box::new(Reply::json(&impulse_answer("ent_0001"))) }));
        let scheduler = limina::agents::budget::SchedulerBudget { max_in_flight_decisions: 2, ..Default::default() };
        let e = engine_with_ollama_scheduler(&server.base_url, scheduler);
        // Decisions that time out after 1 ms, every tick, against a server that never answers.
        for _ in 0..4 {
            call(&e, "agent.spawn", json!({"llm": {"provider": "ollama"}, "decisionIntervalTicks": 1, "budget": {"decisionTimeoutMs": 1}}));
        }
        let deadline = Instant::now() + Duration::from_secs(30);
        while server.received().len() < 2 {
            assert!(Instant::now() < deadline, "the first two requests never reached the server");
            e.step(1).unwrap();
            std::thread::sleep(Duration::from_millis(3));
        }
        // The held requests live about 1.25 s (the 1 ms decision plus the client's grace of at
        // least 1 s, plus the task's margin); look well inside that, whatever the machine's load.
        let window = Instant::now();
        for _ in 0..30 {
            if window.elapsed() > Duration::from_millis(400) {
                break;
            }
            e.step(1).unwrap();
            std::thread::sleep(Duration::from_millis(3));
        }
        assert!(events(&e, "agent.decision.failed").len() >= 2, "the decisions timed out");
        assert_eq!(server.received().len(), 2, "requests started against a cap of 2");
        drop(rt);
    }

    #[test]
    fn a_reply_of_thousands_of_unparseable_calls_is_traced_only_up_to_the_cap() {
        let rt = runtime();
        // 5,000 calls naming no function, and 5,000 more with arguments that are not JSON.
        let mut calls: Vec<Value> = (0..5000).map(|_| json!({"function": {"arguments": "x"}})).collect();
        calls.extend((0..5000).map(|_| json!({"function": {"name": "physics__applyImpulse", "arguments": "{not json"}})));
        let reply = json!({"model": "m", "message": {"role": "assistant", "content": "", "tool_calls": calls}, "done": true});
        let server = rt.block_on(StubServer::start(Reply::json(&reply)));
        let e = engine_with_ollama(&server.base_url);
        call(&e, "agent.spawn", json!({"body": {}, "llm": {"provider": "ollama"}, "budget": {"maxToolCallsPerDecision": 5}}));
        step_until(&e, "agent.decision.completed", 1);
        let completed = events(&e, "agent.decision.completed");
        assert_eq!(completed[0].1["toolCalls"], 10_000, "the decision says how many calls the model made");
        assert_eq!(events(&e, "agent.toolcall.rejected").len(), 5, "one event per call up to maxToolCallsPerDecision");
        let capped = events(&e, "agent.scheduler.capped");
        assert!(
            capped.iter().any(|(_, p, _)| p["cap"] == "maxToolCallsPerDecision" && p["dropped"] == 9_995 && p["limit"] == 5),
            "{capped:?}"
        );
        drop(rt);
    }

    #[test]
    fn a_dead_provider_is_reported_and_the_agent_idles() {
        let rt = runtime();
        let dead = rt.block_on(dead_base_url());
        let e = engine_with_ollama(&dead);
        call(&e, "agent.spawn", json!({"body": {}, "llm": {"provider": "ollama"}}));
        let before = e.world().entity_count();
        step_until(&e, "agent.decision.failed", 1);
        let failed = events(&e, "agent.decision.failed");
        assert!(failed[0].1["reason"].as_str().unwrap().contains("unreachable"), "{}", failed[0].1);
        assert_eq!(failed[0].1["provider"], "ollama");
        assert!(events(&e, "skill.executed").iter().all(|(_, p, _)| p["skill"] != "physics.applyImpulse"), "nothing made up");
        assert_eq!(e.world().entity_count(), before);
    }

    #[test]
    fn an_http_500_fails_the_decision_with_the_status() {
        let rt = runtime();
        let server = rt.block_on(StubServer::start(Reply::status(500, "model exploded")));
        let e = engine_with_ollama(&server.base_url);
        call(&e, "agent.spawn", json!({"body": {}, "llm": {"provider": "ollama"}}));
        step_until(&e, "agent.decision.failed", 1);
        let failed = events(&e, "agent.decision.failed");
        let reason = failed[0].1["reason"].as_str().unwrap();
        assert!(reason.contains("500") && reason.contains("model exploded"), "{reason}");
    }

    #[test]
    fn a_spawners_tree_starts_at_most_its_model_calls_and_the_operators_agents_are_not_counted() {
        let rt = runtime();
        let server = rt.block_on(StubServer::start(Reply::json(&impulse_answer("ent_0001"))));
        let scheduler = limina::agents::budget::SchedulerBudget { max_model_calls_per_spawner: 3, ..Default::default() };
        let e = engine_with_ollama_scheduler(&server.base_url, scheduler);
        let mallory = limina::skills::Caller::new("agt_mallory", "ses_mallory", "builder.readWrite");
        for _ in 0..2 {
            let made = e.call(&mallory, "agent.spawn", json!({"decisionIntervalTicks": 1, "llm": {"provider": "ollama"}}));
            assert!(made.success, "{made:?}");
        }
        step_until(&e, "agent.decision.completed", 3);
        for _ in 0..20 {
            e.step(1).unwrap();
            std::thread::sleep(Duration::from_millis(2));
        }
        assert_eq!(server.received().len(), 3, "mallory's two agents shared three model calls");
        let capped = events(&e, "agent.scheduler.capped");
        let spent: Vec<&Value> = capped.iter().map(|(_, p, _)| p).filter(|p| p["cap"] == "maxModelCallsPerSpawner").collect();
        assert_eq!(spent.len(), 1, "traced once: {capped:?}");
        assert_eq!(spent[0]["sessionId"], "ses_mallory");
        // The operator's own agent decides on.
        call(&e, "agent.spawn", json!({"decisionIntervalTicks": 1, "llm": {"provider": "ollama"}}));
        step_until(&e, "agent.decision.completed", 6);
        assert!(server.received().len() >= 6);
    }
}

#[test]
fn a_native_mcp_client_cannot_take_an_agents_name_or_session() {
    use limina::mcp::{McpSession, handle_message};
    let e = engine();
    policy(&e, "idle", "return {}");
    spawn(&e, json!({"llm": {"model": "idle"}}));
    for (n, params) in [json!({"agentId": "agt_0001"}), json!({"agentId": "agt_x", "sessionId": "ses_agt_0001"})].into_iter().enumerate() {
        let mut s = McpSession::new(n as u64 + 1, Profile::BuilderReadWrite, &e);
        let r = handle_message(&e, &mut s, &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params})).unwrap();
        assert!(r["error"]["message"].as_str().is_some_and(|m| m.contains("agt_0001") || m.contains("ses_agt_0001")), "{params}: {r}");
    }
}

/// How upright a rotation leaves a body: the y component of its rotated up axis (1 = upright).
fn up_y(q: [f32; 4]) -> f32 {
    let [x, _, z, _] = q;
    1.0 - 2.0 * (x * x + z * z)
}

#[test]
fn an_agent_walks_upright_through_bumps_unless_told_to_roll() {
    let e = engine();
    let ground = limina::scenes::parse(limina::mcp::DEFAULT_WORLD.as_bytes(), "default world", 1000).unwrap();
    e.load_scene(&ground).unwrap();
    e.run_source(r#"limina.scripted_policy("idle", function() return {} end)"#, "policy.lua").unwrap();
    // Two capsules walk the same course in two lanes, the second told not to stay upright: a
    // crate in the way (pushed aside), and a ball thrown at each from the side.
    let mut walkers = Vec::new();
    for (lane, upright) in [(0.0, true), (10.0, false)] {
        let id = if upright { "agt_upright" } else { "agt_free" };
        let made = call(
            &e,
            "agent.spawn",
            json!({"id": id, "profile": "social.actor", "decisionIntervalTicks": 100000, "llm": {"model": "idle"},
                   "body": {"shape": "capsule", "position": [0, 1.0, lane], "friction": 0.9, "upright": upright}}),
        );
        call(&e, "scene.createEntity", json!({"shape": "box", "size": 0.6, "position": [3, 0.3, lane + 0.3], "dynamic": true}));
        let ball =
            call(&e, "scene.createEntity", json!({"shape": "sphere", "size": 0.8, "position": [5, 1.2, lane - 4.0], "dynamic": true}));
        call(&e, "physics.applyImpulse", json!({"entity": ball["entity"], "impulse": [0, 0.5, 3.5]}));
        let walker = Caller::with_profile(id, &format!("ses_{id}"), Profile::SocialActor);
        let r = e.call(&walker, "social.approach", json!({"target": [9, 0, lane], "talkDistance": 0.5}));
        assert!(r.success, "{r:?}");
        walkers.push((made["entity"].as_str().unwrap().to_string(), upright));
    }
    let mut lowest = [1.0f32; 2];
    let mut start = [0.0f32; 2];
    for tick in 0..360 {
        e.step(1).unwrap();
        let world = e.world();
        for (i, (entity, _)) in walkers.iter().enumerate() {
            let t = world.transform(world.resolve(entity).unwrap()).unwrap();
            if tick == 0 {
                start[i] = t.position[0];
            }
            lowest[i] = lowest[i].min(up_y(t.rotation));
        }
    }
    let world = e.world();
    let walked = world.transform(world.resolve(&walkers[0].0).unwrap()).unwrap().position[0] - start[0];
    assert!(walked > 3.0, "the upright agent walked past the crate: {walked} m (lowest up y {lowest:?})");
    assert!(lowest[0] > 0.999, "the upright agent never tilted: its up axis fell to y = {}", lowest[0]);
    assert!(lowest[1] < 0.9, "the same course tips a free body (so this test can fail): up y = {}", lowest[1]);
}
