//! `PolicyEngine`: a live, contextual decision for every skill call.
//!
//! Deny-overrides and fail-closed, evaluated in a fixed order where the first matching deny
//! wins: session revoked → agent or capability revoked → the same for anyone the caller acts
//! for (an agent's spawners) → profile does not grant → quota window exhausted → budget (calls,
//! cpu-ms, memory-bytes) exhausted → allow. Only an allow commits
//! usage. Every decision carries the rule that fired, a human reason, and the live quota and
//! budget snapshot, so the trace can answer "why" later.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use std::borrow::Cow;
use std::rc::Rc;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::{Permission, PermissionSet};

/// Who is asking for what, at which tick.
#[derive(Debug, Clone, Copy)]
pub struct DecisionContext<'a> {
    pub agent_id: &'a str,
    pub session_id: &'a str,
    pub profile: &'a str,
    pub skill: &'a str,
    pub required: &'a [Permission],
    pub granted: PermissionSet,
    pub tick: u64,
    pub package: Option<&'a str>,
    /// Whom the caller acts for: an agent's spawner, its spawner's spawner, and so on. Their
    /// revocations refuse the call too, so revoking a session cannot be escaped by spawning an
    /// agent before (or after) it.
    pub acting_for: &'a [Principal],
}

/// An identity calls are made for: an agent and the session it acted in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Principal {
    pub agent_id: Rc<str>,
    pub session_id: Rc<str>,
}

impl DecisionContext<'_> {
    /// The capability a call is accounted under: its first required permission, or the skill
    /// name for skills that need none.
    pub fn cap(&self) -> Cow<'static, str> {
        match self.required.first() {
            Some(p) => Cow::Borrowed(p.as_str()),
            None => Cow::Owned(self.skill.to_string()),
        }
    }

    fn touches(&self, cap: &str) -> bool {
        cap == self.skill || self.required.iter().any(|p| p.as_str() == cap)
    }
}

/// The rule that decided a call, in the order the engine checks them (first deny wins).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rule {
    SessionRevoked,
    /// The agent, or one capability for a session/agent/package, was revoked.
    Revoked,
    ProfileDenied,
    QuotaExceeded,
    BudgetCalls,
    BudgetCpu,
    BudgetMem,
    /// Allowed: the profile grants every required permission.
    ProfileGrant,
}

impl Rule {
    pub(crate) const ALL: [Rule; 8] = [
        Rule::SessionRevoked,
        Rule::Revoked,
        Rule::ProfileDenied,
        Rule::QuotaExceeded,
        Rule::BudgetCalls,
        Rule::BudgetCpu,
        Rule::BudgetMem,
        Rule::ProfileGrant,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            Rule::SessionRevoked => "session.revoked",
            Rule::Revoked => "revoked",
            Rule::ProfileDenied => "profile.denied",
            Rule::QuotaExceeded => "quota.exceeded",
            Rule::BudgetCalls => "budget.calls",
            Rule::BudgetCpu => "budget.cpu",
            Rule::BudgetMem => "budget.mem",
            Rule::ProfileGrant => "profile.grant",
        }
    }

    pub fn parse(text: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|r| r.as_str() == text)
    }
}

impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<&str> for Rule {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// The outcome of one evaluation.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    pub allow: bool,
    pub rule: Rule,
    pub reason: Cow<'static, str>,
    pub cap: Cow<'static, str>,
    pub quota: Option<Value>,
    pub budget: Option<Value>,
}

impl Decision {
    /// The `policy.decision` / `policy.denied` event payload (serialized straight into the log).
    pub fn payload<'a>(&'a self, ctx: &'a DecisionContext<'a>) -> DecisionPayload<'a> {
        DecisionPayload {
            allow: self.allow,
            boundary: "registry",
            budget: &self.budget,
            context: DecisionContextPayload {
                agent_id: ctx.agent_id,
                cap: &self.cap,
                package: ctx.package,
                profile: ctx.profile,
                required_permissions: RequiredPermissions(ctx.required),
                session_id: ctx.session_id,
                tick: ctx.tick,
            },
            quota: &self.quota,
            reason: &self.reason,
            rule: self.rule.as_str(),
            skill: ctx.skill,
        }
    }
}

