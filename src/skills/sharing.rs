//! The pipeline's sharing check: leases and `ifRevision`, for the skills that declare which
//! entities they write (`targets`). It runs after the policy decision and before the handler,
//! inside the part of the call the command log records, so a refused write is logged with its
//! code and a replay refuses it again; a refusal changes nothing (the handler never runs).
//!
//! Who may write a leased entity: its holder's session, and in-world agents acting for it (their
//! spawner chain names the holder's session: delegates). The operator (a caller holding
//! `policy.govern`) is never refused, so a client cannot take the operator's own world away;
//! its writes over a lease are traced (`lease.overridden`). Session ids compare without regard to
//! ASCII case, as their claims do (`agents::claims`). Hot: a skill without `targets` pays one
//! match; one with it, a field read, an id parse and two map lookups.

use serde::Serialize;
use serde_json::Value;

use super::invoke::{Caller, InvokeEnv, SkillFailure};
use super::{ErrorCode, IF_REVISION, Skill, Targets};
use crate::policy::Permission;
use crate::trace::{EventDraft, EventKind};
use crate::world::{EntityId, Lease};

/// Whether `caller` writes as the holder of a lease held by session `holder`: the holder's own
/// session or an agent acting for it.
pub(crate) fn holds(caller: &Caller, holder: &str) -> bool {
    caller.session_id.eq_ignore_ascii_case(holder)
        || caller.acting_for.iter().flat_map(|a| a.iter()).any(|p| p.session_id.eq_ignore_ascii_case(holder))
}

/// The operator: the one caller no lease holds back.
pub(crate) fn is_operator(caller: &Caller) -> bool {
    caller.permissions.contains(Permission::PolicyGovern)
}

/// Refuses a call that would write an entity another session leases, or whose `ifRevision`
/// is not the entity's revision. An id that names no live entity passes: the handler says why.
pub(crate) fn guard(env: &InvokeEnv<'_>, caller: &Caller, skill: &Skill, input: &Value) -> Result<(), SkillFailure> {
    let Some(world) = env.world else { return Ok(()) };
    match &skill.targets {
        Targets::None => Ok(()),
        Targets::Field(field) => {
            let Some(text) = input.get(field.as_str()).and_then(Value::as_str) else { return Ok(()) };
            let world = world.try_borrow().map_err(|_| busy(skill))?;
            let Some(id) = world.resolve(text) else { return Ok(()) };
            if let Some(lease) = world.leases().live(id, env.tick) {
                check_lease(env, caller, skill, id, lease)?;
            }
            if let Some(expected) = input.get(IF_REVISION) {
                let expected = whole(expected)?;
                let current = world.revision(id).unwrap_or(0);
                if expected != current {
                    return Err(SkillFailure {
                        code: ErrorCode::Conflict,
                        message: format!(
                            "{id} is at revision {current}, not the ifRevision {expected} this {} expected: it was written since; read it again and retry",
                            skill.name
                        ),
                    });
                }
            }
            Ok(())
        }
        Targets::World => {
            let world = world.try_borrow().map_err(|_| busy(skill))?;
            let held: Vec<(EntityId, &Lease)> =
                world.leases().iter().filter(|(_, l)| env.tick < l.expires && !holds(caller, &l.holder)).collect();
            let Some((id, lease)) = held.first() else { return Ok(()) };
            if !is_operator(caller) {
                return Err(leased(caller, skill, *id, lease, held.len()));
            }
            let payload =
                Overridden { by: &caller.session_id, entity: None, expires: None, holder: None, leases: held.len(), skill: &skill.name };
            emit(env, caller, EventKind::LeaseOverridden, &payload);
            Ok(())
        }
    }
}

/// A write to `id`, which `lease` holds: the holder and its delegates pass, the operator passes
/// traced, anyone else is refused.
fn check_lease(env: &InvokeEnv<'_>, caller: &Caller, skill: &Skill, id: EntityId, lease: &Lease) -> Result<(), SkillFailure> {
    if holds(caller, &lease.holder) {
        return Ok(());
    }
    if !is_operator(caller) {
        return Err(leased(caller, skill, id, lease, 1));
    }
    let entity = id.to_string();
    let payload = Overridden {
        by: &caller.session_id,
        entity: Some(&entity),
        expires: Some(lease.expires),
        holder: Some(&lease.holder),
        leases: 1,
        skill: &skill.name,
    };
    emit(env, caller, EventKind::LeaseOverridden, &payload);
    Ok(())
}

fn leased(caller: &Caller, skill: &Skill, id: EntityId, lease: &Lease, count: usize) -> SkillFailure {
    let more = if count > 1 { format!(" (and {} more entities are leased by other sessions)", count - 1) } else { String::new() };
    SkillFailure {
        code: ErrorCode::Leased,
        message: format!(
            "{id} is leased by session {} (agent {}) until tick {}{more}: {} by session {} is refused; wait for the lease to lapse or ask its holder to release it",
            lease.holder, lease.agent, lease.expires, skill.name, caller.session_id
        ),
    }
}

fn busy(skill: &Skill) -> SkillFailure {
    SkillFailure { code: ErrorCode::HandlerError, message: format!("{}: the world is busy (a call is already changing it)", skill.name) }
}

/// `ifRevision` as a whole number (the schema holds it to one; a JSON `3.0` is one too).
fn whole(value: &Value) -> Result<u64, SkillFailure> {
    let n = value.as_u64().or_else(|| value.as_f64().filter(|f| f.fract() == 0.0 && *f >= 1.0 && *f < 2f64.powi(53)).map(|f| f as u64));
    n.filter(|n| (1..=crate::world::sharing::MAX_REVISION).contains(n)).ok_or_else(|| SkillFailure {
        code: ErrorCode::InvalidInput,
        message: format!("{IF_REVISION}: {value} is not a revision (a whole number 1..=2^53-1)"),
    })
}

/// The revision of the entity a successful call of `skill` targeted, for its `skill.executed`.
pub(crate) fn revision_after(env: &InvokeEnv<'_>, skill: &Skill, input: &Value) -> Option<u64> {
    let Targets::Field(field) = &skill.targets else { return None };
    let text = input.get(field.as_str()).and_then(Value::as_str)?;
    let world = env.world?.try_borrow().ok()?;
    world.resolve(text).and_then(|id| world.revision(id))
}

/// `lease.overridden`: the operator wrote over a lease (one entity's, or `leases` of them when
/// it replaced the world). Fields in sorted order (canonical JSON).
#[derive(Serialize)]
struct Overridden<'a> {
    by: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    entity: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    expires: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    holder: Option<&'a str>,
    leases: usize,
    skill: &'a str,
}

fn emit<P: Serialize>(env: &InvokeEnv<'_>, caller: &Caller, kind: EventKind, payload: &P) {
    let draft = EventDraft::new(kind.as_str(), &caller.agent_id).thread(&caller.session_id);
    env.trace.borrow_mut().emit(draft, env.tick, payload);
}
