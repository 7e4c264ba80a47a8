//! The README and `docs/` against the repository: every relative link and every path they name
//! exists (and every `#anchor` a link names is a heading or an `id` of its target), the README
//! stays a front door of at most 200 lines, the MCP client snippets in `docs/clients/` start a
//! server that answers from a folder outside the repository, and the README's first world runs.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

/// The folders whose paths the docs name in backticks and code blocks (relative to the root).
const KNOWN_FOLDERS: [&str; 8] = ["src/", "tests/", "demos/", "scenes/", "scripts/", "assets/", "docs/", ".ci/"];

/// The README's longest allowed length: a front door, the manual lives in `docs/`.
const README_MAX_LINES: usize = 200;

/// Where the snippets say the clone is; the test puts the repository there.
const CLONE: &str = "/path/to/limina";

/// README.md and every markdown file in `docs/`.
fn markdown_files(root: &Path) -> Vec<PathBuf> {
    let mut files = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("a docs/ folder")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

/// The targets of `[text](target)` and `![alt](target)` links, outside code.
fn links(markdown: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in prose_lines(markdown) {
        let line = strip_code_spans(line);
        let mut rest = line.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            found.push(after[..end].trim().to_string());
            rest = &after[end + 1..];
        }
    }
    found
}

/// Lines outside fenced code blocks.
fn prose_lines(markdown: &str) -> impl Iterator<Item = &str> {
    let mut fenced = false;
    markdown.lines().filter(move |line| {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            return false;
        }
        !fenced
    })
}

/// A line with its `code spans` removed (a link inside one is text, not a link).
fn strip_code_spans(line: &str) -> String {
    line.split('`').step_by(2).collect::<Vec<_>>().join(" ")
}

/// The text a reader would take for code: inline code spans and fenced blocks.
fn code_text(markdown: &str) -> Vec<String> {
    let mut code = Vec::new();
    let mut fenced = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            code.push(line.to_string());
        } else {
            code.extend(line.split('`').skip(1).step_by(2).map(str::to_string));
        }
    }
    code
}

/// Words in code that start with a known top-level folder, cut down to the part that must exist:
/// up to a placeholder (`NAME`, `*`, `…`, `<tick>`), without a `:LINE` suffix or trailing punctuation.
fn named_paths(code: &str) -> Vec<String> {
    let separators = |c: char| c.is_whitespace() || "\"'`(),;=[]{}|".contains(c);
    code.split(separators)
        .filter(|word| KNOWN_FOLDERS.iter().any(|folder| word.starts_with(folder)))
        .map(|word| {
            let word = word.split(':').next().unwrap_or(word).trim_end_matches(['.', ',']);
            let mut kept = Vec::new();
            for part in word.split('/') {
                if is_placeholder(part) {
                    break;
                }
                kept.push(part);
            }
            kept.join("/")
        })
        .collect()
}

/// A path component that stands for a name the reader picks (`NAME.lua`, `*.luau`, `<tick>`).
fn is_placeholder(part: &str) -> bool {
    let stem = part.split('.').next().unwrap_or(part);
    part.contains(['*', '…', '<', '>']) || (stem.len() >= 2 && stem.chars().all(|c| c.is_ascii_uppercase() || c == '_'))
}

/// A path named in code exists as written, or as a Luau module (`require("tests/lua/helpers")`).
fn path_exists(root: &Path, path: &str) -> bool {
    let full = root.join(path);
    full.exists() || ["lua", "luau"].iter().any(|ext| root.join(format!("{path}.{ext}")).exists())
}

/// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors a markdown file offers: its headings' slugs and explicit `<a id="…">`s.
fn anchors(markdown: &str) -> HashSet<String> {
    let mut found = HashSet::new();
    for line in prose_lines(markdown) {
        if let Some(heading) = line.strip_prefix('#') {
            found.insert(slug(heading.trim_start_matches('#').replace('`', "").as_str()));
        }
        let mut rest = line;
        while let Some(at) = rest.find("id=\"") {
            let after = &rest[at + 4..];
            let Some(end) = after.find('"') else { break };
            found.insert(after[..end].to_string());
            rest = &after[end..];
        }
    }
    found
}

