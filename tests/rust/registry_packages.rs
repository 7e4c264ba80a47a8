//! Package registries end to end, through the real binary: a `file://` registry and one served
//! over HTTP by a tiny static server inside the test; keygen, publish, search, install with
//! approval, the lockfile, an offline reinstall from the cache, the patch/minor update policy,
//! tampered and wrongly signed archives, conflicts explained, and instruction skills.

use std::io::{BufRead as _, BufReader, Write as _};
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Serves the files under a folder on 127.0.0.1 until dropped.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Mode {
    Files,
    /// Every request gets a 302 to another host.
    Redirect,
    /// Every request is read, then nothing is sent for 3 s.
    Stall,
    /// Files are served, each index 700 ms late.
    Slow,
}

pub(crate) struct StaticServer {
    pub(crate) url: String,
    stop: Arc<AtomicBool>,
    addr: std::net::SocketAddr,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl StaticServer {
    pub(crate) fn start(root: &Path, mode: Mode) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let (root, flag) = (root.to_path_buf(), stop.clone());
        let thread = std::thread::spawn(move || {
            for stream in listener.incoming() {
                if flag.load(Ordering::SeqCst) {
                    break;
                }
                if let Ok(stream) = stream {
                    serve(stream, &root, mode);
                }
            }
        });
        StaticServer { url: format!("http://{addr}/"), stop, addr, thread: Some(thread) }
    }
}

impl Drop for StaticServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(self.addr);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn serve(mut stream: TcpStream, root: &Path, mode: Mode) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut first = String::new();
    if reader.read_line(&mut first).is_err() {
        return;
    }
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
            break;
        }
    }
    let path = first.split_whitespace().nth(1).unwrap_or("/").trim_start_matches('/').to_string();
    if mode == Mode::Stall {
        std::thread::sleep(Duration::from_secs(3));
        return;
    }
    if mode == Mode::Slow && path.starts_with("index/") {
        std::thread::sleep(Duration::from_millis(700));
    }
    let response = if mode == Mode::Redirect {
        b"HTTP/1.1 302 Found\r\nLocation: http://example.invalid/\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_vec()
    } else {
        match (!path.contains("..")).then(|| std::fs::read(root.join(&path))).and_then(Result::ok) {
            Some(body) => {
                let mut r = format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len()).into_bytes();
                r.extend(body);
                r
            }
            None => b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_vec(),
        }
    };
    let _ = stream.write_all(&response);
}

fn limina(args: &[&str], cwd: &Path) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_limina"))
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run limina");
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("limina {args:?} hung");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

fn ok(args: &[&str], cwd: &Path) -> String {
    let out = limina(args, cwd);
    assert!(out.status.success(), "limina {args:?} failed:\n{}", text(&out));
    text(&out)
}

pub(crate) fn fails(args: &[&str], cwd: &Path) -> String {
    let out = limina(args, cwd);
    assert!(!out.status.success(), "limina {args:?} should fail:\n{}", text(&out));
    text(&out)
}

/// A workspace: a project, a registry folder, a publisher key and the public key.
pub(crate) struct World {
    _dir: tempfile::TempDir,
    pub(crate) project: PathBuf,
    pub(crate) registry: PathBuf,
    pub(crate) key: PathBuf,
    pub(crate) public: String,
    pub(crate) sources: PathBuf,
}

impl World {
    pub(crate) fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join("game");
        let registry = dir.path().join("registry");
        let sources = dir.path().join("src");
        std::fs::create_dir_all(project.join("scripts")).unwrap();
        std::fs::create_dir_all(&sources).unwrap();
        let key = dir.path().join("publisher.key");
        let public = ok(&["packages", "keygen", "--out", key.to_str().unwrap()], dir.path()).lines().next().unwrap().trim().to_string();
        assert!(public.starts_with("ed25519:"), "{public}");
        World { _dir: dir, project, registry, key, public, sources }
    }

    pub(crate) fn configure(&self, url: &str, tier: &str, keys: &[&str]) {
        let keys: Vec<String> = keys.iter().map(|k| format!("\"{k}\"")).collect();
        let toml = format!("[[registry]]\nname = \"main\"\nurl = \"{url}\"\ntier = \"{tier}\"\nkeys = [{}]\n", keys.join(", "));
        std::fs::write(self.project.join("limina.toml"), toml).unwrap();
    }

    pub(crate) fn file_url(&self) -> String {
        format!("file://{}", self.registry.display())
    }

    /// Writes and publishes a folder package.
    pub(crate) fn publish(&self, name: &str, version: &str, extra: &str) -> String {
        let dir = self.sources.join(format!("{name}-{version}"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("package.luau"), format!("return {{ name = \"{name}\", version = \"{version}\", {extra} }}\n")).unwrap();
        std::fs::write(dir.join("init.luau"), format!("-- {name} {version}\nreturn {{}}\n")).unwrap();
        self.publish_dir(&dir, &self.key)
    }

    pub(crate) fn publish_dir(&self, dir: &Path, key: &Path) -> String {
        ok(
            &["packages", "publish", dir.to_str().unwrap(), "--key", key.to_str().unwrap(), "--registry", self.registry.to_str().unwrap()],
            &self.project,
        )
    }

    pub(crate) fn lock(&self) -> String {
        std::fs::read_to_string(self.project.join("limina.lock")).unwrap_or_default()
    }

    pub(crate) fn installed(&self, name: &str) -> Option<String> {
        std::fs::read_to_string(self.project.join("scripts").join(name).join("package.luau")).ok()
    }
}

