//! Permission vocabulary and the four static profiles.

use std::fmt;

/// One capability a skill may require. The order fixes the bit in a `PermissionSet`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Permission {
    SceneRead,
    SceneWrite,
    EcsRead,
    EcsModify,
    PhysicsRead,
    PhysicsWrite,
    AgentRead,
    AgentWrite,
    UiWrite,
    AudioPlay,
    SocialAct,
    /// Read the world log and audit records (other agents' calls and payloads).
    TraceRead,
    /// Write the world log out to files (`trace.export`).
    TraceWrite,
    /// Change who may do what: revocations, quotas, budgets. No profile holds it; the operator
    /// grants it (the host script holds it by default).
    PolicyGovern,
    /// Run playtests (`test.run`) against a scratch copy of the world: only builders hold it
    /// (a playtest runs arbitrary test code and holds the engine thread for its duration).
    TestRun,
    /// Control the shared clock: pause, resume and step the world (`world.pause`, `world.resume`,
    /// `world.step`). Stopping time stops it for everyone, so no profile holds it; the operator
    /// grants it per token (`TOKEN PROFILE +world.time`) or with `--grant world.time`.
    WorldTime,
}

impl Permission {
    pub(crate) const ALL: [Permission; 16] = [
        Permission::SceneRead,
        Permission::SceneWrite,
        Permission::EcsRead,
        Permission::EcsModify,
        Permission::PhysicsRead,
        Permission::PhysicsWrite,
        Permission::AgentRead,
        Permission::AgentWrite,
        Permission::UiWrite,
        Permission::AudioPlay,
        Permission::SocialAct,
        Permission::TraceRead,
        Permission::TraceWrite,
        Permission::PolicyGovern,
        Permission::TestRun,
        Permission::WorldTime,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Permission::SceneRead => "scene.read",
            Permission::SceneWrite => "scene.write",
            Permission::EcsRead => "ecs.read",
            Permission::EcsModify => "ecs.modify",
            Permission::PhysicsRead => "physics.read",
            Permission::PhysicsWrite => "physics.write",
            Permission::AgentRead => "agent.read",
            Permission::AgentWrite => "agent.write",
            Permission::UiWrite => "ui.write",
            Permission::AudioPlay => "audio.play",
            Permission::SocialAct => "social.act",
            Permission::TraceRead => "trace.read",
            Permission::TraceWrite => "trace.write",
            Permission::PolicyGovern => "policy.govern",
            Permission::TestRun => "test.run",
            Permission::WorldTime => "world.time",
        }
    }

    /// Whether holding it lets a caller change the world (as opposed to read it).
    pub(crate) fn is_write(self) -> bool {
        !matches!(
            self,
            Permission::SceneRead
                | Permission::EcsRead
                | Permission::PhysicsRead
                | Permission::AgentRead
                | Permission::TraceRead
                // A playtest changes only its scratch copy.
                | Permission::TestRun
        )
    }

    pub fn parse(text: &str) -> Option<Permission> {
        Permission::ALL.into_iter().find(|p| p.as_str() == text)
    }

    fn bit(self) -> u16 {
        1 << (self as u16)
    }
}

impl fmt::Display for Permission {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A set of permissions, as a bitmask (one bit per `Permission`, so at most 16).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct PermissionSet(u16);

impl PermissionSet {
    pub(crate) const EMPTY: PermissionSet = PermissionSet(0);

    pub fn of(perms: &[Permission]) -> Self {
        PermissionSet(perms.iter().fold(0, |acc, p| acc | p.bit()))
    }

    pub fn contains(self, p: Permission) -> bool {
        self.0 & p.bit() != 0
    }

    pub(crate) fn intersect(self, other: PermissionSet) -> PermissionSet {
        PermissionSet(self.0 & other.0)
    }

    pub fn insert(&mut self, p: Permission) {
        self.0 |= p.bit();
    }

    /// The first permission of `required` (in declaration order) this set lacks.
    pub(crate) fn first_missing(self, required: &[Permission]) -> Option<Permission> {
        required.iter().copied().find(|p| !self.contains(*p))
    }

    pub fn iter(self) -> impl Iterator<Item = Permission> {
        Permission::ALL.into_iter().filter(move |p| self.contains(*p))
    }

    pub fn names(self) -> Vec<&'static str> {
        self.iter().map(Permission::as_str).collect()
    }
}

