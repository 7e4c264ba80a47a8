//! Verifying a JSONL trace: re-derive every hash, check the seal, and name the first broken
//! line with exactly one reason.
//!
//! A line must be one JSON object with no key repeated anywhere in it (readers disagree on
//! which of two equal keys counts, so a repeated key could show a forged value on a line that
//! hashes correctly), and an `integrity` object holding exactly `hash` and `previousHash` (a
//! field there is outside the hash, so anything else would be unverified text riding along).
//! The seal must be the last line and agree with the lines before it. A file that verifies
//! but has no seal is reported as unsealed by [`verify_chain`] and refused as `truncated` by
//! [`verify_sealed`] and [`verify_jsonl`]: nothing in it shows whether lines were cut off the
//! end, or whether it is a live log still being written (or never closed cleanly).

use std::fmt;

use serde_json::{Map, Value};

use super::chain::{Anchor, SEAL_FIELDS, SEAL_TYPE, chain_digest};
use super::strict_json::{ParseError, parse_unique_keys};

/// Why a trace file failed verification.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VerifyReason {
    InvalidJson,
    PartialFinalLine,
    MissingIntegrity,
    PreviousHashMismatch,
    HashMismatch,
    /// A key appears twice in one object of the line.
    DuplicateKey,
    /// `integrity` holds a field other than `hash` and `previousHash`.
    UnknownIntegrityField,
    /// The file ends without a seal.
    Truncated,
    /// The seal disagrees with the lines before it, or is malformed.
    SealMismatch,
    /// A line follows the seal.
    AfterSeal,
    /// The seal does not hash to the anchor the caller kept.
    AnchorMismatch,
    /// A line longer than a reader holds (`MAX_LINE_BYTES`).
    LineTooLong,
    /// The file could not be read (an I/O error mid-way).
    Unreadable,
}

impl VerifyReason {
    pub fn as_str(self) -> &'static str {
        match self {
            VerifyReason::InvalidJson => "invalid_json",
            VerifyReason::PartialFinalLine => "partial_final_line",
            VerifyReason::MissingIntegrity => "missing_integrity",
            VerifyReason::PreviousHashMismatch => "previous_hash_mismatch",
            VerifyReason::HashMismatch => "hash_mismatch",
            VerifyReason::DuplicateKey => "duplicate_key",
            VerifyReason::UnknownIntegrityField => "unknown_integrity_field",
            VerifyReason::Truncated => "truncated",
            VerifyReason::SealMismatch => "seal_mismatch",
            VerifyReason::AfterSeal => "after_seal",
            VerifyReason::AnchorMismatch => "anchor_mismatch",
            VerifyReason::LineTooLong => "line_too_long",
            VerifyReason::Unreadable => "unreadable",
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

/// What an intact chain holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verified {
    /// Event lines (the seal is not an event).
    pub events: usize,
    /// The anchor (the seal's hash) when the file ends with a seal; None when it is unsealed.
    pub seal: Option<Anchor>,
}

/// Verifies a whole JSONL trace that must be sealed (an export, or a live log that was closed);
/// returns the number of events. An unsealed file is `truncated`.
pub fn verify_jsonl(bytes: &[u8]) -> Result<usize, VerifyFailure> {
    verify_sealed(bytes, None).map(|v| v.events)
}

/// Verifies a trace that must end with a seal and, given an anchor, that the seal hashes to it.
pub fn verify_sealed(bytes: &[u8], anchor: Option<&Anchor>) -> Result<Verified, VerifyFailure> {
    require_seal(verify_chain(bytes)?, anchor)
}

/// `verify_sealed` of a chain already verified line by line (`verify_chain` or `verify_reader`).
pub fn require_seal(verified: Verified, anchor: Option<&Anchor>) -> Result<Verified, VerifyFailure> {
    // The seal, or the line where it is missing, comes right after the events.
    let line = verified.events + 1;
    match (verified.seal, anchor) {
        (None, _) => Err(VerifyFailure {
            line,
            reason: VerifyReason::Truncated,
            detail: format!(
                "no {SEAL_TYPE} record after the {} events: the end of the log was cut off, or it is a live log still being written or not closed cleanly",
                verified.events
            ),
        }),
        (Some(seal), Some(kept)) if seal != *kept => Err(VerifyFailure {
            line,
            reason: VerifyReason::AnchorMismatch,
            detail: format!("the seal hashes to {seal}, the anchor kept at export is {kept}: the log was rewritten"),
        }),
        (Some(_), _) => Ok(verified),
    }
}

/// Verifies every line of a trace, sealed or not (a live log may still be growing). Check
/// [`Verified::seal`]: None means nothing shows the file is complete.
pub fn verify_chain(bytes: &[u8]) -> Result<Verified, VerifyFailure> {
    verify_reader(bytes)
}

/// Longest line `verify_reader` holds: each is parsed whole, at several times its bytes.
pub const MAX_LINE_BYTES: usize = 64 << 20;

/// `verify_chain` of a stream, a line at a time, so a trace larger than memory verifies; a
/// line past `MAX_LINE_BYTES` is refused before it is held whole.
pub fn verify_reader(mut reader: impl std::io::BufRead) -> Result<Verified, VerifyFailure> {
    use std::io::{BufRead, Read};
    let mut chain = Chain::default();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let line = chain.lines + 1;
        let read = (&mut reader).take(MAX_LINE_BYTES as u64 + 1).read_until(b'\n', &mut buf);
        match read {
            Ok(0) => return Ok(chain.verified()),
            Ok(_) => {}
            Err(e) => return Err(VerifyFailure { line, reason: VerifyReason::Unreadable, detail: e.to_string() }),
        }
        let ends = buf.last() == Some(&b'\n');
        if !ends && buf.len() > MAX_LINE_BYTES {
            return Err(VerifyFailure {
                line,
                reason: VerifyReason::LineTooLong,
                detail: format!("a line longer than {MAX_LINE_BYTES} bytes"),
            });
        }
        let raw = if ends { &buf[..buf.len() - 1] } else { &buf[..] };
        chain.line(raw, !ends)?;
    }
}

