//! The `trace` ops behind the trace, audit, inspector and signal skills: reads of the world log,
//! exports into the sandboxed traces folder, and emitting agent signals.
//!
//! An export is written through `atomic_file::write_with` into a real `traces/` folder (a link
//! in its place is refused): never through a link, and never over a file an export did not make
//! (the folder's `.exports` list names those; the operator's live `--trace` file is never one).
//! One engine's exports are bounded: `MAX_EXPORT_FILES` files holding `MAX_EXPORT_BYTES`
//! together, and the list at most `MAX_LISTED` names.

use std::borrow::Cow;
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use mlua::{Lua, Table, Value as LuaValue};
use serde_json::{Value, json};

use super::invalid;
use crate::policy::audit::{self, DecisionFilter};
use crate::script::convert::{blob, lua_to_json};
use crate::skills::{ErrorCode, HandlerFailure};
use crate::trace::{Event, EventDraft, HistoryError, TraceLog, seq_of};

fn event_json(e: &Event) -> Value {
    serde_json::to_value(e).unwrap_or(Value::Null)
}

/// The spilled history could not be read back (or was changed on disk): the call fails, it does
/// not answer from a history it cannot vouch for.
fn unreadable(e: HistoryError) -> mlua::Error {
    HandlerFailure::new(ErrorCode::HandlerError, e.to_string()).into_lua()
}

/// Why a name cannot be an export file's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ExportNameError {
    #[error("name: '{name}' must be 1 to 100 characters")]
    Length { name: String },
    #[error("name: '{name}' is not a plain file name (letters, digits, '_', '-', '.'; no '/', '..' or leading '.')")]
    NotPlain { name: String },
}

/// Checks an export name: one plain file name, nothing that could leave the traces folder.
pub(crate) fn check_export_name(name: &str) -> Result<String, ExportNameError> {
    let stem = name.strip_suffix(".jsonl").unwrap_or(name);
    if stem.is_empty() || stem.len() > 100 {
        return Err(ExportNameError::Length { name: name.to_string() });
    }
    if stem.contains("..")
        || !stem.starts_with(|c: char| c.is_ascii_alphanumeric())
        || !stem.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
    {
        return Err(ExportNameError::NotPlain { name: name.to_string() });
    }
    Ok(stem.to_string())
}

/// Export files one engine's `trace.export` may make (writing one of them again is allowed).
pub(crate) const MAX_EXPORT_FILES: usize = 256;
/// Bytes the export files one engine made may hold together (1 GiB).
pub(crate) const MAX_EXPORT_BYTES: u64 = 1 << 30;

/// The list, in the traces folder, of the files `trace.export` made there (in this run or an
/// earlier one): the only files an export may replace. The operator's own files there (a
/// `--trace` log) are never on it; a client cannot put them on it.
const LISTED: &str = ".exports";
/// Names the list holds at most (past it, new names are refused).
const MAX_LISTED: usize = 4096;

/// The names on the traces folder's list; none if it is missing, not a regular file or
/// unreadable (then nothing there is replaced).
fn listed(dir: &Path) -> Vec<String> {
    let path = dir.join(LISTED);
    if !std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_file()) {
        return Vec::new();
    }
    let mut text = String::new();
    let read = std::fs::File::open(&path).and_then(|f| std::io::Read::read_to_string(&mut std::io::Read::take(f, 1 << 20), &mut text));
    if read.is_err() {
        return Vec::new();
    }
    text.lines().filter(|l| check_export_name(l).is_ok() && l.ends_with(".jsonl")).take(MAX_LISTED).map(str::to_string).collect()
}

/// What this engine's `trace.export` has written: the files it made, and their sizes, which
/// together stay under `MAX_EXPORT_BYTES`. It replaces only files on the folder's list (never a
/// file an export did not make, such as the operator's live `--trace` file, nor a link planted
/// in the folder).
#[derive(Debug)]
struct Exports {
    files: std::collections::HashMap<String, u64>,
    max_files: usize,
    max_bytes: u64,
}

impl Default for Exports {
    fn default() -> Self {
        Exports { files: Default::default(), max_files: MAX_EXPORT_FILES, max_bytes: MAX_EXPORT_BYTES }
    }
}

impl Exports {
    fn total(&self) -> u64 {
        self.files.values().sum()
    }

