//! Package secrets: values the operator supplies, handed to the one package approved for them,
//! inside its VM, while one of its skills runs — and kept out of everything that leaves it.
//!
//! **Declared, approved, supplied.** A manifest declares the names it needs (`secrets =
//! {"API_KEY"}`); the operator approves them with the package's grant (`trust.rs`: `limina
//! packages trust NAME`, or the approval at `limina packages install`), which pins the files,
//! so an edit that declares another name approves nothing until granted again; and the
//! operator supplies the values, either in the secrets file beside the scripts root
//! (`.limina-secrets.toml`, outside the root so no package ships one, one table per package:
//! `[weather]` then `API_KEY = "…"`) or in the environment as `LIMINA_SECRET_API_KEY`. The file
//! wins; an environment value goes to every package approved for that name. The file must be
//! a regular file (not a link), owned by the user running limina, with no permission bits for
//! group or others (`chmod 600`); otherwise no value is read from it and every lookup says why.
//!
//! **Where a value goes.** Only to `host.secret(name)` in the package's VM, during a call (not
//! while its files load), in process or in its worker (a `Secret` frame the engine answers
//! after the same checks). Never into a message: refusals name the package, the secret and
//! the fix, and a malformed file is reported by line and column without its text.
//!
//! **Redaction.** Every value a package has been handed is redacted (`crate::redact`, its
//! encodings included) from what the package hands back: results, error messages, `host.invoke`
//! inputs, worker reports and `print`. That stops a package from echoing its key into the trace,
//! the command log, a snapshot or a client by accident; a package set on leaking a secret it
//! was approved for can still encode it, which is why approval is the operator's.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use serde_json::Value;

use crate::redact::Redactor;

/// The secrets file's name, in the folder that holds the scripts root.
pub(crate) const SECRETS_FILE: &str = ".limina-secrets.toml";
/// What an environment variable holding a value starts with (then the secret's name).
pub(crate) const ENV_PREFIX: &str = "LIMINA_SECRET_";
/// Most bytes of the secrets file.
const MAX_FILE_BYTES: u64 = 64 << 10;
/// Most bytes of one value.
const MAX_VALUE_BYTES: usize = 4096;
/// Most distinct values one package's redactor remembers (rotations included).
const MAX_SEEN: usize = 64;

/// Where a value was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    File,
    Env,
}

impl Origin {
    pub fn as_str(self) -> &'static str {
        match self {
            Origin::File => "secrets file",
            Origin::Env => "environment",
        }
    }
}

/// A secret's value: never printed by `Debug`.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Secret(String);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(<hidden>)")
    }
}

impl Secret {
    pub(crate) fn expose(&self) -> &str {
        &self.0
    }
}

/// Why the secrets file gives nothing. No variant carries a value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SecretsFileError {
    #[error("{file}: {problem}; no secret is read from it until it is fixed")]
    Refused { file: String, problem: String },
    #[error("{var} is set but {problem}")]
    BadEnv { var: String, problem: String },
}

/// Which file, as of which change: re-read when any of these differ.
type Stamp = (u64, u64, i64, i64, u32);

type Table = BTreeMap<String, BTreeMap<String, Secret>>;

/// The file as last read: which version of it, and what it gave.
type Cached = (Option<Stamp>, Result<Table, SecretsFileError>);

/// The operator's values for one scripts root (file and environment).
#[derive(Debug)]
pub struct SecretStore {
    /// `None` when the scripts root has no parent folder.
    file: Option<PathBuf>,
    cache: RefCell<Option<Cached>>,
}

/// Where the secrets file of `scripts_root` lives.
pub(crate) fn secrets_file(scripts_root: &Path) -> Option<PathBuf> {
    let absolute = std::path::absolute(scripts_root).unwrap_or_else(|_| scripts_root.to_path_buf());
    absolute.parent().map(|p| p.join(SECRETS_FILE))
}

impl SecretStore {
    pub fn new(scripts_root: Option<&Path>) -> Self {
        Self { file: scripts_root.and_then(secrets_file), cache: RefCell::new(None) }
    }

    /// The value of package `package`'s secret `name`, and where it came from; `Ok(None)` when
    /// neither the file nor the environment has one.
    pub(crate) fn value(&self, package: &str, name: &str) -> Result<Option<(Secret, Origin)>, SecretsFileError> {
        self.refresh();
        let from_file = match self.cache.borrow().as_ref().map(|(_, t)| t) {
            Some(Ok(table)) => table.get(package).and_then(|t| t.get(name)).cloned(),
            Some(Err(e)) => return Err(e.clone()),
            None => None,
        };
        if let Some(v) = from_file {
            return Ok(Some((v, Origin::File)));
        }
        Ok(env_value(name)?.map(|v| (v, Origin::Env)))
    }