/// `verify_reader` of the file at `path`. A path that is not a regular file is refused as an
/// I/O error before it is read (a FIFO or a device would never end).
pub fn verify_file(path: &std::path::Path) -> std::io::Result<Result<Verified, VerifyFailure>> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(std::io::Error::other("not a regular file (a FIFO or device is never read)"));
    }
    let file = std::fs::File::open(path)?;
    Ok(verify_reader(std::io::BufReader::with_capacity(1 << 20, file)))
}

/// The state of a verification between lines.
#[derive(Default)]
struct Chain {
    /// Lines checked so far.
    lines: usize,
    previous: Option<String>,
    events: usize,
    seal: Option<(usize, Anchor)>,
}

impl Chain {
    fn verified(&self) -> Verified {
        Verified { events: self.events, seal: self.seal.map(|(_, anchor)| anchor) }
    }

    /// Checks the next line; `torn` when it is the last and has no newline.
    fn line(&mut self, raw: &[u8], torn: bool) -> Result<(), VerifyFailure> {
        self.lines += 1;
        let line = self.lines;
        let (previous, events) = (&self.previous, self.events);
        let seal = self.seal;
        let fail = |reason, detail: String| VerifyFailure { line, reason, detail };
        if let Some((sealed_at, _)) = seal {
            return Err(fail(VerifyReason::AfterSeal, format!("the log was sealed on line {sealed_at}; nothing may follow its seal")));
        }
        let mut value = match parse_unique_keys(raw) {
            Ok(v) => v,
            Err(ParseError::DuplicateKey(path)) => {
                return Err(fail(
                    VerifyReason::DuplicateKey,
                    format!("the key \"{path}\" appears twice; readers differ on which value counts"),
                ));
            }
            Err(ParseError::Syntax(e)) if torn => {
                return Err(fail(VerifyReason::PartialFinalLine, format!("the last line is cut off: {e}")));
            }
            Err(ParseError::Syntax(e)) => return Err(fail(VerifyReason::InvalidJson, e.to_string())),
        };
        let Some(object) = value.as_object_mut() else {
            return Err(fail(VerifyReason::InvalidJson, "a line must be a JSON object".into()));
        };
        let Some(integrity) = object.remove("integrity") else {
            return Err(fail(VerifyReason::MissingIntegrity, "no integrity field".into()));
        };
        let Value::Object(integrity) = integrity else {
            return Err(fail(VerifyReason::MissingIntegrity, "integrity must be an object of hash and previousHash".into()));
        };
        if let Some(field) = integrity.keys().find(|k| !matches!(k.as_str(), "hash" | "previousHash")) {
            return Err(fail(
                VerifyReason::UnknownIntegrityField,
                format!("integrity.{field} is not covered by the hash; integrity holds only hash and previousHash"),
            ));
        }
        let claimed_previous = match integrity.get("previousHash") {
            Some(Value::String(p)) => Some(p.as_str()),
            Some(Value::Null) => None,
            _ => {
                return Err(fail(VerifyReason::MissingIntegrity, "integrity.previousHash must be a string or null".into()));
            }
        };
        let Some(hash) = integrity.get("hash").and_then(Value::as_str) else {
            return Err(fail(VerifyReason::MissingIntegrity, "integrity.hash is missing".into()));
        };
        if claimed_previous != previous.as_deref() {
            return Err(fail(
                VerifyReason::PreviousHashMismatch,
                format!(
                    "previousHash {} but the line before hashes to {}",
                    crate::clip::shown(claimed_previous.unwrap_or("null")),
                    previous.as_deref().unwrap_or("null (start of chain)")
                ),
            ));
        }
        let canonical = serde_json::to_vec(&value).map_err(|e| fail(VerifyReason::InvalidJson, e.to_string()))?;
        let digest = chain_digest(&canonical, previous.as_deref());
        let expected = Anchor::from_digest(digest).to_string();
        if expected != hash {
            return Err(fail(
                VerifyReason::HashMismatch,
                format!("content hashes to {expected}, the line claims {}", crate::clip::shown(hash)),
            ));
        }
        if let Some(object) = value.as_object()
            && object.get("type").and_then(Value::as_str) == Some(SEAL_TYPE)
        {
            check_seal(object, events, previous.as_deref()).map_err(|e| fail(VerifyReason::SealMismatch, e.to_string()))?;
            self.seal = Some((line, Anchor::from_digest(digest)));
        } else {
            self.events += 1;
        }
        self.previous = Some(expected);
        Ok(())
    }
}

