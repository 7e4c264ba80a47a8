//! `limina mcp --stdio`: newline-delimited JSON-RPC on stdin/stdout around the shared
//! dispatcher, while the world runs its fixed loop in real time.
//!
//! A reader thread turns stdin into messages (bounded: a line over the size limit is discarded
//! and answered with an error, never buffered whole) and a writer thread writes answers; the
//! engine thread answers between ticks, within the step's call budget (`RealTimeDriver`), so a
//! client that floods stdin delays its own answers, never the clock. Both threads talk to the
//! engine through short bounded queues: a client that writes faster than it is served blocks on
//! its own pipe, and a client that stops reading stdout stops being served (its answers wait,
//! none is dropped) while the world keeps ticking. stdout carries only protocol messages;
//! scripts' `print` and all logs go to stderr. Heavy calls (captures, playtests, scene saves and
//! loads) run on the heavy-work thread (`skills::deferred`) and are answered when done, after
//! answers to later lines; a scene load or save holds the client's later lines until it is done, so
//! they apply in the order sent. End of input ends the server with exit code 0, but only after
//! every line read has been answered (heavy calls included) and every answer has been written
//! and flushed (the writer is joined): a client that pipes a file in and closes stdin gets all
//! its answers.

use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::sync::mpsc::{self, RecvTimeoutError, TryRecvError, TrySendError};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::dispatcher::{self, MAX_MESSAGE_BYTES, McpSession};
use super::protocol;
use crate::host::RealTimeDriver;

/// Lines read ahead of the engine; past it the reader (and then the client) waits.
const INPUT_QUEUE: usize = 64;
/// Answer batches waiting for the writer; past it the engine stops taking input.
const OUTPUT_QUEUE: usize = 64;

#[derive(Debug, Clone)]
pub struct StdioOptions {
    /// The project: `require`, `assets/` and `traces/` resolve against it.
    pub project: PathBuf,
    pub profile: crate::policy::Profile,
    /// What the world starts as (`--scene`, `--resume`, `--empty`, or the default world).
    pub start: super::WorldStart,
    /// Permissions granted to the client besides its profile (`--grant world.time`).
    pub grant: crate::policy::PermissionSet,
    /// Start with the clock stopped (`--paused`): no tick runs until the client resumes it.
    pub paused: bool,
    /// Mods root (hot-reloaded).
    pub scripts: Option<PathBuf>,
    /// Call time per fixed step (`CALL_BUDGET` by default); 0 still serves one line per step.
    pub call_budget: Duration,
    /// Where the client's tool list starts (`--tools`).
    pub tools: super::ToolsMode,
    /// Keep a command log; a mutating call is answered only once its record is on disk.
    pub log: Option<crate::durable::LogConfig>,
}

/// One line of input.
#[derive(Debug, PartialEq)]
pub(crate) enum Line {
    Text(String),
    /// A line longer than the limit (its length, as far as it was read).
    TooLong(usize),
    NotUtf8,
}

/// Reads one line of at most `max` bytes; longer lines are consumed and reported, not kept.
pub(crate) fn read_line_bounded(reader: &mut impl BufRead, max: usize) -> io::Result<Option<Line>> {
    let mut line = Vec::new();
    let mut total = 0usize;
    let mut saw_any = false;
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            if !saw_any {
                return Ok(None);
            }
            break;
        }
        saw_any = true;
        let (chunk, done) = match buf.iter().position(|b| *b == b'\n') {
            Some(at) => (&buf[..at], Some(at + 1)),
            None => (buf, None),
        };
        total += chunk.len();
        if total <= max {
            line.extend_from_slice(chunk);
        }
        let consumed = done.unwrap_or(buf.len());
        reader.consume(consumed);
        if done.is_some() {
            break;
        }
    }
    if total > max {
        return Ok(Some(Line::TooLong(total)));
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Ok(Some(String::from_utf8(line).map(Line::Text).unwrap_or(Line::NotUtf8)))
}

