//! `Engine`: builds a world with its VM and core skills, runs scripts, and steps the world.

use std::cell::{Cell, RefCell};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use mlua::{Function, Lua, Table, Value as LuaValue};
use serde_json::Value;

use super::limina_api;
use super::parts::{Journal, Outputs, Parts, Rules, Scripts, Sim};
use super::step::StepTimings;
use crate::agents::systems::AgentSystems;
use crate::agents::table::Agents;
use crate::packages::{Host, ModManager, Packages};
use crate::policy::PolicyEngine;
use crate::script::{self, ScriptError, ScriptRoots};
use crate::skills::core::{CoreParts, RenderState, SceneApplyError, SceneLoaded, SceneTarget, apply_scene, register_core_skills};
use crate::skills::{self, CallContexts, Caller, HandlerFailure, Skill, SkillRegistry, SkillResponse, StageClock};
use crate::trace::TraceLog;
use crate::world::World;

/// Where script `print` output goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Output {
    #[default]
    Stdout,
    /// For protocol servers whose stdout carries only protocol messages.
    Stderr,
    /// Discarded (benchmarks).
    Silent,
    /// Kept in the VM's `CapturedOutput` (playtests return it as their `logs`), up to
    /// `CapturedOutput::LIMIT` bytes.
    Capture,
}

/// What a `Output::Capture` engine's scripts printed.
#[derive(Debug, Default)]
pub(crate) struct CapturedOutput {
    pub text: String,
    /// Bytes dropped past the limit.
    pub dropped: usize,
}

impl CapturedOutput {
    pub const LIMIT: usize = 64 * 1024;
}

#[derive(Debug, Clone)]
pub struct EngineConfig {
    pub seed: u64,
    /// Profile of the script's own session (`limina.call`).
    pub profile: crate::policy::Profile,
    /// The host script is the operator: it also holds `policy.govern` (governance skills and
    /// `limina.policy`). Off, the script is just another caller under its profile.
    pub operator: bool,
    pub agent_id: String,
    pub session_id: String,
    /// Folder `require` names resolve against and chunk names are shown relative to.
    pub project_root: PathBuf,
    /// Extra folders modules may be required from (the running script's own folder).
    pub extra_roots: Vec<PathBuf>,
    pub output: Output,
    /// Install describe/it/expect (for `limina test`).
    pub test_kit: bool,
    /// Decide calls with the live policy engine (recorded decisions); off = static profiles.
    pub policy: bool,
    /// Chain every event into this file as it is emitted.
    pub trace_append: Option<PathBuf>,
    /// How much of the world log memory holds; older events are spilled to a private file
    /// (beside `trace_append` when set, else under the system temp folder).
    pub trace_window: crate::trace::TraceWindow,
    /// Where `trace.export` writes; None is `<project>/traces` (a playtest gets a private one).
    pub traces_dir: Option<PathBuf>,
    /// Where `world.snapshot` writes; None is `<project>/snapshots` (a playtest gets a private
    /// one).
    pub snapshots_dir: Option<PathBuf>,
    /// The folder whose `scenes/` `scene.save` writes into; None is the project (a playtest gets
    /// a private one, and its `scene.load` looks there before the project).
    pub scene_saves: Option<PathBuf>,
    /// Mods and packages root; None loads no mods (the CLI passes `<project>/scripts`).
    pub scripts: Option<PathBuf>,
    /// Hot-reload changed scripts between ticks.
    pub watch_scripts: bool,
    /// Where untrusted and verified packages run: in worker processes (the `limina` binary's
    /// default on Linux) or in process (`packages::worker::Isolation`).
    pub package_isolation: crate::packages::worker::Isolation,
    /// Agent scheduler budgets (decision starts and actions per tick, the agent cap, the
    /// per-agent defaults).
    pub scheduler: crate::agents::budget::SchedulerBudget,
    /// The provider scripts' agents are asked to use (`limina.provider()`; `--provider`).
    pub provider: crate::agents::record::ProviderKind,
    /// Provider endpoints and keys; None reads the operator's environment when an HTTP
    /// decision first needs them (tests pass local servers here).
    pub providers: Option<crate::agents::provider::ProvidersConfig>,
    /// Live entities the world holds at most (`capacity_exceeded` beyond).
    pub entity_capacity: usize,
    /// Read a clock at each stage of every skill call from a script (the bench's breakdown,
    /// `Engine::call_stages`); off, a call pays one branch per stage.
    pub stage_timing: bool,
    /// Where sound goes (silent unless asked; `limina run --audio-out` renders a WAV).
    pub audio: crate::audio::AudioBackend,
    /// Keep a command log of every applied skill call (`--log FILE`).
    pub log: Option<crate::durable::LogConfig>,
    /// Start from this snapshot (`limina run SNAPSHOT`, `limina mcp --resume`): restored before
    /// the log opens, so the log is a new segment that starts from it (`host::resume`).
    pub resume: Option<super::Resume>,
    /// The instruction skills' default surface mode and provider/model rules; `None` reads
    /// `LIMINA_SKILL_MODE_RULES` and `LIMINA_SKILL_DEFAULT_MODE` (see `instructions::SurfaceConfig`).
    pub skill_surface: Option<crate::instructions::SurfaceConfig>,
}