    /// Whether a value is supplied for `package`'s `name`, and from where (for listings).
    pub fn origin(&self, package: &str, name: &str) -> Result<Option<Origin>, SecretsFileError> {
        self.value(package, name).map(|v| v.map(|(_, o)| o))
    }

    /// Why the secrets file supplies nothing, if it cannot be used.
    pub fn problem(&self) -> Option<String> {
        self.refresh();
        match self.cache.borrow().as_ref() {
            Some((_, Err(e))) => Some(e.to_string()),
            _ => None,
        }
    }

    /// Re-reads the file if it changed (one `lstat` when it did not).
    fn refresh(&self) {
        let Some(file) = &self.file else { return };
        let stamp = std::fs::symlink_metadata(file).ok().map(|m| {
            use std::os::unix::fs::MetadataExt as _;
            (m.dev(), m.ino(), m.mtime(), m.mtime_nsec(), m.mode())
        });
        if self.cache.borrow().as_ref().is_some_and(|(s, _)| *s == stamp) {
            return;
        }
        let table = match stamp {
            None => Ok(Table::new()),
            Some(_) => read_file(file),
        };
        self.cache.replace(Some((stamp, table)));
    }
}

/// `LIMINA_SECRET_<name>`: `Ok(None)` when unset or empty; an error (without the value) when
/// set to something that cannot be a value.
fn env_value(name: &str) -> Result<Option<Secret>, SecretsFileError> {
    let var = format!("{ENV_PREFIX}{name}");
    let bad = |problem: String| SecretsFileError::BadEnv { var: var.clone(), problem };
    match std::env::var(&var) {
        Ok(value) if value.is_empty() => Ok(None),
        Ok(value) if value.len() > MAX_VALUE_BYTES => Err(bad(format!("is {} bytes, over the {MAX_VALUE_BYTES}-byte limit", value.len()))),
        Ok(value) => Ok(Some(Secret(value))),
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(_)) => Err(bad("is not UTF-8".into())),
    }
}

/// Reads and checks the secrets file (module doc). Errors never quote the file's text.
fn read_file(file: &Path) -> Result<Table, SecretsFileError> {
    use std::io::Read as _;
    use std::os::unix::fs::{MetadataExt as _, OpenOptionsExt as _};
    let refuse = |problem: String| SecretsFileError::Refused { file: file.display().to_string(), problem };
    let handle = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(file)
        .map_err(|e| refuse(format!("cannot be opened as a regular file ({e})")))?;
    let meta = handle.metadata().map_err(|e| refuse(format!("cannot be read ({e})")))?;
    if !meta.file_type().is_file() {
        return Err(refuse("is not a regular file".into()));
    }
    let euid = rustix::process::geteuid().as_raw();
    if meta.uid() != euid {
        return Err(refuse(format!("belongs to user {}, not to the user running limina ({euid})", meta.uid())));
    }
    let mode = meta.mode() & 0o777;
    if mode & 0o077 != 0 {
        return Err(refuse(format!("can be read or written by group or others (mode {mode:04o}): chmod 600 it")));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(refuse(format!("is {} bytes, over the {MAX_FILE_BYTES}-byte limit", meta.len())));
    }
    let mut text = String::new();
    handle.take(MAX_FILE_BYTES + 1).read_to_string(&mut text).map_err(|e| refuse(format!("is not UTF-8 text ({})", e.kind())))?;
    parse(&text).map_err(refuse)
}

/// The file's tables; the error says where, never what.
fn parse(text: &str) -> Result<Table, String> {
    let doc: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        let at = e.span().map(|s| s.start).unwrap_or(0).min(text.len());
        let line = text[..at].matches('\n').count() + 1;
        format!("line {line} is not valid TOML (the parser's message is withheld: it could quote a value)")
    })?;
    let mut table = Table::new();
    for (package, entries) in doc {
        if !crate::packages::manifest::is_valid_package_name(&package) {
            // Not quoted: a key in the wrong place may be a value.
            return Err("a table's name is not a package name (lowercase letters, digits, '-' or '_')".into());
        }
        let toml::Value::Table(entries) = entries else {
            return Err(format!("'{package}' must be a table of secrets ([{package}] then NAME = \"value\")"));
        };
        let mut values = BTreeMap::new();
        for (name, value) in entries {
            if !crate::packages::manifest::is_valid_secret_name(&name) {
                return Err(format!(
                    "[{package}]: a key is not a secret name (1-64 uppercase letters, digits or '_', starting with a letter)"
                ));
            }
            let toml::Value::String(value) = value else {
                return Err(format!("[{package}] {name}: the value must be a string"));
            };
            if value.is_empty() || value.len() > MAX_VALUE_BYTES || value.contains('\0') {
                return Err(format!("[{package}] {name}: the value must be 1 to {MAX_VALUE_BYTES} bytes with no NUL"));
            }
            values.insert(name, Secret(value));
        }
        table.insert(package, values);
    }
    Ok(table)
}

