//! MCP Streamable HTTP at `/mcp`, on the same port, engine thread and world as the WebSocket
//! transport: a change made over HTTP reaches WebSocket subscribers in their next delta.
//!
//! Two eras share the endpoint. Handshake clients (`initialize`, revisions 2025-03-26 to
//! 2025-11-25) get an `Mcp-Session-Id` and name it on every later request; their server
//! notifications come on a GET stream, or ahead of an answer sent as an event stream. Stateless
//! clients (2026-07-28) send self-contained POSTs (`server/discover`, `_meta` on every request,
//! the `MCP-Protocol-Version` / `Mcp-Method` / `Mcp-Name` headers checked against the body) and
//! hear notifications only on `subscriptions/listen` streams; their state is kept per
//! credential (bearer token, or the default profile without tokens).
//!
//! Every POST is one JSON-RPC message of at most `MAX_MESSAGE_BYTES` (a longer body is refused
//! with 413 before it is read whole); answers are JSON, or an event stream when the client
//! accepts only that or when notifications ride along. What a client has in flight is bounded by
//! the same admission as WebSocket connections; sessions are bounded in number and expire when
//! idle. Origin checks (DNS rebinding) and bearer tokens are applied by the caller for every
//! request on the port, WebSocket upgrades included.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use http::{HeaderMap, Method, StatusCode, header};
use http_body_util::{BodyExt, Limited};
use jsonrpsee::server::{HttpBody, HttpResponse};
use serde_json::Value;
use tokio::sync::oneshot;

use super::admission::{Admission, Load, Reservation};
use super::engine_loop::{Answered, EngineMsg, Work};
use super::sse::{self, SseBody};
use super::tokens::TokenCheck;
use super::transport::{Cutoff, Shared};
use crate::mcp::dispatcher::{HANDSHAKE_VERSIONS, MAX_MESSAGE_BYTES, PROTOCOL_VERSION_KEY, RpcError, STATELESS_VERSION};
use crate::mcp::protocol;
use crate::policy::Grant;

/// The endpoint.
pub(crate) const MCP_PATH: &str = "/mcp";
/// Handshake sessions held at once; past it `initialize` is refused until one ends or expires.
pub(crate) const MAX_SESSIONS: usize = 1024;
/// Handshake sessions one credential may hold (so one token cannot take them all).
pub(crate) const MAX_SESSIONS_PER_CREDENTIAL: usize = 64;
/// Request bodies being read at once, in bytes (declared lengths; a chunked body counts as the
/// largest allowed): past it a POST is answered 503 before its body is read.
pub(crate) const BODY_BUDGET: usize = 64 << 20;
/// Request-body bytes one credential may have being read at once (four of the largest bodies).
pub(crate) const BODY_BUDGET_PER_CREDENTIAL: usize = 16 << 20;
/// Time to receive a whole request body.
pub(crate) const BODY_TIMEOUT: Duration = Duration::from_secs(10);
/// A session with no request and no open stream for this long is forgotten.
pub(crate) const SESSION_IDLE: Duration = Duration::from_secs(30 * 60);
/// Stateless clients (by `clientInfo`) one credential keeps a tool view for.
pub(crate) const MAX_STATELESS_CLIENTS: usize = 16;
/// Longest `clientInfo` name and version of a stateless request, together.
const MAX_CLIENT_INFO_BYTES: usize = 256;
/// The stateless revision's `_meta` key for the client's name and version.
const CLIENT_INFO_KEY: &str = "io.modelcontextprotocol/clientInfo";
/// JSON-RPC code for a routing header that disagrees with the body (stateless revision).
const HEADER_MISMATCH: i64 = -32020;

/// Methods of the handshake era and the native mode that a stateless request may not use.
const HANDSHAKE_ONLY: [&str; 4] = ["initialize", "shutdown", "listTools", "callTool"];

const SESSION_HEADER: &str = "mcp-session-id";
const VERSION_HEADER: &str = "mcp-protocol-version";
const METHOD_HEADER: &str = "mcp-method";
const NAME_HEADER: &str = "mcp-name";

/// One handshake session.
struct HttpSession {
    conn: u64,
    /// The credential that opened it (a session is not usable with another token).
    credential: String,
    load: Arc<Load>,
    last_used: Instant,
    /// Held by each open stream, so an idle session with a live GET stream is kept.
    streams: Arc<()>,
}

/// A stateless client's standing state: its session on the engine (its tool view and listen
/// streams) and what its credential has in flight.
#[derive(Clone)]
struct StatelessConn {
    conn: u64,
    load: Arc<Load>,
}

/// One credential's stateless clients. The 2026-07-28 revision has no session: a client names
/// itself only by the `clientInfo` in each request's `_meta`, so clients are told apart by it
/// (each its own tool view and listen streams); clients that send none share one. Their calls
/// and streams count against one admission load, as one connection.
struct StatelessClients {
    load: Arc<Load>,
    clients: HashMap<String, (u64, Instant)>,
}

