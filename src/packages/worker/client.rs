//! The engine's side of one package's worker: start it, hand it calls, answer its
//! `host.invoke`s, and turn its death into a clear, traced failure.
//!
//! Every exchange has a deadline: a call gets the same wall-clock backstop the in-process meter
//! gives it (`sandbox::wall_backstop` of its CPU deadline), loading gets the backstop of its
//! load deadline. A worker that misses one, sends a frame over its bound, sends something that is
//! not a frame of the protocol or a frame out of order, or dies, is killed and reaped; the call
//! fails naming the package, the worker's pid and the cause, and a `package.violation` records
//! it. The next call starts a new worker (`restarts` counts them). The engine's thread never
//! waits on a worker without a deadline, so the world keeps stepping.
//!
//! A worker is recycled (killed and replaced at the next call) once it has used half its
//! `RLIMIT_CPU`, which counts its whole life: a long-lived, well-behaved package never meets
//! the limit, while one call spinning in native code does.

use std::cell::{Cell, RefCell};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::rc::Rc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::protocol::{CallCtx, FrameError, FromWorker, LOAD_FRAME, LoadSpec, Outcome, Pipe, TestHook, ToWorker, value_frame};
use crate::packages::runtime::Host;
use crate::packages::sandbox::wall_backstop;
use crate::packages::secrets::PackageSecrets;
use crate::skills::{CallInfo, Caller, ErrorCode, SkillFailure};

/// The hidden subcommand a worker runs.
pub const WORKER_COMMAND: &str = "__package-worker";

/// How long a worker that closed its pipe gets to finish exiting before it is killed.
const EXIT_GRACE: Duration = Duration::from_secs(2);

/// When an exchange must be over, and the budget that was (for messages).
#[derive(Debug, Clone, Copy)]
struct Due {
    at: Instant,
    budget: Duration,
}

impl Due {
    fn after(budget: Duration) -> Self {
        Due { at: Instant::now() + budget, budget }
    }
}

/// One running worker process.
struct Worker {
    child: Child,
    pipe: Pipe,
    pid: u32,
    generation: u64,
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Why a worker could not do what was asked.
#[derive(Debug, Clone)]
pub(crate) struct Fault {
    /// The `kind` of the `package.violation` it records.
    pub kind: &'static str,
    pub message: String,
}

/// What `package.list` shows of a worker.
#[derive(Debug, Clone, Copy)]
pub struct WorkerInfo {
    pub pid: Option<u32>,
    pub restarts: u64,
}

pub(crate) struct Client {
    program: PathBuf,
    spec: LoadSpec,
    process: RefCell<Option<Worker>>,
    generations: Cell<u64>,
    restarts: Cell<u64>,
    /// VM rebuilds reported by workers that have ended, and by the live one.
    rebuilds_gone: Cell<u64>,
    rebuilds_live: Cell<u64>,
    /// Set when the package was unloaded or replaced: its worker ends and none starts again
    /// (a skill table or search index may keep the old runtime alive a while).
    closed: Cell<bool>,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client").field("reference", &self.spec.reference).field("pid", &self.pid()).finish()
    }
}

/// The wall time a call with `cpu_ms` of CPU may take (the in-process meter's backstop).
fn call_backstop(cpu_ms: f64) -> Duration {
    wall_backstop(Duration::from_secs_f64(cpu_ms / 1000.0))
}

impl Client {
    /// Starts the package's first worker and loads the package in it. Returns its skill
    /// definitions as the worker sent them.
    pub fn start(program: &Path, spec: LoadSpec, load_deadline: Duration) -> Result<(Client, Vec<Value>), String> {
        let client = Client {
            program: program.to_path_buf(),
            spec,
            process: RefCell::new(None),
            generations: Cell::new(0),
            restarts: Cell::new(0),
            rebuilds_gone: Cell::new(0),
            rebuilds_live: Cell::new(0),
            closed: Cell::new(false),
        };
        let skills = client.spawn(wall_backstop(load_deadline)).map_err(|f| f.message)?;
        Ok((client, skills))
    }

    pub fn pid(&self) -> Option<u32> {
        self.process.borrow().as_ref().map(|w| w.pid)
    }

