//! Progressive discovery over MCP: a standard client lists the core tier plus the meta-tools,
//! finds the rest with `skills.search` / `skills.browse`, widens and narrows its list with
//! `skills.enable` / `skills.disable` (told by `notifications/tools/list_changed`), can call any
//! tool by name whether listed or not, and never sees a tool its profile cannot call, in any mode
//! or transport.

use std::collections::BTreeSet;

use limina::host::{Engine, EngineConfig, Output};
use limina::mcp::{McpSession, ToolsMode, handle_text};
use limina::policy::Profile;
use limina::policy::profile_permissions;
use limina::skills::Tier;
use serde_json::{Value, json};

const META_TOOLS: [&str; 4] = ["skills.search", "skills.browse", "skills.enable", "skills.disable"];

fn engine() -> Engine {
    Engine::new(EngineConfig { output: Output::Silent, ..EngineConfig::new(crate::root()) }).unwrap()
}

/// An in-process client: a session on `engine`, initialized in standard mode.
struct Client<'e> {
    engine: &'e Engine,
    session: McpSession,
    next_id: u64,
}

impl<'e> Client<'e> {
    fn new(engine: &'e Engine, profile: &str, tools: ToolsMode) -> Self {
        let mut c = Self {
            engine,
            session: McpSession::new(1, Profile::parse(profile).expect("a catalog profile"), engine).with_tools(tools),
            next_id: 0,
        };
        c.request("initialize", json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}));
        c
    }

    /// Sends one request; returns its response and the notifications that followed it.
    fn exchange(&mut self, method: &str, params: Value) -> (Value, Vec<String>) {
        self.next_id += 1;
        let text = json!({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}).to_string();
        let mut out = handle_text(self.engine, &mut self.session, &text).into_iter();
        let response = out.next().expect("a response");
        assert_eq!(response["id"], json!(self.next_id), "{response}");
        let notes = out.map(|n| n["method"].as_str().unwrap_or_default().to_string()).collect();
        (response, notes)
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.exchange(method, params).0
    }

    /// A tool call's standard result.
    fn call(&mut self, tool: &str, arguments: Value) -> Value {
        self.request("tools/call", json!({"name": tool, "arguments": arguments}))["result"].clone()
    }

    /// Every page of `tools/list`.
    fn listed(&mut self) -> Vec<Value> {
        let mut tools = Vec::new();
        let mut cursor = Value::Null;
        loop {
            let page = self.request("tools/list", json!({"cursor": cursor}));
            tools.extend(page["result"]["tools"].as_array().unwrap_or_else(|| panic!("{page}")).iter().cloned());
            match page["result"].get("nextCursor") {
                Some(next) => cursor = next.clone(),
                None => return tools,
            }
        }
    }

    fn listed_names(&mut self) -> Vec<String> {
        self.listed().iter().map(|t| t["name"].as_str().unwrap().to_string()).collect()
    }
}

/// The names of the skills a `profile` may call and discovery offers (app-only skills, for MCP
/// App views, are listed only to Apps clients: see mcp_apps.rs), in registration order.
fn callable(engine: &Engine, profile: &str) -> Vec<String> {
    let permissions = profile_permissions(profile);
    engine
        .registry()
        .list()
        .filter(|s| s.tier != Tier::App && s.permissions.iter().all(|p| permissions.contains(*p)))
        .map(|s| s.name.clone())
        .collect()
}

fn core_tier(engine: &Engine, profile: &str) -> Vec<String> {
    let callable = callable(engine, profile);
    engine.registry().list().filter(|s| s.tier == Tier::Core && callable.contains(&s.name)).map(|s| s.name.clone()).collect()
}

