//! `limina spectate nats://…/WORLD --http ADDR`: the web viewer fed from NATS. A read-only relay
//! serves the viewer's page and answers the few MCP requests the page makes (`initialize`,
//! `state/subscribe`, `tools/call trace.tail`) from a world's feeds on NATS (`relay_feed`)
//! instead of from an engine. It never talks to the world's server, so any number of relays, and
//! of viewers on each, add no load to the world; a relay outlives a failover (the new owner's
//! feed starts with a keyframe).
//!
//! Everything a client could change is refused: every other method is answered with an error
//! naming what the relay serves. Every request needs the relay's token (made for the run and
//! printed in the link, `#token=…`); foreign browser origins and, on loopback, foreign Host names
//! are refused as on the server (`OriginPolicy`). What a client can hold is bounded: connections
//! (`MAX_CONNECTIONS`, headers within 5 s), request bodies (`MAX_REQUEST_BYTES`, read within
//! `BODY_TIMEOUT`), viewers (`MAX_VIEWERS`), and per viewer one cursor and `VIEWER_QUEUE` shared
//! events; a viewer that stops reading is cut off after `STALL_TIME` by the socket it is served
//! on (`outgoing::Metered`).

use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use http::{Method, StatusCode, header};
use http_body_util::{BodyExt, Limited};
use jsonrpsee::core::BoxError;
use jsonrpsee::server::{HttpBody, HttpResponse};
use serde_json::{Value, json};

use super::admission::Reservation;
use super::http::{json_response, plain};
use super::relay_feed::{Cursor, RelayFeed};
use super::transport::{MAX_CONNECTIONS, OriginPolicy, bearer_token, serve_connection, with_cutoff};
use crate::mcp::McpServerError;
use crate::mcp::dispatcher::HANDSHAKE_VERSIONS;
use crate::mcp::protocol;
use crate::nats::{Feed, JetStream, Spectator};

/// Viewers (open state streams) one relay serves at once.
pub(crate) const MAX_VIEWERS: usize = 256;
/// Bytes of one request's body: the page's requests are a few hundred.
pub(crate) const MAX_REQUEST_BYTES: usize = 64 << 10;
/// Time a client has to send a request's body.
const BODY_TIMEOUT: Duration = Duration::from_secs(10);
/// Events handed to one viewer's response and not yet written (each shared with every viewer).
const VIEWER_QUEUE: usize = 4;
/// How long the reader waits for a message before looking again (the relay has nothing else
/// to do on that thread; the wait only bounds how late it notices the connection went away).
const READ_WAIT: Duration = Duration::from_secs(3600);

/// What `limina spectate --http` was asked.
#[derive(Debug, Clone)]
pub(crate) struct RelayOptions {
    pub world: String,
    pub bind: SocketAddr,
}

/// The relay's state, shared by every connection.
struct Relay {
    world: String,
    token: String,
    feed: Arc<RelayFeed>,
    origins: OriginPolicy,
    viewers: Arc<AtomicUsize>,
    nats: JetStream,
    /// Messages from NATS dropped as not what the feed carries (their count paces the warnings).
    dropped_logged: AtomicU64,
}

/// Serves the relay until the process stops (or the NATS subscription ends, an error).
/// `ready` is told the address bound and the link to open, once requests are taken.
pub(crate) fn serve(js: &JetStream, options: &RelayOptions, ready: impl FnOnce(SocketAddr, &str)) -> Result<(), McpServerError> {
    let mut spectator = Spectator::subscribe(js, &options.world, &[Feed::State, Feed::Trace])
        .map_err(|e| McpServerError::World(format!("spectate: {e}")))?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .thread_name("limina-relay")
        .enable_all()
        .build()
        .map_err(McpServerError::Runtime)?;
    let addr = options.bind.to_string();
    let listener = runtime.block_on(tokio::net::TcpListener::bind(options.bind)).map_err(|e| McpServerError::listen(&addr, e))?;
    let local = listener.local_addr().map_err(|e| McpServerError::listen(&addr, e))?;
    let loopback = local.ip().is_loopback();
    let relay = Arc::new(Relay {
        world: options.world.clone(),
        token: crate::unguessable::hex(16),
        feed: Arc::new(RelayFeed::new()),
        // Every request needs the token, so the page's own origin is safe to allow.
        origins: OriginPolicy { allowed: Vec::new(), loopback, same_origin: true },
        viewers: Arc::new(AtomicUsize::new(0)),
        nats: js.clone(),
        dropped_logged: AtomicU64::new(0),
    });
    runtime.spawn(accept(listener, Arc::clone(&relay)));
    let shown = if local.ip().is_unspecified() { SocketAddr::new([127, 0, 0, 1].into(), local.port()) } else { local };
    ready(local, &format!("http://{shown}/#token={}", relay.token));
    loop {
        match spectator.next_within(READ_WAIT) {
            Ok(Some(message)) => {
                for why in relay.feed.offer(&message) {
                    // Said once in a while, not per message: a flood of bad messages must not
                    // become a flood of log lines.
                    if relay.dropped_logged.fetch_add(1, Ordering::Relaxed).is_power_of_two() {
                        tracing::warn!("world '{}': a message from NATS was dropped: {why}", relay.world);
                    }
                }
            }
            Ok(None) => {}
            Err(e) => return Err(McpServerError::World(format!("spectate: {e}"))),
        }
    }
}