/// Every problem with the links and paths of the README and `docs/`, one line each.
fn broken_references(root: &Path) -> Vec<String> {
    let mut broken = Vec::new();
    for file in markdown_files(root) {
        let text = std::fs::read_to_string(&file).unwrap();
        let shown = file.strip_prefix(root).unwrap().display().to_string();
        let folder = file.parent().unwrap();
        for target in links(&text) {
            if target.starts_with("http://") || target.starts_with("https://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (target.as_str(), None),
            };
            let linked = if path.is_empty() { file.clone() } else { folder.join(path) };
            if !linked.exists() {
                broken.push(format!("{shown}: link to {target}: {} does not exist", linked.display()));
                continue;
            }
            if let Some(anchor) = anchor
                && linked.extension().is_some_and(|e| e == "md")
                && !anchors(&std::fs::read_to_string(&linked).unwrap()).contains(anchor)
            {
                broken.push(format!("{shown}: link to {target}: no heading or id '{anchor}' there"));
            }
        }
        for code in code_text(&text) {
            for path in named_paths(&code) {
                if !path_exists(root, &path) {
                    broken.push(format!("{shown}: names {path}, which is not in the repository"));
                }
            }
        }
    }
    broken
}

#[test]
fn every_link_and_path_in_the_readme_and_docs_exists() {
    let broken = broken_references(&crate::root());
    assert!(broken.is_empty(), "broken references:\n{}", broken.join("\n"));
}

#[test]
fn the_reference_check_catches_a_missing_file_and_a_missing_anchor() {
    // The check itself must be able to fail: a copy of the docs with a broken link, a missing
    // anchor and a path that is not there.
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("docs")).unwrap();
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    std::fs::write(dir.path().join("src/lib.rs"), "").unwrap();
    std::fs::write(dir.path().join("docs/a.md"), "# Title\n\n## A section\n\ntext\n").unwrap();
    std::fs::write(
        dir.path().join("README.md"),
        "[ok](docs/a.md#a-section) [gone](docs/b.md) [no anchor](docs/a.md#nowhere)\n\
         `src/lib.rs` `src/missing.rs` `scenes/NAME.lua`\n```sh\ncargo run -- run demos/gone.lua\n```\n",
    )
    .unwrap();
    let broken = broken_references(dir.path());
    let joined = broken.join("\n");
    assert_eq!(broken.len(), 5, "{joined}");
    for expected in ["docs/b.md", "'nowhere'", "src/missing.rs", "names scenes,", "demos/gone.lua"] {
        assert!(joined.contains(expected), "{expected} missing from:\n{joined}");
    }
}

