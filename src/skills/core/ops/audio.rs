//! The native ops behind the `audio.*` skills: starting, stopping and re-levelling sounds (world
//! state in `world::sound`) and setting bus volumes. Inputs arrive validated; a handle that
//! resolves to nothing is `not_found` saying why, and `audio.speak` without espeak-ng is an honest
//! `handler_error` naming the package.

use std::cell::RefCell;
use std::rc::Rc;

use mlua::{Lua, Table};

use super::invalid;
use crate::skills::{ErrorCode, HandlerFailure};
use crate::world::World;
use crate::world::sound::{Bus, SoundError, SoundKind};
use crate::world::ui::Writer;

fn sound_failure(e: SoundError) -> mlua::Error {
    let code = match e {
        SoundError::NotFound { .. } => ErrorCode::NotFound,
        SoundError::Full | SoundError::OwnerFull { .. } | SoundError::SpeechFull => ErrorCode::CapacityExceeded,
        SoundError::NotYours { .. } => ErrorCode::Forbidden,
    };
    HandlerFailure::new(code, e.to_string()).into_lua()
}

fn bus(name: Option<String>, default: Bus) -> mlua::Result<Bus> {
    match name {
        None => Ok(default),
        Some(n) => Bus::parse(&n).ok_or_else(|| invalid(format!("bus: unknown bus '{n}' (master, sfx, ambience, voice)"))),
    }
}

fn point(t: Option<Table>) -> mlua::Result<Option<[f64; 3]>> {
    t.map(|t| super::world::numbers::<3>(&t, "position")).transpose()
}

/// Builds the `audio` ops table.
pub(crate) fn create(lua: &Lua, world: Rc<RefCell<World>>) -> mlua::Result<Table> {
    let ops = lua.create_table()?;

    // play(kind, input, ctx): kind is "blip", "ambient" or "speech".
    let w = Rc::clone(&world);
    ops.set(
        "play",
        lua.create_function(move |_, (kind, input, ctx): (String, Table, Table)| {
            let (agent, operator) = super::ui::writer_of(&ctx)?;
            let volume: f64 = input.get::<Option<f64>>("volume")?.unwrap_or(1.0);
            let position = point(input.get("position")?)?;
            let max_distance: Option<f64> = input.get("maxDistance")?;
            let (kind, default_bus) = match kind.as_str() {
                "blip" => (SoundKind::Blip { freq: input.get("freq")?, secs: input.get("secs")? }, Bus::Sfx),
                "ambient" => (SoundKind::Ambient, Bus::Ambience),
                "speech" => {
                    if !crate::audio::tts::available() {
                        return Err(
                            HandlerFailure::new(ErrorCode::HandlerError, crate::audio::tts::TtsError::Missing.to_string()).into_lua()
                        );
                    }
                    (SoundKind::Speech { text: input.get("text")?, id: 0 }, Bus::Voice)
                }
                other => return Err(invalid(format!("unknown sound kind '{other}'"))),
            };
            let bus = bus(input.get("bus")?, default_bus)?;
            w.borrow_mut()
                .sounds
                .play(kind, bus, volume, position, max_distance, &Writer { agent: &agent, operator })
                .map_err(sound_failure)
        })?,
    )?;

    let w = Rc::clone(&world);
    ops.set(
        "stop",
        lua.create_function(move |_, (handle, ctx): (String, Table)| {
            let (agent, operator) = super::ui::writer_of(&ctx)?;
            w.borrow_mut().sounds.stop(&handle, &Writer { agent: &agent, operator }).map(|_| true).map_err(sound_failure)
        })?,
    )?;

    let w = Rc::clone(&world);
    ops.set(
        "set_volume",
        lua.create_function(move |_, (handle, volume, ctx): (String, f64, Table)| {
            let (agent, operator) = super::ui::writer_of(&ctx)?;
            w.borrow_mut().sounds.set_volume(&handle, volume, &Writer { agent: &agent, operator }).map(|_| true).map_err(sound_failure)
        })?,
    )?;

    let w = Rc::clone(&world);
    ops.set(
        "set_bus_volume",
        lua.create_function(move |_, (name, volume, ctx): (String, f64, Table)| {
            // Bus levels are the whole scene's mix: builders (scene.write) and the operator set
            // them, not players, who could otherwise mute everyone.
            let permissions: Table = ctx.get("permissions")?;
            let mut allowed = false;
            for p in permissions.sequence_values::<String>() {
                let p = p?;
                allowed |= p == "scene.write" || p == "policy.govern";
            }
            if !allowed {
                let agent: String = ctx.get("agentId")?;
                return Err(HandlerFailure::new(
                    ErrorCode::Forbidden,
                    format!("{agent} may not set bus volumes: they mix the whole scene, so they need scene.write (builder.readWrite) as well as audio.play"),
                )
                .into_lua());
            }
            let b = bus(Some(name), Bus::Master)?;
            w.borrow_mut().sounds.set_bus_volume(b, volume);
            Ok(true)
        })?,
    )?;
    Ok(ops)
}