#[test]
fn the_default_list_is_the_core_tier_and_the_meta_tools_without_schema_dialects() {
    let e = engine();
    let mut c = Client::new(&e, "builder.readWrite", ToolsMode::Core);
    let tools = c.listed();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, core_tier(&e, "builder.readWrite"));
    for tool in META_TOOLS.iter().chain(&["scene.createEntity", "three.setTransform", "render.capture", "inspector.snapshot"]) {
        assert!(names.contains(tool), "{tool} is in the default list: {names:?}");
    }
    assert!(!names.contains(&"audio.play") && !names.contains(&"ui.panel"), "standard tools wait to be enabled: {names:?}");
    for t in &tools {
        assert!(t["inputSchema"].get("$schema").is_none() && t["outputSchema"].get("$schema").is_none(), "{} lists $schema", t["name"]);
        assert_eq!(t["inputSchema"]["type"], "object");
    }

    let mut all = Client::new(&e, "builder.readWrite", ToolsMode::All);
    assert_eq!(all.listed_names(), callable(&e, "builder.readWrite"), "--tools all lists everything the profile may call");
}

#[test]
fn listed_schemas_mean_the_same_without_their_draft07_dialect() {
    // Without `$schema` a client reads a tool schema as 2020-12 (the MCP default). The keywords
    // whose meaning differs between draft-07 and 2020-12 must not occur in what we list.
    fn walk(v: &Value, path: &str, found: &mut Vec<String>) {
        match v {
            Value::Object(map) => {
                for (k, child) in map {
                    let differs = matches!(k.as_str(), "definitions" | "dependencies" | "additionalItems" | "$ref" | "$recursiveRef")
                        || (k == "items" && child.is_array());
                    // Property names are data, not keywords.
                    if differs && !path.ends_with("/properties") {
                        found.push(format!("{path}/{k}"));
                    }
                    walk(child, &format!("{path}/{k}"), found);
                }
            }
            Value::Array(items) => items.iter().for_each(|i| walk(i, path, found)),
            _ => {}
        }
    }
    let e = engine();
    let mut found = Vec::new();
    for s in e.registry().list() {
        walk(&s.input_schema, &format!("{}:input", s.name), &mut found);
        walk(&s.output_schema, &format!("{}:output", s.name), &mut found);
    }
    assert!(found.is_empty(), "keywords that change meaning without $schema: {found:?}");
}

#[test]
fn a_readonly_client_never_sees_a_tool_it_cannot_call_in_any_mode() {
    let e = engine();
    let allowed: BTreeSet<String> = callable(&e, "system.readonly").into_iter().collect();
    assert!(!allowed.contains("scene.createEntity"));
    let check = |what: &str, names: &[String]| {
        assert!(!names.is_empty(), "{what}: something is listed");
        let extra: Vec<&String> = names.iter().filter(|n| !allowed.contains(*n)).collect();
        assert!(extra.is_empty(), "{what} lists tools system.readonly cannot call: {extra:?}");
    };
    for mode in [ToolsMode::Core, ToolsMode::All] {
        let mut c = Client::new(&e, "system.readonly", mode);
        check(&format!("{mode:?}"), &c.listed_names());
        // Enabling every category it can browse adds nothing it cannot call.
        let categories = c.call("skills.browse", json!({}))["structuredContent"]["categories"].clone();
        let names: Vec<Value> = categories.as_array().unwrap().iter().map(|c| c["name"].clone()).collect();
        let enabled = c.call("skills.enable", json!({"categories": names}));
        assert_eq!(enabled["isError"], false, "{enabled}");
        let listed = c.listed_names();
        check(&format!("{mode:?} after enabling every category"), &listed);
        assert_eq!(listed.into_iter().collect::<BTreeSet<_>>(), allowed, "{mode:?}: and then everything it can call");
        // A write category is not even a known category to it.
        let refused = c.call("skills.enable", json!({"categories": ["ui"]}));
        assert_eq!(refused["isError"], true, "{refused}");
    }
    // Native mode keeps the full list, filtered by permission too.
    let mut native = McpSession::new(2, Profile::SystemReadonly, &e);
    let text = |id: u64, method: &str, params: Value| json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string();
    handle_text(&e, &mut native, &text(1, "initialize", json!({"agentId": "agt_v", "sessionId": "ses_v", "profile": "system.readonly"})));
    let listed = handle_text(&e, &mut native, &text(2, "listTools", json!({})));
    let names: Vec<String> =
        listed[0]["result"]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap().to_string()).collect();
    check("native listTools", &names);
    assert_eq!(names.len(), allowed.len(), "native mode lists every tool it may call");
    // And skills.list tells it no more than tools/list would.
    let mut c = Client::new(&e, "system.readonly", ToolsMode::Core);
    let catalog = c.call("skills.list", json!({}));
    let names: Vec<String> =
        catalog["structuredContent"]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap().to_string()).collect();
    check("skills.list", &names);
}

