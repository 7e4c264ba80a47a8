//! `limina packages browse`: a terminal browser over every configured registry, Elm-style. The
//! state and its transitions are pure (`model.rs`), the screen is drawn from the state alone
//! (`view.rs`), and [`drive`] is the loop between them: draw, read a key, update, carry out the
//! effect. The terminal and the key source are parameters, so tests drive the whole browser over
//! ratatui's `TestBackend` with a list of keys; `terminal.rs` is the real terminal.
//!
//! Install goes through `ops::install`, the same path as `limina packages install`: the
//! [`Approver`] it calls shows the exact `Approval` list (the CLI prompt's lines) in a dialog
//! and waits for y or n, drawing and reading keys in a loop nested in the install. Registry
//! problems (unreachable, bad index, bad signature, refusals) land in the status line; nothing
//! a registry says can end the browser or reach the terminal unescaped (`text.rs`).

mod model;
mod rows;
mod terminal;
mod text;
mod view;

use std::path::Path;

use ratatui::Terminal;
use ratatui::backend::Backend;
use ratatui::buffer::Buffer;

pub use model::Key;
use model::{Dialog, Effect, Model, update};
pub(crate) use terminal::run;
pub use view::PUBLISHERS_WORD;

use crate::packages::registry::fetch::Fetcher;
use crate::packages::registry::lock::Lock;
use crate::packages::registry::ops::{self, Approval, Approver, Project, Request};
use crate::packages::registry::{RegistryError, config};

/// Why the browser stopped other than by the user quitting.
#[derive(Debug, thiserror::Error)]
pub enum BrowseError {
    #[error(
        "limina packages browse needs a terminal (standard input and output); in a script use `limina packages search` and `limina packages install`"
    )]
    NotATerminal,
    #[error("terminal: {0}")]
    Terminal(String),
    /// The project's `limina.toml` does not read.
    #[error("{0}")]
    Project(String),
}

/// Where keys come from: the terminal, or a test's list.
pub trait Keys {
    /// The next key, or `None` when there are no more (the browser then quits). `screen` is
    /// what was just drawn (a test reads it; the terminal does not need it).
    fn next(&mut self, screen: &Buffer) -> Result<Option<Key>, BrowseError>;
}

/// Draws the model and waits for a key.
fn frame<B: Backend>(terminal: &mut Terminal<B>, keys: &mut dyn Keys, model: &Model) -> Result<Option<Key>, BrowseError> {
    let drawn = terminal.draw(|f| view::render(f, model)).map_err(|e| BrowseError::Terminal(e.to_string()))?;
    keys.next(drawn.buffer)
}

/// Draws the model once (a status worth showing before a slow step).
fn show<B: Backend>(terminal: &mut Terminal<B>, model: &Model) -> Result<(), BrowseError> {
    terminal.draw(|f| view::render(f, model)).map(|_| ()).map_err(|e| BrowseError::Terminal(e.to_string()))
}

/// The lines the operator approves: the CLI prompt's, for each package asked about.
fn dialog_lines(asks: &[Approval]) -> Vec<String> {
    let mut lines = vec!["Read from the verified archives, as `limina packages install` shows them:".to_string(), String::new()];
    for a in asks {
        lines.extend(crate::cli::packages_registry::approval_lines(a).iter().map(|l| text::clean(l, 2000)));
        lines.push(String::new());
    }
    lines.push("Install? y = yes, n or Esc = no".into());
    lines
}

/// The approver `ops::install` calls: a dialog over the browser until y or n.
struct DialogApprover<'a, B: Backend> {
    terminal: &'a mut Terminal<B>,
    keys: &'a mut dyn Keys,
    model: &'a mut Model,
    /// A terminal failure met while asking (the install is then refused).
    failed: Option<BrowseError>,
}

