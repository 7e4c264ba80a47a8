//! The tokio side of the WebSocket server: accepting sockets, the bearer-token check, the
//! JSON-RPC handlers, admission, and cutting off a client that stopped reading.
//!
//! Handlers never touch the world: each admitted call becomes a message to the engine thread and
//! awaits its answer there. Every answer is watched until the connection's send buffer takes it;
//! an answer that waits longer than `STALL_TIME` means the client stopped reading, and the
//! connection is cut off (its socket shut down), which ends its calls, its subscription and its
//! session. We accept sockets ourselves (rather than with jsonrpsee's `Server::start`) only to
//! keep that handle on each one.

use std::future::Future;
use std::net::Shutdown;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, mpsc};
use std::task::{Context, Poll};
use std::time::Duration;

use jsonrpsee::core::BoxError;
use jsonrpsee::server::{HttpResponse, Methods, RpcModule, ServerConfig, StopHandle};
use jsonrpsee::types::ErrorObjectOwned;
use jsonrpsee::{ResponsePayload, SubscriptionMessage, SubscriptionSink};
use serde_json::{Map, Value, json};

use super::admission::{Admission, CallPermit, Load, request_bytes};
use super::engine_loop::{DeltaSink, Encoded, EngineMsg, Undelivered, Work};
use super::outgoing::{Metered, Owed};
use super::tokens::{TokenCheck, Tokens};
use super::worlds::{World, WorldName, WorldSet};
use crate::mcp::McpServerError;
use crate::mcp::dispatcher::RpcError;
use crate::mcp::protocol;
use crate::policy::Grant;

/// Methods served over WebSocket (state sync has its own subscription).
const METHODS: [&str; 9] =
    ["initialize", "ping", "server/discover", "tools/list", "listTools", "tools/call", "callTool", "shutdown", "aoi/declare"];

pub(crate) use super::outgoing::STALL_TIME;

/// Shuts one client's socket from our side. Shutting the socket (not just dropping our handles)
/// wakes every task blocked on it, including one stuck writing to a peer that never reads.
#[derive(Debug)]
pub(super) struct Cutoff {
    conn: u64,
    socket: Option<std::net::TcpStream>,
    done: AtomicBool,
    /// What is queued toward the client and not yet taken by its socket.
    owed: Owed,
}

impl Cutoff {
    fn new(conn: u64, socket: Option<std::net::TcpStream>) -> Self {
        Self { conn, socket, done: AtomicBool::new(false), owed: Owed::default() }
    }

    pub fn owed(&self) -> &Owed {
        &self.owed
    }

    pub fn is_cut(&self) -> bool {
        self.done.load(Ordering::Acquire)
    }

    /// Cuts the connection off (once; later calls do nothing) and says why on stderr.
    pub fn cut(&self, why: &str) {
        if self.done.swap(true, Ordering::AcqRel) {
            return;
        }
        tracing::warn!("connection {} cut off: {why}", self.conn);
        if let Some(socket) = &self.socket {
            let _ = socket.shutdown(Shutdown::Both);
        }
        // A reader held back and answers waiting for room learn it now.
        self.owed.release();
    }
}

impl Drop for Cutoff {
    fn drop(&mut self) {
        // The last holder of the connection is gone (its socket, calls, streams, queued answers):
        // whatever it was sent and did not read has been freed. Tests wait for this line.
        tracing::debug!("connection {} released ({} bytes queued for it were dropped)", self.conn, self.owed.bytes());
    }
}

/// One connection, as the HTTP layer saw its upgrade. Dropped when the connection and all its
/// in-flight calls are gone, which tells the engine to forget its session.
struct ConnectionInner {
    id: u64,
    granted: Grant,
    /// Its world's engine and admission.
    engine: mpsc::Sender<EngineMsg>,
    admission: Arc<Admission>,
    load: Arc<Load>,
    cutoff: Arc<Cutoff>,
    /// A refused call's answer is being watched (one watcher is enough to catch a non-reader).
    watching_refusal: Arc<AtomicBool>,
}

impl Drop for ConnectionInner {
    fn drop(&mut self) {
        let _ = self.engine.send(EngineMsg::Closed { conn: self.id });
    }
}

#[derive(Clone)]
struct Connection(Arc<ConnectionInner>);

