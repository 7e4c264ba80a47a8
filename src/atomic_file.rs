//! The one way the engine writes a file: atomically, never through a link, and never over a
//! file it may not replace. Snapshots, scene saves and trace exports all go through `write_with`;
//! `write_atomic` is the form for paths the operator chose.
//!
//! The bytes go to a new temporary file beside the target (same folder, so same file system),
//! opened with `create_new` (`O_CREAT | O_EXCL`, which never follows a link planted at that name
//! and never reuses an existing file), are flushed to disk, and are then put in place:
//!
//! - `Replace::Checked(check)`: a name that exists must be a regular file (not a link) that
//!   `check` accepts, and the rename replaces it. A free name is taken by a hard link to it,
//!   which fails if anything at all (a file, a link, a folder) has taken the name meanwhile, so
//!   nothing is replaced that was not checked; then the temporary name is removed.
//! - `Replace::Any` (the operator's own paths): the rename replaces whatever is there.
//!
//! Then the folder itself is flushed so the new name survives a power cut. A reader never sees a
//! half-written file; a crash leaves at worst a stray `.NAME.*.tmp` file, never a torn target.
//! Folders clients write into are checked by `real_folder`: a link in their place is refused,
//! since it could lead anywhere.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;

/// What may be at the target name already.
#[derive(Clone, Copy)]
pub(crate) enum Replace<'a> {
    /// A regular file `check` accepts (a file the engine wrote), or nothing.
    Checked(&'a dyn Fn(&Path) -> bool),
    /// Anything (an operator's own path).
    Any,
}

/// Why a write was refused before anything was put in place (the `io::Error`'s inner error).
#[derive(Debug, thiserror::Error)]
pub(crate) enum Refused {
    #[error("{0} already exists and is not a file the engine may replace")]
    Exists(String),
    #[error("{0} is a symbolic link; files are written only into the folder itself")]
    Link(String),
    #[error("{0} is not a folder")]
    NotFolder(String),
}

/// A path as a refusal names it: its folder and file name (`traces/x.jsonl`), never the server's
/// absolute path, which a remote client has no business learning.
fn shown(path: &Path) -> String {
    let mut parts: Vec<_> = path.components().rev().take(2).map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    parts.reverse();
    parts.join("/")
}

fn refused(kind: io::ErrorKind, why: Refused) -> io::Error {
    io::Error::new(kind, why)
}

/// Whether `e` is one of `write_with`'s or `real_folder`'s refusals (not a failing disk).
pub(crate) fn is_refusal(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<Refused>())
}

/// Writes `bytes` to `path` atomically, replacing whatever is there (see the module docs).
/// `path` must name a file in an existing folder.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_with(path, Replace::Any, |file| file.write_all(bytes))
}

/// Writes the file at `path` through `write` (which gets the temporary file), then puts it in
/// place as `replace` allows (see the module docs). The temporary file is removed if any step
/// fails, `write` included; what `write` returns is returned.
pub(crate) fn write_with<T>(path: &Path, replace: Replace<'_>, write: impl FnOnce(&mut File) -> io::Result<T>) -> io::Result<T> {
    let name =
        path.file_name().ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, format!("{} does not name a file", path.display())))?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    // Refused before any byte is written (and checked again where it matters, at the link).
    let replace_existing = match fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => false,
        Err(e) => return Err(e),
        Ok(_) if matches!(replace, Replace::Any) => true,
        Ok(meta) if meta.file_type().is_symlink() => {
            return Err(refused(io::ErrorKind::PermissionDenied, Refused::Link(shown(path))));
        }
        Ok(meta) => match replace {
            Replace::Checked(check) if meta.file_type().is_file() && check(path) => true,
            _ => return Err(refused(io::ErrorKind::AlreadyExists, Refused::Exists(shown(path)))),
        },
    };
    let tmp = dir.join(format!(".{}.{}.tmp", name.to_string_lossy(), crate::unguessable::hex(8)));
    let mut file = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
    let written = (|| {
        let value = write(&mut file)?;
        file.flush()?;
        file.sync_all()?;
        drop(file);
        if replace_existing {
            fs::rename(&tmp, path)?;
        } else {
            put_new(&tmp, path)?;
        }
        sync_dir(dir)?;
        Ok(value)
    })();
    // After a rename the temporary name is gone; otherwise it goes now.
    let _ = fs::remove_file(&tmp);
    written
}

/// Gives the finished temporary file the name `path`, which must be free: a hard link fails if
/// anything has the name, even a link, so nothing is replaced. A file system without hard links
/// gets a check and a rename (the name could be taken between the two; only there).
fn put_new(tmp: &Path, path: &Path) -> io::Result<()> {
    match fs::hard_link(tmp, path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Err(refused(io::ErrorKind::AlreadyExists, Refused::Exists(shown(path)))),
        Err(_) if fs::symlink_metadata(path).is_err() => fs::rename(tmp, path),
        Err(_) => Err(refused(io::ErrorKind::AlreadyExists, Refused::Exists(shown(path)))),
    }
}

