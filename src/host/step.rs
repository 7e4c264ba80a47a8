//! The fixed step, written once (SPEC §3): each stage is a call that takes the parts it reads
//! and changes, by name, in the style of rapier's `PhysicsPipeline::step`. The per-stage
//! timings the density bench prints are taken here, around the stages, and nowhere else.
//!
//! | stage                 | takes                                                   |
//! |-----------------------|---------------------------------------------------------|
//! | 0 swap changed mods   | rules (mods, registry, host)                            |
//! | 1 act                 | sim (agents, tick), journal (trace), door (→ skills)    |
//! | 2 callbacks           | scripts (on_step)                                       |
//! | 3 walk                | sim (agents, world), rules (policy), journal (trace)    |
//! | 4 physics             | sim (world)                                             |
//! | 5 think               | sim, journal (trace), rules (policy), door, interrupt   |
//! | 6 expire UI, leases,  | sim (world), journal (trace), outputs (audio)           |
//! |   sound               |                                                         |
//! | then                  | sim (tick + 1); journal (the step's marker, checkpoint) |
//!
//! A replay (`replay`) runs the same list, applying the log's records where live the scripts and
//! agent systems would have run.

use std::time::{Duration, Instant};

use mlua::Lua;
use serde_json::{Value, json};

use super::clock::FIXED_DT;
use super::parts::{Journal, Outputs, Parts, Rules, Sim};
use crate::agents::provider::ToolSpec;
use crate::agents::systems::{ActionError, Actor, EngineDoor, Inputs, ToolLookup};
use crate::durable::Phase;
use crate::policy::Profile;
use crate::skills::Caller;
use crate::trace::{EventDraft, EventKind};

/// How long one step's stages took, for the density benchmark.
#[derive(Debug, Clone, Copy, Default)]
pub struct StepTimings {
    pub action: Duration,
    pub physics: Duration,
    pub perception: Duration,
    pub decision: Duration,
}

/// One fixed step. Errors from script callbacks abort the step (the tick does not advance) and
/// carry the script's location.
///
/// A panic anywhere in the step (a bug) is caught here: the step fails like a script error,
/// `engine.step.panicked` is traced, and `stepping` is reset so later steps run. A panic inside
/// rapier is caught closer to it and halts the physics (see `PhysicsWorld::step`).
pub(crate) fn step(lua: &Lua, p: &Parts) -> mlua::Result<()> {
    if p.sim.stepping.replace(true) {
        return Err(crate::script::located_error(lua, "limina.step cannot be called from inside a step callback"));
    }
    let tick = p.sim.tick.get();
    let result = crate::isolate::catch(|| stages(lua, p)).unwrap_or_else(|e| Err(step_panicked(&p.journal, tick, e.as_str(), false)));
    p.journal.phase.set(Phase::Between);
    p.sim.stepping.set(false);
    log_step(p, tick, result.is_ok());
    result
}

/// The stages, in order.
fn stages(lua: &Lua, p: &Parts) -> mlua::Result<()> {
    let Parts { sim, rules, journal, outputs, scripts, agents: systems, timings, heavy: _, time: _ } = p;
    let tick = sim.tick.get();
    let replaying = journal.replaying();
    let door = Door { lua, parts: p };
    let inputs = Inputs {
        lua,
        tick,
        agents: &sim.agents,
        world: &sim.world,
        trace: &journal.trace,
        policy: rules.live_policy(),
        interrupt: &scripts.interrupt,
        operator_session: scripts
            .caller
            .permissions
            .contains(crate::policy::Permission::PolicyGovern)
            .then_some(&*scripts.caller.session_id),
        door: &door,
    };
    let mut spent = StepTimings::default();
    // 0. Changed mods are swapped in at the tick boundary (a call in flight finished on the old
    //    version already).
    swap_mods(rules);
    // 1. Queued intents: agents' validated tool calls run through the registry (MCP clients'
    //    calls are applied between steps by their transports, on this thread). A replay drains
    //    the queues the same way and applies the recorded calls instead.
    sim.world.borrow_mut().begin_step();
    let started = Instant::now();
    journal.phase.set(Phase::Act);
    systems.act(&inputs, !replaying);
    if replaying {
        super::replay::apply_replayed(lua, p, Phase::Act);
    }
    spent.action = started.elapsed();
    // 2. Script fixed-step callbacks (cloned so a callback may register another).
    journal.phase.set(Phase::Callbacks);
    let callbacks = scripts.on_step.borrow().clone();
    for callback in callbacks {
        callback.call::<()>((tick, FIXED_DT))?;
    }
    if replaying {
        super::replay::apply_replayed(lua, p, Phase::Callbacks);
        // The live step failed here (a script error): what it applied stays, no tick.
        if super::replay::abort_replayed_step(journal) {
            return Ok(());
        }
    }
    // 3. Agents walking toward what they approach set their ground velocity.
    crate::agents::walk::walk(&sim.agents, &sim.world, rules.live_policy(), &journal.trace, tick, FIXED_DT);
    // 4. Physics step and body -> ECS sync.
    let started = Instant::now();
    let physics = sim.world.borrow_mut().step_physics();
    spent.physics = started.elapsed();
    if let Err(fault) = physics {
        return Err(step_panicked(journal, tick, &fault.to_string(), true));
    }
    // 5. Agent systems: answers in, perception of the due agents, their decisions (a replay
    //    applies what they decided instead).
    journal.phase.set(Phase::Think);
    if replaying {
        super::replay::apply_replayed(lua, p, Phase::Think);
    } else {
        let think = systems.think(&inputs);
        (spent.perception, spent.decision) = (think.perception, think.decision);
    }
    timings.set(spent);
    // 6. UI elements whose ttl ran out leave at the tick boundary; the step's sound goes to the
    //    mixer, and finished sounds leave.
    expire_ui(sim, journal, tick);
    expire_leases(sim, journal, tick);
    sound_step(sim, outputs, tick);
    sim.tick.set(tick + 1);
    Ok(())
}