/// Everything the HTTP side keeps; one per server.
pub(super) struct HttpState {
    shared: Shared,
    admission: Arc<Admission>,
    /// Bytes of request bodies being read now (`BODY_BUDGET`), and per credential.
    reading: Arc<std::sync::atomic::AtomicUsize>,
    reading_by: Mutex<HashMap<String, Arc<std::sync::atomic::AtomicUsize>>>,
    sessions: Mutex<HashMap<String, HttpSession>>,
    stateless: Mutex<HashMap<String, StatelessClients>>,
}

/// Who is asking: the profile their token maps to, and the credential itself (the key of their
/// stateless state and the owner of their sessions).
struct Identity {
    granted: Grant,
    credential: String,
}

/// The message a POST carried, once read and sorted.
enum Posted {
    Request {
        id: Value,
        method: String,
        params: Value,
    },
    /// A notification or a response: acknowledged with 202, nothing to answer.
    Other,
}

/// How the client takes answers.
#[derive(Clone, Copy)]
struct Accepts {
    json: bool,
    sse: bool,
}

impl HttpState {
    pub fn new(shared: Shared, admission: Arc<Admission>) -> Arc<Self> {
        Arc::new(Self {
            shared,
            admission,
            reading: Arc::new(std::sync::atomic::AtomicUsize::new(0)),
            reading_by: Mutex::new(HashMap::new()),
            sessions: Mutex::new(HashMap::new()),
            stateless: Mutex::new(HashMap::new()),
        })
    }

    /// Forgets sessions idle for `SESSION_IDLE` with no open stream; run every minute, until the
    /// world is gone.
    pub async fn expire_sessions(state: std::sync::Weak<Self>) {
        let mut every = tokio::time::interval(Duration::from_secs(60));
        loop {
            every.tick().await;
            let Some(this) = state.upgrade() else { return };
            let now = Instant::now();
            let expired: Vec<u64> = {
                let mut sessions = this.sessions.lock().unwrap_or_else(|p| p.into_inner());
                let ids: Vec<String> = sessions
                    .iter()
                    .filter(|(_, s)| now.duration_since(s.last_used) > SESSION_IDLE && Arc::strong_count(&s.streams) == 1)
                    .map(|(id, _)| id.clone())
                    .collect();
                ids.iter().filter_map(|id| sessions.remove(id)).map(|s| s.conn).collect()
            };
            for conn in expired {
                let _ = this.shared.engine.send(EngineMsg::Closed { conn });
            }
        }
    }

    fn identify(&self, headers: &HeaderMap) -> Result<Identity, Box<HttpResponse>> {
        match self.shared.check(headers) {
            TokenCheck::Granted(granted) => {
                let credential = match &self.shared.tokens {
                    Some(_) => super::transport::bearer_token(headers).unwrap_or_default().to_string(),
                    None => String::new(),
                };
                Ok(Identity { granted, credential })
            }
            refused => Err(Box::new(self.shared.refusal(refused, "present a known bearer token"))),
        }
    }

    /// The session a request names, if it is open and belongs to this credential (another
    /// credential's session is answered exactly like an unknown one).
    fn session(&self, id: &str, who: &Identity) -> Option<(u64, Arc<Load>, Arc<()>)> {
        let mut sessions = self.sessions.lock().unwrap_or_else(|p| p.into_inner());
        let s = sessions.get_mut(id).filter(|s| s.credential == who.credential)?;
        s.last_used = Instant::now();
        Some((s.conn, Arc::clone(&s.load), Arc::clone(&s.streams)))
    }

