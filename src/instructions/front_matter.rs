//! The front matter of a `SKILL.md`: the block between the first two `---` lines, read as a
//! small strict subset of YAML.
//!
//! Accepted: `key: value` lines (a plain, `"double"` or `'single'` quoted scalar, or an inline
//! list `[a, b]`), a `key:` followed by indented `- item` lines (a block list) or by indented
//! `name: value` lines (a one-level map, for the Claude Skills `metadata` field), blank lines and
//! `#` comments. Everything else YAML has (nested maps, anchors, block scalars, multi-document
//! streams) is refused with the line it is on: a skill is a few named fields, and a parser that
//! accepts less has less to get wrong. No YAML crate is in the tree (DECISIONS.md); this one is a
//! page long and never recurses, so no input can make it nest deeply or allocate much beyond its
//! (bounded) input.

/// Largest front matter: 8 KiB, far above a name, a 1,024-character description and a few
/// dozen gated tools.
pub const MAX_FRONT_MATTER_BYTES: usize = 8 * 1024;
/// Most items in one list (`tools`, `dependencies`, `conflicts_with`).
pub const MAX_LIST_ITEMS: usize = 64;

/// One field's value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    Scalar(String),
    /// Items with the line each is on.
    List(Vec<(String, usize)>),
    /// A one-level map (`key:` then indented `name: value` lines), with the line of each entry.
    Map(Vec<(String, String, usize)>),
}

/// One `key: value` of the front matter, with the (1-based) line of its key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub key: String,
    pub line: usize,
    pub value: Value,
}

/// The parsed front matter and where the markdown body starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split<'a> {
    pub entries: Vec<Entry>,
    pub body: &'a str,
    /// The 1-based line the body starts on.
    pub body_line: usize,
}

/// What is wrong, and on which (1-based) line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct SyntaxError {
    pub line: usize,
    pub message: String,
}

fn err(line: usize, message: impl Into<String>) -> SyntaxError {
    SyntaxError { line, message: message.into() }
}

/// Splits `text` into its front matter entries and its body.
pub fn split(text: &str) -> Result<Split<'_>, SyntaxError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.split_inclusive('\n');
    let first = lines.next().unwrap_or("");
    if first.trim_end() != "---" {
        return Err(err(1, "a SKILL.md starts with a '---' line, then the front matter (name, description), then '---'"));
    }
    let mut consumed = first.len();
    let mut entries: Vec<Entry> = Vec::new();
    // The key of a `key:` with no value, which the `- item` lines after it fill.
    let mut open_list: Option<usize> = None;
    for (index, raw) in lines.enumerate() {
        let line_no = index + 2;
        consumed += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        if line.trim_end() == "---" {
            return Ok(Split { entries, body: &text[consumed..], body_line: line_no + 1 });
        }
        if consumed - first.len() > MAX_FRONT_MATTER_BYTES {
            return Err(err(line_no, format!("the front matter is longer than {MAX_FRONT_MATTER_BYTES} bytes")));
        }
        if line.trim_end() == "..." {
            return Err(err(line_no, "end the front matter with '---', not '...'"));
        }
        if line.contains('\t') {
            return Err(err(line_no, "tabs are not allowed in the front matter (indent with spaces)"));
        }
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if line.starts_with(' ') {
            let Some(at) = open_list else {
                return Err(err(line_no, "an indented line must follow a 'key:' line with no value"));
            };
            let Some(item) = trimmed.strip_prefix("- ").or_else(|| (trimmed == "-").then_some("")) else {
                map_entry(&mut entries[at], trimmed, line_no)?;
                continue;
            };
            let item = scalar(item.trim(), line_no)?;
            let key = entries[at].key.clone();
            let Value::List(items) = &mut entries[at].value else {
                return Err(err(line_no, format!("'{key}' mixes map entries and list items")));
            };
            if items.len() >= MAX_LIST_ITEMS {
                return Err(err(line_no, format!("'{}' has more than {MAX_LIST_ITEMS} items", entries[at].key)));
            }
            items.push((item, line_no));
            continue;
        }
        open_list = None;
        let Some((key, rest)) = line.split_once(':') else {
            return Err(err(line_no, format!("expected 'key: value', found '{}'", crate::clip::shown(trimmed))));
        };
        if key.is_empty()
            || !key.starts_with(|c: char| c.is_ascii_alphabetic())
            || !key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        {
            return Err(err(line_no, format!("'{}' is not a field name (letters, digits, '_' and '-')", crate::clip::shown(key))));
        }
        if entries.iter().any(|e| e.key == key) {
            return Err(err(line_no, format!("'{key}' is given twice")));
        }
        let rest = rest.trim();
        let value = if rest.is_empty() {
            open_list = Some(entries.len());
            Value::List(Vec::new())
        } else if let Some(inner) = rest.strip_prefix('[') {
            Value::List(inline_list(inner, line_no)?)
        } else {
            Value::Scalar(scalar(rest, line_no)?)
        };
        entries.push(Entry { key: key.to_string(), line: line_no, value });
    }
    Err(err(1, "the front matter is never closed (no second '---' line)"))
}

