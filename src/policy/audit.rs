//! Audit: answers about recorded policy decisions, read back from the real trace.
//!
//! Nothing here keeps its own state: every answer is derived from `policy.decision` /
//! `policy.denied` events and the causal links between events, so what audit says is exactly
//! what the world log can prove. Payloads are parsed on demand (audit is a read path, never the
//! tick path).

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashSet};

use serde_json::{Value, json};

use crate::trace::EventKind;
use crate::trace::{Event, HistoryError, TraceLog};

pub(crate) fn is_decision(e: &Event) -> bool {
    EventKind::PolicyDecision.is(&e.event_type) || EventKind::PolicyDenied.is(&e.event_type)
}

fn brief(e: &Event) -> Value {
    json!({"id": e.id, "type": &*e.event_type, "actorId": &*e.actor_id, "threadId": &*e.thread_id})
}

fn field(p: &Value, key: &str) -> Value {
    p.get(key).cloned().unwrap_or(Value::Null)
}

fn context(p: &Value, key: &str) -> Value {
    p.get("context").and_then(|c| c.get(key)).cloned().unwrap_or(Value::Null)
}

/// The decision object `audit.explain` returns for a decision event.
fn decision_view(e: &Event) -> Value {
    let p = e.payload_value();
    json!({
        "eventId": e.id,
        "allow": p.get("allow").cloned().unwrap_or(Value::Bool(false)),
        "rule": field(&p, "rule"),
        "reason": field(&p, "reason"),
        "boundary": field(&p, "boundary"),
        "context": field(&p, "context"),
        "quota": field(&p, "quota"),
        "budget": field(&p, "budget"),
    })
}

/// All ancestors of an event, nearest first, each once (old ones read back from disk).
fn ancestry<'a>(trace: &'a TraceLog, event: &Event) -> Result<Vec<Cow<'a, Event>>, HistoryError> {
    let mut out: Vec<Cow<'a, Event>> = Vec::new();
    let mut seen = HashSet::new();
    // Positions in `out` whose parents are still to visit (None: the event itself).
    let mut frontier: Vec<Option<usize>> = vec![None];
    while let Some(at) = frontier.pop() {
        let parents: Vec<String> = match at {
            None => event.parents().map(str::to_string).collect(),
            Some(i) => out[i].parents().map(str::to_string).collect(),
        };
        for parent in parents {
            if seen.insert(parent.clone())
                && let Some(p) = trace.get(&parent)?
            {
                out.push(p);
                frontier.push(Some(out.len() - 1));
            }
        }
    }
    Ok(out)
}

/// `audit.explain`: the governing decision, provenance and causal chain of an event. None when
/// the id is not in the trace.
pub(crate) fn explain(trace: &TraceLog, event_id: &str) -> Result<Option<Value>, HistoryError> {
    let Some(event) = trace.get(event_id)? else { return Ok(None) };
    let ancestors = ancestry(trace, &event)?;
    let decision = if is_decision(&event) { Some(&*event) } else { ancestors.iter().map(|a| &**a).find(|e| is_decision(e)) };
    let provenance = match decision {
        Some(d) => {
            let p = d.payload_value();
            json!({
                "agentId": context(&p, "agentId"),
                "sessionId": context(&p, "sessionId"),
                "profile": context(&p, "profile"),
                "package": context(&p, "package"),
            })
        }
        None => json!({"agentId": &*event.actor_id, "sessionId": &*event.thread_id, "profile": null, "package": null}),
    };
    let mut parents = Vec::new();
    for p in event.parents() {
        if let Some(found) = trace.get(p)? {
            parents.push(brief(&found));
        }
    }
    Ok(Some(json!({
        "eventId": event.id,
        "eventType": &*event.event_type,
        "found": true,
        "decision": decision.map(decision_view),
        "provenance": provenance,
        "causalTrace": {"parents": parents, "ancestry": ancestors.iter().map(|a| brief(a)).collect::<Vec<_>>()},
    })))
}

/// Filters for `audit.query`.
#[derive(Debug, Default, Clone)]
pub struct DecisionFilter {
    /// Some(true) = allowed only, Some(false) = denied only.
    pub allow: Option<bool>,
    pub cap: Option<String>,
    pub rule: Option<String>,
    pub agent_id: Option<String>,
    pub session_id: Option<String>,
    pub package: Option<String>,
    pub limit: usize,
}

