//! In-world agents read instruction skills (issue 29, item 3): before a `read_skill` a request
//! carries neither the skill's body nor the tools it gates; the next request carries them per the
//! resolved surface mode; the one after per the keep rule; every change is traced. The same
//! holds for the scripted provider and for the Ollama and OpenAI wire formats against local test
//! servers. Activation never grants a permission, and hostile reads activate nothing.

use std::sync::Arc;
use std::time::{Duration, Instant};

use limina::agents::provider::{OllamaConfig, OpenAiConfig, ProvidersConfig};
use limina::host::{Engine, EngineConfig, Output};
use mlua::LuaSerdeExt;
use serde_json::{Value, json};

use crate::http_stub::{Reply, StubServer};

const BASE: &str = "You are a builder.";

/// `lit` (both: body and three.setLighting), `note` (system-prompt, gates physics.applyImpulse),
/// `kit` (tool-only, gates physics.raycast and scene.createEntity), `open` (no mode: the
/// cascade decides) and `s1`..`s6` (both, no tools) for the keep limit.
fn fixtures() -> Vec<String> {
    let mut skills = vec![
        "---\nname: lit\ndescription: Light a scene.\nversion: 1.2.0\nsurfaceMode: both\ntools:\n  - three.setLighting\n---\nLIT-BODY: sun from the side.\n".to_string(),
        "---\nname: note\ndescription: A note.\nsurfaceMode: system-prompt\ntools: [physics.applyImpulse]\n---\nNOTE-BODY\n".to_string(),
        "---\nname: kit\ndescription: Tools for building.\nsurfaceMode: tool-only\ntools: [physics.raycast, scene.createEntity]\n---\nKIT-BODY\n".to_string(),
        "---\nname: open\ndescription: Mode left to the cascade.\ntools: [physics.raycast]\n---\nOPEN-BODY\n".to_string(),
    ];
    for i in 1..=6 {
        skills.push(format!("---\nname: s{i}\ndescription: Skill {i}.\nsurfaceMode: both\n---\nS{i}-BODY\n"));
    }
    skills
}

fn register_fixtures(e: &Engine) {
    let mut registry = e.instructions_mut();
    for text in fixtures() {
        registry.register(limina::instructions::parse(text.as_bytes(), "fixture", None).unwrap()).unwrap();
    }
}

fn engine_with(providers: Option<ProvidersConfig>) -> Engine {
    let e = Engine::new(EngineConfig { output: Output::Silent, providers, ..EngineConfig::new(crate::root()) }).unwrap();
    register_fixtures(&e);
    e
}

fn call(e: &Engine, skill: &str, input: Value) -> Value {
    let r = e.call(&e.script_caller().clone(), skill, input.clone());
    assert!(r.success, "{skill} {input}: {r:?}");
    r.result.unwrap()
}

fn events(e: &Engine, kind: &str) -> Vec<Value> {
    e.trace().durable().map(Result::unwrap).filter(|ev| &*ev.event_type == kind).map(|ev| ev.payload_value()).collect()
}

/// A scripted policy that records every request (`seen`) and answers decision N with `plan[N]`
/// (a Luau list of calls).
fn recording_policy(e: &Engine, plan: &str) {
    let source = format!(
        r#"seen = {{}}
        local plan = {plan}
        limina.scripted_policy("reader", function(request)
            local names = {{}}
            for _, t in request.tools do table.insert(names, t.name) end
            table.insert(seen, {{ prompt = request.systemPrompt, tools = names, previous = request.previousResults }})
            return plan[#seen] or {{}}
        end)"#
    );
    e.run_source(&source, "policy.lua").unwrap();
}

/// The requests the scripted policy saw: (system prompt, tool names, previous results).
fn seen(e: &Engine) -> Vec<(String, Vec<String>, Value)> {
    let value = e.run_source("return seen", "seen.lua").unwrap();
    let seen: Value = e.lua().from_value(value).unwrap();
    seen.as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let tools = r["tools"].as_array().map(|t| t.iter().map(|n| n.as_str().unwrap().to_string()).collect()).unwrap_or_default();
            (r["prompt"].as_str().unwrap_or_default().to_string(), tools, r["previous"].clone())
        })
        .collect()
}