/// Accepts connections, each served with the server's limits (header timeout, the stall cut-off).
async fn accept(listener: tokio::net::TcpListener, relay: Arc<Relay>) {
    let connections = Arc::new(AtomicUsize::new(0));
    let next = AtomicU64::new(1);
    loop {
        let socket = match listener.accept().await {
            Ok((socket, _)) => socket,
            Err(e) => {
                tracing::debug!("accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(10)).await;
                continue;
            }
        };
        let Some(live) = Reservation::take(&connections, 1, MAX_CONNECTIONS) else {
            drop(socket);
            continue;
        };
        let id = next.fetch_add(1, Ordering::Relaxed);
        let Ok((socket, cutoff)) = with_cutoff(socket, id) else { continue };
        let service = Service(Arc::clone(&relay));
        tokio::spawn(async move {
            let _live = live;
            serve_connection(socket, Arc::new(cutoff), service, std::future::pending()).await;
        });
    }
}

#[derive(Clone)]
struct Service(Arc<Relay>);

impl tower::Service<http::Request<hyper::body::Incoming>> for Service {
    type Response = HttpResponse;
    type Error = BoxError;
    type Future = Pin<Box<dyn Future<Output = Result<HttpResponse, BoxError>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, req: http::Request<hyper::body::Incoming>) -> Self::Future {
        let relay = Arc::clone(&self.0);
        Box::pin(async move { Ok(relay.route(req).await) })
    }
}

impl Relay {
    async fn route(self: Arc<Self>, req: http::Request<hyper::body::Incoming>) -> HttpResponse {
        if let Err(why) = self.origins.check(&req) {
            return plain(StatusCode::FORBIDDEN, &why.to_string());
        }
        let path = req.uri().path().to_string();
        if let Some(file) = super::viewer::page_file(&path) {
            if req.method() != Method::GET && req.method() != Method::HEAD {
                return allow(plain(StatusCode::METHOD_NOT_ALLOWED, "the viewer's files take GET"), "GET, HEAD");
            }
            return super::viewer::headless(req.method(), file);
        }
        if !self.knows(req.headers()) {
            let mut refused =
                plain(StatusCode::UNAUTHORIZED, "unauthorized: present the relay's token (the #token=… of the link it printed)");
            refused.headers_mut().insert(header::WWW_AUTHENTICATE, http::HeaderValue::from_static("Bearer"));
            return refused;
        }
        match path.as_str() {
            "/mcp" => match *req.method() {
                Method::POST => self.post(req).await,
                // Sessions hold nothing here: ending one is always done.
                Method::DELETE => plain(StatusCode::OK, ""),
                _ => allow(plain(StatusCode::METHOD_NOT_ALLOWED, "the relay's MCP endpoint takes POST (and DELETE)"), "POST, DELETE"),
            },
            "/health" => self.health(),
            _ if path.starts_with("/assets/") => plain(
                StatusCode::NOT_FOUND,
                "not found: a relay serves no model files (it has only the NATS feeds; glTF entities draw as boxes)",
            ),
            _ => plain(
                StatusCode::NOT_FOUND,
                &format!("not found: {} (the viewer is at /, its MCP requests at /mcp)", crate::clip::shown(&path)),
            ),
        }
    }

    /// Whether `headers` carry the relay's token (compared in time independent of where they differ).
    fn knows(&self, headers: &http::HeaderMap) -> bool {
        let Some(given) = bearer_token(headers) else { return false };
        let (a, b) = (given.as_bytes(), self.token.as_bytes());
        a.len() == b.len() && a.iter().zip(b).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
    }

