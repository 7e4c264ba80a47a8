//! The one MCP dispatcher every transport uses (in-process, stdio, WebSocket): it speaks
//! standard MCP (handshake revisions and the stateless `server/discover` revision) and the
//! reference's native mode, and routes every tool call through the skill registry.
//!
//! A transport hands it raw text (or a parsed message) plus the connection's `McpSession`, and
//! gets back the messages to send: responses first, then notifications such as
//! `notifications/tools/list_changed`. Nothing here blocks or panics on hostile input; every
//! malformed message gets the JSON-RPC error it deserves.
//!
//! What a client is shown is bounded twice: by its permissions (no mode lists a tool it cannot
//! call) and, for a standard `tools/list`, by its session's `ToolView` (progressive discovery:
//! the core tier until it enables more; see `tool_view`). Calls are not: any registered tool is
//! callable by name, listed or not, and the pipeline decides.

use serde_json::{Map, Value, json};

use super::apps;
use super::prompts;
use super::protocol::{self, Incoming};
use super::tool_view::{ToolView, ToolsMode, ViewChange};
use super::tools;
use crate::host::Engine;
use std::rc::Rc;

use crate::agents::claims::{self, SessionClaim};
use crate::policy::{PermissionSet, Profile};
use crate::skills::{Caller, ErrorCode, Skill, SkillRegistry, SkillResponse, Tier, discovery};

/// Handshake revisions we serve, newest first (the first is our answer to unknown revisions).
pub(crate) const HANDSHAKE_VERSIONS: [&str; 3] = ["2025-11-25", "2025-06-18", "2025-03-26"];
/// The stateless revision (`server/discover`, per-request `_meta`).
pub(crate) const STATELESS_VERSION: &str = "2026-07-28";
/// Largest message a transport accepts.
pub(crate) const MAX_MESSAGE_BYTES: usize = 4 * 1024 * 1024;
/// Tools per `tools/list` page.
pub(crate) const TOOLS_PAGE: usize = 100;
/// `subscriptions/listen` streams one session may hold open (stateless clients of one HTTP
/// credential that do not name themselves with `clientInfo` share a session).
pub(crate) const MAX_LISTENERS: usize = 32;
/// The `_meta` key stamping every frame of a `subscriptions/listen` stream with the request's id.
pub(crate) const SUBSCRIPTION_ID_KEY: &str = "io.modelcontextprotocol/subscriptionId";
/// The stateless revision's `_meta` key for the request's protocol version.
pub(crate) const PROTOCOL_VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";
/// JSON-RPC code for a protocol version the server does not serve (stateless revision).
pub(crate) const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;

pub(crate) const INSTRUCTIONS: &str = "limina is a real-time 3D world. Every tool is a typed, permission-checked skill; every call is recorded in a sha256-chained world log. tools/list shows the core tools; skills.search {query} and skills.browse {category} find every other skill (with its inputSchema), which you can call by name directly or list with skills.enable {categories}. Then build: scene.createEntity returns an entity id (ent_0001...) that other tools take. Failures come back as isError results naming the field and the rule. Use scene.queryEntities or inspector.snapshot to see the world, audit.explain to ask why a call was denied.";

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
    pub granted_profile: Profile,
    /// What the operator grants besides the profile (`--grant`, a token's `+world.time`).
    pub granted_extra: PermissionSet,
    /// Connection number, used in default agent/session ids.
    pub connection: u64,
    /// Registry generation the client last saw, for `notifications/tools/list_changed`.
    seen_generation: u64,
    /// Instruction registry generation the client last saw, for the prompts' and resources'
    /// `list_changed`.
    seen_instructions: u64,
    /// Whether this client's `initialize` was told of the `prompts` capability: only then may
    /// it hear `notifications/prompts/list_changed` (a capability never declared has no
    /// notifications). A client that connected before the first skill hears of the skills
    /// through `resources/list_changed` (their `skill://` resources) instead.
    prompts_declared: bool,
    /// This client's hold on the session id it initialized with (native mode).
    claim: Option<Rc<SessionClaim>>,
    /// This client's hold on the agent id it acts under (native mode).
    agent_claim: Option<Rc<SessionClaim>>,
    /// Which tools `tools/list` shows this client (progressive discovery).
    pub(crate) tools: ToolView,
    /// The session's own view changed what it lists since it was last told.
    view_changed: bool,
    /// The client declared MCP Apps (`io.modelcontextprotocol/ui`) in `initialize`: `world.view`
    /// is listed with its view (`apps`). Stateless clients declare it per request instead.
    pub(crate) apps: bool,
    /// Open `subscriptions/listen` streams (stateless revision): their request ids, and whether
    /// each asked for `toolsListChanged`. Only these hear of a changed tool list there.
    listeners: Vec<Listener>,
    /// The transport answers a heavy call when its worker is done (`skills::deferred`), so the
    /// loop keeps stepping meanwhile: the network server's sessions.
    pub(crate) defer_heavy: bool,
    /// Set by a `tools/call` that was deferred: its answer comes from `finish_deferred`.
    pub(crate) deferred: Option<DeferredCall>,
    /// The agent this client embodies (`agent.embody`), while it does: `caller` is then the
    /// agent's. Dropping it (release, re-initialize, shutdown, the connection's end) frees the
    /// agent, idle, for whoever may embody it next.
    embodied: Option<Embodied>,
}

