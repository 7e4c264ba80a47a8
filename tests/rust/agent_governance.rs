//! Who in-world agents act for, and what they may not do (issue 26): every revocation, quota
//! and budget of a spawner reaches its whole delegation tree at once; agents spawn only where
//! the operator allows; only an agent's owners remove it or its body; heavy skills are not
//! offered to agents; a scripted policy that never returns cannot hold the loop.

use limina::agents::budget::SchedulerBudget;
use limina::host::{Engine, EngineConfig, Output};
use limina::skills::Caller;
use serde_json::{Value, json};

fn engine_with(scheduler: SchedulerBudget) -> Engine {
    Engine::new(EngineConfig { output: Output::Silent, scheduler, ..EngineConfig::new(crate::root()) }).unwrap()
}

fn engine() -> Engine {
    engine_with(SchedulerBudget::default())
}

/// An engine whose operator lets in-world agents spawn agents.
fn spawning_engine() -> Engine {
    engine_with(SchedulerBudget { agents_may_spawn: true, ..SchedulerBudget::default() })
}

fn call(e: &Engine, skill: &str, input: Value) -> Value {
    let r = e.call(&e.script_caller().clone(), skill, input.clone());
    assert!(r.success, "{skill} {input}: {r:?}");
    r.result.unwrap()
}

fn count(e: &Engine, kind: &str) -> usize {
    e.trace().durable().map(Result::unwrap).filter(|ev| &*ev.event_type == kind).count()
}

fn payloads(e: &Engine, kind: &str) -> Vec<Value> {
    e.trace().durable().map(Result::unwrap).filter(|ev| &*ev.event_type == kind).map(|ev| ev.payload_value()).collect()
}

fn policy(e: &Engine, name: &str, body: &str) {
    e.run_source(&format!("limina.scripted_policy({name:?}, function(request) {body} end)"), "policy.lua").unwrap();
}

fn agent_caller(id: &str) -> Caller {
    Caller::new(id, &format!("ses_{id}"), "builder.readWrite")
}

/// Mallory (a builder session) spawns agt_c01, which spawns agt_c02, … down to agt_c{depth}:
/// every one pings every tick.
fn chain(e: &Engine, depth: usize) -> Caller {
    policy(e, "ping", "return { { tool = 'agent.emitEvent', input = { type = 'ping' } } }");
    let mallory = Caller::new("agt_mallory", "ses_mallory", "builder.readWrite");
    let mut spawner = mallory.clone();
    for n in 1..=depth {
        let id = format!("agt_c{n:02}");
        let made = e.call(
            &spawner,
            "agent.spawn",
            json!({"id": id, "profile": "builder.readWrite", "decisionIntervalTicks": 1, "llm": {"model": "ping"}}),
        );
        assert!(made.success, "spawning {id}: {made:?}");
        spawner = agent_caller(&id);
    }
    mallory
}

#[test]
fn revoking_the_root_session_stops_every_agent_down_a_chain_of_spawns_at_once() {
    let e = spawning_engine();
    chain(&e, 16);
    // A decision's actions run at the start of the next step.
    e.step(3).unwrap();
    assert_eq!(count(&e, "agent.signal.ping"), 32, "all sixteen ping every tick");
    call(&e, "policy.revoke", json!({"sessionId": "ses_mallory"}));
    let (pings, decisions) = (count(&e, "agent.signal.ping"), count(&e, "agent.decision.completed"));
    e.step(3).unwrap();
    assert_eq!(count(&e, "agent.signal.ping"), pings, "no agent of the tree acts after the revocation");
    assert_eq!(count(&e, "agent.decision.completed"), decisions, "nor is any asked to decide");
    call(&e, "policy.restore", json!({"sessionId": "ses_mallory"}));
    e.step(2).unwrap();
    assert_eq!(count(&e, "agent.signal.ping"), pings + 16, "a restore resumes the whole tree");
}

#[test]
fn a_chain_deeper_than_the_delegation_limit_is_refused_not_cut_loose_from_its_root() {
    let e = spawning_engine();
    chain(&e, 16);
    let refused = e.call(&agent_caller("agt_c16"), "agent.spawn", json!({"id": "agt_c17", "llm": {"model": "ping"}}));
    let error = refused.error.expect("the seventeenth link is refused");
    assert_eq!(error.code.as_str(), "capacity_exceeded");
    assert!(error.message.contains("more than the 16"), "{}", error.message);
}

