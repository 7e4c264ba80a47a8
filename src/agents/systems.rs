//! The agent systems of the fixed step (SPEC §3, §9): the action system drains validated tool
//! calls through the skill registry at the start of a step, under each agent's own session and
//! profile; after physics, the perception system builds the perception of every agent whose
//! decision is due (one batched spatial query for all of them) and the decision system asks
//! their providers. A scripted provider is Luau and runs here, on the loop, deterministically;
//! HTTP providers run on a tokio runtime off the loop and their answers are picked up at a later
//! tick boundary, so the loop never waits on a model.
//!
//! Causality: `agent.perception.updated` → `agent.decision.completed` (caused by the
//! perception) → the action's policy decision and `skill.executed` (caused by the decision).

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use mlua::{Function, Lua, Table, Value as LuaValue};
use serde::Serialize;
use serde_json::{Value, json};

use super::budget::{Claim, fair_order};
use super::instructions::{Resolved, SkillCard, SkillTool};
use super::perception::{MAX_NEARBY, PerceivedEntity, Perception, RECENT_EVENTS, RecentEvent, is_recent_for};
use super::provider::{
    self, DecideRequest, Decision, MAX_KEPT_CALLS, Provider, ProviderError, ProvidersConfig, RejectReason, RejectedCall, ToolCall, ToolSpec,
};
use super::record::{AgentRecord, InFlight, ProviderKind, QueuedAction};
use super::table::Agents;
use crate::policy::Profile;
use crate::policy::{PolicyEngine, Principal};
use crate::script::convert::{json_to_lua, lua_to_json};
use crate::script::interrupt::VmInterrupt;
use crate::trace::TraceLog;
use crate::trace::{EventDraft, EventKind};
use crate::world::NearQuery;
use crate::world::World;

/// VM interrupt checks (Luau makes one at every call and loop back-edge) one scripted decision
/// may take: some 0.1–0.5 s of Luau on this project's machines, far more than a policy that
/// returns needs, and a bound on one that does not.
const POLICY_CHECKS: u64 = 20_000_000;

/// Bytes of a failed scripted decision's reason kept in `agent.decision.failed`: a policy decides
/// its error's text, and a 50 MiB `error()` went whole into every failed decision's event.
const MAX_FAILURE_DETAIL: usize = 2048;

fn clipped_detail(detail: String) -> String {
    if detail.len() <= MAX_FAILURE_DETAIL {
        return detail;
    }
    format!("{}… ({} bytes in all)", crate::clip::to_bytes(&detail, MAX_FAILURE_DETAIL), detail.len())
}

/// An answer from an off-loop provider.
struct Answer {
    agent: String,
    generation: u64,
    result: Result<Decision, ProviderError>,
}

/// Why a decision gave no tool calls to queue.
#[derive(Debug, thiserror::Error)]
enum DecisionFailure {
    #[error(transparent)]
    Provider(#[from] ProviderError),
    #[error("no scripted policy named '{0}' (the host script registers one with limina.scripted_policy)")]
    NoPolicy(String),
    #[error("the scripted policy '{policy}' failed: {detail}")]
    Script { policy: String, detail: String },
}

mod skill_calls;

/// The tokio runtime decisions run on, made when the first HTTP decision starts.
struct OffLoop {
    runtime: tokio::runtime::Runtime,
    tx: mpsc::Sender<Answer>,
    rx: mpsc::Receiver<Answer>,
}

impl Drop for OffLoop {
    fn drop(&mut self) {
        // Requests still running are abandoned, not awaited: an engine shuts down at once.
        let runtime =
            std::mem::replace(&mut self.runtime, tokio::runtime::Builder::new_current_thread().build().expect("an empty runtime"));
        runtime.shutdown_background();
    }
}

/// Tool lists offered to providers, per profile, for one registry generation.
struct Tools {
    generation: u64,
    specs: Rc<Vec<ToolSpec>>,
    /// The same list as a Lua table for scripted policies (built once, shared read-only).
    lua: Option<Table>,
}

/// Recent events kept per agent (and for the world) between perceptions.
#[derive(Default, Clone)]
struct RecentRing(VecDeque<(u64, Rc<str>)>);

impl RecentRing {
    fn push(&mut self, seq: u64, event_type: Rc<str>) {
        if self.0.len() == RECENT_EVENTS {
            self.0.pop_front();
        }
        self.0.push_back((seq, event_type));
    }
}

/// State the agent systems keep between steps (none of it is world state).
pub(crate) struct AgentSystems {
    offloop: RefCell<Option<OffLoop>>,
    /// Endpoints and keys, read from the operator's environment when first needed.
    config: RefCell<Option<ProvidersConfig>>,
    providers: RefCell<HashMap<&'static str, Arc<dyn Provider>>>,
    tools: RefCell<HashMap<Profile, Tools>>,
    /// The last decision generation handed out.
    generations: std::cell::Cell<u64>,
    /// The last trace sequence number sorted into the rings below.
    scanned: std::cell::Cell<u64>,
    own: RefCell<HashMap<Rc<str>, RecentRing>>,
    world: RefCell<RecentRing>,
    /// Builds scripted policies' requests in Luau (made on first use).
    request_builder: super::scripted_request::RequestBuilder,
    /// HTTP requests still running, by agent: the generation each serves. A decision past its
    /// timeout is abandoned at once, but its request runs on through a grace period; it counts
    /// against `maxInFlightDecisions`, and its agent starts no other, until it ends (every
    /// request ends: each is bounded by a timeout of its own and then answers).
    live_requests: RefCell<HashMap<Rc<str>, u64>>,
    /// Model decisions started for each spawner's tree, by the session at its root (the
    /// operator's own are not counted): bounded by `maxModelCallsPerSpawner`.
    model_calls: RefCell<HashMap<Rc<str>, u64>>,
}

impl AgentSystems {
    pub fn new(config: Option<ProvidersConfig>) -> Self {
        Self {
            offloop: RefCell::default(),
            config: RefCell::new(config),
            providers: RefCell::default(),
            tools: RefCell::default(),
            generations: std::cell::Cell::default(),
            scanned: std::cell::Cell::default(),
            own: RefCell::default(),
            world: RefCell::default(),
            request_builder: Default::default(),
            live_requests: RefCell::default(),
            model_calls: RefCell::default(),
        }
    }
}

impl std::fmt::Debug for AgentSystems {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AgentSystems").field("offloop", &self.offloop.borrow().is_some()).finish()
    }
}

