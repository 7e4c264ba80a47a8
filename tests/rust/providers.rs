//! The Ollama and OpenAI-compatible decision providers against local servers speaking their real
//! wire formats: parsed tool calls with decoded names, the exact request shape, the text
//! fallback, and every honest failure (bad bodies, HTTP errors, a dead or stalled server, an
//! oversized or empty reply). Each shared case runs once per provider (`ollama::…`, `openai::…`).

use std::sync::Arc;
use std::time::Duration;

use limina::agents::provider::{
    DecideRequest, Decision, HttpSettings, OllamaConfig, OpenAiConfig, Provider, ProviderError, ProviderKind, ProvidersConfig,
    RejectReason, ToolCall, ToolSpec, http_provider,
};
use serde_json::{Value, json};

use crate::http_stub::{Reply, StubServer, dead_base_url};

#[derive(Debug, Clone, Copy, PartialEq)]
enum Flavor {
    Ollama,
    OpenAi,
}

impl Flavor {
    fn kind(self) -> ProviderKind {
        match self {
            Flavor::Ollama => ProviderKind::Ollama,
            Flavor::OpenAi => ProviderKind::OpenAi,
        }
    }

    fn path(self) -> &'static str {
        match self {
            Flavor::Ollama => "/api/chat",
            Flavor::OpenAi => "/v1/chat/completions",
        }
    }

    fn provider(self, base_url: &str) -> Arc<dyn Provider> {
        self.provider_with(base_url, HttpSettings::default(), None, None)
    }

    /// A provider built the way the engine builds one: a config, then the registry.
    fn provider_with(self, base_url: &str, http: HttpSettings, api_key: Option<&str>, default_model: Option<&str>) -> Arc<dyn Provider> {
        let default_model = default_model.map(str::to_string);
        let config = ProvidersConfig {
            ollama: OllamaConfig { base_url: base_url.to_string(), default_model: default_model.clone(), http: http.clone() },
            openai: OpenAiConfig {
                base_url: base_url.to_string(),
                api_key: api_key.map(limina::agents::provider::ApiKey::new),
                default_model,
                http,
            },
        };
        http_provider(self.kind(), &config).unwrap()
    }

    /// Arguments the way this server sends them natively: an object from Ollama, a JSON string
    /// from OpenAI.
    fn native_arguments(self, arguments: Value) -> Value {
        match self {
            Flavor::Ollama => arguments,
            Flavor::OpenAi => Value::String(arguments.to_string()),
        }
    }

    /// A successful reply carrying `calls` (function name, raw `arguments` field) and `content`.
    fn reply(self, calls: &[(&str, Value)], content: &str) -> Value {
        match self {
            Flavor::Ollama => {
                let tool_calls: Vec<Value> =
                    calls.iter().map(|(name, arguments)| json!({"function": {"name": name, "arguments": arguments}})).collect();
                json!({
                    "model": "test-model",
                    "created_at": "2026-01-01T00:00:00Z",
                    "message": {"role": "assistant", "content": content, "tool_calls": tool_calls},
                    "done": true,
                    "done_reason": "stop",
                    "prompt_eval_count": 120,
                    "eval_count": 30,
                })
            }
            Flavor::OpenAi => {
                let tool_calls: Vec<Value> = calls
                    .iter()
                    .enumerate()
                    .map(|(index, (name, arguments))| {
                        json!({"id": format!("call_{index}"), "type": "function", "function": {"name": name, "arguments": arguments}})
                    })
                    .collect();
                let message = if calls.is_empty() {
                    json!({"role": "assistant", "content": content})
                } else {
                    json!({"role": "assistant", "content": null, "tool_calls": tool_calls})
                };
                json!({
                    "id": "chatcmpl-1",
                    "object": "chat.completion",
                    "created": 1,
                    "model": "test-model",
                    "choices": [{"index": 0, "message": message, "finish_reason": if calls.is_empty() { "stop" } else { "tool_calls" }}],
                    "usage": {"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150},
                })
            }
        }
    }
}

fn impulse_schema() -> Value {
    json!({
        "type": "object",
        "properties": {"entity": {"type": "string"}, "impulse": {"type": "array", "items": {"type": "number"}, "minItems": 3, "maxItems": 3}},
        "required": ["entity", "impulse"],
    })
}