impl Connection {
    /// Hands a call's answer to the connection's send queue once it has room in bytes (waiting
    /// longer than `STALL_TIME` means the client stopped reading: it is cut off), then watches it
    /// until the send buffer takes it, cutting the client off if that takes longer than
    /// `STALL_TIME`. `permit` is released when the watch ends, so the answer counts against the
    /// connection's calls in flight until then.
    async fn deliver(&self, result: Result<Value, RpcError>, permit: CallPermit) -> ResponsePayload<'static, Answer> {
        let (payload, len) = match result.map(|value| serde_json::value::to_raw_value(&value)) {
            Ok(Ok(raw)) if raw.get().len() > MAX_ANSWER_BYTES => {
                let e = internal(&format!(
                    "the answer is {} bytes, over the {MAX_ANSWER_BYTES}-byte limit of one message; ask for less (a limit, a filter, a page)",
                    raw.get().len()
                ));
                (ResponsePayload::error(e), 0)
            }
            Ok(Ok(raw)) => {
                let len = raw.get().len();
                (ResponsePayload::success(raw), len)
            }
            Ok(Err(e)) => (ResponsePayload::error(internal(&format!("the answer could not be encoded: {e}"))), 0),
            Err(e) => {
                let len = e.message.len();
                (ResponsePayload::error(to_error_object(e)), len)
            }
        };
        let cutoff = Arc::clone(&self.0.cutoff);
        let owed = cutoff.owed();
        // Held while it waits, so the engine makes no more answers for a client that owes this
        // much (its calls wait: `Work::ready`).
        let held = owed.hold(len);
        if !owed.fits(len) && tokio::time::timeout(STALL_TIME, owed.room_for(len)).await.is_err() {
            cutoff.cut(&format!(
                "an answer of {len} bytes waited {} s for room ({} bytes queued for it and not taken): the client stopped reading",
                STALL_TIME.as_secs(),
                owed.bytes()
            ));
        }
        owed.queued(len);
        drop(held);
        let (payload, delivered) = payload.notify_on_completion();
        tokio::spawn(async move {
            let _permit = permit;
            if tokio::time::timeout(STALL_TIME, delivered).await.is_err() {
                cutoff.cut(&format!("an answer waited {} s for room in its send queue (the client stopped reading)", STALL_TIME.as_secs()));
            }
        });
        payload
    }

    fn refuse(&self, e: RpcError) -> ResponsePayload<'static, Answer> {
        let len = e.message.len();
        let payload = ResponsePayload::error(to_error_object(e));
        self.0.cutoff.owed().queued(len);
        if self.0.watching_refusal.swap(true, Ordering::AcqRel) {
            return payload;
        }
        let watching = Arc::clone(&self.0.watching_refusal);
        let (payload, delivered) = payload.notify_on_completion();
        let cutoff = Arc::clone(&self.0.cutoff);
        tokio::spawn(async move {
            if tokio::time::timeout(STALL_TIME, delivered).await.is_err() {
                cutoff.cut(&format!(
                    "a busy answer waited {} s for room in its send queue (the client stopped reading)",
                    STALL_TIME.as_secs()
                ));
            }
            watching.store(false, Ordering::Release);
        });
        payload
    }
}

/// What serves one world's clients: the process's tokens and default grant, its connection
/// numbers, and the world's engine queue.
#[derive(Clone)]
pub(crate) struct Shared {
    pub tokens: Option<Arc<Tokens>>,
    /// What clients get without a tokens file (`--profile`, `--grant`).
    pub default_grant: Grant,
    pub engine: mpsc::Sender<EngineMsg>,
    pub next: Arc<AtomicU64>,
    /// The world this serves (what a scoped token is checked against).
    pub world: WorldName,
}

impl Shared {
    /// What the request's bearer token grants on this world (without a tokens file: the default
    /// grant, to every request).
    pub fn check(&self, headers: &http::HeaderMap) -> TokenCheck {
        match &self.tokens {
            None => TokenCheck::Granted(self.default_grant),
            Some(tokens) => tokens.check(bearer_token(headers), &self.world),
        }
    }

    /// The answer to a request whose token does not reach this world: 401 for no known token
    /// (and the connection ends: it may not keep its slot by asking again), 403 for a token
    /// scoped to other worlds.
    pub fn refusal(&self, check: TokenCheck, what: &str) -> HttpResponse {
        token_refusal(check, &self.world, what)
    }
}

/// The answer to a request whose token does not reach `world` (see `Shared::refusal`).
fn token_refusal(check: TokenCheck, world: &WorldName, what: &str) -> HttpResponse {
    if check == TokenCheck::OtherWorld {
        return super::http::plain(
            http::StatusCode::FORBIDDEN,
            &format!("forbidden: this token is not for world '{world}' (its line in the tokens file names its worlds)"),
        );
    }
    let mut refused = super::http::plain(http::StatusCode::UNAUTHORIZED, &format!("unauthorized: {what}"));
    refused.headers_mut().insert(http::header::WWW_AUTHENTICATE, http::HeaderValue::from_static("Bearer"));
    refused.headers_mut().insert(http::header::CONNECTION, http::HeaderValue::from_static("close"));
    refused
}

/// The bearer-token check around jsonrpsee's service for one TCP connection. The world is the
/// one `Router` resolved from the upgrade's path and put in the request's extensions.
#[derive(Clone)]
struct Auth<S> {
    inner: S,
    cutoff: Arc<Cutoff>,
}

