//! The real terminal under the browser: refuses to start without one, enters raw mode and the
//! alternate screen, and leaves both on every way out (return, error, panic: a guard on the
//! stack, and ratatui's panic hook for a panic before the guard unwinds). Keys are read from
//! crossterm and turned into the model's [`Key`]s; anything else is dropped.

use std::io::IsTerminal as _;

use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use super::{BrowseError, Key, Keys};
use crate::packages::registry::fetch::Fetcher;
use crate::packages::registry::ops::Project;

/// Leaves raw mode and the alternate screen when dropped.
struct Restore;

impl Drop for Restore {
    fn drop(&mut self) {
        ratatui::restore();
    }
}

struct TerminalKeys;

fn key(k: KeyEvent) -> Option<Key> {
    if k.modifiers.contains(KeyModifiers::CONTROL) {
        return matches!(k.code, KeyCode::Char('c' | 'C')).then_some(Key::Interrupt);
    }
    Some(match k.code {
        KeyCode::Up => Key::Up,
        KeyCode::Down => Key::Down,
        KeyCode::PageUp => Key::PageUp,
        KeyCode::PageDown => Key::PageDown,
        KeyCode::Home => Key::Home,
        KeyCode::End => Key::End,
        KeyCode::Left => Key::Left,
        KeyCode::Right => Key::Right,
        KeyCode::Tab => Key::Tab,
        KeyCode::BackTab => Key::BackTab,
        KeyCode::Enter => Key::Enter,
        KeyCode::Esc => Key::Esc,
        KeyCode::Backspace => Key::Backspace,
        KeyCode::Char(c) => Key::Char(c),
        _ => return None,
    })
}

impl Keys for TerminalKeys {
    fn next(&mut self, _screen: &Buffer) -> Result<Option<Key>, BrowseError> {
        loop {
            match event::read().map_err(|e| BrowseError::Terminal(format!("reading a key: {e}")))? {
                Event::Key(k) if k.kind != KeyEventKind::Release => {
                    if let Some(key) = key(k) {
                        return Ok(Some(key));
                    }
                }
                Event::Resize(..) => return Ok(Some(Key::Resize)),
                _ => {}
            }
        }
    }
}

/// Runs the browser on this process's terminal.
pub(crate) fn run(project: &Project, fetcher: &mut Fetcher) -> Result<(), BrowseError> {
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        return Err(BrowseError::NotATerminal);
    }
    // Before raw mode is entered: a failure half-way (raw mode on, no alternate screen) is undone.
    let _restore = Restore;
    let mut terminal = ratatui::try_init().map_err(|e| BrowseError::Terminal(format!("cannot set the terminal up: {e}")))?;
    super::drive(&mut terminal, &mut TerminalKeys, project, fetcher)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ctrl_c_interrupts_and_other_control_keys_are_dropped() {
        let ctrl = |c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL);
        assert_eq!(key(ctrl('c')), Some(Key::Interrupt));
        assert_eq!(key(ctrl('q')), None);
        assert_eq!(key(KeyEvent::new(KeyCode::Char('q'), KeyModifiers::NONE)), Some(Key::Char('q')));
        assert_eq!(key(KeyEvent::new(KeyCode::F(1), KeyModifiers::NONE)), None);
    }
}