/// How long the thinking half of the agent systems took this step (the step list times the rest).
#[derive(Debug, Clone, Copy, Default)]
pub struct ThinkTimings {
    pub perception: Duration,
    pub decision: Duration,
}

/// What the systems read and change in one stage of the step: the parts they need, named. The
/// skill registry and the command log sit above `agents` and are reached through `door`.
pub(crate) struct Inputs<'a> {
    pub lua: &'a Lua,
    pub tick: u64,
    pub agents: &'a RefCell<Agents>,
    pub world: &'a RefCell<World>,
    pub trace: &'a RefCell<TraceLog>,
    /// The live policy engine, when calls are decided by it (a revoked or spent tree stops).
    pub policy: Option<&'a RefCell<PolicyEngine>>,
    /// The VM's interrupt: scripted policies run under a budget of its checks.
    pub interrupt: &'a VmInterrupt,
    /// The operator's own session, whose agents' model calls no spawner's allowance pays for.
    pub operator_session: Option<&'a str>,
    pub door: &'a dyn EngineDoor,
}

/// Who an agent's action runs as: the agent, its session and profile, whom it acts for (their
/// revocations and budgets reach it) and the decision that asked for it.
#[derive(Debug, Clone)]
pub struct Actor {
    pub agent_id: Rc<str>,
    pub session_id: Rc<str>,
    pub profile: Profile,
    pub acting_for: Rc<[Principal]>,
    pub cause: Rc<str>,
}

/// A failed action, as the agent remembers it.
#[derive(Debug, Clone)]
pub struct ActionError {
    pub code: &'static str,
    pub message: String,
}

/// A tool a decision names, as the registry knows it.
#[derive(Debug, Clone)]
pub enum ToolLookup {
    /// No such skill: the message says so (and suggests names).
    Unknown(String),
    Offered,
    /// A skill agents are not offered (heavy, or a test skill): builders call it over MCP.
    NotOffered,
}

/// What the agent systems need from the engine above them: every action is a skill call through
/// the registry (traced and permission-checked as any caller's), tool lists and input checks
/// come from the registry, and the command log is told what the systems decided so a replay can
/// apply it. The host implements it; `agents` never names the layers above it.
pub(crate) trait EngineDoor {
    /// Runs `tool` with `input` as `actor`: Ok(result) or the error the call ended with.
    fn act(&self, actor: &Actor, tool: &str, input: Value) -> Result<Option<Value>, ActionError>;
    /// Changes whenever the registry does (tool lists are cached per generation).
    fn tools_generation(&self) -> u64;
    /// The tools agents of `profile` are offered.
    fn offered_tools(&self, profile: Profile) -> Vec<ToolSpec>;
    fn lookup_tool(&self, tool: &str) -> ToolLookup;
    /// Applies the skill's defaults to `input` and validates it; Err says what is wrong.
    fn check_input(&self, tool: &str, input: &mut Value) -> Result<(), Box<dyn std::error::Error>>;
    /// The command log's account: agent `agent` perceived and decided at `tick`.
    fn decided(&self, tick: u64, agent: &str);
    /// The command log's account: a validated call queued for `agent`.
    fn queued(&self, tick: u64, agent: &str, tool: &str, input: &Value, decision: &str);
    /// The instruction skills registered now, in registration order.
    fn instruction_skills(&self) -> Vec<SkillCard>;
    /// Skill `id`'s surface mode for an agent of `provider` asking `model`, and the cascade's
    /// reason; Err says why there is none (an unregistered id is an error, never a default).
    fn surface_mode(&self, id: &str, provider: &str, model: &str) -> Result<Resolved, String>;
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Capped<'a> {
    cap: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    agent_id: Option<&'a str>,
    dropped: usize,
    limit: usize,
    tick: u64,
}

impl AgentSystems {
    fn agent_event<P: Serialize>(
        &self,
        env: &Inputs<'_>,
        kind: EventKind,
        actor: &str,
        thread: &str,
        causes: Vec<String>,
        payload: &P,
    ) -> String {
        let draft = EventDraft::new(kind.as_str(), actor).thread(thread).caused_by(causes);
        env.trace.borrow_mut().emit(draft, env.tick, payload).id.clone()
    }

    fn capped(&self, env: &Inputs<'_>, cap: &str, agent: Option<&AgentRecord>, dropped: usize, limit: usize) {
        let payload = Capped { cap, agent_id: agent.map(|a| &*a.id), dropped, limit, tick: env.tick };
        let (actor, thread) = agent.map(|a| (&*a.id, &*a.session_id)).unwrap_or(("scheduler", "scheduler"));
        self.agent_event(env, EventKind::AgentSchedulerCapped, actor, thread, Vec::new(), &payload);
    }

