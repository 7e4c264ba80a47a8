//! Worlds whose command logs live on JetStream (`limina mcp --http --nats URL`), against a real
//! `nats-server`: what a client was told succeeded is on JetStream, replay and recovery read a
//! world back from it to the same hash as from the file log of the same run, and an outage of
//! NATS refuses or holds calls with a clear error and never acknowledges one that is then lost.

use std::collections::BTreeSet;
use std::process::Command;
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::json;

use crate::nats_server::NatsServer;
use crate::worlds::{Server, run_script};

/// `limina recover|replay TARGET` in `dir`: its world hash, or the whole output on failure.
fn hash_of(dir: &std::path::Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_limina")).args(args).current_dir(dir).output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{args:?}: {text}");
    text.split_whitespace().find_map(|w| w.strip_prefix("world_hash=")).unwrap_or_else(|| panic!("no hash in {text}")).to_string()
}

/// The entity ids a world holds.
async fn entity_ids(server: &Server, world: &str) -> BTreeSet<String> {
    let found = server.call(world, "scene.queryEntities", json!({})).await;
    found["entities"].as_array().unwrap().iter().filter_map(|e| e["entity"].as_str().map(str::to_string)).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replay_and_recover_from_jetstream_equal_the_file_log() {
    let nats = NatsServer::start();
    let args = ["--nats", &nats.url, "--log-dir", "logs", "--checkpoint-every", "1", "--snapshot-every", "25"];
    let mut server = Server::start(&[&args[..], &["--empty", "--paused", "--grant", "world.time", "--world", "a=empty"]].concat());
    run_script(&server, "a", 3).await;
    let live = server.report("a").await["worldHash"].as_str().unwrap().to_string();
    server.kill();
    let dir = server.dir.path();
    let target = format!("{}/a", nats.url);
    assert_eq!(hash_of(dir, &["recover", "logs/a"]), live, "the file log");
    assert_eq!(hash_of(dir, &["recover", &target]), live, "JetStream");
    assert_eq!(hash_of(dir, &["replay", &target, "--verify"]), live, "every checkpoint verified, from the beginning");
}

#[test]
fn a_name_whose_log_is_on_jetstream_is_refused_and_an_unreachable_nats_is_named() {
    let nats = NatsServer::start();
    let first = Server::start(&["--nats", &nats.url, "--world", "taken=empty"]);
    drop(first);
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_limina"))
        .args(["mcp", "--http", "--port", "0", "--nats", &nats.url, "--world", "taken=empty"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && text.contains("already has a log on JetStream"), "{text}");
    let out = Command::new(env!("CARGO_BIN_EXE_limina"))
        .args(["mcp", "--http", "--port", "0", "--nats", "nats://user:hunter2@127.0.0.1:1"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && text.contains("no connection to nats://"), "{text}");
    assert!(!text.contains("hunter2"), "credentials are never printed: {text}");
}

/// Drives `world` with creations from `clients` clients until `stop` says so; returns the ids of
/// the entities whose creation was acknowledged, and checks every answer is a success or a clear
/// -32010 (never another failure).
async fn load(server: &Server, world: &str, clients: u64, stop: &std::sync::atomic::AtomicBool) -> (BTreeSet<String>, usize) {
    let one = |n: u64| async move {
        let mut ok = BTreeSet::new();
        let mut refused = 0;
        let mut i = 0u64;
        while !stop.load(std::sync::atomic::Ordering::Relaxed) {
            let (status, answer) = server
                .request(world, None, "tools/call", json!({"name": "scene.createEntity", "arguments": {"shape": "box", "position": [n as f64, 1.0 + i as f64 * 0.01, 0.0]}}))
                .await;
            i += 1;
            if status == StatusCode::TOO_MANY_REQUESTS {
                continue;
            }
            assert_eq!(status, StatusCode::OK, "{answer}");
            if let Some(id) = answer["result"]["structuredContent"]["entity"].as_str() {
                assert_ne!(answer["result"]["isError"], true, "{answer}");
                ok.insert(id.to_string());
            } else {
                assert_eq!(answer["error"]["code"], -32010, "only a clear unavailable error: {answer}");
                let message = answer["error"]["message"].as_str().unwrap();
                assert!(message.contains("not run") || message.contains("not yet durable"), "{message}");
                refused += 1;
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
        (ok, refused)
    };
    let results = futures_util::future::join_all((0..clients).map(one)).await;
    results.into_iter().fold((BTreeSet::new(), 0), |(mut ids, n), (ok, refused)| {
        ids.extend(ok);
        (ids, n + refused)
    })
}

/// Recovers `world` from JetStream into a snapshot and serves it, to read its entities.
async fn recovered_ids(nats: &NatsServer, world: &str) -> BTreeSet<String> {
    let dir = tempfile::tempdir().unwrap();
    let target = format!("{}/{world}", nats.url);
    let out = Command::new(env!("CARGO_BIN_EXE_limina"))
        .args(["recover", &target, "--snapshot", "rec.snap"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let snapshot = dir.path().join("rec.snap");
    let server = Server::start(&["--resume", snapshot.to_str().unwrap(), "--paused"]);
    entity_ids(&server, "main").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_call_acknowledged_over_jetstream_survives_a_kill() {
    let nats = NatsServer::start();
    let mut server = Server::start(&["--nats", &nats.url, "--world", "w=empty", "--snapshot-every", "40"]);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let (acknowledged, _) = tokio::join!(load(&server, "w", 4, &stop), async {
        tokio::time::sleep(Duration::from_secs(2)).await;
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
    })
    .0;
    server.kill();
    assert!(acknowledged.len() > 20, "the load ran: {}", acknowledged.len());
    let recovered = recovered_ids(&nats, "w").await;
    let lost: Vec<_> = acknowledged.difference(&recovered).collect();
    assert!(lost.is_empty(), "{} acknowledged creations are not in the recovered world: {lost:?}", lost.len());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn nats_stopped_mid_load_never_acknowledges_then_loses() {
    let mut nats = NatsServer::start();
    let mut server = Server::start(&["--nats", &nats.url, "--world", "w=empty"]);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let outage = async {
        tokio::time::sleep(Duration::from_millis(800)).await;
        // Longer than an answer is held (5 s): a client that called meanwhile is told, whatever
        // the timing of its calls.
        nats.freeze();
        tokio::time::sleep(Duration::from_secs(6)).await;
        nats.thaw();
        tokio::time::sleep(Duration::from_millis(800)).await;
        nats.stop();
        tokio::time::sleep(Duration::from_secs(2)).await;
        nats.restart();
        // After NATS returns, calls succeed again.
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let (_, answer) = server.request("w", None, "tools/call", json!({"name": "scene.createEntity", "arguments": {}})).await;
            if answer["result"]["structuredContent"]["entity"].is_string() {
                break;
            }
            assert!(Instant::now() < deadline, "calls never succeeded again: {answer}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
    };
    let ((acknowledged, refused), ()) = tokio::join!(load(&server, "w", 3, &stop), outage);
    assert!(refused > 0, "the outage was seen by the clients");
    let (_, health) = server.health().await;
    assert_eq!(health["healthy"], true, "the world is writable again: {health}");
    server.kill();
    let recovered = recovered_ids(&nats, "w").await;
    let lost: Vec<_> = acknowledged.difference(&recovered).collect();
    assert!(lost.is_empty(), "{} acknowledged creations were lost: {lost:?}", lost.len());
}

/// Waits until `/health` says the default world's log is not writable for a reason holding
/// `because`.
fn wait_unwritable(runtime: &tokio::runtime::Runtime, server: &Server, because: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (status, health) = runtime.block_on(server.health());
        let main = &health["worlds"][0];
        if status == StatusCode::SERVICE_UNAVAILABLE
            && main["log"]["writable"] == false
            && main["log"]["why"].as_str().is_some_and(|why| why.contains(because))
        {
            return;
        }
        assert!(Instant::now() < deadline, "{health}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn health_says_when_a_worlds_log_is_not_writable() {
    let mut nats = NatsServer::start();
    let server = Server::start(&["--nats", &nats.url]);
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    // A hung server: the client stays connected, and nothing is acknowledged.
    nats.freeze();
    wait_unwritable(&runtime, &server, "acknowledged nothing");
    // A world's status does not wait for the remote (waiting stopped the world's clock for 5 s):
    // it says how much waits, rather than that a wait ran out.
    let after = runtime.block_on(server.report("main"));
    assert_eq!(after["durable"], false, "{after}");
    assert!(after["notDurable"].as_str().unwrap().contains("wait for the log's remote"), "{after}");
    nats.thaw();
    nats.stop();
    wait_unwritable(&runtime, &server, "unreachable");
}

#[test]
fn a_stream_made_with_settings_that_lose_messages_is_refused() {
    let nats = NatsServer::start();
    // Someone made the world's stream first, in memory and dropping old messages.
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let client = async_nats::connect(nats.url.as_str()).await.unwrap();
        let js = async_nats::jetstream::new(client);
        js.create_stream(async_nats::jetstream::stream::Config {
            name: "LIMINA_LOG_bad".into(),
            subjects: vec!["limina.log.bad".into()],
            storage: async_nats::jetstream::stream::StorageType::Memory,
            max_messages: 50,
            ..Default::default()
        })
        .await
        .unwrap();
    });
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_limina"))
        .args(["mcp", "--http", "--port", "0", "--nats", &nats.url, "--world", "bad=empty"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && text.contains("settings that can lose acknowledged messages"), "{text}");
    assert!(text.contains("storage is not file") && text.contains("may be deleted"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_call_made_while_nats_hangs_is_not_acknowledged_before_it_is_stored() {
    let mut nats = NatsServer::start();
    let mut server = Server::start(&["--nats", &nats.url, "--world", "w=empty"]);
    let before = server.call("w", "scene.createEntity", json!({"shape": "box"})).await;
    nats.freeze();
    // A hung server is still "connected": the call runs, and its answer waits for an
    // acknowledgement that does not come.
    let (status, answer) =
        server.request("w", None, "tools/call", json!({"name": "scene.createEntity", "arguments": {"shape": "sphere"}})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(answer["error"]["code"], -32010, "held, then told it is not yet durable: {answer}");
    assert!(answer["error"]["message"].as_str().unwrap().contains("not yet durable"), "{answer}");
    // Killed while NATS still hangs: what was never acknowledged may be lost, and was never
    // reported a success.
    server.kill();
    nats.thaw();
    let recovered = recovered_ids(&nats, "w").await;
    assert!(recovered.contains(before["entity"].as_str().unwrap()), "{recovered:?}");
}
