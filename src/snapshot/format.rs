//! The snapshot file: a fixed header, then the postcard body.
//!
//! ```text
//! offset  size  field
//! 0       8     magic "LIMSNAP\0"
//! 8       4     format version, u32 little-endian (FORMAT_VERSION)
//! 12      2     n, length of the engine version, u16 little-endian (at most 64)
//! 14      n     engine version, UTF-8 ("0.1.0")
//! 14+n    32    sha256 of the body
//! 46+n    8     body length, u64 little-endian
//! 54+n    ...   body
//! ```
//!
//! `open` checks in that order and names the first thing wrong: not a snapshot (magic),
//! another format, another engine, a cut-off file (what was missing, how much was left), bytes
//! after the body, or a body whose hash is not the header's (corrupt). Only a body that passed
//! all of them is decoded. Decoding a postcard body from a slice allocates in proportion to the
//! bytes actually present: a length prefix claiming more elements than the body could hold fails
//! when the bytes run out, before anything that size is allocated (serde caps a sequence's
//! preallocation, and strings and byte arrays are checked against the remaining input).

use sha2::{Digest, Sha256};

use super::SnapshotError;

/// The first eight bytes of every snapshot.
pub const MAGIC: [u8; 8] = *b"LIMSNAP\0";

/// The body's layout. Bump it whenever any type a snapshot stores changes shape (the body is
/// postcard: fields are read in declaration order, enums by variant index), including rapier's
/// own types on a rapier upgrade; `tests/rust/golden/snapshot_body.sha256` fails when the bytes
/// of a fixed world change, so a forgotten bump shows up in review.
pub const FORMAT_VERSION: u32 = 4;

/// The engine that writes and reads snapshots.
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The largest snapshot `read_snapshot` reads (4 GiB).
pub const MAX_SNAPSHOT_BYTES: u64 = 4 << 30;

const MAX_ENGINE_VERSION: usize = 64;

/// A snapshot file around `body`.
pub(crate) fn seal(body: &[u8]) -> Vec<u8> {
    let version = &ENGINE_VERSION.as_bytes()[..ENGINE_VERSION.len().min(MAX_ENGINE_VERSION)];
    let mut out = Vec::with_capacity(54 + version.len() + body.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&(version.len() as u16).to_le_bytes());
    out.extend_from_slice(version);
    out.extend_from_slice(&Sha256::digest(body));
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(body);
    out
}

/// Reads from the front of a snapshot, naming what was being read when the bytes ran out.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, part: &'static str, n: usize) -> Result<&'a [u8], SnapshotError> {
        if self.bytes.len() < n {
            return Err(SnapshotError::Truncated { part, needed: n as u64, found: self.bytes.len() as u64 });
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(head)
    }

    fn array<const N: usize>(&mut self, part: &'static str) -> Result<[u8; N], SnapshotError> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(part, N)?);
        Ok(out)
    }
}

/// The body of a snapshot, once the header vouches for it.
pub(crate) fn open(bytes: &[u8]) -> Result<&[u8], SnapshotError> {
    let magic = &bytes[..bytes.len().min(MAGIC.len())];
    if magic != MAGIC {
        return Err(SnapshotError::WrongMagic { expected: shown(&MAGIC), found: shown(magic) });
    }
    let mut r = Reader { bytes: &bytes[MAGIC.len()..] };
    let version = u32::from_le_bytes(r.array("format version")?);
    if version != FORMAT_VERSION {
        return Err(SnapshotError::VersionMismatch { expected: FORMAT_VERSION, found: version });
    }
    let length = u16::from_le_bytes(r.array("engine version length")?);
    let engine = r.take("engine version", usize::from(length))?;
    if engine != ENGINE_VERSION.as_bytes() {
        return Err(SnapshotError::EngineMismatch {
            expected: ENGINE_VERSION.to_string(),
            found: String::from_utf8_lossy(engine).into_owned(),
        });
    }
    let sha: [u8; 32] = r.array("body hash")?;
    let length = u64::from_le_bytes(r.array("body length")?);
    let found = r.bytes.len() as u64;
    if found < length {
        return Err(SnapshotError::Truncated { part: "body", needed: length, found });
    }
    if found > length {
        return Err(SnapshotError::TrailingBytes { extra: found - length });
    }
    let body = r.bytes;
    let actual: [u8; 32] = Sha256::digest(body).into();
    if actual != sha {
        return Err(SnapshotError::Corrupt { expected: hex(&sha), found: hex(&actual) });
    }
    Ok(body)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Bytes as a reader can tell them apart: printable ASCII as is, the rest escaped, in quotes.
fn shown(bytes: &[u8]) -> String {
    format!("\"{}\"", bytes.escape_ascii())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_body_opens_to_itself() {
        let sealed = seal(b"the body");
        assert_eq!(open(&sealed).unwrap(), b"the body");
        assert_eq!(&sealed[..8], b"LIMSNAP\0");
    }

    #[test]
    fn each_broken_header_is_named() {
        let sealed = seal(b"the body");
        let err = |bytes: &[u8]| open(bytes).unwrap_err().to_string();
        assert_eq!(
            err(b"PK\x03\x04zip"),
            r#"not a limina snapshot: it starts with "PK\x03\x04zip" where a snapshot starts with "LIMSNAP\x00""#
        );
        assert_eq!(err(b""), r#"not a limina snapshot: it starts with "" where a snapshot starts with "LIMSNAP\x00""#);
        assert_eq!(err(&sealed[..10]), "the snapshot is truncated: its format version needs 4 bytes, 2 are left");
        let mut other = sealed.clone();
        other[8..12].copy_from_slice(&7u32.to_le_bytes());
        assert_eq!(err(&other), format!("the snapshot is format version 7; this engine reads format version {FORMAT_VERSION}"));
        let mut engine = sealed.clone();
        engine[14] = b'9';
        assert!(err(&engine).starts_with("the snapshot was written by limina 9"), "{}", err(&engine));
        assert_eq!(err(&sealed[..sealed.len() - 3]), "the snapshot is truncated: its body needs 8 bytes, 5 are left");
        let mut longer = sealed.clone();
        longer.push(0);
        assert_eq!(err(&longer), "the snapshot has 1 bytes after its body");
        let mut flipped = sealed.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert!(err(&flipped).starts_with("the snapshot is corrupt: its body hashes to sha256:"), "{}", err(&flipped));
    }
}
