//! limina: an agent-native real-time 3D engine in one binary, scripted in Luau.
//!
//! Layers, highest first (a folder names only its own layer or lower; `tests/rust/layers.rs`
//! checks it): `cli` → `mcp` → `host` → {`packages`, `durable`, `nats`, `snapshot`} → `skills` →
//! `agents` → {`policy`, `scenes`} → {`script`, `world`, `physics`, `trace`, `render`, `audio`}
//! → small base modules. Every world mutation is a skill call through `skills::invoke`;
//! docs/architecture.md has the tour.

pub mod agents;
pub(crate) mod atomic_file;
pub mod audio;
pub mod cli;
pub mod clip;
pub(crate) mod depth_limit;
pub mod digest;
pub mod durable;
pub mod host;
pub mod instructions;
pub(crate) mod isolate;
pub mod mcp;
#[cfg(any(feature = "render", feature = "audio-device"))]
pub(crate) mod native_noise;
pub mod nats;
pub mod packages;
pub mod paths;
pub mod physics;
pub mod policy;
pub(crate) mod redact;
#[cfg(feature = "render")]
pub mod render;
pub mod scenes;
pub mod script;
pub mod skills;
pub mod snapshot;
pub mod trace;
pub(crate) mod unguessable;
pub mod world;
