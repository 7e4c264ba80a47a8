//! Watching the scripts root with `notify`, and settling bursts of events (an editor's save is
//! several writes) before a reload is attempted.
//!
//! Symlinks are not followed: discovery never walks a folder through a link (`discover.rs`), so
//! nothing under the root is watched through one. Hidden files are ignored, except the operator's
//! list of disabled packages, kept beside the root (its folder is watched too, for that file
//! alone), so `limina packages disable NAME` applies to a running engine.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use notify::{RecursiveMode, Watcher as _};

/// How long a file must be quiet before it is reloaded.
const SETTLE: Duration = Duration::from_millis(80);

pub(crate) struct Watcher {
    _inner: notify::RecommendedWatcher,
    events: mpsc::Receiver<PathBuf>,
    pending: BTreeSet<PathBuf>,
    last: Option<Instant>,
    /// The scripts root, absolute: changes outside it count only for the disabled list.
    root: PathBuf,
}

impl Watcher {
    pub fn start(root: &Path) -> Result<Self, super::StateError> {
        let (tx, events) = mpsc::channel();
        let handler = move |event: notify::Result<notify::Event>| {
            if let Ok(event) = event {
                if matches!(event.kind, notify::EventKind::Access(_)) {
                    return;
                }
                for path in event.paths {
                    let _ = tx.send(path);
                }
            }
        };
        let config = notify::Config::default().with_follow_symlinks(false);
        let mut inner = notify::RecommendedWatcher::new(handler, config)
            .map_err(|source| super::StateError::Watch { path: root.to_path_buf(), source })?;
        inner.watch(root, RecursiveMode::Recursive).map_err(|source| super::StateError::Watch { path: root.to_path_buf(), source })?;
        // The operator's list of disabled packages lives beside the root: its folder is watched
        // too, not recursively, and only that file's changes are kept (`settled_changes`).
        let outside = std::path::absolute(root).ok().and_then(|r| r.parent().map(Path::to_path_buf));
        if let Some(parent) = &outside {
            inner.watch(parent, RecursiveMode::NonRecursive).map_err(|source| super::StateError::Watch { path: parent.clone(), source })?;
        }
        let root = std::path::absolute(root).unwrap_or_else(|_| root.to_path_buf());
        Ok(Self { _inner: inner, events, pending: BTreeSet::new(), last: None, root })
    }

    /// Paths changed and quiet for a moment; empty while a burst is still going on.
    pub(crate) fn settled_changes(&mut self) -> Vec<PathBuf> {
        while let Ok(path) = self.events.try_recv() {
            let is_list = path.file_name().is_some_and(|n| n == super::DISABLED_FILE);
            let hidden = path.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')) && !is_list;
            let relevant = path.starts_with(&self.root) || is_list;
            if !hidden && relevant {
                self.pending.insert(path);
                self.last = Some(Instant::now());
            }
        }
        match self.last {
            Some(t) if t.elapsed() >= SETTLE && !self.pending.is_empty() => {
                self.last = None;
                std::mem::take(&mut self.pending).into_iter().collect()
            }
            _ => Vec::new(),
        }
    }
}
