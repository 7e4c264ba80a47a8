//! The parts of the chat wire format that Ollama and OpenAI share: skills as function tools
//! (with `.` encoded as `__`), the user message, and turning a reply's calls — native
//! `tool_calls` or a JSON call written into the message text — into a `Decision`.
//!
//! Parsing is lenient about where a call is written and strict about what counts as one: a
//! native call with unparseable arguments is reported as a `RejectedCall` (never executed,
//! never silently dropped), while the text fallback only accepts a call that names a tool the
//! request offered, so prose that happens to contain `{"name": ...}` is not turned into an action.

use std::collections::HashMap;

use serde_json::{Map, Value, json};

use super::{Decision, MAX_KEPT_CALLS, ProviderError, RejectReason, RejectedCall, ToolCall, ToolSpec};

/// Longest excerpt of a body, a content string or an argument string kept in an error.
pub(super) const EXCERPT_CHARS: usize = 200;

/// A skill name as a function name: function names must match `^[A-Za-z0-9_-]+$`, skill names
/// are `[A-Za-z0-9_.-]`, so only the dot needs encoding.
pub fn encode_tool_name(skill: &str) -> String {
    skill.replace('.', "__")
}

/// The inverse of `encode_tool_name` for a name that was not in the request (a model's
/// invention): the engine will refuse it by its decoded name.
pub fn decode_tool_name(function: &str) -> String {
    function.replace("__", ".")
}