fn write_messages(out: &mut impl Write, messages: &[Value]) -> io::Result<()> {
    for m in messages {
        serde_json::to_writer(&mut *out, m)?;
        out.write_all(b"\n")?;
    }
    out.flush()
}

/// The writer's queue, plus what it could not take yet.
struct Output {
    tx: mpsc::SyncSender<Vec<Value>>,
    backlog: Vec<Value>,
}

/// The client closed our stdout: nobody is listening any more.
struct Gone;

impl Output {
    /// Queues `messages` after anything still waiting; never blocks.
    fn push(&mut self, messages: Vec<Value>) -> Result<(), Gone> {
        self.backlog.extend(messages);
        self.flush()
    }

    fn flush(&mut self) -> Result<(), Gone> {
        if self.backlog.is_empty() {
            return Ok(());
        }
        match self.tx.try_send(std::mem::take(&mut self.backlog)) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(back)) => {
                self.backlog = back;
                Ok(())
            }
            Err(TrySendError::Disconnected(_)) => Err(Gone),
        }
    }

    /// Answers are waiting for a client that is not reading: take no more input until they go.
    fn blocked(&self) -> bool {
        !self.backlog.is_empty()
    }

    /// End of input: hands the writer everything still waiting (blocking, since nothing else is
    /// left to do), then closes its queue so it ends once it has written and flushed it all.
    fn close(self) {
        let Output { tx, backlog } = self;
        if !backlog.is_empty() {
            // An error here means the client closed stdout: nobody is left to answer.
            let _ = tx.send(backlog);
        }
    }
}

fn answer(engine: &crate::host::Engine, session: &mut McpSession, line: Line) -> Vec<Value> {
    match line {
        Line::Text(text) if text.trim().is_empty() => Vec::new(),
        Line::Text(text) => dispatcher::handle_text(engine, session, &text),
        Line::TooLong(n) => vec![protocol::error(
            Value::Null,
            protocol::INVALID_REQUEST,
            format!("message of {n} bytes is larger than the {MAX_MESSAGE_BYTES}-byte limit"),
            None,
        )],
        Line::NotUtf8 => vec![protocol::error(Value::Null, protocol::PARSE_ERROR, "parse error: the line is not UTF-8", None)],
    }
}