impl EngineConfig {
    /// An engine for the project at `project_root`, with the defaults: seed 0, the script acting
    /// as `agt_script` under `builder.readWrite`, no mods unless `scripts` names a folder.
    pub fn new(project_root: impl Into<PathBuf>) -> Self {
        Self {
            seed: 0,
            profile: crate::policy::Profile::BuilderReadWrite,
            operator: true,
            agent_id: "agt_script".into(),
            session_id: "ses_script".into(),
            project_root: project_root.into(),
            extra_roots: Vec::new(),
            output: Output::Stdout,
            test_kit: false,
            policy: true,
            trace_append: None,
            trace_window: crate::trace::TraceWindow::DEFAULT,
            traces_dir: None,
            snapshots_dir: None,
            scene_saves: None,
            scripts: None,
            watch_scripts: false,
            package_isolation: crate::packages::worker::Isolation::from_environment(),
            scheduler: crate::agents::budget::SchedulerBudget::default(),
            provider: crate::agents::record::ProviderKind::Scripted,
            providers: None,
            entity_capacity: crate::world::DEFAULT_ENTITY_CAPACITY,
            stage_timing: false,
            audio: crate::audio::AudioBackend::Null,
            log: None,
            resume: None,
            skill_surface: None,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// A part of the engine could not be installed in its VM.
    #[error("engine start-up failed: {part}: {source}")]
    Startup {
        part: &'static str,
        #[source]
        source: ScriptError,
    },
    #[error("engine start-up failed: {0}")]
    CoreSkills(#[from] crate::skills::core::CoreError),
    /// A command log's header asks for an engine this one will not build.
    #[error("engine start-up failed: {0}")]
    LogHeader(#[from] super::replay::HeaderError),
    #[error(transparent)]
    Definition(#[from] crate::skills::DefinitionError),
    #[error(transparent)]
    Registry(#[from] crate::skills::RegistryError),
    #[error(transparent)]
    Script(#[from] ScriptError),
    /// A file the engine opens for writing (`--trace`, `--log`).
    #[error("{}: {action}: {source}", path.display())]
    Output {
        path: PathBuf,
        action: &'static str,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Log(#[from] crate::durable::LogFailure),
    /// The operator's surface-mode configuration cannot be taken.
    #[error("engine start-up failed: {0}")]
    SkillSurface(#[from] crate::instructions::SurfaceConfigError),
    /// The snapshot to resume was refused (nothing was started, no log was opened).
    #[error("{from}: cannot resume it: {source}")]
    Resume {
        from: String,
        #[source]
        source: crate::snapshot::SnapshotError,
    },
    /// A file a run reads or writes, and what went wrong with it.
    #[error("{path}: {message}")]
    File { path: String, message: String },
}

/// Why a client may not take a session or agent id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClaimRefused {
    #[error("session {id} is in-world agent {agent}'s; choose another sessionId")]
    AgentsSession { id: String, agent: String },
    #[error("session {id} is in use by {}; choose another sessionId", holder_name(*holder))]
    SessionHeld { id: String, holder: super::Holder },
    #[error("agent {agent} is an in-world agent; a client cannot act under its name")]
    LiveAgent { agent: String },
    #[error("{refusal}; choose another id")]
    GeneratedForm { refusal: String },
    #[error("agent id {id} {}; choose another agentId", match holder { super::Holder::Client => "is in use by another client", super::Holder::Script => "is the host script's" })]
    AgentIdHeld { id: String, holder: super::Holder },
}

fn holder_name(holder: super::Holder) -> &'static str {
    match holder {
        super::Holder::Client => "another client",
        super::Holder::Script => "the host script",
    }
}

/// The counts `limina run` prints at exit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunSummary {
    pub ticks: u64,
    pub entities: usize,
    pub bodies: usize,
    pub world_hash: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TestStatus {
    Pass,
    Fail,
    Skip,
}

/// How much of a test run's outcomes `run_tests_within` keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TestLimits {
    /// Outcomes kept (all are counted).
    pub kept: usize,
    /// Bytes kept of each name and message.
    pub text: usize,
}

impl TestLimits {
    /// `limina test`: the operator's own files.
    pub const FILES: TestLimits = TestLimits { kept: usize::MAX, text: 64 * 1024 };
    /// Playtests: what an agent reads (and what a hostile test could inflate).
    pub const PLAYTEST: TestLimits = TestLimits { kept: 200, text: 2048 };
}

/// Every outcome of a run, kept or not.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct TestTally {
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestOutcome {
    pub name: String,
    pub status: TestStatus,
    pub message: Option<String>,
}

/// One world with its VM, skills and trace.
pub struct Engine {
    lua: Lua,
    /// The script's claim on its own session id.
    _script_session: Option<Rc<super::SessionClaim>>,
    /// The script's claim on its agent id among the agents' ids.
    _script_agent: Option<Rc<super::SessionClaim>>,
    parts: Rc<Parts>,
    roots: ScriptRoots,
    runner: Option<Function>,
    /// The project: scene models load from its `assets/`.
    project_root: PathBuf,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine").field("tick", &self.parts.sim.tick.get()).finish()
    }
}

/// Opens the command log of a new engine. A resumed engine's log is a segment that starts from
/// its world: the header names a copy of it written beside the log (never over an existing
/// file), and the log's first record names that copy, so replay and recovery can start there.
fn open_log(p: &Parts, log: &crate::durable::LogConfig, config: &EngineConfig) -> Result<crate::durable::CommandLog, EngineError> {
    let failed = |action: &'static str| {
        move |source: std::io::Error| EngineError::Output { path: std::path::PathBuf::from(log.describe()), action, source }
    };
    let tick = p.sim.tick.get();
    // A log continued on its remote (a world taken over) holds the history this state came
    // from: it needs no base snapshot.
    let continues = log.remote.as_ref().is_some_and(|r| r.continues());
    let base = match &config.resume {
        None => None,
        Some(_) if continues => None,
        Some(resume) => {
            let file = crate::durable::CommandLog::snapshot_file_name(&log.path, tick);
            let bytes = super::snapshots::capture(p).map_err(|source| EngineError::Resume { from: resume.from.clone(), source })?;
            Some((crate::durable::BaseSnapshot { file, tick, hash: p.sim.world_hash() }, bytes))
        }
    };
    let header = crate::durable::Header {
        format: crate::durable::FORMAT,
        engine: env!("CARGO_PKG_VERSION").into(),
        seed: config.seed,
        entity_capacity: config.entity_capacity,
        checkpoint_every: log.checkpoint_every.max(1),
        scheduler: serde_json::to_value(config.scheduler).unwrap_or(Value::Null),
        start_tick: tick,
        base: base.as_ref().map(|(b, _)| b.clone()),
    };
    let mut opened = crate::durable::CommandLog::create(log, &header).map_err(failed("cannot start the command log"))?;
    if let Some((base, bytes)) = base {
        let path = super::resume::base_path(&log.path, &base.file);
        let written = crate::atomic_file::write_with(&path, crate::atomic_file::Replace::Checked(&|_| false), |f| {
            use std::io::Write as _;
            f.write_all(&bytes)
        });
        if let Err(source) = written {
            // The log was created a moment ago, by this engine: it names a base that is not
            // there, so it goes, and nothing is left half-started.
            drop(opened);
            let _ = std::fs::remove_file(&log.path);
            return Err(EngineError::Output { path, action: "cannot write the snapshot the resumed log starts from", source });
        }
        opened.snapshot_written(base.tick, &path, &base.hash);
        opened.make_durable()?;
    }
    Ok(opened)
}

fn startup(part: &'static str) -> impl Fn(mlua::Error) -> EngineError {
    move |e| EngineError::Startup { part, source: ScriptError::from(e) }
}

impl Engine {
    pub fn new(config: EngineConfig) -> Result<Engine, EngineError> {
        let lua = Lua::new();
        let world = Rc::new(RefCell::new(World::with_capacity(config.entity_capacity)));
        let trace = Rc::new(RefCell::new(TraceLog::with_window(format!("thr_{}", config.session_id), config.trace_window)));
        if let Some(path) = &config.trace_append {
            trace.borrow_mut().append_to(path).map_err(|source| EngineError::Output {
                path: path.clone(),
                action: "cannot append the trace here",
                source,
            })?;
        }
        let surface = match config.skill_surface.clone() {
            Some(surface) => surface,
            None => crate::instructions::SurfaceConfig::from_env()?,
        };
        let registry = Rc::new(RefCell::new(SkillRegistry::new()));
        {
            let mut registry = registry.borrow_mut();
            let instructions = registry.instructions_mut();
            instructions.set_default_mode(surface.default_mode);
            instructions.set_model_rules(surface.rules);
        }
        let traces_dir = config.traces_dir.clone().unwrap_or_else(|| config.project_root.join("traces"));

        install_print(&lua, config.output).map_err(startup("print"))?;
        // `math.random` draws from engine state (saved and restored with the world), seeded as
        // `math.randomseed(seed)` would be: Luau's own generator, reimplemented in Rust.
        let rng = Rc::new(Cell::new(script::random::LuauRandom::seeded(script::random::num2int((config.seed % (1 << 52)) as f64))));
        script::random::install(&lua, Rc::clone(&rng)).map_err(startup("math.random"))?;
        let fail_fn = lua
            .create_function(|_, (code, message): (String, String)| -> mlua::Result<()> {
                Err(HandlerFailure::from_script(&code, message).into_lua())
            })
            .map_err(startup("ctx.fail"))?;
        let contexts = CallContexts::new(&lua, fail_fn).map_err(startup("ctx"))?;
        let responses = super::limina_api::LuaResponses::new(&lua).map_err(startup("responses"))?;

        let operator_caller = {
            let mut caller = Caller::with_profile(&config.agent_id, &config.session_id, config.profile);
            if config.operator {
                caller.permissions.insert(crate::policy::Permission::PolicyGovern);
            }
            caller
        };
        let shared = Rc::new(Parts {
            sim: Sim {
                world: Rc::clone(&world),
                agents: Rc::new(RefCell::new(Agents::new(config.scheduler))),
                tick: Cell::new(0),
                stepping: Cell::new(false),
                seed: config.seed,
                rng,
            },
            rules: Rules {
                registry: Rc::clone(&registry),
                policy: Rc::new(RefCell::new(PolicyEngine::new())),
                policy_enabled: config.policy,
                mods: Rc::new(RefCell::new({
                    let mut mods = ModManager::new(config.scripts.clone(), config.profile);
                    mods.set_isolation(config.package_isolation.clone());
                    mods
                })),
                host: RefCell::new(None),
            },
            journal: Journal {
                trace: Rc::clone(&trace),
                log: RefCell::new(None),
                phase: Cell::new(crate::durable::Phase::Between),
                replay: RefCell::new(None),
                traces_dir: traces_dir.clone(),
                // With a command log, snapshots go beside it (where `limina recover` looks).
                snapshots_dir: config.snapshots_dir.clone().unwrap_or_else(|| match config.log.as_ref().and_then(|l| l.path.parent()) {
                    Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
                    Some(_) => PathBuf::from("."),
                    None => config.project_root.join("snapshots"),
                }),
                stage_clock: config.stage_timing.then(StageClock::default),
            },
            outputs: Outputs {
                render: Rc::new(RefCell::new(RenderState::default())),
                audio: RefCell::new(crate::audio::AudioOut::start(&config.audio)),
                audio_sounds: RefCell::new((0, None)),
            },
            scripts: Scripts {
                on_step: RefCell::new(Vec::new()),
                on_frame: RefCell::new(Vec::new()),
                caller: operator_caller,
                contexts,
                responses,
                session_counter: Cell::new(0),
                quit: Cell::new(false),
                deadline: Cell::new(None),
                interrupt: Default::default(),
                provider: config.provider,
            },
            agents: AgentSystems::new(config.providers.clone()),
            time: Default::default(),
            timings: Cell::new(StepTimings::default()),
            heavy: Rc::default(),
        });

        // The schema DSL is pure data builders: core skills get it as `s`, scripts as
        // `limina.schema` (for declaring their own skills).
        let dsl: Table = lua.load(skills::SCHEMA_DSL).set_name("@limina/schema.luau").eval().map_err(startup("schema DSL"))?;
        let engine_host = Rc::new(EngineHost { shared: Rc::downgrade(&shared), lua: lua.weak(), project: config.project_root.clone() });
        let host: Rc<dyn Host> = Rc::clone(&engine_host) as Rc<dyn Host>;
        shared.rules.host.replace(Some(Rc::clone(&host)));
        let packages = Rc::new(Packages { mods: Rc::clone(&shared.rules.mods), registry: Rc::clone(&registry), host: Rc::clone(&host) });
        let core = CoreParts {
            world: Rc::clone(&world),
            registry: Rc::clone(&registry),
            trace: Rc::clone(&trace),
            render: Rc::clone(&shared.outputs.render),
            packages,
            snapshots: engine_host,
            time: Rc::new(super::time::TimeHost { shared: Rc::downgrade(&shared) }),
            playtests: std::sync::Arc::new(super::playtest::ScratchPlaytests),
            policy: Rc::clone(&shared.rules.policy),
            agents: Rc::clone(&shared.sim.agents),
            project: config.project_root.clone(),
            traces_dir,
            scene_saves: config.scene_saves.clone().unwrap_or_else(|| config.project_root.clone()),
            scripts: config.scripts.clone(),
            invoke: {
                let host = Rc::clone(&host);
                Rc::new(move |caller: &Caller, skill: &str, input: Value| host.invoke(caller, skill, input))
            },
            now: {
                let parts = Rc::downgrade(&shared);
                Rc::new(move || parts.upgrade().map_or(0, |p| p.sim.tick.get()))
            },
            policy_enabled: config.policy,
            heavy: Rc::clone(&shared.heavy),
        };
        register_core_skills(&lua, &dsl, &core)?;
        limina_api::install(&lua, &shared, &dsl).map_err(startup("limina API"))?;
        let roots = ScriptRoots::for_project(&config.project_root, &config.extra_roots);
        script::install_require(&lua, roots.clone()).map_err(startup("require"))?;
        let runner = if config.test_kit {
            Some(lua.load(script::TESTKIT).set_name("@limina/testkit.luau").eval::<Function>().map_err(startup("test kit"))?)
        } else {
            None
        };
        // Libraries and the globals installed above become read-only; scripts' own globals go to
        // a per-VM environment, so no script can break core skills by replacing `table` or `math`.
        lua.sandbox(true).map_err(startup("sandbox"))?;
        // Mods load last, into a finished engine; a broken mod is recorded, never fatal.
        crate::packages::load_all(&shared.rules.mods, &registry, &host);
        if config.watch_scripts
            && let Err(e) = shared.rules.mods.borrow_mut().watch()
        {
            tracing::warn!("hot reload is off: {e}");
        }
        // A resumed world replaces whatever the mods' load made, before anyone can call a skill.
        if let Some(resume) = &config.resume {
            super::snapshots::restore(&shared, &resume.bytes)
                .map_err(|source| EngineError::Resume { from: resume.from.clone(), source })?;
        }
        // The log opens on a finished engine: the mods' load-time calls are theirs to replay
        // (a replay loads no mods), everything from the first script line on is recorded.
        if let Some(log) = &config.log {
            let opened = open_log(&shared, log, &config)?;
            shared.journal.log.replace(Some(opened));
        }
        tracing::debug!(skills = registry.borrow().size(), profile = %config.profile, seed = config.seed, "engine ready");
        // No client may adopt the host script's session, and no agent may be spawned under its
        // name: its actions would be traced as the operator's, and revoking it would lock the
        // operator out. Nobody else holds anything yet, so both claims succeed.
        let script_session = shared.sim.agents.borrow().session_ids.claim(&config.session_id, super::Holder::Script).ok();
        let script_agent = shared.sim.agents.borrow().client_ids.claim(&shared.scripts.caller.agent_id, super::Holder::Script).ok();
        Ok(Engine {
            lua,
            parts: shared,
            roots,
            runner,
            _script_session: script_session,
            _script_agent: script_agent,
            project_root: config.project_root,
        })
    }

    pub fn lua(&self) -> &Lua {
        &self.lua
    }

    /// The engine's parts (snapshots and replay work on them).
    pub(crate) fn parts(&self) -> &Parts {
        &self.parts
    }

    /// Loads and runs a script file; returns what its chunk returned.
    pub fn run_file(&self, path: &Path) -> Result<LuaValue, EngineError> {
        let display = self.roots.display(path);
        let source =
            std::fs::read_to_string(path).map_err(|e| EngineError::File { path: path.display().to_string(), message: io_message(&e) })?;
        self.run_source(&source, &display)
    }

    /// Runs Luau source under a chunk name (`display` is shown in errors as `display:line`).
    pub fn run_source(&self, source: &str, display: &str) -> Result<LuaValue, EngineError> {
        // Strip a shebang line so `#!/usr/bin/env limina` scripts work; keep line numbers.
        let source = match source.strip_prefix("#!") {
            Some(rest) => format!("--{rest}"),
            None => source.to_string(),
        };
        let chunk = self.lua.load(source).set_name(format!("@{display}"));
        Ok(chunk.call::<LuaValue>(()).map_err(ScriptError::from)?)
    }

    /// Runs `n` fixed steps.
    pub fn step(&self, n: u64) -> Result<(), ScriptError> {
        for _ in 0..n {
            super::step::step(&self.lua, &self.parts)?;
        }
        Ok(())
    }

    /// Runs the frame callbacks with an interpolation factor.
    pub fn frame(&self, alpha: f64) -> Result<(), ScriptError> {
        Ok(super::step::frame(&self.parts, alpha)?)
    }

    pub(crate) fn has_callbacks(&self) -> bool {
        !self.parts.scripts.on_step.borrow().is_empty()
            || !self.parts.scripts.on_frame.borrow().is_empty()
            || !self.parts.sim.agents.borrow().is_empty()
    }

    /// Stops the audio thread, writing what it rendered (`--audio-out`); None when sound went
    /// nowhere.
    pub fn finish_audio(&self) -> Option<crate::audio::AudioReport> {
        self.parts.outputs.audio.borrow_mut().take().map(crate::audio::AudioOut::finish)
    }

    /// Whether a script called `limina.quit()`.
    pub fn quit_requested(&self) -> bool {
        self.parts.scripts.quit.get()
    }

    pub fn tick(&self) -> u64 {
        self.parts.sim.tick.get()
    }

    /// How long the last step's phases took (actions, physics, perception, decisions).
    pub fn step_timings(&self) -> StepTimings {
        self.parts.timings.get()
    }

    pub fn world_hash(&self) -> String {
        self.parts.sim.world_hash()
    }

    /// Writes and syncs the command log (no-op without one): call before telling a client its
    /// call succeeded. An error says the log can no longer be written.
    pub fn make_durable(&self) -> Result<(), crate::durable::LogFailure> {
        match self.parts.journal.log.borrow_mut().as_mut() {
            Some(log) => log.make_durable(),
            None => Ok(()),
        }
    }

    /// `make_durable` without waiting for the log's remote (`--nats`): the file is synced and
    /// everything recorded is handed to the remote; `log_progress` says what it acknowledged.
    pub fn make_locally_durable(&self) -> Result<(), crate::durable::LogFailure> {
        match self.parts.journal.log.borrow_mut().as_mut() {
            Some(log) => log.make_locally_durable(),
            None => Ok(()),
        }
    }

    /// How far the log's remote has acknowledged (None without a log or a remote).
    pub fn log_progress(&self) -> Option<crate::durable::LogProgress> {
        self.parts.journal.log.borrow().as_ref().and_then(crate::durable::CommandLog::progress)
    }

    /// Why the world must not step now: its log's remote may take nothing (a fleet lease past
    /// its deadline). None: it may.
    pub fn log_halted(&self) -> Option<String> {
        self.parts.journal.log.borrow().as_ref().and_then(crate::durable::CommandLog::halted)
    }

    /// Calls `waker` (from another thread) whenever the log's remote acknowledges more.
    pub fn on_log_acknowledged(&self, waker: Box<dyn Fn() + Send + Sync>) {
        if let Some(log) = self.parts.journal.log.borrow_mut().as_mut() {
            log.on_acknowledged(waker);
        }
    }

    pub fn world(&self) -> std::cell::Ref<'_, World> {
        self.parts.sim.world.borrow()
    }

    /// Time spent in each stage of the skill calls made so far, when `stage_timing` is on.
    pub(crate) fn call_stages(&self) -> Option<[(skills::Stage, std::time::Duration); 8]> {
        self.parts.journal.stage_clock.as_ref().map(StageClock::totals)
    }

    /// The live agents (read-only; the `agent.*` skills change them).
    pub fn agents(&self) -> std::cell::Ref<'_, Agents> {
        self.parts.sim.agents.borrow()
    }

    pub fn trace(&self) -> std::cell::Ref<'_, TraceLog> {
        self.parts.journal.trace.borrow()
    }

    /// Renders the world now (alpha = 1) to a PNG.
    #[cfg(feature = "render")]
    pub fn capture_png(&self, width: u32, height: u32) -> Result<Vec<u8>, crate::render::RenderError> {
        let world = self.parts.sim.world.borrow();
        self.parts.outputs.render.borrow_mut().capture(&world, width, height, None).map(|(png, _)| png)
    }

    /// Counts of the last rendered frame.
    #[cfg(feature = "render")]
    pub fn render_stats(&self) -> crate::render::RenderStats {
        self.parts.outputs.render.borrow().stats()
    }

    /// Fills a render list from the world, interpolated `alpha` of the way through the step.
    #[cfg(feature = "render")]
    pub fn fill_render_list(&self, alpha: f32, list: &mut crate::render::RenderList) {
        self.parts.outputs.render.borrow().fill(&self.parts.sim.world.borrow(), alpha, list);
    }

    /// Installed mods and packages.
    pub fn mods(&self) -> std::cell::Ref<'_, ModManager> {
        self.parts.rules.mods.borrow()
    }