/// The reference's static profiles, in catalog order.
pub const PROFILES: [(&str, &[Permission]); 4] = {
    use Permission::*;
    [
        (
            "builder.readWrite",
            &[
                SceneRead,
                SceneWrite,
                EcsRead,
                EcsModify,
                PhysicsRead,
                PhysicsWrite,
                AgentRead,
                AgentWrite,
                UiWrite,
                AudioPlay,
                TraceRead,
                TraceWrite,
                TestRun,
            ],
        ),
        ("player.limited", &[SceneRead, EcsRead, PhysicsRead, PhysicsWrite, AgentRead, AgentWrite]),
        ("social.actor", &[SceneRead, EcsRead, PhysicsRead, AgentRead, AgentWrite, SocialAct, AudioPlay]),
        ("system.readonly", &[SceneRead, EcsRead, PhysicsRead, AgentRead, TraceRead]),
    ]
};

/// One of the reference's profiles, by name (the CLI's `--profile` values).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Profile {
    BuilderReadWrite,
    PlayerLimited,
    SocialActor,
    SystemReadonly,
}

impl Profile {
    pub(crate) const ALL: [Profile; 4] = [Profile::BuilderReadWrite, Profile::PlayerLimited, Profile::SocialActor, Profile::SystemReadonly];

    pub fn as_str(self) -> &'static str {
        PROFILES[self as usize].0
    }

    pub fn permissions(self) -> PermissionSet {
        PermissionSet::of(PROFILES[self as usize].1)
    }

    pub fn parse(name: &str) -> Option<Profile> {
        Profile::ALL.into_iter().find(|p| p.as_str() == name)
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What the operator grants a client: a profile, plus permissions no profile holds (a token
/// file's `TOKEN PROFILE +world.time`, `limina mcp --grant world.time`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Grant {
    pub profile: Profile,
    /// Granted besides the profile's own.
    pub extra: PermissionSet,
}

impl Grant {
    /// Everything granted.
    pub fn permissions(self) -> PermissionSet {
        PermissionSet(self.profile.permissions().0 | self.extra.0)
    }

    /// The name calls are recorded under: the profile's, then `+perm` for each permission the
    /// profile lacks (`builder.readWrite+world.time`).
    pub fn name(self) -> String {
        let own = self.profile.permissions();
        let mut name = self.profile.as_str().to_string();
        for p in self.extra.iter().filter(|p| !own.contains(*p)) {
            name.push('+');
            name.push_str(p.as_str());
        }
        name
    }

    /// Parses `+perm` words after a profile (a token file's line, `--grant`); the error names the
    /// word.
    pub fn parse_extra<'a>(words: impl IntoIterator<Item = &'a str>) -> Result<PermissionSet, GrantError> {
        let mut extra = PermissionSet::EMPTY;
        for word in words {
            let Some(name) = word.strip_prefix('+') else {
                return Err(GrantError::NotAGrant { word: word.to_string() });
            };
            let p = Permission::parse(name).ok_or_else(|| GrantError::UnknownPermission { name: name.to_string() })?;
            extra.insert(p);
        }
        Ok(extra)
    }
}

/// Why a `+perm` word was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GrantError {
    #[error("'{word}' is not a grant: write +PERMISSION, e.g. +world.time")]
    NotAGrant { word: String },
    #[error("unknown permission '{name}' (known: {})", Permission::ALL.iter().map(|p| p.as_str()).collect::<Vec<_>>().join(", "))]
    UnknownPermission { name: String },
}

impl From<Profile> for Grant {
    fn from(profile: Profile) -> Self {
        Grant { profile, extra: PermissionSet::EMPTY }
    }
}

/// The profiles that grant `p`, in catalog order.
pub fn profiles_granting(p: Permission) -> impl Iterator<Item = Profile> {
    Profile::ALL.into_iter().filter(move |profile| profile.permissions().contains(p))
}

/// The reason a call is refused for lacking `missing` under `profile`, naming what would grant
/// it: `missing permission: scene.write (profile player.limited lacks it; granted by
/// builder.readWrite)`. The text up to the parenthesis is the reference's. A caller narrower than
/// its profile (a package holds only its grants) is told that instead, since another profile
/// would not help it.
pub fn missing_permission(missing: Permission, profile: &str, package: Option<&str>) -> String {
    if profile_permissions(profile).contains(missing) {
        return match package {
            Some(package) => format!("missing permission: {missing} (package {package} was not granted it)"),
            None => format!("missing permission: {missing} (this caller was granted less than profile {profile})"),
        };
    }
    let granting: Vec<&str> = profiles_granting(missing).map(Profile::as_str).collect();
    let grant = if granting.is_empty() {
        "no profile grants it, only the operator".to_string()
    } else {
        format!("granted by {}", granting.join(", "))
    };
    format!("missing permission: {missing} (profile {profile} lacks it; {grant})")
}