fn spawn_reader(e: &Engine, profile: &str, skills: Value) -> String {
    let made = call(
        e,
        "agent.spawn",
        json!({"profile": profile, "decisionIntervalTicks": 1, "llm": {"model": "reader", "systemPrompt": BASE}, "skills": skills}),
    );
    made["agentId"].as_str().unwrap().to_string()
}

fn has(tools: &[String], name: &str) -> bool {
    tools.iter().any(|t| t == name)
}

#[test]
fn scripted_requests_carry_a_read_skill_for_the_next_decision_only_unless_kept() {
    let e = engine_with(None);
    recording_policy(
        &e,
        r#"{
            [1] = { { tool = "list_skills", input = {} }, { tool = "read_skill", input = { id = "lit" } } },
            [3] = { { tool = "read_skill", input = { id = "lit", keep = true } } },
            [5] = { { tool = "read_skill", input = { id = "lit", keep = false } } },
        }"#,
    );
    spawn_reader(&e, "builder.readWrite", json!({"enabled": ["*"]}));
    e.step(8).unwrap();
    let seen = seen(&e);
    assert!(seen.len() >= 7, "{} decisions", seen.len());
    let carries = |n: usize| (seen[n].0.contains("LIT-BODY"), has(&seen[n].1, "three.setLighting"));
    // Decision 1: neither body nor gated tool, and the two skill tools are offered.
    assert_eq!(carries(0), (false, false), "before read_skill: {:?}", seen[0]);
    assert!(has(&seen[0].1, "list_skills") && has(&seen[0].1, "read_skill"));
    assert!(seen[0].0.starts_with(BASE));
    // Decision 2 (after read_skill, mode both): body and tool; the listing came back too.
    assert_eq!(carries(1), (true, true), "{:?}", seen[1]);
    let listed = seen[1].2.as_array().unwrap().iter().find(|r| r["tool"] == "list_skills").expect("the listing is a previous result");
    let ids: Vec<&str> = listed["result"]["skills"].as_array().unwrap().iter().map(|s| s["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["lit", "note", "kit", "open", "s1", "s2", "s3", "s4", "s5", "s6"]);
    // Decision 3: the one-off read is spent.
    assert_eq!(carries(2), (false, false), "{:?}", seen[2]);
    // Decisions 4 and 5: kept.
    assert_eq!((carries(3), carries(4)), ((true, true), (true, true)));
    // Decision 6: keep: false at decision 5 leaves it one more decision; decision 7: gone.
    assert_eq!((carries(5), carries(6)), ((true, true), (false, false)));
    // Traced: three activations (mode both, the skill's own), and used / used / used.
    let activated = events(&e, "skill.activated");
    assert_eq!(activated.len(), 3, "{activated:?}");
    assert_eq!(activated[0]["skill"], "lit");
    assert_eq!(activated[0]["version"], "1.2.0");
    assert_eq!(activated[0]["mode"], "both");
    assert_eq!(activated[0]["reason"], "skill");
    assert_eq!(activated[0]["tools"], json!(["three.setLighting"]));
    assert_eq!(
        (activated[0]["keep"].clone(), activated[1]["keep"].clone(), activated[2]["keep"].clone()),
        (json!(false), json!(true), json!(false))
    );
    let reasons: Vec<Value> = events(&e, "skill.deactivated").iter().map(|d| d["reason"].clone()).collect();
    assert_eq!(reasons, [json!("used"), json!("used")], "the one-off read and the released keep each served one decision");
}

#[test]
fn each_mode_surfaces_the_body_or_the_tools_it_names() {
    let e = engine_with(None);
    recording_policy(
        &e,
        r#"{ [1] = { { tool = "read_skill", input = { id = "note" } }, { tool = "read_skill", input = { id = "kit" } } } }"#,
    );
    spawn_reader(&e, "builder.readWrite", json!({"enabled": ["note", "kit"]}));
    e.step(3).unwrap();
    let seen = seen(&e);
    // Before: a system-prompt skill withholds nothing; a tool-only skill withholds its tools.
    assert!(has(&seen[0].1, "physics.applyImpulse"), "system-prompt gates nothing");
    assert!(!has(&seen[0].1, "physics.raycast") && !has(&seen[0].1, "scene.createEntity"));
    assert_eq!(seen[0].0, BASE);
    // After: note's body (no tool change); kit's tools (no body).
    assert!(seen[1].0.contains("NOTE-BODY") && !seen[1].0.contains("KIT-BODY"), "{}", seen[1].0);
    assert!(has(&seen[1].1, "physics.raycast") && has(&seen[1].1, "scene.createEntity"));
    assert!(has(&seen[0].1, "three.setLighting"), "a skill not enabled for the agent gates nothing");
    let modes: Vec<Value> = events(&e, "skill.activated").iter().map(|a| a["mode"].clone()).collect();
    assert_eq!(modes, [json!("system-prompt"), json!("tool-only")]);
}

#[test]
fn the_provider_model_rule_and_the_registry_default_decide_a_skill_without_a_mode() {
    let e = engine_with(None);
    recording_policy(&e, r#"{ [1] = { { tool = "read_skill", input = { id = "open" } } } }"#);
    // Scripted agents match no default rule: tool-only by the fallback.
    let first_agent = spawn_reader(&e, "builder.readWrite", json!({"enabled": ["open"]}));
    e.step(2).unwrap();
    call(&e, "agent.despawn", json!({"agentId": first_agent}));
    let first = &events(&e, "skill.activated")[0];
    assert_eq!((first["mode"].clone(), first["reason"].clone()), (json!("tool-only"), json!("fallback")));
    // A configured rule for scripted agents' model wins over the fallback...
    e.instructions_mut().set_model_rules(vec![limina::instructions::ModelRule::new(
        "scripted",
        "read*",
        limina::instructions::SurfaceMode::SystemPrompt,
    )]);
    recording_policy(&e, r#"{ [1] = { { tool = "read_skill", input = { id = "open" } } } }"#);
    let second_agent = spawn_reader(&e, "builder.readWrite", json!({"enabled": ["open"]}));
    e.step(2).unwrap();
    call(&e, "agent.despawn", json!({"agentId": second_agent}));
    let ruled = events(&e, "skill.activated").last().cloned().unwrap();
    assert_eq!(ruled["mode"], "system-prompt");
    assert_eq!(ruled["reason"], "model-rule #0 (scripted / read*)");
    assert!(seen(&e)[1].0.contains("OPEN-BODY"), "the rule's mode shapes the request");
    // ...and the registry's default wins over the rule.
    e.instructions_mut().set_default_mode(Some(limina::instructions::SurfaceMode::Both));
    recording_policy(&e, r#"{ [1] = { { tool = "read_skill", input = { id = "open" } } } }"#);
    spawn_reader(&e, "builder.readWrite", json!({"enabled": ["open"]}));
    e.step(2).unwrap();
    let defaulted = events(&e, "skill.activated").last().cloned().unwrap();
    assert_eq!((defaulted["mode"].clone(), defaulted["reason"].clone()), (json!("both"), json!("registry-default")));
}

#[test]
fn the_operator_configures_the_model_rules_and_a_bad_rule_stops_start_up() {
    let vars = |name: &str| (name == limina::instructions::ENV_MODE_RULES).then(|| "scripted/read*=both".to_string());
    let surface = limina::instructions::SurfaceConfig::from_lookup(vars).unwrap();
    let e = Engine::new(EngineConfig { output: Output::Silent, skill_surface: Some(surface), ..EngineConfig::new(crate::root()) }).unwrap();
    register_fixtures(&e);
    recording_policy(&e, r#"{ [1] = { { tool = "read_skill", input = { id = "open" } } } }"#);
    spawn_reader(&e, "builder.readWrite", json!({"enabled": ["open"]}));
    e.step(2).unwrap();
    let activated = &events(&e, "skill.activated")[0];
    assert_eq!((activated["mode"].clone(), activated["reason"].clone()), (json!("both"), json!("model-rule #0 (scripted / read*)")));
    // Through the environment, as an operator sets it: a bad entry stops the run, named.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("limina.toml"), "").unwrap();
    std::fs::write(dir.path().join("w.lua"), "-- nothing\n").unwrap();
    let run = |rules: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_limina"))
            .args(["run", "w.lua"])
            .current_dir(dir.path())
            .env(limina::instructions::ENV_MODE_RULES, rules)
            .output()
            .unwrap()
    };
    let bad = run("ollama/*=loud");
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(!bad.status.success(), "{err}");
    assert!(err.contains("LIMINA_SKILL_MODE_RULES: 'ollama/*=loud' ends in a mode that is not system-prompt, tool-only or both"), "{err}");
    let good = run("ollama/*=both, openai/*=system-prompt");
    assert!(good.status.success(), "{}", String::from_utf8_lossy(&good.stderr));
}

#[test]
fn activation_never_grants_a_permission() {
    let e = engine_with(None);
    recording_policy(
        &e,
        r#"{
            [1] = { { tool = "read_skill", input = { id = "kit", keep = true } } },
            [2] = { { tool = "scene.createEntity", input = { shape = "box" } } },
        }"#,
    );
    // player.limited holds physics.read (raycast) but not scene.write (createEntity).
    spawn_reader(&e, "player.limited", json!({"enabled": ["kit"]}));
    let entities = e.world().entity_count();
    e.step(4).unwrap();
    let seen = seen(&e);
    assert!(has(&seen[1].1, "physics.raycast"));
    assert!(!has(&seen[1].1, "scene.createEntity"), "a gated tool the profile lacks is never offered");
    let activated = &events(&e, "skill.activated")[0];
    assert_eq!(activated["tools"], json!(["physics.raycast"]));
    assert_eq!(activated["notOffered"], json!(["scene.createEntity"]));
    assert_eq!(e.world().entity_count(), entities, "the call of the unoffered tool changed nothing");
    let denied = events(&e, "security.permission.denied");
    assert!(denied.iter().any(|d| d["skill"] == "scene.createEntity"), "refused by the registry as any call: {denied:?}");
}

#[test]
fn hostile_reads_activate_nothing_and_are_rejected_with_the_reason() {
    let e = engine_with(None);
    let huge = "a".repeat(100_000);
    recording_policy(
        &e,
        &format!(
            r#"{{ [1] = {{
                {{ tool = "read_skill", input = {{ id = "nope" }} }},
                {{ tool = "read_skill", input = {{ id = "{huge}" }} }},
                {{ tool = "read_skill", input = {{ id = "lit" }} }},
                {{ tool = "read_skill", input = {{ id = "NOTE" }} }},
                {{ tool = "read_skill", input = {{ id = "kit", extra = 1 }} }},
                {{ tool = "list_skills", input = {{ query = "x" }} }},
            }} }}"#
        ),
    );
    let agent = spawn_reader(&e, "builder.readWrite", json!({"enabled": ["*"], "disabled": ["lit"]}));
    e.step(3).unwrap();
    assert!(events(&e, "skill.activated").is_empty(), "nothing activated");
    let rejected: Vec<String> = events(&e, "agent.toolcall.rejected").iter().map(|r| r["reason"].as_str().unwrap().to_string()).collect();
    assert_eq!(rejected.len(), 6, "{rejected:?}");
    assert!(rejected[0].contains(&format!("no instruction skill 'nope' is enabled for {agent}")), "{}", rejected[0]);
    assert!(rejected[1].len() < 400 && rejected[1].contains("not a skill id"), "a huge id is clipped: {} bytes", rejected[1].len());
    assert!(rejected[2].contains("no instruction skill 'lit' is enabled"), "a disabled skill reads as unknown: {}", rejected[2]);
    assert!(rejected[3].contains("not a skill id"), "{}", rejected[3]);
    assert!(rejected[4].contains("unknown field 'extra'"), "{}", rejected[4]);
    assert!(rejected[5].contains("unknown field 'query'"), "{}", rejected[5]);
    let second = &seen(&e)[1];
    assert_eq!(second.0, BASE, "no body reached the prompt");
    // An agent spawned without skills is offered neither tool, and a call of one is rejected.
    call(&e, "agent.despawn", json!({"agentId": agent}));
    recording_policy(&e, r#"{ [1] = { { tool = "read_skill", input = { id = "lit" } } } }"#);
    call(&e, "agent.spawn", json!({"decisionIntervalTicks": 1, "llm": {"model": "reader"}}));
    e.step(2).unwrap();
    assert!(!has(&seen(&e)[0].1, "read_skill") && !has(&seen(&e)[0].1, "list_skills"));
    let last = events(&e, "agent.toolcall.rejected").last().cloned().unwrap();
    assert!(last["reason"].as_str().unwrap().contains("offered only to agents spawned with instruction skills"), "{last}");
    // A spawn's skill choice is bounded.
    let refused =
        e.call(&e.script_caller().clone(), "agent.spawn", json!({"llm": {"model": "reader"}, "skills": {"enabled": ["Not_An_Id"]}}));
    assert!(!refused.success && refused.error.unwrap().message.contains("skills.enabled"), "bad ids are refused at spawn");
}

