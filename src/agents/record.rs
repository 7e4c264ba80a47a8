//! The agent record: who an agent is (id, kind, body, profile, session, provider) and its
//! runtime state (latest perception, the decision in flight, the queue of validated actions).
//! Records are world state: the `agent.*` skills are the only writers, and the deterministic
//! part of every record is folded into the world hash.

use std::collections::VecDeque;
use std::rc::Rc;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::budget::AgentBudget;
use super::perception::Perception;
use crate::policy::Profile;

/// The longest list of spawners an agent acts for.
pub const MAX_DELEGATION: usize = 16;

/// Largest `perceptionRadius` (metres) and `decisionIntervalTicks`, as `agent.spawn`'s schema.
pub(crate) const MAX_PERCEPTION_RADIUS: f64 = 10_000.0;
pub(crate) const MAX_DECISION_INTERVAL_TICKS: u64 = 216_000;
use crate::world::EntityId;

/// `builder` agents drive the world from outside (they are recorded for inspection and
/// governance, and are never scheduled); `player` agents perceive, decide and act in the loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AgentKind {
    Builder,
    Player,
}

impl AgentKind {
    pub fn parse(text: &str) -> Option<AgentKind> {
        match text {
            "builder" => Some(AgentKind::Builder),
            "player" => Some(AgentKind::Player),
            _ => None,
        }
    }
}

/// Which decision provider an agent's `llm.provider` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProviderKind {
    /// A Luau function registered by the host script (`limina.scripted_policy`); `model` names it.
    Scripted,
    /// A local Ollama server (`/api/chat`).
    Ollama,
    /// Any OpenAI-compatible chat-completions endpoint.
    #[serde(rename = "openai")]
    OpenAi,
    /// An outside MCP client that embodied the agent (`agent.embody`): its calls are the
    /// agent's decisions, so the scheduler never asks anyone to decide for it.
    Client,
}

