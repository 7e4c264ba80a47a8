//! `limina packages browse` driven whole over ratatui's `TestBackend`, against real registries
//! (a `file://` folder and one served over HTTP in the test, built with the registry tests'
//! helpers): search, the preview, the approval dialog of `ops::install` and its y/n, the
//! lockfile, registry failures in the status line, and a hostile registry's text and size.

use std::collections::VecDeque;
use std::time::Instant;

use limina::cli::browse::{self, BrowseError, Key, Keys, PUBLISHERS_WORD};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;

use super::registry_packages::{Mode, StaticServer, World, fails};

/// Keys from a list; every screen drawn before a key is kept (`screens[i]` is the screen after
/// `i` keys).
struct Script {
    keys: VecDeque<Key>,
    screens: Vec<String>,
}

fn screen_text(buffer: &Buffer) -> String {
    let width = usize::from(buffer.area.width);
    let mut out = String::new();
    for row in buffer.content().chunks(width) {
        for cell in row {
            out.push_str(cell.symbol());
        }
        out.push('\n');
    }
    out
}

impl Keys for Script {
    fn next(&mut self, screen: &Buffer) -> Result<Option<Key>, BrowseError> {
        self.screens.push(screen_text(screen));
        Ok(self.keys.pop_front())
    }
}

/// Runs the browser over a 140×45 test terminal with these keys; returns every screen.
fn browse(w: &World, keys: &[Key]) -> Vec<String> {
    let mut terminal = Terminal::new(TestBackend::new(140, 45)).unwrap();
    let mut script = Script { keys: keys.iter().copied().collect(), screens: Vec::new() };
    browse::drive_at(&mut terminal, &mut script, &w.project, &w.project.join("scripts")).unwrap();
    script.screens
}

fn typed(text: &str) -> Vec<Key> {
    text.chars().map(Key::Char).collect()
}

/// `/greet` then Enter (search done), Enter (install).
fn search_and_install() -> Vec<Key> {
    [vec![Key::Char('/')], typed("greet"), vec![Key::Enter, Key::Enter]].concat()
}

fn publish_pair(w: &World) {
    w.publish("base", "1.0.0", "capabilities = { \"scene.read\" }, description = \"shared helpers\", category = \"tools\"");
    w.publish(
        "greet",
        "1.0.0",
        "description = \"says hello\", trust = \"verified\", capabilities = { \"scene.write\" }, dependencies = { base = \"^1\" }, extends = { \"base\" }, secrets = { \"GREET_TOKEN\" }, category = \"ui\"",
    );
}

#[test]
fn browse_searches_previews_and_installs_only_after_the_dialog_says_yes() {
    let w = World::new();
    w.configure(&w.file_url(), "verified", &[&w.public]);
    publish_pair(&w);

    // Search, Enter: the dialog shows what ops::install asks (resolved capabilities, tier,
    // secrets, dependencies); n leaves everything as it was.
    let keys = [search_and_install(), vec![Key::Char('n'), Key::Char('q')]].concat();
    let screens = browse(&w, &keys);
    let listed = &screens[0];
    assert!(listed.contains("greet") && listed.contains("base") && listed.contains("2 of 2 packages"), "{listed}");
    assert!(listed.contains("all") && listed.contains("tools") && listed.contains("ui") && listed.contains("skills"), "{listed}");
    let preview = &screens[7];
    assert!(preview.contains("1 of 2 packages") && preview.contains("greet 1.0.0"), "{preview}");
    for want in ["GREET_TOKEN", "scene.write", "base ^1", "category: ui", "registry 'main' (file://)", "not installed", "verified at most"]
    {
        assert!(preview.contains(want), "preview lacks {want}:\n{preview}");
    }
    assert!(preview.contains(&PUBLISHERS_WORD[..40]), "{preview}");
    let dialog = &screens[8];
    for want in [
        "approve install?",
        "greet@1.0.0 from registry 'main' (folder): new",
        "capabilities (resolved): scene.read, scene.write",
        "secrets: GREET_TOKEN",
        "trust tier: verified",
        "dependencies: base ^1",
        "base@1.0.0 from registry 'main'",
    ] {
        assert!(dialog.contains(want), "dialog lacks {want}:\n{dialog}");
    }
    let refused = &screens[9];
    assert!(refused.contains("not approved: nothing was installed") && !refused.contains("approve install?"), "{refused}");
    assert!(w.installed("greet").is_none() && w.installed("base").is_none() && w.lock().is_empty());

    // Enter and y: installed, locked, and the list says so.
    let keys = [search_and_install(), vec![Key::Char('y'), Key::Char('/'), Key::Esc, Key::Char('q')]].concat();
    let screens = browse(&w, &keys);
    let after = &screens[9];
    assert!(after.contains("greet@1.0.0 installed (trust verified)"), "{after}");
    assert!(after.contains("installed 1.0.0"), "the preview's badge:\n{after}");
    assert!(w.installed("greet").is_some() && w.installed("base").is_some());
    let lock = w.lock();
    assert!(lock.contains("name = \"greet\"") && lock.contains("\"GREET_TOKEN\""), "{lock}");
    let all = &screens[11];
    assert!(all.lines().any(|l| l.contains("base") && l.contains("installed")), "Esc cleared the search:\n{all}");

    // A newer version: the badge says an update is there.
    w.publish("greet", "1.1.0", "description = \"says hello\", capabilities = { \"scene.write\" }, extends = { \"base\" }");
    let screens = browse(&w, &[Key::Char('/'), Key::Char('g'), Key::Char('r')]);
    let update = screens.last().unwrap();
    assert!(update.contains("installed 1.0.0, update available") && update.contains("other versions: 1.0.0"), "{update}");
}

