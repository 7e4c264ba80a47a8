//! Reading a command log back, line by line (a log can be far larger than memory).
//!
//! A crash can cut the last line short: an incomplete final line (no newline) is the torn tail
//! of a killed run and is left out, silently, because nothing after it was ever acknowledged.
//! Any other line that does not parse is corruption and is refused with its line number.

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

/// A log opened for reading: its header, then its records in order.
pub struct LogReader {
    path: PathBuf,
    lines: BufReader<File>,
    line: u64,
    pub header: Header,
    buf: Vec<u8>,
    /// Set when the last line was cut short (a torn tail).
    pub torn_tail: bool,
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
            header: Header {
                format: 0,
                engine: String::new(),
                seed: 0,
                entity_capacity: 0,
                checkpoint_every: 1,
                scheduler: serde_json::Value::Null,
                start_tick: 0,
            },
            buf: Vec::new(),
            torn_tail: false,
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

    /// The bytes of the line `next_record` read last.
    pub fn line_bytes(&self) -> usize {
        self.buf.len()
    }

    fn next_line(&mut self) -> Result<Option<Record>, LogError> {
        self.buf.clear();
        let shown = || self.path.display().to_string();
        let read = std::io::Read::take(&mut self.lines, MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut self.buf)
            .map_err(|e| LogError::Io { path: shown(), message: e.to_string() })?;
        if read == 0 {
            return Ok(None);
        }
        self.line += 1;
        if self.buf.last() != Some(&b'\n') {
            if self.buf.len() > MAX_LINE {
                return Err(LogError::Corrupt { path: shown(), line: self.line, message: format!("a line longer than {MAX_LINE} bytes") });
            }
            // The run was killed mid-write: this line never finished, so nothing relied on it.
            self.torn_tail = true;
            return Ok(None);
        }
        serde_json::from_slice(&self.buf).map(Some).map_err(|e| LogError::Corrupt {
            path: shown(),
            line: self.line,
            message: e.to_string(),
        })
    }

    /// The next record, or None at the end (or at a torn tail).
    pub fn next_record(&mut self) -> Result<Option<Record>, LogError> {
        match self.next_line()? {
            Some(Record::Header(_)) => {
                Err(LogError::Corrupt { path: self.path.display().to_string(), line: self.line, message: "a second header".into() })
            }
            other => Ok(other),
        }
    }
}
