//! The sha256 chain over exported events, and the seal that ends it.
//!
//! `hash = "sha256:" + hex(sha256(canonical(event without integrity) + (previousHash or "")))`,
//! where canonical is compact JSON with sorted keys. The first event's `previousHash` is null.
//!
//! A finished log ends with one more chained line, the seal:
//! `{"events":N,"lastHash":H,"sealedAt":T,"type":"trace.sealed","integrity":{…}}`, where `N` is
//! the number of event lines before it and `H` the last one's hash (null for none). Without a
//! seal a reader cannot tell a complete log from one whose tail was cut off. The seal's own hash
//! is the log's [`Anchor`]: it commits to every line and to the count. The chain has no key, so
//! whoever can write the file can rewrite and re-seal all of it; what catches that is the anchor
//! an auditor kept from the export, compared by `limina trace verify FILE --anchor sha256:…`.
//! Checking a file is `verify.rs`.

use std::fmt;
use std::io::{self, Write};
use std::str::FromStr;

use serde::Serialize;
use sha2::{Digest, Sha256};

use super::Event;

/// The `type` of the seal line. No event is ever emitted with it.
pub(super) const SEAL_TYPE: &str = "trace.sealed";

/// The fields of a seal, in sorted order (so serializing it is its canonical form).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SealRecord<'a> {
    events: u64,
    last_hash: Option<&'a str>,
    sealed_at: String,
    #[serde(rename = "type")]
    kind: &'static str,
}

/// The JSON names of the seal's fields (verification refuses any other).
pub(super) const SEAL_FIELDS: [&str; 4] = ["events", "lastHash", "sealedAt", "type"];

/// `sha256(canonical + previous)`.
pub(super) fn chain_digest(canonical: &[u8], previous: Option<&str>) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(canonical);
    if let Some(p) = previous {
        hasher.update(p.as_bytes());
    }
    hasher.finalize().into()
}

/// `"sha256:" + hex(sha256(canonical + previous))`.
pub fn chain_hash(canonical: &[u8], previous: Option<&str>) -> String {
    hash_text(&chain_digest(canonical, previous))
}

fn hash_text(digest: &[u8; 32]) -> String {
    crate::digest::sha256_text(digest)
}

/// The hash of a log's seal line, written `sha256:<64 hex digits>`. It commits to every line
/// of the log and to its event count: keep it from the export, and a rewritten log (even one
/// re-chained and re-sealed from scratch) no longer matches it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Anchor([u8; 32]);

impl Anchor {
    pub(super) fn from_digest(digest: [u8; 32]) -> Self {
        Self(digest)
    }
}

impl fmt::Display for Anchor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&hash_text(&self.0))
    }
}

/// An anchor that is not `sha256:` and 64 hex digits.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("an anchor is \"sha256:\" followed by 64 hex digits, got {0:?}")]
pub struct AnchorParseError(pub String);

impl FromStr for Anchor {
    type Err = AnchorParseError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = || AnchorParseError(text.to_string());
        let hex = text.strip_prefix("sha256:").ok_or_else(bad)?.as_bytes();
        if hex.len() != 64 {
            return Err(bad());
        }
        let mut digest = [0u8; 32];
        for (byte, pair) in digest.iter_mut().zip(hex.chunks_exact(2)) {
            let nibble = |c: u8| char::from(c).to_digit(16).ok_or_else(bad);
            *byte = ((nibble(pair[0])? << 4) | nibble(pair[1])?) as u8;
        }
        Ok(Self(digest))
    }
}

/// Writes chained JSONL lines, one event per line, and finally the seal.
#[derive(Debug)]
pub struct ChainWriter<W: Write> {
    out: W,
    previous: Option<String>,
    events: u64,
    bytes: u64,
    scratch: Vec<u8>,
    sealed: bool,
}

impl<W: Write> ChainWriter<W> {
    /// A writer continuing a chain whose last hash is `previous` (None for a new chain).
    pub fn new(out: W, previous: Option<String>) -> Self {
        Self { out, previous, events: 0, bytes: 0, scratch: Vec::with_capacity(512), sealed: false }
    }

