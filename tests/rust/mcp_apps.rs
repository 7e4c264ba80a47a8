//! MCP Apps (`io.modelcontextprotocol/ui`): the server lists and serves its one view,
//! `ui://limina/world` (`text/html;profile=mcp-app`, CSP metadata with no origins), and only a
//! client that declared the extension (in `initialize`, or per request in the stateless
//! revision) sees `world.view` carry `_meta.ui.resourceUri`; every other client's tool list is
//! unchanged. `world.view` answers in the state stream's snapshot shape, paged by cursor.

use limina::host::{Engine, EngineConfig, Output};
use limina::mcp::{McpSession, ToolsMode, handle_text};
use limina::policy::Profile;
use serde_json::{Value, json};

const URI: &str = "ui://limina/world";
const MIME: &str = "text/html;profile=mcp-app";
const EXT: &str = "io.modelcontextprotocol/ui";

fn engine() -> Engine {
    Engine::new(EngineConfig { output: Output::Silent, ..EngineConfig::new(crate::root()) }).unwrap()
}

struct Client<'e> {
    engine: &'e Engine,
    session: McpSession,
    next_id: u64,
}

impl<'e> Client<'e> {
    /// A session (not yet initialized) under `builder.readWrite`.
    fn fresh(engine: &'e Engine, tools: ToolsMode) -> Self {
        Self { engine, session: McpSession::new(1, Profile::parse("builder.readWrite").unwrap(), engine).with_tools(tools), next_id: 0 }
    }

    /// A standard client that initialized with `capabilities`.
    fn new(engine: &'e Engine, tools: ToolsMode, capabilities: Value) -> Self {
        let mut c = Self::fresh(engine, tools);
        let init = c.request(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": capabilities, "clientInfo": {"name": "t", "version": "1"}}),
        );
        assert!(init.get("result").is_some(), "{init}");
        c
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let text = json!({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}).to_string();
        handle_text(self.engine, &mut self.session, &text).into_iter().next().expect("a response")
    }

    fn tools(&mut self, params: Value) -> Vec<Value> {
        let mut tools = Vec::new();
        let mut params = params;
        loop {
            let page = self.request("tools/list", params.clone());
            tools.extend(page["result"]["tools"].as_array().unwrap_or_else(|| panic!("{page}")).iter().cloned());
            match page["result"].get("nextCursor") {
                Some(next) => params["cursor"] = next.clone(),
                None => return tools,
            }
        }
    }

    fn call(&mut self, tool: &str, arguments: Value) -> Value {
        self.request("tools/call", json!({"name": tool, "arguments": arguments}))["result"].clone()
    }
}

fn apps_capabilities() -> Value {
    json!({"extensions": {EXT: {"mimeTypes": [MIME]}}})
}

fn named<'a>(tools: &'a [Value], name: &str) -> Option<&'a Value> {
    tools.iter().find(|t| t["name"] == name)
}

#[test]
fn the_server_advertises_resources_and_lists_its_one_view() {
    let e = engine();
    let mut c = Client::fresh(&e, ToolsMode::Core);
    let init =
        c.request("initialize", json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}));
    assert!(init["result"]["capabilities"]["resources"].is_object(), "{init}");
    assert_eq!(init["result"]["capabilities"]["tools"]["listChanged"], true);
    let list = c.request("resources/list", json!({}));
    let resources = list["result"]["resources"].as_array().unwrap_or_else(|| panic!("{list}"));
    assert_eq!(resources.len(), 1, "{list}");
    assert_eq!(resources[0]["uri"], URI);
    assert_eq!(resources[0]["mimeType"], MIME);
    assert_eq!(resources[0]["_meta"]["ui"]["csp"], json!({"connectDomains": [], "resourceDomains": []}));
    let templates = c.request("resources/templates/list", json!({}));
    assert_eq!(templates["result"]["resourceTemplates"], json!([]), "{templates}");
}

#[test]
fn reading_the_view_gives_one_self_contained_html_document_with_its_csp() {
    let e = engine();
    let mut c = Client::new(&e, ToolsMode::Core, json!({}));
    let read = c.request("resources/read", json!({"uri": URI}));
    let contents = read["result"]["contents"].as_array().unwrap_or_else(|| panic!("{read}"));
    assert_eq!(contents.len(), 1);
    let doc = &contents[0];
    assert_eq!(doc["uri"], URI);
    assert_eq!(doc["mimeType"], MIME);
    assert_eq!(doc["_meta"]["ui"]["csp"]["connectDomains"], json!([]), "no network origin: data comes through the host");
    assert_eq!(doc["_meta"]["ui"]["csp"]["resourceDomains"], json!([]));
    let html = doc["text"].as_str().unwrap();
    assert!(html.starts_with("<!doctype html>"), "{}", &html[..60.min(html.len())]);
    assert!(html.contains("http-equiv=\"Content-Security-Policy\"") && html.contains("connect-src 'none'"));
    assert!(html.contains("ui/initialize") && html.contains("world.view"), "the bridge client is inlined");
    assert!(html.contains("LIMINA_THREE") && html.contains("LIMINA_VIEW_SOURCE"), "three.js and the web viewer are inlined");
    assert!(html.len() < 1 << 20, "one document under 1 MiB: {} bytes", html.len());
    assert!(!html.contains("<script src") && !html.contains("<link"), "nothing is fetched by URL");
}

