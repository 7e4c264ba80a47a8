//! The browser's state and its one transition function, [`update`]: pure data, no terminal, no
//! registry, so every key is tested without either (the tests at the bottom).
//!
//! The model holds one [`Row`] per package per registry (its strings already cleaned, see
//! `text.rs`), the filters (kind or category tab, search text), the selection, the approval
//! dialog when one is open, and the status line. `update` returns an [`Effect`] for what the
//! model cannot do itself (install, answer the dialog, quit); `mod.rs` carries it out.

use crate::packages::manifest::Trust;
use crate::packages::registry::index::PackageKind;

/// Longest search text (characters).
pub const MAX_QUERY: usize = 64;

/// A key, as the terminal loop (or a test) hands it over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    Up,
    Down,
    PageUp,
    PageDown,
    Home,
    End,
    Left,
    Right,
    Tab,
    BackTab,
    Enter,
    Esc,
    Backspace,
    Char(char),
    /// Ctrl-C: leaves from anywhere, and answers no to a dialog.
    Interrupt,
    /// The terminal changed size (nothing to do but draw again).
    Resize,
}

/// Where a registry is, as the badge shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    File,
    Https,
    /// Plain http, accepted for loopback only.
    LoopbackHttp,
}

impl Transport {
    pub fn as_str(self) -> &'static str {
        match self {
            Transport::File => "file://",
            Transport::Https => "https",
            Transport::LoopbackHttp => "http (loopback)",
        }
    }
}

/// What the project holds of a row's package.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Local {
    NotInstalled { cached: bool },
    Installed { version: String, update: bool },
}

/// One package of one registry: its newest version's summary (the publisher's word).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub registry: String,
    pub transport: Transport,
    /// The most trust the registry grants.
    pub tier: Trust,
    pub name: String,
    pub kind: PackageKind,
    pub category: Option<String>,
    pub version: String,
    /// The other versions, newest first.
    pub others: Vec<String>,
    pub description: String,
    pub author: String,
    pub capabilities: Vec<String>,
    pub dependencies: Vec<String>,
    pub conflicts: Vec<String>,
    pub secrets: Vec<String>,
    pub local: Local,
    /// Name and description, lowercased, for the search.
    pub haystack: String,
}

/// The tab a list is filtered by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Filter {
    All,
    Kind(PackageKind),
    Category(String),
}

impl Filter {
    pub fn title(&self) -> String {
        match self {
            Filter::All => "all".into(),
            Filter::Kind(PackageKind::Folder) => "code".into(),
            Filter::Kind(PackageKind::Instruction) => "skills".into(),
            Filter::Category(c) => c.clone(),
        }
    }

    fn admits(&self, row: &Row) -> bool {
        match self {
            Filter::All => true,
            Filter::Kind(k) => row.kind == *k,
            Filter::Category(c) => row.category.as_ref() == Some(c),
        }
    }
}

/// The approval dialog: the lines of the exact `Approval` list `ops::install` asks about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dialog {
    pub lines: Vec<String>,
    /// First line shown (the list can be longer than the screen).
    pub scroll: usize,
}

/// What the caller must do after a key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    None,
    Quit,
    /// Install this version of this package (through `ops::install` and its approver).
    Install {
        name: String,
        version: String,
    },
    /// The dialog was answered.
    Answer(bool),
}

#[derive(Debug, Clone, Default)]
pub struct Model {
    pub rows: Vec<Row>,
    /// The tabs: all, code, skills, then each category present, sorted.
    pub filters: Vec<Filter>,
    pub filter: usize,
    pub query: String,
    /// Keys go to the search text.
    pub editing: bool,
    /// Indices into `rows` that pass the filter and the search, in order.
    pub visible: Vec<usize>,
    /// Index into `visible`.
    pub selected: usize,
    pub dialog: Option<Dialog>,
    pub status: String,
}

impl Model {
    pub fn new(rows: Vec<Row>, status: String) -> Model {
        let mut categories: Vec<String> = rows.iter().filter_map(|r| r.category.clone()).collect();
        categories.sort();
        categories.dedup();
        let filters = [Filter::All, Filter::Kind(PackageKind::Folder), Filter::Kind(PackageKind::Instruction)]
            .into_iter()
            .chain(categories.into_iter().map(Filter::Category))
            .collect();
        let mut model = Model { rows, filters, status, ..Model::default() };
        model.refilter();
        model
    }

    pub fn selected_row(&self) -> Option<&Row> {
        self.visible.get(self.selected).map(|&i| &self.rows[i])
    }

    /// Recomputes `visible`, keeping the selected package selected when it still passes.
    fn refilter(&mut self) {
        let was = self.visible.get(self.selected).copied();
        let filter = self.filters.get(self.filter).cloned().unwrap_or(Filter::All);
        let query = self.query.to_lowercase();
        self.visible = (0..self.rows.len()).filter(|&i| filter.admits(&self.rows[i]) && self.rows[i].haystack.contains(&query)).collect();
        self.selected = was.and_then(|w| self.visible.iter().position(|&i| i == w)).unwrap_or(0);
    }