/// Why a seal line does not close the file it ends: the detail of a `seal_mismatch`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum SealError {
    #[error("the seal has a field {field:?}; a seal holds only {}", SEAL_FIELDS.join(", "))]
    ExtraField { field: String },
    #[error("the seal counts {claimed} events, the file holds {events} before it")]
    Count { claimed: String, events: usize },
    #[error("the seal's lastHash must be a hash or null, got {got}")]
    LastHashType { got: String },
    #[error("the seal names {} as the last hash, the line before hashes to {}", named.as_deref().unwrap_or("null"), previous.as_deref().unwrap_or("null"))]
    LastHash { named: Option<String>, previous: Option<String> },
    #[error("the seal's sealedAt must be a timestamp")]
    SealedAt,
}

/// A seal holds exactly its fields, counts the events before it and names the last one's hash.
fn check_seal(seal: &Map<String, Value>, events: usize, previous: Option<&str>) -> Result<(), SealError> {
    if let Some(field) = seal.keys().find(|k| !SEAL_FIELDS.contains(&k.as_str())) {
        return Err(SealError::ExtraField { field: field.clone() });
    }
    let counted = seal.get("events").and_then(Value::as_u64);
    if counted != Some(events as u64) {
        let claimed = seal.get("events").map_or_else(|| "no count".to_string(), Value::to_string);
        return Err(SealError::Count { claimed, events });
    }
    let last = match seal.get("lastHash") {
        Some(Value::String(h)) => Some(h.as_str()),
        Some(Value::Null) => None,
        other => return Err(SealError::LastHashType { got: other.map_or("nothing".into(), Value::to_string) }),
    };
    if last != previous {
        return Err(SealError::LastHash { named: last.map(str::to_string), previous: previous.map(str::to_string) });
    }
    if !seal.get("sealedAt").is_some_and(Value::is_string) {
        return Err(SealError::SealedAt);
    }
    Ok(())
}

