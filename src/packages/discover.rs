//! Finding packages under a scripts root, and their content hashes.
//!
//! A folder holding `package.luau` (or `package.lua`) is one package made of every `.lua` /
//! `.luau` file under it; any other script file is a single-file mod. Hidden files and folders
//! are skipped. The content hash covers the code files in sorted path order (not the manifest,
//! so a manifest can pin the hash of its code), whatever the file system's listing order.
//!
//! **Files stay inside the root.** Discovery reads only regular files whose real path (every
//! symlink resolved) lies inside the real path of the scripts root, and never walks into a
//! folder through a symlink. A link to a folder inside the root would only find that folder a
//! second time (it is found at its real path), a link to `.` or a parent would walk forever, and a
//! link out of the root would bring in code nobody put under it. So:
//!
//! | entry | outcome |
//! |---|---|
//! | a folder, not a link | walked |
//! | a link to a folder inside the root | skipped (found at its real path; cycles never followed) |
//! | a link to a folder or script outside the root | refused, `path.escape` |
//! | a script (or a link to one) inside the root | read, if it is a regular file of at most `MAX_SCRIPT_BYTES` |
//! | a script that is not a regular file (a FIFO would block the read forever) | refused, `package.unreadable` |
//!
//! A package with one refused file is refused as a whole: loading it without that file would run
//! something its author did not write. Hard links cannot point at folders and name no other
//! place, so they need no rule. (A link swapped for another between the check and the read could
//! still redirect one read; the scripts root belongs to the operator, so that race is out of
//! scope.)

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// Largest script file discovery reads: 1 MiB, about a hundred times the largest Luau file in
/// this repository. Reading is not the cost to guard against: Luau's compiler, which runs
/// outside any VM's memory limit, used about 115 bytes per token and 0.6 s per MiB (a 16 MiB
/// file of `1,1,1,…` took 9.6 s and 1.9 GB before any sandbox limit applied, at every start).
pub(crate) const MAX_SCRIPT_BYTES: u64 = 1 << 20;
/// Script bytes discovery takes from the whole scripts root: the compile cost is per byte, so
/// the per-file cap alone let 48 files just under it cost 20 s at every start. Packages past
/// it (in path order) are refused whole.
pub(crate) const MAX_TOTAL_SCRIPT_BYTES: u64 = 4 << 20;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    SingleFile,
    Folder,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::SingleFile => "single-file",
            Kind::Folder => "folder",
        }
    }
}

/// The files of one package, read at discovery time (reloads and VM rebuilds use this snapshot).
#[derive(Debug, Clone, PartialEq)]
pub struct Source {
    pub kind: Kind,
    /// The package's file (single-file) or folder, as found. This is the package's identity.
    pub path: PathBuf,
    /// (path relative to the package folder, or the file name; contents), sorted by path.
    pub files: Vec<(String, String)>,
    pub content_hash: String,
}

impl Source {
    /// The package's path as anyone may be shown it (events, refusals, `package.list`): its
    /// folder's name and its own (`scripts/greet.luau`, `packages/fence`), never the server's
    /// absolute folders.
    pub fn shown(&self) -> String {
        shown(&self.path)
    }

    pub fn file(&self, relative: &str) -> Option<&str> {
        self.files.iter().find(|(p, _)| p == relative).map(|(_, s)| s.as_str())
    }

