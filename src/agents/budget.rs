//! Scheduler budgets, as the reference's `AgentScheduler`: how many decisions may start per tick
//! and how many actions run per tick across all agents, and per agent a weight (its share of the
//! action budget), a queue depth, a cap on tool calls per decision, actions per tick and a
//! decision timeout. Every cap that bites is traced by the systems (`agent.scheduler.capped`).
//!
//! Fairness is a deficit order: each tick every agent with queued actions earns `weight` credit;
//! agents act in order of credit (then id), each up to its actions per tick, spending one credit
//! per action, until the global actions per tick run out. An agent the global cap skipped keeps
//! its credit and goes first next tick, and a heavier agent earns its place sooner. The order is
//! a pure function of the records, so it is deterministic.

use serde::{Deserialize, Serialize};

/// Per-agent limits (the reference's `AgentBudget`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentBudget {
    /// Share of the global action budget relative to other agents (1 = equal share).
    pub weight: f64,
    /// Validated actions waiting at most; calls beyond are dropped and traced.
    pub max_queue_depth: usize,
    /// Tool calls kept from one decision; the rest are dropped and traced.
    pub max_tool_calls_per_decision: usize,
    pub max_actions_per_tick: usize,
    /// A decision still running after this long is abandoned (its late answer is discarded).
    pub decision_timeout_ms: u64,
}

impl Default for AgentBudget {
    fn default() -> Self {
        Self { weight: 1.0, max_queue_depth: 16, max_tool_calls_per_decision: 8, max_actions_per_tick: 4, decision_timeout_ms: 10_000 }
    }
}

/// Bounds a spawn call may set budgets within (a client cannot ask for an unbounded queue).
pub(crate) struct BudgetBounds;

impl BudgetBounds {
    pub(crate) const WEIGHT: (f64, f64) = (0.01, 100.0);
    pub(crate) const QUEUE_DEPTH: usize = 256;
    pub(crate) const TOOL_CALLS: usize = 64;
    pub(crate) const ACTIONS_PER_TICK: usize = 64;
    pub(crate) const TIMEOUT_MS: (u64, u64) = (1, 600_000);

    /// `budget` is one a spawn call could have set (`agent.spawn`'s schema holds the same
    /// bounds); otherwise what is out of bounds, with its value. For budgets that did not come
    /// through a spawn: a snapshot's.
    pub(crate) fn check(budget: &AgentBudget) -> Result<(), BudgetError> {
        let b = budget;
        let out = |name: &'static str, value: &dyn std::fmt::Display, min: &dyn std::fmt::Display, max: &dyn std::fmt::Display| {
            Err(BudgetError::OutOfBounds { name, value: value.to_string(), min: min.to_string(), max: max.to_string() })
        };
        let within = |v: usize, max: usize| (1..=max).contains(&v);
        if !(Self::WEIGHT.0..=Self::WEIGHT.1).contains(&b.weight) {
            return out("weight", &b.weight, &Self::WEIGHT.0, &Self::WEIGHT.1);
        }
        if !within(b.max_queue_depth, Self::QUEUE_DEPTH) {
            return out("maxQueueDepth", &b.max_queue_depth, &1, &Self::QUEUE_DEPTH);
        }
        if !within(b.max_tool_calls_per_decision, Self::TOOL_CALLS) {
            return out("maxToolCallsPerDecision", &b.max_tool_calls_per_decision, &1, &Self::TOOL_CALLS);
        }
        if !within(b.max_actions_per_tick, Self::ACTIONS_PER_TICK) {
            return out("maxActionsPerTick", &b.max_actions_per_tick, &1, &Self::ACTIONS_PER_TICK);
        }
        if !(Self::TIMEOUT_MS.0..=Self::TIMEOUT_MS.1).contains(&b.decision_timeout_ms) {
            return out("decisionTimeoutMs", &b.decision_timeout_ms, &Self::TIMEOUT_MS.0, &Self::TIMEOUT_MS.1);
        }
        Ok(())
    }
}

