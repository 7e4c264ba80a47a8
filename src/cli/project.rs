//! Which folder a command works on, found the way cargo finds `Cargo.toml`.
//!
//! A limina project is a folder holding a `limina.toml` (`limina new` writes one; today only its
//! presence counts). The project is, in order:
//!
//! 1. `--project DIR`, when given (it need not hold a `limina.toml`);
//! 2. the nearest folder holding a `limina.toml` at or above the command's *start*: the folder
//!    of the file it was given (`limina run FILE`, the first `limina test PATH`, an absolute
//!    `limina mcp --scene FILE`, `limina replay LOG`), else the current folder;
//! 3. the nearest such folder at or above the current folder;
//! 4. the current folder itself, unmarked (logged at info level, `-v`), so a loose script in a
//!    scratch folder still runs — except that the filesystem root and the home folder are never
//!    assumed for a command that may write: an MCP client that starts `limina mcp --stdio` from
//!    `/` without `--project` gets an error naming the way out, never a `/traces` folder.
//!
//! Nothing else marks a project: a folder that happens to hold `scripts/` and `scenes/` is too
//! common a shape to guess from, and a guess decides where traces and snapshots get written.
//!
//! Everything the engine writes (`traces/`, `snapshots/`, `scenes/`) goes under the project it is
//! handed, so the rule above is the whole of where a command writes unless the user names a file.
//! `limina mcp` resolves its relative paths in the project as well (see `in_project`): a client's
//! configuration names them once, whatever folder the client starts the server from.

use std::path::{Path, PathBuf};

/// The file that marks a project folder.
pub(crate) const MARKER: &str = "limina.toml";

/// How a command's project was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Chosen {
    /// `--project DIR`.
    Given,
    /// The nearest folder with a `limina.toml`.
    Marked,
    /// No marker anywhere: the current folder.
    Assumed,
}

/// A command's project folder (absolute) and how it was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Project {
    pub root: PathBuf,
    pub chosen: Chosen,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ProjectError {
    #[error("--project {0}: no such folder")]
    NoSuchFolder(String),
    #[error(
        "no limina project: no {MARKER} in {start} or any folder above it, and {start} is {what}, which is never taken as a project; \
         pass --project DIR, start from inside a project, or make one with `limina new NAME`"
    )]
    Unmarked { start: String, what: &'static str },
}

/// What the search starts from and what it may fall back to.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Search<'a> {
    /// `--project`, if given.
    pub given: Option<&'a Path>,
    /// The folder of the file the command was given, if any.
    pub start: Option<&'a Path>,
    /// The current folder.
    pub cwd: &'a Path,
    /// The user's home folder, if known (never assumed as a project).
    pub home: Option<&'a Path>,
    /// Whether the command may write into the project (then `/` and home are refused).
    pub writes: bool,
}

/// Finds the project (module doc, rules 1 to 4).
pub(crate) fn find(search: &Search<'_>) -> Result<Project, ProjectError> {
    if let Some(dir) = search.given {
        if !dir.is_dir() {
            return Err(ProjectError::NoSuchFolder(dir.display().to_string()));
        }
        return Ok(Project { root: normal(&search.cwd.join(dir)), chosen: Chosen::Given });
    }
    let cwd = normal(search.cwd);
    let start = search.start.map(|s| normal(&search.cwd.join(s)));
    if let Some(root) = start.iter().chain(std::iter::once(&cwd)).find_map(|from| marked_ancestor(from)) {
        return Ok(Project { root, chosen: Chosen::Marked });
    }
    let what = if cwd.parent().is_none() {
        Some("the filesystem root")
    } else if search.home.is_some_and(|home| normal(home) == cwd) {
        Some("your home folder")
    } else {
        None
    };
    match what {
        Some(what) if search.writes => Err(ProjectError::Unmarked { start: cwd.display().to_string(), what }),
        _ => Ok(Project { root: cwd, chosen: Chosen::Assumed }),
    }
}

/// The nearest folder at or above `from` that holds a `limina.toml`.
pub(crate) fn marked_ancestor(from: &Path) -> Option<PathBuf> {
    from.ancestors().find(|dir| dir.join(MARKER).is_file()).map(Path::to_path_buf)
}

/// `path` made absolute with symlinks and `..` resolved when it exists (so its ancestors are its
/// real parents), else made absolute as written.
fn normal(path: &Path) -> PathBuf {
    path.canonicalize().or_else(|_| std::path::absolute(path)).unwrap_or_else(|_| path.to_path_buf())
}

/// The folder a file argument starts the search from: the file's folder, or the folder itself.
pub(crate) fn start_of(path: &Path) -> Option<PathBuf> {
    if path.is_dir() {
        return Some(path.to_path_buf());
    }
    match path.parent() {
        Some(p) if p.as_os_str().is_empty() => Some(PathBuf::from(".")),
        Some(p) => Some(p.to_path_buf()),
        None => None,
    }
}

