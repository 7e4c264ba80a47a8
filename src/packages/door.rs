//! `Packages`: the host side of the core skills' `PackageDoor` (`package.list`,
//! `package.load`), over the engine's `ModManager`.

use std::cell::RefCell;
use std::rc::Rc;

use serde_json::{Value, json};

use super::{Host, ModManager, load_ref};
use crate::skills::SkillRegistry;
use crate::skills::core::PackageDoor;
use crate::trace::EventKind;

pub struct Packages {
    pub mods: Rc<RefCell<ModManager>>,
    pub registry: Rc<RefCell<SkillRegistry>>,
    pub host: Rc<dyn Host>,
}

impl std::fmt::Debug for Packages {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Packages").finish_non_exhaustive()
    }
}

impl PackageDoor for Packages {
    fn list(&self, name: Option<&str>) -> Value {
        let mods = self.mods.borrow();
        let mut listing = mods.list(name);
        let registry = self.registry.borrow();
        let skills = super::instructions::rows(&mods, registry.instructions(), name);
        if let Some(rows) = listing.get_mut("packages").and_then(Value::as_array_mut) {
            rows.extend(skills);
        }
        listing
    }

    fn load(&self, reference: &str, agent_id: &str, session_id: &str, profile: &str, by: (&str, &str)) -> Value {
        let outcome = load_ref(&self.mods, reference, profile, &self.registry, &self.host);
        let (ok, rule, reject, reason) = (outcome.ok(), outcome.rule(), outcome.reject_reason(), outcome.reason(reference));
        let event = if ok { EventKind::PackageLoadCompleted } else { EventKind::PackageLoadDenied };
        let payload = json!({"ref": reference, "profile": profile, "agentId": agent_id, "sessionId": session_id, "ok": ok, "rule": rule, "rejectReason": reject, "reason": reason});
        // Attributed to the caller: the ids it names are its claim, not its identity.
        let load_event = self.host.record(by.0, by.1, event.as_str(), payload);
        json!({
            "ok": ok,
            "ref": reference,
            "agentId": agent_id,
            "rule": rule,
            "rejectReason": reject,
            "reason": reason,
            "loadEventId": if load_event.is_empty() { None } else { Some(load_event) },
        })
    }
}
