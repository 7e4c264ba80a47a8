//! JetStream as a command log's remote (`durable::RemoteLog`): the log's bytes go to the world's
//! stream through a `WorldLog`, its snapshots to the world's object store. This is what
//! `limina mcp --nats URL` gives each world's log.
//!
//! A world name whose stream already holds a log is refused: a log is one run's account, as a
//! log file is (take the world over from it with `limina recover nats://…/WORLD`). The one
//! exception is a fleet's take-over: the new owner has read the log through its own fence and
//! continues it (`after`), under the lease it holds (`lease`).

use std::sync::Arc;
use std::time::Duration;

use super::{JetStream, LeaseHold, NatsError, WorldLog};
use crate::durable::{OpenRemote, RemoteLog};

/// Unacknowledged bytes past which new calls are refused (half the writer's backlog bound, so the
/// steps recorded meanwhile still fit).
const REFUSE_PAST: u64 = 32 << 20;

/// Opens a world's log on JetStream when its engine starts its command log.
pub struct NatsRemote {
    pub js: JetStream,
    pub world: String,
    /// In a fleet: the lease this process serves the world under. Past its deadline the log
    /// takes no records; once it is lost, the log stops.
    pub lease: Option<Arc<LeaseHold>>,
    /// A world taken over: its log continues right after this message (the new owner's
    /// fence), with no new header.
    pub after: Option<u64>,
}

impl NatsRemote {
    /// A world's log of its own, on `js`.
    pub fn new(js: JetStream, world: String) -> Self {
        NatsRemote { js, world, lease: None, after: None }
    }
}

impl OpenRemote for NatsRemote {
    fn continues(&self) -> bool {
        self.after.is_some()
    }

    fn open(&self) -> Result<Box<dyn RemoteLog>, String> {
        let writer = u64::from_str_radix(&crate::unguessable::hex(8), 16).unwrap_or(1);
        if let Some(after) = self.after {
            let log = WorldLog::open_after(&self.js, &self.world, writer, after).map_err(|e| e.to_string())?;
            return Ok(Box::new(self.remote_log(log)));
        }
        if WorldLog::stored_last_sequence(&self.js, &self.world).map_err(|e| e.to_string())?.is_some_and(|last| last > 0) {
            return Err(format!(
                "{}: world '{}' already has a log on JetStream (a world of this name ran before); read it with `limina recover {}`, or use another name",
                self.describe(),
                self.world,
                self.describe()
            ));
        }
        let log = WorldLog::open(&self.js, &self.world, writer).map_err(|e| e.to_string())?;
        Ok(Box::new(self.remote_log(log)))
    }

    fn describe(&self) -> String {
        format!("{}/{}", self.js.url(), self.world)
    }
}

impl NatsRemote {
    fn remote_log(&self, log: WorldLog) -> NatsLog {
        NatsLog { js: self.js.clone(), log, lease: self.lease.clone(), progress: std::cell::Cell::new((0, std::time::Instant::now())) }
    }
}

struct NatsLog {
    js: JetStream,
    log: WorldLog,
    lease: Option<Arc<LeaseHold>>,
    /// The acknowledged count when it last moved, and when.
    progress: std::cell::Cell<(u64, std::time::Instant)>,
}

/// Bytes waiting with no acknowledgement for this long make the log unwritable: the server is
/// hung, or the stream is gone (a connected client does not say so).
const SILENT: Duration = Duration::from_secs(2);

impl RemoteLog for NatsLog {
    fn append(&mut self, bytes: &[u8]) -> Result<(), String> {
        self.log.append(bytes).map_err(|e| e.to_string())
    }

    fn acknowledged(&self) -> u64 {
        self.log.acknowledged()
    }

    fn wait(&self, upto: u64, timeout: Duration) -> Result<(), String> {
        self.log.wait_acknowledged(upto, timeout).map_err(|e| e.to_string())
    }

    fn status(&self) -> Result<(), String> {
        if let Some(lost) = self.lease.as_ref().and_then(|l| l.lost()) {
            return Err(lost);
        }
        match self.log.failure() {
            Some(failure) => Err(failure.to_string()),
            None => Ok(()),
        }
    }