    /// The action system: runs queued tool calls, most scheduling credit first, within each
    /// agent's actions per tick and the global actions per tick.
    /// With `run` off (a replay), the queues are drained and scheduled exactly the same, but
    /// the calls themselves come from the command log.
    pub fn act(&self, env: &Inputs<'_>, run: bool) {
        if env.agents.borrow().is_empty() {
            return;
        }
        let mut plan: Vec<(Actor, QueuedAction)> = Vec::new();
        {
            let mut agents = env.agents.borrow_mut();
            let global = agents.scheduler.max_global_actions_per_tick;
            for record in agents.iter_mut() {
                if record.queue.is_empty() {
                    record.deficit = 0.0;
                } else {
                    record.deficit += record.budget.weight;
                }
            }
            let mut claims: Vec<Claim<'_>> =
                agents.iter().filter(|r| !r.queue.is_empty()).map(|r| Claim { id: &r.id, deficit: r.deficit }).collect();
            fair_order(&mut claims);
            let order: Vec<Rc<str>> = claims.iter().map(|c| Rc::from(c.id)).collect();
            let mut left = global;
            let mut global_capped = 0;
            let mut agent_caps: Vec<(Rc<str>, usize, usize)> = Vec::new();
            for id in order {
                let Some(record) = agents.get_mut(&id) else { continue };
                let wanted = record.queue.len().min(record.budget.max_actions_per_tick);
                let take = wanted.min(left);
                global_capped += wanted - take;
                if record.queue.len() > record.budget.max_actions_per_tick {
                    agent_caps.push((
                        Rc::clone(&record.id),
                        record.queue.len() - record.budget.max_actions_per_tick,
                        record.budget.max_actions_per_tick,
                    ));
                }
                // Served agents spend credit; those the global cap skipped keep theirs and go
                // first next tick.
                record.deficit -= take as f64;
                left -= take;
                let (agent_id, session_id, profile) = (Rc::clone(&record.id), Rc::clone(&record.session_id), record.profile);
                let acting_for = agents.acting_for(&id);
                let Some(record) = agents.get_mut(&id) else { continue };
                for action in record.queue.drain(..take) {
                    let actor = Actor {
                        agent_id: Rc::clone(&agent_id),
                        session_id: Rc::clone(&session_id),
                        profile,
                        acting_for: Rc::clone(&acting_for),
                        cause: Rc::clone(&action.decision_event),
                    };
                    plan.push((actor, action));
                }
            }
            drop(agents);
            for (id, waiting, limit) in agent_caps {
                let agents = env.agents.borrow();
                self.capped(env, "maxActionsPerTick", agents.get(&id), waiting, limit);
            }
            if global_capped > 0 {
                self.capped(env, "maxGlobalActionsPerTick", None, global_capped, global);
            }
        }
        if !run {
            return;
        }
        for (actor, action) in plan {
            // An earlier action this tick may have despawned the agent: its calls stop with it.
            if env.agents.borrow().get(&actor.agent_id).is_none() {
                continue;
            }
            let outcome = match env.door.act(&actor, &action.tool, action.input) {
                // A large result is remembered by its size: it would ride in the next eight
                // requests (and prompts) of this agent.
                Ok(Some(result)) if json_size_within(&result, MAX_REMEMBERED_RESULT_BYTES).is_err() => json!({
                    "tool": action.tool,
                    "success": true,
                    "result": {"omitted": format!("more than {MAX_REMEMBERED_RESULT_BYTES} bytes of JSON")},
                }),
                Ok(Some(result)) => json!({"tool": action.tool, "success": true, "result": result}),
                Err(e) => json!({"tool": action.tool, "success": false, "error": {"code": e.code, "message": e.message}}),
                Ok(None) => json!({"tool": action.tool, "success": true}),
            };
            if let Some(record) = env.agents.borrow_mut().get_mut(&actor.agent_id) {
                record.remember_result(outcome);
            }
        }
    }

    /// Perception and decision, after physics: timeouts, answers that arrived, then the agents
    /// whose decision is due.
    pub fn think(&self, env: &Inputs<'_>) -> ThinkTimings {
        let mut timings = ThinkTimings::default();
        self.request_builder.forget_gone();
        if env.agents.borrow().is_empty() && self.offloop.borrow().is_none() {
            return timings;
        }
        let started = Instant::now();
        // Expiry first: a decision past its deadline is over, whatever arrived meanwhile.
        self.expire_decisions(env);
        self.collect_answers(env);
        self.sort_recent_events(env);
        let due = self.due_agents(env);
        let perceived = self.perceive(env, &due);
        timings.perception = started.elapsed();
        let started = Instant::now();
        for (id, perception_event) in perceived {
            self.start_decision(env, &id, perception_event);
        }
        timings.decision = started.elapsed();
        timings
    }

    /// Agents due this tick, oldest decision first (then id), at most the scheduler's decision
    /// starts per tick, and HTTP decisions only while fewer than the in-flight cap are running.
    fn due_agents(&self, env: &Inputs<'_>) -> Vec<Rc<str>> {
        let tick = env.tick;
        let agents = env.agents.borrow();
        let live = self.live_requests.borrow();
        // An agent that could make no call (its tree revoked, or a budget of it spent) is not
        // asked to decide: it would think for nothing, at the operator's cost. Checked every
        // tick, so a revocation stops the whole tree at once and a restore resumes it.
        let policy = env.policy.map(|p| p.borrow());
        let stopped = |r: &AgentRecord| policy.as_ref().is_some_and(|p| p.stopped(&r.id, &r.session_id, &r.acting_for, tick).is_some());
        let mut due: Vec<(Option<u64>, Rc<str>, bool)> = agents
            .iter()
            .filter(|r| r.is_due(tick) && !live.contains_key(&r.id) && !stopped(r))
            .map(|r| (r.last_decision_tick, Rc::clone(&r.id), matches!(r.llm.provider, ProviderKind::Ollama | ProviderKind::OpenAi)))
            .collect();
        drop(policy);
        // Model decisions of a spawner's tree stop at the operator's bound.
        let limit = agents.scheduler.max_model_calls_per_spawner;
        {
            // Counting the starts this tick plans too: two agents of one tree due together must
            // not both take the last call.
            // (Only the starts planned here are counted apart: nothing is copied per tick.)
            let started = self.model_calls.borrow();
            let mut planned: HashMap<Rc<str>, u64> = HashMap::new();
            due.retain(|(_, id, http)| {
                if !*http {
                    return true;
                }
                let Some(root) = self.model_root(env, &agents, id) else { return true };
                let before = started.get(&root).copied().unwrap_or(0);
                let now = planned.entry(root).or_default();
                *now += 1;
                before + *now <= limit
            });
        }
        due.sort();
        let cap = agents.scheduler.max_in_flight_decisions;
        let mut running = live.len();
        drop(live);
        let mut waiting = 0;
        due.retain(|(_, _, http)| {
            if !*http {
                return true;
            }
            if running < cap {
                running += 1;
                return true;
            }
            waiting += 1;
            false
        });
        let limit = agents.scheduler.max_decision_starts_per_tick;
        let deferred = due.len().saturating_sub(limit);
        due.truncate(limit);
        drop(agents);
        if deferred > 0 {
            self.capped(env, "maxDecisionStartsPerTick", None, deferred, limit);
        }
        if waiting > 0 {
            self.capped(env, "maxInFlightDecisions", None, waiting, cap);
        }
        due.into_iter().map(|(_, id, _)| id).collect()
    }

    /// The session whose model-call allowance agent `id`'s decisions spend: the root of whom it
    /// acts for. None for the operator's own agents (and their descendants): the operator's
    /// endpoint is the operator's to spend.
    fn model_root(&self, env: &Inputs<'_>, agents: &super::table::Agents, id: &str) -> Option<Rc<str>> {
        let root = agents.get(id)?.acting_for.last().map(|p| Rc::clone(&p.session_id))?;
        (env.operator_session != Some(&*root)).then_some(root)
    }

