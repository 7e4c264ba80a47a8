//! The project's registries, from `limina.toml`:
//!
//! ```toml
//! [[registry]]
//! name = "main"                        # lowercase letters, digits, '-' or '_'
//! url = "https://packages.example.org/limina/"   # or file:///abs/path, or http://127.0.0.1:PORT/
//! tier = "verified"                    # the tier its packages are granted at install (at most)
//! keys = ["ed25519:<64 hex>"]          # accepted signing keys (two during a rotation)
//! timeout = 60                         # seconds one file may take over HTTP (1 to 600)
//! ```
//!
//! The trusted keys come from here, the operator's file, never from the registry. Unknown keys
//! are an error naming the key and its line (`toml` with `deny_unknown_fields`). Plain `http` is
//! accepted only for loopback hosts (tests, a local mirror); anything else must be `https`.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::RegistryError;
use super::keys::PublicKey;
use crate::packages::manifest::{Trust, is_valid_package_name};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ProjectFile {
    #[serde(default)]
    registry: Vec<RegistryToml>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RegistryToml {
    name: String,
    url: String,
    #[serde(default)]
    tier: Option<String>,
    #[serde(default)]
    keys: Vec<String>,
    /// Seconds one file may take to arrive (default 60).
    #[serde(default)]
    timeout: Option<u64>,
}

/// Where a registry lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// A folder (`file:///…`).
    Dir(PathBuf),
    /// An `http(s)` base URL, ending in `/`.
    Http(String),
}

#[derive(Debug, Clone)]
pub struct Registry {
    pub name: String,
    pub location: Location,
    /// The most trust its packages are granted at install.
    pub tier: Trust,
    /// Keys whose signatures are accepted (more than one during a rotation).
    pub keys: Vec<PublicKey>,
    /// How long one file may take to arrive over HTTP.
    pub timeout: std::time::Duration,
}

/// Whether `host` is a loopback name or address.
pub(crate) fn is_loopback(host: &str) -> bool {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host == "localhost" || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

fn location(url: &str) -> Result<Location, String> {
    if let Some(path) = url.strip_prefix("file://") {
        let path = Path::new(path);
        if !path.is_absolute() {
            return Err(format!("'{url}': a file:// URL needs an absolute path (file:///…)"));
        }
        return Ok(Location::Dir(path.to_path_buf()));
    }
    let parsed = reqwest::Url::parse(url).map_err(|e| format!("'{url}' is not a URL ({e})"))?;
    if parsed.username() != "" || parsed.password().is_some() || parsed.query().is_some() || parsed.fragment().is_some() {
        return Err(format!("'{url}': no credentials, query or fragment in a registry URL"));
    }
    let host = parsed.host_str().unwrap_or_default();
    match parsed.scheme() {
        "https" if cfg!(feature = "tls") => {}
        "https" => return Err(format!("'{url}' needs HTTPS, and this build has no `tls` feature")),
        "http" if is_loopback(host) => {}
        "http" => return Err(format!("'{url}': plain http is accepted only for loopback hosts; use https")),
        other => return Err(format!("'{url}': scheme {other} is not file, https or loopback http")),
    }
    let mut base = parsed.to_string();
    if !base.ends_with('/') {
        base.push('/');
    }
    Ok(Location::Http(base))
}

/// The registries configured in `<project>/limina.toml` (none when there is no such file).
pub fn read(project: &Path) -> Result<Vec<Registry>, RegistryError> {
    let file = project.join(crate_marker());
    let text = match std::fs::read_to_string(&file) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(RegistryError::Config { file, problem: format!("cannot read ({e})") }),
    };
    parse(&text, project).map_err(|problem| RegistryError::Config { file, problem })
}

fn crate_marker() -> &'static str {
    "limina.toml"
}

pub(crate) fn parse(text: &str, _project: &Path) -> Result<Vec<Registry>, String> {
    let parsed: ProjectFile = toml::from_str(text).map_err(|e| e.to_string().trim_end().to_string())?;
    let mut out: Vec<Registry> = Vec::new();
    for (i, r) in parsed.registry.into_iter().enumerate() {
        let at = format!("registry #{} ('{}')", i + 1, r.name);
        if !is_valid_package_name(&r.name) {
            return Err(format!("{at}: name must be 1-64 lowercase letters, digits, '-' or '_'"));
        }
        if out.iter().any(|o| o.name == r.name) {
            return Err(format!("{at}: two registries are named '{}'", r.name));
        }
        let location = location(&r.url).map_err(|e| format!("{at}: url {e}"))?;
        let tier = match r.tier.as_deref() {
            None => Trust::Untrusted,
            Some(t) => Trust::parse(t).ok_or_else(|| format!("{at}: tier '{t}' must be untrusted, verified or local"))?,
        };
        if r.keys.is_empty() {
            return Err(format!("{at}: keys is empty; every registry needs the public key its archives are signed with"));
        }
        let keys = r.keys.iter().map(|k| PublicKey::parse(k).map_err(|e| format!("{at}: keys: {e}"))).collect::<Result<_, _>>()?;
        let timeout = match r.timeout {
            None => 60,
            Some(t @ 1..=600) => t,
            Some(t) => return Err(format!("{at}: timeout {t} must be 1 to 600 seconds")),
        };
        out.push(Registry { name: r.name, location, tier, keys, timeout: std::time::Duration::from_secs(timeout) });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "ed25519:d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";

    #[test]
    fn registries_parse_and_problems_name_the_key_and_line() {
        let ok = format!("# marker\n[[registry]]\nname = \"main\"\nurl = \"file:///srv/reg\"\ntier = \"verified\"\nkeys = [\"{KEY}\"]\n");
        let r = parse(&ok, Path::new("/p")).unwrap();
        assert_eq!((r[0].name.as_str(), r[0].tier, &r[0].location), ("main", Trust::Verified, &Location::Dir("/srv/reg".into())));
        assert!(parse("# only comments\n", Path::new("/p")).unwrap().is_empty());
        let unknown =
            parse(&format!("[[registry]]\nname = \"main\"\nurl = \"file:///r\"\nkeys = [\"{KEY}\"]\ncolour = 1\n"), Path::new("/p"));
        let unknown = unknown.unwrap_err();
        assert!(unknown.contains("colour") && unknown.contains("line 5"), "{unknown}");
        let cases = [
            ("url = \"http://example.org/\"", "only for loopback"),
            ("url = \"ftp://127.0.0.1/\"", "scheme ftp"),
            ("url = \"file://relative\"", "absolute path"),
            ("url = \"http://u:p@127.0.0.1/\"", "no credentials"),
        ];
        for (url, want) in cases {
            let text = format!("[[registry]]\nname = \"m\"\n{url}\nkeys = [\"{KEY}\"]\n");
            let err = parse(&text, Path::new("/p")).unwrap_err();
            assert!(err.contains(want), "{err} should contain {want}");
        }
        let nokeys = parse("[[registry]]\nname = \"m\"\nurl = \"http://127.0.0.1:1/\"\n", Path::new("/p")).unwrap_err();
        assert!(nokeys.contains("keys is empty"), "{nokeys}");
    }
}