impl<S, B> tower::Service<http::Request<B>> for Auth<S>
where
    S: tower::Service<http::Request<B>, Response = HttpResponse, Error = BoxError>,
    S::Future: Send + 'static,
{
    type Response = HttpResponse;
    type Error = BoxError;
    type Future = Pin<Box<dyn Future<Output = Result<HttpResponse, BoxError>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut req: http::Request<B>) -> Self::Future {
        let Some(world) = req.extensions_mut().remove::<Arc<World>>() else {
            return Box::pin(std::future::ready(Ok(super::http::plain(http::StatusCode::NOT_FOUND, "no world for this upgrade"))));
        };
        // Without a known token the connection ends: one must not keep its slot alive by asking
        // again and again (520 such connections locked every client out).
        let granted = match world.shared.check(req.headers()) {
            TokenCheck::Granted(granted) => granted,
            refused => return Box::pin(std::future::ready(Ok(world.shared.refusal(refused, "present a known bearer token")))),
        };
        world.status.connected(&self.cutoff);
        let inner = ConnectionInner {
            id: self.cutoff.conn,
            granted,
            engine: world.shared.engine.clone(),
            admission: Arc::clone(&world.admission),
            load: Arc::new(Load::default()),
            cutoff: Arc::clone(&self.cutoff),
            watching_refusal: Arc::new(AtomicBool::new(false)),
        };
        req.extensions_mut().insert(Connection(Arc::new(inner)));
        Box::pin(self.inner.call(req))
    }
}

