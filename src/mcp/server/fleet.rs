//! A fleet: several `limina mcp --nats URL --fleet` processes sharing the worlds of one NATS
//! server (SPEC §14). Each world is served by the one process holding its lease (`nats::Leases`);
//! a thread per process renews the leases it holds and, when a listed world has no live lease
//! (its owner was killed or cut off), takes it: reads the world's log through its last message,
//! recovers the world from the newest snapshot and the records after it, puts its fence in the
//! log (`nats::place_fence`: only if nothing landed after what it read, else it reads again) and
//! serves the world under the same name, continuing the same log.
//!
//! A process whose lease is lost stops the world at once; one whose renewals fail stops taking
//! writes at its lease's deadline (before the server can expire it), and the fence refuses
//! whatever it might still send. Clients find a world's owner through any member: requests for
//! a world served elsewhere are redirected there (307), and `GET /w/{world}/where` names it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use super::worlds::{Origin, Ownership, WorldName, WorldSet, WorldSpec};
use crate::mcp::WorldStart;
use crate::nats::{Claim, Fence, JetStream, LeaseHold, Leases, Listed, WorldLog};

/// Fence attempts in one take-over (each after reading the log again).
const FENCE_TRIES: u32 = 5;
/// Take-overs of one world that may fail here before this process stops trying it.
const MAX_FAILURES: u32 = 3;

/// How this process takes part in a fleet.
#[derive(Debug, Clone)]
pub(crate) struct FleetOptions {
    /// This process's name in leases (`--node`).
    pub node: String,
    /// Where clients reach this process: `http://host:port` (`--advertise`).
    pub advertise: String,
    /// The lease's time to live (`--lease-ttl-ms`; the bucket's own wins if it differs).
    pub ttl: Duration,
    /// Where taken-over worlds are read to and their snapshots staged.
    pub staging: PathBuf,
}

/// Whether a world being claimed may already have a log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Claiming {
    /// A world the operator creates now: its name must be unused.
    New,
    /// A world to serve, new or not: a log it has is taken over.
    Serve,
}

/// Why a claim failed: `Passing` (NATS was slow or away, the lease went, the old owner still
/// wrote) is tried again at the next look; `Lasting` (the log does not recover, the world does
/// not start) counts toward `MAX_FAILURES`.
#[derive(Debug, Clone)]
pub(crate) enum ClaimFailure {
    Passing(String),
    Lasting(String),
}

impl std::fmt::Display for ClaimFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClaimFailure::Passing(why) | ClaimFailure::Lasting(why) => f.write_str(why),
        }
    }
}

fn passing(e: impl std::fmt::Display) -> ClaimFailure {
    ClaimFailure::Passing(e.to_string())
}

fn lasting(e: impl std::fmt::Display) -> ClaimFailure {
    ClaimFailure::Lasting(e.to_string())
}

/// Take-overs one member runs at once: each recovers a world, and many at once on a busy
/// machine starve the renewals of the leases it already holds.
const CLAIMS_AT_ONCE: usize = 2;
/// How long a world that failed `MAX_FAILURES` times here is left to other members.
const FAILED_PAUSE: Duration = Duration::from_secs(600);

/// A world this member failed to take over.
#[derive(Debug, Clone)]
pub(crate) struct Failures {
    pub count: u32,
    pub why: String,
    pub at: std::time::Instant,
}

