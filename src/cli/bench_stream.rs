//! `limina bench --only stream`: what the state stream costs a server and sends a viewer, with
//! 2,000 dynamic bodies in free fall (every one moves every tick, so every delta carries them
//! all) watched by 0, 1, 8 and 32 viewers subscribed over real WebSockets: bytes per second per
//! viewer, and the server's CPU per viewer above the same world with nobody watching.
//!
//! Viewers read raw WebSocket frames and count their bytes without parsing them, so the bench's
//! own work stays small beside the server's on a small machine. Each viewer count gets a fresh
//! server (the bodies fall from the same height every time).
//!
//! `LIMINA_BENCH_BASELINE=/path/to/limina` measures that build's server too, in the same run, to
//! set a change to the stream beside the build it replaces (`LIMINA_BENCH_SERVER` replaces the
//! measured server as in `bench --only mcp`).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use jsonrpsee::core::client::ClientT;
use jsonrpsee_ws_client::WsClientBuilder;
use serde_json::{Value, json};

use super::bench_mcp::{cpu_seconds, raw_subscriber, ws_server};

const BODIES: usize = 2000;
const VIEWERS: [usize; 4] = [0, 1, 8, 32];
/// How long the viewers settle in (their snapshots) before the measured window.
const SETTLE: Duration = Duration::from_secs(1);
const MEASURE: Duration = Duration::from_secs(4);

pub fn run() -> anyhow::Result<()> {
    let exe = match std::env::var_os("LIMINA_BENCH_SERVER") {
        Some(path) => PathBuf::from(path),
        None => std::env::current_exe()?,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    let mut builds = vec![("this build", exe)];
    if let Some(path) = std::env::var_os("LIMINA_BENCH_BASELINE") {
        builds.push(("baseline", PathBuf::from(path)));
    }
    for (name, exe) in &builds {
        let mut base_cpu = None;
        for viewers in VIEWERS {
            let m = measure(exe, viewers, &runtime)?;
            let base = *base_cpu.get_or_insert(m.cpu_per_s);
            let per_viewer = if viewers == 0 { 0.0 } else { (m.cpu_per_s - base) / viewers as f64 * 100.0 };
            outln!(
                "stream       {name}: {BODIES} falling bodies, {viewers:>2} viewers: {:.2} MB/s per viewer ({:.1} messages/s), server CPU {:.0}% of a core ({:+.1}% per viewer over none), {:.0} ticks/s",
                m.bytes_per_s_per_viewer / 1e6,
                m.frames_per_s_per_viewer,
                m.cpu_per_s * 100.0,
                per_viewer,
                m.ticks_per_s,
            );
        }
    }
    Ok(())
}

struct Measured {
    bytes_per_s_per_viewer: f64,
    frames_per_s_per_viewer: f64,
    /// Server process CPU seconds per second.
    cpu_per_s: f64,
    ticks_per_s: f64,
}

fn measure(exe: &Path, viewers: usize, runtime: &tokio::runtime::Runtime) -> anyhow::Result<Measured> {
    let (mut server, url) = ws_server(exe, &[])?;
    let pid = server.id();
    let result = (|| -> anyhow::Result<Measured> {
        runtime.block_on(fill(&url))?;
        let stop = Arc::new(AtomicBool::new(false));
        let mut counters = Vec::new();
        let mut readers = Vec::new();
        for _ in 0..viewers {
            let mut s = raw_subscriber(&url)?;
            s.set_read_timeout(Some(Duration::from_millis(100)))?;
            let (bytes, frames) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
            counters.push((Arc::clone(&bytes), Arc::clone(&frames)));
            let stop = Arc::clone(&stop);
            readers.push(std::thread::spawn(move || read_counting(&mut s, &stop, &bytes, &frames)));
        }
        std::thread::sleep(SETTLE);
        let before: Vec<(u64, u64)> = counters.iter().map(|(b, f)| (b.load(Ordering::Relaxed), f.load(Ordering::Relaxed))).collect();
        let cpu = cpu_seconds(pid);
        // Older builds may lack `world.digest`: their tick rate is then not shown.
        let tick = runtime.block_on(tick_of(&url)).ok();
        let started = Instant::now();
        std::thread::sleep(MEASURE);
        let took = started.elapsed().as_secs_f64();
        let cpu_after = cpu_seconds(pid);
        let ticks = tick.and_then(|t| Some(runtime.block_on(tick_of(&url)).ok()?.saturating_sub(t)));
        let (mut bytes, mut frames) = (0u64, 0u64);
        for ((b, f), (b0, f0)) in counters.iter().zip(before) {
            bytes += b.load(Ordering::Relaxed) - b0;
            frames += f.load(Ordering::Relaxed) - f0;
        }
        stop.store(true, Ordering::Relaxed);
        for r in readers {
            let _ = r.join();
        }
        let n = viewers.max(1) as f64;
        Ok(Measured {
            bytes_per_s_per_viewer: bytes as f64 / took / n,
            frames_per_s_per_viewer: frames as f64 / took / n,
            cpu_per_s: match (cpu, cpu_after) {
                (Some((_, p0)), Some((_, p1))) => (p1 - p0) / took,
                _ => f64::NAN,
            },
            ticks_per_s: ticks.map_or(f64::NAN, |t| t as f64 / took),
        })
    })();
    let _ = server.kill();
    let _ = server.wait();
    result
}

/// Reads a viewer's socket until told to stop, counting bytes and (roughly) WebSocket frames:
/// each read that starts a text frame counts one.
fn read_counting(s: &mut std::net::TcpStream, stop: &AtomicBool, bytes: &AtomicU64, frames: &AtomicU64) {
    let mut buf = vec![0u8; 1 << 16];
    // Frames are found by walking their headers across reads.
    let mut skip: u64 = 0;
    let mut head: Vec<u8> = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        match s.read(&mut buf) {
            Ok(0) => return,
            Ok(n) => {
                bytes.fetch_add(n as u64, Ordering::Relaxed);
                let mut at = 0usize;
                while at < n {
                    if skip > 0 {
                        let take = skip.min((n - at) as u64);
                        skip -= take;
                        at += take as usize;
                        continue;
                    }
                    head.push(buf[at]);
                    at += 1;
                    if let Some(len) = frame_len(&head) {
                        frames.fetch_add(1, Ordering::Relaxed);
                        skip = len;
                        head.clear();
                    }
                }
            }
            Err(e)
                if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut | std::io::ErrorKind::Interrupted) => {}
            Err(_) => return,
        }
    }
}

