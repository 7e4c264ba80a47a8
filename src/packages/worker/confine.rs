//! Confining a package worker before it runs any package code: rlimits, no new privileges, and
//! a seccomp-bpf allow-list.
//!
//! Order matters. The worker has already read everything it needs (its `Load` frame carries the
//! package's files) and is single-threaded. Then:
//!
//! 1. **rlimits**, hard and soft alike (it may not raise them again): `RLIMIT_AS` (address
//!    space: `limits.processMemoryBytes`), `RLIMIT_CPU` (CPU seconds over the worker's life,
//!    `limits.processCpuSeconds`; `SIGXCPU` at the soft limit, `SIGKILL` one second later),
//!    `RLIMIT_NOFILE` (`limits.processFiles`) and `RLIMIT_CORE` 0 (a killed worker writes no
//!    core file).
//! 2. **no new privileges** (`PR_SET_NO_NEW_PRIVS`), which seccomp requires of an unprivileged
//!    process anyway.
//! 3. **the filter**: the system calls below are allowed, anything else kills the process
//!    (`SECCOMP_RET_KILL_PROCESS`: the engine sees the worker end by `SIGSYS`). `read` and
//!    `write` (and their vector forms) only on descriptors 0–2. No `open`, no
//!    `socket`, no `execve`, no `fork` or `clone` (so no threads either), no `ptrace`, no
//!    `prlimit64`. Memory may be mapped and protected but never executable, and `tgkill` reaches
//!    only the worker itself (`abort()` raises `SIGABRT` that way).
//!
//! The list is what the Rust runtime, mlua and Luau may need after start-up on Linux. Running
//! the hostile-package suites in workers under `strace -f` showed only `read`, `write`, `brk`,
//! `mmap`, `munmap`, `mremap`, `futex`, `clock_gettime` and `getrandom` after the filter; the
//! rest is what the allocator under pressure, `abort()`, a sleeping thread and exit use.

use crate::packages::manifest::Limits;

#[derive(Debug, thiserror::Error)]
pub(crate) enum ConfineError {
    #[error("setrlimit({resource}, {value}): {source}")]
    Rlimit { resource: &'static str, value: u64, source: std::io::Error },
    #[error("cannot set no-new-privileges: {0}")]
    NoNewPrivs(std::io::Error),
    #[error("cannot build or install the seccomp filter: {0}")]
    Filter(String),
    #[error("this platform has no seccomp: run packages in process (LIMINA_PACKAGE_WORKER=off)")]
    #[cfg_attr(target_os = "linux", allow(dead_code, reason = "only non-Linux builds refuse to confine"))]
    Unsupported,
}

/// Confines the calling process (see the module doc). Call it once, single-threaded, before
/// any package code runs.
#[cfg(target_os = "linux")]
pub(crate) fn confine(limits: &Limits) -> Result<(), ConfineError> {
    use rustix::process::{Resource, Rlimit, setrlimit};
    let set = |resource: Resource, name: &'static str, soft: u64, hard: u64| {
        setrlimit(resource, Rlimit { current: Some(soft), maximum: Some(hard) }).map_err(|e| ConfineError::Rlimit {
            resource: name,
            value: soft,
            source: e.into(),
        })
    };
    set(Resource::Core, "RLIMIT_CORE", 0, 0)?;
    set(Resource::As, "RLIMIT_AS", limits.process_memory_bytes, limits.process_memory_bytes)?;
    set(Resource::Cpu, "RLIMIT_CPU", limits.process_cpu_seconds, limits.process_cpu_seconds + 1)?;
    set(Resource::Nofile, "RLIMIT_NOFILE", limits.process_files, limits.process_files)?;
    rustix::thread::set_no_new_privs(true).map_err(|e| ConfineError::NoNewPrivs(e.into()))?;
    let program = filter(std::process::id())?;
    seccompiler::apply_filter(&program).map_err(|e| ConfineError::Filter(e.to_string()))
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn confine(_limits: &Limits) -> Result<(), ConfineError> {
    Err(ConfineError::Unsupported)
}

/// The allow-list, compiled for this architecture. `pid` is the worker's own (for `tgkill`).
#[cfg(target_os = "linux")]
fn filter(pid: u32) -> Result<seccompiler::BpfProgram, ConfineError> {
    use std::collections::BTreeMap;

    use seccompiler::{SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter, SeccompRule};

    let fail = |e: seccompiler::BackendError| ConfineError::Filter(e.to_string());
    let anyhow = [
        libc::SYS_close,
        // The allocator.
        libc::SYS_brk,
        libc::SYS_munmap,
        libc::SYS_mremap,
        libc::SYS_madvise,
        // Locks and clocks (the meter reads this thread's CPU time).
        libc::SYS_futex,
        libc::SYS_clock_gettime,
        libc::SYS_clock_getres,
        libc::SYS_clock_nanosleep,
        libc::SYS_nanosleep,
        libc::SYS_sched_yield,
        libc::SYS_getrandom,
        // Signals and the end.
        libc::SYS_rt_sigreturn,
        libc::SYS_rt_sigprocmask,
        libc::SYS_rt_sigaction,
        libc::SYS_sigaltstack,
        libc::SYS_getpid,
        libc::SYS_gettid,
        libc::SYS_exit,
        libc::SYS_exit_group,
    ];
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = anyhow.iter().map(|n| (*n, Vec::new())).collect();
    // Mapping and protecting memory, never executable.
    let no_exec = || -> Result<Vec<SeccompRule>, ConfineError> {
        let c = SeccompCondition::new(2, SeccompCmpArgLen::Qword, SeccompCmpOp::MaskedEq(libc::PROT_EXEC as u64), 0).map_err(fail)?;
        Ok(vec![SeccompRule::new(vec![c]).map_err(fail)?])
    };
    // Reading and writing its pipes (stdin, stdout) and stderr (`print`, logs) only: a
    // descriptor the engine itself inherited without close-on-exec (from a shell, a harness)
    // reaches the worker too, and must not become a way out.
    for call in [libc::SYS_read, libc::SYS_write, libc::SYS_readv, libc::SYS_writev] {
        let stdio = SeccompCondition::new(0, SeccompCmpArgLen::Dword, SeccompCmpOp::Le, 2).map_err(fail)?;
        rules.insert(call, vec![SeccompRule::new(vec![stdio]).map_err(fail)?]);
    }
    rules.insert(libc::SYS_mmap, no_exec()?);
    rules.insert(libc::SYS_mprotect, no_exec()?);
    // Signals to itself only.
    let own = SeccompCondition::new(0, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, pid as u64).map_err(fail)?;
    rules.insert(libc::SYS_tgkill, vec![SeccompRule::new(vec![own]).map_err(fail)?]);
    let arch = std::env::consts::ARCH.try_into().map_err(fail)?;
    let filter = SeccompFilter::new(rules, SeccompAction::KillProcess, SeccompAction::Allow, arch).map_err(fail)?;
    filter.try_into().map_err(fail)
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn the_filter_compiles_for_this_architecture() {
        let program = filter(1234).unwrap();
        assert!(program.len() > 20, "{} instructions", program.len());
    }
}