    /// What this package is called before its manifest is read (the file stem or folder name).
    pub(crate) fn default_name(&self) -> String {
        let stem = self.path.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_default();
        stem.to_lowercase().replace(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'), "_")
    }

    /// The sha256 of a folder package's manifest file (a single-file mod's manifest is part of
    /// its code, so of its content hash).
    pub fn manifest_hash(&self) -> Option<String> {
        if self.kind != Kind::Folder {
            return None;
        }
        let (_, text) = self.files.iter().find(|(p, _)| is_manifest_name(p))?;
        Some(crate::digest::sha256_text(&Sha256::digest(text.as_bytes())))
    }
}

/// Why a path under the scripts root was not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiscoverError {
    #[error("{path}: a symbolic link to {target}, outside the scripts root {root} (files stay inside the scripts root)")]
    Escapes { path: String, target: String, root: String },
    #[error("{path}: not a regular file (only regular files, or links to them inside the scripts root, are read)")]
    NotAFile { path: String },
    #[error("{path}: {size} bytes is more than the {MAX_SCRIPT_BYTES} bytes a script file may have")]
    TooLarge { path: String, size: u64 },
    #[error("{path}: cannot read ({message})")]
    Unreadable { path: String, message: String },
    #[error("{path}: the scripts before it already hold {before} bytes; the scripts root may hold {MAX_TOTAL_SCRIPT_BYTES}")]
    TotalTooLarge { path: String, before: u64 },
}

impl DiscoverError {
    /// True when a path left the scripts root (the `path.escape` rule).
    pub fn escapes(&self) -> bool {
        matches!(self, DiscoverError::Escapes { .. })
    }
}

fn is_script(p: &Path) -> bool {
    p.extension().is_some_and(|e| e == "lua" || e == "luau")
}

fn is_manifest_name(relative: &str) -> bool {
    relative == "package.luau" || relative == "package.lua"
}

fn hidden(p: &Path) -> bool {
    p.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.'))
}

pub fn content_hash(files: &[(String, String)]) -> String {
    let mut h = Sha256::new();
    for (path, contents) in files {
        h.update(path.as_bytes());
        h.update([0]);
        h.update((contents.len() as u64).to_le_bytes());
        h.update(contents.as_bytes());
    }
    crate::digest::sha256_text(&h.finalize())
}

/// What one directory entry is, by the rules in the module doc.
enum Entry {
    /// A real folder to walk.
    Folder,
    /// A script to read, at this real path.
    Script(PathBuf),
    /// Not ours (not a script, hidden, or a link to a folder found elsewhere).
    Skip,
}

/// The root's real path: every path discovery reads must lie inside it.
fn real_root(root: &Path) -> PathBuf {
    root.canonicalize().unwrap_or_else(|_| root.to_path_buf())
}

fn classify(entry: &Path, real_root: &Path) -> Result<Entry, DiscoverError> {
    let shown = || entry.display().to_string();
    let unreadable = |e: std::io::Error| DiscoverError::Unreadable { path: shown(), message: e.to_string() };
    if hidden(entry) {
        return Ok(Entry::Skip);
    }
    let meta = std::fs::symlink_metadata(entry).map_err(unreadable)?;
    let (real, meta) = if meta.file_type().is_symlink() {
        let real = match entry.canonicalize() {
            Ok(real) => real,
            // A dangling link, or one in a loop: refused if it names a script, else not ours.
            Err(e) if is_script(entry) => return Err(unreadable(e)),
            Err(_) => return Ok(Entry::Skip),
        };
        let target = std::fs::metadata(&real).map_err(unreadable)?;
        if (target.is_dir() || is_script(entry)) && !real.starts_with(real_root) {
            return Err(DiscoverError::Escapes {
                path: shown(),
                target: real.display().to_string(),
                root: real_root.display().to_string(),
            });
        }
        if target.is_dir() {
            return Ok(Entry::Skip);
        }
        (real, target)
    } else {
        (entry.to_path_buf(), meta)
    };
    if meta.is_dir() {
        return Ok(Entry::Folder);
    }
    if !is_script(entry) {
        return Ok(Entry::Skip);
    }
    if !meta.is_file() {
        return Err(DiscoverError::NotAFile { path: shown() });
    }
    if meta.len() > MAX_SCRIPT_BYTES {
        return Err(DiscoverError::TooLarge { path: shown(), size: meta.len() });
    }
    Ok(Entry::Script(real))
}

