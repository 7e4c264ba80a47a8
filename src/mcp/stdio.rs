//! `limina mcp --stdio`: newline-delimited JSON-RPC on stdin/stdout around the shared
//! dispatcher, while the world runs its fixed loop in real time.
//!
//! A reader thread turns stdin into messages (bounded: a line over the size limit is discarded
//! and answered with an error, never buffered whole); the engine thread answers them between
//! ticks. stdout carries only protocol messages; scripts' `print` and all logs go to stderr.
//! End of input ends the server with exit code 0.

use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Instant;

use serde_json::Value;

use super::dispatcher::{self, MAX_MESSAGE_BYTES, McpSession};
use super::protocol;
use crate::host::RealTimeDriver;

#[derive(Debug, Clone)]
pub struct StdioOptions {
    /// The project: `require`, `assets/` and `traces/` resolve against it.
    pub project: PathBuf,
    pub profile: String,
    /// A script to build the world before serving (e.g. a scene).
    pub scene: Option<PathBuf>,
    /// Mods root (hot-reloaded).
    pub scripts: Option<PathBuf>,
}

/// One line of input.
#[derive(Debug, PartialEq)]
pub enum Line {
    Text(String),
    /// A line longer than the limit (its length, as far as it was read).
    TooLong(usize),
    NotUtf8,
}

/// Reads one line of at most `max` bytes; longer lines are consumed and reported, not kept.
pub fn read_line_bounded(reader: &mut impl BufRead, max: usize) -> io::Result<Option<Line>> {
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

pub fn serve(options: &StdioOptions) -> anyhow::Result<()> {
    let engine = super::server_engine(&options.project, &options.profile, options.scripts.as_deref(), options.scene.as_deref())?;
    let (tx, rx) = mpsc::channel::<Line>();
    std::thread::Builder::new().name("limina-stdin".into()).spawn(move || {
        let stdin = io::stdin();
        let mut reader = io::BufReader::with_capacity(64 * 1024, stdin.lock());
        while let Ok(Some(line)) = read_line_bounded(&mut reader, MAX_MESSAGE_BYTES) {
            if tx.send(line).is_err() {
                break;
            }
        }
    })?;

    let mut session = McpSession::new(1, &options.profile, &engine);
    let stdout = io::stdout();
    let mut driver = RealTimeDriver::new(Instant::now());
    loop {
        match rx.recv_timeout(driver.wait(Instant::now())) {
            Ok(line) => {
                let messages = match line {
                    Line::Text(text) if text.trim().is_empty() => Vec::new(),
                    Line::Text(text) => dispatcher::handle_text(&engine, &mut session, &text),
                    Line::TooLong(n) => vec![protocol::error(
                        Value::Null,
                        protocol::INVALID_REQUEST,
                        format!("message of {n} bytes is larger than the {MAX_MESSAGE_BYTES}-byte limit"),
                        None,
                    )],
                    Line::NotUtf8 => vec![protocol::error(Value::Null, protocol::PARSE_ERROR, "parse error: the line is not UTF-8", None)],
                };
                if !messages.is_empty() && write_messages(&mut stdout.lock(), &messages).is_err() {
                    // The client closed our stdout: nobody is listening any more.
                    return Ok(());
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return Ok(()),
        }
        if let Some(plan) = driver.due(Instant::now()) {
            if let Err(e) = engine.step(u64::from(plan.steps)) {
                tracing::warn!("a step callback failed: {}", e.message);
            }
            let notes = dispatcher::pending_notifications(&engine, &mut session);
            if !notes.is_empty() && write_messages(&mut stdout.lock(), &notes).is_err() {
                return Ok(());
            }
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