/// At most `max_chars` characters of `text`, ending in `…` when cut.
pub(super) fn excerpt(text: &str, max_chars: usize) -> String {
    if text.chars().count() <= max_chars {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(max_chars.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// The offered skills as function tools, the same shape for Ollama and OpenAI.
pub(super) fn function_tools(tools: &[ToolSpec]) -> Vec<Value> {
    tools
        .iter()
        .map(|tool| {
            json!({
                "type": "function",
                "function": {"name": encode_tool_name(&tool.name), "description": tool.description, "parameters": tool.input_schema},
            })
        })
        .collect()
}

/// The system prompt, then the perception (and what the last actions returned) as one line of
/// compact JSON: the model gets the same data the engine has, not a prose rendering of it.
pub(super) fn messages(system_prompt: &str, perception: &Value, previous_results: &[Value]) -> Value {
    let user = json!({"perception": perception, "previousResults": previous_results}).to_string();
    json!([{"role": "system", "content": system_prompt}, {"role": "user", "content": user}])
}

/// Maps the function names sent in one request back to their skill names exactly, even for a
/// skill name the plain `__` rule cannot invert (one with `_` next to a dot).
pub(super) struct ToolNames {
    by_function: HashMap<String, String>,
}

impl ToolNames {
    pub(super) fn new(tools: &[ToolSpec]) -> Self {
        Self { by_function: tools.iter().map(|tool| (encode_tool_name(&tool.name), tool.name.clone())).collect() }
    }

    fn decode(&self, function: &str) -> String {
        self.by_function.get(function).cloned().unwrap_or_else(|| decode_tool_name(function))
    }

    /// The skill `name` refers to if the request offered it, by function name or skill name.
    fn offered(&self, name: &str) -> Option<String> {
        self.by_function.get(name).cloned().or_else(|| self.by_function.values().find(|skill| *skill == name).cloned())
    }
}

/// Gathers one reply's calls in order, then decides between a `Decision` and `Empty`.
pub(super) struct CallCollector<'a> {
    names: &'a ToolNames,
    decision: Decision,
}

impl<'a> CallCollector<'a> {
    pub(super) fn new(names: &'a ToolNames) -> Self {
        Self { names, decision: Decision::default() }
    }

    /// One native tool call: `arguments` may be an object (Ollama) or a JSON string (OpenAI);
    /// either provider may send either, so both are accepted from both.
    pub(super) fn push(&mut self, function: Option<&str>, arguments: Option<Value>) {
        if self.full() {
            return;
        }
        match function.filter(|name| !name.is_empty()) {
            Some(name) => self.push_call(self.names.decode(name), arguments),
            None => self.decision.rejected.push(RejectedCall {
                tool: String::new(),
                arguments: excerpt(&arguments_text(&arguments), EXCERPT_CHARS),
                reason: RejectReason::NoName,
            }),
        }
    }

    /// The decision, falling back to a call written in `content` when the reply had no native
    /// call at all; `Empty` when there is neither.
    pub(super) fn finish(mut self, url: &str, content: Option<&str>, total_tokens: Option<u64>) -> Result<Decision, ProviderError> {
        let no_native_calls = self.decision.tool_calls.is_empty() && self.decision.rejected.is_empty();
        if no_native_calls && let Some(text) = content {
            for (skill, arguments) in calls_in_content(text, self.names) {
                self.push_call(skill, arguments);
            }
        }
        if self.decision.tool_calls.is_empty() && self.decision.rejected.is_empty() && self.decision.dropped == 0 {
            return Err(ProviderError::Empty { url: url.to_string(), content: excerpt(content.unwrap_or_default(), EXCERPT_CHARS) });
        }
        self.decision.total_tokens = total_tokens;
        Ok(self.decision)
    }

    /// Whether `MAX_KEPT_CALLS` calls are kept already (then this one is only counted).
    fn full(&mut self) -> bool {
        let full = self.decision.tool_calls.len() + self.decision.rejected.len() >= MAX_KEPT_CALLS;
        self.decision.dropped += usize::from(full);
        full
    }

    fn push_call(&mut self, skill: String, arguments: Option<Value>) {
        if self.full() {
            return;
        }
        match input_from_arguments(&arguments) {
            Ok(input) => self.decision.tool_calls.push(ToolCall { tool: skill, input }),
            Err(reason) => self.decision.rejected.push(RejectedCall {
                tool: skill,
                arguments: excerpt(&arguments_text(&arguments), EXCERPT_CHARS),
                reason,
            }),
        }
    }
}

/// A missing, null or blank `arguments` is a call with no parameters (`{}`); a string must hold
/// JSON. Whether the input fits the skill's schema is the engine's check, not ours.
fn input_from_arguments(arguments: &Option<Value>) -> Result<Value, RejectReason> {
    match arguments {
        None | Some(Value::Null) => Ok(Value::Object(Map::new())),
        Some(Value::String(text)) if text.trim().is_empty() => Ok(Value::Object(Map::new())),
        Some(Value::String(text)) => {
            serde_json::from_str(text).map_err(|error| RejectReason::ArgumentsNotJson { detail: error.to_string() })
        }
        Some(value) => Ok(value.clone()),
    }
}

fn arguments_text(arguments: &Option<Value>) -> String {
    match arguments {
        None => String::new(),
        Some(Value::String(text)) => text.clone(),
        Some(value) => value.to_string(),
    }
}

/// Calls a model wrote as text: a `{"name": ..., "arguments": ...}` object (or `parameters`, or
/// wrapped in `{"function": ...}`), or an array of them, alone, inside a ```json fence, or
/// surrounded by prose. Only calls naming an offered tool count.
fn calls_in_content(content: &str, names: &ToolNames) -> Vec<(String, Option<Value>)> {
    let text = fenced(content).unwrap_or(content).trim();
    let Some(value) = serde_json::from_str::<Value>(text).ok().or_else(|| outermost_object(text)) else {
        return Vec::new();
    };
    let items = match value {
        Value::Array(items) => items,
        single => vec![single],
    };
    items
        .into_iter()
        .filter_map(|item| {
            let mut call = match item {
                Value::Object(object) => object,
                _ => return None,
            };
            if let Some(Value::Object(inner)) = call.remove("function") {
                call = inner;
            }
            let skill = names.offered(call.get("name")?.as_str()?)?;
            let arguments = call.remove("arguments").or_else(|| call.remove("parameters"));
            Some((skill, arguments))
        })
        .collect()
}

/// The inside of the first ``` fence (its language tag line skipped), if the text has one.
fn fenced(content: &str) -> Option<&str> {
    let start = content.find("```")?;
    let after_tag = &content[start + 3..];
    let body_start = after_tag.find('\n')? + 1;
    let body = &after_tag[body_start..];
    Some(body.find("```").map_or(body, |end| &body[..end]))
}

/// The JSON object spanning the first `{` to the last `}` (a call with prose around it).
fn outermost_object(text: &str) -> Option<Value> {
    let start = text.find('{')?;
    let end = text.rfind('}')?;
    (start < end).then(|| serde_json::from_str(&text[start..=end]).ok()).flatten()
}

/// One entry of a chat reply's `tool_calls`, as both Ollama and OpenAI-compatible servers send it.
#[derive(serde::Deserialize)]
pub(super) struct NativeCall {
    pub function: NativeFunction,
}

#[derive(serde::Deserialize)]
pub(super) struct NativeFunction {
    pub name: Option<String>,
    /// A JSON string per the OpenAI format, an object from Ollama; both are accepted.
    pub arguments: Option<Value>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tools(names: &[&str]) -> Vec<ToolSpec> {
        names.iter().map(|name| ToolSpec { name: name.to_string(), description: String::new(), input_schema: json!({}) }).collect()
    }

    fn decide(names: &[&str], content: &str) -> Result<Decision, ProviderError> {
        let names = ToolNames::new(&tools(names));
        CallCollector::new(&names).finish("http://test", Some(content), None)
    }

    #[test]
    fn dots_round_trip_through_function_names() {
        assert_eq!(encode_tool_name("physics.applyImpulse"), "physics__applyImpulse");
        assert_eq!(decode_tool_name("physics__applyImpulse"), "physics.applyImpulse");
        assert_eq!(encode_tool_name("three.set-light_2"), "three__set-light_2");
    }

    #[test]
    fn offered_names_decode_exactly_even_next_to_underscores() {
        let names = ToolNames::new(&tools(&["odd_.name"]));
        assert_eq!(names.decode(&encode_tool_name("odd_.name")), "odd_.name");
        assert_eq!(decode_tool_name(&encode_tool_name("odd_.name")), "odd._name", "the plain rule alone would be wrong here");
    }

    #[test]
    fn a_bare_json_call_in_content_is_read() {
        let decision = decide(&["social.say"], r#"{"name": "social__say", "arguments": {"text": "hi"}}"#).unwrap();
        assert_eq!(decision.tool_calls, vec![ToolCall { tool: "social.say".into(), input: json!({"text": "hi"}) }]);
    }

    #[test]
    fn a_fenced_call_with_prose_and_parameters_is_read() {
        let content = "I will move.\n```json\n{\"name\": \"physics.applyImpulse\", \"parameters\": {\"impulse\": [1, 0, 0]}}\n```\nDone.";
        let decision = decide(&["physics.applyImpulse"], content).unwrap();
        assert_eq!(decision.tool_calls[0].tool, "physics.applyImpulse");
        assert_eq!(decision.tool_calls[0].input, json!({"impulse": [1, 0, 0]}));
    }

    #[test]
    fn an_unfenced_call_inside_prose_and_a_list_of_wrapped_calls_are_read() {
        let prose = decide(&["social.say"], r#"Sure: {"name": "social__say", "arguments": "{\"text\": \"yo\"}"} ok"#).unwrap();
        assert_eq!(prose.tool_calls[0].input, json!({"text": "yo"}));
        let list =
            decide(&["a.b", "c.d"], r#"[{"function": {"name": "a__b", "arguments": {}}}, {"name": "c__d"}, {"name": "not__offered"}]"#)
                .unwrap();
        let tools: Vec<_> = list.tool_calls.iter().map(|call| call.tool.as_str()).collect();
        assert_eq!(tools, ["a.b", "c.d"]);
    }

    #[test]
    fn prose_or_an_unoffered_name_is_empty_not_an_action() {
        for content in ["I am thinking about it.", r#"{"name": "Bob", "arguments": {}}"#, ""] {
            let result = decide(&["social.say"], content);
            assert!(matches!(result, Err(ProviderError::Empty { .. })), "{content:?} gave {result:?}");
        }
    }

    #[test]
    fn unparseable_native_arguments_are_rejected_with_the_reason() {
        let names = ToolNames::new(&tools(&["social.say"]));
        let mut calls = CallCollector::new(&names);
        calls.push(Some("social__say"), Some(json!("{\"text\": ")));
        calls.push(Some("social__say"), Some(json!("")));
        calls.push(None, Some(json!({"x": 1})));
        let decision = calls.finish("http://test", None, Some(7)).unwrap();
        assert_eq!(decision.tool_calls, vec![ToolCall { tool: "social.say".into(), input: json!({}) }]);
        assert_eq!(decision.rejected.len(), 2);
        assert_eq!(decision.rejected[0].tool, "social.say");
        assert_eq!(decision.rejected[0].arguments, "{\"text\": ");
        assert!(matches!(decision.rejected[0].reason, RejectReason::ArgumentsNotJson { .. }));
        assert_eq!(decision.rejected[1].reason, RejectReason::NoName);
        assert_eq!(decision.total_tokens, Some(7));
    }

    #[test]
    fn excerpts_stop_at_the_limit_on_a_char_boundary() {
        let long = "é".repeat(500);
        let cut = excerpt(&long, EXCERPT_CHARS);
        assert_eq!(cut.chars().count(), EXCERPT_CHARS);
        assert!(cut.ends_with('…'));
        assert_eq!(excerpt("short", EXCERPT_CHARS), "short");
    }
}
