//! Spectators through NATS (`limina mcp --http --nats URL`, `limina spectate`), against a real
//! `nats-server`: a subscriber to a world's subjects gets the deltas and trace events a change
//! through MCP causes, a late one gets a keyframe within 300 ticks, a world's clock never waits
//! for NATS (nobody reading, the server frozen or gone), a state too large for one NATS message
//! arrives in parts, and `limina spectate` prints the feeds as JSON lines.

use std::process::Command;
use std::time::{Duration, Instant};

use futures_util::StreamExt as _;
use serde_json::{Value, json};

use crate::nats_server::NatsServer;
use crate::worlds::Server;

/// Ticks between two keyframes (the server's `KEYFRAME_TICKS`).
const KEYFRAME_TICKS: u64 = 300;
/// How long a test waits for something that must come, before it fails (a guard, not a
/// measurement: a loaded machine only takes longer).
const PATIENCE: Duration = Duration::from_secs(60);

/// One message of a feed, as a consumer sees it.
#[derive(Debug)]
struct Got {
    kind: String,
    tick: u64,
    seq: u64,
    part: Option<String>,
    body: Vec<u8>,
}

fn got(message: async_nats::Message) -> Got {
    let header = |name: &str| message.headers.as_ref().and_then(|h| h.get(name)).map(|v| v.as_str().to_string());
    Got {
        kind: header("Limina-Kind").expect("every message says its kind"),
        tick: header("Limina-Tick").and_then(|t| t.parse().ok()).expect("and its tick"),
        seq: header("Limina-Seq").and_then(|t| t.parse().ok()).expect("and its number"),
        part: header("Limina-Part"),
        body: message.payload.to_vec(),
    }
}

async fn next(sub: &mut async_nats::Subscriber) -> Got {
    let message = tokio::time::timeout(PATIENCE, sub.next()).await.expect("a message within the patience").expect("subscribed");
    got(message)
}

/// Reads `sub` until `found` picks a message, giving up after `limit` messages.
async fn read_until<T>(sub: &mut async_nats::Subscriber, limit: usize, mut found: impl FnMut(&Got) -> Option<T>) -> T {
    for _ in 0..limit {
        let message = next(sub).await;
        if let Some(t) = found(&message) {
            return t;
        }
    }
    panic!("nothing found in {limit} messages");
}

fn json_of(body: &[u8]) -> Value {
    serde_json::from_slice(body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(body)))
}