#[test]
fn file_registry_search_install_with_approval_and_lockfile() {
    let w = World::new();
    w.configure(&w.file_url(), "verified", &[&w.public]);
    w.publish("base", "1.0.0", "capabilities = { \"scene.read\" }, description = \"shared helpers\"");
    let published = w.publish(
        "greet",
        "1.0.0",
        "description = \"says hello\", trust = \"verified\", capabilities = { \"scene.write\" }, dependencies = { base = \"^1\" }, extends = { \"base\" }, secrets = { \"GREET_TOKEN\" }",
    );
    assert!(published.contains("archives/greet-1.0.0.tar.gz") && published.contains(&w.public), "{published}");

    let found = ok(&["packages", "search", "hello"], &w.project);
    assert!(found.contains("greet@1.0.0") && !found.contains("base@"), "{found}");

    // No terminal and no --yes: nothing is installed.
    let refused = fails(&["packages", "install", "greet"], &w.project);
    assert!(refused.contains("pass --yes") && refused.contains("not approved"), "{refused}");
    assert!(w.installed("greet").is_none() && w.installed("base").is_none() && w.lock().is_empty());

    let started = Instant::now();
    let out = ok(&["packages", "install", "greet", "--yes"], &w.project);
    eprintln!("install of two packages from file://: {:?}", started.elapsed());
    // The approval shows the resolved capabilities (its own and its parent's), tier and secrets.
    assert!(out.contains("capabilities (resolved): scene.read, scene.write"), "{out}");
    assert!(out.contains("trust tier: verified") && out.contains("secrets: GREET_TOKEN"), "{out}");
    assert!(out.contains("base@1.0.0 from registry 'main'") && out.contains("trust tier: untrusted"), "base asks no trust:\n{out}");
    assert!(w.installed("greet").is_some() && w.installed("base").is_some());
    let lock = w.lock();
    assert!(lock.contains("name = \"greet\"") && lock.contains("version = \"1.0.0\"") && lock.contains("archive_sha256"), "{lock}");
    assert!(lock.contains("\"GREET_TOKEN\""), "{lock}");
    // The approval is recorded as an operator grant for these files.
    let trust = std::fs::read_to_string(w.project.join(".limina-trust.json")).unwrap();
    assert!(trust.contains("scripts/greet") && trust.contains("\"verified\""), "{trust}");
    let listed = ok(&["packages", "list"], &w.project);
    assert!(listed.lines().any(|l| l.starts_with("greet@1.0.0") && l.contains("verified") && l.contains("would load")), "{listed}");

    // A second install changes nothing; a package not from a registry is never overwritten.
    assert!(ok(&["packages", "install", "greet", "--yes"], &w.project).contains("already installed"));
    std::fs::create_dir_all(w.project.join("scripts/mine")).unwrap();
    std::fs::write(w.project.join("scripts/mine/package.luau"), "return { name = \"mine\", version = \"1.0.0\" }").unwrap();
    w.publish("mine", "2.0.0", "");
    let clash = fails(&["packages", "install", "mine", "--yes"], &w.project);
    assert!(clash.contains("not installed from a registry"), "{clash}");

    // Remove refuses while a dependent is installed.
    let needed = fails(&["packages", "remove", "base"], &w.project);
    assert!(needed.contains("needed by greet@1.0.0"), "{needed}");
    ok(&["packages", "remove", "greet"], &w.project);
    assert!(w.installed("greet").is_none() && !w.lock().contains("\"greet\""));
}

