//! The one MCP dispatcher every transport uses (in-process, stdio, WebSocket): it speaks
//! standard MCP (handshake revisions and the stateless `server/discover` revision) and the
//! reference's native mode, and routes every tool call through the skill registry.
//!
//! A transport hands it raw text (or a parsed message) plus the connection's `McpSession`, and
//! gets back the messages to send: responses first, then notifications such as
//! `notifications/tools/list_changed`. Nothing here blocks or panics on hostile input; every
//! malformed message gets the JSON-RPC error it deserves.

use serde_json::{Map, Value, json};

use super::protocol::{self, Incoming};
use super::tools;
use crate::host::Engine;
use std::rc::Rc;

use crate::host::SessionClaim;
use crate::policy::profile_permissions;
use crate::skills::{Caller, ErrorCode, SkillResponse};

/// Handshake revisions we serve, newest first (the first is our answer to unknown revisions).
pub(crate) const HANDSHAKE_VERSIONS: [&str; 3] = ["2025-11-25", "2025-06-18", "2025-03-26"];
/// The stateless revision (`server/discover`, per-request `_meta`).
pub(crate) const STATELESS_VERSION: &str = "2026-07-28";
/// Largest message a transport accepts.
pub(crate) const MAX_MESSAGE_BYTES: usize = 4 * 1024 * 1024;
/// Tools per `tools/list` page.
pub(crate) const TOOLS_PAGE: usize = 100;

pub(crate) const INSTRUCTIONS: &str = "limina is a real-time 3D world. Every tool is a typed, permission-checked skill; every call is recorded in a sha256-chained world log. Start with skills.list or tools/list, read a tool's inputSchema, then build: scene.createEntity returns an entity id (ent_0001...) that other tools take. Failures come back as isError results naming the field and the rule. Use scene.queryEntities or inspector.snapshot to see the world, audit.explain to ask why a call was denied.";

#[derive(Debug, Clone, PartialEq)]
pub enum Mode {
    /// Nothing negotiated yet (stateless requests may still be served).
    Fresh,
    Standard {
        version: String,
    },
    Native,
}

/// Per-connection state.
#[derive(Debug, Clone)]
pub struct McpSession {
    pub mode: Mode,
    /// Set by `initialize` (or on the first stateless request).
    pub caller: Option<Caller>,
    /// The profile the transport grants (`--profile`, or the client's token).
    pub granted_profile: String,
    /// Connection number, used in default agent/session ids.
    pub connection: u64,
    /// Registry generation the client last saw, for `notifications/tools/list_changed`.
    seen_generation: u64,
    /// This client's hold on the session id it initialized with (native mode).
    claim: Option<Rc<SessionClaim>>,
}

impl McpSession {
    pub fn new(connection: u64, granted_profile: &str, engine: &Engine) -> Self {
        Self {
            mode: Mode::Fresh,
            caller: None,
            granted_profile: granted_profile.to_string(),
            connection,
            seen_generation: engine.registry().generation(),
            claim: None,
        }
    }

    /// A caller under `profile`, never with more permissions than the transport grants. A client
    /// may narrow its grant, never widen it; the profile recorded with its calls is what it
    /// effectively holds: the claimed name when that is within the grant, the granted name when
    /// the claim covers the grant, else both joined by `∩`.
    fn caller(&self, agent_id: &str, session_id: &str, profile: &str) -> Caller {
        let granted = profile_permissions(&self.granted_profile);
        let claimed = profile_permissions(profile);
        let effective = claimed.intersect(granted);
        let name = if effective == claimed {
            profile.to_string()
        } else if effective == granted {
            self.granted_profile.clone()
        } else {
            format!("{profile}∩{}", self.granted_profile)
        };
        let mut caller = Caller::new(agent_id, session_id, &name);
        caller.permissions = effective;
        caller
    }

    fn default_caller(&self) -> Caller {
        self.caller(&format!("agt_mcp{}", self.connection), &format!("ses_mcp{}", self.connection), &self.granted_profile)
    }
}

