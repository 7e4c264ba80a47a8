//! The Luau foundation: value conversion, script errors, the host `require`, the `limina test`
//! kit and Luau type definitions. It knows nothing of skills or the world: engine bindings (the
//! `limina` table) live in `host`, the native ops core skills use live beside them in
//! `skills/core`.
//!
//! Every chunk is named by its path (`@demos/billiards.lua`) so errors read
//! `demos/billiards.lua:12: message`.

pub mod convert;
pub(crate) mod copy;
pub(crate) mod interrupt;
pub(crate) mod random;
mod require;
pub mod typedefs;

pub use require::{ScriptRoots, install_require};

/// The `limina test` kit (describe/it/expect), installed into test VMs only.
pub(crate) const TESTKIT: &str = include_str!("testkit.luau");

/// A script failure, ready to print: a one-line message (`file:line: what`) and, when there is
/// one, the Lua traceback.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ScriptError {
    pub message: String,
    pub traceback: Option<String>,
}

impl From<mlua::Error> for ScriptError {
    fn from(e: mlua::Error) -> Self {
        let (message, traceback) = error_message_and_traceback(&e);
        ScriptError { message, traceback }
    }
}

impl ScriptError {
    pub fn new(message: impl Into<String>) -> Self {
        Self { message: message.into(), traceback: None }
    }
}

fn root_cause(e: &mlua::Error) -> &mlua::Error {
    match e {
        mlua::Error::CallbackError { cause, .. } | mlua::Error::WithContext { cause, .. } => root_cause(cause),
        e => e,
    }
}

/// Splits an mlua error into the message a user reads first and the traceback.
pub(crate) fn error_message_and_traceback(e: &mlua::Error) -> (String, Option<String>) {
    let traceback = match e {
        mlua::Error::CallbackError { traceback, .. } => Some(traceback.clone()),
        _ => None,
    };
    let message = match root_cause(e) {
        mlua::Error::RuntimeError(s) => s.clone(),
        mlua::Error::SyntaxError { message, .. } => syntax_message(message),
        mlua::Error::MemoryError(s) => format!("out of memory: {s}"),
        mlua::Error::BadArgument { pos, name, cause, to } => {
            let (cause, _) = error_message_and_traceback(cause);
            let func = to.as_deref().unwrap_or("function");
            match name {
                Some(name) => format!("bad argument #{pos} ({name}) to {func}: {cause}"),
                None => format!("bad argument #{pos} to {func}: {cause}"),
            }
        }
        other => other.to_string(),
    };
    let (message, traceback) = match message.split_once("\nstack traceback:") {
        Some((m, t)) => (m.trim_end().to_string(), traceback.or_else(|| Some(format!("stack traceback:{t}")))),
        None => (message.trim_end().to_string(), traceback),
    };
    (non_string_error(&message).unwrap_or(message), traceback)
}

/// `error(value)` with a table, function or other non-text value reaches Rust as its
/// `tostring`, a heap address ("table: 0x55f1…") that says nothing and would put addresses
/// into the world log: named by type instead.
fn non_string_error(message: &str) -> Option<String> {
    let (kind, address) = message.split_once(": 0x")?;
    let is_address = !address.is_empty() && address.bytes().all(|b| b.is_ascii_hexdigit());
    let is_value = ["table", "function", "userdata", "thread", "buffer"].contains(&kind);
    (is_address && is_value).then(|| format!("error raised with a {kind} value, not a message (raise a string to say what went wrong)"))
}

/// The type name a Luau user knows (`number`, not mlua's `integer`).
pub(crate) fn lua_type_name(v: &mlua::Value) -> &'static str {
    match v {
        mlua::Value::Integer(_) | mlua::Value::Number(_) => "number",
        mlua::Value::LightUserData(_) | mlua::Value::UserData(_) => "userdata",
        other => other.type_name(),
    }
}

/// `file:line: syntax error: what`, so the location comes first as in every other error.
fn syntax_message(message: &str) -> String {
    let located = message.match_indices(": ").find_map(|(at, _)| {
        let head = &message[..at];
        let line = head.rsplit(':').next()?;
        (!line.is_empty() && line.bytes().all(|b| b.is_ascii_digit())).then_some(at)
    });
    match located {
        Some(at) => format!("{}: syntax error: {}", &message[..at], &message[at + 2..]),
        None => format!("syntax error: {message}"),
    }
}

/// `(short_src, line)` of the nearest Lua frame calling into Rust, for error prefixes.
pub(crate) fn caller_location(lua: &mlua::Lua) -> Option<(String, usize)> {
    for level in 1..32 {
        let frame = lua.inspect_stack(level, |d| {
            let s = d.source();
            (s.what, s.short_src.map(|c| c.into_owned()), d.current_line())
        })?;
        if frame.0 != "C" {
            return Some((frame.1?, frame.2?));
        }
    }
    None
}

/// A runtime error prefixed with the calling script's `file:line`, like Lua's own `error`.
pub(crate) fn located_error(lua: &mlua::Lua, message: impl std::fmt::Display) -> mlua::Error {
    match caller_location(lua) {
        Some((file, line)) => mlua::Error::runtime(format!("{file}:{line}: {message}")),
        None => mlua::Error::runtime(message.to_string()),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_error_raised_with_a_table_is_named_by_type_not_by_address() {
        let lua = mlua::Lua::new();
        let e = lua.load("error({})").exec().unwrap_err();
        let (message, _) = super::error_message_and_traceback(&e);
        assert!(message.contains("error raised with a table value") && !message.contains("0x"), "{message}");
        let e = lua.load("error('table: 0xzz is fine')").exec().unwrap_err();
        assert!(super::error_message_and_traceback(&e).0.contains("table: 0xzz is fine"));
    }
}