#[test]
fn readonly_clients_over_stdio_and_websocket_see_only_what_they_can_call() {
    let e = engine();
    let allowed: BTreeSet<String> = callable(&e, "system.readonly").into_iter().collect();
    let names = |tools: &Value| -> Vec<String> {
        tools.as_array().unwrap_or_else(|| panic!("{tools}")).iter().map(|t| t["name"].as_str().unwrap().to_string()).collect()
    };
    // The servers get no mods, so they offer what the in-process engine does.
    let dir = tempfile::tempdir().unwrap();
    let scripts = dir.path().to_str().unwrap();
    for tools in ["core", "all"] {
        let mut s = crate::mcp::StdioServer::start(&["--profile", "system.readonly", "--tools", tools, "--scripts", scripts]);
        s.request(1, "initialize", json!({"protocolVersion": "2025-11-25"}));
        let listed = names(&s.request(2, "tools/list", json!({}))["result"]["tools"]);
        assert!(listed.iter().all(|n| allowed.contains(n)), "stdio --tools {tools}: {listed:?}");
        assert!(listed.iter().any(|n| n == "skills.search") && !listed.iter().any(|n| n == "scene.createEntity"));
        s.finish();
    }

    let tokens = dir.path().join("tokens");
    std::fs::write(&tokens, "viewer-secret system.readonly\n").unwrap();
    let server = crate::mcp_ws::WsServer::start(&["--tokens", tokens.to_str().unwrap(), "--tools", "all", "--scripts", scripts]);
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let listed = runtime.block_on(async {
        use jsonrpsee::core::client::ClientT;
        let viewer = crate::mcp_ws::client(&server.url, Some("viewer-secret")).await.unwrap();
        let params = json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}});
        let _: Value = viewer.request("initialize", params.as_object().cloned().unwrap()).await.unwrap();
        let list: Value = viewer.request("tools/list", serde_json::Map::new()).await.unwrap();
        names(&list["tools"])
    });
    assert!(!listed.is_empty() && listed.iter().all(|n| allowed.contains(n)), "WebSocket --tools all: {listed:?}");
    assert_eq!(listed.len(), allowed.len(), "and with --tools all, all of them");
}