    fn open_session(&self, who: &Identity) -> Result<(String, u64, Arc<Load>), RpcError> {
        let mut sessions = self.sessions.lock().unwrap_or_else(|p| p.into_inner());
        // Whichever limit is reached, the credential's own session idle longest with no open
        // stream makes room: a client that opens sessions in a loop (or a shared token's viewers
        // that close tabs without DELETE) must not lock the token out for the idle time, and a
        // credential's sessions are never closed for another one (one token opening its 64 once
        // closed 65 other users' sessions). A refused initialize changes nothing.
        let evict_own_idle = |sessions: &mut HashMap<String, HttpSession>| {
            let oldest = sessions
                .iter()
                .filter(|(_, s)| s.credential == who.credential && Arc::strong_count(&s.streams) == 1)
                .min_by_key(|(_, s)| s.last_used)
                .map(|(id, _)| id.clone());
            if let Some(s) = oldest.and_then(|id| sessions.remove(&id)) {
                let _ = self.shared.engine.send(EngineMsg::Closed { conn: s.conn });
            }
        };
        // Without tokens every client is the same (empty) credential: only the total applies.
        let own = |sessions: &HashMap<String, HttpSession>| sessions.values().filter(|s| s.credential == who.credential).count();
        if !who.credential.is_empty() && own(&sessions) >= MAX_SESSIONS_PER_CREDENTIAL {
            evict_own_idle(&mut sessions);
            let own = own(&sessions);
            if own >= MAX_SESSIONS_PER_CREDENTIAL {
                return Err(RpcError {
                    code: protocol::BUSY,
                    message: format!(
                        "this credential holds {own} sessions, its limit of {MAX_SESSIONS_PER_CREDENTIAL}, each with an open stream; close one (DELETE) first"
                    ),
                    data: None,
                });
            }
        }
        if sessions.len() >= MAX_SESSIONS {
            evict_own_idle(&mut sessions);
        }
        if sessions.len() >= MAX_SESSIONS {
            return Err(RpcError {
                code: protocol::BUSY,
                message: format!("the server holds {MAX_SESSIONS} sessions, its limit; close one (DELETE) or retry later"),
                data: None,
            });
        }
        let id = new_session_id();
        let conn = self.shared.next.fetch_add(1, Ordering::Relaxed);
        let load = Arc::new(Load::default());
        let session = HttpSession {
            conn,
            credential: who.credential.clone(),
            load: Arc::clone(&load),
            last_used: Instant::now(),
            streams: Arc::new(()),
        };
        sessions.insert(id.clone(), session);
        Ok((id, conn, load))
    }

    fn close_session(&self, id: &str) -> bool {
        let removed = self.sessions.lock().unwrap_or_else(|p| p.into_inner()).remove(id);
        match removed {
            Some(s) => {
                let _ = self.shared.engine.send(EngineMsg::Closed { conn: s.conn });
                true
            }
            None => false,
        }
    }

    /// The engine session of the stateless client `client` (its `clientInfo`, `""` for none) of
    /// this credential. A credential keeps at most `MAX_STATELESS_CLIENTS`: a new one makes room
    /// by closing the credential's own longest-idle client, never another credential's.
    fn stateless_conn(&self, who: &Identity, client: &str) -> StatelessConn {
        let mut stateless = self.stateless.lock().unwrap_or_else(|p| p.into_inner());
        let own = stateless
            .entry(who.credential.clone())
            .or_insert_with(|| StatelessClients { load: Arc::new(Load::default()), clients: HashMap::new() });
        let now = Instant::now();
        if let Some((conn, last_used)) = own.clients.get_mut(client) {
            *last_used = now;
            return StatelessConn { conn: *conn, load: Arc::clone(&own.load) };
        }
        if own.clients.len() >= MAX_STATELESS_CLIENTS {
            let oldest = own.clients.iter().min_by_key(|(_, (_, used))| *used).map(|(name, _)| name.clone());
            if let Some((conn, _)) = oldest.and_then(|name| own.clients.remove(&name)) {
                let _ = self.shared.engine.send(EngineMsg::Closed { conn });
            }
        }
        let conn = self.shared.next.fetch_add(1, Ordering::Relaxed);
        own.clients.insert(client.to_string(), (conn, now));
        StatelessConn { conn, load: Arc::clone(&own.load) }
    }

    fn send(&self, conn: u64, granted: Grant, work: Work) -> Result<(), RpcError> {
        self.shared.engine.send(EngineMsg::Work { conn, granted, work }).map_err(|_| RpcError {
            code: protocol::INTERNAL_ERROR,
            message: "the engine has stopped".into(),
            data: None,
        })
    }

    /// `send` for a handshake session's work. The session may have ended (DELETE, expiry)
    /// between its lookup and this send: then the engine, which would bring its connection back
    /// for the work, is told again that it closed (after the work, so it ends for good).
    fn send_for(&self, session: Option<&str>, conn: u64, granted: Grant, work: Work) -> Result<(), RpcError> {
        self.send(conn, granted, work)?;
        if let Some(id) = session
            && !self.sessions.lock().unwrap_or_else(|p| p.into_inner()).contains_key(id)
        {
            let _ = self.shared.engine.send(EngineMsg::Closed { conn });
        }
        Ok(())
    }
}

/// A session id nobody can guess: 128 random bits.
fn new_session_id() -> String {
    crate::unguessable::hex(16)
}

