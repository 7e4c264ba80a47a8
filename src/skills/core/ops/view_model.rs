//! `world.viewModel`: one glTF model's bytes, base64, for an MCP App view. The view lives in a
//! host's sandboxed iframe with no network, so it cannot fetch `/assets/<id>` as the web viewer
//! does; it asks its host to call this app-only skill instead (`Tier::App`: listed only to
//! clients that show MCP Apps, hidden from the model, never found by discovery).
//!
//! The id resolves exactly as `three.loadGLTF` and the `/assets` route resolve it
//! (`paths::resolve_under` over the project's `assets/`: plain relative names, no `..`, no
//! absolute paths, no backslashes, no symlink out; the id is taken as written, never
//! percent-decoded, so `%2e%2e` is a name, not a way up). Only model files (`.glb`, `.gltf`) are
//! handed out, at most `MAX_MODEL_BYTES` each, and a session gets at most `SESSION_BYTES` of them
//! per `WINDOW_TICKS` ticks, so a client looping on a large model cannot make the engine read
//! and encode without end. A `.gltf` comes as written: buffers and images it names by file are
//! not sent (the view loads `.glb` and self-contained `.gltf`).

use std::cell::RefCell;
use std::collections::HashMap;
use std::io::Read;
use std::path::PathBuf;
use std::rc::Rc;

use mlua::{Lua, Table};
use serde_json::json;

use crate::paths::{PathError, resolve_under};
use crate::skills::{ErrorCode, HandlerFailure};

/// Bytes of one model file the skill hands out, at most (base64 makes the answer a third larger).
pub(crate) const MAX_MODEL_BYTES: u64 = 16 << 20;
/// Model bytes one session may be handed per window.
pub(crate) const SESSION_BYTES: u64 = 64 << 20;
/// The window's length, in ticks (10 s at 60 Hz; a paused clock keeps the window open).
pub(crate) const WINDOW_TICKS: u64 = 600;
/// Sessions whose windows are remembered; past this, windows that ended are forgotten first.
const MAX_SESSIONS: usize = 4096;

/// The model files an id may name, with their media types.
const MODEL_TYPES: [(&str, &str); 2] = [("glb", "model/gltf-binary"), ("gltf", "model/gltf+json")];

/// Bytes handed to each session in its current window: session -> (window, bytes).
#[derive(Default)]
struct Budget {
    spent: HashMap<String, (u64, u64)>,
}

impl Budget {
    /// Takes `bytes` from `session`'s window at `tick`, or says what it has left.
    fn take(&mut self, session: &str, tick: u64, bytes: u64) -> Result<(), u64> {
        let window = tick / WINDOW_TICKS;
        if self.spent.len() >= MAX_SESSIONS && !self.spent.contains_key(session) {
            self.spent.retain(|_, (w, _)| *w == window);
        }
        let entry = self.spent.entry(session.to_string()).or_insert((window, 0));
        if entry.0 != window {
            *entry = (window, 0);
        }
        if entry.1 + bytes > SESSION_BYTES {
            return Err(SESSION_BYTES - entry.1);
        }
        entry.1 += bytes;
        Ok(())
    }
}

fn failure(code: ErrorCode, message: String) -> mlua::Error {
    HandlerFailure::new(code, message).into_lua()
}

/// Reads model `id` from `assets` (see the module docs): (media type, bytes).
pub(crate) fn read_model(assets: &std::path::Path, id: &str) -> Result<(&'static str, Vec<u8>), (ErrorCode, String)> {
    let shown = crate::clip::shown(id);
    let path = resolve_under(assets, id, &[".glb", ".gltf"]).map_err(|e| match e {
        PathError::Missing(..) => (ErrorCode::NotFound, format!("asset '{shown}': no such model in assets/")),
        PathError::NotPlain(..) | PathError::Escapes(..) => (
            ErrorCode::InvalidInput,
            format!("asset '{shown}' is not a path inside assets/ (no '..', no absolute paths, no backslashes, no links out)"),
        ),
    })?;
    let extension = path.extension().and_then(|e| e.to_str()).unwrap_or_default().to_ascii_lowercase();
    let Some((_, media)) = MODEL_TYPES.iter().find(|(e, _)| *e == extension) else {
        return Err((ErrorCode::InvalidInput, format!("asset '{shown}' is a .{extension} file; only .glb and .gltf models are sent")));
    };
    let file = std::fs::File::open(&path).map_err(|e| (ErrorCode::NotFound, format!("asset '{shown}': {e}")))?;
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    if size > MAX_MODEL_BYTES {
        return Err((
            ErrorCode::InvalidInput,
            format!("asset '{shown}' is {size} bytes, over the {MAX_MODEL_BYTES}-byte limit of one model"),
        ));
    }
    // Read at most one byte past the limit: a file that grew since is refused, not read whole.
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(MAX_MODEL_BYTES + 1).read_to_end(&mut bytes).map_err(|e| (ErrorCode::HandlerError, format!("asset '{shown}': {e}")))?;
    if bytes.len() as u64 > MAX_MODEL_BYTES {
        return Err((ErrorCode::InvalidInput, format!("asset '{shown}' grew past the {MAX_MODEL_BYTES}-byte limit of one model")));
    }
    Ok((media, bytes))
}

/// Adds `model(asset, sessionId, tick)` to an ops table: `{asset, mimeType, bytes, data}`.
pub(crate) fn install(lua: &Lua, ops: &Table, project: PathBuf) -> mlua::Result<()> {
    use base64::Engine as _;
    let assets = project.join("assets");
    let budget = Rc::new(RefCell::new(Budget::default()));
    ops.set(
        "model",
        lua.create_function(move |lua, (id, session, tick): (String, Option<String>, u64)| {
            let (media, bytes) = read_model(&assets, &id).map_err(|(code, message)| failure(code, message))?;
            let size = bytes.len() as u64;
            budget.borrow_mut().take(session.as_deref().unwrap_or_default(), tick, size).map_err(|left| {
                failure(
                    ErrorCode::CapacityExceeded,
                    format!(
                        "this session was handed {SESSION_BYTES} bytes of models within {WINDOW_TICKS} ticks, its limit ({left} left, '{}' is {size}); retry later",
                        crate::clip::shown(&id)
                    ),
                )
            })?;
            let data = base64::engine::general_purpose::STANDARD.encode(&bytes);
            crate::script::convert::blob(lua, json!({"asset": id, "mimeType": media, "bytes": size, "data": data}))
        })?,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sessions_window_bounds_what_it_is_handed() {
        let mut b = Budget::default();
        assert!(b.take("s1", 0, SESSION_BYTES - 10).is_ok());
        assert_eq!(b.take("s1", 1, 11), Err(10), "the same window");
        assert!(b.take("s2", 1, 11).is_ok(), "another session has its own");
        assert!(b.take("s1", WINDOW_TICKS, SESSION_BYTES).is_ok(), "a new window starts empty");
    }

    #[test]
    fn remembered_sessions_stay_bounded() {
        let mut b = Budget::default();
        for i in 0..MAX_SESSIONS {
            b.take(&format!("s{i}"), 0, 1).unwrap();
        }
        b.take("late", WINDOW_TICKS, 1).unwrap();
        assert_eq!(b.spent.len(), 1, "the ended windows were forgotten");
    }
}
