//! Why an MCP server could not start: each variant names the file, address or thread at fault,
//! and the CLI prints it as its one error line.

use std::io;
use std::path::PathBuf;

/// A line of a `--tokens` file that is not `TOKEN PROFILE` with a known profile.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TokenFileError {
    #[error("{file}:{line}: expected `TOKEN PROFILE [+PERMISSION ...] [@WORLD ...]`")]
    Shape { file: String, line: usize },
    /// A `+PERMISSION` word after the profile that grants nothing.
    #[error("{file}:{line}: {source}")]
    Grant { file: String, line: usize, source: crate::policy::GrantError },
    #[error("{file}:{line}: unknown profile '{profile}' (known: {})", crate::policy::Profile::ALL.map(crate::policy::Profile::as_str).join(", "))]
    UnknownProfile { file: String, line: usize, profile: String },
    /// An `@WORLD` word that is no world name.
    #[error("{file}:{line}: {reason}")]
    World { file: String, line: usize, reason: String },
    /// The same token on two lines: which profile it gets would be a guess. The token itself is
    /// not named (error output goes to logs).
    #[error("{file}:{line}: this token is already on line {first}; give each token one line")]
    Duplicate { file: String, line: usize, first: usize },
}

/// Why `limina mcp` could not serve.
#[derive(Debug, thiserror::Error)]
pub enum McpServerError {
    #[error("{}: cannot read: {source}", path.display())]
    ReadTokens { path: PathBuf, source: io::Error },
    #[error(transparent)]
    Tokens(#[from] TokenFileError),
    /// The engine, or the `--scene` it was to build (and log), failed.
    #[error(transparent)]
    Engine(#[from] crate::host::EngineError),
    #[error("cannot start the network threads: {0}")]
    Runtime(#[source] io::Error),
    #[error("cannot start the {name} thread: {source}")]
    Thread { name: &'static str, source: io::Error },
    /// Registering the protocol's methods failed (two methods of one name: a bug).
    #[error("cannot register the MCP methods: {0}")]
    Register(#[source] Box<dyn std::error::Error + Send + Sync>),
    #[error("{addr} is in use (another limina server, or another program, listens there); choose another port with --port")]
    PortInUse { addr: String },
    #[error("{addr}: no such address on this machine (--bind)")]
    NoSuchAddress { addr: String },
    #[error("{addr}: permission denied (ports below 1024 need privileges; use --port)")]
    PortDenied { addr: String },
    /// A world could not start (the default world's message is the engine's own).
    #[error("{0}")]
    World(String),
    #[error("--admin-token {}: {why}", path.display())]
    AdminToken { path: PathBuf, why: String },
    #[error("cannot listen on {addr}: {source}")]
    Listen { addr: String, source: io::Error },
}

impl McpServerError {
    /// The error binding `addr` gave, in the words an operator can act on.
    pub(crate) fn listen(addr: &str, e: io::Error) -> Self {
        let addr = addr.to_string();
        match e.kind() {
            io::ErrorKind::AddrInUse => McpServerError::PortInUse { addr },
            io::ErrorKind::AddrNotAvailable => McpServerError::NoSuchAddress { addr },
            io::ErrorKind::PermissionDenied => McpServerError::PortDenied { addr },
            _ => McpServerError::Listen { addr, source: e },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_bind_names_the_address_and_what_to_change() {
        let refused = |kind| McpServerError::listen("127.0.0.1:7777", io::Error::from(kind));
        let busy = refused(io::ErrorKind::AddrInUse);
        assert!(matches!(&busy, McpServerError::PortInUse { addr } if addr == "127.0.0.1:7777"), "{busy:?}");
        assert!(busy.to_string().starts_with("127.0.0.1:7777 is in use") && busy.to_string().contains("--port"), "{busy}");
        assert!(matches!(refused(io::ErrorKind::AddrNotAvailable), McpServerError::NoSuchAddress { .. }));
        assert!(matches!(refused(io::ErrorKind::PermissionDenied), McpServerError::PortDenied { .. }));
        let other = refused(io::ErrorKind::Other);
        assert!(matches!(&other, McpServerError::Listen { .. }), "{other:?}");
        assert!(std::error::Error::source(&other).is_some(), "the I/O error is kept as the source");
    }
}