    /// Exports the whole log to `<dir>/<stem>.jsonl` (see `atomic_file::write_with`).
    fn write(&mut self, trace: &TraceLog, dir: &Path, stem: &str) -> Result<crate::trace::ExportStats, HandlerFailure> {
        let file = format!("{stem}.jsonl");
        let failed = |why: String| HandlerFailure::new(ErrorCode::HandlerError, why);
        let mine = self.files.get(&file).copied();
        // Named as the project's `traces/` (the folder's own name), never the server's path.
        let folder = dir.file_name().map_or_else(|| "traces".into(), |n| n.to_string_lossy().into_owned());
        crate::atomic_file::real_folder(dir).map_err(|e| failed(format!("cannot export into {folder}/: {e}")))?;
        let mut list = listed(dir);
        let path = dir.join(&file);
        let live = trace.append_path().and_then(|p| p.canonicalize().ok());
        let known = (mine.is_some() || list.contains(&file)) && live.is_none_or(|live| path.canonicalize().ok() != Some(live));
        if !known && list.len() >= MAX_LISTED {
            return Err(HandlerFailure::new(
                ErrorCode::CapacityExceeded,
                format!(
                    "trace.export: the traces folder lists {MAX_LISTED} exports already; export under one of their names again to replace it"
                ),
            ));
        }
        if mine.is_none() && self.files.len() >= self.max_files {
            return Err(HandlerFailure::new(
                ErrorCode::CapacityExceeded,
                format!(
                    "trace.export: this engine has made {} export files, the most it may; export under one of their names again to replace it",
                    self.max_files
                ),
            ));
        }
        let room = self.max_bytes.saturating_sub(self.total() - mine.unwrap_or(0));
        let over = std::cell::Cell::new(false);
        let ours = |_: &Path| known;
        let written = crate::atomic_file::write_with(&path, crate::atomic_file::Replace::Checked(&ours), |f| {
            trace.export(Capped { out: std::io::BufWriter::new(f), room, over: &over })
        });
        match written {
            Ok(stats) => {
                if !list.contains(&file) {
                    list.push(file.clone());
                    let text = list.join("\n") + "\n";
                    let always = |_: &Path| true;
                    let listing = crate::atomic_file::write_with(&dir.join(LISTED), crate::atomic_file::Replace::Checked(&always), |f| {
                        std::io::Write::write_all(f, text.as_bytes())
                    });
                    if let Err(e) = listing {
                        // The export stands; a later run cannot replace it, which is the safe side.
                        tracing::warn!(dir = %dir.display(), "the list of exports was not updated: {e}");
                    }
                }
                self.files.insert(file, stats.bytes);
                Ok(stats)
            }
            Err(_) if over.get() => Err(HandlerFailure::new(
                ErrorCode::CapacityExceeded,
                format!(
                    "trace.export: the export would pass {} bytes, the most one engine's exports may hold together ({room} left); nothing was written",
                    self.max_bytes
                ),
            )),
            Err(e) if crate::atomic_file::is_refusal(&e) => Err(HandlerFailure::new(
                ErrorCode::InvalidInput,
                format!("name: {e}; trace.export replaces only files this engine exported, choose another name"),
            )),
            Err(e) => Err(failed(format!("cannot write {folder}/{file}: {e}"))),
        }
    }
}

/// A writer that refuses to go past `room` bytes (and says so in `over`).
struct Capped<'a, W> {
    out: W,
    room: u64,
    over: &'a std::cell::Cell<bool>,
}

impl<W: std::io::Write> std::io::Write for Capped<'_, W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if buf.len() as u64 > self.room {
            self.over.set(true);
            return Err(std::io::Error::other("the export passes its byte limit"));
        }
        let n = self.out.write(buf)?;
        self.room -= n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

fn need_event<'a>(trace: &'a TraceLog, id: &str) -> mlua::Result<Cow<'a, Event>> {
    if seq_of(id).is_none() {
        return Err(invalid(format!("eventId: '{id}' is not an event id (evt_<actor>_<seq>_<hash>)")));
    }
    trace.get(id).map_err(unreadable)?.ok_or_else(|| invalid(format!("eventId: no event '{id}' in the trace")))
}

