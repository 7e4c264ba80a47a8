//! The live agents, by id (a `BTreeMap`, so every system visits them in the same order on every
//! machine), with the scheduler budget the operator set and the scripted policies the host
//! script registered. Only the `agent.*` skills add or remove records.

use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

use mlua::Function;
use sha2::{Digest, Sha256};

use super::budget::SchedulerBudget;
use super::hearing::{EARSHOT_M, Happening, HeardLine, Inbox};
use super::record::AgentRecord;
use crate::digest::sha256_text;
use crate::world::EntityId;

/// Why an agent could not be added.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AgentTableError {
    #[error("agent capacity exceeded: {live} live agents is the maximum ({max})")]
    CapacityExceeded { live: usize, max: usize },
    #[error("agent id '{id}' is already in use")]
    Taken { id: String },
    #[error("agent id '{id}' is the identity of the host script or a connected client; choose another id")]
    HeldByClient { id: String },
}

/// Generated agent ids count up from 1 and stay below this.
pub(crate) const MAX_GENERATED: u64 = 1 << 53;

#[derive(Default)]
pub struct Agents {
    records: BTreeMap<Rc<str>, AgentRecord>,
    /// The number in the next generated id (`agt_0001`, `agt_0002`, ...); never reused; at
    /// most `MAX_GENERATED`.
    next: u64,
    pub scheduler: SchedulerBudget,
    /// Decision functions of `scripted` agents, by the name their `llm.model` gives.
    scripted: BTreeMap<String, Function>,
    /// Agent ids connected MCP clients and the host script's sessions act under (native
    /// `initialize`, `limina.session`): no agent may be spawned under one, or it would act as
    /// that client or session.
    pub(crate) client_ids: super::claims::SessionClaims,
    /// Session ids connected MCP clients and the host script's sessions hold: no client may
    /// adopt one. (Agents act under `ses_agt_…`, a form no client may take.)
    pub(crate) session_ids: super::claims::SessionClaims,
    /// A replay feeds this world: scripted policies never run (their decisions come from the
    /// command log), so `agent.spawn` takes any policy name as registered.
    pub(crate) replaying: bool,
    /// Agents an MCP client embodies now (`agent.embody`), by id: one client each. A claim is
    /// released when the client releases the agent or its connection ends.
    pub(crate) embodied: super::claims::SessionClaims,
    /// What each agent heard and what happened to it since it last looked (see `hearing`).
    inboxes: HashMap<Rc<str>, Inbox>,
    /// Each agent's last `social.say` line and its tick, for viewers (the state stream shows it
    /// for `SAYING_KEPT_TICKS`). Not world state: not hashed, not saved; one line per agent.
    said: HashMap<Rc<str>, Said>,
}

/// How long the state stream shows an agent's last line after it was said (5 s).
pub const SAYING_KEPT_TICKS: u64 = 300;

/// A line an agent said, and when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Said {
    pub text: String,
    pub tick: u64,
}

impl std::fmt::Debug for Agents {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Agents").field("live", &self.records.len()).field("scripted", &self.scripted.keys()).finish()
    }
}

impl Agents {
    pub fn new(scheduler: SchedulerBudget) -> Self {
        Self {
            records: BTreeMap::new(),
            next: 1,
            scheduler,
            scripted: BTreeMap::new(),
            client_ids: Default::default(),
            session_ids: Default::default(),
            replaying: false,
            embodied: Default::default(),
            inboxes: HashMap::new(),
            said: HashMap::new(),
        }
    }

    /// Notes the line agent `id` just said (`social.say`); nothing for an id that is no agent.
    pub(crate) fn note_said(&mut self, id: &str, text: &str, tick: u64) {
        if let Some(record) = self.records.get(id) {
            self.said.insert(Rc::clone(&record.id), Said { text: text.to_string(), tick });
        }
    }

    /// Agent `id`'s last line, if it said one.
    pub fn said(&self, id: &str) -> Option<&Said> {
        self.said.get(id)
    }

