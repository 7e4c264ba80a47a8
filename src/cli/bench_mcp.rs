//! `limina bench --only mcp`: the MCP transports measured end to end against a real server
//! process (the current executable): stdio round trips, server memory per WebSocket client,
//! cross-client propagation of a change, and the clock under load — ticks/s, the longest gap
//! between ticks and call latency with 64 clients calling as fast as they are answered, with a
//! client looping 1024² `render.capture`s (drawn off the engine thread), and with a subscriber
//! that stops reading, each against a no-load baseline measured in the same run.
//!
//! `LIMINA_BENCH_SERVER=/path/to/limina` runs the servers from another build (to compare one
//! build's server with another's under the same client).

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use jsonrpsee::core::client::{ClientT, Subscription, SubscriptionClientT};
use jsonrpsee::rpc_params;
use jsonrpsee_ws_client::{WsClient, WsClientBuilder};
use serde_json::{Value, json};

use super::bench::percentile;

pub fn run() -> anyhow::Result<()> {
    let exe = match std::env::var_os("LIMINA_BENCH_SERVER") {
        Some(path) => PathBuf::from(path),
        None => std::env::current_exe()?,
    };
    tools_list_sizes(&exe)?;
    stdio_round_trips(&exe)?;
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    let (mut server, url) = ws_server(&exe, &[])?;
    let result = runtime.block_on(http_and_ws_round_trips(&url));
    let _ = server.kill();
    let _ = server.wait();
    result?;
    let (mut server, url) = ws_server(&exe, &[])?;
    let pid = server.id();
    let result = runtime.block_on(websocket(&url, pid));
    let _ = server.kill();
    let _ = server.wait();
    result?;
    load(&exe, &runtime)
}

/// When the server last said it cut a client off.
type CutOffs = Arc<Mutex<Vec<Instant>>>;

/// Starts `limina mcp --ws` on a free port; returns it and its URL.
pub(super) fn ws_server(exe: &Path, extra: &[&str]) -> anyhow::Result<(Child, String)> {
    let (server, url, _) = ws_server_watched(exe, extra)?;
    Ok((server, url))
}

/// `ws_server`, also noting when the server reports a client cut off.
fn ws_server_watched(exe: &Path, extra: &[&str]) -> anyhow::Result<(Child, String, CutOffs)> {
    let mut server =
        Command::new(exe).args(["mcp", "--ws", "--port", "0"]).args(extra).stdout(Stdio::null()).stderr(Stdio::piped()).spawn()?;
    let mut announce = String::new();
    let mut stderr = BufReader::new(server.stderr.take().ok_or_else(|| anyhow::anyhow!("no stderr"))?);
    stderr.read_line(&mut announce)?;
    // Keep reading, so the server's warnings (a client cut off) show with the figures.
    let cut_offs = CutOffs::default();
    let seen = Arc::clone(&cut_offs);
    std::thread::spawn(move || {
        for line in stderr.lines() {
            let Ok(line) = line else { break };
            if line.contains("cut off")
                && let Ok(mut seen) = seen.lock()
            {
                seen.push(Instant::now());
            }
            eprintln!("  server: {line}");
        }
    });
    let url = announce
        .split_whitespace()
        .find(|w| w.starts_with("ws://"))
        .ok_or_else(|| anyhow::anyhow!("server did not announce: {announce}"))?
        .to_string();
    Ok((server, url, cut_offs))
}