/// Handles raw text (one message or a batch). Returns the messages to send, in order.
pub fn handle_text(engine: &Engine, session: &mut McpSession, text: &str) -> Vec<Value> {
    if text.len() > MAX_MESSAGE_BYTES {
        return vec![protocol::error(
            Value::Null,
            protocol::INVALID_REQUEST,
            format!("message of {} bytes is larger than the {MAX_MESSAGE_BYTES}-byte limit", text.len()),
            None,
        )];
    }
    let parsed: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return vec![protocol::error(Value::Null, protocol::PARSE_ERROR, format!("parse error: {e}"), None)],
    };
    let mut out = Vec::new();
    match parsed {
        Value::Array(batch) if batch.is_empty() => {
            out.push(protocol::error(Value::Null, protocol::INVALID_REQUEST, "an empty batch is not a request", None))
        }
        Value::Array(batch) => {
            let responses: Vec<Value> = batch.iter().filter_map(|m| handle_message(engine, session, m)).collect();
            if !responses.is_empty() {
                out.push(Value::Array(responses));
            }
        }
        message => out.extend(handle_message(engine, session, &message)),
    }
    out.extend(pending_notifications(engine, session));
    out
}

/// Notifications the client should get now (the tool list changed since it last looked).
pub(crate) fn pending_notifications(engine: &Engine, session: &mut McpSession) -> Vec<Value> {
    let generation = engine.registry().generation();
    if generation == session.seen_generation {
        return Vec::new();
    }
    session.seen_generation = generation;
    match session.mode {
        Mode::Standard { .. } => vec![protocol::notification("notifications/tools/list_changed", None)],
        _ => Vec::new(),
    }
}

/// Handles one parsed message; returns its response (None for notifications).
pub fn handle_message(engine: &Engine, session: &mut McpSession, message: &Value) -> Option<Value> {
    let incoming = match protocol::classify(message) {
        Ok(i) => i,
        Err(invalid) => return Some(protocol::error(invalid.id, protocol::INVALID_REQUEST, invalid.message, None)),
    };
    let is_notification = incoming.id.is_none();
    let id = incoming.id.clone().unwrap_or(Value::Null);
    let outcome = dispatch(engine, session, &incoming);
    if is_notification {
        return None;
    }
    Some(match outcome {
        Ok(result) => protocol::result(id, result),
        Err(RpcError { code, message, data }) => protocol::error(id, code, message, data),
    })
}

/// A JSON-RPC error reply.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RpcError {
    pub code: i64,
    pub message: String,
    pub data: Option<Value>,
}

fn rpc_error(code: i64, message: impl Into<String>) -> RpcError {
    RpcError { code, message: message.into(), data: None }
}

fn invalid_params(message: impl Into<String>) -> RpcError {
    rpc_error(protocol::INVALID_PARAMS, message)
}

/// Answers one request (transports that do their own framing, like the WebSocket server, call
/// this directly).
pub(crate) fn dispatch(engine: &Engine, session: &mut McpSession, req: &Incoming) -> Result<Value, RpcError> {
    let method = req.method.as_str();
    if method.starts_with("notifications/") {
        // notifications/initialized, cancelled, progress...: nothing to answer.
        return Ok(Value::Null);
    }
    match method {
        "initialize" => initialize(engine, session, &req.params),
        "ping" => Ok(json!({})),
        "server/discover" => Ok(discover(session)),
        "tools/list" | "listTools" => list_tools(engine, session, req, method == "listTools"),
        "tools/call" | "callTool" => call_tool(engine, session, req, method == "callTool"),
        "shutdown" => {
            session.caller = None;
            session.mode = Mode::Fresh;
            Ok(json!({"ok": true}))
        }
        other => Err(rpc_error(protocol::METHOD_NOT_FOUND, format!("method not found: {other}"))),
    }
}

fn params_object(params: &Value) -> Result<&Map<String, Value>, RpcError> {
    params.as_object().ok_or_else(|| invalid_params("params must be an object"))
}

fn optional_string<'a>(p: &'a Map<String, Value>, key: &str) -> Result<Option<&'a str>, RpcError> {
    match p.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(invalid_params(format!("{key} must be a string, got {}", crate::skills::schema::type_name(other)))),
    }
}

fn server_info() -> Value {
    json!({"name": "limina", "title": "limina", "version": env!("CARGO_PKG_VERSION")})
}

fn capabilities() -> Value {
    json!({"tools": {"listChanged": true}})
}

