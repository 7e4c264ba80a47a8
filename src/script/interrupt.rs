//! The host VM's interrupt: one Luau callback, shared by whoever must be able to stop the host
//! script's code. A playtest engine installs a standing deadline (`Engine::set_deadline`); the
//! decision system runs each scripted policy under a budget of VM checks on top of it, so a
//! policy that loops forever fails its decision instead of hanging the loop.
//!
//! The budget counts interrupt checks (Luau makes one at every call and loop back-edge), not
//! time: the same policy on the same request stops at the same point on every machine, and the
//! world never depends on how fast this one is.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use mlua::{Lua, VmState};

type Callback = Rc<dyn Fn(&Lua) -> mlua::Result<VmState>>;

/// The standing interrupt, if any, and the budgeted runs layered on it.
#[derive(Default)]
pub(crate) struct VmInterrupt {
    standing: RefCell<Option<Callback>>,
}

impl std::fmt::Debug for VmInterrupt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VmInterrupt").field("standing", &self.standing.borrow().is_some()).finish()
    }
}

impl VmInterrupt {
    /// Installs `callback` for the life of the VM (a playtest's deadline).
    pub(crate) fn set_standing(&self, lua: &Lua, callback: impl Fn(&Lua) -> mlua::Result<VmState> + 'static) {
        let callback: Callback = Rc::new(callback);
        *self.standing.borrow_mut() = Some(Rc::clone(&callback));
        lua.set_interrupt(move |lua| callback(lua));
    }

    /// Runs `f` with at most `checks` interrupt checks of Luau code: past them, every further
    /// check raises `exhausted` (so a `pcall` inside cannot swallow it for long: the next loop
    /// back-edge outside raises it again). The standing interrupt keeps running underneath and
    /// is reinstalled after.
    pub(crate) fn with_budget<R>(&self, lua: &Lua, checks: u64, exhausted: impl Fn() -> String + 'static, f: impl FnOnce() -> R) -> R {
        let standing = self.standing.borrow().clone();
        let used = Rc::new(Cell::new(0u64));
        let counter = Rc::clone(&used);
        let under = standing.clone();
        lua.set_interrupt(move |lua| {
            let n = counter.get() + 1;
            counter.set(n);
            if n > checks {
                return Err(mlua::Error::runtime(exhausted()));
            }
            match &under {
                Some(standing) => standing(lua),
                None => Ok(VmState::Continue),
            }
        });
        let result = f();
        match standing {
            Some(standing) => lua.set_interrupt(move |lua| standing(lua)),
            None => lua.remove_interrupt(),
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_endless_loop_stops_at_its_budget_and_the_vm_runs_on_without_one() {
        let lua = Lua::new();
        let interrupt = VmInterrupt::default();
        let endless: mlua::Function =
            lua.load("return function() local n = 0 while true do n += 1 pcall(function() end) end end").eval().unwrap();
        let result = interrupt.with_budget(&lua, 10_000, || "out of checks".to_string(), || endless.call::<()>(()));
        assert!(result.unwrap_err().to_string().contains("out of checks"));
        // Afterwards, no budget: a long loop completes.
        let sum: u64 = lua.load("local s = 0 for i = 1, 100000 do s += 1 end return s").eval().unwrap();
        assert_eq!(sum, 100_000);
    }

    #[test]
    fn the_standing_interrupt_keeps_running_under_a_budget_and_after_it() {
        let lua = Lua::new();
        let interrupt = VmInterrupt::default();
        let seen = Rc::new(Cell::new(0u64));
        let s = Rc::clone(&seen);
        interrupt.set_standing(&lua, move |_| {
            s.set(s.get() + 1);
            Ok(VmState::Continue)
        });
        let f: mlua::Function = lua.load("return function() for i = 1, 100 do end end").eval().unwrap();
        interrupt.with_budget(&lua, 1_000_000, String::new, || f.call::<()>(())).unwrap();
        let during = seen.get();
        assert!(during > 0, "the standing interrupt ran under the budget");
        f.call::<()>(()).unwrap();
        assert!(seen.get() > during, "and again after it");
    }
}