pub(crate) fn create(lua: &Lua, trace: Rc<RefCell<TraceLog>>, traces_dir: PathBuf) -> mlua::Result<Table> {
    let ops = lua.create_table()?;

    let t = Rc::clone(&trace);
    ops.set(
        "tail",
        lua.create_function(move |lua, (after, limit, actor, kind): (Option<i64>, Option<i64>, Option<String>, Option<String>)| {
            let after = after.unwrap_or(-1);
            let limit = limit.unwrap_or(100).max(0) as usize;
            let trace = t.borrow();
            let mut events = Vec::new();
            for e in trace.tail() {
                if events.len() >= limit {
                    break;
                }
                if (e.seq as i64) <= after
                    || actor.as_deref().is_some_and(|a| a != &*e.actor_id)
                    || kind.as_deref().is_some_and(|k| k != &*e.event_type)
                {
                    continue;
                }
                events.push(e);
            }
            let next = events.last().map(|e| e.seq);
            let out = json!({"events": events.into_iter().map(event_json).collect::<Vec<_>>(), "nextAfterSeq": next});
            blob(lua, out)
        })?,
    )?;

    let t = Rc::clone(&trace);
    ops.set(
        "explain",
        lua.create_function(move |lua, id: String| {
            let trace = t.borrow();
            let event = need_event(&trace, &id)?;
            let mut parents = Vec::new();
            for p in event.parents() {
                if let Some(found) = trace.get(p).map_err(unreadable)? {
                    parents.push(event_json(&found));
                }
            }
            let children: Vec<Value> = trace.children(&id).map_err(unreadable)?.iter().map(|c| event_json(c)).collect();
            // The whole causal chain above the event (an agent's action → its decision → the
            // perception that fed it), nearest first, each event once, at most 64; old ones
            // are read back from disk.
            let mut ancestors: Vec<Cow<'_, Event>> = Vec::new();
            // Positions in `ancestors` whose parents are still to visit (None: the event).
            let mut frontier: std::collections::VecDeque<Option<usize>> = std::collections::VecDeque::from([None]);
            while let Some(at) = frontier.pop_back() {
                let next = match at {
                    Some(i) => &ancestors[i],
                    None => &event,
                };
                let ids: Vec<String> = next.parents().map(str::to_string).collect();
                for id in ids {
                    if ancestors.len() < 64
                        && !ancestors.iter().any(|a| a.id == id)
                        && let Some(parent) = trace.get(&id).map_err(unreadable)?
                    {
                        ancestors.push(parent);
                        frontier.push_front(Some(ancestors.len() - 1));
                    }
                }
            }
            let ancestors: Vec<Value> = ancestors.iter().map(|a| event_json(a)).collect();
            blob(lua, json!({"event": event_json(&event), "parents": parents, "children": children, "ancestors": ancestors}))
        })?,
    )?;

    let t = Rc::clone(&trace);
    let exports = RefCell::new(Exports::default());
    ops.set(
        "export",
        lua.create_function(move |lua, name: String| {
            let stem = check_export_name(&name).map_err(|e| invalid(e.to_string()))?;
            let stats = exports.borrow_mut().write(&t.borrow(), &traces_dir, &stem).map_err(|e| e.into_lua())?;
            blob(lua, json!({"name": stem, "events": stats.events, "bytes": stats.bytes, "anchor": stats.anchor.to_string()}))
        })?,
    )?;

    let t = Rc::clone(&trace);
    ops.set(
        "emit",
        lua.create_function(
            move |lua, (kind, payload, actor, thread, cause, tick): (String, LuaValue, String, String, Option<String>, u64)| {
                let payload = lua_to_json(lua, &payload, "payload").map_err(|e| invalid(e.to_string()))?;
                let draft = EventDraft::new(&kind, &actor).thread(&thread).caused_by(cause.into_iter().collect());
                Ok(t.borrow_mut().emit(draft, tick, &payload).id.clone())
            },
        )?,
    )?;

    let t = Rc::clone(&trace);
    ops.set(
        "info",
        // `recent` 0: no events and no actor list (a caller without `trace.read`).
        lua.create_function(move |lua, recent: usize| {
            let trace = t.borrow();
            let events: Vec<Value> = trace.tail().rev().take(recent).map(event_json).collect::<Vec<_>>().into_iter().rev().collect();
            let actors: Vec<&str> = if recent > 0 { trace.actors().collect() } else { Vec::new() };
            blob(lua, json!({"threadId": trace.thread_id(), "eventCount": trace.len(), "actors": actors, "recent": events}))
        })?,
    )?;

    let t = Rc::clone(&trace);
    ops.set(
        "audit_explain",
        lua.create_function(move |lua, id: String| {
            let trace = t.borrow();
            need_event(&trace, &id)?;
            blob(lua, audit::explain(&trace, &id).map_err(unreadable)?.unwrap_or(Value::Null))
        })?,
    )?;

    let t = Rc::clone(&trace);
    ops.set(
        "audit_query",
        lua.create_function(move |lua, filter: Table| {
            let text = |key: &str| filter.get::<Option<String>>(key);
            let allow = match text("decision")?.as_deref() {
                Some("allow") => Some(true),
                Some("deny") => Some(false),
                _ => None,
            };
            let f = DecisionFilter {
                allow,
                cap: text("cap")?,
                rule: text("rule")?,
                agent_id: text("agentId")?,
                session_id: text("sessionId")?,
                package: text("package")?,
                limit: filter.get::<Option<usize>>("limit")?.unwrap_or(200),
            };
            blob(lua, audit::query(&t.borrow(), &f).map_err(unreadable)?)
        })?,
    )?;

    let t = Rc::clone(&trace);
    ops.set(
        "audit_usage",
        lua.create_function(move |lua, session: Option<String>| {
            blob(lua, audit::usage(&t.borrow(), session.as_deref()).map_err(unreadable)?)
        })?,
    )?;

    ops.set_readonly(true);
    Ok(ops)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn export_names_cannot_escape() {
        for bad in ["../x", "a/b", "..", ".hidden", "a\\b", "", "x/../../etc", "name with space", "a..b"] {
            assert!(check_export_name(bad).is_err(), "{bad:?}");
        }
        assert_eq!(check_export_name("builder").unwrap(), "builder");
        assert_eq!(check_export_name("run-2.v1.jsonl").unwrap(), "run-2.v1");
    }

    fn log(events: u64) -> TraceLog {
        let mut log = TraceLog::new("thr_test");
        for i in 0..events {
            log.emit(EventDraft::new("test.event", "agt_t"), i, &json!({"i": i}));
        }
        log
    }

    /// One engine's exports stop at a number of files and at a total of bytes, each with a
    /// `capacity_exceeded` naming the limit; a file it made may be written again.
    #[test]
    fn exports_are_bounded_in_files_and_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let trace = log(20);
        let one = Exports::default().write(&trace, dir.path(), "probe").unwrap().bytes;
        let mut exports = Exports { max_files: 3, max_bytes: 3 * one + one / 2, ..Exports::default() };
        for name in ["a", "b", "c"] {
            exports.write(&trace, dir.path(), name).unwrap();
        }
        let e = exports.write(&trace, dir.path(), "d").unwrap_err();
        assert_eq!(e.code, ErrorCode::CapacityExceeded);
        assert!(e.message.contains("has made 3 export files, the most it may"), "{}", e.message);
        assert!(!dir.path().join("d.jsonl").exists());
        exports.write(&trace, dir.path(), "a").unwrap();
        // Bytes: a longer log no longer fits beside the other two.
        let longer = log(40);
        let e = exports.write(&longer, dir.path(), "a").unwrap_err();
        assert_eq!(e.code, ErrorCode::CapacityExceeded);
        assert!(e.message.contains(&format!("would pass {} bytes", 3 * one + one / 2)), "{}", e.message);
        assert_eq!(std::fs::read(dir.path().join("a.jsonl")).unwrap().len() as u64, one, "the old export is still there");
        let mut left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        left.sort();
        assert_eq!(left, [".exports", "a.jsonl", "b.jsonl", "c.jsonl", "probe.jsonl"], "no temporary file is left");
        // Another engine may write the listed exports again, not a file no export made.
        std::fs::write(dir.path().join("operator.jsonl"), "mine").unwrap();
        assert!(Exports::default().write(&trace, dir.path(), "b").is_ok());
        assert_eq!(Exports::default().write(&trace, dir.path(), "operator").unwrap_err().code, ErrorCode::InvalidInput);
        assert_eq!(std::fs::read_to_string(dir.path().join("operator.jsonl")).unwrap(), "mine");
    }
}
