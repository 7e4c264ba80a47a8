//! Heavy work off the engine thread: the second half of a heavy skill call (a render, a
//! playtest, a scene file printed or read) runs on a worker thread, from a copy taken at the
//! call's tick, while the world keeps stepping and other callers are served.
//!
//! A call is deferred only when three things hold: its caller can be answered later (a front end
//! that called `invoke_deferrable`: the MCP servers, stdio and network), the skill is `heavy` and
//! the command log does not record it as a call of its own (`Effects::deferrable`: it cannot
//! change the world, or it changes it only through calls it makes), and its op chose to split.
//! The pipeline arms `HeavyWork` for exactly that call's handler (every other call's handler,
//! nested ones included, runs disarmed, so a call a handler makes is never deferred); the op does
//! the cheap, consistent part on the engine thread (a render list, a world copy, a scene captured
//! as data) and parks the rest: a `Job` for the worker and a `Finish` for the engine thread. The
//! pipeline hands the job to the worker and returns a ticket instead of an answer. The worker's
//! outcome comes back through `invoke::complete_deferred`, which the front end calls between
//! steps: it runs the finish (for `scene.load`, the scene's changes, all made between two steps
//! through traced calls of their own, so no one sees half a scene), validates the output and
//! traces `skill.executed` (or `skill.failed`) with the tick the call completed on. The policy
//! decision was traced at call time, so a deferred call is still one permission-checked, traced
//! call. A front end holds a client's later calls while its call with effects (a file, the world) is
//! deferred, so a
//! client's calls apply in the order it sent them.
//!
//! Bounds: one worker thread (made on first use), at most `MAX_IN_FLIGHT` calls queued or
//! running, and `MAX_PER_SESSION` of them for one session; past either, the op refuses the call
//! with `capacity_exceeded` naming the limit, before it does any work. Every job sent to the
//! worker comes back exactly once (run, refused as cancelled, or caught panicking), and its
//! place is given back only then, so the bounds hold for work that is still running. A
//! cancelled call (its client left) that has not started is not run; one that has started
//! finishes (a load is then still applied) and its answer is dropped.
//!
//! Scripts (`limina.call`) and agents never defer: a script is the operator's own code and waits
//! for its answer (on the engine thread, as before), and agents are not offered heavy skills.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, VecDeque};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::{Caller, ErrorCode, HandlerFailure, Skill, SkillFailure};

/// Calls queued or running on the worker at once.
pub(crate) const MAX_IN_FLIGHT: usize = 4;
/// Of those, the calls one session may have.
pub(crate) const MAX_PER_SESSION: usize = 2;

/// Names a deferred call until it completes.
pub type Ticket = u64;

/// What the worker hands back for a call: what its `Finish` turns into the skill's output.
pub(crate) type Worked = Box<dyn Any + Send>;

/// The heavy half of a call: runs on the worker, from what it captured.
pub(crate) type Job = Box<dyn FnOnce() -> Result<Worked, SkillFailure> + Send>;

/// The call's last half, on the engine thread at completion, between steps: turns what the
/// worker made into the skill's output (validated after it). For most calls it only unwraps the
/// output the worker made; `scene.load` applies the scene the worker read and checked.
pub(crate) type Finish = Box<dyn FnOnce(Worked) -> Result<Value, SkillFailure>>;

/// A call's work as its op parked it: the worker's half and the engine's.
pub(crate) struct Parked {
    pub job: Job,
    pub finish: Finish,
}

/// What the pipeline keeps of a deferred call until it completes: enough to validate its output
/// and trace it as the call it is.
pub(crate) struct PendingCall {
    pub caller: Caller,
    pub skill: Rc<Skill>,
    /// The validated input (`skill.executed` records it).
    pub input: Value,
    /// The call's policy decision and cause (its outcome event names them).
    pub causes: Vec<String>,
    pub started: Instant,
    /// The event types the call emitted before it was deferred.
    pub events: Vec<Rc<str>>,
    /// Its engine-thread half (`Parked::finish`).
    pub finish: Finish,
}

/// A call the worker is done with.
pub(crate) struct Finished {
    pub ticket: Ticket,
    pub call: PendingCall,
    pub outcome: Result<Worked, SkillFailure>,
    /// Time the worker spent on it (charged to the caller's budget).
    pub worked: Duration,
}

