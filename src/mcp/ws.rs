//! `limina mcp --ws`: the authoritative multi-client server.
//!
//! jsonrpsee runs the sockets on a small tokio runtime; the engine thread (this one) owns the
//! world, runs the fixed loop in real time, and applies every client's calls in the order they
//! arrive, between ticks. Handlers never touch the world: they send a message to the engine
//! thread and await its answer. Right after each burst of calls, and after each tick, the
//! engine computes every subscriber's delta and queues it without waiting (`try_send`): a slow
//! or stalled client's queue fills, its delta is dropped, and its baseline stays put, so the
//! next delta carries everything since the last one it received. No client can block the loop
//! or another client.
//!
//! Security: binds loopback unless told otherwise; with `--tokens`, the upgrade must carry
//! `Authorization: Bearer TOKEN` and the token's profile bounds what the connection may do;
//! messages over 4 MiB are refused; a connection's session is removed when it closes.

use std::collections::HashMap;
use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, mpsc};
use std::task::{Context, Poll};
use std::time::Instant;

use jsonrpsee::core::BoxError;
use jsonrpsee::server::{HttpBody, HttpRequest, HttpResponse, RpcModule, Server, ServerConfig};
use jsonrpsee::types::ErrorObjectOwned;
use jsonrpsee::{Extensions, SubscriptionMessage, SubscriptionSink};
use serde_json::{Map, Value, json};

use super::dispatcher::{self, MAX_MESSAGE_BYTES, McpSession, RpcError};
use super::protocol::{self, Incoming};
use super::sync::{Aoi, Baseline};
use crate::host::{Engine, RealTimeDriver};
use crate::policy::{PROFILES, Permission, profile_permissions};

/// Methods served over WebSocket (state sync has its own subscription).
const METHODS: [&str; 9] =
    ["initialize", "ping", "server/discover", "tools/list", "listTools", "tools/call", "callTool", "shutdown", "aoi/declare"];
/// Messages queued per connection before deltas start coalescing.
pub const SEND_QUEUE: u32 = 64;

#[derive(Debug, Clone)]
pub struct WsOptions {
    /// The project: `require`, `assets/` and `traces/` resolve against it.
    pub project: PathBuf,
    pub bind: String,
    pub port: u16,
    /// Profile for connections when there is no tokens file.
    pub profile: String,
    pub tokens: Option<PathBuf>,
    pub scene: Option<PathBuf>,
    /// Off only in tests that prove the sync tests can fail.
    pub publish_deltas: bool,
    /// Mods root (hot-reloaded).
    pub scripts: Option<PathBuf>,
}

/// Parses a tokens file: `TOKEN PROFILE` per line, `#` comments.
pub fn parse_tokens(text: &str, file: &str) -> anyhow::Result<HashMap<String, String>> {
    let mut tokens = HashMap::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split_whitespace();
        let (Some(token), Some(profile), None) = (parts.next(), parts.next(), parts.next()) else {
            anyhow::bail!("{file}:{}: expected `TOKEN PROFILE`", n + 1);
        };
        if !PROFILES.iter().any(|(name, _)| *name == profile) {
            let known: Vec<&str> = PROFILES.iter().map(|(name, _)| *name).collect();
            anyhow::bail!("{file}:{}: unknown profile '{profile}' (known: {})", n + 1, known.join(", "));
        }
        tokens.insert(token.to_string(), profile.to_string());
    }
    Ok(tokens)
}

/// What a handler asks of the engine thread.
enum EngineMsg {
    Call { conn: u64, profile: String, method: String, params: Value, reply: tokio::sync::oneshot::Sender<Result<Value, RpcError>> },
    Subscribe { conn: u64, profile: String, sink: SubscriptionSink },
    Closed { conn: u64 },
}

/// One connection, as the HTTP layer saw its upgrade. Dropped when the connection and all its
/// in-flight calls are gone, which tells the engine to forget its session.
struct ConnectionInner {
    id: u64,
    profile: String,
    engine: mpsc::Sender<EngineMsg>,
}

impl Drop for ConnectionInner {
    fn drop(&mut self) {
        let _ = self.engine.send(EngineMsg::Closed { conn: self.id });
    }
}

