//! Keeping secrets out of text and JSON that leave their owner: the operator's credentials out
//! of what a model server hands back (`agents::provider`), a package's secrets out of what its
//! code hands the engine (`packages::secrets`).
//!
//! What counts as a secret: its raw text and the forms an echo plausibly takes (JSON-escaped,
//! percent-encoded, base64 at any of the three byte alignments), matched without regard to
//! ASCII case. Any run of 8 or more characters of one of those forms is replaced by
//! `[redacted]`, so text quoting a part of a key (`sk-proj-…abcd1234`) gives away at most 7
//! characters of it in one piece; `Bearer <key>` is covered because it contains the key. A
//! secret shorter than 8 characters is matched whole. An 8-character run of a random key turns
//! up by chance in a 4 MiB text about once in a thousand, and then costs 8 characters of it.
//!
//! It stops accidents (an error body quoting a header, a handler returning what it read), not
//! a holder of the secret set on leaking it: text it reversed or split into 7-character pieces
//! passes.

use std::collections::HashSet;

use base64::Engine as _;
use serde_json::Value;

/// Shortest run of a secret that is redacted where it appears.
const WINDOW: usize = 8;
/// What a redacted run becomes.
pub(crate) const MASK: &str = "[redacted]";

/// The secrets one provider holds, ready to be found in text.
#[derive(Clone, Default)]
pub(crate) struct Redactor {
    /// Every `WINDOW`-byte run of every form of every secret, in ASCII lower case.
    windows: HashSet<[u8; WINDOW]>,
    /// Forms shorter than `WINDOW`, in ASCII lower case, matched whole.
    short: Vec<Vec<u8>>,
}

impl std::fmt::Debug for Redactor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Redactor(<secrets>)")
    }
}

impl Redactor {
    /// A redactor for `secrets` (empty ones are ignored).
    pub(crate) fn new<'a>(secrets: impl IntoIterator<Item = &'a str>) -> Self {
        let mut redactor = Self::default();
        for secret in secrets.into_iter().filter(|s| !s.is_empty()) {
            for form in forms(secret) {
                let form = form.to_ascii_lowercase().into_bytes();
                if form.len() < WINDOW {
                    redactor.short.push(form);
                    continue;
                }
                for run in form.windows(WINDOW) {
                    let mut window = [0u8; WINDOW];
                    window.copy_from_slice(run);
                    redactor.windows.insert(window);
                }
            }
        }
        redactor.short.sort();
        redactor.short.dedup();
        redactor
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.windows.is_empty() && self.short.is_empty()
    }

    /// `text` with every run of a secret replaced by `[redacted]`.
    pub(crate) fn text(&self, text: &str) -> String {
        if self.is_empty() || text.is_empty() {
            return text.to_string();
        }
        let lower = text.as_bytes().to_ascii_lowercase();
        let mut hidden = vec![false; lower.len()];
        let mut any = false;
        for (at, run) in lower.windows(WINDOW).enumerate() {
            if run.try_into().is_ok_and(|w: [u8; WINDOW]| self.windows.contains(&w)) {
                hidden[at..at + WINDOW].fill(true);
                any = true;
            }
        }
        for form in &self.short {
            for at in memchr::memmem::find_iter(&lower, form) {
                hidden[at..at + form.len()].fill(true);
                any = true;
            }
        }
        if !any {
            return text.to_string();
        }
        // Every form is ASCII, so a hidden run starts and ends on character boundaries.
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        while at < text.len() {
            let end = hidden[at..].iter().position(|h| *h != hidden[at]).map_or(text.len(), |n| at + n);
            if hidden[at] {
                out.push_str(MASK);
            } else {
                out.push_str(&text[at..end]);
            }
            at = end;
        }
        out
    }

    /// `value` with every string in it (object keys too) redacted.
    pub(crate) fn value(&self, value: Value) -> Value {
        if self.is_empty() {
            return value;
        }
        match value {
            Value::String(s) => Value::String(self.text(&s)),
            // A number's JSON text can be the secret (a PIN, an account number).
            Value::Number(n) if self.text(&n.to_string()) != n.to_string() => Value::String(MASK.to_string()),
            Value::Array(items) => Value::Array(items.into_iter().map(|v| self.value(v)).collect()),
            Value::Object(map) => Value::Object(map.into_iter().map(|(k, v)| (self.text(&k), self.value(v))).collect()),
            other => other,
        }
    }
}

