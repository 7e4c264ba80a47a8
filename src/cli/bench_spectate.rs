//! `limina bench --only spectators`: what viewers of a world cost its server,
//! watching on the server itself (`state/subscribe` on `/w/W/mcp`) against watching through a
//! relay fed from NATS (`limina spectate nats://…/W --http`). A world at the reference density
//! (the same scene as the density figure) runs on a server with `--nats`; each round opens
//! `VIEWERS` event streams, reads every byte of them for `WINDOW`, and takes the server's CPU time
//! (user + system, from `/proc`), the world's steps per second, and for the relay its CPU time
//! and resident memory. Rounds with no viewers, first and last, are the baseline (their
//! difference is the machine's drift).

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::bench_worlds::{Nats, admin, start_with};

/// Viewers per round (under the 64 sessions a server gives one credential; more than two cores
/// can feed every delta of this world to, so the server's skipping shows).
const VIEWERS: usize = 16;
const WINDOW: Duration = Duration::from_secs(6);
/// Time a round lets its viewers start (each reads a keyframe) before it measures.
const SETTLE: Duration = Duration::from_secs(3);

/// CPU seconds (user + system) process `pid` has used.
fn cpu_seconds(pid: u32) -> anyhow::Result<f64> {
    stat_seconds(&std::fs::read_to_string(format!("/proc/{pid}/stat"))?)
}

/// CPU seconds the threads of `pid` named `name` (the server's sockets: `limina-net`) have used.
/// Threads that ended are not counted; these live as long as the server.
fn thread_seconds(pid: u32, name: &str) -> anyhow::Result<f64> {
    let mut total = 0.0;
    for task in std::fs::read_dir(format!("/proc/{pid}/task"))? {
        let task = task?.path();
        let comm = std::fs::read_to_string(task.join("comm")).unwrap_or_default();
        if comm.trim_end() == name {
            total += std::fs::read_to_string(task.join("stat")).map_or(Ok(0.0), |s| stat_seconds(&s))?;
        }
    }
    Ok(total)
}

/// User + system seconds of one `/proc/…/stat` line.
fn stat_seconds(stat: &str) -> anyhow::Result<f64> {
    // The fields after the command name (which may hold spaces) start after its `)`.
    let after = stat.rsplit_once(')').map(|(_, rest)| rest).ok_or_else(|| anyhow::anyhow!("a /proc stat line without ')'"))?;
    let fields: Vec<&str> = after.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the whole line: 12 and 13 after the name.
    let ticks: u64 =
        fields.get(11).zip(fields.get(12)).and_then(|(u, s)| Some(u.parse::<u64>().ok()? + s.parse::<u64>().ok()?)).unwrap_or(0);
    // USER_HZ as /proc reports it: 100 on Linux.
    Ok(ticks as f64 / 100.0)
}

/// A relay process and the link it printed.
struct Relay {
    child: Child,
    base: String,
    token: String,
}

