//! MCP: how external agents reach the world. One dispatcher (standard MCP, the stateless
//! revision, and the reference's native mode) shared by the in-process, stdio and WebSocket
//! transports; every `tools/call` goes through the skill registry, never around it.

pub mod dispatcher;
pub mod protocol;
pub mod stdio;
pub mod sync;
pub mod tools;
pub mod ws;

pub use dispatcher::{McpSession, handle_message, handle_text};
