//! `limina bench --only skills`: what instruction skills cost a decision request. One
//! `builder.readWrite` agent's request (the OpenAI chat-completions body its decision would send:
//! system and user messages, function tools) with the starter library's eight skills enabled and
//! 0, 1 and 8 of them active (mode `both`), against the same agent with no skills and with all
//! eight bodies inlined statically in its system prompt; and the size of a `list_skills` answer
//! and of the MCP `prompts/list` and `resources/list` entries for the same skills.
//! Bytes here; with `LIMINA_BENCH_SKILLS_DUMP=DIR` each request is also written to
//! `DIR/<case>.json`, which `tests/node/skill_tokens.test.mjs` counts in o200k tokens.

use serde_json::{Value, json};

use super::starter_skills::STARTER_SKILLS;
use crate::agents::provider::encode_tool_name;
use crate::host::{Engine, EngineConfig, Output};
use crate::instructions::SurfaceMode;

const BASE_PROMPT: &str = "You are a builder in a limina world. Build what you are asked, one step at a time.";

/// An engine with the starter library registered (every skill `both`) and a scripted policy
/// `bench` that records each request and reads `plan[N]` at decision N.
fn engine(plan: &str) -> anyhow::Result<Engine> {
    let e = Engine::new(EngineConfig { output: Output::Silent, ..EngineConfig::new(super::project_root()) })?;
    {
        let mut registry = e.instructions_mut();
        for (id, text) in STARTER_SKILLS {
            registry.register(crate::instructions::parse(text.as_bytes(), id, None)?)?;
        }
        registry.set_default_mode(Some(SurfaceMode::Both));
    }
    e.run_source(
        &format!(
            r#"seen = {{}}
            local plan = {plan}
            limina.scripted_policy("bench", function(request)
                table.insert(seen, {{ systemPrompt = request.systemPrompt, tools = request.tools,
                    perception = request.perception, previousResults = request.previousResults }})
                return plan[#seen] or {{}}
            end)"#
        ),
        "bench_skills.lua",
    )?;
    Ok(e)
}

/// The requests the policy saw, as the OpenAI wire body each would be.
fn requests(e: &Engine) -> anyhow::Result<Vec<Value>> {
    use mlua::LuaSerdeExt;
    let seen: Value = e.lua().from_value(e.run_source("return seen", "seen.lua")?).map_err(|err| anyhow::anyhow!("{err}"))?;
    let list = seen.as_array().cloned().unwrap_or_default();
    Ok(list.iter().map(wire_body).collect())
}

fn wire_body(request: &Value) -> Value {
    let tools: Vec<Value> = request["tools"]
        .as_array()
        .map(|tools| {
            tools
                .iter()
                .map(|t| {
                    json!({"type": "function", "function": {
                        "name": encode_tool_name(t["name"].as_str().unwrap_or_default()),
                        "description": t["description"], "parameters": t["inputSchema"]}})
                })
                .collect()
        })
        .unwrap_or_default();
    let user = json!({"perception": request["perception"], "previousResults": request["previousResults"]}).to_string();
    json!({
        "model": "gpt-4o-mini",
        "temperature": 0,
        "messages": [{"role": "system", "content": request["systemPrompt"]}, {"role": "user", "content": user}],
        "tools": tools,
        "tool_choice": "auto",
    })
}

/// Decision `n`'s request (1-based) of one agent spawned with `skills` and `prompt`.
fn request(plan: &str, skills: Value, prompt: &str, n: usize) -> anyhow::Result<Value> {
    let e = engine(plan)?;
    let made = e.call(
        e.script_caller(),
        "agent.spawn",
        json!({"profile": "builder.readWrite", "body": {}, "decisionIntervalTicks": 1, "llm": {"model": "bench", "systemPrompt": prompt}, "skills": skills}),
    );
    anyhow::ensure!(made.success, "spawn failed: {:?}", made.error);
    e.step(n as u64 + 1)?;
    let mut all = requests(&e)?;
    anyhow::ensure!(all.len() >= n, "{} decisions, wanted {n}", all.len());
    let mut body = all.swap_remove(n - 1);
    // Previous results differ between cases (a read's answer); the comparison is of what the
    // skills put in the request, so every case carries none.
    if let Some(messages) = body["messages"].as_array_mut() {
        messages[1]["content"] = Value::from(json!({"perception": {}, "previousResults": []}).to_string());
    }
    Ok(body)
}

pub(crate) fn run() -> anyhow::Result<()> {
    let reads = |ids: &[&str]| -> String {
        let calls: Vec<String> = ids.iter().map(|id| format!("{{ tool = \"read_skill\", input = {{ id = \"{id}\" }} }}")).collect();
        format!("{{ [1] = {{ {} }} }}", calls.join(", "))
    };
    let all_ids: Vec<&str> = STARTER_SKILLS.iter().map(|(id, _)| *id).collect();
    let inline: String = std::iter::once(BASE_PROMPT.to_string())
        .chain(STARTER_SKILLS.iter().map(|(id, text)| {
            let body = crate::instructions::parse(text.as_bytes(), id, None).map(|s| s.body).unwrap_or_default();
            format!("<skill id=\"{id}\" version=\"1.0.0\">\n{}\n</skill>", body.trim_end())
        }))
        .collect::<Vec<_>>()
        .join("\n\n");
    let cases: Vec<(&str, Value)> = vec![
        ("no-skills", request("{}", json!({}), BASE_PROMPT, 1)?),
        ("eight-enabled-none-active", request("{}", json!({"enabled": ["*"]}), BASE_PROMPT, 1)?),
        ("one-active", request(&reads(&all_ids[1..2]), json!({"enabled": ["*"]}), BASE_PROMPT, 2)?),
        ("eight-active", request(&reads(&all_ids), json!({"enabled": ["*"]}), BASE_PROMPT, 2)?),
        ("eight-inlined-statically", request("{}", json!({}), &inline, 1)?),
    ];
    let dump = std::env::var_os("LIMINA_BENCH_SKILLS_DUMP").map(std::path::PathBuf::from);
    if let Some(dir) = &dump {
        std::fs::create_dir_all(dir)?;
    }
    let baseline = cases[0].1.to_string().len();
    outln!(
        "skills       one builder.readWrite agent's decision request (OpenAI body), starter library of {} skills:",
        STARTER_SKILLS.len()
    );
    for (name, body) in &cases {
        let text = body.to_string();
        let tools = body["tools"].as_array().map_or(0, Vec::len);
        let system = body["messages"][0]["content"].as_str().map_or(0, str::len);
        outln!(
            "  {name:<26} {:>7} bytes ({:+} vs no skills), system message {:>6} bytes, {tools} tools",
            text.len(),
            text.len() as i64 - baseline as i64,
            system
        );
        if let Some(dir) = &dump {
            std::fs::write(dir.join(format!("{name}.json")), text)?;
        }
    }
    let listing = crate::agents::instructions::listing(
        STARTER_SKILLS
            .iter()
            .filter_map(|(id, text)| crate::instructions::parse(text.as_bytes(), id, None).ok())
            .map(std::sync::Arc::new)
            .collect::<Vec<_>>()
            .iter(),
    );
    let listing = listing.to_string();
    outln!("  list_skills answer         {:>7} bytes for {} skills", listing.len(), STARTER_SKILLS.len());
    if let Some(dir) = &dump {
        std::fs::write(dir.join("list_skills.json"), listing)?;
    }
    // What an MCP builder pays to discover the same library: the prompts/list result and the
    // skills' entries of resources/list.
    let mut registry = crate::instructions::InstructionRegistry::new();
    for (id, text) in STARTER_SKILLS {
        registry.register(crate::instructions::parse(text.as_bytes(), id, None)?)?;
    }
    let prompts = crate::mcp::prompts::list(&registry).to_string();
    let resources = json!({"resources": crate::mcp::prompts::resources(&registry)}).to_string();
    outln!("  prompts/list result        {:>7} bytes for {} skills", prompts.len(), STARTER_SKILLS.len());
    outln!("  resources/list (skills)    {:>7} bytes", resources.len());
    if let Some(dir) = &dump {
        std::fs::write(dir.join("prompts_list.json"), prompts)?;
        std::fs::write(dir.join("resources_list.json"), resources)?;
    }
    Ok(())
}