#[test]
fn http_registry_offline_reinstall_and_patch_versus_minor_updates() {
    let w = World::new();
    w.publish("greet", "1.0.0", "capabilities = { \"scene.read\" }");
    let server = StaticServer::start(&w.registry, Mode::Files);
    w.configure(&server.url, "untrusted", &[&w.public]);
    let started = Instant::now();
    ok(&["packages", "install", "greet", "--yes"], &w.project);
    eprintln!("install over http: {:?}", started.elapsed());
    assert!(w.project.join(".limina/cache/main/greet-1.0.0.tar.gz").is_file());

    // A patch and a minor release: the patch applies by itself (no new capability, so no
    // approval: no --yes), the minor is held back and listed.
    w.publish("greet", "1.0.1", "capabilities = { \"scene.read\" }");
    w.publish("greet", "1.1.0", "capabilities = { \"scene.read\" }");
    let out = ok(&["packages", "update"], &w.project);
    assert!(out.contains("greet@1.0.1: installed"), "{out}");
    assert!(out.contains("greet@1.0.1: held back") && out.contains("1.1.0") && out.contains("--to VERSION"), "{out}");
    assert!(w.installed("greet").unwrap().contains("1.0.1") && w.lock().contains("version = \"1.0.1\""));
    // The minor one needs --to and approval.
    let refused = fails(&["packages", "update", "greet", "--to", "1.1.0"], &w.project);
    assert!(refused.contains("update beyond a patch release") && refused.contains("pass --yes"), "{refused}");
    assert!(w.installed("greet").unwrap().contains("1.0.1"));

    // Offline: the server is gone, the package deleted; the locked version comes from the cache.
    drop(server);
    std::fs::remove_dir_all(w.project.join("scripts/greet")).unwrap();
    let out = ok(&["packages", "install"], &w.project);
    assert!(out.contains("greet@1.0.1: installed"), "{out}");
    assert!(w.installed("greet").unwrap().contains("1.0.1"));
    // Without the server, anything not cached fails with a clear error.
    let offline = fails(&["packages", "info", "greet"], &w.project);
    assert!(offline.contains("cannot fetch index/greet.json"), "{offline}");
}

#[test]
fn a_widened_patch_release_needs_approval_again() {
    let w = World::new();
    w.configure(&w.file_url(), "untrusted", &[&w.public]);
    w.publish("greet", "1.0.0", "capabilities = { \"scene.read\" }");
    ok(&["packages", "install", "greet", "--yes"], &w.project);
    w.publish("greet", "1.0.1", "capabilities = { \"scene.read\", \"scene.write\" }");
    let refused = fails(&["packages", "update"], &w.project);
    assert!(refused.contains("widens what greet@1.0.0 was approved for: scene.write"), "{refused}");
    assert!(w.installed("greet").unwrap().contains("1.0.0"), "nothing changed");
    let out = ok(&["packages", "update", "--yes"], &w.project);
    assert!(out.contains("greet@1.0.1: installed"), "{out}");
}

