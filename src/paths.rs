//! The one check for an id that names a file under a folder (`require` names, asset ids,
//! trace export names, scene names): a relative path of plain components — no `..`, no
//! absolute path, no backslash, no NUL — that, after following symlinks, still lies inside the
//! folder. Callers add their own vocabulary (extensions, name rules) on top.

use std::path::{Component, Path, PathBuf};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PathError {
    #[error("'{0}' is not a relative path of plain names (no '..', no absolute paths, no backslashes)")]
    NotPlain(String),
    #[error("'{0}' leads outside {1} (through a symlink)")]
    Escapes(String, String),
    #[error("'{0}': no such file in {1}")]
    Missing(String, String),
}

/// Whether `id` is a relative path of plain components.
pub fn is_plain_relative(id: &str) -> bool {
    !id.is_empty()
        && !id.contains(['\\', '\0'])
        && !id.starts_with('/')
        && Path::new(id).components().all(|c| matches!(c, Component::Normal(_)))
}

/// Resolves `id` (tried as given, then with each of `extensions` appended) to an existing file
/// inside `root`, symlinks followed. Returns the canonical path.
pub fn resolve_under(root: &Path, id: &str, extensions: &[&str]) -> Result<PathBuf, PathError> {
    if !is_plain_relative(id) {
        return Err(PathError::NotPlain(id.to_string()));
    }
    let shown = root.display().to_string();
    let candidates = std::iter::once(root.join(id)).chain(extensions.iter().map(|e| root.join(format!("{id}{e}"))));
    let found = candidates.into_iter().find(|p| p.is_file()).ok_or_else(|| PathError::Missing(id.to_string(), shown.clone()))?;
    contained(root, &found).map_err(|_| PathError::Escapes(id.to_string(), shown))
}

/// `path` canonicalized, if it lies inside `root` (both with symlinks followed).
pub fn contained(root: &Path, path: &Path) -> Result<PathBuf, std::io::Error> {
    let base = root.canonicalize()?;
    let canonical = path.canonicalize()?;
    if canonical.starts_with(&base) {
        Ok(canonical)
    } else {
        Err(std::io::Error::new(std::io::ErrorKind::PermissionDenied, "outside the folder"))
    }
}

/// How many files in `dir` end in `.<extension>`, counting up to `limit` (a folder clients write
/// into is capped by it, and counting stops there).
pub fn count_files_with_extension(dir: &Path, extension: &str, limit: usize) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else { return 0 };
    entries.filter_map(Result::ok).filter(|e| e.path().extension().is_some_and(|x| x == extension)).take(limit).count()
}

/// `path` as a remote client may be shown it: relative to `project` when it is inside, else its
/// folder's name and its own (`snapshots/x.snap`), never the server's absolute folders.
pub fn shown_from(project: &Path, path: &Path) -> String {
    if let Ok(relative) = path.strip_prefix(project)
        && !relative.as_os_str().is_empty()
    {
        return relative.display().to_string();
    }
    match (path.parent().and_then(Path::file_name), path.file_name()) {
        (Some(folder), Some(file)) => format!("{}/{}", folder.to_string_lossy(), file.to_string_lossy()),
        (None, Some(file)) => file.to_string_lossy().into_owned(),
        _ => "(a folder outside the project)".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_relative_paths_pass() {
        for bad in ["", "../x", "a/../../x", "/etc/passwd", "a\\b", "a\0b", "./x"] {
            assert!(!is_plain_relative(bad), "{bad:?}");
        }
        assert!(is_plain_relative("models/crate.glb"));
    }

    #[test]
    fn a_symlink_out_of_the_folder_is_refused() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret"), "x").unwrap();
        let root = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret"), root.path().join("link")).unwrap();
        std::fs::write(root.path().join("ok.txt"), "x").unwrap();
        assert!(matches!(resolve_under(root.path(), "link", &[]), Err(PathError::Escapes(..))));
        assert!(resolve_under(root.path(), "ok", &[".txt"]).is_ok());
        assert!(matches!(resolve_under(root.path(), "nope", &[]), Err(PathError::Missing(..))));
    }
}
