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
//! scripts' `print` and all logs go to stderr. End of input ends the server with exit code 0, but
//! only after every line read has been answered and every answer has been written and flushed
//! (the writer is joined): a client that pipes a file in and closes stdin gets all its answers.

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
    /// Permissions granted to the client besides its profile (`--grant world.time`).
    pub grant: crate::policy::PermissionSet,
    /// Start with the clock stopped (`--paused`): no tick runs until the client resumes it.
    pub paused: bool,
    /// A script to build the world before serving (e.g. a scene).
    pub scene: Option<PathBuf>,
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
        options.scene.as_deref(),
        options.log.clone(),
        options.paused,
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
    let mut session = McpSession::new(1, options.profile, &engine).with_grant(grant).with_tools(options.tools);
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

/// Runs the world and answers lines until input ends or output is closed.
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
    loop {
        if out.flush().is_err() {
            return End::OutputClosed;
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
                return End::OutputClosed;
            }
            continue;
        }
        if driver.may_call(now) && !out.blocked() {
            let line = match next.take() {
                Some(line) => Some(line),
                None => match rx.try_recv() {
                    Ok(line) => Some(line),
                    Err(TryRecvError::Empty) => None,
                    // The reader hands over every line before it hangs up, so none is left.
                    Err(TryRecvError::Disconnected) => return End::InputClosed,
                },
            };
            if let Some(line) = line {
                let mut messages = answer(engine, session, line);
                if let Err(e) = super::durable_answer(engine) {
                    for m in &mut messages {
                        if m.get("result").is_some() {
                            *m = protocol::error(m["id"].clone(), protocol::INTERNAL_ERROR, e.to_string(), None);
                        }
                    }
                }
                driver.called(now.elapsed());
                if out.push(messages).is_err() {
                    return End::OutputClosed;
                }
                continue;
            }
            match rx.recv_timeout(driver.wait(now)) {
                Ok(line) => next = Some(line),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return End::InputClosed,
            }
        } else {
            // The budget is spent (or the client is not reading): nothing to do until the step.
            std::thread::sleep(driver.wait(now).min(Duration::from_millis(5)));
        }
    }
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
}