/// Found by an outside attack: a code package that also holds a SKILL.md was published and
/// installed as an instruction skill, so its capabilities were never shown and a widening
/// update went through unasked; and `remove` deleted a folder the lockfile named without
/// checking it was the one installed.
#[test]
fn a_package_with_a_skill_md_is_approved_as_code_and_remove_spares_edits() {
    let w = World::new();
    w.configure(&w.file_url(), "untrusted", &[&w.public]);
    let publish_dual = |version: &str, caps: &str| {
        let dir = w.sources.join(format!("dual-{version}"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("package.luau"),
            format!("return {{ name = \"dual\", version = \"{version}\", capabilities = {{ {caps} }} }}\n"),
        )
        .unwrap();
        std::fs::write(dir.join("init.luau"), "return {}\n").unwrap();
        std::fs::write(dir.join("SKILL.md"), format!("---\nname: dual\ndescription: docs\nversion: {version}\n---\nb\n")).unwrap();
        w.publish_dir(&dir, &w.key)
    };
    publish_dual("1.0.0", "\"scene.read\"");
    let index = std::fs::read_to_string(w.registry.join("index/dual.json")).unwrap();
    assert!(index.contains("\"kind\": \"folder\"") || index.contains("\"kind\":\"folder\""), "{index}");
    let out = ok(&["packages", "install", "dual", "--yes"], &w.project);
    assert!(out.contains("scene.read"), "the approval shows its capabilities: {out}");
    publish_dual("1.0.1", "\"scene.read\", \"agent.write\"");
    let refused = fails(&["packages", "update"], &w.project);
    assert!(refused.contains("widens what dual@1.0.0 was approved for: agent.write"), "{refused}");

    // remove: an edited install stays, and says why.
    std::fs::write(w.project.join("scripts/dual/notes.txt"), "mine").unwrap();
    let kept = fails(&["packages", "remove", "dual"], &w.project);
    assert!(
        kept.contains("is not what dual@1.0.0 installed (notes.txt was not in the package)") && kept.contains("nothing was removed"),
        "{kept}"
    );
    assert!(w.project.join("scripts/dual/notes.txt").exists());
    std::fs::remove_file(w.project.join("scripts/dual/notes.txt")).unwrap();
    ok(&["packages", "remove", "dual"], &w.project);
    assert!(!w.project.join("scripts/dual").exists());
}

#[test]
fn tampered_replayed_and_wrongly_signed_archives_are_refused() {
    let w = World::new();
    w.configure(&w.file_url(), "untrusted", &[&w.public]);
    w.publish("greet", "1.0.0", "");
    let archive = w.registry.join("archives/greet-1.0.0.tar.gz");
    let good = std::fs::read(&archive).unwrap();

    // One byte flipped.
    let mut bad = good.clone();
    let last = bad.len() - 10;
    bad[last] ^= 0x55;
    std::fs::write(&archive, &bad).unwrap();
    let err = fails(&["packages", "install", "greet", "--yes"], &w.project);
    assert!(err.contains("tampered") && err.contains("greet@1.0.0"), "{err}");
    assert!(w.installed("greet").is_none() && !w.project.join(".limina/cache/main/greet-1.0.0.tar.gz").exists());

    // Re-hashed in the index but signed by no configured key.
    let index_file = w.registry.join("index/greet.json");
    let index = std::fs::read_to_string(&index_file).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&index).unwrap();
    let sha = {
        use sha2::Digest as _;
        sha2::Sha256::digest(&bad).iter().map(|b| format!("{b:02x}")).collect::<String>()
    };
    v["versions"][0]["sha256"] = sha.into();
    std::fs::write(&index_file, v.to_string()).unwrap();
    let err = fails(&["packages", "install", "greet", "--yes"], &w.project);
    assert!(err.contains("does not verify against the registry's key"), "{err}");
    std::fs::write(&archive, &good).unwrap();
    std::fs::write(&index_file, &index).unwrap();

    // The right archive, signed by someone else's key.
    let other_key = w.project.parent().unwrap().join("other.key");
    let other_public = ok(&["packages", "keygen", "--out", other_key.to_str().unwrap()], &w.project).lines().next().unwrap().to_string();
    let elsewhere = w.sources.join("greet-2");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::write(elsewhere.join("package.luau"), "return { name = \"greet\", version = \"2.0.0\" }").unwrap();
    std::fs::write(elsewhere.join("init.luau"), "return {}").unwrap();
    w.publish_dir(&elsewhere, &other_key);
    let err = fails(&["packages", "install", "greet@2.0.0", "--yes"], &w.project);
    assert!(err.contains("does not verify") && err.contains("signed by someone else"), "{err}");

    // A good archive and signature replayed under another name.
    std::fs::copy(&archive, w.registry.join("archives/evil-1.0.0.tar.gz")).unwrap();
    let replay = index.replace("\"greet\"", "\"evil\"").replace("greet-1.0.0", "evil-1.0.0");
    std::fs::write(w.registry.join("index/evil.json"), replay).unwrap();
    let err = fails(&["packages", "install", "evil", "--yes"], &w.project);
    assert!(err.contains("does not verify"), "{err}");
    assert!(w.installed("evil").is_none());

    // Rotation: while both keys are configured, archives signed by either install.
    w.configure(&w.file_url(), "untrusted", &[&w.public, &other_public]);
    ok(&["packages", "install", "greet@1.0.0", "--yes"], &w.project);
    let out = ok(&["packages", "update", "greet", "--to", "2.0.0", "--yes"], &w.project);
    assert!(out.contains("greet@2.0.0: installed"), "{out}");
}

#[test]
fn publish_validates_the_package_and_never_replaces_a_version() {
    let w = World::new();
    let key = w.key.to_str().unwrap();
    let registry = w.registry.to_str().unwrap();
    let bad = w.sources.join("bad");
    std::fs::create_dir_all(&bad).unwrap();
    std::fs::write(bad.join("package.luau"), "return { name = \"bad\", version = \"1.0\" }").unwrap();
    let err = fails(&["packages", "publish", bad.to_str().unwrap(), "--key", key, "--registry", registry], &w.project);
    assert!(err.contains("version: '1.0' is not semver"), "{err}");
    std::fs::write(bad.join("package.luau"), "return { name = \"bad\", version = \"1.0.0\", capabilities = { \"root\" } }").unwrap();
    let err = fails(&["packages", "publish", bad.to_str().unwrap(), "--key", key, "--registry", registry], &w.project);
    assert!(err.contains("unknown permission 'root'"), "{err}");
    #[cfg(unix)]
    {
        std::fs::write(bad.join("package.luau"), "return { name = \"bad\", version = \"1.0.0\" }").unwrap();
        std::os::unix::fs::symlink("/etc/passwd", bad.join("passwd.luau")).unwrap();
        let err = fails(&["packages", "publish", bad.to_str().unwrap(), "--key", key, "--registry", registry], &w.project);
        assert!(err.contains("symbolic link"), "{err}");
    }
    // Its code must load and its skill definitions be valid.
    std::fs::write(bad.join("package.luau"), "return { name = \"bad\", version = \"1.0.0\" }").unwrap();
    let _ = std::fs::remove_file(bad.join("passwd.luau"));
    std::fs::write(bad.join("init.luau"), "return { skills = { { name = \"bad.thing\", input = 42, handler = function() end } } }")
        .unwrap();
    let err = fails(&["packages", "publish", bad.to_str().unwrap(), "--key", key, "--registry", registry], &w.project);
    assert!(err.contains("its code does not load"), "{err}");
    assert!(!w.registry.join("index/bad.json").exists(), "nothing was published");
    w.publish("good", "1.0.0", "");
    let dir = w.sources.join("good-1.0.0");
    let err = fails(&["packages", "publish", dir.to_str().unwrap(), "--key", key, "--registry", registry], &w.project);
    assert!(err.contains("already published"), "{err}");
    let size = std::fs::metadata(w.registry.join("archives/good-1.0.0.tar.gz")).unwrap().len();
    eprintln!("archive of a two-file package: {size} bytes");
}