#[test]
fn browse_over_http_with_a_dead_registry_and_a_bad_signature_shows_errors_not_crashes() {
    let w = World::new();
    publish_pair(&w);
    let server = StaticServer::start(&w.registry, Mode::Files);
    // A second registry nothing answers at: its error is the status, the first still lists.
    let toml = format!(
        "[[registry]]\nname = \"main\"\nurl = \"{}\"\ntier = \"verified\"\nkeys = [\"{}\"]\n\n[[registry]]\nname = \"gone\"\nurl = \"http://127.0.0.1:1/\"\nkeys = [\"{}\"]\n",
        server.url, w.public, w.public
    );
    std::fs::write(w.project.join("limina.toml"), toml).unwrap();
    let screens = browse(&w, &[search_and_install(), vec![Key::Char('q')]].concat());
    assert!(screens[0].contains("registry 'gone': cannot fetch packages.json") && screens[0].contains("2 of 2 packages"), "{}", screens[0]);
    assert!(screens[7].contains("(http (loopback))"), "{}", screens[7]);
    // ops::install plans across every registry, so the dead one stops the install: said in
    // the status line, nothing installed.
    assert!(screens[8].contains("registry 'gone': cannot fetch index/greet.json"), "{}", screens[8]);
    assert!(w.installed("greet").is_none() && w.lock().is_empty());

    w.configure(&server.url, "verified", &[&w.public]);
    let screens = browse(&w, &[search_and_install(), vec![Key::Char('y'), Key::Char('q')]].concat());
    assert!(screens[8].contains("approve install?"), "{}", screens[8]);
    assert!(screens[9].contains("greet@1.0.0 installed"), "{}", screens[9]);
    assert!(w.lock().contains("name = \"greet\""));

    // Signed by a key the project does not trust: refused in the status line, nothing changes.
    let other = World::new();
    w.configure(&server.url, "verified", &[&other.public]);
    std::fs::remove_dir_all(w.project.join("scripts")).unwrap();
    std::fs::create_dir_all(w.project.join("scripts")).unwrap();
    std::fs::remove_file(w.project.join("limina.lock")).unwrap();
    std::fs::remove_dir_all(w.project.join(".limina")).unwrap();
    let screens = browse(&w, &[search_and_install(), vec![Key::Char('q')]].concat());
    let refused = &screens[8];
    assert!(refused.contains("refused") && refused.contains("signed by someone else"), "{refused}");
    assert!(!refused.contains("approve install?") && w.installed("greet").is_none() && w.lock().is_empty());

    // No registries at all: said, and the browser still quits cleanly.
    std::fs::write(w.project.join("limina.toml"), "").unwrap();
    let screens = browse(&w, &[Key::Enter, Key::Char('q')]);
    assert!(screens[0].contains("no registries configured"), "{}", screens[0]);
    assert!(screens[1].contains("nothing selected"), "{}", screens[1]);
}

