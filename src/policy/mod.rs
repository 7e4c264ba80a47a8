//! Who may do what: permission strings, the static profiles of the reference, and the live
//! `PolicyEngine` (revocation, quotas, budgets) the skill pipeline consults before any handler.
//!
//! Permissions are a small fixed vocabulary, so a granted set is a bitmask and the profile check
//! is one AND. The engine adds contextual rules on top and explains every decision.

pub mod audit;
mod engine;
mod profiles;

pub(crate) use engine::PlannedCalls;
pub use engine::{BudgetLimits, CapRevocation, Decision, DecisionContext, PolicyEngine, Principal, QuotaRule, Rule};
pub use profiles::{
    Grant, GrantError, PROFILES, Permission, PermissionSet, Profile, missing_permission, profile_permissions, profiles_granting,
};
