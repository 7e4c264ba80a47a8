//! Reading a command log back, line by line (a log can be far larger than memory).
//!
//! A crash can cut the last line short: an incomplete final line (no newline) is the torn tail
//! of a killed run and is left out, silently, because nothing after it was ever acknowledged.
//! Any other line that does not parse (or is too long, or is a second header) is corruption and
//! is refused with its line number. Recovery reads past such lines instead
//! (`next_record_or_bad`, `skip_bad_through`, `end_before`, `pass_over`; see `recover`), never
//! into them.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use super::record::{FORMAT, Header, Record};

/// Longest line read: a call's input is bounded by the transports' message limit (4 MiB), and a
/// parsed line holds many times its bytes, so a crafted log is refused well before that costs.
const MAX_LINE: usize = 8 * 1024 * 1024;

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum LogError {
    #[error("{path}: cannot read the command log: {message}")]
    Io { path: String, message: String },
    #[error("{path}: not a limina command log (the first line is not its header: {message})")]
    NoHeader { path: String, message: String },
    #[error("{path}: command log format {found}, this limina reads format {expected}")]
    Format { path: String, found: u32, expected: u32 },
    #[error("{path}:{line}: corrupt record: {message}")]
    Corrupt { path: String, line: u64, message: String },
}

/// A line that is not a record: it does not parse, is longer than `MAX_LINE`, or is a second
/// header. Read whole (reading can go on after it).
#[derive(Debug, Clone, PartialEq)]
pub struct BadLine {
    pub line: u64,
    /// Where it starts in the file.
    pub offset: u64,
    pub bytes: u64,
    pub reason: String,
}

/// A log opened for reading: its header, then its records in order.
pub struct LogReader {
    path: PathBuf,
    lines: BufReader<File>,
    line: u64,
    /// Bytes read so far.
    offset: u64,
    pub header: Header,
    buf: Vec<u8>,
    /// Set when the last line was cut short (a torn tail).
    pub torn_tail: bool,
    /// Bad lines up to this line number are passed over, not refused (recovery: they lie before
    /// the snapshot it starts from, which holds their effects).
    pub(crate) skip_bad_through: u64,
    /// Reading ends before this line (recovery: a bad line, which nothing after may be replayed
    /// without).
    pub(crate) end_before: Option<u64>,
    /// Bad lines passed over wherever they are, ascending (recovery: lines a take-over's fence
    /// came after, which the world it continued never held).
    pub(crate) pass_over: Vec<u64>,
}

impl std::fmt::Debug for LogReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LogReader").field("path", &self.path).field("line", &self.line).finish()
    }
}

impl LogReader {
    pub fn open(path: &Path) -> Result<LogReader, LogError> {
        let shown = path.display().to_string();
        let file = File::open(path).map_err(|e| LogError::Io { path: shown.clone(), message: e.to_string() })?;
        let mut reader = LogReader {
            path: path.to_path_buf(),
            lines: BufReader::with_capacity(256 * 1024, file),
            line: 0,
            offset: 0,
            header: Header {
                format: 0,
                engine: String::new(),
                seed: 0,
                entity_capacity: 0,
                checkpoint_every: 1,
                scheduler: serde_json::Value::Null,
                start_tick: 0,
                base: None,
            },
            buf: Vec::new(),
            torn_tail: false,
            skip_bad_through: 0,
            end_before: None,
            pass_over: Vec::new(),
        };
        let no_header = |message: String| LogError::NoHeader { path: shown.clone(), message };
        match reader.next_line() {
            Ok(Some(Record::Header(header))) => {
                if header.format != FORMAT {
                    return Err(LogError::Format { path: shown, found: header.format, expected: FORMAT });
                }
                reader.header = header;
                Ok(reader)
            }
            Ok(Some(other)) => Err(no_header(format!("it is {}", other.describe()))),
            Ok(None) => Err(no_header("the file is empty".into())),
            Err(LogError::Corrupt { message, .. }) => Err(no_header(message)),
            Err(e) => Err(e),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The line number of the record `next_record` returned last.
    pub fn line(&self) -> u64 {
        self.line
    }

    /// Bytes read so far.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The bytes of the line `next_record` read last.
    pub fn line_bytes(&self) -> usize {
        self.buf.len()
    }

    /// The next line as a record, or as a bad line; None at the end, at a torn tail or at
    /// `end_before`.
    pub(crate) fn next_record_or_bad(&mut self) -> Result<Option<Result<Record, BadLine>>, LogError> {
        if self.end_before.is_some_and(|end| self.line + 1 >= end) {
            return Ok(None);
        }
        self.buf.clear();
        let io = |path: &Path, e: std::io::Error| LogError::Io { path: path.display().to_string(), message: e.to_string() };
        let start = self.offset;
        let read =
            std::io::Read::take(&mut self.lines, MAX_LINE as u64 + 1).read_until(b'\n', &mut self.buf).map_err(|e| io(&self.path, e))?;
        if read == 0 {
            return Ok(None);
        }
        self.offset += read as u64;
        self.line += 1;
        let bad = |line: u64, bytes: u64, reason: String| Ok(Some(Err(BadLine { line, offset: start, bytes, reason })));
        if self.buf.last() != Some(&b'\n') {
            if self.buf.len() > MAX_LINE {
                // Read past the rest of the line without keeping it, so reading can go on.
                let rest = self.skip_line().map_err(|e| io(&self.path, e))?;
                self.buf.clear();
                return bad(self.line, read as u64 + rest, format!("a line longer than {MAX_LINE} bytes"));
            }
            // The run was killed mid-write: this line never finished, so nothing relied on it.
            self.torn_tail = true;
            return Ok(None);
        }
        match serde_json::from_slice::<Record>(&self.buf) {
            Ok(Record::Header(_)) if self.line > 1 => bad(self.line, read as u64, "a second header".into()),
            Ok(record) => Ok(Some(Ok(record))),
            Err(e) => bad(self.line, read as u64, e.to_string()),
        }
    }

    /// Reads up to and including the next newline (or the end); how many bytes.
    fn skip_line(&mut self) -> std::io::Result<u64> {
        let mut skipped = 0u64;
        loop {
            let chunk = self.lines.fill_buf()?;
            if chunk.is_empty() {
                return Ok(skipped);
            }
            let (n, done) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (chunk.len(), false),
            };
            self.lines.consume(n);
            self.offset += n as u64;
            skipped += n as u64;
            if done {
                return Ok(skipped);
            }
        }
    }

    fn next_line(&mut self) -> Result<Option<Record>, LogError> {
        loop {
            match self.next_record_or_bad()? {
                Some(Ok(record)) => return Ok(Some(record)),
                Some(Err(bad)) if bad.line <= self.skip_bad_through || self.pass_over.binary_search(&bad.line).is_ok() => continue,
                Some(Err(bad)) => {
                    return Err(LogError::Corrupt { path: self.path.display().to_string(), line: bad.line, message: bad.reason });
                }
                None => return Ok(None),
            }
        }
    }

    /// The next record, or None at the end (or at a torn tail).
    pub fn next_record(&mut self) -> Result<Option<Record>, LogError> {
        self.next_line()
    }
}
