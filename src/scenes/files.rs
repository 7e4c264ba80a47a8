//! Scene names and the files they stand for, under the project's `scenes/` folder.
//!
//! A name is 1 to 64 of `[A-Za-z0-9_-]` and stands for `scenes/<name>.lua`: no separators, no
//! `..`, no extension, so no name can point anywhere else. Symlinks are followed and must stay
//! inside: `scenes/` itself must resolve inside the project, and an existing `scenes/<name>.lua`
//! inside `scenes/`. A save goes through `atomic_file::write_with`: a temporary file in the
//! same folder (created exclusively, so never through a planted link), synced, then given the
//! name (a new name by a hard link, which never replaces anything; an existing regular file
//! only with `overwrite`), so a reader sees the old scene or the new one, never half of one.
//! Reads stop at `MAX_FILE_BYTES`.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use super::{MAX_FILE_BYTES, SceneError};

/// The folder scene names resolve in, relative to the project.
pub const FOLDER: &str = "scenes";
const MAX_NAME: usize = 64;

/// Checks a scene name.
pub fn check_name(name: &str) -> Result<(), SceneError> {
    let ok = (1..=MAX_NAME).contains(&name.len()) && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if ok { Ok(()) } else { Err(SceneError::BadName { name: crate::clip::to_bytes(name, 80).to_string() }) }
}

/// How a scene file is shown in messages: `scenes/<name>.lua`.
pub fn shown(name: &str) -> String {
    format!("{FOLDER}/{name}.lua")
}

fn io(file: &str, e: &std::io::Error) -> SceneError {
    SceneError::Io { file: file.to_string(), message: e.to_string() }
}

/// The project's `scenes/` folder, canonical, after checking it resolves inside the project.
/// `create` makes it when missing (a save); otherwise a missing folder means a missing file.
fn folder(project: &Path, name: &str, create: bool) -> Result<PathBuf, SceneError> {
    let file = shown(name);
    let dir = project.join(FOLDER);
    if create && std::fs::symlink_metadata(&dir).is_err() {
        std::fs::create_dir(&dir).map_err(|e| io(FOLDER, &e))?;
    }
    match crate::paths::contained(project, &dir) {
        Ok(dir) => Ok(dir),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(SceneError::Missing { file }),
        Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => {
            Err(SceneError::Escapes { file: FOLDER.to_string(), folder: "the project".into() })
        }
        Err(e) => Err(io(FOLDER, &e)),
    }
}

