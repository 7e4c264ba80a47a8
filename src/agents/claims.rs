//! Live agent and session ids and who holds them, and the id forms the engine keeps for itself.
//! A session id carries quotas, budgets, revocations and the audit trail, and an agent id is
//! who a call is traced as, so a client must not adopt one another client, the host script (or
//! one of its `limina.session`s) or an in-world agent is using. A claim is a token: the id is
//! free again when every holder of the token is gone, so a closed connection or a collected
//! script session never leaks its ids and no transport has to remember to release them.
//!
//! Ids are compared without regard to ASCII case, everywhere: `agt_Script` and `agt_script`, or
//! `ses_AGT_x` and `ses_agt_x`, read as the same name in a log, so holding one holds both and a
//! reserved form matches in any case.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::{Rc, Weak};

/// Who holds a claim. The host script chose every id its sessions use, so its claims on one id
/// are shared among them; a client's claim is its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holder {
    Script,
    Client,
}

/// Proof of holding an id; dropping the last clone releases it.
#[derive(Debug)]
pub struct SessionClaim {
    id: String,
    holder: Holder,
}

impl SessionClaim {
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Whether this claim is on `id` (in any case).
    pub fn is_for(&self, id: &str) -> bool {
        self.id.eq_ignore_ascii_case(id)
    }
}

/// The live ids of one kind (agent ids, or session ids).
#[derive(Debug, Default)]
pub struct SessionClaims {
    /// By the id in lower case.
    live: RefCell<HashMap<String, Weak<SessionClaim>>>,
}

impl SessionClaims {
    /// Whether someone holds `id` (in any case) now.
    pub fn is_held(&self, id: &str) -> bool {
        self.holder(id).is_some()
    }

    /// Who holds `id` (in any case) now.
    pub fn holder(&self, id: &str) -> Option<Holder> {
        self.live.borrow().get(&id.to_ascii_lowercase()).and_then(Weak::upgrade).map(|c| c.holder)
    }

    /// Claims `id` for `holder`: a new claim when nobody holds it (in any case), the script's own
    /// claim again when the script asks for an id it holds; otherwise who holds it.
    pub fn claim(&self, id: &str, holder: Holder) -> Result<Rc<SessionClaim>, Holder> {
        let key = id.to_ascii_lowercase();
        let mut live = self.live.borrow_mut();
        if let Some(held) = live.get(&key).and_then(Weak::upgrade) {
            return match (held.holder, holder) {
                (Holder::Script, Holder::Script) => Ok(held),
                (other, _) => Err(other),
            };
        }
        // Forget released ids now and then so the map stays the size of what is live.
        if live.len() > 64 {
            live.retain(|_, w| w.strong_count() > 0);
        }
        let claim = Rc::new(SessionClaim { id: id.to_string(), holder });
        live.insert(key, Rc::downgrade(&claim));
        Ok(claim)
    }
}

/// The forms of ids the engine hands out or acts under itself. A client may not choose an id of
/// one of these forms (its own connection's defaults excepted); `agent.spawn` may not choose an
/// agent id of one. All match in any case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ReservedForm {
    /// `sys_…`, `engine…` (agents), `sys_…`, `thr_…`, `ses_session…` (sessions): the engine's
    /// own actors and threads.
    Engine(&'static str),
    /// `agt_` + digits: what `agent.spawn` hands out.
    GeneratedAgent,
    /// `ses_` + digits / `agt_session…`: what `limina.session` hands out by default.
    ScriptSession(&'static str),
    /// `ses_agt_…`: the session ids in-world agents act under.
    AgentSession,
    /// `agt_mcpN` / `ses_mcpN`: MCP connection N's default identity.
    Connection(&'static str, String),
}

impl ReservedForm {
    /// Why a client (or a spawn) may not choose `id`: ends "…; choose another …".
    pub(crate) fn refusal(&self, id: &str) -> String {
        match self {
            ReservedForm::Engine(prefix) => format!("{id}: ids starting {prefix} are the engine's own"),
            ReservedForm::GeneratedAgent => {
                format!("{id} has the form of generated agent ids (agt_ and digits), which only agent.spawn hands out")
            }
            ReservedForm::ScriptSession(form) => {
                format!("{id}: ids of the form {form} are the engine's own (limina.session hands them out)")
            }
            ReservedForm::AgentSession => format!("{id} has the form of in-world agents' session ids (ses_agt_…)"),
            ReservedForm::Connection(prefix, _) => {
                format!("{id} is reserved for another connection's default identity (not {prefix}…)")
            }
        }
    }
}

fn digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// `id` (lower case) after `prefix`, when it starts with it.
fn after<'a>(lower: &'a str, prefix: &str) -> Option<&'a str> {
    lower.strip_prefix(prefix)
}