#[test]
fn revoking_a_capability_of_the_root_agent_reaches_the_far_end_of_the_chain() {
    let e = spawning_engine();
    chain(&e, 5);
    e.step(1).unwrap();
    call(&e, "policy.revoke", json!({"agentId": "agt_mallory", "cap": "agent.write"}));
    let pings = count(&e, "agent.signal.ping");
    e.step(2).unwrap();
    assert_eq!(count(&e, "agent.signal.ping"), pings);
    let reasons: Vec<String> = payloads(&e, "policy.denied").iter().map(|p| p["reason"].as_str().unwrap().to_string()).collect();
    assert!(reasons.iter().any(|r| r.starts_with("agent agt_c05 acts for agt_mallory")), "{reasons:?}");
}

#[test]
fn the_root_sessions_call_budget_and_quota_bound_its_whole_tree() {
    let e = spawning_engine();
    chain(&e, 4);
    call(&e, "policy.budget", json!({"sessionId": "ses_mallory", "calls": 10}));
    e.step(10).unwrap();
    // The budget was set after the four spawns; the agents' pings spend the ten calls.
    assert_eq!(count(&e, "agent.signal.ping"), 10, "the tree spent exactly the root's budget");
    let decisions = count(&e, "agent.decision.completed");
    e.step(5).unwrap();
    assert_eq!(count(&e, "agent.decision.completed"), decisions, "a spent tree is not asked to decide");

    // A quota on the root session counts its delegates' calls too.
    let e = spawning_engine();
    chain(&e, 4);
    call(&e, "policy.quota", json!({"sessionId": "ses_mallory", "cap": "agent.write", "limit": 6, "windowTicks": 1000}));
    e.step(10).unwrap();
    assert_eq!(count(&e, "agent.signal.ping"), 6, "the delegates shared the root's quota window");
    let reasons: Vec<String> = payloads(&e, "policy.denied").iter().map(|p| p["reason"].as_str().unwrap().to_string()).collect();
    assert!(reasons.iter().any(|r| r.contains("acts for session ses_mallory, whose quota")), "{reasons:?}");
}

#[test]
fn in_world_agents_may_not_spawn_agents_unless_the_operator_allows_it() {
    for (allowed, expect_agents) in [(false, 1), (true, 2)] {
        let e = engine_with(SchedulerBudget { agents_may_spawn: allowed, ..SchedulerBudget::default() });
        policy(&e, "breeder", "return { { tool = 'agent.spawn', input = { llm = { model = 'breeder' } } } }");
        // A builder-profile agent holds agent.write: only the operator's setting stops it.
        call(&e, "agent.spawn", json!({"profile": "builder.readWrite", "decisionIntervalTicks": 1000, "llm": {"model": "breeder"}}));
        e.step(2).unwrap();
        let agents = call(&e, "agent.list", json!({}))["agents"].as_array().unwrap().len();
        assert_eq!(agents, expect_agents, "agentsMaySpawn = {allowed}");
        if !allowed {
            let failed = payloads(&e, "skill.failed");
            assert!(
                failed.iter().any(|p| p["message"].as_str().is_some_and(|m| m.contains("in-world agents may not spawn"))),
                "{failed:?}"
            );
        }
    }
}

#[test]
fn only_an_agents_owners_may_despawn_it_or_destroy_its_body() {
    let e = engine();
    policy(&e, "idle", "return {}");
    let alice = Caller::new("agt_alice", "ses_alice", "builder.readWrite");
    let bob = Caller::new("agt_bob", "ses_bob", "builder.readWrite");
    let made = e.call(&alice, "agent.spawn", json!({"id": "agt_pet", "body": {}, "llm": {"model": "idle"}}));
    assert!(made.success, "{made:?}");
    let body = made.result.unwrap()["entity"].as_str().unwrap().to_string();
    for (skill, input) in [
        ("agent.despawn", json!({"agentId": "agt_pet"})),
        ("agent.despawn", json!({"agentId": "agt_pet", "removeBody": true})),
        ("scene.destroyEntity", json!({"entity": body})),
    ] {
        let refused = e.call(&bob, skill, input.clone());
        let error = refused.error.unwrap_or_else(|| panic!("bob's {skill} {input} was allowed"));
        assert_eq!(error.code.as_str(), "forbidden", "{skill}: {}", error.message);
        assert!(error.message.contains("spawned for session ses_alice"), "{}", error.message);
    }
    assert_eq!(call(&e, "agent.list", json!({}))["agents"].as_array().unwrap().len(), 1, "the pet and its body are untouched");
    assert!(e.world().entity_count() == 1);
    // Its owner may; and the operator may remove anyone's.
    assert!(e.call(&alice, "agent.despawn", json!({"agentId": "agt_pet"})).success);
    let made = e.call(&alice, "agent.spawn", json!({"id": "agt_pet2", "body": {}, "llm": {"model": "idle"}}));
    assert!(made.success);
    call(&e, "agent.despawn", json!({"agentId": "agt_pet2", "removeBody": true}));
    // Plain entities stay anyone's to destroy.
    let plain = call(&e, "scene.createEntity", json!({"shape": "box"}))["entity"].as_str().unwrap().to_string();
    assert!(e.call(&bob, "scene.destroyEntity", json!({"entity": plain})).success);
}

