//! The Ollama provider: one non-streaming `POST {base}/api/chat` with native tool calling.
//!
//! Request: `model`, `stream: false`, `options.temperature: 0` (stable tool selection), the
//! system and user messages, and the skills as function tools. Reply: the calls in
//! `message.tool_calls[].function.{name, arguments}` (Ollama sends `arguments` as an object), or
//! a JSON call written into `message.content` (small models often answer that way); token usage
//! is `prompt_eval_count + eval_count`.

use serde::Deserialize;
use serde_json::{Value, json};

use super::http::{Transport, check_base_url, url_password};
use super::redact::Redactor;
use super::wire::{CallCollector, NativeCall, ToolNames, function_tools, messages};
use super::{BoxFuture, DecideRequest, Decision, ENV_OLLAMA_MODEL, OllamaConfig, Provider, ProviderError, ProviderKind};

pub struct OllamaProvider {
    endpoint: String,
    default_model: Option<String>,
    transport: Transport,
    /// A password in the base URL: kept out of everything `decide` returns.
    redactor: std::sync::Arc<Redactor>,
}

impl OllamaProvider {
    pub fn new(config: OllamaConfig) -> Result<Self, ProviderError> {
        check_base_url(ProviderKind::Ollama, &config.base_url)?;
        let endpoint = format!("{}/api/chat", config.base_url.trim_end_matches('/'));
        let transport = Transport::new(ProviderKind::Ollama, &config.http)?;
        let redactor = std::sync::Arc::new(Redactor::new(url_password(&config.base_url).as_deref()));
        Ok(Self { endpoint, default_model: config.default_model, transport, redactor })
    }

    /// The URL requests go to.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }
}

impl Provider for OllamaProvider {
    fn name(&self) -> &str {
        ProviderKind::Ollama.name()
    }

    fn decide(&self, req: DecideRequest) -> BoxFuture<'static, Result<Decision, ProviderError>> {
        let endpoint = self.endpoint.clone();
        let transport = self.transport.clone();
        let model = if req.model.is_empty() { self.default_model.clone() } else { Some(req.model.clone()) };
        let redactor = std::sync::Arc::clone(&self.redactor);
        let decision = async move {
            let model = model.ok_or(ProviderError::NotConfigured { provider: ProviderKind::Ollama, missing: ENV_OLLAMA_MODEL })?;
            tracing::debug!(agent = %req.agent_id, %model, %endpoint, "ollama decide");
            let mut body = json!({
                "model": model,
                "stream": false,
                "options": {"temperature": 0},
                "messages": messages(&req.system_prompt, &req.perception, &req.previous_results),
            });
            if !req.tools.is_empty() {
                body["tools"] = Value::Array(function_tools(&req.tools));
            }
            let timeout = transport.timeout(req.timeout);
            let reply: ChatReply = transport.post_json(&endpoint, body.to_string(), None, timeout).await?;
            let names = ToolNames::new(&req.tools);
            let mut calls = CallCollector::new(&names);
            for call in reply.message.tool_calls.unwrap_or_default() {
                calls.push(call.function.name.as_deref(), call.function.arguments);
            }
            let total_tokens = match (reply.prompt_eval_count, reply.eval_count) {
                (None, None) => None,
                (prompt, output) => Some(prompt.unwrap_or(0) + output.unwrap_or(0)),
            };
            calls.finish(&endpoint, reply.message.content.as_deref(), total_tokens)
        };
        Box::pin(async move { redactor.result(decision.await) })
    }
}

/// The fields of Ollama's `/api/chat` reply this provider reads; the rest are ignored.
#[derive(Deserialize)]
struct ChatReply {
    message: Message,
    prompt_eval_count: Option<u64>,
    eval_count: Option<u64>,
}

#[derive(Deserialize)]
struct Message {
    content: Option<String>,
    /// `null` and absent both mean none.
    tool_calls: Option<Vec<NativeCall>>,
}
