//! The second barrier: untrusted packages in confined worker processes (`packages::worker`).
//! The hostile-package suite in packages.rs runs both in process and in workers; these tests
//! check the worker itself: its confinement, its deaths, its protocol, and its cost.

use std::path::Path;
use std::time::Instant;

use limina::host::{Engine, EngineConfig, Output};
use limina::packages::worker::{Isolation, TestHook};
use limina::skills::ErrorCode;
use serde_json::{Value, json};

use crate::packages::{HANG_GUARD, call, events_of, within};

/// Untrusted and verified packages in workers run by the real binary.
pub(crate) fn workers() -> Isolation {
    Isolation::Workers { program: env!("CARGO_BIN_EXE_limina").into() }
}

pub(crate) fn engine_with(scripts: &Path, isolation: Isolation) -> Engine {
    let root = scripts.parent().unwrap().to_path_buf();
    Engine::new(EngineConfig {
        output: Output::Silent,
        scripts: Some(scripts.to_path_buf()),
        package_isolation: isolation,
        ..EngineConfig::new(root)
    })
    .unwrap()
}

const PROBE: &str = r#"
return { skills = {
    {
        name = "probe.echo", version = "1.0.0", category = "mods", description = "Echoes, with what it saw.",
        permissions = {}, input = s.object({ n = s.number():optional() }),
        output = s.object({ n = s.number():optional(), agent = s.string(), tick = s.number(), found = s.any() }),
        handler = function(input, ctx)
            local r = host.invoke("package.list", { name = "probe" })
            return { n = input.n, agent = ctx.agentId, tick = ctx.tick, found = r.success }
        end,
    },
    {
        name = "probe.nested", version = "1.0.0", category = "mods", description = "Calls its own package back.",
        permissions = {}, input = s.object({}), output = s.object({ inner = s.any() }),
        handler = function()
            local r = host.invoke("probe.echo", { n = 2 })
            return { inner = r.result }
        end,
    },
    {
        name = "probe.fine", version = "1.0.0", category = "mods", description = "Answers.",
        permissions = {}, input = s.object({}), output = s.object({ ok = s.boolean() }),
        handler = function() return { ok = true } end,
    },
} }
"#;

/// A world with one untrusted folder package, `probe`, whose manifest sets `limits`.
fn probe_world(limits: &str, isolation: Isolation) -> (tempfile::TempDir, Engine) {
    let dir = probe_files(limits);
    let e = engine_with(&dir.path().join("scripts"), isolation);
    assert!(e.registry().has("probe.fine"), "{:?}", e.mods().packages.iter().map(|p| (&p.status, p.reference())).collect::<Vec<_>>());
    (dir, e)
}

