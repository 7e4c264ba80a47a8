//! The one spelling of a digest everywhere limina shows one (world hashes, trace chains and
//! anchors, package content hashes): `sha256:` and 64 lowercase hex digits.

/// `sha256:<hex>` of a finished sha256 digest.
pub(crate) fn sha256_text(digest: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(7 + 2 * digest.len());
    out.push_str("sha256:");
    for b in digest {
        out.push(HEX[usize::from(b >> 4)] as char);
        out.push(HEX[usize::from(b & 15)] as char);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn digits_are_lowercase_hex_after_the_prefix() {
        assert_eq!(super::sha256_text(&[0x00, 0xab, 0xff]), "sha256:00abff");
    }
}
