//! The agents as snapshot data: every record with its queue, budget, walk, latest perception
//! and decision bookkeeping, the instruction skills it may read and those active for its next
//! decision, the id counter and the scheduler budget.
//!
//! A decision in flight is not saved: nothing could deliver its answer to a restored engine, so
//! the agent is left as one whose decision timed out (its cadence decides it again). The host's
//! scripted policies and its connected clients are not world state and stay with the engine
//! restored into. JSON values (action inputs, results, the perception) travel as JSON text.

use std::collections::{BTreeSet, VecDeque};
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::SnapshotError;
use crate::agents::budget::{AgentBudget, BudgetBounds, SchedulerBudget};
use crate::agents::instructions::{Active, ActiveSkills, MAX_ACTIVE, MAX_KEPT, SkillChoice};
use crate::agents::record::{
    AgentKind, AgentRecord, LlmConfig, MAX_DECISION_INTERVAL_TICKS, MAX_DELEGATION, MAX_PERCEPTION_RADIUS, PREVIOUS_RESULTS, QueuedAction,
};
use crate::agents::social::{Approach, ApproachTarget, MAX_TALK_DISTANCE};
use crate::agents::table::{Agents, MAX_GENERATED};
use crate::policy::Profile;
use crate::world::EntityId;

#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct AgentsState {
    next: u64,
    scheduler: SchedulerBudget,
    records: Vec<RecordState>,
}

#[derive(Debug, Serialize, Deserialize)]
struct RecordState {
    id: String,
    kind: AgentKind,
    entity: Option<u64>,
    perception_radius: f64,
    decision_interval_ticks: u64,
    profile: String,
    session_id: String,
    llm: LlmConfig,
    budget: AgentBudget,
    spawned_by: String,
    /// (agent, session) pairs, nearest first.
    acting_for: Vec<(String, String)>,
    spawned_tick: u64,
    perception: Option<String>,
    last_decision_tick: Option<u64>,
    queue: Vec<ActionState>,
    previous_results: Vec<String>,
    generation: u64,
    deficit: f64,
    seen_seq: u64,
    approach: Option<ApproachState>,
    /// The instruction skills its spawn enabled and disabled (`SkillChoice`).
    skills_enabled: Vec<String>,
    skills_disabled: Vec<String>,
    /// The skills active for its next decision, oldest first: (id, kept).
    active_skills: Vec<(String, bool)>,
}

#[derive(Debug, Serialize, Deserialize)]
struct ActionState {
    tool: String,
    input: String,
    decision_event: String,
}

#[derive(Debug, Serialize, Deserialize)]
struct ApproachState {
    target: TargetState,
    talk_distance: f64,
    started_tick: u64,
    cause: Option<String>,
}

#[derive(Debug, Serialize, Deserialize)]
enum TargetState {
    Entity { entity: u64, label: String },
    Point { point: [f64; 3] },
}

fn encode_json(what: &str, value: &impl Serialize) -> Result<String, SnapshotError> {
    serde_json::to_string(value).map_err(|e| SnapshotError::Invalid(format!("{what} does not encode: {e}")))
}

fn decode_json<T: serde::de::DeserializeOwned>(id: &str, what: &str, text: &str) -> Result<T, SnapshotError> {
    serde_json::from_str(text).map_err(|e| SnapshotError::Invalid(format!("agent {id}: its {what} does not decode: {e}")))
}

impl AgentsState {
    pub(crate) fn capture(agents: &Agents) -> Result<Self, SnapshotError> {
        let records = agents.iter().map(record_state).collect::<Result<_, _>>()?;
        Ok(AgentsState { next: agents.next_number(), scheduler: agents.scheduler, records })
    }

    /// The records this state describes, each checked, and the counter and scheduler budget.
    /// `limits` is the restoring engine's own scheduler budget, which the snapshot's may not
    /// exceed.
    pub(crate) fn into_records(self, limits: &SchedulerBudget) -> Result<(Vec<AgentRecord>, u64, SchedulerBudget), SnapshotError> {
        self.scheduler.check_within(limits).map_err(|e| SnapshotError::Invalid(format!("the scheduler budget: {e}")))?;
        if !(1..=MAX_GENERATED).contains(&self.next) {
            return Err(SnapshotError::Invalid(format!("the agent id counter {} is outside 1..={MAX_GENERATED}", self.next)));
        }
        if self.records.len() > self.scheduler.max_agents {
            return Err(SnapshotError::Invalid(format!(
                "{} agents is more than the scheduler's maximum of {}",
                self.records.len(),
                self.scheduler.max_agents
            )));
        }
        let mut seen = BTreeSet::new();
        let mut records = Vec::with_capacity(self.records.len());
        for r in self.records {
            if !seen.insert(r.id.clone()) {
                return Err(SnapshotError::Invalid(format!("agent {} appears twice", r.id)));
            }
            records.push(record(r)?);
        }
        Ok((records, self.next, self.scheduler))
    }
}

