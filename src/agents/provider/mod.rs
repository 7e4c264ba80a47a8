//! TEMPORARY seam until the providers branch lands (replaced at merge).
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde_json::Value;

#[derive(Debug, Clone)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    pub input_schema: Value,
}

#[derive(Debug, Clone)]
pub struct DecideRequest {
    pub agent_id: String,
    pub model: String,
    pub system_prompt: String,
    pub perception: Value,
    pub tools: Vec<ToolSpec>,
    pub previous_results: Vec<Value>,
}

#[derive(Debug, Clone)]
pub struct ToolCall {
    pub tool: String,
    pub input: Value,
    pub invalid: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Decision {
    pub tool_calls: Vec<ToolCall>,
    pub total_tokens: Option<u64>,
}

#[derive(Debug, Clone, thiserror::Error)]
pub enum ProviderError {
    #[error("{url}: no answer within {after_ms} ms")]
    Timeout { url: String, after_ms: u64 },
    #[error("{provider} is not configured: {missing}")]
    NotConfigured { provider: String, missing: String },
    #[error("the scripted policy failed: {detail}")]
    Script { detail: String },
}

pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

pub trait Provider: Send + Sync {
    fn name(&self) -> &str;
    fn decide(&self, req: DecideRequest) -> BoxFuture<'static, Result<Decision, ProviderError>>;
}

pub fn http_provider(name: &str) -> Result<Arc<dyn Provider>, ProviderError> {
    Err(ProviderError::NotConfigured { provider: name.into(), missing: "the providers branch".into() })
}