#[test]
fn repeated_keeps_hold_at_most_four_and_drop_the_oldest_traced() {
    let e = engine_with(None);
    recording_policy(
        &e,
        r#"{ [1] = {
            { tool = "read_skill", input = { id = "s1", keep = true } },
            { tool = "read_skill", input = { id = "s2", keep = true } },
            { tool = "read_skill", input = { id = "s3", keep = true } },
            { tool = "read_skill", input = { id = "s4", keep = true } },
            { tool = "read_skill", input = { id = "s5", keep = true } },
            { tool = "read_skill", input = { id = "s6", keep = true } },
        } }"#,
    );
    spawn_reader(&e, "builder.readWrite", json!({"enabled": ["*"]}));
    e.step(1).unwrap();
    // Six reads in one decision pass maxToolCallsPerDecision (8) but not the keep limit.
    e.step(3).unwrap();
    let seen = seen(&e);
    for n in [1, 2, 3] {
        let bodies: Vec<usize> = (1..=6).filter(|i| seen[n].0.contains(&format!("S{i}-BODY"))).collect();
        assert_eq!(bodies, [3, 4, 5, 6], "decision {}: the four newest kept", n + 1);
    }
    let evicted: Vec<Value> =
        events(&e, "skill.deactivated").iter().filter(|d| d["reason"] == "evicted").map(|d| d["skill"].clone()).collect();
    assert_eq!(evicted, [json!("s1"), json!("s2")]);
}

