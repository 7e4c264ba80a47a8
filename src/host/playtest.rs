//! Playtests (`test.run`): a `limina test` file run against a scratch copy of the live world,
//! answered in the shape agents know from Roblox playtests (`success`, counts, per-test
//! results with file and line, logs, duration, `isTimeout`).
//!
//! The scratch engine is a fresh engine (its own VM, registry, trace and policy) whose world is
//! an exact duplicate of the live one at the live tick (`World::duplicate`), so the test sees
//! the world as it is and nothing it does reaches the live world. Test code is untrusted here: it
//! runs under a deadline (the VM's interrupt, which `pcall` cannot swallow) and a memory limit.
//! `run` needs nothing of the live engine but the copy and two paths, so it runs on whichever
//! thread calls it: the heavy-work thread for a call that can wait (`skills::deferred`; the
//! scratch engine is made and dropped there), else the engine thread, where the world waits for
//! it (`timeoutMs` bounds that).

use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::Instant;

use serde_json::{Value, json};

use super::{CapturedOutput, Engine, EngineConfig, Output, TestLimits, TestStatus, TestTally};
use crate::skills::core::{Playtest, PlaytestDoor, TestFile};
use crate::world::World;

/// Memory the scratch VM may use. (Time and source size are bounded by `test.run`'s schema.)
const MEMORY_LIMIT: usize = 256 << 20;
/// Bytes (roughly) the scratch engine's world log may hold; past it the test code is stopped.
const TRACE_BUDGET: usize = 64 << 20;
/// Chunk name of inline sources (results' `file`).
const INLINE_NAME: &str = "test.run";

/// Runs `test` against `world` (a copy of the live one) at `tick`; `project` and `scripts`
/// configure the scratch engine like `limina test` would.
pub(crate) fn run(project: &Path, scripts: Option<&Path>, world: World, tick: u64, test: &Playtest) -> Value {
    let started = Instant::now();
    let deadline = started + test.timeout;
    let timed_out = Rc::new(Cell::new(false));
    // Exports, snapshots and scene saves go to a private folder, removed afterwards: a playtest
    // leaves no files behind (and cannot overwrite the project's own trace exports, snapshots or
    // scenes). Its scene loads look there first, then in the project.
    let traces = ScratchDir::new();
    let extra_roots = match &test.file {
        TestFile::Path(p) => p.parent().map(|d| vec![d.to_path_buf()]).unwrap_or_default(),
        TestFile::Source(_) => Vec::new(),
    };
    let config = EngineConfig {
        test_kit: true,
        output: Output::Capture,
        extra_roots,
        traces_dir: Some(traces.path.clone()),
        snapshots_dir: Some(traces.path.join("snapshots")),
        scene_saves: Some(traces.path.clone()),
        // A playtest's agents reach no model: a copy of the world must not spend the operator's
        // provider budget or keys. Their decisions fail honestly (`agent.decision.failed`).
        providers: Some(offline_providers()),
        scripts: scripts.map(Path::to_path_buf),
        ..EngineConfig::new(project)
    };
    let engine = match Engine::new(config) {
        Ok(engine) => engine,
        Err(e) => {
            return report(
                &[],
                TestTally::default(),
                None,
                Some(format!("the scratch engine did not start: {e}")),
                String::new(),
                started,
                false,
            );
        }
    };
    engine.adopt_world(world, tick);
    let lua = engine.lua();
    let _ = lua.set_memory_limit(MEMORY_LIMIT);
    engine.set_deadline(deadline, format!("test.run timed out after {} ms", test.timeout.as_millis()), Rc::clone(&timed_out), TRACE_BUDGET);
    let (display, loaded) = match &test.file {
        TestFile::Path(path) => (path.strip_prefix(project).unwrap_or(path).display().to_string(), engine.run_file(path).map(drop)),
        TestFile::Source(source) => (INLINE_NAME.to_string(), engine.run_source(source, INLINE_NAME).map(drop)),
    };
    let logs = || {
        lua.app_data_ref::<CapturedOutput>()
            .map(|c| if c.dropped > 0 { format!("{}… ({} more bytes not kept)\n", c.text, c.dropped) } else { c.text.clone() })
            .unwrap_or_default()
    };
    if let Err(e) = loaded {
        let message = clip(&e.to_string());
        let timed_out = timed_out.get() || Instant::now() >= deadline;
        return report(
            &[],
            TestTally::default(),
            Some(&display),
            Some(format!("the test file failed to load: {message}")),
            logs(),
            started,
            timed_out,
        );
    }
    let filter = test.filter.clone();
    // Time can also run out inside a long `limina.step`, which stops between steps.
    let timed_out = || timed_out.get() || Instant::now() >= deadline;
    let outcomes = engine.run_tests_within(move |name| filter.as_ref().is_none_or(|f| name.contains(f.as_str())), TestLimits::PLAYTEST);
    match outcomes {
        Ok((outcomes, tally)) => {
            let results: Vec<Value> = outcomes
                .iter()
                .map(|o| {
                    let (file, line) = o.message.as_deref().and_then(location).unwrap_or((display.clone(), None));
                    json!({
                        "name": o.name,
                        "ok": o.status == TestStatus::Pass,
                        "skipped": o.status == TestStatus::Skip,
                        "message": o.message.clone().unwrap_or_default(),
                        "file": file,
                        "line": line,
                    })
                })
                .collect();
            report(&results, tally, Some(&display), None, logs(), started, timed_out())
        }
        Err(e) => {
            let message = clip(&e.message);
            report(
                &[],
                TestTally::default(),
                Some(&display),
                Some(format!("the tests could not run: {message}")),
                logs(),
                started,
                timed_out(),
            )
        }
    }
}