    /// The live policy engine (configure quotas, budgets, revocations from Rust).
    pub fn policy(&self) -> std::cell::RefMut<'_, PolicyEngine> {
        self.parts.rules.policy.borrow_mut()
    }

    pub fn registry(&self) -> std::cell::Ref<'_, SkillRegistry> {
        self.parts.rules.registry.borrow()
    }

    /// The world's instruction skills, to register, replace or configure from Rust (the
    /// surface-mode default and provider/model rules). Agents read them at each decision.
    pub fn instructions_mut(&self) -> std::cell::RefMut<'_, crate::instructions::InstructionRegistry> {
        std::cell::RefMut::map(self.parts.rules.registry.borrow_mut(), |r| r.instructions_mut())
    }

    /// Claims session id `id` for a client, unless another client, the host script (its own
    /// session or a live `limina.session`'s) or a live agent holds it in any case (an agent's
    /// session carries its quotas, budgets and revocations).
    pub(crate) fn claim_session(&self, id: &str) -> Result<Rc<super::SessionClaim>, ClaimRefused> {
        let agents = self.parts.sim.agents.borrow();
        if let Some(agent) = agents.iter().find(|a| a.session_id.eq_ignore_ascii_case(id)) {
            return Err(ClaimRefused::AgentsSession { id: id.to_string(), agent: agent.id.to_string() });
        }
        agents.session_ids.claim(id, super::Holder::Client).map_err(|holder| ClaimRefused::SessionHeld { id: id.to_string(), holder })
    }

    /// Claims agent id `id` for a connected client: refused for a live agent's id, for the form
    /// the engine generates agent ids in (`agt_0001`: a later `agent.spawn` would hand it out),
    /// and for an id another client or the host script holds, all in any case. While held, no
    /// agent can be spawned under it.
    pub(crate) fn claim_agent_id(&self, id: &str) -> Result<Rc<super::SessionClaim>, ClaimRefused> {
        if let Some(agent) = self.agent_any_case(id) {
            return Err(ClaimRefused::LiveAgent { agent });
        }
        if let Some(form @ crate::agents::claims::ReservedForm::GeneratedAgent) = crate::agents::claims::reserved_agent_form(id, None) {
            return Err(ClaimRefused::GeneratedForm { refusal: form.refusal(id) });
        }
        self.parts
            .sim
            .agents
            .borrow()
            .client_ids
            .claim(id, super::Holder::Client)
            .map_err(|holder| ClaimRefused::AgentIdHeld { id: id.to_string(), holder })
    }

    /// Claims client-driven agent `id` for the client calling as `own` (see
    /// `Agents::claim_embodiment`) and returns the caller its calls then run as: the agent's
    /// id, session and profile, within `own`'s permissions, acting for whom the agent acts for.
    pub(crate) fn embody(&self, own: &Caller, id: &str) -> Result<(Caller, Rc<super::SessionClaim>), crate::agents::table::EmbodyRefused> {
        let body = self.parts.sim.agents.borrow().claim_embodiment(id, &own.agent_id, &own.session_id, own.permissions)?;
        let permissions = body.profile.permissions().intersect(own.permissions);
        let label = if permissions == body.profile.permissions() {
            body.profile.to_string()
        } else {
            format!("{}∩{}", body.profile, own.profile)
        };
        let mut caller = Caller::new(&body.agent_id, &body.session_id, &label);
        caller.permissions = permissions;
        caller.acting_for = (!body.acting_for.is_empty()).then_some(body.acting_for);
        Ok((caller, body.claim))
    }

    /// The live agent named `id` in any case (a client may not act under its name), as it is
    /// spelled.
    pub(crate) fn agent_any_case(&self, id: &str) -> Option<String> {
        self.parts.sim.agents.borrow().find_any_case(id).map(|a| a.id.to_string())
    }

    /// The caller scripts act as.
    pub fn script_caller(&self) -> &Caller {
        &self.parts.scripts.caller
    }

    /// Calls a skill from Rust through the same pipeline scripts and clients use. This is a
    /// front end's entry: a `world.step` it makes runs here, once the call has returned (see
    /// `time`).
    pub fn call(&self, caller: &Caller, name: &str, input: Value) -> SkillResponse {
        let outer = self.parts.time.enter_front_end_call();
        let mut response = self.parts.invoke(&self.lua, caller, name, input);
        if outer {
            self.parts.time.leave_front_end_call();
            super::time::finish_call(self, &mut response);
        }
        response
    }

    /// `call` for a front end that answers later: a heavy call's second half may come back as a
    /// ticket that `complete_deferred` answers (see `skills::deferred`).
    pub(crate) fn call_deferrable(&self, caller: &Caller, name: &str, input: Value) -> skills::Invoked {
        let outer = self.parts.time.enter_front_end_call();
        let mut invoked = skills::invoke_deferrable(&self.parts.invoke_env(&self.lua), caller, name, input);
        if outer {
            self.parts.time.leave_front_end_call();
            if let skills::Invoked::Done(response, _) = &mut invoked {
                super::time::finish_call(self, response);
            }
        }
        invoked
    }

    /// Whether the shared clock is stopped (`world.pause`, `--paused`): real-time front ends run
    /// no step while it is.
    pub fn paused(&self) -> bool {
        self.parts.time.paused()
    }

    /// Stops the clock before the first step (`--paused`), traced as the operator's.
    pub fn start_paused(&self) {
        super::time::start_paused(&self.parts);
    }

    /// The deferred calls whose heavy half is done, completed at this tick. Never waits.
    pub(crate) fn complete_deferred(&self) -> Vec<(skills::deferred::Ticket, SkillResponse)> {
        skills::complete_deferred(&self.parts.invoke_env(&self.lua))
    }

    /// The heavy-work lane (cancel a call whose client left; tests hold its worker).
    pub(crate) fn heavy_work(&self) -> &skills::HeavyWork {
        &self.parts.heavy
    }

    /// Replaces the scene with `scene` as the script's caller: every change a skill call through
    /// the registry, traced and permission-checked as the script's own calls (`limina run` on a
    /// scene file; `scene.load` does the same for its caller).
    pub fn load_scene(&self, scene: &crate::scenes::Scene) -> Result<SceneLoaded, SceneApplyError> {
        self.load_scene_as(&self.parts.scripts.caller, scene)
    }

    /// `load_scene` with the calls made as `caller` (an MCP server builds its default world as
    /// a builder whatever profile its clients get).
    pub(crate) fn load_scene_as(&self, caller: &Caller, scene: &crate::scenes::Scene) -> Result<SceneLoaded, SceneApplyError> {
        let p = &self.parts;
        let invoke = |skill: &str, input: Value| p.invoke(&self.lua, caller, skill, input);
        let target = SceneTarget {
            world: &p.sim.world,
            registry: &p.rules.registry,
            policy: p.rules.live_policy(),
            agents: &p.sim.agents,
            project: &self.project_root,
            caller,
            tick: p.sim.tick.get(),
            invoke: &invoke,
        };
        apply_scene(&target, scene)
    }

    /// Registers a skill from a definition table built in this engine's VM (e.g. with
    /// `limina.schema`). Mods get a loader of their own; this is the primitive under it.
    pub fn register_skill(&self, def: &Table, source: &str) -> Result<(), EngineError> {
        let skill = Skill::from_table(&self.lua, def, source)?;
        Ok(self.parts.rules.registry.borrow_mut().register(skill)?)
    }

    /// Swaps a registered skill's implementation (same name).
    pub fn replace_skill(&self, def: &Table, source: &str) -> Result<(), EngineError> {
        let skill = Skill::from_table(&self.lua, def, source)?;
        self.parts.rules.registry.borrow_mut().replace(skill)?;
        Ok(())
    }

    pub fn unregister_skill(&self, name: &str) -> Result<(), EngineError> {
        self.parts.rules.registry.borrow_mut().unregister(name)?;
        Ok(())
    }

    pub fn summary(&self) -> RunSummary {
        let world = self.parts.sim.world.borrow();
        RunSummary {
            ticks: self.tick(),
            entities: world.entity_count(),
            bodies: world.body_count(),
            world_hash: self.parts.sim.world_hash(),
        }
    }

    /// Stops scripts at `deadline`: the VM's interrupt stops Luau code (uncatchable by `pcall`)
    /// and `limina.step` stops between steps; `on_timeout` is told the first time either fires.
    ///
    /// The world log is bounded too (`trace_budget` bytes, roughly, in memory and spilled to
    /// disk together): test code decides what goes into it (payloads, inputs), and it lives
    /// outside the VM's memory limit.
    pub(crate) fn set_deadline(&self, deadline: std::time::Instant, message: String, on_timeout: Rc<Cell<bool>>, trace_budget: usize) {
        self.parts.scripts.deadline.set(Some(deadline));
        let trace = Rc::clone(&self.parts.journal.trace);
        self.parts.scripts.interrupt.set_standing(&self.lua, move |_| {
            if std::time::Instant::now() >= deadline {
                on_timeout.set(true);
                return Err(mlua::Error::runtime(message.clone()));
            }
            if let Ok(log) = trace.try_borrow() {
                let held = log.retained_bytes().saturating_add(usize::try_from(log.spilled_bytes()).unwrap_or(usize::MAX));
                if held > trace_budget {
                    return Err(mlua::Error::runtime(format!(
                        "the playtest's world log holds {held} bytes (in memory and on disk), past its {trace_budget}-byte limit"
                    )));
                }
            }
            Ok(mlua::VmState::Continue)
        });
    }

    /// Makes this engine's world an exact copy of `world` at `tick` (a playtest's scratch copy).
    pub(crate) fn adopt_world(&self, world: World, tick: u64) {
        *self.parts.sim.world.borrow_mut() = world;
        self.parts.sim.tick.set(tick);
    }

    /// Runs the tests a test file registered (after `run_file`) whose full name passes
    /// `include`. Needs `test_kit`.
    pub fn run_tests(&self, include: impl Fn(&str) -> bool + 'static) -> Result<Vec<TestOutcome>, ScriptError> {
        Ok(self.run_tests_within(include, TestLimits::FILES)?.0)
    }

    /// `run_tests` keeping at most `limits.kept` outcomes (all are counted) and at most
    /// `limits.text` bytes of each name and message: test code decides those strings, and
    /// copying them out of the VM is memory its limit does not count.
    pub(crate) fn run_tests_within(
        &self,
        include: impl Fn(&str) -> bool + 'static,
        limits: TestLimits,
    ) -> Result<(Vec<TestOutcome>, TestTally), ScriptError> {
        let runner = self.runner.as_ref().ok_or_else(|| ScriptError::new("this engine was built without the test kit"))?;
        let outcomes = Rc::new(RefCell::new((Vec::new(), TestTally::default())));
        let sink = Rc::clone(&outcomes);
        let text = move |s: &mlua::LuaString| -> String {
            let bytes = s.as_bytes();
            String::from_utf8_lossy(&bytes[..bytes.len().min(limits.text)]).into_owned()
        };
        let report =
            self.lua.create_function(move |_, (name, status, message): (mlua::LuaString, mlua::LuaString, Option<mlua::LuaString>)| {
                let status = match &*status.as_bytes() {
                    b"pass" => TestStatus::Pass,
                    b"skip" => TestStatus::Skip,
                    _ => TestStatus::Fail,
                };
                let mut sink = sink.borrow_mut();
                let (kept, tally) = &mut *sink;
                match status {
                    TestStatus::Pass => tally.passed += 1,
                    TestStatus::Fail => tally.failed += 1,
                    TestStatus::Skip => tally.skipped += 1,
                }
                if kept.len() < limits.kept {
                    let message = message.map(|m| text(&m).split("\nstack traceback:").next().unwrap_or_default().trim_end().to_string());
                    kept.push(TestOutcome { name: text(&name), status, message });
                }
                Ok(())
            })?;
        let include = self.lua.create_function(move |_, name: mlua::LuaString| Ok(include(&text(&name))))?;
        runner.call::<()>((report, include))?;
        Ok(outcomes.take())
    }
}