/// What a builder's `tools/list` costs a client (every page's result, as sent) by default and with
/// `--tools all`: a tool definition is paid for in context on every turn. Bytes here; the Node
/// test `tests/node/token_budget.test.mjs` counts the same JSON in o200k tokens.
fn tools_list_sizes(exe: &Path) -> anyhow::Result<()> {
    let measure = |tools: &str| -> anyhow::Result<(usize, usize)> {
        let mut child = Command::new(exe)
            .args(["mcp", "--stdio", "--tools", tools])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let mut stdin = child.stdin.take().ok_or_else(|| anyhow::anyhow!("no stdin"))?;
        let mut stdout = BufReader::new(child.stdout.take().ok_or_else(|| anyhow::anyhow!("no stdout"))?);
        let mut ask = |id: u64, method: &str, params: Value| -> anyhow::Result<Value> {
            writeln!(stdin, "{}", json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))?;
            stdin.flush()?;
            let mut line = String::new();
            stdout.read_line(&mut line)?;
            Ok(serde_json::from_str(&line)?)
        };
        ask(0, "initialize", json!({"protocolVersion": "2025-11-25"}))?;
        let (mut count, mut bytes, mut cursor) = (0, 0, Value::Null);
        for id in 1..100 {
            let reply = ask(id, "tools/list", json!({"cursor": cursor}))?;
            let result = &reply["result"];
            count += result["tools"].as_array().map_or(0, Vec::len);
            bytes += result.to_string().len();
            match result.get("nextCursor") {
                Some(next) => cursor = next.clone(),
                None => break,
            }
        }
        drop(stdin);
        let _ = child.wait();
        Ok((count, bytes))
    };
    let (core, core_bytes) = measure("core")?;
    let (all, all_bytes) = measure("all")?;
    outln!(
        "mcp tools/list  builder.readWrite: default (core tier + discovery) {core} tools, {core_bytes} bytes; --tools all {all} tools, {all_bytes} bytes (default is {:.0}% of all)",
        ratio(core_bytes as f64, all_bytes as f64) * 100.0
    );
    Ok(())
}

fn stdio_round_trips(exe: &std::path::Path) -> anyhow::Result<()> {
    let t = stdio_call_latency(exe, &[])?;
    outln!(
        "mcp stdio    tools/call ecs.updateComponent round trip p50 {:.0} µs, p95 {:.0} µs (2000 calls); baseline ping round trip p50 {:.0} µs, p95 {:.0} µs",
        t.call_p50,
        t.call_p95,
        t.ping_p50,
        t.ping_p95
    );
    Ok(())
}

/// Round-trip times over stdio, in µs.
pub(super) struct StdioLatency {
    pub call_p50: f64,
    pub call_p95: f64,
    pub ping_p50: f64,
    pub ping_p95: f64,
}

/// 2000 `ecs.updateComponent` calls and 2000 pings, interleaved, against `limina mcp --stdio`
/// started with `extra` arguments.
pub(super) fn stdio_call_latency(exe: &std::path::Path, extra: &[&std::ffi::OsStr]) -> anyhow::Result<StdioLatency> {
    let mut child = Command::new(exe)
        .args(["mcp", "--stdio"])
        .args(extra)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let mut stdin = child.stdin.take().ok_or_else(|| anyhow::anyhow!("no stdin"))?;
    let mut stdout = BufReader::new(child.stdout.take().ok_or_else(|| anyhow::anyhow!("no stdout"))?);
    let mut line = String::new();
    let mut round_trip = |msg: &Value| -> anyhow::Result<(f64, Value)> {
        let t = Instant::now();
        writeln!(stdin, "{msg}")?;
        stdin.flush()?;
        line.clear();
        stdout.read_line(&mut line)?;
        Ok((t.elapsed().as_secs_f64() * 1e6, serde_json::from_str(&line)?))
    };
    round_trip(&json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25"}}))?;
    let (_, made) =
        round_trip(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "scene.createEntity", "arguments": {}}}))?;
    let entity = made["result"]["structuredContent"]["entity"].as_str().unwrap_or("ent_0001").to_string();
    let (mut calls, mut pings) = (Vec::new(), Vec::new());
    for i in 0..2000 {
        let args = json!({"entity": entity, "component": "position", "value": [i % 7, 1, 2]});
        calls.push(round_trip(&json!({"jsonrpc": "2.0", "id": 10 + i, "method": "tools/call", "params": {"name": "ecs.updateComponent", "arguments": args}}))?.0);
        pings.push(round_trip(&json!({"jsonrpc": "2.0", "id": 5000 + i, "method": "ping"}))?.0);
    }
    drop(stdin);
    let _ = child.wait();
    calls.sort_by(f64::total_cmp);
    pings.sort_by(f64::total_cmp);
    Ok(StdioLatency {
        call_p50: percentile(&calls, 0.5),
        call_p95: percentile(&calls, 0.95),
        ping_p50: percentile(&pings, 0.5),
        ping_p95: percentile(&pings, 0.95),
    })
}

