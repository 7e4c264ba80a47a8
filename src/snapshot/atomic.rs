//! `write_atomic`: a file is either its old content or all of its new content, even if the
//! process or the machine stops halfway.
//!
//! The bytes go to a new temporary file beside the target (same folder, so same file system),
//! are flushed to disk, then renamed over the target, and the folder itself is flushed so the
//! rename survives a power cut. A reader never sees a half-written file; a crash leaves at worst
//! a stray `.NAME.*.tmp` file, never a torn target.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;

/// Writes `bytes` to `path` atomically (see the module docs). The temporary file is removed if
/// any step fails. `path` must name a file in an existing folder.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let name =
        path.file_name().ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, format!("{} does not name a file", path.display())))?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let tmp = dir.join(format!(".{}.{}.tmp", name.to_string_lossy(), crate::unguessable::hex(8)));
    // `create_new`: never follows a link planted at the temporary name, never reuses a file.
    let mut file = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
    let written = (|| {
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp, path)?;
        sync_dir(dir)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    written
}

/// Flushes a folder's entries (the rename) to disk.
#[cfg(unix)]
fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

/// Windows cannot open a folder as a file; its renames are journaled by NTFS.
#[cfg(not(unix))]
fn sync_dir(_dir: &Path) -> io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_replaces_the_whole_file_and_leaves_no_temporary_behind() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("world.snap");
        write_atomic(&path, b"first, longer content").unwrap();
        write_atomic(&path, b"second").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"second");
        let names: Vec<_> = fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, vec![std::ffi::OsString::from("world.snap")]);
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("world.snap");
        write_atomic(&path, b"old").unwrap();
        // A folder where the file should go: the rename fails after the temporary was written.
        let blocked = dir.path().join("blocked");
        fs::create_dir(&blocked).unwrap();
        fs::write(blocked.join("inside"), b"x").unwrap();
        assert!(write_atomic(&blocked, b"new").is_err());
        assert_eq!(fs::read(&path).unwrap(), b"old");
        let mut names: Vec<_> = fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        names.sort();
        assert_eq!(names, ["blocked", "world.snap"]);
        assert!(write_atomic(&dir.path().join("missing/world.snap"), b"x").is_err());
    }
}
