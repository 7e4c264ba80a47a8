//! The `ctx` table a VM handler gets with its input: who is calling (`agentId`, `sessionId`,
//! `profile`, `permissions`), the `tick`, the call's `decisionId` and `fail`.
//!
//! Built for every call, so it is built from a template: for each caller (agent, session,
//! profile and permission set: everything the template holds) the engine keeps a table of the
//! fields that do not change between calls, and a call gets a copy of it with `tick` and
//! `decisionId` set, made by one small Luau function (one call into the VM instead of a call
//! and two table writes through the API); without hooks, the same call runs the handler. A handler can change only its own clone. The one table the clones
//! share, `permissions`, is frozen: it used to be rebuilt for every call, so a write to it
//! reached only that call; now a write raises instead of reaching the caller's next call.
//! Templates themselves are never handed out, and the key is everything they contain, so no
//! caller can be given another's. The cache is bounded: past `MAX_TEMPLATES` callers it starts
//! over (a template is cheap to rebuild; the bound keeps a stream of one-off sessions from
//! holding VM memory).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use mlua::{Function, Lua, Table};

use super::Caller;
use crate::policy::PermissionSet;

/// Most templates kept before the cache starts over.
const MAX_TEMPLATES: usize = 4096;

/// What a template holds, so what it is cached under.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct TemplateKey {
    agent_id: Rc<str>,
    session_id: Rc<str>,
    profile: Rc<str>,
    permissions: PermissionSet,
}

impl TemplateKey {
    /// True when `caller` holds these very names (same allocations, so the same text) and
    /// permissions; false says nothing (an equal caller may hold copies).
    fn is_for(&self, caller: &Caller) -> bool {
        Rc::ptr_eq(&self.agent_id, &caller.agent_id)
            && Rc::ptr_eq(&self.session_id, &caller.session_id)
            && Rc::ptr_eq(&self.profile, &caller.profile)
            && self.permissions == caller.permissions
    }
}

/// `make(template, tick, decisionId)`: a copy of the template with the call's fields. A table
/// constructor naming the template's fields (those `build` sets) is about twice as fast in Luau
/// as `table.clone` and two writes.
const MAKE_CTX: &str = r#"
return function(t, tick, decisionId)
    return {
        agentId = t.agentId,
        sessionId = t.sessionId,
        profile = t.profile,
        permissions = t.permissions,
        fail = t.fail,
        tick = tick,
        decisionId = decisionId,
    }
end
"#;

/// `run(handler, template, tick, decisionId, input)`: `MAKE_CTX` and the handler call in one
/// call into the VM (a handler without hooks needs its `ctx` nowhere else). Each call from Rust
/// into Lua costs more than making the table, so this saves one per skill call.
const RUN_HANDLER: &str = r#"
return function(handler, t, tick, decisionId, input)
    return handler(input, {
        agentId = t.agentId,
        sessionId = t.sessionId,
        profile = t.profile,
        permissions = t.permissions,
        fail = t.fail,
        tick = tick,
        decisionId = decisionId,
    })
end
"#;

/// Builds `ctx` tables for one engine VM.
pub(crate) struct CallContexts {
    /// `MAKE_CTX`, loaded before any script runs.
    make: Function,
    /// `RUN_HANDLER`, loaded likewise.
    run: Function,
    fail: Function,
    templates: RefCell<HashMap<TemplateKey, Table>>,
    /// The last template handed out: a caller making call after call finds it by pointer,
    /// without hashing its names.
    last: RefCell<Option<(TemplateKey, Table)>>,
    /// Frozen `permissions` lists, one per permission set.
    permissions: RefCell<HashMap<PermissionSet, Table>>,
}

