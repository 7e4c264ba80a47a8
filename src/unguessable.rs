//! Names nobody can guess: HTTP session ids, a playtest's private folder. Read from the OS's
//! random source; without one, the std hasher's per-process random keys over a counter.

use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};

/// `bytes` random bytes as lowercase hex (`2 × bytes` characters).
pub(crate) fn hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    if std::fs::File::open("/dev/urandom").and_then(|mut f| std::io::Read::read_exact(&mut f, &mut buf)).is_err() {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let state = std::collections::hash_map::RandomState::new();
        for chunk in buf.chunks_mut(8) {
            let mut h = state.build_hasher();
            h.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
            chunk.copy_from_slice(&h.finish().to_le_bytes()[..chunk.len()]);
        }
    }
    buf.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn names_are_long_and_distinct() {
        let (a, b) = (super::hex(16), super::hex(16));
        assert_eq!(a.len(), 32);
        assert_ne!(a, b);
    }
}