    /// Traces that `root`'s tree may start no more model decisions (once: when the last one
    /// it may start starts).
    fn model_calls_spent(&self, env: &Inputs<'_>, root: &str, limit: u64) {
        let payload = json!({"cap": "maxModelCallsPerSpawner", "sessionId": root, "limit": limit, "tick": env.tick});
        self.agent_event(env, EventKind::AgentSchedulerCapped, "scheduler", "scheduler", Vec::new(), &payload);
    }

    /// Sorts the events emitted since the last tick into each agent's recent events (its own
    /// calls and their outcomes) and the world's (signals, speech, collisions).
    fn sort_recent_events(&self, env: &Inputs<'_>) {
        let agents = env.agents.borrow();
        let trace = env.trace.borrow();
        let systems = self;
        let mut own = systems.own.borrow_mut();
        let mut world = systems.world.borrow_mut();
        let told = sort_events(trace.since(systems.scanned.get()), &agents, &mut own, &mut world);
        systems.scanned.set(trace.last_seq());
        drop((agents, trace));
        if told.is_empty() {
            return;
        }
        let mut agents = env.agents.borrow_mut();
        for (id, event_type) in told {
            if let Some(inbox) = agents.inbox_mut(&id) {
                inbox.push(super::hearing::Happening::Event { event_type, tick: env.tick });
            }
        }
    }

    /// What the agent systems remember that decides what agents perceive and how decisions are
    /// numbered, for a snapshot: read, not changed (events not yet sorted into the rings are
    /// sorted into copies). Sequence numbers are the trace's, which a restored engine's trace
    /// continues (`TraceLog::continue_after`).
    pub fn agent_memory(&self, agents: &Agents, trace: &TraceLog) -> AgentMemory {
        let systems = self;
        let mut own = systems.own.borrow().clone();
        let mut world = systems.world.borrow().clone();
        let _told = sort_events(trace.since(systems.scanned.get()), agents, &mut own, &mut world);
        let ring = |r: RecentRing| r.0.into_iter().map(|(seq, t)| (seq, t.to_string())).collect::<Vec<_>>();
        let mut own: Vec<(String, Vec<(u64, String)>)> = own.into_iter().map(|(id, r)| (id.to_string(), ring(r))).collect();
        own.sort();
        AgentMemory { generations: systems.generations.get(), own, world: ring(world) }
    }

    /// Takes up a snapshot's `AgentMemory`. The trace's numbering has been moved past the saved
    /// engine's, so every event traced from now on is newer than everything it remembers, and
    /// each agent is shown what the saved engine would have shown it. What this engine traced
    /// before the restore belongs to the world it replaced: no agent is shown it.
    pub fn restore_agent_memory(&self, memory: AgentMemory, trace: &TraceLog) {
        let systems = self;
        systems.generations.set(memory.generations);
        systems.scanned.set(trace.last_seq());
        let ring = |r: Vec<(u64, String)>| RecentRing(r.into_iter().map(|(seq, t)| (seq, Rc::from(t))).collect());
        *systems.own.borrow_mut() = memory.own.into_iter().map(|(id, r)| (Rc::from(id), ring(r))).collect();
        *systems.world.borrow_mut() = ring(memory.world);
    }

    /// Builds the perception of every due agent with one batched spatial query, stores it on the
    /// record and traces `agent.perception.updated`. Returns each agent with its event id.
    fn perceive(&self, env: &Inputs<'_>, due: &[Rc<str>]) -> Vec<(Rc<str>, Rc<str>)> {
        if due.is_empty() {
            return Vec::new();
        }
        let tick = env.tick;
        let world = env.world.borrow();
        // Where each due agent is (agents without a body perceive nothing nearby).
        let places: Vec<Option<(crate::world::EntityId, [f64; 3], f64)>> = {
            let agents = env.agents.borrow();
            due.iter()
                .map(|id| {
                    let record = agents.get(id)?;
                    let entity = record.entity?;
                    let t = world.transform(entity)?;
                    Some((entity, t.position.map(f64::from), record.perception_radius))
                })
                .collect()
        };
        let queries: Vec<NearQuery> = places
            .iter()
            .flatten()
            .map(|(entity, center, radius)| NearQuery {
                center: *center,
                radius: *radius,
                exclude: Some(*entity),
                nearest: Some(MAX_NEARBY),
            })
            .collect();
        // Radii are bounded by agent.spawn and centres by the world's bounds, so the grid cannot
        // refuse these queries; if it ever did, the agents would perceive nothing rather than
        // stop the step.
        let mut answers = world
            .query_near_batch(&queries)
            .unwrap_or_else(|e| {
                tracing::warn!("perception query refused: {e}");
                vec![Vec::new(); queries.len()]
            })
            .into_iter();
        let mut out = Vec::with_capacity(due.len());
        let systems = self;
        for (id, place) in due.iter().zip(&places) {
            let nearby: Vec<PerceivedEntity> = match place {
                Some(_) => answers
                    .next()
                    .unwrap_or_default()
                    .into_iter()
                    .take(MAX_NEARBY)
                    .map(|hit| PerceivedEntity { id: hit.id, position: hit.position, distance: hit.distance })
                    .collect(),
                None => Vec::new(),
            };
            let mut agents = env.agents.borrow_mut();
            let (heard, heard_dropped) = agents.inbox_mut(id).map_or((Vec::new(), 0), |inbox| {
                let look = inbox.look(None, super::hearing::MAX_LOOK);
                let lines = look.items.into_iter().filter_map(|i| match i.what {
                    super::hearing::Happening::Heard(line) => Some(line),
                    super::hearing::Happening::Event { .. } => None,
                });
                (lines.collect(), look.dropped)
            });
            let Some(record) = agents.get_mut(id) else { continue };
            let seen = record.seen_seq;
            let mut recent: Vec<(u64, Rc<str>)> = systems.own.borrow().get(id).map(|r| r.0.iter().cloned().collect()).unwrap_or_default();
            recent.extend(systems.world.borrow().0.iter().cloned());
            recent.retain(|(seq, _)| *seq > seen);
            recent.sort();
            let skip = recent.len().saturating_sub(RECENT_EVENTS);
            let perception = Perception {
                self_id: id.to_string(),
                self_entity: place.map(|(e, _, _)| e.to_string()),
                position: place.map(|(_, p, _)| p),
                nearby,
                recent_events: recent.into_iter().skip(skip).map(|(_, t)| RecentEvent { event_type: t.to_string() }).collect(),
                heard,
                heard_dropped,
                tick,
            };
            let count = perception.nearby.len();
            record.perception = Some(perception);
            record.last_decision_tick = Some(tick);
            env.door.decided(tick, id);
            let (actor, thread) = (Rc::clone(&record.id), Rc::clone(&record.session_id));
            drop(agents);
            let payload = json!({"agentId": &*actor, "nearby": count, "tick": tick});
            let event = self.agent_event(env, EventKind::AgentPerceptionUpdated, &actor, &thread, Vec::new(), &payload);
            if let Some(record) = env.agents.borrow_mut().get_mut(id) {
                record.seen_seq = env.trace.borrow().last_seq();
            }
            out.push((Rc::clone(id), Rc::from(event)));
        }
        out
    }

