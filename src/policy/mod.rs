//! Who may do what: permission strings, the static profiles of the reference, and the check the
//! skill pipeline runs before any handler.
//!
//! Permissions are a small fixed vocabulary, so a granted set is a bitmask and the check is one
//! AND. The dynamic policy engine (quotas, budgets, revocation) builds on this module later.

mod profiles;

pub use profiles::{PROFILES, Permission, PermissionSet, profile_permissions};