impl CallContexts {
    /// `fail` is `ctx.fail`. Call before scripts run in `lua`.
    pub(crate) fn new(lua: &Lua, fail: Function) -> mlua::Result<Self> {
        Ok(Self {
            make: lua.load(MAKE_CTX).set_name("=limina.ctx").eval()?,
            run: lua.load(RUN_HANDLER).set_name("=limina.handler").eval()?,
            fail,
            templates: RefCell::new(HashMap::new()),
            last: RefCell::new(None),
            permissions: RefCell::new(HashMap::new()),
        })
    }

    /// A fresh `ctx` for one call by `caller`.
    pub(crate) fn make(&self, lua: &Lua, caller: &Caller, tick: u64, decision_id: Option<&str>) -> mlua::Result<Table> {
        let template = self.template(lua, caller)?;
        self.make.call((template, tick, decision_id))
    }

    /// Calls `handler(input, ctx)` with a fresh `ctx` for `caller`; returns the handler's first
    /// value.
    pub(crate) fn call_handler(
        &self,
        lua: &Lua,
        handler: &Function,
        caller: &Caller,
        tick: u64,
        decision_id: Option<&str>,
        input: mlua::Value,
    ) -> mlua::Result<mlua::Value> {
        let template = self.template(lua, caller)?;
        self.run.call((handler, template, tick, decision_id, input))
    }

    fn template(&self, lua: &Lua, caller: &Caller) -> mlua::Result<Table> {
        if let Some((key, t)) = &*self.last.borrow()
            && key.is_for(caller)
        {
            return Ok(t.clone());
        }
        let key = TemplateKey {
            agent_id: Rc::clone(&caller.agent_id),
            session_id: Rc::clone(&caller.session_id),
            profile: Rc::clone(&caller.profile),
            permissions: caller.permissions,
        };
        let cached = self.templates.borrow().get(&key).cloned();
        let t = match cached {
            Some(t) => t,
            None => self.build(lua, caller, key.clone())?,
        };
        *self.last.borrow_mut() = Some((key, t.clone()));
        Ok(t)
    }

    fn build(&self, lua: &Lua, caller: &Caller, key: TemplateKey) -> mlua::Result<Table> {
        // `MAKE_CTX` and `RUN_HANDLER` copy exactly these five fields.
        let t = lua.create_table_with_capacity(0, 7)?;
        t.raw_set("agentId", &*caller.agent_id)?;
        t.raw_set("sessionId", &*caller.session_id)?;
        t.raw_set("profile", &*caller.profile)?;
        // What the caller actually holds (its profile cut down by the transport, plus operator
        // grants): checks inside handlers use this, never the profile's name.
        t.raw_set("permissions", self.permissions(lua, caller.permissions)?)?;
        t.raw_set("fail", &self.fail)?;
        let mut templates = self.templates.borrow_mut();
        if templates.len() >= MAX_TEMPLATES {
            templates.clear();
        }
        templates.insert(key, t.clone());
        Ok(t)
    }

