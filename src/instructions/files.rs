//! Reading an instruction skill from disk, within bounds and inside its folder.
//!
//! Two forms: a folder `<name>/SKILL.md` (resource files may sit beside it, in subfolders too),
//! or a single file `<name>.skill.md` (no resources). Every file read is a regular file whose
//! real path (symlinks resolved) lies inside the skill's own folder, or for a single file, the
//! folder it is in: a link out is refused, never followed. A link to a folder is not walked
//! (it would find files a second time, or walk forever). Hidden files are skipped. The walk
//! stops at the first file past `MAX_RESOURCES`, so a folder of a million files costs a
//! bounded read.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use sha2::{Digest, Sha256};

use super::front_matter::MAX_FRONT_MATTER_BYTES;
use super::skill::{self, Expected, FormatError, InstructionSkill, MAX_BODY_BYTES, Problem, Resource};

/// The file a folder skill is made of.
pub const SKILL_FILE: &str = "SKILL.md";
/// The ending of a single-file skill (`light-a-scene.skill.md`).
pub const SINGLE_FILE_SUFFIX: &str = ".skill.md";
/// Most resource files beside one `SKILL.md`.
pub const MAX_RESOURCES: usize = 64;
/// Largest resource file: 256 KiB.
pub const MAX_RESOURCE_BYTES: u64 = 256 * 1024;
/// All of one skill's resources together: 1 MiB.
pub const MAX_RESOURCE_TOTAL_BYTES: u64 = 1024 * 1024;
/// Deepest subfolder a resource may sit in (`a/b/c/file`).
pub const MAX_RESOURCE_DEPTH: usize = 4;
/// Largest `SKILL.md`: the body's bound plus the front matter's, plus its two `---` lines.
const MAX_SKILL_FILE_BYTES: u64 = (MAX_BODY_BYTES + MAX_FRONT_MATTER_BYTES + 16) as u64;

/// Where a skill was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// A folder holding `SKILL.md`.
    Folder(PathBuf),
    /// A `<name>.skill.md` file.
    File(PathBuf),
}

impl Location {
    /// The skill's name as its folder or file gives it.
    pub fn name(&self) -> String {
        match self {
            Location::Folder(dir) => dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
            Location::File(file) => {
                file.file_name().map(|n| n.to_string_lossy().trim_end_matches(SINGLE_FILE_SUFFIX).to_string()).unwrap_or_default()
            }
        }
    }

    /// The `SKILL.md` (or `.skill.md`) file.
    pub fn skill_file(&self) -> PathBuf {
        match self {
            Location::Folder(dir) => dir.join(SKILL_FILE),
            Location::File(file) => file.clone(),
        }
    }

    /// What a skill at `path` is, if it is one.
    pub fn of(path: &Path) -> Option<Location> {
        let name = path.file_name()?.to_str()?;
        if name.starts_with('.') {
            return None;
        }
        if path.join(SKILL_FILE).symlink_metadata().is_ok() && path.symlink_metadata().is_ok_and(|m| m.is_dir()) {
            return Some(Location::Folder(path.to_path_buf()));
        }
        (name.ends_with(SINGLE_FILE_SUFFIX) && name.len() > SINGLE_FILE_SUFFIX.len()).then(|| Location::File(path.to_path_buf()))
    }
}