    pub(crate) fn write_event(&mut self, event: &Event) -> io::Result<()> {
        self.scratch.clear();
        event.write_canonical(&mut self.scratch);
        let canonical = std::mem::take(&mut self.scratch);
        let result = self.write_canonical(&canonical);
        self.scratch = canonical;
        result
    }

    /// Appends one event given as its canonical JSON object (`{...}`, no integrity).
    pub(crate) fn write_canonical(&mut self, canonical: &[u8]) -> io::Result<()> {
        if self.sealed {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "the trace is sealed: nothing can follow its seal"));
        }
        self.write_line(canonical)?;
        self.events += 1;
        Ok(())
    }

    /// Ends the chain with a seal line counting the events written by this writer, and returns
    /// the log's anchor. Nothing can be written after it. The count covers only this writer's
    /// events, so seal a chain this writer started (`previous` None), as export and append do.
    pub fn seal(&mut self) -> io::Result<Anchor> {
        if self.sealed {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "the trace is already sealed"));
        }
        let record =
            SealRecord { events: self.events, last_hash: self.previous.as_deref(), sealed_at: super::iso8601_now(), kind: SEAL_TYPE };
        let canonical = serde_json::to_vec(&record)?;
        let digest = self.write_line(&canonical)?;
        self.sealed = true;
        Ok(Anchor::from_digest(digest))
    }

    fn write_line(&mut self, canonical: &[u8]) -> io::Result<[u8; 32]> {
        let Some((b'}', body)) = canonical.split_last() else {
            return Err(io::Error::new(io::ErrorKind::InvalidData, "canonical event is not a JSON object"));
        };
        let digest = chain_digest(canonical, self.previous.as_deref());
        let hash = hash_text(&digest);
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
        self.bytes += line.len() as u64;
        self.previous = Some(hash);
        Ok(digest)
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// Events written (the seal is not an event).
    pub fn events(&self) -> u64 {
        self.events
    }

    /// Bytes written, the seal included.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    #[cfg(test)]
    pub(crate) fn is_sealed(&self) -> bool {
        self.sealed
    }

    #[cfg(test)]
    pub(crate) fn into_inner(self) -> W {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seal_is_the_last_line_and_its_hash_is_the_anchor() {
        let mut w = ChainWriter::new(Vec::new(), None);
        w.write_canonical(br#"{"a":1}"#).unwrap();
        let anchor = w.seal().unwrap();
        assert_eq!((w.events(), w.is_sealed()), (1, true));
        assert!(w.write_canonical(br#"{"a":2}"#).is_err(), "nothing follows a seal");
        assert!(w.seal().is_err(), "a log is sealed once");
        let text = String::from_utf8(w.into_inner()).unwrap();
        let seal = text.lines().nth(1).unwrap();
        let first_hash = chain_hash(br#"{"a":1}"#, None);
        assert!(seal.starts_with(&format!("{{\"events\":1,\"lastHash\":\"{first_hash}\",\"sealedAt\":\"")), "{seal}");
        assert!(
            seal.contains(&format!("\"type\":\"trace.sealed\",\"integrity\":{{\"hash\":\"{anchor}\",\"previousHash\":\"{first_hash}\"}}")),
            "{seal}"
        );
    }

    #[test]
    fn anchors_round_trip_through_text() {
        let anchor = Anchor::from_digest(chain_digest(b"{}", None));
        assert_eq!(anchor.to_string(), chain_hash(b"{}", None));
        assert_eq!(anchor.to_string().parse::<Anchor>(), Ok(anchor));
        assert_eq!(anchor.to_string().to_uppercase().replacen("SHA256", "sha256", 1).parse::<Anchor>(), Ok(anchor));
        for bad in [
            "",
            "sha256:",
            "sha256:abc",
            "md5:00",
            &anchor.to_string()[7..],
            &format!("{anchor}0"),
            &format!("{}g", &anchor.to_string()[..70]),
        ] {
            assert!(bad.parse::<Anchor>().is_err(), "{bad:?}");
        }
    }
}