/// The same call over Streamable HTTP (one session, keep-alive, JSON answers) and over WebSocket
/// against one server, interleaved so both see the same machine.
async fn http_and_ws_round_trips(ws_url: &str) -> anyhow::Result<()> {
    crate::agents::provider::install_crypto_provider();
    let http = reqwest::Client::builder().no_proxy().build()?;
    let endpoint = format!("{}/mcp", ws_url.replace("ws://", "http://"));
    let post = |body: Value, session: Option<&str>| {
        let mut req = http
            .post(&endpoint)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(body.to_string());
        if let Some(s) = session {
            req = req.header("mcp-session-id", s);
        }
        req
    };
    let init =
        post(json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25"}}), None).send().await?;
    let session = init.headers().get("mcp-session-id").and_then(|v| v.to_str().ok()).map(str::to_string);
    let session = session.ok_or_else(|| anyhow::anyhow!("initialize over HTTP gave no session id"))?;
    let made: Value = serde_json::from_str(
        &post(
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "scene.createEntity", "arguments": {}}}),
            Some(&session),
        )
        .send()
        .await?
        .text()
        .await?,
    )?;
    let entity = made["result"]["structuredContent"]["entity"].as_str().unwrap_or("ent_0001").to_string();
    // A caller, not a subscriber: nobody's deltas are built between the calls measured here.
    let ws = WsClientBuilder::default().build(ws_url).await?;
    let _: Value = ws.request("initialize", object(json!({"protocolVersion": "2025-11-25"}))).await?;
    let (mut over_http, mut over_ws) = (Vec::new(), Vec::new());
    for i in 0..2000 {
        let args = json!({"entity": entity, "component": "position", "value": [i % 7, 1, 2]});
        let t = Instant::now();
        let answer = post(
            json!({"jsonrpc": "2.0", "id": 10 + i, "method": "tools/call", "params": {"name": "ecs.updateComponent", "arguments": args}}),
            Some(&session),
        )
        .send()
        .await?
        .bytes()
        .await?;
        over_http.push(t.elapsed().as_secs_f64() * 1e6);
        if i == 0 && !answer.windows(15).any(|w| w == b"\"isError\":false") {
            anyhow::bail!("the HTTP call failed: {}", String::from_utf8_lossy(&answer));
        }
        let t = Instant::now();
        let _: Value = ws.request("tools/call", object(json!({"name": "ecs.updateComponent", "arguments": args}))).await?;
        over_ws.push(t.elapsed().as_secs_f64() * 1e6);
    }
    over_http.sort_by(f64::total_cmp);
    over_ws.sort_by(f64::total_cmp);
    outln!(
        "mcp http     tools/call ecs.updateComponent round trip p50 {:.0} µs, p95 {:.0} µs (2000 calls, one session, keep-alive, no subscribers); the same over WebSocket to the same server p50 {:.0} µs, p95 {:.0} µs",
        percentile(&over_http, 0.5),
        percentile(&over_http, 0.95),
        percentile(&over_ws, 0.5),
        percentile(&over_ws, 0.95)
    );
    Ok(())
}

fn rss_mib(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map(|k| k / 1024.0)
}

fn object(v: Value) -> serde_json::Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}

async fn connect(url: &str) -> anyhow::Result<(WsClient, Subscription<Value>)> {
    let c = WsClientBuilder::default().build(url).await?;
    let _: Value = c.request("initialize", object(json!({"protocolVersion": "2025-11-25"}))).await?;
    let mut sub: Subscription<Value> = c.subscribe("state/subscribe", rpc_params![], "state/unsubscribe").await?;
    sub.next().await;
    Ok((c, sub))
}

/// A sets the entity's x; the clock stops when B's delta shows that x.
async fn propagate(a: &WsClient, sub_b: &mut Subscription<Value>, entity: &str, rounds: usize) -> anyhow::Result<Vec<f64>> {
    let mut times = Vec::with_capacity(rounds);
    for i in 0..rounds {
        let x = (i % 1000) as f64 + 0.5;
        let args = json!({"name": "ecs.updateComponent", "arguments": {"entity": entity, "component": "position", "value": [x, 0, 0]}});
        let t = Instant::now();
        let _: Value = a.request("tools/call", object(args)).await?;
        loop {
            let Some(Ok(delta)) = sub_b.next().await else { anyhow::bail!("B's subscription ended") };
            if delta["changed"].as_array().is_some_and(|c| c.iter().any(|e| e["entity"] == entity && e["position"][0].as_f64() == Some(x)))
            {
                break;
            }
        }
        times.push(t.elapsed().as_secs_f64() * 1e6);
    }
    times.sort_by(f64::total_cmp);
    Ok(times)
}

