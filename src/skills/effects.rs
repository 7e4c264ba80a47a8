//! What a skill does to the world and beyond, declared by the skill (`effects = { "write" }`).
//! MCP annotations, the permission sanity check at registration and replay filters derive from
//! this one declaration instead of lists of skill names.

use crate::policy::Permission;

/// One kind of effect a skill may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Effect {
    /// Reads state; changes nothing.
    Read,
    /// Changes world or engine state (entities, queues, registered code).
    Write,
    /// Removes or replaces something that cannot be got back by calling again.
    Destructive,
    /// Writes or reads files on the host.
    Filesystem,
    /// Talks to other hosts.
    Network,
}

impl Effect {
    pub(crate) const ALL: [Effect; 5] = [Effect::Read, Effect::Write, Effect::Destructive, Effect::Filesystem, Effect::Network];

    pub fn as_str(self) -> &'static str {
        match self {
            Effect::Read => "read",
            Effect::Write => "write",
            Effect::Destructive => "destructive",
            Effect::Filesystem => "filesystem",
            Effect::Network => "network",
        }
    }

    pub fn parse(text: &str) -> Option<Effect> {
        Effect::ALL.into_iter().find(|e| e.as_str() == text)
    }

    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// A skill's declared effects and whether calling it twice equals calling it once.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Effects {
    bits: u8,
    /// Calling again with the same input changes nothing more (MCP `idempotentHint`).
    pub idempotent: bool,
}

impl Effects {
    pub fn of(effects: &[Effect], idempotent: bool) -> Self {
        Effects { bits: effects.iter().fold(0, |acc, e| acc | e.bit()), idempotent }
    }

    /// What a skill that declares nothing is taken to do: `write` if any of its permissions is
    /// a write permission, else `read`.
    pub(crate) fn implied_by(permissions: &[Permission]) -> Self {
        if permissions.iter().any(|p| p.is_write()) { Effects::of(&[Effect::Write], false) } else { Effects::of(&[Effect::Read], true) }
    }

    pub fn contains(self, e: Effect) -> bool {
        self.bits & e.bit() != 0
    }

    /// Changes nothing outside the call: read-only.
    pub(crate) fn read_only(self) -> bool {
        !(self.contains(Effect::Write) || self.contains(Effect::Destructive) || self.contains(Effect::Filesystem))
    }

    /// Whether a heavy call of this skill may complete on a later tick than it was made
    /// (`skills::deferred`): one that cannot change the world, or one that reads or writes
    /// files, which changes the world (if at all) only through the calls it makes — the calls
    /// a command log records, at the tick they run — never as a call of its own.
    pub(crate) fn deferrable(self) -> bool {
        !self.mutates_world() || self.contains(Effect::Filesystem)
    }

    /// A command log must record calls of this skill to replay the world.
    pub fn mutates_world(self) -> bool {
        self.contains(Effect::Write) || self.contains(Effect::Destructive)
    }

    pub fn names(self) -> Vec<&'static str> {
        Effect::ALL.into_iter().filter(|e| self.contains(*e)).map(Effect::as_str).collect()
    }

    /// The registration-time check: a skill that needs a write permission cannot declare itself
    /// read-only, and a read-only skill cannot claim to be destructive.
    pub fn check(self, permissions: &[Permission]) -> Result<(), EffectsError> {
        if self.bits == 0 {
            return Err(EffectsError::None);
        }
        if let Some(p) = permissions.iter().find(|p| p.is_write())
            && self.read_only()
        {
            return Err(EffectsError::WriteBehindReadOnly { permission: *p, declared: self.names().join(", ") });
        }
        if self.contains(Effect::Destructive) && !self.contains(Effect::Write) {
            return Err(EffectsError::DestructiveWithoutWrite);
        }
        Ok(())
    }
}

/// Why a skill's declared effects contradict themselves or its permissions.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EffectsError {
    #[error("`effects` must name at least one of read, write, destructive, filesystem, network")]
    None,
    #[error("it needs {permission}, a write permission, but declares only read effects ({declared})")]
    WriteBehindReadOnly { permission: Permission, declared: String },
    #[error("a destructive skill also writes: declare `write` too")]
    DestructiveWithoutWrite,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_permission_cannot_hide_behind_read_effects() {
        let read = Effects::of(&[Effect::Read], true);
        assert!(read.check(&[Permission::SceneWrite]).unwrap_err().to_string().contains("scene.write"));
        assert!(read.check(&[Permission::SceneRead]).is_ok());
        assert!(Effects::of(&[Effect::Write], false).check(&[Permission::SceneWrite]).is_ok());
        assert!(Effects::default().check(&[]).is_err());
    }

    #[test]
    fn undeclared_effects_follow_the_permissions() {
        assert!(Effects::implied_by(&[Permission::PhysicsWrite]).mutates_world());
        assert!(Effects::implied_by(&[Permission::PhysicsRead]).read_only());
    }
}