    /// The skills an agent's profile may call, as tool definitions (cached per registry
    /// generation).
    fn tools_for(&self, env: &Inputs<'_>, lua: Option<&Lua>, profile: Profile) -> (Rc<Vec<ToolSpec>>, Option<Table>) {
        let generation = env.door.tools_generation();
        let mut cache = self.tools.borrow_mut();
        let entry = cache.entry(profile).or_insert_with(|| Tools { generation: u64::MAX, specs: Rc::new(Vec::new()), lua: None });
        if entry.generation != generation {
            let specs = env.door.offered_tools(profile);
            *entry = Tools { generation, specs: Rc::new(specs), lua: None };
        }
        if let Some(lua) = lua
            && entry.lua.is_none()
        {
            // One table serves every agent of the profile, so all of it is frozen, not just the
            // list: one policy cannot edit the schemas another sees.
            entry.lua = frozen_tools(lua, &entry.specs).ok();
        }
        (Rc::clone(&entry.specs), entry.lua.clone())
    }

    /// Starts the decision of a due agent whose perception was just built.
    fn start_decision(&self, env: &Inputs<'_>, id: &str, perception_event: Rc<str>) {
        let Some(kind) = env.agents.borrow().get(id).map(|r| r.llm.provider) else { return };
        if kind == ProviderKind::Scripted {
            let result = self.run_scripted(env, id, &perception_event);
            return self.finish_decision(env, id, &perception_event, kind, result);
        }
        let (model, system_prompt, profile, perception, previous, timeout) = {
            let agents = env.agents.borrow();
            let Some(r) = agents.get(id) else { return };
            (
                r.llm.model.clone(),
                r.llm.system_prompt.clone(),
                r.profile,
                serde_json::to_value(&r.perception).unwrap_or(Value::Null),
                r.previous_results.iter().map(|v| Value::clone(v)).collect::<Vec<_>>(),
                Duration::from_millis(r.budget.decision_timeout_ms),
            )
        };
        match kind {
            // Never due (`AgentRecord::is_due`): a client decides by calling.
            ProviderKind::Scripted | ProviderKind::Client => {}
            ProviderKind::Ollama | ProviderKind::OpenAi => {
                let provider = match self.http_provider(kind) {
                    Ok(p) => p,
                    Err(e) => return self.finish_decision(env, id, &perception_event, kind, Err(e.into())),
                };
                let (tools, _) = self.tools_for(env, None, profile);
                let (system_prompt, tools) = match self.skill_surface(env, id, &tools, &perception_event) {
                    Some(surface) => surface,
                    None => (system_prompt, (*tools).clone()),
                };
                let request = DecideRequest {
                    agent_id: id.to_string(),
                    model,
                    system_prompt,
                    perception,
                    tools,
                    previous_results: previous,
                    // The engine abandons the decision at `timeout`; the request may run on for
                    // a grace period so an answer that comes late is seen, traced and
                    // discarded rather than silently cut off.
                    timeout: Some(http_timeout(timeout)),
                };
                let root = self.model_root(env, &env.agents.borrow(), id);
                if let Some(root) = root {
                    let used = {
                        let mut counts = self.model_calls.borrow_mut();
                        let used = counts.entry(Rc::clone(&root)).or_default();
                        *used += 1;
                        *used
                    };
                    let limit = env.agents.borrow().scheduler.max_model_calls_per_spawner;
                    if used == limit {
                        self.model_calls_spent(env, &root, limit);
                    }
                }
                let now = Instant::now();
                // Generations are unique across agents and their lifetimes, so an answer for a
                // despawned agent can never be taken for a new agent that reuses its id.
                let generation = self.generations.get() + 1;
                self.generations.set(generation);
                let generation = {
                    let mut agents = env.agents.borrow_mut();
                    let Some(r) = agents.get_mut(id) else { return };
                    r.generation = generation;
                    r.in_flight = Some(InFlight {
                        generation: r.generation,
                        started: now,
                        deadline: now + timeout,
                        perception_event: Rc::clone(&perception_event),
                    });
                    r.generation
                };
                self.live_requests.borrow_mut().insert(Rc::from(id), generation);
                let mut offloop = self.offloop.borrow_mut();
                let offloop = offloop.get_or_insert_with(OffLoop::new);
                let tx = offloop.tx.clone();
                let agent = id.to_string();
                offloop.runtime.spawn(async move {
                    // The provider's own timeout ends the request; this one guarantees it.
                    let result =
                        match tokio::time::timeout(http_timeout(timeout) + Duration::from_millis(250), provider.decide(request)).await {
                            Ok(result) => result,
                            Err(_) => Err(ProviderError::Timeout { url: String::new(), after_ms: timeout.as_millis() as u64 }),
                        };
                    let _ = tx.send(Answer { agent, generation, result });
                });
            }
        }
    }