impl Drop for Relay {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_relay(exe: &Path, url: &str) -> anyhow::Result<Relay> {
    use std::io::BufRead as _;
    let mut child =
        Command::new(exe).args(["spectate", url, "--http", "127.0.0.1:0"]).stdout(Stdio::null()).stderr(Stdio::piped()).spawn()?;
    let mut stderr = std::io::BufReader::new(child.stderr.take().ok_or_else(|| anyhow::anyhow!("no stderr"))?);
    let mut line = String::new();
    stderr.read_line(&mut line)?;
    std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
    let link = line.split_whitespace().find(|w| w.starts_with("http://")).ok_or_else(|| anyhow::anyhow!("no link in {line:?}"))?;
    let (base, token) = link.split_once("/#token=").ok_or_else(|| anyhow::anyhow!("no token in {link}"))?;
    Ok(Relay { child, base: base.to_string(), token: token.to_string() })
}

/// Opens one viewer's state stream at `url` (a handshake session first, as the page does) and
/// reads it into `read` until the task is aborted.
async fn open_viewer(
    client: &reqwest::Client,
    url: &str,
    token: Option<&str>,
    read: Arc<AtomicU64>,
) -> anyhow::Result<tokio::task::JoinHandle<()>> {
    let post = |body: Value, session: Option<&str>| {
        let mut req = client
            .post(url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(body.to_string());
        if let Some(token) = token {
            req = req.bearer_auth(token);
        }
        if let Some(session) = session {
            req = req.header("mcp-session-id", session).header("mcp-protocol-version", "2025-11-25");
        }
        req
    };
    let hello = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench-viewer", "version": "1"}}});
    let answer = post(hello, None).send().await?;
    anyhow::ensure!(answer.status().is_success(), "initialize: {}", answer.status());
    let session = answer.headers().get("mcp-session-id").and_then(|v| v.to_str().ok()).map(str::to_string);
    let _ = answer.bytes().await?;
    let _ = post(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}), session.as_deref()).send().await?;
    let mut stream = post(json!({"jsonrpc": "2.0", "id": 2, "method": "state/subscribe", "params": {}}), session.as_deref())
        .header("accept", "text/event-stream")
        .send()
        .await?;
    anyhow::ensure!(stream.status().is_success(), "state/subscribe: {}", stream.status());
    Ok(tokio::spawn(async move {
        while let Ok(Some(chunk)) = stream.chunk().await {
            read.fetch_add(chunk.len() as u64, Ordering::Relaxed);
        }
    }))
}

/// One round's figures.
struct Round {
    server_cpu: f64,
    /// Of it, the threads that serve sockets (what a viewer on the server costs beyond the
    /// delta the engine computes once for everyone).
    net_cpu: f64,
    steps: f64,
    relay_cpu: Option<f64>,
    relay_rss_mib: Option<f64>,
    per_viewer_kib_s: f64,
}

async fn steps_of(client: &reqwest::Client, base: &str, world: &str) -> anyhow::Result<u64> {
    let health = admin(client, base, reqwest::Method::GET, "/health", None).await?;
    health["worlds"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|w| w["name"] == world)
        .and_then(|w| w["tick"].as_u64())
        .ok_or_else(|| anyhow::anyhow!("no world {world} in /health: {health}"))
}

async fn round(client: &reqwest::Client, server: (u32, &str), world: &str, viewers: usize, relay: Option<&Relay>) -> anyhow::Result<Round> {
    let read = Arc::new(AtomicU64::new(0));
    let mut tasks = Vec::new();
    for _ in 0..viewers {
        let task = match relay {
            Some(relay) => open_viewer(client, &format!("{}/mcp", relay.base), Some(&relay.token), Arc::clone(&read)).await?,
            None => open_viewer(client, &format!("{}/w/{world}/mcp", server.1), None, Arc::clone(&read)).await?,
        };
        tasks.push(task);
    }
    tokio::time::sleep(SETTLE).await;
    let relay_pid = relay.map(|r| r.child.id());
    let (cpu0, net0, relay0, tick0, bytes0) = (
        cpu_seconds(server.0)?,
        thread_seconds(server.0, "limina-net")?,
        relay_pid.map(cpu_seconds).transpose()?,
        steps_of(client, server.1, world).await?,
        read.load(Ordering::Relaxed),
    );
    let started = Instant::now();
    tokio::time::sleep(WINDOW).await;
    let elapsed = started.elapsed().as_secs_f64();
    let (cpu1, net1, relay1, tick1, bytes1) = (
        cpu_seconds(server.0)?,
        thread_seconds(server.0, "limina-net")?,
        relay_pid.map(cpu_seconds).transpose()?,
        steps_of(client, server.1, world).await?,
        read.load(Ordering::Relaxed),
    );
    let relay_rss_mib = relay_pid.and_then(super::bench_worlds::rss_kib).map(|k| k as f64 / 1024.0);
    for task in tasks {
        task.abort();
    }
    Ok(Round {
        server_cpu: (cpu1 - cpu0) / elapsed,
        net_cpu: (net1 - net0) / elapsed,
        steps: tick1.saturating_sub(tick0) as f64 / elapsed,
        relay_cpu: relay0.zip(relay1).map(|(a, b)| (b - a) / elapsed),
        relay_rss_mib,
        per_viewer_kib_s: if viewers == 0 { 0.0 } else { (bytes1 - bytes0) as f64 / elapsed / viewers as f64 / 1024.0 },
    })
}