/// Serves one request to `/mcp` (the caller has checked the path and the origin).
pub(super) async fn handle(state: Arc<HttpState>, req: http::Request<hyper::body::Incoming>, connection: Arc<Cutoff>) -> HttpResponse {
    let who = match state.identify(req.headers()) {
        Ok(who) => who,
        Err(refused) => return *refused,
    };
    match *req.method() {
        Method::POST => post(&state, req, &who, &connection).await,
        Method::GET => get(&state, &req, &who, &connection).await,
        Method::DELETE => match header_str(req.headers(), SESSION_HEADER) {
            Some(id) if state.session(id, &who).is_some() && state.close_session(id) => plain(StatusCode::OK, ""),
            Some(_) => rpc_failure(StatusCode::NOT_FOUND, Value::Null, protocol::INVALID_REQUEST, "session not found (ended or expired)"),
            None => rpc_failure(StatusCode::BAD_REQUEST, Value::Null, protocol::INVALID_REQUEST, "DELETE needs the Mcp-Session-Id header"),
        },
        _ => {
            let mut refused = plain(StatusCode::METHOD_NOT_ALLOWED, "the MCP endpoint takes POST, GET and DELETE");
            refused.headers_mut().insert(header::ALLOW, http::HeaderValue::from_static("GET, POST, DELETE"));
            refused
        }
    }
}

