//! `limina test [PATH…] [--filter PAT]`: run Luau test files, each in a fresh engine.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use super::{CliError, CliResult};
use crate::host::{Engine, EngineConfig, TestStatus};

#[derive(Debug, Args)]
pub struct TestArgs {
    /// Test files or folders (default: tests/lua).
    pub paths: Vec<PathBuf>,
    /// Only run tests whose file path or name contains PAT.
    #[arg(long, value_name = "PAT")]
    pub filter: Option<String>,
}

/// Totals of a test run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TestReport {
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
}

impl TestReport {
    pub fn summary_line(&self) -> String {
        let mut line = format!("{} passed, {} failed", self.passed, self.failed);
        if self.skipped > 0 {
            line.push_str(&format!(", {} skipped", self.skipped));
        }
        line
    }
}

pub(crate) fn run(args: &TestArgs) -> CliResult {
    let project = super::project_root();
    let paths = if args.paths.is_empty() { vec![project.join("tests/lua")] } else { args.paths.clone() };
    let mut out = std::io::stdout().lock();
    let report = run_tests(&project, super::scripts_root(None).as_deref(), &paths, args.filter.as_deref(), &mut out);
    // Each failure is on stdout already, with the summary line.
    if report.failed > 0 { Err(CliError::Reported) } else { Ok(()) }
}

/// Discovers `*.lua`/`*.luau` files under `paths` (sorted) and runs each in a fresh engine for
/// `project` (with the mods under `scripts`, if any), writing one line per test and the summary
/// line last.
pub fn run_tests(project: &Path, scripts: Option<&Path>, paths: &[PathBuf], filter: Option<&str>, out: &mut dyn Write) -> TestReport {
    let mut report = TestReport::default();
    let mut files = Vec::new();
    for path in paths {
        if !path.exists() {
            let _ = writeln!(out, "FAIL {} (no such file or folder)", path.display());
            report.failed += 1;
            continue;
        }
        collect(path, &mut files);
    }
    for file in files {
        run_file(project, scripts, &file, filter, out, &mut report);
    }
    let _ = writeln!(out, "{}", report.summary_line());
    report
}

fn collect(path: &Path, files: &mut Vec<PathBuf>) {
    if path.is_file() {
        files.push(path.to_path_buf());
        return;
    }
    let Ok(entries) = std::fs::read_dir(path) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for entry in entries {
        if entry.is_dir() {
            collect(&entry, files);
        } else if entry.extension().is_some_and(|e| e == "lua" || e == "luau") {
            files.push(entry);
        }
    }
}

fn run_file(project: &Path, scripts: Option<&Path>, file: &Path, filter: Option<&str>, out: &mut dyn Write, report: &mut TestReport) {
    let display = file.strip_prefix(project).unwrap_or(file).display().to_string();
    let extra_roots = file.parent().map(|p| vec![p.to_path_buf()]).unwrap_or_default();
    let config = EngineConfig { test_kit: true, extra_roots, scripts: scripts.map(Path::to_path_buf), ..EngineConfig::new(project) };
    let load_failed = |out: &mut dyn Write, report: &mut TestReport, message: &str| {
        let _ = writeln!(out, "FAIL {display} (file failed to load)\n     {message}");
        report.failed += 1;
    };
    let engine = match Engine::new(config) {
        Ok(engine) => engine,
        Err(e) => return load_failed(out, report, &e.to_string()),
    };
    if let Err(e) = engine.run_file(file) {
        return load_failed(out, report, &e.to_string());
    }
    // The filter applies to "file :: name"; tests that don't match are not run.
    let prefix = format!("{display} :: ");
    let filter = filter.map(str::to_string);
    let outcomes = match engine.run_tests(move |name| filter.as_ref().is_none_or(|f| format!("{prefix}{name}").contains(f.as_str()))) {
        Ok(outcomes) => outcomes,
        Err(e) => return load_failed(out, report, &e.message),
    };
    for outcome in outcomes {
        let full = format!("{display} :: {}", outcome.name);
        match outcome.status {
            TestStatus::Pass => {
                report.passed += 1;
                let _ = writeln!(out, "ok   {full}");
            }
            TestStatus::Skip => {
                report.skipped += 1;
                let _ = writeln!(out, "skip {full}");
            }
            TestStatus::Fail => {
                report.failed += 1;
                let message = outcome.message.unwrap_or_default();
                let _ = writeln!(out, "FAIL {full}");
                for line in message.lines() {
                    let _ = writeln!(out, "     {line}");
                }
            }
        }
    }
}
