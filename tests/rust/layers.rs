//! The folders of `src/` form layers, and no folder names one above it: the arrows of the
//! architecture picture (docs/architecture.md) point down only. Checked over the source text: a
//! `crate::NAME` path (also inside `use crate::{…}` groups) in a folder's non-test code names
//! NAME. Test modules (from `#[cfg(test)]` on) may reach up: they build whole engines.

use std::collections::BTreeMap;
use std::path::Path;

/// The layers, lowest first. A folder may name folders of its own layer or below.
const LAYERS: &[(&str, &[&str])] = &[
    ("base", &["clip", "digest", "depth_limit", "isolate", "unguessable", "paths", "atomic_file", "native_noise", "redact"]),
    ("foundation", &["script", "physics", "world", "trace", "audio", "render"]),
    ("rules", &["policy", "scenes", "instructions"]),
    ("agents", &["agents"]),
    ("pipeline", &["skills"]),
    ("records", &["packages", "durable", "nats", "snapshot"]),
    ("engine", &["host"]),
    ("transports", &["mcp"]),
    ("front", &["cli"]),
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|(_, members)| members.contains(&module))
}

/// The top-level modules `text` names through `crate::` paths, outside comments and test code,
/// `use crate::{…}` groups included (over several lines, nested groups too).
fn named_modules(text: &str) -> Vec<String> {
    let mut code = String::new();
    for line in text.lines() {
        let line = line.trim_start();
        if line.starts_with("#[cfg(test)]") {
            break;
        }
        code.push_str(line.split("//").next().unwrap_or_default());
        code.push('\n');
    }
    let first_segment = |s: &str| -> String { s.trim_start().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect() };
    let mut found = Vec::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find("crate::") {
        let after = &rest[at + "crate::".len()..];
        if let Some(group) = after.strip_prefix('{') {
            // Each top-level item of the group: split at commas outside nested braces.
            let (mut depth, mut item_start) = (0usize, 0usize);
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        found.push(first_segment(&group[item_start..i]));
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        found.push(first_segment(&group[item_start..i]));
                        item_start = i + 1;
                    }
                    _ => {}
                }
            }
        } else {
            found.push(first_segment(after));
        }
        rest = after;
    }
    found.retain(|name| !name.is_empty() && name != "self");
    found
}

/// Every upward name in the tree at `src`: (file, module it is in, module it names).
fn upward_names(src: &Path) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    let mut files = Vec::new();
    collect(src, &mut files);
    for file in files {
        let relative = file.strip_prefix(src).expect("under src");
        let top = relative.components().next().expect("a component").as_os_str().to_string_lossy().trim_end_matches(".rs").to_string();
        if top == "lib" || top == "main" {
            continue;
        }
        let Some(own) = layer_of(&top) else {
            panic!("src/{top} is in no layer: add it to LAYERS in tests/rust/layers.rs (and to docs/architecture.md)");
        };
        let text = std::fs::read_to_string(&file).expect("readable source");
        for named in named_modules(&text) {
            if named == top {
                continue;
            }
            match layer_of(&named) {
                Some(layer) if layer > own => out.push((relative.display().to_string(), top.clone(), named)),
                _ => {}
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

fn collect(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            collect(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

#[test]
fn no_folder_names_a_folder_above_it() {
    let upward = upward_names(&crate::root().join("src"));
    let mut by_arrow: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for (file, from, to) in upward {
        by_arrow.entry((from, to)).or_default().push(file);
    }
    let report: Vec<String> = by_arrow.iter().map(|((from, to), files)| format!("{from} -> {to} (in {})", files.join(", "))).collect();
    assert!(report.is_empty(), "upward imports:\n{}", report.join("\n"));
}

#[test]
fn the_check_sees_an_upward_import() {
    let dir = tempfile::tempdir().unwrap();
    let skills = dir.path().join("skills");
    std::fs::create_dir_all(&skills).unwrap();
    std::fs::write(skills.join("ok.rs"), "use crate::world::World;\n// crate::host in a comment\n").unwrap();
    std::fs::write(skills.join("bad.rs"), "use crate::{trace::TraceLog, host::Engine};\n#[cfg(test)]\nuse crate::cli;\n").unwrap();
    std::fs::write(dir.path().join("world.rs"), "fn f() -> crate::durable::Phase { todo!() }\n").unwrap();
    // As rustfmt wraps a long group: over lines, with a nested group before the upward item.
    std::fs::write(dir.path().join("trace.rs"), "use crate::{\n    world::{A, B},\n    mcp::Server, // a comment\n};\n").unwrap();
    let found = upward_names(dir.path());
    assert_eq!(
        found,
        vec![
            ("skills/bad.rs".to_string(), "skills".to_string(), "host".to_string()),
            ("trace.rs".to_string(), "trace".to_string(), "mcp".to_string()),
            ("world.rs".to_string(), "world".to_string(), "durable".to_string()),
        ]
    );
}
