//! The native ops core skill handlers call, one file per ops table. Inputs arrive validated
//! against the calling skill's schema, so ops check only what a schema cannot express.

pub(crate) mod agents;
pub(crate) mod audio;
pub(crate) mod digest;
pub(crate) mod embody;
pub(crate) mod packages;
pub(crate) mod policy;
pub(crate) mod registry;
pub(crate) mod render;
pub(crate) mod scenes;
pub(crate) mod sharing;
pub(crate) mod snapshot;
pub(crate) mod social;
pub(crate) mod testing;
pub(crate) mod time;
pub(crate) mod trace;
pub(crate) mod ui;
pub(crate) mod view;
pub(crate) mod view_model;
pub(crate) mod world;

use crate::skills::{ErrorCode, HandlerFailure};

/// An `invalid_input` failure raised from inside an op.
pub(crate) fn invalid(message: impl Into<String>) -> mlua::Error {
    HandlerFailure::new(ErrorCode::InvalidInput, message).into_lua()
}
