//! The worker's side: `limina __package-worker`, one process per out-of-process package.
//!
//! It reads its `Load` frame (the package's files, limits and capabilities), confines itself
//! (`confine.rs`), then builds the package's `PackageRuntime` exactly as the engine would in
//! process — the same restricted VM, meter, budgets and error messages — with a `Host` whose
//! `host.invoke` becomes an `Invoke` frame answered by the engine (and `host.secret` a `Secret`
//! frame: the engine keeps the values and the approvals, and answers after its own checks). It then serves `Call` frames
//! until its stdin closes. A call may nest: while it waits for an `InvokeResult`, the skill it
//! invoked may call back into this package, which arrives as another `Call` and is served on
//! the same stack, as in process.

use std::cell::{Cell, RefCell};
use std::io::{Stdin, Stdout};
use std::rc::{Rc, Weak};

use serde_json::Value;

use super::protocol::{CallCtx, FromWorker, LOAD_FRAME, LoadSpec, Outcome, TestHook, ToWorker, read_blocking, write_blocking, write_raw};
use crate::packages::runtime::{Host, PackageRuntime};
use crate::skills::{CallInfo, Caller, ErrorCode, ExternalHandler, SkillResponse};

/// The worker's pipes, and what it serves.
struct Link {
    input: RefCell<Stdin>,
    output: RefCell<Stdout>,
    max_frame: usize,
    runtime: RefCell<Weak<PackageRuntime>>,
    hook: Cell<Option<TestHook>>,
    process_memory: u64,
}

impl Link {
    fn send(&self, frame: &FromWorker) {
        if write_blocking(&mut *self.output.borrow_mut(), frame).is_err() {
            // The engine is gone: nothing left to serve.
            std::process::exit(0);
        }
    }

    /// Reads the next frame; the engine closing the pipe ends the worker.
    fn next(&self) -> ToWorker {
        match read_blocking(&mut *self.input.borrow_mut(), self.max_frame) {
            Ok(frame) => frame,
            Err(_) => std::process::exit(0),
        }
    }

    /// Serves frames until the answer to a question arrives (an `InvokeResult` inside
    /// `host.invoke`, a `SecretResult` inside `host.secret`) or forever (the top level,
    /// `until_answer` false).
    fn serve(&self, until_answer: bool) -> Option<ToWorker> {
        loop {
            match self.next() {
                ToWorker::Call { skill, input, ctx } => {
                    let done = self.call(&skill, &input, &ctx);
                    self.send(&done);
                }
                answer @ (ToWorker::InvokeResult { .. } | ToWorker::SecretResult { .. }) if until_answer => return Some(answer),
                ToWorker::Hook { hook } => self.hook.set(Some(hook)),
                // Out of order from the engine: a bug there; nothing sensible to answer.
                ToWorker::InvokeResult { .. } | ToWorker::SecretResult { .. } | ToWorker::Load(_) => std::process::exit(3),
            }
        }
    }

    fn call(&self, skill: &str, input: &Value, ctx: &CallCtx) -> FromWorker {
        if let Some(hook) = self.hook.take() {
            self.misbehave(hook);
        }
        let Some(runtime) = self.runtime.borrow().upgrade() else {
            return done(Outcome::Err { code: "handler_error".into(), message: "the worker has no package".into() }, 0);
        };
        let caller = Caller::new(&ctx.agent_id, &ctx.session_id, &ctx.profile);
        let info = CallInfo { caller: &caller, tick: ctx.tick, decision_id: ctx.decision_id.as_deref() };
        let outcome = match runtime.call(skill, input, &info) {
            Ok(result) => Outcome::Ok { result },
            Err(f) => Outcome::Err { code: f.code.as_str().to_string(), message: f.message },
        };
        done(outcome, runtime.rebuilds())
    }