/// A server frame's payload length once its header is complete (servers do not mask).
fn frame_len(head: &[u8]) -> Option<u64> {
    let short = u64::from(*head.get(1)? & 0x7f);
    match short {
        126 if head.len() == 4 => Some(u64::from(u16::from_be_bytes([head[2], head[3]]))),
        127 if head.len() == 10 => Some(u64::from_be_bytes(head[2..10].try_into().ok()?)),
        126 | 127 => None,
        n => Some(n),
    }
}

/// Makes the falling bodies: a 45 x 45 grid 3 m apart, high enough to fall for minutes.
async fn fill(url: &str) -> anyhow::Result<()> {
    let mut tasks = Vec::new();
    const CLIENTS: usize = 8;
    for c in 0..CLIENTS {
        let url = url.to_string();
        tasks.push(tokio::spawn(async move {
            let client = WsClientBuilder::default().build(&url).await?;
            let _: Value = client.request("initialize", object(json!({"protocolVersion": "2025-11-25"}))).await?;
            for i in (c..BODIES).step_by(CLIENTS) {
                let (x, z) = ((i % 45) as f64 * 3.0, (i / 45) as f64 * 3.0);
                let args =
                    json!({"name": "scene.createEntity", "arguments": {"shape": "box", "dynamic": true, "position": [x, 50_000.0, z]}});
                let r: Value = client.request("tools/call", object(args)).await?;
                anyhow::ensure!(r["isError"] != true, "create refused: {r}");
            }
            anyhow::Ok(())
        }));
    }
    for t in tasks {
        t.await??;
    }
    Ok(())
}

/// The server's tick now.
async fn tick_of(url: &str) -> anyhow::Result<u64> {
    let client = WsClientBuilder::default().build(url).await?;
    let _: Value = client.request("initialize", object(json!({"protocolVersion": "2025-11-25"}))).await?;
    let r: Value = client.request("tools/call", object(json!({"name": "world.digest", "arguments": {}}))).await?;
    r["structuredContent"]["tick"].as_u64().ok_or_else(|| anyhow::anyhow!("no tick in world.digest: {r}"))
}

fn object(v: Value) -> serde_json::Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => serde_json::Map::new(),
    }
}
