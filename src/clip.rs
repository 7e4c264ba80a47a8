//! Caller-chosen text cut short before it goes into a message. Error messages name what was
//! wrong — a field, an id, a skill — and are returned, traced and logged; echoing a 4 MiB "name"
//! whole would turn every refusal into a memory and bandwidth amplifier.

/// Characters of a caller-chosen name an error message shows.
pub const SHOWN_CHARS: usize = 64;

/// `text` if it is at most `SHOWN_CHARS` characters, else its start, `…` and how long it was;
/// control characters escaped (`\u{1b}`), so a name cannot move the cursor, clear the screen or
/// recolour the terminal it is printed on.
pub fn shown(text: &str) -> String {
    let (start, cut) = match text.char_indices().nth(SHOWN_CHARS) {
        None => (text, false),
        Some((at, _)) => (&text[..at], true),
    };
    let mut out = String::with_capacity(start.len());
    for c in start.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    if cut {
        out.push_str(&format!("… ({} bytes)", text.len()));
    }
    out
}

/// The longest start of `text` of at most `max` bytes that ends on a character boundary.
pub fn to_bytes(text: &str, max: usize) -> &str {
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_cut_and_says_how_long_it_was() {
        assert_eq!(shown("colour"), "colour");
        let long = "x".repeat(4 << 20);
        let cut = shown(&long);
        assert!(cut.len() < 100, "{cut}");
        assert!(cut.ends_with("… (4194304 bytes)"));
        assert_eq!(shown(&"é".repeat(70)).chars().filter(|c| *c == 'é').count(), SHOWN_CHARS, "cut on a character boundary");
        assert_eq!(to_bytes("€€", 4), "€", "not inside the second euro sign");
        assert_eq!(to_bytes("ab", 10), "ab");
    }

    #[test]
    fn control_characters_are_shown_escaped() {
        assert_eq!(shown("\u{1b}[2J\u{1b}[31mFAKE\n"), "\\u{1b}[2J\\u{1b}[31mFAKE\\n");
        assert_eq!(shown("tab\tstop é"), "tab\\tstop é");
    }
}