    fn permissions(&self, lua: &Lua, set: PermissionSet) -> mlua::Result<Table> {
        if let Some(t) = self.permissions.borrow().get(&set) {
            return Ok(t.clone());
        }
        let t = lua.create_sequence_from(set.names())?;
        t.set_readonly(true);
        self.permissions.borrow_mut().insert(set, t.clone());
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::Permission;

    fn contexts(lua: &Lua) -> CallContexts {
        let fail = lua.create_function(|_, ()| Ok(())).unwrap();
        CallContexts::new(lua, fail).unwrap()
    }

    fn describe(lua: &Lua, ctx: &Table) -> String {
        let f: Function = lua
            .load(
                r#"return function(ctx)
                    local keys = {}
                    for k in pairs(ctx) do table.insert(keys, k) end
                    table.sort(keys)
                    local perms = table.concat(ctx.permissions, "+")
                    return string.format("%s|%s|%s|%s|%s|%s|%s", table.concat(keys, ","), ctx.agentId, ctx.sessionId,
                        ctx.profile, perms, tostring(ctx.tick), tostring(ctx.decisionId))
                end"#,
            )
            .eval()
            .unwrap();
        f.call(ctx.clone()).unwrap()
    }

    #[test]
    fn a_handler_changing_its_ctx_does_not_reach_the_next_call() {
        let lua = Lua::new();
        let contexts = contexts(&lua);
        let caller = Caller::new("agt_a", "ses_a", "builder.readWrite");
        let first = contexts.make(&lua, &caller, 1, Some("evt_1")).unwrap();
        let pristine = describe(&lua, &first);
        let vandal: Function = lua
            .load(
                r#"return function(ctx)
                    ctx.agentId = "agt_evil"; ctx.extra = true; ctx.decisionId = nil; ctx.fail = nil
                    return pcall(function() table.insert(ctx.permissions, "policy.govern") end)
                end"#,
            )
            .eval()
            .unwrap();
        let wrote_permissions: bool = vandal.call(first).unwrap();
        assert!(!wrote_permissions, "the shared permissions list is frozen");
        let second = contexts.make(&lua, &caller, 1, Some("evt_1")).unwrap();
        assert_eq!(describe(&lua, &second), pristine);
        assert!(second.raw_get::<Option<Function>>("fail").unwrap().is_some());
    }

    #[test]
    fn each_caller_gets_its_own_fields_and_only_its_permissions() {
        let lua = Lua::new();
        let contexts = contexts(&lua);
        let a = Caller::new("agt_a", "ses_a", "builder.readWrite");
        let mut b = Caller::new("agt_a", "ses_a", "builder.readWrite");
        b.permissions = PermissionSet::of(&[Permission::SceneRead]);
        let c = Caller::new("agt_c", "ses_c", "player.limited");
        let ctx_a = describe(&lua, &contexts.make(&lua, &a, 5, None).unwrap());
        let ctx_b = describe(&lua, &contexts.make(&lua, &b, 6, Some("evt_b")).unwrap());
        let ctx_c = describe(&lua, &contexts.make(&lua, &c, 7, None).unwrap());
        let names = |p: PermissionSet| p.names().join("+");
        assert_eq!(
            ctx_a,
            format!("agentId,fail,permissions,profile,sessionId,tick|agt_a|ses_a|builder.readWrite|{}|5|nil", names(a.permissions))
        );
        assert_eq!(ctx_b, "agentId,decisionId,fail,permissions,profile,sessionId,tick|agt_a|ses_a|builder.readWrite|scene.read|6|evt_b");
        assert_eq!(
            ctx_c,
            format!("agentId,fail,permissions,profile,sessionId,tick|agt_c|ses_c|player.limited|{}|7|nil", names(c.permissions))
        );
        // Asking again (now from the cache) gives the same answers.
        assert_eq!(describe(&lua, &contexts.make(&lua, &a, 5, None).unwrap()), ctx_a);
        assert_eq!(describe(&lua, &contexts.make(&lua, &b, 6, Some("evt_b")).unwrap()), ctx_b);
        // The same names (the very same strings) with other permissions: not the last template.
        let mut narrowed = a.clone();
        narrowed.permissions = b.permissions;
        let _ = contexts.make(&lua, &a, 5, None).unwrap();
        let ctx = describe(&lua, &contexts.make(&lua, &narrowed, 6, Some("evt_b")).unwrap());
        assert_eq!(ctx, ctx_b);
    }

    #[test]
    fn the_cache_starts_over_when_full() {
        let lua = Lua::new();
        let contexts = contexts(&lua);
        for i in 0..MAX_TEMPLATES + 3 {
            let caller = Caller::new(&format!("agt_{i}"), "ses", "player.limited");
            let ctx = contexts.make(&lua, &caller, 0, None).unwrap();
            assert_eq!(ctx.raw_get::<String>("agentId").unwrap(), format!("agt_{i}"));
        }
        assert!(contexts.templates.borrow().len() <= MAX_TEMPLATES);
    }
}