/// The token of an `Authorization: Bearer TOKEN` header (the scheme in any case, as RFC 9110
/// allows), or None.
pub(super) fn bearer_token(headers: &http::HeaderMap) -> Option<&str> {
    let value = headers.get(http::header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.trim().split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

/// Why `OriginPolicy` turned a request away (the body of its 403).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum OriginRefusal {
    #[error("forbidden: requests from origin '{origin}' are not allowed (loopback origins are; add others with --allow-origin)")]
    Origin { origin: String },
    #[error("forbidden: a request must name its Host (the server listens on loopback)")]
    NoHost,
    #[error("forbidden: Host '{host}' does not name this machine (the server listens on loopback)")]
    ForeignHost { host: String },
    #[error("forbidden: a request may carry one {header} header, not several")]
    Repeated { header: &'static str },
}

/// Which browser origins may reach the server. Browsers send `Origin` on cross-site requests
/// and WebSocket upgrades; a page on another site (or one that rebinds its DNS name to
/// 127.0.0.1) must not drive the world. Requests without `Origin` come from non-browser
/// clients and pass; the Host header must name this machine when the server binds loopback.
#[derive(Debug, Clone, Default)]
pub(crate) struct OriginPolicy {
    /// Extra allowed origins (`--allow-origin`), exactly as browsers send them.
    pub allowed: Vec<String>,
    /// The server binds a loopback address: Host must be a loopback name too.
    pub loopback: bool,
    /// Pages from the origin the request's Host names are allowed (the server's own viewer):
    /// set when tokens are required or the bind is loopback (see `check`).
    pub same_origin: bool,
}

impl OriginPolicy {
    /// Whether `host` (as in a URL authority, port optional) names this machine.
    fn is_loopback_host(host: &str) -> bool {
        let name = if let Some(rest) = host.strip_prefix('[') {
            // `[::1]` or `[::1]:port`, nothing else after the bracket.
            match rest.split_once(']') {
                Some((name, "")) => name,
                Some((name, port)) if port.strip_prefix(':').is_some_and(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit())) => {
                    name
                }
                _ => return false,
            }
        } else {
            host.rsplit_once(':').filter(|(_, port)| port.chars().all(|c| c.is_ascii_digit())).map_or(host, |(name, _)| name)
        };
        name.eq_ignore_ascii_case("localhost") || name == "::1" || name.parse::<std::net::Ipv4Addr>().is_ok_and(|ip| ip.is_loopback())
    }

    /// Refuses a request from a foreign origin (or to a foreign Host), naming what was refused.
    pub(crate) fn check<B>(&self, req: &http::Request<B>) -> Result<(), OriginRefusal> {
        let headers = req.headers();
        // Judged on one value each: a second Origin or Host (which no browser sends) must not
        // ride behind an allowed first one.
        for (name, header) in [(http::header::ORIGIN, "Origin"), (http::header::HOST, "Host")] {
            if headers.get_all(name).iter().nth(1).is_some() {
                return Err(OriginRefusal::Repeated { header });
            }
        }
        // HTTP/2 names the host in the URI's authority instead of a Host header.
        let host = match headers.get(http::header::HOST) {
            Some(host) => host.to_str().unwrap_or("(not text)").to_string(),
            None => req.uri().authority().map(|a| a.as_str().to_string()).unwrap_or_default(),
        };
        if let Some(origin) = headers.get(http::header::ORIGIN) {
            let origin = origin.to_str().unwrap_or("(not text)");
            let (scheme, authority) = origin.split_once("://").unwrap_or_default();
            // The server's own page (the viewer at `/`) is same-origin with the Host it was
            // reached by, loopback or not. A rebound foreign name (DNS rebinding) is same-origin
            // too, so this holds only where that page gets nothing: with tokens it has none to
            // present; without them, only on a loopback bind, where Host must be a loopback name
            // (below). A tokenless server on another bind needs `--allow-origin` for its page.
            let same_origin = self.same_origin
                && !authority.is_empty()
                && (scheme == "http" || scheme == "https")
                && authority.eq_ignore_ascii_case(&host);
            let allowed =
                same_origin || self.allowed.iter().any(|a| a == origin) || (!authority.is_empty() && Self::is_loopback_host(authority));
            if !allowed {
                return Err(OriginRefusal::Origin { origin: origin.to_string() });
            }
        }
        if self.loopback {
            if host.is_empty() {
                return Err(OriginRefusal::NoHost);
            }
            if !Self::is_loopback_host(&host) {
                return Err(OriginRefusal::ForeignHost { host });
            }
        }
        Ok(())
    }
}

/// Routes each request on a connection: `/health` and `/admin/…` to the server's own routes;
/// everything else to a world — the one a `/w/{world}/` prefix names, else the default world —
/// where WebSocket upgrades go to jsonrpsee (behind the token check, echoing the `mcp`
/// subprotocol the client asks for), `mcp` to Streamable HTTP, and the viewer's paths to the
/// viewer. Foreign origins are refused before any of it.
#[derive(Clone)]
struct Router<S> {
    ws: Auth<S>,
    routes: Arc<Routes>,
}

/// What serves the plain HTTP side of the port, shared by all connections.
pub(super) struct Routes {
    pub worlds: Arc<WorldSet>,
    pub viewer: Arc<super::viewer::Viewer>,
    pub admin: super::admin::Admin,
    pub origins: OriginPolicy,
    /// In a fleet: who serves the worlds this process does not.
    pub fleet: Option<Arc<super::fleet::Fleet>>,
}

/// The prefix of a world's own paths.
const WORLD_PREFIX: &str = "/w/";

/// Splits `/w/{world}/rest` into the world and `/rest`; a path without the prefix is the default
/// world's, whole. `Err` carries the answer for a path that names no world properly.
fn world_of(path: &str) -> Result<(WorldName, &str), Box<HttpResponse>> {
    let Some(named) = path.strip_prefix(WORLD_PREFIX) else { return Ok((WorldName::main(), path)) };
    let (name, rest) = named.find('/').map_or((named, ""), |at| named.split_at(at));
    let name = WorldName::parse(name).map_err(|e| Box::new(super::http::plain(http::StatusCode::NOT_FOUND, &format!("not found: {e}"))))?;
    if rest.is_empty() {
        // The viewer's relative links need the slash.
        let mut moved = super::http::plain(http::StatusCode::PERMANENT_REDIRECT, "");
        if let Ok(to) = http::HeaderValue::from_str(&format!("{WORLD_PREFIX}{name}/")) {
            moved.headers_mut().insert(http::header::LOCATION, to);
        }
        return Err(Box::new(moved));
    }
    Ok((name, rest))
}

impl<S> tower::Service<http::Request<hyper::body::Incoming>> for Router<S>
where
    S: tower::Service<http::Request<hyper::body::Incoming>, Response = HttpResponse, Error = BoxError>,
    S::Future: Send + 'static,
{
    type Response = HttpResponse;
    type Error = BoxError;
    type Future = Pin<Box<dyn Future<Output = Result<HttpResponse, BoxError>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        self.ws.poll_ready(cx)
    }

    fn call(&mut self, mut req: http::Request<hyper::body::Incoming>) -> Self::Future {
        if let Err(why) = self.routes.origins.check(&req) {
            return Box::pin(std::future::ready(Ok(super::http::plain(http::StatusCode::FORBIDDEN, &why.to_string()))));
        }
        if super::admin::Admin::owns(req.uri().path()) {
            let routes = Arc::clone(&self.routes);
            return Box::pin(async move { Ok(routes.admin.handle(&routes.worlds, req).await) });
        }
        let path = req.uri().path().to_string();
        let (name, rest) = match world_of(&path) {
            Ok(found) => found,
            Err(answer) => return Box::pin(std::future::ready(Ok(*answer))),
        };
        // A browser page from an allowed origin may read the answers (CORS); its preflight is
        // answered before the token check, as browsers send no credentials with it.
        let origin = req.headers().get(http::header::ORIGIN).cloned();
        if req.method() == http::Method::OPTIONS && rest == super::http::MCP_PATH {
            let mut preflight = super::http::plain(http::StatusCode::NO_CONTENT, "");
            allow_origin(&mut preflight, origin.as_ref());
            let headers = preflight.headers_mut();
            headers.insert(http::header::ACCESS_CONTROL_ALLOW_METHODS, http::HeaderValue::from_static("GET, POST, DELETE"));
            headers.insert(
                http::header::ACCESS_CONTROL_ALLOW_HEADERS,
                http::HeaderValue::from_static(
                    "content-type, accept, authorization, mcp-session-id, mcp-protocol-version, mcp-method, mcp-name, last-event-id",
                ),
            );
            headers.insert(http::header::ACCESS_CONTROL_MAX_AGE, http::HeaderValue::from_static("600"));
            return Box::pin(std::future::ready(Ok(preflight)));
        }
        // The page's own files are the same for every world and hold nothing: they are served
        // for any world name, so they tell nobody which worlds exist.
        if super::viewer::Viewer::is_page(rest) && !jsonrpsee::server::ws::is_upgrade_request(&req) {
            let viewer = Arc::clone(&self.routes.viewer);
            let rest = rest.to_string();
            return Box::pin(async move { Ok(viewer.handle(req, &rest, None).await) });
        }
        // With tokens, a request learns whether a world exists only once its token reaches it.
        if let Some(tokens) = &self.routes.admin.tokens {
            let check = tokens.check(bearer_token(req.headers()), &name);
            if !matches!(check, TokenCheck::Granted(_)) {
                return Box::pin(std::future::ready(Ok(token_refusal(check, &name, "present a known bearer token"))));
            }
        }
        if let Some(fleet) = &self.routes.fleet {
            let here = self.routes.worlds.get(&name).is_some();
            if let Some(answer) = super::fleet::route(fleet, &name, rest, here, req.uri()) {
                return Box::pin(std::future::ready(Ok(answer)));
            }
        }
        let Some(world) = self.routes.worlds.get(&name) else {
            let answer = super::http::plain(http::StatusCode::NOT_FOUND, &format!("not found: no world '{name}' on this server"));
            return Box::pin(std::future::ready(Ok(answer)));
        };
        if world.status.state() != super::worlds::WorldState::Serving {
            let answer = super::http::plain(http::StatusCode::SERVICE_UNAVAILABLE, &world.stopped());
            return Box::pin(std::future::ready(Ok(answer)));
        }
        if jsonrpsee::server::ws::is_upgrade_request(&req) {
            let wants_mcp = req
                .headers()
                .get_all(http::header::SEC_WEBSOCKET_PROTOCOL)
                .iter()
                .filter_map(|v| v.to_str().ok())
                .any(|v| v.split(',').any(|p| p.trim() == "mcp"));
            req.extensions_mut().insert(world);
            let upgrade = self.ws.call(req);
            return Box::pin(async move {
                let mut response = upgrade.await?;
                if wants_mcp && response.status() == http::StatusCode::SWITCHING_PROTOCOLS {
                    response.headers_mut().insert(http::header::SEC_WEBSOCKET_PROTOCOL, http::HeaderValue::from_static("mcp"));
                }
                Ok(response)
            });
        }
        if rest == super::http::MCP_PATH {
            let state = Arc::clone(&world.http);
            let connection = Arc::clone(&self.ws.cutoff);
            return Box::pin(async move {
                let mut response = super::http::handle(state, req, connection).await;
                allow_origin(&mut response, origin.as_ref());
                Ok(response)
            });
        }
        if super::viewer::Viewer::owns(rest) {
            let viewer = Arc::clone(&self.routes.viewer);
            let rest = rest.to_string();
            return Box::pin(async move { Ok(viewer.handle(req, &rest, Some(&world.shared)).await) });
        }
        let path = crate::clip::shown(&path);
        Box::pin(std::future::ready(Ok(super::http::plain(
            http::StatusCode::NOT_FOUND,
            &format!(
                "not found: {path} (the viewer is at /, MCP at {} over HTTP, a world's at /w/WORLD/mcp; WebSocket clients upgrade on any path)",
                super::http::MCP_PATH
            ),
        ))))
    }
}