    /// The provider for an HTTP kind, configured from the operator's environment.
    fn http_provider(&self, kind: ProviderKind) -> Result<Arc<dyn Provider>, ProviderError> {
        let name = kind.as_str();
        if let Some(p) = self.providers.borrow().get(name) {
            return Ok(Arc::clone(p));
        }
        let http = match kind {
            ProviderKind::Ollama => provider::ProviderKind::Ollama,
            ProviderKind::OpenAi | ProviderKind::Scripted | ProviderKind::Client => provider::ProviderKind::OpenAi,
        };
        let mut config = self.config.borrow_mut();
        let config = config.get_or_insert_with(ProvidersConfig::from_env);
        let provider = provider::http_provider(http, config)?;
        self.providers.borrow_mut().insert(name, Arc::clone(&provider));
        Ok(provider)
    }

    /// Calls a scripted policy: `policy(request) -> { {tool = ..., input = {...}}, ... }`. The
    /// request is built straight from the record (no JSON in between: this runs for every
    /// scripted decision), then the record's borrow ends before the policy runs, so a policy may
    /// call skills that read agents.
    fn run_scripted(&self, env: &Inputs<'_>, id: &str, perception_event: &str) -> Result<Decision, DecisionFailure> {
        let lua = env.lua;
        let (policy_name, profile) = {
            let agents = env.agents.borrow();
            let Some(r) = agents.get(id) else { return Ok(Decision::default()) };
            (r.llm.model.clone(), r.profile)
        };
        let script_error = |e: mlua::Error| DecisionFailure::Script {
            policy: policy_name.clone(),
            detail: clipped_detail(crate::script::error_message_and_traceback(&e).0),
        };
        let policy: Function = env.agents.borrow().scripted(&policy_name).ok_or_else(|| DecisionFailure::NoPolicy(policy_name.clone()))?;
        let (specs, tools) = self.tools_for(env, Some(lua), profile);
        // An agent with instruction skills gets its own prompt and tool list (not the
        // profile's shared table): what is active differs from agent to agent.
        let (prompt, tools) = match self.skill_surface(env, id, &specs, perception_event) {
            Some((prompt, specs)) => (Some(prompt), Some(frozen_tools(lua, &specs).map_err(script_error)?)),
            None => (None, tools),
        };
        let request = {
            let agents = env.agents.borrow();
            let Some(r) = agents.get(id) else { return Ok(Decision::default()) };
            let prompt = prompt.as_deref().unwrap_or(&r.llm.system_prompt);
            self.request_builder.build(lua, r, prompt, tools, env.tick).map_err(script_error)?
        };
        // A policy that never returns would hold the loop forever: it runs under a budget of
        // VM checks (deterministic, unlike a clock), and past it the decision fails.
        let exhausted = || {
            format!(
                "it ran past its budget of {POLICY_CHECKS} VM checks (calls and loop iterations) in one decision; an endless loop? the agent idles until its next turn"
            )
        };
        let returned: LuaValue = env.interrupt.with_budget(lua, POLICY_CHECKS, exhausted, || policy.call(request)).map_err(script_error)?;
        // Only the calls a decision can keep are converted: a policy returning millions of
        // entries costs a count, not their JSON.
        let (returned, dropped) = match returned {
            // (String keys of a mixed list are dropped with the entries past the cap.)
            LuaValue::Table(list) if list.raw_len() > MAX_KEPT_CALLS => {
                let kept = lua.create_table_with_capacity(MAX_KEPT_CALLS, 0).map_err(script_error)?;
                for i in 1..=MAX_KEPT_CALLS {
                    kept.raw_set(i, list.raw_get::<LuaValue>(i).map_err(script_error)?).map_err(script_error)?;
                }
                (LuaValue::Table(kept), list.raw_len() - MAX_KEPT_CALLS)
            }
            other => (other, 0),
        };
        let returned = lua_to_json(lua, &returned, "decision")
            .map_err(|e| DecisionFailure::Script { policy: policy_name.clone(), detail: clipped_detail(e.to_string()) })?;
        let mut decision = parse_scripted(&returned)
            .map_err(|e| DecisionFailure::Script { policy: policy_name.clone(), detail: clipped_detail(e.to_string()) })?;
        decision.dropped += dropped;
        Ok(decision)
    }