fn io_message(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        std::io::ErrorKind::InvalidData => "not UTF-8 text".into(),
        _ => e.to_string(),
    }
}

/// How packages reach the engine: weak links, so a package VM never keeps the engine alive.
struct EngineHost {
    shared: std::rc::Weak<Parts>,
    lua: mlua::WeakLua,
    /// The project: paths a client is shown are relative to it.
    project: PathBuf,
}

impl Host for EngineHost {
    fn invoke(&self, caller: &Caller, skill: &str, input: Value) -> SkillResponse {
        match (self.shared.upgrade(), self.lua.try_upgrade()) {
            (Some(shared), Some(lua)) => shared.invoke(&lua, caller, skill, input),
            _ => SkillResponse::failure(crate::skills::ErrorCode::HandlerError, "the engine has shut down"),
        }
    }

    fn record(&self, actor: &str, thread: &str, event_type: &str, payload: Value) -> String {
        let Some(shared) = self.shared.upgrade() else { return String::new() };
        let draft = crate::trace::EventDraft::new(event_type, actor).thread(thread);
        shared.journal.trace.borrow_mut().emit(draft, shared.sim.tick.get(), &payload).id.clone()
    }
}

impl crate::skills::core::SnapshotDoor for EngineHost {
    fn write(&self, name: Option<&str>) -> Result<Value, crate::skills::HandlerFailure> {
        use crate::skills::{ErrorCode, HandlerFailure};
        let Some(shared) = self.shared.upgrade() else {
            return Err(HandlerFailure::new(ErrorCode::HandlerError, "the engine has shut down"));
        };
        // A client is shown where the file is without the server's own folders: relative to the
        // project, or the snapshots folder's name and the file.
        match super::snapshots::write_named_snapshot(&shared, name).map_err(|e| e.shown_from(&self.project)) {
            Ok(w) => Ok(serde_json::json!({
                "path": crate::paths::shown_from(&self.project, &w.path),
                "tick": w.tick,
                "bytes": w.bytes,
                "worldHash": w.world_hash,
            })),
            Err(e @ crate::snapshot::SnapshotError::BadName { .. }) => Err(HandlerFailure::new(ErrorCode::InvalidInput, e.to_string())),
            Err(e @ crate::snapshot::SnapshotError::TooMany { .. }) => Err(HandlerFailure::new(ErrorCode::CapacityExceeded, e.to_string())),
            Err(e) => Err(HandlerFailure::new(ErrorCode::HandlerError, e.to_string())),
        }
    }
}

