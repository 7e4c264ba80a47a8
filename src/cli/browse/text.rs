//! Registry text made safe to draw: every string a registry or an error message hands the
//! browser passes through [`clean`] before it reaches a ratatui buffer.
//!
//! A registry's summaries are hostile input. A control character drawn into a cell goes to the
//! terminal as is: an ESC starts an escape sequence that can move the cursor, retitle the window
//! or repaint the screen (a fake approval dialog). Bidirectional overrides and zero-width
//! characters make a name read as another. So each of them becomes U+FFFD, line breaks and tabs
//! become spaces, and the text is cut at a character cap: a 1 MiB description costs the model a
//! few hundred bytes, and a screen of them stays readable.

/// Longest description kept (characters).
pub const MAX_DESCRIPTION: usize = 600;
/// Longest author, version, category or list item kept.
pub const MAX_FIELD: usize = 80;
/// Most items of a list kept (capabilities, dependencies, secrets, versions).
pub const MAX_ITEMS: usize = 32;

/// Characters that change how the text around them is shown without showing themselves.
fn is_invisible_format(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}' | '\u{061C}')
}

/// `text` without control or invisible formatting characters, at most `max` characters (the
/// last one an ellipsis when cut).
pub fn clean(text: &str, max: usize) -> String {
    let mut out = String::with_capacity(text.len().min(max * 4));
    for (count, c) in text.chars().enumerate() {
        if count == max {
            out.pop();
            out.push('…');
            break;
        }
        out.push(match c {
            '\n' | '\r' | '\t' => ' ',
            c if c.is_control() || is_invisible_format(c) => '\u{FFFD}',
            c => c,
        });
    }
    out
}

/// Each item cleaned, at most [`MAX_ITEMS`] of them, then "… N more".
pub fn clean_list<'a>(items: impl ExactSizeIterator<Item = &'a str>) -> Vec<String> {
    let total = items.len();
    let mut out: Vec<String> = items.take(MAX_ITEMS).map(|s| clean(s, MAX_FIELD)).collect();
    if total > MAX_ITEMS {
        out.push(format!("… {} more", total - MAX_ITEMS));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_invisible_characters_never_survive() {
        let hostile = "ok\u{1b}[2J\u{1b}]0;pwned\u{7}\u{9b}31m\u{7f}\u{202E}gpj.exe\u{200B}\r\nend\ttab";
        let shown = clean(hostile, 1000);
        assert!(!shown.chars().any(|c| c.is_control() || is_invisible_format(c)), "{shown:?}");
        assert!(shown.starts_with("ok\u{FFFD}[2J") && shown.ends_with("  end tab"), "{shown:?}");
    }

    #[test]
    fn long_text_is_cut_at_the_cap_with_an_ellipsis() {
        let long = "é".repeat(1 << 20);
        let shown = clean(&long, MAX_DESCRIPTION);
        assert_eq!(shown.chars().count(), MAX_DESCRIPTION);
        assert!(shown.ends_with('…'));
        assert_eq!(clean("short", 10), "short");
        assert_eq!(clean("exactly10!", 10), "exactly10!");
        let many: Vec<String> = (0..1000).map(|i| format!("cap{i}")).collect();
        let listed = clean_list(many.iter().map(String::as_str));
        assert_eq!(listed.len(), MAX_ITEMS + 1);
        assert_eq!(listed.last().map(String::as_str), Some("… 968 more"));
    }
}