pub fn run() -> anyhow::Result<()> {
    let super::bench_worlds::Setup { exe, runtime, client, project } = super::bench_worlds::setup("spectators")?;
    let result = runtime.block_on(spectators(&exe, &project, &client));
    let _ = std::fs::remove_dir_all(&project);
    result
}

async fn spectators(exe: &Path, project: &Path, client: &reqwest::Client) -> anyhow::Result<()> {
    let Some(nats): Option<Nats> = super::bench_worlds::start_nats(&project.join("spectate"))? else {
        outln!("spectators: nats-server is not on PATH; viewers through NATS are not measured (.ci/deps installs it)");
        return Ok(());
    };
    let server = start_with(exe, project, &["--nats", nats.url.as_str()])?;
    let world = "watched";
    admin(client, &server.base, reqwest::Method::POST, "/admin/worlds", Some(json!({"name": world, "from": {"scene": "density.lua"}})))
        .await?;
    let relay = start_relay(exe, &format!("{}/{world}", nats.url))?;
    tokio::time::sleep(SETTLE).await;
    let pid = server.child.id();
    let alone = round(client, (pid, &server.base), world, 0, None).await?;
    let direct = round(client, (pid, &server.base), world, VIEWERS, None).await?;
    let relayed = round(client, (pid, &server.base), world, VIEWERS, Some(&relay)).await?;
    // The baseline again: how far the machine drifted over the rounds.
    let again = round(client, (pid, &server.base), world, 0, None).await?;
    outln!(
        "spectators: {VIEWERS} viewers of a world at the reference density, each reading its whole state stream ({:.0} s window)",
        WINDOW.as_secs_f64()
    );
    let row = |what: &str, r: &Round| {
        let relay = match (r.relay_cpu, r.relay_rss_mib) {
            (Some(cpu), Some(rss)) => format!("relay CPU {:>5.1}%  relay RSS {rss:>5.1} MiB", cpu * 100.0),
            _ => String::new(),
        };
        outln!(
            "spectators: {what:<18} server CPU {:>5.1}% (its socket threads {:>4.1}%)  world {:>5.1} steps/s  {:>6.1} KiB/s per viewer  {relay}",
            r.server_cpu * 100.0,
            r.net_cpu * 100.0,
            r.steps,
            r.per_viewer_kib_s
        );
    };
    row("no viewers", &alone);
    row("on the server", &direct);
    row("through a relay", &relayed);
    row("no viewers, again", &again);
    // Against the mean of the two baselines; signed: a change within the machine's noise (the
    // two baselines' difference) can come out below it.
    let baseline = (alone.server_cpu + again.server_cpu) / 2.0;
    let added = |r: &Round| (r.server_cpu - baseline) * 100.0;
    let net_baseline = (alone.net_cpu + again.net_cpu) / 2.0;
    let net_added = |r: &Round| (r.net_cpu - net_baseline) * 100.0;
    outln!(
        "spectators: {VIEWERS} viewers against none, the server's CPU: {:+.1} points watching on it ({:+.1} in its socket threads), {:+.1} through the relay ({:+.1}); the two baselines {:.1}% and {:.1}%; bytes per viewer x{:.2} through the relay",
        added(&direct),
        net_added(&direct),
        added(&relayed),
        net_added(&relayed),
        alone.server_cpu * 100.0,
        again.server_cpu * 100.0,
        relayed.per_viewer_kib_s / direct.per_viewer_kib_s.max(f64::MIN_POSITIVE)
    );
    drop(relay);
    drop(server);
    drop(nats);
    Ok(())
}