    /// The next free generated id (the counter stays below `MAX_GENERATED`, so `n` cannot
    /// overflow: the table holds at most `max_agents` records to skip).
    pub(crate) fn next_id(&self) -> String {
        let mut n = self.next.max(1);
        loop {
            let id = format!("agt_{n:04}");
            if !self.records.contains_key(id.as_str()) {
                return id;
            }
            n += 1;
        }
    }

    /// Whom agent `id` acts for, nearest first (see `AgentRecord::acting_for`); empty for an id
    /// that is no agent.
    pub fn acting_for(&self, id: &str) -> Rc<[crate::policy::Principal]> {
        self.records.get(id).map_or_else(|| Rc::from([]), |r| Rc::clone(&r.acting_for))
    }

    /// Whether the caller `agent_id` in `session_id` may remove agent `id` or destroy its body:
    /// the agent itself, and the sessions it acts for (its spawner's, and theirs up the chain),
    /// may; so may the operator (who holds `policy.govern`, checked by the skill). Anyone
    /// else is refused with who does own it. An id that names no agent is no one's (Ok).
    pub(crate) fn may_remove(&self, id: &str, agent_id: &str, session_id: &str) -> Result<(), NotYours> {
        let Some(record) = self.records.get(id) else { return Ok(()) };
        if record.id.eq_ignore_ascii_case(agent_id) || record.acting_for.iter().any(|p| p.session_id.eq_ignore_ascii_case(session_id)) {
            return Ok(());
        }
        let owner = record.acting_for.last().map_or_else(|| "the operator".to_string(), |p| p.session_id.to_string());
        Err(NotYours { agent: id.to_string(), owner })
    }

    /// The agent inhabiting `entity`, if any.
    pub(crate) fn inhabitant(&self, entity: crate::world::EntityId) -> Option<&AgentRecord> {
        self.records.values().find(|r| r.entity == Some(entity))
    }

    /// The live agent whose id is `id` in any case (`agt_Walker` and `agt_walker` read as one
    /// name, so they are one for every check of who an id belongs to).
    pub fn find_any_case(&self, id: &str) -> Option<&AgentRecord> {
        self.records.get(id).or_else(|| self.records.values().find(|r| r.id.eq_ignore_ascii_case(id)))
    }

    /// Checks that `id` could be added now.
    pub(crate) fn check_room(&self, id: &str) -> Result<(), AgentTableError> {
        if let Some(live) = self.find_any_case(id) {
            return Err(AgentTableError::Taken { id: live.id.to_string() });
        }
        if self.client_ids.is_held(id) {
            return Err(AgentTableError::HeldByClient { id: id.into() });
        }
        if self.records.len() >= self.scheduler.max_agents {
            return Err(AgentTableError::CapacityExceeded { live: self.records.len(), max: self.scheduler.max_agents });
        }
        Ok(())
    }

    pub fn insert(&mut self, record: AgentRecord) -> Result<(), AgentTableError> {
        self.check_room(&record.id)?;
        // An explicit id of the generated form moves the counter past it, so no generated id
        // collides with it later; numbers past `MAX_GENERATED` are ids like any other (the
        // counter never gets near them, and `agt_18446744073709551615` would wrap it to 0).
        if let Some(n) = record.id.to_ascii_lowercase().strip_prefix("agt_").and_then(|n| n.parse::<u64>().ok())
            && n < MAX_GENERATED
        {
            self.next = self.next.max(n + 1);
        }
        self.records.insert(Rc::clone(&record.id), record);
        Ok(())
    }

    pub fn remove(&mut self, id: &str) -> Option<AgentRecord> {
        self.inboxes.remove(id);
        self.said.remove(id);
        self.records.remove(id)
    }

    /// Agent `id`'s inbox (empty until something reaches it); None for an id that is no agent.
    pub(crate) fn inbox_mut(&mut self, id: &str) -> Option<&mut Inbox> {
        let record = self.records.get(id)?;
        Some(self.inboxes.entry(Rc::clone(&record.id)).or_default())
    }