/// A relative path a `limina mcp` option names, resolved in the project. A file the server only
/// reads (`--scene`, `--tokens`, `--scripts`) that is not in the project but exists relative to
/// the current folder is taken from there, so a shell started in a subfolder still finds it; a
/// file the server writes (`--log`) is always placed in the project.
pub(crate) fn in_project(project: &Path, path: &Path, read_only: bool) -> PathBuf {
    if path.is_absolute() {
        return path.to_path_buf();
    }
    let inside = project.join(path);
    if read_only && !inside.exists() && path.exists() {
        return std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    }
    inside
}

#[cfg(test)]
mod tests {
    use super::*;

    fn search<'a>(start: Option<&'a Path>, cwd: &'a Path, writes: bool) -> Search<'a> {
        Search { given: None, start, cwd, home: None, writes }
    }

    #[test]
    fn the_nearest_marked_folder_above_the_script_is_the_project() {
        let tree = tempfile::tempdir().unwrap();
        let project = tree.path().join("game");
        std::fs::create_dir_all(project.join("demos/deep")).unwrap();
        std::fs::write(project.join(MARKER), "").unwrap();
        let elsewhere = tree.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        let found = find(&search(Some(&project.join("demos/deep")), &elsewhere, true)).unwrap();
        assert_eq!(found, Project { root: project.canonicalize().unwrap(), chosen: Chosen::Marked });
        // A relative start is taken from the current folder, `..` and all.
        let found = find(&search(Some(Path::new("../game/demos")), &elsewhere, true)).unwrap();
        assert_eq!(found.root, project.canonicalize().unwrap());
        // Without a file, the current folder's project.
        let found = find(&search(None, &project.join("demos"), true)).unwrap();
        assert_eq!(found.root, project.canonicalize().unwrap());
    }

    #[test]
    fn a_nested_project_wins_over_the_one_around_it() {
        let outer = tempfile::tempdir().unwrap();
        std::fs::write(outer.path().join(MARKER), "").unwrap();
        let inner = outer.path().join("inner");
        std::fs::create_dir(&inner).unwrap();
        std::fs::write(inner.join(MARKER), "").unwrap();
        assert_eq!(find(&search(Some(&inner), outer.path(), true)).unwrap().root, inner.canonicalize().unwrap());
    }

    #[test]
    fn without_a_marker_the_current_folder_is_assumed_but_never_root_or_home_for_a_writer() {
        let scratch = tempfile::tempdir().unwrap();
        let found = find(&search(Some(scratch.path()), scratch.path(), true)).unwrap();
        assert_eq!(found, Project { root: scratch.path().canonicalize().unwrap(), chosen: Chosen::Assumed });

        let root = find(&search(None, Path::new("/"), true)).unwrap_err();
        assert!(root.to_string().contains("/ is the filesystem root") && root.to_string().contains("--project DIR"), "{root}");
        let home = Search { home: Some(scratch.path()), ..search(None, scratch.path(), true) };
        assert!(matches!(find(&home), Err(ProjectError::Unmarked { what: "your home folder", .. })));
        // A command that writes nothing (skills, types) may still run there.
        assert_eq!(find(&search(None, Path::new("/"), false)).unwrap().root, Path::new("/"));
    }

    #[test]
    fn given_wins_and_must_exist() {
        let scratch = tempfile::tempdir().unwrap();
        let given = Search { given: Some(scratch.path()), ..search(None, Path::new("/"), true) };
        assert_eq!(find(&given).unwrap().chosen, Chosen::Given);
        let missing = scratch.path().join("nope");
        let given = Search { given: Some(&missing), ..search(None, Path::new("/"), true) };
        assert!(matches!(find(&given), Err(ProjectError::NoSuchFolder(_))));
    }

    #[test]
    fn mcp_paths_resolve_in_the_project_and_writes_never_leave_it() {
        let project = tempfile::tempdir().unwrap();
        std::fs::create_dir(project.path().join("scenes")).unwrap();
        std::fs::write(project.path().join("scenes/a.lua"), "").unwrap();
        assert_eq!(in_project(project.path(), Path::new("scenes/a.lua"), true), project.path().join("scenes/a.lua"));
        // `Cargo.toml` exists in the current folder of the test run, not in the project: a read
        // falls back to it, a write never does.
        assert_eq!(in_project(project.path(), Path::new("Cargo.toml"), true), std::path::absolute("Cargo.toml").unwrap());
        assert_eq!(in_project(project.path(), Path::new("Cargo.toml"), false), project.path().join("Cargo.toml"));
        assert_eq!(in_project(project.path(), Path::new("/abs/log"), false), Path::new("/abs/log"));
    }
}
