//! Live session ids and who holds them. A session id carries quotas, budgets, revocations and
//! the audit trail, so a client must not adopt one another client (or the host script) is
//! using. A claim is a token: the id is free again when every holder of the token is gone, so
//! a closed connection never leaks its ids and no transport has to remember to release them.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::{Rc, Weak};

/// Proof of holding a session id; dropping the last clone releases it.
#[derive(Debug)]
pub struct SessionClaim {
    id: String,
}

impl SessionClaim {
    pub fn id(&self) -> &str {
        &self.id
    }
}

/// The engine's live session ids.
#[derive(Debug, Default)]
pub struct SessionClaims {
    live: RefCell<HashMap<String, Weak<SessionClaim>>>,
}

impl SessionClaims {
    /// Whether someone holds `id` now.
    pub fn is_held(&self, id: &str) -> bool {
        self.live.borrow().get(id).is_some_and(|w| w.strong_count() > 0)
    }

    /// Claims `id`, unless someone else holds it (then None).
    pub fn claim(&self, id: &str) -> Option<Rc<SessionClaim>> {
        let mut live = self.live.borrow_mut();
        if live.get(id).is_some_and(|w| w.strong_count() > 0) {
            return None;
        }
        // Forget released ids now and then so the map stays the size of what is live.
        if live.len() > 64 {
            live.retain(|_, w| w.strong_count() > 0);
        }
        let claim = Rc::new(SessionClaim { id: id.to_string() });
        live.insert(id.to_string(), Rc::downgrade(&claim));
        Some(claim)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_id_cannot_be_claimed_again_until_released() {
        let claims = SessionClaims::default();
        let first = claims.claim("ses_a").expect("free");
        assert!(claims.claim("ses_a").is_none());
        let copy = Rc::clone(&first);
        drop(first);
        assert!(claims.claim("ses_a").is_none(), "a clone still holds it");
        drop(copy);
        assert!(claims.claim("ses_a").is_some());
    }
}