    /// Delivers a line `speaker` said from `at` to every other agent whose body is within
    /// `EARSHOT_M` of it, in id order; returns how many heard it.
    pub(crate) fn hear(
        &mut self,
        world: &crate::world::World,
        speaker: &str,
        speaker_entity: EntityId,
        at: [f64; 3],
        text: &str,
        tick: u64,
    ) -> usize {
        let mut heard = 0;
        for record in self.records.values() {
            let Some(body) = record.entity.filter(|e| *e != speaker_entity) else { continue };
            if &*record.id == speaker {
                continue;
            }
            let Some(t) = world.transform(body) else { continue };
            let p = t.position.map(f64::from);
            let distance = ((p[0] - at[0]).powi(2) + (p[1] - at[1]).powi(2) + (p[2] - at[2]).powi(2)).sqrt();
            if distance.is_nan() || distance > EARSHOT_M {
                continue;
            }
            let line = HeardLine {
                speaker: speaker.to_string(),
                speaker_entity: speaker_entity.to_string(),
                text: text.to_string(),
                tick,
                distance,
            };
            self.inboxes.entry(Rc::clone(&record.id)).or_default().push(Happening::Heard(line));
            heard += 1;
        }
        heard
    }

    /// Claims client-driven agent `id` for the client calling as `agent_id` in `session_id`,
    /// holding `held` (the operator holds `policy.govern`): refused as `may_embody` refuses, for
    /// an agent a provider decides for, and for one whose profile grants more than `held`.
    pub(crate) fn claim_embodiment(
        &self,
        id: &str,
        agent_id: &str,
        session_id: &str,
        held: crate::policy::PermissionSet,
    ) -> Result<Embodiment, EmbodyRefused> {
        let operator = held.contains(crate::policy::Permission::PolicyGovern);
        let record = self.may_embody(id, agent_id, session_id, operator)?;
        if record.llm.provider != super::record::ProviderKind::Client {
            return Err(EmbodyRefused::NotClientDriven { id: id.to_string(), provider: record.llm.provider.as_str() });
        }
        let excess: Vec<&str> = record.profile.permissions().iter().filter(|p| !held.contains(*p)).map(|p| p.as_str()).collect();
        if !operator && !excess.is_empty() {
            return Err(EmbodyRefused::Beyond { id: id.to_string(), profile: record.profile.as_str(), excess: excess.join(", ") });
        }
        let claim =
            self.embodied.claim(&record.id, super::claims::Holder::Client).map_err(|_| EmbodyRefused::Embodied { id: id.to_string() })?;
        Ok(Embodiment {
            agent_id: Rc::clone(&record.id),
            session_id: Rc::clone(&record.session_id),
            profile: record.profile,
            acting_for: Rc::clone(&record.acting_for),
            claim,
        })
    }

    /// Whether a client calling as `agent_id` in `session_id` (`operator`: holding
    /// `policy.govern`) may take agent `id` as its body now: the agent exists under exactly that
    /// id, is a player, no client embodies it, and the caller may control it (it is the
    /// operator, or a session the agent acts for; see `may_remove`).
    pub(crate) fn may_embody(&self, id: &str, agent_id: &str, session_id: &str, operator: bool) -> Result<&AgentRecord, EmbodyRefused> {
        let Some(record) = self.records.get(id) else {
            return Err(match self.find_any_case(id) {
                Some(other) => {
                    EmbodyRefused::NoSuchAgent { id: id.to_string(), hint: format!(" (ids are exact: did you mean {}?)", other.id) }
                }
                None => EmbodyRefused::NoSuchAgent { id: id.to_string(), hint: String::new() },
            });
        };
        if record.kind != super::record::AgentKind::Player {
            return Err(EmbodyRefused::NotAPlayer { id: id.to_string() });
        }
        if self.embodied.is_held(id) {
            return Err(EmbodyRefused::Embodied { id: id.to_string() });
        }
        if !operator {
            self.may_remove(id, agent_id, session_id).map_err(EmbodyRefused::NotYours)?;
        }
        Ok(record)
    }

    pub fn get(&self, id: &str) -> Option<&AgentRecord> {
        self.records.get(id)
    }

    pub(crate) fn get_mut(&mut self, id: &str) -> Option<&mut AgentRecord> {
        self.records.get_mut(id)
    }

    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = &AgentRecord> {
        self.records.values()
    }

