//! Draws a [`Model`] with ratatui widgets: the tabs and search line on top, the package list on
//! the left, the preview of the selected package on the right, the status and key help at the
//! bottom, and the approval dialog over everything when one is open. Pure: the same model draws
//! the same screen, and only the rows on screen are turned into widgets, so a registry of
//! thousands of packages costs one screen of work per frame.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, Clear, List, ListItem, ListState, Paragraph, Tabs, Wrap};

use super::model::{Filter, Local, Model, Row};
use super::text::clean;
use crate::packages::registry::index::PackageKind;

/// The preview's closing words: who vouches for what is shown, and what is approved instead.
pub const PUBLISHERS_WORD: &str = "This summary is the publisher's word, unsigned. What you approve is read from the \
verified archive at install (signature, hash, its own manifest) and shown before anything is installed.";

fn kind_text(kind: PackageKind) -> &'static str {
    match kind {
        PackageKind::Folder => "code",
        PackageKind::Instruction => "skill",
    }
}

fn local_text(local: &Local) -> String {
    match local {
        Local::Installed { version, update: true } => format!("installed {version}, update available"),
        Local::Installed { version, update: false } => format!("installed {version}"),
        Local::NotInstalled { cached: true } => "cached".into(),
        Local::NotInstalled { cached: false } => "not installed".into(),
    }
}

fn list_or_none(items: &[String]) -> String {
    if items.is_empty() { "none".into() } else { items.join(", ") }
}

pub fn render(frame: &mut Frame, model: &Model) {
    let [tabs, search, body, status, help] =
        Layout::vertical([Constraint::Length(1), Constraint::Length(1), Constraint::Min(3), Constraint::Length(3), Constraint::Length(1)])
            .areas(frame.area());
    let titles: Vec<String> = model.filters.iter().map(Filter::title).collect();
    frame.render_widget(
        Tabs::new(titles).select(model.filter).highlight_style(Style::new().add_modifier(Modifier::REVERSED)).divider("|"),
        tabs,
    );
    let cursor = if model.editing { "_" } else { "" };
    let counts = format!("  ({} of {} packages)", model.visible.len(), model.rows.len());
    frame.render_widget(Paragraph::new(Line::from(vec![Span::raw(format!("search: {}{cursor}", model.query)), Span::raw(counts)])), search);
    let [list, preview] = Layout::horizontal([Constraint::Percentage(45), Constraint::Percentage(55)]).areas(body);
    render_list(frame, model, list);
    render_preview(frame, model.selected_row(), preview);
    // Three lines, wrapped: registry errors name a URL, a file and what to do about it.
    frame.render_widget(Paragraph::new(clean(&model.status, 1000)).wrap(Wrap { trim: false }), status);
    let keys = if model.dialog.is_some() {
        "y install   n/Esc cancel   ↑↓ scroll"
    } else if model.editing {
        "type to search   Enter done   Esc clear   ↑↓ move"
    } else {
        "↑↓/jk move   / search   Tab/←→ category   Enter/i install   q quit"
    };
    frame.render_widget(Paragraph::new(keys).style(Style::new().add_modifier(Modifier::DIM)), help);
    if let Some(dialog) = &model.dialog {
        render_dialog(frame, &dialog.lines, dialog.scroll);
    }
}

/// Only the rows that fit: the window is placed so the selection is on screen.
fn render_list(frame: &mut Frame, model: &Model, area: Rect) {
    let block = Block::bordered().title("packages");
    let height = usize::from(block.inner(area).height).max(1);
    let first = model.selected.saturating_sub(height - 1);
    let items: Vec<ListItem> = model.visible[first..model.visible.len().min(first + height)]
        .iter()
        .map(|&i| {
            let r = &model.rows[i];
            let mark = match r.local {
                Local::Installed { update: true, .. } => "update",
                Local::Installed { update: false, .. } => "installed",
                Local::NotInstalled { cached: true } => "cached",
                Local::NotInstalled { cached: false } => "",
            };
            ListItem::new(format!("{:<22} {:<9} {:<5} {:<9} {}", r.name, r.version, kind_text(r.kind), mark, r.registry))
        })
        .collect();
    let mut state = ListState::default().with_selected((!model.visible.is_empty()).then_some(model.selected - first));
    frame.render_stateful_widget(
        List::new(items).block(block).highlight_style(Style::new().add_modifier(Modifier::REVERSED)).highlight_symbol("> "),
        area,
        &mut state,
    );
}

fn render_preview(frame: &mut Frame, row: Option<&Row>, area: Rect) {
    let block = Block::bordered().title("preview");
    let Some(r) = row else {
        frame.render_widget(Paragraph::new("no package passes this tab and search").block(block), area);
        return;
    };
    let bold = Style::new().add_modifier(Modifier::BOLD);
    let field = |name: &str, value: String| Line::from(vec![Span::styled(format!("{name}: "), bold), Span::raw(value)]);
    let lines = vec![
        Line::from(vec![Span::styled(format!("{} {}", r.name, r.version), bold), Span::raw(format!("  ({})", kind_text(r.kind)))]),
        field("source", format!("registry '{}' ({}) · {}", r.registry, r.transport.as_str(), local_text(&r.local))),
        field("trust tier", format!("{} at most (the registry's; a package may ask for less)", r.tier.as_str())),
        field("category", r.category.clone().unwrap_or_else(|| "none".into())),
        field("author", if r.author.is_empty() { "not given".into() } else { r.author.clone() }),
        field("other versions", list_or_none(&r.others)),
        Line::raw(""),
        Line::raw(if r.description.is_empty() { "(no description)".to_string() } else { r.description.clone() }),
        Line::raw(""),
        field(if r.kind == PackageKind::Instruction { "gated tools" } else { "capabilities" }, list_or_none(&r.capabilities)),
        field("dependencies", list_or_none(&r.dependencies)),
        field("conflicts with", list_or_none(&r.conflicts)),
        field("secrets", list_or_none(&r.secrets)),
        Line::raw(""),
        Line::styled(PUBLISHERS_WORD, Style::new().add_modifier(Modifier::ITALIC)),
    ];
    frame.render_widget(Paragraph::new(Text::from(lines)).block(block).wrap(Wrap { trim: false }), area);
}

fn render_dialog(frame: &mut Frame, lines: &[String], scroll: usize) {
    let area = frame.area().centered(Constraint::Percentage(90), Constraint::Percentage(80));
    frame.render_widget(Clear, area);
    let text: Vec<Line> = lines.iter().skip(scroll).map(|l| Line::raw(l.as_str())).collect();
    let block = Block::bordered().title("approve install?").title_bottom("y install · n cancel");
    frame.render_widget(Paragraph::new(text).block(block).wrap(Wrap { trim: false }), area);
}
