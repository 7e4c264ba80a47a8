//! The server's own routes: `GET /health` (every world, its state, tick and step rate) and the
//! operator's admin path, `/admin/worlds`, which lists, creates and retires worlds while the
//! server runs (`limina worlds` is its client).
//!
//! The admin path is the operator's, never a client's: it needs the token of `--admin-token
//! FILE`, compared in constant time; without one it is open only on a server that binds loopback
//! and has no tokens file (where any local process may already do anything a client can), and
//! refused everywhere else. A client token, whatever its profile, never opens it. Paths in a
//! creation resolve inside the project, like every path a client names.

use std::sync::Arc;
use std::time::Duration;

use http::{Method, StatusCode};
use http_body_util::{BodyExt, Limited};
use jsonrpsee::server::{HttpBody, HttpResponse};
use serde::Deserialize;
use serde_json::{Value, json};

use super::engine_loop::Fault;
use super::http::plain;
use super::tokens::Tokens;
use super::worlds::{Origin, WorldError, WorldName, WorldSet, WorldSpec};
use crate::mcp::WorldStart;

/// Bytes of an admin request's body, at most.
const MAX_ADMIN_BODY: usize = 64 << 10;
/// Time an admin request's body has to arrive.
const ADMIN_BODY_TIMEOUT: Duration = Duration::from_secs(10);

/// Who may use the admin path, decided once at start-up.
#[derive(Clone)]
pub(crate) enum AdminAccess {
    /// Requests must present this token (`--admin-token FILE`).
    Token(Arc<str>),
    /// A tokenless server on loopback: open, as everything else on it is.
    Open,
    /// Neither: refused, saying how to turn it on.
    Off,
}

/// The server's own routes.
#[derive(Clone)]
pub(crate) struct Admin {
    pub access: AdminAccess,
    /// The clients' tokens (`/health` takes any of them as well as the admin token).
    pub tokens: Option<Arc<Tokens>>,
    /// Call time per fixed step for worlds created without `callBudgetMs`.
    pub call_budget: Duration,
    /// In a fleet, worlds are created and retired fleet-wide (`--fleet`).
    pub fleet: Option<Arc<super::fleet::Fleet>>,
}

/// A `POST /admin/worlds` body.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CreateWorld {
    name: String,
    #[serde(default)]
    from: Option<From>,
    #[serde(default)]
    paused: bool,
    #[serde(default)]
    call_budget_ms: Option<f64>,
    #[serde(default)]
    fault: Option<FaultSpec>,
}

