//! A fleet of `limina mcp --http --nats URL --fleet` processes against a real nats-server: one
//! member serves each world under a lease; when it is killed (SIGKILL) another takes the world
//! over from its log and serves it, with every acknowledged call in it and the same history on
//! replay; an owner paused (SIGSTOP) past its lease never acknowledges a write after it resumes;
//! members racing for a world leave one owner; any member redirects to the owner.

use std::collections::BTreeSet;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use rustix::process::{Pid, Signal, kill_process};
use serde_json::{Value, json};

use crate::nats_server::NatsServer;
use crate::worlds::{Server, body};

const V: &str = "2026-07-28";
/// Generous: the suite runs with both cores busy.
const PATIENCE: Duration = Duration::from_secs(90);
/// The default lease: shorter ones could lapse on a machine busy with the rest of the suite.
const TTL_MS: &str = "3000";

/// A fleet member named `node`, in a project folder of its own (as on another machine).
fn member(nats: &NatsServer, node: &str, extra: &[&str]) -> Server {
    let args = [&["--nats", &nats.url, "--fleet", "--node", node, "--lease-ttl-ms", TTL_MS, "--empty"][..], extra].concat();
    Server::start(&args)
}

fn signal(server: &Server, signal: Signal) {
    kill_process(Pid::from_raw(server.pid() as i32).unwrap(), signal).unwrap();
}