    fn step(&mut self, by: isize) {
        if self.visible.is_empty() {
            return;
        }
        let last = self.visible.len() - 1;
        self.selected = self.selected.saturating_add_signed(by).min(last);
    }

    fn cycle(&mut self, forward: bool) {
        let n = self.filters.len().max(1);
        self.filter = if forward { (self.filter + 1) % n } else { (self.filter + n - 1) % n };
        self.refilter();
    }
}

/// Rows one PageUp/PageDown moves.
const PAGE: isize = 10;

/// Applies one key.
pub fn update(model: &mut Model, key: Key) -> Effect {
    if let Some(dialog) = &mut model.dialog {
        return match key {
            Key::Char('y' | 'Y') => Effect::Answer(true),
            Key::Char('n' | 'N' | 'q') | Key::Esc | Key::Interrupt => Effect::Answer(false),
            Key::Down | Key::Char('j') => {
                dialog.scroll = (dialog.scroll + 1).min(dialog.lines.len().saturating_sub(1));
                Effect::None
            }
            Key::Up | Key::Char('k') => {
                dialog.scroll = dialog.scroll.saturating_sub(1);
                Effect::None
            }
            _ => Effect::None,
        };
    }
    match key {
        Key::Interrupt => return Effect::Quit,
        Key::Up => model.step(-1),
        Key::Down => model.step(1),
        Key::PageUp => model.step(-PAGE),
        Key::PageDown => model.step(PAGE),
        Key::Home => model.selected = 0,
        Key::End => model.step(isize::MAX),
        Key::Tab => model.cycle(true),
        Key::BackTab => model.cycle(false),
        Key::Resize => {}
        _ if model.editing => match key {
            Key::Char(c) if !c.is_control() && model.query.chars().count() < MAX_QUERY => {
                model.query.push(c);
                model.refilter();
            }
            Key::Backspace => {
                model.query.pop();
                model.refilter();
            }
            Key::Enter => model.editing = false,
            Key::Esc => {
                model.editing = false;
                model.query.clear();
                model.refilter();
            }
            _ => {}
        },
        Key::Char('k') => model.step(-1),
        Key::Char('j') => model.step(1),
        Key::Char('g') => model.selected = 0,
        Key::Char('G') => model.step(isize::MAX),
        Key::Right | Key::Char('l') => model.cycle(true),
        Key::Left | Key::Char('h') => model.cycle(false),
        Key::Char('/') => model.editing = true,
        Key::Enter | Key::Char('i') => {
            return match model.selected_row() {
                Some(row) => Effect::Install { name: row.name.clone(), version: row.version.clone() },
                None => {
                    model.status = "nothing selected: no package passes this tab and search".into();
                    Effect::None
                }
            };
        }
        Key::Char('q') | Key::Esc => return Effect::Quit,
        _ => {}
    }
    Effect::None
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    pub(crate) fn row(name: &str, kind: PackageKind, category: Option<&str>, description: &str) -> Row {
        Row {
            registry: "main".into(),
            transport: Transport::File,
            tier: Trust::Verified,
            name: name.into(),
            kind,
            category: category.map(str::to_string),
            version: "1.0.0".into(),
            others: Vec::new(),
            description: description.into(),
            author: String::new(),
            capabilities: Vec::new(),
            dependencies: Vec::new(),
            conflicts: Vec::new(),
            secrets: Vec::new(),
            local: Local::NotInstalled { cached: false },
            haystack: format!("{name} {}", description.to_lowercase()),
        }
    }

    fn sample() -> Model {
        Model::new(
            vec![
                row("alpha", PackageKind::Folder, Some("physics"), "Bouncy things"),
                row("beta", PackageKind::Folder, Some("ui"), "menus"),
                row("gamma", PackageKind::Instruction, Some("physics"), "how to stack"),
                row("delta", PackageKind::Folder, None, "misc"),
            ],
            String::new(),
        )
    }

    fn names(m: &Model) -> Vec<&str> {
        m.visible.iter().map(|&i| m.rows[i].name.as_str()).collect()
    }

    fn press(m: &mut Model, keys: &[Key]) -> Vec<Effect> {
        keys.iter().map(|&k| update(m, k)).collect()
    }

    #[test]
    fn tabs_are_all_kinds_then_categories_and_filter_the_list() {
        let mut m = sample();
        let titles: Vec<String> = m.filters.iter().map(Filter::title).collect();
        assert_eq!(titles, ["all", "code", "skills", "physics", "ui"]);
        assert_eq!(names(&m), ["alpha", "beta", "gamma", "delta"]);
        press(&mut m, &[Key::Tab]);
        assert_eq!(names(&m), ["alpha", "beta", "delta"]);
        press(&mut m, &[Key::Right, Key::Char('l')]);
        assert_eq!(names(&m), ["alpha", "gamma"]);
        press(&mut m, &[Key::Tab, Key::Tab]);
        assert_eq!(m.filter, 0, "cycles back to all");
        press(&mut m, &[Key::BackTab]);
        assert_eq!(names(&m), ["beta"]);
        press(&mut m, &[Key::Left]);
        assert_eq!(names(&m), ["alpha", "gamma"]);
    }

    #[test]
    fn search_matches_name_or_description_and_letters_go_to_the_query() {
        let mut m = sample();
        // While editing, q and j are text, not quit and down.
        let effects = press(&mut m, &[Key::Char('/'), Key::Char('S'), Key::Char('t'), Key::Char('q')]);
        assert!(effects.iter().all(|e| *e == Effect::None), "{effects:?}");
        assert_eq!(m.query, "Stq");
        assert!(names(&m).is_empty());
        press(&mut m, &[Key::Enter]);
        assert!(!m.editing, "Enter ends the search text");
        assert_eq!(update(&mut m, Key::Enter), Effect::None, "Enter with nothing selected installs nothing");
        assert!(m.status.contains("nothing selected"), "{}", m.status);
        press(&mut m, &[Key::Char('/'), Key::Backspace]);
        assert_eq!(names(&m), ["gamma"], "case-insensitive, description too");
        press(&mut m, &[Key::Esc]);
        assert_eq!((m.query.as_str(), m.editing, names(&m).len()), ("", false, 4));
        let long: Vec<Key> = std::iter::once(Key::Char('/')).chain(std::iter::repeat_n(Key::Char('x'), 500)).collect();
        press(&mut m, &long);
        assert_eq!(m.query.chars().count(), MAX_QUERY);
        press(&mut m, &[Key::Char('\u{1b}')]);
        assert!(!m.query.contains('\u{1b}'));
    }

    #[test]
    fn moving_stays_in_bounds_and_the_selection_survives_a_filter() {
        let mut m = sample();
        press(&mut m, &[Key::Up, Key::Char('k')]);
        assert_eq!(m.selected, 0);
        press(&mut m, &[Key::Down, Key::Char('j'), Key::PageDown]);
        assert_eq!(m.selected, 3);
        press(&mut m, &[Key::Home, Key::Char('j'), Key::Char('j')]);
        assert_eq!(m.selected_row().map(|r| r.name.as_str()), Some("gamma"));
        press(&mut m, &[Key::Tab, Key::Tab]);
        assert_eq!(m.selected_row().map(|r| r.name.as_str()), Some("gamma"), "still selected under 'skills'");
        press(&mut m, &[Key::Tab]);
        assert_eq!(m.selected_row().map(|r| r.name.as_str()), Some("gamma"), "and under 'physics'");
        press(&mut m, &[Key::Tab]);
        assert_eq!(m.selected_row().map(|r| r.name.as_str()), Some("beta"), "gone under 'ui': the first row");
        press(&mut m, &[Key::End, Key::PageUp]);
        assert_eq!(m.selected, 0);
        let mut empty = Model::new(Vec::new(), String::new());
        press(&mut empty, &[Key::Down, Key::End, Key::PageUp, Key::Tab]);
        assert_eq!((empty.selected, empty.selected_row()), (0, None));
    }

    #[test]
    fn enter_or_i_asks_to_install_the_selected_version_and_q_quits() {
        let mut m = sample();
        press(&mut m, &[Key::Char('j')]);
        let want = Effect::Install { name: "beta".into(), version: "1.0.0".into() };
        assert_eq!(update(&mut m, Key::Enter), want);
        assert_eq!(update(&mut m, Key::Char('i')), want);
        assert_eq!(update(&mut m, Key::Char('q')), Effect::Quit);
        assert_eq!(update(&mut m, Key::Esc), Effect::Quit);
        assert_eq!(update(&mut m, Key::Interrupt), Effect::Quit);
    }

    #[test]
    fn the_dialog_takes_every_key_and_only_y_approves() {
        let mut m = sample();
        m.dialog = Some(Dialog { lines: vec!["a".into(), "b".into(), "c".into()], scroll: 0 });
        for key in [Key::Enter, Key::Char('i'), Key::Tab, Key::Char('/'), Key::Char('x'), Key::Resize] {
            assert_eq!(update(&mut m, key), Effect::None, "{key:?}");
        }
        assert_eq!((m.filter, m.editing), (0, false), "keys under the dialog never reach the list");
        press(&mut m, &[Key::Down, Key::Down, Key::Down, Key::Down]);
        assert_eq!(m.dialog.as_ref().map(|d| d.scroll), Some(2));
        for no in [Key::Char('n'), Key::Char('N'), Key::Esc, Key::Char('q'), Key::Interrupt] {
            assert_eq!(update(&mut m, no), Effect::Answer(false), "{no:?}");
        }
        assert_eq!(update(&mut m, Key::Char('y')), Effect::Answer(true));
    }
}