fn read(shown: &Path, real: &Path) -> Result<String, DiscoverError> {
    use std::io::Read;
    let unreadable = |e: std::io::Error| DiscoverError::Unreadable { path: shown.display().to_string(), message: e.to_string() };
    // At most one byte past the cap: a file that grew since it was measured is not read whole.
    let mut text = String::new();
    std::fs::File::open(real).map_err(unreadable)?.take(MAX_SCRIPT_BYTES + 1).read_to_string(&mut text).map_err(unreadable)?;
    if text.len() as u64 > MAX_SCRIPT_BYTES {
        return Err(DiscoverError::TooLarge { path: shown.display().to_string(), size: text.len() as u64 });
    }
    Ok(text)
}

fn sorted_entries(dir: &Path) -> Result<Vec<PathBuf>, DiscoverError> {
    let listing =
        std::fs::read_dir(dir).map_err(|e| DiscoverError::Unreadable { path: dir.display().to_string(), message: e.to_string() })?;
    let mut entries: Vec<PathBuf> = listing.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    Ok(entries)
}

fn folder_files(dir: &Path, base: &Path, real_root: &Path, out: &mut Vec<(String, String)>) -> Result<(), DiscoverError> {
    for entry in sorted_entries(dir)? {
        match classify(&entry, real_root)? {
            Entry::Folder => folder_files(&entry, base, real_root, out)?,
            Entry::Script(real) => {
                let relative = entry.strip_prefix(base).unwrap_or(&entry).to_string_lossy().replace('\\', "/");
                out.push((relative, read(&entry, &real)?));
            }
            Entry::Skip => {}
        }
    }
    Ok(())
}

/// The manifest file of a package folder, if `dir` is one (a link named `package.luau` counts:
/// reading the folder then applies the link rules to it).
pub(crate) fn manifest_file(dir: &Path) -> Option<PathBuf> {
    ["package.luau", "package.lua"].iter().map(|n| dir.join(n)).find(|p| p.symlink_metadata().is_ok_and(|m| !m.is_dir()))
}

/// Reads one package at `path` (a script file or a package folder) under the scripts `root`.
pub fn read_package(root: &Path, path: &Path) -> Result<Source, DiscoverError> {
    let real_root = real_root(root);
    match classify(path, &real_root)? {
        Entry::Folder => {
            let mut files = Vec::new();
            folder_files(path, path, &real_root, &mut files)?;
            files.sort_by(|a, b| a.0.cmp(&b.0));
            // The manifest is left out so it can pin (attest) the hash of the code it describes.
            let code: Vec<(String, String)> = files.iter().filter(|(p, _)| !is_manifest_name(p)).cloned().collect();
            let content_hash = content_hash(&code);
            Ok(Source { kind: Kind::Folder, path: path.to_path_buf(), files, content_hash })
        }
        Entry::Script(real) => {
            let name = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
            let files = vec![(name, read(path, &real)?)];
            let content_hash = content_hash(&files);
            Ok(Source { kind: Kind::SingleFile, path: path.to_path_buf(), files, content_hash })
        }
        Entry::Skip => Err(DiscoverError::NotAFile { path: shown(path) }),
    }
}

/// A package path as anyone may be shown it: its folder's name and its own.
pub(crate) fn shown(path: &Path) -> String {
    let file = path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
    match path.parent().and_then(Path::file_name) {
        Some(folder) => format!("{}/{file}", folder.to_string_lossy()),
        None => file,
    }
}

/// Every package under `root`, in path order; unreadable or refused ones are reported, not
/// skipped.
pub fn discover(root: &Path) -> Vec<Result<Source, (PathBuf, DiscoverError)>> {
    let mut found = Vec::new();
    let real_root = real_root(root);
    walk(root, root, &real_root, &mut found);
    let mut total = 0u64;
    for result in &mut found {
        if let Ok(source) = result {
            let bytes: u64 = source.files.iter().map(|(_, text)| text.len() as u64).sum();
            if total + bytes > MAX_TOTAL_SCRIPT_BYTES {
                let path = source.path.clone();
                *result = Err((path.clone(), DiscoverError::TotalTooLarge { path: shown(&path), before: total }));
                continue;
            }
            total += bytes;
        }
    }
    found
}