/// Rebuilds the integrity of `body` after `previous`, as an exporter would (tests forge with it).
#[cfg(test)]
pub(super) fn rechain(body: &Value, previous: Option<&str>) -> String {
    let hash = super::chain_hash(serde_json::to_string(body).unwrap_or_default().as_bytes(), previous);
    let mut line = body.clone();
    line["integrity"] = serde_json::json!({"hash": hash, "previousHash": previous});
    line.to_string()
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
        if lines.is_empty() { Vec::new() } else { (lines.join("\n") + "\n").into_bytes() }
    }

    fn value(line: &str) -> Value {
        serde_json::from_str(line).unwrap()
    }

    #[test]
    fn an_export_verifies() {
        assert_eq!(verify_jsonl(&exported(5)), Ok(5));
        assert_eq!(verify_jsonl(&exported(0)), Ok(0), "an empty log is sealed too");
    }

    #[test]
    fn first_line_has_a_null_previous_hash() {
        let l = lines(&exported(2));
        let first = value(&l[0]);
        assert_eq!(first["integrity"]["previousHash"], Value::Null);
        let second = value(&l[1]);
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
        let mut v = value(&stripped[1]);
        v.as_object_mut().unwrap().remove("integrity");
        stripped[1] = v.to_string();
        assert_eq!(reason(&join(&stripped)), (2, "missing_integrity"));

        let mut torn = join(&l);
        torn.truncate(torn.len() - l[5].len() / 2);
        assert_eq!(reason(&torn), (6, "partial_final_line"));

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
        // The seal is a line like any other.
        let f = failure(&forge(&l, 5, "\"events\":", "\"events\":99,"));
        assert_eq!((f.line, f.reason.as_str()), (6, "duplicate_key"), "{f}");
    }

    #[test]
    fn an_unhashed_field_inside_integrity_is_refused() {
        let l = lines(&exported(5));
        let f = failure(&forge(&l, 3, "\"hash\":", "\"signedBy\":\"auditor\","));
        assert_eq!((f.line, f.reason.as_str()), (4, "unknown_integrity_field"), "{f}");
        assert!(f.detail.contains("signedBy"), "{f}");
        let f = failure(&forge(&l, 5, "\"hash\":", "\"note\":null,"));
        assert_eq!((f.line, f.reason.as_str()), (6, "unknown_integrity_field"), "{f}");
    }

    #[test]
    fn cutting_lines_off_the_end_is_detected() {
        let l = lines(&exported(5));
        for keep in 0..l.len() {
            let f = failure(&join(&l[..keep]));
            assert_eq!((f.line, f.reason.as_str()), (keep + 1, "truncated"), "keeping {keep} lines: {f}");
        }
        // Cutting an event but keeping the seal breaks the chain at the seal.
        let mut l = l;
        l.remove(4);
        assert_eq!(reason(&join(&l)), (5, "previous_hash_mismatch"));
    }

    #[test]
    fn an_unsealed_chain_verifies_only_as_unsealed() {
        let l = lines(&exported(3));
        let sealed = verify_chain(&join(&l)).unwrap();
        assert_eq!(sealed.events, 3);
        assert!(sealed.seal.is_some());
        assert_eq!(verify_chain(&join(&l[..3])), Ok(Verified { events: 3, seal: None }));
        assert_eq!(verify_chain(b""), Ok(Verified { events: 0, seal: None }));
    }

    /// The seal of `l` with its fields changed by `edit`, re-chained after line `after`.
    fn reseal(l: &[String], after: usize, edit: impl FnOnce(&mut Value)) -> Vec<String> {
        let mut out = l[..after].to_vec();
        let mut body = value(l.last().unwrap());
        body.as_object_mut().unwrap().remove("integrity");
        edit(&mut body);
        let previous = out.last().map(|line| value(line)["integrity"]["hash"].as_str().unwrap().to_string());
        out.push(rechain(&body, previous.as_deref()));
        out
    }

    #[test]
    fn a_rechained_seal_must_agree_with_the_lines_before_it() {
        let l = lines(&exported(5));
        // Two events cut, the old seal re-chained onto what is left: its count gives it away.
        let f = failure(&join(&reseal(&l, 3, |_| {})));
        assert_eq!((f.line, f.reason.as_str()), (4, "seal_mismatch"), "{f}");
        assert!(f.detail.contains("counts 5 events, the file holds 3"), "{f}");
        let f = failure(&join(&reseal(&l, 5, |s| s["lastHash"] = json!("sha256:0"))));
        assert_eq!((f.line, f.reason.as_str()), (6, "seal_mismatch"), "{f}");
        let f = failure(&join(&reseal(&l, 5, |s| s["comment"] = json!("ok"))));
        assert_eq!((f.line, f.reason.as_str()), (6, "seal_mismatch"), "{f}");
        assert!(f.detail.contains("comment"), "{f}");
        // The same seal, with the right count for the lines left: the chain cannot tell.
        let forged = join(&reseal(&l, 3, |s| {
            s["events"] = json!(3);
            s["lastHash"] = value(&l[2])["integrity"]["hash"].clone();
        }));
        assert_eq!(verify_jsonl(&forged), Ok(3), "without a key a full re-seal verifies; the anchor is what catches it");
    }

    #[test]
    fn the_anchor_kept_at_export_catches_a_full_rewrite() {
        let mut log = TraceLog::new("thr");
        for i in 0..4 {
            log.emit(EventDraft::new("e", "a"), i, &json!({"n": i}));
        }
        let mut out = Vec::new();
        let anchor = log.export(&mut out).unwrap().anchor;
        assert_eq!(verify_sealed(&out, Some(&anchor)).map(|v| v.seal), Ok(Some(anchor)));

        // Rewrite event 2 and re-chain everything after it.
        let l = lines(&out);
        let mut rewritten = l[..1].to_vec();
        for line in &l[1..] {
            let mut body = value(line);
            body.as_object_mut().unwrap().remove("integrity");
            if body["seq"] == 2 {
                body["payload"]["n"] = json!(42);
            }
            let previous = value(rewritten.last().unwrap())["integrity"]["hash"].as_str().unwrap().to_string();
            if body["type"] == SEAL_TYPE {
                body["lastHash"] = json!(previous);
            }
            rewritten.push(rechain(&body, Some(&previous)));
        }
        let rewritten = join(&rewritten);
        assert_eq!(verify_jsonl(&rewritten), Ok(4));
        let f = verify_sealed(&rewritten, Some(&anchor)).unwrap_err();
        assert_eq!((f.line, f.reason), (5, VerifyReason::AnchorMismatch));
        assert!(f.detail.contains(&anchor.to_string()), "{f}");
    }

    #[test]
    fn nothing_may_follow_the_seal() {
        let l = lines(&exported(2));
        let seal_hash = value(&l[2])["integrity"]["hash"].as_str().unwrap().to_string();
        let mut extended = l.clone();
        let mut body = value(&l[1]);
        body.as_object_mut().unwrap().remove("integrity");
        body["seq"] = json!(3);
        extended.push(rechain(&body, Some(&seal_hash)));
        let f = failure(&join(&extended));
        assert_eq!((f.line, f.reason.as_str()), (4, "after_seal"), "{f}");
        assert!(f.detail.contains("line 3"), "{f}");
        // Two exports glued together are refused the same way.
        let mut glued = join(&l);
        glued.extend_from_slice(&exported(1));
        assert_eq!(reason(&glued), (4, "after_seal"));
    }
}