#[test]
fn unsatisfiable_and_conflicting_sets_are_explained() {
    let w = World::new();
    w.configure(&w.file_url(), "untrusted", &[&w.public]);
    w.publish("base", "1.0.0", "");
    w.publish("app", "1.0.0", "dependencies = { base = \"^2\" }");
    let err = fails(&["packages", "install", "app", "--yes"], &w.project);
    assert!(err.contains("app@1.0.0 needs base ^2") && err.contains("main has 1.0.0"), "{err}");

    w.publish("left", "1.0.0", "dependencies = { base = \"=1.0.0\" }");
    w.publish("base", "1.1.0", "");
    w.publish("right", "1.0.0", "dependencies = { base = \">=1.1\" }");
    let err = fails(&["packages", "install", "left", "right", "--yes"], &w.project);
    assert!(err.contains("no single version satisfies both") && err.contains("left@1.0.0 needs base =1.0.0"), "{err}");

    // A conflict with an installed package: the resolver's own reason, and nothing installed.
    w.publish("rival", "1.0.0", "conflicts_with = { \"base\" }");
    ok(&["packages", "install", "base", "--yes"], &w.project);
    let err = fails(&["packages", "install", "rival", "--yes"], &w.project);
    assert!(err.contains("declares conflicts_with 'base'") && err.contains("nothing was changed"), "{err}");
    assert!(w.installed("rival").is_none());

    // A parent's update that breaks a child is refused and reported.
    w.publish("child", "1.0.0", "dependencies = { base = \"~1.1.0\" }");
    ok(&["packages", "install", "child", "--yes"], &w.project);
    w.publish("base", "1.2.0", "");
    let err = fails(&["packages", "update", "base", "--to", "1.2.0", "--yes"], &w.project);
    assert!(err.contains("child@1.0.0 (installed)") && err.contains("not satisfied by the installed base@1.2.0"), "{err}");
}

#[test]
fn instruction_skills_install_the_same_way() {
    let w = World::new();
    w.configure(&w.file_url(), "verified", &[&w.public]);
    let dir = w.sources.join("naming");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("SKILL.md"),
        "---\nname: naming\ndescription: Name things so others find them.\nversion: 1.0.0\n---\nUse nouns.\n",
    )
    .unwrap();
    w.publish_dir(&dir, &w.key);
    let out = ok(&["packages", "install", "naming", "--yes"], &w.project);
    assert!(out.contains("naming@1.0.0 from registry 'main' (instruction)") && out.contains("gated tools: none"), "{out}");
    assert!(w.project.join("scripts/naming/SKILL.md").is_file());
    let listed = ok(&["packages", "list"], &w.project);
    assert!(listed.lines().any(|l| l.starts_with("naming@1.0.0") && l.contains("verified")), "{listed}");
}