/// A client's hold on the agent it embodies, and who it was before.
#[derive(Debug, Clone)]
struct Embodied {
    agent: Rc<str>,
    _claim: Rc<SessionClaim>,
    /// The session's caller before it embodied (None: a stateless session's transport default).
    own: Option<Caller>,
}

/// A `tools/call` whose answer waits for its heavy half (`Engine::complete_deferred`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DeferredCall {
    pub ticket: crate::skills::deferred::Ticket,
    /// The request's id (none for a notification): a transport that answers by id needs it.
    pub id: Option<Value>,
    /// The call has effects besides its answer (a scene load changes the world, a save writes a
    /// file): the client's later calls wait for it, so they apply in the order it sent them.
    pub ordered: bool,
    name: String,
    native: bool,
}

/// One open `subscriptions/listen` stream.
#[derive(Debug, Clone, PartialEq)]
struct Listener {
    id: Value,
    tools: bool,
    prompts: bool,
    resources: bool,
}

impl McpSession {
    pub fn new(connection: u64, granted_profile: Profile, engine: &Engine) -> Self {
        Self {
            mode: Mode::Fresh,
            caller: None,
            granted_profile,
            granted_extra: PermissionSet::default(),
            connection,
            seen_generation: engine.registry().generation(),
            seen_instructions: engine.registry().instructions().generation(),
            prompts_declared: false,
            claim: None,
            agent_claim: None,
            tools: ToolView::default(),
            view_changed: false,
            apps: false,
            listeners: Vec::new(),
            defer_heavy: false,
            deferred: None,
            embodied: None,
        }
    }

    /// Lets heavy calls be answered once their worker is done (a transport that keeps stepping).
    pub(crate) fn deferring_heavy(mut self) -> Self {
        self.defer_heavy = true;
        self
    }

    /// The session under the operator's whole grant: its profile and the permissions granted
    /// besides (`world.time`).
    pub fn with_grant(mut self, grant: crate::policy::Grant) -> Self {
        self.granted_profile = grant.profile;
        self.granted_extra = grant.extra;
        self
    }

    /// Everything the transport grants this client.
    fn grant(&self) -> crate::policy::Grant {
        crate::policy::Grant { profile: self.granted_profile, extra: self.granted_extra }
    }

    /// Starts the session's tool list in `mode` (`limina mcp --tools`; core by default).
    pub fn with_tools(mut self, mode: ToolsMode) -> Self {
        self.tools = ToolView::new(mode);
        self
    }

    /// The permissions this client's calls run under: its caller's once initialized, else the
    /// transport's grant (what a stateless request would get).
    pub(crate) fn permissions(&self) -> PermissionSet {
        self.caller.as_ref().map_or_else(|| self.grant().permissions(), |c| c.permissions)
    }

    /// The skills a standard `tools/list` shows this client, in registration order: those its
    /// permissions may call and its view shows.
    pub(crate) fn listed(&self, registry: &SkillRegistry) -> Vec<Rc<Skill>> {
        self.listed_with(registry, self.apps)
    }

    /// `listed`, for a client that does (`apps`) or does not show MCP Apps: one that does also
    /// lists `world.view` in the core tier, since calling it is how its user opens the view.
    fn listed_with(&self, registry: &SkillRegistry, apps: bool) -> Vec<Rc<Skill>> {
        let permissions = self.permissions();
        let shows = |s: &Skill| self.tools.shows(s) || (apps && (s.name == apps::VIEW_TOOL || s.tier == Tier::App));
        registry.list().filter(|s| discovery::may_call(s, permissions) && shows(s)).cloned().collect()
    }

    /// Applies a meta-tool's change; remembers to tell the client when what it lists changed.
    fn apply_view(&mut self, registry: &SkillRegistry, change: &ViewChange) {
        let names = |session: &Self| -> Vec<String> { session.listed(registry).iter().map(|s| s.name.clone()).collect() };
        let before = names(self);
        self.tools.apply(change);
        if names(self) != before {
            self.view_changed = true;
        }
    }

    /// Whether this session speaks the stateless revision (notifications only to listeners).
    pub(crate) fn is_stateless(&self) -> bool {
        matches!(&self.mode, Mode::Standard { version } if version == STATELESS_VERSION)
    }

    /// Whether the listen stream `id` is open.
    pub(crate) fn is_listening(&self, id: &Value) -> bool {
        self.listeners.iter().any(|l| l.id == *id)
    }