/// A decision as recorded. Fields are in sorted order: this struct's JSON is canonical.
#[derive(Debug, Serialize)]
pub struct DecisionPayload<'a> {
    allow: bool,
    boundary: &'static str,
    budget: &'a Option<Value>,
    context: DecisionContextPayload<'a>,
    quota: &'a Option<Value>,
    reason: &'a str,
    rule: &'static str,
    skill: &'a str,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct DecisionContextPayload<'a> {
    agent_id: &'a str,
    cap: &'a str,
    package: Option<&'a str>,
    profile: &'a str,
    required_permissions: RequiredPermissions<'a>,
    session_id: &'a str,
    tick: u64,
}

#[derive(Debug)]
struct RequiredPermissions<'a>(&'a [Permission]);

impl Serialize for RequiredPermissions<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|p| p.as_str()))
    }
}

/// A sliding-window call limit, for one session or all, one capability or all.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QuotaRule {
    pub session_id: Option<String>,
    /// A permission string or a skill name; None = every call.
    pub cap: Option<String>,
    pub limit: u32,
    pub window_ticks: u64,
}

/// Per-session resource ceilings; None = unlimited.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct BudgetLimits {
    pub calls: Option<u64>,
    pub cpu_ms: Option<f64>,
    pub memory_bytes: Option<u64>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct Budget {
    limits: BudgetLimits,
    calls: u64,
    cpu_ms: f64,
    memory_bytes: u64,
}

impl Budget {
    /// The rule and reason when `session`'s budget is spent.
    fn spent(&self, session: &str) -> Option<(Rule, String)> {
        if self.limits.calls.is_some_and(|l| self.calls >= l) {
            Some((Rule::BudgetCalls, format!("call budget of {} for session {session} is spent", self.limits.calls.unwrap_or(0))))
        } else if self.limits.cpu_ms.is_some_and(|l| self.cpu_ms >= l) {
            Some((
                Rule::BudgetCpu,
                format!(
                    "cpu budget of {} ms for session {session} is spent ({:.3} ms used)",
                    self.limits.cpu_ms.unwrap_or(0.0),
                    self.cpu_ms
                ),
            ))
        } else if self.limits.memory_bytes.is_some_and(|l| self.memory_bytes >= l) {
            Some((
                Rule::BudgetMem,
                format!(
                    "memory budget of {} bytes for session {session} is spent ({} used)",
                    self.limits.memory_bytes.unwrap_or(0),
                    self.memory_bytes
                ),
            ))
        } else {
            None
        }
    }

    fn snapshot(&self) -> Value {
        json!({
            "calls": {"limit": self.limits.calls, "used": self.calls},
            "cpuMs": {"limit": self.limits.cpu_ms, "used": self.cpu_ms},
            "memoryBytes": {"limit": self.limits.memory_bytes, "used": self.memory_bytes},
        })
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Quota {
    rule: QuotaRule,
    /// Per session: ticks of the allowed calls still inside the window.
    used: BTreeMap<String, VecDeque<u64>>,
}

/// A revoked capability, for one session, one agent, or everyone.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct CapRevocation {
    pub session_id: Option<String>,
    pub agent_id: Option<String>,
    /// Revoke for one package's calls only (`name` or `name@version`).
    pub package: Option<String>,
    pub cap: String,
}

impl QuotaRule {
    /// Whether this quota counts the call `ctx` describes against `session`'s window (`session`
    /// is the caller's or one it acts for: see `DecisionContext::sessions`).
    fn applies(&self, session: &str, ctx: &DecisionContext<'_>) -> bool {
        self.session_id.as_deref().is_none_or(|s| s == session) && self.cap.as_deref().is_none_or(|c| ctx.touches(c))
    }
}

impl<'a> DecisionContext<'a> {
    /// The caller's session, then each session it acts for, once each: every quota and budget
    /// of any of them bounds the call (an agent spends its spawners' allowances, so spawning
    /// is no way around a session's limits).
    fn sessions(&self) -> Vec<&'a str> {
        let mut sessions = Vec::with_capacity(1 + self.acting_for.len());
        sessions.push(self.session_id);
        for p in self.acting_for {
            if !sessions.contains(&&*p.session_id) {
                sessions.push(&p.session_id);
            }
        }
        sessions
    }
}

/// The first tick still inside a quota's window at `tick`.
fn window_start(rule: &QuotaRule, tick: u64) -> u64 {
    tick.saturating_sub(rule.window_ticks.saturating_sub(1))
}