async fn websocket(url: &str, pid: u32) -> anyhow::Result<()> {
    tokio::time::sleep(Duration::from_millis(200)).await;
    let idle = rss_mib(pid);
    let (a, _sub_a) = connect(url).await?;
    let made: Value = a.request("tools/call", object(json!({"name": "scene.createEntity", "arguments": {"static": true}}))).await?;
    let entity = made["structuredContent"]["entity"].as_str().unwrap_or("ent_0001").to_string();
    let (_b, mut sub_b) = connect(url).await?;
    let two = propagate(&a, &mut sub_b, &entity, 1000).await?;

    let mut others = Vec::new();
    for _ in 0..30 {
        others.push(connect(url).await?);
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let with_32 = rss_mib(pid);
    // The idle clients read their deltas as real clients would.
    let readers: Vec<_> = others
        .into_iter()
        .map(|(client, mut sub)| {
            tokio::spawn(async move {
                let _client = client;
                while let Some(Ok(_)) = sub.next().await {}
            })
        })
        .collect();
    let many = propagate(&a, &mut sub_b, &entity, 1000).await?;
    readers.iter().for_each(|r| r.abort());
    outln!(
        "mcp ws       A calls ecs.updateComponent -> B's state/delta shows it: p50 {:.0} µs, p95 {:.0} µs with 2 clients; p50 {:.0} µs, p95 {:.0} µs with 32 subscribed clients (1000 round trips each); reference engine p95 11000 µs with 2 clients",
        percentile(&two, 0.5),
        percentile(&two, 0.95),
        percentile(&many, 0.5),
        percentile(&many, 0.95)
    );
    if let (Some(before), Some(after)) = (idle, with_32) {
        outln!(
            "mcp ws       server RSS {before:.1} MiB idle, {after:.1} MiB with 32 subscribed clients: {:.0} KiB per client",
            (after - before) * 1024.0 / 32.0
        );
    }
    Ok(())
}

// The clock under load.

/// A marker the engine moves every tick (an observer watching only it gets one delta per tick),
/// 400 spheres in free fall (every tick changes them: ~50 KB deltas for whoever watches the whole
/// world) and 400 static entities the clients edit.
const LOAD_SCENE: &str = r#"
local marker = limina.call("scene.createEntity", { position = { 0, 0, 0 } }).result.entity
limina.on_step(function(tick)
	limina.call("ecs.updateComponent", { entity = marker, component = "position", value = { tick % 1000, 0, 0 } })
end)
for i = 0, 399 do
	limina.call("scene.createEntity", { shape = "sphere", dynamic = true, size = 0.5, position = { -100 - (i % 20) * 3, 50, math.floor(i / 20) * 3 } })
end
for i = 0, 399 do
	limina.call("scene.createEntity", { position = { 3000 + (i % 20) * 2, 0, math.floor(i / 20) * 2 }, static = true })
end
"#;
/// Ids of the static entities (after the marker and the spheres).
const FIRST_STATIC: usize = 402;
const STATICS: usize = 400;
const LOAD_CLIENTS: usize = 64;
const CALLS_PER_CLIENT: usize = 1000;
/// Calls each load client keeps in flight.
const WINDOW: usize = 4;

fn static_entity(i: usize) -> String {
    format!("ent_{:04}", FIRST_STATIC + i % STATICS)
}

fn edit(i: usize) -> serde_json::Map<String, Value> {
    object(
        json!({"name": "ecs.updateComponent", "arguments": {"entity": static_entity(i), "component": "position", "value": [3000 + i % 97, 1, 0]}}),
    )
}

/// What the observer saw of the clock between two instants.
struct ClockSeen {
    ticks_per_s: f64,
    max_gap_ms: f64,
    max_jump: u64,
}

/// Deltas about the marker, as (arrival, tick).
type Ticks = Arc<Mutex<Vec<(Instant, u64)>>>;

async fn observer(url: &str) -> anyhow::Result<(WsClient, Ticks, tokio::task::JoinHandle<()>)> {
    let c = WsClientBuilder::default().build(url).await?;
    let _: Value = c.request("initialize", object(json!({"protocolVersion": "2025-11-25"}))).await?;
    let _: Value = c.request("aoi/declare", object(json!({"center": [500, 0, 0], "radius": 600}))).await?;
    let mut sub: Subscription<Value> = c.subscribe("state/subscribe", rpc_params![], "state/unsubscribe").await?;
    let ticks: Ticks = Arc::default();
    let seen = Arc::clone(&ticks);
    let task = tokio::spawn(async move {
        while let Some(Ok(delta)) = sub.next().await {
            if let Some(tick) = delta["tick"].as_u64()
                && let Ok(mut seen) = seen.lock()
            {
                seen.push((Instant::now(), tick));
            }
        }
    });
    Ok((c, ticks, task))
}

fn clock_seen(ticks: &Ticks, from: Instant, to: Instant) -> ClockSeen {
    let seen: Vec<(Instant, u64)> =
        ticks.lock().map(|t| t.iter().copied().filter(|(at, _)| *at >= from && *at <= to).collect()).unwrap_or_default();
    let (Some(first), Some(last)) = (seen.first(), seen.last()) else {
        return ClockSeen { ticks_per_s: 0.0, max_gap_ms: (to - from).as_secs_f64() * 1e3, max_jump: 0 };
    };
    let span = (last.0 - first.0).as_secs_f64().max(1e-9);
    let max_gap = seen.windows(2).map(|w| w[1].0 - w[0].0).max().unwrap_or_default();
    // The wait before the first tick and after the last count as gaps too.
    let edges = (first.0 - from).max(to - last.0);
    ClockSeen {
        ticks_per_s: (last.1 - first.1) as f64 / span,
        max_gap_ms: max_gap.max(edges).as_secs_f64() * 1e3,
        max_jump: seen.windows(2).map(|w| w[1].1.saturating_sub(w[0].1)).max().unwrap_or(0),
    }
}

/// Sequential calls until `stop`; their latencies in µs.
async fn probe(c: &WsClient, stop: &AtomicBool) -> anyhow::Result<Vec<f64>> {
    let mut times = Vec::new();
    let mut i = 0;
    while !stop.load(Ordering::Relaxed) {
        let t = Instant::now();
        let _: Value = c.request("tools/call", edit(i)).await?;
        times.push(t.elapsed().as_secs_f64() * 1e6);
        i += 1;
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    times.sort_by(f64::total_cmp);
    Ok(times)
}

struct Latency {
    p50: f64,
    p95: f64,
    p99: f64,
    n: usize,
}

fn latency(sorted: &[f64]) -> Latency {
    Latency { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), p99: percentile(sorted, 0.99), n: sorted.len() }
}

/// CPU seconds used so far by the server's engine thread (its main thread) and by the whole
/// process, from /proc (None elsewhere).
pub(super) fn cpu_seconds(pid: u32) -> Option<(f64, f64)> {
    let read = |path: String| -> Option<f64> {
        let stat = std::fs::read_to_string(path).ok()?;
        // Fields after the parenthesised name: utime and stime are the 12th and 13th.
        let rest = stat.rsplit_once(')')?.1;
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let ticks = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
        Some(ticks / 100.0)
    };
    Some((read(format!("/proc/{pid}/task/{pid}/stat"))?, read(format!("/proc/{pid}/stat"))?))
}

/// "engine thread N% of a core, server process M%" over a phase.
fn cpu_used(pid: u32, before: Option<(f64, f64)>, took: Duration) -> String {
    match (before, cpu_seconds(pid)) {
        (Some((e0, p0)), Some((e1, p1))) => {
            let s = took.as_secs_f64().max(1e-9);
            format!("server CPU: engine thread {:.0}% of a core, whole process {:.0}%", (e1 - e0) / s * 100.0, (p1 - p0) / s * 100.0)
        }
        _ => "server CPU: not measured".to_string(),
    }
}

fn ratio(x: f64, base: f64) -> f64 {
    if base > 0.0 { x / base } else { f64::NAN }
}

fn load(exe: &Path, runtime: &tokio::runtime::Runtime) -> anyhow::Result<()> {
    let scene = std::env::temp_dir().join(format!("limina-bench-load-{}.lua", std::process::id()));
    std::fs::write(&scene, LOAD_SCENE)?;
    let scene_arg = scene.to_string_lossy().to_string();
    let (mut server, url, cut_offs) = ws_server_watched(exe, &["--scene", &scene_arg])?;
    let result = runtime.block_on(load_scenarios(&url, server.id(), &cut_offs));
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_file(&scene);
    result
}

async fn load_scenarios(url: &str, pid: u32, cut_offs: &CutOffs) -> anyhow::Result<()> {
    let (_observer, ticks, watching) = observer(url).await?;
    let prober = WsClientBuilder::default().build(url).await?;
    let _: Value = prober.request("initialize", object(json!({"protocolVersion": "2025-11-25"}))).await?;
    tokio::time::sleep(Duration::from_millis(500)).await;

    // Baseline: nothing but the observer and the probe.
    let stop = AtomicBool::new(false);
    let from = Instant::now();
    let cpu = cpu_seconds(pid);
    let (base_probe, ()) = tokio::join!(probe(&prober, &stop), async {
        tokio::time::sleep(Duration::from_secs(4)).await;
        stop.store(true, Ordering::Relaxed);
    });
    let base_clock = clock_seen(&ticks, from, Instant::now());
    let base = latency(&base_probe?);
    outln!(
        "mcp load     baseline, no load: {:.1} ticks/s, longest gap between ticks {:.0} ms (most steps at once {}); a probe's sequential ecs.updateComponent p50 {:.0} µs, p95 {:.0} µs, p99 {:.0} µs ({} calls); {}",
        base_clock.ticks_per_s,
        base_clock.max_gap_ms,
        base_clock.max_jump,
        base.p50,
        base.p95,
        base.p99,
        base.n,
        cpu_used(pid, cpu, from.elapsed())
    );

    // 64 clients, each keeping WINDOW calls in flight until it has made CALLS_PER_CLIENT.
    let mut clients = Vec::with_capacity(LOAD_CLIENTS);
    for _ in 0..LOAD_CLIENTS {
        let c = WsClientBuilder::default().build(url).await?;
        let _: Value = c.request("initialize", object(json!({"protocolVersion": "2025-11-25"}))).await?;
        clients.push(Arc::new(c));
    }
    let busy = Arc::new(AtomicUsize::new(0));
    let from = Instant::now();
    let cpu = cpu_seconds(pid);
    let mut tasks = Vec::new();
    for (n, c) in clients.iter().enumerate() {
        for lane in 0..WINDOW {
            let (c, busy) = (Arc::clone(c), Arc::clone(&busy));
            tasks.push(tokio::spawn(async move {
                let mut times = Vec::with_capacity(CALLS_PER_CLIENT / WINDOW);
                for k in (lane..CALLS_PER_CLIENT).step_by(WINDOW) {
                    let t = Instant::now();
                    match c.request::<Value, _>("tools/call", edit(n * CALLS_PER_CLIENT + k)).await {
                        Ok(_) => times.push(t.elapsed().as_secs_f64() * 1e6),
                        Err(e) if e.to_string().contains("busy") => {
                            busy.fetch_add(1, Ordering::Relaxed);
                        }
                        Err(e) => return Err(anyhow::anyhow!("a load call failed: {e}")),
                    }
                }
                Ok(times)
            }));
        }
    }
    let mut all = Vec::with_capacity(LOAD_CLIENTS * CALLS_PER_CLIENT);
    for t in tasks {
        all.extend(t.await??);
    }
    let took = from.elapsed();
    let load_clock = clock_seen(&ticks, from, Instant::now());
    all.sort_by(f64::total_cmp);
    let under = latency(&all);
    drop(clients);
    outln!(
        "mcp load     {LOAD_CLIENTS} clients × {CALLS_PER_CLIENT} ecs.updateComponent ({WINDOW} in flight each): {} answered in {:.1} s = {:.0} calls/s, {} busy; {:.1} ticks/s (×{:.2} of baseline), longest gap {:.0} ms (×{:.1}, most steps at once {}); call latency p50 {:.0} µs (×{:.1}), p95 {:.0} µs (×{:.1}), p99 {:.0} µs (×{:.1}); {}",
        under.n,
        took.as_secs_f64(),
        under.n as f64 / took.as_secs_f64(),
        busy.load(Ordering::Relaxed),
        load_clock.ticks_per_s,
        ratio(load_clock.ticks_per_s, base_clock.ticks_per_s),
        load_clock.max_gap_ms,
        ratio(load_clock.max_gap_ms, base_clock.max_gap_ms),
        load_clock.max_jump,
        under.p50,
        ratio(under.p50, base.p50),
        under.p95,
        ratio(under.p95, base.p95),
        under.p99,
        ratio(under.p99, base.p99),
        cpu_used(pid, cpu, took),
    );

    heavy_captures(url, pid, &ticks, &prober, &base_clock, &base).await?;

    // A subscriber to the whole world that never reads, while a writer edits the statics. It runs
    // until the server has cut the stalled client off and 2 s more, or 30 s.
    let mut stalled = raw_subscriber(url)?;
    let writer = WsClientBuilder::default().build(url).await?;
    let _: Value = writer.request("initialize", object(json!({"protocolVersion": "2025-11-25"}))).await?;
    let stop = AtomicBool::new(false);
    let from = Instant::now();
    let cpu = cpu_seconds(pid);
    let cut_seen = || cut_offs.lock().ok().and_then(|c| c.iter().copied().find(|at| *at >= from));
    let (stall_probe, writes, ()) = tokio::join!(
        probe(&prober, &stop),
        async {
            let mut i = 0usize;
            while !stop.load(Ordering::Relaxed) {
                let _: Value = writer.request("tools/call", edit(i)).await?;
                i += 1;
            }
            anyhow::Ok(i)
        },
        async {
            let limit = from + Duration::from_secs(30);
            while Instant::now() < limit && cut_seen().is_none_or(|at| at.elapsed() < Duration::from_secs(2)) {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            stop.store(true, Ordering::Relaxed);
        }
    );
    let took = from.elapsed();
    let stall_clock = clock_seen(&ticks, from, Instant::now());
    let stall_cpu = cpu_used(pid, cpu, took);
    let stall = latency(&stall_probe?);
    let writes = writes?;
    let cut_at = cut_seen().map(|at| at - from);
    let closed = tokio::task::spawn_blocking(move || closed_by_server(&mut stalled, Duration::from_secs(3))).await?;
    watching.abort();
    let verdict = match (cut_at, closed) {
        (Some(at), true) => format!("was cut off {:.1} s after it stopped reading", at.as_secs_f64()),
        (None, true) => "was disconnected".to_string(),
        (_, false) => format!("was still connected after {:.0} s", took.as_secs_f64()),
    };
    outln!(
        "mcp load     a subscriber to the whole world stops reading ({:.1} s, a writer making {} edits meanwhile): {:.1} ticks/s (×{:.2} of baseline), longest gap {:.0} ms (×{:.1}, most steps at once {}); the probe's p50 {:.0} µs (×{:.1}), p95 {:.0} µs (×{:.1}), p99 {:.0} µs (×{:.1}); {}; the stalled client {}",
        took.as_secs_f64(),
        writes,
        stall_clock.ticks_per_s,
        ratio(stall_clock.ticks_per_s, base_clock.ticks_per_s),
        stall_clock.max_gap_ms,
        ratio(stall_clock.max_gap_ms, base_clock.max_gap_ms),
        stall_clock.max_jump,
        stall.p50,
        ratio(stall.p50, base.p50),
        stall.p95,
        ratio(stall.p95, base.p95),
        stall.p99,
        ratio(stall.p99, base.p99),
        stall_cpu,
        verdict
    );
    Ok(())
}

/// Seconds a client loops captures while the probe and the observer measure.
const CAPTURE_SECONDS: u64 = 6;

/// One client loops 1024² `render.capture`s (each answered before the next) while the probe
/// calls and the observer watches the clock: a capture's drawing must not hold the steps or the
/// probe's calls.
async fn heavy_captures(
    url: &str,
    pid: u32,
    ticks: &Ticks,
    prober: &WsClient,
    base_clock: &ClockSeen,
    base: &Latency,
) -> anyhow::Result<()> {
    let capturer = WsClientBuilder::default().build(url).await?;
    let _: Value = capturer.request("initialize", object(json!({"protocolVersion": "2025-11-25"}))).await?;
    let args = object(json!({"name": "render.capture", "arguments": {"width": 1024, "height": 1024}}));
    // One first, outside the figures: it makes the renderer (a GPU device) and says whether
    // this machine can draw at all.
    let first: Value = capturer.request("tools/call", args.clone()).await?;
    if first["isError"] == json!(true) {
        outln!("mcp load     1024² captures: skipped, this server cannot draw ({})", first["content"][0]["text"]);
        return Ok(());
    }
    let stop = AtomicBool::new(false);
    let from = Instant::now();
    let cpu = cpu_seconds(pid);
    let (probed, captured, ()) = tokio::join!(
        probe(prober, &stop),
        async {
            let mut times = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                let t = Instant::now();
                let answer: Value = capturer.request("tools/call", args.clone()).await?;
                anyhow::ensure!(answer["isError"] == json!(false), "a capture failed: {}", answer["content"][0]["text"]);
                times.push(t.elapsed().as_secs_f64() * 1e3);
            }
            anyhow::Ok(times)
        },
        async {
            tokio::time::sleep(Duration::from_secs(CAPTURE_SECONDS)).await;
            stop.store(true, Ordering::Relaxed);
        }
    );
    let took = from.elapsed();
    let clock = clock_seen(ticks, from, Instant::now());
    let probe = latency(&probed?);
    let mut captured = captured?;
    captured.sort_by(f64::total_cmp);
    outln!(
        "mcp load     a client looping 1024² render.capture ({} in {:.1} s, each answered in p50 {:.0} ms, max {:.0} ms): {:.1} ticks/s (×{:.2} of baseline), longest gap {:.0} ms (×{:.1}, most steps at once {}); the probe's p50 {:.0} µs (×{:.1}), p95 {:.0} µs (×{:.1}), p99 {:.0} µs (×{:.1}); {}",
        captured.len(),
        took.as_secs_f64(),
        percentile(&captured, 0.5),
        captured.last().copied().unwrap_or(0.0),
        clock.ticks_per_s,
        ratio(clock.ticks_per_s, base_clock.ticks_per_s),
        clock.max_gap_ms,
        ratio(clock.max_gap_ms, base_clock.max_gap_ms),
        clock.max_jump,
        probe.p50,
        ratio(probe.p50, base.p50),
        probe.p95,
        ratio(probe.p95, base.p95),
        probe.p99,
        ratio(probe.p99, base.p99),
        cpu_used(pid, cpu, took),
    );
    Ok(())
}

/// Opens a WebSocket by hand and subscribes to the whole world; the caller then never reads.
pub(super) fn raw_subscriber(url: &str) -> anyhow::Result<std::net::TcpStream> {
    let addr = url.trim_start_matches("ws://").trim_end_matches('/');
    let mut s = std::net::TcpStream::connect(addr)?;
    write!(
        s,
        "GET / HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )?;
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        s.read_exact(&mut byte)?;
        head.push(byte[0]);
    }
    anyhow::ensure!(head.starts_with(b"HTTP/1.1 101"), "upgrade refused: {}", String::from_utf8_lossy(&head));
    let payload = br#"{"jsonrpc":"2.0","id":1,"method":"state/subscribe","params":[]}"#;
    // One masked text frame (an all-zero mask leaves the payload as it is).
    let mut frame = vec![0x81, 0x80 | payload.len() as u8, 0, 0, 0, 0];
    frame.extend_from_slice(payload);
    s.write_all(&frame)?;
    Ok(s)
}

/// Reads until the server closes the socket; false if it is still open after `wait`.
fn closed_by_server(s: &mut std::net::TcpStream, wait: Duration) -> bool {
    let deadline = Instant::now() + wait;
    if s.set_read_timeout(Some(Duration::from_millis(100))).is_err() {
        return false;
    }
    let mut buf = vec![0u8; 1 << 16];
    while Instant::now() < deadline {
        match s.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e)
                if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut | std::io::ErrorKind::Interrupted) => {}
            Err(_) => return true,
        }
    }
    false
}