/// A registry is hostile: escapes, bidi overrides and megabytes in its summaries, thousands of
/// packages. The screen never holds a control or invisible formatting character, stays usable,
/// and the whole list is reachable.
#[test]
fn a_hostile_registry_cannot_inject_escapes_or_drown_the_browser() {
    let w = World::new();
    let count = 2000;
    let names: Vec<String> = (0..count).map(|i| format!("pkg{i:04}")).collect();
    std::fs::create_dir_all(w.registry.join("index")).unwrap();
    let evil = format!("\u{1b}[2J\u{1b}]0;owned\u{7}\u{9b}31m\u{202E}gpj.exe\u{200B} {}", "A".repeat(4000));
    for name in &names {
        let entry = serde_json::json!({
            "version": "1.0.0", "kind": "folder", "description": evil, "author": evil,
            "capabilities": ["scene.read\u{1b}[1m"], "secrets": [evil], "category": "tools",
            "archive": format!("archives/{name}-1.0.0.tar.gz"), "sha256": "0".repeat(64), "size": 1, "signature": "x",
        });
        let index = serde_json::json!({"format": "limina-index/1", "name": name, "versions": [entry]});
        std::fs::write(w.registry.join(format!("index/{name}.json")), index.to_string()).unwrap();
    }
    let listing = serde_json::json!({"format": "limina-registry/1", "packages": names});
    std::fs::write(w.registry.join("packages.json"), listing.to_string()).unwrap();
    // A second registry whose listing's format field (quoted back in the error) carries a line
    // break and an escape: the status line shows it on one line, the escape marked.
    let evil_dir = w.sources.join("evil-registry");
    std::fs::create_dir_all(&evil_dir).unwrap();
    let evil_listing = serde_json::json!({"format": "x\n\u{1b}[2Jfake: all good", "packages": []});
    std::fs::write(evil_dir.join("packages.json"), evil_listing.to_string()).unwrap();
    let toml = format!(
        "[[registry]]\nname = \"main\"\nurl = \"{}\"\nkeys = [\"{}\"]\n\n[[registry]]\nname = \"evil\"\nurl = \"file://{}\"\nkeys = [\"{}\"]\n",
        w.file_url(),
        w.public,
        evil_dir.display(),
        w.public
    );
    std::fs::write(w.project.join("limina.toml"), toml).unwrap();

    let started = Instant::now();
    let keys = [vec![Key::End, Key::PageUp, Key::Char('/')], typed("pkg1999"), vec![Key::Enter, Key::Tab, Key::Char('q')]].concat();
    let screens = browse(&w, &keys);
    eprintln!("browse: {count} hostile packages read, {} screens drawn in {:?}", screens.len(), started.elapsed());
    for s in &screens {
        let invisible = |c: char| matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}');
        let bad: Vec<char> = s.chars().filter(|&c| (c.is_control() && c != '\n') || invisible(c)).collect();
        assert!(bad.is_empty(), "control characters {bad:?} on screen:\n{s}");
    }
    assert!(screens[0].contains(&format!("{count} of {count} packages")), "{}", screens[0]);
    assert!(screens[0].contains("format 'x \u{FFFD}[2Jfake: all good' is not"), "{}", screens[0]);
    // The escapes are marked where they were, not silently dropped: the user sees them.
    assert!(screens[0].contains("\u{FFFD}[2J\u{FFFD}]0;owned\u{FFFD}\u{FFFD}31m\u{FFFD}gpj.exe\u{FFFD}"), "{}", screens[0]);
    assert!(screens[1].contains("> pkg1999"), "End reaches the last row:\n{}", screens[1]);
    assert!(screens[2].contains("> pkg1989"), "{}", screens[2]);
    let found = &screens[10];
    assert!(found.contains("1 of 2000 packages") && found.contains("> pkg1999") && found.contains("…"), "{found}");
    assert!(found.contains(&PUBLISHERS_WORD[..40]), "the closing words stay on screen under a long description:\n{found}");
}

#[test]
fn categories_come_from_manifests_and_skill_metadata_and_bad_ones_are_refused() {
    let w = World::new();
    w.configure(&w.file_url(), "verified", &[&w.public]);
    w.publish("menus", "1.0.0", "category = \"ui\"");
    let skill = |name: &str, category: &str| {
        let dir = w.sources.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        let text = format!("---\nname: {name}\ndescription: Stack boxes.\nversion: 1.0.0\nmetadata:\n  category: {category}\n---\nBody.\n");
        std::fs::write(dir.join("SKILL.md"), text).unwrap();
        dir
    };
    w.publish_dir(&skill("stacking", "physics"), &w.key);
    let bad = skill("shouty", "\"Physics Stuff\"");
    let refused = fails(
        &["packages", "publish", bad.to_str().unwrap(), "--key", w.key.to_str().unwrap(), "--registry", w.registry.to_str().unwrap()],
        &w.project,
    );
    assert!(refused.contains("metadata.category \"Physics Stuff\" must be 1-32 lowercase"), "{refused}");
    let index = std::fs::read_to_string(w.registry.join("index/stacking.json")).unwrap();
    assert!(index.contains("\"category\": \"physics\""), "{index}");
    let plain = std::fs::read_to_string(w.registry.join("index/menus.json")).unwrap();
    assert!(plain.contains("\"category\": \"ui\""), "{plain}");

    // A registry that edits a category past the rule: that index is refused by name, the rest
    // still list.
    w.publish("crates", "1.0.0", "category = \"tools\"");
    let crates = w.registry.join("index/crates.json");
    std::fs::write(&crates, std::fs::read_to_string(&crates).unwrap().replace("\"tools\"", "\"T\\u001b[1mools\"")).unwrap();

    let screens = browse(&w, &[Key::Tab, Key::Tab, Key::Tab]);
    assert!(screens[0].contains("all | code | skills | physics | ui") && screens[0].contains("2 of 2 packages"), "{}", screens[0]);
    assert!(screens[0].contains("registry 'main': index/crates.json: version '1.0.0': category \"T\\u{1b}[1mools\""), "{}", screens[0]);
    let physics = &screens[3];
    assert!(physics.contains("1 of 2 packages") && physics.contains("stacking 1.0.0  (skill)"), "{physics}");
    assert!(physics.contains("gated tools: none") && physics.contains("category: physics"), "{physics}");
}

#[test]
fn browse_without_a_terminal_says_to_use_search_and_install() {
    let w = World::new();
    w.configure(&w.file_url(), "verified", &[&w.public]);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_limina"))
        .args(["packages", "browse"])
        .current_dir(&w.project)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("needs a terminal") && err.contains("limina packages search") && err.contains("limina packages install"), "{err}");
}