impl<B: Backend> Approver for DialogApprover<'_, B> {
    fn approve(&mut self, asks: &[Approval]) -> bool {
        self.model.dialog = Some(Dialog { lines: dialog_lines(asks), scroll: 0 });
        let answer = loop {
            match frame(self.terminal, self.keys, self.model) {
                Ok(Some(key)) => match update(self.model, key) {
                    Effect::Answer(yes) => break yes,
                    _ => continue,
                },
                Ok(None) => break false,
                Err(e) => {
                    self.failed = Some(e);
                    break false;
                }
            }
        };
        self.model.dialog = None;
        answer
    }
}

/// What the status line says about a finished install.
fn installed_status(done: &[ops::Done]) -> String {
    if done.is_empty() {
        return "nothing to install".into();
    }
    let each: Vec<String> = done
        .iter()
        .map(|d| format!("{} {} (trust {})", d.reference, if d.changed { "installed" } else { "already installed" }, d.tier.as_str()))
        .collect();
    each.join("; ")
}

/// Reads the lockfile and marks the rows; a broken lockfile is a status, not an end.
fn refresh_local(project: &Project, model: &mut Model) -> Result<(), RegistryError> {
    let lock = Lock::read(&project.root)?;
    rows::mark_local(project, &lock, &mut model.rows);
    Ok(())
}

/// [`drive`] for the project at `root` with its packages under `scripts`, as `limina packages
/// browse` runs it (the entry point for tests, which own the terminal and the keys).
pub fn drive_at<B: Backend>(terminal: &mut Terminal<B>, keys: &mut dyn Keys, root: &Path, scripts: &Path) -> Result<(), BrowseError> {
    let project = Project {
        root: root.to_path_buf(),
        scripts: scripts.to_path_buf(),
        registries: config::read(root).map_err(|e| BrowseError::Project(e.to_string()))?,
        profile: crate::host::EngineConfig::new(root).profile.as_str().to_string(),
    };
    drive(terminal, keys, &project, &mut Fetcher::new())
}

/// Loads every registry's catalog and runs the browser until the user quits or the keys run
/// out. Registry problems are shown, never returned; only the terminal failing is an error.
pub(crate) fn drive<B: Backend>(
    terminal: &mut Terminal<B>,
    keys: &mut dyn Keys,
    project: &Project,
    fetcher: &mut Fetcher,
) -> Result<(), BrowseError> {
    let mut model = Model::new(Vec::new(), "reading the registries…".into());
    show(terminal, &model)?;
    model = match ops::catalog(project, fetcher) {
        Ok(catalog) => {
            let status = match catalog.problems.as_slice() {
                [] => format!("{} packages from {} registries", catalog.indexes.len(), project.registries.len()),
                [one] => one.to_string(),
                [first, rest @ ..] => format!("{first} (and {} more problems)", rest.len()),
            };
            Model::new(rows::rows(project, &catalog.indexes), status)
        }
        Err(e) => Model::new(Vec::new(), e.to_string()),
    };
    if let Err(e) = refresh_local(project, &mut model) {
        model.status = e.to_string();
    }
    loop {
        let Some(key) = frame(terminal, keys, &model)? else { return Ok(()) };
        match update(&mut model, key) {
            Effect::None | Effect::Answer(_) => {}
            Effect::Quit => return Ok(()),
            Effect::Install { name, version } => {
                model.status = format!("installing {name}@{version}: fetching and verifying…");
                show(terminal, &model)?;
                let range = semver::VersionReq::parse(&format!("={version}")).ok();
                let request = Request { name: name.clone(), range, force_approval: false };
                let mut approver = DialogApprover { terminal: &mut *terminal, keys: &mut *keys, model: &mut model, failed: None };
                let result = ops::install(project, fetcher, &[request], &mut approver);
                if let Some(e) = approver.failed.take() {
                    return Err(e);
                }
                model.status = match result {
                    Ok(done) => installed_status(&done),
                    Err(e) => e.to_string(),
                };
                if let Err(e) = refresh_local(project, &mut model) {
                    model.status = e.to_string();
                }
            }
        }
    }
}
