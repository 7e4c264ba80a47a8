//! Panic isolation at the engine's boundaries: a skill call (`skills::invoke`), the physics step
//! (`physics::PhysicsWorld::step`) and the whole fixed step (`host::engine`). No input should
//! reach a panic (inputs are bounded, see `world::bounds`); these boundaries turn the bug that
//! still does into an error and a traced event instead of a dead process for every client.
//!
//! Each caller decides what the interrupted work left behind and says so where it catches.

use std::panic::{AssertUnwindSafe, catch_unwind};

/// A panic caught at a boundary: its message (or "a panic without a message").
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub(crate) struct Panicked {
    pub message: String,
}

impl Panicked {
    pub(crate) fn as_str(&self) -> &str {
        &self.message
    }
}

/// Runs `f`; a panic comes back as its message. `AssertUnwindSafe` is the caller's promise that
/// it handles whatever state the panic interrupted (each call site documents how).
pub(crate) fn catch<R>(f: impl FnOnce() -> R) -> Result<R, Panicked> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        let message = if let Some(s) = payload.downcast_ref::<&str>() {
            (*s).to_string()
        } else if let Some(s) = payload.downcast_ref::<String>() {
            s.clone()
        } else {
            "a panic without a message".to_string()
        };
        Panicked { message }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_its_message() {
        assert_eq!(catch(|| 7), Ok(7));
        assert_eq!(catch(|| -> u8 { panic!("static text") }).map_err(|p| p.message), Err("static text".to_string()));
        let n = 3;
        assert_eq!(catch(|| -> u8 { panic!("formatted {n}") }).map_err(|p| p.message), Err("formatted 3".to_string()));
    }
}