    /// Forgets the `subscriptions/listen` streams under `id` (their client left or cancelled).
    pub(crate) fn stop_listening(&mut self, id: &Value) {
        self.listeners.retain(|l| l.id != *id);
    }

    /// Forgets one of the streams under `id` (a transport that holds several with one id).
    pub(crate) fn stop_one_listener(&mut self, id: &Value) {
        if let Some(at) = self.listeners.iter().position(|l| l.id == *id) {
            self.listeners.remove(at);
        }
    }

    /// A caller under `profile`, never with more permissions than the transport grants. A client
    /// may narrow its grant, never widen it; the profile recorded with its calls is what it
    /// effectively holds: the claimed name when that is within the grant, the granted name when
    /// the claim covers the grant, else both joined by `∩`. What the operator grants besides a
    /// profile (`world.time`) no profile claim can hold, so it stays, named after a `+`.
    fn caller(&self, agent_id: &str, session_id: &str, profile: Profile) -> Caller {
        let granted = self.granted_profile.permissions();
        let claimed = profile.permissions();
        let effective = claimed.intersect(granted);
        let mut name = if effective == claimed {
            profile.as_str().to_string()
        } else if effective == granted {
            self.granted_profile.as_str().to_string()
        } else {
            format!("{profile}∩{}", self.granted_profile)
        };
        let mut permissions = effective;
        for p in self.granted_extra.iter().filter(|p| !effective.contains(*p)) {
            permissions.insert(p);
            name.push('+');
            name.push_str(p.as_str());
        }
        let mut caller = Caller::new(agent_id, session_id, &name);
        caller.permissions = permissions;
        caller
    }

    /// Who this client reads as: its caller once initialized, else the transport's default
    /// identity (a client may subscribe to state before or without `initialize`).
    pub(crate) fn reader(&self) -> Caller {
        self.caller.clone().unwrap_or_else(|| self.default_caller())
    }

    fn default_caller(&self) -> Caller {
        self.caller(&format!("agt_mcp{}", self.connection), &format!("ses_mcp{}", self.connection), self.granted_profile)
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
            // A batch is answered as one array, so its heavy calls run inline.
            let defer_heavy = std::mem::replace(&mut session.defer_heavy, false);
            let responses: Vec<Value> = batch.iter().filter_map(|m| handle_message(engine, session, m)).collect();
            session.defer_heavy = defer_heavy;
            if !responses.is_empty() {
                out.push(Value::Array(responses));
            }
        }
        message => out.extend(handle_message(engine, session, &message)),
    }
    out.extend(pending_notifications(engine, session));
    out
}

/// Notifications the client should get now: its tool list changed since it last looked, because
/// the registry changed or because the session enabled or disabled categories.
pub(crate) fn pending_notifications(engine: &Engine, session: &mut McpSession) -> Vec<Value> {
    let mut notes = instruction_notifications(engine, session);
    notes.extend(tool_notifications(engine, session));
    notes
}

/// `notifications/prompts/list_changed` and `notifications/resources/list_changed` when the
/// instruction skills changed since the client was last told (a hot reload). Stateful sessions
/// only: the stateless revision's listen streams carry tool list changes alone.
fn instruction_notifications(engine: &Engine, session: &mut McpSession) -> Vec<Value> {
    let generation = engine.registry().instructions().generation();
    if generation == session.seen_instructions {
        return Vec::new();
    }
    session.seen_instructions = generation;
    match &session.mode {
        // Stateless: each listen stream that asked, stamped with its id (one note per id, as
        // for tools).
        Mode::Standard { .. } if session.is_stateless() => {
            let mut notes: Vec<(&str, &Value)> = Vec::new();
            for l in &session.listeners {
                for (asked, method) in
                    [(l.prompts, "notifications/prompts/list_changed"), (l.resources, "notifications/resources/list_changed")]
                {
                    if asked && !notes.contains(&(method, &l.id)) {
                        notes.push((method, &l.id));
                    }
                }
            }
            notes
                .into_iter()
                .map(|(method, id)| protocol::notification(method, Some(json!({"_meta": {SUBSCRIPTION_ID_KEY: id}}))))
                .collect()
        }
        Mode::Standard { .. } => {
            let mut notes = Vec::new();
            if session.prompts_declared {
                notes.push(protocol::notification("notifications/prompts/list_changed", None));
            }
            notes.push(protocol::notification("notifications/resources/list_changed", None));
            notes
        }
        _ => Vec::new(),
    }
}

fn tool_notifications(engine: &Engine, session: &mut McpSession) -> Vec<Value> {
    let generation = engine.registry().generation();
    if generation == session.seen_generation && !session.view_changed {
        return Vec::new();
    }
    session.seen_generation = generation;
    session.view_changed = false;
    match &session.mode {
        // The stateless revision forbids unasked notifications: only listen streams hear them,
        // each frame stamped with its stream's id.
        // Stateless clients of one credential without a clientInfo share a session, and their
        // request ids may coincide: one note per id, which the transport hands to every stream
        // under that id.
        Mode::Standard { .. } if session.is_stateless() => {
            let mut ids: Vec<&Value> = Vec::new();
            for l in session.listeners.iter().filter(|l| l.tools) {
                if !ids.contains(&&l.id) {
                    ids.push(&l.id);
                }
            }
            ids.into_iter()
                .map(|id| protocol::notification("notifications/tools/list_changed", Some(json!({"_meta": {SUBSCRIPTION_ID_KEY: id}}))))
                .collect()
        }
        Mode::Standard { .. } => vec![protocol::notification("notifications/tools/list_changed", None)],
        _ => Vec::new(),
    }
}