/// Every instruction skill under `root` (a folder holding `SKILL.md`, or a `<name>.skill.md`
/// file), in path order, by the same walking rules as packages: hidden entries skipped, no folder
/// entered through a link, not inside a package folder (its files are its code). A link out of
/// the root is left for `instructions::load` to refuse, naming it.
pub(crate) fn instruction_skills(root: &Path) -> Vec<crate::instructions::Location> {
    let mut found = Vec::new();
    walk_instructions(root, 0, &mut found);
    found
}

/// Most instruction skills one scripts root may hold: far above any library anyone curates, and
/// a bound on what every reload reads and every `prompts/list` answer carries. The walk stops at
/// one past it, so a folder of a million skills costs a bounded read.
pub(crate) const MAX_INSTRUCTION_SKILLS: usize = 256;

fn walk_instructions(dir: &Path, depth: usize, found: &mut Vec<crate::instructions::Location>) {
    use crate::instructions::Location;
    // Deeper than any layout anyone writes; a bound so a pathological tree costs little.
    const MAX_DEPTH: usize = 8;
    let Ok(entries) = sorted_entries(dir) else { return };
    for entry in entries {
        if found.len() > MAX_INSTRUCTION_SKILLS {
            return;
        }
        if hidden(&entry) {
            continue;
        }
        let is_real_dir = entry.symlink_metadata().is_ok_and(|m| m.is_dir());
        // A folder with a package manifest is a typed package: a `SKILL.md` in it is one of its
        // files, not a second thing with the same name.
        let is_package = is_real_dir && manifest_file(&entry).is_some();
        match Location::of(&entry).filter(|_| !is_package) {
            Some(at) => found.push(at),
            None if is_real_dir && depth < MAX_DEPTH && manifest_file(&entry).is_none() => walk_instructions(&entry, depth + 1, found),
            None => {}
        }
    }
}

