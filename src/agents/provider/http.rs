//! The one HTTP exchange both providers make: POST a JSON body, get a bounded JSON body back,
//! with every failure mapped to a `ProviderError` that names the endpoint.
//!
//! Three guards keep a hostile or broken server from hurting the engine: the whole exchange
//! (connect, send, headers, body) runs under one deadline, so nothing here can hang forever;
//! the body is read chunk by chunk and abandoned past `max_response_bytes` (a declared
//! `Content-Length` above it is refused before reading); and redirects are not followed, so a
//! server cannot bounce a request carrying the API key to another host.

use std::error::Error as _;
use std::time::Duration;

use reqwest::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, HeaderValue};
use serde::de::DeserializeOwned;

use super::wire::{EXCERPT_CHARS, excerpt};
use super::{HttpSettings, ProviderError, ProviderKind};

/// How much of an error status's body is read for its excerpt.
const ERROR_BODY_BYTES: usize = 4096;

/// A configured client plus its limits. Cloning is cheap (reqwest's client is shared inside).
#[derive(Clone)]
pub(super) struct Transport {
    client: reqwest::Client,
    settings: HttpSettings,
}

impl Transport {
    pub(super) fn new(provider: ProviderKind, settings: &HttpSettings) -> Result<Self, ProviderError> {
        install_crypto_provider();
        let mut builder = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none());
        if !settings.env_proxy {
            builder = builder.no_proxy();
        }
        let client = builder.build().map_err(|error| ProviderError::Setup { provider, detail: error_chain(&error) })?;
        Ok(Self { client, settings: settings.clone() })
    }

    /// The budget of a request that carries `requested` (or none).
    pub(super) fn timeout(&self, requested: Option<Duration>) -> Duration {
        requested.unwrap_or(self.settings.timeout)
    }

    /// POSTs `body` to `url` and parses the reply as `T`, all within `timeout`.
    pub(super) async fn post_json<T: DeserializeOwned>(
        &self,
        url: &str,
        body: String,
        authorization: Option<&HeaderValue>,
        timeout: Duration,
    ) -> Result<T, ProviderError> {
        let exchange = self.exchange(url, body, authorization);
        let bytes = tokio::time::timeout(timeout, exchange).await.map_err(|_| ProviderError::Timeout {
            url: url.to_string(),
            after_ms: u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX),
        })??;
        serde_json::from_slice(&bytes).map_err(|error| ProviderError::Malformed {
            url: url.to_string(),
            detail: format!("{error} (body starts {:?})", excerpt(&String::from_utf8_lossy(&bytes), 80)),
        })
    }

    async fn exchange(&self, url: &str, body: String, authorization: Option<&HeaderValue>) -> Result<Vec<u8>, ProviderError> {
        let mut request = self.client.post(url).header(CONTENT_TYPE, "application/json").header(ACCEPT, "application/json").body(body);
        if let Some(value) = authorization {
            request = request.header(AUTHORIZATION, value.clone());
        }
        let response = request.send().await.map_err(|error| {
            let detail = error_chain(&error);
            if error.is_connect() {
                ProviderError::Unreachable { url: url.to_string(), detail }
            } else {
                // Connected, but no valid HTTP response came back (closed early, garbage bytes).
                ProviderError::Malformed { url: url.to_string(), detail: format!("no HTTP response: {detail}") }
            }
        })?;
        let status = response.status();
        if !status.is_success() {
            let body = read_capped(url, response, ERROR_BODY_BYTES, false).await.unwrap_or_default();
            return Err(ProviderError::Http {
                url: url.to_string(),
                status: status.as_u16(),
                body: excerpt(&String::from_utf8_lossy(&body), EXCERPT_CHARS),
            });
        }
        read_capped(url, response, self.settings.max_response_bytes, true).await
    }
}

/// Reads at most `limit` bytes of body. Over the limit, `strict` makes it `TooLarge`; otherwise
/// the first `limit` bytes are kept (for an error excerpt).
async fn read_capped(url: &str, mut response: reqwest::Response, limit: usize, strict: bool) -> Result<Vec<u8>, ProviderError> {
    let too_large = || ProviderError::TooLarge { url: url.to_string(), limit };
    let declared = response.content_length();
    if strict && declared.is_some_and(|length| length > limit as u64) {
        return Err(too_large());
    }
    let mut body = Vec::with_capacity(declared.map_or(8 * 1024, |length| length as usize).min(limit));
    loop {
        let chunk = response.chunk().await.map_err(|error| ProviderError::Malformed {
            url: url.to_string(),
            detail: format!("the body broke off after {} bytes: {}", body.len(), error_chain(&error)),
        })?;
        let Some(chunk) = chunk else { return Ok(body) };
        if body.len() + chunk.len() > limit {
            if strict {
                return Err(too_large());
            }
            body.extend_from_slice(&chunk[..limit - body.len()]);
            return Ok(body);
        }
        body.extend_from_slice(&chunk);
    }
}

/// reqwest's own message is only the outer layer ("error sending request"); the cause that
/// tells an operator what happened ("Connection refused") is further down the chain.
fn error_chain(error: &reqwest::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// reqwest is built with `rustls-no-provider` so the cheap-to-compile `ring` backend can be
/// chosen instead of aws-lc; rustls then needs a process default. Installing is idempotent
/// here: if anything installed one first, that one is kept.
#[cfg(feature = "tls")]
pub(crate) fn install_crypto_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

#[cfg(not(feature = "tls"))]
pub(crate) fn install_crypto_provider() {}

/// The password a base URL carries (`http://user:secret@host`), as written there.
pub(super) fn url_password(base_url: &str) -> Option<String> {
    reqwest::Url::parse(base_url).ok().and_then(|url| url.password().map(str::to_string))
}

/// Checks that `base_url` is a URL this build can reach, before any request is made.
pub(super) fn check_base_url(provider: ProviderKind, base_url: &str) -> Result<(), ProviderError> {
    let setup = |detail: String| ProviderError::Setup { provider, detail };
    let url = reqwest::Url::parse(base_url).map_err(|error| setup(format!("base URL {base_url:?} is not a URL: {error}")))?;
    match url.scheme() {
        "http" => Ok(()),
        "https" if cfg!(feature = "tls") => Ok(()),
        "https" => Err(setup(format!("base URL {base_url:?} needs HTTPS, and this build has no `tls` feature"))),
        other => Err(setup(format!("base URL {base_url:?} has scheme {other:?}; only http and https are supported"))),
    }
}