    /// Validates a decision's tool calls and queues them, tracing the decision and every
    /// rejection and cap; a failed decision is traced and the agent idles until its next turn.
    fn finish_decision(
        &self,
        env: &Inputs<'_>,
        id: &str,
        perception_event: &str,
        kind: ProviderKind,
        result: Result<Decision, DecisionFailure>,
    ) {
        let causes = vec![perception_event.to_string()];
        let found = env.agents.borrow().get(id).map(|r| (Rc::clone(&r.id), Rc::clone(&r.session_id), r.budget));
        let Some((actor, thread, budget)) = found else {
            // Its own policy (or a skill it called) despawned it: the perception still gets its
            // ending, and nothing it decided runs.
            let payload =
                json!({"agentId": id, "reason": "the agent was despawned while it decided", "ok": result.is_ok(), "tick": env.tick});
            self.agent_event(env, EventKind::AgentDecisionDiscarded, id, &format!("ses_{id}"), causes, &payload);
            return;
        };
        let decision = match result {
            Ok(d) => d,
            Err(e) => {
                let payload = json!({"agentId": id, "provider": kind.as_str(), "reason": e.to_string(), "tick": env.tick});
                self.agent_event(env, EventKind::AgentDecisionFailed, &actor, &thread, causes, &payload);
                return;
            }
        };
        let (mut calls, mut rejected) = (decision.tool_calls, decision.rejected);
        let payload = json!({
            "agentId": id,
            "provider": kind.as_str(),
            "toolCalls": calls.len() + rejected.len() + decision.dropped,
            "totalTokens": decision.total_tokens,
            "tick": env.tick,
        });
        let decision_event: Rc<str> = self.agent_event(env, EventKind::AgentDecisionCompleted, &actor, &thread, causes, &payload).into();
        // The cap bites on the calls to queue and, separately, on the calls that could not be
        // parsed (each traced as a rejection): a flood of garbage cannot flood the log. What
        // is cut, with what the provider already dropped, is counted in one capped event.
        let limit = budget.max_tool_calls_per_decision;
        let dropped = calls.len().saturating_sub(limit) + rejected.len().saturating_sub(limit) + decision.dropped;
        calls.truncate(limit);
        rejected.truncate(limit);
        if dropped > 0 {
            let agents = env.agents.borrow();
            self.capped(env, "maxToolCallsPerDecision", agents.get(id), dropped, limit);
        }
        let reject = |tool: &str, reason: String| {
            let payload = json!({"agentId": id, "tool": tool, "reason": reason, "tick": env.tick});
            self.agent_event(env, EventKind::AgentToolcallRejected, &actor, &thread, vec![decision_event.to_string()], &payload);
        };
        // Calls the provider could not even parse are reported in the order given, first.
        for bad in &rejected {
            reject(&bad.tool, format!("{} (sent: {})", bad.reason, bad.arguments));
        }
        let mut queue_dropped = 0;
        for call in calls {
            let rejected = |reason: String| reject(&call.tool, reason);
            // The skill tools change only the agent, never the world: they take effect as the
            // decision is received, so they apply to the very next decision (an HTTP agent's
            // next one may start in this same tick) and are not command-log records.
            if let Some(tool) = SkillTool::parse(&call.tool) {
                match self.check_skill_call(env, id, tool, &call.input) {
                    Ok(()) => {
                        let outcome = match self.skill_call(env, id, &decision_event, tool, &call.input) {
                            Ok(result) => json!({"tool": call.tool, "success": true, "result": result}),
                            Err(e) => json!({"tool": call.tool, "success": false, "error": {"code": e.code, "message": e.message}}),
                        };
                        if let Some(record) = env.agents.borrow_mut().get_mut(id) {
                            record.remember_result(outcome);
                        }
                    }
                    Err(reason) => rejected(reason),
                }
                continue;
            }
            let offered = match env.door.lookup_tool(&call.tool) {
                ToolLookup::Unknown(message) => {
                    rejected(message);
                    continue;
                }
                ToolLookup::Offered => true,
                ToolLookup::NotOffered => false,
            };
            if json_size_within(&call.input, MAX_CALL_INPUT_BYTES).is_err() {
                rejected(format!("the input is more than {MAX_CALL_INPUT_BYTES} bytes of JSON, which a tool call's input may be at most"));
                continue;
            }
            if !offered {
                rejected(format!(
                    "{} is not offered to in-world agents: one call of it can hold the loop, which every agent and client shares, for seconds (builders call it over MCP)",
                    call.tool
                ));
                continue;
            }
            let mut input = call.input.clone();
            if let Err(problem) = env.door.check_input(&call.tool, &mut input) {
                rejected(format!("invalid input for {}: {problem}", call.tool));
                continue;
            }
            let mut agents = env.agents.borrow_mut();
            let Some(record) = agents.get_mut(id) else { return };
            if record.queue.len() >= budget.max_queue_depth {
                queue_dropped += 1;
                continue;
            }
            env.door.queued(env.tick, id, &call.tool, &input, &decision_event);
            record.queue.push_back(QueuedAction { tool: call.tool.clone(), input, decision_event: Rc::clone(&decision_event) });
        }
        if queue_dropped > 0 {
            let agents = env.agents.borrow();
            self.capped(env, "maxQueueDepth", agents.get(id), queue_dropped, budget.max_queue_depth);
        }
    }

    /// Off-loop answers that arrived since the last tick. An answer for a decision that timed
    /// out or whose agent is gone is discarded (and traced).
    fn collect_answers(&self, env: &Inputs<'_>) {
        let answers: Vec<Answer> = match &*self.offloop.borrow() {
            Some(o) => o.rx.try_iter().collect(),
            None => return,
        };
        for answer in answers {
            {
                let mut live = self.live_requests.borrow_mut();
                if live.get(answer.agent.as_str()) == Some(&answer.generation) {
                    live.remove(answer.agent.as_str());
                }
            }
            let current = {
                let mut agents = env.agents.borrow_mut();
                match agents.get_mut(&answer.agent) {
                    Some(r) if r.in_flight.as_ref().is_some_and(|f| f.generation == answer.generation) => {
                        let flight = r.in_flight.take().expect("checked");
                        Some((r.llm.provider, flight.perception_event))
                    }
                    _ => None,
                }
            };
            match current {
                Some((kind, perception_event)) => {
                    self.finish_decision(env, &answer.agent, &perception_event, kind, answer.result.map_err(DecisionFailure::from))
                }
                None => {
                    let reason = match env.agents.borrow().get(&answer.agent) {
                        Some(r) if r.generation == answer.generation => "late: the decision had timed out",
                        Some(_) => "the agent that asked was despawned (another agent has its id now)",
                        None => "the agent is gone",
                    };
                    let payload = json!({"agentId": answer.agent, "generation": answer.generation, "reason": reason, "ok": answer.result.is_ok(), "tick": env.tick});
                    self.agent_event(
                        env,
                        EventKind::AgentDecisionDiscarded,
                        &answer.agent,
                        &format!("ses_{}", answer.agent),
                        Vec::new(),
                        &payload,
                    );
                }
            }
        }
    }

    /// Abandons decisions past their agent's `decisionTimeoutMs`; their answers, if they ever
    /// come, are discarded by generation.
    fn expire_decisions(&self, env: &Inputs<'_>) {
        let now = Instant::now();
        struct Expired {
            id: Rc<str>,
            thread: Rc<str>,
            perception_event: Rc<str>,
            kind: ProviderKind,
            ms: u64,
        }
        let expired: Vec<Expired> = {
            let mut agents = env.agents.borrow_mut();
            agents
                .iter_mut()
                .filter_map(|r| {
                    let flight = r.in_flight.as_ref().filter(|f| now >= f.deadline)?;
                    let out = Expired {
                        id: Rc::clone(&r.id),
                        thread: Rc::clone(&r.session_id),
                        perception_event: Rc::clone(&flight.perception_event),
                        kind: r.llm.provider,
                        ms: r.budget.decision_timeout_ms,
                    };
                    r.in_flight = None;
                    Some(out)
                })
                .collect()
        };
        for Expired { id, thread, perception_event, kind, ms } in expired {
            let reason = format!("timed out after {ms} ms (decisionTimeoutMs); a late answer will be discarded");
            let payload = json!({"agentId": &*id, "provider": kind.as_str(), "reason": reason, "tick": env.tick});
            self.agent_event(env, EventKind::AgentDecisionFailed, &id, &thread, vec![perception_event.to_string()], &payload);
        }
    }
}

