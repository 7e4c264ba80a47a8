//! The engine's state in owned parts, one concern each. The step (`step`) and the bindings
//! (`limina_api`) take the parts a stage needs by name; snapshots capture from and restore into
//! them (`snapshots`), replay feeds them (`replay`). Nothing outside `host` writes
//! `impl` blocks on them.
//!
//! Cells, not `&mut`: script callbacks, handlers and the step all run on this one thread and
//! re-enter each other (a callback calls a skill that reads the world), so every part sits in a
//! `Cell`/`RefCell` that is never borrowed across a call into Lua.

use std::cell::{Cell, RefCell};
use std::path::PathBuf;
use std::rc::Rc;

use mlua::Function;

use crate::agents::systems::AgentSystems;
use crate::agents::table::Agents;
use crate::durable::{CommandLog, Phase, ReplayFeed};
use crate::packages::{Host, ModManager};
use crate::policy::PolicyEngine;
use crate::script::interrupt::VmInterrupt;
use crate::script::random::LuauRandom;
use crate::skills::core::RenderState;
use crate::skills::{CallContexts, Caller, SkillRegistry, StageClock};
use crate::trace::TraceLog;
use crate::world::World;

/// The simulated world: what a snapshot holds and the world hash covers.
pub(crate) struct Sim {
    pub world: Rc<RefCell<World>>,
    /// The live agents (world state; the `agent.*` skills change them).
    pub agents: Rc<RefCell<Agents>>,
    pub tick: Cell<u64>,
    /// True while a step runs, so `limina.step` cannot re-enter it and no snapshot sees half a
    /// step.
    pub stepping: Cell<bool>,
    pub seed: u64,
    /// `math.random`'s generator (see `script::random`): engine state, so snapshots carry it.
    pub rng: Rc<Cell<LuauRandom>>,
}

impl Sim {
    /// The world hash, agents included (see `agents::table::world_hash`).
    pub fn world_hash(&self) -> String {
        crate::agents::table::world_hash(&self.world.borrow(), &self.agents.borrow())
    }
}

/// Who may do what: the skills there are, and the policy that decides each call.
pub(crate) struct Rules {
    pub registry: Rc<RefCell<SkillRegistry>>,
    pub policy: Rc<RefCell<PolicyEngine>>,
    /// Calls are decided by `policy` (recorded decisions); off, static profiles decide.
    pub policy_enabled: bool,
    /// Installed mods and packages (they register skills).
    pub mods: Rc<RefCell<ModManager>>,
    /// How packages reach the engine; set once the engine is built.
    pub host: RefCell<Option<Rc<dyn Host>>>,
}

impl Rules {
    /// The policy engine when it decides calls.
    pub fn live_policy(&self) -> Option<&RefCell<PolicyEngine>> {
        self.policy_enabled.then_some(&*self.policy)
    }
}

/// The accounts of what happened: the world log (trace), the command log, and the replay feed
/// that stands in for scripts and agents when a log is replayed.
pub(crate) struct Journal {
    pub trace: Rc<RefCell<TraceLog>>,
    /// The command log, when the run keeps one (`durable`).
    pub log: RefCell<Option<CommandLog>>,
    /// Where in the tick the engine is (calls are recorded with it).
    pub phase: Cell<Phase>,
    /// Set while a command log is replayed into this engine.
    pub replay: RefCell<Option<ReplayFeed>>,
    /// Where `trace.export` writes (`<project>/traces`).
    pub traces_dir: PathBuf,
    /// Where `world.snapshot` writes (`<project>/snapshots`, or beside the command log).
    pub snapshots_dir: PathBuf,
    /// Set only by the bench's stage breakdown (see `skills::StageClock`).
    pub stage_clock: Option<StageClock>,
}

impl Journal {
    /// Whether a replay feeds this engine's steps (scripts and agent systems stand down).
    pub fn replaying(&self) -> bool {
        self.replay.borrow().is_some()
    }
}

