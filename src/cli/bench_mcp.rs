//! `limina bench --only mcp`: the MCP transports measured end to end against a real server
//! process (the current executable): stdio round trips, server memory per WebSocket client, and
//! cross-client propagation of a change.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use jsonrpsee::core::client::{ClientT, Subscription, SubscriptionClientT};
use jsonrpsee::rpc_params;
use jsonrpsee_ws_client::{WsClient, WsClientBuilder};
use serde_json::{Value, json};

use super::bench::percentile;

pub fn run() -> anyhow::Result<()> {
    let exe = std::env::current_exe()?;
    stdio_round_trips(&exe)?;
    let mut server = Command::new(&exe).args(["mcp", "--ws", "--port", "0"]).stdout(Stdio::null()).stderr(Stdio::piped()).spawn()?;
    let mut announce = String::new();
    BufReader::new(server.stderr.take().ok_or_else(|| anyhow::anyhow!("no stderr"))?).read_line(&mut announce)?;
    let url = announce
        .split_whitespace()
        .find(|w| w.starts_with("ws://"))
        .ok_or_else(|| anyhow::anyhow!("server did not announce: {announce}"))?
        .to_string();
    let pid = server.id();
    let result = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?.block_on(websocket(&url, pid));
    let _ = server.kill();
    let _ = server.wait();
    result
}

fn stdio_round_trips(exe: &std::path::Path) -> anyhow::Result<()> {
    let mut child =
        Command::new(exe).args(["mcp", "--stdio"]).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn()?;
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
    outln!(
        "mcp stdio    tools/call ecs.updateComponent round trip p50 {:.0} µs, p95 {:.0} µs (2000 calls); baseline ping round trip p50 {:.0} µs, p95 {:.0} µs",
        percentile(&calls, 0.5),
        percentile(&calls, 0.95),
        percentile(&pings, 0.5),
        percentile(&pings, 0.95)
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