/// The permissions a profile grants; an unknown profile grants nothing (fail closed).
pub fn profile_permissions(profile: &str) -> PermissionSet {
    PROFILES.iter().find(|(name, _)| *name == profile).map(|(_, perms)| PermissionSet::of(perms)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_match_the_catalog() {
        let builder = profile_permissions("builder.readWrite");
        assert!(builder.contains(Permission::SceneWrite));
        assert!(!builder.contains(Permission::SocialAct));
        let readonly = profile_permissions("system.readonly");
        assert_eq!(readonly.names(), ["scene.read", "ecs.read", "physics.read", "agent.read", "trace.read"]);
        assert!(PROFILES.iter().all(|(_, perms)| !perms.contains(&Permission::PolicyGovern)), "no profile may govern");
        assert!(PROFILES.iter().all(|(_, perms)| !perms.contains(&Permission::WorldTime)), "no profile may stop the clock");
        assert!(profile_permissions("social.actor").contains(Permission::SocialAct));
        assert!(!profile_permissions("player.limited").contains(Permission::SocialAct));
    }

    #[test]
    fn profile_names_index_the_catalog_table() {
        for p in Profile::ALL {
            assert_eq!(Profile::parse(p.as_str()), Some(p));
            assert_eq!(p.permissions(), profile_permissions(p.as_str()));
        }
        assert_eq!(Profile::parse("builder.readwrite"), None);
    }

    #[test]
    fn unknown_profile_is_empty() {
        assert_eq!(profile_permissions("root"), PermissionSet::EMPTY);
        assert_eq!(profile_permissions(""), PermissionSet::EMPTY);
    }

    #[test]
    fn permission_strings_round_trip() {
        for p in Permission::ALL {
            assert_eq!(Permission::parse(p.as_str()), Some(p));
        }
        assert_eq!(Permission::parse("scene.admin"), None);
    }

    #[test]
    fn a_missing_permission_names_the_profiles_that_grant_it() {
        assert_eq!(
            missing_permission(Permission::SceneWrite, "player.limited", None),
            "missing permission: scene.write (profile player.limited lacks it; granted by builder.readWrite)"
        );
        assert_eq!(
            missing_permission(Permission::AudioPlay, "system.readonly", None),
            "missing permission: audio.play (profile system.readonly lacks it; granted by builder.readWrite, social.actor)"
        );
        assert_eq!(
            missing_permission(Permission::PolicyGovern, "builder.readWrite", None),
            "missing permission: policy.govern (profile builder.readWrite lacks it; no profile grants it, only the operator)"
        );
        assert_eq!(
            missing_permission(Permission::SceneWrite, "builder.readWrite", Some("evil@1.0.0")),
            "missing permission: scene.write (package evil@1.0.0 was not granted it)"
        );
        for p in Permission::ALL {
            for profile in profiles_granting(p) {
                assert!(profile.permissions().contains(p));
            }
        }
    }

    #[test]
    fn a_grant_adds_what_its_profile_lacks_and_names_it() {
        let extra = Grant::parse_extra(["+world.time"]).unwrap();
        let grant = Grant { profile: Profile::SystemReadonly, extra };
        assert!(grant.permissions().contains(Permission::WorldTime));
        assert!(grant.permissions().contains(Permission::SceneRead));
        assert!(!grant.permissions().contains(Permission::SceneWrite));
        assert_eq!(grant.name(), "system.readonly+world.time");
        assert_eq!(Grant::from(Profile::BuilderReadWrite).name(), "builder.readWrite");
        assert!(Grant::parse_extra(["world.time"]).unwrap_err().to_string().contains("'world.time' is not a grant"));
        assert!(Grant::parse_extra(["+world.stop"]).unwrap_err().to_string().contains("unknown permission 'world.stop'"));
    }

    #[test]
    fn first_missing_is_in_declaration_order() {
        let set = PermissionSet::of(&[Permission::SceneRead]);
        let need = [Permission::SceneRead, Permission::EcsModify, Permission::SceneWrite];
        assert_eq!(set.first_missing(&need), Some(Permission::EcsModify));
    }
}
