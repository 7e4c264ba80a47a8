//! The host-provided `require`: resolves modules only inside the project's script roots.
//!
//! Luau's built-in require reads any file on disk, so it is replaced. A name is a `/`-separated
//! path without extension, resolved against the project root (or, with a leading `./`, against
//! the requiring file's folder); `..`, absolute paths and backslashes are refused outright, and the
//! resolved file (after following symlinks) must lie inside one of the roots. Modules run once
//! and are cached; a require cycle is an error naming the cycle.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::rc::Rc;

use mlua::{Lua, Value};

use super::located_error;

/// Where scripts may come from.
#[derive(Debug, Clone)]
pub struct ScriptRoots {
    /// Relative names resolve against this folder; chunk names are shown relative to it.
    pub project: PathBuf,
    /// Canonical folders a module must live in.
    pub roots: Vec<PathBuf>,
}

impl ScriptRoots {
    /// The project's standard script folders that exist, plus `extra` (e.g. the running script's
    /// folder when it lives elsewhere).
    pub(crate) fn for_project(project: &Path, extra: &[PathBuf]) -> Self {
        let project = project.canonicalize().unwrap_or_else(|_| project.to_path_buf());
        let mut roots: Vec<PathBuf> =
            ["scripts", "demos", "scenes", "tests/lua"].iter().filter_map(|d| project.join(d).canonicalize().ok()).collect();
        for e in extra {
            if let Ok(c) = e.canonicalize()
                && !roots.contains(&c)
            {
                roots.push(c);
            }
        }
        Self { project, roots }
    }

    pub fn contains(&self, canonical: &Path) -> bool {
        self.roots.iter().any(|r| canonical.starts_with(r))
    }

    /// The name a chunk from `path` gets: relative to the project when inside it.
    pub fn display(&self, path: &Path) -> String {
        let canonical = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        canonical.strip_prefix(&self.project).unwrap_or(&canonical).to_string_lossy().into_owned()
    }

    fn describe_roots(&self) -> String {
        self.roots.iter().map(|r| format!("{}/", self.display(r))).collect::<Vec<_>>().join(", ")
    }
}

#[derive(Default)]
struct ModuleCache {
    loaded: HashMap<PathBuf, Value>,
    loading: Vec<PathBuf>,
}

/// Why a `require` name does not resolve to a module file.
#[derive(Debug, thiserror::Error)]
enum RequireError {
    #[error("the module name is empty")]
    Empty,
    #[error("use '/' to separate folders, not '\\'")]
    Backslash,
    #[error("absolute paths are not allowed; name a module relative to the project (e.g. 'demos/lib/rack') or to this file ('./rack')")]
    Absolute,
    #[error("'..' is not allowed: modules resolve only inside the script roots")]
    ParentDir,
    #[error("the module path has an empty or '.' segment")]
    EmptySegment,
    #[error("a './' name needs a calling file")]
    NoCallingFile,
    /// `tried` are the candidate files, as chunk names.
    #[error("module not found (tried {})", tried.join(", "))]
    NotFound { tried: Vec<String> },
    #[error("cannot open {}: {source}", path.display())]
    Open { path: PathBuf, source: std::io::Error },
    #[error("{} is outside the script roots ({roots})", path.display())]
    Outside { path: PathBuf, roots: String },
}

/// Checks a module name's shape; the error says what is wrong with it.
fn check_name(name: &str) -> Result<(), RequireError> {
    if name.is_empty() {
        return Err(RequireError::Empty);
    }
    if name.contains('\\') {
        return Err(RequireError::Backslash);
    }
    if name.starts_with('/') || Path::new(name).is_absolute() {
        return Err(RequireError::Absolute);
    }
    let rest = name.strip_prefix("./").unwrap_or(name);
    for part in rest.split('/') {
        match part {
            ".." => return Err(RequireError::ParentDir),
            "" | "." => return Err(RequireError::EmptySegment),
            _ => {}
        }
    }
    Ok(())
}

fn resolve(lua: &Lua, roots: &ScriptRoots, name: &str) -> Result<PathBuf, RequireError> {
    check_name(name)?;
    let base = match name.strip_prefix("./") {
        Some(_) => {
            let source = super::caller_location(lua).map(|(file, _)| file).ok_or(RequireError::NoCallingFile)?;
            let file = roots.project.join(source);
            file.parent().map(Path::to_path_buf).unwrap_or_else(|| roots.project.clone())
        }
        None => roots.project.clone(),
    };
    let rel = name.strip_prefix("./").unwrap_or(name);
    let stem = base.join(rel);
    let candidates = [stem.with_extension("luau"), stem.with_extension("lua"), stem.join("init.luau"), stem.join("init.lua")];
    let found = candidates
        .iter()
        .find(|c| c.is_file())
        .ok_or_else(|| RequireError::NotFound { tried: candidates.iter().map(|c| roots.display(c)).collect() })?;
    let canonical = found.canonicalize().map_err(|source| RequireError::Open { path: found.clone(), source })?;
    if canonical.components().any(|c| matches!(c, Component::ParentDir)) || !roots.contains(&canonical) {
        return Err(RequireError::Outside { path: canonical, roots: roots.describe_roots() });
    }
    Ok(canonical)
}

/// Installs `require` as a global of `lua`.
pub fn install_require(lua: &Lua, roots: ScriptRoots) -> mlua::Result<()> {
    let cache = Rc::new(RefCell::new(ModuleCache::default()));
    let roots = Rc::new(roots);
    let require = lua.create_function(move |lua, name: String| {
        let path = resolve(lua, &roots, &name).map_err(|why| located_error(lua, format!("require('{name}'): {why}")))?;
        if let Some(v) = cache.borrow().loaded.get(&path) {
            return Ok(v.clone());
        }
        if cache.borrow().loading.contains(&path) {
            let chain: Vec<String> = cache.borrow().loading.iter().chain(std::iter::once(&path)).map(|p| roots.display(p)).collect();
            return Err(located_error(lua, format!("require cycle: {}", chain.join(" -> "))));
        }
        let source = std::fs::read_to_string(&path)
            .map_err(|e| located_error(lua, format!("require('{name}'): cannot read {}: {e}", path.display())))?;
        cache.borrow_mut().loading.push(path.clone());
        let result = lua.load(source).set_name(format!("@{}", roots.display(&path))).call::<Value>(());
        cache.borrow_mut().loading.pop();
        let value = result?;
        // A module that returns nothing still counts as loaded (like Lua's `true`).
        let value = if value.is_nil() { Value::Boolean(true) } else { value };
        cache.borrow_mut().loaded.insert(path, value.clone());
        Ok(value)
    })?;
    lua.globals().set("require", require)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_names_are_refused_before_touching_disk() {
        for bad in ["../secret", "demos/../../etc/passwd", "/etc/passwd", "a\\b", "", "./", "a//b"] {
            assert!(check_name(bad).is_err(), "{bad:?} must be refused");
        }
        assert!(check_name("demos/lib/rack").is_ok());
        assert!(check_name("./rack").is_ok());
    }
}