fn request() -> DecideRequest {
    DecideRequest {
        agent_id: "agent_1".into(),
        model: "test-model".into(),
        system_prompt: "You are a ball. Chase the nearest target.".into(),
        perception: json!({"selfEntity": "ent_1", "position": [0, 0, 0], "nearby": [{"entity": "ent_2", "position": [3, 0, 0]}]}),
        tools: vec![
            ToolSpec { name: "physics.applyImpulse".into(), description: "Push a dynamic body.".into(), input_schema: impulse_schema() },
            ToolSpec {
                name: "social.say".into(),
                description: "Speak a line.".into(),
                input_schema: json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}),
            },
        ],
        previous_results: vec![json!({"tool": "social.say", "ok": true})],
        // Generous: only the stall test is meant to reach its timeout.
        timeout: Some(Duration::from_secs(20)),
    }
}

async fn decide_against(flavor: Flavor, reply: Reply) -> (Result<Decision, ProviderError>, StubServer) {
    let server = StubServer::start(reply).await;
    let result = flavor.provider(&server.base_url).decide(request()).await;
    (result, server)
}

async fn tool_calls_are_parsed_with_dotted_names(flavor: Flavor) {
    let reply = flavor.reply(
        &[
            ("physics__applyImpulse", flavor.native_arguments(json!({"entity": "ent_1", "impulse": [1.5, 0, 0]}))),
            // A JSON string is accepted from either server.
            ("social__say", json!("{\"text\": \"coming!\"}")),
        ],
        "",
    );
    let (result, _server) = decide_against(flavor, Reply::json(&reply)).await;
    let decision = result.unwrap();
    assert_eq!(
        decision.tool_calls,
        vec![
            ToolCall { tool: "physics.applyImpulse".into(), input: json!({"entity": "ent_1", "impulse": [1.5, 0, 0]}) },
            ToolCall { tool: "social.say".into(), input: json!({"text": "coming!"}) },
        ]
    );
    assert!(decision.rejected.is_empty());
    assert_eq!(decision.total_tokens, Some(150));
}