#[test]
fn hostile_registries_fail_clearly() {
    let w = World::new();
    w.publish("greet", "1.0.0", "");
    // A redirect is never followed.
    let server = StaticServer::start(&w.registry, Mode::Redirect);
    w.configure(&server.url, "untrusted", &[&w.public]);
    let err = fails(&["packages", "install", "greet", "--yes"], &w.project);
    assert!(err.contains("redirected") && err.contains("example.invalid"), "{err}");
    drop(server);
    // A server that never answers is given up on after the registry's timeout.
    let server = StaticServer::start(&w.registry, Mode::Stall);
    let toml = format!("[[registry]]\nname = \"main\"\nurl = \"{}\"\ntimeout = 1\nkeys = [\"{}\"]\n", server.url, w.public);
    std::fs::write(w.project.join("limina.toml"), toml).unwrap();
    let err = fails(&["packages", "info", "greet"], &w.project);
    assert!(err.contains("timed out"), "{err}");
    drop(server);
    // Each index in time, but a search over all of them has the timeout in all.
    for name in ["greet2", "greet3", "greet4"] {
        w.publish(name, "1.0.0", "");
    }
    let server = StaticServer::start(&w.registry, Mode::Slow);
    let toml = format!("[[registry]]\nname = \"main\"\nurl = \"{}\"\ntimeout = 1\nkeys = [\"{}\"]\n", server.url, w.public);
    std::fs::write(w.project.join("limina.toml"), toml).unwrap();
    let err = fails(&["packages", "search", "greet"], &w.project);
    assert!(err.contains("stopped after 1 s") && err.contains("of 4 indexes read"), "{err}");
    drop(server);
    // Not a package name; an index that is not semver; an archive path elsewhere; unknown keys.
    w.configure(&w.file_url(), "untrusted", &[&w.public]);
    assert!(fails(&["packages", "install", "../etc", "--yes"], &w.project).contains("not a package name"));
    let index_file = w.registry.join("index/greet.json");
    let index = std::fs::read_to_string(&index_file).unwrap();
    std::fs::write(&index_file, index.replace("\"version\": \"1.0.0\"", "\"version\": \"one\"")).unwrap();
    assert!(fails(&["packages", "install", "greet", "--yes"], &w.project).contains("'one' is not semver"));
    std::fs::write(&index_file, index.replace("archives/greet-1.0.0.tar.gz", "archives/../../x.tar.gz")).unwrap();
    assert!(fails(&["packages", "install", "greet", "--yes"], &w.project).contains("must be archives/greet-1.0.0.tar.gz"));
    // An index file past its cap is not read.
    std::fs::write(&index_file, format!("{index}{}", " ".repeat(1 << 20))).unwrap();
    assert!(fails(&["packages", "info", "greet"], &w.project).contains("larger than the 1048576 bytes allowed"));
    std::fs::write(&index_file, &index).unwrap();
    std::fs::write(w.project.join("limina.toml"), "[[registry]]\nname = \"main\"\nurl = \"file:///x\"\nkeys = []\nmirror = true\n")
        .unwrap();
    let err = fails(&["packages", "search"], &w.project);
    assert!(err.contains("mirror") && err.contains("line 5"), "{err}");
    // A hand-broken lockfile is named.
    w.configure(&w.file_url(), "untrusted", &[&w.public]);
    std::fs::write(w.project.join("limina.lock"), "version = 1\n[[package]]\nname = \"greet\"\nversion = \"x\"\n").unwrap();
    assert!(fails(&["packages", "install", "greet", "--yes"], &w.project).contains("limina.lock"));
}

#[test]
fn an_installed_package_reads_the_secret_approved_at_install() {
    let w = World::new();
    w.configure(&w.file_url(), "untrusted", &[&w.public]);
    let dir = w.sources.join("weather");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("package.luau"), "return { name = \"weather\", version = \"1.0.0\", secrets = { \"WX_KEY\" } }\n").unwrap();
    std::fs::write(
        dir.join("init.luau"),
        r#"return { skills = { { name = "weather.key", version = "1.0.0", category = "mods", description = "Key length.",
            permissions = {}, input = s.object({}), output = s.object({ length = s.number() }),
            handler = function() return { length = #host.secret("WX_KEY") } end } } }"#,
    )
    .unwrap();
    w.publish_dir(&dir, &w.key);
    let out = ok(&["packages", "install", "weather", "--yes"], &w.project);
    assert!(out.contains("trust tier: untrusted") && out.contains("secrets: WX_KEY"), "{out}");
    // The approval is the grant: an untrusted one, approving the secret only.
    let trust = std::fs::read_to_string(w.project.join(".limina-trust.json")).unwrap();
    assert!(trust.contains("\"untrusted\"") && trust.contains("WX_KEY"), "{trust}");
    let inspected = ok(&["packages", "inspect", "weather"], &w.project);
    assert!(inspected.contains("\"approved\": true") && inspected.contains("\"effective\": \"untrusted\""), "{inspected}");

    let answer = crate::package_secrets::call_once(&w.project, ("LIMINA_SECRET_WX_KEY", "wx-0123456789"), "weather.key");
    assert_eq!(answer["result"]["structuredContent"], serde_json::json!({"length": 13}), "{answer}");
}