struct Queued {
    ticket: Ticket,
    skill: String,
    cancelled: Arc<AtomicBool>,
    job: Job,
}

struct Done {
    ticket: Ticket,
    outcome: Result<Worked, SkillFailure>,
    worked: Duration,
}

struct Worker {
    jobs: mpsc::SyncSender<Queued>,
    done: mpsc::Receiver<Done>,
}

struct InFlight {
    call: PendingCall,
    cancelled: Arc<AtomicBool>,
}

/// The engine's heavy-work lane: arming for the call whose handler runs, the parked job, the
/// worker, and the calls in flight.
#[derive(Default)]
pub struct HeavyWork {
    /// The session of the call whose handler runs now, when that call may be deferred.
    armed: RefCell<Option<Rc<str>>>,
    /// The work the running handler's op parked.
    parked: RefCell<Option<Parked>>,
    in_flight: RefCell<BTreeMap<Ticket, InFlight>>,
    next: Cell<Ticket>,
    worker: RefCell<Option<Worker>>,
    /// Completions taken off the channel but not yet handed out (tests wait for them).
    ready: RefCell<VecDeque<Done>>,
    /// Holds the worker before each job, so a test can look at the world while a call is in
    /// flight without timing anything.
    #[cfg(test)]
    gate: Arc<gate::Gate>,
}

impl std::fmt::Debug for HeavyWork {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HeavyWork").field("in_flight", &self.in_flight.borrow().len()).finish()
    }
}

/// The armed state of the enclosing call, restored when the call that armed (or disarmed)
/// `HeavyWork` for its handler is done. A job its handler parked and the pipeline did not take
/// (the handler failed after parking) is dropped here.
pub(crate) struct Armed<'a> {
    heavy: &'a HeavyWork,
    outer: Option<Rc<str>>,
    outer_parked: Option<Parked>,
}

impl Armed<'_> {
    /// The work this call's handler parked, if it parked any.
    pub(crate) fn take_parked(&self) -> Option<Parked> {
        self.heavy.parked.borrow_mut().take()
    }
}

impl Drop for Armed<'_> {
    fn drop(&mut self) {
        *self.heavy.armed.borrow_mut() = self.outer.take();
        *self.heavy.parked.borrow_mut() = self.outer_parked.take();
    }
}

