//! Provider configuration: endpoints, keys, default models and HTTP limits, read from the
//! operator's environment or built explicitly.
//!
//! This is the only place an endpoint or a key enters a provider. A world, a spawn payload or an
//! MCP client only ever chooses a provider by `ProviderKind` and a model by name; it cannot point
//! a configured key at a server of its choosing. `ProvidersConfig::default()` reads nothing from
//! the environment (not even proxy variables), so tests that build a config explicitly are
//! independent of the machine they run on.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use super::{OllamaProvider, OpenAiProvider, Provider, ProviderError, ProviderKind};

pub const ENV_OLLAMA_URL: &str = "LIMINA_OLLAMA_URL";
pub const ENV_OLLAMA_MODEL: &str = "LIMINA_OLLAMA_MODEL";
pub const ENV_OPENAI_BASE_URL: &str = "LIMINA_OPENAI_BASE_URL";
pub const ENV_OPENAI_API_KEY: &str = "LIMINA_OPENAI_API_KEY";
/// Read when `LIMINA_OPENAI_API_KEY` is unset, because that is where most operators keep it.
pub const ENV_OPENAI_API_KEY_FALLBACK: &str = "OPENAI_API_KEY";
pub const ENV_OPENAI_MODEL: &str = "LIMINA_OPENAI_MODEL";

pub const DEFAULT_OLLAMA_URL: &str = "http://localhost:11434";
pub const DEFAULT_OPENAI_BASE_URL: &str = "https://api.openai.com/v1";
/// Used when a request carries no timeout of its own. Local models on a CPU can take tens of
/// seconds for one reply; the engine normally passes its shorter `decisionTimeoutMs`.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);
/// A chat reply is a few KiB; anything near this is a hostile or broken server.
pub const DEFAULT_MAX_RESPONSE_BYTES: usize = 4 * 1024 * 1024;

/// Limits shared by every request a provider makes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpSettings {
    /// The default whole-round-trip budget (connect, send, headers and body).
    pub timeout: Duration,
    /// The largest response body read; a larger one is `ProviderError::TooLarge`.
    pub max_response_bytes: usize,
    /// Route through `HTTP_PROXY`/`HTTPS_PROXY`/`NO_PROXY`. On when read from the environment,
    /// off by default so a proxy variable on a test machine cannot capture loopback requests.
    pub env_proxy: bool,
}

impl Default for HttpSettings {
    fn default() -> Self {
        Self { timeout: DEFAULT_TIMEOUT, max_response_bytes: DEFAULT_MAX_RESPONSE_BYTES, env_proxy: false }
    }
}

/// A secret that never appears in `Debug` output or logs.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    pub fn new(key: impl Into<String>) -> Self {
        Self(key.into())
    }

    pub(super) fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(<redacted>)")
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OllamaConfig {
    /// The server root; `/api/chat` is appended.
    pub base_url: String,
    /// Used when a request names no model.
    pub default_model: Option<String>,
    pub http: HttpSettings,
}

impl Default for OllamaConfig {
    fn default() -> Self {
        Self { base_url: DEFAULT_OLLAMA_URL.to_string(), default_model: None, http: HttpSettings::default() }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenAiConfig {
    /// The server root, with or without a trailing `/v1`; `/v1/chat/completions` is completed.
    pub base_url: String,
    /// Sent as `Authorization: Bearer <key>` when present. Local OpenAI-compatible servers
    /// (llama.cpp, vLLM, LM Studio) usually need none; the default cloud endpoint does.
    pub api_key: Option<ApiKey>,
    pub default_model: Option<String>,
    pub http: HttpSettings,
}

impl Default for OpenAiConfig {
    fn default() -> Self {
        Self { base_url: DEFAULT_OPENAI_BASE_URL.to_string(), api_key: None, default_model: None, http: HttpSettings::default() }
    }
}

/// Both HTTP providers' configuration.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ProvidersConfig {
    pub ollama: OllamaConfig,
    pub openai: OpenAiConfig,
}

impl ProvidersConfig {
    /// Reads the `LIMINA_*` variables (and `OPENAI_API_KEY`) of this process.
    pub fn from_env() -> Self {
        Self::from_lookup(|name| std::env::var(name).ok())
    }