#[test]
fn publish_runs_the_tests_a_package_ships() {
    let w = World::new();
    w.configure(&w.file_url(), "untrusted", &[&w.public]);
    // A dependency the publisher has installed: the tests run with it beside the package.
    let base = w.project.join("scripts/base");
    std::fs::create_dir_all(&base).unwrap();
    std::fs::write(base.join("package.luau"), "return { name = \"base\", version = \"1.0.0\" }").unwrap();
    std::fs::write(
        base.join("init.luau"),
        r#"return { skills = { { name = "base.two", version = "1.0.0", category = "mods", description = "Two.",
            permissions = {}, input = s.object({}), output = s.object({ v = s.number() }), handler = function() return { v = 2 } end } } }"#,
    )
    .unwrap();
    let adder = |version: &str, op: &str| {
        let dir = w.sources.join(format!("adder-{version}"));
        std::fs::create_dir_all(dir.join("tests")).unwrap();
        std::fs::write(
            dir.join("package.luau"),
            format!("return {{ name = \"adder\", version = \"{version}\", dependencies = {{ base = \"^1\" }} }}"),
        )
        .unwrap();
        std::fs::write(
            dir.join("init.luau"),
            format!(
                r#"return {{ skills = {{ {{ name = "adder.add", version = "1.0.0", category = "mods", description = "Adds.",
                permissions = {{}}, input = s.object({{ a = s.number() }}), output = s.object({{ sum = s.number() }}),
                handler = function(input) return {{ sum = input.a {op} host.invoke("base.two", {{}}).result.v }} end }} }} }}"#
            ),
        )
        .unwrap();
        std::fs::write(
            dir.join("tests/add_test.luau"),
            r#"describe("adder", function()
                it("adds two", function()
                    local r = limina.call("adder.add", { a = 3 })
                    expect(r.success).toBe(true)
                    expect(r.result.sum).toBe(5)
                end)
            end)"#,
        )
        .unwrap();
        dir
    };
    let out = w.publish_dir(&adder("1.0.0", "+"), &w.key);
    assert!(out.contains("tests: 1 passed, 0 failed") && out.contains("published"), "{out}");

    // A release whose own tests fail is not published, and says which test and why.
    let broken = adder("1.0.1", "-");
    let args =
        ["packages", "publish", broken.to_str().unwrap(), "--key", w.key.to_str().unwrap(), "--registry", w.registry.to_str().unwrap()];
    // Its own temporary folder, to see that the stage is removed.
    let tmp = w.sources.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_limina")).args(args).env("TMPDIR", &tmp).current_dir(&w.project).output().unwrap();
    let refused = text(&out);
    assert!(!out.status.success(), "{refused}");
    assert!(refused.contains("its tests failed") && refused.contains("FAIL") && refused.contains("adds two"), "{refused}");
    let index = std::fs::read_to_string(w.registry.join("index/adder.json")).unwrap();
    assert!(index.contains("1.0.0") && !index.contains("1.0.1"), "{index}");
    // A test that never ends stops the publish at --test-timeout instead of holding it forever.
    let spinning = adder("1.0.2", "+");
    std::fs::write(
        spinning.join("tests/spin_test.luau"),
        "describe('spin', function() it('never ends', function() while true do end end) end)",
    )
    .unwrap();
    let mut args = args.to_vec();
    let spinning_dir = spinning.to_str().unwrap().to_string();
    args[2] = &spinning_dir;
    args.extend(["--test-timeout", "2"]);
    let out = Command::new(env!("CARGO_BIN_EXE_limina")).args(&args).env("TMPDIR", &tmp).current_dir(&w.project).output().unwrap();
    let refused = text(&out);
    assert!(!out.status.success() && refused.contains("still running after 2 s"), "{refused}");
    // Nothing is left behind in the temporary folder.
    let left: Vec<_> = std::fs::read_dir(&tmp).unwrap().filter_map(Result::ok).map(|e| e.path()).collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn a_failed_commit_puts_everything_back_and_installs_never_interleave() {
    let w = World::new();
    w.configure(&w.file_url(), "verified", &[&w.public]);
    w.publish("base", "1.0.0", "trust = \"verified\"");
    w.publish("greet", "1.0.0", "trust = \"verified\", dependencies = { base = \"^1\" }");
    ok(&["packages", "install", "greet", "--yes"], &w.project);
    let trust_before = std::fs::read(w.project.join(".limina-trust.json")).unwrap();
    let lock_before = w.lock();

    // Both get a patch; writing the trust file fails after both folders have moved in.
    w.publish("base", "1.0.1", "trust = \"verified\"");
    w.publish("greet", "1.0.1", "trust = \"verified\", dependencies = { base = \"^1\" }");
    std::fs::create_dir(w.project.join(".limina-trust.json.tmp")).unwrap();
    let failed = fails(&["packages", "update"], &w.project);
    assert!(failed.contains("cannot write the trust file") && failed.contains("nothing was changed"), "{failed}");
    assert!(w.installed("greet").unwrap().contains("1.0.0") && w.installed("base").unwrap().contains("1.0.0"), "the old versions are back");
    assert_eq!(std::fs::read(w.project.join(".limina-trust.json")).unwrap(), trust_before);
    assert_eq!(w.lock(), lock_before);
    std::fs::remove_dir(w.project.join(".limina-trust.json.tmp")).unwrap();
    let out = ok(&["packages", "update"], &w.project);
    assert!(out.contains("greet@1.0.1: installed") && out.contains("base@1.0.1: installed"), "{out}");

    // While another command holds the project, an install changes nothing and says why.
    let lock_file = w.project.join(".limina/packages.lock");
    let mut holder = Command::new("flock")
        .arg(&lock_file)
        .args(["-c", "echo held; sleep 60"])
        .stdout(Stdio::piped())
        .process_group(0)
        .spawn()
        .expect("flock(1) from util-linux");
    let mut line = String::new();
    BufReader::new(holder.stdout.take().unwrap()).read_line(&mut line).unwrap();
    assert_eq!(line.trim(), "held");
    let busy = fails(&["packages", "remove", "greet"], &w.project);
    // The whole group: the shell's `sleep` holds the lock too.
    Command::new("kill").args(["-9", "--", &format!("-{}", holder.id())]).status().unwrap();
    holder.wait().unwrap();
    assert!(busy.contains("another limina packages command is changing this project"), "{busy}");
    assert!(w.installed("greet").is_some());
    ok(&["packages", "remove", "greet"], &w.project);
}