impl HeavyWork {
    /// Arms (with the caller's session) or disarms the lane for the handler about to run.
    pub(crate) fn arm(&self, session: Option<Rc<str>>) -> Armed<'_> {
        let outer = self.armed.replace(session);
        let outer_parked = self.parked.borrow_mut().take();
        Armed { heavy: self, outer, outer_parked }
    }

    /// For an op: whether the running call may hand its heavy half to the worker. `Ok(false)`:
    /// run it inline (the caller waits for its answer). A refusal names the limit that is full.
    pub fn may_defer(&self, skill: &str) -> Result<bool, HandlerFailure> {
        let Some(session) = self.armed.borrow().clone() else { return Ok(false) };
        let in_flight = self.in_flight.borrow();
        if in_flight.len() >= MAX_IN_FLIGHT {
            return Err(HandlerFailure::new(
                ErrorCode::CapacityExceeded,
                format!(
                    "{skill}: {} heavy calls are already queued or running, the limit ({MAX_IN_FLIGHT}); call again once one has answered",
                    in_flight.len()
                ),
            ));
        }
        let mine = in_flight.values().filter(|c| c.call.caller.session_id == session).count();
        if mine >= MAX_PER_SESSION {
            return Err(HandlerFailure::new(
                ErrorCode::CapacityExceeded,
                format!(
                    "{skill}: session {session} already has {mine} heavy calls queued or running, the limit per session ({MAX_PER_SESSION}); call again once one has answered"
                ),
            ));
        }
        Ok(true)
    }

    /// For an op that `may_defer`: parks its heavy half, which makes the skill's output, for the
    /// pipeline to send to the worker. Its handler's return value is then ignored.
    pub fn park(&self, job: impl FnOnce() -> Result<Value, SkillFailure> + Send + 'static) {
        self.park_then(job, Ok);
    }

    /// `park` for work in two halves: `work` runs on the worker, and `finish` takes what it made
    /// on the engine thread when the call completes, between steps, and makes the output. A
    /// failure of `work` fails the call without running `finish`.
    pub fn park_then<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> Result<T, SkillFailure> + Send + 'static,
        finish: impl FnOnce(T) -> Result<Value, SkillFailure> + 'static,
    ) {
        if self.armed.borrow().is_none() {
            return;
        }
        let job: Job = Box::new(move || work().map(|made| Box::new(made) as Worked));
        let finish: Finish = Box::new(move |worked: Worked| match worked.downcast::<T>() {
            Ok(made) => finish(*made),
            // Each job's result goes to its own call's finish: a bug if reached.
            Err(_) => Err(SkillFailure { code: ErrorCode::HandlerError, message: "heavy work came back as another call's".into() }),
        });
        *self.parked.borrow_mut() = Some(Parked { job, finish });
    }

    /// Sends a parked job to the worker (started on first use); the call waits in flight until
    /// `finished` hands it back. A refusal gives the call back.
    pub(crate) fn submit(&self, call: PendingCall, job: Job) -> Result<Ticket, Box<(SkillFailure, PendingCall)>> {
        let name = call.skill.name.clone();
        let failed = |code, message: String| SkillFailure { code, message: format!("{name}: {message}") };
        if self.worker.borrow().is_none() {
            match self.spawn() {
                Ok(worker) => *self.worker.borrow_mut() = Some(worker),
                Err(e) => {
                    return Err(Box::new((failed(ErrorCode::HandlerError, format!("the heavy-work thread could not start: {e}")), call)));
                }
            }
        }
        let ticket = self.next.get() + 1;
        let cancelled = Arc::new(AtomicBool::new(false));
        let queued = Queued { ticket, skill: name.clone(), cancelled: Arc::clone(&cancelled), job };
        let sent = match &*self.worker.borrow() {
            Some(worker) => worker.jobs.try_send(queued),
            None => return Err(Box::new((failed(ErrorCode::HandlerError, "the heavy-work thread is gone".into()), call))),
        };
        match sent {
            Ok(()) => {}
            // `may_defer` keeps the calls in flight within the queue's size: a bug if reached.
            Err(mpsc::TrySendError::Full(_)) => {
                return Err(Box::new((
                    failed(ErrorCode::CapacityExceeded, format!("the heavy-work queue is full ({MAX_IN_FLIGHT})")),
                    call,
                )));
            }
            Err(mpsc::TrySendError::Disconnected(_)) => {
                // It catches its jobs' panics, so this is a bug too: the next call starts another.
                *self.worker.borrow_mut() = None;
                return Err(Box::new((failed(ErrorCode::HandlerError, "the heavy-work thread stopped".into()), call)));
            }
        }
        self.next.set(ticket);
        self.in_flight.borrow_mut().insert(ticket, InFlight { call, cancelled });
        Ok(ticket)
    }

    fn spawn(&self) -> std::io::Result<Worker> {
        // Both channels hold at most MAX_IN_FLIGHT: that many jobs are ever out at once.
        let (jobs, queue) = mpsc::sync_channel::<Queued>(MAX_IN_FLIGHT);
        let (finished, done) = mpsc::sync_channel::<Done>(MAX_IN_FLIGHT);
        #[cfg(test)]
        let gate = Arc::clone(&self.gate);
        std::thread::Builder::new().name("limina-heavy".into()).spawn(move || {
            for Queued { ticket, skill, cancelled, job } in queue {
                #[cfg(test)]
                gate.pass();
                let started = Instant::now();
                let outcome = if cancelled.load(Ordering::Acquire) {
                    Err(SkillFailure {
                        code: ErrorCode::HandlerError,
                        message: format!("{skill} was cancelled before it ran: its caller left"),
                    })
                } else {
                    // A panic (a bug) fails this call only; the job owned everything it touched.
                    crate::isolate::catch(job).unwrap_or_else(|message| {
                        Err(SkillFailure {
                            code: ErrorCode::HandlerError,
                            message: format!(
                                "{skill} panicked on the heavy-work thread: {message} (an engine bug; the world is unchanged)"
                            ),
                        })
                    })
                };
                if finished.send(Done { ticket, outcome, worked: started.elapsed() }).is_err() {
                    break;
                }
            }
        })?;
        Ok(Worker { jobs, done })
    }

    /// Cancels a call in flight (its caller left): not run if it has not started; its result
    /// is dropped either way by whoever was to answer it.
    pub(crate) fn cancel(&self, ticket: Ticket) {
        if let Some(c) = self.in_flight.borrow().get(&ticket) {
            c.cancelled.store(true, Ordering::Release);
        }
    }

    /// Calls queued or running.
    pub(crate) fn in_flight(&self) -> usize {
        self.in_flight.borrow().len()
    }

    /// The calls the worker is done with, in the order it finished them. Never waits.
    pub(crate) fn finished(&self) -> Vec<Finished> {
        if let Some(worker) = &*self.worker.borrow() {
            self.ready.borrow_mut().extend(worker.done.try_iter());
        }
        let mut out = Vec::new();
        let mut in_flight = self.in_flight.borrow_mut();
        for Done { ticket, outcome, worked } in self.ready.borrow_mut().drain(..) {
            if let Some(InFlight { call, .. }) = in_flight.remove(&ticket) {
                out.push(Finished { ticket, call, outcome, worked });
            }
        }
        out
    }

    /// Waits up to `limit` for the worker to finish something (tests; the engine never waits).
    #[cfg(test)]
    pub(crate) fn wait_finished(&self, limit: Duration) -> bool {
        if !self.ready.borrow().is_empty() {
            return true;
        }
        let Some(worker) = &*self.worker.borrow() else { return false };
        match worker.done.recv_timeout(limit) {
            Ok(done) => {
                self.ready.borrow_mut().push_back(done);
                true
            }
            Err(_) => false,
        }
    }

    /// Holds the worker before its next job until the returned hold is released or dropped.
    #[cfg(test)]
    pub(crate) fn hold(&self) -> gate::Hold {
        self.gate.hold()
    }
}