#[derive(Clone)]
struct Connection(Arc<ConnectionInner>);

#[derive(Clone)]
struct AuthLayer {
    tokens: Option<Arc<HashMap<String, String>>>,
    default_profile: String,
    engine: mpsc::Sender<EngineMsg>,
    next: Arc<AtomicU64>,
}

impl<S> tower::Layer<S> for AuthLayer {
    type Service = Auth<S>;
    fn layer(&self, inner: S) -> Auth<S> {
        Auth { inner, cfg: self.clone() }
    }
}

#[derive(Clone)]
struct Auth<S> {
    inner: S,
    cfg: AuthLayer,
}

impl<S> tower::Service<HttpRequest> for Auth<S>
where
    S: tower::Service<HttpRequest, Response = HttpResponse, Error = BoxError>,
    S::Future: Send + 'static,
{
    type Response = HttpResponse;
    type Error = BoxError;
    type Future = Pin<Box<dyn Future<Output = Result<HttpResponse, BoxError>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut req: HttpRequest) -> Self::Future {
        let profile = match &self.cfg.tokens {
            None => Some(self.cfg.default_profile.clone()),
            Some(tokens) => req
                .headers()
                .get(http::header::AUTHORIZATION)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.strip_prefix("Bearer "))
                .and_then(|t| tokens.get(t.trim()).cloned()),
        };
        let Some(profile) = profile else {
            let mut refused = HttpResponse::new(HttpBody::from("unauthorized: present a known bearer token"));
            *refused.status_mut() = http::StatusCode::UNAUTHORIZED;
            return Box::pin(async move { Ok(refused) });
        };
        let id = self.cfg.next.fetch_add(1, Ordering::Relaxed);
        req.extensions_mut().insert(Connection(Arc::new(ConnectionInner { id, profile, engine: self.cfg.engine.clone() })));
        Box::pin(self.inner.call(req))
    }
}

struct Ctx {
    engine: mpsc::Sender<EngineMsg>,
}

fn connection(ext: &Extensions) -> Result<Connection, ErrorObjectOwned> {
    ext.get::<Connection>()
        .cloned()
        .ok_or_else(|| ErrorObjectOwned::owned(protocol::INTERNAL_ERROR as i32, "connection has no session", None::<()>))
}

fn to_error_object(e: RpcError) -> ErrorObjectOwned {
    ErrorObjectOwned::owned(e.code as i32, e.message, e.data)
}

fn build_module(engine: mpsc::Sender<EngineMsg>) -> anyhow::Result<RpcModule<Ctx>> {
    let mut module = RpcModule::new(Ctx { engine });
    for method in METHODS {
        module.register_async_method(method, move |params, ctx, ext| async move {
            let conn = connection(&ext)?;
            let params: Value = match params.as_str() {
                None => Value::Object(Map::new()),
                Some(_) => params
                    .parse()
                    .map_err(|e| ErrorObjectOwned::owned(protocol::INVALID_PARAMS as i32, format!("invalid params: {e}"), None::<()>))?,
            };
            let (reply, answer) = tokio::sync::oneshot::channel();
            let msg = EngineMsg::Call { conn: conn.0.id, profile: conn.0.profile.clone(), method: method.to_string(), params, reply };
            ctx.engine
                .send(msg)
                .map_err(|_| ErrorObjectOwned::owned(protocol::INTERNAL_ERROR as i32, "the engine has stopped", None::<()>))?;
            let result = answer
                .await
                .map_err(|_| ErrorObjectOwned::owned(protocol::INTERNAL_ERROR as i32, "the engine dropped the call", None::<()>))?;
            result.map_err(to_error_object)
        })?;
    }
    module.register_subscription("state/subscribe", "state/delta", "state/unsubscribe", |_params, pending, ctx, ext| async move {
        let conn = connection(&ext)?;
        if !profile_permissions(&conn.0.profile).contains(Permission::SceneRead) {
            pending.reject(ErrorObjectOwned::owned(protocol::FORBIDDEN as i32, "missing permission: scene.read", None::<()>)).await;
            return Ok(());
        }
        let sink = pending.accept().await?;
        let closed = sink.clone();
        ctx.engine
            .send(EngineMsg::Subscribe { conn: conn.0.id, profile: conn.0.profile.clone(), sink })
            .map_err(|_| "the engine has stopped")?;
        // Keep the subscription (and the connection's session) alive until the client leaves.
        closed.closed().await;
        Ok(())
    })?;
    Ok(module)
}