    pub(crate) fn iter_mut(&mut self) -> impl Iterator<Item = &mut AgentRecord> {
        self.records.values_mut()
    }

    pub(crate) fn set_scripted(&mut self, name: &str, policy: Function) {
        self.scripted.insert(name.to_string(), policy);
    }

    pub fn scripted(&self, name: &str) -> Option<Function> {
        self.scripted.get(name).cloned()
    }

    pub(crate) fn scripted_names(&self) -> Vec<&str> {
        self.scripted.keys().map(String::as_str).collect()
    }

    /// The number the next generated id would start from (`agt_0001` is 1).
    pub(crate) fn next_number(&self) -> u64 {
        self.next
    }

    /// Replaces the records, the id counter and the scheduler budget (a restored snapshot's),
    /// keeping what belongs to the running host: its scripted policies and its clients' claims.
    /// Refused, changing nothing, when a connected client holds one of the records' ids.
    pub(crate) fn replace_records(
        &mut self,
        records: Vec<AgentRecord>,
        next: u64,
        scheduler: SchedulerBudget,
    ) -> Result<(), AgentTableError> {
        if let Some(r) = records.iter().find(|r| self.client_ids.is_held(&r.id)) {
            return Err(AgentTableError::HeldByClient { id: r.id.to_string() });
        }
        self.records = records.into_iter().map(|r| (Rc::clone(&r.id), r)).collect();
        self.inboxes.clear();
        self.next = next;
        self.scheduler = scheduler;
        Ok(())
    }

    /// `sha256:` over every record's deterministic state, in id order; None with no agents (so a
    /// world without agents hashes exactly as before agents existed).
    pub fn hash(&self) -> Option<String> {
        if self.records.is_empty() {
            return None;
        }
        let states: Vec<serde_json::Value> = self.records.values().map(AgentRecord::hash_state).collect();
        Some(sha256_text(&Sha256::digest(serde_json::to_string(&states).unwrap_or_default().as_bytes())))
    }
}

/// The world hash: the entities' hash alone when there are no agents (so a world without agents
/// hashes exactly as it did before agents existed), else sha256 over it and the agents' hash.
pub fn world_hash(world: &crate::world::World, agents: &Agents) -> String {
    let entities = world.hash();
    match agents.hash() {
        None => entities,
        Some(agents) => sha256_text(&Sha256::digest(format!("{entities}\n{agents}").as_bytes())),
    }
}

/// A caller that may not remove an agent (or destroy its body): it neither is the agent nor acts
/// for a session the agent acts for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "agent {agent} was spawned for session {owner}; only the sessions it acts for, the agent itself and the operator may remove it or its body"
)]
pub struct NotYours {
    pub agent: String,
    /// The session at the root of whom it acts for ("the operator" for the operator's own).
    pub owner: String,
}

/// Why a client may not embody an agent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EmbodyRefused {
    #[error("no agent {id}{hint}")]
    NoSuchAgent { id: String, hint: String },
    #[error("agent {id} is a builder, recorded only; only player agents can be embodied")]
    NotAPlayer { id: String },
    #[error("agent {id} is embodied by another client; it is free again when that client calls agent.release or disconnects")]
    Embodied { id: String },
    #[error(transparent)]
    NotYours(NotYours),
    #[error("agent {id} is decided for by its {provider} provider; agent.embody makes it client-driven first")]
    NotClientDriven { id: String, provider: &'static str },
    #[error(
        "agent {id} acts under profile {profile}, which grants {excess} that the client does not hold: a client embodies only an agent within its own credential"
    )]
    Beyond { id: String, profile: &'static str, excess: String },
}

/// Who a client embodying an agent acts as: the agent's id, session, profile and whom it acts
/// for, and the claim that keeps other clients off it while held.
#[derive(Debug, Clone)]
pub struct Embodiment {
    pub agent_id: Rc<str>,
    pub session_id: Rc<str>,
    pub profile: crate::policy::Profile,
    pub acting_for: Rc<[crate::policy::Principal]>,
    pub claim: Rc<super::claims::SessionClaim>,
}