/// Reads and parses the skill at `at`. `shown` is how its skill file appears in errors
/// (`scripts/light/SKILL.md`: never the server's absolute folders).
pub fn load(at: &Location, shown: &str) -> Result<InstructionSkill, FormatError> {
    let fail = |file: &str, problem: Problem| FormatError::at(file, 0, problem);
    let (folder, place) = match at {
        Location::Folder(dir) => (dir.clone(), "folder"),
        Location::File(file) => (file.parent().map(Path::to_path_buf).unwrap_or_default(), "file name"),
    };
    let name = at.name();
    let path = at.skill_file();
    let real = confined(&folder, &path).map_err(|p| fail(shown, p))?;
    let bytes = read_bounded(&real, MAX_SKILL_FILE_BYTES).map_err(|p| fail(shown, p))?;
    if bytes.len() as u64 > MAX_SKILL_FILE_BYTES {
        return Err(oversized(&bytes, shown));
    }
    let mut skill = skill::parse(&bytes, shown, Some(Expected { name: &name, place }))?;
    if let Location::Folder(dir) = at {
        skill.resources = resources(dir, shown)?;
    }
    let mut h = Sha256::new();
    h.update((bytes.len() as u64).to_le_bytes());
    h.update(&bytes);
    for r in &skill.resources {
        h.update(r.path.as_bytes());
        h.update([0]);
        h.update((r.bytes.len() as u64).to_le_bytes());
        h.update(&r.bytes);
    }
    skill.content_hash = crate::digest::sha256_text(&h.finalize());
    Ok(skill)
}

/// The error for a skill file past the cap: the body's line and size when the front matter in
/// the first bytes closes, else the front matter's own error.
fn oversized(prefix: &[u8], shown: &str) -> FormatError {
    let valid = match std::str::from_utf8(prefix) {
        Ok(text) => text,
        Err(e) => std::str::from_utf8(&prefix[..e.valid_up_to()]).unwrap_or_default(),
    };
    match super::front_matter::split(valid) {
        // Only a prefix was read: its body's length is not the file's.
        Ok(split) => FormatError::at(shown, split.body_line, Problem::BodyPastCap { max: MAX_BODY_BYTES }),
        Err(e) => FormatError::at(shown, e.line, Problem::Syntax(e.message)),
    }
}

/// `path`'s real path, when it is a regular file inside `folder` (both with links resolved).
fn confined(folder: &Path, path: &Path) -> Result<PathBuf, Problem> {
    let real = crate::paths::contained(folder, path).map_err(|e| match e.kind() {
        std::io::ErrorKind::PermissionDenied => Problem::Escapes,
        _ => Problem::File(format!("cannot be read ({e})")),
    })?;
    if !real.is_file() {
        return Err(Problem::File("not a regular file".into()));
    }
    Ok(real)
}

/// Up to `limit + 1` bytes of the regular file at `path` (one past, so a caller sees it is over).
fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>, Problem> {
    let file = std::fs::File::open(path).map_err(|e| Problem::File(format!("cannot be read ({e})")))?;
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes).map_err(|e| Problem::File(format!("cannot be read ({e})")))?;
    Ok(bytes)
}