/// Why a revoked capability refuses a call.
fn revoked_reason(r: &CapRevocation) -> String {
    let scope = match (&r.session_id, &r.agent_id, &r.package) {
        (Some(s), _, _) => format!("session {s}"),
        (None, Some(a), _) => format!("agent {a}"),
        (None, None, Some(p)) => format!("package {p}"),
        (None, None, None) => "everyone".to_string(),
    };
    format!("capability {} was revoked for {scope}", r.cap)
}

/// Why a planned batch of calls would be refused (`PolicyEngine::preview`): the reason the first
/// refused call would get, or the room a quota or budget lacks.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum PreviewRefusal {
    #[error("session {session} was revoked")]
    SessionRevoked { session: String },
    #[error("agent {agent} was revoked")]
    AgentRevoked { agent: String },
    /// One planned skill is refused by `rule` (a revocation or the profile).
    #[error("{skill}: {reason}")]
    Skill { skill: String, rule: Rule, reason: String },
    /// `session` is set when the quota is that of someone the caller acts for.
    #[error(
        "this needs {needed} calls under {}the quota of {limit} calls per {window_ticks} ticks for {}, which has {left} left now",
        session.as_ref().map(|s| format!("session {s}'s ")).unwrap_or_default(),
        cap.as_deref().unwrap_or("all calls")
    )]
    Quota { needed: u64, session: Option<String>, limit: u32, window_ticks: u64, cap: Option<String>, left: u64 },
    #[error("this needs {needed} calls and the call budget of session {session} has {left} left")]
    CallBudget { needed: u64, session: String, left: u64 },
    #[error("the cpu or memory budget of session {session} is spent")]
    BudgetSpent { session: String },
}

/// Calls of one skill a caller means to make (`PolicyEngine::preview`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct PlannedCalls<'a> {
    pub skill: &'a str,
    pub required: &'a [Permission],
    pub count: u64,
}

/// Its serde form is what snapshots store (every field: revocations, quotas with their windows'
/// usage, budgets with what each session used).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct PolicyEngine {
    revoked_sessions: BTreeSet<String>,
    revoked_agents: BTreeSet<String>,
    revoked_caps: BTreeSet<CapRevocation>,
    quotas: Vec<Quota>,
    budgets: BTreeMap<String, Budget>,
}

impl PolicyEngine {
    pub fn new() -> Self {
        Self::default()
    }

    pub(crate) fn revoke_session(&mut self, session_id: &str) {
        self.revoked_sessions.insert(session_id.to_string());
    }

    pub(crate) fn restore_session(&mut self, session_id: &str) -> bool {
        self.revoked_sessions.remove(session_id)
    }

    pub(crate) fn revoke_agent(&mut self, agent_id: &str) {
        self.revoked_agents.insert(agent_id.to_string());
    }

    pub(crate) fn restore_agent(&mut self, agent_id: &str) -> bool {
        self.revoked_agents.remove(agent_id)
    }

    pub(crate) fn revoke_cap(&mut self, revocation: CapRevocation) {
        self.revoked_caps.insert(revocation);
    }

    pub(crate) fn restore_cap(&mut self, revocation: &CapRevocation) -> bool {
        self.revoked_caps.remove(revocation)
    }

    pub(crate) fn add_quota(&mut self, rule: QuotaRule) {
        self.quotas.push(Quota { rule, used: BTreeMap::new() });
    }

    pub(crate) fn clear_quotas(&mut self) {
        self.quotas.clear();
    }

    /// Sets a session's limits, keeping what it has used so far.
    pub(crate) fn set_budget(&mut self, session_id: &str, limits: BudgetLimits) {
        self.budgets.entry(session_id.to_string()).or_default().limits = limits;
    }

    /// Decides one call. An allow commits the call against matching quotas and the budget.
    pub(crate) fn evaluate(&mut self, ctx: &DecisionContext<'_>) -> Decision {
        let deny = |rule: Rule, reason: String, cap: Cow<'static, str>| Decision {
            allow: false,
            rule,
            reason: Cow::Owned(reason),
            cap,
            quota: None,
            budget: None,
        };
        let budget_snapshot = self.budgets.get(ctx.session_id).map(Budget::snapshot);

        if let Some((rule, reason, cap)) = self.revoked(ctx) {
            let mut d = deny(rule, reason, cap);
            d.budget = budget_snapshot;
            return d;
        }
        if let Some(missing) = ctx.granted.first_missing(ctx.required) {
            let mut d =
                deny(Rule::ProfileDenied, super::missing_permission(missing, ctx.profile, ctx.package), Cow::Borrowed(missing.as_str()));
            d.budget = budget_snapshot;
            return d;
        }