/// Opens a `subscriptions/listen` stream (2026-07-28): records it in the session and returns the
/// acknowledgement, the stream's first frame, naming what will be delivered (of the filter's
/// kinds, limina has `toolsListChanged`, `promptsListChanged` and `resourcesListChanged`; a
/// prompts listener hears when the first instruction skill appears, so a stateless client need
/// not have seen the capability). The transport keeps the stream open; its response is sent only
/// when it ends.
pub(crate) fn listen(session: &mut McpSession, req: &Incoming) -> Result<Value, RpcError> {
    if session.mode == Mode::Fresh && carries_stateless_meta(&req.params) {
        session.mode = Mode::Standard { version: STATELESS_VERSION.to_string() };
    }
    if !session.is_stateless() {
        return Err(rpc_error(
            protocol::METHOD_NOT_FOUND,
            format!(
                "subscriptions/listen belongs to the {STATELESS_VERSION} revision; this session speaks {}, where notifications arrive unasked",
                match &session.mode {
                    Mode::Standard { version } => version.as_str(),
                    Mode::Native => "the native mode",
                    Mode::Fresh => "no revision yet (call server/discover or initialize first)",
                }
            ),
        ));
    }
    let id = req
        .id
        .clone()
        .filter(|id| !id.is_null())
        .ok_or_else(|| rpc_error(protocol::INVALID_REQUEST, "subscriptions/listen needs a request id"))?;
    let filter = params_object(&req.params)?
        .get("notifications")
        .and_then(Value::as_object)
        .ok_or_else(|| invalid_params("subscriptions/listen needs params.notifications, an object such as {\"toolsListChanged\": true}"))?;
    if session.listeners.len() >= MAX_LISTENERS {
        // Full (stateless clients without a clientInfo share the session): the oldest stream gives
        // way, so one client holding them all cannot keep the others from listening.
        session.listeners.remove(0);
    }
    let asked = |kind: &str| filter.get(kind) == Some(&Value::Bool(true));
    let (tools, prompts, resources) = (asked("toolsListChanged"), asked("promptsListChanged"), asked("resourcesListChanged"));
    session.listeners.push(Listener { id: id.clone(), tools, prompts, resources });
    let mut honored = Map::new();
    for (kind, on) in [("toolsListChanged", tools), ("promptsListChanged", prompts), ("resourcesListChanged", resources)] {
        if on {
            honored.insert(kind.into(), Value::Bool(true));
        }
    }
    Ok(protocol::notification(
        "notifications/subscriptions/acknowledged",
        Some(json!({"notifications": honored, "_meta": {SUBSCRIPTION_ID_KEY: id}})),
    ))
}

/// Handles one parsed message; returns its response (None for notifications).
pub fn handle_message(engine: &Engine, session: &mut McpSession, message: &Value) -> Option<Value> {
    let incoming = match protocol::classify(message) {
        Ok(i) => i,
        Err(invalid) => return Some(protocol::error(invalid.id, protocol::INVALID_REQUEST, invalid.message, None)),
    };
    let is_notification = incoming.id.is_none();
    let id = incoming.id.clone().unwrap_or(Value::Null);
    if incoming.method == "subscriptions/listen" && !is_notification {
        // The stream's first frame is the acknowledgement; its response comes only when it ends
        // (over stdio, when the client cancels it or leaves).
        return Some(match listen(session, &incoming) {
            Ok(ack) => ack,
            Err(RpcError { code, message, data }) => protocol::error(id, code, message, data),
        });
    }
    let outcome = dispatch(engine, session, &incoming);
    // A deferred call is answered later, by `finish_deferred` (the transport takes it from the
    // session).
    if is_notification || session.deferred.is_some() {
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
        // Cancelling a listen stream ends it; initialized, progress...: nothing to answer.
        if method == "notifications/cancelled"
            && let Some(id) = req.params.get("requestId")
        {
            session.stop_listening(id);
        }
        return Ok(Value::Null);
    }
    check_version(&req.params)?;
    let answer = answer(engine, session, req, method);
    stamp_stateless(session, answer)
}

/// The stateless revision puts `resultType` on every result.
fn stamp_stateless(session: &McpSession, answer: Result<Value, RpcError>) -> Result<Value, RpcError> {
    match answer {
        Ok(Value::Object(mut result)) if session.is_stateless() => {
            result.entry("resultType").or_insert_with(|| json!("complete"));
            Ok(Value::Object(result))
        }
        other => other,
    }
}

