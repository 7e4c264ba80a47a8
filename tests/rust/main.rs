//! Integration tests: one binary, a module per topic.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "test helpers fail loudly on purpose")]

mod agent_governance;
mod agent_skills;
mod agents;
mod audio;
mod cli;
mod colours;
mod determinism;
mod digest;
mod docs;
mod durable;
mod embodiment;
mod errors;
mod fleet;
mod governance;
mod hostile_geometry;
mod http_stub;
mod instruction_skills;
mod layers;
mod lua_suite;
mod mcp;
mod mcp_apps;
mod mcp_discovery;
mod mcp_http;
mod mcp_load;
mod mcp_reads;
mod mcp_ws;
mod nats_log;
mod nats_relay;
mod nats_server;
mod nats_spectate;
mod nats_worlds;
mod package_loading;
mod package_paths;
mod package_reload;
mod package_secrets;
mod package_trust;
mod package_worker;
mod packages;
mod playtest;
mod providers;
mod registry;
mod registry_browse;
mod registry_packages;
mod render;
mod resume;
mod scenes;
mod schemas;
mod scripting;
mod sharing;
mod snapshot;
mod social;
mod spatial;
mod time_control;
mod trace;
mod ui_demo;
mod viewer_routes;
mod worlds;

use std::path::PathBuf;

/// The repository root (tests run with it as the working directory).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}