/// The forms `secret` is plausibly echoed in.
fn forms(secret: &str) -> Vec<String> {
    let mut forms = vec![secret.to_string()];
    // As a JSON string's contents (both ways of writing `/`).
    if let Ok(json) = serde_json::to_string(secret) {
        let inner = json[1..json.len() - 1].to_string();
        forms.push(inner.replace('/', "\\/"));
        forms.push(inner);
    }
    // Percent-encoded (hex digits' case is covered by matching without case).
    let mut percent = String::new();
    for b in secret.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            percent.push(char::from(b));
        } else {
            percent.push_str(&format!("%{b:02X}"));
        }
    }
    // Form-encoded too: `+` for a space.
    if secret.contains(' ') {
        forms.push(percent.replace("%20", "+"));
    }
    forms.push(percent);
    // Base64 of any text holding the secret, at each of the three alignments: only the
    // characters that depend on the secret's bytes alone are kept.
    for engine in [&base64::engine::general_purpose::STANDARD_NO_PAD, &base64::engine::general_purpose::URL_SAFE_NO_PAD] {
        for pad in 0..3usize {
            let mut bytes = vec![0u8; pad];
            bytes.extend_from_slice(secret.as_bytes());
            let encoded = engine.encode(&bytes);
            // The first group mixes the pad bytes in; a trailing partial group depends on what
            // follows the secret.
            let start = if pad == 0 { 0 } else { 4 };
            let whole = bytes.len() / 3 * 4;
            if whole > start {
                forms.push(encoded[start..whole].to_string());
            }
        }
    }
    forms.retain(|f| !f.is_empty());
    forms.dedup();
    forms
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "sk-proj-Abc123/def+456_ghi789JKL";

    #[test]
    fn the_key_and_its_encodings_are_redacted() {
        let r = Redactor::new([KEY]);
        let b64 = base64::engine::general_purpose::STANDARD.encode(format!("user:{KEY}"));
        for text in [
            format!("Incorrect API key provided: {KEY}."),
            format!("{{\"header\":\"Authorization: Bearer {KEY}\"}}"),
            format!("echo {}", KEY.to_uppercase()),
            serde_json::to_string(KEY).unwrap().replace('/', "\\/"),
            "sk-proj-Abc123%2Fdef%2b456_ghi789JKL".to_string(),
            format!("Basic {b64}"),
            format!("partial ...{}...", &KEY[10..22]),
        ] {
            let out = r.text(&text);
            assert!(out.contains(MASK), "{text} -> {out}");
            let lower = out.to_ascii_lowercase();
            for run in KEY.to_ascii_lowercase().as_bytes().windows(WINDOW) {
                assert!(!lower.contains(std::str::from_utf8(run).unwrap()), "{text} -> {out}");
            }
        }
    }

    #[test]
    fn text_without_the_key_is_unchanged() {
        let r = Redactor::new([KEY]);
        for text in ["", "plain text, no secret", "sk-proj", "é—unicode ✓ 1234567", "Bearer token"] {
            assert_eq!(r.text(text), text);
        }
        assert_eq!(Redactor::new([]).text("anything sk-proj-Abc123"), "anything sk-proj-Abc123");
    }

    #[test]
    fn numbers_and_form_encoding_are_redacted() {
        let r = Redactor::new(["9876543210123456", "ab/cd ef/gh ij/kl"]);
        let v = r.value(serde_json::json!({"n": 9876543210123456u64, "m": 42, "f": "x=ab%2Fcd+ef%2Fgh+ij%2Fkl"}));
        assert_eq!(v["n"], MASK);
        assert_eq!(v["m"], 42);
        assert!(!v["f"].as_str().unwrap().contains("ef%2Fgh"), "{v}");
    }

    #[test]
    fn a_short_secret_is_matched_whole() {
        let r = Redactor::new(["hunter2"]);
        assert_eq!(r.text("pw=hunter2; HUNTER2!"), "pw=[redacted]; [redacted]!");
        assert_eq!(r.text("hunter"), "hunter");
    }
}