/// Runs the server until the process is stopped. Prints the bound address to stderr.
pub fn serve_blocking(options: &WsOptions) -> anyhow::Result<()> {
    let tokens = match &options.tokens {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| anyhow::anyhow!("{}: cannot read: {e}", path.display()))?;
            Some(Arc::new(parse_tokens(&text, &path.display().to_string())?))
        }
        None => None,
    };
    let engine = super::server_engine(&options.project, &options.profile, options.scripts.as_deref(), options.scene.as_deref())?;
    let (tx, rx) = mpsc::channel::<EngineMsg>();
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).thread_name("limina-ws").enable_all().build()?;
    let auth = AuthLayer { tokens, default_profile: options.profile.clone(), engine: tx.clone(), next: Arc::new(AtomicU64::new(1)) };
    let module = build_module(tx)?;
    let addr = format!("{}:{}", options.bind, options.port);
    let (handle, local) = runtime.block_on(async {
        let config = ServerConfig::builder()
            .max_request_body_size(MAX_MESSAGE_BYTES as u32)
            .max_response_body_size(16 << 20)
            .max_connections(256)
            .set_message_buffer_capacity(SEND_QUEUE)
            .ws_only()
            .build();
        let server =
            Server::builder().set_config(config).set_http_middleware(tower::ServiceBuilder::new().layer(auth)).build(&addr).await?;
        let local = server.local_addr()?;
        anyhow::Ok((server.start(module), local))
    })?;
    eprintln!("limina mcp: listening on ws://{local}");
    let result = engine_loop(&engine, &rx, options.publish_deltas);
    let _ = handle.stop();
    result
}

struct Subscriber {
    sink: SubscriptionSink,
    baseline: Baseline,
}

struct Conn {
    session: McpSession,
    aoi: Option<Aoi>,
    sub: Option<Subscriber>,
}

fn engine_loop(engine: &Engine, rx: &mpsc::Receiver<EngineMsg>, publish_deltas: bool) -> anyhow::Result<()> {
    let publish = |conns: &mut HashMap<u64, Conn>| {
        if publish_deltas {
            publish(engine, conns)
        }
    };
    let mut conns: HashMap<u64, Conn> = HashMap::new();
    let mut driver = RealTimeDriver::new(Instant::now());
    loop {
        match rx.recv_timeout(driver.wait(Instant::now())) {
            Ok(first) => {
                // Apply everything that has arrived, in arrival order, then publish once.
                let mut next = Some(first);
                while let Some(msg) = next {
                    handle(engine, &mut conns, msg);
                    next = rx.try_recv().ok();
                }
                publish(&mut conns);
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(()),
        }
        if let Some(plan) = driver.due(Instant::now()) {
            if let Err(e) = engine.step(u64::from(plan.steps)) {
                tracing::warn!("a step callback failed: {}", e.message);
            }
            if plan.steps > 0 {
                publish(&mut conns);
            }
        }
    }
}

fn conn_entry<'a>(conns: &'a mut HashMap<u64, Conn>, engine: &Engine, conn: u64, profile: &str) -> &'a mut Conn {
    conns.entry(conn).or_insert_with(|| Conn { session: McpSession::new(conn, profile, engine), aoi: None, sub: None })
}