#[test]
fn enable_and_disable_change_only_this_sessions_list_and_say_so() {
    let e = engine();
    let mut c = Client::new(&e, "builder.readWrite", ToolsMode::Core);
    let mut other = Client::new(&e, "builder.readWrite", ToolsMode::Core);
    let before = c.listed_names();

    let (enabled, notes) = c.exchange("tools/call", json!({"name": "skills.enable", "arguments": {"categories": ["audio", "ui"]}}));
    assert_eq!(enabled["result"]["isError"], false, "{enabled}");
    assert_eq!(notes, ["notifications/tools/list_changed"], "the client is told its list changed");
    let added = enabled["result"]["structuredContent"]["tools"].as_array().unwrap().clone();
    assert!(added.contains(&json!("audio.play")) && added.contains(&json!("ui.label")), "{added:?}");
    let after = c.listed_names();
    for tool in &added {
        assert!(after.iter().any(|n| n == tool), "{tool} is listed after enable");
    }
    assert!(before.iter().all(|n| after.contains(n)), "nothing was dropped");
    assert_eq!(other.listed_names(), before, "another session's list is its own");

    let (_, notes) = c.exchange("tools/call", json!({"name": "skills.enable", "arguments": {"categories": ["audio"]}}));
    assert!(notes.is_empty(), "enabling what is listed changes nothing, so nothing is sent: {notes:?}");

    let (disabled, notes) =
        c.exchange("tools/call", json!({"name": "skills.disable", "arguments": {"categories": ["audio", "ui", "scene"]}}));
    assert_eq!(disabled["result"]["isError"], false, "{disabled}");
    assert_eq!(notes, ["notifications/tools/list_changed"]);
    assert_eq!(c.listed_names(), before, "disabling a core tool's category keeps the core tier listed");

    // Only unknown categories: invalid input naming each with the known ones; the list is untouched.
    let (refused, notes) = c.exchange("tools/call", json!({"name": "skills.enable", "arguments": {"categories": ["sound", "ufo"]}}));
    assert_eq!(refused["result"]["isError"], true);
    let message = refused["result"]["content"][0]["text"].as_str().unwrap();
    assert!(message.starts_with("invalid_input: categories: unknown category 'sound'"), "{message}");
    assert!(message.contains("; unknown category 'ufo'; known: scene, ecs,"), "{message}");
    assert!(notes.is_empty());
    assert_eq!(c.listed_names(), before);

    // With --tools all, disable narrows and enable restores.
    let mut all = Client::new(&e, "builder.readWrite", ToolsMode::All);
    let full = all.listed_names();
    all.call("skills.disable", json!({"categories": ["ui"]}));
    let narrowed = all.listed_names();
    assert!(!narrowed.iter().any(|n| n.starts_with("ui.")) && narrowed.len() < full.len(), "{narrowed:?}");
    all.call("skills.enable", json!({"categories": ["ui"]}));
    assert_eq!(all.listed_names(), full);
}

#[test]
fn an_unlisted_tool_is_callable_by_name() {
    let e = engine();
    let mut c = Client::new(&e, "builder.readWrite", ToolsMode::Core);
    let listed = c.listed_names();
    assert!(!listed.iter().any(|n| n == "ecs.addComponent"));
    let made = c.call("scene.createEntity", json!({}));
    let entity = made["structuredContent"]["entity"].clone();
    let tagged = c.call("ecs.addComponent", json!({"entity": entity, "component": "target"}));
    assert_eq!(tagged["isError"], false, "{tagged}");
    // An unknown name is still a JSON-RPC error, and says where to look.
    let unknown = c.request("tools/call", json!({"name": "ecs.addTag", "arguments": {}}));
    assert_eq!(unknown["error"]["code"], -32602);
    assert!(unknown["error"]["message"].as_str().unwrap().contains("skills.search"), "{unknown}");
}

