//! The WebSocket server with real clients: cross-client state sync, areas of interest, token
//! profiles, and a falsifiability check (with deltas off, the sync test must fail).

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use jsonrpsee::core::client::{ClientT, Subscription, SubscriptionClientT};
use jsonrpsee::rpc_params;
use jsonrpsee_ws_client::{HeaderMap, HeaderValue, WsClient, WsClientBuilder};
use serde_json::{Map, Value, json};

pub struct WsServer {
    child: Child,
    pub url: String,
}

impl WsServer {
    pub fn start(extra: &[&str]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_limina"))
            .args(["mcp", "--ws", "--port", "0"])
            .args(extra)
            .current_dir(crate::root())
            .stderr(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stderr.take().unwrap()).read_line(&mut line).unwrap();
        let url = line.split_whitespace().find(|w| w.starts_with("ws://")).unwrap_or_else(|| panic!("no address in {line:?}")).to_string();
        Self { child, url }
    }
}

impl Drop for WsServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub async fn client(url: &str, token: Option<&str>) -> Result<WsClient, jsonrpsee::core::ClientError> {
    let mut headers = HeaderMap::new();
    if let Some(t) = token {
        headers.insert("authorization", HeaderValue::from_str(&format!("Bearer {t}")).unwrap());
    }
    WsClientBuilder::default().set_headers(headers).build(url).await
}

fn obj(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap()
}

pub async fn call(c: &WsClient, tool: &str, arguments: Value) -> Value {
    c.request("tools/call", obj(json!({"name": tool, "arguments": arguments}))).await.unwrap()
}

pub async fn subscribe(c: &WsClient) -> Subscription<Value> {
    let mut sub: Subscription<Value> = c.subscribe("state/subscribe", rpc_params![], "state/unsubscribe").await.unwrap();
    let snapshot = sub.next().await.unwrap().unwrap();
    assert_eq!(snapshot["kind"], "snapshot", "{snapshot}");
    sub
}

/// Waits for a delta for which `pred` holds; None after `wait`.
pub async fn wait_for(sub: &mut Subscription<Value>, wait: Duration, pred: impl Fn(&Value) -> bool) -> Option<Value> {
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        let next = tokio::time::timeout_at(deadline, sub.next()).await.ok()??.ok()?;
        if pred(&next) {
            return Some(next);
        }
    }
}

fn mentions(delta: &Value, list: &str, entity: &str) -> bool {
    delta[list].as_array().is_some_and(|items| items.iter().any(|e| e["entity"] == entity || *e == entity))
}

pub async fn init(c: &WsClient) {
    let r: Value = c
        .request(
            "initialize",
            obj(json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}})),
        )
        .await
        .unwrap();
    assert_eq!(r["protocolVersion"], "2025-11-25");
}

