//! A world's command log on JetStream against a real nats-server: what is appended reads back
//! byte for byte, what was acknowledged survives kill -9, outages (frozen, stopped) only delay
//! acknowledgements and never store a byte twice, a second writer fences the first, and the
//! backlog is bounded.

use std::io::{BufRead, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use limina::nats::{JetStream, LogLimits, NatsError, NatsUrl, WorldLog};

use crate::nats_server::NatsServer;

/// Generous: the suite runs with both cores busy.
const PATIENCE: Duration = Duration::from_secs(60);

fn connect(server: &NatsServer) -> JetStream {
    JetStream::connect(&NatsUrl::parse(&server.url).unwrap(), Duration::from_secs(10)).unwrap()
}

/// Line `i` of a test log: numbered, of a length that varies with `i`.
fn line(i: usize) -> Vec<u8> {
    let mut line = format!("{i:08} ").into_bytes();
    line.extend(std::iter::repeat_n(b'a' + (i % 26) as u8, (i * 37) % 1500));
    line.push(b'\n');
    line
}

fn append_lines(log: &WorldLog, range: std::ops::Range<usize>, all: &mut Vec<u8>) {
    for i in range {
        let line = line(i);
        log.append(&line).unwrap();
        all.extend_from_slice(&line);
    }
}

fn read_all(js: &JetStream, world: &str) -> Vec<u8> {
    let mut bytes = Vec::new();
    WorldLog::read(js, world, None).unwrap().read_to_end(&mut bytes).unwrap();
    bytes
}

/// Asserts equality without printing megabytes.
fn assert_same(got: &[u8], expected: &[u8]) {
    if got != expected {
        let at = got.iter().zip(expected).position(|(a, b)| a != b).unwrap_or(got.len().min(expected.len()));
        panic!("read back {} bytes, expected {}; first difference at byte {at}", got.len(), expected.len());
    }
}

/// The engine owns a writer on its thread and hands readers to others.
#[test]
fn handles_cross_threads() {
    fn send_sync<T: Send + Sync>() {}
    fn send<T: Send>() {}
    send_sync::<JetStream>();
    send_sync::<WorldLog>();
    send::<limina::nats::LogBytes>();
    send_sync::<NatsError>();
}

#[test]
fn appended_bytes_read_back_identical_across_messages() {
    let server = NatsServer::start();
    let js = connect(&server);
    let log = WorldLog::open(&js, "w-one", 7).unwrap();
    let acks = Arc::new(AtomicUsize::new(0));
    let counted = acks.clone();
    log.on_acknowledged(Box::new(move || {
        counted.fetch_add(1, Ordering::SeqCst);
    }));
    let mut all = Vec::new();
    append_lines(&log, 0..300, &mut all);
    // One line larger than a message (256 KiB): cut across several.
    let mut big = vec![b'B'; 1024 * 1024];
    big.push(b'\n');
    log.append(&big).unwrap();
    all.extend_from_slice(&big);
    append_lines(&log, 300..400, &mut all);
    assert_eq!(log.appended(), all.len() as u64);
    log.wait_acknowledged(log.appended(), PATIENCE).unwrap();
    assert_eq!(log.acknowledged(), all.len() as u64);
    assert!(log.last_sequence() >= 5, "the 1 MiB line alone takes 5 messages: {}", log.last_sequence());
    assert!(acks.load(Ordering::SeqCst) > 0, "on_acknowledged was called");
    assert_eq!(WorldLog::stored_last_sequence(&js, "w-one").unwrap(), Some(log.last_sequence()));

    // Read back through another connection, as lines (the file log's reader reads lines).
    let other = connect(&server);
    assert_same(&read_all(&other, "w-one"), &all);
    let lines: Vec<Vec<u8>> = WorldLog::read(&other, "w-one", None).unwrap().split(b'\n').map(|l| l.unwrap()).collect();
    assert_eq!(lines.len(), 401);
    assert_eq!(lines[300].len(), 1024 * 1024);
    // A prefix: the first two messages only.
    let mut prefix = Vec::new();
    WorldLog::read(&other, "w-one", Some(2)).unwrap().read_to_end(&mut prefix).unwrap();
    assert!(!prefix.is_empty() && prefix.len() < all.len() && all.starts_with(&prefix));
    // The rest, from message 3 on, completes it.
    let mut rest = Vec::new();
    WorldLog::read_range(&other, "w-one", 3, None).unwrap().read_to_end(&mut rest).unwrap();
    prefix.extend(rest);
    assert_same(&prefix, &all);
}

#[test]
fn missing_logs_bad_names_and_unreachable_servers_are_refused_with_their_values() {
    let server = NatsServer::start();
    let js = connect(&server);
    assert!(matches!(WorldLog::read(&js, "nothing-here", None), Err(NatsError::NoLog { .. })));
    assert!(!WorldLog::exists(&js, "nothing-here").unwrap());
    let log = WorldLog::open(&js, "empty", 1).unwrap();
    assert!(WorldLog::exists(&js, "empty").unwrap());
    assert!(matches!(WorldLog::read(&js, "empty", None), Err(NatsError::NoLog { .. })));
    log.append(b"x\n").unwrap();
    log.wait_acknowledged(2, PATIENCE).unwrap();
    assert!(matches!(WorldLog::read(&js, "empty", Some(5)), Err(NatsError::ShortLog { end: 5, last: 1, .. })));
    for bad in ["Bad", "a.b", "a>", "*", ""] {
        assert!(matches!(WorldLog::open(&js, bad, 1), Err(NatsError::BadWorld { .. })), "{bad}");
        assert!(matches!(WorldLog::read(&js, bad, None), Err(NatsError::BadWorld { .. })), "{bad}");
    }

    // Nothing listens on a stopped server's port: the error names the URL, not the password.
    let mut gone = NatsServer::start();
    gone.stop();
    let url = NatsUrl::parse(&format!("nats://alice:hunter22secret@127.0.0.1:{}", gone.port)).unwrap();
    let error = JetStream::connect(&url, Duration::from_millis(300)).unwrap_err();
    let shown = error.to_string();
    assert!(matches!(error, NatsError::Connect { .. }), "{shown}");
    assert!(shown.contains(&format!("127.0.0.1:{}", gone.port)) && !shown.contains("hunter22"), "{shown}");
}

#[test]
fn credentials_reach_the_server_and_never_an_error() {
    let server = NatsServer::start_with(&["--auth", "right-token-4711"]);
    let with = |token: &str| NatsUrl::parse(&format!("nats://{token}@127.0.0.1:{}", server.port)).unwrap();
    let js = JetStream::connect(&with("right-token-4711"), Duration::from_secs(10)).unwrap();
    WorldLog::open(&js, "guarded", 1).unwrap();
    assert!(!format!("{js:?}").contains("4711"));

    let error = JetStream::connect(&with("wrong-token-0815"), Duration::from_secs(1)).unwrap_err();
    let shown = error.to_string();
    assert!(matches!(&error, NatsError::Connect { last_error: Some(_), .. }), "{shown}");
    assert!(shown.to_lowercase().contains("authorization"), "{shown}");
    assert!(!shown.contains("0815") && !format!("{error:?}").contains("0815"), "{shown}");
}

#[test]
fn acknowledged_bytes_survive_kill_9_and_waits_end_when_acknowledged() {
    let mut server = NatsServer::start();
    let js = connect(&server);
    let log = WorldLog::open(&js, "survivor", 11).unwrap();
    let mut all = Vec::new();
    append_lines(&log, 0..50, &mut all);
    log.wait_acknowledged(all.len() as u64, PATIENCE).unwrap();
    assert_eq!(log.acknowledged(), all.len() as u64);

    // Frozen: nothing is acknowledged, and the wait says how much waits.
    server.freeze();
    append_lines(&log, 50..60, &mut all);
    let before = log.acknowledged();
    match log.wait_acknowledged(all.len() as u64, Duration::from_millis(300)) {
        Err(NatsError::Timeout { waiting, .. }) => assert_eq!(waiting, all.len() as u64 - before),
        other => panic!("expected a timeout, got {other:?}"),
    }
    server.thaw();
    log.wait_acknowledged(all.len() as u64, PATIENCE).unwrap();

    // kill -9 while messages are in flight.
    append_lines(&log, 60..3000, &mut all);
    log.wait_acknowledged(all.len() as u64 / 2, PATIENCE).unwrap();
    server.kill9();
    let acknowledged = log.acknowledged();
    assert!(acknowledged >= all.len() as u64 / 2);
    server.restart();
    let reader = connect(&server);
    let stored = read_all(&reader, "survivor");
    assert!(stored.len() as u64 >= acknowledged, "{} stored, {acknowledged} acknowledged", stored.len());
    assert!(all.starts_with(&stored), "the stored log is a prefix of what was appended");

    // The writer resumes by itself and ends with everything, once.
    log.wait_acknowledged(all.len() as u64, PATIENCE).unwrap();
    assert_same(&read_all(&reader, "survivor"), &all);
}

#[test]
fn a_frozen_server_delays_acknowledgements_and_stores_nothing_twice() {
    let mut server = NatsServer::start();
    let js = connect(&server);
    let log = WorldLog::open(&js, "frozen", 3).unwrap();
    let mut all = Vec::new();
    append_lines(&log, 0..300, &mut all);
    log.wait_acknowledged(all.len() as u64, PATIENCE).unwrap();
    server.freeze();
    let frozen_at = log.acknowledged();
    append_lines(&log, 300..600, &mut all);
    // Longer than the 2 s acknowledgement timeout: the writer resends into the frozen server.
    std::thread::sleep(Duration::from_secs(3));
    assert_eq!(log.acknowledged(), frozen_at, "a frozen server acknowledges nothing");
    server.thaw();
    append_lines(&log, 600..900, &mut all);
    log.wait_acknowledged(all.len() as u64, PATIENCE).unwrap();
    assert!(log.resends() > 0, "the writer resent what a frozen server left unanswered");
    assert_same(&read_all(&js, "frozen"), &all);
    assert!(log.failure().is_none());
}

#[test]
fn a_restarted_server_gets_the_rest_by_itself_exactly_once() {
    let mut server = NatsServer::start();
    let js = connect(&server);
    let log = WorldLog::open(&js, "restarted", 5).unwrap();
    let mut all = Vec::new();
    append_lines(&log, 0..300, &mut all);
    log.wait_acknowledged(all.len() as u64 / 2, PATIENCE).unwrap();
    server.stop();
    append_lines(&log, 300..600, &mut all);
    std::thread::sleep(Duration::from_secs(2));
    assert!(!js.is_connected());
    server.restart();
    append_lines(&log, 600..900, &mut all);
    log.wait_acknowledged(all.len() as u64, PATIENCE).unwrap();
    assert!(js.is_connected());
    assert_same(&read_all(&js, "restarted"), &all);
}

#[test]
fn a_second_writer_fences_the_first() {
    let server = NatsServer::start();
    let js = connect(&server);
    // Messages of 4 bytes: the fenced writer has several in flight when it meets the fence,
    // and none of them may land after the other writer's message.
    let tiny = LogLimits { message_bytes: 4, ..LogLimits::default() };
    let first = WorldLog::open_with(&js, "fenced", 1, tiny).unwrap();
    first.append(b"one\n").unwrap();
    first.wait_acknowledged(4, PATIENCE).unwrap();

    let second = WorldLog::open(&connect(&server), "fenced", 2).unwrap();
    assert_eq!(second.last_sequence(), 1);
    second.append(b"two\n").unwrap();
    second.wait_acknowledged(4, PATIENCE).unwrap();

    first.append(b"three\n").unwrap();
    first.append(b"four\n").unwrap();
    match first.wait_acknowledged(first.appended(), PATIENCE) {
        Err(NatsError::Fenced { world, writer: 1, sequence: 2, expected: 1, found: Some(2) }) => assert_eq!(world, "fenced"),
        other => panic!("expected Fenced, got {other:?}"),
    }
    assert_eq!(first.acknowledged(), 4, "nothing after the fence is acknowledged");
    assert!(matches!(first.failure(), Some(NatsError::Fenced { .. })));
    assert!(matches!(first.append(b"five\n"), Err(NatsError::Fenced { .. })));

    // The second writer goes on; the log holds what each had acknowledged, in order.
    second.append(b"six\n").unwrap();
    second.wait_acknowledged(8, PATIENCE).unwrap();
    assert_eq!(read_all(&js, "fenced"), b"one\ntwo\nsix\n");
}

/// Someone else who can publish on the log's subject reads the writer's stored message ids and
/// publishes ahead of it under what its next id would be, if ids could be guessed. The server
/// would answer the writer's own message as a duplicate of that one, and the writer acknowledge
/// bytes that were never stored (an attack found this). Its ids carry a tag made with a secret:
/// the forgery is another writer's message, and the writer stops.
#[test]
fn a_writer_cannot_be_answered_with_a_forgery_of_its_next_message_id() {
    let server = NatsServer::start();
    let js = connect(&server);
    let writer = WorldLog::open(&js, "forged", 7).unwrap();
    writer.append(b"one\n").unwrap();
    writer.wait_acknowledged(4, PATIENCE).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let client = async_nats::connect(server.url.as_str()).await.unwrap();
        let context = async_nats::jetstream::new(client);
        let stream = context.get_stream("LIMINA_LOG_forged").await.unwrap();
        let stored = stream.get_raw_message(1).await.unwrap();
        let id = stored.headers.get("Nats-Msg-Id").unwrap().as_str().to_string();
        // What the next id would be, by every pattern the stored one suggests.
        let parts: Vec<&str> = id.split('.').collect();
        assert!(parts.len() >= 3 && parts[2] == "1", "{id}");
        let mut guesses = vec![format!("{}.{}.2", parts[0], parts[1])];
        if parts.len() > 3 {
            guesses.push(format!("{}.{}.2.{}", parts[0], parts[1], parts[3..].join(".")));
        }
        for guess in guesses {
            let message = async_nats::jetstream::message::PublishMessage::build()
                .payload("{\"forged\": true}\n".into())
                .message_id(guess)
                .expected_last_subject_sequence(1);
            // Only the first can land (each expects the log to end at 1).
            let _ = context.send_publish("limina.log.forged", message).await.unwrap().await;
        }
    });
    writer.append(b"two\n").unwrap();
    match writer.wait_acknowledged(writer.appended(), PATIENCE) {
        Err(NatsError::Fenced { sequence: 2, .. }) => {}
        other => panic!("the writer took a forgery for its own message: {other:?}"),
    }
    assert_eq!(writer.acknowledged(), 4, "nothing after the forgery is acknowledged");
}