#[cfg(test)]
pub(crate) mod gate {
    use std::sync::{Arc, Condvar, Mutex, PoisonError};

    /// A test's gate in front of the worker.
    #[derive(Default)]
    pub(crate) struct Gate {
        held: Mutex<bool>,
        changed: Condvar,
    }

    impl Gate {
        pub(super) fn hold(self: &Arc<Self>) -> Hold {
            *self.held.lock().unwrap_or_else(PoisonError::into_inner) = true;
            Hold(Arc::clone(self))
        }

        pub(super) fn pass(&self) {
            let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
            while *held {
                held = self.changed.wait(held).unwrap_or_else(PoisonError::into_inner);
            }
        }
    }

    /// Releases the gate when dropped.
    pub(crate) struct Hold(Arc<Gate>);

    impl Drop for Hold {
        fn drop(&mut self) {
            *self.0.held.lock().unwrap_or_else(PoisonError::into_inner) = false;
            self.0.changed.notify_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pending(session: &str) -> PendingCall {
        PendingCall {
            caller: Caller::new("agt_test", session, "builder.readWrite"),
            skill: test_skill(),
            input: Value::Null,
            causes: Vec::new(),
            started: Instant::now(),
            events: Vec::new(),
            finish: Box::new(|_| Ok(Value::Null)),
        }
    }

    fn job(work: impl FnOnce() -> Result<Value, SkillFailure> + Send + 'static) -> Job {
        Box::new(move || work().map(|v| Box::new(v) as Worked))
    }

    fn test_skill() -> Rc<Skill> {
        let lua = mlua::Lua::new();
        let dsl: mlua::Table = lua.load(super::super::SCHEMA_DSL).eval().unwrap();
        lua.globals().set("s", dsl).unwrap();
        let def: mlua::Table = lua
            .load(r#"return {name = "t.heavy", version = "1.0.0", category = "t", description = "d", effects = {"read"}, heavy = true, input = s.object({}), output = s.object({}), handler = function() return {} end}"#)
            .eval()
            .unwrap();
        Rc::new(Skill::from_table(&lua, &def, "test").unwrap())
    }

    #[test]
    fn a_disarmed_lane_runs_work_inline_and_parks_nothing() {
        let heavy = HeavyWork::default();
        assert!(!heavy.may_defer("t.heavy").unwrap());
        heavy.park(|| Ok(Value::Null));
        let armed = heavy.arm(None);
        assert!(armed.take_parked().is_none());
    }

    #[test]
    fn a_nested_call_runs_disarmed_and_cannot_take_the_outer_calls_job() {
        let heavy = HeavyWork::default();
        let outer = heavy.arm(Some("ses_a".into()));
        assert!(heavy.may_defer("t.heavy").unwrap());
        heavy.park(|| Ok(Value::Bool(true)));
        {
            let inner = heavy.arm(None);
            assert!(!heavy.may_defer("t.heavy").unwrap(), "a call made by a handler is never deferred");
            assert!(inner.take_parked().is_none(), "the outer call's job is not the inner call's");
        }
        let Parked { job, finish } = outer.take_parked().expect("the outer call's job is still parked");
        assert_eq!(finish(job().unwrap()).unwrap(), Value::Bool(true));
    }

    #[test]
    fn calls_past_the_limits_are_refused_naming_the_limit_and_every_call_comes_back_once() {
        let heavy = HeavyWork::default();
        let hold = heavy.hold();
        let _armed = heavy.arm(Some("ses_a".into()));
        let mut tickets = Vec::new();
        for _ in 0..MAX_PER_SESSION {
            assert!(heavy.may_defer("t.heavy").unwrap());
            tickets.push(heavy.submit(pending("ses_a"), job(|| Ok(Value::Null))).ok().unwrap());
        }
        let refused = heavy.may_defer("t.heavy").unwrap_err();
        assert_eq!(refused.code, ErrorCode::CapacityExceeded);
        assert!(refused.message.contains(&format!("limit per session ({MAX_PER_SESSION})")), "{}", refused.message);
        drop(_armed);
        let _other = heavy.arm(Some("ses_b".into()));
        for _ in MAX_PER_SESSION..MAX_IN_FLIGHT {
            assert!(heavy.may_defer("t.heavy").unwrap());
            tickets.push(heavy.submit(pending("ses_b"), job(|| Ok(Value::Null))).ok().unwrap());
        }
        let _third = heavy.arm(Some("ses_c".into()));
        let refused = heavy.may_defer("t.heavy").unwrap_err();
        assert!(refused.message.contains(&format!("the limit ({MAX_IN_FLIGHT})")), "{}", refused.message);
        // One caller leaves before its call started: it is not run, and still comes back.
        heavy.cancel(tickets[0]);
        drop(hold);
        let mut back = Vec::new();
        while back.len() < tickets.len() {
            assert!(heavy.wait_finished(Duration::from_secs(60)), "the worker answers every call");
            back.extend(heavy.finished());
        }
        assert_eq!(back.iter().map(|f| f.ticket).collect::<Vec<_>>(), tickets);
        assert!(back[0].outcome.as_ref().unwrap_err().message.contains("cancelled before it ran"));
        assert!(back[1..].iter().all(|f| f.outcome.is_ok()));
        assert_eq!(heavy.in_flight(), 0, "every place given back");
        assert!(heavy.may_defer("t.heavy").unwrap());
    }

    #[test]
    fn a_panicking_job_fails_its_call_only() {
        let heavy = HeavyWork::default();
        let _armed = heavy.arm(Some("ses_a".into()));
        let bad = heavy.submit(pending("ses_a"), job(|| panic!("boom"))).ok().unwrap();
        let good = heavy.submit(pending("ses_a"), job(|| Ok(Value::Bool(true)))).ok().unwrap();
        let mut back = Vec::new();
        while back.len() < 2 {
            assert!(heavy.wait_finished(Duration::from_secs(60)));
            back.extend(heavy.finished());
        }
        assert_eq!(back[0].ticket, bad);
        assert!(back[0].outcome.as_ref().unwrap_err().message.contains("panicked on the heavy-work thread: boom"));
        assert_eq!(back[1].ticket, good);
        let made = back.pop().unwrap().outcome.unwrap();
        assert_eq!(made.downcast::<Value>().ok().map(|v| *v), Some(Value::Bool(true)));
    }
}
