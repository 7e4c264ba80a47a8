//! The web viewer fed from NATS (`limina spectate nats://…/WORLD --http ADDR`), against a real
//! `nats-server` and a real `limina mcp --http --nats` publishing the world: the relay serves the
//! viewer's page, answers `initialize`, `state/subscribe` (from the newest keyframe on) and
//! `trace.tail` from the feeds, and refuses every other request; it needs its token; hostile
//! messages on the world's subjects and floods of them are dropped and counted, never passed to
//! viewers; viewers are bounded, and a viewer that leaves frees its place. (The page itself in a
//! real browser: tests/node/spectate.test.mjs.)

use std::io::{BufRead as _, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::nats_server::NatsServer;
use crate::worlds::Server;

/// How long a test waits for something that must come, before it fails (a guard, not a
/// measurement: a loaded machine only takes longer).
const PATIENCE: Duration = Duration::from_secs(60);

/// One `limina spectate --http` process.
struct Relay {
    child: Child,
    base: String,
    token: String,
    http: reqwest::Client,
}

impl Relay {
    fn start(url: &str) -> Relay {
        let mut child = Command::new(env!("CARGO_BIN_EXE_limina"))
            .args(["spectate", url, "--http", "127.0.0.1:0"])
            .stderr(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        stderr.read_line(&mut line).unwrap();
        std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
        let link = line.split_whitespace().find(|w| w.starts_with("http://")).unwrap_or_else(|| panic!("no link in {line:?}"));
        let (base, token) = link.split_once("/#token=").unwrap_or_else(|| panic!("no token in {link}"));
        Relay { child, base: base.to_string(), token: token.to_string(), http: reqwest::Client::builder().no_proxy().build().unwrap() }
    }

    fn post(&self, message: Value) -> reqwest::RequestBuilder {
        self.http
            .post(format!("{}/mcp", self.base))
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(message.to_string())
    }

    /// A request with the relay's token; the answer's status and JSON body.
    async fn request(&self, method: &str, params: Value) -> (StatusCode, Value) {
        let r = self
            .post(json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params}))
            .bearer_auth(&self.token)
            .send()
            .await
            .unwrap();
        crate::worlds::body(r).await
    }

    async fn subscribe(&self) -> reqwest::Response {
        self.post(json!({"jsonrpc": "2.0", "id": 1, "method": "state/subscribe", "params": {}}))
            .header("accept", "text/event-stream")
            .bearer_auth(&self.token)
            .send()
            .await
            .unwrap()
    }

    async fn health(&self) -> Value {
        let r = self.http.get(format!("{}/health", self.base)).bearer_auth(&self.token).send().await.unwrap();
        let (status, body) = crate::worlds::body(r).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        body
    }

    fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        status.lines().find_map(|l| l.strip_prefix("VmRSS:")).and_then(|v| v.trim().trim_end_matches(" kB").parse().ok()).unwrap()
    }

    fn alive(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The JSON-RPC messages of an event stream, one at a time.
struct Events {
    response: reqwest::Response,
    buffer: String,
}

impl Events {
    fn new(response: reqwest::Response) -> Events {
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()["content-type"], "text/event-stream");
        Events { response, buffer: String::new() }
    }

    async fn next(&mut self) -> Value {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let event: String = self.buffer.drain(..end + 2).collect();
                let data: String = event.lines().filter_map(|l| l.strip_prefix("data: ")).collect();
                if data.is_empty() {
                    continue; // a ping
                }
                return serde_json::from_str(&data).unwrap_or_else(|e| panic!("an event that is not JSON ({e}): {event:?}"));
            }
            let chunk = tokio::time::timeout(PATIENCE, self.response.chunk()).await.expect("an event within the patience");
            let chunk = chunk.unwrap().expect("the stream stays open");
            self.buffer.push_str(std::str::from_utf8(&chunk).unwrap());
        }
    }

    /// Reads until `found` picks a message, giving up after `limit` messages.
    async fn until<T>(&mut self, limit: usize, mut found: impl FnMut(&Value) -> Option<T>) -> T {
        for _ in 0..limit {
            let message = self.next().await;
            if let Some(t) = found(&message) {
                return t;
            }
        }
        panic!("nothing found in {limit} messages");
    }
}