#[test]
fn reading_anything_else_is_refused_without_echoing_megabytes() {
    let e = engine();
    let mut c = Client::new(&e, ToolsMode::Core, json!({}));
    let other = c.request("resources/read", json!({"uri": "ui://limina/other"}));
    assert_eq!(other["error"]["code"], -32002, "the MCP spec's resource-not-found code: {other}");
    assert!(other["error"]["message"].as_str().unwrap().contains("ui://limina/other"));
    let huge = "ui://".to_string() + &"x".repeat(1 << 20);
    let refused = c.request("resources/read", json!({"uri": huge}));
    assert_eq!(refused["error"]["code"], -32002);
    assert!(refused.to_string().len() < 2048, "a hostile URI is clipped, not echoed: {} bytes", refused.to_string().len());
    for bad in [json!({}), json!({"uri": 7}), json!({"uri": null})] {
        let r = c.request("resources/read", bad.clone());
        assert_eq!(r["error"]["code"], -32602, "{bad}: {r}");
    }
    for path in ["file:///etc/passwd", "ui://limina/world/../../etc/passwd", "UI://LIMINA/WORLD"] {
        let r = c.request("resources/read", json!({"uri": path}));
        assert_eq!(r["error"]["code"], -32002, "{path}: {r}");
    }
}

#[test]
fn only_a_client_that_declared_the_extension_sees_the_view_on_world_view() {
    let e = engine();
    for mode in [ToolsMode::Core, ToolsMode::All] {
        let plain = Client::new(&e, mode, json!({})).tools(json!({}));
        // Declaring the extension without our MIME type, or something else, is not declaring it.
        for other in
            [json!({"extensions": {EXT: {"mimeTypes": ["text/html"]}}}), json!({"experimental": {EXT: {}}}), json!({"extensions": {}})]
        {
            assert_eq!(Client::new(&e, mode, other.clone()).tools(json!({})), plain, "{mode:?} {other}");
        }
        assert!(plain.iter().all(|t| t.get("_meta").is_none()), "{mode:?}: no tool carries _meta for a plain client");
        assert_eq!(named(&plain, "world.view").is_some(), mode == ToolsMode::All, "{mode:?}: world.view is in the scene category");

        let apps = Client::new(&e, mode, apps_capabilities()).tools(json!({}));
        let view = named(&apps, "world.view").unwrap_or_else(|| panic!("{mode:?}: an Apps client lists world.view"));
        assert_eq!(view["_meta"]["ui"]["resourceUri"], URI);
        assert_eq!(view["_meta"]["ui/resourceUri"], URI, "the legacy key hosts still read");
        assert_eq!(view["annotations"]["readOnlyHint"], true);
        // Everything else is exactly what the plain client sees, but the app-only tools.
        let rest: Vec<Value> = apps.iter().filter(|t| t["name"] != "world.view" && t["name"] != "world.viewModel").cloned().collect();
        let plain_rest: Vec<Value> = plain.iter().filter(|t| t["name"] != "world.view").cloned().collect();
        assert_eq!(rest, plain_rest, "{mode:?}");
    }
}

#[test]
fn a_stateless_client_declares_the_extension_with_each_request() {
    let e = engine();
    let mut c = Client::fresh(&e, ToolsMode::Core);
    let meta = |caps: Option<Value>| {
        let mut m = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": {"name": "s", "version": "1"}});
        if let Some(caps) = caps {
            m["io.modelcontextprotocol/clientCapabilities"] = caps;
        }
        json!({"_meta": m})
    };
    let with = c.tools(meta(Some(apps_capabilities())));
    assert_eq!(named(&with, "world.view").expect("listed for an Apps request")["_meta"]["ui"]["resourceUri"], URI);
    // Not remembered: the next request without it gets the plain list.
    let without = c.tools(meta(None));
    assert!(named(&without, "world.view").is_none());
    assert!(without.iter().all(|t| t.get("_meta").is_none()));
    let other = c.tools(meta(Some(json!({"extensions": {EXT: {"mimeTypes": ["text/plain"]}}}))));
    assert_eq!(other, without);
}

