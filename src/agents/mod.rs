//! In-world agents (players): perception, decisions and actions. The decision providers live in
//! `provider`; the engine side (records, scheduler, action queue) joins them here.

pub mod provider;