fn is_full_state(message: &Value) -> bool {
    message["method"] == "state/snapshot" || message["params"]["kind"] == "snapshot"
}

fn holds(message: &Value, entity: &str) -> bool {
    let listed = |key: &str| message["params"][key].as_array().is_some_and(|list| list.iter().any(|e| e["entity"] == entity));
    listed("entities") || listed("created")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_relay_serves_a_worlds_state_and_trace_to_the_viewer_and_refuses_everything_else() {
    let nats = NatsServer::start();
    let server = Server::start(&["--nats", &nats.url]);
    let first = server.call("main", "scene.createEntity", json!({"shape": "box", "position": [1.0, 0.5, 0.0]})).await["entity"]
        .as_str()
        .unwrap()
        .to_string();
    let relay = Relay::start(&format!("{}/main", nats.url));

    // The page and its scripts need no token; everything else does.
    let page = relay.http.get(format!("{}/", relay.base)).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    assert!(page.text().await.unwrap().contains("/viewer/viewer.js"));
    let script = relay.http.get(format!("{}/viewer/viewer.js", relay.base)).send().await.unwrap();
    assert_eq!(script.status(), StatusCode::OK);
    let hello = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    assert_eq!(relay.post(hello.clone()).send().await.unwrap().status(), StatusCode::UNAUTHORIZED);
    assert_eq!(relay.post(hello.clone()).bearer_auth("0".repeat(32)).send().await.unwrap().status(), StatusCode::UNAUTHORIZED);
    let health = relay.http.get(format!("{}/health", relay.base)).send().await.unwrap();
    assert_eq!(health.status(), StatusCode::UNAUTHORIZED);

    let answer = relay.post(hello).bearer_auth(&relay.token).send().await.unwrap();
    assert_eq!(answer.status(), StatusCode::OK);
    assert!(answer.headers().contains_key("mcp-session-id"));
    let (_, answer) = crate::worlds::body(answer).await;
    assert_eq!(answer["result"]["serverInfo"]["name"], "limina-spectate", "{answer}");
    assert_eq!(answer["result"]["protocolVersion"], "2025-11-25");

    // The state stream starts with a full state holding what the world had.
    let mut events = Events::new(relay.subscribe().await);
    let start = events.next().await;
    assert!(is_full_state(&start), "a viewer starts at a keyframe: {start}");
    assert!(holds(&start, &first), "{start}");
    // And follows the world's changes.
    let second = server.call("main", "scene.createEntity", json!({"shape": "sphere", "position": [-1.0, 0.5, 0.0]})).await["entity"]
        .as_str()
        .unwrap()
        .to_string();
    events.until(2000, |m| holds(m, &second).then_some(())).await;

    // Nothing that would change the world is served; the world is untouched.
    let before = server.call("main", "scene.queryEntities", json!({})).await["entities"].as_array().unwrap().len();
    let (status, refused) = relay.request("tools/call", json!({"name": "scene.createEntity", "arguments": {"shape": "box"}})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(refused["error"]["code"], -32601, "{refused}");
    assert!(refused["error"]["message"].as_str().unwrap().contains("read-only relay"), "{refused}");
    for method in ["world.step", "resources/read", "policy.revoke", "shutdown"] {
        let (_, refused) = relay.request(method, json!({})).await;
        assert_eq!(refused["error"]["code"], -32601, "{method}: {refused}");
    }
    let after = server.call("main", "scene.queryEntities", json!({})).await["entities"].as_array().unwrap().len();
    assert_eq!(after, before, "the relay changed the world");

    // trace.tail answers from the trace feed.
    let deadline = Instant::now() + PATIENCE;
    loop {
        let (_, tail) = relay.request("tools/call", json!({"name": "trace.tail", "arguments": {"afterSeq": -1, "limit": 1000}})).await;
        let events = tail["result"]["structuredContent"]["events"].as_array().cloned().unwrap_or_default();
        if events.iter().any(|e| e["payload"]["skill"] == "scene.createEntity" && e["payload"]["input"]["shape"] == "sphere") {
            assert_eq!(tail["result"]["isError"], false);
            let last = events.last().unwrap()["seq"].clone();
            assert_eq!(tail["result"]["structuredContent"]["nextAfterSeq"], last);
            break;
        }
        assert!(Instant::now() < deadline, "trace.tail never showed the call: {tail}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let (_, bad) = relay.request("tools/call", json!({"name": "trace.tail", "arguments": {"afterSeq": "x"}})).await;
    assert_eq!(bad["error"]["code"], -32602, "{bad}");

    // The port's rules: foreign origins, oversized bodies, other methods.
    let foreign = relay
        .post(json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}))
        .bearer_auth(&relay.token)
        .header("origin", "http://evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(foreign.status(), StatusCode::FORBIDDEN);
    let rebound = relay.http.get(format!("{}/", relay.base)).header("host", "evil.example").send().await.unwrap();
    assert_eq!(rebound.status(), StatusCode::FORBIDDEN, "a loopback relay answers only to loopback names");
    let huge = json!({"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"x": "y".repeat(100_000)}});
    let huge = relay.post(huge).bearer_auth(&relay.token).send().await.unwrap();
    assert_eq!(huge.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let get = relay.http.get(format!("{}/mcp", relay.base)).bearer_auth(&relay.token).send().await.unwrap();
    assert_eq!(get.status(), StatusCode::METHOD_NOT_ALLOWED);
    let asset = relay.http.get(format!("{}/assets/models/crate.glb", relay.base)).bearer_auth(&relay.token).send().await.unwrap();
    assert_eq!(asset.status(), StatusCode::NOT_FOUND);

    let health = relay.health().await;
    assert_eq!(health["world"], "main");
    assert_eq!(health["nats"]["connected"], true);
    assert_eq!(health["viewers"], 1);
    assert_eq!(health["state"]["joinable"], true, "{health}");
    assert_eq!(health["state"]["counts"]["invalid"], 0, "{health}");
    drop(events);
    drop(server);
}

/// Publishes `body` on `subject` with the feed's headers.
async fn publish(client: &async_nats::Client, subject: &str, kind: &str, seq: u64, part: Option<&str>, body: Vec<u8>) {
    let mut headers = async_nats::HeaderMap::new();
    headers.insert("Limina-Kind", kind);
    headers.insert("Limina-Tick", "1");
    headers.insert("Limina-Seq", seq.to_string().as_str());
    if let Some(part) = part {
        headers.insert("Limina-Part", part);
    }
    client.publish_with_headers(subject.to_string(), headers, body.into()).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_messages_on_the_worlds_subjects_are_dropped_and_viewers_keep_the_true_state() {
    let nats = NatsServer::start();
    let server = Server::start(&["--nats", &nats.url]);
    let mut relay = Relay::start(&format!("{}/main", nats.url));
    // A viewer watching all along: every event it gets must be one of the world's own.
    let mut watching = Events::new(relay.subscribe().await);
    assert!(is_full_state(&watching.next().await));
    let rss_before = relay.rss_kib();
    let client = async_nats::connect(nats.url.as_str()).await.unwrap();
    let delta = "limina.world.main.delta";
    let trace = "limina.world.main.trace";
    let forged: Vec<(&str, Vec<u8>)> = vec![
        ("delta", b"not json".to_vec()),
        ("keyframe", b"{\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{}}".to_vec()),
        ("delta", b"{\"jsonrpc\":\"2.0\",\"method\":\"state/delta\",\"params\":\"x\"}".to_vec()),
        // Valid JSON, but its line breaks would end the viewer's event early, and what follows
        // would read as another event.
        ("keyframe", b"{\"jsonrpc\":\"2.0\",\"method\":\"state/snapshot\",\"params\":{\"kind\":\"snapshot\"}\n\n,\"x\":1}".to_vec()),
        ("keyframe", b"{\"jsonrpc\":\"2.0\",\"method\":\"state/snapshot\",\"params\":{},\"x\":\"\r\n\r\ndata: forged\"}".to_vec()),
        ("nonsense", b"{}".to_vec()),
        ("keyframe", vec![0xff; 1000]),
    ];
    for (i, (kind, body)) in forged.into_iter().enumerate() {
        publish(&client, delta, kind, 1_000_000 + i as u64, None, body).await;
    }
    // The largest sequence number, then another: counting the gap must not overflow (it
    // panicked the relay), on either subject.
    for subject in [delta, trace] {
        publish(&client, subject, "delta", u64::MAX, None, b"{}".to_vec()).await;
        publish(&client, subject, "delta", 7, None, b"{}".to_vec()).await;
    }
    // A delta labelled a keyframe: nobody may start on it.
    let mislabelled = json!({"jsonrpc": "2.0", "method": "state/delta", "params": {"kind": "delta", "tick": 1, "removed": ["ent_1"]}});
    publish(&client, delta, "keyframe", 3_000_000, None, mislabelled.to_string().into_bytes()).await;
    // A trace event numbered past what a page can count exactly.
    publish(&client, trace, "events", 1, None, format!("{{\"seq\":{},\"type\":\"x\"}}\n", u64::MAX).into_bytes()).await;
    // Parts that never finish, out of order, or claim more parts than a message may have.
    publish(&client, delta, "keyframe", 2_000_000, Some("2/3"), vec![b'x'; 512 << 10]).await;
    publish(&client, delta, "keyframe", 2_000_001, Some("1/100000"), vec![b'x'; 512 << 10]).await;
    publish(&client, delta, "keyframe", 2_000_002, Some("0/0"), vec![b'x'; 16]).await;
    for _ in 0..40 {
        publish(&client, delta, "keyframe", 2_000_003, Some("1/64"), vec![b'{'; 1000 << 10]).await;
    }
    // A flood of bad messages on both subjects.
    for i in 0..20_000u64 {
        publish(&client, delta, "delta", i, None, format!("{{\"flood\":{i}}}").into_bytes()).await;
        if i % 4 == 0 {
            publish(&client, trace, "events", i, None, format!("{{\"seq\":\"{i}\"}}\nnot json\n[{i}]\n").into_bytes()).await;
        }
    }
    client.flush().await.unwrap();
    let deadline = Instant::now() + PATIENCE;
    loop {
        let health = relay.health().await;
        if health["state"]["counts"]["invalid"].as_u64().unwrap() >= 20_000 {
            break;
        }
        assert!(Instant::now() < deadline, "the relay did not count the flood: {health}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(relay.alive(), "the relay outlived the hostile messages");
    let (_, tail) = relay.request("tools/call", json!({"name": "trace.tail", "arguments": {"afterSeq": 1.8446744073709552e19}})).await;
    assert_eq!(tail["result"]["structuredContent"]["events"], json!([]), "a page's float cursor is taken: {tail}");
    let grew = relay.rss_kib().saturating_sub(rss_before);
    assert!(grew < 128 << 10, "the relay grew by {grew} KiB holding hostile messages");

    // The viewer watching all along follows the world (each event it reads is parsed whole).
    let seen = server.call("main", "scene.createEntity", json!({"shape": "sphere"})).await["entity"].as_str().unwrap().to_string();
    watching
        .until(2000, |m| {
            assert!(m["method"] == "state/delta" || m["method"] == "state/snapshot", "{m}");
            holds(m, &seen).then_some(())
        })
        .await;
    // A viewer that joins now gets the world's true state, and follows it.
    let made = server.call("main", "scene.createEntity", json!({"shape": "capsule"})).await["entity"].as_str().unwrap().to_string();
    let mut events = Events::new(relay.subscribe().await);
    let start = events.next().await;
    assert!(is_full_state(&start), "{start}");
    if !holds(&start, &made) {
        events.until(2000, |m| holds(m, &made).then_some(())).await;
    }
    let later = server.call("main", "scene.createEntity", json!({"shape": "box"})).await["entity"].as_str().unwrap().to_string();
    events.until(2000, |m| holds(m, &later).then_some(())).await;
    drop(server);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn viewers_are_bounded_and_one_that_leaves_frees_its_place() {
    let nats = NatsServer::start();
    let _server = Server::start(&["--nats", &nats.url]);
    let relay = Relay::start(&format!("{}/main", nats.url));
    const MAX_VIEWERS: usize = 256;
    let mut open = Vec::new();
    for i in 0..MAX_VIEWERS {
        let r = relay.subscribe().await;
        assert_eq!(r.status(), StatusCode::OK, "viewer {i}");
        open.push(r);
    }
    let refused = relay.subscribe().await;
    assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(refused.headers()["retry-after"], "5");
    let (_, body) = crate::worlds::body(refused).await;
    assert!(body["error"]["message"].as_str().unwrap().contains("256 viewers"), "{body}");
    assert_eq!(relay.health().await["viewers"], MAX_VIEWERS);
    // One leaves: its place is free again (its task saw the stream close).
    drop(open.pop());
    let deadline = Instant::now() + PATIENCE;
    loop {
        let r = relay.subscribe().await;
        if r.status() == StatusCode::OK {
            open.push(r);
            break;
        }
        assert!(Instant::now() < deadline, "the place of a viewer that left was never freed");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Every one of them reads the same keyframe.
    let mut last = Events::new(open.pop().unwrap());
    assert!(is_full_state(&last.next().await));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_viewer_of_the_relay_outlives_nats_going_away_and_coming_back() {
    let mut nats = NatsServer::start();
    let server = Server::start(&["--nats", &nats.url]);
    let relay = Relay::start(&format!("{}/main", nats.url));
    let mut events = Events::new(relay.subscribe().await);
    assert!(is_full_state(&events.next().await));
    nats.kill9();
    nats.restart();
    // The world refuses writes while its log is unreachable (-32010); once NATS is back it
    // takes them again.
    let deadline = Instant::now() + PATIENCE;
    let made = loop {
        let (status, answer) =
            server.request("main", None, "tools/call", json!({"name": "scene.createEntity", "arguments": {"shape": "box"}})).await;
        if status == StatusCode::OK && answer["result"]["isError"] == false {
            break answer["result"]["structuredContent"]["entity"].as_str().unwrap().to_string();
        }
        assert!(Instant::now() < deadline, "the world never took a write after NATS came back: {answer}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    // The relay resubscribed by itself; its viewer sees the change (in a delta, or in the
    // keyframe that resyncs it after the messages lost while NATS was away).
    events.until(5000, |m| holds(m, &made).then_some(())).await;
    assert_eq!(relay.health().await["nats"]["connected"], true);
}

#[test]
fn bad_relay_options_are_refused_before_anything_starts() {
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_limina")).arg("spectate").args(args).output().unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (code, err) = run(&["nats://127.0.0.1:1/w", "--http", "localhost"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--http localhost") && err.contains("HOST:PORT"), "{err}");
    let (code, err) = run(&["nats://127.0.0.1:1/w", "--http", "127.0.0.1:0", "--count", "1"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--count"), "{err}");
    // No NATS there: the error names the server, after the connect timeout.
    let (code, err) = run(&["nats://127.0.0.1:1/w", "--http", "127.0.0.1:0", "--connect-timeout", "1"]);
    assert_ne!(code, Some(0), "{err}");
    assert!(err.contains("127.0.0.1:1"), "{err}");
}