/// The answer to a deferred `tools/call`, from its completed response: what `dispatch` would
/// have answered had the call run inline.
pub(crate) fn finish_deferred(
    engine: &Engine,
    session: &mut McpSession,
    call: DeferredCall,
    response: &SkillResponse,
) -> Result<Value, RpcError> {
    let answer = call_answer(engine, session, &call.name, call.native, response);
    stamp_stateless(session, answer)
}

/// Refuses a request whose `_meta` names a protocol version we do not serve, saying which we do.
fn check_version(params: &Value) -> Result<(), RpcError> {
    let Some(requested) = params.get("_meta").and_then(|m| m.get(PROTOCOL_VERSION_KEY)) else { return Ok(()) };
    let supported: Vec<&str> = std::iter::once(STATELESS_VERSION).chain(HANDSHAKE_VERSIONS).collect();
    match requested.as_str() {
        Some(v) if supported.contains(&v) => Ok(()),
        _ => Err(RpcError {
            code: UNSUPPORTED_PROTOCOL_VERSION,
            message: format!("unsupported protocol version {requested}; this server speaks {}", supported.join(", ")),
            data: Some(json!({"supported": supported, "requested": requested})),
        }),
    }
}

fn answer(engine: &Engine, session: &mut McpSession, req: &Incoming, method: &str) -> Result<Value, RpcError> {
    match method {
        "initialize" => initialize(engine, session, &req.params),
        "ping" => Ok(json!({})),
        "server/discover" => Ok(discover(engine, session)),
        "tools/list" | "listTools" => list_tools(engine, session, req, method == "listTools"),
        "tools/call" | "callTool" => call_tool(engine, session, req, method == "callTool"),
        "resources/list" => unpaged(&req.params).map(|()| stamp_result(list_resources(engine), CacheScope::Public)),
        "resources/templates/list" => unpaged(&req.params).map(|()| stamp_result(json!({"resourceTemplates": []}), CacheScope::Public)),
        "resources/read" => read_resource(engine, &req.params).map(|r| stamp_result(r, CacheScope::Public)),
        "prompts/list" => unpaged(&req.params).map(|()| stamp_result(prompts::list(engine.registry().instructions()), CacheScope::Public)),
        "prompts/get" => prompts::get(engine.registry().instructions(), &req.params).map(|r| stamp_result(r, CacheScope::Public)),
        "shutdown" => {
            session.embodied = None;
            session.caller = None;
            session.apps = false;
            session.mode = Mode::Fresh;
            session.listeners.clear();
            Ok(json!({"ok": true}))
        }
        "subscriptions/listen" => Err(rpc_error(
            protocol::METHOD_NOT_FOUND,
            "subscriptions/listen is served over stdio and Streamable HTTP; on this transport use state/subscribe",
        )),
        other => Err(rpc_error(protocol::METHOD_NOT_FOUND, format!("method not found: {}", crate::clip::shown(other)))),
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

/// The `cursor` of a list that always fits one page (prompts, resources, templates): it never
/// hands out a `nextCursor`, so any cursor is one it did not issue, and the spec's pagination
/// section asks for invalid params then rather than the first page again (a client looping on
/// a cursor it made up would otherwise never learn it is wrong).
fn unpaged(params: &Value) -> Result<(), RpcError> {
    match params.get("cursor") {
        None | Some(Value::Null) => Ok(()),
        Some(Value::String(c)) => Err(invalid_params(format!("invalid cursor '{}': this list has one page", crate::clip::shown(c)))),
        Some(other) => Err(invalid_params(format!("cursor must be a string, got {}", crate::skills::schema::type_name(other)))),
    }
}

/// `resources/list`: the MCP Apps view, then every instruction skill's body and files.
fn list_resources(engine: &Engine) -> Value {
    let mut listed = apps::list();
    if let Some(Value::Array(all)) = listed.get_mut("resources") {
        all.extend(prompts::resources(engine.registry().instructions()));
    }
    listed
}

/// `resources/read`: a `skill://` URI from the instruction skills, anything else from `apps`
/// (which answers -32002 for what it does not have).
fn read_resource(engine: &Engine, params: &Value) -> Result<Value, RpcError> {
    if let Some(Value::String(uri)) = params.get("uri")
        && uri.starts_with(prompts::SCHEME)
    {
        return prompts::read(engine.registry().instructions(), uri).ok_or_else(|| {
            let shown = crate::clip::shown(uri);
            RpcError {
                code: protocol::RESOURCE_NOT_FOUND,
                message: format!("resource not found: {shown} (resources/list shows the skill:// resources)"),
                data: Some(json!({"uri": shown})),
            }
        });
    }
    // The view answers for every other URI; its "this server has ui://limina/world" would hide
    // the skill:// resources, so a not-found names them too when there are any.
    apps::read(params).map_err(|mut e| {
        if e.code == protocol::RESOURCE_NOT_FOUND && !engine.registry().instructions().is_empty() {
            e.message.push_str(" and the instruction skills' skill:// resources (resources/list shows them)");
        }
        e
    })
}

fn capabilities(engine: &Engine) -> Value {
    // `resources`: the MCP Apps view (`apps`) and the instruction skills' bodies and files;
    // `prompts` only when there are instruction skills to serve (`prompts`).
    let mut caps = json!({"tools": {"listChanged": true}, "resources": {"listChanged": true}});
    if !engine.registry().instructions().is_empty() {
        caps["prompts"] = json!({"listChanged": true});
    }
    caps
}

/// How far a cacheable result may be shared (the stateless revision's `cacheScope`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CacheScope {
    /// Not cacheable (a call's result).
    None,
    /// The same for every caller (`server/discover`).
    Public,
    /// This client's own: a tool list depends on its credential's profile and on its own view.
    Private,
}

/// Fields the stateless revision requires on list/call results; handshake clients ignore them.
fn stamp_result(mut result: Value, scope: CacheScope) -> Value {
    result["resultType"] = json!("complete");
    let scope = match scope {
        CacheScope::None => return result,
        CacheScope::Public => "public",
        CacheScope::Private => "private",
    };
    // Never let a client serve a result from a cache: `dev.reload`, mods and skills.enable change
    // the tool list at any time.
    result["ttlMs"] = json!(0);
    result["cacheScope"] = json!(scope);
    result
}

fn discover(engine: &Engine, session: &mut McpSession) -> Value {
    if session.mode == Mode::Fresh {
        session.mode = Mode::Standard { version: STATELESS_VERSION.to_string() };
    }
    let mut versions = vec![STATELESS_VERSION];
    versions.extend(HANDSHAKE_VERSIONS);
    let result = json!({
        "supportedVersions": versions,
        "capabilities": capabilities(engine),
        "serverInfo": server_info(),
        "instructions": INSTRUCTIONS,
        "_meta": {"io.modelcontextprotocol/serverInfo": server_info()},
    });
    stamp_result(result, CacheScope::Public)
}

fn initialize(engine: &Engine, session: &mut McpSession, params: &Value) -> Result<Value, RpcError> {
    let p = params_object(params)?;
    let native = !p.contains_key("protocolVersion") && ["agentId", "sessionId", "profile"].iter().any(|k| p.contains_key(*k));
    if native {
        let n = session.connection;
        let agent = optional_string(p, "agentId")?.map(str::to_string).unwrap_or_else(|| format!("agt_mcp{n}"));
        let sess = optional_string(p, "sessionId")?.map(str::to_string).unwrap_or_else(|| format!("ses_mcp{n}"));
        // One of the profiles, by name: the name is the caller's label in every decision it
        // is traced under, so free text (3 MiB of it, copied into each denial) is refused.
        let profile = match optional_string(p, "profile")? {
            None => session.granted_profile,
            Some(name) => Profile::parse(name).ok_or_else(|| {
                let names: Vec<&str> = Profile::ALL.iter().map(|p| p.as_str()).collect();
                invalid_params(format!("profile '{}' is not a profile; use one of {}", crate::clip::shown(name), names.join(", ")))
            })?,
        };
        for (field, id) in [("agentId", &agent), ("sessionId", &sess)] {
            check_identity(field, id)?;
        }
        // Forms the engine hands out or acts under (its own actors and threads, generated agent
        // ids, script sessions' and in-world agents' defaults, other connections' defaults): no
        // client chooses one, in any case (`Engine`, `agt_MCP1` read as those in a log).
        if let Some(form) = claims::reserved_agent_form(&agent, Some(n)) {
            return Err(rpc_error(protocol::FORBIDDEN, format!("{}; choose another agentId", form.refusal(&agent))));
        }
        if let Some(form) = claims::reserved_session_form(&sess, n) {
            return Err(rpc_error(protocol::FORBIDDEN, format!("{}; choose another sessionId", form.refusal(&sess))));
        }
        if let Some(live) = engine.agent_any_case(&agent) {
            return Err(rpc_error(protocol::FORBIDDEN, format!("agent {live} is an in-world agent; a client cannot act under its name")));
        }
        // A session id names quotas, budgets, revocations and an audit trail: a client cannot
        // adopt one that another client or the host script holds. An agent id, likewise: and
        // while a client holds one, no agent is spawned under it. Both are claimed before either
        // replaces the session's current ones, so a refused re-initialize changes nothing.
        let agent_claim = match &session.agent_claim {
            Some(held) if held.is_for(&agent) => Rc::clone(held),
            _ => engine.claim_agent_id(&agent).map_err(|why| rpc_error(protocol::FORBIDDEN, why.to_string()))?,
        };
        let claim = match &session.claim {
            Some(held) if held.is_for(&sess) => Rc::clone(held),
            _ => engine.claim_session(&sess).map_err(|why| rpc_error(protocol::FORBIDDEN, why.to_string()))?,
        };
        session.agent_claim = Some(agent_claim);
        session.claim = Some(claim);
        let caller = session.caller(&agent, &sess, profile);
        let result = json!({
            "protocolVersion": HANDSHAKE_VERSIONS[0],
            "session": {"agentId": agent, "sessionId": sess, "profile": &*caller.profile, "permissions": caller.permissions.names()},
        });
        session.embodied = None;
        session.caller = Some(caller);
        session.mode = Mode::Native;
        return Ok(result);
    }
    let requested = optional_string(p, "protocolVersion")?;
    let version = match requested {
        Some(v) if HANDSHAKE_VERSIONS.contains(&v) => v.to_string(),
        _ => HANDSHAKE_VERSIONS[0].to_string(),
    };
    session.embodied = None;
    session.caller = Some(session.default_caller());
    session.apps = apps::declares(p.get("capabilities"));
    session.mode = Mode::Standard { version: version.clone() };
    let capabilities = capabilities(engine);
    session.prompts_declared = capabilities.get("prompts").is_some();
    // What the client was told is as of now: a later change is news to it.
    session.seen_instructions = engine.registry().instructions().generation();
    Ok(json!({"protocolVersion": version, "capabilities": capabilities, "serverInfo": server_info(), "instructions": INSTRUCTIONS}))
}

/// Longest agent or session id a client may choose.
const MAX_IDENTITY_CHARS: usize = 64;

/// A client-chosen agent or session id: 1 to 64 of `A-Z a-z 0-9 _ . : -`. Ids are shown in the
/// world log and the audit trail, so no invisible or look-alike characters, and no megabytes.
fn check_identity(field: &str, id: &str) -> Result<(), RpcError> {
    let fine = !id.is_empty()
        && id.len() <= MAX_IDENTITY_CHARS
        && id.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b':' | b'-'));
    if fine {
        return Ok(());
    }
    Err(invalid_params(format!("{field} '{}' must be 1 to {MAX_IDENTITY_CHARS} characters of A-Z a-z 0-9 _ . : -", crate::clip::shown(id))))
}