/// One indented `name: value` line of a map field (`metadata:`): one level only, plain names,
/// scalar values.
fn map_entry(entry: &mut Entry, text: &str, line: usize) -> Result<(), SyntaxError> {
    let Some((name, rest)) = text.split_once(':') else {
        return Err(err(line, "an indented line must be a list item ('  - value') or a map entry ('  name: value')"));
    };
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')) {
        return Err(err(line, format!("'{}' is not a map key (letters, digits, '_', '-' and '.')", crate::clip::shown(name))));
    }
    let rest = rest.trim();
    if rest.is_empty() || rest.starts_with('[') {
        return Err(err(line, format!("'{}.{name}' must be a single value; nested maps and lists are not supported", entry.key)));
    }
    let value = scalar(rest, line)?;
    if let Value::List(items) = &entry.value
        && items.is_empty()
    {
        entry.value = Value::Map(Vec::new());
    }
    let key = entry.key.clone();
    let Value::Map(pairs) = &mut entry.value else {
        return Err(err(line, format!("'{key}' mixes list items and map entries")));
    };
    if pairs.iter().any(|(k, _, _)| k == name) {
        return Err(err(line, format!("'{key}.{name}' is given twice")));
    }
    if pairs.len() >= MAX_LIST_ITEMS {
        return Err(err(line, format!("'{key}' has more than {MAX_LIST_ITEMS} entries")));
    }
    pairs.push((name.to_string(), value, line));
    Ok(())
}

/// `a, "b", 'c']`: the rest of an inline list after its `[`.
fn inline_list(inner: &str, line: usize) -> Result<Vec<(String, usize)>, SyntaxError> {
    let Some(inner) = inner.trim_end().strip_suffix(']') else {
        return Err(err(line, "an inline list must end with ']' on the same line"));
    };
    if inner.trim().is_empty() {
        return Ok(Vec::new());
    }
    let mut items = Vec::new();
    let mut rest = inner.trim();
    loop {
        let (item, after) = if rest.starts_with(['"', '\'']) {
            let end = quoted_end(rest).ok_or_else(|| err(line, "an unterminated quoted string"))?;
            (scalar(&rest[..end], line)?, rest[end..].trim_start())
        } else {
            let end = rest.find(',').unwrap_or(rest.len());
            (scalar(rest[..end].trim(), line)?, &rest[end..])
        };
        if item.is_empty() {
            return Err(err(line, "an empty list item"));
        }
        items.push((item, line));
        if items.len() > MAX_LIST_ITEMS {
            return Err(err(line, format!("a list has more than {MAX_LIST_ITEMS} items")));
        }
        match after.strip_prefix(',') {
            Some(next) => rest = next.trim_start(),
            None if after.is_empty() => return Ok(items),
            None => return Err(err(line, format!("expected ',' or ']' in the list, found '{}'", crate::clip::shown(after)))),
        }
    }
}

/// Byte index just past the closing quote of the quoted string `text` starts with.
fn quoted_end(text: &str) -> Option<usize> {
    let quote = text.chars().next()?;
    let mut chars = text.char_indices().skip(1);
    while let Some((i, c)) = chars.next() {
        if quote == '"' && c == '\\' {
            chars.next();
        } else if c == quote {
            if quote == '\'' && text[i + 1..].starts_with('\'') {
                chars.next();
                continue;
            }
            return Some(i + 1);
        }
    }
    None
}