#[test]
fn search_ranks_by_name_then_category_then_description_and_respects_permissions() {
    let e = engine();
    let mut c = Client::new(&e, "builder.readWrite", ToolsMode::Core);
    let search = |c: &mut Client<'_>, query: &str, limit: Option<u64>| -> Vec<Value> {
        let mut args = json!({"query": query});
        if let Some(l) = limit {
            args["limit"] = json!(l);
        }
        let r = c.call("skills.search", args);
        assert_eq!(r["isError"], false, "{r}");
        r["structuredContent"]["results"].as_array().unwrap().clone()
    };
    let names = |hits: &[Value]| -> Vec<String> { hits.iter().map(|h| h["name"].as_str().unwrap().to_string()).collect() };

    let hits = search(&mut c, "setMaterial", None);
    assert_eq!(hits[0]["name"], "three.setMaterial", "a whole name comes first: {:?}", names(&hits));
    assert!(hits[0]["inputSchema"]["properties"].is_object() && hits[0]["inputSchema"].get("$schema").is_none());
    let sound = search(&mut c, "play a sound", None);
    assert!(names(&sound).iter().take(3).all(|n| n.starts_with("audio.")), "{:?}", names(&sound));
    assert_eq!(names(&search(&mut c, "play a sound", None)), names(&sound), "the same query, the same order");
    let scores: Vec<u64> = sound.iter().map(|h| h["score"].as_u64().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "best first: {scores:?}");
    assert_eq!(search(&mut c, "entity", Some(2)).len(), 2, "the limit bounds the results");
    assert!(search(&mut c, "entity", None).len() <= 8, "and so does the default");
    assert!(search(&mut c, "xylophone", None).is_empty());
    let over = c.call("skills.search", json!({"query": "entity", "limit": 1000}));
    assert_eq!(over["isError"], true, "a limit past 25 is invalid input: {over}");

    // Only what the caller may call: policy.* needs policy.govern, which no profile holds.
    let governance = names(&search(&mut c, "revoke quota budget policy", Some(25)));
    assert!(governance.contains(&"policy.snapshot".to_string()), "{governance:?}");
    assert!(governance.iter().all(|n| !n.starts_with("policy.") || n == "policy.snapshot"), "{governance:?}");
    let mut viewer = Client::new(&e, "system.readonly", ToolsMode::Core);
    let found = names(&search(&mut viewer, "create entity", Some(25)));
    assert!(!found.contains(&"scene.createEntity".to_string()) && found.contains(&"scene.queryEntities".to_string()), "{found:?}");
}

#[test]
fn browse_lists_categories_with_counts_and_a_categorys_callable_skills() {
    let e = engine();
    let mut c = Client::new(&e, "builder.readWrite", ToolsMode::Core);
    let categories = c.call("skills.browse", json!({}))["structuredContent"]["categories"].as_array().unwrap().clone();
    let total: u64 = categories.iter().map(|c| c["count"].as_u64().unwrap()).sum();
    assert_eq!(total as usize, callable(&e, "builder.readWrite").len(), "every callable skill is in one category");
    let audio = categories.iter().find(|c| c["name"] == "audio").expect("an audio category");

    let browsed = c.call("skills.browse", json!({"category": "audio"}));
    let skills = browsed["structuredContent"]["skills"].as_array().unwrap();
    assert_eq!(skills.len() as u64, audio["count"].as_u64().unwrap());
    assert!(skills.iter().all(|s| s["category"] == "audio" && s["inputSchema"]["type"] == "object" && s["description"].is_string()));
    // What browse returns is enough to call the skill directly.
    let play = skills.iter().find(|s| s["name"] == "audio.play").unwrap();
    assert!(play["inputSchema"]["required"].as_array().unwrap().contains(&json!("freq")));

    let unknown = c.call("skills.browse", json!({"category": "weather"}));
    assert_eq!(unknown["isError"], true);
    let message = unknown["content"][0]["text"].as_str().unwrap();
    assert!(message.contains("unknown category 'weather'") && message.contains("audio"), "{message}");
    // policy.revoke and friends need policy.govern: a builder's policy category holds only what it may call.
    let policy = c.call("skills.browse", json!({"category": "policy"}));
    let names: Vec<&str> = policy["structuredContent"]["skills"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["policy.snapshot"]);
}

#[test]
fn paging_walks_the_filtered_list() {
    let e = engine();
    for i in 0..120 {
        let src = format!(
            r#"local s = limina.schema
            return {{ name = "bulk.t{i:03}", version = "1.0.0", category = "bulk", description = "Bulk tool {i}.", permissions = {{}},
                input = s.object({{}}), output = s.object({{}}), handler = function() return {{}} end }}"#
        );
        let def: mlua::Table = e.lua().load(&src).eval().unwrap();
        e.register_skill(&def, "test").unwrap();
    }
    let mut all = Client::new(&e, "builder.readWrite", ToolsMode::All);
    let first = all.request("tools/list", json!({}));
    assert_eq!(first["result"]["tools"].as_array().unwrap().len(), 100);
    assert_eq!(first["result"]["nextCursor"], "100");
    assert_eq!(all.listed_names(), callable(&e, "builder.readWrite"), "the pages add up to the list");

    let mut core = Client::new(&e, "builder.readWrite", ToolsMode::Core);
    let one = core.request("tools/list", json!({}));
    assert!(one["result"].get("nextCursor").is_none(), "the core list fits one page");
    let past = core.request("tools/list", json!({"cursor": "100"}));
    assert_eq!(past["error"]["code"], -32602, "a cursor past the session's own list is invalid");
    core.call("skills.enable", json!({"categories": ["bulk"]}));
    let listed = core.listed_names();
    assert_eq!(listed.len(), core_tier(&e, "builder.readWrite").len() + 120, "enabled, and paged: {}", listed.len());
}

