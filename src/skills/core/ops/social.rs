//! The native ops behind the `social.*` skills: speaking a line (heard by every agent within
//! earshot, `agents::hearing`) and walking toward a target as the calling agent.
//!
//! The speaker and the walker are always the caller (`ctx.agentId`, bound by the host from the
//! session): nothing in the input can name someone else. Both need the caller to be an agent
//! with a body in the world; everything is checked before anything changes.

use std::cell::RefCell;
use std::rc::Rc;

use mlua::{Lua, Table};
use serde_json::json;

use super::invalid;
use crate::agents::social::{Approach, ApproachTarget, BUBBLE_OFFSET, DEFAULT_TALK_DISTANCE, MAX_QUEUED_LINES, SPEECH_CPS, SPEECH_HOLD_MS};
use crate::agents::table::Agents;
use crate::skills::{ErrorCode, HandlerFailure};
use crate::trace::{EventDraft, EventKind, TraceLog};
use crate::world::sound::{Bus, SoundKind};
use crate::world::ui::{Anchor, Lifecycle, LineQueue, QueueMode, Typewriter, UiError, UiSpec, WorldAnchor};
use crate::world::{EntityId, World};

fn fail(code: ErrorCode, message: impl Into<String>) -> mlua::Error {
    HandlerFailure::new(code, message).into_lua()
}

/// The caller's body: the entity the calling agent inhabits.
fn body_of(agents: &Agents, world: &World, agent: &str) -> mlua::Result<EntityId> {
    let record = agents.get(agent).ok_or_else(|| {
        fail(
            ErrorCode::HandlerError,
            format!("{agent} is not an agent in the world: social skills act for an agent spawned with agent.spawn"),
        )
    })?;
    let entity = record.entity.ok_or_else(|| fail(ErrorCode::HandlerError, format!("agent {agent} inhabits no entity to act with")))?;
    if world.transform(entity).is_none() {
        return Err(fail(ErrorCode::HandlerError, format!("agent {agent}'s body {entity} no longer exists")));
    }
    Ok(entity)
}

/// How long a queue of lines takes to show, ms (typewriter plus hold per line).
fn queue_ms(lines: &[String]) -> f64 {
    lines.iter().map(|l| l.chars().count() as f64 * 1000.0 / SPEECH_CPS + SPEECH_HOLD_MS).sum()
}