/// The existing file `name` stands for, canonical, inside `scenes/`.
pub fn existing(project: &Path, name: &str) -> Result<PathBuf, SceneError> {
    check_name(name)?;
    let dir = folder(project, name, false)?;
    let file = shown(name);
    let path = dir.join(format!("{name}.lua"));
    if std::fs::symlink_metadata(&path).is_err() {
        return Err(SceneError::Missing { file });
    }
    match crate::paths::contained(&dir, &path) {
        Ok(p) if p.is_file() => Ok(p),
        Ok(_) => Err(SceneError::Io { file, message: "not a regular file".into() }),
        Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => Err(SceneError::Escapes { file, folder: format!("{FOLDER}/") }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(SceneError::Missing { file }),
        Err(e) => Err(io(&file, &e)),
    }
}

/// Scene files `scene.save` may make in `scenes/` (writing over one of them is allowed).
pub const MAX_SCENE_FILES: usize = 256;

/// Where a save of `name` goes: the canonical `scenes/` folder (made if missing) and the file in
/// it. An existing file is refused unless `overwrite`, and so is an existing symlink leading
/// outside `scenes/` (the rename would replace the link, not follow it; it is refused all the
/// same, since someone planted it).
pub fn for_save(project: &Path, name: &str, overwrite: bool) -> Result<(PathBuf, PathBuf), SceneError> {
    check_name(name)?;
    let dir = folder(project, name, true)?;
    let file = shown(name);
    let path = dir.join(format!("{name}.lua"));
    if let Ok(meta) = std::fs::symlink_metadata(&path) {
        if meta.file_type().is_symlink() && crate::paths::contained(&dir, &path).is_err() {
            return Err(SceneError::Escapes { file, folder: format!("{FOLDER}/") });
        }
        if !overwrite {
            return Err(SceneError::Exists { file });
        }
    } else if crate::paths::count_files_with_extension(&dir, "lua", MAX_SCENE_FILES) >= MAX_SCENE_FILES {
        // Clients may write here: new names stop at a bound, so no caller fills the disk.
        return Err(SceneError::TooMany { limit: MAX_SCENE_FILES });
    }
    Ok((dir, path))
}

/// Writes `text` to `path` (in `dir`, from `for_save`) through a temporary file, replacing a
/// regular file there only when `overwrite` (`atomic_file::write_with`: never through a link,
/// never over a name taken meanwhile).
pub fn write_atomic(dir: &Path, path: &Path, name: &str, text: &str, overwrite: bool) -> Result<(), SceneError> {
    let file = shown(name);
    if text.len() > MAX_FILE_BYTES {
        return Err(SceneError::TooLarge { file, bytes: text.len() as u64, max: MAX_FILE_BYTES });
    }
    debug_assert!(path.parent() == Some(dir), "the file is written into its folder");
    let allowed = move |_: &Path| overwrite;
    match crate::atomic_file::write_with(path, crate::atomic_file::Replace::Checked(&allowed), |f| f.write_all(text.as_bytes())) {
        Ok(()) => Ok(()),
        Err(e) if crate::atomic_file::is_refusal(&e) && e.kind() == std::io::ErrorKind::AlreadyExists => Err(SceneError::Exists { file }),
        Err(e) if crate::atomic_file::is_refusal(&e) => Err(SceneError::Escapes { file, folder: format!("{FOLDER}/") }),
        Err(e) => Err(io(&file, &e)),
    }
}

/// The bytes of a scene file, refused past `MAX_FILE_BYTES` without reading the rest.
pub fn read_capped(path: &Path, file: &str) -> Result<Vec<u8>, SceneError> {
    let f = std::fs::File::open(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => SceneError::Missing { file: file.to_string() },
        _ => io(file, &e),
    })?;
    let mut bytes = Vec::new();
    f.take(MAX_FILE_BYTES as u64 + 1).read_to_end(&mut bytes).map_err(|e| io(file, &e))?;
    if bytes.len() > MAX_FILE_BYTES {
        let total = std::fs::metadata(path).map(|m| m.len()).unwrap_or(bytes.len() as u64);
        return Err(SceneError::TooLarge { file: file.to_string(), bytes: total, max: MAX_FILE_BYTES });
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_names_are_scene_names() {
        for bad in ["", "../x", "/etc/passwd", "a/b", "a.lua", "..", "a b", "ä", &"x".repeat(65)] {
            assert!(matches!(check_name(bad), Err(SceneError::BadName { .. })), "{bad:?}");
        }
        for good in ["courtyard", "a", "Level_2-b", &"x".repeat(64)] {
            assert!(check_name(good).is_ok(), "{good:?}");
        }
    }

    #[test]
    fn a_save_is_atomic_and_refuses_to_clobber_unless_asked() {
        let project = tempfile::tempdir().unwrap();
        let (dir, path) = for_save(project.path(), "one", false).unwrap();
        write_atomic(&dir, &path, "one", "return { format = 1 }\n", false).unwrap();
        assert_eq!(std::fs::read_to_string(project.path().join("scenes/one.lua")).unwrap(), "return { format = 1 }\n");
        assert!(matches!(for_save(project.path(), "one", false), Err(SceneError::Exists { .. })));
        let (dir, path) = for_save(project.path(), "one", true).unwrap();
        write_atomic(&dir, &path, "one", "return { format = 1, entities = {} }\n", true).unwrap();
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left, vec![std::ffi::OsString::from("one.lua")], "no temporary file is left behind");
        assert_eq!(existing(project.path(), "one").unwrap(), path);
    }

    #[test]
    fn symlinks_out_of_the_scenes_folder_are_refused() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.lua"), "return { format = 1 }").unwrap();
        let project = tempfile::tempdir().unwrap();
        std::fs::create_dir(project.path().join("scenes")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret.lua"), project.path().join("scenes/leak.lua")).unwrap();
        assert!(matches!(existing(project.path(), "leak"), Err(SceneError::Escapes { .. })));
        assert!(matches!(for_save(project.path(), "leak", true), Err(SceneError::Escapes { .. })));

        let linked = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path(), linked.path().join("scenes")).unwrap();
        assert!(matches!(existing(linked.path(), "secret"), Err(SceneError::Escapes { .. })));
        assert!(matches!(for_save(linked.path(), "new", false), Err(SceneError::Escapes { .. })));
        assert!(!outside.path().join("new.lua").exists());
    }
}