    /// Like `from_env`, with the variables looked up through `lookup`. An empty value counts as
    /// unset, so `LIMINA_OPENAI_API_KEY=` does not hide `OPENAI_API_KEY`.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Self {
        let var = |name: &str| lookup(name).map(|value| value.trim().to_string()).filter(|value| !value.is_empty());
        let http = HttpSettings { env_proxy: true, ..HttpSettings::default() };
        Self {
            ollama: OllamaConfig {
                base_url: var(ENV_OLLAMA_URL).unwrap_or_else(|| DEFAULT_OLLAMA_URL.to_string()),
                default_model: var(ENV_OLLAMA_MODEL),
                http: http.clone(),
            },
            openai: OpenAiConfig {
                base_url: var(ENV_OPENAI_BASE_URL).unwrap_or_else(|| DEFAULT_OPENAI_BASE_URL.to_string()),
                api_key: var(ENV_OPENAI_API_KEY).or_else(|| var(ENV_OPENAI_API_KEY_FALLBACK)).map(ApiKey),
                default_model: var(ENV_OPENAI_MODEL),
                http,
            },
        }
    }
}

/// The HTTP provider of `kind`, built from `config`. Fails when its base URL is not an
/// `http(s)` URL, or is `https` in a build without the `tls` feature.
pub fn http_provider(kind: ProviderKind, config: &ProvidersConfig) -> Result<Arc<dyn Provider>, ProviderError> {
    Ok(match kind {
        ProviderKind::Ollama => Arc::new(OllamaProvider::new(config.ollama.clone())?),
        ProviderKind::OpenAi => Arc::new(OpenAiProvider::new(config.openai.clone())?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn lookup(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let vars: HashMap<String, String> = vars.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        move |name| vars.get(name).cloned()
    }

    #[test]
    fn unset_environment_gives_the_documented_defaults() {
        let config = ProvidersConfig::from_lookup(lookup(&[]));
        assert_eq!(config.ollama.base_url, DEFAULT_OLLAMA_URL);
        assert_eq!(config.openai.base_url, DEFAULT_OPENAI_BASE_URL);
        assert_eq!(config.openai.api_key, None);
        assert_eq!(config.ollama.default_model, None);
        assert!(config.ollama.http.env_proxy, "the operator's proxy applies to env-configured providers");
    }

    #[test]
    fn limina_key_wins_and_openai_key_is_the_fallback() {
        let both = ProvidersConfig::from_lookup(lookup(&[(ENV_OPENAI_API_KEY, "sk-limina"), (ENV_OPENAI_API_KEY_FALLBACK, "sk-other")]));
        assert_eq!(both.openai.api_key, Some(ApiKey::new("sk-limina")));
        let fallback = ProvidersConfig::from_lookup(lookup(&[(ENV_OPENAI_API_KEY, "  "), (ENV_OPENAI_API_KEY_FALLBACK, "sk-other")]));
        assert_eq!(fallback.openai.api_key, Some(ApiKey::new("sk-other")));
    }

    #[test]
    fn urls_and_models_come_from_their_variables() {
        let config = ProvidersConfig::from_lookup(lookup(&[
            (ENV_OLLAMA_URL, "http://gpu-box:11434"),
            (ENV_OLLAMA_MODEL, "qwen2.5:7b"),
            (ENV_OPENAI_BASE_URL, "http://localhost:8080/v1"),
            (ENV_OPENAI_MODEL, "gpt-4o-mini"),
        ]));
        assert_eq!(config.ollama.base_url, "http://gpu-box:11434");
        assert_eq!(config.ollama.default_model.as_deref(), Some("qwen2.5:7b"));
        assert_eq!(config.openai.base_url, "http://localhost:8080/v1");
        assert_eq!(config.openai.default_model.as_deref(), Some("gpt-4o-mini"));
    }

    #[test]
    fn api_keys_never_show_in_debug_output() {
        let config = OpenAiConfig { api_key: Some(ApiKey::new("sk-secret-123")), ..OpenAiConfig::default() };
        let shown = format!("{config:?}");
        assert!(!shown.contains("sk-secret-123"), "{shown}");
        assert!(shown.contains("redacted"), "{shown}");
    }

    #[test]
    fn explicit_defaults_read_no_proxy_variables() {
        assert!(!ProvidersConfig::default().openai.http.env_proxy);
    }
}