/// A budget that did not come through a spawn (a snapshot's, a command log's) and is not one a
/// spawn could have set, or looser than the restoring engine's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BudgetError {
    #[error("{name} {value} is outside [{min}, {max}]")]
    OutOfBounds { name: &'static str, value: String, min: String, max: String },
    #[error("its {name} of {value} is more than this engine's {limit}")]
    Looser { name: &'static str, value: usize, limit: usize },
    #[error("its default agent budget: {0}")]
    DefaultAgent(Box<BudgetError>),
}

/// Engine-wide limits (the reference's `SchedulerBudget`), set by the operator.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SchedulerBudget {
    pub max_decision_starts_per_tick: usize,
    pub max_global_actions_per_tick: usize,
    /// Live agents at most (spawning past it fails with `capacity_exceeded`).
    pub max_agents: usize,
    /// HTTP decisions running at once, across all agents: what any client that may spawn
    /// agents can make the engine spend on the operator's model endpoint.
    pub max_in_flight_decisions: usize,
    pub default_agent_budget: AgentBudget,
    /// Whether in-world agents may call `agent.spawn` (off: only sessions outside the world,
    /// scripts and clients, spawn). This and the next are governance, set by the operator
    /// (`policy.agents`) and restored from a snapshot as saved, like the policy engine's
    /// revocations and budgets; `check_within` does not hold them to the restoring engine's.
    /// Absent from older log headers (JSON): off. Snapshots (bincode) always carry it.
    #[serde(default)]
    pub agents_may_spawn: bool,
    /// Model (HTTP) decisions the agents of one spawner's tree may start in all, for spawners
    /// other than the operator: what a client that may spawn can spend of the operator's model
    /// endpoint. Absent from older log headers: the default.
    #[serde(default = "default_model_calls")]
    pub max_model_calls_per_spawner: u64,
}

/// `max_model_calls_per_spawner`'s default.
pub(crate) const DEFAULT_MODEL_CALLS_PER_SPAWNER: u64 = 1_000;

fn default_model_calls() -> u64 {
    DEFAULT_MODEL_CALLS_PER_SPAWNER
}

impl SchedulerBudget {
    /// Whether every engine-wide cap here is at most `limits`' and the default agent budget is
    /// one a spawn could set; otherwise which cap is looser, with both values. A snapshot's
    /// scheduler passes through this against the restoring engine's own: a file can keep an
    /// operator's limits or tighten them, never raise them.
    pub(crate) fn check_within(&self, limits: &SchedulerBudget) -> Result<(), BudgetError> {
        for (name, value, limit) in [
            ("maxDecisionStartsPerTick", self.max_decision_starts_per_tick, limits.max_decision_starts_per_tick),
            ("maxGlobalActionsPerTick", self.max_global_actions_per_tick, limits.max_global_actions_per_tick),
            ("maxAgents", self.max_agents, limits.max_agents),
            ("maxInFlightDecisions", self.max_in_flight_decisions, limits.max_in_flight_decisions),
        ] {
            if value > limit {
                return Err(BudgetError::Looser { name, value, limit });
            }
        }
        BudgetBounds::check(&self.default_agent_budget).map_err(|e| BudgetError::DefaultAgent(Box::new(e)))
    }
}

impl Default for SchedulerBudget {
    fn default() -> Self {
        Self {
            max_decision_starts_per_tick: 64,
            max_global_actions_per_tick: 512,
            max_agents: 4096,
            max_in_flight_decisions: 16,
            default_agent_budget: AgentBudget::default(),
            agents_may_spawn: false,
            max_model_calls_per_spawner: DEFAULT_MODEL_CALLS_PER_SPAWNER,
        }
    }
}

/// One agent's claim in a tick's fair ordering.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Claim<'a> {
    pub id: &'a str,
    pub deficit: f64,
}

/// Agents in the order they act this tick: most credit first, ties by id.
pub(crate) fn fair_order<'a>(claims: &mut [Claim<'a>]) {
    claims.sort_by(|a, b| b.deficit.total_cmp(&a.deficit).then_with(|| a.id.cmp(b.id)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn more_credit_goes_first_and_ties_go_by_id() {
        let mut claims =
            vec![Claim { id: "agt_b", deficit: 1.0 }, Claim { id: "agt_c", deficit: 3.0 }, Claim { id: "agt_a", deficit: 1.0 }];
        fair_order(&mut claims);
        let ids: Vec<&str> = claims.iter().map(|c| c.id).collect();
        assert_eq!(ids, ["agt_c", "agt_a", "agt_b"]);
    }
}