    fn health(&self) -> HttpResponse {
        let body = json!({
            "world": self.world,
            "nats": {"url": self.nats.url().to_string(), "connected": self.nats.is_connected()},
            "viewers": self.viewers.load(Ordering::Acquire),
            "state": self.feed.status(),
        });
        json_response(StatusCode::OK, &body)
    }

    async fn post(&self, req: http::Request<hyper::body::Incoming>) -> HttpResponse {
        let media = req.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or_default();
        if !media.to_ascii_lowercase().starts_with("application/json") {
            return plain(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                &format!("POST a JSON-RPC message as application/json (got Content-Type '{}')", crate::clip::shown(media)),
            );
        }
        let wants_stream = req
            .headers()
            .get_all(header::ACCEPT)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .any(|v| v.split(',').any(|m| m.trim().starts_with("text/event-stream")));
        let too_big = || {
            let why = format!("the body is over the relay's {MAX_REQUEST_BYTES}-byte limit");
            failure(StatusCode::PAYLOAD_TOO_LARGE, protocol::INVALID_REQUEST, &why)
        };
        let declared = req.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
        if declared.is_some_and(|n| n > MAX_REQUEST_BYTES as u64) {
            return too_big();
        }
        let read = tokio::time::timeout(BODY_TIMEOUT, Limited::new(req.into_body(), MAX_REQUEST_BYTES).collect()).await;
        let body = match read {
            Ok(Ok(body)) => body.to_bytes(),
            Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => return too_big(),
            Ok(Err(e)) => return plain(StatusCode::BAD_REQUEST, &format!("the body could not be read: {e}")),
            Err(_) => return plain(StatusCode::REQUEST_TIMEOUT, &format!("the body did not arrive within {BODY_TIMEOUT:?}")),
        };
        let message: Value = match serde_json::from_slice(&body) {
            Ok(message) => message,
            Err(e) => return failure(StatusCode::BAD_REQUEST, protocol::PARSE_ERROR, &format!("the body is not JSON: {e}")),
        };
        let incoming = match protocol::classify(&message) {
            Ok(incoming) => incoming,
            Err(invalid) => {
                return json_response(
                    StatusCode::BAD_REQUEST,
                    &protocol::error(invalid.id, protocol::INVALID_REQUEST, invalid.message, None),
                );
            }
        };
        let Some(id) = incoming.id else {
            // Notifications (`notifications/initialized`, cancellations) change nothing here.
            return plain(StatusCode::ACCEPTED, "");
        };
        match incoming.method.as_str() {
            "initialize" => {
                let asked = incoming.params.get("protocolVersion").and_then(Value::as_str);
                let version = asked.filter(|v| HANDSHAKE_VERSIONS.contains(v)).unwrap_or(HANDSHAKE_VERSIONS[0]);
                let result = json!({
                    "protocolVersion": version,
                    "capabilities": {"tools": {}},
                    "serverInfo": {"name": "limina-spectate", "version": env!("CARGO_PKG_VERSION")},
                    "instructions": format!(
                        "A read-only relay of world '{}' from NATS: state/subscribe streams its state, tools/call trace.tail reads its recent trace; nothing here changes the world.",
                        self.world
                    ),
                });
                let mut response = json_response(StatusCode::OK, &protocol::result(id, result));
                if let Ok(session) = http::HeaderValue::from_str(&crate::unguessable::hex(16)) {
                    response.headers_mut().insert("mcp-session-id", session);
                }
                response
            }
            "ping" => json_response(StatusCode::OK, &protocol::result(id, json!({}))),
            "tools/list" => json_response(StatusCode::OK, &protocol::result(id, json!({"tools": [trace_tail_tool()]}))),
            "tools/call" => self.call(id, &incoming.params),
            "state/subscribe" if !wants_stream => {
                plain(StatusCode::NOT_ACCEPTABLE, "state/subscribe answers with an event stream: accept text/event-stream")
            }
            "state/subscribe" => self.subscribe(id),
            other => json_response(
                StatusCode::OK,
                &protocol::error(
                    id,
                    protocol::METHOD_NOT_FOUND,
                    format!(
                        "'{}' is not served by a read-only relay (it serves initialize, ping, state/subscribe, tools/list and tools/call trace.tail); connect to the world's server to act on it",
                        crate::clip::shown(other)
                    ),
                    None,
                ),
            ),
        }
    }