/// Lets the page at `origin` (already checked) read `response` and its session header.
fn allow_origin(response: &mut HttpResponse, origin: Option<&http::HeaderValue>) {
    let Some(origin) = origin else { return };
    let headers = response.headers_mut();
    headers.insert(http::header::ACCESS_CONTROL_ALLOW_ORIGIN, origin.clone());
    headers.insert(http::header::VARY, http::HeaderValue::from_static("Origin"));
    headers.insert(http::header::ACCESS_CONTROL_EXPOSE_HEADERS, http::HeaderValue::from_static("mcp-session-id"));
}

/// Accepts connections until `stop` fires, serving each with `methods` behind the token check.
pub(super) async fn accept(
    listener: tokio::net::TcpListener,
    config: ServerConfig,
    methods: Methods,
    next: Arc<AtomicU64>,
    routes: Arc<Routes>,
    stop: StopHandle,
) {
    let builder = jsonrpsee::server::Server::builder().set_config(config).to_service_builder();
    let connections = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    loop {
        let socket = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((socket, _)) => socket,
                Err(e) => {
                    // Out of descriptors, say: wait a little instead of spinning on the error.
                    tracing::debug!("accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    continue;
                }
            },
            () = stop.clone().shutdown() => break,
        };
        // Connections are bounded: past the limit a new one is closed at once, before it costs
        // a task or a buffer (each open connection holds one place until it ends).
        let Some(live) = super::admission::Reservation::take(&connections, 1, MAX_CONNECTIONS) else {
            tracing::debug!("connection refused: {MAX_CONNECTIONS} connections are open");
            drop(socket);
            continue;
        };
        let id = next.fetch_add(1, Ordering::Relaxed);
        let (socket, cutoff) = match with_cutoff(socket, id) {
            Ok(pair) => pair,
            Err(e) => {
                tracing::debug!("cannot serve connection {id}: {e}");
                continue;
            }
        };
        let cutoff = Arc::new(cutoff);
        let ws = Auth { inner: builder.clone().build(methods.clone(), stop.clone()), cutoff: Arc::clone(&cutoff) };
        let service = Router { ws, routes: Arc::clone(&routes) };
        let serving = serve_connection(socket, cutoff, service, stop.clone().shutdown());
        tokio::spawn(async move {
            let _live = live;
            let _ = serving.await;
        });
    }
}

