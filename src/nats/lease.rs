//! Which process serves a world, and which worlds a fleet keeps served: two JetStream key-value
//! buckets (SPEC §14). `limina_leases` holds one entry per served world — its owner, the address
//! clients reach it at, and the epoch (the revision its lease began with) — that expires unless
//! renewed: the bucket's `max_age` is the lease's time to live, counted by the server from the
//! last write. `limina_worlds` is the catalogue: a world in it is one the fleet keeps served.
//!
//! Every change is revision-checked by the server: a lease is taken only where none is live,
//! and renewed only by the holder of its last revision. A holder stops taking writes at its
//! deadline, a fifth of the time to live before the server can expire the entry (measured from
//! before the renewal was sent), so with clocks that run at sane rates the old owner has stopped
//! before a new one can begin; the log's fence (`fence`) covers the owner that cannot tell (one
//! paused by SIGSTOP).
//!
//! nats-server 2.9 cannot answer the account query async-nats's bucket creation makes, so the
//! buckets' streams are made here with the settings that call would give them.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use async_nats::jetstream::{self, kv, stream};
use bytes::Bytes;
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};

use super::stream::check_world;
use super::{JetStream, NatsError};

const LEASE_BUCKET: &str = "limina_leases";
const CATALOGUE_BUCKET: &str = "limina_worlds";
/// The time to live a lease bucket may have (what `--lease-ttl-ms` allows).
pub const MIN_TTL: Duration = Duration::from_millis(500);
pub const MAX_TTL: Duration = Duration::from_secs(60);
/// Entries read from one bucket at most per listing.
const MAX_ENTRIES: usize = 4096;

/// Who holds a world's lease, as the bucket holds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claim {
    /// The process's node name (`--node`).
    pub owner: String,
    /// Where its clients reach it (`--advertise`): an `http://host:port` base.
    pub address: String,
    /// The revision the lease began with: larger for every later owner of the world.
    pub epoch: u64,
}

/// A world's entry in the catalogue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Listed {
    pub created_by: String,
    pub created_at_ms: u64,
}

/// The two buckets of one fleet.
pub struct Leases {
    js: JetStream,
    leases: kv::Store,
    catalogue: kv::Store,
    ttl: Duration,
}

impl std::fmt::Debug for Leases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Leases").field("url", self.js.url()).field("ttl", &self.ttl).finish()
    }
}

/// A lease this process holds: renewed by its fleet, checked before its world takes a write.
#[derive(Debug)]
pub struct LeaseHold {
    pub world: String,
    pub epoch: u64,
    claim: Claim,
    state: Mutex<HoldState>,
}

#[derive(Debug)]
struct HoldState {
    revision: u64,
    deadline: Instant,
    lost: Option<String>,
}

impl LeaseHold {
    /// Whether the world may take a write now: not once the lease is lost or past its
    /// deadline (renewals failed for long enough that another process may take it soon).
    pub fn check(&self) -> Result<(), String> {
        let state = self.lock();
        if let Some(lost) = &state.lost {
            return Err(lost.clone());
        }
        let now = Instant::now();
        if now >= state.deadline {
            return Err(format!(
                "this process's lease on world '{}' was not renewed for {:.1} s past its deadline: it takes no writes until a renewal succeeds, and another process may take the world over",
                self.world,
                now.duration_since(state.deadline).as_secs_f64()
            ));
        }
        Ok(())
    }

    /// Why the lease is gone for good, if it is.
    pub fn lost(&self) -> Option<String> {
        self.lock().lost.clone()
    }

    /// Time left before the deadline (zero past it).
    pub fn left(&self) -> Duration {
        self.lock().deadline.saturating_duration_since(Instant::now())
    }