async fn the_request_has_the_wire_shape(flavor: Flavor) {
    let reply = flavor.reply(&[("social__say", flavor.native_arguments(json!({"text": "hi"})))], "");
    let (result, server) = decide_against(flavor, Reply::json(&reply)).await;
    result.unwrap();
    let received = server.single_request();
    assert_eq!((received.method.as_str(), received.path.as_str()), ("POST", flavor.path()));
    assert_eq!(received.header("content-type"), Some("application/json"));
    let body = received.json();
    assert_eq!(body["model"], "test-model");
    let messages = body["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 2);
    assert_eq!(messages[0], json!({"role": "system", "content": "You are a ball. Chase the nearest target."}));
    assert_eq!(messages[1]["role"], "user");
    let user: Value = serde_json::from_str(messages[1]["content"].as_str().unwrap()).unwrap();
    assert_eq!(user, json!({"perception": request().perception, "previousResults": request().previous_results}));
    assert!(!messages[1]["content"].as_str().unwrap().contains('\n'), "perception is sent as compact JSON");
    let tools = body["tools"].as_array().unwrap();
    assert_eq!(
        tools[0],
        json!({"type": "function", "function": {"name": "physics__applyImpulse", "description": "Push a dynamic body.", "parameters": impulse_schema()}})
    );
    assert_eq!(tools[1]["function"]["name"], "social__say");
    match flavor {
        Flavor::Ollama => {
            assert_eq!(body["stream"], false);
            assert_eq!(body["options"]["temperature"], 0);
        }
        Flavor::OpenAi => {
            assert_eq!(body["temperature"], 0);
            assert_eq!(body["tool_choice"], "auto");
            assert_eq!(received.header("authorization"), None, "no key configured, no header");
        }
    }
}

async fn a_call_written_in_content_is_read(flavor: Flavor) {
    let content = "I'll head over.\n```json\n{\"name\": \"physics__applyImpulse\", \"arguments\": {\"entity\": \"ent_1\", \"impulse\": [0, 0, 2]}}\n```";
    let (result, _server) = decide_against(flavor, Reply::json(&flavor.reply(&[], content))).await;
    let decision = result.unwrap();
    assert_eq!(
        decision.tool_calls,
        vec![ToolCall { tool: "physics.applyImpulse".into(), input: json!({"entity": "ent_1", "impulse": [0, 0, 2]}) }]
    );
}

async fn unparseable_arguments_are_rejected_not_run(flavor: Flavor) {
    let reply = flavor.reply(
        &[
            ("physics__applyImpulse", json!("{\"entity\": \"ent_1\", \"impulse\": [1, 0")),
            ("social__say", flavor.native_arguments(json!({"text": "ok"}))),
        ],
        "",
    );
    let (result, _server) = decide_against(flavor, Reply::json(&reply)).await;
    let decision = result.unwrap();
    assert_eq!(decision.tool_calls, vec![ToolCall { tool: "social.say".into(), input: json!({"text": "ok"}) }]);
    assert_eq!(decision.rejected.len(), 1);
    assert_eq!(decision.rejected[0].tool, "physics.applyImpulse");
    assert_eq!(decision.rejected[0].arguments, "{\"entity\": \"ent_1\", \"impulse\": [1, 0");
    assert!(matches!(decision.rejected[0].reason, RejectReason::ArgumentsNotJson { .. }), "{:?}", decision.rejected[0]);
}

async fn a_non_json_body_is_malformed(flavor: Flavor) {
    let (result, _server) = decide_against(flavor, Reply::status(200, "<html>gateway says hi</html>")).await;
    assert!(matches!(&result, Err(ProviderError::Malformed { detail, .. }) if detail.contains("<html>")), "{result:?}");
}

async fn a_json_body_of_the_wrong_shape_is_malformed(flavor: Flavor) {
    let (result, _server) = decide_against(flavor, Reply::json(&json!({"answer": 42}))).await;
    assert!(matches!(result, Err(ProviderError::Malformed { .. })), "{result:?}");
}

async fn a_body_shorter_than_its_length_is_malformed(flavor: Flavor) {
    let raw =
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\nConnection: close\r\n\r\n{\"message\": ".to_vec();
    let (result, _server) = decide_against(flavor, Reply::Raw(raw)).await;
    assert!(matches!(result, Err(ProviderError::Malformed { .. })), "{result:?}");
}

async fn http_500_is_an_http_error_with_the_body(flavor: Flavor) {
    let body = format!("{{\"error\": \"model crashed\"}}{}", " ".repeat(1000));
    let (result, _server) = decide_against(flavor, Reply::status(500, &body)).await;
    match result {
        Err(ProviderError::Http { url, status, body }) => {
            assert_eq!(status, 500);
            assert!(url.ends_with(flavor.path()), "{url}");
            assert!(body.contains("model crashed"), "{body}");
            assert!(body.chars().count() <= 200, "excerpt is {} chars", body.chars().count());
        }
        other => panic!("expected an HTTP error, got {other:?}"),
    }
}

async fn a_dead_server_is_unreachable(flavor: Flavor) {
    let base_url = dead_base_url().await;
    let result = flavor.provider(&base_url).decide(request()).await;
    assert!(matches!(result, Err(ProviderError::Unreachable { .. })), "{result:?}");
}

async fn a_stalled_server_times_out(flavor: Flavor) {
    let server = StubServer::start(Reply::Stall(Duration::from_secs(3))).await;
    let request = DecideRequest { timeout: Some(Duration::from_millis(500)), ..request() };
    let result = flavor.provider(&server.base_url).decide(request).await;
    assert!(matches!(result, Err(ProviderError::Timeout { after_ms: 500, .. })), "{result:?}");
}

async fn the_configured_timeout_applies_when_the_request_has_none(flavor: Flavor) {
    let server = StubServer::start(Reply::Stall(Duration::from_secs(3))).await;
    let http = HttpSettings { timeout: Duration::from_millis(300), ..HttpSettings::default() };
    let provider = flavor.provider_with(&server.base_url, http, None, None);
    let result = provider.decide(DecideRequest { timeout: None, ..request() }).await;
    assert!(matches!(result, Err(ProviderError::Timeout { after_ms: 300, .. })), "{result:?}");
}

async fn a_declared_oversized_body_is_refused(flavor: Flavor) {
    // Declares 5 MiB (above the default 4 MiB cap) but sends a little and then waits: a client
    // that trusted the length and started reading would end on a broken body, not `TooLarge`.
    let raw = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 5242880\r\n\r\n{\"message\": {".to_vec();
    let (result, _server) = decide_against(flavor, Reply::Raw(raw)).await;
    assert!(matches!(result, Err(ProviderError::TooLarge { limit: 4_194_304, .. })), "{result:?}");
}

async fn a_streamed_oversized_body_is_cut_off(flavor: Flavor) {
    let server = StubServer::start(Reply::Chunked { total: 1024 * 1024 }).await;
    let http = HttpSettings { max_response_bytes: 64 * 1024, ..HttpSettings::default() };
    let result = flavor.provider_with(&server.base_url, http, None, None).decide(request()).await;
    assert!(matches!(result, Err(ProviderError::TooLarge { limit: 65_536, .. })), "{result:?}");
}

async fn an_empty_reply_is_empty(flavor: Flavor) {
    for content in ["", "I would rather just stand here and think."] {
        let (result, _server) = decide_against(flavor, Reply::json(&flavor.reply(&[], content))).await;
        match result {
            Err(ProviderError::Empty { content: shown, .. }) => assert_eq!(shown, content),
            other => panic!("content {content:?}: expected Empty, got {other:?}"),
        }
    }
}

async fn no_model_anywhere_is_not_configured_and_sends_nothing(flavor: Flavor) {
    let server = StubServer::start(Reply::json(&flavor.reply(&[("social__say", json!({}))], ""))).await;
    let provider = flavor.provider(&server.base_url);
    let result = provider.decide(DecideRequest { model: String::new(), ..request() }).await;
    let expected = match flavor {
        Flavor::Ollama => "LIMINA_OLLAMA_MODEL",
        Flavor::OpenAi => "LIMINA_OPENAI_MODEL",
    };
    assert!(matches!(result, Err(ProviderError::NotConfigured { missing, .. }) if missing == expected), "{result:?}");
    assert!(server.received().is_empty());
}

async fn the_configured_model_fills_in_for_a_request_without_one(flavor: Flavor) {
    let server = StubServer::start(Reply::json(&flavor.reply(&[("social__say", flavor.native_arguments(json!({"text": "a"})))], ""))).await;
    let provider = flavor.provider_with(&server.base_url, HttpSettings::default(), None, Some("qwen2.5:7b"));
    provider.decide(DecideRequest { model: String::new(), ..request() }).await.unwrap();
    assert_eq!(server.single_request().json()["model"], "qwen2.5:7b");
}

async fn decisions_run_concurrently_from_spawned_tasks(flavor: Flavor) {
    let server = StubServer::start(Reply::json(&flavor.reply(&[("social__say", flavor.native_arguments(json!({"text": "a"})))], ""))).await;
    let provider = flavor.provider(&server.base_url);
    let tasks: Vec<_> = (0..4)
        .map(|index| {
            let provider = Arc::clone(&provider);
            tokio::spawn(async move { provider.decide(DecideRequest { agent_id: format!("agent_{index}"), ..request() }).await })
        })
        .collect();
    for task in tasks {
        assert_eq!(task.await.unwrap().unwrap().tool_calls[0].tool, "social.say");
    }
    assert_eq!(server.received().len(), 4);
}

macro_rules! for_both_providers {
    ($($case:ident),* $(,)?) => {
        mod ollama {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $case() {
                super::$case(super::Flavor::Ollama).await
            })*
        }
        mod openai {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $case() {
                super::$case(super::Flavor::OpenAi).await
            })*
        }
    };
}

for_both_providers!(
    tool_calls_are_parsed_with_dotted_names,
    the_request_has_the_wire_shape,
    a_call_written_in_content_is_read,
    unparseable_arguments_are_rejected_not_run,
    a_non_json_body_is_malformed,
    a_json_body_of_the_wrong_shape_is_malformed,
    a_body_shorter_than_its_length_is_malformed,
    http_500_is_an_http_error_with_the_body,
    a_dead_server_is_unreachable,
    a_stalled_server_times_out,
    the_configured_timeout_applies_when_the_request_has_none,
    a_declared_oversized_body_is_refused,
    a_streamed_oversized_body_is_cut_off,
    an_empty_reply_is_empty,
    no_model_anywhere_is_not_configured_and_sends_nothing,
    the_configured_model_fills_in_for_a_request_without_one,
    decisions_run_concurrently_from_spawned_tasks,
);

#[tokio::test]
async fn openai_sends_the_configured_key_as_a_bearer_token() {
    let flavor = Flavor::OpenAi;
    let server = StubServer::start(Reply::json(&flavor.reply(&[("social__say", json!("{}"))], ""))).await;
    let provider = flavor.provider_with(&server.base_url, HttpSettings::default(), Some("sk-test-123"), None);
    provider.decide(request()).await.unwrap();
    assert_eq!(server.single_request().header("authorization"), Some("Bearer sk-test-123"));
}

#[tokio::test]
async fn openai_base_url_ending_in_v1_is_not_doubled() {
    let flavor = Flavor::OpenAi;
    let server = StubServer::start(Reply::json(&flavor.reply(&[("social__say", json!("{}"))], ""))).await;
    let provider = flavor.provider(&format!("{}/v1/", server.base_url));
    provider.decide(request()).await.unwrap();
    assert_eq!(server.single_request().path, "/v1/chat/completions");
}

#[tokio::test]
async fn openai_without_tools_sends_no_tools_or_tool_choice() {
    let flavor = Flavor::OpenAi;
    let server = StubServer::start(Reply::json(&flavor.reply(&[], "nothing to do"))).await;
    let result = flavor.provider(&server.base_url).decide(DecideRequest { tools: Vec::new(), ..request() }).await;
    assert!(matches!(result, Err(ProviderError::Empty { .. })), "{result:?}");
    let body = server.single_request().json();
    assert!(body.get("tools").is_none() && body.get("tool_choice").is_none(), "{body}");
}

#[tokio::test]
async fn openai_with_no_choices_is_empty() {
    let server = StubServer::start(Reply::json(&json!({"id": "x", "choices": [], "usage": {"total_tokens": 3}}))).await;
    let result = Flavor::OpenAi.provider(&server.base_url).decide(request()).await;
    assert!(matches!(result, Err(ProviderError::Empty { .. })), "{result:?}");
}

#[cfg(feature = "tls")]
#[tokio::test]
async fn openai_cloud_endpoint_without_a_key_is_not_configured() {
    // The default endpoint is api.openai.com; no request leaves the machine without a key.
    let provider = http_provider(ProviderKind::OpenAi, &ProvidersConfig::default()).unwrap();
    let result = provider.decide(request()).await;
    assert!(matches!(result, Err(ProviderError::NotConfigured { missing: "LIMINA_OPENAI_API_KEY", .. })), "{result:?}");
}

#[test]
fn a_base_url_that_is_not_http_is_refused_at_setup() {
    for kind in ProviderKind::ALL {
        let mut config = ProvidersConfig::default();
        config.ollama.base_url = "ftp://models.local".into();
        config.openai.base_url = "not a url".into();
        let result = http_provider(kind, &config);
        assert!(matches!(result, Err(ProviderError::Setup { .. })), "{kind}: {:?}", result.err());
    }
}

/// A server that echoes the operator's key — in an error body, in a non-JSON body, in the
/// model's words, in a call's arguments, in a whole or a part, raw or encoded — gets none of it
/// into what the provider hands back, and so into the world log (issue 26, item 9).
#[tokio::test]
async fn a_server_echoing_the_key_gets_it_nowhere() {
    use base64::Engine as _;
    const KEY: &str = "sk-live-Q7x/9Zp+ab12CD34ef56";
    let flavor = Flavor::OpenAi;
    let b64 = base64::engine::general_purpose::STANDARD.encode(format!("Authorization: Bearer {KEY}"));
    let json_escaped = serde_json::to_string(KEY).unwrap().replace('/', "\\/");
    let replies = [
        Reply::status(401, &format!("{{\"error\":\"Incorrect API key provided: {KEY}\"}}")),
        Reply::status(403, &format!("Authorization: Bearer {KEY}")),
        Reply::status(400, &format!("{{\"echo\":{json_escaped},\"b64\":\"{b64}\"}}")),
        Reply::status(401, &format!("key ends ...{} (lowercased: {})", &KEY[8..], KEY.to_lowercase())),
        Reply::status(401, "key sk-live-Q7x%2F9Zp%2Bab12CD34ef56 refused"),
        Reply::status(200, &format!("not json {KEY}")),
        Reply::json(&flavor.reply(&[], &format!("My key is {KEY}"))),
        Reply::json(&flavor.reply(&[("social__say", json!(format!("{{\"text\": \"{KEY}\"}}")))], "")),
        Reply::json(&flavor.reply(&[("social__say", json!(format!("{{broken {KEY}")))], "")),
    ];
    for (n, reply) in replies.into_iter().enumerate() {
        let server = StubServer::start(reply).await;
        let provider = flavor.provider_with(&server.base_url, HttpSettings::default(), Some(KEY), None);
        let shown = match provider.decide(request()).await {
            Ok(decision) => format!("{decision:?}"),
            Err(error) => format!("{error} {error:?}"),
        };
        let lower = shown.to_lowercase();
        for run in KEY.to_lowercase().as_bytes().windows(8) {
            let run = std::str::from_utf8(run).unwrap();
            assert!(!lower.contains(run), "reply {n}: {run:?} of the key is in {shown}");
        }
        assert!(shown.contains("[redacted]"), "reply {n}: {shown}");
    }
}