/// True when a request carries the stateless revision's `_meta` envelope.
fn carries_stateless_meta(params: &Value) -> bool {
    let Some(meta) = params.get("_meta").and_then(Value::as_object) else { return false };
    meta.iter().any(|(k, v)| k.ends_with("protocolVersion") && v.as_str() == Some(STATELESS_VERSION))
}

/// The caller for a request: the session's, or (stateless revision) the transport default.
fn caller_for(session: &mut McpSession, req: &Incoming) -> Option<Caller> {
    if let Some(c) = &session.caller {
        return Some(c.clone());
    }
    if carries_stateless_meta(&req.params) {
        if session.mode == Mode::Fresh {
            session.mode = Mode::Standard { version: STATELESS_VERSION.to_string() };
        }
        return Some(session.default_caller());
    }
    None
}

/// The tool list. Native mode (and the `listTools` alias) keeps the reference's full list; a
/// standard client gets its session's view. Both show only what the client may call.
fn list_tools(engine: &Engine, session: &McpSession, req: &Incoming, alias: bool) -> Result<Value, RpcError> {
    let registry = engine.registry();
    if alias || session.mode == Mode::Native {
        let permissions = session.permissions();
        let tools: Vec<Value> = registry.list().filter(|s| discovery::offered(s, permissions)).map(|s| tools::native_tool(s)).collect();
        return Ok(json!({"tools": tools}));
    }
    // A stateless client declares its capabilities with each request, not once.
    let apps = session.apps || apps::declared_by_request(&req.params);
    let listed = session.listed_with(&registry, apps);
    let start = match req.params.get("cursor") {
        None | Some(Value::Null) => 0,
        Some(Value::String(c)) => {
            c.parse::<usize>().ok().filter(|n| *n <= listed.len()).ok_or_else(|| invalid_params(format!("invalid cursor '{c}'")))?
        }
        Some(_) => return Err(invalid_params("cursor must be a string")),
    };
    let tools: Vec<Value> = listed
        .iter()
        .skip(start)
        .take(TOOLS_PAGE)
        .map(|s| {
            let mut tool = tools::standard_tool(s);
            if apps && s.name == apps::VIEW_TOOL {
                apps::mark_tool(&mut tool);
            } else if s.tier == Tier::App {
                apps::mark_app_only(&mut tool);
            }
            tool
        })
        .collect();
    let mut result = json!({"tools": tools});
    if start + TOOLS_PAGE < listed.len() {
        result["nextCursor"] = json!((start + TOOLS_PAGE).to_string());
    }
    Ok(stamp_result(result, CacheScope::Private))
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
        let name = crate::clip::shown(&name);
        return Err(invalid_params(format!("unknown tool: {name} ({hint}skills.search finds tools by name or purpose)")));
    }
    if name == EMBODY
        && let Some(held) = &session.embodied
    {
        let refused = SkillResponse::failure(
            ErrorCode::Forbidden,
            format!("this client already embodies {}; call agent.release first (one agent per client)", held.agent),
        );
        return call_answer(engine, session, &name, native, &refused);
    }
    let response = if session.defer_heavy {
        match engine.call_deferrable(&caller, &name, arguments) {
            crate::skills::Invoked::Done(response, _) => response,
            crate::skills::Invoked::Deferred(ticket) => {
                let ordered = engine.registry().get(&name).is_some_and(|skill| !skill.effects.read_only());
                // Answered by `finish_deferred` once the heavy half is done; nothing to send now.
                session.deferred = Some(DeferredCall { ticket, id: req.id.clone(), ordered, name, native });
                return Ok(Value::Null);
            }
        }
    } else {
        engine.call(&caller, &name, arguments)
    };
    let response = embodiment(engine, session, &caller, &name, response);
    call_answer(engine, session, &name, native, &response)
}