    /// `tools/call`: `trace.tail` from the events held; every other tool is refused.
    fn call(&self, id: Value, params: &Value) -> HttpResponse {
        match self.trace_tail(params) {
            Ok(result) => {
                // The result's JSON as made (its events byte for byte), inside the envelope.
                let body = format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{result}}}");
                let mut response = HttpResponse::new(HttpBody::from(body));
                response.headers_mut().insert(header::CONTENT_TYPE, http::HeaderValue::from_static("application/json"));
                response
            }
            Err((code, message)) => json_response(StatusCode::OK, &protocol::error(id, code, message, None)),
        }
    }

    /// `trace.tail`'s result as JSON, or the error code and message of a refusal.
    fn trace_tail(&self, params: &Value) -> Result<String, (i64, String)> {
        let name = params.get("name").and_then(Value::as_str).unwrap_or_default();
        if name != "trace.tail" {
            let why = format!("tool '{}' is not served by a read-only relay: it serves trace.tail only", crate::clip::shown(name));
            return Err((protocol::METHOD_NOT_FOUND, why));
        }
        let arguments = params.get("arguments").cloned().unwrap_or_else(|| json!({}));
        let invalid = |why: &str| Err((protocol::INVALID_PARAMS, format!("trace.tail: {why}")));
        // Any number: a page counts in floating point, and held seqs are at most 2^53 - 1.
        let after = match arguments.get("afterSeq") {
            None | Some(Value::Null) => -1,
            Some(v) => match v.as_i64().or_else(|| v.as_f64().filter(|f| f.is_finite()).map(|f| f.clamp(-1.0, 9.0e15) as i64)) {
                Some(n) => n,
                None => return invalid("afterSeq must be a number"),
            },
        };
        let limit = match arguments.get("limit") {
            None | Some(Value::Null) => 100,
            Some(v) => match v.as_u64() {
                Some(n) => n as usize,
                None => return invalid("limit must be a whole number"),
            },
        };
        let tail = self.feed.tail(after, limit);
        // The events once (in structuredContent); the text only says what came, so an answer is
        // never twice its events' bytes.
        let text = match tail.next {
            Some(last) => format!("{} trace events, up to seq {last} (in structuredContent)", tail.count),
            None => "no trace events after afterSeq".to_string(),
        };
        let content = json!([{"type": "text", "text": text}]);
        Ok(format!("{{\"content\":{content},\"structuredContent\":{},\"isError\":false}}", tail.json))
    }

    /// `state/subscribe`: an event stream from the newest keyframe on, fed by a task that holds
    /// only the viewer's cursor and waits for room (a slow viewer skips to the next keyframe it
    /// reaches; one that stops reading is cut off by its socket).
    fn subscribe(&self, id: Value) -> HttpResponse {
        let Some(slot) = Reservation::take(&self.viewers, 1, MAX_VIEWERS) else {
            let mut busy = json_response(
                StatusCode::SERVICE_UNAVAILABLE,
                &protocol::error(id, protocol::BUSY, format!("the relay serves {MAX_VIEWERS} viewers, its limit; retry later"), None),
            );
            busy.headers_mut().insert(header::RETRY_AFTER, http::HeaderValue::from_static("5"));
            return busy;
        };
        let (tx, body) = super::sse::fed(VIEWER_QUEUE);
        let feed = Arc::clone(&self.feed);
        tokio::spawn(async move {
            let _slot = slot;
            let mut changed = feed.watch();
            let mut cursor = Cursor::default();
            loop {
                changed.borrow_and_update();
                let events = feed.read(&mut cursor);
                if events.is_empty() {
                    tokio::select! {
                        seen = changed.changed() => if seen.is_err() { return },
                        () = tx.closed() => return,
                    }
                    continue;
                }
                for event in events {
                    if tx.send(event).await.is_err() {
                        return;
                    }
                }
            }
        });
        let mut response = HttpResponse::new(HttpBody::new(body));
        super::http::set_stream_headers(&mut response);
        response
    }
}

/// `trace.tail` as `tools/list` names it.
fn trace_tail_tool() -> Value {
    json!({
        "name": "trace.tail",
        "description": "The world's most recent trace events (the last 1000 the relay has seen from NATS).",
        "inputSchema": {"type": "object", "properties": {
            "afterSeq": {"type": "integer", "description": "Only events numbered after this."},
            "limit": {"type": "integer", "minimum": 0, "description": "At most this many events (default 100)."},
        }},
        "annotations": {"readOnlyHint": true},
    })
}

fn allow(mut response: HttpResponse, methods: &'static str) -> HttpResponse {
    response.headers_mut().insert(header::ALLOW, http::HeaderValue::from_static(methods));
    response
}

fn failure(status: StatusCode, code: i64, message: &str) -> HttpResponse {
    json_response(status, &protocol::error(Value::Null, code, message, None))
}
