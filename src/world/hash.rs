//! The world hash: sha256 over entity ids and transforms in id order.
//!
//! Bit patterns of the f32s are hashed, so two worlds hash equal only if they are bit-identical.

use sha2::{Digest, Sha256};

use super::{EntityId, Transform};

pub fn world_hash(entities: impl Iterator<Item = (EntityId, Transform)>) -> String {
    let mut hasher = Sha256::new();
    for (id, t) in entities {
        hasher.update(id.to_string().as_bytes());
        hasher.update([0u8]);
        for v in t.position.iter().chain(&t.rotation).chain(&t.scale) {
            hasher.update(v.to_bits().to_le_bytes());
        }
    }
    crate::digest::sha256_text(&hasher.finalize())
}

/// Folds another part of the world (UI, agents) into a hash: sha256 over both, labelled.
pub(crate) fn fold(base: &str, label: &str, part: &str) -> String {
    crate::digest::sha256_text(&Sha256::digest(format!("{base}\n{label}:{part}").as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_world_hashes_to_the_empty_sha256() {
        assert_eq!(world_hash(std::iter::empty()), "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    }
}