/// Fields the stateless revision requires on list/call results; handshake clients ignore them.
fn stamp_result(mut result: Value, cacheable: bool) -> Value {
    result["resultType"] = json!("complete");
    if cacheable {
        // Never let a client serve the tool list from a cache: `dev.reload` and mods change it.
        result["ttlMs"] = json!(0);
        result["cacheScope"] = json!("private");
    }
    result
}

fn discover(session: &mut McpSession) -> Value {
    if session.mode == Mode::Fresh {
        session.mode = Mode::Standard { version: STATELESS_VERSION.to_string() };
    }
    let mut versions = vec![STATELESS_VERSION];
    versions.extend(HANDSHAKE_VERSIONS);
    let result = json!({
        "supportedVersions": versions,
        "capabilities": capabilities(),
        "serverInfo": server_info(),
        "instructions": INSTRUCTIONS,
        "_meta": {"io.modelcontextprotocol/serverInfo": server_info()},
    });
    stamp_result(result, true)
}

fn initialize(engine: &Engine, session: &mut McpSession, params: &Value) -> Result<Value, RpcError> {
    let p = params_object(params)?;
    let native = !p.contains_key("protocolVersion") && ["agentId", "sessionId", "profile"].iter().any(|k| p.contains_key(*k));
    if native {
        let n = session.connection;
        let agent = optional_string(p, "agentId")?.map(str::to_string).unwrap_or_else(|| format!("agt_mcp{n}"));
        let sess = optional_string(p, "sessionId")?.map(str::to_string).unwrap_or_else(|| format!("ses_mcp{n}"));
        let profile = optional_string(p, "profile")?.map(str::to_string).unwrap_or_else(|| session.granted_profile.clone());
        if engine.is_agent(&agent) {
            return Err(rpc_error(protocol::FORBIDDEN, format!("agent {agent} is an in-world agent; a client cannot act under its name")));
        }
        // A session id names quotas, budgets, revocations and an audit trail: a client cannot
        // adopt one that another client or the host script holds.
        if session.claim.as_ref().is_none_or(|c| c.id() != sess) {
            let claim = engine.claim_session(&sess).ok_or_else(|| {
                rpc_error(protocol::FORBIDDEN, format!("session {sess} is in use by another client; choose another sessionId"))
            })?;
            session.claim = Some(claim);
        }
        let caller = session.caller(&agent, &sess, &profile);
        let result = json!({
            "protocolVersion": HANDSHAKE_VERSIONS[0],
            "session": {"agentId": agent, "sessionId": sess, "profile": &*caller.profile, "permissions": caller.permissions.names()},
        });
        session.caller = Some(caller);
        session.mode = Mode::Native;
        return Ok(result);
    }
    let requested = optional_string(p, "protocolVersion")?;
    let version = match requested {
        Some(v) if HANDSHAKE_VERSIONS.contains(&v) => v.to_string(),
        _ => HANDSHAKE_VERSIONS[0].to_string(),
    };
    session.caller = Some(session.default_caller());
    session.mode = Mode::Standard { version: version.clone() };
    Ok(json!({"protocolVersion": version, "capabilities": capabilities(), "serverInfo": server_info(), "instructions": INSTRUCTIONS}))
}

/// True when a request carries the stateless revision's `_meta` envelope.
fn is_stateless(params: &Value) -> bool {
    let Some(meta) = params.get("_meta").and_then(Value::as_object) else { return false };
    meta.iter().any(|(k, v)| k.ends_with("protocolVersion") && v.as_str() == Some(STATELESS_VERSION))
}

/// The caller for a request: the session's, or (stateless revision) the transport default.
fn caller_for(session: &mut McpSession, req: &Incoming) -> Option<Caller> {
    if let Some(c) = &session.caller {
        return Some(c.clone());
    }
    if is_stateless(&req.params) {
        if session.mode == Mode::Fresh {
            session.mode = Mode::Standard { version: STATELESS_VERSION.to_string() };
        }
        return Some(session.default_caller());
    }
    None
}

