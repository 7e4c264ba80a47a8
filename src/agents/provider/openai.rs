//! The OpenAI-compatible provider: one `POST {base}/v1/chat/completions` with function tools,
//! for OpenAI itself or any server speaking its chat-completions format (llama.cpp, vLLM, LM
//! Studio, gateways).
//!
//! Request: `model`, `temperature: 0`, the system and user messages, the skills as function
//! tools with `tool_choice: "auto"`, and `Authorization: Bearer <key>` when a key is configured.
//! Reply: `choices[0].message.tool_calls[].function.{name, arguments}` where `arguments` is a JSON
//! string (one that does not parse becomes a `RejectedCall`), or a JSON call written into the
//! content; usage is `usage.total_tokens`. A keyless provider pointed at the default cloud
//! endpoint answers `NotConfigured` without sending anything, as the reference's stub did — but
//! a configured one is a real client.

use reqwest::header::HeaderValue;
use serde::Deserialize;
use serde_json::{Value, json};

use super::http::{Transport, check_base_url, url_password};
use super::redact::Redactor;
use super::wire::{CallCollector, NativeCall, ToolNames, function_tools, messages};
use super::{
    BoxFuture, DecideRequest, Decision, ENV_OPENAI_API_KEY, ENV_OPENAI_MODEL, OpenAiConfig, Provider, ProviderError, ProviderKind,
};

/// The host that certainly needs a key; other OpenAI-compatible servers may not.
const OPENAI_HOST: &str = "api.openai.com";

pub struct OpenAiProvider {
    endpoint: String,
    authorization: Option<HeaderValue>,
    /// Set when the endpoint is OpenAI's own and no key is configured.
    missing_key: bool,
    default_model: Option<String>,
    transport: Transport,
    /// The key (and a password in the base URL): kept out of everything `decide` returns.
    redactor: std::sync::Arc<Redactor>,
}

impl OpenAiProvider {
    pub fn new(config: OpenAiConfig) -> Result<Self, ProviderError> {
        check_base_url(ProviderKind::OpenAi, &config.base_url)?;
        let endpoint = chat_completions_url(&config.base_url);
        let authorization = match &config.api_key {
            None => None,
            Some(key) => {
                let mut value = HeaderValue::from_str(&format!("Bearer {}", key.expose())).map_err(|_| ProviderError::Setup {
                    provider: ProviderKind::OpenAi,
                    // Not the key itself: it is a secret even when malformed.
                    detail: "the API key holds characters an HTTP header cannot carry".to_string(),
                })?;
                value.set_sensitive(true);
                Some(value)
            }
        };
        let missing_key =
            authorization.is_none() && reqwest::Url::parse(&config.base_url).is_ok_and(|url| url.host_str() == Some(OPENAI_HOST));
        let transport = Transport::new(ProviderKind::OpenAi, &config.http)?;
        let password = url_password(&config.base_url);
        let redactor = std::sync::Arc::new(Redactor::new(config.api_key.iter().map(|k| k.expose()).chain(password.as_deref())));
        Ok(Self { endpoint, authorization, missing_key, default_model: config.default_model, transport, redactor })
    }

    /// The URL requests go to.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }
}

/// `{base}/v1/chat/completions`, without doubling a `/v1` the base already ends in.
fn chat_completions_url(base_url: &str) -> String {
    let base = base_url.trim_end_matches('/');
    if base.ends_with("/v1") { format!("{base}/chat/completions") } else { format!("{base}/v1/chat/completions") }
}

impl Provider for OpenAiProvider {
    fn name(&self) -> &str {
        ProviderKind::OpenAi.name()
    }

    fn decide(&self, req: DecideRequest) -> BoxFuture<'static, Result<Decision, ProviderError>> {
        let endpoint = self.endpoint.clone();
        let transport = self.transport.clone();
        let authorization = self.authorization.clone();
        let missing_key = self.missing_key;
        let model = if req.model.is_empty() { self.default_model.clone() } else { Some(req.model.clone()) };
        let redactor = std::sync::Arc::clone(&self.redactor);
        let decision = async move {
            let not_configured = |missing| ProviderError::NotConfigured { provider: ProviderKind::OpenAi, missing };
            if missing_key {
                return Err(not_configured(ENV_OPENAI_API_KEY));
            }
            let model = model.ok_or_else(|| not_configured(ENV_OPENAI_MODEL))?;
            tracing::debug!(agent = %req.agent_id, %model, %endpoint, "openai decide");
            let mut body = json!({
                "model": model,
                "temperature": 0,
                "messages": messages(&req.system_prompt, &req.perception, &req.previous_results),
            });
            // OpenAI refuses an empty `tools` array, and `tool_choice` without tools.
            if !req.tools.is_empty() {
                body["tools"] = Value::Array(function_tools(&req.tools));
                body["tool_choice"] = json!("auto");
            }
            let timeout = transport.timeout(req.timeout);
            let reply: Completion = transport.post_json(&endpoint, body.to_string(), authorization.as_ref(), timeout).await?;
            let total_tokens = reply.usage.and_then(|usage| usage.total_tokens);
            let Some(choice) = reply.choices.into_iter().next() else {
                return Err(ProviderError::Empty { url: endpoint, content: String::new() });
            };
            let names = ToolNames::new(&req.tools);
            let mut calls = CallCollector::new(&names);
            for call in choice.message.tool_calls.unwrap_or_default() {
                calls.push(call.function.name.as_deref(), call.function.arguments);
            }
            // A refusal is the model's answer in words: show it in `Empty` rather than nothing.
            let content = choice.message.content.or(choice.message.refusal);
            calls.finish(&endpoint, content.as_deref(), total_tokens)
        };
        // Whatever the server sent back, in whichever field, leaves without the key in it.
        Box::pin(async move { redactor.result(decision.await) })
    }
}

/// The fields of a chat-completions reply this provider reads; the rest are ignored.
#[derive(Deserialize)]
struct Completion {
    choices: Vec<Choice>,
    usage: Option<Usage>,
}

#[derive(Deserialize)]
struct Choice {
    message: Message,
}

#[derive(Deserialize)]
struct Message {
    content: Option<String>,
    refusal: Option<String>,
    tool_calls: Option<Vec<NativeCall>>,
}

#[derive(Deserialize)]
struct Usage {
    total_tokens: Option<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trailing_v1_is_not_doubled() {
        assert_eq!(chat_completions_url("https://api.openai.com/v1"), "https://api.openai.com/v1/chat/completions");
        assert_eq!(chat_completions_url("https://api.openai.com/v1/"), "https://api.openai.com/v1/chat/completions");
        assert_eq!(chat_completions_url("http://127.0.0.1:8080"), "http://127.0.0.1:8080/v1/chat/completions");
        assert_eq!(chat_completions_url("http://gw.local/openai/v1"), "http://gw.local/openai/v1/chat/completions");
    }
}
