//! Audit: answers about recorded policy decisions, read back from the real trace.
//!
//! Nothing here keeps its own state: every answer is derived from `policy.decision` /
//! `policy.denied` events and the causal links between events, so what audit says is exactly
//! what the world log can prove.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use serde_json::{Value, json};

use crate::trace::{Event, TraceLog};

pub fn is_decision(e: &Event) -> bool {
    e.event_type == "policy.decision" || e.event_type == "policy.denied"
}

fn brief(e: &Event) -> Value {
    json!({"id": e.id, "type": e.event_type, "actorId": e.actor_id, "threadId": e.thread_id})
}

fn context(e: &Event, key: &str) -> Value {
    e.payload
        .get("context")
        .and_then(|c| c.get(key))
        .cloned()
        .unwrap_or(Value::Null)
}

/// The decision object `audit.explain` returns for a decision event.
fn decision_view(e: &Event) -> Value {
    let p = &e.payload;
    json!({
        "eventId": e.id,
        "allow": p.get("allow").cloned().unwrap_or(Value::Bool(false)),
        "rule": p.get("rule").cloned().unwrap_or(Value::Null),
        "reason": p.get("reason").cloned().unwrap_or(Value::Null),
        "boundary": p.get("boundary").cloned().unwrap_or(Value::Null),
        "context": p.get("context").cloned().unwrap_or(Value::Null),
        "quota": p.get("quota").cloned().unwrap_or(Value::Null),
        "budget": p.get("budget").cloned().unwrap_or(Value::Null),
    })
}

/// All ancestors of an event, nearest first, each once.
fn ancestry<'a>(trace: &'a TraceLog, event: &'a Event) -> Vec<&'a Event> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let mut frontier: Vec<&Event> = vec![event];
    while let Some(e) = frontier.pop() {
        for parent in e.parents() {
            if seen.insert(parent.to_string())
                && let Some(p) = trace.get(parent)
            {
                out.push(p);
                frontier.push(p);
            }
        }
    }
    out
}

/// `audit.explain`: the governing decision, provenance and causal chain of an event. None when
/// the id is not in the trace.
pub fn explain(trace: &TraceLog, event_id: &str) -> Option<Value> {
    let event = trace.get(event_id)?;
    let ancestors = ancestry(trace, event);
    let decision = if is_decision(event) {
        Some(event)
    } else {
        ancestors.iter().copied().find(|e| is_decision(e))
    };
    let provenance = match decision {
        Some(d) => json!({
            "agentId": context(d, "agentId"),
            "sessionId": context(d, "sessionId"),
            "profile": context(d, "profile"),
            "package": context(d, "package"),
        }),
        None => {
            json!({"agentId": event.actor_id, "sessionId": event.thread_id, "profile": null, "package": null})
        }
    };
    let parents: Vec<Value> = event
        .parents()
        .filter_map(|p| trace.get(p))
        .map(brief)
        .collect();
    Some(json!({
        "eventId": event.id,
        "eventType": event.event_type,
        "found": true,
        "decision": decision.map(decision_view),
        "provenance": provenance,
        "causalTrace": {"parents": parents, "ancestry": ancestors.into_iter().map(brief).collect::<Vec<_>>()},
    }))
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

/// `audit.query`: matching decisions (oldest first, up to `limit`) and a summary of all matches.
pub fn query(trace: &TraceLog, f: &DecisionFilter) -> Value {
    let mut decisions = Vec::new();
    let (mut total, mut allowed, mut denied) = (0u64, 0u64, 0u64);
    let mut by_rule: BTreeMap<String, u64> = BTreeMap::new();
    let mut by_cap: BTreeMap<String, u64> = BTreeMap::new();
    let mut packages: BTreeSet<String> = BTreeSet::new();
    let text = |v: Value| v.as_str().map(str::to_string);
    for e in trace.durable().filter(|e| is_decision(e)) {
        let allow = e
            .payload
            .get("allow")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let rule = e
            .payload
            .get("rule")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let cap = text(context(e, "cap")).unwrap_or_default();
        let package = text(context(e, "package"));
        let matches = f.allow.is_none_or(|a| a == allow)
            && f.cap.as_deref().is_none_or(|c| c == cap)
            && f.rule.as_deref().is_none_or(|r| r == rule)
            && f.agent_id
                .as_deref()
                .is_none_or(|a| context(e, "agentId").as_str() == Some(a))
            && f.session_id
                .as_deref()
                .is_none_or(|s| context(e, "sessionId").as_str() == Some(s))
            && f.package
                .as_deref()
                .is_none_or(|p| package.as_deref() == Some(p));
        if !matches {
            continue;
        }
        total += 1;
        if allow {
            allowed += 1
        } else {
            denied += 1
        }
        *by_rule.entry(rule.to_string()).or_default() += 1;
        *by_cap.entry(cap.clone()).or_default() += 1;
        if let Some(p) = &package {
            packages.insert(p.clone());
        }
        if decisions.len() < f.limit {
            decisions.push(json!({
                "eventId": e.id,
                "allow": allow,
                "rule": rule,
                "reason": e.payload.get("reason").cloned().unwrap_or(Value::Null),
                "boundary": e.payload.get("boundary").cloned().unwrap_or(Value::Null),
                "cap": cap,
                "agentId": context(e, "agentId"),
                "sessionId": context(e, "sessionId"),
                "profile": context(e, "profile"),
                "package": package,
                "tick": context(e, "tick"),
            }));
        }
    }
    json!({
        "summary": {"total": total, "allowed": allowed, "denied": denied, "byRule": by_rule, "byCap": by_cap, "packages": packages},
        "decisions": decisions,
    })
}

/// `audit.usage`: allowed/denied counts per session and capability, and the latest quota and
/// budget snapshot seen for each session.
pub fn usage(trace: &TraceLog, session_filter: Option<&str>) -> Value {
    let mut counts: BTreeMap<(String, String), (u64, u64)> = BTreeMap::new();
    let mut quotas: BTreeMap<String, Value> = BTreeMap::new();
    let mut budgets: BTreeMap<String, Value> = BTreeMap::new();
    for e in trace.durable().filter(|e| is_decision(e)) {
        let Some(session) = context(e, "sessionId").as_str().map(str::to_string) else {
            continue;
        };
        if session_filter.is_some_and(|s| s != session) {
            continue;
        }
        let cap = context(e, "cap").as_str().unwrap_or_default().to_string();
        let entry = counts.entry((session.clone(), cap)).or_default();
        if e.payload
            .get("allow")
            .and_then(Value::as_bool)
            .unwrap_or(false)
        {
            entry.0 += 1;
        } else {
            entry.1 += 1;
        }
        if let Some(q) = e.payload.get("quota").filter(|q| !q.is_null()) {
            quotas.insert(session.clone(), q.clone());
        }
        if let Some(b) = e.payload.get("budget").filter(|b| !b.is_null()) {
            budgets.insert(session, b.clone());
        }
    }
    json!({
        "perSessionCap": counts.into_iter().map(|((s, c), (a, d))| json!({"sessionId": s, "cap": c, "allowed": a, "denied": d})).collect::<Vec<_>>(),
        "quotas": quotas.into_iter().map(|(s, q)| json!({"sessionId": s, "quota": q})).collect::<Vec<_>>(),
        "budgets": budgets.into_iter().map(|(s, b)| json!({"sessionId": s, "budget": b})).collect::<Vec<_>>(),
    })
}