/// A new owner's fence goes only right after the message it read, and a reader drops the line
/// the previous owner left half-written before it (no client was told it succeeded).
#[test]
fn a_fence_goes_after_what_was_read_and_drops_a_half_written_line() {
    let server = NatsServer::start();
    let js = connect(&server);
    let old = WorldLog::open(&js, "f", 1).unwrap();
    old.append(b"{\"whole\":1}\n{\"cut\":").unwrap();
    old.wait_acknowledged(old.appended(), PATIENCE).unwrap();
    let last = old.last_sequence();
    assert_eq!(limina::nats::place_fence(&js, "f", last - 1, 7, b"{\"fence\":7}\n").unwrap(), limina::nats::Fence::Moved);
    let placed = limina::nats::place_fence(&js, "f", last, 7, b"{\"fence\":7}\n").unwrap();
    assert_eq!(placed, limina::nats::Fence::Placed(last + 1));
    // Placing it again (a resend after a lost answer) finds it there.
    assert_eq!(limina::nats::place_fence(&js, "f", last, 7, b"{\"fence\":7}\n").unwrap(), limina::nats::Fence::Placed(last + 1));
    // The old owner's next message is refused: it expected the log to end at its own.
    old.append(b"1}\n").unwrap();
    assert!(matches!(old.wait_acknowledged(old.appended(), PATIENCE), Err(NatsError::Fenced { .. })));
    let new = WorldLog::open_after(&js, "f", 2, last + 1).unwrap();
    new.append(b"{\"after\":1}\n").unwrap();
    new.wait_acknowledged(new.appended(), PATIENCE).unwrap();
    assert_same(&read_all(&js, "f"), b"{\"whole\":1}\n{\"fence\":7}\n{\"after\":1}\n");
}

fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

#[test]
fn a_server_that_lost_acknowledged_messages_stops_the_writer() {
    let mut server = NatsServer::start();
    let js = connect(&server);
    let log = WorldLog::open(&js, "lost", 4).unwrap();
    log.append(b"one\n").unwrap();
    log.wait_acknowledged(4, PATIENCE).unwrap();
    // An older copy of the storage, put back after more was acknowledged.
    server.stop();
    let storage = server.dir().join("jetstream");
    let older = tempfile::tempdir().unwrap();
    copy_dir(&storage, older.path());
    server.restart();
    log.append(b"two\n").unwrap();
    log.wait_acknowledged(8, PATIENCE).unwrap();
    server.stop();
    std::fs::remove_dir_all(&storage).unwrap();
    copy_dir(older.path(), &storage);
    server.restart();
    log.append(b"three\n").unwrap();
    match log.wait_acknowledged(14, PATIENCE) {
        Err(NatsError::Lost { sequence: 3, expected: 2, found: 1, .. }) => {}
        other => panic!("expected Lost, got {other:?}"),
    }
    assert_eq!(log.acknowledged(), 8);
    assert_eq!(read_all(&js, "lost"), b"one\n");
}

#[test]
fn appends_past_the_backlog_are_refused_whole() {
    let mut server = NatsServer::start();
    let js = connect(&server);
    let limits = LogLimits { backlog_bytes: 1024 * 1024, message_bytes: 64 * 1024 };
    let log = WorldLog::open_with(&js, "backlog", 9, limits).unwrap();
    server.freeze();
    let chunk = vec![b'c'; 64 * 1024];
    for _ in 0..8 {
        log.append(&chunk).unwrap();
    }
    let refused = log.append(&vec![b'r'; 600 * 1024]).unwrap_err();
    match &refused {
        NatsError::Backlog { bytes, waiting, limit, .. } => {
            assert_eq!((*bytes, *waiting, *limit), (600 * 1024, 512 * 1024, 1024 * 1024));
        }
        other => panic!("expected Backlog, got {other:?}"),
    }
    assert_eq!(log.appended(), 512 * 1024, "a refused append appends nothing");
    log.append(&chunk).unwrap();
    server.thaw();
    log.wait_acknowledged(576 * 1024, PATIENCE).unwrap();
    let stored = read_all(&js, "backlog");
    assert_eq!(stored.len(), 576 * 1024);
    assert!(stored.iter().all(|&b| b == b'c'));
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// Figures, not assertions: `cargo test --test integration -- --ignored --nocapture nats_log_figures`.
#[test]
#[ignore = "benchmark: prints figures"]
fn nats_log_figures() {
    let server = NatsServer::start();
    let js = connect(&server);
    let payload = vec![b'p'; 200];

    let log = WorldLog::open(&js, "latency", 1).unwrap();
    let mut waits = Vec::new();
    for _ in 0..1000 {
        let started = Instant::now();
        log.append(&payload).unwrap();
        log.wait_acknowledged(log.appended(), PATIENCE).unwrap();
        waits.push(started.elapsed());
    }
    waits.sort();
    println!(
        "append -> acknowledged, 200 B, one at a time (1000): p50 {:?} p95 {:?} p99 {:?} max {:?}",
        percentile(&waits, 0.5),
        percentile(&waits, 0.95),
        percentile(&waits, 0.99),
        percentile(&waits, 1.0)
    );

    let log = WorldLog::open(&js, "throughput", 1).unwrap();
    let started = Instant::now();
    for _ in 0..100_000 {
        log.append(&payload).unwrap();
    }
    log.wait_acknowledged(log.appended(), PATIENCE).unwrap();
    let took = started.elapsed();
    println!(
        "pipelined: 100000 appends of 200 B acknowledged in {took:?} ({:.0} appends/s, {:.1} MB/s) in {} messages",
        100_000.0 / took.as_secs_f64(),
        20.0 / took.as_secs_f64(),
        log.last_sequence()
    );

    // 20k messages of 200 B each (message size capped at 200).
    let limits = LogLimits { message_bytes: 200, ..LogLimits::default() };
    let log = WorldLog::open_with(&js, "reading", 1, limits).unwrap();
    let started = Instant::now();
    for _ in 0..20_000 {
        log.append(&payload).unwrap();
    }
    log.wait_acknowledged(log.appended(), PATIENCE).unwrap();
    let took = started.elapsed();
    println!("pipelined: 20000 messages of 200 B acknowledged in {took:?} ({:.0} messages/s)", 20_000.0 / took.as_secs_f64());
    assert_eq!(log.last_sequence(), 20_000);
    for _ in 0..3 {
        let started = Instant::now();
        let mut bytes = Vec::new();
        WorldLog::read(&js, "reading", None).unwrap().read_to_end(&mut bytes).unwrap();
        let took = started.elapsed();
        assert_eq!(bytes.len(), 20_000 * 200);
        println!("read 20000 messages (4 MB) in {took:?} ({:.0} messages/s)", 20_000.0 / took.as_secs_f64());
    }
    let started = Instant::now();
    let mut bytes = Vec::new();
    WorldLog::read_range(&js, "reading", 15_001, None).unwrap().read_to_end(&mut bytes).unwrap();
    println!("read the last 5000 messages (from 15001) in {:?}", started.elapsed());
}