async fn subscribe(nats: &NatsServer, subject: &str) -> (async_nats::Client, async_nats::Subscriber) {
    let client = async_nats::connect(nats.url.as_str()).await.unwrap();
    let sub = client.subscribe(subject.to_string()).await.unwrap();
    client.flush().await.unwrap();
    (client, sub)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_change_through_mcp_reaches_nats_as_a_delta_and_a_trace_event() {
    let nats = NatsServer::start();
    let server = Server::start(&["--nats", &nats.url, "--world", "room_1-b=empty"]);
    let (_c1, mut deltas) = subscribe(&nats, "limina.world.room_1-b.delta").await;
    let (_c2, mut trace) = subscribe(&nats, "limina.world.room_1-b.trace").await;
    let made = server.call("room_1-b", "scene.createEntity", json!({"shape": "box", "position": [1.0, 2.0, 3.0]})).await;
    let id = made["entity"].as_str().unwrap().to_string();
    // The delta that shows it: the notification a WebSocket subscriber gets, whole.
    let (tick, message) = read_until(&mut deltas, 2000, |m| {
        let body = json_of(&m.body);
        let created = body["params"]["created"].as_array()?;
        created.iter().any(|e| e["entity"] == id.as_str()).then(|| (m.tick, body.clone()))
    })
    .await;
    assert_eq!(message["jsonrpc"], "2.0");
    assert_eq!(message["method"], "state/delta");
    assert_eq!(message["params"]["kind"], "delta");
    assert_eq!(message["params"]["tick"], tick, "the header's tick is the message's");
    // The trace event that names the call.
    let event = read_until(&mut trace, 2000, |m| {
        assert_eq!(m.kind, "events");
        String::from_utf8(m.body.clone()).unwrap().lines().map(|l| json_of(l.as_bytes())).find(|e| {
            e["type"] == "skill.executed" && e["payload"]["skill"] == "scene.createEntity" && e["payload"]["input"]["shape"] == "box"
        })
    })
    .await;
    assert!(event["id"].as_str().unwrap().starts_with("evt_"), "{event}");
    assert_eq!(event["payload"]["input"]["position"], json!([1.0, 2.0, 3.0]), "{event}");
    // Another world's subjects carry nothing of this one.
    let (_c3, mut main) = subscribe(&nats, "limina.world.main.delta").await;
    server.call("room_1-b", "scene.createEntity", json!({"shape": "sphere"})).await;
    let other = read_until(&mut main, 50, |m| Some(json_of(&m.body))).await;
    // (Entity ids are per world: the one made there may share main's ground's id.)
    let text = other.to_string();
    assert!(!text.contains("[1.0,2.0,3.0]") && !text.contains("sphere"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_subscriber_gets_a_keyframe_within_300_ticks() {
    let nats = NatsServer::start();
    let server = Server::start(&["--nats", &nats.url, "--world", "w=empty"]);
    let made = server.call("w", "scene.createEntity", json!({"shape": "box"})).await;
    // Joins late: nothing changes in the world any more, so only keyframes carry its state.
    let (_client, mut sub) = subscribe(&nats, "limina.world.w.delta").await;
    let first = next(&mut sub).await;
    let mut seen = vec![(first.kind.clone(), first.tick)];
    let keyframe = if first.kind == "keyframe" {
        first
    } else {
        loop {
            let m = next(&mut sub).await;
            seen.push((m.kind.clone(), m.tick));
            if m.kind == "keyframe" {
                break m;
            }
        }
    };
    // Within 300 ticks of the first message this subscriber saw (a tick count, not a time).
    assert!(keyframe.tick <= seen[0].1 + KEYFRAME_TICKS, "{seen:?}");
    let body = json_of(&keyframe.body);
    assert_eq!((body["method"].as_str(), body["params"]["kind"].as_str()), (Some("state/snapshot"), Some("snapshot")));
    let entities = body["params"]["entities"].as_array().unwrap();
    assert!(entities.iter().any(|e| e["entity"] == made["entity"]), "the state made before it joined: {body}");
    // And the next one 300 ticks on.
    let again = read_until(&mut sub, 1000, |m| (m.kind == "keyframe").then_some(m.tick)).await;
    assert_eq!(again, keyframe.tick + KEYFRAME_TICKS);
}

/// The default world's tick, as `/health` reports it.
async fn tick_of(server: &Server) -> u64 {
    let (_, health) = server.health().await;
    health["worlds"].as_array().unwrap().iter().find(|w| w["name"] == "main").unwrap()["tick"].as_u64().unwrap()
}

/// Waits until the default world's tick passes `target`; fails if it stops short.
async fn ticks_past(server: &Server, target: u64) {
    let deadline = Instant::now() + PATIENCE;
    while tick_of(server).await < target {
        assert!(Instant::now() < deadline, "the world's clock stopped at {} (wanted {target})", tick_of(server).await);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_world_never_waits_for_nats_or_its_readers() {
    let mut nats = NatsServer::start();
    // A world whose every tick changes: 50 spheres in free fall fill the feed each step.
    let server = Server::start_with(&["--nats", &nats.url, "--scene", "falling.lua"], &[], |dir| {
        std::fs::write(
            dir.join("falling.lua"),
            "for i = 1, 50 do limina.call('scene.createEntity', {shape = 'sphere', dynamic = true, position = {i * 2, 400, 0}}) end",
        )
        .unwrap();
    });
    // A subscriber that never reads: the server buffers for it, then drops (its problem alone).
    let (_idle_client, _idle) = subscribe(&nats, "limina.world.main.delta").await;
    let start = tick_of(&server).await;
    // Far more messages than the feed's queue (64) holds.
    ticks_past(&server, start + 300).await;
    // NATS hangs (connected, nothing read): the publisher's queue fills and is skipped.
    nats.freeze();
    let frozen = tick_of(&server).await;
    ticks_past(&server, frozen + 300).await;
    nats.thaw();
    // NATS goes away altogether: publishing drops, the clock goes on.
    nats.stop();
    let gone = tick_of(&server).await;
    ticks_past(&server, gone + 300).await;
    // Back: a new subscriber is fed again, from a keyframe on.
    nats.restart();
    let deadline = Instant::now() + PATIENCE;
    let mut sub = loop {
        if let Ok(client) = async_nats::connect(nats.url.as_str()).await {
            let sub = client.subscribe("limina.world.main.delta").await.unwrap();
            client.flush().await.unwrap();
            break (client, sub);
        }
        assert!(Instant::now() < deadline, "nats-server did not come back");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let keyframe = read_until(&mut sub.1, 2000, |m| (m.kind == "keyframe").then(|| json_of(&m.body))).await;
    assert_eq!(keyframe["params"]["entities"].as_array().unwrap().len(), 50);
}

#[test]
fn a_state_larger_than_a_nats_message_arrives_in_parts_and_spectate_joins_them() {
    let nats = NatsServer::start();
    // About 2 MB of state: two parts or more of the server's 1 MiB messages.
    let server = Server::start_with(&["--nats", &nats.url, "--scene", "crowd.lua"], &[], |dir| {
        std::fs::write(
            dir.join("crowd.lua"),
            "for i = 1, 12000 do limina.call('scene.createEntity', {shape = 'box', static = true, position = {i % 100, 1, i // 100}}) end",
        )
        .unwrap();
    });
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let parts = runtime.block_on(async {
        let (_client, mut sub) = subscribe(&nats, "limina.world.main.delta").await;
        // A still world sends keyframes alone: read one whole, part by part.
        let mut parts = Vec::new();
        loop {
            let m = next(&mut sub).await;
            let Some(part) = m.part.clone() else { continue };
            let (index, count) = part.split_once('/').unwrap();
            if index == "1" {
                parts.clear();
            }
            assert_eq!(m.kind, "keyframe");
            parts.push(m);
            if index == count && parts.len().to_string() == count {
                break parts;
            }
        }
    });
    assert!(parts.len() >= 2, "{} parts", parts.len());
    assert!(parts.iter().all(|p| p.seq == parts[0].seq && p.body.len() <= 1 << 20));
    let whole: Vec<u8> = parts.iter().flat_map(|p| p.body.clone()).collect();
    assert_eq!(json_of(&whole)["params"]["entities"].as_array().unwrap().len(), 12000);
    // The command-line consumer puts the parts together too.
    let out =
        Command::new(env!("CARGO_BIN_EXE_limina")).args(["spectate", &format!("{}/main", nats.url), "--count", "1"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let line: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((line["feed"].as_str(), line["kind"].as_str()), (Some("state"), Some("keyframe")));
    assert_eq!(line["message"]["params"]["entities"].as_array().unwrap().len(), 12000);
    drop(server);
}

#[test]
fn spectate_prints_the_trace_as_json_lines_and_refuses_a_url_without_a_world() {
    let nats = NatsServer::start();
    let server = Server::start(&["--nats", &nats.url]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_limina"))
        .args(["spectate", &format!("{}/main", nats.url), "--trace", "--count", "1"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Something to trace once it listens: calls until it has printed (each call is traced).
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let deadline = Instant::now() + PATIENCE;
    let out = loop {
        runtime.block_on(server.call("main", "scene.queryEntities", json!({})));
        if child.try_wait().unwrap().is_some() {
            break child.wait_with_output().unwrap();
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            panic!("limina spectate printed nothing: {:?}", child.wait_with_output().unwrap());
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(!lines.is_empty());
    for line in &lines {
        assert_eq!(line["feed"], "trace", "{line}");
        assert!(line["event"]["type"].is_string() || line["gap"].is_object(), "{line}");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_limina")).args(["spectate", &nats.url]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("name the world"), "{}", String::from_utf8_lossy(&out.stderr));
}

/// The server process's resident memory, in bytes.
fn resident(server: &Server) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.pid())).unwrap();
    let kb: u64 = status.lines().find_map(|l| l.strip_prefix("VmRSS:")).unwrap().trim().trim_end_matches(" kB").trim().parse().unwrap();
    kb * 1024
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hung_nats_server_costs_the_feed_bounded_memory() {
    let mut nats = NatsServer::start();
    // 1500 spheres falling: every tick's delta is about 150 KB, 9 MB a second of world time.
    let server = Server::start_with(&["--nats", &nats.url, "--scene", "falling.lua"], &[], |dir| {
        std::fs::write(
            dir.join("falling.lua"),
            "for i = 1, 1500 do limina.call('scene.createEntity', {shape = 'sphere', dynamic = true, position = {i % 40 * 2, 4000 + i // 40 * 2, 0}}) end",
        )
        .unwrap();
    });
    let start = tick_of(&server).await;
    ticks_past(&server, start + 120).await;
    let before = resident(&server);
    // Hung: connected, nothing read. 1200 ticks of deltas is over 100 MB; what the feed keeps
    // is its queue (32 MiB at most, far less here: it is dropped from while the server hangs)
    // and what the connection took before it stopped taking. (A publisher that only awaited
    // the client grew by 63 MB here.)
    nats.freeze();
    let frozen = tick_of(&server).await;
    ticks_past(&server, frozen + 1200).await;
    let grown = resident(&server).saturating_sub(before);
    nats.thaw();
    eprintln!("resident memory grew by {} MB over 1200 ticks of a hung NATS", grown >> 20);
    assert!(grown < 40 << 20, "the server grew by {} MB while NATS hung", grown >> 20);
}
