//! `limina packages search | info | install | update | remove | publish | keygen`: the registry
//! commands (src/packages/registry, docs/registries.md). Approval is a y/N prompt on a terminal;
//! without one, `--yes` is the only way to approve, so a script never installs by accident.

use std::io::{IsTerminal as _, Read as _};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use semver::{Version, VersionReq};

use super::{CliError, CliResult};
use crate::host::EngineConfig;
use crate::packages::registry::fetch::Fetcher;
use crate::packages::registry::keys::SecretKey;
use crate::packages::registry::lock::Lock;
use crate::packages::registry::ops::{self, Approval, Approver, Project, Request};
use crate::packages::registry::{RegistryError, config};

impl From<RegistryError> for CliError {
    fn from(e: RegistryError) -> Self {
        match e {
            RegistryError::Usage(_) => CliError::usage(e),
            _ => CliError::failed(e),
        }
    }
}

fn project(scripts: &Path) -> Result<Project, CliError> {
    let root = super::project_root();
    let registries = config::read(&root)?;
    Ok(Project {
        root: root.clone(),
        scripts: scripts.to_path_buf(),
        registries,
        profile: EngineConfig::new(root).profile.as_str().to_string(),
    })
}

struct Prompt {
    yes: bool,
}

/// What the operator is shown for one package asked about: the same lines in the y/N prompt
/// and in `packages browse`'s approval dialog.
pub(super) fn approval_lines(a: &Approval) -> Vec<String> {
    let list = |v: &[String]| if v.is_empty() { "none".to_string() } else { v.join(", ") };
    let what = if a.kind == crate::packages::registry::index::PackageKind::Instruction { "gated tools" } else { "capabilities (resolved)" };
    vec![
        format!("{} from registry '{}' ({}): {}", a.reference, a.registry, a.kind, a.why),
        format!("  trust tier: {}", a.tier.as_str()),
        format!("  {what}: {}", list(&a.capabilities)),
        format!("  secrets: {}", list(&a.secrets)),
        format!("  dependencies: {}", list(&a.dependencies)),
    ]
}

impl Approver for Prompt {
    fn approve(&mut self, asks: &[Approval]) -> bool {
        for a in asks {
            for line in approval_lines(a) {
                outln!("{line}");
            }
        }
        if self.yes {
            outln!("approved (--yes)");
            return true;
        }
        if !std::io::stdin().is_terminal() {
            eprintln!("not approved: standard input is not a terminal; pass --yes to approve in a script");
            return false;
        }
        print!("install? [y/N] ");
        let _ = std::io::Write::flush(&mut std::io::stdout());
        let mut answer = String::new();
        let _ = std::io::stdin().read_line(&mut answer);
        matches!(answer.trim(), "y" | "Y" | "yes")
    }
}

fn request(text: &str) -> Result<Request, CliError> {
    let (name, range) = match text.split_once('@') {
        Some((n, r)) => {
            let range = VersionReq::parse(r).map_err(|e| CliError::usage(format_args!("{text}: '{r}' is not a version or range ({e})")))?;
            (n, Some(range))
        }
        None => (text, None),
    };
    Ok(Request { name: name.to_string(), range, force_approval: false })
}

fn report(done: &[ops::Done]) {
    for d in done {
        let how = if d.changed { "installed" } else { "already installed" };
        outln!("{}: {how} from '{}', trust {}", d.reference, d.registry, d.tier.as_str());
    }
}

pub(super) fn search(scripts: &Path, query: &str) -> CliResult {
    let project = project(scripts)?;
    let (found, problems) = ops::search(&project, &mut Fetcher::new(), query)?;
    for (registry, name, e) in &found {
        let shown = crate::clip::shown(&e.description);
        outln!("{:<24} {:<10} {:<12} {}", format!("{name}@{}", e.version), e.kind, registry, shown);
    }
    if found.is_empty() {
        outln!("no package matches '{query}'");
    }
    // What could not be searched is said, and fails the command, after what could.
    for p in &problems {
        eprintln!("error: {p}");
    }
    if problems.is_empty() { Ok(()) } else { Err(CliError::Reported) }
}

pub(super) fn info(scripts: &Path, name: &str) -> CliResult {
    let project = project(scripts)?;
    let found = ops::info(&project, &mut Fetcher::new(), name)?;
    let value: Vec<serde_json::Value> =
        found.iter().map(|(r, idx)| serde_json::json!({"registry": r, "name": idx.name, "versions": idx.versions})).collect();
    outln!("{}", serde_json::to_string_pretty(&value).unwrap_or_default());
    Ok(())
}

pub(super) fn install(scripts: &Path, names: &[String], yes: bool) -> CliResult {
    let project = project(scripts)?;
    let requests: Vec<Request> = if names.is_empty() {
        let lock = Lock::read(&project.root)?;
        lock.packages.iter().map(|l| Request { name: l.name.clone(), range: None, force_approval: false }).collect()
    } else {
        names.iter().map(|n| request(n)).collect::<Result<_, _>>()?
    };
    if requests.is_empty() {
        outln!("nothing to install: name a package, or install from a limina.lock");
        return Ok(());
    }
    let done = ops::install(&project, &mut Fetcher::new(), &requests, &mut Prompt { yes })?;
    report(&done);
    Ok(())
}