    pub fn info(&self) -> WorkerInfo {
        WorkerInfo { pid: self.pid(), restarts: self.restarts.get() }
    }

    /// VM rebuilds in the package's workers, a new worker counting as one.
    pub fn rebuilds(&self) -> u64 {
        self.rebuilds_gone.get() + self.rebuilds_live.get() + self.restarts.get()
    }

    /// Starts a worker and loads the package in it.
    fn spawn(&self, backstop: Duration) -> Result<Vec<Value>, Fault> {
        let reference = &self.spec.reference;
        let cannot = |why: String| Fault { kind: "worker", message: format!("{reference}: cannot start its worker: {why}") };
        let mut command = Command::new(&self.program);
        command.arg(WORKER_COMMAND).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::inherit()).current_dir("/");
        // The worker needs nothing from the engine's environment (API keys live there).
        command.env_clear();
        if let Some(log) = std::env::var_os("LIMINA_LOG") {
            command.env("LIMINA_LOG", log);
        }
        let mut child = command.spawn().map_err(|e| cannot(format!("{}: {e}", self.program.display())))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(cannot("no pipes".into()));
        };
        let pipe = Pipe::new(stdin, stdout).map_err(|e| cannot(e.to_string()))?;
        let generation = self.generations.get() + 1;
        self.generations.set(generation);
        let pid = child.id();
        self.retire();
        self.process.replace(Some(Worker { child, pipe, pid, generation }));
        let due = Due::after(backstop);
        self.send(generation, &ToWorker::Load(Box::new(self.spec.clone())), due, "loading")?;
        match self.receive(generation, LOAD_FRAME, due, "loading")? {
            FromWorker::Loaded { skills } => Ok(skills),
            FromWorker::LoadFailed { message } => {
                self.retire();
                Err(Fault { kind: "load", message })
            }
            other => Err(self.protocol_fault(generation, &format!("it answered Load with {}", frame_name(&other)), due, "loading")),
        }
    }

    /// Ends the live worker, if any (kill and reap), keeping its rebuild count.
    fn retire(&self) {
        if let Some(worker) = self.process.replace(None) {
            self.rebuilds_gone.set(self.rebuilds_gone.get() + self.rebuilds_live.replace(0));
            drop(worker);
        }
    }

    /// Ends the worker for good: the package was unloaded or replaced.
    pub fn close(&self) {
        self.closed.set(true);
        self.retire();
    }

    /// The live worker's generation, starting one if there is none.
    fn ensure(&self) -> Result<u64, Fault> {
        if let Some(w) = self.process.borrow().as_ref() {
            return Ok(w.generation);
        }
        if self.closed.get() {
            return Err(Fault { kind: "load", message: format!("{} was unloaded or replaced; its worker is gone", self.spec.reference) });
        }
        if self.generations.get() > 0 {
            self.restarts.set(self.restarts.get() + 1);
        }
        let load = Duration::from_secs_f64((self.spec.limits.cpu_ms * 4.0).min(2000.0) / 1000.0);
        self.spawn(wall_backstop(load))?;
        Ok(self.generations.get())
    }

    fn send(&self, generation: u64, frame: &ToWorker, due: Due, doing: &str) -> Result<(), Fault> {
        let result = {
            let mut process = self.process.borrow_mut();
            match process.as_mut() {
                Some(w) if w.generation == generation => w.pipe.send(frame, due.at),
                _ => return Err(self.replaced(doing)),
            }
        };
        result.map_err(|e| self.fault(generation, e, due, doing))
    }

    fn receive(&self, generation: u64, max: usize, due: Due, doing: &str) -> Result<FromWorker, Fault> {
        let result = {
            let mut process = self.process.borrow_mut();
            match process.as_mut() {
                Some(w) if w.generation == generation => w.pipe.receive(max, due.at),
                _ => return Err(self.replaced(doing)),
            }
        };
        result.map_err(|e| self.fault(generation, e, due, doing))
    }

    fn replaced(&self, doing: &str) -> Fault {
        Fault {
            kind: "worker",
            message: format!(
                "{}: its worker ended while {doing} (a call it made into its own package failed and ended it)",
                self.spec.reference
            ),
        }
    }

    /// Ends the worker after a failed read or write, and says why, naming what killed it.
    fn fault(&self, generation: u64, error: FrameError, due: Due, doing: &str) -> Fault {
        let reference = self.spec.reference.clone();
        let Some(mut worker) = self.process.replace(None).filter(|w| w.generation == generation) else {
            return self.replaced(doing);
        };
        self.rebuilds_gone.set(self.rebuilds_gone.get() + self.rebuilds_live.replace(0));
        let pid = worker.pid;
        let (kind, cause) = match error {
            FrameError::Closed | FrameError::Io(_) => {
                let status = wait_briefly(&mut worker.child);
                self.death(status)
            }
            FrameError::Timeout => (
                "wall",
                format!("exceeded its wall-clock backstop of {} ms (the worker did not answer; it was killed)", due.budget.as_millis()),
            ),
            e @ (FrameError::TooLarge { .. } | FrameError::Garbage(_)) => {
                ("protocol", format!("broke the worker protocol: {e} (the worker was killed)"))
            }
        };
        drop(worker);
        Fault { kind, message: format!("{reference}: its worker (pid {pid}) {cause} while {doing}; a new worker starts at its next call") }
    }

    fn protocol_fault(&self, generation: u64, what: &str, due: Due, doing: &str) -> Fault {
        self.fault(generation, FrameError::Garbage(what.to_string()), due, doing)
    }

    /// The `package.violation` kind and cause of a worker's end.
    fn death(&self, status: Option<ExitStatus>) -> (&'static str, String) {
        let l = &self.spec.limits;
        let Some(status) = status else {
            return ("worker", "closed its pipe and did not exit (it was killed)".to_string());
        };
        match status.signal() {
            Some(libc_signal::SIGSYS) => {
                ("seccomp", "was killed by SIGSYS: a seccomp violation (a system call outside the worker's allow-list)".to_string())
            }
            Some(libc_signal::SIGXCPU) => (
                "process.cpu",
                format!(
                    "was killed by SIGXCPU: it reached its CPU limit of {} s (RLIMIT_CPU, limits.processCpuSeconds)",
                    l.process_cpu_seconds
                ),
            ),
            Some(libc_signal::SIGKILL) => (
                "process.cpu",
                format!(
                    "was killed by SIGKILL: its hard CPU limit of {} s (RLIMIT_CPU, limits.processCpuSeconds) or the system's out-of-memory killer",
                    l.process_cpu_seconds + 1
                ),
            ),
            Some(libc_signal::SIGABRT) => (
                "process.memory",
                format!(
                    "aborted (SIGABRT): a native allocation failed at its address-space limit of {} bytes (RLIMIT_AS, limits.processMemoryBytes)",
                    l.process_memory_bytes
                ),
            ),
            Some(signal) => ("worker", format!("was killed by signal {signal}")),
            None => ("worker", format!("exited with status {}", status.code().unwrap_or(-1))),
        }
    }

    /// Arms a test hook for the worker's next call (starting a worker if none runs).
    pub fn arm(&self, hook: TestHook) -> Result<(), String> {
        let generation = self.ensure().map_err(|f| f.message)?;
        self.send(generation, &ToWorker::Hook { hook }, Due::after(Duration::from_secs(5)), "arming a test hook").map_err(|f| f.message)
    }

    /// Runs one call in the worker. `caller` is the package's caller (already cut down to its
    /// capabilities): every `host.invoke` the worker asks for runs as it, whatever the worker
    /// says. Limit failures are recorded as `package.violation` and returned as handler errors.
    pub fn call(
        &self,
        host: &Rc<dyn Host>,
        caller: &Caller,
        skill: &str,
        input: &Value,
        call: &CallInfo<'_>,
        secrets: Option<&PackageSecrets>,
    ) -> Result<Value, SkillFailure> {
        // What the worker sends into the engine never carries a secret it was handed.
        let redact_text = |text: &str| match secrets {
            Some(s) => s.redact_text(text),
            None => text.to_string(),
        };
        let redact_value = |value: Value| match secrets {
            Some(s) => s.redact_value(value),
            None => value,
        };
        let violation = |kind: &str, message: &str| {
            let payload = json!({"package": self.spec.reference, "skill": skill, "kind": kind, "message": message});
            host.record(&caller.agent_id, &caller.session_id, "package.violation", payload);
        };
        let fail = |fault: Fault| {
            let message = if fault.message.contains(skill) { fault.message } else { format!("{} (calling {skill})", fault.message) };
            if fault.kind != "load" {
                violation(fault.kind, &message);
            }
            SkillFailure { code: ErrorCode::HandlerError, message }
        };
        let generation = self.ensure().map_err(fail)?;
        let due = Due::after(call_backstop(self.spec.limits.cpu_ms));
        let ctx = CallCtx {
            agent_id: caller.agent_id.to_string(),
            session_id: caller.session_id.to_string(),
            profile: caller.profile.to_string(),
            tick: call.tick,
            decision_id: call.decision_id.map(str::to_string),
        };
        let doing = format!("running {skill}");
        self.send(generation, &ToWorker::Call { skill: skill.to_string(), input: input.clone(), ctx }, due, &doing).map_err(fail)?;
        let max = value_frame(self.spec.limits.value_bytes);
        loop {
            match self.receive(generation, max, due, &doing).map_err(fail)? {
                FromWorker::Invoke { skill: invoked, input } => {
                    let response = host.invoke_json(caller, &redact_text(&invoked), redact_value(input));
                    self.send(generation, &ToWorker::InvokeResult { response }, due, &doing).map_err(fail)?;
                }
                FromWorker::Secret { name } => {
                    let value = match secrets {
                        Some(s) => s.get(&name),
                        None => Err(format!("{} has no secrets", self.spec.reference)),
                    };
                    self.send(generation, &ToWorker::SecretResult { value }, due, &doing).map_err(fail)?;
                }
                FromWorker::Violation { kind, message } => {
                    // Only the runtime's own limit kinds; the text is the worker's, cut short.
                    let kind = match kind.as_str() {
                        "cpu" | "wall" | "memory" | "value" => kind,
                        _ => return Err(fail(self.protocol_fault(generation, &format!("violation kind {kind:?}"), due, &doing))),
                    };
                    violation(&kind, &redact_text(&cut(&message, 4096)));
                }
                FromWorker::Done { outcome, cpu_ms, rebuilds } => {
                    self.rebuilds_live.set(rebuilds);
                    if cpu_ms > self.spec.limits.process_cpu_seconds as f64 * 500.0 {
                        // Half its life's CPU is spent: a fresh worker takes the next call.
                        self.retire();
                    }
                    return match outcome {
                        Outcome::Ok { result } => Ok(result),
                        Outcome::Err { code, message } => {
                            Err(SkillFailure { code: ErrorCode::parse(&code).unwrap_or(ErrorCode::HandlerError), message })
                        }
                    };
                }
                other => {
                    let what = format!("it sent {} during a call", frame_name(&other));
                    return Err(fail(self.protocol_fault(generation, &what, due, &doing)));
                }
            }
        }
    }
}

fn frame_name(frame: &FromWorker) -> &'static str {
    match frame {
        FromWorker::Loaded { .. } => "Loaded",
        FromWorker::LoadFailed { .. } => "LoadFailed",
        FromWorker::Invoke { .. } => "Invoke",
        FromWorker::Secret { .. } => "Secret",
        FromWorker::Violation { .. } => "Violation",
        FromWorker::Done { .. } => "Done",
    }
}

fn cut(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

/// The exit status of a worker whose pipe closed, if it exits within `EXIT_GRACE`.
fn wait_briefly(child: &mut Child) -> Option<ExitStatus> {
    let until = Instant::now() + EXIT_GRACE;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(2)),
            _ => return None,
        }
    }
}

/// The signal numbers the cause of a worker's death is read from (Linux's; the same on the
/// architectures limina builds for).
mod libc_signal {
    pub const SIGABRT: i32 = 6;
    pub const SIGKILL: i32 = 9;
    pub const SIGXCPU: i32 = 24;
    pub const SIGSYS: i32 = 31;
}