#[test]
fn a_package_cannot_claim_the_core_tier() {
    let dir = tempfile::tempdir().unwrap();
    let scripts = dir.path().join("scripts");
    std::fs::create_dir_all(&scripts).unwrap();
    for (file, name, tier) in [("loud.luau", "mods.loud", "core"), ("quiet.luau", "mods.quiet", "standard")] {
        let source = format!(
            r#"return {{ skills = {{ {{ name = "{name}", version = "1.0.0", category = "mods", description = "d.", tier = "{tier}",
                permissions = {{}}, input = s.object({{}}), output = s.object({{ ok = s.boolean() }}), handler = function() return {{ ok = true }} end }} }} }}"#
        );
        std::fs::write(scripts.join(file), source).unwrap();
    }
    let e = Engine::new(EngineConfig { output: Output::Silent, scripts: Some(scripts), ..EngineConfig::new(dir.path()) }).unwrap();
    assert!(!e.registry().has("mods.loud"), "a package claiming the core tier is refused");
    let rejected: Vec<Value> =
        e.trace().durable().map(Result::unwrap).filter(|ev| &*ev.event_type == "package.rejected").map(|ev| ev.payload_value()).collect();
    assert_eq!(rejected.len(), 1, "{rejected:?}");
    let reason = rejected[0]["reason"].as_str().unwrap();
    assert!(reason.contains("mods.loud") && reason.contains("tier = \"core\""), "{reason}");
    assert_eq!(rejected[0]["rule"], "tier.reserved", "{}", rejected[0]);
    assert_eq!(e.registry().get("mods.quiet").map(|s| s.tier), Some(Tier::Standard));
}