const EMBODY: &str = "agent.embody";
const RELEASE: &str = "agent.release";

/// After a successful `agent.embody`, claims the agent for this session and makes its caller
/// the agent's; after a successful `agent.release`, gives the session its own caller back.
/// The claim is checked again here, not taken from the skill's answer: whatever a replaced
/// skill returned, a client embodies only an agent it may control, within its credential.
fn embodiment(engine: &Engine, session: &mut McpSession, caller: &Caller, name: &str, response: SkillResponse) -> SkillResponse {
    if !response.success {
        return response;
    }
    match name {
        EMBODY => {
            let id = response.result.as_ref().and_then(|r| r.get("agentId")).and_then(Value::as_str).unwrap_or_default().to_string();
            match engine.embody(caller, &id) {
                Ok((agent, claim)) => {
                    let own = session.caller.replace(agent);
                    session.embodied = Some(Embodied { agent: id.into(), _claim: claim, own });
                    response
                }
                Err(why) => SkillResponse::failure(crate::skills::core::embody_refusal_code(&why), why.to_string()),
            }
        }
        RELEASE => {
            if let Some(held) = session.embodied.take() {
                session.caller = held.own;
            }
            response
        }
        _ => response,
    }
}

/// A completed call's answer, in the session's mode.
fn call_answer(engine: &Engine, session: &mut McpSession, name: &str, native: bool, response: &SkillResponse) -> Result<Value, RpcError> {
    if let Some(change) = ViewChange::from_call(name, response) {
        session.apply_view(&engine.registry(), &change);
    }
    if native {
        let data = serde_json::to_value(response).unwrap_or(Value::Null);
        return match &response.error {
            None => Ok(data),
            Some(e) => Err(RpcError { code: protocol::skill_error_code(e.code), message: e.message.clone(), data: Some(data) }),
        };
    }
    let mut result = standard_call_result(response);
    if name == apps::VIEW_TOOL
        && let Some(view) = &response.result
        && response.error.is_none()
    {
        // The whole world as text would flood a host without Apps; a line says what it holds.
        result["content"] = json!([{"type": "text", "text": apps::summary(view)}]);
    } else if name == apps::MODEL_TOOL
        && let Some(model) = &response.result
        && response.error.is_none()
    {
        // The bytes travel once, in structuredContent; the text says what they are.
        result["content"] = json!([{"type": "text", "text": apps::model_summary(model)}]);
    }
    Ok(stamp_result(result, CacheScope::None))
}