fn record_state(r: &AgentRecord) -> Result<RecordState, SnapshotError> {
    let queue = r
        .queue
        .iter()
        .map(|a| {
            Ok(ActionState {
                tool: a.tool.clone(),
                input: encode_json("an action's input", &a.input)?,
                decision_event: a.decision_event.to_string(),
            })
        })
        .collect::<Result<_, SnapshotError>>()?;
    let previous_results = r.previous_results.iter().map(|v| encode_json("a previous result", v)).collect::<Result<_, _>>()?;
    let approach = r.approach.as_ref().map(|a| ApproachState {
        target: match &a.target {
            ApproachTarget::Entity { entity, label } => TargetState::Entity { entity: entity.0, label: label.clone() },
            ApproachTarget::Point { point } => TargetState::Point { point: *point },
        },
        talk_distance: a.talk_distance,
        started_tick: a.started_tick,
        cause: a.cause.clone(),
    });
    Ok(RecordState {
        id: r.id.to_string(),
        kind: r.kind,
        entity: r.entity.map(|e| e.0),
        perception_radius: r.perception_radius,
        decision_interval_ticks: r.decision_interval_ticks,
        profile: r.profile.as_str().to_string(),
        session_id: r.session_id.to_string(),
        llm: r.llm.clone(),
        budget: r.budget,
        spawned_by: r.spawned_by.to_string(),
        acting_for: r.acting_for.iter().map(|p| (p.agent_id.to_string(), p.session_id.to_string())).collect(),
        spawned_tick: r.spawned_tick,
        perception: r.perception.as_ref().map(|p| encode_json("a perception", p)).transpose()?,
        last_decision_tick: r.last_decision_tick,
        queue,
        previous_results,
        generation: r.generation,
        deficit: r.deficit,
        seen_seq: r.seen_seq,
        approach,
        skills_enabled: r.skills.enabled.clone(),
        skills_disabled: r.skills.disabled.clone(),
        active_skills: r.active_skills.iter().map(|a| (a.id.clone(), a.keep)).collect(),
    })
}

/// The numbers a spawn's schema (and `social.approach`'s) bounds, checked again: a crafted
/// snapshot is not a spawn call, and a NaN radius or weight, a zero interval or an infinite walk
/// would otherwise reach the systems (and the world hash) as they are.
fn check_numbers(r: &RecordState) -> Result<(), BadNumber> {
    let out = |name: &'static str, value: f64, range: String| Err(BadNumber::OutOfRange { name, value: value.to_string(), range });
    if !(r.perception_radius > 0.0 && r.perception_radius <= MAX_PERCEPTION_RADIUS) {
        return out("perceptionRadius", r.perception_radius, format!("(0, {MAX_PERCEPTION_RADIUS}]"));
    }
    if !(1..=MAX_DECISION_INTERVAL_TICKS).contains(&r.decision_interval_ticks) {
        return Err(BadNumber::OutOfRange {
            name: "decisionIntervalTicks",
            value: r.decision_interval_ticks.to_string(),
            range: format!("[1, {MAX_DECISION_INTERVAL_TICKS}]"),
        });
    }
    BudgetBounds::check(&r.budget)?;
    if !r.deficit.is_finite() {
        return Err(BadNumber::Credit(r.deficit));
    }
    if let Some(a) = &r.approach {
        if !(a.talk_distance > 0.0 && a.talk_distance <= MAX_TALK_DISTANCE) {
            return out("its walk's talk distance", a.talk_distance, format!("(0, {MAX_TALK_DISTANCE}]"));
        }
        if let TargetState::Point { point } = &a.target
            && !point.iter().all(|c| c.is_finite())
        {
            return Err(BadNumber::Target(*point));
        }
    }
    Ok(())
}