/// Runs `openssl` with `args` in `dir`, failing the test if it fails.
fn openssl(dir: &Path, args: &[&str]) {
    let out = Command::new("openssl").args(args).current_dir(dir).output().expect("openssl");
    assert!(out.status.success(), "openssl {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn an_https_registry_is_verified_against_the_certificates_the_system_trusts() {
    let w = World::new();
    w.publish("hello", "1.0.0", "description = \"says hi\"");
    // A private certificate authority and a leaf certificate for localhost it signed.
    let tls = w.sources.join("tls");
    std::fs::create_dir_all(&tls).unwrap();
    openssl(
        &tls,
        &[
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            "ca.key",
            "-out",
            "ca.pem",
            "-days",
            "2",
            "-subj",
            "/CN=limina test CA",
        ],
    );
    openssl(&tls, &["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "leaf.key", "-out", "leaf.csr", "-subj", "/CN=localhost"]);
    std::fs::write(tls.join("ext.cnf"), "subjectAltName=DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n").unwrap();
    openssl(
        &tls,
        &[
            "x509",
            "-req",
            "-in",
            "leaf.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-out",
            "leaf.pem",
            "-days",
            "2",
            "-extfile",
            "ext.cnf",
        ],
    );
    // A real TLS server (openssl's own), serving the registry folder's files.
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut server = Command::new("openssl")
        .args(["s_server", "-WWW", "-quiet", "-accept", &format!("127.0.0.1:{port}")])
        .arg("-cert")
        .arg(tls.join("leaf.pem"))
        .arg("-key")
        .arg(tls.join("leaf.key"))
        .current_dir(&w.registry)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("openssl s_server");
    let deadline = Instant::now() + Duration::from_secs(60);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "openssl s_server did not listen");
        std::thread::sleep(Duration::from_millis(20));
    }
    w.configure(&format!("https://localhost:{port}/"), "untrusted", &[&w.public]);
    let run = |ca: Option<&Path>, args: &[&str]| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_limina"));
        cmd.args(args).current_dir(&w.project).stdin(Stdio::null());
        if let Some(ca) = ca {
            cmd.env("SSL_CERT_FILE", ca);
        }
        cmd.output().unwrap()
    };
    // A certificate nobody trusts here is refused.
    let refused = run(None, &["packages", "search", "hi"]);
    let text_refused = text(&refused);
    // Trusting the private CA (as an operator would, system-wide or with SSL_CERT_FILE): search
    // and install with approval work over TLS.
    let found = run(Some(&tls.join("ca.pem")), &["packages", "search", "hi"]);
    let installed = run(Some(&tls.join("ca.pem")), &["packages", "install", "hello", "--yes"]);
    let _ = server.kill();
    let _ = server.wait();
    assert!(!refused.status.success() && text_refused.contains("invalid peer certificate"), "{text_refused}");
    assert!(found.status.success() && text(&found).contains("hello@1.0.0"), "{}", text(&found));
    assert!(installed.status.success() && text(&installed).contains("hello@1.0.0: installed from 'main'"), "{}", text(&installed));
    assert!(w.installed("hello").is_some() && w.lock().contains("name = \"hello\""));
}