/// One scalar: quoted (with `\"`, `\\`, `\n` in double quotes and `''` in single ones) or plain
/// (up to a ` #` comment).
fn scalar(text: &str, line: usize) -> Result<String, SyntaxError> {
    let first = text.chars().next().unwrap_or(' ');
    match first {
        '"' | '\'' => {
            let end = quoted_end(text).ok_or_else(|| err(line, "an unterminated quoted string"))?;
            let after = text[end..].trim();
            if !after.is_empty() && !after.starts_with('#') {
                return Err(err(line, format!("unexpected text after the quoted string: '{}'", crate::clip::shown(after))));
            }
            let inner = &text[1..end - 1];
            if first == '\'' {
                return Ok(inner.replace("''", "'"));
            }
            let mut out = String::with_capacity(inner.len());
            let mut chars = inner.chars();
            while let Some(c) = chars.next() {
                if c != '\\' {
                    out.push(c);
                    continue;
                }
                match chars.next() {
                    Some('"') => out.push('"'),
                    Some('\\') => out.push('\\'),
                    Some('n') => out.push('\n'),
                    Some('t') => out.push('\t'),
                    other => {
                        return Err(err(line, format!("unsupported escape '\\{}' (use \\\", \\\\, \\n or \\t)", other.unwrap_or(' '))));
                    }
                }
            }
            Ok(out)
        }
        '{' | '[' => Err(err(line, "nested lists and maps are not supported")),
        '|' | '>' => Err(err(line, "block scalars ('|', '>') are not supported: write the value on one line")),
        '&' | '*' | '!' | '%' | '@' | '`' => Err(err(line, format!("a plain value cannot start with '{first}' (quote it)"))),
        _ => {
            let value = match text.find(" #") {
                Some(at) => &text[..at],
                None => text,
            };
            Ok(value.trim().to_string())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(text: &str) -> Vec<(String, Value)> {
        split(text).unwrap().entries.into_iter().map(|e| (e.key, e.value)).collect()
    }

    #[test]
    fn scalars_lists_and_the_body_are_split() {
        let text = "---\nname: light-a-scene\ndescription: \"How to light: \\\"key\\\" first\" # why\ntools: [scene.createEntity, 'three.setLight']\nconflicts_with:\n  - dark\n  - \"noir\"\n---\n# Body\ntext\n";
        let s = split(text).unwrap();
        assert_eq!(s.body, "# Body\ntext\n");
        assert_eq!(s.body_line, 9);
        assert_eq!(
            keys(text),
            vec![
                ("name".into(), Value::Scalar("light-a-scene".into())),
                ("description".into(), Value::Scalar("How to light: \"key\" first".into())),
                ("tools".into(), Value::List(vec![("scene.createEntity".into(), 4), ("three.setLight".into(), 4)])),
                ("conflicts_with".into(), Value::List(vec![("dark".into(), 6), ("noir".into(), 7)])),
            ]
        );
    }

    #[test]
    fn each_malformed_line_is_named() {
        let cases: &[(&str, usize, &str)] = &[
            ("name: x\n", 1, "starts with a '---'"),
            ("---\nname: x\n", 1, "never closed"),
            ("---\nname x\n---\n", 2, "expected 'key: value'"),
            ("---\nname: a\nname: b\n---\n", 3, "given twice"),
            ("---\nmeta:\n  a:\n    b: c\n---\n", 3, "nested maps"),
            ("---\nmeta:\n  - a\n  b: c\n---\n", 4, "mixes list items and map entries"),
            ("---\n  - stray\n---\n", 2, "must follow"),
            ("---\ndescription: |\n---\n", 2, "block scalars"),
            ("---\ntools: [a, [b]]\n---\n", 2, "nested"),
            ("---\ntools: [a, b\n---\n", 2, "end with ']'"),
            ("---\nname: {a: 1}\n---\n", 2, "maps"),
            ("---\nname: \"open\n---\n", 2, "unterminated"),
            ("---\nname: &anchor x\n---\n", 2, "cannot start"),
            ("---\n\tname: x\n---\n", 2, "tabs"),
            ("---\nname: x\n...\n", 3, "'...'"),
        ];
        for (text, line, needle) in cases {
            let e = split(text).unwrap_err();
            assert_eq!(e.line, *line, "{text:?}: {e}");
            assert!(e.message.contains(needle), "{text:?}: {e}");
        }
    }

    #[test]
    fn huge_front_matter_and_long_lists_are_refused_early() {
        let huge = format!("---\nname: x\ndescription: {}\n---\n", "a".repeat(MAX_FRONT_MATTER_BYTES + 10));
        assert!(split(&huge).unwrap_err().message.contains("longer than"));
        let many: Vec<String> = (0..1000).map(|i| format!("  - t{i}")).collect();
        let long = format!("---\ntools:\n{}\n---\n", many.join("\n"));
        let e = split(&long).unwrap_err();
        assert!(e.message.contains("more than 64 items"), "{e}");
        let deep = format!("---\nname: {}x{}\n---\n", "[".repeat(5000), "]".repeat(5000));
        assert!(split(&deep).is_err());
    }
}