/// What `package.list` and `limina packages inspect` say of a package's secrets: per declared
/// name, whether the operator approved it and where a value would come from — never a value.
pub fn status(store: &SecretStore, package: &str, declared: &[String], approved: &[String]) -> Value {
    let rows: Vec<Value> = declared
        .iter()
        .map(|name| {
            // A file that cannot be read supplies nothing (`SecretStore::problem` says why).
            let supplied = store.origin(package, name).ok().flatten().map(Origin::as_str);
            serde_json::json!({"name": name, "approved": approved.contains(name), "supplied": supplied})
        })
        .collect();
    Value::Array(rows)
}

/// The values a package has been handed, as a redactor.
#[derive(Debug, Default)]
pub(crate) struct Seen {
    values: Vec<String>,
    redactor: Redactor,
}

impl Seen {
    pub(crate) fn add(&mut self, value: &str) {
        if self.values.iter().any(|v| v == value) {
            return;
        }
        if self.values.len() >= MAX_SEEN {
            self.values.remove(0);
        }
        self.values.push(value.to_string());
        self.redactor = Redactor::new(self.values.iter().map(String::as_str));
    }

    pub(crate) fn text(&self, text: &str) -> String {
        self.redactor.text(text)
    }

    pub(crate) fn value(&self, value: Value) -> Value {
        self.redactor.value(value)
    }
}

/// One package's view of the secrets, on the engine's side: what it declared, what the
/// operator approved, where values come from, and what it has been handed.
#[derive(Debug)]
pub struct PackageSecrets {
    package: String,
    declared: Vec<String>,
    approved: Vec<String>,
    store: Rc<SecretStore>,
    pub(crate) seen: Rc<RefCell<Seen>>,
}

impl PackageSecrets {
    pub fn new(package: &str, declared: &[String], approved: &[String], store: Rc<SecretStore>) -> Self {
        Self {
            package: package.to_string(),
            declared: declared.to_vec(),
            approved: approved.to_vec(),
            store,
            seen: Rc::new(RefCell::new(Seen::default())),
        }
    }

    /// `host.secret(name)`: the value, or why not (a message with no value in it).
    pub(crate) fn get(&self, name: &str) -> Result<String, String> {
        let package = &self.package;
        if !self.declared.iter().any(|d| d == name) {
            return Err(format!("{package} does not declare the secret '{name}' (list it in its manifest's `secrets`)"));
        }
        if !self.approved.iter().any(|a| a == name) {
            return Err(format!(
                "the operator has not approved {package}'s secret '{name}' for these files (limina packages trust {package}, or install it from a registry)"
            ));
        }
        match self.store.value(package, name) {
            Ok(Some((secret, _))) => {
                self.seen.borrow_mut().add(secret.expose());
                Ok(secret.expose().to_string())
            }
            Ok(None) => Err(format!(
                "no value is supplied for {package}'s secret '{name}': set it under [{package}] in {SECRETS_FILE} beside the scripts folder (mode 0600), or in {ENV_PREFIX}{name}"
            )),
            Err(SecretsFileError::Refused { problem, .. }) => {
                Err(format!("{package}'s secret '{name}' cannot be read: {SECRETS_FILE} beside the scripts folder {problem}"))
            }
            Err(e @ SecretsFileError::BadEnv { .. }) => Err(format!("{package}'s secret '{name}' cannot be read: {e}")),
        }
    }

    pub(crate) fn redact_text(&self, text: &str) -> String {
        self.seen.borrow().text(text)
    }