/// A resource path component: plain ASCII names, so `skill://<id>/<path>` needs no escaping.
fn is_plain_name(name: &str) -> bool {
    !name.is_empty() && !name.starts_with('.') && name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// Every file beside `SKILL.md` under `dir`, sorted by path.
fn resources(dir: &Path, shown: &str) -> Result<Vec<Resource>, FormatError> {
    let folder = shown.strip_suffix(SKILL_FILE).unwrap_or(shown).trim_end_matches('/');
    let fail = |relative: &str, problem: Problem| FormatError::at(&format!("{folder}/{relative}"), 0, problem);
    let mut out: Vec<Resource> = Vec::new();
    let mut total = 0u64;
    // (folder, its path relative to `dir`, depth)
    let mut pending = vec![(dir.to_path_buf(), String::new(), 0usize)];
    while let Some((at, prefix, depth)) = pending.pop() {
        let entries = std::fs::read_dir(&at).map_err(|e| fail(&prefix, Problem::File(format!("cannot be listed ({e})"))))?;
        for entry in entries {
            let entry = entry.map_err(|e| fail(&prefix, Problem::File(format!("cannot be listed ({e})"))))?;
            let raw = entry.file_name();
            let Some(name) = raw.to_str() else {
                return Err(fail(&format!("{prefix}{}", raw.to_string_lossy()), Problem::File("the file name is not UTF-8".into())));
            };
            if name.starts_with('.') || (depth == 0 && name == SKILL_FILE) {
                continue;
            }
            let relative = format!("{prefix}{name}");
            if !is_plain_name(name) {
                return Err(fail(&relative, Problem::File("resource names are letters, digits, '.', '_' and '-'".into())));
            }
            let path = entry.path();
            let meta = path.symlink_metadata().map_err(|e| fail(&relative, Problem::File(format!("cannot be read ({e})"))))?;
            if meta.is_dir() {
                if depth + 1 > MAX_RESOURCE_DEPTH {
                    return Err(fail(&relative, Problem::File(format!("resources nest deeper than {MAX_RESOURCE_DEPTH} folders"))));
                }
                pending.push((path, format!("{relative}/"), depth + 1));
                continue;
            }
            // A link to a folder inside is not walked (found at its real path already); a link
            // to one outside is refused like any link out.
            if meta.file_type().is_symlink() && path.is_dir() {
                if crate::paths::contained(dir, &path).is_err() {
                    return Err(fail(&relative, Problem::Escapes));
                }
                continue;
            }
            let real = confined(dir, &path).map_err(|p| fail(&relative, p))?;
            if out.len() >= MAX_RESOURCES {
                return Err(fail(&relative, Problem::File(format!("more than {MAX_RESOURCES} resource files beside {SKILL_FILE}"))));
            }
            let bytes = read_bounded(&real, MAX_RESOURCE_BYTES).map_err(|p| fail(&relative, p))?;
            if bytes.len() as u64 > MAX_RESOURCE_BYTES {
                return Err(fail(
                    &relative,
                    Problem::File(format!("larger than the maximum of {MAX_RESOURCE_BYTES} bytes for a resource")),
                ));
            }
            total += bytes.len() as u64;
            if total > MAX_RESOURCE_TOTAL_BYTES {
                return Err(fail(&relative, Problem::File(format!("the resources add up to more than {MAX_RESOURCE_TOTAL_BYTES} bytes"))));
            }
            out.push(Resource { path: relative, bytes: Arc::from(bytes) });
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SKILL: &str = "---\nname: light\ndescription: Light a scene.\n---\nBody.\n";

    fn folder() -> (tempfile::TempDir, PathBuf) {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("light");
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join(SKILL_FILE), SKILL).unwrap();
        (root, dir)
    }

    fn load_dir(dir: &Path) -> Result<InstructionSkill, FormatError> {
        load(&Location::Folder(dir.to_path_buf()), "scripts/light/SKILL.md")
    }

    #[test]
    fn a_folder_skill_reads_its_resources_in_path_order() {
        let (_root, dir) = folder();
        std::fs::create_dir(dir.join("refs")).unwrap();
        std::fs::write(dir.join("refs/rig.md"), "three-point").unwrap();
        std::fs::write(dir.join("a.png"), [0x89, b'P', 0xff]).unwrap();
        std::fs::write(dir.join(".hidden"), "x").unwrap();
        let s = load_dir(&dir).unwrap();
        assert_eq!(s.resources.iter().map(|r| r.path.as_str()).collect::<Vec<_>>(), ["a.png", "refs/rig.md"]);
        assert_eq!(s.resource("refs/rig.md").unwrap().text(), Some("three-point"));
        assert_eq!(s.resource("a.png").unwrap().text(), None);
        assert!(s.content_hash.starts_with("sha256:"));
        let before = s.content_hash;
        std::fs::write(dir.join("refs/rig.md"), "four-point").unwrap();
        assert_ne!(load_dir(&dir).unwrap().content_hash, before, "the hash covers resources");
    }

    #[test]
    fn a_single_file_skill_is_named_by_its_file() {
        let root = tempfile::tempdir().unwrap();
        let file = root.path().join("light.skill.md");
        std::fs::write(&file, SKILL).unwrap();
        let at = Location::of(&file).unwrap();
        assert_eq!(at, Location::File(file.clone()));
        assert_eq!(load(&at, "scripts/light.skill.md").unwrap().id, "light");
        std::fs::write(root.path().join("dark.skill.md"), SKILL).unwrap();
        let e = load(&Location::of(&root.path().join("dark.skill.md")).unwrap(), "scripts/dark.skill.md").unwrap_err();
        assert_eq!(e.to_string(), "scripts/dark.skill.md:2: name 'light' must match the file name it is in ('dark')");
    }

    #[test]
    fn links_out_of_the_folder_are_refused() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret"), "key").unwrap();
        std::fs::write(outside.path().join("SKILL.md"), SKILL).unwrap();
        let (_root, dir) = folder();
        std::os::unix::fs::symlink(outside.path().join("secret"), dir.join("notes.md")).unwrap();
        let e = load_dir(&dir).unwrap_err();
        assert_eq!(e.file, "scripts/light/notes.md");
        assert!(e.to_string().contains("outside the skill's folder"), "{e}");
        std::fs::remove_file(dir.join("notes.md")).unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.join("away")).unwrap();
        assert!(load_dir(&dir).unwrap_err().to_string().contains("outside"), "a link to a folder out");
        std::fs::remove_file(dir.join("away")).unwrap();
        std::fs::remove_file(dir.join(SKILL_FILE)).unwrap();
        std::os::unix::fs::symlink(outside.path().join("SKILL.md"), dir.join(SKILL_FILE)).unwrap();
        let e = load_dir(&dir).unwrap_err();
        assert_eq!(e.file, "scripts/light/SKILL.md");
        assert!(e.to_string().contains("outside"), "{e}");
    }

    #[test]
    fn a_link_to_a_folder_inside_is_not_walked_twice() {
        let (_root, dir) = folder();
        std::fs::create_dir(dir.join("refs")).unwrap();
        std::fs::write(dir.join("refs/a.md"), "a").unwrap();
        std::os::unix::fs::symlink(&dir, dir.join("loop")).unwrap();
        assert_eq!(load_dir(&dir).unwrap().resources.len(), 1);
    }

    #[test]
    fn resource_bounds_are_enforced() {
        let (_root, dir) = folder();
        for i in 0..2000 {
            std::fs::write(dir.join(format!("r{i}.md")), "x").unwrap();
        }
        assert!(load_dir(&dir).unwrap_err().to_string().contains("more than 64 resource files"));
        let (_root, dir) = folder();
        std::fs::write(dir.join("big.bin"), vec![0u8; MAX_RESOURCE_BYTES as usize + 1]).unwrap();
        assert!(load_dir(&dir).unwrap_err().to_string().contains("larger than"));
        let (_root, dir) = folder();
        for i in 0..5 {
            std::fs::write(dir.join(format!("b{i}.bin")), vec![0u8; MAX_RESOURCE_BYTES as usize]).unwrap();
        }
        assert!(load_dir(&dir).unwrap_err().to_string().contains("add up to"));
        let (_root, dir) = folder();
        std::fs::write(dir.join("bad name.md"), "x").unwrap();
        assert!(load_dir(&dir).unwrap_err().to_string().contains("resource names"));
        let (_root, dir) = folder();
        std::fs::create_dir_all(dir.join("a/b/c/d/e")).unwrap();
        std::fs::write(dir.join("a/b/c/d/e/f.md"), "x").unwrap();
        assert!(load_dir(&dir).unwrap_err().to_string().contains("nest deeper"));
    }

    #[test]
    fn a_huge_skill_file_is_refused_with_the_body_line_without_reading_it_all() {
        let (_root, dir) = folder();
        let huge = format!("---\nname: light\ndescription: d\n---\n{}", "a".repeat(10 << 20));
        std::fs::write(dir.join(SKILL_FILE), huge).unwrap();
        let e = load_dir(&dir).unwrap_err();
        assert_eq!(e.line, 5);
        assert!(matches!(e.problem, Problem::BodyPastCap { max: MAX_BODY_BYTES }), "{e}");
        std::fs::write(dir.join(SKILL_FILE), "x".repeat(10 << 20)).unwrap();
        assert_eq!(load_dir(&dir).unwrap_err().line, 1);
    }
}