/// `audit.query`: matching decisions (oldest first, up to `limit`) and a summary of all matches,
/// over the whole history (spilled events read back from disk).
pub fn query(trace: &TraceLog, f: &DecisionFilter) -> Result<Value, HistoryError> {
    let mut decisions = Vec::new();
    let (mut total, mut allowed, mut denied) = (0u64, 0u64, 0u64);
    let mut by_rule: BTreeMap<String, u64> = BTreeMap::new();
    let mut by_cap: BTreeMap<String, u64> = BTreeMap::new();
    let mut packages: BTreeSet<String> = BTreeSet::new();
    for e in trace.durable() {
        let e = e?;
        if !is_decision(&e) {
            continue;
        }
        let p = e.payload_value();
        let allow = p.get("allow").and_then(Value::as_bool).unwrap_or(false);
        let rule = p.get("rule").and_then(Value::as_str).unwrap_or_default().to_string();
        let cap = context(&p, "cap").as_str().unwrap_or_default().to_string();
        let package = context(&p, "package").as_str().map(str::to_string);
        let matches = f.allow.is_none_or(|a| a == allow)
            && f.cap.as_deref().is_none_or(|c| c == cap)
            && f.rule.as_deref().is_none_or(|r| r == rule)
            && f.agent_id.as_deref().is_none_or(|a| context(&p, "agentId").as_str() == Some(a))
            && f.session_id.as_deref().is_none_or(|s| context(&p, "sessionId").as_str() == Some(s))
            && f.package.as_deref().is_none_or(|pk| package.as_deref() == Some(pk));
        if !matches {
            continue;
        }
        total += 1;
        if allow {
            allowed += 1
        } else {
            denied += 1
        }
        *by_rule.entry(rule.clone()).or_default() += 1;
        *by_cap.entry(cap.clone()).or_default() += 1;
        if let Some(pk) = &package {
            packages.insert(pk.clone());
        }
        if decisions.len() < f.limit {
            decisions.push(json!({
                "eventId": e.id,
                "skill": field(&p, "skill"),
                "allow": allow,
                "rule": rule,
                "reason": field(&p, "reason"),
                "boundary": field(&p, "boundary"),
                "cap": cap,
                "agentId": context(&p, "agentId"),
                "sessionId": context(&p, "sessionId"),
                "profile": context(&p, "profile"),
                "package": package,
                "tick": context(&p, "tick"),
            }));
        }
    }
    Ok(json!({
        "summary": {"total": total, "allowed": allowed, "denied": denied, "byRule": by_rule, "byCap": by_cap, "packages": packages},
        "decisions": decisions,
    }))
}

/// `audit.usage`: allowed/denied counts per session and capability, and the latest quota and
/// budget snapshot seen for each session.
pub fn usage(trace: &TraceLog, session_filter: Option<&str>) -> Result<Value, HistoryError> {
    let mut counts: BTreeMap<(String, String), (u64, u64)> = BTreeMap::new();
    let mut quotas: BTreeMap<String, Value> = BTreeMap::new();
    let mut budgets: BTreeMap<String, Value> = BTreeMap::new();
    for e in trace.durable() {
        let e = e?;
        if !is_decision(&e) {
            continue;
        }
        let p = e.payload_value();
        let Some(session) = context(&p, "sessionId").as_str().map(str::to_string) else { continue };
        if session_filter.is_some_and(|s| s != session) {
            continue;
        }
        let cap = context(&p, "cap").as_str().unwrap_or_default().to_string();
        let entry = counts.entry((session.clone(), cap)).or_default();
        if p.get("allow").and_then(Value::as_bool).unwrap_or(false) {
            entry.0 += 1;
        } else {
            entry.1 += 1;
        }
        if let Some(q) = p.get("quota").filter(|q| !q.is_null()) {
            quotas.insert(session.clone(), q.clone());
        }
        if let Some(b) = p.get("budget").filter(|b| !b.is_null()) {
            budgets.insert(session, b.clone());
        }
    }
    Ok(json!({
        "perSessionCap": counts.into_iter().map(|((s, c), (a, d))| json!({"sessionId": s, "cap": c, "allowed": a, "denied": d})).collect::<Vec<_>>(),
        "quotas": quotas.into_iter().map(|(s, q)| json!({"sessionId": s, "quota": q})).collect::<Vec<_>>(),
        "budgets": budgets.into_iter().map(|(s, b)| json!({"sessionId": s, "budget": b})).collect::<Vec<_>>(),
    }))
}