/// A number in a saved agent record that no spawn or walk could have set.
#[derive(Debug, thiserror::Error)]
enum BadNumber {
    #[error("{name} {value} is outside {range}")]
    OutOfRange { name: &'static str, value: String, range: String },
    #[error("its budget: {0}")]
    Budget(#[from] crate::agents::budget::BudgetError),
    #[error("its scheduling credit {0} is not a finite number")]
    Credit(f64),
    #[error("its walk's target point {0:?} is not finite")]
    Target([f64; 3]),
}

fn record(r: RecordState) -> Result<AgentRecord, SnapshotError> {
    let id = r.id.as_str();
    let profile =
        Profile::parse(&r.profile).ok_or_else(|| SnapshotError::Invalid(format!("agent {id}: no profile named '{}'", r.profile)))?;
    if r.queue.len() > BudgetBounds::QUEUE_DEPTH {
        return Err(SnapshotError::Invalid(format!(
            "agent {id}: {} queued actions is more than the {} a queue may hold",
            r.queue.len(),
            BudgetBounds::QUEUE_DEPTH
        )));
    }
    if r.acting_for.len() > MAX_DELEGATION {
        return Err(SnapshotError::Invalid(format!(
            "agent {id}: it acts for {} spawners, more than the {MAX_DELEGATION} an agent may",
            r.acting_for.len()
        )));
    }
    check_numbers(&r).map_err(|e| SnapshotError::Invalid(format!("agent {id}: {e}")))?;
    if r.previous_results.len() > PREVIOUS_RESULTS {
        return Err(SnapshotError::Invalid(format!(
            "agent {id}: {} previous results is more than the {PREVIOUS_RESULTS} kept",
            r.previous_results.len()
        )));
    }
    let queue = r
        .queue
        .iter()
        .map(|a| {
            Ok(QueuedAction {
                tool: a.tool.clone(),
                input: decode_json(id, "queued input", &a.input)?,
                decision_event: Rc::from(a.decision_event.as_str()),
            })
        })
        .collect::<Result<VecDeque<_>, SnapshotError>>()?;
    let previous_results =
        r.previous_results.iter().map(|v| decode_json(id, "previous result", v).map(Rc::new)).collect::<Result<_, _>>()?;
    let perception = r.perception.as_deref().map(|p| decode_json(id, "perception", p)).transpose()?;
    let skills = SkillChoice::new(r.skills_enabled, r.skills_disabled).map_err(|e| SnapshotError::Invalid(format!("agent {id}: {e}")))?;
    let saved_active = r.active_skills.len();
    let active_skills =
        ActiveSkills::from_saved(r.active_skills.into_iter().map(|(id, keep)| Active { id, keep }).collect()).ok_or_else(|| {
            SnapshotError::Invalid(format!(
                "agent {id}: its {saved_active} active skills are not {MAX_ACTIVE} or fewer (at most {MAX_KEPT} kept) distinct skill ids"
            ))
        })?;
    let approach = r.approach.map(|a| Approach {
        target: match a.target {
            TargetState::Entity { entity, label } => ApproachTarget::Entity { entity: EntityId(entity), label },
            TargetState::Point { point } => ApproachTarget::Point { point },
        },
        talk_distance: a.talk_distance,
        started_tick: a.started_tick,
        cause: a.cause,
    });
    Ok(AgentRecord {
        id: Rc::from(r.id.as_str()),
        kind: r.kind,
        entity: r.entity.map(EntityId),
        perception_radius: r.perception_radius,
        decision_interval_ticks: r.decision_interval_ticks,
        profile,
        session_id: Rc::from(r.session_id),
        llm: r.llm,
        budget: r.budget,
        spawned_by: Rc::from(r.spawned_by),
        acting_for: r
            .acting_for
            .into_iter()
            .map(|(agent, session)| crate::policy::Principal { agent_id: agent.into(), session_id: session.into() })
            .collect(),
        spawned_tick: r.spawned_tick,
        perception,
        in_flight: None,
        last_decision_tick: r.last_decision_tick,
        queue,
        previous_results,
        generation: r.generation,
        deficit: r.deficit,
        seen_seq: r.seen_seq,
        approach,
        skills,
        active_skills,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::{Engine, EngineConfig, Output};

    /// The agents of an engine with one walking player, as a snapshot holds them.
    fn captured() -> AgentsState {
        let e = Engine::new(EngineConfig { output: Output::Silent, ..EngineConfig::new(crate::cli::project_root()) }).unwrap();
        e.run_source(r#"limina.scripted_policy("idle", function() return {} end)"#, "idle.lua").unwrap();
        let caller = e.script_caller().clone();
        let spawned = e.call(&caller, "agent.spawn", serde_json::json!({"id": "agt_walker", "body": {}, "llm": {"model": "idle"}}));
        assert!(spawned.success, "{:?}", spawned.error);
        let state = AgentsState::capture(&e.agents()).unwrap();
        assert_eq!(state.records.len(), 1);
        state
    }

    fn refusal(alter: impl Fn(&mut AgentsState)) -> String {
        let mut state = captured();
        alter(&mut state);
        match state.into_records(&SchedulerBudget::default()) {
            Err(SnapshotError::Invalid(message)) => message,
            other => panic!("a crafted agents section was accepted: {:?}", other.map(|(records, ..)| records.len())),
        }
    }

    #[test]
    fn an_untouched_section_restores() {
        let (records, _, scheduler) = captured().into_records(&SchedulerBudget::default()).unwrap();
        assert_eq!((records.len(), scheduler), (1, SchedulerBudget::default()));
    }

    #[test]
    fn crafted_numbers_are_refused_with_the_field_and_value() {
        let walk = |r: &mut RecordState, talk_distance: f64, point: [f64; 3]| {
            r.approach = Some(ApproachState { target: TargetState::Point { point }, talk_distance, started_tick: 0, cause: None });
        };
        type Alter = Box<dyn Fn(&mut RecordState)>;
        let cases: Vec<(Alter, &str)> = vec![
            (Box::new(|r| r.perception_radius = f64::NAN), "agent agt_walker: perceptionRadius NaN is outside (0, 10000]"),
            (Box::new(|r| r.perception_radius = 0.0), "perceptionRadius 0 is outside"),
            (Box::new(|r| r.perception_radius = 1e12), "perceptionRadius 1000000000000 is outside"),
            (Box::new(|r| r.decision_interval_ticks = 0), "decisionIntervalTicks 0 is outside [1, 216000]"),
            (Box::new(|r| r.budget.weight = f64::INFINITY), "its budget: weight inf is outside [0.01, 100]"),
            (Box::new(|r| r.budget.max_queue_depth = 1 << 40), "its budget: maxQueueDepth 1099511627776 is outside [1, 256]"),
            (Box::new(|r| r.budget.max_tool_calls_per_decision = 0), "maxToolCallsPerDecision 0 is outside [1, 64]"),
            (Box::new(|r| r.budget.max_actions_per_tick = 65), "maxActionsPerTick 65 is outside [1, 64]"),
            (Box::new(|r| r.budget.decision_timeout_ms = 0), "decisionTimeoutMs 0 is outside [1, 600000]"),
            (Box::new(|r| r.deficit = f64::NAN), "its scheduling credit NaN is not a finite number"),
            (Box::new(move |r| walk(r, f64::NAN, [0.0; 3])), "talk distance NaN is outside (0, 50]"),
            (Box::new(move |r| walk(r, 1.5, [0.0, f64::INFINITY, 0.0])), "target point [0.0, inf, 0.0] is not finite"),
        ];
        for (alter, want) in cases {
            let message = refusal(|s| alter(&mut s.records[0]));
            assert!(message.contains(want), "{message:?} should contain {want:?}");
        }
    }

    #[test]
    fn crafted_skill_choices_and_active_skills_are_refused() {
        let many = (0..9).map(|i| (format!("s{i}"), false)).collect::<Vec<_>>();
        let kept = (0..5).map(|i| (format!("s{i}"), true)).collect::<Vec<_>>();
        type Alter = Box<dyn Fn(&mut RecordState)>;
        let cases: Vec<(Alter, &str)> = vec![
            (Box::new(|r| r.skills_enabled = vec!["../x".into()]), "agent agt_walker: skills.enabled: '../x' is not a skill id"),
            (Box::new(|r| r.skills_disabled = vec!["s".into(); 65]), "skills.disabled: 65 ids is more than the 64 allowed"),
            (Box::new(move |r| r.active_skills = many.clone()), "its 9 active skills are not 8 or fewer"),
            (Box::new(move |r| r.active_skills = kept.clone()), "its 5 active skills are not 8 or fewer (at most 4 kept)"),
            (Box::new(|r| r.active_skills = vec![("a".into(), true), ("a".into(), false)]), "its 2 active skills"),
            (Box::new(|r| r.active_skills = vec![("A B".into(), true)]), "its 1 active skills"),
        ];
        for (alter, want) in cases {
            let message = refusal(|s| alter(&mut s.records[0]));
            assert!(message.contains(want), "{message:?} should contain {want:?}");
        }
    }

    #[test]
    fn a_snapshot_cannot_raise_the_operator_s_scheduler_limits() {
        let message = refusal(|s| s.scheduler.max_in_flight_decisions = 1_000_000);
        assert_eq!(message, "the scheduler budget: its maxInFlightDecisions of 1000000 is more than this engine's 16");
        let message = refusal(|s| s.next = u64::MAX);
        assert_eq!(message, "the agent id counter 18446744073709551615 is outside 1..=9007199254740992");
        let message = refusal(|s| s.scheduler.default_agent_budget.weight = -1.0);
        assert!(message.contains("default agent budget: weight -1 is outside"), "{message}");
        // Tighter than the operator's is the snapshot's own business.
        let mut state = captured();
        state.scheduler.max_global_actions_per_tick = 3;
        let (_, _, scheduler) = state.into_records(&SchedulerBudget::default()).unwrap();
        assert_eq!(scheduler.max_global_actions_per_tick, 3);
    }
}