async fn cross_visibility(server: &WsServer) -> bool {
    let a = client(&server.url, None).await.unwrap();
    let b = client(&server.url, None).await.unwrap();
    init(&a).await;
    init(&b).await;
    let mut sub_b = subscribe(&b).await;
    let made = call(&a, "scene.createEntity", json!({"shape": "sphere", "position": [0, 1, 0], "static": true})).await;
    let entity = made["structuredContent"]["entity"].as_str().unwrap().to_string();
    wait_for(&mut sub_b, Duration::from_secs(10), |d| mentions(d, "created", &entity)).await.is_some()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_clients_mutation_reaches_the_other_and_back() {
    let server = WsServer::start(&[]);
    let a = client(&server.url, None).await.unwrap();
    let b = client(&server.url, None).await.unwrap();
    init(&a).await;
    init(&b).await;
    let mut sub_a = subscribe(&a).await;
    let mut sub_b = subscribe(&b).await;

    let made = call(&a, "scene.createEntity", json!({"shape": "sphere", "dynamic": true, "position": [0, 0.5, 0]})).await;
    let ball = made["structuredContent"]["entity"].as_str().unwrap().to_string();
    let seen = wait_for(&mut sub_b, Duration::from_secs(10), |d| mentions(d, "created", &ball)).await;
    let seen = seen.expect("B sees A's new entity");
    assert_eq!(seen["created"][0]["shape"], "sphere");

    let pushed = call(&b, "physics.applyImpulse", json!({"entity": ball, "impulse": [0, 5, 0]})).await;
    assert_eq!(pushed["structuredContent"]["ok"], true);
    let moved = wait_for(&mut sub_a, Duration::from_secs(10), |d| {
        d["changed"].as_array().is_some_and(|c| c.iter().any(|e| e["entity"] == ball && e["position"][1].as_f64().unwrap_or(0.0) > 0.6))
    })
    .await;
    assert!(moved.is_some(), "A sees B's impulse lift the ball");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_deltas_off_the_cross_visibility_check_fails() {
    assert!(cross_visibility(&WsServer::start(&[])).await, "control: deltas on");
    assert!(!cross_visibility(&WsServer::start(&["--no-deltas"])).await, "with deltas off, B must not see A's entity");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_outside_the_area_of_interest_gets_no_delta() {
    let server = WsServer::start(&[]);
    let a = client(&server.url, None).await.unwrap();
    let far = client(&server.url, None).await.unwrap();
    init(&a).await;
    init(&far).await;
    let r: Value = far.request("aoi/declare", obj(json!({"center": [500, 0, 500], "radius": 10}))).await.unwrap();
    assert_eq!(r["ok"], true);
    let mut sub_far = subscribe(&far).await;
    let near = call(&a, "scene.createEntity", json!({"position": [0, 0, 0], "static": true})).await;
    let near = near["structuredContent"]["entity"].as_str().unwrap().to_string();
    assert!(wait_for(&mut sub_far, Duration::from_millis(600), |d| mentions(d, "created", &near)).await.is_none());
    // Inside its area it does see one.
    let inside = call(&a, "scene.createEntity", json!({"position": [505, 0, 500], "static": true})).await;
    let inside = inside["structuredContent"]["entity"].as_str().unwrap().to_string();
    assert!(wait_for(&mut sub_far, Duration::from_secs(10), |d| mentions(d, "created", &inside)).await.is_some());
    let bad: Result<Value, _> = far.request("aoi/declare", obj(json!({"center": [0, 0], "radius": -1}))).await;
    assert!(format!("{:?}", bad.unwrap_err()).contains("center"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokens_map_to_profiles_and_unknown_tokens_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let tokens = dir.path().join("tokens");
    std::fs::write(&tokens, "# token profile\nbuilder-secret builder.readWrite\nviewer-secret system.readonly\n").unwrap();
    let server = WsServer::start(&["--tokens", tokens.to_str().unwrap()]);
    assert!(client(&server.url, None).await.is_err(), "no token, no connection");
    let refused = client(&server.url, Some("guess")).await.unwrap_err();
    assert!(format!("{refused}").contains("401"), "{refused}");

    let builder = client(&server.url, Some("builder-secret")).await.unwrap();
    let viewer = client(&server.url, Some("viewer-secret")).await.unwrap();
    init(&builder).await;
    init(&viewer).await;
    let made = call(&builder, "scene.createEntity", json!({})).await;
    let id = made["structuredContent"]["entity"].as_str().unwrap().to_string();
    let denied = call(&viewer, "scene.destroyEntity", json!({"entity": id})).await;
    assert_eq!(denied["isError"], true);
    assert!(denied["content"][0]["text"].as_str().unwrap().contains("missing permission: scene.write"));
    // Zero effect: the entity is still there for everyone.
    let seen = call(&viewer, "scene.queryEntities", json!({})).await;
    // [0] is the default world's ground.
    assert_eq!(seen["structuredContent"]["entities"][1]["entity"], id);
    // A native initialize cannot widen the token's profile.
    let widened: Value =
        viewer.request("initialize", obj(json!({"agentId": "x", "sessionId": "y", "profile": "builder.readWrite"}))).await.unwrap();
    assert_eq!(widened["session"]["permissions"], json!(["scene.read", "ecs.read", "physics.read", "agent.read", "trace.read"]));
}

/// The most verbose log (`-vvv`, or `LIMINA_LOG=trace`) never prints a bearer token: the
/// WebSocket library traces each upgrade request whole, `Authorization` header included.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_most_verbose_log_prints_no_token() {
    let dir = tempfile::tempdir().unwrap();
    let tokens = dir.path().join("tokens");
    std::fs::write(&tokens, "builder-secret-0123 builder.readWrite\n").unwrap();
    for (flag, env) in [("-vvv", None), ("-q", Some("trace"))] {
        let mut command = Command::new(env!("CARGO_BIN_EXE_limina"));
        command.args([flag, "mcp", "--ws", "--port", "0", "--tokens", tokens.to_str().unwrap()]).env_remove("LIMINA_LOG");
        if let Some(filter) = env {
            command.env("LIMINA_LOG", filter);
        }
        let mut child = command.current_dir(crate::root()).stderr(Stdio::piped()).stdout(Stdio::null()).spawn().unwrap();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut log = String::new();
        while !log.contains("ws://") {
            assert_ne!(stderr.read_line(&mut log).unwrap(), 0, "no address in {log}");
        }
        let url = log.split_whitespace().find(|w| w.starts_with("ws://")).unwrap().trim_end_matches(';').to_string();
        let c = client(&url, Some("builder-secret-0123")).await.unwrap();
        init(&c).await;
        call(&c, "scene.createEntity", json!({})).await;
        drop(c);
        child.kill().unwrap();
        child.wait().unwrap();
        std::io::Read::read_to_string(&mut stderr, &mut log).unwrap();
        assert!(log.contains("Accepting new connection"), "{flag} {env:?} did not log verbosely: {log}");
        assert!(!log.contains("builder-secret-0123"), "{flag} {env:?} printed the token: {log}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vanished_client_does_not_disturb_the_others() {
    let server = WsServer::start(&[]);
    let a = client(&server.url, None).await.unwrap();
    init(&a).await;
    let mut sub_a = subscribe(&a).await;
    {
        let gone = client(&server.url, None).await.unwrap();
        init(&gone).await;
        let _sub = subscribe(&gone).await;
        // Fire a call and vanish without waiting for it.
        let pending =
            gone.request::<Value, _>("tools/call", obj(json!({"name": "scene.createEntity", "arguments": {"position": [1, 1, 1]}})));
        let _ = tokio::time::timeout(Duration::from_millis(1), pending).await;
    }
    let made = call(&a, "scene.createEntity", json!({"position": [2, 2, 2], "static": true})).await;
    let id = made["structuredContent"]["entity"].as_str().unwrap().to_string();
    assert!(wait_for(&mut sub_a, Duration::from_secs(10), |d| mentions(d, "created", &id)).await.is_some());
    let pong: Value = a.request("ping", rpc_params![]).await.unwrap();
    assert_eq!(pong, json!({}));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_state_stream_carries_the_scene_materials_and_only_what_changed() {
    let server = WsServer::start(&[]);
    let a = client(&server.url, None).await.unwrap();
    init(&a).await;
    let mut sub: Subscription<Value> = a.subscribe("state/subscribe", rpc_params![], "state/unsubscribe").await.unwrap();
    let snapshot = sub.next().await.unwrap().unwrap();
    assert!(snapshot["scene"]["camera"]["fov"].is_number(), "{snapshot}");
    assert!(snapshot["scene"]["lighting"]["ambientIntensity"].is_number(), "{snapshot}");
    assert!(snapshot["agents"].is_array(), "{snapshot}");

    let made = call(&a, "scene.createEntity", json!({"shape": "box", "static": true, "position": [0, 1, 0]})).await;
    let entity = made["structuredContent"]["entity"].as_str().unwrap().to_string();
    assert!(wait_for(&mut sub, Duration::from_secs(10), |d| mentions(d, "created", &entity)).await.is_some());

    // A material change: the look alone, not the pose.
    let r = call(&a, "three.setMaterial", json!({"entity": entity, "roughness": 0.2, "metalness": 0.9})).await;
    assert_ne!(r["isError"], true, "{r}");
    let changed = wait_for(&mut sub, Duration::from_secs(10), |d| mentions(d, "changed", &entity)).await.expect("the new look");
    let e = changed["changed"].as_array().unwrap().iter().find(|e| e["entity"] == entity.as_str()).unwrap().clone();
    assert!((e["material"]["roughness"].as_f64().unwrap() - 0.2).abs() < 1e-6, "{e}");
    assert!(e.get("position").is_none(), "only what changed: {e}");

    // The camera: in `scene`, once.
    let r = call(&a, "render.setCamera", json!({"position": [4, 5, 6], "target": [0, 0, 0], "fov": 65})).await;
    assert_ne!(r["isError"], true, "{r}");
    let scene = wait_for(&mut sub, Duration::from_secs(10), |d| d.get("scene").is_some()).await.expect("the new camera");
    assert_eq!(scene["scene"]["camera"]["fov"], 65.0);
    assert!(scene["scene"].get("lighting").is_none(), "{scene}");
    let again = wait_for(&mut sub, Duration::from_millis(500), |d| d.get("scene").is_some()).await;
    assert!(again.is_none(), "sent once: {again:?}");
}