async fn post(state: &HttpState, req: http::Request<hyper::body::Incoming>, who: &Identity, connection: &Arc<Cutoff>) -> HttpResponse {
    let headers = req.headers().clone();
    let media = header_str(&headers, header::CONTENT_TYPE.as_str()).unwrap_or_default();
    if !media.to_ascii_lowercase().starts_with("application/json") {
        return plain(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            &format!("POST a JSON-RPC message as application/json (got Content-Type '{media}')"),
        );
    }
    let accepts = accepts(&headers);
    if !accepts.json && !accepts.sse {
        return plain(StatusCode::NOT_ACCEPTABLE, "accept application/json or text/event-stream");
    }
    let too_big = || {
        rpc_failure(
            StatusCode::PAYLOAD_TOO_LARGE,
            Value::Null,
            protocol::INVALID_REQUEST,
            &format!("the body is larger than the {MAX_MESSAGE_BYTES}-byte limit"),
        )
    };
    let declared = header_str(&headers, header::CONTENT_LENGTH.as_str()).and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_MESSAGE_BYTES as u64) {
        return too_big();
    }
    // Bodies being read are bounded together and in time, before a byte is buffered: a client
    // that sends most of a body and stalls holds neither memory nor a slot for long.
    let reserve = declared.map_or(MAX_MESSAGE_BYTES, |n| n as usize);
    let mine = {
        let mut by = state.reading_by.lock().unwrap_or_else(|p| p.into_inner());
        // Forget idle credentials now and then so the map stays the size of who is sending.
        if by.len() > 256 {
            by.retain(|_, n| Arc::strong_count(n) > 1 || n.load(Ordering::Acquire) > 0);
        }
        Arc::clone(by.entry(who.credential.clone()).or_default())
    };
    // Without tokens every client is the same (empty) credential: only the server-wide budget.
    let own_limit = if who.credential.is_empty() { BODY_BUDGET } else { BODY_BUDGET_PER_CREDENTIAL };
    let Some(_own) = Reservation::take(&mine, reserve, own_limit) else {
        return rpc_failure(
            StatusCode::TOO_MANY_REQUESTS,
            Value::Null,
            protocol::BUSY,
            &format!("this credential is sending {BODY_BUDGET_PER_CREDENTIAL} bytes of request bodies, its limit; retry shortly"),
        );
    };
    let Some(_reading) = Reservation::take(&state.reading, reserve, BODY_BUDGET) else {
        return rpc_failure(
            StatusCode::SERVICE_UNAVAILABLE,
            Value::Null,
            protocol::BUSY,
            &format!("the server is reading {BODY_BUDGET} bytes of request bodies, its limit; retry shortly"),
        );
    };
    let read = tokio::time::timeout(BODY_TIMEOUT, Limited::new(req.into_body(), MAX_MESSAGE_BYTES).collect());
    let body = match read.await {
        Ok(Ok(collected)) => collected.to_bytes(),
        Ok(Err(e)) if e.downcast_ref::<http_body_util::LengthLimitError>().is_some() => return too_big(),
        Ok(Err(e)) => return plain(StatusCode::BAD_REQUEST, &format!("could not read the body: {e}")),
        Err(_) => return plain(StatusCode::REQUEST_TIMEOUT, &format!("the body did not arrive within {} s", BODY_TIMEOUT.as_secs())),
    };
    drop((_reading, _own));
    let (id, method, params) = match read_message(&body) {
        Ok(Posted::Request { id, method, params }) => (id, method, params),
        Ok(Posted::Other) => return plain(StatusCode::ACCEPTED, ""),
        Err(refused) => return *refused,
    };
    let stateless = method == "server/discover" || params.get("_meta").and_then(|m| m.get(PROTOCOL_VERSION_KEY)).is_some();
    if stateless && header_str(&headers, SESSION_HEADER).is_none() && HANDSHAKE_ONLY.contains(&method.as_str()) {
        // A stateless credential's state is shared by all its requests: one request must not
        // re-identify or reset it for the others.
        let e = RpcError {
            code: protocol::METHOD_NOT_FOUND,
            message: format!(
                "{method} is not part of the {STATELESS_VERSION} revision (send server/discover, then tools/list and tools/call)"
            ),
            data: None,
        };
        return rpc_answer(id, Err(e), true, accepts, Vec::new());
    }

    // Which engine session serves it.
    let mut new_session = None;
    let (conn, load, guard) = match header_str(&headers, SESSION_HEADER) {
        Some(sid) => match state.session(sid, who) {
            Some((conn, load, guard)) => (conn, load, Some(guard)),
            None => {
                return rpc_failure(
                    StatusCode::NOT_FOUND,
                    id,
                    protocol::INVALID_REQUEST,
                    "session not found (ended or expired): initialize again",
                );
            }
        },
        None if stateless => {
            if let Err(e) = check_routing_headers(&headers, &method, &params) {
                return rpc_answer(id, Err(e), true, accepts, Vec::new());
            }
            let client = match stateless_client(&params) {
                Ok(client) => client,
                Err(e) => return rpc_answer(id, Err(e), true, accepts, Vec::new()),
            };
            let s = state.stateless_conn(who, &client);
            (s.conn, s.load, None)
        }
        None if method == "initialize" => match state.open_session(who) {
            Ok((sid, conn, load)) => {
                new_session = Some(sid);
                (conn, load, None)
            }
            Err(e) => return rpc_answer(id, Err(e), false, accepts, Vec::new()).with_status(StatusCode::SERVICE_UNAVAILABLE),
        },
        None => {
            return rpc_failure(
                StatusCode::BAD_REQUEST,
                id,
                protocol::INVALID_REQUEST,
                "no Mcp-Session-Id header: send initialize first (its answer carries the session id), or speak the 2026-07-28 revision (server/discover, _meta on every request)",
            );
        }
    };
    if !stateless
        && let Some(v) = header_str(&headers, VERSION_HEADER)
        && !HANDSHAKE_VERSIONS.contains(&v)
        && v != STATELESS_VERSION
    {
        return rpc_failure(
            StatusCode::BAD_REQUEST,
            id,
            protocol::INVALID_REQUEST,
            &format!("unsupported MCP-Protocol-Version header '{v}'"),
        );
    }
    let permit = match state.admission.admit(&load, body.len()) {
        Ok(permit) => permit,
        Err(busy) => {
            return rpc_answer(id, Err(busy.to_rpc_error()), stateless, accepts, Vec::new()).with_status(StatusCode::TOO_MANY_REQUESTS);
        }
    };

    // The handshake session this request works in, if any (checked again after its work is sent).
    let session_id: Option<String> = header_str(&headers, SESSION_HEADER).map(str::to_string).or_else(|| new_session.clone());
    let sid = session_id.as_deref();
    let response = match method.as_str() {
        "subscriptions/listen" | "state/subscribe" if !accepts.sse => {
            plain(StatusCode::NOT_ACCEPTABLE, &format!("{method} answers with an event stream: accept text/event-stream"))
        }
        "subscriptions/listen" => {
            let (sink, body) = sse::stream(Some(Arc::clone(connection)));
            let (reply, answer) = oneshot::channel();
            // The stream keeps the permit for its whole life: a credential's streams count
            // against its admission limit until they end.
            let work = Work::Listen { id: id.clone(), params, sink: Box::new(sink), permit, reply };
            match state.send_for(sid, conn, who.granted, work) {
                Err(e) => rpc_answer(id, Err(e), stateless, accepts, Vec::new()),
                Ok(()) => match answer.await {
                    Ok(Ok(())) => stream_response(body, guard),
                    Ok(Err(e)) => rpc_answer(id, Err(e), stateless, accepts, Vec::new()),
                    Err(_) => rpc_answer(id, Err(engine_gone()), stateless, accepts, Vec::new()),
                },
            }
        }
        "state/subscribe" => {
            // The read door decides as the session's (or the credential's) caller; a refusal is
            // the request's JSON-RPC error, naming the reason.
            let (reply, answer) = oneshot::channel();
            let decided = match state.send_for(sid, conn, who.granted, Work::Authorize { reply }) {
                Err(e) => Err(e),
                Ok(()) => answer.await.unwrap_or_else(|_| Err(engine_gone())),
            };
            match decided {
                Err(e) => rpc_answer(id, Err(e), stateless, accepts, Vec::new()),
                Ok(grant) => {
                    let (sink, body) = sse::stream(Some(Arc::clone(connection)));
                    // Ended by the engine (a revocation), the stream's last event answers this
                    // request with the reason.
                    let sink = sink.answering(id.clone());
                    // A stateless client's state stream gets a connection of its own, so clients
                    // that share a credential do not replace each other's.
                    let conn = if sid.is_none() { state.shared.next.fetch_add(1, Ordering::Relaxed) } else { conn };
                    match state.send_for(sid, conn, who.granted, Work::Subscribe { sink: Box::new(sink), permit, grant }) {
                        Ok(()) => stream_response(body, guard),
                        Err(e) => rpc_answer(id, Err(e), stateless, accepts, Vec::new()),
                    }
                }
            }
        }
        _ => {
            let (reply, answer) = oneshot::channel();
            let work = Work::Call { method: method.clone(), params, reply, gate: None };
            let answered = match state.send_for(sid, conn, who.granted, work) {
                Err(e) => Answered { result: Err(e), notes: Vec::new() },
                Ok(()) => answer.await.unwrap_or(Answered { result: Err(engine_gone()), notes: Vec::new() }),
            };
            drop(permit);
            if let Some(sid) = &new_session
                && answered.result.is_err()
            {
                // A failed initialize leaves no session behind.
                state.close_session(sid);
                new_session = None;
            }
            rpc_answer(id, answered.result, stateless, accepts, answered.notes)
        }
    };
    match new_session {
        Some(sid) => {
            let mut response = response;
            if let Ok(value) = http::HeaderValue::from_str(&sid) {
                response.headers_mut().insert(SESSION_HEADER, value);
            }
            response
        }
        None => response,
    }
}