#[test]
fn a_tier_is_core_or_standard_and_standard_by_default() {
    let e = engine();
    let def = |tier: &str| -> mlua::Table {
        let src = format!(
            r#"local s = limina.schema
            return {{ name = "t.tiered", version = "1.0.0", category = "t", description = "d.", {tier}
                input = s.object({{}}), output = s.object({{}}), handler = function() return {{}} end }}"#
        );
        e.lua().load(&src).eval().unwrap()
    };
    let build = |tier: &str| limina::skills::Skill::from_table(e.lua(), &def(tier), "test.luau");
    assert_eq!(build("").unwrap().tier, Tier::Standard);
    assert_eq!(build(r#"tier = "core","#).unwrap().tier, Tier::Core);
    let err = build(r#"tier = "vip","#).unwrap_err().to_string();
    assert_eq!(err, "test.luau: skill t.tiered: unknown tier 'vip' (known: core standard app)");
    let err = build("tier = 1,").unwrap_err().to_string();
    assert!(err.contains("`tier` must be a string, got number"), "{err}");
}

/// The stateless revision forbids unasked notifications: a change reaches only listen streams,
/// each frame stamped with its stream's id; a handshake client is told unasked.
#[test]
fn stateless_clients_hear_of_a_changed_list_only_on_a_listen_stream() {
    let e = engine();
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}});
    let mut s = McpSession::new(1, Profile::BuilderReadWrite, &e);
    let send = |s: &mut McpSession, id: u64, method: &str, mut params: Value| {
        params["_meta"] = meta.clone();
        handle_text(&e, s, &json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string())
    };
    send(&mut s, 1, "server/discover", json!({}));
    let out = send(&mut s, 2, "tools/call", json!({"name": "skills.enable", "arguments": {"categories": ["audio"]}}));
    assert_eq!(out.len(), 1, "the answer and nothing unasked: {out:?}");
    let ack = send(&mut s, 3, "subscriptions/listen", json!({"notifications": {"toolsListChanged": true}}));
    assert_eq!(ack[0]["method"], "notifications/subscriptions/acknowledged", "{ack:?}");
    assert_eq!(ack.len(), 1, "no response until the stream ends");
    let out = send(&mut s, 4, "tools/call", json!({"name": "skills.enable", "arguments": {"categories": ["ui"]}}));
    let note = out.iter().find(|m| m["method"] == "notifications/tools/list_changed").expect("the listen stream hears it");
    assert_eq!(note["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], 3);
    // Cancelling the stream ends it: the next change is not sent.
    handle_text(&e, &mut s, &json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 3}}).to_string());
    let out = send(&mut s, 5, "tools/call", json!({"name": "skills.disable", "arguments": {"categories": ["ui"]}}));
    assert_eq!(out.len(), 1, "{out:?}");

    let mut legacy = McpSession::new(2, Profile::BuilderReadWrite, &e);
    handle_text(
        &e,
        &mut legacy,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25"}}).to_string(),
    );
    let out = handle_text(
        &e,
        &mut legacy,
        &json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "skills.enable", "arguments": {"categories": ["audio"]}}})
            .to_string(),
    );
    assert_eq!(out[1]["method"], "notifications/tools/list_changed", "a handshake client is told unasked: {out:?}");
}

#[test]
fn enable_applies_the_valid_names_and_says_why_each_other_was_refused() {
    let e = engine();
    let mut c = Client::new(&e, "system.readonly", ToolsMode::Core);
    let before = c.listed_names();
    // physics is this profile's (physics.collisionEvents reads); ui exists but needs ui.write; "phyiscs" is a typo.
    let (answer, notes) =
        c.exchange("tools/call", json!({"name": "skills.enable", "arguments": {"categories": ["ui", "physics", "phyiscs", "ui"]}}));
    let result = &answer["result"];
    assert_eq!(result["isError"], false, "{answer}");
    let change = &result["structuredContent"];
    assert_eq!(change["categories"], json!(["physics"]));
    assert_eq!(change["refused"][0]["category"], "ui");
    assert_eq!(
        change["refused"][0]["reason"],
        "category 'ui' exists but is not permitted for profile system.readonly: its skills need ui.write"
    );
    assert_eq!(change["refused"][1]["category"], "phyiscs");
    let reason = change["refused"][1]["reason"].as_str().unwrap();
    assert!(reason.starts_with("unknown category 'phyiscs' (did you mean 'physics'?); known: "), "{reason}");
    assert_eq!(change["refused"].as_array().unwrap().len(), 2, "a repeated name is refused once");
    assert_eq!(notes, ["notifications/tools/list_changed"]);
    let after = c.listed_names();
    assert!(after.len() > before.len() && after.iter().all(|n| !n.starts_with("ui.")), "{after:?}");

    // Nothing valid: the call fails, with each reason, and nothing changes.
    let refused = c.call("skills.enable", json!({"categories": ["ui", "audio"]}));
    assert_eq!(refused["isError"], true);
    let message = refused["content"][0]["text"].as_str().unwrap();
    assert!(
        message.contains("category 'ui' exists but is not permitted") && message.contains("category 'audio' exists but is not permitted"),
        "{message}"
    );
    assert_eq!(c.listed_names(), after);
    // browse says the same of a category it may not see into.
    let browse = c.call("skills.browse", json!({"category": "ui"}));
    assert!(browse["content"][0]["text"].as_str().unwrap().contains("not permitted for profile system.readonly"), "{browse}");
}