/// What a created world starts from.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
enum From {
    /// A ground, a light and a camera (what `limina mcp` starts with).
    Default,
    Empty,
    /// A script or scene file in the project.
    Scene(String),
    /// A snapshot file, or a logged run's folder (recovered first), in the project.
    Resume(String),
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct FaultSpec {
    panic_at_tick: u64,
}

fn json_answer(status: StatusCode, value: &Value) -> HttpResponse {
    let mut response = HttpResponse::new(HttpBody::from(value.to_string()));
    *response.status_mut() = status;
    response.headers_mut().insert(http::header::CONTENT_TYPE, http::HeaderValue::from_static("application/json"));
    response
}

/// Compares without stopping at the first differing byte, so the time taken says nothing of
/// how much of a guess was right.
fn same_secret(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

impl Admin {
    pub const HEALTH: &'static str = "/health";
    pub const WORLDS: &'static str = "/admin/worlds";

    /// Whether `path` is one of these routes.
    pub fn owns(path: &str) -> bool {
        path == Self::HEALTH || path == "/admin" || path.starts_with("/admin/")
    }

    fn is_admin(&self, headers: &http::HeaderMap) -> bool {
        match &self.access {
            AdminAccess::Token(token) => {
                super::transport::bearer_token(headers).is_some_and(|given| same_secret(given.as_bytes(), token.as_bytes()))
            }
            AdminAccess::Open => true,
            AdminAccess::Off => false,
        }
    }

    fn refused(&self) -> HttpResponse {
        match self.access {
            AdminAccess::Token(_) => {
                let mut refused = plain(StatusCode::UNAUTHORIZED, "unauthorized: the admin path needs the token of --admin-token");
                refused.headers_mut().insert(http::header::WWW_AUTHENTICATE, http::HeaderValue::from_static("Bearer"));
                refused
            }
            _ => plain(
                StatusCode::FORBIDDEN,
                "forbidden: the admin path is off on a server with --tokens or off loopback; start it with --admin-token FILE",
            ),
        }
    }

    pub async fn handle(&self, worlds: &Arc<WorldSet>, req: http::Request<hyper::body::Incoming>) -> HttpResponse {
        let path = req.uri().path().to_string();
        if path == Self::HEALTH {
            // The operator sees every world; a client token, the worlds it reaches.
            let token = super::transport::bearer_token(req.headers());
            let fleet = self.fleet.as_deref();
            if self.tokens.is_none() || self.is_admin(req.headers()) {
                return health(worlds, fleet, |_| true);
            }
            let Some(tokens) = self.tokens.as_ref().filter(|t| t.knows(token)) else {
                let mut refused = plain(StatusCode::UNAUTHORIZED, "unauthorized: /health needs a known bearer token");
                refused.headers_mut().insert(http::header::WWW_AUTHENTICATE, http::HeaderValue::from_static("Bearer"));
                return refused;
            };
            return health(worlds, fleet, |name| matches!(tokens.check(token, name), super::tokens::TokenCheck::Granted(_)));
        }
        if !self.is_admin(req.headers()) {
            return self.refused();
        }
        let named =
            path.strip_prefix(Self::WORLDS).and_then(|rest| if rest.is_empty() { Some(None) } else { rest.strip_prefix('/').map(Some) });
        match (req.method().clone(), named) {
            (Method::GET, Some(None)) => list(worlds),
            (Method::POST, Some(None)) => self.create(worlds, req).await,
            (method, Some(Some(name))) => {
                let name = match WorldName::parse(name) {
                    Ok(name) => name,
                    Err(e) => return plain(StatusCode::NOT_FOUND, &format!("not found: {e}")),
                };
                match method {
                    Method::GET => report(worlds, self.fleet.as_deref(), &name).await,
                    Method::DELETE => match &self.fleet {
                        Some(fleet) => retire_from_fleet(fleet, &name).await,
                        None => retire(worlds, &name).await,
                    },
                    _ => plain(StatusCode::METHOD_NOT_ALLOWED, "a world takes GET (its report) and DELETE (retire it)"),
                }
            }
            (_, Some(None)) => plain(StatusCode::METHOD_NOT_ALLOWED, "/admin/worlds takes GET (the list) and POST (create a world)"),
            (_, None) => {
                plain(StatusCode::NOT_FOUND, &format!("not found: {} (the admin path is /admin/worlds)", crate::clip::shown(&path)))
            }
        }
    }

    async fn create(&self, worlds: &Arc<WorldSet>, req: http::Request<hyper::body::Incoming>) -> HttpResponse {
        let read = tokio::time::timeout(ADMIN_BODY_TIMEOUT, Limited::new(req.into_body(), MAX_ADMIN_BODY).collect());
        let body = match read.await {
            Ok(Ok(collected)) => collected.to_bytes(),
            Ok(Err(e)) if e.downcast_ref::<http_body_util::LengthLimitError>().is_some() => {
                return plain(StatusCode::PAYLOAD_TOO_LARGE, &format!("an admin request is at most {MAX_ADMIN_BODY} bytes"));
            }
            Ok(Err(e)) => return plain(StatusCode::BAD_REQUEST, &format!("could not read the body: {e}")),
            Err(_) => {
                return plain(StatusCode::REQUEST_TIMEOUT, &format!("the body did not arrive within {} s", ADMIN_BODY_TIMEOUT.as_secs()));
            }
        };
        let asked: CreateWorld = match serde_json::from_slice(&body) {
            Ok(asked) => asked,
            Err(e) => {
                return plain(
                    StatusCode::BAD_REQUEST,
                    &format!(
                        "the body is not a world to create: {} (expected {{\"name\": NAME, \"from\": \"default\" | \"empty\" | {{\"scene\": FILE}} | {{\"resume\": SNAPSHOT_OR_RUN_FOLDER}}, \"paused\"?: bool, \"callBudgetMs\"?: number}})",
                        crate::clip::shown(&e.to_string())
                    ),
                );
            }
        };
        let spec = match self.spec(worlds, asked) {
            Ok(spec) => spec,
            Err(why) => return plain(StatusCode::BAD_REQUEST, &why),
        };
        let name = spec.name.clone();
        if let Some(fleet) = &self.fleet {
            let fleet = Arc::clone(fleet);
            return match super::fleet::off_runtime(move || fleet.claim(spec, super::fleet::Claiming::New)).await {
                Ok(Ok(true)) => json_answer(
                    StatusCode::CREATED,
                    &json!({"name": name.as_str(), "mcp": format!("/w/{name}/mcp"), "viewer": format!("/w/{name}/")}),
                ),
                Ok(Ok(false)) => {
                    plain(StatusCode::CONFLICT, &format!("world '{name}' exists already: another member of the fleet serves it"))
                }
                Ok(Err(why)) => plain(StatusCode::UNPROCESSABLE_ENTITY, &format!("world '{name}' could not start: {why}")),
                Err(e) => plain(StatusCode::INTERNAL_SERVER_ERROR, &format!("world '{name}' could not start: {e}")),
            };
        }
        let runtime = tokio::runtime::Handle::current();
        let set = Arc::clone(worlds);
        let started = tokio::task::spawn_blocking(move || set.start(spec, &runtime)).await;
        match started {
            Ok(Ok(_)) => json_answer(
                StatusCode::CREATED,
                &json!({"name": name.as_str(), "mcp": format!("/w/{name}/mcp"), "viewer": format!("/w/{name}/")}),
            ),
            Ok(Err(e @ WorldError::Exists(_))) => plain(StatusCode::CONFLICT, &e.to_string()),
            Ok(Err(e @ WorldError::Full)) => plain(StatusCode::SERVICE_UNAVAILABLE, &e.to_string()),
            Ok(Err(e)) => plain(StatusCode::UNPROCESSABLE_ENTITY, &e.to_string()),
            Err(e) => plain(StatusCode::INTERNAL_SERVER_ERROR, &format!("world '{name}' could not start: {e}")),
        }
    }

    /// Checks a creation request and turns it into a world to start; the error names what is wrong.
    fn spec(&self, worlds: &WorldSet, asked: CreateWorld) -> Result<WorldSpec, String> {
        let name = WorldName::parse(&asked.name).map_err(|e| e.to_string())?;
        let project = worlds.project();
        let origin = match asked.from.unwrap_or(From::Default) {
            From::Default => Origin::Start(WorldStart::Default),
            From::Empty => Origin::Start(WorldStart::Empty),
            From::Scene(file) => {
                let path = in_project(project, &file, "scene")?;
                if !path.is_file() {
                    return Err(format!("scene '{}': not a file in the project", crate::clip::shown(&file)));
                }
                let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(u64::MAX);
                if size > crate::scenes::MAX_FILE_BYTES as u64 {
                    return Err(format!(
                        "scene '{}' is {size} bytes, over the {} bytes a world is built from",
                        crate::clip::shown(&file),
                        crate::scenes::MAX_FILE_BYTES
                    ));
                }
                if let Some(what) = crate::host::FileKind::of(&path).not_a_script() {
                    return Err(format!("scene '{}': {what}", crate::clip::shown(&file)));
                }
                Origin::Start(WorldStart::File(path))
            }
            From::Resume(from) => {
                let path = in_project(project, &from, "resume")?;
                if path.is_dir() {
                    run_folder_in_project(project, &path, &from)?;
                }
                Origin::ResumeFrom(path)
            }
        };
        let call_budget = match asked.call_budget_ms {
            None => self.call_budget,
            Some(ms) if ms.is_finite() && (0.0..=1000.0).contains(&ms) => Duration::from_secs_f64(ms / 1e3),
            Some(ms) => return Err(format!("callBudgetMs {ms} is outside 0..=1000")),
        };
        let fault = match asked.fault {
            None => None,
            Some(_) if !worlds.faults => {
                return Err("fault: faults are injected only in tests (LIMINA_FAULTS=1 in the server's environment)".into());
            }
            Some(FaultSpec { panic_at_tick }) => Some(Fault::PanicAtTick(panic_at_tick)),
        };
        Ok(WorldSpec { name, origin, paused: asked.paused, call_budget, fault, ownership: None })
    }
}

/// Resolves a path a creation names: relative, plain (no `..`), and inside the project once
/// links are followed.
fn in_project(project: &std::path::Path, given: &str, what: &str) -> Result<std::path::PathBuf, String> {
    let shown = crate::clip::shown(given);
    if !crate::paths::is_plain_relative(given) {
        return Err(format!("{what} '{shown}': give a relative path inside the project (no '..', no absolute path)"));
    }
    let path = project.join(given);
    let real = std::fs::canonicalize(&path).map_err(|e| format!("{what} '{shown}': {e}"))?;
    let root = std::fs::canonicalize(project).map_err(|e| format!("the project {}: {e}", project.display()))?;
    if !real.starts_with(&root) {
        return Err(format!("{what} '{shown}': it leads out of the project (a link)"));
    }
    Ok(real)
}

/// A run folder to resume is read whole (its log and snapshots): every one of those files must
/// be inside the project too, not a link out of it.
fn run_folder_in_project(project: &std::path::Path, folder: &std::path::Path, given: &str) -> Result<(), String> {
    let root = std::fs::canonicalize(project).map_err(|e| format!("the project {}: {e}", project.display()))?;
    let entries = std::fs::read_dir(folder).map_err(|e| format!("resume '{}': {e}", crate::clip::shown(given)))?;
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        let read = path.extension().is_some_and(|x| x == "log" || x == "snap");
        if read && !std::fs::canonicalize(&path).is_ok_and(|real| real.starts_with(&root)) {
            return Err(format!(
                "resume '{}': {} leads out of the project (a link); a run folder's files must be in the project",
                crate::clip::shown(given),
                entry.file_name().to_string_lossy()
            ));
        }
    }
    Ok(())
}

fn world_row(world: &super::worlds::World, fleet: Option<&super::fleet::Fleet>) -> Value {
    let condition = world.status.condition(std::time::Instant::now());
    let mut row = json!({
        "name": world.name.as_str(),
        "state": condition.as_str(),
        "tick": world.status.tick(),
        "stepsPerSecond": (world.status.steps_per_second() * 10.0).round() / 10.0,
        "mcp": format!("/w/{}/mcp", world.name),
    });
    if let Some(why) = condition.why() {
        row["why"] = json!(why);
    }
    if let Some(log) = world.status.log_progress() {
        row["log"] = json!({
            "remote": true,
            "writable": log.writable.is_ok(),
            "unacknowledgedBytes": log.written.saturating_sub(log.acknowledged),
        });
        if let Err(why) = log.writable {
            row["log"]["why"] = json!(why);
        }
    }
    if let Some((epoch, left)) = fleet.and_then(|f| f.lease(&world.name)) {
        row["lease"] = json!({"epoch": epoch, "msBeforeDeadline": left.as_millis() as u64});
    }
    row
}

/// Whether a world is serving and its log takes records.
fn world_healthy(world: &super::worlds::World, now: std::time::Instant) -> bool {
    world.status.condition(now) == super::worlds::Condition::Serving && world.status.log_progress().is_none_or(|l| l.writable.is_ok())
}

fn health(worlds: &WorldSet, fleet: Option<&super::fleet::Fleet>, reaches: impl Fn(&WorldName) -> bool) -> HttpResponse {
    let all: Vec<_> = worlds.all().into_iter().filter(|w| reaches(&w.name)).collect();
    let now = std::time::Instant::now();
    let stuck = worlds.stuck();
    let healthy = stuck.is_empty() && all.iter().all(|w| world_healthy(w, now));
    let mut rows: Vec<Value> = all.iter().map(|w| world_row(w, fleet)).collect();
    rows.extend(worlds.starting().iter().filter(|n| reaches(n)).map(|n| json!({"name": n.as_str(), "state": "starting"})));
    rows.extend(stuck.iter().filter(|n| reaches(n)).map(
        |n| json!({"name": n.as_str(), "state": "retiring", "why": "retired, but its engine thread has not stopped (busy or stuck)"}),
    ));
    // Worlds of the fleet this member gave up taking over: no member may be serving them.
    let untaken: Vec<Value> = fleet
        .map(|f| f.given_up())
        .unwrap_or_default()
        .into_iter()
        .filter(|(name, _)| reaches(name))
        .map(|(name, f)| json!({"name": name.as_str(), "failures": f.count, "why": f.why}))
        .collect();
    let healthy = healthy && untaken.is_empty();
    let status = if healthy { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE };
    let mut body = json!({"healthy": healthy, "worlds": rows});
    if let Some(fleet) = fleet {
        body["fleet"] = json!({"node": fleet.node(), "leaseTtlMs": fleet.ttl().as_millis() as u64, "untaken": untaken});
    }
    json_answer(status, &body)
}

fn list(worlds: &WorldSet) -> HttpResponse {
    let mut rows: Vec<Value> = worlds.all().iter().map(|w| world_row(w, None)).collect();
    rows.extend(worlds.starting().iter().map(|n| json!({"name": n.as_str(), "state": "starting"})));
    rows.extend(worlds.stuck().iter().map(|n| json!({"name": n.as_str(), "state": "retiring"})));
    json_answer(StatusCode::OK, &json!({"worlds": rows}))
}

async fn report(worlds: &WorldSet, fleet: Option<&super::fleet::Fleet>, name: &WorldName) -> HttpResponse {
    let Some(world) = worlds.get(name) else {
        let elsewhere = fleet.and_then(|f| f.owner(name)).map(|c| format!(" ({} serves it, at {})", c.owner, c.address));
        return plain(StatusCode::NOT_FOUND, &format!("not found: no world '{name}' on this server{}", elsewhere.unwrap_or_default()));
    };
    match world.report().await {
        Ok(report) => {
            let mut row = world_row(&world, None);
            row["tick"] = json!(report.tick);
            row["worldHash"] = json!(report.world_hash);
            row["entities"] = json!(report.entities);
            row["paused"] = json!(report.paused);
            row["durable"] = json!(report.durable.is_ok());
            if let Err(why) = report.durable {
                row["notDurable"] = json!(why);
            }
            json_answer(StatusCode::OK, &row)
        }
        Err(why) => json_answer(
            StatusCode::SERVICE_UNAVAILABLE,
            &json!({"name": name.as_str(), "state": world.status.state().as_str(), "why": why}),
        ),
    }
}

/// The answer to a retire that stopped a serving world: its final tick and hash.
fn retired(name: &WorldName, report: super::engine_loop::WorldReport) -> HttpResponse {
    json_answer(
        StatusCode::OK,
        &json!({
            "name": name.as_str(),
            "state": "retired",
            "tick": report.tick,
            "worldHash": report.world_hash,
            "durable": report.durable.is_ok(),
            "notDurable": report.durable.err(),
        }),
    )
}

async fn retire(worlds: &WorldSet, name: &WorldName) -> HttpResponse {
    match worlds.retire(name).await {
        Ok(Some(report)) => retired(name, report),
        Ok(None) => json_answer(
            StatusCode::OK,
            &json!({"name": name.as_str(), "state": "removed", "note": "the world had stopped; it was removed"}),
        ),
        Err(e @ WorldError::Main) => plain(StatusCode::CONFLICT, &e.to_string()),
        Err(e @ WorldError::Stuck { .. }) => plain(StatusCode::GATEWAY_TIMEOUT, &e.to_string()),
        Err(e) => plain(StatusCode::NOT_FOUND, &format!("not found: {e}")),
    }
}

/// Retires a fleet world: out of the catalogue (no member takes it over), stopped here, its
/// lease given up.
async fn retire_from_fleet(fleet: &Arc<super::fleet::Fleet>, name: &WorldName) -> HttpResponse {
    match fleet.retire(name).await {
        Ok(Some(report)) => retired(name, report),
        Ok(None) => json_answer(StatusCode::OK, &json!({"name": name.as_str(), "state": "removed"})),
        Err(why) => plain(StatusCode::CONFLICT, &format!("world '{name}' was not retired here: {why}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_compare_whole() {
        assert!(same_secret(b"abc", b"abc"));
        assert!(!same_secret(b"abc", b"abd"));
        assert!(!same_secret(b"abc", b"abcd"));
        assert!(!same_secret(b"", b"a"));
    }

    #[test]
    fn creation_bodies_are_read_strictly() {
        let ok: CreateWorld = serde_json::from_str(r#"{"name":"a","from":{"scene":"scenes/x.lua"},"paused":true}"#).unwrap();
        assert!(matches!(ok.from, Some(From::Scene(ref f)) if f == "scenes/x.lua"));
        let plain: CreateWorld = serde_json::from_str(r#"{"name":"a","from":"empty"}"#).unwrap();
        assert!(matches!(plain.from, Some(From::Empty)));
        assert!(serde_json::from_str::<CreateWorld>(r#"{"name":"a","form":"empty"}"#).is_err(), "unknown fields are refused");
        assert!(serde_json::from_str::<CreateWorld>(r#"{"name":"a","from":{"scene":"x","resume":"y"}}"#).is_err());
    }
}
