//! The sha256 chain over exported events, JSONL export, and verification.
//!
//! `hash = "sha256:" + hex(sha256(canonical(event without integrity) + (previousHash or "")))`,
//! where canonical is compact JSON with sorted keys. The first event's `previousHash` is null.
//! Verification re-derives every hash and names the first broken line with exactly one reason.

use std::fmt;
use std::io::{self, Write};

use serde_json::Value;
use sha2::{Digest, Sha256};

use super::Event;

/// `"sha256:" + hex(sha256(canonical + previous))`.
pub fn chain_hash(canonical: &[u8], previous: Option<&str>) -> String {
    let mut hasher = Sha256::new();
    hasher.update(canonical);
    if let Some(p) = previous {
        hasher.update(p.as_bytes());
    }
    let digest = hasher.finalize();
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(7 + 64);
    out.push_str("sha256:");
    for b in digest.iter() {
        out.push(HEX[usize::from(b >> 4)] as char);
        out.push(HEX[usize::from(b & 15)] as char);
    }
    out
}

/// Writes chained JSONL lines, one event per line.
#[derive(Debug)]
pub struct ChainWriter<W: Write> {
    out: W,
    previous: Option<String>,
    events: u64,
    bytes: u64,
    scratch: Vec<u8>,
}

impl<W: Write> ChainWriter<W> {
    /// A writer continuing a chain whose last hash is `previous` (None for a new chain).
    pub fn new(out: W, previous: Option<String>) -> Self {
        Self { out, previous, events: 0, bytes: 0, scratch: Vec::with_capacity(512) }
    }

    pub fn write_event(&mut self, event: &Event) -> io::Result<()> {
        self.scratch.clear();
        serde_json::to_writer(&mut self.scratch, event)?;
        let canonical = std::mem::take(&mut self.scratch);
        let result = self.write_canonical(&canonical);
        self.scratch = canonical;
        result
    }

    /// Appends one event given as its canonical JSON object (`{...}`, no integrity).
    pub fn write_canonical(&mut self, canonical: &[u8]) -> io::Result<()> {
        let Some((b'}', body)) = canonical.split_last() else {
            return Err(io::Error::new(io::ErrorKind::InvalidData, "canonical event is not a JSON object"));
        };
        let hash = chain_hash(canonical, self.previous.as_deref());
        let previous = match &self.previous {
            Some(p) => format!("\"{p}\""),
            None => "null".to_string(),
        };
        let tail = format!(",\"integrity\":{{\"hash\":\"{hash}\",\"previousHash\":{previous}}}}}\n");
        // One write per line: a crash can tear only the last line, never interleave two.
        let mut line = Vec::with_capacity(body.len() + tail.len());
        line.extend_from_slice(body);
        line.extend_from_slice(tail.as_bytes());
        self.out.write_all(&line)?;
        self.events += 1;
        self.bytes += line.len() as u64;
        self.previous = Some(hash);
        Ok(())
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    pub fn events(&self) -> u64 {
        self.events
    }

    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    pub fn last_hash(&self) -> Option<&str> {
        self.previous.as_deref()
    }

    pub fn into_inner(self) -> W {
        self.out
    }
}

/// Why a trace file failed verification.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VerifyReason {
    InvalidJson,
    PartialFinalLine,
    MissingIntegrity,
    PreviousHashMismatch,
    HashMismatch,
}

impl VerifyReason {
    pub fn as_str(self) -> &'static str {
        match self {
            VerifyReason::InvalidJson => "invalid_json",
            VerifyReason::PartialFinalLine => "partial_final_line",
            VerifyReason::MissingIntegrity => "missing_integrity",
            VerifyReason::PreviousHashMismatch => "previous_hash_mismatch",
            VerifyReason::HashMismatch => "hash_mismatch",
        }
    }
}

/// The first broken line (1-based) and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct VerifyFailure {
    pub line: usize,
    pub reason: VerifyReason,
    pub detail: String,
}

impl fmt::Display for VerifyFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {} ({})", self.line, self.reason.as_str(), self.detail)
    }
}