/// A stateless tool call on `world` at the member at `base`; `redirects` says whether a 307
/// is followed.
async fn call_at(http: &reqwest::Client, base: &str, world: &str, tool: &str, arguments: Value) -> Result<(StatusCode, Value), String> {
    let params = json!({"name": tool, "arguments": arguments,
        "_meta": {"io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {}}});
    let sent = http
        .post(format!("{base}/w/{world}/mcp"))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", V)
        .header("mcp-method", "tools/call")
        .header("mcp-name", tool)
        .timeout(Duration::from_secs(20))
        .body(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}).to_string())
        .send()
        .await
        .map_err(|e| e.to_string())?;
    Ok(body(sent).await)
}

/// The entity a creation made, if the answer says it succeeded.
fn created(answer: &Value) -> Option<String> {
    (answer["result"]["isError"] != true).then(|| answer["result"]["structuredContent"]["entity"].as_str().map(str::to_string)).flatten()
}

/// Who serves `world`, asked of the member at `base`.
async fn owner_at(http: &reqwest::Client, base: &str, world: &str) -> Option<(String, String)> {
    let answer = http.get(format!("{base}/w/{world}/where")).timeout(Duration::from_secs(5)).send().await.ok()?;
    let (status, found) = body(answer).await;
    if status != StatusCode::OK {
        return None;
    }
    let url = found["url"].as_str()?.trim_end_matches(&format!("/w/{world}/mcp")).to_string();
    Some((found["owner"].as_str()?.to_string(), url))
}

/// Waits until some member names an owner of `world` other than `not`; returns it.
async fn wait_for_owner(http: &reqwest::Client, bases: &[String], world: &str, not: Option<&str>) -> (String, String) {
    let started = Instant::now();
    loop {
        for base in bases {
            if let Some((owner, url)) = owner_at(http, base, world).await
                && Some(owner.as_str()) != not
            {
                return (owner, url);
            }
        }
        assert!(started.elapsed() < PATIENCE, "no member took world '{world}' over within {PATIENCE:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A client that keeps creating entities on `world`, finding the owner again through any
/// member whenever its calls fail; returns the entities whose creation was acknowledged.
async fn keep_creating(http: reqwest::Client, bases: Vec<String>, world: &str, n: u64, stop: Arc<AtomicBool>) -> BTreeSet<String> {
    let mut acknowledged = BTreeSet::new();
    let mut at = bases[0].clone();
    let mut i = 0u64;
    while !stop.load(Ordering::Relaxed) {
        i += 1;
        let arguments = json!({"shape": "box", "position": [n as f64, 1.0 + i as f64 * 0.01, 0.0]});
        match call_at(&http, &at, world, "scene.createEntity", arguments).await {
            Ok((StatusCode::OK, answer)) if created(&answer).is_some() => {
                acknowledged.insert(created(&answer).unwrap());
            }
            Ok((StatusCode::OK, answer)) => {
                // Only the clear errors of a world that is moving: not run, or not durable.
                assert_eq!(answer["error"]["code"], -32010, "{answer}");
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            Ok(_) | Err(_) => {
                for base in &bases {
                    if let Some((_, url)) = owner_at(&http, base, world).await {
                        at = url;
                        break;
                    }
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    }
    acknowledged
}

/// `limina ARGS` in `dir`: its stdout and stderr, asserting success.
fn limina(dir: &std::path::Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_limina")).args(args).current_dir(dir).output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{args:?}: {text}");
    text
}

fn field<'a>(text: &'a str, name: &str) -> &'a str {
    text.split_whitespace().find_map(|w| w.strip_prefix(name)).unwrap_or_else(|| panic!("no {name} in {text}"))
}

/// The entities a world holds, asked of the member at `base`.
async fn entities(http: &reqwest::Client, base: &str, world: &str) -> BTreeSet<String> {
    let (status, answer) = call_at(http, base, world, "scene.queryEntities", json!({})).await.unwrap();
    assert_eq!(status, StatusCode::OK, "{answer}");
    let found = &answer["result"]["structuredContent"]["entities"];
    found.as_array().unwrap_or_else(|| panic!("{answer}")).iter().filter_map(|e| e["entity"].as_str().map(str::to_string)).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_owner_killed_with_sigkill_fails_over_and_loses_nothing_acknowledged() {
    let nats = NatsServer::start();
    let snapshots = ["--checkpoint-every", "10", "--snapshot-every", "90"];
    let mut first = member(&nats, "n1", &[&snapshots[..], &["--world", "w=empty"]].concat());
    let second = member(&nats, "n2", &snapshots);
    let third = member(&nats, "n3", &snapshots);
    let bases = vec![first.base.clone(), second.base.clone(), third.base.clone()];
    let http = reqwest::Client::builder().no_proxy().build().unwrap();
    assert_eq!(owner_at(&http, &second.base, "w").await.map(|o| o.0), Some("n1".into()), "the creator serves it");

    // A request to a member that does not serve the world is sent to the one that does.
    let plain = reqwest::Client::builder().no_proxy().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let (status, _) = call_at(&plain, &second.base, "w", "scene.queryEntities", json!({})).await.unwrap();
    assert_eq!(status, StatusCode::TEMPORARY_REDIRECT);
    let (status, answer) = call_at(&http, &second.base, "w", "scene.queryEntities", json!({})).await.unwrap();
    assert_eq!(status, StatusCode::OK, "followed to the owner: {answer}");

    let stop = Arc::new(AtomicBool::new(false));
    let clients: Vec<_> = (0..2).map(|n| tokio::spawn(keep_creating(http.clone(), bases.clone(), "w", n, stop.clone()))).collect();
    tokio::time::sleep(Duration::from_secs(2)).await;
    first.kill();
    let killed = Instant::now();
    let (owner, url) = wait_for_owner(&http, &bases[1..], "w", Some("n1")).await;
    // Served again: a call succeeds at the new owner.
    loop {
        if let Ok((StatusCode::OK, answer)) = call_at(&http, &url, "w", "scene.queryEntities", json!({})).await
            && answer["result"]["isError"] != true
            && answer.get("error").is_none()
        {
            break;
        }
        assert!(killed.elapsed() < PATIENCE, "world 'w' was not served again within {PATIENCE:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    eprintln!("failover: {owner} serves world 'w' {:.2} s after its owner was killed", killed.elapsed().as_secs_f64());
    tokio::time::sleep(Duration::from_secs(2)).await;
    stop.store(true, Ordering::Relaxed);
    let mut acknowledged = BTreeSet::new();
    for client in clients {
        acknowledged.extend(client.await.unwrap());
    }
    assert!(acknowledged.len() > 20, "the clients made {} entities", acknowledged.len());

    // Every acknowledged call is in the world the new owner serves.
    let held = entities(&http, &url, "w").await;
    let lost: Vec<_> = acknowledged.difference(&held).collect();
    assert!(lost.is_empty(), "{} acknowledged creations are missing after the failover: {lost:?}", lost.len());

    // Only the owner retires it (a member that does not serve it says who does).
    let other = bases[1..].iter().find(|b| **b != url).unwrap();
    let (status, refused) = body(http.delete(format!("{other}/admin/worlds/w")).send().await.unwrap()).await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
    assert!(refused.as_str().unwrap_or_default().contains(&format!("{owner} serves it")), "{refused}");

    // Retired fleet-wide: the final state, and no member takes it over again.
    let answer = http.delete(format!("{url}/admin/worlds/w")).send().await.unwrap();
    let (status, retired) = body(answer).await;
    assert_eq!(status, StatusCode::OK, "{retired}");
    let (tick, hash) = (retired["tick"].as_u64().unwrap(), retired["worldHash"].as_str().unwrap().to_string());

    // The log, across both owners, replays with every checkpoint verified to the state retired.
    let dir = tempfile::tempdir().unwrap();
    let target = format!("{}/w", nats.url);
    let replayed = limina(dir.path(), &["replay", &target, "--verify"]);
    assert_eq!(field(&replayed, "world_hash="), hash, "{replayed}");
    assert_eq!(field(&replayed, "ticks="), tick.to_string(), "{replayed}");
    let recovered = limina(dir.path(), &["recover", &target]);
    assert_eq!(field(&recovered, "world_hash="), hash, "{recovered}");

    tokio::time::sleep(Duration::from_secs(3)).await;
    for base in &bases[1..] {
        let (_, health) = body(http.get(format!("{base}/health")).send().await.unwrap()).await;
        assert!(health["worlds"].as_array().unwrap().iter().all(|w| w["name"] != "w"), "retired, yet served: {health}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_frozen_owner_is_fenced_and_never_acknowledges_after_the_takeover() {
    let nats = NatsServer::start();
    let first = member(&nats, "p1", &["--world", "f=empty"]);
    let second = member(&nats, "p2", &[]);
    let http = reqwest::Client::builder().no_proxy().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let mut acknowledged = BTreeSet::new();
    for i in 0..20 {
        let (status, answer) =
            call_at(&http, &first.base, "f", "scene.createEntity", json!({"shape": "box", "position": [i, 1, 0]})).await.unwrap();
        assert_eq!(status, StatusCode::OK, "{answer}");
        acknowledged.insert(created(&answer).unwrap_or_else(|| panic!("{answer}")));
    }
    // Calls sent just before the freeze wait inside the frozen owner.
    let pending: Vec<_> = (0..4)
        .map(|i| {
            let (http, base) = (http.clone(), first.base.clone());
            tokio::spawn(async move {
                call_at(&http, &base, "f", "scene.createEntity", json!({"shape": "sphere", "position": [i, 5, 0]})).await
            })
        })
        .collect();
    signal(&first, Signal::STOP);
    let (owner, url) = wait_for_owner(&http, std::slice::from_ref(&second.base), "f", Some("p1")).await;
    assert_eq!(owner, "p2");
    let started = Instant::now();
    loop {
        let answer = call_at(&http, &url, "f", "scene.createEntity", json!({"shape": "box", "position": [9, 9, 9]})).await;
        if let Ok((StatusCode::OK, answer)) = answer
            && let Some(id) = created(&answer)
        {
            acknowledged.insert(id);
            break;
        }
        assert!(started.elapsed() < PATIENCE, "p2 acknowledged no write within {PATIENCE:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    signal(&first, Signal::CONT);

    // The resumed owner acknowledges nothing: whatever it answers is an error or a redirect.
    let mut answers = 0;
    let until = Instant::now() + Duration::from_secs(3);
    while Instant::now() < until {
        if let Ok((status, answer)) =
            call_at(&http, &first.base, "f", "scene.createEntity", json!({"shape": "box", "position": [7, 7, 7]})).await
        {
            answers += 1;
            assert!(status != StatusCode::OK || created(&answer).is_none(), "the fenced owner acknowledged a write: {answer}");
        }
    }
    assert!(answers > 0, "the resumed owner answered nothing");
    for call in pending {
        if let Ok(Ok((StatusCode::OK, answer))) = call.await
            && let Some(id) = created(&answer)
        {
            // Acknowledged before the take-over read the log: then it must be in it.
            acknowledged.insert(id);
        }
    }
    let held = entities(&http, &url, "f").await;
    let lost: Vec<_> = acknowledged.difference(&held).collect();
    assert!(lost.is_empty(), "acknowledged creations are missing: {lost:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn members_racing_for_a_world_leave_one_owner() {
    let nats = NatsServer::start();
    let starts: Vec<_> = ["r1", "r2", "r3"]
        .into_iter()
        .map(|node| {
            let url = nats.url.clone();
            std::thread::spawn(move || {
                let args = ["--nats", &url, "--fleet", "--node", node, "--lease-ttl-ms", TTL_MS, "--empty", "--world", "race=empty"];
                Server::start(&args)
            })
        })
        .collect();
    let members: Vec<Server> = starts.into_iter().map(|s| s.join().unwrap()).collect();
    let http = reqwest::Client::builder().no_proxy().build().unwrap();
    let mut serving = Vec::new();
    let mut owners = BTreeSet::new();
    for member in &members {
        let (_, health) = body(http.get(format!("{}/health", member.base)).send().await.unwrap()).await;
        if health["worlds"].as_array().unwrap().iter().any(|w| w["name"] == "race") {
            serving.push(health["fleet"]["node"].as_str().unwrap().to_string());
        }
        owners.insert(wait_for_owner(&http, std::slice::from_ref(&member.base), "race", None).await.0);
    }
    assert_eq!(serving.len(), 1, "members serving world 'race': {serving:?}");
    assert_eq!(owners.into_iter().collect::<Vec<_>>(), serving, "every member names the one that serves it");

    // The operator creates a world on any member; a second creation of the name, anywhere, is
    // refused.
    let create = |base: &str| http.post(format!("{base}/admin/worlds")).body(r#"{"name":"made","from":"empty"}"#).send();
    let (status, made) = body(create(&members[0].base).await.unwrap()).await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let (status, again) = body(create(&members[1].base).await.unwrap()).await;
    assert_eq!(status, StatusCode::CONFLICT, "{again}");
    // Another member learns of it at its next look.
    assert_eq!(wait_for_owner(&http, std::slice::from_ref(&members[2].base), "made", None).await.0, "r1");
}

#[test]
fn fleet_options_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    for (args, says) in [
        (&["--fleet"][..], "--nats"),
        (&["--nats", "nats://127.0.0.1:1", "--fleet", "--log-dir", "logs"][..], "JetStream alone"),
        (&["--nats", "nats://127.0.0.1:1", "--fleet", "--lease-ttl-ms", "10"][..], "outside 500..=60000"),
        (&["--nats", "nats://127.0.0.1:1", "--fleet", "--node", "a b"][..], "node name"),
        (&["--nats", "nats://127.0.0.1:1", "--fleet", "--advertise", "http://x/y"][..], "no path"),
        (&["--nats", "nats://127.0.0.1:1", "--fleet", "--advertise", "ftp://x"][..], "http://HOST:PORT"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_limina"))
            .args(["mcp", "--http", "--port", "0"])
            .args(args)
            .current_dir(dir.path())
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && text.contains(says), "{args:?}: {text}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_foreign_bad_line_in_the_log_costs_no_acknowledged_call_at_the_next_take_overs() {
    // Someone outside the fleet with publish rights writes a line that is no record into a
    // world's log. Its owner stops acknowledging (the log is no longer its alone). The member
    // that takes over recovers the world ending before the line and fences after it; at the take-
    // over after that, the line lies before the fence, not at the end: it must be passed over, not
    // end recovery there (which dropped every call the second owner acknowledged).
    let nats = NatsServer::start();
    let mut members = [member(&nats, "a", &["--world", "w=empty"]), member(&nats, "b", &[]), member(&nats, "c", &[])];
    let http = reqwest::Client::builder().no_proxy().build().unwrap();
    let bases: Vec<String> = members.iter().map(|m| m.base.clone()).collect();
    assert_eq!(wait_for_owner(&http, &bases[1..], "w", None).await.0, "a");
    let mut acknowledged = BTreeSet::new();
    let (_, first) = call_at(&http, &bases[0], "w", "scene.createEntity", json!({"shape": "box"})).await.unwrap();
    acknowledged.insert(created(&first).unwrap_or_else(|| panic!("{first}")));
    let client = async_nats::connect(nats.url.as_str()).await.unwrap();
    let js = async_nats::jetstream::new(client);
    js.publish("limina.log.w", "{\"not\": \"a record\"}\n".into()).await.unwrap().await.unwrap();
    let (_, refused) = call_at(&http, &bases[0], "w", "scene.createEntity", json!({"shape": "box"})).await.unwrap();
    assert_eq!(refused["error"]["code"], -32010, "the owner acknowledges nothing once another wrote its log: {refused}");
    let mut gone = vec!["a".to_string()];
    members[0].kill();
    let mut last = String::new();
    for round in 0..2 {
        let (owner, url) = loop {
            let found = wait_for_owner(&http, &bases, "w", Some(gone.last().unwrap())).await;
            if !gone.contains(&found.0) {
                break found;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        let served = url.clone();
        last = served.clone();
        // Everything acknowledged so far is in the world it serves (once it serves it: the lease
        // names the new owner while it recovers).
        let started = Instant::now();
        let held = loop {
            match call_at(&http, &served, "w", "scene.queryEntities", json!({})).await {
                Ok((StatusCode::OK, answer)) if answer["result"]["structuredContent"]["entities"].is_array() => {
                    let found = answer["result"]["structuredContent"]["entities"].as_array().unwrap().iter();
                    break found.filter_map(|e| e["entity"].as_str().map(str::to_string)).collect::<BTreeSet<_>>();
                }
                other => assert!(started.elapsed() < PATIENCE, "round {round}: {owner} never served world 'w': {other:?}"),
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        assert!(acknowledged.is_subset(&held), "round {round}: {owner} lost {:?}", acknowledged.difference(&held).collect::<Vec<_>>());
        if round == 1 {
            break;
        }
        for i in 0..3 {
            let (_, made) =
                call_at(&http, &served, "w", "scene.createEntity", json!({"shape": "sphere", "position": [i as f64, 1.0, 0.0]}))
                    .await
                    .unwrap();
            acknowledged.insert(created(&made).unwrap_or_else(|| panic!("{owner}: {made}")));
        }
        let index = bases.iter().position(|b| *b == served).unwrap();
        members[index].kill();
        gone.push(owner);
    }
    // Nobody gave up on the world.
    let (_, health) = body(http.get(format!("{last}/health")).send().await.unwrap()).await;
    assert_eq!(health["fleet"]["untaken"], json!([]), "{health}");
}