fn list_tools(engine: &Engine, session: &McpSession, req: &Incoming, alias: bool) -> Result<Value, RpcError> {
    let registry = engine.registry();
    if alias || session.mode == Mode::Native {
        let tools: Vec<Value> = registry.list().map(|s| tools::native_tool(s)).collect();
        return Ok(json!({"tools": tools}));
    }
    let start = match req.params.get("cursor") {
        None | Some(Value::Null) => 0,
        Some(Value::String(c)) => {
            c.parse::<usize>().ok().filter(|n| *n <= registry.size()).ok_or_else(|| invalid_params(format!("invalid cursor '{c}'")))?
        }
        Some(_) => return Err(invalid_params("cursor must be a string")),
    };
    let tools: Vec<Value> = registry.list().skip(start).take(TOOLS_PAGE).map(|s| tools::standard_tool(s)).collect();
    let mut result = json!({"tools": tools});
    if start + TOOLS_PAGE < registry.size() {
        result["nextCursor"] = json!((start + TOOLS_PAGE).to_string());
    }
    Ok(stamp_result(result, true))
}

fn not_initialized() -> SkillResponse {
    SkillResponse::failure(ErrorCode::Forbidden, "MCP session is not initialized")
}

fn call_tool(engine: &Engine, session: &mut McpSession, req: &Incoming, alias: bool) -> Result<Value, RpcError> {
    let p = params_object(&req.params)?;
    let native = alias || session.mode == Mode::Native;
    // Native requests may use the reference's MCPRequest shape {tool, input}.
    let name = match (p.get("name"), p.get("tool")) {
        (Some(Value::String(n)), _) => n.clone(),
        (None, Some(Value::String(n))) if native => n.clone(),
        (Some(other), _) => return Err(invalid_params(format!("name must be a string, got {}", crate::skills::schema::type_name(other)))),
        _ => return Err(invalid_params("tools/call needs the tool's name")),
    };
    let arguments = match p.get("arguments").or_else(|| if native { p.get("input") } else { None }) {
        None | Some(Value::Null) => Value::Object(Map::new()),
        Some(a @ Value::Object(_)) => a.clone(),
        Some(other) => return Err(invalid_params(format!("arguments must be an object, got {}", crate::skills::schema::type_name(other)))),
    };
    let Some(caller) = caller_for(session, req) else {
        let response = not_initialized();
        return Err(RpcError {
            code: protocol::FORBIDDEN,
            message: "MCP session is not initialized".into(),
            data: serde_json::to_value(&response).ok(),
        });
    };
    if !native && !engine.registry().has(&name) {
        let hint = engine.registry().did_you_mean(&name).map(|near| format!("did you mean '{near}'? ")).unwrap_or_default();
        return Err(invalid_params(format!("unknown tool: {name} ({hint}tools/list shows them all)")));
    }
    let response = engine.call(&caller, &name, arguments);
    if native {
        let data = serde_json::to_value(&response).unwrap_or(Value::Null);
        return match &response.error {
            None => Ok(data),
            Some(e) => Err(RpcError { code: protocol::skill_error_code(e.code), message: e.message.clone(), data: Some(data) }),
        };
    }
    Ok(stamp_result(standard_call_result(&response), false))
}

/// A standard `tools/call` result: text content, structured content, and `isError`.
pub(crate) fn standard_call_result(response: &SkillResponse) -> Value {
    // An image result (render.capture) is also an image block, so the agent sees it.
    if let Some(result) = &response.result
        && let (Some("image/png"), Some(data)) =
            (result.get("mimeType").and_then(Value::as_str), result.get("data").and_then(Value::as_str))
    {
        let mut summary = result.clone();
        if let Some(o) = summary.as_object_mut() {
            o.remove("data");
        }
        return json!({
            "content": [{"type": "image", "data": data, "mimeType": "image/png"}, {"type": "text", "text": summary.to_string()}],
            "structuredContent": result,
            "isError": false,
        });
    }
    match (&response.result, &response.error) {
        (Some(result), None) => json!({
            "content": [{"type": "text", "text": result.to_string()}],
            "structuredContent": result,
            "isError": false,
        }),
        (_, Some(e)) => json!({
            "content": [{"type": "text", "text": format!("{}: {}", e.code.as_str(), e.message)}],
            "isError": true,
        }),
        (None, None) => json!({"content": [], "isError": true}),
    }
}