/// A standard `tools/call` result: text content, structured content, and `isError`.
pub(crate) fn standard_call_result(response: &SkillResponse) -> Value {
    // An image result (render.capture) is an image block, so the agent sees it; the PNG is
    // sent once, there: structuredContent and its text copy carry the rest without `data`
    // (which the tool's outputSchema marks optional, so validating clients accept it).
    if let Some(result) = &response.result
        && result.get("mimeType").and_then(Value::as_str) == Some("image/png")
        && let Some(mut summary) = result.as_object().cloned()
        && let Some(Value::String(data)) = summary.remove("data")
    {
        let summary = Value::Object(summary);
        return json!({
            "content": [{"type": "image", "data": data, "mimeType": "image/png"}, {"type": "text", "text": summary.to_string()}],
            "structuredContent": summary,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_image_result_carries_its_png_once_in_the_image_block() {
        let mut response = SkillResponse::failure(ErrorCode::HandlerError, "");
        response.success = true;
        response.error = None;
        response.result = Some(json!({"width": 4, "height": 2, "mimeType": "image/png", "bytes": 3, "data": "UE5H"}));
        let out = standard_call_result(&response);
        assert_eq!(out["content"][0], json!({"type": "image", "data": "UE5H", "mimeType": "image/png"}));
        assert_eq!(out["structuredContent"], json!({"width": 4, "height": 2, "mimeType": "image/png", "bytes": 3}));
        assert_eq!(out.to_string().matches("UE5H").count(), 1, "{out}");
        assert_eq!(out["isError"], false);
    }
}