    pub(crate) fn redact_value(&self, value: Value) -> Value {
        self.seen.borrow().value(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt as _;

    fn store_with(text: &str, mode: u32) -> (tempfile::TempDir, SecretStore) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("scripts")).unwrap();
        let file = dir.path().join(SECRETS_FILE);
        std::fs::write(&file, text).unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(mode)).unwrap();
        let store = SecretStore::new(Some(&dir.path().join("scripts")));
        (dir, store)
    }

    #[test]
    fn a_private_file_gives_each_package_its_own_values() {
        let (_d, store) = store_with("[vault]\nAPI_KEY = \"k-vault-123456\"\n[other]\nAPI_KEY = \"k-other-654321\"\n", 0o600);
        let (v, origin) = store.value("vault", "API_KEY").unwrap().unwrap();
        assert_eq!((v.expose(), origin), ("k-vault-123456", Origin::File));
        assert_eq!(store.value("other", "API_KEY").unwrap().unwrap().0.expose(), "k-other-654321");
        assert!(store.value("vault", "MISSING_ONE").unwrap().is_none());
        assert_eq!(format!("{v:?}"), "Secret(<hidden>)");
    }

    #[test]
    fn a_file_others_can_read_gives_nothing_and_says_why_without_the_value() {
        let (_d, store) = store_with("[vault]\nAPI_KEY = \"k-vault-123456\"\n", 0o644);
        let e = store.value("vault", "API_KEY").unwrap_err().to_string();
        assert!(e.contains("mode 0644") && e.contains("chmod 600"), "{e}");
        assert!(!e.contains("k-vault"), "{e}");
    }

    #[test]
    fn a_link_is_refused_even_to_a_private_file() {
        let (dir, _store) = store_with("", 0o600);
        let target = dir.path().join("real.toml");
        std::fs::write(&target, "[vault]\nAPI_KEY = \"k-vault-123456\"\n").unwrap();
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o600)).unwrap();
        std::fs::remove_file(dir.path().join(SECRETS_FILE)).unwrap();
        std::os::unix::fs::symlink(&target, dir.path().join(SECRETS_FILE)).unwrap();
        let store = SecretStore::new(Some(&dir.path().join("scripts")));
        let e = store.value("vault", "API_KEY").unwrap_err().to_string();
        assert!(e.contains("regular file"), "{e}");
    }

    #[test]
    fn malformed_files_are_reported_by_place_never_by_content() {
        for (text, says) in [
            ("[vault]\nAPI_KEY = \"k-vault-123456\nNEXT = 1\n", "line 2"),
            ("[vault]\nAPI_KEY = 42\n", "must be a string"),
            ("[vault]\napi_key = \"k-vault-123456\"\n", "not a secret name"),
            ("vault = \"k-vault-123456\"\n", "must be a table"),
            ("[\"../x\"]\nA = \"k-vault-123456\"\n", "not a package name"),
        ] {
            let (_d, store) = store_with(text, 0o600);
            let e = store.value("vault", "API_KEY").unwrap_err().to_string();
            assert!(e.contains(says), "{text:?}: {e}");
            assert!(!e.contains("k-vault"), "{text:?}: {e}");
        }
    }

    #[test]
    fn an_edit_is_read_at_the_next_lookup() {
        let (dir, store) = store_with("[vault]\nAPI_KEY = \"first-value-1\"\n", 0o600);
        assert_eq!(store.value("vault", "API_KEY").unwrap().unwrap().0.expose(), "first-value-1");
        let file = dir.path().join(SECRETS_FILE);
        // A new inode: the stamp changes even within the file system's time resolution.
        std::fs::remove_file(&file).unwrap();
        std::fs::write(&file, "[vault]\nAPI_KEY = \"second-value-2\"\n").unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
        assert_eq!(store.value("vault", "API_KEY").unwrap().unwrap().0.expose(), "second-value-2");
    }

    #[test]
    fn a_package_gets_only_what_it_declared_and_was_approved() {
        let (_d, store) = store_with("[vault]\nAPI_KEY = \"k-vault-123456\"\nOTHER = \"k-other-999999\"\n", 0o600);
        let store = Rc::new(store);
        let s = PackageSecrets::new("vault", &["API_KEY".into(), "OTHER".into()], &["API_KEY".into()], store);
        assert_eq!(s.get("API_KEY").unwrap(), "k-vault-123456");
        let e = s.get("OTHER").unwrap_err();
        assert!(e.contains("not approved") && e.contains("limina packages trust vault"), "{e}");
        let e = s.get("UNDECLARED").unwrap_err();
        assert!(e.contains("does not declare"), "{e}");
        let e = s.get("OTHER").unwrap_err() + &s.get("UNDECLARED").unwrap_err();
        assert!(!e.contains("k-other"), "{e}");
        assert_eq!(s.redact_text("key=k-vault-123456!"), "key=[redacted]!");
        assert_eq!(s.redact_text("k-other-999999"), "k-other-999999", "only what it was handed");
    }
}