        // Quotas: prune each matching window, then check. A delegate's call counts in the
        // windows of every session it acts for as well as its own.
        let window_start = |rule: &QuotaRule| window_start(rule, ctx.tick);
        let sessions = ctx.sessions();
        let mut quota_view: Vec<(usize, &str, u32)> = Vec::new();
        let mut exhausted = None;
        for (i, q) in self.quotas.iter_mut().enumerate() {
            for (n, session) in sessions.iter().enumerate() {
                if !q.rule.applies(session, ctx) {
                    continue;
                }
                let start = window_start(&q.rule);
                let used = q.used.entry(session.to_string()).or_default();
                while used.front().is_some_and(|t| *t < start) {
                    used.pop_front();
                }
                let count = used.len() as u32;
                if count >= q.rule.limit && exhausted.is_none() {
                    exhausted = Some((i, n, used.front().copied()));
                }
                quota_view.push((i, session, count));
            }
        }
        let quota_snapshot = |quotas: &[Quota], extra: u32| -> Option<Value> {
            if quota_view.is_empty() {
                return None;
            }
            Some(Value::Array(
                quota_view
                    .iter()
                    .map(|(i, session, count)| {
                        let r = &quotas[*i].rule;
                        let used = count + extra;
                        let mut row = json!({"cap": r.cap, "sessionId": r.session_id, "limit": r.limit, "windowTicks": r.window_ticks, "used": used, "remaining": r.limit.saturating_sub(used)});
                        // A window of someone the caller acts for names whose it is.
                        if *session != ctx.session_id {
                            row["countedFor"] = json!(session);
                        }
                        row
                    })
                    .collect(),
            ))
        };
        if let Some((i, n, oldest)) = exhausted {
            let r = &self.quotas[i].rule;
            let again = oldest.map(|t| t + r.window_ticks).unwrap_or(ctx.tick);
            let what = r.cap.clone().unwrap_or_else(|| "all calls".into());
            let whose = if n == 0 { String::new() } else { format!("agent {} acts for session {}, whose ", ctx.agent_id, sessions[n]) };
            let mut d = deny(
                Rule::QuotaExceeded,
                format!(
                    "{whose}quota of {} calls per {} ticks for {what} is used up; allowed again at tick {again}",
                    r.limit, r.window_ticks
                ),
                r.cap.clone().map(Cow::Owned).unwrap_or_else(|| ctx.cap()),
            );
            d.quota = quota_snapshot(&self.quotas, 0);
            d.budget = budget_snapshot;
            return d;
        }

        // The caller's own budget, then the budgets of whom it acts for: an agent spends its
        // spawners' budgets too, so spawning agents is no way around a session's limits.
        for (n, session) in sessions.iter().copied().enumerate() {
            if let Some((rule, reason)) = self.budgets.get(session).and_then(|b| b.spent(session)) {
                let reason = if n == 0 { reason } else { format!("agent {} acts for session {session}, whose {reason}", ctx.agent_id) };
                let mut d = deny(rule, reason, ctx.cap());
                d.quota = quota_snapshot(&self.quotas, 0);
                d.budget = budget_snapshot;
                return d;
            }
        }

