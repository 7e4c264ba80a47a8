//! `limina bench --only worlds`: what a world costs in a server of many (`limina mcp --http`,
//! `/admin/worlds`). Two figures, each against a baseline taken in the same run:
//!
//! - resident memory of a server with 20 idle (empty) worlds besides its default one, against the
//!   same server with its default world alone: the cost of one more idle world;
//! - how many worlds at the reference density (200 agents deciding every 30 ticks in dynamic
//!   bodies, 256 more bodies, 2,000 entities; `bench/density.lua`, built by a scene script like
//!   the `agents` section's) one process holds at 60 ticks/s: worlds are added one at a time
//!   until the slowest runs under 57 steps/s over a 3 s window.
//!
//! - acknowledged calls per second and their p50/p95 latency with no command log, the file log
//!   (`--log-dir`) and the log on JetStream (`--nats`, a `nats-server` started for the run when
//!   one is on PATH), the same load against each in turn.
//!
//! - failover time in a fleet (`bench_fleet`).
//!
//! The server is this binary (or `LIMINA_BENCH_SERVER`), run in a throwaway project.

use std::io::{BufRead as _, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// The reference density's world, as a scene script (after the agents section's policy).
const DENSITY: &str = include_str!("bench_density.lua");
const IDLE_WORLDS: usize = 20;
/// Worlds at density tried at most (each is a thread and ~20 MiB).
const MAX_DENSE: usize = 64;
/// Steps per second below which a world no longer keeps up.
const KEEPS_UP: f64 = 57.0;

pub(super) struct Server {
    pub child: Child,
    pub base: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(exe: &Path, project: &Path) -> anyhow::Result<Server> {
    start_with(exe, project, &[])
}

pub(super) fn start_with(exe: &Path, project: &Path, extra: &[&str]) -> anyhow::Result<Server> {
    let mut child = Command::new(exe)
        .args(["mcp", "--http", "--port", "0", "--empty"])
        .args(extra)
        .current_dir(project)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()?;
    let mut stderr = BufReader::new(child.stderr.take().ok_or_else(|| anyhow::anyhow!("no stderr"))?);
    let mut line = String::new();
    stderr.read_line(&mut line)?;
    std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
    let ws = line.split_whitespace().find(|w| w.starts_with("ws://")).ok_or_else(|| anyhow::anyhow!("no address in {line:?}"))?;
    Ok(Server { child, base: ws.replace("ws://", "http://") })
}

pub(super) fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status.lines().find_map(|l| l.strip_prefix("VmRSS:")).and_then(|v| v.split_whitespace().next()?.parse().ok())
}

pub(super) async fn admin(
    client: &reqwest::Client,
    base: &str,
    method: reqwest::Method,
    path: &str,
    body: Option<Value>,
) -> anyhow::Result<Value> {
    let mut req = client.request(method, format!("{base}{path}"));
    if let Some(body) = body {
        req = req.header("content-type", "application/json").body(body.to_string());
    }
    let answer = req.send().await?;
    let status = answer.status();
    let text = answer.text().await?;
    anyhow::ensure!(status.is_success(), "{path}: {status}: {text}");
    Ok(serde_json::from_str(&text).unwrap_or(Value::String(text)))
}

/// What a section that runs servers needs: the server binary (this one, or
/// `LIMINA_BENCH_SERVER`), a runtime and an HTTP client, and a throwaway project holding the
/// reference density's scene as `density.lua`.
pub(super) struct Setup {
    pub exe: PathBuf,
    pub runtime: tokio::runtime::Runtime,
    pub client: reqwest::Client,
    pub project: PathBuf,
}

pub(super) fn setup(section: &str) -> anyhow::Result<Setup> {
    let exe = match std::env::var_os("LIMINA_BENCH_SERVER") {
        Some(path) => PathBuf::from(path),
        None => std::env::current_exe()?,
    };
    crate::agents::provider::install_crypto_provider();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let client = reqwest::Client::builder().no_proxy().timeout(Duration::from_secs(300)).build()?;
    let project = std::env::temp_dir().join(format!("limina-bench-{section}-{}", crate::unguessable::hex(8)));
    std::fs::create_dir_all(&project)?;
    std::fs::write(project.join("density.lua"), format!("{}\n{DENSITY}", super::bench_agents::MILL_POLICY))?;
    Ok(Setup { exe, runtime, client, project })
}

pub fn run() -> anyhow::Result<()> {
    let Setup { exe, runtime, client, project } = setup("worlds")?;
    let result = runtime.block_on(async {
        log_backends(&exe, &project, &client).await?;
        idle_memory(&exe, &project, &client).await?;
        dense_worlds(&exe, &project, &client).await?;
        super::bench_fleet::failover(&exe, &project, &client).await
    });
    let _ = std::fs::remove_dir_all(&project);
    result
}

async fn idle_memory(exe: &Path, project: &Path, client: &reqwest::Client) -> anyhow::Result<()> {
    let server = start(exe, project)?;
    let pid = server.child.id();
    tokio::time::sleep(Duration::from_secs(1)).await;
    let alone = rss_kib(pid).unwrap_or(0);
    for i in 0..IDLE_WORLDS {
        admin(client, &server.base, reqwest::Method::POST, "/admin/worlds", Some(json!({"name": format!("idle{i}"), "from": "empty"})))
            .await?;
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    let with = rss_kib(pid).unwrap_or(0);
    let per = with.saturating_sub(alone) as f64 / IDLE_WORLDS as f64 / 1024.0;
    outln!(
        "worlds       memory: a server with its default world alone {:.1} MiB RSS; with {IDLE_WORLDS} idle empty worlds more {:.1} MiB: {per:.1} MiB per idle world",
        alone as f64 / 1024.0,
        with as f64 / 1024.0
    );
    Ok(())
}

/// The slowest rate among `names` over a window of `window`, from two `/health` readings.
async fn slowest(client: &reqwest::Client, base: &str, names: &[String], window: Duration) -> anyhow::Result<f64> {
    let ticks = |health: &Value| -> Vec<(String, u64)> {
        health["worlds"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|w| Some((w["name"].as_str()?.to_string(), w["tick"].as_u64()?)))
            .collect()
    };
    let first = ticks(&admin(client, base, reqwest::Method::GET, "/health", None).await?);
    let started = Instant::now();
    tokio::time::sleep(window).await;
    let second = ticks(&admin(client, base, reqwest::Method::GET, "/health", None).await?);
    let elapsed = started.elapsed().as_secs_f64();
    let mut slowest = f64::INFINITY;
    for name in names {
        let at = |list: &[(String, u64)]| list.iter().find(|(n, _)| n == name).map(|(_, t)| *t).unwrap_or(0);
        slowest = slowest.min(at(&second).saturating_sub(at(&first)) as f64 / elapsed);
    }
    Ok(slowest)
}

async fn dense_worlds(exe: &Path, project: &Path, client: &reqwest::Client) -> anyhow::Result<()> {
    let server = start(exe, project)?;
    let pid = server.child.id();
    let mut names = Vec::new();
    let mut held = 0;
    let mut last_rate = 0.0;
    for i in 0..MAX_DENSE {
        let name = format!("dense{i}");
        admin(client, &server.base, reqwest::Method::POST, "/admin/worlds", Some(json!({"name": name, "from": {"scene": "density.lua"}})))
            .await?;
        names.push(name);
        // Its agents join over its first 30 ticks; then every world is timed together.
        tokio::time::sleep(Duration::from_secs(2)).await;
        let rate = slowest(client, &server.base, &names, Duration::from_secs(3)).await?;
        outln!(
            "worlds       {} world(s) at the reference density: the slowest ran {rate:.1} steps/s; RSS {:.0} MiB",
            names.len(),
            rss_kib(pid).unwrap_or(0) as f64 / 1024.0
        );
        if rate < KEEPS_UP {
            last_rate = rate;
            break;
        }
        held = names.len();
    }
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let more = if held == MAX_DENSE { "the most tried: more may fit".to_string() } else { format!("one more: {last_rate:.1} steps/s") };
    outln!(
        "worlds       density: one process on {cores} cores holds {held} world(s) of 200 agents + 256 bodies + 2000 entities at >= {KEEPS_UP} steps/s ({more}); baseline: one such world alone is the first line"
    );
    Ok(())
}

/// Clients and calls each of the log comparison's load.
const CLIENTS: usize = 8;
const CALLS_EACH: usize = 250;

/// A `nats-server -js` for the run, in its own folder, on a free port.
pub(super) struct Nats {
    child: Child,
    pub url: String,
    dir: PathBuf,
}

impl Drop for Nats {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

pub(super) fn start_nats(project: &Path) -> anyhow::Result<Option<Nats>> {
    let dir = project.join("nats");
    std::fs::create_dir_all(&dir)?;
    let spawned = Command::new("nats-server")
        .args(["-js", "-a", "127.0.0.1", "-p", "-1", "-m", "-1", "-sd"])
        .arg(&dir)
        .arg("--ports_file_dir")
        .arg(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    let Ok(child) = spawned else { return Ok(None) };
    let ports = dir.join(format!("nats-server_{}.ports", child.id()));
    let mut nats = Nats { child, url: String::new(), dir };
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        if let Ok(text) = std::fs::read_to_string(&ports)
            && let Ok(value) = serde_json::from_str::<Value>(&text)
            && let Some(url) = value["nats"][0].as_str()
        {
            nats.url = url.to_string();
            return Ok(Some(nats));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    anyhow::bail!("nats-server did not say its port within 10 s")
}

/// A stateless `scene.createEntity` call of a box at `position` on the world at `url`.
pub(super) fn create_entity(client: &reqwest::Client, url: &str, position: [f64; 3]) -> reqwest::RequestBuilder {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "scene.createEntity", "arguments": {"shape": "box", "position": position},
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}});
    client
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", "scene.createEntity")
        .body(body.to_string())
}

/// `CLIENTS` clients each make `CALLS_EACH` creations, one at a time: calls/s and latencies.
async fn drive(client: &reqwest::Client, url: &str) -> anyhow::Result<(f64, Vec<f64>)> {
    let one = |n: usize| async move {
        let mut latencies = Vec::with_capacity(CALLS_EACH);
        for i in 0..CALLS_EACH {
            let started = Instant::now();
            let answer = create_entity(client, url, [n as f64, i as f64 * 0.01, 0.0]).send().await?.text().await?;
            anyhow::ensure!(answer.contains("\"entity\""), "a call failed: {answer}");
            latencies.push(started.elapsed().as_secs_f64() * 1e3);
        }
        Ok::<_, anyhow::Error>(latencies)
    };
    let started = Instant::now();
    let results = futures_util::future::join_all((0..CLIENTS).map(one)).await;
    let elapsed = started.elapsed().as_secs_f64();
    let mut all = Vec::new();
    for r in results {
        all.extend(r?);
    }
    all.sort_by(f64::total_cmp);
    Ok(((CLIENTS * CALLS_EACH) as f64 / elapsed, all))
}

async fn log_backends(exe: &Path, project: &Path, client: &reqwest::Client) -> anyhow::Result<()> {
    let nats = start_nats(project)?;
    let logs = project.join("logs").to_string_lossy().into_owned();
    let mut runs: Vec<(&str, Vec<String>)> = vec![("no log", Vec::new()), ("file log (--log-dir)", vec!["--log-dir".into(), logs])];
    match &nats {
        Some(nats) => runs.push(("JetStream (--nats)", vec!["--nats".into(), nats.url.clone()])),
        None => outln!("worlds       log: nats-server is not on PATH; the JetStream log is not measured (.ci/deps installs it)"),
    }
    let mut baseline = None;
    for (round, (name, extra)) in runs.iter().enumerate() {
        let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
        let world = format!("load{round}");
        let server = start_with(exe, project, &extra)?;
        admin(client, &server.base, reqwest::Method::POST, "/admin/worlds", Some(json!({"name": world, "from": "empty"}))).await?;
        let url = format!("{}/w/{world}/mcp", server.base);
        let (rate, latencies) = drive(client, &url).await?;
        let p = |q: f64| super::bench::percentile(&latencies, q);
        let base = *baseline.get_or_insert(rate);
        outln!(
            "worlds       log: {name:<22} {rate:>7.0} acknowledged calls/s (x{:.2} of no log), p50 {:.2} ms, p95 {:.2} ms ({CLIENTS} clients x {CALLS_EACH} creations, one at a time each)",
            rate / base,
            p(0.5),
            p(0.95)
        );
    }
    Ok(())
}
