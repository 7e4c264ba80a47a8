//! Finding packages under a scripts root, and their content hashes.
//!
//! A folder holding `package.luau` (or `package.lua`) is one package made of every `.lua` /
//! `.luau` file under it; any other script file is a single-file mod. Hidden files and folders
//! are skipped. The content hash covers the code files in sorted path order (not the manifest,
//! so a manifest can pin the hash of its code), whatever the file system's listing order.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

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
    /// The package's file (single-file) or folder, as found.
    pub path: PathBuf,
    /// (path relative to the package folder, or the file name; contents), sorted by path.
    pub files: Vec<(String, String)>,
    pub content_hash: String,
}

impl Source {
    pub fn file(&self, relative: &str) -> Option<&str> {
        self.files.iter().find(|(p, _)| p == relative).map(|(_, s)| s.as_str())
    }

    /// What this package is called before its manifest is read (the file stem or folder name).
    pub fn default_name(&self) -> String {
        let stem = self.path.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_default();
        stem.to_lowercase().replace(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'), "_")
    }
}

fn is_script(p: &Path) -> bool {
    p.extension().is_some_and(|e| e == "lua" || e == "luau")
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

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read ({e})", path.display()))
}

fn folder_files(dir: &Path, base: &Path, out: &mut Vec<(String, String)>) -> Result<(), String> {
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for entry in entries {
        if hidden(&entry) {
            continue;
        }
        if entry.is_dir() {
            folder_files(&entry, base, out)?;
        } else if is_script(&entry) {
            let relative = entry.strip_prefix(base).unwrap_or(&entry).to_string_lossy().replace('\\', "/");
            out.push((relative, read(&entry)?));
        }
    }
    Ok(())
}

pub fn manifest_file(dir: &Path) -> Option<PathBuf> {
    ["package.luau", "package.lua"].iter().map(|n| dir.join(n)).find(|p| p.is_file())
}

/// Reads one package at `path` (a script file or a package folder).
pub fn read_package(path: &Path) -> Result<Source, String> {
    if path.is_dir() {
        let mut files = Vec::new();
        folder_files(path, path, &mut files)?;
        files.sort_by(|a, b| a.0.cmp(&b.0));
        // The manifest is left out so it can pin (attest) the hash of the code it describes.
        let code: Vec<(String, String)> = files.iter().filter(|(p, _)| p != "package.luau" && p != "package.lua").cloned().collect();
        let content_hash = content_hash(&code);
        Ok(Source { kind: Kind::Folder, path: path.to_path_buf(), files, content_hash })
    } else {
        let name = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
        let files = vec![(name, read(path)?)];
        let content_hash = content_hash(&files);
        Ok(Source { kind: Kind::SingleFile, path: path.to_path_buf(), files, content_hash })
    }
}

/// Every package under `root`, in path order; unreadable ones are reported, not skipped.
pub fn discover(root: &Path) -> Vec<Result<Source, (PathBuf, String)>> {
    let mut found = Vec::new();
    walk(root, &mut found);
    found
}

fn walk(dir: &Path, found: &mut Vec<Result<Source, (PathBuf, String)>>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for entry in entries {
        if hidden(&entry) {
            continue;
        }
        if entry.is_dir() {
            if manifest_file(&entry).is_some() {
                found.push(read_package(&entry).map_err(|e| (entry.clone(), e)));
            } else {
                walk(&entry, found);
            }
        } else if is_script(&entry) {
            found.push(read_package(&entry).map_err(|e| (entry.clone(), e)));
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
    fn the_hash_changes_with_any_byte_and_not_with_order() {
        let a = vec![("a.luau".to_string(), "x".to_string()), ("b.luau".to_string(), "y".to_string())];
        let mut b = a.clone();
        b[1].1 = "z".into();
        assert_ne!(content_hash(&a), content_hash(&b));
        assert!(content_hash(&a).starts_with("sha256:"));
    }
}