#[test]
fn a_restored_agent_keeps_its_skill_choice_and_the_skills_active_for_its_next_decision() {
    let original = engine_with(None);
    recording_policy(
        &original,
        r#"{ [1] = { { tool = "read_skill", input = { id = "lit", keep = true } }, { tool = "read_skill", input = { id = "note" } } } }"#,
    );
    let agent = spawn_reader(&original, "builder.readWrite", json!({"enabled": ["*"], "disabled": ["s6"]}));
    original.step(1).unwrap();
    let bytes = original.snapshot().unwrap();
    let list = |e: &Engine| call(e, "agent.list", json!({}));
    let restored = engine_with(None);
    recording_policy(&restored, "{}");
    restored.restore(&bytes).unwrap();
    assert_eq!(restored.world_hash(), original.world_hash());
    assert_eq!(list(&restored), list(&original));
    let row = list(&restored)["agents"].as_array().unwrap().iter().find(|a| a["id"] == agent.as_str()).unwrap().clone();
    assert_eq!(row["skills"], json!({"enabled": ["*"], "disabled": ["s6"]}), "{row}");
    assert_eq!(row["activeSkills"], json!(["lit", "note"]), "{row}");
    // Its next decision carries both bodies; the one after only the kept one, as in the original.
    restored.step(3).unwrap();
    let seen = seen(&restored);
    assert!(seen.len() >= 2, "{} decisions", seen.len());
    assert!(seen[0].0.contains("LIT-BODY") && seen[0].0.contains("NOTE-BODY"), "{:?}", seen[0].0);
    assert!(seen[1].0.contains("LIT-BODY") && !seen[1].0.contains("NOTE-BODY"), "{:?}", seen[1].0);
    original.step(3).unwrap();
    assert_eq!(restored.world_hash(), original.world_hash());
}