/// Builds the `social` ops table.
pub(crate) fn create(
    lua: &Lua,
    agents: Rc<RefCell<Agents>>,
    world: Rc<RefCell<World>>,
    trace: Rc<RefCell<TraceLog>>,
) -> mlua::Result<Table> {
    let ops = lua.create_table()?;

    let (a, w, t) = (Rc::clone(&agents), Rc::clone(&world), Rc::clone(&trace));
    ops.set(
        "say",
        lua.create_function(move |lua, (text, ctx): (String, Table)| {
            let speaker: String = ctx.get("agentId")?;
            let session: String = ctx.get("sessionId")?;
            let cause: Option<String> = ctx.get("decisionId")?;
            let tick: u64 = ctx.get("tick")?;
            let mut world = w.borrow_mut();
            let entity = body_of(&a.borrow(), &world, &speaker)?;
            // One bubble per speaker: a new line joins its queue (and the bubble lives until the
            // whole queue has been shown); otherwise a new bubble starts.
            let existing = world.ui.iter().find(|e| e.speaker.as_deref() == Some(speaker.as_str())).map(|e| e.handle.clone());
            let handle = match existing {
                Some(handle) => {
                    world.ui.append_line(&handle, text.clone(), MAX_QUEUED_LINES).map_err(|e| match e {
                        UiError::Invalid { .. } => fail(ErrorCode::CapacityExceeded, format!("{speaker}: {e}")),
                        other => super::ui::ui_failure(other),
                    })?;
                    handle
                }
                None => {
                    let lines = vec![text.clone()];
                    let anchor = Anchor::World(WorldAnchor {
                        entity: Some(entity.to_string()),
                        offset: Some(BUBBLE_OFFSET),
                        ..WorldAnchor::default()
                    });
                    let spec = UiSpec {
                        lifecycle: Lifecycle {
                            typewriter: Some(Typewriter { cps: SPEECH_CPS }),
                            ttl: Some(queue_ms(&lines)),
                            queue: Some(LineQueue { default_hold_ms: Some(SPEECH_HOLD_MS), lines, mode: QueueMode::Queue }),
                            ..Lifecycle::default()
                        },
                        ..UiSpec::at(anchor)
                    };
                    world.ui.create_bubble(spec, &speaker).map_err(super::ui::ui_failure)?
                }
            };
            // The voice: the line is spoken from the speaker (it follows the speaker's body) when
            // its turn in the bubble comes (a sound in the world like any other; with no room for one, the line is
            // still said and shown).
            let starts = world.ui.get(&handle).map_or(tick, |b| b.last_line_start_tick());
            let at = world.transform(entity).map(|t| t.position.map(f64::from));
            let voice = world
                .sounds
                .play_from(starts, SoundKind::Speech { text: text.clone(), id: 0 }, Bus::Voice, 1.0, at, Some(entity), &speaker)
                .ok();
            let payload =
                json!({"speaker": speaker, "text": text, "handle": handle, "entity": entity.to_string(), "voice": voice, "tick": tick});
            let draft = EventDraft::new(EventKind::SocialSaid.as_str(), &speaker).thread(&session).caused_by(cause.into_iter().collect());
            t.borrow_mut().emit(draft, tick, &payload);
            // Heard at once by every agent within earshot (their next look shows it).
            if let Some(at) = at {
                a.borrow_mut().hear(&world, &speaker, entity, at, &text, tick);
            }
            a.borrow_mut().note_said(&speaker, &text, tick);
            let out = lua.create_table()?;
            out.set("said", true)?;
            out.set("speaker", speaker)?;
            out.set("handle", handle)?;
            Ok(out)
        })?,
    )?;

    let (a, w) = (Rc::clone(&agents), Rc::clone(&world));
    ops.set(
        "approach",
        lua.create_function(move |lua, (target, talk_distance, ctx): (mlua::Value, Option<f64>, Table)| {
            let walker: String = ctx.get("agentId")?;
            let cause: Option<String> = ctx.get("decisionId")?;
            let tick: u64 = ctx.get("tick")?;
            let world = w.borrow();
            let mut agents = a.borrow_mut();
            let own = body_of(&agents, &world, &walker)?;
            // A static or kinematic body is not moved by walking (it would slide through the
            // world); a dynamic body walks, an entity without a body glides.
            if world.has_dynamic_body(own) == Some(false) {
                return Err(fail(
                    ErrorCode::HandlerError,
                    format!("agent {walker}'s body {own} is not dynamic, so it cannot walk; spawn the agent with a body, or inhabit a dynamic entity"),
                ));
            }
            let target = match target {
                mlua::Value::String(s) => {
                    let label = s.to_str()?.to_string();
                    let entity = if label.starts_with("agt_") {
                        let record = agents.get(&label).ok_or_else(|| fail(ErrorCode::NotFound, format!("target: no agent {label}")))?;
                        record.entity.ok_or_else(|| fail(ErrorCode::InvalidInput, format!("target: agent {label} inhabits no entity")))?
                    } else if label.starts_with("ent_") {
                        super::world::entity_arg(&world, "target", &label)?
                    } else {
                        return Err(invalid(format!("target: '{label}' is neither an agent id (agt_…) nor an entity id (ent_…)")));
                    };
                    if entity == own {
                        return Err(invalid(format!("target: {label} is {walker}'s own body")));
                    }
                    ApproachTarget::Entity { entity, label }
                }
                mlua::Value::Table(t) => ApproachTarget::Point { point: super::world::numbers::<3>(&t, "target")? },
                _ => return Err(invalid("target: an agent id, an entity id or a point [x, y, z]")),
            };
            let label = target.label();
            let record = agents.get_mut(&walker).ok_or_else(|| fail(ErrorCode::HandlerError, format!("{walker} is not an agent")))?;
            record.approach =
                Some(Approach { target, talk_distance: talk_distance.unwrap_or(DEFAULT_TALK_DISTANCE), started_tick: tick, cause });
            crate::script::convert::blob(lua, json!({"approaching": true, "target": label}))
        })?,
    )?;
    Ok(ops)
}