#[test]
fn placeholders_and_line_numbers_are_not_paths() {
    assert_eq!(named_paths("scenes/NAME.lua"), ["scenes"]);
    assert_eq!(named_paths("src/skills/core/*.luau"), ["src/skills/core"]);
    assert_eq!(named_paths("error: demos/billiards.lua:12: message"), ["demos/billiards.lua"]);
    assert_eq!(named_paths(r#"require("tests/lua/helpers")"#), ["tests/lua/helpers"]);
    assert_eq!(named_paths("see src/world/bounds.rs."), ["src/world/bounds.rs"]);
    assert_eq!(slug("A call's path"), "a-calls-path");
    assert_eq!(slug("The command log, replay and recovery"), "the-command-log-replay-and-recovery");
}

#[test]
fn the_readme_is_a_front_door() {
    let readme = std::fs::read_to_string(crate::root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(lines <= README_MAX_LINES, "README.md has {lines} lines; the manual belongs in docs/ (limit {README_MAX_LINES})");
    // CI runs the README's test command verbatim: the two must not drift apart.
    let ci = std::fs::read_to_string(crate::root().join(".ci/run")).unwrap();
    let command = ci.lines().rev().find(|l| l.starts_with("cargo test")).expect(".ci/run runs cargo test");
    assert!(readme.lines().any(|l| l == command), "README.md must carry .ci/run's test command: {command}");
}

/// One client snippet: its file, the command and arguments it starts, and the folder it names.
struct Snippet {
    file: String,
    command: String,
    args: Vec<String>,
    cwd: Option<String>,
}

/// The snippets in `docs/clients/`: JSON configs (`mcpServers` or VS Code's `servers`) and the
/// Claude Code command line.
fn snippets(root: &Path) -> Vec<Snippet> {
    let mut found = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("docs/clients")).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    for path in files {
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        if file.ends_with(".json") {
            let config: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{file} is not JSON: {e}"));
            let server = if let Some(servers) = config.get("servers") {
                let server = &servers["limina"];
                assert_eq!(server["type"], "stdio", "{file}: VS Code needs \"type\": \"stdio\"");
                server
            } else {
                &config["mcpServers"]["limina"]
            };
            let command = server["command"].as_str().unwrap_or_else(|| panic!("{file}: no command for limina")).to_string();
            let args = server["args"].as_array().unwrap().iter().map(|a| a.as_str().unwrap().to_string()).collect();
            let cwd = server.get("cwd").and_then(Value::as_str).map(str::to_string);
            found.push(Snippet { file, command, args, cwd });
        } else if file.ends_with(".sh") {
            let line = text.trim();
            let rest = line.strip_prefix("claude mcp add limina -- ").unwrap_or_else(|| panic!("{file}: {line}"));
            let mut words = rest.split_whitespace().map(str::to_string);
            let command = words.next().unwrap();
            found.push(Snippet { file, command, args: words.collect(), cwd: None });
        } else {
            panic!("{file}: docs/clients/ holds .json and .sh snippets only");
        }
    }
    found
}

/// A snippet's path with the clone put where the snippet says it is.
fn placed(value: &str, root: &Path) -> String {
    value.replace(CLONE, &root.display().to_string())
}

#[test]
fn every_client_snippet_is_in_the_readme_and_serves_from_another_folder() {
    let root = crate::root();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let snippets = snippets(&root);
    assert!(snippets.len() >= 4, "Claude Code, Claude Desktop, Cursor and VS Code each have a snippet");
    for snippet in snippets {
        let file = &snippet.file;
        let text = std::fs::read_to_string(root.join("docs/clients").join(file)).unwrap();
        assert!(readme.contains(text.trim_end()), "README.md shows docs/clients/{file} verbatim");
        // The binary the README's first command builds, named where the snippet says the clone is.
        assert_eq!(snippet.command, format!("{CLONE}/target/debug/limina"), "{file}");
        let args: Vec<String> = snippet.args.iter().map(|a| placed(a, &root)).collect();
        // Started the way a client starts it: from a folder that is not the project.
        let elsewhere = tempfile::tempdir().unwrap();
        let cwd = snippet.cwd.as_deref().map_or_else(|| elsewhere.path().to_path_buf(), |c| PathBuf::from(placed(c, &root)));
        let mut client = crate::mcp::StdioServer::start_in(&args, &cwd);

        let init = client.request(
            1,
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": file, "version": "1"}}),
        );
        assert_eq!(init["result"]["protocolVersion"], "2025-11-25", "{file}: {init}");
        assert_eq!(init["result"]["serverInfo"]["name"], "limina", "{file}: {init}");
        client.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));

        let list = client.request(2, "tools/list", json!({}));
        let names: Vec<&str> = list["result"]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
        for tool in ["scene.createEntity", "render.capture", "skills.search"] {
            assert!(names.contains(&tool), "{file}: {tool} is listed: {names:?}");
        }

        // The project's own mods are loaded: the server found the clone, not the folder it ran in.
        let greet = client.request(3, "tools/call", json!({"name": "mods.greet", "arguments": {"name": "docs"}}));
        assert_eq!(greet["result"]["isError"], false, "{file}: the project's scripts/ mods answer: {greet}");
        // A server starts with the default world (its ground is ent_0001): the client's first
        // entity comes after it.
        let built = client.request(4, "tools/call", json!({"name": "scene.createEntity", "arguments": {"shape": "sphere"}}));
        assert_eq!(built["result"]["structuredContent"]["entity"], "ent_0002", "{file}: {built}");
    }
}

#[test]
fn without_project_a_server_started_elsewhere_has_no_mods() {
    // Why the snippets name the project: a server started from another folder works on that
    // folder, where there is no scripts/ to load.
    let elsewhere = tempfile::tempdir().unwrap();
    let mut client = crate::mcp::StdioServer::start_in(&["mcp", "--stdio"], elsewhere.path());
    client.request(
        1,
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
    );
    let greet = client.request(2, "tools/call", json!({"name": "mods.greet", "arguments": {}}));
    assert!(greet.get("error").is_some() || greet["result"]["isError"] == true, "{greet}");
}

#[test]
fn the_readme_first_world_is_the_demo_file_and_it_runs() {
    let root = crate::root();
    let script = std::fs::read_to_string(root.join("demos/first_world.lua")).unwrap();
    assert!(script.lines().count() <= 10, "a first world in ten lines");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    assert!(readme.contains(script.trim_end()), "README.md shows demos/first_world.lua verbatim");

    let out = Command::new(env!("CARGO_BIN_EXE_limina")).args(["run", "demos/first_world.lua"]).current_dir(&root).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("the tower fell"), "{stdout}");
    assert!(stdout.contains("summary: ticks=240 entities=7 bodies=7"), "{stdout}");
}