/// Sorts `events` into each agent's recent events (its own calls and their outcomes) and the
/// world's (signals, speech, collisions); forgets the rings of agents that are gone. Returns the
/// events to tell the clients of client-driven agents (see `hearing::Happening::Event`), in order.
fn sort_events(
    events: crate::trace::History<'_>,
    agents: &super::table::Agents,
    own: &mut HashMap<Rc<str>, RecentRing>,
    world: &mut RecentRing,
) -> Vec<(Rc<str>, Rc<str>)> {
    let mut told = Vec::new();
    for event in events {
        // One tick's events are in memory unless it emitted more than the trace's window; a
        // history that cannot be read back ends the scan, with a warning.
        let event = match event {
            Ok(event) => event,
            Err(e) => {
                tracing::warn!("agents' recent events skip the rest of this tick's events: {e}");
                break;
            }
        };
        let event = &*event;
        let seq = event.seq;
        if let Some(record) = agents.get(&event.actor_id) {
            if is_recent_for(event, &record.id) {
                own.entry(Rc::clone(&record.id)).or_default().push(seq, Rc::clone(&event.event_type));
                if record.llm.provider == ProviderKind::Client && super::hearing::worth_telling(&event.event_type) {
                    told.push((Rc::clone(&record.id), Rc::clone(&event.event_type)));
                }
            }
        } else if is_recent_for(event, "") {
            world.push(seq, Rc::clone(&event.event_type));
        }
    }
    own.retain(|id, _| agents.get(id).is_some());
    told
}

/// The agent systems' memory as snapshot data: the last decision generation handed out, and the
/// recent events kept for each agent and for the world (trace sequence numbers and types).
#[derive(Debug, Serialize, serde::Deserialize)]
pub struct AgentMemory {
    generations: u64,
    own: Vec<(String, Vec<(u64, String)>)>,
    world: Vec<(u64, String)>,
}

/// A saved `AgentMemory` that keeps more than the systems ever do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the agents' memory keeps {count} recent events for {whom}, more than the {RECENT_EVENTS} the systems keep")]
pub struct AgentMemoryError {
    pub whom: String,
    pub count: usize,
}

impl AgentMemory {
    pub fn check(&self) -> Result<(), AgentMemoryError> {
        let rings = self.own.iter().map(|(id, r)| (id.as_str(), r.len())).chain([("the world", self.world.len())]);
        for (whom, count) in rings {
            if count > RECENT_EVENTS {
                return Err(AgentMemoryError { whom: whom.to_string(), count });
            }
        }
        Ok(())
    }
}

impl OffLoop {
    fn new() -> Self {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("limina-decisions")
            .enable_all()
            .build()
            .expect("a tokio runtime for agent decisions");
        let (tx, rx) = mpsc::channel();
        Self { runtime, tx, rx }
    }
}

/// How long an HTTP decision's request may run: the agent's decision timeout plus a grace of
/// the same length (at least 1 s, at most 60 s) in which a late answer is still received, so it
/// can be traced as discarded.
/// The most JSON one tool call's input may take: more is rejected before it is queued (a reply
/// of one call with a megabyte of arguments would otherwise be traced, tick after tick).
const MAX_CALL_INPUT_BYTES: usize = 64 * 1024;
/// The most JSON of a result an agent remembers for its next decisions.
const MAX_REMEMBERED_RESULT_BYTES: usize = 64 * 1024;

/// `value`'s compact JSON size when it is at most `limit` bytes; Err(limit) otherwise. Stops
/// writing at the limit, so a huge value costs no more than `limit` bytes of work.
fn json_size_within(value: &Value, limit: usize) -> Result<usize, usize> {
    struct Counter {
        bytes: usize,
        limit: usize,
    }
    impl std::io::Write for Counter {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.bytes += buf.len();
            if self.bytes > self.limit { Err(std::io::Error::other("over the limit")) } else { Ok(buf.len()) }
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut counter = Counter { bytes: 0, limit };
    match serde_json::to_writer(&mut counter, value) {
        Ok(()) => Ok(counter.bytes),
        Err(_) => Err(limit),
    }
}

/// Makes `t` and every table in it read-only (a tree made from JSON: no cycles).
pub(crate) fn freeze(t: &Table) -> mlua::Result<()> {
    t.for_each(|_: LuaValue, v: LuaValue| match v {
        LuaValue::Table(inner) => freeze(&inner),
        _ => Ok(()),
    })?;
    t.set_readonly(true);
    Ok(())
}

/// `specs` as the read-only Lua list a scripted policy's request carries.
fn frozen_tools(lua: &Lua, specs: &[ToolSpec]) -> mlua::Result<Table> {
    let list: Vec<Value> =
        specs.iter().map(|t| json!({"name": t.name, "description": t.description, "inputSchema": t.input_schema})).collect();
    match json_to_lua(lua, &Value::Array(list))? {
        LuaValue::Table(t) => {
            freeze(&t)?;
            Ok(t)
        }
        _ => Err(mlua::Error::runtime("a tool list is a table")),
    }
}

fn http_timeout(decision: Duration) -> Duration {
    decision + decision.clamp(Duration::from_secs(1), Duration::from_secs(60))
}

/// A scripted policy returned something other than a list of calls (what it returned, as JSON).
#[derive(Debug, thiserror::Error)]
#[error("a policy must return a list of {{tool, input}}, got {0}")]
struct NotAList(String);

/// Reads a scripted policy's answer: a list of `{tool, input}` (an empty list or nil is a
/// decision to do nothing). An entry without a `tool` is reported as a rejected call.
fn parse_scripted(value: &Value) -> Result<Decision, NotAList> {
    let items = match value {
        Value::Null => return Ok(Decision::default()),
        Value::Array(items) => items,
        Value::Object(o) if o.is_empty() => return Ok(Decision::default()),
        other => return Err(NotAList(other.to_string())),
    };
    let mut decision = Decision { dropped: items.len().saturating_sub(MAX_KEPT_CALLS), ..Decision::default() };
    for item in items.iter().take(MAX_KEPT_CALLS) {
        match item.get("tool").and_then(Value::as_str) {
            Some(tool) => {
                decision.tool_calls.push(ToolCall { tool: tool.to_string(), input: item.get("input").cloned().unwrap_or(json!({})) })
            }
            None => {
                let text: String = item.to_string().chars().take(200).collect();
                decision.rejected.push(RejectedCall { tool: String::new(), arguments: text, reason: RejectReason::NoName });
            }
        }
    }
    Ok(decision)
}