        // Allow: commit usage.
        for (i, session, _) in &quota_view {
            self.quotas[*i].used.entry(session.to_string()).or_default().push_back(ctx.tick);
        }
        let budget = self.budgets.get_mut(ctx.session_id).map(|b| {
            b.calls += 1;
            b.snapshot()
        });
        for session in &sessions[1..] {
            if let Some(b) = self.budgets.get_mut(*session) {
                b.calls += 1;
            }
        }
        // The profile and the permissions are in the decision's context; the reason stays a
        // constant so an allow costs no formatting.
        let reason = Cow::Borrowed(if ctx.required.is_empty() {
            "the skill needs no permission"
        } else {
            "the profile grants every required permission"
        });
        Decision { allow: true, rule: Rule::ProfileGrant, reason, cap: ctx.cap(), quota: quota_snapshot(&self.quotas, 0), budget }
    }

    /// Whether `plan` — calls one caller means to make now, all at `base.tick` — would every one
    /// be allowed, taken together: the revocations and the profile for each skill, then whether
    /// every quota window and the session's call budget have room for all of them at once.
    /// Nothing is recorded or committed (each call is still decided on its own when it is made);
    /// this only lets a caller that makes many calls (`scene.load`) refuse before the first
    /// rather than stop halfway. `base` gives the caller; its skill and permissions are ignored.
    /// Err is the reason the first refused call would get, or the room a quota lacks.
    pub(crate) fn preview<'a>(&self, base: &DecisionContext<'a>, plan: &[PlannedCalls<'a>]) -> Result<(), PreviewRefusal> {
        if self.revoked_sessions.contains(base.session_id) {
            return Err(PreviewRefusal::SessionRevoked { session: base.session_id.to_string() });
        }
        if self.revoked_agents.contains(base.agent_id) {
            return Err(PreviewRefusal::AgentRevoked { agent: base.agent_id.to_string() });
        }
        let context = |p: &PlannedCalls<'a>| DecisionContext { skill: p.skill, required: p.required, ..*base };
        for p in plan.iter().filter(|p| p.count > 0) {
            let ctx = context(p);
            let skill = || p.skill.to_string();
            if let Some(r) = self.revocation(&ctx) {
                return Err(PreviewRefusal::Skill { skill: skill(), rule: Rule::Revoked, reason: revoked_reason(r) });
            }
            if let Some((rule, reason, _)) = self.delegated_refusal(&ctx) {
                return Err(PreviewRefusal::Skill { skill: skill(), rule, reason });
            }
            if let Some(missing) = ctx.granted.first_missing(ctx.required) {
                let reason = super::missing_permission(missing, ctx.profile, ctx.package);
                return Err(PreviewRefusal::Skill { skill: skill(), rule: Rule::ProfileDenied, reason });
            }
        }
        // The caller's windows and budget, and those of everyone it acts for.
        for session in base.sessions() {
            for q in &self.quotas {
                let needed: u64 = plan.iter().filter(|p| q.rule.applies(session, &context(p))).map(|p| p.count).sum();
                if needed == 0 {
                    continue;
                }
                let start = window_start(&q.rule, base.tick);
                let used = q.used.get(session).map_or(0, |ticks| ticks.iter().filter(|t| **t >= start).count() as u64);
                let left = u64::from(q.rule.limit).saturating_sub(used);
                if needed > left {
                    return Err(PreviewRefusal::Quota {
                        needed,
                        session: (session != base.session_id).then(|| session.to_string()),
                        limit: q.rule.limit,
                        window_ticks: q.rule.window_ticks,
                        cap: q.rule.cap.clone(),
                        left,
                    });
                }
            }
            if let Some(b) = self.budgets.get(session) {
                let needed: u64 = plan.iter().map(|p| p.count).sum();
                if let Some(limit) = b.limits.calls
                    && b.calls.saturating_add(needed) > limit
                {
                    return Err(PreviewRefusal::CallBudget { needed, session: session.to_string(), left: limit.saturating_sub(b.calls) });
                }
                if b.limits.cpu_ms.is_some_and(|l| b.cpu_ms >= l) || b.limits.memory_bytes.is_some_and(|l| b.memory_bytes >= l) {
                    return Err(PreviewRefusal::BudgetSpent { session: session.to_string() });
                }
            }
        }
        Ok(())
    }

    /// The refusal a revocation makes of the call `ctx` describes, if one does: the caller's
    /// session or agent, a capability the call touches, or any of those of whom it acts for —
    /// `evaluate`'s first checks, in its order. An open stream, allowed once, asks this before
    /// each delta (quotas and budgets counted its opening; a revocation ends it). Commits
    /// nothing.
    pub(crate) fn revoked(&self, ctx: &DecisionContext<'_>) -> Option<(Rule, String, Cow<'static, str>)> {
        if self.revoked_sessions.contains(ctx.session_id) {
            return Some((Rule::SessionRevoked, format!("session {} was revoked", ctx.session_id), ctx.cap()));
        }
        if self.revoked_agents.contains(ctx.agent_id) {
            return Some((Rule::Revoked, format!("agent {} was revoked", ctx.agent_id), ctx.cap()));
        }
        if let Some(r) = self.revocation(ctx) {
            return Some((Rule::Revoked, revoked_reason(r), Cow::Owned(r.cap.clone())));
        }
        self.delegated_refusal(ctx)
    }

    /// A revocation covering someone `ctx`'s caller acts for: the rule, the reason and the
    /// capability it refuses.
    fn delegated_refusal(&self, ctx: &DecisionContext<'_>) -> Option<(Rule, String, Cow<'static, str>)> {
        for p in ctx.acting_for {
            let who = || format!("agent {} acts for {} (session {})", ctx.agent_id, p.agent_id, p.session_id);
            if self.revoked_sessions.contains(&*p.session_id) {
                return Some((Rule::SessionRevoked, format!("{}, and session {} was revoked", who(), p.session_id), ctx.cap()));
            }
            if self.revoked_agents.contains(&*p.agent_id) {
                return Some((Rule::Revoked, format!("{}, and agent {} was revoked", who(), p.agent_id), ctx.cap()));
            }
            let as_them = DecisionContext { agent_id: &p.agent_id, session_id: &p.session_id, acting_for: &[], ..*ctx };
            if let Some(r) = self.revocation(&as_them) {
                return Some((Rule::Revoked, format!("{}: {}", who(), revoked_reason(r)), Cow::Owned(r.cap.clone())));
            }
        }
        None
    }

    /// Why an agent (`agent_id` in `session_id`, acting for `acting_for`) can make no call at
    /// all now, if it cannot: its own or a spawner's session or agent is revoked, or one of
    /// their call, cpu or memory budgets is spent, or a quota on all of their calls is used up at
    /// `tick`. The scheduler starts no decision for such an
    /// agent (its model would think for nothing, at the operator's cost); a revoked capability
    /// alone stops only the calls that need it, so it does not count here.
    pub(crate) fn stopped(&self, agent_id: &str, session_id: &str, acting_for: &[Principal], tick: u64) -> Option<String> {
        let me = Principal { agent_id: agent_id.into(), session_id: session_id.into() };
        for p in std::iter::once(&me).chain(acting_for) {
            if self.revoked_sessions.contains(&*p.session_id) {
                return Some(format!("session {} was revoked", p.session_id));
            }
            if self.revoked_agents.contains(&*p.agent_id) {
                return Some(format!("agent {} was revoked", p.agent_id));
            }
            if let Some((_, reason)) = self.budgets.get(&*p.session_id).and_then(|b| b.spent(&p.session_id)) {
                return Some(reason);
            }
            // A quota on every call (no capability named) that is used up stops every call too,
            // until its window moves on.
            for q in self.quotas.iter().filter(|q| q.rule.cap.is_none() && q.rule.session_id.as_deref().is_none_or(|s| s == &*p.session_id))
            {
                let start = window_start(&q.rule, tick);
                let used = q.used.get(&*p.session_id).map_or(0, |ticks| ticks.iter().filter(|t| **t >= start).count());
                if used >= q.rule.limit as usize {
                    return Some(format!(
                        "session {}'s quota of {} calls per {} ticks is used up",
                        p.session_id, q.rule.limit, q.rule.window_ticks
                    ));
                }
            }
        }
        None
    }

    /// Why `permission` is withheld from every one of `principals` now (a revoked session,
    /// agent or capability), if it is: what an agent they spawn may not be given.
    pub(crate) fn withheld(&self, principals: &[Principal], permission: Permission) -> Option<String> {
        let required = [permission];
        for p in principals {
            if self.revoked_sessions.contains(&*p.session_id) {
                return Some(format!("session {} was revoked", p.session_id));
            }
            if self.revoked_agents.contains(&*p.agent_id) {
                return Some(format!("agent {} was revoked", p.agent_id));
            }
            let ctx = DecisionContext {
                agent_id: &p.agent_id,
                session_id: &p.session_id,
                profile: "",
                skill: "",
                required: &required,
                granted: PermissionSet::EMPTY,
                tick: 0,
                package: None,
                acting_for: &[],
            };
            if let Some(r) = self.revocation(&ctx) {
                return Some(revoked_reason(r));
            }
        }
        None
    }

    /// The first revocation that covers a call.
    fn revocation(&self, ctx: &DecisionContext<'_>) -> Option<&CapRevocation> {
        self.revoked_caps.iter().find(|r| {
            ctx.touches(&r.cap)
                && r.session_id.as_deref().is_none_or(|s| s == ctx.session_id)
                && r.agent_id.as_deref().is_none_or(|a| a == ctx.agent_id)
                && r.package.as_deref().is_none_or(|p| ctx.package.is_some_and(|cp| cp == p || cp.split('@').next() == Some(p)))
        })
    }

    /// Whether any session has a budget (callers skip measuring usage when none does).
    pub(crate) fn has_budgets(&self) -> bool {
        !self.budgets.is_empty()
    }

    /// Charges what an allowed call actually used.
    pub(crate) fn record_usage(&mut self, session_id: &str, cpu_ms: f64, memory_bytes: u64) {
        if let Some(b) = self.budgets.get_mut(session_id) {
            b.cpu_ms += cpu_ms;
            b.memory_bytes += memory_bytes;
        }
    }

    /// The configuration and live usage, for inspection.
    pub fn snapshot(&self) -> Value {
        json!({
            "revokedSessions": self.revoked_sessions,
            "revokedAgents": self.revoked_agents,
            "revokedCaps": self.revoked_caps.iter().map(|r| json!({"sessionId": r.session_id, "agentId": r.agent_id, "cap": r.cap})).collect::<Vec<_>>(),
            "quotas": self.quotas.iter().map(|q| json!({
                "sessionId": q.rule.session_id, "cap": q.rule.cap, "limit": q.rule.limit, "windowTicks": q.rule.window_ticks,
                "used": q.used.iter().map(|(s, t)| (s.clone(), t.len())).collect::<BTreeMap<_, _>>(),
            })).collect::<Vec<_>>(),
            "budgets": self.budgets.iter().map(|(s, b)| (s.clone(), b.snapshot())).collect::<BTreeMap<_, _>>(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::profile_permissions;

    const WRITE: &[Permission] = &[Permission::SceneWrite];

    fn ctx(tick: u64) -> DecisionContext<'static> {
        DecisionContext {
            agent_id: "agt_a",
            session_id: "ses_a",
            profile: "builder.readWrite",
            skill: "scene.createEntity",
            required: WRITE,
            granted: profile_permissions("builder.readWrite"),
            tick,
            package: None,
            acting_for: &[],
        }
    }

    #[test]
    fn allows_what_the_profile_grants() {
        let d = PolicyEngine::new().evaluate(&ctx(0));
        assert!(d.allow);
        assert_eq!(d.rule, "profile.grant");
        assert_eq!(d.cap, "scene.write");
    }

    #[test]
    fn the_first_matching_deny_wins_in_order() {
        let mut p = PolicyEngine::new();
        let mut c = ctx(0);
        c.granted = profile_permissions("system.readonly");
        assert_eq!(p.evaluate(&c).rule, "profile.denied");
        p.revoke_cap(CapRevocation { session_id: Some("ses_a".into()), agent_id: None, package: None, cap: "scene.write".into() });
        assert_eq!(p.evaluate(&c).rule, "revoked");
        p.revoke_session("ses_a");
        assert_eq!(p.evaluate(&c).rule, "session.revoked");
    }

    #[test]
    fn quota_denies_the_call_after_the_limit_until_the_window_passes() {
        let mut p = PolicyEngine::new();
        p.add_quota(QuotaRule { session_id: None, cap: Some("scene.write".into()), limit: 3, window_ticks: 10 });
        for _ in 0..3 {
            assert!(p.evaluate(&ctx(5)).allow);
        }
        let d = p.evaluate(&ctx(5));
        assert_eq!((d.allow, d.rule), (false, Rule::QuotaExceeded));
        assert!(d.reason.contains("allowed again at tick 15"), "{}", d.reason);
        assert_eq!(d.quota.unwrap()[0]["remaining"], 0);
        assert!(!p.evaluate(&ctx(14)).allow, "still inside the window");
        assert!(p.evaluate(&ctx(15)).allow, "the window has passed");
    }

    #[test]
    fn a_preview_counts_every_planned_call_against_the_quotas_and_commits_nothing() {
        const MODIFY: &[Permission] = &[Permission::EcsModify];
        let mut p = PolicyEngine::new();
        p.add_quota(QuotaRule { session_id: None, cap: Some("scene.write".into()), limit: 8, window_ticks: 60 });
        for _ in 0..3 {
            assert!(p.evaluate(&ctx(10)).allow);
        }
        let plan = |writes: u64| {
            [
                PlannedCalls { skill: "scene.createEntity", required: WRITE, count: writes },
                PlannedCalls { skill: "ecs.updateComponent", required: MODIFY, count: 100 },
            ]
        };
        assert_eq!(p.preview(&ctx(10), &plan(5)), Ok(()), "5 more fit in the 8");
        let refused = p.preview(&ctx(10), &plan(6)).unwrap_err().to_string();
        assert_eq!(refused, "this needs 6 calls under the quota of 8 calls per 60 ticks for scene.write, which has 5 left now");
        assert_eq!(p.preview(&ctx(70), &plan(8)), Ok(()), "the window has passed");
        for _ in 0..5 {
            assert!(p.evaluate(&ctx(10)).allow, "the previews committed nothing");
        }
        let mut reader = ctx(10);
        reader.granted = profile_permissions("player.limited");
        let refused = p.preview(&reader, &plan(0)).unwrap_err();
        assert!(matches!(&refused, PreviewRefusal::Skill { rule: Rule::ProfileDenied, .. }), "{refused}");
        let refused = refused.to_string();
        assert!(refused.starts_with("ecs.updateComponent: missing permission: ecs.modify"), "{refused}");
        p.set_budget("ses_a", BudgetLimits { calls: Some(50), ..BudgetLimits::default() });
        assert!(p.preview(&ctx(70), &plan(1)).unwrap_err().to_string().contains("call budget of session ses_a has 50 left"));
    }

    #[test]
    fn a_denied_call_does_not_use_quota_or_budget() {
        let mut p = PolicyEngine::new();
        p.add_quota(QuotaRule { session_id: None, cap: None, limit: 1, window_ticks: 100 });
        p.set_budget("ses_a", BudgetLimits { calls: Some(5), ..BudgetLimits::default() });
        let mut denied = ctx(0);
        denied.granted = PermissionSet::EMPTY;
        for _ in 0..3 {
            assert!(!p.evaluate(&denied).allow);
        }
        let d = p.evaluate(&ctx(0));
        assert!(d.allow);
        assert_eq!(d.budget.unwrap()["calls"]["used"], 1);
    }

    #[test]
    fn budgets_deny_call_n_plus_one_and_track_cpu() {
        let mut p = PolicyEngine::new();
        p.set_budget("ses_a", BudgetLimits { calls: Some(2), ..BudgetLimits::default() });
        assert!(p.evaluate(&ctx(0)).allow);
        assert!(p.evaluate(&ctx(0)).allow);
        assert_eq!(p.evaluate(&ctx(0)).rule, "budget.calls");
        p.set_budget("ses_a", BudgetLimits { cpu_ms: Some(1.0), ..BudgetLimits::default() });
        p.record_usage("ses_a", 1.5, 0);
        assert_eq!(p.evaluate(&ctx(0)).rule, "budget.cpu");
    }

    #[test]
    fn revoked_names_what_evaluate_would_refuse_for_and_commits_nothing() {
        let mut p = PolicyEngine::new();
        p.add_quota(QuotaRule { session_id: None, cap: None, limit: 1, window_ticks: 100 });
        assert_eq!(p.revoked(&ctx(0)), None);
        assert_eq!(p.revoked(&ctx(0)), None, "asking twice uses no quota");
        assert!(p.evaluate(&ctx(0)).allow, "the one call the quota allows is still there");
        p.revoke_cap(CapRevocation { session_id: Some("ses_a".into()), agent_id: None, package: None, cap: "scene.write".into() });
        let (rule, reason, cap) = p.revoked(&ctx(0)).unwrap();
        assert_eq!((rule, reason.as_str(), &*cap), (Rule::Revoked, "capability scene.write was revoked for session ses_a", "scene.write"));
        p.revoke_session("ses_a");
        let (rule, reason, _) = p.revoked(&ctx(0)).unwrap();
        assert_eq!((rule, reason.as_str()), (Rule::SessionRevoked, "session ses_a was revoked"));
        let d = p.evaluate(&ctx(0));
        assert_eq!((d.rule, &*d.reason), (rule, reason.as_str()), "evaluate refuses for the same rule and reason");
        // Someone the caller acts for.
        let mut p = PolicyEngine::new();
        p.revoke_session("ses_boss");
        let boss = [Principal { agent_id: "agt_boss".into(), session_id: "ses_boss".into() }];
        let delegate = DecisionContext { acting_for: &boss, ..ctx(0) };
        assert_eq!(p.revoked(&delegate).map(|r| r.0), Some(Rule::SessionRevoked));
    }

    #[test]
    fn revocation_is_scoped() {
        let mut p = PolicyEngine::new();
        p.revoke_cap(CapRevocation { session_id: Some("ses_other".into()), agent_id: None, package: None, cap: "scene.write".into() });
        assert!(p.evaluate(&ctx(0)).allow);
        p.revoke_agent("agt_a");
        assert_eq!(p.evaluate(&ctx(0)).rule, "revoked");
        assert!(p.restore_agent("agt_a"));
        assert!(p.evaluate(&ctx(0)).allow);
    }
}
