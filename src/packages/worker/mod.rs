//! The second barrier: packages that run out of process.
//!
//! The first barrier is the restricted VM (`sandbox.rs`); a bug in Luau, mlua or the host code
//! bound into the VM would breach it with the engine's whole authority. So an **untrusted**
//! package runs in a worker: the same `limina` binary started as `limina __package-worker`,
//! one per package, holding that package's VM and nothing else. Before any package code runs,
//! the worker confines itself (`confine.rs`): rlimits on address space, CPU time and open files
//! (per trust tier, raised or lowered by the manifest's `limits.process*` within the tier's
//! bounds), no new privileges, and a seccomp-bpf allow-list of what it needs to compute —
//! its pipes, memory, futexes, clocks — so no `open`, no `socket`, no `exec`. It cannot read the
//! project, reach the network, or start anything; all it can do is answer over its pipes.
//!
//! **Tiers.** `untrusted` and `verified` run in workers: a verified package is one the operator
//! vouched for, not one whose every dependency is free of bugs, and a worker costs a round trip
//! per call (see docs/sandbox.md for figures), not a feature. `local` packages — the operator's
//! own code — stay in process. `Isolation::InProcess` runs every package in process: embedders
//! that are not the `limina` binary, platforms without seccomp, or an operator's
//! `LIMINA_PACKAGE_WORKER=off`.
//!
//! **Same semantics.** The worker builds the package's `PackageRuntime` with the code the engine
//! would run in process, so results, errors and `package.violation` events are the same for a
//! well-behaved package; `host.invoke` crosses the pipe and runs in the engine through the same
//! registry and policy, as the caller the engine holds for the call (the worker never names
//! one). What differs: a skill the package invokes runs in the engine's process, so its CPU time
//! counts against the call's wall-clock backstop only, not its CPU deadline.
//!
//! **Failure.** A worker that violates the filter or a limit dies; the call fails naming the
//! package, the pid and the cause (`client.rs`), a `package.violation` records it, the engine
//! keeps stepping, and the next call starts a new worker.

mod client;
mod confine;
mod process;
pub(crate) mod protocol;

use std::path::{Path, PathBuf};

pub(crate) use client::Client;
pub use client::{WORKER_COMMAND, WorkerInfo};
pub use process::serve;
pub use protocol::TestHook;

use super::manifest::Trust;

/// Where packages run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Isolation {
    /// Every package in the engine's process (its restricted VM is the only barrier).
    InProcess,
    /// `untrusted` and `verified` packages in workers run as `program __package-worker`.
    Workers { program: PathBuf },
}

/// The environment variable that turns workers off (`off`).
pub const WORKER_ENV: &str = "LIMINA_PACKAGE_WORKER";

/// Set by the `limina` command line at start-up: this executable answers `__package-worker`,
/// whatever its file is called (a renamed or versioned binary keeps the barrier).
static SERVES_WORKERS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

impl Isolation {
    /// Called by the `limina` command line before anything else: workers can be this very
    /// executable.
    pub fn this_executable_serves_workers() {
        SERVES_WORKERS.store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// The default: workers run by this very executable when it is the `limina` command line
    /// on Linux, unless `LIMINA_PACKAGE_WORKER=off`. Any other program linking the engine
    /// (tests, an embedder) runs packages in process unless it names a worker program.
    pub fn from_environment() -> Self {
        if !cfg!(target_os = "linux") || std::env::var(WORKER_ENV).is_ok_and(|v| v.eq_ignore_ascii_case("off")) {
            return Isolation::InProcess;
        }
        match std::env::current_exe() {
            Ok(exe) if SERVES_WORKERS.load(std::sync::atomic::Ordering::Relaxed) => Isolation::Workers { program: exe },
            _ => Isolation::InProcess,
        }
    }

    /// The worker program a package of `tier` runs in, if it runs out of process.
    pub(crate) fn worker_for(&self, tier: Trust) -> Option<&Path> {
        match (self, tier) {
            (Isolation::Workers { program }, Trust::Untrusted | Trust::Verified) => Some(program),
            _ => None,
        }
    }
}