pub fn serve(options: &StdioOptions) -> Result<(), super::McpServerError> {
    let engine = super::server_engine(
        &options.project,
        options.profile,
        options.scripts.as_deref(),
        &options.start,
        options.log.clone(),
        options.paused,
        None,
    )?;
    let (tx, rx) = mpsc::sync_channel::<Line>(INPUT_QUEUE);
    let reader = std::thread::Builder::new().name("limina-stdin".into()).spawn(move || {
        let stdin = io::stdin();
        let mut reader = io::BufReader::with_capacity(64 * 1024, stdin.lock());
        while let Ok(Some(line)) = read_line_bounded(&mut reader, MAX_MESSAGE_BYTES) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    reader.map_err(|source| super::McpServerError::Thread { name: "limina-stdin", source })?;
    let (out_tx, out_rx) = mpsc::sync_channel::<Vec<Value>>(OUTPUT_QUEUE);
    let writer = std::thread::Builder::new().name("limina-stdout".into()).spawn(move || {
        let stdout = io::stdout();
        for messages in out_rx {
            if write_messages(&mut stdout.lock(), &messages).is_err() {
                break;
            }
        }
    });
    let writer = writer.map_err(|source| super::McpServerError::Thread { name: "limina-stdout", source })?;
    let mut out = Output { tx: out_tx, backlog: Vec::new() };
    let grant = crate::policy::Grant { profile: options.profile, extra: options.grant };
    // Heavy calls (captures, playtests, scene loads) run on a worker while the world steps;
    // their answers follow when it is done (JSON-RPC answers by id, in any order).
    let mut session = McpSession::new(1, options.profile, &engine).with_grant(grant).with_tools(options.tools).deferring_heavy();
    let end = serve_lines(&engine, &mut session, &rx, &mut out, options.call_budget);
    if end == End::InputClosed {
        // What the last calls set off (a list change, a subscribed event) still goes out.
        let _ = out.push(dispatcher::pending_notifications(&engine, &mut session));
    }
    out.close();
    // Returning lets `main` exit the process: the writer must have written everything first.
    let _ = writer.join();
    if let Err(message) = engine.make_durable() {
        tracing::error!("{message}");
    }
    Ok(())
}

/// Why `serve_lines` stopped.
#[derive(Debug, PartialEq)]
enum End {
    /// stdin reached its end and every line read was answered (answers may still be queued).
    InputClosed,
    /// stdout is closed: nobody reads answers any more.
    OutputClosed,
}

/// Heavy calls whose answers wait for their worker (`skills::deferred`), by ticket.
type Waiting = std::collections::BTreeMap<crate::skills::deferred::Ticket, dispatcher::DeferredCall>;

/// Runs the world and answers lines until input ends (and every heavy call read has been
/// answered) or output is closed.
fn serve_lines(
    engine: &crate::host::Engine,
    session: &mut McpSession,
    rx: &mpsc::Receiver<Line>,
    out: &mut Output,
    call_budget: Duration,
) -> End {
    let mut driver = RealTimeDriver::new(Instant::now()).with_call_budget(call_budget);
    // A line taken off the queue while waiting, served in the next turn.
    let mut next: Option<Line> = None;
    let mut waiting = Waiting::new();
    let mut input_open = true;
    let end = loop {
        if out.flush().is_err() {
            break End::OutputClosed;
        }
        if !waiting.is_empty() && out.push(finish_heavy(engine, session, &mut waiting)).is_err() {
            break End::OutputClosed;
        }
        if !input_open && waiting.is_empty() {
            break End::InputClosed;
        }
        let now = Instant::now();
        if let Some(plan) = driver.due(now) {
            // Paused, the interval still passes (the call budget renews), but no tick runs.
            if !engine.paused()
                && let Err(e) = engine.step(u64::from(plan.steps))
            {
                tracing::warn!("a step callback failed: {}", e.message);
            }
            if out.push(dispatcher::pending_notifications(engine, session)).is_err() {
                break End::OutputClosed;
            }
            continue;
        }
        // While heavy calls run, look for their answers at least this often.
        let wait = if waiting.is_empty() { driver.wait(now) } else { driver.wait(now).min(Duration::from_millis(2)) };
        // A call with effects on the worker (a scene load or save) holds the client's later lines:
        // they apply in the order it sent them.
        let held = waiting.values().any(|call| call.ordered);
        if input_open && !held && driver.may_call(now) && !out.blocked() {
            let line = match next.take() {
                Some(line) => Some(line),
                None => match rx.try_recv() {
                    Ok(line) => Some(line),
                    Err(TryRecvError::Empty) => None,
                    // The reader hands over every line before it hangs up, so none is left.
                    Err(TryRecvError::Disconnected) => {
                        input_open = false;
                        continue;
                    }
                },
            };
            if let Some(line) = line {
                let messages = answer(engine, session, line);
                if let Some(deferred) = session.deferred.take() {
                    waiting.insert(deferred.ticket, deferred);
                }
                driver.called(now.elapsed());
                if out.push(durable(engine, messages)).is_err() {
                    break End::OutputClosed;
                }
                continue;
            }
            match rx.recv_timeout(wait) {
                Ok(line) => next = Some(line),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => input_open = false,
            }
        } else {
            // The budget is spent (or the client is not reading, or has no more to say): nothing
            // to do until the step or a heavy call's answer.
            std::thread::sleep(wait.min(Duration::from_millis(5)));
        }
    };
    // Nobody hears these answers: calls not started are not run.
    for ticket in waiting.keys() {
        engine.heavy_work().cancel(*ticket);
    }
    end
}

/// Answers of calls that changed the world go out only once their records are on disk (with a
/// command log): if they cannot be, the client is told so instead of a result.
fn durable(engine: &crate::host::Engine, mut messages: Vec<Value>) -> Vec<Value> {
    if let Err(e) = super::durable_answer(engine) {
        for m in &mut messages {
            if m.get("result").is_some() {
                *m = protocol::error(m["id"].clone(), protocol::INTERNAL_ERROR, e.to_string(), None);
            }
        }
    }
    messages
}

/// The answers of the heavy calls whose worker is done (a notification's call has none).
fn finish_heavy(engine: &crate::host::Engine, session: &mut McpSession, waiting: &mut Waiting) -> Vec<Value> {
    let mut messages = Vec::new();
    for (ticket, response) in engine.complete_deferred() {
        let Some(call) = waiting.remove(&ticket) else { continue };
        let id = call.id.clone();
        let answer = dispatcher::finish_deferred(engine, session, call, &response);
        if let Some(id) = id {
            messages.push(match answer {
                Ok(result) => protocol::result(id, result),
                Err(e) => protocol::error(id, e.code, e.message, e.data),
            });
        }
    }
    durable(engine, messages)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_bounded() {
        let input = b"short\nthis line is far too long\r\nok\r\nlast";
        let mut r = io::BufReader::with_capacity(4, &input[..]);
        assert_eq!(read_line_bounded(&mut r, 10).unwrap(), Some(Line::Text("short".into())));
        assert_eq!(read_line_bounded(&mut r, 10).unwrap(), Some(Line::TooLong(26)));
        assert_eq!(read_line_bounded(&mut r, 10).unwrap(), Some(Line::Text("ok".into())));
        assert_eq!(read_line_bounded(&mut r, 10).unwrap(), Some(Line::Text("last".into())));
        assert_eq!(read_line_bounded(&mut r, 10).unwrap(), None);
        let mut bad = io::BufReader::new(&[0xff, 0xfe, b'\n'][..]);
        assert_eq!(read_line_bounded(&mut bad, 10).unwrap(), Some(Line::NotUtf8));
    }

    #[test]
    fn a_heavy_call_leaves_the_client_served_and_is_answered_before_input_ends() {
        use serde_json::json;
        let engine = crate::host::Engine::new(crate::host::EngineConfig {
            output: crate::host::Output::Silent,
            ..crate::host::EngineConfig::new(env!("CARGO_MANIFEST_DIR"))
        })
        .unwrap();
        let mut session = McpSession::new(1, crate::policy::Profile::BuilderReadWrite, &engine).deferring_heavy();
        let line = |id: u64, method: &str, params: Value| {
            Line::Text(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string())
        };
        let (tx, rx) = mpsc::sync_channel(8);
        tx.send(line(0, "initialize", json!({"protocolVersion": "2025-11-25"}))).unwrap();
        tx.send(line(1, "tools/call", json!({"name": "test.run", "arguments": {"source": "it('x', function() end)"}}))).unwrap();
        tx.send(line(2, "tools/call", json!({"name": "scene.createEntity", "arguments": {}}))).unwrap();
        drop(tx);
        // The worker holds the playtest until the cheap call after it has been answered: only a
        // server that keeps serving while the playtest is in flight gets that far.
        let hold = engine.heavy_work().hold();
        let (out_tx, out_rx) = mpsc::sync_channel::<Vec<Value>>(OUTPUT_QUEUE);
        let reader = std::thread::spawn(move || {
            let mut ids = Vec::new();
            let mut hold = Some(hold);
            for batch in out_rx {
                for m in batch {
                    ids.push(m["id"].as_u64());
                    if m["id"] == json!(2) {
                        hold.take();
                    }
                }
            }
            ids
        });
        let mut out = Output { tx: out_tx, backlog: Vec::new() };
        assert_eq!(serve_lines(&engine, &mut session, &rx, &mut out, Duration::from_millis(4)), End::InputClosed);
        out.close();
        let ids = reader.join().unwrap();
        assert_eq!(ids, vec![Some(0), Some(2), Some(1)], "the playtest's answer came once it was done, before the end");
        assert_eq!(engine.heavy_work().in_flight(), 0);
    }
}
