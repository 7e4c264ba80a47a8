//! The `trace` ops behind the trace, audit, inspector and signal skills: reads of the world log,
//! exports into the sandboxed traces folder, and emitting agent signals.

use std::borrow::Cow;
use std::cell::RefCell;
use std::path::PathBuf;
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

/// Checks an export name: one plain file name, nothing that could leave the traces folder.
pub(crate) fn check_export_name(name: &str) -> Result<String, String> {
    let stem = name.strip_suffix(".jsonl").unwrap_or(name);
    if stem.is_empty() || stem.len() > 100 {
        return Err(format!("name: '{name}' must be 1 to 100 characters"));
    }
    if stem.contains("..")
        || !stem.starts_with(|c: char| c.is_ascii_alphanumeric())
        || !stem.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
    {
        return Err(format!("name: '{name}' is not a plain file name (letters, digits, '_', '-', '.'; no '/', '..' or leading '.')"));
    }
    Ok(stem.to_string())
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
    ops.set(
        "export",
        lua.create_function(move |lua, name: String| {
            let stem = check_export_name(&name).map_err(invalid)?;
            std::fs::create_dir_all(&traces_dir).map_err(|e| {
                HandlerFailure::new(ErrorCode::HandlerError, format!("cannot create {}: {e}", traces_dir.display())).into_lua()
            })?;
            let path = traces_dir.join(format!("{stem}.jsonl"));
            let stats = t
                .borrow()
                .export_to(&path)
                .map_err(|e| HandlerFailure::new(ErrorCode::HandlerError, format!("cannot write {}: {e}", path.display())).into_lua())?;
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
}