/// This process's part of the fleet.
pub(crate) struct Fleet {
    options: FleetOptions,
    js: JetStream,
    leases: Leases,
    worlds: Arc<WorldSet>,
    runtime: tokio::runtime::Handle,
    /// Paused and call budget for worlds it takes over.
    template: (bool, Duration),
    held: Mutex<BTreeMap<WorldName, Arc<LeaseHold>>>,
    claiming: Mutex<BTreeSet<WorldName>>,
    failures: Mutex<BTreeMap<WorldName, Failures>>,
    /// Every live lease as of the last look (redirects and `where`).
    owners: RwLock<BTreeMap<String, Claim>>,
    /// The catalogue as of the last look.
    listed: RwLock<BTreeSet<String>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Fleet {
    pub fn join(
        options: FleetOptions,
        js: JetStream,
        worlds: Arc<WorldSet>,
        runtime: tokio::runtime::Handle,
        template: (bool, Duration),
    ) -> Result<Arc<Fleet>, String> {
        let leases = Leases::open(&js, options.ttl).map_err(|e| format!("--fleet: {e}"))?;
        Ok(Arc::new(Fleet {
            options,
            js,
            leases,
            worlds,
            runtime,
            template,
            held: Mutex::default(),
            claiming: Mutex::default(),
            failures: Mutex::default(),
            owners: RwLock::default(),
            listed: RwLock::default(),
        }))
    }

    pub fn node(&self) -> &str {
        &self.options.node
    }

    pub fn advertise(&self) -> &str {
        &self.options.advertise
    }

    pub fn ttl(&self) -> Duration {
        self.leases.ttl()
    }

    /// Starts the thread that renews leases and takes over worlds no one serves.
    pub fn run(self: &Arc<Self>) -> Result<(), String> {
        let fleet = Arc::clone(self);
        std::thread::Builder::new()
            .name("limina-fleet".into())
            .spawn(move || fleet.watch())
            .map(drop)
            .map_err(|e| format!("cannot start the fleet's thread: {e}"))
    }

    fn watch(self: Arc<Self>) {
        let period = self.ttl() / 4;
        loop {
            self.renew_all();
            self.look();
            // A little jitter keeps members from all asking at once.
            let jitter = u64::from_str_radix(&crate::unguessable::hex(2), 16).unwrap_or(0) % (period.as_millis() as u64 / 4 + 1);
            std::thread::sleep(period + Duration::from_millis(jitter));
        }
    }

    /// Renews every held lease; a world whose lease is lost stops here at once.
    fn renew_all(&self) {
        let held: Vec<(WorldName, Arc<LeaseHold>)> = lock(&self.held).iter().map(|(n, h)| (n.clone(), Arc::clone(h))).collect();
        let holds: Vec<Arc<LeaseHold>> = held.iter().map(|(_, h)| Arc::clone(h)).collect();
        // All at once: one round trip however many worlds this member serves.
        if let Err(e) = self.leases.renew_all(&holds) {
            tracing::warn!("the fleet's leases were not renewed: {e}");
        }
        for (name, hold) in held {
            if let Some(why) = hold.lost() {
                tracing::warn!("world '{name}': {why}; it stops here");
                lock(&self.held).remove(&name);
                let worlds = Arc::clone(&self.worlds);
                self.runtime.spawn(async move {
                    let _ = worlds.stop(&name, &format!("world '{name}' moved to another process: {why}")).await;
                });
            }
        }
    }

    /// Notes who serves what, and claims listed worlds no one serves.
    fn look(self: &Arc<Self>) {
        match self.leases.owners() {
            Ok(owners) => *self.owners.write().unwrap_or_else(|p| p.into_inner()) = owners,
            Err(e) => {
                tracing::warn!("the fleet's leases could not be read: {e}");
                return;
            }
        }
        let listed = match self.leases.listed() {
            Ok(listed) => listed,
            Err(e) => {
                tracing::warn!("the fleet's worlds could not be read: {e}");
                return;
            }
        };
        *self.listed.write().unwrap_or_else(|p| p.into_inner()) = listed.keys().cloned().collect();
        let owners = self.owners.read().unwrap_or_else(|p| p.into_inner()).clone();
        let mut started = lock(&self.claiming).len();
        for world in listed.keys().filter(|w| !owners.contains_key(*w)) {
            let Ok(name) = WorldName::parse(world) else { continue };
            let given_up = lock(&self.failures).get(&name).is_some_and(|f| f.count >= MAX_FAILURES && f.at.elapsed() < FAILED_PAUSE);
            if started >= CLAIMS_AT_ONCE || given_up || lock(&self.held).contains_key(&name) || lock(&self.claiming).contains(&name) {
                continue;
            }
            started += 1;
            let fleet = Arc::clone(self);
            let spawned = std::thread::Builder::new().name(format!("limina-take-{name}")).spawn(move || {
                let spec = fleet.spec(name.clone(), Origin::Start(WorldStart::Default));
                match fleet.claim(spec, Claiming::Serve) {
                    Ok(true) => {
                        lock(&fleet.failures).remove(&name);
                        tracing::info!("world '{name}': taken over by {}", fleet.node());
                    }
                    Ok(false) => {}
                    Err(ClaimFailure::Passing(why)) => tracing::warn!("world '{name}': the take-over did not happen now: {why}"),
                    Err(ClaimFailure::Lasting(why)) => {
                        let mut failures = lock(&fleet.failures);
                        let entry = failures.entry(name.clone()).or_insert(Failures {
                            count: 0,
                            why: String::new(),
                            at: std::time::Instant::now(),
                        });
                        if entry.at.elapsed() >= FAILED_PAUSE {
                            entry.count = 0;
                        }
                        entry.count += 1;
                        entry.why = why.clone();
                        entry.at = std::time::Instant::now();
                        tracing::error!("world '{name}': the take-over failed ({} of {MAX_FAILURES}): {why}", entry.count);
                    }
                }
            });
            if let Err(e) = spawned {
                tracing::warn!("cannot start a take-over thread: {e}");
            }
        }
    }

    /// A world to start here with the fleet's settings.
    pub fn spec(&self, name: WorldName, origin: Origin) -> WorldSpec {
        WorldSpec { name, origin, paused: self.template.0, call_budget: self.template.1, fault: None, ownership: None }
    }

    /// Serves `spec`'s world here if no process does: takes its lease, then starts it new or
    /// takes its log over, then lists it in the fleet. `Ok(false)`: another process serves it
    /// (or is claiming it). Blocking: call it off the network threads.
    pub fn claim(&self, mut spec: WorldSpec, claiming: Claiming) -> Result<bool, ClaimFailure> {
        let name = spec.name.clone();
        if !lock(&self.claiming).insert(name.clone()) {
            return Ok(false);
        }
        let claimed = (|| {
            let Some(hold) = self.leases.acquire(name.as_str(), &self.options.node, &self.options.advertise).map_err(passing)? else {
                return Ok(false);
            };
            let hold = Arc::new(hold);
            lock(&self.held).insert(name.clone(), Arc::clone(&hold));
            let served = (|| {
                let last = WorldLog::stored_last_sequence(&self.js, name.as_str()).map_err(passing)?.unwrap_or(0);
                if last > 0 {
                    if claiming == Claiming::New {
                        return Err(lasting(format!(
                            "world '{name}' has a log on JetStream already (a world of this name ran before); take it over by listing it, or use another name"
                        )));
                    }
                    let (resume, after) = self.recover(&name, &hold)?;
                    spec.origin = Origin::Start(WorldStart::Resume(resume));
                    spec.ownership = Some(Ownership { hold: Arc::clone(&hold), after: Some(after) });
                } else {
                    spec.ownership = Some(Ownership { hold: Arc::clone(&hold), after: None });
                }
                self.worlds.start(spec, &self.runtime).map_err(lasting)?;
                let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
                let listed = Listed { created_by: self.options.node.clone(), created_at_ms: now };
                self.leases.list_world(name.as_str(), &listed).map_err(passing)?;
                Ok(true)
            })();
            if served.is_err() {
                lock(&self.held).remove(&name);
                let _ = self.leases.release(&hold);
            }
            served
        })();
        lock(&self.claiming).remove(&name);
        claimed
    }

    /// Reads `name`'s log, recovers the world and puts this owner's fence after what it read:
    /// the world to start, and the message its log continues after.
    fn recover(&self, name: &WorldName, hold: &LeaseHold) -> Result<(crate::host::Resume, u64), ClaimFailure> {
        let project = self.worlds.project().to_path_buf();
        for attempt in 0..FENCE_TRIES {
            if let Some(lost) = hold.lost() {
                return Err(passing(lost));
            }
            let last = WorldLog::stored_last_sequence(&self.js, name.as_str()).map_err(passing)?.unwrap_or(0);
            let folder = self.options.staging.join(name.as_str()).join(format!("e{}", hold.epoch)).join(format!("read-{attempt}"));
            let _ = std::fs::remove_dir_all(&folder);
            std::fs::create_dir_all(&folder).map_err(|e| lasting(format!("cannot make {}: {e}", folder.display())))?;
            crate::nats::materialize(&self.js, name.as_str(), &folder, Some(last)).map_err(passing)?;
            let recovered = crate::host::recover(&folder, &project).map_err(lasting)?;
            if let Some(divergence) = &recovered.report.divergence {
                return Err(lasting(format!("its log does not replay: {divergence}")));
            }
            // Recovery ends before a line that is no record, the last state it can prove. With
            // records after that line (only a writer outside the fleet puts one there: an owner's
            // own torn line is dropped at its successor's fence), serving from there would drop
            // calls that were acknowledged: a person must decide.
            if let Some(lost) = recovered.left_out.iter().find(|l| l.drops_later_lines()) {
                return Err(lasting(format!(
                    "its log has a line that is no record with lines after it, which recovery cannot replay ({lost}); serving it would drop acknowledged calls: read it with `limina recover` and repair it by hand"
                )));
            }
            let tick = recovered.engine.tick();
            let hash = recovered.engine.world_hash();
            let bytes = recovered.engine.snapshot().map_err(lasting)?;
            drop(recovered);
            // The copy served its purpose: the world is in `bytes`, the log stays on JetStream.
            let _ = std::fs::remove_dir_all(&folder);
            let record = crate::durable::Record::Owner { tick, epoch: hold.epoch, owner: self.options.node.clone() };
            let mut line = serde_json::to_vec(&record).map_err(lasting)?;
            line.push(b'\n');
            match crate::nats::place_fence(&self.js, name.as_str(), last, hold.epoch, &line).map_err(passing)? {
                Fence::Placed(after) => {
                    let from = format!("{}/{name} (taken over at tick {tick}, message {last})", self.js.url());
                    let note = format!(
                        "world '{name}': recovered at tick {tick} (world {hash}) from {last} messages; serving as epoch {}",
                        hold.epoch
                    );
                    tracing::info!("{note}");
                    return Ok((crate::host::Resume { from, bytes: bytes.into(), notes: vec![note] }, after));
                }
                Fence::Moved => tracing::info!("world '{name}': its log grew while it was read (message {last}); reading again"),
            }
        }
        Err(passing(format!("its log kept growing past what was read ({FENCE_TRIES} tries): another process still writes it")))
    }

    /// Stops serving a world fleet-wide: no process takes it over any more, this one retires
    /// it, and its lease goes.
    pub async fn retire(self: &Arc<Self>, name: &WorldName) -> Result<Option<super::engine_loop::WorldReport>, String> {
        if !lock(&self.held).contains_key(name) {
            return Err(match self.owner(name) {
                Some(claim) => format!("{} serves it: retire it there, at {}/admin/worlds/{name}", claim.owner, claim.address),
                None => format!("no member of the fleet serves world '{name}' now"),
            });
        }
        let fleet = Arc::clone(self);
        let world = name.to_string();
        off_runtime(move || fleet.leases.unlist_world(&world)).await?.map_err(|e| e.to_string())?;
        let report = self.worlds.stop(name, &format!("world '{name}' was retired")).await.map_err(|e| e.to_string())?;
        let hold = lock(&self.held).remove(name);
        if let Some(hold) = hold {
            let fleet = Arc::clone(self);
            let _ = off_runtime(move || fleet.leases.release(&hold)).await;
        }
        Ok(report)
    }

    /// Who serves `name`, as this process last saw: itself when it does.
    pub fn owner(&self, name: &WorldName) -> Option<Claim> {
        if let Some(hold) = lock(&self.held).get(name) {
            return Some(Claim { owner: self.options.node.clone(), address: self.options.advertise.clone(), epoch: hold.epoch });
        }
        self.owners.read().unwrap_or_else(|p| p.into_inner()).get(name.as_str()).cloned()
    }

    /// Whether `name` was in the fleet's catalogue at the last look.
    pub fn is_listed(&self, name: &WorldName) -> bool {
        self.listed.read().unwrap_or_else(|p| p.into_inner()).contains(name.as_str())
    }

    /// Worlds this member gave up taking over (for now), with why.
    pub fn given_up(&self) -> Vec<(WorldName, Failures)> {
        lock(&self.failures)
            .iter()
            .filter(|(_, f)| f.count >= MAX_FAILURES && f.at.elapsed() < FAILED_PAUSE)
            .map(|(n, f)| (n.clone(), f.clone()))
            .collect()
    }

    /// The lease this process holds on `name`: its epoch and time left before its deadline.
    pub fn lease(&self, name: &WorldName) -> Option<(u64, Duration)> {
        lock(&self.held).get(name).map(|h| (h.epoch, h.left()))
    }
}

/// Runs `work` on a thread of its own and waits for it: the NATS client blocks its caller, and
/// may not be called from any thread of a runtime (a `spawn_blocking` thread is one).
pub(crate) async fn off_runtime<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> Result<T, String> {
    let (done, result) = tokio::sync::oneshot::channel();
    std::thread::Builder::new()
        .name("limina-fleet-call".into())
        .spawn(move || {
            let _ = done.send(work());
        })
        .map_err(|e| format!("cannot start a thread: {e}"))?;
    result.await.map_err(|_| "the fleet's call ended without an answer".to_string())
}

/// The path on any member that names a world's owner.
pub(crate) const WHERE_PATH: &str = "/where";

/// Whether `address` (from the lease bucket, which any NATS writer can write) is a base URL to
/// send clients to: `http(s)://HOST[:PORT]`, nothing more.
pub(crate) fn is_base_address(address: &str) -> bool {
    let rest = address.strip_prefix("http://").or_else(|| address.strip_prefix("https://"));
    rest.is_some_and(|r| !r.is_empty() && r.len() <= 256 && !r.contains(['/', '@', '?', '#', '\\']))
        && address.bytes().all(|b| b.is_ascii_graphic())
}

/// A fleet's answer to a request for `name` (its path below the world is `rest`), when the
/// fleet answers it rather than the world: `/where` (who serves it, as JSON), a redirect to the
/// member that serves it when it is not `here`, or 503 while a listed world has no owner (it is
/// being taken over). None: the world here takes the request, or no such world is known.
pub(crate) fn route(fleet: &Fleet, name: &WorldName, rest: &str, here: bool, uri: &http::Uri) -> Option<jsonrpsee::server::HttpResponse> {
    let owner = fleet.owner(name).filter(|c| is_base_address(&c.address));
    let json = |status: http::StatusCode, body: serde_json::Value| {
        let mut answer = super::http::plain(status, &body.to_string());
        answer.headers_mut().insert(http::header::CONTENT_TYPE, http::HeaderValue::from_static("application/json"));
        answer
    };
    let moving = || {
        let mut answer = super::http::plain(
            http::StatusCode::SERVICE_UNAVAILABLE,
            &format!("world '{name}' has no owner now: a member of the fleet is taking it over; retry shortly"),
        );
        answer.headers_mut().insert(http::header::RETRY_AFTER, http::HeaderValue::from_static("1"));
        answer
    };
    if rest == WHERE_PATH {
        return Some(match &owner {
            Some(claim) => json(
                http::StatusCode::OK,
                serde_json::json!({
                    "world": name.as_str(),
                    "owner": claim.owner,
                    "url": format!("{}/w/{name}/mcp", claim.address),
                    "epoch": claim.epoch,
                    "here": here,
                }),
            ),
            None if here || fleet.is_listed(name) => moving(),
            None => super::http::plain(http::StatusCode::NOT_FOUND, &format!("not found: no world '{name}' in the fleet")),
        });
    }
    if here {
        return None;
    }
    let Some(claim) = owner.filter(|c| c.address != fleet.advertise()) else {
        return fleet.is_listed(name).then(moving);
    };
    let query = uri.query().map(|q| format!("?{q}")).unwrap_or_default();
    let mut moved = super::http::plain(
        http::StatusCode::TEMPORARY_REDIRECT,
        &format!("world '{name}' is served by {} at {}", claim.owner, claim.address),
    );
    match http::HeaderValue::from_str(&format!("{}/w/{name}{rest}{query}", claim.address)) {
        Ok(to) => {
            moved.headers_mut().insert(http::header::LOCATION, to);
            Some(moved)
        }
        Err(_) => Some(moving()),
    }
}