fn install_print(lua: &Lua, output: Output) -> mlua::Result<()> {
    if output == Output::Capture {
        lua.set_app_data(CapturedOutput::default());
    }
    let print = lua.create_function(move |lua, args: mlua::Variadic<LuaValue>| {
        let mut line = String::new();
        for (i, v) in args.iter().enumerate() {
            // A captured line never grows past what the capture could keep (test code decides
            // what it prints; building it whole first is memory the VM's limit does not count).
            if output == Output::Capture && line.len() > CapturedOutput::LIMIT {
                // Lossy decoding may have put a multi-byte character across the limit.
                let end = crate::clip::to_bytes(&line, CapturedOutput::LIMIT).len();
                line.truncate(end);
                break;
            }
            if i > 0 {
                line.push('\t');
            }
            let text = match v {
                LuaValue::String(s) => s.clone(),
                other => lua.globals().get::<Function>("tostring")?.call::<mlua::LuaString>(other.clone())?,
            };
            let bytes = text.as_bytes();
            let room =
                if output == Output::Capture { CapturedOutput::LIMIT + 1 - line.len().min(CapturedOutput::LIMIT) } else { bytes.len() };
            line.push_str(&String::from_utf8_lossy(&bytes[..bytes.len().min(room)]));
        }
        use std::io::Write;
        match output {
            Output::Stdout => {
                let mut out = std::io::stdout().lock();
                let _ = writeln!(out, "{line}");
            }
            Output::Stderr => {
                let mut err = std::io::stderr().lock();
                let _ = writeln!(err, "{line}");
            }
            Output::Silent => {}
            Output::Capture => {
                if let Some(mut captured) = lua.app_data_mut::<CapturedOutput>() {
                    if captured.text.len() + line.len() < CapturedOutput::LIMIT {
                        captured.text.push_str(&line);
                        captured.text.push('\n');
                    } else {
                        captured.dropped += line.len() + 1;
                    }
                }
            }
        }
        Ok(())
    })?;
    lua.globals().set("print", print)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_physics_panic_fails_its_step_once_then_the_clock_runs_with_bodies_frozen() {
        let engine = Engine::new(EngineConfig { output: Output::Silent, ..EngineConfig::new(env!("CARGO_MANIFEST_DIR")) }).unwrap();
        let created =
            engine.call(engine.script_caller(), "scene.createEntity", serde_json::json!({"dynamic": true, "position": [0, 10, 0]}));
        assert!(created.success, "{:?}", created.error);
        engine.step(1).unwrap();
        engine.parts.sim.world.borrow_mut().fail_next_physics_step();
        let tick = engine.tick();
        let error = engine.step(1).unwrap_err();
        assert!(error.message.contains("physics is halted"), "{}", error.message);
        assert_eq!(engine.tick(), tick);
        let event =
            engine.trace().tail().rev().find(|e| crate::trace::EventKind::EngineStepPanicked.is(&e.event_type)).map(|e| e.payload_value());
        assert_eq!(event.unwrap()["physicsHalted"], true);
        let hash = engine.world_hash();
        engine.step(5).expect("later steps run");
        assert_eq!(engine.tick(), tick + 5);
        assert_eq!(engine.world_hash(), hash, "the halted physics moves nothing");
        assert!(engine.world().physics_fault().is_some());
    }
}