/// Verifies a whole JSONL trace; returns the number of events.
pub fn verify_jsonl(bytes: &[u8]) -> Result<usize, VerifyFailure> {
    let mut previous: Option<String> = None;
    let mut count = 0;
    let ends_with_newline = bytes.last() == Some(&b'\n');
    let lines: Vec<&[u8]> = bytes.split(|b| *b == b'\n').collect();
    // split leaves one empty piece after a final newline; it is not a line.
    let n = if ends_with_newline || bytes.is_empty() { lines.len() - 1 } else { lines.len() };
    for (i, raw) in lines.iter().take(n).enumerate() {
        let line = i + 1;
        let fail = |reason, detail: String| VerifyFailure { line, reason, detail };
        let torn = i + 1 == n && !ends_with_newline;
        let mut value: Value = match serde_json::from_slice(raw) {
            Ok(v) => v,
            Err(e) if torn => {
                return Err(fail(VerifyReason::PartialFinalLine, format!("the last line is cut off: {e}")));
            }
            Err(e) => return Err(fail(VerifyReason::InvalidJson, e.to_string())),
        };
        let Some(object) = value.as_object_mut() else {
            return Err(fail(VerifyReason::InvalidJson, "a line must be a JSON object".into()));
        };
        let Some(integrity) = object.remove("integrity") else {
            return Err(fail(VerifyReason::MissingIntegrity, "no integrity field".into()));
        };
        let hash = integrity.get("hash").and_then(Value::as_str);
        let claimed_previous = match integrity.get("previousHash") {
            Some(Value::String(p)) => Some(p.as_str()),
            Some(Value::Null) => None,
            _ => {
                return Err(fail(VerifyReason::MissingIntegrity, "integrity.previousHash must be a string or null".into()));
            }
        };
        let Some(hash) = hash else {
            return Err(fail(VerifyReason::MissingIntegrity, "integrity.hash is missing".into()));
        };
        if claimed_previous != previous.as_deref() {
            return Err(fail(
                VerifyReason::PreviousHashMismatch,
                format!(
                    "previousHash {} but the line before hashes to {}",
                    claimed_previous.unwrap_or("null"),
                    previous.as_deref().unwrap_or("null (start of chain)")
                ),
            ));
        }
        let canonical = serde_json::to_vec(&value).map_err(|e| fail(VerifyReason::InvalidJson, e.to_string()))?;
        let expected = chain_hash(&canonical, previous.as_deref());
        if expected != hash {
            return Err(fail(VerifyReason::HashMismatch, format!("content hashes to {expected}, the line claims {hash}")));
        }
        previous = Some(expected);
        count += 1;
    }
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::{EventDraft, TraceLog};
    use serde_json::json;

    fn exported(n: u64) -> Vec<u8> {
        let mut log = TraceLog::new("thr_test");
        for i in 0..n {
            let payload = json!({"i": i, "name": "ball", "pos": [1.5, 2, 3], "parts": [{"kind": "box"}]});
            log.emit(EventDraft::new("test.event", "agt_t"), i, &payload);
        }
        let mut out = Vec::new();
        log.export(&mut out).unwrap();
        out
    }

    fn lines(bytes: &[u8]) -> Vec<String> {
        String::from_utf8(bytes.to_vec()).unwrap().lines().map(str::to_string).collect()
    }

    fn join(lines: &[String]) -> Vec<u8> {
        (lines.join("\n") + "\n").into_bytes()
    }

    #[test]
    fn an_export_verifies() {
        assert_eq!(verify_jsonl(&exported(5)), Ok(5));
        assert_eq!(verify_jsonl(b""), Ok(0));
    }

    #[test]
    fn first_line_has_a_null_previous_hash() {
        let l = lines(&exported(2));
        let first: Value = serde_json::from_str(&l[0]).unwrap();
        assert_eq!(first["integrity"]["previousHash"], Value::Null);
        let second: Value = serde_json::from_str(&l[1]).unwrap();
        assert_eq!(second["integrity"]["previousHash"], first["integrity"]["hash"]);
    }

    fn reason(bytes: &[u8]) -> (usize, &'static str) {
        let f = verify_jsonl(bytes).unwrap_err();
        (f.line, f.reason.as_str())
    }

    #[test]
    fn each_tampering_names_its_line_and_reason() {
        let l = lines(&exported(5));
        let mut flipped = l.clone();
        flipped[2] = flipped[2].replacen("\"ball\"", "\"bell\"", 1);
        assert_eq!(reason(&join(&flipped)), (3, "hash_mismatch"));

        let mut deleted = l.clone();
        deleted.remove(2);
        assert_eq!(reason(&join(&deleted)), (3, "previous_hash_mismatch"));

        let mut stripped = l.clone();
        let mut v: Value = serde_json::from_str(&stripped[1]).unwrap();
        v.as_object_mut().unwrap().remove("integrity");
        stripped[1] = v.to_string();
        assert_eq!(reason(&join(&stripped)), (2, "missing_integrity"));

        let mut torn = join(&l);
        torn.truncate(torn.len() - l[4].len() / 2);
        assert_eq!(reason(&torn), (5, "partial_final_line"));

        let mut garbage = l.clone();
        garbage[3] = "not json at all".into();
        assert_eq!(reason(&join(&garbage)), (4, "invalid_json"));
    }

    #[test]
    fn reordering_is_detected() {
        let mut l = lines(&exported(4));
        l.swap(1, 2);
        assert_eq!(reason(&join(&l)), (2, "previous_hash_mismatch"));
    }

    /// Puts `forged` in front of the first occurrence of `before` on line `n` (0-based).
    fn forge(lines: &[String], n: usize, before: &str, forged: &str) -> Vec<u8> {
        let mut l = lines.to_vec();
        assert!(l[n].contains(before), "{}", l[n]);
        l[n] = l[n].replacen(before, &format!("{forged}{before}"), 1);
        join(&l)
    }

    fn failure(bytes: &[u8]) -> VerifyFailure {
        verify_jsonl(bytes).expect_err("tampering must not verify")
    }

    #[test]
    fn a_duplicated_key_that_a_first_wins_reader_would_believe_is_refused() {
        let l = lines(&exported(5));
        // Each forgery sits in front of the genuine key: serde_json keeps the last (genuine)
        // value so the hash still matches, while a first-wins reader sees the forged one.
        let cases = [
            ("\"type\":", "\"type\":\"forged.event\",", "type"),
            ("\"payload\":", "\"payload\":{\"forged\":true},", "payload"),
            ("\"name\":\"ball\"", "\"name\":\"forged\",", "payload.name"),
            ("\"kind\":\"box\"", "\"kind\":\"forged\",", "payload.parts[0].kind"),
            ("\"hash\":", "\"hash\":\"sha256:forged\",", "integrity.hash"),
        ];
        for (before, forged, path) in cases {
            let f = failure(&forge(&l, 2, before, forged));
            assert_eq!((f.line, f.reason.as_str()), (3, "duplicate_key"), "{path}: {f}");
            assert!(f.detail.contains(&format!("\"{path}\"")), "the detail names {path}: {f}");
        }
        // An escaped spelling of the same key is the same key.
        let f = failure(&forge(&l, 1, "\"type\":", "\"t\\u0079pe\":\"forged.event\","));
        assert_eq!((f.line, f.reason.as_str()), (2, "duplicate_key"), "{f}");
    }

    #[test]
    fn an_unhashed_field_inside_integrity_is_refused() {
        let l = lines(&exported(5));
        let f = failure(&forge(&l, 3, "\"hash\":", "\"signedBy\":\"auditor\","));
        assert_eq!((f.line, f.reason.as_str()), (4, "unknown_integrity_field"), "{f}");
        assert!(f.detail.contains("signedBy"), "{f}");
    }

    #[test]
    fn cutting_lines_off_the_end_is_detected() {
        let l = lines(&exported(5));
        for keep in 0..l.len() {
            let cut = if keep == 0 { Vec::new() } else { join(&l[..keep]) };
            let f = failure(&cut);
            assert_eq!((f.line, f.reason.as_str()), (keep + 1, "truncated"), "keeping {keep} lines: {f}");
        }
    }
}