/// Time a client has to send a request's headers (also the first request's, and the next one's
/// on a kept-alive connection): a connection that holds a slot without asking is let go.
pub(crate) const HEADER_TIMEOUT: Duration = Duration::from_secs(5);

/// Serves one connection (HTTP/1, with upgrades) until it ends or the server stops,
/// with `HEADER_TIMEOUT` on request headers, on a socket that cuts off a client that stops
/// reading (`Metered`).
pub(super) async fn serve_connection<S>(socket: tokio::net::TcpStream, cutoff: Arc<Cutoff>, service: S, stopped: impl Future<Output = ()>)
where
    S: tower::Service<http::Request<hyper::body::Incoming>, Response = HttpResponse, Error = BoxError> + Clone + Send + 'static,
    S::Future: Send + 'static,
{
    // hyper's header timer starts with the first byte: a connection that sends nothing at all
    // is let go here.
    if !matches!(tokio::time::timeout(HEADER_TIMEOUT, socket.readable()).await, Ok(Ok(()))) {
        return;
    }
    let io = hyper_util::rt::TokioIo::new(Metered::new(socket, cutoff));
    let service = hyper_util::service::TowerToHyperService::new(service);
    // HTTP/1 only: every limit here (header timeout, a dropped event stream closing its
    // connection) assumes one request at a time per connection, which HTTP/2 breaks. (hyper's
    // own HTTP/1 server: the auto builder sniffs for HTTP/2 whatever it is told when upgrades
    // are on.)
    let connection = hyper::server::conn::http1::Builder::new()
        .timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(HEADER_TIMEOUT)
        .serve_connection(io, service)
        .with_upgrades();
    tokio::pin!(connection, stopped);
    tokio::select! {
        result = &mut connection => {
            if let Err(e) = result {
                tracing::debug!("connection ended: {e}");
            }
        }
        () = &mut stopped => {
            connection.as_mut().graceful_shutdown();
            let _ = connection.await;
        }
    }
}

/// Open connections the server accepts at once.
pub(crate) const MAX_CONNECTIONS: usize = 512;

/// Keeps a second handle on the socket, for `Cutoff`.
pub(super) fn with_cutoff(socket: tokio::net::TcpStream, id: u64) -> std::io::Result<(tokio::net::TcpStream, Cutoff)> {
    socket.set_nodelay(true)?;
    let socket = socket.into_std()?;
    let handle = socket.try_clone()?;
    Ok((tokio::net::TcpStream::from_std(socket)?, Cutoff::new(id, Some(handle))))
}

/// Bytes of one answer's result, at most (it is refused past that, naming the limit).
pub(crate) const MAX_ANSWER_BYTES: usize = 16 << 20;

/// A call's result, encoded once (its size is what the connection's send queue is charged).
type Answer = Box<serde_json::value::RawValue>;

fn to_error_object(e: RpcError) -> ErrorObjectOwned {
    ErrorObjectOwned::owned(e.code as i32, e.message, e.data)
}

fn internal(message: &str) -> ErrorObjectOwned {
    ErrorObjectOwned::owned(protocol::INTERNAL_ERROR as i32, message, None::<()>)
}

