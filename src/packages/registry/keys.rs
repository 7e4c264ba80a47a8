//! Ed25519 keys as files, and what an archive's signature covers.
//!
//! A public key is written `ed25519:<64 hex digits>` (in `limina.toml` and wherever a key is
//! printed); a secret key file holds `limina-secret-key/1` and the 32-byte seed the same way, and
//! is created with mode 0600. The signature covers [`signed_message`]: a fixed prefix, the
//! package's name and version, and the archive's sha256 and size. So an archive cannot be
//! replayed under another name or version, and a tampered archive fails on its hash before any
//! byte of it is decompressed. Verification is `verify_strict` (no malleable signatures, no
//! small-order keys).

use std::io::Write as _;
use std::path::Path;

use ed25519_dalek::{Signature, Signer as _, SigningKey, VerifyingKey};

use super::RegistryError;

const PUBLIC_PREFIX: &str = "ed25519:";
const SECRET_HEADER: &str = "limina-secret-key/1";
/// Prefix of the signed message, so a signature made for anything else never verifies here.
const SIGNED_PREFIX: &str = "limina-archive/1";

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex<const N: usize>(text: &str) -> Option<[u8; N]> {
    if text.len() != 2 * N || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let mut out = [0u8; N];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

/// A registry's public key, as the operator configured it.
#[derive(Clone, PartialEq, Eq)]
pub struct PublicKey(VerifyingKey);

impl std::fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_string())
    }
}

impl std::fmt::Display for PublicKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{PUBLIC_PREFIX}{}", hex(self.0.as_bytes()))
    }
}

impl PublicKey {
    /// Parses `ed25519:<64 hex digits>`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let body = text.strip_prefix(PUBLIC_PREFIX).ok_or_else(|| format!("'{text}' must start with {PUBLIC_PREFIX}"))?;
        let bytes = unhex::<32>(body).ok_or_else(|| format!("'{text}' must be {PUBLIC_PREFIX} and 64 hex digits"))?;
        VerifyingKey::from_bytes(&bytes).map(PublicKey).map_err(|e| format!("'{text}' is not an ed25519 public key ({e})"))
    }
}

/// A publisher's secret key.
pub struct SecretKey(SigningKey);

impl SecretKey {
    /// A fresh key from the operating system's randomness.
    pub fn generate() -> Result<Self, RegistryError> {
        let mut seed = [0u8; 32];
        getrandom::fill(&mut seed).map_err(|e| RegistryError::Key(format!("no randomness from the operating system ({e})")))?;
        Ok(SecretKey(SigningKey::from_bytes(&seed)))
    }

    pub fn public(&self) -> PublicKey {
        PublicKey(self.0.verifying_key())
    }

    /// Writes the key to a new file only its owner can read (never over an existing file).
    pub fn write_new(&self, path: &Path) -> Result<(), RegistryError> {
        let fail = |e: std::io::Error| RegistryError::Key(format!("cannot create {} ({e})", path.display()));
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut file = options.open(path).map_err(fail)?;
        writeln!(file, "{SECRET_HEADER}\n{PUBLIC_PREFIX}{}", hex(&self.0.to_bytes())).map_err(fail)
    }

    pub fn read(path: &Path) -> Result<Self, RegistryError> {
        let bad = |why: String| RegistryError::Key(format!("{}: {why}", path.display()));
        let meta = std::fs::metadata(path).map_err(|e| bad(format!("cannot read ({e})")))?;
        if meta.len() > 4096 {
            return Err(bad("too large to be a key file".into()));
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            if meta.permissions().mode() & 0o077 != 0 {
                return Err(bad(format!("mode {:o} lets others read it; chmod 600 it", meta.permissions().mode() & 0o777)));
            }
        }
        let text = std::fs::read_to_string(path).map_err(|e| bad(format!("cannot read ({e})")))?;
        let mut lines = text.lines();
        if lines.next() != Some(SECRET_HEADER) {
            return Err(bad(format!("not a limina secret key (its first line must be {SECRET_HEADER})")));
        }
        let seed = lines.next().and_then(|l| l.strip_prefix(PUBLIC_PREFIX)).and_then(unhex::<32>);
        let seed = seed.ok_or_else(|| bad(format!("its second line must be {PUBLIC_PREFIX} and 64 hex digits")))?;
        Ok(SecretKey(SigningKey::from_bytes(&seed)))
    }

    /// The signature of an archive, as the index stores it.
    pub fn sign(&self, name: &str, version: &str, sha256: &str, size: u64) -> String {
        let signature = self.0.sign(signed_message(name, version, sha256, size).as_bytes());
        format!("{PUBLIC_PREFIX}{}", hex(&signature.to_bytes()))
    }
}

/// What a signature covers.
pub fn signed_message(name: &str, version: &str, sha256: &str, size: u64) -> String {
    format!("{SIGNED_PREFIX}\n{name}\n{version}\n{sha256}\n{size}\n")
}

/// Checks `signature` (as the index stores it) over the archive facts against any of `keys`.
pub fn verify(keys: &[PublicKey], signature: &str, name: &str, version: &str, sha256: &str, size: u64) -> Result<(), String> {
    let bytes = signature
        .strip_prefix(PUBLIC_PREFIX)
        .and_then(unhex::<64>)
        .ok_or_else(|| format!("the signature is not {PUBLIC_PREFIX} and 128 hex digits"))?;
    let signature = Signature::from_bytes(&bytes);
    let message = signed_message(name, version, sha256, size);
    if keys.iter().any(|k| k.0.verify_strict(message.as_bytes(), &signature).is_ok()) {
        return Ok(());
    }
    let keys: Vec<String> = keys.iter().map(PublicKey::to_string).collect();
    Err(format!("the signature does not verify against the registry's key{} ({})", if keys.len() == 1 { "" } else { "s" }, keys.join(", ")))
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    hex(&sha2::Sha256::digest(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signature_binds_name_version_and_hash() {
        let key = SecretKey::generate().unwrap();
        let other = SecretKey::generate().unwrap();
        let public = PublicKey::parse(&key.public().to_string()).unwrap();
        let sig = key.sign("greet", "1.0.0", "ab", 3);
        assert!(verify(std::slice::from_ref(&public), &sig, "greet", "1.0.0", "ab", 3).is_ok());
        assert!(verify(std::slice::from_ref(&public), &sig, "other", "1.0.0", "ab", 3).is_err(), "replayed under another name");
        assert!(verify(std::slice::from_ref(&public), &sig, "greet", "1.0.1", "ab", 3).is_err());
        assert!(verify(std::slice::from_ref(&public), &sig, "greet", "1.0.0", "ac", 3).is_err());
        assert!(verify(&[other.public()], &sig, "greet", "1.0.0", "ab", 3).is_err(), "another key");
        assert!(verify(&[other.public(), public], &sig, "greet", "1.0.0", "ab", 3).is_ok(), "rotation: either key");
        assert!(PublicKey::parse("ed25519:zz").is_err() && PublicKey::parse("rsa:00").is_err());
    }

    #[test]
    fn key_files_are_private_and_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("k");
        let key = SecretKey::generate().unwrap();
        key.write_new(&path).unwrap();
        assert_eq!(SecretKey::read(&path).unwrap().public(), key.public());
        assert!(key.write_new(&path).is_err(), "never over an existing file");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
            assert!(SecretKey::read(&path).err().unwrap().to_string().contains("chmod 600"));
        }
    }
}