#[test]
fn world_view_answers_in_the_snapshot_shape_with_a_short_text() {
    let e = engine();
    let mut c = Client::new(&e, ToolsMode::Core, apps_capabilities());
    for i in 0..5 {
        let made = c.call("scene.createEntity", json!({"shape": "sphere", "size": 2, "color": "#ff8800", "position": [i, 1, 0]}));
        assert_eq!(made["isError"], false, "{made}");
    }
    let world_count = c.call("scene.queryEntities", json!({}))["structuredContent"]["entities"].as_array().map_or(0, Vec::len);
    let r = c.call("world.view", json!({}));
    assert_eq!(r["isError"], false, "{r}");
    let view = &r["structuredContent"];
    assert_eq!(view["kind"], "snapshot");
    assert_eq!(view["total"].as_u64().unwrap() as usize, world_count, "{view}");
    let entities = view["entities"].as_array().unwrap();
    assert_eq!(entities.len(), world_count);
    let ball = entities.iter().find(|e| e["shape"] == "sphere").expect("a sphere");
    assert_eq!(ball["color"], 0xff8800);
    assert_eq!(ball["size"], 2.0);
    assert_eq!(ball["rotation"].as_array().unwrap().len(), 4);
    assert!(view["scene"]["lighting"]["ambientColor"].is_number(), "{view}");
    assert!(view["scene"]["camera"]["fov"].is_number());
    assert!(view["ui"].is_array());
    let text = r["content"][0]["text"].as_str().unwrap();
    assert!(text.len() < 300 && text.contains(&format!("{world_count} of {world_count} entities")), "{text}");

    // Paging: two at a time, every entity once, in id order.
    let mut seen = Vec::new();
    let mut args = json!({"limit": 2});
    loop {
        let page = c.call("world.view", args.clone())["structuredContent"].clone();
        seen.extend(page["entities"].as_array().unwrap().iter().map(|e| e["entity"].as_str().unwrap().to_string()));
        match page.get("nextCursor") {
            Some(cursor) => args["cursor"] = cursor.clone(),
            None => break,
        }
    }
    let all: Vec<String> = entities.iter().map(|e| e["entity"].as_str().unwrap().to_string()).collect();
    assert_eq!(seen, all);
    for bad in [json!({"limit": 0}), json!({"limit": 2001}), json!({"cursor": "../x"})] {
        assert_eq!(c.call("world.view", bad.clone())["isError"], true, "{bad}");
    }
}

/// An engine over a project of its own, with `assets/models/` holding the crate and `files`.
fn project_with(files: &[(&str, &[u8])]) -> (tempfile::TempDir, Engine) {
    let dir = tempfile::tempdir().unwrap();
    let models = dir.path().join("assets/models");
    std::fs::create_dir_all(&models).unwrap();
    std::fs::copy(crate::root().join("assets/models/crate.glb"), models.join("crate.glb")).unwrap();
    for (name, bytes) in files {
        std::fs::write(dir.path().join(name), bytes).unwrap();
    }
    let e = Engine::new(EngineConfig { output: Output::Silent, ..EngineConfig::new(dir.path()) }).unwrap();
    (dir, e)
}

fn error_text(r: &Value) -> String {
    assert_eq!(r["isError"], true, "{r}");
    r["content"][0]["text"].as_str().unwrap_or_default().to_string()
}

#[test]
fn world_view_model_is_listed_only_to_apps_clients_as_app_only_and_never_discovered() {
    let e = engine();
    let mut apps = Client::new(&e, ToolsMode::Core, apps_capabilities());
    let tool = named(&apps.tools(json!({})), "world.viewModel").cloned().expect("an Apps client lists world.viewModel");
    assert_eq!(tool["_meta"], json!({"ui": {"visibility": ["app"]}}), "hidden from the model");
    for mode in [ToolsMode::Core, ToolsMode::All] {
        let mut plain = Client::new(&e, mode, json!({}));
        assert!(named(&plain.tools(json!({})), "world.viewModel").is_none(), "a plain client ({mode:?}) does not list it");
        let catalog = plain.call("skills.list", json!({}));
        assert!(!catalog.to_string().contains("world.viewModel"), "skills.list leaves it out");
        let found = plain.call("skills.search", json!({"query": "world.viewModel"}));
        assert!(!found["structuredContent"].to_string().contains("world.viewModel"), "{found}");
        let browsed = plain.call("skills.browse", json!({"category": "scene"}));
        assert_eq!(browsed["isError"], false, "{browsed}");
        assert!(!browsed.to_string().contains("world.viewModel"), "browse leaves it out");
    }
    // Callable by name all the same, through the same pipeline.
    let mut plain = Client::new(&e, ToolsMode::Core, json!({}));
    assert_eq!(plain.call("world.viewModel", json!({"asset": "models/crate.glb"}))["isError"], false);
}