fn parse_params(params: &jsonrpsee::types::Params<'_>) -> Result<Value, ErrorObjectOwned> {
    match params.as_str() {
        None => Ok(Value::Object(Map::new())),
        Some(_) => params.parse().map_err(|e: ErrorObjectOwned| {
            // The parser's reason is the error's data, a JSON string; its Display is a Rust
            // debug dump, which is no message for a client.
            let reason = e.data().and_then(|d| serde_json::from_str::<String>(d.get()).ok()).unwrap_or_else(|| e.message().to_string());
            ErrorObjectOwned::owned(protocol::INVALID_PARAMS as i32, format!("invalid params: {}", crate::clip::shown(&reason)), None::<()>)
        }),
    }
}

/// A jsonrpsee subscription as the engine sees it.
struct WsSubscriber {
    sink: SubscriptionSink,
    cutoff: Arc<Cutoff>,
    /// Tells the subscription's task to end it, and why.
    end: Option<tokio::sync::oneshot::Sender<RpcError>>,
}

impl DeltaSink for WsSubscriber {
    fn has_room(&self) -> bool {
        self.sink.capacity() > 0 && self.cutoff.owed().has_room()
    }

    fn is_closed(&self) -> bool {
        self.sink.is_closed()
    }

    fn send(&mut self, message: &Encoded) -> Result<(), Undelivered> {
        // The params were encoded once for every subscriber; this only frames them.
        let frame =
            SubscriptionMessage::new(&message.method, self.sink.subscription_id(), &message.params).map_err(|_| Undelivered::Full)?;
        self.sink.try_send(frame).map_err(|e| match e {
            jsonrpsee::core::server::TrySendError::Full(_) => Undelivered::Full,
            jsonrpsee::core::server::TrySendError::Closed(_) => Undelivered::Closed,
        })?;
        self.cutoff.owed().queued(message.len());
        Ok(())
    }

    fn cut_off(&self, why: &str) {
        self.cutoff.cut(why);
    }

    fn end(&mut self, why: &RpcError) {
        if let Some(end) = self.end.take() {
            let _ = end.send(why.clone());
        }
    }
}

/// Registering a method fails only for a name registered twice (a bug); the cause is boxed so
/// no jsonrpsee type leaves `mcp`.
impl From<jsonrpsee::core::RegisterMethodError> for McpServerError {
    fn from(e: jsonrpsee::core::RegisterMethodError) -> Self {
        McpServerError::Register(Box::new(e))
    }
}

