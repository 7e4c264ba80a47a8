//! JSON-RPC 2.0 framing shared by every transport: classifying messages, error objects, and the
//! error-code map between skill failures and JSON-RPC.

use serde_json::{Map, Value, json};

use crate::skills::ErrorCode;

pub(crate) const PARSE_ERROR: i64 = -32700;
pub(crate) const INVALID_REQUEST: i64 = -32600;
pub(crate) const METHOD_NOT_FOUND: i64 = -32601;
pub(crate) const INVALID_PARAMS: i64 = -32602;
pub(crate) const INTERNAL_ERROR: i64 = -32603;
pub(crate) const FORBIDDEN: i64 = -32001;
pub(crate) const CAPACITY_EXCEEDED: i64 = -32002;
/// `resources/read` of a URI the server does not have: the code the MCP spec gives it (the
/// same number as `CAPACITY_EXCEEDED`, which only native-mode call errors use).
pub(crate) const RESOURCE_NOT_FOUND: i64 = -32002;
/// The server has no room for the call right now (a WebSocket connection over its queue limits);
/// the message names the limit. Nothing was done: retry later.
pub(crate) const BUSY: i64 = -32003;
/// A conditional write's `ifRevision` no longer matches (`conflict`); nothing changed.
pub(crate) const CONFLICT: i64 = -32004;
/// The entity is leased by another session (`leased`); nothing changed.
pub(crate) const LEASED: i64 = -32005;
/// The world's log cannot take or acknowledge records now (its remote is unreachable): the call
/// was not run, or, for an answer held past its bound, it was applied and is not yet durable.
pub(crate) const UNAVAILABLE: i64 = -32010;

/// The reference's map from skill error codes to JSON-RPC codes (native mode).
pub(crate) fn skill_error_code(code: ErrorCode) -> i64 {
    match code {
        ErrorCode::NotFound => METHOD_NOT_FOUND,
        ErrorCode::InvalidInput => INVALID_PARAMS,
        ErrorCode::Forbidden => FORBIDDEN,
        ErrorCode::CapacityExceeded => CAPACITY_EXCEEDED,
        ErrorCode::HandlerError => INTERNAL_ERROR,
        ErrorCode::Conflict => CONFLICT,
        ErrorCode::Leased => LEASED,
    }
}

/// A well-formed request or notification.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Incoming {
    /// None for a notification.
    pub id: Option<Value>,
    pub method: String,
    /// Always an object or array (absent params become `{}`).
    pub params: Value,
}

/// Why a message is not a valid request (answered with -32600).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Invalid {
    pub id: Value,
    pub message: String,
}

/// Classifies one JSON-RPC message (not a batch).
pub(crate) fn classify(message: &Value) -> Result<Incoming, Invalid> {
    let Value::Object(m) = message else {
        return Err(Invalid { id: Value::Null, message: "a JSON-RPC message must be an object".into() });
    };
    let id = m.get("id").cloned();
    let reply_id = id.clone().unwrap_or(Value::Null);
    let bad = |message: String| Invalid { id: reply_id.clone(), message };
    if m.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err(bad("\"jsonrpc\" must be \"2.0\"".into()));
    }
    if let Some(id) = &id
        && !(id.is_string() || id.is_number() || id.is_null())
    {
        return Err(Invalid { id: Value::Null, message: "\"id\" must be a string, a number or null".into() });
    }
    let method = match m.get("method") {
        Some(Value::String(s)) => s.clone(),
        Some(_) => return Err(bad("\"method\" must be a string".into())),
        None => return Err(bad("the message has no \"method\" (responses are not accepted here)".into())),
    };
    let params = match m.get("params") {
        None | Some(Value::Null) => Value::Object(Map::new()),
        Some(p @ (Value::Object(_) | Value::Array(_))) => p.clone(),
        Some(_) => return Err(bad("\"params\" must be an object or an array".into())),
    };
    Ok(Incoming { id, method, params })
}

pub fn result(id: Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

pub fn error(id: Value, code: i64, message: impl Into<String>, data: Option<Value>) -> Value {
    let mut e = json!({"code": code, "message": message.into()});
    if let Some(d) = data {
        e["data"] = d;
    }
    json!({"jsonrpc": "2.0", "id": id, "error": e})
}

pub fn notification(method: &str, params: Option<Value>) -> Value {
    match params {
        Some(p) => json!({"jsonrpc": "2.0", "method": method, "params": p}),
        None => json!({"jsonrpc": "2.0", "method": method}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_requests_notifications_and_garbage() {
        let r = classify(&json!({"jsonrpc": "2.0", "id": 1, "method": "ping"})).unwrap();
        assert_eq!((r.id, r.method.as_str(), r.params), (Some(json!(1)), "ping", json!({})));
        assert_eq!(classify(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).unwrap().id, None);
        assert!(classify(&json!([1])).is_err());
        assert_eq!(classify(&json!({"jsonrpc": "1.0", "id": 7, "method": "x"})).unwrap_err().id, json!(7));
        assert!(classify(&json!({"jsonrpc": "2.0", "id": 1, "method": 5})).is_err());
        assert!(classify(&json!({"jsonrpc": "2.0", "id": {"a": 1}, "method": "x"})).is_err());
        assert!(classify(&json!({"jsonrpc": "2.0", "id": 1, "method": "x", "params": 3})).is_err());
        assert!(classify(&json!({"jsonrpc": "2.0", "id": 1, "result": {}})).is_err());
    }
}