/// GET opens a handshake session's notification stream.
async fn get(state: &HttpState, req: &http::Request<hyper::body::Incoming>, who: &Identity, connection: &Arc<Cutoff>) -> HttpResponse {
    if !accepts(req.headers()).sse {
        return plain(StatusCode::NOT_ACCEPTABLE, "the GET stream is an event stream: accept text/event-stream");
    }
    let Some(sid) = header_str(req.headers(), SESSION_HEADER) else {
        let mut refused = plain(
            StatusCode::METHOD_NOT_ALLOWED,
            "a GET stream belongs to a session (Mcp-Session-Id); stateless clients use subscriptions/listen",
        );
        refused.headers_mut().insert(header::ALLOW, http::HeaderValue::from_static("POST"));
        return refused;
    };
    let Some((conn, _, guard)) = state.session(sid, who) else {
        return rpc_failure(
            StatusCode::NOT_FOUND,
            Value::Null,
            protocol::INVALID_REQUEST,
            "session not found (ended or expired): initialize again",
        );
    };
    let (sink, body) = sse::stream(Some(Arc::clone(connection)));
    match state.send_for(Some(sid), conn, who.granted, Work::Notifications { sink: Box::new(sink) }) {
        Ok(()) => stream_response(body, Some(guard)),
        Err(e) => rpc_failure(StatusCode::SERVICE_UNAVAILABLE, Value::Null, e.code, &e.message),
    }
}

/// Sorts one posted body: a request, something to acknowledge, or a refusal.
fn read_message(body: &[u8]) -> Result<Posted, Box<HttpResponse>> {
    let parsed: Value = serde_json::from_slice(body)
        .map_err(|e| Box::new(rpc_failure(StatusCode::BAD_REQUEST, Value::Null, protocol::PARSE_ERROR, &format!("parse error: {e}"))))?;
    if parsed.is_array() {
        return Err(Box::new(rpc_failure(
            StatusCode::BAD_REQUEST,
            Value::Null,
            protocol::INVALID_REQUEST,
            "batches are not accepted over Streamable HTTP (removed in 2025-06-18): POST one message at a time",
        )));
    }
    let is_reply = parsed.get("method").is_none() && (parsed.get("result").is_some() || parsed.get("error").is_some());
    if is_reply {
        // limina sends no requests to clients, so there is nothing to match a response to.
        return Ok(Posted::Other);
    }
    match protocol::classify(&parsed) {
        Ok(incoming) => match incoming.id {
            None => Ok(Posted::Other),
            Some(id) => Ok(Posted::Request { id, method: incoming.method, params: incoming.params }),
        },
        Err(invalid) => Err(Box::new(rpc_failure(StatusCode::BAD_REQUEST, invalid.id, protocol::INVALID_REQUEST, &invalid.message))),
    }
}

/// How a stateless request names its client: `_meta["io.modelcontextprotocol/clientInfo"]`
/// (`{name, version}`), as `name/version`; `""` when it sends none. At most
/// `MAX_CLIENT_INFO_BYTES`, so a client cannot make the server keep megabytes per name.
fn stateless_client(params: &Value) -> Result<String, RpcError> {
    let Some(info) = params.get("_meta").and_then(|m| m.get(CLIENT_INFO_KEY)) else { return Ok(String::new()) };
    let part = |key: &str| info.get(key).and_then(Value::as_str).unwrap_or_default();
    let name = format!("{}/{}", part("name"), part("version"));
    if name.len() > MAX_CLIENT_INFO_BYTES {
        return Err(RpcError {
            code: protocol::INVALID_PARAMS,
            message: format!(
                "_meta.{CLIENT_INFO_KEY} name and version are {} bytes, over the limit of {MAX_CLIENT_INFO_BYTES}",
                name.len()
            ),
            data: None,
        });
    }
    Ok(if name == "/" { String::new() } else { name })
}

