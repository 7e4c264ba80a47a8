//! Decision providers: the one async seam between an agent's perception and a model's candidate
//! tool calls, with HTTP clients for Ollama and any OpenAI-compatible chat-completions server.
//!
//! A provider takes plain data in (`DecideRequest`) and gives plain data back (`Decision`); it
//! never acts, never touches the world and never validates arguments against a skill's schema —
//! the engine does that before anything is queued. Decisions are single-shot (one round trip) and
//! run on the tokio runtime, never on the loop thread; `decide` returns a `'static` future so an
//! `Arc<dyn Provider>` can be moved into a spawned task and its answer sent back over a channel.
//!
//! Failure is honest: a dead server, an HTTP error, a body that is not a chat response, a reply
//! with no tool call, or a body above the size cap is a `ProviderError`, never a made-up action.
//! Endpoints and keys come from the operator's environment (`config`), never from a world or an
//! MCP payload, so a builder cannot point the engine's API key at its own server.

mod config;
mod http;
pub(crate) use http::install_crypto_provider;
mod ollama;
mod openai;
mod redact;
mod wire;

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

pub use config::{
    ApiKey, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_OLLAMA_URL, DEFAULT_OPENAI_BASE_URL, DEFAULT_TIMEOUT, ENV_OLLAMA_MODEL, ENV_OLLAMA_URL,
    ENV_OPENAI_API_KEY, ENV_OPENAI_API_KEY_FALLBACK, ENV_OPENAI_BASE_URL, ENV_OPENAI_MODEL, HttpSettings, OllamaConfig, OpenAiConfig,
    ProvidersConfig, http_provider,
};
pub use ollama::OllamaProvider;
pub use openai::OpenAiProvider;
pub use wire::{decode_tool_name, encode_tool_name};

/// A boxed, sendable future: what `Provider::decide` returns so the trait stays object-safe.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// One skill offered to the model.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolSpec {
    /// The skill name with its dots, e.g. `physics.applyImpulse`.
    pub name: String,
    pub description: String,
    /// The skill's input JSON Schema, sent as the function's `parameters`.
    pub input_schema: serde_json::Value,
}

/// Everything one decision needs. Endpoints and keys are deliberately absent: they belong to
/// the provider's configuration, which only the operator's environment sets.
#[derive(Debug, Clone, PartialEq)]
pub struct DecideRequest {
    /// For logs only; never sent to the model server.
    pub agent_id: String,
    /// The model to ask; empty means the provider's configured default.
    pub model: String,
    pub system_prompt: String,
    pub perception: serde_json::Value,
    pub tools: Vec<ToolSpec>,
    pub previous_results: Vec<serde_json::Value>,
    /// The whole round trip's budget (the agent's `decisionTimeoutMs`); `None` uses the
    /// provider's configured timeout.
    pub timeout: Option<Duration>,
}

/// A candidate call, not yet validated against the skill's schema.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    /// The skill name with its dots restored, e.g. `physics.applyImpulse`.
    pub tool: String,
    pub input: serde_json::Value,
}

/// A call the model made that could not even be parsed. It is reported, not dropped silently
/// and not executed: the engine traces it as `agent.toolcall.rejected` with `reason`.
#[derive(Debug, Clone, PartialEq)]
pub struct RejectedCall {
    /// The skill name as decoded (empty when the model gave none).
    pub tool: String,
    /// The start of what the model sent as arguments (at most 200 characters).
    pub arguments: String,
    pub reason: RejectReason,
}

/// Why a call the model made was not turned into a `ToolCall`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RejectReason {
    #[error("arguments are not JSON: {detail}")]
    ArgumentsNotJson { detail: String },
    #[error("the call names no function")]
    NoName,
}

/// The most calls a decision keeps, parsed or not: the largest `maxToolCallsPerDecision` an
/// agent can have. A reply may list any number; the rest are only counted (`Decision::dropped`),
/// so a reply of 100,000 calls costs neither memory nor 100,000 trace events.
pub const MAX_KEPT_CALLS: usize = crate::agents::budget::BudgetBounds::TOOL_CALLS;

/// A provider's answer: the parsed calls in the order the model gave them, the calls it could
/// not parse, and the tokens the server says it spent.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Decision {
    pub tool_calls: Vec<ToolCall>,
    /// Never empty together with `tool_calls` (and `dropped`): a reply with none is
    /// `ProviderError::Empty`.
    pub rejected: Vec<RejectedCall>,
    /// Calls past the first `MAX_KEPT_CALLS` (parsed or not), counted and not kept.
    pub dropped: usize,
    pub total_tokens: Option<u64>,
}

/// The HTTP providers, by the name an agent's config uses. A closed set: a typo in an agent's
/// `llm.provider` fails to parse instead of silently selecting nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProviderKind {
    Ollama,
    OpenAi,
}

impl ProviderKind {
    pub const ALL: [ProviderKind; 2] = [ProviderKind::Ollama, ProviderKind::OpenAi];

    pub fn name(self) -> &'static str {
        match self {
            ProviderKind::Ollama => "ollama",
            ProviderKind::OpenAi => "openai",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.name() == name)
    }
}

impl fmt::Display for ProviderKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a decision produced no `Decision`. Each variant carries the endpoint and the values that
/// caused it; `code()` is a stable short name for traces and status displays.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProviderError {
    #[error("{url} is unreachable: {detail}")]
    Unreachable { url: String, detail: String },
    #[error("{url} did not answer within {after_ms} ms")]
    Timeout { url: String, after_ms: u64 },
    #[error("{url} answered HTTP {status}: {body}")]
    Http { url: String, status: u16, body: String },
    #[error("{url} sent something that is not a chat response: {detail}")]
    Malformed { url: String, detail: String },
    #[error("{url} replied without a tool call (content: {content:?})")]
    Empty { url: String, content: String },
    #[error("the {provider} provider is not configured: set {missing}")]
    NotConfigured { provider: ProviderKind, missing: &'static str },
    #[error("{url} sent a body larger than the {limit}-byte limit")]
    TooLarge { url: String, limit: usize },
    #[error("the {provider} provider cannot be set up: {detail}")]
    Setup { provider: ProviderKind, detail: String },
}

impl ProviderError {
    pub fn code(&self) -> &'static str {
        match self {
            ProviderError::Unreachable { .. } => "unreachable",
            ProviderError::Timeout { .. } => "timeout",
            ProviderError::Http { .. } => "http",
            ProviderError::Malformed { .. } => "malformed",
            ProviderError::Empty { .. } => "empty",
            ProviderError::NotConfigured { .. } => "not_configured",
            ProviderError::TooLarge { .. } => "too_large",
            ProviderError::Setup { .. } => "setup",
        }
    }
}

/// A decision backend. Object-safe: the engine holds `Arc<dyn Provider>` and calls `decide`
/// from tokio tasks; the returned future owns everything it needs.
pub trait Provider: Send + Sync {
    fn name(&self) -> &str;
    fn decide(&self, req: DecideRequest) -> BoxFuture<'static, Result<Decision, ProviderError>>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn provider_kinds_round_trip_through_their_names() {
        for kind in ProviderKind::ALL {
            assert_eq!(ProviderKind::from_name(kind.name()), Some(kind));
        }
        assert_eq!(ProviderKind::from_name("Ollama"), None);
        assert_eq!(ProviderKind::from_name("gateway"), None);
    }
}