/// Makes sure `dir` is a real folder clients may have files written into: made (with its
/// parents) if missing, refused if a symbolic link stands in its place (it could lead anywhere)
/// or something else than a folder does.
pub(crate) fn real_folder(dir: &Path) -> io::Result<()> {
    match fs::symlink_metadata(dir) {
        Ok(meta) if meta.file_type().is_symlink() => Err(refused(io::ErrorKind::PermissionDenied, Refused::Link(shown(dir)))),
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(_) => Err(refused(io::ErrorKind::AlreadyExists, Refused::NotFolder(shown(dir)))),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            fs::create_dir_all(dir)?;
            // Made just now, but someone could have raced a link into its place.
            match fs::symlink_metadata(dir) {
                Ok(meta) if meta.is_dir() => Ok(()),
                _ => Err(refused(io::ErrorKind::PermissionDenied, Refused::Link(shown(dir)))),
            }
        }
        Err(e) => Err(e),
    }
}

/// Flushes a folder's entries (the new name) to disk.
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

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<_> = fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        names.sort();
        names
    }

    fn never(_: &Path) -> bool {
        false
    }

    #[test]
    fn a_write_replaces_the_whole_file_and_leaves_no_temporary_behind() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("world.snap");
        write_atomic(&path, b"first, longer content").unwrap();
        write_atomic(&path, b"second").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"second");
        assert_eq!(names(dir.path()), ["world.snap"]);
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
        assert_eq!(names(dir.path()), ["blocked", "world.snap"]);
        assert!(write_atomic(&dir.path().join("missing/world.snap"), b"x").is_err());
        // A failing writer leaves nothing either.
        let e = write_with(&dir.path().join("new"), Replace::Checked(&never), |_| Err::<(), _>(io::Error::other("the writer gave up")))
            .unwrap_err();
        assert_eq!(e.to_string(), "the writer gave up");
        assert_eq!(names(dir.path()), ["blocked", "world.snap"]);
    }

    /// A planted link is never written through, whatever it points at, and a file the engine
    /// may not replace stays as it was.
    #[test]
    fn links_and_files_not_the_engines_are_never_written_over() {
        let outside = tempfile::tempdir().unwrap();
        let target = outside.path().join("victim");
        fs::write(&target, b"precious").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("out.jsonl");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let dangling = dir.path().join("dangling.jsonl");
        std::os::unix::fs::symlink(outside.path().join("not-yet"), &dangling).unwrap();
        let mine = |_: &Path| true;
        for replace in [Replace::Checked(&never), Replace::Checked(&mine)] {
            for path in [&link, &dangling] {
                let e = write_with(path, replace, |f| f.write_all(b"log")).unwrap_err();
                assert!(is_refusal(&e) && e.to_string().contains("is a symbolic link"), "{e}");
            }
        }
        assert_eq!(fs::read(&target).unwrap(), b"precious");
        assert!(!outside.path().join("not-yet").exists());

        let operator = dir.path().join("live.jsonl");
        fs::write(&operator, b"the operator's live trace").unwrap();
        let not_mine = |_: &Path| false;
        for replace in [Replace::Checked(&never), Replace::Checked(&not_mine)] {
            let e = write_with(&operator, replace, |f| f.write_all(b"export")).unwrap_err();
            assert!(is_refusal(&e) && e.kind() == io::ErrorKind::AlreadyExists, "{e}");
        }
        assert_eq!(fs::read(&operator).unwrap(), b"the operator's live trace");
        write_with(&operator, Replace::Checked(&mine), |f| f.write_all(b"export")).unwrap();
        assert_eq!(fs::read(&operator).unwrap(), b"export");
        // A name taken between the check and the link is not replaced either.
        let raced = dir.path().join("raced");
        let e = write_with(&raced, Replace::Checked(&never), |f| {
            fs::write(&raced, b"someone else's")?;
            f.write_all(b"mine")
        })
        .unwrap_err();
        assert!(is_refusal(&e), "{e}");
        assert_eq!(fs::read(&raced).unwrap(), b"someone else's");
        let mut left = names(dir.path());
        left.retain(|n| n.ends_with(".tmp"));
        assert!(left.is_empty(), "{left:?}");
    }

    #[test]
    fn a_linked_folder_is_refused_and_a_missing_one_made() {
        let outside = tempfile::tempdir().unwrap();
        let project = tempfile::tempdir().unwrap();
        let traces = project.path().join("traces");
        std::os::unix::fs::symlink(outside.path(), &traces).unwrap();
        let e = real_folder(&traces).unwrap_err();
        assert!(
            is_refusal(&e) && e.to_string().ends_with("traces is a symbolic link; files are written only into the folder itself"),
            "{e}"
        );
        let made = project.path().join("snapshots/deep");
        real_folder(&made).unwrap();
        assert!(made.is_dir());
        fs::write(project.path().join("file"), b"").unwrap();
        assert!(is_refusal(&real_folder(&project.path().join("file")).unwrap_err()));
    }
}