/// The stateless revision's routing headers must agree with the body, so intermediaries that
/// route on them see what the server will do.
fn check_routing_headers(headers: &HeaderMap, method: &str, params: &Value) -> Result<(), RpcError> {
    let mismatch = |message: String| RpcError { code: HEADER_MISMATCH, message, data: None };
    for name in [VERSION_HEADER, METHOD_HEADER, NAME_HEADER] {
        if headers.get_all(name).iter().count() > 1 {
            return Err(mismatch(format!("the {name} header appears more than once")));
        }
    }
    let version = params.get("_meta").and_then(|m| m.get(PROTOCOL_VERSION_KEY));
    if let Some(version) = version
        && header_str(headers, VERSION_HEADER) != version.as_str()
    {
        return Err(mismatch(format!(
            "the MCP-Protocol-Version header ({}) does not match _meta's protocol version ({version})",
            header_str(headers, VERSION_HEADER).unwrap_or("absent")
        )));
    }
    if header_str(headers, METHOD_HEADER) != Some(method) {
        return Err(mismatch(format!(
            "the Mcp-Method header ({}) does not match the body's method ({method})",
            header_str(headers, METHOD_HEADER).unwrap_or("absent")
        )));
    }
    if method == "tools/call"
        && let Some(name) = params.get("name").and_then(Value::as_str)
        && header_str(headers, NAME_HEADER).and_then(decode_header_value).as_deref() != Some(name)
    {
        return Err(mismatch(format!(
            "the Mcp-Name header ({}) does not match the body's tool name ({name})",
            header_str(headers, NAME_HEADER).unwrap_or("absent")
        )));
    }
    Ok(())
}

/// A header value as sent, or the `=?base64?…?=` form decoded (how clients carry non-ASCII).
fn decode_header_value(value: &str) -> Option<String> {
    use base64::Engine as _;
    match value.strip_prefix("=?base64?").and_then(|v| v.strip_suffix("?=")) {
        None => Some(value.to_string()),
        Some(payload) => base64::engine::general_purpose::STANDARD.decode(payload).ok().and_then(|bytes| String::from_utf8(bytes).ok()),
    }
}

fn header_str<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

fn accepts(headers: &HeaderMap) -> Accepts {
    let all: Vec<String> = headers.get_all(header::ACCEPT).iter().filter_map(|v| v.to_str().ok()).map(str::to_ascii_lowercase).collect();
    if all.is_empty() {
        return Accepts { json: true, sse: false };
    }
    let has = |media: &str| all.iter().any(|v| v.split(',').any(|part| part.split(';').next().is_some_and(|m| m.trim() == media)));
    Accepts { json: has("application/json") || has("*/*") || has("application/*"), sse: has("text/event-stream") }
}

fn engine_gone() -> RpcError {
    RpcError { code: protocol::INTERNAL_ERROR, message: "the engine dropped the call".into(), data: None }
}

/// HTTP status for a JSON-RPC error in the stateless revision (handshake clients get 200).
fn status_for(code: i64) -> StatusCode {
    match code {
        protocol::PARSE_ERROR | protocol::INVALID_REQUEST | protocol::INVALID_PARAMS | HEADER_MISMATCH => StatusCode::BAD_REQUEST,
        crate::mcp::dispatcher::UNSUPPORTED_PROTOCOL_VERSION => StatusCode::BAD_REQUEST,
        protocol::METHOD_NOT_FOUND => StatusCode::NOT_FOUND,
        _ => StatusCode::OK,
    }
}

/// The answer to a request: JSON, or an event stream carrying `notes` and then the answer.
fn rpc_answer(id: Value, result: Result<Value, RpcError>, stateless: bool, accepts: Accepts, notes: Vec<Value>) -> HttpResponse {
    let failed = result.is_err();
    let (message, status) = match result {
        Ok(value) => (protocol::result(id, value), StatusCode::OK),
        Err(RpcError { code, message, data }) => {
            (protocol::error(id, code, message, data), if stateless { status_for(code) } else { StatusCode::OK })
        }
    };
    // A stateless error keeps its HTTP status, so it is JSON whatever the client prefers.
    let wants_stream = !accepts.json || !notes.is_empty();
    let keeps_status = stateless && failed;
    let as_stream = accepts.sse && wants_stream && !keeps_status;
    if !as_stream {
        return json_response(status, &message);
    }
    let mut body = Vec::new();
    for note in notes.iter().chain(std::iter::once(&message)) {
        body.extend_from_slice(&sse::event(note));
    }
    let mut response = HttpResponse::new(HttpBody::from(body));
    set_stream_headers(&mut response);
    response
}