mod wire {
    //! The same rule over HTTP: a local server speaking Ollama's `/api/chat` or OpenAI's
    //! `/v1/chat/completions` answers the first decision with `read_skill` and every later one
    //! with a harmless signal; the requests it receives show what each decision carried.

    use super::*;

    #[derive(Clone, Copy, Debug)]
    enum Flavor {
        Ollama,
        OpenAi,
    }

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap()
    }

    /// A chat reply calling `function` with `arguments`, in the flavor's format.
    fn reply(flavor: Flavor, function: &str, arguments: Value) -> Reply {
        Reply::json(&match flavor {
            Flavor::Ollama => json!({
                "model": "m", "done": true, "prompt_eval_count": 1, "eval_count": 1,
                "message": {"role": "assistant", "content": "", "tool_calls": [{"function": {"name": function, "arguments": arguments}}]},
            }),
            Flavor::OpenAi => json!({
                "id": "c", "object": "chat.completion", "model": "m",
                "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": null,
                    "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": function, "arguments": arguments.to_string()}}]}}],
                "usage": {"total_tokens": 2},
            }),
        })
    }

    fn providers(flavor: Flavor, base_url: &str) -> ProvidersConfig {
        match flavor {
            Flavor::Ollama => ProvidersConfig {
                ollama: OllamaConfig { base_url: base_url.to_string(), default_model: Some("small:1b".into()), ..OllamaConfig::default() },
                ..ProvidersConfig::default()
            },
            Flavor::OpenAi => ProvidersConfig {
                openai: OpenAiConfig { base_url: base_url.to_string(), default_model: Some("gpt-test".into()), ..OpenAiConfig::default() },
                ..ProvidersConfig::default()
            },
        }
    }

    /// The system message and the function names of one request body.
    fn carried(body: &Value) -> (String, Vec<String>) {
        let system = body["messages"][0]["content"].as_str().unwrap().to_string();
        let tools = body["tools"].as_array().map(|t| t.iter().map(|t| t["function"]["name"].as_str().unwrap().to_string()).collect());
        (system, tools.unwrap_or_default())
    }

    fn read_then_signal(flavor: Flavor, first: Value) {
        let rt = runtime();
        let replies = vec![reply(flavor, "read_skill", first), reply(flavor, "agent__emitEvent", json!({"type": "tick"}))];
        let server = rt.block_on(StubServer::start(Reply::Sequence(Arc::new(replies))));
        let e = engine_with(Some(providers(flavor, &server.base_url)));
        let provider = match flavor {
            Flavor::Ollama => "ollama",
            Flavor::OpenAi => "openai",
        };
        call(
            &e,
            "agent.spawn",
            json!({"profile": "builder.readWrite", "decisionIntervalTicks": 1, "llm": {"provider": provider, "systemPrompt": BASE},
                   "skills": {"enabled": ["lit", "kit"]}}),
        );
        let deadline = Instant::now() + Duration::from_secs(30);
        while server.received().len() < 4 {
            assert!(Instant::now() < deadline, "four requests within 30 s; got {}", server.received().len());
            e.step(1).unwrap();
            std::thread::sleep(Duration::from_millis(3));
        }
        let requests: Vec<(String, Vec<String>)> = server.received().iter().map(|r| carried(&r.json())).collect();
        let lit = |n: usize| (requests[n].0.contains("LIT-BODY"), requests[n].1.iter().any(|t| t == "three__setLighting"));
        assert_eq!(lit(0), (false, false), "{flavor:?} before read_skill: {:?}", requests[0]);
        assert!(requests[0].1.iter().any(|t| t == "read_skill") && requests[0].1.iter().any(|t| t == "list_skills"));
        assert!(!requests[0].1.iter().any(|t| t == "physics__raycast"), "kit (tool-only) withholds its tools");
        assert_eq!(lit(1), (true, true), "{flavor:?} the next request carries body and tool");
        assert!(requests[1].0.starts_with(BASE), "the body is appended to the agent's own prompt");
        let kept = events(&e, "skill.activated")[0]["keep"] == true;
        let after = if kept { (true, true) } else { (false, false) };
        assert_eq!((lit(2), lit(3)), (after, after), "{flavor:?} the request after that, per the keep rule");
        let activated = events(&e, "skill.activated");
        assert_eq!(activated.len(), 1);
        assert_eq!((activated[0]["mode"].clone(), activated[0]["reason"].clone()), (json!("both"), json!("skill")));
        if !kept {
            assert_eq!(events(&e, "skill.deactivated")[0]["reason"], "used");
        }
        drop(rt);
    }

    #[test]
    fn ollama_requests_carry_a_read_skill_once() {
        read_then_signal(Flavor::Ollama, json!({"id": "lit"}));
    }

    #[test]
    fn ollama_requests_carry_a_kept_skill_on() {
        read_then_signal(Flavor::Ollama, json!({"id": "lit", "keep": true}));
    }

    #[test]
    fn openai_requests_carry_a_read_skill_once() {
        read_then_signal(Flavor::OpenAi, json!({"id": "lit"}));
    }

    #[test]
    fn openai_requests_carry_a_kept_skill_on() {
        read_then_signal(Flavor::OpenAi, json!({"id": "lit", "keep": true}));
    }

    #[test]
    fn an_ollama_model_gets_system_prompt_by_the_default_rule() {
        let rt = runtime();
        let replies = vec![
            reply(Flavor::Ollama, "read_skill", json!({"id": "open"})),
            reply(Flavor::Ollama, "agent__emitEvent", json!({"type": "t"})),
        ];
        let server = rt.block_on(StubServer::start(Reply::Sequence(Arc::new(replies))));
        let e = engine_with(Some(providers(Flavor::Ollama, &server.base_url)));
        call(
            &e,
            "agent.spawn",
            json!({"profile": "builder.readWrite", "decisionIntervalTicks": 1, "llm": {"provider": "ollama"}, "skills": {"enabled": ["open"]}}),
        );
        let deadline = Instant::now() + Duration::from_secs(30);
        while server.received().len() < 2 {
            assert!(Instant::now() < deadline, "two requests within 30 s");
            e.step(1).unwrap();
            std::thread::sleep(Duration::from_millis(3));
        }
        let activated = &events(&e, "skill.activated")[0];
        assert_eq!(activated["mode"], "system-prompt");
        assert_eq!(activated["reason"], "model-rule #0 (ollama / *)");
        let (system, tools) = carried(&server.received()[1].json());
        assert!(system.contains("OPEN-BODY"));
        assert!(tools.iter().any(|t| t == "physics__raycast"), "system-prompt withholds nothing");
        drop(rt);
    }
}