    /// Runs a test hook (see `TestHook`). Most never return.
    fn misbehave(&self, hook: TestHook) {
        match hook {
            TestHook::ForbiddenSyscall => {
                let socket = std::net::UdpSocket::bind("127.0.0.1:0");
                eprintln!("package worker: the forbidden system call returned {socket:?}");
            }
            TestHook::NativeSpin => loop {
                std::hint::black_box(std::hint::black_box(1u64).wrapping_mul(3));
            },
            TestHook::NativeAllocate => {
                let bytes = usize::try_from(self.process_memory.saturating_mul(2)).unwrap_or(usize::MAX / 2);
                let block = vec![1u8; bytes];
                eprintln!("package worker: allocated {} bytes over its limit", std::hint::black_box(block).len());
            }
            TestHook::GiantFrame => write_raw(&mut *self.output.borrow_mut(), &[0xff, 0xff, 0xff, 0xff, b'{']),
            TestHook::Garbage => write_raw(&mut *self.output.borrow_mut(), b"\0\0\0\x05hello"),
            TestHook::Silence => loop {
                std::thread::sleep(std::time::Duration::from_secs(3600));
            },
            TestHook::OutOfOrder => self.send(&FromWorker::Loaded { skills: Vec::new() }),
        }
    }
}

fn done(outcome: Outcome, rebuilds: u64) -> FromWorker {
    let cpu_ms = cpu_time::ProcessTime::try_now().map(|t| t.as_duration().as_secs_f64() * 1000.0).unwrap_or(0.0);
    FromWorker::Done { outcome, cpu_ms, rebuilds }
}

/// The engine, as the package's runtime in the worker sees it.
struct PipeHost {
    link: Rc<Link>,
}

impl Host for PipeHost {
    fn invoke(&self, _caller: &Caller, skill: &str, input: Value) -> SkillResponse {
        // Never used: the runtime calls `invoke_json`, which crosses the pipe.
        let _ = input;
        SkillResponse::failure(ErrorCode::HandlerError, format!("{skill}: not available in a package worker"))
    }

    fn invoke_json(&self, _caller: &Caller, skill: &str, input: Value) -> Value {
        self.link.send(&FromWorker::Invoke { skill: skill.to_string(), input });
        match self.link.serve(true) {
            Some(ToWorker::InvokeResult { response }) => response,
            // The engine answered another question: a bug there.
            _ => std::process::exit(3),
        }
    }

    fn secret(&self, name: &str) -> Result<String, String> {
        self.link.send(&FromWorker::Secret { name: name.to_string() });
        match self.link.serve(true) {
            Some(ToWorker::SecretResult { value }) => value,
            _ => std::process::exit(3),
        }
    }

    fn record(&self, _actor: &str, _thread: &str, event_type: &str, payload: Value) -> String {
        // The engine records violations itself, as the call's caller, for this package: the
        // worker only says which limit and why.
        if event_type == "package.violation" {
            let text = |k: &str| payload.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
            self.link.send(&FromWorker::Violation { kind: text("kind"), message: text("message") });
        }
        String::new()
    }
}

/// `limina __package-worker`: serves one package over stdin and stdout; returns the exit code.
pub fn serve() -> i32 {
    let input = std::io::stdin();
    let output = std::io::stdout();
    let spec: LoadSpec = match read_blocking::<ToWorker>(&mut input.lock(), LOAD_FRAME) {
        Ok(ToWorker::Load(spec)) => *spec,
        Ok(_) => {
            eprintln!("package worker: the first frame must be Load");
            return 2;
        }
        Err(e) => {
            eprintln!("package worker: cannot read its Load frame: {e} (this command is started by the engine, not by hand)");
            return 2;
        }
    };
    let link = Rc::new(Link {
        input: RefCell::new(input),
        output: RefCell::new(output),
        max_frame: super::protocol::value_frame(spec.limits.value_bytes).max(LOAD_FRAME),
        runtime: RefCell::new(Weak::new()),
        hook: Cell::new(None),
        process_memory: spec.limits.process_memory_bytes,
    });
    if let Err(e) = super::confine::confine(&spec.limits) {
        link.send(&FromWorker::LoadFailed { message: format!("{}: cannot confine its worker: {e}", spec.reference) });
        return 1;
    }
    let host: Rc<dyn Host> = Rc::new(PipeHost { link: Rc::clone(&link) });
    match PackageRuntime::load_in_worker(&spec, host) {
        Ok((runtime, skills)) => {
            link.runtime.replace(Rc::downgrade(&runtime));
            link.send(&FromWorker::Loaded { skills });
            link.serve(false);
            drop(runtime);
            0
        }
        Err(e) => {
            link.send(&FromWorker::LoadFailed { message: e.to_string() });
            0
        }
    }
}