/// Runs the frame callbacks with an interpolation factor.
pub(crate) fn frame(p: &Parts, alpha: f64) -> mlua::Result<()> {
    let callbacks = p.scripts.on_frame.borrow().clone();
    for callback in callbacks {
        callback.call::<()>(alpha)?;
    }
    Ok(())
}

fn swap_mods(rules: &Rules) {
    if let Some(host) = rules.host.borrow().clone() {
        crate::packages::poll(&rules.mods, &rules.registry, &host);
    }
}

/// The step's marker in the command log (and a checkpoint, and a snapshot, when one is due).
fn log_step(p: &Parts, tick: u64, completed: bool) {
    let log = &p.journal.log;
    if log.borrow().is_none() {
        return;
    }
    let now = p.sim.tick.get();
    if !completed || now == tick {
        if let Some(log) = log.borrow_mut().as_mut() {
            log.aborted(tick);
        }
        return;
    }
    let due = log.borrow().as_ref().is_some_and(|l| l.checkpoint_due(now));
    let hash = due.then(|| p.sim.world_hash());
    if let Some(log) = log.borrow_mut().as_mut() {
        log.step_done(now, hash);
    }
    if log.borrow().as_ref().is_some_and(|l| l.snapshot_due(now)) {
        snapshot_beside_log(p, now);
    }
}

/// `--snapshot-every`: a snapshot beside the log, named by its tick; the two before it are kept,
/// older ones removed (recovery needs only the newest that loads).
fn snapshot_beside_log(p: &Parts, now: u64) {
    let Some(name) = p.journal.log.borrow().as_ref().map(|l| l.snapshot_name(now)) else { return };
    let path = p.journal.snapshots_dir.join(name);
    match super::snapshots::write_snapshot(p, &path) {
        Ok(_) => {
            let retired = p.journal.log.borrow_mut().as_mut().and_then(|l| l.keep_snapshot(path));
            if let Some(old) = retired {
                let _ = std::fs::remove_file(old);
            }
        }
        Err(e) => tracing::warn!(path = %path.display(), "a scheduled snapshot was not written: {e}"),
    }
}

/// Traces a panicked step and returns the error the step reports.
fn step_panicked(journal: &Journal, tick: u64, message: &str, physics_halted: bool) -> mlua::Error {
    let payload = json!({"message": message, "physicsHalted": physics_halted, "tick": tick});
    let kind = EventKind::EngineStepPanicked.as_str();
    journal.trace.borrow_mut().emit(EventDraft::new(kind, "engine"), tick, &payload);
    mlua::Error::runtime(format!("tick {tick} panicked: {message} (an engine bug; the step did not complete)"))
}

/// Removes the UI elements whose ttl has run out by the end of `tick`, tracing each.
fn expire_ui(sim: &Sim, journal: &Journal, tick: u64) {
    let expired = {
        let mut world = sim.world.borrow_mut();
        // Elements following an entity that is gone leave with it.
        let gone: std::collections::HashSet<String> = world
            .ui
            .iter()
            .filter_map(|e| match &e.spec.anchor {
                crate::world::ui::Anchor::World(w) => w.entity.clone(),
                crate::world::ui::Anchor::Screen(_) => None,
            })
            .filter(|id| world.resolve(id).is_none())
            .collect();
        world.ui.tick = tick + 1;
        world.ui.expire(tick + 1, |id| !gone.contains(id))
    };
    let mut trace = journal.trace.borrow_mut();
    for e in expired {
        let reason = if e.expires_at().is_some_and(|at| at <= tick + 1) { "ttl" } else { "anchor entity destroyed" };
        let payload = json!({"handle": e.handle, "kind": e.kind.as_str(), "owner": e.owner, "reason": reason, "tick": tick});
        trace.emit(EventDraft::new(EventKind::UiExpired.as_str(), "engine"), tick, &payload);
    }
}