/// The reserved form agent id `id` has, if any; `own` is the asking connection's number (its
/// default `agt_mcpN` is its own), None for a spawn.
pub(crate) fn reserved_agent_form(id: &str, own: Option<u64>) -> Option<ReservedForm> {
    let lower = id.to_ascii_lowercase();
    for prefix in ["sys_", "engine"] {
        if lower.starts_with(prefix) {
            return Some(ReservedForm::Engine(prefix));
        }
    }
    if after(&lower, "agt_session").is_some() {
        return Some(ReservedForm::ScriptSession("agt_session…"));
    }
    if let Some(n) = after(&lower, "agt_mcp")
        && own.is_none_or(|own| n != own.to_string())
    {
        return Some(ReservedForm::Connection("agt_mcp", n.to_string()));
    }
    if after(&lower, "agt_").is_some_and(digits) {
        return Some(ReservedForm::GeneratedAgent);
    }
    None
}

/// The reserved form session id `id` has, if any; `own` is the asking connection's number.
pub(crate) fn reserved_session_form(id: &str, own: u64) -> Option<ReservedForm> {
    let lower = id.to_ascii_lowercase();
    for prefix in ["sys_", "thr_", "ses_session"] {
        if lower.starts_with(prefix) {
            return Some(ReservedForm::Engine(prefix));
        }
    }
    if lower.starts_with("ses_agt_") {
        return Some(ReservedForm::AgentSession);
    }
    if let Some(n) = after(&lower, "ses_mcp")
        && n != own.to_string()
    {
        return Some(ReservedForm::Connection("ses_mcp", n.to_string()));
    }
    if after(&lower, "ses_").is_some_and(digits) {
        return Some(ReservedForm::ScriptSession("ses_ and digits"));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_id_cannot_be_claimed_again_until_released() {
        let claims = SessionClaims::default();
        let first = claims.claim("ses_a", Holder::Client).expect("free");
        assert!(claims.claim("ses_a", Holder::Client).is_err());
        let copy = Rc::clone(&first);
        drop(first);
        assert!(claims.claim("ses_a", Holder::Client).is_err(), "a clone still holds it");
        drop(copy);
        assert!(claims.claim("ses_a", Holder::Client).is_ok());
    }

    #[test]
    fn a_held_id_is_held_in_every_case() {
        let claims = SessionClaims::default();
        let _script = claims.claim("agt_script", Holder::Script).expect("free");
        for variant in ["agt_Script", "AGT_SCRIPT", "agt_scripT"] {
            assert!(claims.is_held(variant), "{variant}");
            assert_eq!(claims.claim(variant, Holder::Client).err(), Some(Holder::Script), "{variant}");
        }
        let _client = claims.claim("ses_Mine", Holder::Client).expect("free");
        assert_eq!(claims.claim("ses_mine", Holder::Script).err(), Some(Holder::Client), "the script cannot take it either");
    }

    #[test]
    fn the_script_shares_its_claims_among_its_sessions() {
        let claims = SessionClaims::default();
        let first = claims.claim("ses_ro", Holder::Script).expect("free");
        let second = claims.claim("SES_RO", Holder::Script).expect("the script's own");
        drop(first);
        assert_eq!(claims.claim("ses_ro", Holder::Client).err(), Some(Holder::Script), "the second session still holds it");
        drop(second);
        assert!(claims.claim("ses_ro", Holder::Client).is_ok());
    }

    #[test]
    fn reserved_forms_match_in_any_case() {
        for id in ["sys_x", "SYS_x", "Engine", "ENGINE2", "agt_session1", "AGT_Session1", "agt_MCP1", "agt_0001", "AGT_0001"] {
            assert!(reserved_agent_form(id, Some(2)).is_some(), "{id}");
        }
        for id in ["agt_script", "agt_a", "agt_", "agt_01x", "agt_mcp2", "AGT_MCP2"] {
            assert_eq!(reserved_agent_form(id, Some(2)), None, "{id}");
        }
        assert!(reserved_agent_form("agt_mcp2", None).is_some(), "a spawn takes no connection's default");
        for id in ["sys_x", "THR_main", "Ses_Session1", "ses_agt_x", "SES_AGT_x", "ses_MCP1", "ses_1", "SES_0042"] {
            assert!(reserved_session_form(id, 2).is_some(), "{id}");
        }
        for id in ["ses_script", "ses_a", "ses_", "ses_1a", "ses_mcp2", "SES_MCP2"] {
            assert_eq!(reserved_session_form(id, 2), None, "{id}");
        }
    }
}
