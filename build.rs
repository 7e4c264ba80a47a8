//! Stamps the binary with the commit it was built from (`limina --version`): the short hash, or
//! `unknown` outside a git checkout (a source tarball). Only HEAD is watched, so the stamp
//! follows commits and checkouts (uncommitted changes are not marked: the script would have to
//! rerun on every edit).

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    let commit = git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=LIMINA_COMMIT={commit}");
    // HEAD moves (commits, checkouts) are logged here; a worktree's git dir is its own.
    if let Some(dir) = git(&["rev-parse", "--absolute-git-dir"]) {
        println!("cargo:rerun-if-changed={dir}/logs/HEAD");
        println!("cargo:rerun-if-changed={dir}/HEAD");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