/// Where the world goes besides the journal: pictures and sound.
pub(crate) struct Outputs {
    /// The renderer (created on first capture) and loaded models.
    pub render: Rc<RefCell<RenderState>>,
    /// The audio thread, when sound goes anywhere (see `audio::AudioBackend`).
    pub audio: RefCell<Option<crate::audio::AudioOut>>,
    /// The sounds last handed to the audio thread, and the table revision they are of.
    pub audio_sounds: RefCell<(u64, Option<crate::audio::SoundSnapshot>)>,
}

/// What the host script's VM keeps: its callbacks, its caller, and the tables the bindings reuse.
pub(crate) struct Scripts {
    pub on_step: RefCell<Vec<Function>>,
    pub on_frame: RefCell<Vec<Function>>,
    /// The caller scripts act as.
    pub caller: Caller,
    /// Builds handlers' `ctx` tables.
    pub contexts: CallContexts,
    /// Builds the response tables `limina.call` returns.
    pub responses: super::limina_api::LuaResponses,
    pub session_counter: Cell<u64>,
    pub quit: Cell<bool>,
    /// When set (playtests), `limina.step` stops at this instant: its steps run in Rust, where
    /// the VM's interrupt cannot reach.
    pub deadline: Cell<Option<std::time::Instant>>,
    /// The VM's interrupt: a playtest's deadline, and the budget scripted policies run under.
    pub interrupt: VmInterrupt,
    /// `limina.provider()`.
    pub provider: crate::agents::record::ProviderKind,
}

/// Every part, owned together by one engine (and reached weakly by its packages).
pub(crate) struct Parts {
    pub sim: Sim,
    pub rules: Rules,
    pub journal: Journal,
    pub outputs: Outputs,
    pub scripts: Scripts,
    /// What the agent systems keep between steps (none of it is world state).
    pub agents: AgentSystems,
    /// Whether the shared clock runs, and the step a client's call asked for (`time`).
    pub time: super::time::TimeControl,
    /// How long the last step's stages took (the density bench prints them).
    pub timings: Cell<super::step::StepTimings>,
    /// Heavy calls' second halves, run off this thread for front ends that answer later
    /// (`skills::deferred`).
    pub heavy: Rc<crate::skills::HeavyWork>,
}

impl Parts {
    /// Runs a skill call through the pipeline, with this engine's registry, policy, journal and
    /// tick (the one path every caller's call takes: scripts, clients, agents, packages).
    pub fn invoke(&self, lua: &mlua::Lua, caller: &Caller, name: &str, input: serde_json::Value) -> crate::skills::SkillResponse {
        crate::skills::invoke(&self.invoke_env(lua), caller, name, input)
    }

    /// `invoke` for a script in this VM: the input comes with a private Lua copy, and a VM
    /// handler's result comes back as one (see `skills::invoke_call`).
    pub(crate) fn invoke_from_lua(
        &self,
        lua: &mlua::Lua,
        caller: &Caller,
        name: &str,
        input: crate::skills::CallInput,
    ) -> (crate::skills::SkillResponse, Option<mlua::Value>) {
        crate::skills::invoke_call(&self.invoke_env(lua), caller, name, input, true)
    }

    pub(crate) fn invoke_env<'a>(&'a self, lua: &'a mlua::Lua) -> crate::skills::InvokeEnv<'a> {
        crate::skills::InvokeEnv {
            lua,
            registry: &self.rules.registry,
            trace: &self.journal.trace,
            policy: self.rules.live_policy(),
            tick: self.sim.tick.get(),
            contexts: &self.scripts.contexts,
            clock: self.journal.stage_clock.as_ref(),
            log: Some(&self.journal.log),
            phase: self.journal.phase.get(),
            heavy: Some(&self.heavy),
            world: Some(&self.sim.world),
        }
    }
}