fn handle(engine: &Engine, conns: &mut HashMap<u64, Conn>, msg: EngineMsg) {
    match msg {
        EngineMsg::Call { conn, profile, method, params, reply } => {
            let c = conn_entry(conns, engine, conn, &profile);
            let result = if method == "aoi/declare" { declare_aoi(c, &params) } else { call(engine, c, method, params) };
            let _ = reply.send(result);
        }
        EngineMsg::Subscribe { conn, profile, sink } => {
            let tick = engine.tick();
            let c = conn_entry(conns, engine, conn, &profile);
            let mut baseline = Baseline::new(c.aoi);
            let snapshot = baseline.snapshot(&engine.world(), tick);
            let mut sub = Subscriber { sink, baseline: Baseline::new(c.aoi) };
            if let Ok(frame) = SubscriptionMessage::new("state/snapshot", sub.sink.subscription_id(), &snapshot.message)
                && sub.sink.try_send(frame).is_ok()
            {
                baseline.delivered(snapshot);
                sub.baseline = baseline;
            }
            c.sub = Some(sub);
        }
        EngineMsg::Closed { conn } => {
            conns.remove(&conn);
        }
    }
}

fn call(engine: &Engine, c: &mut Conn, method: String, params: Value) -> Result<Value, RpcError> {
    let incoming = Incoming { id: Some(Value::Null), method, params };
    let result = dispatcher::dispatch(engine, &mut c.session, &incoming);
    // A changed tool list reaches subscribed clients on their state channel.
    let notes = dispatcher::pending_notifications(engine, &mut c.session);
    if let Some(sub) = &mut c.sub {
        for note in notes {
            if let Some(method) = note.get("method").and_then(Value::as_str)
                && let Ok(frame) = SubscriptionMessage::new(method, sub.sink.subscription_id(), &json!({}))
            {
                let _ = sub.sink.try_send(frame);
            }
        }
    }
    result
}

fn declare_aoi(c: &mut Conn, params: &Value) -> Result<Value, RpcError> {
    let bad = |message: &str| RpcError { code: protocol::INVALID_PARAMS, message: message.to_string(), data: None };
    if params.get("clear").and_then(Value::as_bool) == Some(true) {
        c.aoi = None;
    } else {
        let center =
            params.get("center").and_then(Value::as_array).filter(|a| a.len() == 3).ok_or_else(|| bad("center must be [x, y, z]"))?;
        let center: Vec<f64> = center
            .iter()
            .map(|v| v.as_f64().filter(|f| f.is_finite()))
            .collect::<Option<_>>()
            .ok_or_else(|| bad("center must hold 3 finite numbers"))?;
        let radius = params
            .get("radius")
            .and_then(Value::as_f64)
            .filter(|r| r.is_finite() && *r > 0.0)
            .ok_or_else(|| bad("radius must be a number > 0"))?;
        c.aoi = Some(Aoi { center: [center[0], center[1], center[2]], radius });
    }
    if let Some(sub) = &mut c.sub {
        sub.baseline.set_aoi(c.aoi);
    }
    Ok(json!({"ok": true, "aoi": c.aoi.map(|a| json!({"center": a.center, "radius": a.radius}))}))
}

/// Queues each subscriber's delta without waiting; a full queue keeps the baseline (coalesce).
fn publish(engine: &Engine, conns: &mut HashMap<u64, Conn>) {
    let tick = engine.tick();
    let world = engine.world();
    for c in conns.values_mut() {
        let Some(sub) = &mut c.sub else { continue };
        if sub.sink.is_closed() {
            c.sub = None;
            continue;
        }
        let Some(update) = sub.baseline.delta(&world, tick) else { continue };
        let Ok(frame) = SubscriptionMessage::new("state/delta", sub.sink.subscription_id(), &update.message) else { continue };
        match sub.sink.try_send(frame) {
            Ok(()) => sub.baseline.delivered(update),
            Err(jsonrpsee::core::server::TrySendError::Full(_)) => {}
            Err(jsonrpsee::core::server::TrySendError::Closed(_)) => c.sub = None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_files_name_bad_lines() {
        let ok = parse_tokens("# comment\nabc builder.readWrite\n\nxyz system.readonly\n", "t").unwrap();
        assert_eq!(ok.get("xyz").map(String::as_str), Some("system.readonly"));
        assert!(parse_tokens("abc root", "t").unwrap_err().to_string().contains("t:1: unknown profile 'root'"));
        assert!(parse_tokens("onlytoken", "t").unwrap_err().to_string().contains("t:1: expected"));
    }
}