/// Leases that lapse at the next tick leave at this boundary (`world::sharing`): a snapshot or
/// hash taken between steps sees live leases only.
fn expire_leases(sim: &Sim, journal: &Journal, tick: u64) {
    let expired = sim.world.borrow_mut().leases_mut().expire(tick + 1);
    if expired.is_empty() {
        return;
    }
    let mut trace = journal.trace.borrow_mut();
    for (entity, lease) in expired {
        let payload =
            json!({"agent": lease.agent, "entity": entity.to_string(), "expires": lease.expires, "holder": lease.holder, "tick": tick});
        trace.emit(EventDraft::new(EventKind::LeaseExpired.as_str(), "engine").thread(&lease.holder), tick, &payload);
    }
}

/// Hands the step's sounds to the mixer (when sound goes anywhere), then removes the sounds that
/// have finished by the next tick.
fn sound_step(sim: &Sim, outputs: &Outputs, tick: u64) {
    let mut world = sim.world.borrow_mut();
    // Voices move with their speakers (world state: the hash sees where they are).
    if world.sounds.iter().any(|s| s.follows.is_some()) {
        let positions: std::collections::HashMap<crate::world::EntityId, [f32; 3]> =
            world.sounds.iter().filter_map(|s| s.follows).filter_map(|id| world.transform(id).map(|t| (id, t.position))).collect();
        world.sounds.follow(|id| positions.get(&id).copied());
    }
    if let Some(audio) = outputs.audio.borrow().as_ref() {
        let c = world.camera;
        // The sounds are copied for the audio thread only when they changed.
        let mut shared = outputs.audio_sounds.borrow_mut();
        if shared.0 != world.sounds.revision || shared.1.is_none() {
            *shared = (world.sounds.revision, Some(std::sync::Arc::new(world.sounds.snapshot())));
        }
        audio.send(crate::audio::MixFrame {
            tick,
            listener: crate::audio::Listener::camera(c.position, c.target),
            bus_volumes: world.sounds.bus_volumes,
            sounds: std::sync::Arc::clone(shared.1.as_ref().expect("set above")),
        });
    }
    world.sounds.tick = tick + 1;
    world.sounds.finish(tick + 1);
}

/// The agent systems' door to the registry and the command log.
struct Door<'a> {
    lua: &'a Lua,
    parts: &'a Parts,
}

impl EngineDoor for Door<'_> {
    fn act(&self, actor: &Actor, tool: &str, input: Value) -> Result<Option<Value>, ActionError> {
        let mut caller = Caller::new(&actor.agent_id, &actor.session_id, actor.profile.as_str());
        caller.acting_for = (!actor.acting_for.is_empty()).then(|| std::rc::Rc::clone(&actor.acting_for));
        caller.cause = Some(std::rc::Rc::clone(&actor.cause));
        let response = self.parts.invoke(self.lua, &caller, tool, input);
        match (response.result, response.error) {
            (Some(result), _) => Ok(Some(result)),
            (None, Some(e)) => Err(ActionError { code: e.code.as_str(), message: e.message }),
            (None, None) => Ok(None),
        }
    }

    fn tools_generation(&self) -> u64 {
        self.parts.rules.registry.borrow().generation()
    }

    fn offered_tools(&self, profile: Profile) -> Vec<ToolSpec> {
        let granted = profile.permissions();
        self.parts
            .rules
            .registry
            .borrow()
            .list()
            .filter(|s| s.offered_to_agents() && s.permissions.iter().all(|p| granted.contains(*p)))
            .map(|s| ToolSpec { name: s.name.clone(), description: s.description.clone(), input_schema: s.input_schema.clone() })
            .collect()
    }

    fn lookup_tool(&self, tool: &str) -> ToolLookup {
        let registry = self.parts.rules.registry.borrow();
        match registry.get(tool) {
            None => ToolLookup::Unknown(registry.unknown_skill(tool)),
            Some(skill) if skill.offered_to_agents() => ToolLookup::Offered,
            Some(_) => ToolLookup::NotOffered,
        }
    }

    fn check_input(&self, tool: &str, input: &mut Value) -> Result<(), Box<dyn std::error::Error>> {
        let registry = self.parts.rules.registry.borrow();
        let skill = registry.get(tool).ok_or_else(|| registry.unknown_skill(tool))?;
        drop(registry);
        Ok(crate::skills::check_input(&skill, input)?)
    }

    fn decided(&self, tick: u64, agent: &str) {
        if let Some(log) = self.parts.journal.log.borrow_mut().as_mut() {
            log.decided(tick, agent);
        }
    }

    fn queued(&self, tick: u64, agent: &str, tool: &str, input: &Value, decision: &str) {
        if let Some(log) = self.parts.journal.log.borrow_mut().as_mut() {
            log.queued(tick, agent, tool, input, decision);
        }
    }

    fn instruction_skills(&self) -> Vec<crate::agents::instructions::SkillCard> {
        self.parts.rules.registry.borrow().instructions().list().cloned().collect()
    }

    fn surface_mode(&self, id: &str, provider: &str, model: &str) -> Result<crate::agents::instructions::Resolved, String> {
        let registry = self.parts.rules.registry.borrow();
        let (mode, reason) = registry.instructions().resolve_surface_mode(id, provider, model).map_err(|e| e.to_string())?;
        Ok(crate::agents::instructions::Resolved { mode, reason })
    }
}