#[test]
fn agents_are_not_offered_heavy_skills_and_a_call_to_one_never_runs() {
    let e = engine();
    policy(
        &e,
        "greedy",
        r#"local offered = {}
           for _, t in request.tools do offered[t.name] = true end
           for _, name in { "render.capture", "scene.load", "scene.save", "world.snapshot", "trace.export", "test.run" } do
               if offered[name] then limina.call("agent.emitEvent", { type = "offered", payload = { name = name } }) end
           end
           return { { tool = "render.capture", input = { width = 2048, height = 2048 } } }"#,
    );
    call(&e, "agent.spawn", json!({"profile": "builder.readWrite", "llm": {"model": "greedy"}}));
    e.step(2).unwrap();
    assert_eq!(count(&e, "agent.signal.offered"), 0, "{:?}", payloads(&e, "agent.signal.offered"));
    let rejected = payloads(&e, "agent.toolcall.rejected");
    assert!(rejected.iter().any(|p| p["reason"].as_str().unwrap().contains("not offered to in-world agents")), "{rejected:?}");
    assert!(payloads(&e, "skill.executed").iter().all(|p| p["skill"] != "render.capture"), "no capture ran");
}

#[test]
fn a_scripted_policy_that_never_returns_fails_its_decision_and_the_loop_runs_on() {
    let e = engine();
    policy(&e, "stuck", "local n = 0 while true do n += 1 pcall(function() end) end");
    policy(&e, "ping", "return { { tool = 'agent.emitEvent', input = { type = 'ping' } } }");
    call(&e, "agent.spawn", json!({"decisionIntervalTicks": 1, "llm": {"model": "stuck"}}));
    call(&e, "agent.spawn", json!({"decisionIntervalTicks": 1, "llm": {"model": "ping"}}));
    e.step(2).unwrap();
    assert_eq!(e.tick(), 2);
    let failed = payloads(&e, "agent.decision.failed");
    assert_eq!(failed.len(), 2, "one failed decision per tick: {failed:?}");
    assert!(failed[0]["reason"].as_str().unwrap().contains("VM checks"), "{failed:?}");
    assert_eq!(count(&e, "agent.signal.ping"), 1, "the other agent acts on");
    // The host VM has no budget left over: a long loop of the host script runs to its end.
    e.run_source("local s = 0 for i = 1, 30000000 do s += 1 end assert(s == 30000000)", "long.lua").unwrap();
}

#[test]
fn a_heavy_skill_is_refused_to_an_agent_however_the_call_reaches_the_registry() {
    // A mod's skill called by an agent calls on with the agent's identity: the registry, not
    // only the action queue, refuses heavy skills to callers that act for spawners.
    let e = engine();
    let mut agent = agent_caller("agt_0042");
    agent.acting_for = Some(std::rc::Rc::from(vec![limina::policy::Principal { agent_id: "agt_x".into(), session_id: "ses_x".into() }]));
    for (skill, input) in [
        ("render.capture", json!({})),
        ("world.snapshot", json!({})),
        ("trace.export", json!({"name": "x"})),
        ("scene.save", json!({"name": "x"})),
    ] {
        let refused = e.call(&agent, skill, input);
        let error = refused.error.unwrap_or_else(|| panic!("{skill} ran for an agent"));
        assert!(error.message.contains("not offered to in-world agents"), "{skill}: {}", error.message);
    }
}

#[test]
fn a_policy_returning_a_table_that_holds_itself_many_times_fails_its_decision() {
    let e = engine();
    // 40 levels of t = {a = t, b = t}: a few hundred bytes of Lua, 2^40 values of JSON.
    policy(
        &e,
        "bomb",
        "local t = {} for i = 1, 40 do t = { a = t, b = t } end return { { tool = 'agent.emitEvent', input = { type = 'x', payload = t } } }",
    );
    call(&e, "agent.spawn", json!({"decisionIntervalTicks": 1, "llm": {"model": "bomb"}}));
    e.step(1).unwrap();
    let failed = payloads(&e, "agent.decision.failed");
    assert!(failed[0]["reason"].as_str().unwrap().contains("nodes"), "{failed:?}");
    // And from a script's own call: refused, not converted for ever.
    let r = e.run_source(
        "local t = {} for i = 1, 40 do t = { a = t, b = t } end local r = limina.call('agent.emitEvent', { type = 'x', payload = t }) assert(not r.success) return r.error.message",
        "bomb.lua",
    );
    assert!(r.is_ok(), "{r:?}");
}