fn walk(root: &Path, dir: &Path, real_root: &Path, found: &mut Vec<Result<Source, (PathBuf, DiscoverError)>>) {
    let entries = match sorted_entries(dir) {
        Ok(entries) => entries,
        Err(e) => {
            // The root itself missing means no mods; a subfolder that cannot be listed is reported.
            if dir != root {
                found.push(Err((dir.to_path_buf(), e)));
            }
            return;
        }
    };
    for entry in entries {
        match classify(&entry, real_root) {
            Ok(Entry::Folder) if manifest_file(&entry).is_some() => found.push(read_package(root, &entry).map_err(|e| (entry.clone(), e))),
            // An instruction skill's folder holds knowledge, never code: a `.luau` example beside
            // its SKILL.md is a resource, not a mod (`instruction_skills` finds the folder).
            Ok(Entry::Folder) if entry.join(crate::instructions::SKILL_FILE).symlink_metadata().is_ok() => {}
            Ok(Entry::Folder) => walk(root, &entry, real_root, found),
            Ok(Entry::Script(_)) => found.push(read_package(root, &entry).map_err(|e| (entry.clone(), e))),
            Ok(Entry::Skip) => {}
            Err(e) => found.push(Err((entry.clone(), e))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_with_manifests_are_packages_and_other_files_are_mods() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(root.join("hello.luau"), "return {}").unwrap();
        std::fs::write(root.join("README.md"), "not a script").unwrap();
        std::fs::create_dir_all(root.join("towers/lib")).unwrap();
        std::fs::write(root.join("towers/package.luau"), "return {}").unwrap();
        std::fs::write(root.join("towers/init.luau"), "return {}").unwrap();
        std::fs::write(root.join("towers/lib/math.luau"), "return {}").unwrap();
        std::fs::create_dir_all(root.join("misc/.hidden")).unwrap();
        std::fs::write(root.join("misc/one.lua"), "return {}").unwrap();
        std::fs::write(root.join("misc/.hidden/x.lua"), "return {}").unwrap();
        let found: Vec<Source> = discover(root).into_iter().map(Result::unwrap).collect();
        let kinds: Vec<(Kind, String)> = found.iter().map(|s| (s.kind, s.default_name())).collect();
        assert_eq!(kinds, [(Kind::SingleFile, "hello".into()), (Kind::SingleFile, "one".into()), (Kind::Folder, "towers".into())]);
        let towers = &found[2];
        assert_eq!(towers.files.iter().map(|f| f.0.as_str()).collect::<Vec<_>>(), ["init.luau", "lib/math.luau", "package.luau"]);
    }

    #[test]
    fn a_script_past_one_mib_is_refused_before_it_is_read_or_compiled() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let fat = "1,".repeat((MAX_SCRIPT_BYTES as usize) / 2 + 1);
        std::fs::write(root.join("fat.luau"), format!("return {{{fat}}}")).unwrap();
        std::fs::write(root.join("fine.luau"), format!("return {{{}}}", &fat[..fat.len() - 64])).unwrap();
        let found = discover(root);
        let (_, e) = found.iter().find_map(|r| r.as_ref().err()).expect("the fat script is refused");
        assert!(e.to_string().ends_with("bytes is more than the 1048576 bytes a script file may have"), "{e}");
        assert!(found.iter().any(|r| r.as_ref().is_ok_and(|s| s.default_name() == "fine")), "a script just under the cap is read");
    }

    #[test]
    fn the_scripts_root_holds_at_most_four_mib_in_all() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let almost = "-".repeat(MAX_SCRIPT_BYTES as usize - 10);
        for i in 0..6 {
            std::fs::write(root.join(format!("m{i}.luau")), &almost).unwrap();
        }
        let found = discover(root);
        let taken: Vec<String> = found.iter().filter_map(|r| r.as_ref().ok().map(|s| s.default_name())).collect();
        assert_eq!(taken, ["m0", "m1", "m2", "m3"], "the first four MiB, in path order");
        let (_, e) = found[4].as_ref().unwrap_err();
        assert!(e.to_string().contains("already hold 4194264 bytes; the scripts root may hold 4194304"), "{e}");
    }

    #[test]
    fn links_are_read_inside_the_root_skipped_as_folders_and_refused_outside() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let (root, outside) = (dir.path().join("scripts"), dir.path().join("outside.luau"));
        std::fs::create_dir_all(root.join("pkg")).unwrap();
        std::fs::write(&outside, "return 'outside'").unwrap();
        std::fs::write(root.join("pkg/package.luau"), "return {}").unwrap();
        std::fs::write(root.join("pkg/init.luau"), "return {}").unwrap();
        symlink(".", root.join("pkg/self")).unwrap();
        symlink("..", root.join("pkg/up")).unwrap();
        symlink("init.luau", root.join("pkg/alias.luau")).unwrap();
        symlink(&outside, root.join("away.luau")).unwrap();
        symlink("nowhere.luau", root.join("dangling.luau")).unwrap();
        let found = discover(&root);
        assert_eq!(found.len(), 3, "{found:?}");
        let (away, why) = found[0].as_ref().unwrap_err();
        assert!(away.ends_with("away.luau") && why.escapes(), "{why}");
        assert!(why.to_string().contains("outside the scripts root"), "{why}");
        let (dangling, why) = found[1].as_ref().unwrap_err();
        assert!(dangling.ends_with("dangling.luau") && matches!(why, DiscoverError::Unreadable { .. }), "{why}");
        let pkg = found[2].as_ref().unwrap();
        let names: Vec<&str> = pkg.files.iter().map(|f| f.0.as_str()).collect();
        assert_eq!(names, ["alias.luau", "init.luau", "package.luau"], "links to folders are never walked");
    }

    #[test]
    fn the_hash_changes_with_any_byte_and_not_with_order() {
        let a = vec![("a.luau".to_string(), "x".to_string()), ("b.luau".to_string(), "y".to_string())];
        let mut b = a.clone();
        b[1].1 = "z".into();
        assert_ne!(content_hash(&a), content_hash(&b));
        assert!(content_hash(&a).starts_with("sha256:"));
    }
}
