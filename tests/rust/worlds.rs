//! Many worlds in one server (`limina mcp --http --world NAME`, `/admin/worlds`): each world
//! keeps the hash it has alone while others are driven at the same time, sees nothing of the
//! others, takes only the tokens scoped to it, and stops alone when it panics or is retired.
//! Every test runs the real binary in a throwaway project.

use std::io::{BufRead as _, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{Value, json};

const V: &str = "2026-07-28";

/// One `limina mcp --http` process in a project folder of its own.
pub struct Server {
    child: Child,
    pub base: String,
    http: reqwest::Client,
    pub dir: tempfile::TempDir,
    /// The bearer token requests present, if any.
    pub token: Option<String>,
}

impl Server {
    pub fn start(args: &[&str]) -> Self {
        Self::start_with(args, &[], |_| {})
    }

    /// Starts the server in a new project; `prepare` writes files into it first.
    pub fn start_with(args: &[&str], env: &[(&str, &str)], prepare: impl FnOnce(&Path)) -> Self {
        #[cfg(feature = "tls")]
        let _ = rustls::crypto::ring::default_provider().install_default();
        let dir = tempfile::tempdir().unwrap();
        prepare(dir.path());
        let mut child = Command::new(env!("CARGO_BIN_EXE_limina"))
            .args(["mcp", "--http", "--port", "0"])
            .args(args)
            .envs(env.iter().copied())
            .current_dir(dir.path())
            .stderr(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        stderr.read_line(&mut line).unwrap();
        // The rest of stderr is drained, so a chatty world never blocks on a full pipe.
        std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
        let ws = line.split_whitespace().find(|w| w.starts_with("ws://")).unwrap_or_else(|| panic!("no address in {line:?}"));
        let base = ws.replace("ws://", "http://");
        Self { child, base, http: reqwest::Client::builder().no_proxy().build().unwrap(), dir, token: None }
    }

    fn authorized(&self, req: reqwest::RequestBuilder, token: Option<&str>) -> reqwest::RequestBuilder {
        match token.or(self.token.as_deref()) {
            Some(t) => req.bearer_auth(t),
            None => req,
        }
    }

    /// `/mcp` for the default world, `/w/{world}/mcp` for another.
    pub fn mcp_url(&self, world: &str) -> String {
        if world == "main" { format!("{}/mcp", self.base) } else { format!("{}/w/{world}/mcp", self.base) }
    }

    /// A stateless (2026-07-28) request to `world`, as `token` (or the server's token).
    pub async fn request(&self, world: &str, token: Option<&str>, method: &str, mut params: Value) -> (StatusCode, Value) {
        params["_meta"] = json!({"io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {}});
        let mut req = self
            .http
            .post(self.mcp_url(world))
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", V)
            .header("mcp-method", method)
            .body(json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).to_string());
        if let Some(name) = params.get("name").and_then(Value::as_str) {
            req = req.header("mcp-name", name);
        }
        let r = self.authorized(req, token).send().await.unwrap();
        body(r).await
    }

    /// A tool call on `world` that must succeed; its structured result.
    pub async fn call(&self, world: &str, tool: &str, arguments: Value) -> Value {
        let (status, answer) = self.request(world, None, "tools/call", json!({"name": tool, "arguments": arguments})).await;
        assert_eq!(status, StatusCode::OK, "{tool} on {world}: {answer}");
        let result = &answer["result"];
        assert_ne!(result["isError"], true, "{tool} on {world}: {answer}");
        result["structuredContent"].clone()
    }

    pub async fn admin(&self, method: reqwest::Method, path: &str, body_json: Option<Value>) -> (StatusCode, Value) {
        let mut req = self.http.request(method, format!("{}{path}", self.base));
        if let Some(b) = body_json {
            req = req.header("content-type", "application/json").body(b.to_string());
        }
        body(self.authorized(req, None).send().await.unwrap()).await
    }

    /// The world's tick, hash and entity count, computed on its engine thread.
    pub async fn report(&self, world: &str) -> Value {
        let (status, report) = self.admin(reqwest::Method::GET, &format!("/admin/worlds/{world}"), None).await;
        assert_eq!(status, StatusCode::OK, "{report}");
        report
    }

    pub async fn health(&self) -> (StatusCode, Value) {
        self.admin(reqwest::Method::GET, "/health", None).await
    }
}

impl Server {
    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Kills the process at once (SIGKILL): nothing is flushed on the way out.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub async fn body(r: reqwest::Response) -> (StatusCode, Value) {
    let status = r.status();
    let text = r.text().await.unwrap();
    let parsed = serde_json::from_str(&text).ok();
    (status, parsed.unwrap_or(Value::String(text)))
}

/// A deterministic script of world changes, different for each `seed`: bodies dropped and
/// stepped, so physics is in the hash, not only the entity table.
pub fn script(seed: u64) -> Vec<(&'static str, Value)> {
    let mut calls = Vec::new();
    for i in 0..24u64 {
        let x = (i as f64) * 1.5 + seed as f64 * 0.25;
        let shape = if (i + seed).is_multiple_of(2) { "sphere" } else { "box" };
        calls.push(("scene.createEntity", json!({"shape": shape, "position": [x, 2.0 + (i % 3) as f64, 0.0], "dynamic": true})));
        if i % 6 == 5 {
            calls.push(("world.step", json!({"ticks": 10 + seed})));
        }
    }
    calls.push(("world.step", json!({"ticks": 30})));
    calls
}

pub async fn run_script(server: &Server, world: &str, seed: u64) {
    for (tool, arguments) in script(seed) {
        server.call(world, tool, arguments).await;
    }
}

/// The same calls over a WebSocket connection upgraded on `/w/{world}/`.
async fn run_script_ws(server: &Server, world: &str, seed: u64) {
    let url = format!("{}/w/{world}/", server.base.replace("http://", "ws://"));
    let client = crate::mcp_ws::client(&url, None).await.unwrap();
    crate::mcp_ws::init(&client).await;
    for (tool, arguments) in script(seed) {
        let answer = crate::mcp_ws::call(&client, tool, arguments).await;
        assert_ne!(answer["isError"], true, "{tool}: {answer}");
    }
}

const PAUSED_EMPTY: [&str; 4] = ["--empty", "--paused", "--grant", "world.time"];

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_worlds_keep_their_solo_hashes_under_interleaved_clients() {
    // Alone: each script on the default world of a one-world server.
    let mut solo = Vec::new();
    for seed in [1, 2] {
        let server = Server::start(&PAUSED_EMPTY);
        run_script(&server, "main", seed).await;
        solo.push(server.report("main").await["worldHash"].clone());
    }
    assert_ne!(solo[0], solo[1], "the two scripts make different worlds");

    // Together: world a over HTTP, world b over WebSocket, at the same time, while a third
    // client reads both.
    let server = Server::start(&[&PAUSED_EMPTY[..], &["--world", "a=empty", "--world", "b=empty"]].concat());
    let reads = async {
        for _ in 0..20 {
            for world in ["a", "b"] {
                server.call(world, "scene.queryEntities", json!({})).await;
            }
        }
    };
    tokio::join!(run_script(&server, "a", 1), run_script_ws(&server, "b", 2), reads);
    let a = server.report("a").await;
    let b = server.report("b").await;
    assert_eq!(a["worldHash"], solo[0], "world a: {a}");
    assert_eq!(b["worldHash"], solo[1], "world b: {b}");
    assert_eq!(server.report("main").await["entities"], 0, "the default world was not touched");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_world_sees_nothing_of_another() {
    let server = Server::start(&["--world", "a=empty", "--world", "b=empty"]);
    let made = server.call("a", "scene.createEntity", json!({"shape": "box"})).await;
    assert_eq!(made["entity"], "ent_0001", "{made}");
    let in_b = server.call("b", "scene.queryEntities", json!({})).await;
    assert_eq!(in_b["entities"], json!([]), "world b holds nothing of a: {in_b}");
    assert_eq!(server.report("b").await["entities"], 0);
    assert_eq!(server.report("a").await["entities"], 1);

    // A handshake session belongs to the world it was opened on.
    let init = json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}});
    let post = |world: &str, message: &Value, sid: Option<&str>| {
        let mut req = server
            .http
            .post(server.mcp_url(world))
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(message.to_string());
        if let Some(sid) = sid {
            req = req.header("mcp-session-id", sid);
        }
        req.send()
    };
    let opened = post("a", &init, None).await.unwrap();
    assert_eq!(opened.status(), StatusCode::OK);
    let sid = opened.headers()["mcp-session-id"].to_str().unwrap().to_string();
    let ping = json!({"jsonrpc":"2.0","id":2,"method":"ping"});
    assert_eq!(post("a", &ping, Some(&sid)).await.unwrap().status(), StatusCode::OK);
    assert_eq!(post("b", &ping, Some(&sid)).await.unwrap().status(), StatusCode::NOT_FOUND, "a's session is unknown on b");
    assert_eq!(post("main", &ping, Some(&sid)).await.unwrap().status(), StatusCode::NOT_FOUND);

    // Names that are no world, and worlds that do not exist, are plain 404s.
    for path in ["/w/nope/mcp", "/w/UPPER/mcp", "/w/a.b/mcp", "/w//mcp"] {
        let r = server.http.post(format!("{}{path}", server.base)).body("{}").send().await.unwrap();
        assert_eq!(r.status(), StatusCode::NOT_FOUND, "{path}");
    }
    // A world's viewer page is under its prefix, and the bare prefix moves to it.
    let page = server.http.get(format!("{}/w/a/", server.base)).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    let bare = reqwest::Client::builder().no_proxy().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let moved = bare.get(format!("{}/w/a", server.base)).send().await.unwrap();
    assert_eq!(moved.status(), StatusCode::PERMANENT_REDIRECT);
    assert_eq!(moved.headers()["location"], "/w/a/");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_scoped_to_one_world_is_refused_on_another() {
    let tokens = "only-a builder.readWrite @a\neverywhere builder.readWrite\n";
    let server = Server::start_with(&["--tokens", "tokens.txt", "--world", "a=empty", "--world", "b=empty"], &[], |dir| {
        std::fs::write(dir.join("tokens.txt"), tokens).unwrap();
    });
    let ping = |world: &'static str, token: &'static str| {
        let server = &server;
        async move { server.request(world, Some(token), "ping", json!({})).await.0 }
    };
    assert_eq!(ping("a", "only-a").await, StatusCode::OK);
    assert_eq!(ping("b", "only-a").await, StatusCode::FORBIDDEN, "a token scoped to a is refused on b");
    assert_eq!(ping("main", "only-a").await, StatusCode::FORBIDDEN, "and on the default world");
    for world in ["a", "b", "main"] {
        assert_eq!(ping(world, "everywhere").await, StatusCode::OK, "{world}");
        assert_eq!(ping(world, "nobody").await, StatusCode::UNAUTHORIZED, "{world}");
    }
    let (status, answer) = server.request("b", Some("only-a"), "ping", json!({})).await;
    assert!(answer.as_str().is_some_and(|t| t.contains("not for world 'b'")), "{status} {answer}");

    // The WebSocket upgrade is checked against the world of its path too.
    let ws = server.base.replace("http://", "ws://");
    let to_a = crate::mcp_ws::client(&format!("{ws}/w/a/"), Some("only-a")).await.unwrap();
    crate::mcp_ws::init(&to_a).await;
    let answer = crate::mcp_ws::call(&to_a, "scene.createEntity", json!({"shape": "box"})).await;
    assert_eq!(answer["structuredContent"]["entity"], "ent_0001", "{answer}");
    assert!(crate::mcp_ws::client(&format!("{ws}/w/b/"), Some("only-a")).await.is_err(), "no upgrade into b");
    assert!(crate::mcp_ws::client(&format!("{ws}/"), Some("only-a")).await.is_err(), "nor into the default world");

    // Without a token that reaches it, nobody learns whether a world exists; the page's own
    // files are the same for every name.
    for path in ["/w/nope/mcp", "/w/a/mcp"] {
        let r = server.http.post(format!("{}{path}", server.base)).body("{}").send().await.unwrap();
        assert_eq!(r.status(), StatusCode::UNAUTHORIZED, "{path}");
    }
    for path in ["/w/nope/mcp", "/w/b/mcp"] {
        let r = server.http.post(format!("{}{path}", server.base)).bearer_auth("only-a").body("{}").send().await.unwrap();
        assert_eq!(r.status(), StatusCode::FORBIDDEN, "{path}");
    }
    for path in ["/w/nope/", "/w/a/"] {
        assert_eq!(server.http.get(format!("{}{path}", server.base)).send().await.unwrap().status(), StatusCode::OK, "{path}");
    }
    let (_, health) = body(server.http.get(format!("{}/health", server.base)).bearer_auth("only-a").send().await.unwrap()).await;
    let seen: Vec<&str> = health["worlds"].as_array().unwrap().iter().map(|w| w["name"].as_str().unwrap()).collect();
    assert_eq!(seen, ["a"], "a scoped token sees its own worlds: {health}");

    // A client token never opens the admin path (no --admin-token: it is off with --tokens).
    for token in ["everywhere", "only-a"] {
        let r = server.http.get(format!("{}/admin/worlds", server.base)).bearer_auth(token).send().await.unwrap();
        assert_eq!(r.status(), StatusCode::FORBIDDEN, "{token}");
    }
    // `/health` takes any known token, and no unknown one.
    let health = server.http.get(format!("{}/health", server.base)).bearer_auth("only-a").send().await.unwrap();
    assert_eq!(health.status(), StatusCode::OK);
    let health = server.http.get(format!("{}/health", server.base)).send().await.unwrap();
    assert_eq!(health.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_admin_path_needs_its_token() {
    let admin = "an-operator-token-0123456789";
    let server = Server::start_with(&["--admin-token", "admin.txt", "--tokens", "tokens.txt"], &[], |dir| {
        std::fs::write(dir.join("admin.txt"), format!("{admin}\n")).unwrap();
        let file = std::fs::File::open(dir.join("admin.txt")).unwrap();
        file.set_permissions(std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
        std::fs::write(dir.join("tokens.txt"), "client builder.readWrite\n").unwrap();
    });
    let list = |token: Option<&'static str>| {
        let req = server.http.get(format!("{}/admin/worlds", server.base));
        let req = match token {
            Some(t) => req.bearer_auth(t),
            None => req,
        };
        async move { req.send().await.unwrap().status() }
    };
    assert_eq!(list(None).await, StatusCode::UNAUTHORIZED);
    assert_eq!(list(Some("client")).await, StatusCode::UNAUTHORIZED, "a client token is no admin token");
    assert_eq!(list(Some("an-operator-token-012345678")).await, StatusCode::UNAUTHORIZED, "nor is a prefix of it");
    assert_eq!(list(Some(admin)).await, StatusCode::OK);

    // An admin token file others may read is refused at start, naming the problem.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("admin.txt"), format!("{admin}\n")).unwrap();
    std::fs::File::open(dir.path().join("admin.txt"))
        .unwrap()
        .set_permissions(std::os::unix::fs::PermissionsExt::from_mode(0o644))
        .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_limina"))
        .args(["mcp", "--http", "--port", "0", "--admin-token", "admin.txt"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("chmod 600"), "{stderr}");
    assert!(!stderr.contains(admin), "the token is never printed: {stderr}");

    // Nor may the operator's token be a client's too.
    std::fs::File::open(dir.path().join("admin.txt"))
        .unwrap()
        .set_permissions(std::os::unix::fs::PermissionsExt::from_mode(0o600))
        .unwrap();
    std::fs::write(dir.path().join("tokens.txt"), format!("{admin} builder.readWrite\n")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_limina"))
        .args(["mcp", "--http", "--port", "0", "--admin-token", "admin.txt", "--tokens", "tokens.txt"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("also a client token"), "{stderr}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_world_stops_alone() {
    let server = Server::start_with(&[], &[("LIMINA_FAULTS", "1")], |_| {});
    let (status, made) = server
        .admin(reqwest::Method::POST, "/admin/worlds", Some(json!({"name": "doomed", "from": "empty", "fault": {"panicAtTick": 30}})))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let deadline = Instant::now() + Duration::from_secs(60);
    let failed = loop {
        let (status, health) = server.health().await;
        let doomed = health["worlds"].as_array().unwrap().iter().find(|w| w["name"] == "doomed").cloned().unwrap();
        if doomed["state"] == "failed" {
            assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "a failed world makes the server unhealthy: {health}");
            break doomed;
        }
        assert!(Instant::now() < deadline, "the fault never fired: {health}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(failed["why"].as_str().unwrap().contains("panicked at tick"), "{failed}");
    // Its clients are told why; the default world goes on ticking and answering.
    let (status, answer) = server.request("doomed", None, "ping", json!({})).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(answer.as_str().unwrap().contains("world 'doomed' stopped: it panicked"), "{answer}");
    let before = server.report("main").await["tick"].as_u64().unwrap();
    server.call("main", "scene.createEntity", json!({"shape": "box"})).await;
    let deadline = Instant::now() + Duration::from_secs(60);
    while server.report("main").await["tick"].as_u64().unwrap() <= before + 30 {
        assert!(Instant::now() < deadline, "the default world stopped ticking");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // A faults field is refused unless the server was started for tests.
    let plain = Server::start(&[]);
    let (status, refused) =
        plain.admin(reqwest::Method::POST, "/admin/worlds", Some(json!({"name": "x", "fault": {"panicAtTick": 1}}))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(refused.as_str().unwrap().contains("LIMINA_FAULTS"), "{refused}");
    // Retiring the failed world removes it; the server is healthy again.
    let (status, removed) = server.admin(reqwest::Method::DELETE, "/admin/worlds/doomed", None).await;
    assert_eq!((status, removed["state"].clone()), (StatusCode::OK, json!("removed")), "{removed}");
    assert_eq!(server.health().await.0, StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_flooded_world_does_not_slow_another() {
    let server = Server::start(&["--world", "flooded=empty", "--world", "quiet=empty"]);
    // The flooded world lets calls take whole frames.
    let started = Instant::now();
    let quiet_before = server.report("quiet").await["tick"].as_u64().unwrap();
    let flood = |n: u64| {
        let server = &server;
        async move {
            let mut i = 0u64;
            while started.elapsed() < Duration::from_secs(3) {
                let (status, _) = server
                    .request(
                        "flooded",
                        None,
                        "tools/call",
                        json!({"name": "scene.createEntity", "arguments": {"shape": "box", "position": [n as f64, 1.0 + i as f64 * 0.01, 0.0]}}),
                    )
                    .await;
                assert!(status == StatusCode::OK || status == StatusCode::TOO_MANY_REQUESTS, "{status}");
                i += 1;
            }
            i
        }
    };
    let (a, b, c, d) = tokio::join!(flood(0), flood(1), flood(2), flood(3));
    let elapsed = started.elapsed().as_secs_f64();
    let quiet_after = server.report("quiet").await["tick"].as_u64().unwrap();
    let rate = (quiet_after - quiet_before) as f64 / elapsed;
    eprintln!("flood: {} calls in {elapsed:.2} s; the quiet world ran {rate:.1} ticks/s meanwhile", a + b + c + d);
    // Loose on purpose: it catches a world starved by another's calls, not scheduler jitter.
    assert!(rate >= 0.5 * 60.0, "the quiet world ran {rate:.1} ticks/s while the other was flooded");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn worlds_are_created_from_scenes_and_snapshots_and_retired() {
    let server = Server::start_with(&["--log-dir", "logs", "--grant", "world.time"], &[], |dir| {
        std::fs::create_dir_all(dir.join("scenes")).unwrap();
        std::fs::copy(crate::root().join("scenes/courtyard.lua"), dir.join("scenes/courtyard.lua")).unwrap();
    });
    let post = |body: Value| server.admin(reqwest::Method::POST, "/admin/worlds", Some(body));
    let (status, made) = post(json!({"name": "table", "from": {"scene": "scenes/courtyard.lua"}, "paused": true})).await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    assert_eq!(made["mcp"], "/w/table/mcp");
    let table = server.report("table").await;
    assert!(table["entities"].as_u64().unwrap() > 10, "the scene was built: {table}");
    assert_eq!((post(json!({"name": "table"})).await).0, StatusCode::CONFLICT, "a name is served once");
    for bad in [
        json!({"name": "x", "from": {"scene": "../etc/passwd"}}),
        json!({"name": "x", "from": {"scene": "/etc/passwd"}}),
        json!({"name": "Bad"}),
        json!({"name": "x", "form": "empty"}),
    ] {
        let (status, why) = post(bad.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {why}");
    }
    let (status, why) = post(json!({"name": "x", "from": {"scene": "scenes/missing.lua"}})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{why}");

    // A snapshot of one world starts another, with the same hash.
    server.call("table", "world.step", json!({"ticks": 20})).await;
    let snap = server.call("table", "world.snapshot", json!({"name": "t20"})).await;
    assert_eq!(snap["path"], "logs/table/t20.snap", "a logged world's snapshots go beside its log: {snap}");
    let (status, made) = post(json!({"name": "copy", "from": {"resume": "logs/table/t20.snap"}, "paused": true})).await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let table = server.report("table").await;
    let copy = server.report("copy").await;
    assert_eq!(copy["worldHash"], table["worldHash"], "{copy} vs {table}");

    // Retiring: the report names the final hash; the world is gone for its clients; its log
    // recovers to that hash.
    let ws = crate::mcp_ws::client(&format!("{}/w/table/", server.base.replace("http://", "ws://")), None).await.unwrap();
    server.call("table", "scene.createEntity", json!({"shape": "sphere", "position": [0, 5, 0], "dynamic": true})).await;
    server.call("table", "world.step", json!({"ticks": 15})).await;
    let (status, retired) = server.admin(reqwest::Method::DELETE, "/admin/worlds/table", None).await;
    assert_eq!(status, StatusCode::OK, "{retired}");
    assert_eq!(retired["durable"], true, "{retired}");
    let (status, _) = server.request("table", None, "ping", json!({})).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "a retired world is gone");
    let deadline = Instant::now() + Duration::from_secs(30);
    while ws.is_connected() {
        assert!(Instant::now() < deadline, "the retired world's WebSocket stayed open");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let out = Command::new(env!("CARGO_BIN_EXE_limina")).args(["recover", "logs/table"]).current_dir(server.dir.path()).output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let hash = retired["worldHash"].as_str().unwrap();
    assert!(out.status.success() && text.contains(hash), "recover gives the retired hash {hash}: {text}");
    // The name is taken by its log now: a new world of that name is refused, naming the folder.
    let (status, why) = post(json!({"name": "table"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(why.as_str().unwrap().contains("already holds a run's log"), "{why}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_lists_each_world_with_its_tick() {
    let server = Server::start(&["--world", "one", "--world", "two=empty"]);
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let (status, health) = server.health().await;
        assert_eq!(status, StatusCode::OK, "{health}");
        let worlds = health["worlds"].as_array().unwrap();
        let names: Vec<&str> = worlds.iter().map(|w| w["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["main", "one", "two"]);
        if worlds.iter().all(|w| w["tick"].as_u64().unwrap() > 0 && w["state"] == "serving") {
            break;
        }
        assert!(Instant::now() < deadline, "{health}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // The default world made at start has a ground; `one` too (from: default); `two` is empty.
    assert_eq!(server.report("two").await["entities"], 0);
    assert!(server.report("one").await["entities"].as_u64().unwrap() >= 1);
}

#[test]
fn the_worlds_command_drives_the_admin_path() {
    let admin = "operator-token-for-the-cli-test";
    let server = Server::start_with(&["--admin-token", "admin.txt"], &[], |dir| {
        std::fs::write(dir.join("admin.txt"), format!("{admin}\n")).unwrap();
        std::fs::File::open(dir.join("admin.txt")).unwrap().set_permissions(std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    });
    let worlds = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_limina"))
            .arg("worlds")
            .args(args)
            .args(["--server", &server.base, "--admin-token", "admin.txt"])
            .current_dir(server.dir.path())
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr))
    };
    let (code, text) = worlds(&["create", "lab", "--from", "empty", "--paused"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("created lab: MCP at /w/lab/mcp"), "{text}");
    let (code, text) = worlds(&["list"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.lines().any(|l| l.starts_with("lab ") && l.contains("serving")), "{text}");
    let (code, text) = worlds(&["create", "lab"]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("409") && text.contains("exists already"), "{text}");
    let (code, text) = worlds(&["retire", "lab"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("\"worldHash\": \"sha256:"), "{text}");
    // Without the token the server refuses, and the command says so.
    let out = Command::new(env!("CARGO_BIN_EXE_limina")).args(["worlds", "list", "--server", &server.base]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && text.contains("401"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_creations_are_refused_and_leave_nothing_behind() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("world.log"), "not a log\n").unwrap();
    let server = Server::start_with(&["--log-dir", "logs"], &[], |dir| {
        // A run folder in the project whose log is a link out of it.
        std::fs::create_dir_all(dir.join("planted")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("world.log"), dir.join("planted/world.log")).unwrap();
        // A world's own folder planted as a link out of the project.
        std::fs::create_dir_all(dir.join("worlds")).unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.join("worlds/escape")).unwrap();
        std::fs::write(dir.join("broken.lua"), "this is not luau (").unwrap();
    });
    let post = |body: Value| server.admin(reqwest::Method::POST, "/admin/worlds", Some(body));
    let (status, why) = post(json!({"name": "r", "from": {"resume": "planted"}})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{why}");
    assert!(why.as_str().unwrap().contains("leads out of the project"), "{why}");
    let (status, why) = post(json!({"name": "escape", "from": "empty"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{why}");
    assert!(why.as_str().unwrap().contains("leads out of the project"), "{why}");
    assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 1, "nothing was written through the link");

    // A start that fails leaves no log to claim its name.
    let (status, why) = post(json!({"name": "again", "from": {"scene": "broken.lua"}})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{why}");
    let (status, made) = post(json!({"name": "again", "from": "empty"})).await;
    assert_eq!(status, StatusCode::CREATED, "the name is free after a failed start: {made}");

    // The default world stays: its paths are the server's own.
    let (status, why) = server.admin(reqwest::Method::DELETE, "/admin/worlds/main", None).await;
    assert_eq!(status, StatusCode::CONFLICT, "{why}");
    assert_eq!(server.request("main", None, "ping", json!({})).await.0, StatusCode::OK);

    // A world's saved scenes are its own, in its folder.
    server.call("again", "scene.createEntity", json!({"shape": "box"})).await;
    let saved = server.call("again", "scene.save", json!({"name": "mine"})).await;
    assert!(server.dir.path().join("worlds/again/scenes/mine.lua").is_file(), "{saved}");
    assert!(!server.dir.path().join("scenes/mine.lua").exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_world_whose_steps_fail_is_reported_stalled() {
    let server = Server::start_with(&[], &[], |dir| {
        std::fs::write(dir.join("boom.lua"), "limina.on_step(function(tick) if tick > 30 then error('boom') end end)\n").unwrap();
    });
    let (status, made) =
        server.admin(reqwest::Method::POST, "/admin/worlds", Some(json!({"name": "boom", "from": {"scene": "boom.lua"}}))).await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let (status, health) = server.health().await;
        let boom = health["worlds"].as_array().unwrap().iter().find(|w| w["name"] == "boom").cloned().unwrap();
        if boom["state"] == "stalled" {
            assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{health}");
            assert!(boom["why"].as_str().unwrap().contains("has stayed at"), "{boom}");
            break;
        }
        assert!(Instant::now() < deadline, "never reported stalled: {health}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // A paused world is not stalled: its tick need not move.
    let (status, _) =
        server.admin(reqwest::Method::POST, "/admin/worlds", Some(json!({"name": "still", "from": "empty", "paused": true}))).await;
    assert_eq!(status, StatusCode::CREATED);
    tokio::time::sleep(Duration::from_secs(6)).await;
    let (_, health) = server.health().await;
    let still = health["worlds"].as_array().unwrap().iter().find(|w| w["name"] == "still").cloned().unwrap();
    assert_eq!(still["state"], "serving", "{health}");
}