    fn writable(&self) -> Result<(), String> {
        if let Some(lease) = &self.lease {
            lease.check()?;
        }
        if !self.js.is_connected() {
            return Err(format!("NATS at {} is unreachable (the client is reconnecting)", self.js.url()));
        }
        let (acknowledged, appended) = (self.log.acknowledged(), self.log.appended());
        let waiting = appended.saturating_sub(acknowledged);
        if waiting > REFUSE_PAST {
            return Err(format!("{waiting} bytes of the log wait for JetStream's acknowledgement (more than {REFUSE_PAST})"));
        }
        let now = std::time::Instant::now();
        let (seen, since) = self.progress.get();
        if acknowledged != seen || waiting == 0 {
            self.progress.set((acknowledged, now));
        } else if now.duration_since(since) >= SILENT {
            return Err(format!(
                "JetStream at {} has acknowledged nothing for {:.0} s while {waiting} bytes wait (a hung server, or a stream that is gone)",
                self.js.url(),
                now.duration_since(since).as_secs_f64()
            ));
        }
        Ok(())
    }

    fn halted(&self) -> Option<String> {
        self.lease.as_ref()?.check().err()
    }

    fn on_acknowledged(&mut self, waker: Box<dyn Fn() + Send + Sync>) {
        self.log.on_acknowledged(waker);
    }

    fn put_snapshot(&self, name: &str, path: &std::path::Path) {
        let (js, world, name, path) = (self.js.clone(), self.log.world().to_string(), name.to_string(), path.to_path_buf());
        self.js.runtime().spawn(async move {
            if let Err(e) = super::snapshots::put(&js, &world, &name, &path).await {
                tracing::warn!("world '{world}': snapshot {name} was not stored on JetStream: {e}");
            }
        });
    }

    fn remove_snapshot(&self, name: &str) {
        let (js, world, name) = (self.js.clone(), self.log.world().to_string(), name.to_string());
        self.js.runtime().spawn(async move {
            if let Err(e) = super::snapshots::remove(&js, &world, &name).await {
                tracing::debug!("world '{world}': snapshot {name} was not removed from JetStream: {e}");
            }
        });
    }

    fn describe(&self) -> String {
        format!("{}/{}", self.js.url(), self.log.world())
    }
}

/// Reads a world's log and the snapshots it names from JetStream into `folder` (`world.log`
/// and the snapshot files beside it), so the file log's replay and recovery read it as they
/// read any run's folder; `end`: through that message only (None: through the last now).
/// Returns the number of snapshots fetched.
pub fn materialize(js: &JetStream, world: &str, folder: &std::path::Path, end: Option<u64>) -> Result<usize, NatsError> {
    let failed = |operation: &'static str, e: &dyn std::fmt::Display| NatsError::Stream {
        world: world.to_string(),
        stream: super::stream::stream_name(world),
        url: js.url().to_string(),
        operation,
        message: e.to_string(),
    };
    let mut bytes = WorldLog::read(js, world, end)?;
    let path = folder.join("world.log");
    let mut file = std::fs::OpenOptions::new().write(true).create_new(true).open(&path).map_err(|e| failed("writing the log out", &e))?;
    std::io::copy(&mut bytes, &mut file).map_err(|e| failed("writing the log out", &e))?;
    file.sync_all().map_err(|e| failed("writing the log out", &e))?;
    // The snapshots to fetch are the ones the log names, read as replay reads them; a line that
    // is no record is the replay's to report, not this copy's.
    let mut reader = crate::durable::LogReader::open(&path).map_err(|e| failed("reading the log", &e))?;
    let mut names: Vec<String> = Vec::new();
    while let Some(next) = reader.next_record_or_bad().map_err(|e| failed("reading the log", &e))? {
        if let Ok(crate::durable::Record::Snapshot { file, .. }) = next
            && crate::paths::is_plain_relative(&file)
            && !file.contains('/')
            && !names.contains(&file)
        {
            names.push(file);
        }
    }
    let mut fetched = 0;
    for name in names {
        if let Some(snapshot) = super::snapshots::fetch(js, world, &name)? {
            std::fs::write(folder.join(&name), snapshot).map_err(|e| failed("writing a snapshot out", &e))?;
            fetched += 1;
        }
    }
    Ok(fetched)
}