/// The JSON-RPC methods of every world's WebSocket clients: each call goes to the world its
/// connection was upgraded into (`ConnectionInner`).
pub(super) fn build_module() -> Result<RpcModule<()>, McpServerError> {
    let mut module = RpcModule::new(());
    for method in METHODS {
        module.register_async_method(method, move |params, _, ext| async move {
            let Some(conn) = ext.get::<Connection>().cloned() else {
                return ResponsePayload::<Answer>::error(internal("connection has no session"));
            };
            let permit = match conn.0.admission.admit(&conn.0.load, request_bytes(params.as_str())) {
                Ok(permit) => permit,
                Err(busy) => return conn.refuse(busy.to_rpc_error()),
            };
            let params = match parse_params(&params) {
                Ok(p) => p,
                Err(e) => return ResponsePayload::error(e),
            };
            let (reply, answer) = tokio::sync::oneshot::channel();
            let work = Work::Call { method: method.to_string(), params, reply, gate: Some(Arc::clone(&conn.0.cutoff)) };
            if conn.0.engine.send(EngineMsg::Work { conn: conn.0.id, granted: conn.0.granted, work }).is_err() {
                return ResponsePayload::error(internal("the world has stopped (retired, or it failed)"));
            }
            let result = answer.await.map_or_else(
                |_| {
                    Err(RpcError {
                        code: protocol::INTERNAL_ERROR,
                        message: "the world stopped before answering (retired, or it failed)".into(),
                        data: None,
                    })
                },
                |a| a.result,
            );
            conn.deliver(result, permit).await
        })?;
    }
    module.register_subscription("state/subscribe", "state/delta", "state/unsubscribe", |_params, pending, _, ext| async move {
        let Some(conn) = ext.get::<Connection>().cloned() else {
            pending.reject(internal("connection has no session")).await;
            return Ok(());
        };
        let permit = match conn.0.admission.admit(&conn.0.load, 0) {
            Ok(permit) => permit,
            Err(busy) => {
                pending.reject(to_error_object(busy.to_rpc_error())).await;
                return Ok(());
            }
        };
        // The read door decides on the engine thread before anything is accepted: a refusal is
        // the subscription's JSON-RPC error, naming the reason.
        let (reply, answer) = tokio::sync::oneshot::channel();
        let work = Work::Authorize { reply };
        if conn.0.engine.send(EngineMsg::Work { conn: conn.0.id, granted: conn.0.granted, work }).is_err() {
            pending.reject(internal("the world has stopped (retired, or it failed)")).await;
            return Ok(());
        }
        let grant = match answer.await {
            Ok(Ok(grant)) => grant,
            Ok(Err(refused)) => {
                pending.reject(to_error_object(refused)).await;
                return Ok(());
            }
            Err(_) => {
                pending.reject(internal("the engine dropped the subscription")).await;
                return Ok(());
            }
        };
        let sink = pending.accept().await?;
        let closed = sink.clone();
        let (end, ended) = tokio::sync::oneshot::channel();
        let subscriber = Box::new(WsSubscriber { sink, cutoff: Arc::clone(&conn.0.cutoff), end: Some(end) });
        let work = Work::Subscribe { sink: subscriber, permit, grant };
        conn.0.engine.send(EngineMsg::Work { conn: conn.0.id, granted: conn.0.granted, work }).map_err(|_| "the world has stopped")?;
        // Keep the subscription (and the connection's session) alive until the client leaves,
        // or until the engine ends it (its reader was revoked): then its last notification
        // carries the error, and jsonrpsee clients see the subscription close.
        tokio::select! {
            () = closed.closed() => Ok(()),
            Ok(why) = ended => {
                let error = serde_json::value::to_raw_value(&json!({"code": why.code, "message": why.message}))
                    .map_err(|e| e.to_string())?;
                Err(jsonrpsee::core::SubscriptionError::from_json(error))
            }
        }
    })?;
    // The context is captured by the handlers; the module's own is not needed past here.
    Ok(module.remove_context())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asking(host: &str, origin: Option<&str>) -> http::Request<()> {
        let mut req = http::Request::builder().uri("/mcp").header(http::header::HOST, host);
        if let Some(origin) = origin {
            req = req.header(http::header::ORIGIN, origin);
        }
        req.body(()).unwrap()
    }

    #[test]
    fn the_servers_own_page_is_same_origin_only_where_that_is_safe() {
        let named = OriginPolicy { allowed: Vec::new(), loopback: false, same_origin: true };
        assert_eq!(named.check(&asking("viewer.lan:7777", Some("http://viewer.lan:7777"))), Ok(()));
        assert_eq!(named.check(&asking("viewer.lan:7777", Some("https://Viewer.LAN:7777"))), Ok(()), "names compare without case");
        for foreign in ["http://viewer.lan:7778", "http://evil.example", "null", "ftp://viewer.lan:7777"] {
            assert!(named.check(&asking("viewer.lan:7777", Some(foreign))).is_err(), "{foreign}");
        }
        let tokenless = OriginPolicy { same_origin: false, ..named.clone() };
        assert!(tokenless.check(&asking("viewer.lan:7777", Some("http://viewer.lan:7777"))).is_err(), "a rebound name would pass");
        let loopback = OriginPolicy { allowed: Vec::new(), loopback: true, same_origin: true };
        assert!(
            matches!(
                loopback.check(&asking("evil.example:7777", Some("http://evil.example:7777"))),
                Err(OriginRefusal::ForeignHost { .. })
            ),
            "same-origin never lets a foreign Host onto a loopback server"
        );
        assert_eq!(loopback.check(&asking("127.0.0.1:7777", None)), Ok(()));
    }

    #[test]
    fn a_second_origin_or_host_is_refused_whatever_the_first_says() {
        let policy = OriginPolicy { allowed: Vec::new(), loopback: true, same_origin: true };
        let two_origins = http::Request::builder()
            .uri("/assets/models/crate.glb")
            .header(http::header::HOST, "127.0.0.1:7777")
            .header(http::header::ORIGIN, "http://127.0.0.1:7777")
            .header(http::header::ORIGIN, "http://evil.example")
            .body(())
            .unwrap();
        assert_eq!(policy.check(&two_origins), Err(OriginRefusal::Repeated { header: "Origin" }));
        let two_hosts = http::Request::builder()
            .uri("/")
            .header(http::header::HOST, "127.0.0.1:7777")
            .header(http::header::HOST, "evil.example")
            .body(())
            .unwrap();
        assert_eq!(policy.check(&two_hosts), Err(OriginRefusal::Repeated { header: "Host" }));
        assert_eq!(policy.check(&asking("127.0.0.1:7777", Some("http://127.0.0.1:7777"))), Ok(()));
    }

    #[test]
    fn a_cutoff_shuts_the_socket_once() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let mut client = std::net::TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (server_side, _) = listener.accept().unwrap();
        let cutoff = Cutoff::new(1, Some(server_side.try_clone().unwrap()));
        cutoff.cut("test");
        cutoff.cut("again: a no-op");
        let mut buf = [0u8; 8];
        assert_eq!(std::io::Read::read(&mut client, &mut buf).unwrap(), 0, "the peer sees the connection end");
        drop(server_side);
    }
}