#[test]
fn world_view_model_hands_out_a_models_bytes_as_the_file_holds_them() {
    use base64::Engine as _;
    let e = engine();
    let mut c = Client::new(&e, ToolsMode::Core, apps_capabilities());
    let on_disk = std::fs::read(crate::root().join("assets/models/crate.glb")).unwrap();
    for id in ["models/crate.glb", "models/crate"] {
        let r = c.call("world.viewModel", json!({"asset": id}));
        assert_eq!(r["isError"], false, "{r}");
        let model = &r["structuredContent"];
        assert_eq!(model["mimeType"], "model/gltf-binary");
        assert_eq!(model["bytes"], on_disk.len());
        let data = base64::engine::general_purpose::STANDARD.decode(model["data"].as_str().unwrap()).unwrap();
        assert_eq!(data, on_disk, "{id}");
        // The bytes travel once: the text content is a line.
        let text = r["content"][0]["text"].as_str().unwrap();
        assert!(text.len() < 200 && text.contains("crate"), "{text}");
    }
}

#[test]
fn world_view_model_refuses_ids_that_leave_assets_or_name_no_model() {
    let (dir, e) = project_with(&[("secret.glb", b"glTF secret"), ("assets/models/notes.txt", b"not a model")]);
    let big = std::fs::File::create(dir.path().join("assets/models/huge.glb")).unwrap();
    big.set_len((16 << 20) + 1).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.path().join("secret.glb"), dir.path().join("assets/models/link.glb")).unwrap();
    let mut c = Client::new(&e, ToolsMode::Core, apps_capabilities());
    assert_eq!(c.call("world.viewModel", json!({"asset": "models/crate.glb"}))["isError"], false, "the good id");
    let absolute = dir.path().join("secret.glb").display().to_string();
    let mut refused = vec![
        ("../secret.glb", "not a path inside assets/"),
        ("models/../../secret.glb", "not a path inside assets/"),
        (absolute.as_str(), "not a path inside assets/"),
        ("models\\..\\..\\secret.glb", "not a path inside assets/"),
        // Taken as written, never percent-decoded: a name that does not exist, not a way up.
        ("%2e%2e/secret.glb", "no such model"),
        ("models/%2e%2e/%2e%2e/secret.glb", "no such model"),
        ("models/notes.txt", "only .glb and .gltf"),
        ("models/huge.glb", "over the 16777216-byte limit"),
        ("models/nope.glb", "no such model"),
    ];
    #[cfg(unix)]
    refused.push(("models/link.glb", "not a path inside assets/"));
    for (id, why) in refused {
        let text = error_text(&c.call("world.viewModel", json!({"asset": id})));
        assert!(text.contains(why), "{id}: {text}");
        assert!(!text.contains("secret\""), "{text}");
    }
    for bad in [json!({}), json!({"asset": ""}), json!({"asset": "x".repeat(513)}), json!({"asset": 5})] {
        assert_eq!(c.call("world.viewModel", bad.clone())["isError"], true, "{bad}");
    }
}

#[test]
fn world_view_model_needs_scene_read_and_a_session_budget() {
    use limina::policy::{Permission, PermissionSet};
    use limina::skills::Caller;
    let e = engine();
    let mut blind = Caller::new("agt_blind", "ses_blind", "system.readonly");
    blind.permissions = PermissionSet::of(&[Permission::AgentRead]);
    let refused = e.call(&blind, "world.viewModel", json!({"asset": "models/crate.glb"}));
    assert_eq!(refused.error.unwrap().code.as_str(), "forbidden");

    // 64 MiB per session per 600 ticks: four models of the largest size, then no more.
    let (dir, e) = project_with(&[]);
    std::fs::File::create(dir.path().join("assets/models/full.glb")).unwrap().set_len(16 << 20).unwrap();
    let reader = Caller::new("agt_reader", "ses_reader", "system.readonly");
    for _ in 0..4 {
        assert!(e.call(&reader, "world.viewModel", json!({"asset": "models/full.glb"})).success);
    }
    let spent = e.call(&reader, "world.viewModel", json!({"asset": "models/crate.glb"}));
    assert!(spent.result.is_none());
    let error = spent.error.unwrap();
    assert_eq!(error.code.as_str(), "capacity_exceeded", "{}", error.message);
    assert!(error.message.contains("67108864"), "{}", error.message);
    // Another session has its own budget; a later window starts afresh.
    let other = Caller::new("agt_other", "ses_other", "system.readonly");
    assert!(e.call(&other, "world.viewModel", json!({"asset": "models/crate.glb"})).success);
    e.step(600).unwrap();
    assert!(e.call(&reader, "world.viewModel", json!({"asset": "models/crate.glb"})).success);
}