    fn lose(&self, why: String) {
        let mut state = self.lock();
        if state.lost.is_none() {
            state.lost = Some(why);
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HoldState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Leases {
    /// Opens (making them if they are missing) the fleet's buckets on `js`. The lease bucket's
    /// time to live is fixed when it is made: a bucket made with another one keeps its own,
    /// and `ttl()` says which holds.
    pub fn open(js: &JetStream, ttl: Duration) -> Result<Leases, NatsError> {
        let (leases, lease_ttl) = bucket(js, LEASE_BUCKET, ttl)?;
        if !(MIN_TTL..=MAX_TTL).contains(&lease_ttl) {
            return Err(NatsError::Lease {
                world: String::new(),
                url: js.url().to_string(),
                operation: "open the lease bucket",
                message: format!(
                    "its time to live is {lease_ttl:?}, outside {MIN_TTL:?}..={MAX_TTL:?}: no lease could be held under it; remove the stream KV_{LEASE_BUCKET} (with no member running) to make it again"
                ),
            });
        }
        if lease_ttl != ttl {
            tracing::warn!(
                "the fleet's lease bucket {LEASE_BUCKET} was made with a time to live of {lease_ttl:?}; this process uses it, not {ttl:?}"
            );
        }
        let (catalogue, _) = bucket(js, CATALOGUE_BUCKET, Duration::ZERO)?;
        Ok(Leases { js: js.clone(), leases, catalogue, ttl: lease_ttl })
    }

    /// The lease's time to live (the bucket's).
    pub fn ttl(&self) -> Duration {
        self.ttl
    }

    fn failed(&self, world: &str, operation: &'static str, error: &dyn std::fmt::Display) -> NatsError {
        NatsError::Lease { world: world.to_string(), url: self.js.url().to_string(), operation, message: self.js.message(error) }
    }

    /// Takes `world`'s lease for `owner` at `address` if no one holds it. None: someone does.
    pub fn acquire(&self, world: &str, owner: &str, address: &str) -> Result<Option<LeaseHold>, NatsError> {
        check_world(world).map_err(|why| NatsError::BadWorld { world: crate::clip::shown(world), why })?;
        let mut claim = Claim { owner: owner.to_string(), address: address.to_string(), epoch: 0 };
        let sent = Instant::now();
        let store = self.leases.clone();
        let (key, value) = (world.to_string(), encode(&claim));
        let created = self.js.block_on("acquire a lease", async move { store.create(key, value).await })?;
        let revision = match created {
            Ok(revision) => revision,
            Err(e) if e.kind() == kv::CreateErrorKind::AlreadyExists => return Ok(None),
            Err(e) => return Err(self.failed(world, "acquire", &e)),
        };
        // The epoch is the revision the lease began with; written into the entry at once, so
        // clients asking where the world is see it.
        claim.epoch = revision;
        let hold = LeaseHold {
            world: world.to_string(),
            epoch: revision,
            claim,
            state: Mutex::new(HoldState { revision, deadline: self.deadline(sent), lost: None }),
        };
        self.renew(&hold)?;
        match hold.lost() {
            Some(why) => {
                Err(NatsError::Lease { world: world.to_string(), url: self.js.url().to_string(), operation: "acquire", message: why })
            }
            None => Ok(Some(hold)),
        }
    }

    fn deadline(&self, sent: Instant) -> Instant {
        sent + self.ttl - self.ttl / 5
    }

    /// Renews a held lease; moves its deadline on. A lease someone else's revision replaced,
    /// or that expired, is lost for good (`LeaseHold::lost`). Any other error leaves it as it
    /// was: its deadline comes nearer, and the next renewal may succeed.
    pub fn renew(&self, hold: &LeaseHold) -> Result<(), NatsError> {
        if hold.lost().is_some() {
            return Ok(());
        }
        let revision = hold.lock().revision;
        let sent = Instant::now();
        let store = self.leases.clone();
        let (key, value) = (hold.world.clone(), encode(&hold.claim));
        let updated = self.js.block_on("renew a lease", async move { store.update(key, value, revision).await })?;
        match updated {
            Ok(revision) => {
                let mut state = hold.lock();
                state.revision = revision;
                state.deadline = self.deadline(sent);
                Ok(())
            }
            Err(e) if e.kind() == kv::UpdateErrorKind::WrongLastRevision => {
                hold.lose(format!(
                    "this process's lease on world '{}' (epoch {}) expired or was taken by another process; another process serves the world now",
                    hold.world, hold.epoch
                ));
                Ok(())
            }
            Err(e) => Err(self.failed(&hold.world, "renew", &e)),
        }
    }

    /// Renews every lease in `holds` at once (one round trip, not one per lease); as `renew`
    /// for each. The first error, if any, after all were tried.
    pub fn renew_all(&self, holds: &[std::sync::Arc<LeaseHold>]) -> Result<(), NatsError> {
        let asks: Vec<_> =
            holds.iter().filter(|h| h.lost().is_none()).map(|h| (std::sync::Arc::clone(h), h.lock().revision, encode(&h.claim))).collect();
        let store = self.leases.clone();
        let answers = self.js.block_on("renew leases", async move {
            let sent = Instant::now();
            let updates = asks.into_iter().map(|(hold, revision, value)| {
                let store = store.clone();
                async move {
                    let answer = store.update(hold.world.clone(), value, revision).await;
                    (hold, answer)
                }
            });
            (sent, futures_util::future::join_all(updates).await)
        })?;
        let (sent, answers) = answers;
        let mut first = None;
        for (hold, answer) in answers {
            match answer {
                Ok(revision) => {
                    let mut state = hold.lock();
                    state.revision = revision;
                    state.deadline = self.deadline(sent);
                }
                Err(e) if e.kind() == kv::UpdateErrorKind::WrongLastRevision => hold.lose(format!(
                    "this process's lease on world '{}' (epoch {}) expired or was taken by another process; another process serves the world now",
                    hold.world, hold.epoch
                )),
                Err(e) => {
                    first.get_or_insert_with(|| self.failed(&hold.world, "renew", &e));
                }
            }
        }
        first.map_or(Ok(()), Err)
    }

    /// Gives a held lease up (a world retired, a clean stop), so another may take it at once.
    pub fn release(&self, hold: &LeaseHold) -> Result<(), NatsError> {
        hold.lose(format!("this process gave up its lease on world '{}'", hold.world));
        let revision = hold.lock().revision;
        let store = self.leases.clone();
        let key = hold.world.clone();
        let deleted = self.js.block_on("release a lease", async move { store.delete_expect_revision(key, Some(revision)).await })?;
        deleted.map_err(|e| self.failed(&hold.world, "release", &e))
    }

    /// Every live lease: world → its claim.
    pub fn owners(&self) -> Result<BTreeMap<String, Claim>, NatsError> {
        self.entries(&self.leases, LEASE_BUCKET)
    }

    /// The live claim on one world, if any.
    pub fn owner(&self, world: &str) -> Result<Option<Claim>, NatsError> {
        check_world(world).map_err(|why| NatsError::BadWorld { world: crate::clip::shown(world), why })?;
        let store = self.leases.clone();
        let key = world.to_string();
        let entry = self.js.block_on("read a lease", async move { store.entry(key).await })?;
        let entry = entry.map_err(|e| self.failed(world, "read", &e))?;
        Ok(entry.filter(|e| e.operation == kv::Operation::Put).and_then(|e| serde_json::from_slice(&e.value).ok()))
    }

    /// Adds `world` to the catalogue. False: it is listed already.
    pub fn list_world(&self, world: &str, listed: &Listed) -> Result<bool, NatsError> {
        check_world(world).map_err(|why| NatsError::BadWorld { world: crate::clip::shown(world), why })?;
        let store = self.catalogue.clone();
        let (key, value) = (world.to_string(), encode(listed));
        let created = self.js.block_on("list a world", async move { store.create(key, value).await })?;
        match created {
            Ok(_) => Ok(true),
            Err(e) if e.kind() == kv::CreateErrorKind::AlreadyExists => Ok(false),
            Err(e) => Err(self.failed(world, "list", &e)),
        }
    }

    /// Takes `world` out of the catalogue: no process takes it over any more.
    pub fn unlist_world(&self, world: &str) -> Result<(), NatsError> {
        check_world(world).map_err(|why| NatsError::BadWorld { world: crate::clip::shown(world), why })?;
        let store = self.catalogue.clone();
        let key = world.to_string();
        let deleted = self.js.block_on("unlist a world", async move { store.delete(key).await })?;
        deleted.map_err(|e| self.failed(world, "unlist", &e))
    }

    /// The catalogue: every world the fleet keeps served.
    pub fn listed(&self) -> Result<BTreeMap<String, Listed>, NatsError> {
        self.entries(&self.catalogue, CATALOGUE_BUCKET)
    }

    fn entries<T: serde::de::DeserializeOwned>(&self, store: &kv::Store, bucket: &'static str) -> Result<BTreeMap<String, T>, NatsError> {
        let store = store.clone();
        let listed = self.js.block_on("list a bucket", async move {
            let mut keys = store.keys().await.map_err(|e| e.to_string())?;
            let mut names = Vec::new();
            while let Some(key) = keys.next().await {
                names.push(key.map_err(|e| e.to_string())?);
                if names.len() >= MAX_ENTRIES {
                    break;
                }
            }
            let mut found = Vec::with_capacity(names.len());
            for name in names {
                match store.entry(name.clone()).await {
                    Ok(Some(entry)) if entry.operation == kv::Operation::Put => found.push((name, entry.value)),
                    Ok(_) => {}
                    Err(e) => return Err(e.to_string()),
                }
            }
            Ok::<_, String>(found)
        })?;
        let listed =
            listed.map_err(|e| NatsError::Lease { world: String::new(), url: self.js.url().to_string(), operation: bucket, message: e })?;
        // An entry that does not parse is someone else's key: passed over, not trusted.
        Ok(listed.into_iter().filter_map(|(name, value)| Some((name, serde_json::from_slice(&value).ok()?))).collect())
    }
}

fn encode<T: Serialize>(value: &T) -> Bytes {
    // Our claim types always serialize.
    Bytes::from(serde_json::to_vec(value).unwrap_or_default())
}

/// Opens `bucket`, making its stream first if it is missing, with the settings async-nats's
/// bucket creation gives (history 1, `max_age` the time to live); returns it with the time to
/// live it has.
fn bucket(js: &JetStream, bucket: &'static str, ttl: Duration) -> Result<(kv::Store, Duration), NatsError> {
    let config = stream::Config {
        name: format!("KV_{bucket}"),
        description: Some(String::new()),
        subjects: vec![format!("$KV.{bucket}.>")],
        max_messages_per_subject: 1,
        max_age: ttl,
        storage: stream::StorageType::File,
        allow_rollup: true,
        deny_delete: true,
        deny_purge: false,
        allow_direct: true,
        num_replicas: 1,
        discard: stream::DiscardPolicy::New,
        ..Default::default()
    };
    let api: jetstream::Context = js.inner.api.clone();
    let opened = js.block_on("open a bucket", async move {
        let stream = api.get_or_create_stream(config).await.map_err(|e| e.to_string())?;
        let max_age = stream.cached_info().config.max_age;
        let store = api.get_key_value(bucket).await.map_err(|e| e.to_string())?;
        Ok::<_, String>((store, max_age))
    })?;
    opened.map_err(|message| NatsError::Lease { world: String::new(), url: js.url().to_string(), operation: bucket, message })
}