/// Provider settings that reach nothing: the base URLs are not http(s), so an HTTP decision
/// fails at setup with the URL in its reason.
fn offline_providers() -> crate::agents::provider::ProvidersConfig {
    let mut config = crate::agents::provider::ProvidersConfig::default();
    config.ollama.base_url = "offline://playtests-reach-no-model".into();
    config.openai.base_url = "offline://playtests-reach-no-model".into();
    config.openai.api_key = None;
    config
}

/// A folder of its own under the system temp dir, removed when dropped.
struct ScratchDir {
    path: PathBuf,
}

impl ScratchDir {
    /// A new folder with an unguessable name, created here (so nobody can have planted a link
    /// under that name) and readable by this user only.
    fn new() -> Self {
        let base = std::env::temp_dir();
        for _ in 0..8 {
            let name = crate::unguessable::hex(12);
            let path = base.join(format!("limina-playtest-{name}"));
            let mut builder = std::fs::DirBuilder::new();
            #[cfg(unix)]
            std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
            if builder.create(&path).is_ok() {
                return Self { path };
            }
        }
        // Could not make one: exports then fail (nothing can be made under /dev/null), nothing
        // else does.
        Self { path: PathBuf::from("/dev/null/limina-playtest") }
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// At most `TestLimits::PLAYTEST.text` bytes of an error (its text comes from test code).
fn clip(text: &str) -> String {
    crate::clip::to_bytes(text, TestLimits::PLAYTEST.text).to_string()
}

/// `file.lua:12: ...` at the start of a failure message: the file and line it names.
fn location(message: &str) -> Option<(String, Option<u64>)> {
    let head = message.split_whitespace().next()?;
    let mut parts = head.trim_end_matches(':').rsplitn(2, ':');
    let line = parts.next()?.parse::<u64>().ok()?;
    let file = parts.next()?;
    (file.ends_with(".lua") || file.ends_with(".luau") || file == INLINE_NAME).then(|| (file.to_string(), Some(line)))
}

fn report(
    results: &[Value],
    tally: TestTally,
    file: Option<&str>,
    error: Option<String>,
    logs: String,
    started: Instant,
    timed_out: bool,
) -> Value {
    let failed = tally.failed + usize::from(error.is_some());
    let mut results = results.to_vec();
    if let Some(message) = error {
        // A file that fails to load (or times out while loading) is one failed result, so an
        // agent reads why in the same place as any failure.
        let (at, line) = location(&message).unwrap_or((file.unwrap_or(INLINE_NAME).to_string(), None));
        results.push(json!({"name": "(load)", "ok": false, "skipped": false, "message": message, "file": at, "line": line}));
    }
    let mut report = json!({
        "success": failed == 0 && !timed_out,
        "passed": tally.passed,
        "failed": failed,
        "skipped": tally.skipped,
        "results": results,
        "logs": logs,
        "durationMs": started.elapsed().as_secs_f64() * 1e3,
        "isTimeout": timed_out,
    });
    let shown = results_len(&report);
    if shown < tally.passed + failed + tally.skipped {
        report["resultsOmitted"] = json!(tally.passed + failed + tally.skipped - shown);
    }
    report
}

fn results_len(report: &Value) -> usize {
    report["results"].as_array().map_or(0, Vec::len)
}

/// `test.run`'s way to the scratch engines (the skill sits below the engine it would build).
#[derive(Debug)]
pub(crate) struct ScratchPlaytests;

impl PlaytestDoor for ScratchPlaytests {
    fn run(&self, project: &Path, scripts: Option<&Path>, world: World, tick: u64, test: &Playtest) -> Value {
        run(project, scripts, world, tick, test)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failure_messages_give_their_location() {
        assert_eq!(location("tests/lua/x_test.lua:12: expected 1, got 2"), Some(("tests/lua/x_test.lua".into(), Some(12))));
        assert_eq!(location("test.run:3: boom"), Some(("test.run".into(), Some(3))));
        assert_eq!(location("no location here"), None);
    }

    /// The scratch copy is exact: stepping it and the original gives the same hashes, with
    /// dynamic bodies resting in contact (so the solver's cached contacts matter).
    #[test]
    fn a_duplicated_world_steps_exactly_like_the_original() {
        let config = || EngineConfig { output: Output::Silent, ..EngineConfig::new(env!("CARGO_MANIFEST_DIR")) };
        let live = Engine::new(config()).unwrap();
        live.run_source(
            r#"
            limina.call("scene.createEntity", { shape = "box", size = 20, position = { 0, -10, 0 }, static = true })
            for i = 0, 23 do
                limina.call("scene.createEntity", { shape = "sphere", dynamic = true, position = { (i % 6) * 0.9, 0.5 + math.floor(i / 6) * 0.95, 0 } })
            end
            local gone = limina.call("scene.createEntity", {}).result.entity
            limina.call("scene.destroyEntity", { entity = gone })
            "#,
            "setup",
        )
        .unwrap();
        live.step(40).unwrap();
        let scratch = Engine::new(config()).unwrap();
        scratch.adopt_world(live.world().duplicate(), live.tick());
        assert_eq!(scratch.world_hash(), live.world_hash(), "the copy hashes like the original");
        live.step(90).unwrap();
        scratch.step(90).unwrap();
        assert_eq!(scratch.world_hash(), live.world_hash(), "and steps exactly like it");
        // Ids continue where the original's would.
        let next = |e: &Engine| e.run_source(r#"return limina.call("scene.createEntity", {}).result.entity"#, "next").unwrap();
        assert_eq!(format!("{:?}", next(&scratch)), format!("{:?}", next(&live)));
    }
}
