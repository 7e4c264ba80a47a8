//! The WebSocket server under load, as an attacker or a crowd would load it: calls must never
//! stop the clock (a per-tick budget, fair round-robin across clients, a clear `busy` when a
//! client's queue is full), and a subscriber that stops reading is cut off.
//!
//! None of these tests times anything: the server runs with a call budget of 0 ms (one call per
//! tick), each call reports the tick it ran at, and the assertions count calls per tick and
//! answers; a busier machine only makes everything slower, which keeps every bound true.

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use jsonrpsee::core::client::ClientT;
use jsonrpsee_ws_client::WsClient;
use serde_json::{Map, Value, json};

use crate::mcp_ws::{call, client, subscribe, wait_for};

/// The per-connection limit the server names in its `busy` error.
const QUEUE_LIMIT: usize = limina::mcp::server::MAX_CALLS_PER_CONNECTION;

/// A server whose stderr is kept, line by line, so a test can wait for what it reports.
struct Server {
    child: Child,
    url: String,
    log: mpsc::Receiver<String>,
    /// Everything it printed, for failure messages.
    seen: Vec<String>,
}

impl Server {
    fn start(extra: &[&str]) -> Self {
        Self::start_logging(extra, "warn")
    }

    /// `start`, logging at `level` (a `LIMINA_LOG` filter).
    fn start_logging(extra: &[&str], level: &str) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_limina"))
            .args(["mcp", "--ws", "--port", "0"])
            .args(extra)
            .env("LIMINA_LOG", level)
            .current_dir(crate::root())
            .stderr(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        let (tx, log) = mpsc::channel();
        let stderr = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            // Bytes, not `lines()`: a line that is not UTF-8 must not end the watch.
            for line in BufReader::new(stderr).split(b'\n') {
                let Ok(line) = line else { break };
                if tx.send(String::from_utf8_lossy(&line).into_owned()).is_err() {
                    break;
                }
            }
        });
        let first = log.recv_timeout(Duration::from_secs(60)).expect("the server announces its address");
        let url =
            first.split_whitespace().find(|w| w.starts_with("ws://")).unwrap_or_else(|| panic!("no address in {first:?}")).to_string();
        Self { child, url, log, seen: vec![first] }
    }

    /// Waits for a stderr line containing `needle`; on failure, says what the server did print.
    fn wait_for_log(&mut self, needle: &str, wait: Duration) -> String {
        let deadline = Instant::now() + wait;
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            match self.log.recv_timeout(left) {
                Ok(line) if line.contains(needle) => return line,
                Ok(line) => self.seen.push(line),
                Err(mpsc::RecvTimeoutError::Timeout) => break,
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    std::thread::sleep(Duration::from_millis(200));
                    let status = self.child.try_wait();
                    panic!("no {needle:?}: the server exited ({status:?}); it printed {:#?}", self.seen);
                }
            }
        }
        panic!("no {needle:?} within {wait:?}; the server printed {:#?}", self.seen);
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A server that runs at most one call between two ticks (a call budget of 0 ms still lets one
/// call through per tick), so every bound below is a count, whatever the machine's speed.
fn one_call_per_tick() -> Server {
    Server::start(&["--call-budget-ms", "0"])
}

fn obj(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap()
}

async fn ready(url: &str) -> WsClient {
    let c = client(url, None).await.unwrap();
    let _: Value = c.request("initialize", obj(json!({"protocolVersion": "2025-11-25"}))).await.unwrap();
    c
}

/// One call that reports the tick it ran at: Ok(tick) or Err(the JSON-RPC error text).
async fn tick_call(c: &WsClient) -> Result<u64, String> {
    match c.request::<Value, _>("tools/call", obj(json!({"name": "inspector.snapshot", "arguments": {"limit": 0}}))).await {
        Ok(r) => r["structuredContent"]["world"]["tick"].as_u64().ok_or_else(|| format!("no tick in {r}")),
        Err(e) => Err(e.to_string()),
    }
}

/// The world's hash, by a read-only call.
async fn world_hash(c: &WsClient) -> String {
    let r: Value = c.request("tools/call", obj(json!({"name": "inspector.snapshot", "arguments": {"limit": 0}}))).await.unwrap();
    r["structuredContent"]["world"]["hash"].as_str().unwrap().to_string()
}

/// After an attack: the engine still ticks and a benign package (scripts/greet.luau) still answers.
async fn still_serving(c: &WsClient, after_tick: u64) {
    let greet = call(c, "mods.greet", json!({"name": "load test"})).await;
    assert_eq!(greet["isError"], false, "a benign package answers: {greet}");
    let mut tick = tick_call(c).await.unwrap();
    for _ in 0..100 {
        if tick > after_tick {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        tick = tick_call(c).await.unwrap();
    }
    assert!(tick > after_tick, "the engine still ticks (tick {tick}, was {after_tick})");
}

/// `n` calls sent at once (pipelined) on one connection.
async fn flood(c: &Arc<WsClient>, n: usize) -> Vec<Result<u64, String>> {
    let calls = (0..n).map(|_| {
        let c = Arc::clone(c);
        tokio::spawn(async move { tick_call(&c).await })
    });
    let mut out = Vec::with_capacity(n);
    for h in calls.collect::<Vec<_>>() {
        out.push(h.await.unwrap());
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_beyond_the_tick_budget_wait_for_later_ticks() {
    let server = one_call_per_tick();
    let c = Arc::new(ready(&server.url).await);
    let ticks: Vec<u64> = flood(&c, 60).await.into_iter().map(|r| r.expect("every call succeeds")).collect();
    let mut per_tick = std::collections::BTreeMap::<u64, usize>::new();
    for t in &ticks {
        *per_tick.entry(*t).or_default() += 1;
    }
    let most = per_tick.values().copied().max().unwrap_or(0);
    // Every call past the budget waits for a later tick instead of holding the world back.
    assert_eq!(most, 1, "{most} calls ran between two ticks (calls per tick: {per_tick:?})");
    assert_eq!(per_tick.len(), 60);
    still_serving(&c, *ticks.iter().max().unwrap()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_flooding_client_cannot_starve_anothers_single_call() {
    let server = one_call_per_tick();
    let flooder = Arc::new(ready(&server.url).await);
    let other = ready(&server.url).await;
    // The flood: 60 calls queued at once (within the connection's limit of 64), each numbered in
    // the order it was sent, reporting the tick it ran at.
    let sent = Arc::new(AtomicUsize::new(0));
    let answered = Arc::new(AtomicUsize::new(0));
    let calls: Vec<_> = (0..60)
        .map(|_| {
            let (flooder, sent, answered) = (Arc::clone(&flooder), Arc::clone(&sent), Arc::clone(&answered));
            tokio::spawn(async move {
                let order = sent.fetch_add(1, Ordering::SeqCst);
                let tick = tick_call(&flooder).await;
                answered.fetch_add(1, Ordering::SeqCst);
                (order, tick)
            })
        })
        .collect();
    // Once the engine is working through the flood, the other client asks once.
    while answered.load(Ordering::SeqCst) == 0 {
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    let sent_before = sent.load(Ordering::SeqCst);
    let asked_at = tick_call(&other).await.expect("the single call succeeds");
    let mut flood = Vec::new();
    for call in calls {
        let (order, tick) = call.await.unwrap();
        flood.push((order, tick.expect("the flood itself is served in full")));
    }
    // Fair turns: the single call overtakes flood calls queued before it, instead of waiting
    // for all of them. Counted in ticks the server reports, not in time: however slowly this
    // client's request travels, a server that served the queue in arrival order would run every
    // one of those earlier calls first (one call per tick).
    let overtaken = flood.iter().filter(|(order, tick)| *order < sent_before && *tick > asked_at).count();
    assert!(
        overtaken > 0,
        "the single call (tick {asked_at}) waited for all {sent_before} flood calls sent before it: {:?}",
        flood.iter().map(|(_, t)| t).collect::<Vec<_>>()
    );
    let last = flood.iter().map(|(_, t)| *t).max().unwrap();
    still_serving(&other, last).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flooding_client_is_told_busy_naming_the_limit_and_nothing_is_lost() {
    let server = one_call_per_tick();
    let c = Arc::new(ready(&server.url).await);
    let hash = world_hash(&c).await;
    let results = flood(&c, 200).await;
    let ok: Vec<u64> = results.iter().filter_map(|r| r.as_ref().ok().copied()).collect();
    let busy: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    assert_eq!(ok.len() + busy.len(), 200, "every call is answered");
    assert!(busy.len() >= 100, "200 calls at once, one served per tick, overflow a queue of {QUEUE_LIMIT}: {} busy", busy.len());
    for e in &busy {
        assert!(e.contains("-32003") && e.contains("busy") && e.contains(&QUEUE_LIMIT.to_string()), "a busy error names the limit: {e}");
    }
    // Backpressure, not a ban: the next call after the flood succeeds; refused calls did nothing.
    still_serving(&c, ok.iter().copied().max().unwrap_or(0)).await;
    assert_eq!(world_hash(&c).await, hash, "the world is as it was (the flood only read it)");
}

// A client that subscribes and then never reads a byte.

/// Opens a WebSocket by hand and subscribes to state deltas; the caller never reads.
fn raw_subscriber(url: &str) -> TcpStream {
    let mut s = raw_websocket(url);
    s.write_all(&text_frame(br#"{"jsonrpc":"2.0","id":1,"method":"state/subscribe","params":[]}"#)).unwrap();
    s
}

/// A masked WebSocket text frame (the all-zero mask leaves the payload as it is).
fn text_frame(payload: &[u8]) -> Vec<u8> {
    let mut frame = vec![0x81];
    match payload.len() {
        n if n < 126 => frame.push(0x80 | n as u8),
        n => {
            frame.push(0x80 | 126);
            frame.extend_from_slice(&u16::try_from(n).unwrap().to_be_bytes());
        }
    }
    frame.extend_from_slice(&[0, 0, 0, 0]);
    frame.extend_from_slice(payload);
    frame
}

/// Opens a WebSocket by hand, with a receive buffer of a few KB.
fn raw_websocket(url: &str) -> TcpStream {
    let addr: std::net::SocketAddr = url.trim_start_matches("ws://").trim_end_matches('/').parse().unwrap();
    // A receive buffer of a few KB (set before connecting, so the window stays small): the
    // server's queue for this client is full after a few deltas, whatever the machine's speed.
    let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    socket.connect(&addr.into()).unwrap();
    let mut s: TcpStream = socket.into();
    write!(
        s,
        "GET / HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    .unwrap();
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        s.read_exact(&mut byte).unwrap();
        head.push(byte[0]);
    }
    assert!(head.starts_with(b"HTTP/1.1 101"), "{}", String::from_utf8_lossy(&head));
    s
}

/// Reads until the server closes the socket; false if it is still open after `wait`.
fn closed_by_server(s: &mut TcpStream, wait: Duration) -> bool {
    let deadline = Instant::now() + wait;
    s.set_read_timeout(Some(Duration::from_millis(200))).unwrap();
    let mut buf = vec![0u8; 1 << 16];
    while Instant::now() < deadline {
        match s.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut | ErrorKind::Interrupted) => {}
            Err(_) => return true,
        }
    }
    false
}

fn falling_scene(dir: &Path) -> String {
    // 800 spheres in free fall, far apart: every tick changes every entity, so each delta is
    // ~100 KB and a client that does not read falls megabytes behind within seconds.
    let scene = r#"
for i = 0, 799 do
	limina.call("scene.createEntity", { shape = "sphere", dynamic = true, size = 0.5, position = { (i % 40) * 3, 50, math.floor(i / 40) * 3 } })
end
"#;
    let path = dir.join("falling.lua");
    std::fs::write(&path, scene).unwrap();
    path.to_str().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow: runs with the full suite (cargo test -- --include-ignored)"]
async fn a_subscriber_that_never_reads_is_cut_off_and_the_others_carry_on() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::start(&["--scene", &falling_scene(dir.path())]);
    let healthy = ready(&server.url).await;
    let tick_before = tick_call(&healthy).await.unwrap();
    let mut stalled = raw_subscriber(&server.url);
    // The healthy client only calls while the stalled one falls behind: a subscriber of its own
    // would have to keep up, which on a starved test machine is itself a race with the cut-off.
    // Only the server's own report ends the wait: no clock in this test decides anything.
    let cut = tokio::task::spawn_blocking(move || (server.wait_for_log("cut off", Duration::from_secs(180)), server));
    let (line, server) = cut.await.unwrap();
    // Its delta queue full for 180 ticks, or its socket taking nothing for 3 s: whichever the
    // server sees first.
    assert!(
        (line.contains("full for 180 ticks") || line.contains("taken for 3 s")) && line.contains("stopped reading"),
        "the log says why: {line}"
    );
    assert!(
        tokio::task::spawn_blocking(move || closed_by_server(&mut stalled, Duration::from_secs(30))).await.unwrap(),
        "its socket is closed"
    );

    // The others carry on: calls are served, a package answers, the clock runs, deltas flow.
    let made = call(&healthy, "scene.createEntity", json!({"position": [0, -5, 0], "static": true})).await;
    assert_eq!(made["isError"], false, "{made}");
    still_serving(&healthy, tick_before).await;
    let mut sub = subscribe(&healthy).await;
    let a = wait_for(&mut sub, Duration::from_secs(10), |_| true).await.expect("a delta after the cut-off");
    let b = wait_for(&mut sub, Duration::from_secs(10), |_| true).await.expect("and another");
    assert!(b["tick"].as_u64() > a["tick"].as_u64(), "the clock still runs: {} then {}", a["tick"], b["tick"]);
    drop(server);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_whose_stderr_was_closed_keeps_serving() {
    // Warnings go to stderr (a cut-off client, a failing step callback). A parent that stops
    // reading our stderr must not turn the next warning into a dead engine.
    let dir = tempfile::tempdir().unwrap();
    let scene = dir.path().join("noisy.lua");
    let noisy = "local n = 0\nlimina.on_step(function()\n\tn += 1\n\tif n <= 3 then error('three warnings') end\nend)\n";
    std::fs::write(&scene, noisy).unwrap();
    let server = crate::mcp_ws::WsServer::start(&["--scene", scene.to_str().unwrap()]);
    // `WsServer` read the address line and closed its end of the pipe.
    let c = ready(&server.url).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let first = tick_call(&c).await.expect("still serving after warnings to a closed stderr");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let later = tick_call(&c).await.expect("and still ticking");
    assert!(later > first, "ticks {first} then {later}");
}

#[test]
fn a_stdio_flood_waits_for_later_ticks_and_is_answered_in_order() {
    let mut s = crate::mcp::StdioServer::start(&["--call-budget-ms", "0"]);
    s.request(0, "initialize", json!({"protocolVersion": "2025-11-25"}));
    let mut flood = String::new();
    for i in 0..60 {
        let call = json!({"jsonrpc": "2.0", "id": 100 + i, "method": "tools/call", "params": {"name": "inspector.snapshot", "arguments": {"limit": 0}}});
        flood.push_str(&format!("{call}\n"));
    }
    s.send_raw(flood.as_bytes());
    let mut ticks = Vec::new();
    for i in 0..60 {
        let reply = s.recv();
        assert_eq!(reply["id"], json!(100 + i), "answers come back in the order asked");
        ticks.push(reply["result"]["structuredContent"]["world"]["tick"].as_u64().unwrap());
    }
    assert!(ticks.windows(2).all(|w| w[1] > w[0]), "one call per tick, never two: {ticks:?}");
    assert_eq!(s.finish(), Some(0));
}

/// The same over Streamable HTTP: a session's `state/subscribe` event stream that is never
/// read. The engine cuts the subscriber off, and letting go of the stream shuts its connection
/// (otherwise the client's queued events and socket buffers would stay for as long as it keeps
/// the connection open).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow: runs with the full suite (cargo test -- --include-ignored)"]
async fn an_http_event_stream_that_is_never_read_is_cut_off_and_its_connection_closed() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::start(&["--scene", &falling_scene(dir.path())]);
    let addr: std::net::SocketAddr = server.url.trim_start_matches("ws://").trim_end_matches('/').parse().unwrap();
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{}}}"#;
    let mut c = TcpStream::connect(addr).unwrap();
    write!(c, "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: {}\r\n\r\n{init}", init.len()).unwrap();
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        c.read_exact(&mut byte).unwrap();
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head).to_string();
    let session = head.lines().find_map(|l| l.strip_prefix("mcp-session-id: ")).expect("a session id").trim().to_string();
    let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    socket.connect(&addr.into()).unwrap();
    let mut stalled: TcpStream = socket.into();
    let subscribe = r#"{"jsonrpc":"2.0","id":2,"method":"state/subscribe","params":{}}"#;
    write!(
        stalled,
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Session-Id: {session}\r\nContent-Length: {}\r\n\r\n{subscribe}",
        subscribe.len()
    )
    .unwrap();
    let cut = tokio::task::spawn_blocking(move || (server.wait_for_log("cut off", Duration::from_secs(180)), server));
    let (line, server) = cut.await.unwrap();
    assert!(line.contains("stopped reading") || line.contains("ended its event stream"), "the log says why: {line}");
    assert!(
        tokio::task::spawn_blocking(move || closed_by_server(&mut stalled, Duration::from_secs(30))).await.unwrap(),
        "its socket is closed"
    );
    drop(server);
}

/// A field of the server's /proc status, in KiB (`VmRSS`, `VmHWM`: its peak).
fn server_memory_kib(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with(field)).unwrap_or_else(|| panic!("no {field} in {status}"));
    line.split_whitespace().nth(1).and_then(|n| n.parse().ok()).unwrap()
}

/// Clients that pipeline requests with large answers and never read a byte: the answers fit the
/// 64-message send queue, so no answer ever waited for room and they were never cut off (32 of
/// them pinned 543 MB). Now what is queued toward a client is bounded in bytes, its calls wait
/// while it owes too much, and a socket that takes nothing for 3 s is cut off. Each attacker is
/// cut off and every holder of its queues let go (the server's debug line when the last one
/// goes); the server's peak memory stays within a bound per attacker; the others carry on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow: runs with the full suite (cargo test -- --include-ignored)"]
async fn clients_that_pipeline_calls_and_never_read_are_cut_off_and_their_memory_released() {
    const ATTACKERS: usize = 16;
    // With every tool listed, `tools/list` answers ~90 KB (and, unlike a skill call, leaves
    // nothing behind in the engine: what the server holds is what it queues).
    let mut server = Server::start_logging(&["--tools", "all"], "warn,limina::mcp::server=debug");
    let pid = server.child.id();
    let healthy = ready(&server.url).await;
    let answer: Value = healthy.request("tools/list", obj(json!({}))).await.unwrap();
    let answer_bytes = answer.to_string().len();
    assert!(answer_bytes > 60_000, "a large answer: {answer_bytes} bytes");
    let tick_before = tick_call(&healthy).await.unwrap();
    let before = server_memory_kib(pid, "VmRSS");

    let call = |id: usize| json!({"jsonrpc": "2.0", "id": id, "method": "tools/list", "params": {}}).to_string();
    let mut attackers = Vec::new();
    for _ in 0..ATTACKERS {
        let mut s = raw_websocket(&server.url);
        s.write_all(&text_frame(br#"{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25"}}"#))
            .unwrap();
        let mut answered = Vec::new();
        let mut byte = [0u8; 1];
        while !String::from_utf8_lossy(&answered).contains(r#""id":"init","result""#) {
            s.read_exact(&mut byte).unwrap();
            answered.push(byte[0]);
        }
        // As many calls as admission lets in: every answer fits the send queue's 64 messages.
        for id in 0..QUEUE_LIMIT {
            s.write_all(&text_frame(call(id).as_bytes())).unwrap();
        }
        attackers.push(s);
    }
    // Only the server's own reports end the waits: each attacker cut off, then released.
    let watched = tokio::task::spawn_blocking(move || {
        let conn_of = |line: &str| line.split("connection ").nth(1).and_then(|r| r.split_whitespace().next()).map(str::to_string);
        let (mut cut, mut released) = (Vec::new(), Vec::new());
        while cut.len() < ATTACKERS || released.iter().filter(|c| cut.contains(*c)).count() < ATTACKERS {
            let line = server.wait_for_log("connection ", Duration::from_secs(120));
            if line.contains("cut off") {
                assert!(line.contains("stopped reading"), "the log says why: {line}");
                cut.extend(conn_of(&line));
            } else if line.contains(" released (") {
                released.extend(conn_of(&line));
            }
        }
        server
    });
    let server = watched.await.unwrap();
    let peak = server_memory_kib(pid, "VmHWM");
    eprintln!(
        "server memory: {before} KiB before, peak {peak} KiB with {ATTACKERS} clients pipelining {QUEUE_LIMIT} answers of {answer_bytes} bytes"
    );
    // What one attacker may hold at once: its queue's byte limit, a few answers on their way
    // into it, and the requests it sent; far below the 64 answers it asked for.
    let per_attacker = (64 * answer_bytes / 1024) as u64;
    assert!(
        peak.saturating_sub(before) < ATTACKERS as u64 * per_attacker / 2,
        "the server peaked at {peak} KiB (from {before} KiB) for {ATTACKERS} clients asking {per_attacker} KiB each"
    );
    for mut s in attackers {
        assert!(tokio::task::spawn_blocking(move || closed_by_server(&mut s, Duration::from_secs(30))).await.unwrap());
    }
    still_serving(&healthy, tick_before).await;
    drop(server);
}

/// A few clients reading stateless `state/subscribe` streams of a busy world (800 falling
/// spheres, every entity in every delta): encoding a delta per reader on the engine thread
/// took whole frames, steps ran back to back and a new client's `initialize` waited 12 s. Now
/// readers sent the same state share one encoded delta, and a call runs between two steps
/// however long they take. The new client's `initialize` succeeds while the readers read (its
/// latency is printed, not asserted).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow: runs with the full suite (cargo test -- --include-ignored)"]
async fn a_new_client_initializes_while_stream_readers_watch_a_busy_world() {
    const READERS: usize = 8;
    #[cfg(feature = "tls")]
    let _ = rustls::crypto::ring::default_provider().install_default();
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&["--scene", &falling_scene(dir.path())]);
    let url = format!("{}/mcp", server.url.replace("ws://", "http://"));
    let http = reqwest::Client::builder().no_proxy().build().unwrap();
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}});
    let delivered = Arc::new(AtomicUsize::new(0));
    let mut readers = Vec::new();
    for id in 0..READERS {
        let body = json!({"jsonrpc": "2.0", "id": id, "method": "state/subscribe", "params": {"_meta": meta}});
        let mut r = http
            .post(&url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", "state/subscribe")
            .body(body.to_string())
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), reqwest::StatusCode::OK);
        let delivered = Arc::clone(&delivered);
        readers.push(tokio::spawn(async move {
            while let Ok(Some(chunk)) = r.chunk().await {
                delivered.fetch_add(chunk.len(), Ordering::Relaxed);
            }
        }));
    }
    // The readers are being fed megabytes of deltas.
    while delivered.load(Ordering::Relaxed) < 4 << 20 {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"late","version":"1"}}}"#;
    let asked = Instant::now();
    let asking = http.post(&url).header("content-type", "application/json").header("accept", "application/json").body(init).send();
    let r = tokio::time::timeout(Duration::from_secs(120), asking).await.expect("initialize is answered").unwrap();
    let status = r.status();
    let answer: Value = serde_json::from_str(&r.text().await.unwrap()).unwrap();
    eprintln!("initialize answered in {:?} with {READERS} stream readers of a busy world", asked.elapsed());
    assert_eq!(status, reqwest::StatusCode::OK, "{answer}");
    assert_eq!(answer["result"]["protocolVersion"], "2025-06-18", "{answer}");
    for reader in &readers {
        assert!(!reader.is_finished(), "the readers are still served");
    }
    for reader in readers {
        reader.abort();
    }
}
