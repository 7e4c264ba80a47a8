//! Package archives: a gzipped tar of one package folder's files, made reproducibly and unpacked
//! under strict confinement.
//!
//! gzip+tar because anyone can look inside one (`tar tzf`) and both crates are well kept; the
//! dangerous half of tar (links, devices, absolute or `..` paths, permissions, owners) is simply
//! refused rather than interpreted: only regular files and folders are accepted, every path
//! must be made of plain relative components, and the whole archive is read into memory under
//! caps on entries and bytes before one file is written. Files are written with `create_new`
//! into a fresh folder, so nothing in an archive can reach outside it. Callers verify the
//! archive's hash and signature *before* calling [`unpack`] (`install.rs`).

use std::io::Read as _;
use std::path::{Component, Path};

use super::RegistryError;

/// Most entries an archive may hold.
pub const MAX_ENTRIES: usize = 1000;
/// Most bytes all files of an unpacked archive may hold (the scripts root loads at most 4 MiB of
/// code; instruction skills may carry larger resources).
pub const MAX_UNPACKED_BYTES: u64 = 16 << 20;
/// Most bytes of one compressed archive (checked on download, before the hash).
pub const MAX_ARCHIVE_BYTES: u64 = 8 << 20;

fn invalid(problem: impl Into<String>) -> RegistryError {
    RegistryError::Archive(problem.into())
}

/// Files of a package folder, relative and sorted: every regular file except hidden ones.
fn package_files(dir: &Path, base: &Path, out: &mut Vec<(String, Vec<u8>)>, total: &mut u64) -> Result<(), RegistryError> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| invalid(format!("cannot list {} ({e})", dir.display())))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for path in entries {
        if path.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')) {
            continue;
        }
        let meta = std::fs::symlink_metadata(&path).map_err(|e| invalid(format!("{} ({e})", path.display())))?;
        if meta.file_type().is_symlink() {
            return Err(invalid(format!("{} is a symbolic link: a published package holds regular files only", path.display())));
        }
        if meta.is_dir() {
            package_files(&path, base, out, total)?;
            continue;
        }
        if !meta.is_file() {
            return Err(invalid(format!("{} is not a regular file", path.display())));
        }
        *total += meta.len();
        if *total > MAX_UNPACKED_BYTES || out.len() >= MAX_ENTRIES {
            return Err(invalid(format!("the package is larger than {MAX_UNPACKED_BYTES} bytes or {MAX_ENTRIES} files")));
        }
        let relative = path.strip_prefix(base).unwrap_or(&path).to_string_lossy().replace('\\', "/");
        let bytes = std::fs::read(&path).map_err(|e| invalid(format!("{} ({e})", path.display())))?;
        out.push((relative, bytes));
    }
    Ok(())
}

/// The archive of the package folder `dir`: the same files always give the same bytes (sorted
/// entries, mode 0644, owner 0, time 0), so a publisher can rebuild and compare.
pub fn pack(dir: &Path) -> Result<Vec<u8>, RegistryError> {
    let mut files = Vec::new();
    package_files(dir, dir, &mut files, &mut 0)?;
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let mut tar = tar::Builder::new(gz);
    for (path, bytes) in &files {
        let mut header = tar::Header::new_ustar();
        header.set_entry_type(tar::EntryType::Regular);
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.set_mtime(0);
        header.set_uid(0);
        header.set_gid(0);
        tar.append_data(&mut header, path, bytes.as_slice()).map_err(|e| invalid(format!("{path}: {e}")))?;
    }
    let gz = tar.into_inner().map_err(|e| invalid(e.to_string()))?;
    gz.finish().map_err(|e| invalid(e.to_string()))
}

/// A path inside an archive, checked: plain relative components only, no hidden ones.
fn checked_path(path: &Path) -> Result<String, RegistryError> {
    let mut parts = Vec::new();
    for component in path.components() {
        match component {
            Component::Normal(part) => {
                let part = part.to_str().ok_or_else(|| invalid(format!("entry {} is not UTF-8", path.display())))?;
                if part.starts_with('.') || part.contains('\\') {
                    return Err(invalid(format!("entry {} has a hidden or backslashed part '{part}'", path.display())));
                }
                parts.push(part.to_string());
            }
            Component::CurDir => {}
            _ => return Err(invalid(format!("entry {} leaves the package folder (absolute or `..`)", path.display()))),
        }
    }
    if parts.is_empty() || parts.len() > 8 {
        return Err(invalid(format!("entry '{}' is empty or nested deeper than 8 folders", path.display())));
    }
    Ok(parts.join("/"))
}