/// The files of `probe_world`; `limits` may be followed by more manifest fields.
fn probe_files(limits: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let scripts = dir.path().join("scripts");
    std::fs::create_dir_all(scripts.join("probe")).unwrap();
    std::fs::write(scripts.join("probe/package.luau"), format!(r#"return {{ name = "probe", version = "1.0.0", limits = {limits} }}"#))
        .unwrap();
    std::fs::write(scripts.join("probe/init.luau"), PROBE).unwrap();
    dir
}

/// The `package.list` row of `name`.
fn listed(e: &Engine, name: &str) -> Value {
    let list = call(e, "package.list", json!({})).result.unwrap();
    list["packages"].as_array().unwrap().iter().find(|p| p["name"] == name).cloned().unwrap()
}

fn worker_pid(e: &Engine, name: &str) -> u32 {
    let row = listed(e, name);
    assert_eq!(row["isolation"], "worker", "{row}");
    row["worker"]["pid"].as_u64().unwrap_or_else(|| panic!("no live worker: {row}")) as u32
}

/// One line of `/proc/<pid>/status` or `/proc/<pid>/limits`.
fn proc_line(pid: u32, file: &str, key: &str) -> String {
    let text = std::fs::read_to_string(format!("/proc/{pid}/{file}")).unwrap();
    text.lines().find(|l| l.starts_with(key)).unwrap_or_else(|| panic!("no {key} in /proc/{pid}/{file}:\n{text}")).to_string()
}

#[test]
fn an_untrusted_package_runs_in_a_confined_worker_and_answers_as_in_process() {
    within(HANG_GUARD, "worker confinement", || {
        let (_d, e) = probe_world("{ processMemoryBytes = 536870912, processCpuSeconds = 30, processFiles = 8 }", workers());
        let out = call(&e, "probe.echo", json!({"n": 7}));
        let pid = worker_pid(&e, "probe");
        assert_eq!(proc_line(pid, "status", "Seccomp:").split_whitespace().nth(1), Some("2"), "a seccomp filter is installed");
        assert_eq!(proc_line(pid, "status", "NoNewPrivs:").split_whitespace().nth(1), Some("1"));
        assert_eq!(proc_line(pid, "status", "Threads:").split_whitespace().nth(1), Some("1"), "the worker is single-threaded");
        let limits = |key: &str| proc_line(pid, "limits", key).split_whitespace().rev().skip(1).take(2).collect::<Vec<_>>().join(" ");
        assert_eq!(limits("Max address space"), "536870912 536870912", "soft and hard RLIMIT_AS");
        assert_eq!(limits("Max cpu time"), "31 30");
        assert_eq!(limits("Max open files"), "8 8");
        assert_eq!(limits("Max core file size"), "0 0");

        // The same package in process gives the same answers, and its row says where it runs.
        let (_d2, inproc) = probe_world("{}", Isolation::InProcess);
        assert_eq!(out.result, call(&inproc, "probe.echo", json!({"n": 7})).result);
        // A call back into its own package nests on the worker's stack, as in process.
        let nested = call(&e, "probe.nested", json!({}));
        assert_eq!(nested.result.as_ref().unwrap()["inner"]["n"], 2, "{nested:?}");
        assert_eq!(nested.result, call(&inproc, "probe.nested", json!({})).result);
        assert_eq!(out.result.unwrap()["found"], true, "host.invoke crossed the pipe");
        let row = listed(&inproc, "probe");
        assert_eq!((row["isolation"].clone(), row["worker"].clone()), (json!("in-process"), Value::Null));
    });
}

/// Calls `skill` expecting a handler error, then checks the engine steps and the package
/// answers again from a new worker. Returns the failure message.
fn killed(e: &Engine, pid: u32, skill: &str) -> String {
    let before = (e.world_hash(), e.tick());
    let r = call(e, skill, json!({}));
    let failure = r.error.unwrap_or_else(|| panic!("{skill} should fail, got {:?}", r.result));
    assert_eq!(failure.code, ErrorCode::HandlerError, "{}", failure.message);
    assert!(failure.message.contains(&format!("pid {pid}")) && failure.message.contains("probe@1.0.0"), "{}", failure.message);
    e.step(5).unwrap();
    assert_eq!((e.world_hash(), e.tick()), (before.0, before.1 + 5), "the engine keeps stepping");
    assert!(std::fs::metadata(format!("/proc/{pid}")).is_err(), "the old worker is gone (reaped)");
    assert_eq!(call(e, "probe.fine", json!({})).result, Some(json!({"ok": true})), "a new worker answers");
    assert_ne!(worker_pid(e, "probe"), pid, "a new worker");
    failure.message
}

fn last_violation(e: &Engine) -> Value {
    events_of(e, "package.violation").pop().expect("a package.violation event")
}

#[test]
fn a_forbidden_system_call_kills_the_worker_and_the_next_call_gets_a_new_one() {
    within(HANG_GUARD, "seccomp kill", || {
        let (_d, e) = probe_world("{}", workers());
        assert_eq!(call(&e, "probe.fine", json!({})).result, Some(json!({"ok": true})));
        let pid = worker_pid(&e, "probe");
        e.mods().runtime("probe").unwrap().arm_worker_hook(TestHook::ForbiddenSyscall).unwrap();
        let m = killed(&e, pid, "probe.fine");
        assert!(m.contains("SIGSYS") && m.contains("seccomp violation"), "{m}");
        let v = last_violation(&e);
        assert_eq!(
            (v["kind"].as_str(), v["package"].as_str(), v["skill"].as_str()),
            (Some("seccomp"), Some("probe@1.0.0"), Some("probe.fine"))
        );
        assert_eq!(listed(&e, "probe")["worker"]["restarts"], 1);
    });
}

#[test]
fn a_native_cpu_spin_ends_at_the_cpu_rlimit() {
    within(HANG_GUARD, "cpu rlimit", || {
        // A verified package with cpuMs 1000 has a wall backstop of 10 s, so RLIMIT_CPU (1 s)
        // ends a native spin first (the in-VM deadline cannot see it: no Luau instruction
        // runs) even when the worker gets only a tenth of a core.
        let d = probe_files("{ cpuMs = 1000, processCpuSeconds = 1 }, trust = \"verified\"");
        let scripts = d.path().join("scripts");
        crate::package_trust::grant(&scripts, "probe");
        let e = engine_with(&scripts, workers());
        assert_eq!(listed(&e, "probe")["trust"], "verified");
        call(&e, "probe.fine", json!({}));
        let pid = worker_pid(&e, "probe");
        e.mods().runtime("probe").unwrap().arm_worker_hook(TestHook::NativeSpin).unwrap();
        let m = killed(&e, pid, "probe.fine");
        assert!(m.contains("SIGXCPU") && m.contains("CPU limit of 1 s") && m.contains("limits.processCpuSeconds"), "{m}");
        assert_eq!(last_violation(&e)["kind"], "process.cpu");
    });
}

#[test]
fn a_native_memory_bomb_ends_at_the_address_space_rlimit() {
    within(HANG_GUARD, "memory rlimit", || {
        let (_d, e) = probe_world("{ processMemoryBytes = 268435456 }", workers());
        call(&e, "probe.fine", json!({}));
        let pid = worker_pid(&e, "probe");
        e.mods().runtime("probe").unwrap().arm_worker_hook(TestHook::NativeAllocate).unwrap();
        let m = killed(&e, pid, "probe.fine");
        assert!(m.contains("SIGABRT") && m.contains("address-space limit of 268435456 bytes"), "{m}");
        assert_eq!(last_violation(&e)["kind"], "process.memory");
    });
}

#[test]
fn a_worker_that_breaks_the_protocol_is_killed_and_replaced() {
    within(HANG_GUARD, "protocol attacks", || {
        // cpuMs 30: a 5 s wall backstop for the worker that never answers.
        let (_d, e) = probe_world("{ cpuMs = 30 }", workers());
        call(&e, "probe.fine", json!({}));
        for (hook, kind, says) in [
            (TestHook::GiantFrame, "protocol", "frame of 4294967295 bytes"),
            (TestHook::Garbage, "protocol", "not one of the protocol's"),
            (TestHook::OutOfOrder, "protocol", "it sent Loaded during a call"),
            (TestHook::Silence, "wall", "wall-clock backstop of 5000 ms"),
        ] {
            let pid = worker_pid(&e, "probe");
            e.mods().runtime("probe").unwrap().arm_worker_hook(hook).unwrap();
            let m = killed(&e, pid, "probe.fine");
            assert!(m.contains(says), "{hook:?}: {m}");
            assert_eq!(last_violation(&e)["kind"], kind, "{hook:?}");
        }
        assert_eq!(listed(&e, "probe")["worker"]["restarts"], 4);
    });
}

#[test]
fn a_package_that_fails_to_load_in_its_worker_says_why_like_in_process() {
    let dir = tempfile::tempdir().unwrap();
    let scripts = dir.path().join("scripts");
    std::fs::create_dir_all(&scripts).unwrap();
    std::fs::write(scripts.join("broken.luau"), "return { skills = {\n  { name = = 1 }\n} }\n").unwrap();
    std::fs::write(scripts.join("shy.luau"), "local x = string.rep('x', 10)\nerror('nope ' .. #x)\n").unwrap();
    let reasons = |isolation| {
        let e = engine_with(&scripts, isolation);
        let mut rows: Vec<String> = events_of(&e, "package.rejected").iter().map(|r| r["reason"].as_str().unwrap().to_string()).collect();
        rows.sort();
        rows
    };
    let inproc = reasons(Isolation::InProcess);
    assert_eq!(inproc.len(), 2, "{inproc:?}");
    assert!(inproc[1].contains("shy.luau:2") && inproc[1].contains("nope 10"), "{inproc:?}");
    assert_eq!(reasons(workers()), inproc);
}

/// Calls per second through a package skill, in process and in a worker (figures, no timing
/// assertions): `cargo test --release --test integration -- worker_call_overhead --nocapture`.
#[test]
fn worker_call_overhead() {
    let mut figures = Vec::new();
    for (label, isolation) in [("in-process", Isolation::InProcess), ("worker", workers())] {
        let start = Instant::now();
        let (_d, e) = probe_world("{}", isolation);
        figures.push(format!("{label:>10} engine start with one package: {:.1} ms", start.elapsed().as_secs_f64() * 1e3));
        for (skill, input) in [("probe.fine", json!({})), ("probe.echo", json!({"n": 1}))] {
            for _ in 0..20 {
                call(&e, skill, input.clone());
            }
            let n = 500;
            let start = Instant::now();
            for _ in 0..n {
                assert!(call(&e, skill, input.clone()).success);
            }
            let per = start.elapsed() / n;
            figures.push(format!(
                "{label:>10} {skill:<11} {:>8.1} µs/call {:>8.0} calls/s",
                per.as_secs_f64() * 1e6,
                1.0 / per.as_secs_f64()
            ));
        }
    }
    println!("package call overhead (probe.echo makes one host.invoke):\n{}", figures.join("\n"));
}

#[test]
fn untrusted_and_verified_packages_run_in_workers_and_local_ones_in_process() {
    within(HANG_GUARD, "tiers", || {
        let dir = tempfile::tempdir().unwrap();
        let scripts = dir.path().join("scripts");
        for (name, trust) in [("plain", "untrusted"), ("vouched", "verified"), ("mine", "local")] {
            std::fs::create_dir_all(scripts.join(name)).unwrap();
            std::fs::write(
                scripts.join(name).join("package.luau"),
                format!(r#"return {{ name = "{name}", version = "1.0.0", trust = "{trust}" }}"#),
            )
            .unwrap();
            std::fs::write(scripts.join(name).join("init.luau"), PROBE.replace("probe.", &format!("{name}."))).unwrap();
        }
        crate::package_trust::grant(&scripts, "vouched");
        crate::package_trust::grant(&scripts, "mine");
        let e = engine_with(&scripts, workers());
        for (name, trust, isolation) in
            [("plain", "untrusted", "worker"), ("vouched", "verified", "worker"), ("mine", "local", "in-process")]
        {
            let row = listed(&e, name);
            assert_eq!((row["trust"].as_str(), row["isolation"].as_str()), (Some(trust), Some(isolation)), "{row}");
            let nested = call(&e, &format!("{name}.nested"), json!({}));
            assert_eq!(nested.result.as_ref().map(|r| r["inner"]["n"].clone()), Some(json!(2)), "{name}: {nested:?}");
        }
    });
}

#[test]
fn the_worker_subcommand_is_hidden_and_refuses_to_run_by_hand() {
    let help = std::process::Command::new(env!("CARGO_BIN_EXE_limina")).arg("--help").output().unwrap();
    assert!(!String::from_utf8_lossy(&help.stdout).contains("package-worker"));
    let by_hand = std::process::Command::new(env!("CARGO_BIN_EXE_limina"))
        .arg(limina::packages::worker::WORKER_COMMAND)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(by_hand.status.code(), Some(1));
    let said = String::from_utf8_lossy(&by_hand.stderr);
    assert!(said.contains("cannot read its Load frame") && said.contains("started by the engine"), "{said}");
}

#[test]
fn a_hot_reload_replaces_the_worker_and_reaps_the_old_one() {
    within(HANG_GUARD, "worker reload", || {
        let dir = tempfile::tempdir().unwrap();
        let scripts = dir.path().join("scripts");
        std::fs::create_dir_all(&scripts).unwrap();
        let file = scripts.join("hot.luau");
        std::fs::write(&file, crate::packages::echo_mod("one")).unwrap();
        let e = Engine::new(EngineConfig {
            output: Output::Silent,
            scripts: Some(scripts.clone()),
            watch_scripts: true,
            package_isolation: workers(),
            ..EngineConfig::new(dir.path())
        })
        .unwrap();
        assert_eq!(call(&e, "hot.echo", json!({})).result, Some(json!({"v": "one"})));
        let first = worker_pid(&e, "hot");
        std::fs::write(&file, crate::packages::echo_mod("two")).unwrap();
        crate::packages::step_until(&e, "the edited handler", |e| call(e, "hot.echo", json!({})).result == Some(json!({"v": "two"})));
        let second = worker_pid(&e, "hot");
        assert_ne!(first, second, "the new version runs in a new worker");
        assert!(std::fs::metadata(format!("/proc/{first}")).is_err(), "the old worker is killed and reaped");
        std::fs::remove_file(&file).unwrap();
        crate::packages::step_until(&e, "the removal", |e| !e.registry().has("hot.echo"));
        assert!(std::fs::metadata(format!("/proc/{second}")).is_err(), "an unloaded package's worker is gone");
    });
}

#[test]
fn a_worker_program_that_is_not_a_worker_refuses_the_package_clearly() {
    within(HANG_GUARD, "not a worker", || {
        for (program, says) in [("/bin/true", "exited with status 0 while loading"), ("/nonexistent/limina", "cannot start its worker")] {
            let dir = tempfile::tempdir().unwrap();
            let scripts = dir.path().join("scripts");
            std::fs::create_dir_all(&scripts).unwrap();
            std::fs::write(scripts.join("lonely.luau"), crate::packages::echo_mod("x")).unwrap();
            let e = engine_with(&scripts, Isolation::Workers { program: program.into() });
            let refused = events_of(&e, "package.rejected");
            assert_eq!(refused.len(), 1, "{refused:?}");
            assert_eq!(refused[0]["rule"], "load.failed");
            assert!(refused[0]["reason"].as_str().unwrap().contains(says), "{program}: {}", refused[0]);
            e.step(3).unwrap();
            assert!(!e.registry().has("hot.echo"));
        }
    });
}

#[test]
fn a_well_behaved_package_leaves_the_same_trace_in_a_worker_as_in_process() {
    within(HANG_GUARD, "same trace", || {
        let run = |isolation| {
            let (_d, e) = probe_world("{}", isolation);
            for n in 0..3 {
                call(&e, "probe.echo", json!({"n": n}));
                call(&e, "probe.nested", json!({}));
                e.step(2).unwrap();
            }
            let kinds: Vec<String> = e.trace().durable().map(Result::unwrap).map(|ev| ev.event_type.to_string()).collect();
            (kinds, e.world_hash())
        };
        let (inproc, worker) = (run(Isolation::InProcess), run(workers()));
        assert!(inproc.0.len() > 10, "{:?}", inproc.0);
        assert_eq!(worker, inproc);
    });
}