impl ProviderKind {
    pub(crate) const NAMES: [&'static str; 4] = ["scripted", "ollama", "openai", "client"];

    pub fn parse(text: &str) -> Option<ProviderKind> {
        match text {
            "scripted" => Some(ProviderKind::Scripted),
            "ollama" => Some(ProviderKind::Ollama),
            "openai" => Some(ProviderKind::OpenAi),
            "client" => Some(ProviderKind::Client),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ProviderKind::Scripted => "scripted",
            ProviderKind::Ollama => "ollama",
            ProviderKind::OpenAi => "openai",
            ProviderKind::Client => "client",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LlmConfig {
    pub provider: ProviderKind,
    pub model: String,
    pub system_prompt: String,
}

/// A validated tool call waiting for the action system, with the decision that produced it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct QueuedAction {
    pub tool: String,
    pub input: Value,
    /// The `agent.decision.completed` event the call came from (the action's cause).
    pub decision_event: Rc<str>,
}

/// A decision running off the loop. `generation` tells a late answer from the current one.
#[derive(Debug, Clone)]
pub struct InFlight {
    pub generation: u64,
    pub started: Instant,
    pub deadline: Instant,
    /// The `agent.perception.updated` event the decision was given.
    pub perception_event: Rc<str>,
}

#[derive(Debug, Clone)]
pub struct AgentRecord {
    pub id: Rc<str>,
    pub kind: AgentKind,
    /// The entity it inhabits, if any.
    pub entity: Option<EntityId>,
    pub perception_radius: f64,
    pub decision_interval_ticks: u64,
    pub profile: Profile,
    pub session_id: Rc<str>,
    pub llm: LlmConfig,
    pub budget: AgentBudget,
    /// Who spawned it (agent id), for audit.
    pub spawned_by: Rc<str>,
    /// Whom it acts for, nearest first: its spawner (agent and session) and, when the spawner
    /// was an agent, that agent's own list, fixed at spawn (at most `MAX_DELEGATION`). The
    /// revocations and budgets of all of them reach its calls; fixed, so a middle agent that
    /// leaves, or a new agent under its id, changes nothing.
    pub acting_for: Rc<[crate::policy::Principal]>,
    pub spawned_tick: u64,
    // Runtime state.
    pub perception: Option<Perception>,
    pub in_flight: Option<InFlight>,
    /// The tick of the last decision start (None: never decided; due at once).
    pub last_decision_tick: Option<u64>,
    pub queue: VecDeque<QueuedAction>,
    /// Outcomes of its latest actions, handed to the next decision (`previousResults`). Each
    /// is shared: it goes into the next `PREVIOUS_RESULTS` requests, and a scripted policy's
    /// request builder converts it to Lua once (see `scripted_request.rs`).
    pub previous_results: VecDeque<Rc<Value>>,
    /// The generation of its latest off-loop decision (unique across the engine).
    pub generation: u64,
    /// Weighted-fair scheduling credit (see `budget::fair_order`).
    pub deficit: f64,
    /// Trace sequence number the last perception looked at (recent events are newer).
    pub seen_seq: u64,
    /// Where it is walking (`social.approach`), until it arrives or gives up.
    pub approach: Option<super::social::Approach>,
    /// The instruction skills it may list and read (none unless its spawn enabled some).
    pub skills: super::instructions::SkillChoice,
    /// The instruction skills active for its next decision (see `instructions`).
    pub active_skills: super::instructions::ActiveSkills,
}

/// How many outcomes `previousResults` keeps.
pub(crate) const PREVIOUS_RESULTS: usize = 8;

impl AgentRecord {
    /// Due when it has never decided, or `decisionIntervalTicks` have passed since it last did,
    /// and no decision is in flight. Builders are never due, nor are agents a client decides
    /// for (embodied or waiting to be).
    pub(crate) fn is_due(&self, tick: u64) -> bool {
        self.kind == AgentKind::Player
            && self.llm.provider != ProviderKind::Client
            && self.in_flight.is_none()
            && self.last_decision_tick.is_none_or(|last| tick.saturating_sub(last) >= self.decision_interval_ticks)
    }

    pub(crate) fn remember_result(&mut self, result: Value) {
        if self.previous_results.len() == PREVIOUS_RESULTS {
            self.previous_results.pop_front();
        }
        self.previous_results.push_back(Rc::new(result));
    }

    /// Identity, configuration and cadence: what `agent.list` and the world hash both show.
    fn common(&self) -> serde_json::Map<String, Value> {
        let Value::Object(fields) = serde_json::json!({
            "id": &*self.id,
            "type": self.kind,
            "entity": self.entity.map(|e| e.to_string()),
            "perceptionRadius": self.perception_radius,
            "decisionIntervalTicks": self.decision_interval_ticks,
            "profile": self.profile.as_str(),
            "sessionId": &*self.session_id,
            "budget": self.budget,
            "lastDecisionTick": self.last_decision_tick,
        }) else {
            unreachable!("a JSON object literal")
        };
        fields
    }

    /// The row `agent.list` shows.
    pub fn summary(&self) -> Value {
        let mut row = self.common();
        row.insert("llm".into(), serde_json::json!({"provider": self.llm.provider, "model": self.llm.model}));
        row.insert("spawnedBy".into(), Value::from(&*self.spawned_by));
        row.insert("inFlight".into(), Value::from(self.in_flight.is_some()));
        row.insert("queueDepth".into(), Value::from(self.queue.len()));
        if !self.skills.is_empty() {
            row.insert("skills".into(), serde_json::to_value(&self.skills).unwrap_or(Value::Null));
            let active: Vec<&str> = self.active_skills.iter().map(|a| a.id.as_str()).collect();
            row.insert("activeSkills".into(), Value::from(active));
        }
        Value::Object(row)
    }

    /// The deterministic state for the world hash: identity, configuration, cadence and queue.
    /// Wall-clock state (when a decision started) is left out, so the same inputs give the same
    /// hash on any machine.
    pub(crate) fn hash_state(&self) -> Value {
        let mut state = self.common();
        state.insert("llm".into(), serde_json::to_value(&self.llm).unwrap_or(Value::Null));
        state.insert("queue".into(), serde_json::to_value(&self.queue).unwrap_or(Value::Null));
        // Only when walking, so agents that never walk hash as they did before walking existed.
        if let Some(approach) = &self.approach {
            state.insert("approach".into(), serde_json::to_value(approach).unwrap_or(Value::Null));
        }
        // Likewise only when chosen: what it may read is configuration, as its provider is.
        if !self.skills.is_empty() {
            state.insert("skills".into(), serde_json::to_value(&self.skills).unwrap_or(Value::Null));
        }
        // What its next decision will carry is state too: a restore that lost it would decide
        // differently.
        if !self.active_skills.is_empty() {
            state.insert("activeSkills".into(), serde_json::to_value(&self.active_skills).unwrap_or(Value::Null));
        }
        Value::Object(state)
    }
}
