//! Reading a registry's files: from a folder or over http(s), each under a byte cap.
//!
//! Over HTTP: no redirects (a registry that moved must be reconfigured by the operator, so a
//! compromised host cannot send the client elsewhere), a connect timeout and an overall one, never a
//! proxy for a loopback host, bodies read in chunks and refused past the cap
//! (whatever `Content-Length` claims). A relative path is only ever one the caller built from
//! checked names (`index.rs`).

use std::path::Path;
use std::time::Duration;

use super::RegistryError;
use super::config::{Location, Registry};

/// Time to connect (receiving a whole file has the registry's `timeout`).
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

#[derive(Default)]
pub struct Fetcher {
    /// Made on the first HTTP request (a `file://` registry needs none).
    runtime: Option<tokio::runtime::Runtime>,
    /// A client for remote hosts (proxies from the environment apply) and one for loopback
    /// (never through a proxy).
    clients: [Option<reqwest::Client>; 2],
}

/// Whether a fetched file was missing (a 404 or no such file), as opposed to any other failure.
#[derive(Debug)]
pub enum Fetched {
    Found(Vec<u8>),
    Missing,
}

impl Fetcher {
    pub fn new() -> Self {
        Self::default()
    }

    fn http(&mut self, loopback: bool) -> Result<(&tokio::runtime::Runtime, &reqwest::Client), String> {
        if self.runtime.is_none() {
            #[cfg(feature = "tls")]
            let _ = rustls::crypto::ring::default_provider().install_default();
            let runtime =
                tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| format!("no async runtime ({e})"))?;
            self.runtime = Some(runtime);
        }
        let slot = usize::from(loopback);
        if self.clients[slot].is_none() {
            let mut builder = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).connect_timeout(CONNECT_TIMEOUT);
            if loopback {
                builder = builder.no_proxy();
            }
            self.clients[slot] = Some(builder.build().map_err(|e| format!("no HTTP client ({e})"))?);
        }
        match (&self.runtime, &self.clients[slot]) {
            (Some(runtime), Some(client)) => Ok((runtime, client)),
            _ => Err("no HTTP client".to_string()),
        }
    }

    /// The file at `relative` in `registry`, at most `cap` bytes.
    pub fn get(&mut self, registry: &Registry, relative: &str, cap: u64) -> Result<Fetched, RegistryError> {
        let fail = |problem: String| RegistryError::Fetch { registry: registry.name.clone(), file: relative.to_string(), problem };
        match &registry.location {
            Location::Dir(dir) => read_file(&dir.join(relative), cap).map_err(fail),
            Location::Http(base) => {
                let url = format!("{base}{relative}");
                let loopback = reqwest::Url::parse(base).ok().and_then(|u| u.host_str().map(super::config::is_loopback)).unwrap_or(false);
                let (runtime, client) = self.http(loopback).map_err(fail)?;
                runtime.block_on(get_http(client, &url, cap, registry.timeout)).map_err(fail)
            }
        }
    }
}

fn read_file(path: &Path, cap: u64) -> Result<Fetched, String> {
    use std::io::Read as _;
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Fetched::Missing),
        Err(e) => return Err(format!("cannot read {} ({e})", path.display())),
    };
    let meta = file.metadata().map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err(format!("{} is not a regular file", path.display()));
    }
    let mut bytes = Vec::new();
    file.take(cap + 1).read_to_end(&mut bytes).map_err(|e| format!("cannot read {} ({e})", path.display()))?;
    if bytes.len() as u64 > cap {
        return Err(format!("{} is larger than the {cap} bytes allowed", path.display()));
    }
    Ok(Fetched::Found(bytes))
}

async fn get_http(client: &reqwest::Client, url: &str, cap: u64, timeout: Duration) -> Result<Fetched, String> {
    let mut response = client.get(url).timeout(timeout).send().await.map_err(|e| format!("GET {url}: {}", chain(&e)))?;
    let status = response.status();
    if status == reqwest::StatusCode::NOT_FOUND {
        return Ok(Fetched::Missing);
    }
    if status.is_redirection() {
        let to = response.headers().get("location").and_then(|v| v.to_str().ok()).unwrap_or("?").to_string();
        return Err(format!(
            "GET {url}: redirected ({status}) to {to}; registries are not followed across redirects (configure the new URL)"
        ));
    }
    if !status.is_success() {
        return Err(format!("GET {url}: HTTP {status}"));
    }
    if response.content_length().is_some_and(|n| n > cap) {
        return Err(format!("GET {url}: {} bytes announced, more than the {cap} allowed", response.content_length().unwrap_or(0)));
    }
    let mut bytes = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|e| format!("GET {url}: {}", chain(&e)))? {
        bytes.extend_from_slice(&chunk);
        if bytes.len() as u64 > cap {
            return Err(format!("GET {url}: more than the {cap} bytes allowed"));
        }
    }
    Ok(Fetched::Found(bytes))
}

fn chain(error: &reqwest::Error) -> String {
    let mut text = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    if error.is_timeout() {
        text.push_str(" (timed out)");
    }
    text
}