/// Reads an archive's files into memory, refusing anything but plain files and folders.
pub fn read(bytes: &[u8]) -> Result<Vec<(String, Vec<u8>)>, RegistryError> {
    // The decompressed stream is capped: a gzip bomb stops at the cap plus one tar block.
    let gz = flate2::read::GzDecoder::new(bytes).take(MAX_UNPACKED_BYTES + (MAX_ENTRIES as u64 + 2) * 1024);
    let mut archive = tar::Archive::new(gz);
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let mut total = 0u64;
    let entries = archive.entries().map_err(|e| invalid(format!("not a tar.gz archive ({e})")))?;
    for (count, entry) in entries.enumerate() {
        if count >= MAX_ENTRIES {
            return Err(invalid(format!("more than {MAX_ENTRIES} entries")));
        }
        let mut entry = entry.map_err(|e| invalid(format!("unreadable entry ({e})")))?;
        let path = entry.path().map_err(|e| invalid(format!("unreadable entry path ({e})")))?.into_owned();
        let kind = entry.header().entry_type();
        let path = checked_path(&path)?;
        match kind {
            tar::EntryType::Directory => continue,
            tar::EntryType::Regular | tar::EntryType::Continuous => {}
            other => {
                return Err(invalid(format!(
                    "entry {path} is a {other:?}: only regular files and folders are unpacked (no links or devices)"
                )));
            }
        }
        let size = entry.header().size().map_err(|e| invalid(format!("entry {path}: bad size ({e})")))?;
        total = total.saturating_add(size);
        if total > MAX_UNPACKED_BYTES {
            return Err(invalid(format!("unpacks to more than {MAX_UNPACKED_BYTES} bytes (at entry {path})")));
        }
        let mut data = Vec::with_capacity(size as usize);
        entry.by_ref().take(size).read_to_end(&mut data).map_err(|e| invalid(format!("entry {path}: {e}")))?;
        if files.iter().any(|(p, _)| *p == path) {
            return Err(invalid(format!("entry {path} appears twice")));
        }
        files.push((path, data));
    }
    if files.is_empty() {
        return Err(invalid("the archive holds no files"));
    }
    Ok(files)
}

/// Writes `files` into `dest`, which must not exist yet (a fresh staging folder).
pub fn write(files: &[(String, Vec<u8>)], dest: &Path) -> Result<(), RegistryError> {
    let fail = |p: &Path, e: std::io::Error| invalid(format!("cannot write {} ({e})", p.display()));
    std::fs::create_dir(dest).map_err(|e| fail(dest, e))?;
    for (relative, data) in files {
        let path = dest.join(relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| fail(parent, e))?;
        }
        let mut file = std::fs::OpenOptions::new().write(true).create_new(true).open(&path).map_err(|e| fail(&path, e))?;
        std::io::Write::write_all(&mut file, data).map_err(|e| fail(&path, e))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tar_with(path: &str, kind: tar::EntryType, data: &[u8], link: Option<&str>) -> Vec<u8> {
        let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        let mut tar = tar::Builder::new(gz);
        let mut header = tar::Header::new_gnu();
        header.set_entry_type(kind);
        header.set_size(data.len() as u64);
        // Written raw, so the builder's own path checks do not stop the hostile name.
        let name = header.as_old_mut();
        name.name[..path.len()].copy_from_slice(path.as_bytes());
        if let Some(link) = link {
            name.linkname[..link.len()].copy_from_slice(link.as_bytes());
        }
        header.set_cksum();
        tar.append(&header, data).unwrap();
        tar.into_inner().unwrap().finish().unwrap()
    }

    #[test]
    fn packing_is_reproducible_and_round_trips() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("lib")).unwrap();
        std::fs::write(dir.path().join("package.luau"), "return {}").unwrap();
        std::fs::write(dir.path().join("lib/a.luau"), "return 1").unwrap();
        std::fs::write(dir.path().join(".hidden"), "x").unwrap();
        let a = pack(dir.path()).unwrap();
        assert_eq!(a, pack(dir.path()).unwrap());
        let files = read(&a).unwrap();
        assert_eq!(files.iter().map(|(p, _)| p.as_str()).collect::<Vec<_>>(), ["lib/a.luau", "package.luau"]);
    }

    #[test]
    fn hostile_entries_are_refused() {
        let cases = [
            (tar_with("../evil.luau", tar::EntryType::Regular, b"x", None), "leaves the package folder"),
            (tar_with("/etc/evil", tar::EntryType::Regular, b"x", None), "leaves the package folder"),
            (tar_with("link", tar::EntryType::Symlink, b"", Some("/etc/passwd")), "only regular files"),
            (tar_with("hard", tar::EntryType::Link, b"", Some("package.luau")), "only regular files"),
            (tar_with("dev", tar::EntryType::Char, b"", None), "only regular files"),
            (tar_with(".git/config", tar::EntryType::Regular, b"x", None), "hidden"),
            (b"not gzip at all".to_vec(), "entry"),
        ];
        for (bytes, want) in cases {
            let err = read(&bytes).unwrap_err().to_string();
            assert!(err.contains(want), "{err} should contain {want}");
        }
    }

    #[test]
    fn a_gzip_bomb_stops_at_the_cap() {
        let big = vec![0u8; (MAX_UNPACKED_BYTES + 1) as usize];
        let bytes = tar_with("big.luau", tar::EntryType::Regular, &big, None);
        assert!(bytes.len() < 100_000, "{} compressed", bytes.len());
        let err = read(&bytes).unwrap_err().to_string();
        assert!(err.contains("more than"), "{err}");
    }
}