fn stream_response(body: SseBody, guard: Option<Arc<()>>) -> HttpResponse {
    let mut response = HttpResponse::new(HttpBody::new(body.holding(guard)));
    set_stream_headers(&mut response);
    response
}

pub(super) fn set_stream_headers(response: &mut HttpResponse) {
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, http::HeaderValue::from_static("text/event-stream"));
    headers.insert(header::CACHE_CONTROL, http::HeaderValue::from_static("no-cache, no-transform"));
    headers.insert("x-accel-buffering", http::HeaderValue::from_static("no"));
}

pub(super) fn json_response(status: StatusCode, message: &Value) -> HttpResponse {
    let mut response = HttpResponse::new(HttpBody::from(message.to_string()));
    *response.status_mut() = status;
    response.headers_mut().insert(header::CONTENT_TYPE, http::HeaderValue::from_static("application/json"));
    response
}

fn rpc_failure(status: StatusCode, id: Value, code: i64, message: &str) -> HttpResponse {
    json_response(status, &protocol::error(id, code, message, None))
}

pub(super) fn plain(status: StatusCode, text: &str) -> HttpResponse {
    let mut response = HttpResponse::new(HttpBody::from(text.to_string()));
    *response.status_mut() = status;
    if !text.is_empty() {
        response.headers_mut().insert(header::CONTENT_TYPE, http::HeaderValue::from_static("text/plain; charset=utf-8"));
    }
    response
}

trait WithStatus {
    fn with_status(self, status: StatusCode) -> Self;
}

impl WithStatus for HttpResponse {
    fn with_status(mut self, status: StatusCode) -> Self {
        *self.status_mut() = status;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(http::HeaderName::from_bytes(k.as_bytes()).unwrap(), http::HeaderValue::from_str(v).unwrap());
        }
        h
    }

    #[test]
    fn routing_headers_must_agree_with_the_body() {
        let params = json!({"name": "scene.createEntity", "_meta": {PROTOCOL_VERSION_KEY: "2026-07-28"}});
        let good = headers(&[("mcp-protocol-version", "2026-07-28"), ("mcp-method", "tools/call"), ("mcp-name", "scene.createEntity")]);
        assert_eq!(check_routing_headers(&good, "tools/call", &params), Ok(()));
        let wrong_name =
            headers(&[("mcp-protocol-version", "2026-07-28"), ("mcp-method", "tools/call"), ("mcp-name", "scene.destroyEntity")]);
        let e = check_routing_headers(&wrong_name, "tools/call", &params).unwrap_err();
        assert_eq!(
            (e.code, e.message.as_str()),
            (HEADER_MISMATCH, "the Mcp-Name header (scene.destroyEntity) does not match the body's tool name (scene.createEntity)")
        );
        let no_method = headers(&[("mcp-protocol-version", "2026-07-28")]);
        assert!(check_routing_headers(&no_method, "tools/call", &params).unwrap_err().message.contains("Mcp-Method header (absent)"));
        let twice = headers(&[("mcp-method", "tools/call"), ("mcp-method", "tools/list")]);
        assert!(check_routing_headers(&twice, "tools/call", &params).unwrap_err().message.contains("more than once"));
        let encoded = headers(&[
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/call"),
            ("mcp-name", "=?base64?c2NlbmUuY3JlYXRlRW50aXR5?="),
        ]);
        assert_eq!(check_routing_headers(&encoded, "tools/call", &params), Ok(()), "base64-wrapped names decode");
    }

    #[test]
    fn accept_headers_are_read_by_media_type() {
        let both = accepts(&headers(&[("accept", "application/json, text/event-stream")]));
        assert!(both.json && both.sse);
        let sse_only = accepts(&headers(&[("accept", "text/event-stream;q=1")]));
        assert!(!sse_only.json && sse_only.sse);
        let none = accepts(&headers(&[("accept", "text/html")]));
        assert!(!none.json && !none.sse);
        assert!(accepts(&HeaderMap::new()).json, "no Accept header: JSON, as curl expects");
    }

    #[test]
    fn session_ids_are_long_and_distinct() {
        let (a, b) = (new_session_id(), new_session_id());
        assert_eq!(a.len(), 32);
        assert_ne!(a, b);
    }

    #[test]
    fn posted_messages_are_sorted() {
        assert!(matches!(read_message(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#), Ok(Posted::Request { .. })));
        assert!(matches!(read_message(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#), Ok(Posted::Other)));
        assert!(matches!(read_message(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#), Ok(Posted::Other)));
        assert_eq!(read_message(b"[]").err().map(|r| r.status()), Some(StatusCode::BAD_REQUEST));
        assert_eq!(read_message(b"{nope").err().map(|r| r.status()), Some(StatusCode::BAD_REQUEST));
    }
}