pub(super) fn update(scripts: &Path, name: Option<&str>, to: Option<&str>, yes: bool) -> CliResult {
    let project = project(scripts)?;
    let to = to.map(|t| Version::parse(t).map_err(|e| CliError::usage(format_args!("--to '{t}' is not a version ({e})")))).transpose()?;
    if to.is_some() && name.is_none() {
        return Err(CliError::usage("--to needs a package name: limina packages update NAME --to VERSION"));
    }
    let (done, held) = ops::update(&project, &mut Fetcher::new(), name, to.as_ref(), &mut Prompt { yes })?;
    report(&done);
    for h in &held {
        outln!(
            "{}@{}: held back, newer minor/major versions need approval: {} (limina packages update {} --to VERSION)",
            h.name,
            h.current,
            h.newer.join(", "),
            h.name
        );
    }
    if done.iter().all(|d| !d.changed) && held.is_empty() {
        outln!("everything is up to date");
    }
    Ok(())
}

pub(super) fn remove(scripts: &Path, name: &str) -> CliResult {
    let project = project(scripts)?;
    let removed = ops::remove(&project, name)?;
    outln!("{}@{}: removed (its archive stays in the cache)", removed.name, removed.version);
    Ok(())
}

pub(super) fn publish(scripts: &Path, dir: &Path, key: &Path, registry: &Path, author: Option<&str>, tests: Duration) -> CliResult {
    let key = SecretKey::read(key)?;
    run_shipped_tests(scripts, dir, tests)?;
    let entry = crate::packages::registry::publish::publish(dir, &key, registry, author.unwrap_or(""))?;
    outln!(
        "published {} ({} bytes, sha256 {}) into {}, signed by {}",
        entry.archive,
        entry.size,
        entry.sha256,
        registry.display(),
        key.public()
    );
    Ok(())
}

pub(super) fn browse(scripts: &Path) -> CliResult {
    let project = project(scripts)?;
    super::browse::run(&project, &mut Fetcher::new()).map_err(|e| match e {
        super::browse::BrowseError::NotATerminal => CliError::usage(e),
        super::browse::BrowseError::Terminal(_) | super::browse::BrowseError::Project(_) => CliError::failed(e),
    })
}

pub(super) fn keygen(out: &Path) -> CliResult {
    let key = SecretKey::generate()?;
    key.write_new(out)?;
    outln!("{}", key.public());
    eprintln!("secret key written to {} (mode 0600); the line above is the public key for limina.toml's `keys`", out.display());
    Ok(())
}

/// Runs the tests a code package ships (`tests/` in its folder) with `limina test`, in a child
/// process and a throwaway project holding the package as an install unpacks it and the
/// dependencies installed in `scripts`; a failure, or tests still running after `limit`, stops
/// the publish with what they printed.
fn run_shipped_tests(scripts: &Path, dir: &Path, limit: Duration) -> CliResult {
    let Some(stage) = crate::packages::registry::publish::test_stage(dir, Some(scripts))? else { return Ok(()) };
    let exe = std::env::current_exe().map_err(|e| CliError::failed(format_args!("cannot find this executable to run the tests ({e})")))?;
    let mut child = Command::new(exe)
        .arg("test")
        .arg(&stage.tests)
        .arg("--project")
        .arg(&stage.project)
        .current_dir(&stage.project)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| CliError::failed(format_args!("cannot start the package's tests ({e})")))?;
    let read = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            if let Some(p) = pipe {
                let _ = p.take(1 << 20).read_to_string(&mut text);
            }
            text
        })
    };
    let out = read(child.stdout.take().map(|p| Box::new(p) as Box<dyn std::io::Read + Send>));
    let err = read(child.stderr.take().map(|p| Box::new(p) as Box<dyn std::io::Read + Send>));
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| CliError::failed(format_args!("the package's tests: {e}")))? {
            break Some(status);
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let printed = out.join().unwrap_or_default() + &err.join().unwrap_or_default();
    let printed = printed.replace(&format!("{}/", stage.project.display()), "");
    let summary = printed.lines().rev().find(|l| l.contains(" passed, ")).unwrap_or_default().to_string();
    let why = match status {
        None => Some(format!("its tests were still running after {} s (--test-timeout)", limit.as_secs())),
        Some(s) if !s.success() => Some("its tests failed".to_string()),
        Some(_) if summary.starts_with("0 passed") => Some("its tests/ folder holds no test that ran".to_string()),
        Some(_) => None,
    };
    if let Some(why) = why {
        return Err(CliError::failed(format_args!("{}: not published: {why}:\n{}", dir.display(), printed.trim_end())));
    }
    outln!("tests: {summary}");
    Ok(())
}
