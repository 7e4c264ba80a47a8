//! Package secrets (`packages::secrets`): a package reads the secret the operator approved and
//! supplied, in process and in its worker, and the value reaches no file limina writes (trace,
//! command log, snapshots), no answer and no log line — checked by reading every one of them.

use std::io::{BufRead as _, BufReader, Write as _};
use std::os::unix::fs::PermissionsExt as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};

use crate::packages::{HANG_GUARD, within};

const KEY: &str = "k-live-7f3a9c21e5b84d60";
/// A secret that is a number: its JSON text leaks as well as a string's.
const PIN: &str = "9876543210123456";

const MANIFEST: &str = r#"return { name = "vault", version = "1.0.0", capabilities = { "agent.write", "ui.write" }, secrets = { "API_KEY", "SPARE", "PIN" } }"#;

const CODE: &str = r#"
-- At load: not a call, so no secret.
local early_ok, early_err = pcall(host.secret, "API_KEY")
local function def(name, output, handler)
    return { name = name, version = "1.0.0", category = "mods", description = name, permissions = {},
             input = s.object({}), output = output, handler = handler }
end
return { skills = {
    def("vault.check", s.object({ length = s.number(), sum = s.number() }), function()
        local k = host.secret("API_KEY")
        local sum = 0
        for i = 1, #k do sum = (sum * 31 + string.byte(k, i)) % 1000003 end
        return { length = #k, sum = sum }
    end),
    def("vault.leak", s.object({ echo = s.string(), event = s.boolean(), hud = s.boolean(), pin = s.any() }), function()
        local k = host.secret("API_KEY")
        local pin = tonumber(host.secret("PIN"))
        print("the key is " .. k)
        -- A skill name is traced too, found or not.
        host.invoke("vault." .. k, {})
        host.invoke("agent.emitEvent", { type = "vault.pin", payload = { pin = pin } })
        local ev = host.invoke("agent.emitEvent", { type = "vault.leaked", payload = { key = k, upper = string.upper(k) } })
        local hud = host.invoke("ui.hudPanel", { anchor = { kind = "screen" }, text = "key " .. k })
        return { echo = "key=" .. k, event = ev.success, hud = hud.success, pin = pin }
    end),
    def("vault.fail", s.object({}), function()
        error("cannot use key " .. host.secret("API_KEY"))
    end),
    def("vault.early", s.object({ ok = s.boolean(), err = s.string() }), function()
        return { ok = early_ok, err = tostring(early_err) }
    end),
    def("vault.spare", s.object({}), function() host.secret("SPARE") return {} end),
    def("vault.undeclared", s.object({}), function() host.secret("OTHER") return {} end),
} }
"#;

/// The expected `sum` of `vault.check` for `key`.
fn digest(key: &str) -> u64 {
    key.bytes().fold(0u64, |sum, b| (sum * 31 + u64::from(b)) % 1_000_003)
}

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let pkg = dir.path().join("scripts/vault");
    std::fs::create_dir_all(&pkg).unwrap();
    std::fs::write(pkg.join("package.luau"), MANIFEST).unwrap();
    std::fs::write(pkg.join("init.luau"), CODE).unwrap();
    std::fs::write(dir.path().join("limina.toml"), "").unwrap();
    dir
}

fn limina(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_limina")).args(args).current_dir(dir).output().unwrap()
}

fn write_secrets(dir: &Path, text: &str, mode: u32) {
    let file = dir.join(".limina-secrets.toml");
    std::fs::write(&file, text).unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// Serves `limina mcp --stdio` in `dir` with a command log and snapshots, sends `calls`
/// (`(tool, arguments)`), exports the trace and snapshots the world, and returns each call's
/// result plus everything the process printed.
fn session(dir: &Path, worker: bool, calls: &[(&str, Value)]) -> (Vec<Value>, String) {
    std::fs::create_dir_all(dir.join("run")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_limina"))
        .args(["mcp", "--stdio", "--tools", "all", "--log", "run/world.log", "--checkpoint-every", "1", "--snapshot-every", "1"])
        .env("LIMINA_PACKAGE_WORKER", if worker { "on" } else { "off" })
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let stderr = child.stderr.take().unwrap();
    let err_reader = std::thread::spawn(move || std::io::read_to_string(stderr).unwrap_or_default());
    let (tx, lines) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut printed = String::new();
    let mut ask = |id: u64, method: &str, params: Value| -> Value {
        writeln!(stdin, "{}", json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})).unwrap();
        loop {
            let line = lines.recv_timeout(Duration::from_secs(120)).unwrap_or_else(|_| panic!("no answer to {method}"));
            printed.push_str(&line);
            printed.push('\n');
            let v: Value = serde_json::from_str(&line).unwrap();
            if v["id"] == id {
                return v;
            }
        }
    };
    ask(0, "initialize", json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}));
    let mut results = Vec::new();
    for (i, (tool, args)) in calls.iter().enumerate() {
        let answer = ask(i as u64 + 1, "tools/call", json!({"name": tool, "arguments": args}));
        results.push(answer["result"].clone());
    }
    let n = calls.len() as u64;
    let exported = ask(n + 1, "tools/call", json!({"name": "trace.export", "arguments": {"name": "secrets-run"}}));
    assert_eq!(exported["result"]["isError"], false, "{exported}");
    let snap = ask(n + 2, "tools/call", json!({"name": "world.snapshot", "arguments": {"name": "secrets-run"}}));
    assert_eq!(snap["result"]["isError"], false, "{snap}");
    let listed = ask(n + 3, "tools/call", json!({"name": "package.list", "arguments": {"name": "vault"}}));
    results.push(listed["result"].clone());
    drop(stdin);
    let status = child.wait().unwrap();
    assert!(status.success(), "{status}");
    printed.push_str(&err_reader.join().unwrap());
    (results, printed)
}

/// Every file under `dir` (but the secrets file itself) whose bytes contain `needle`, in any
/// ASCII case.
fn files_holding(dir: &Path, needle: &str) -> Vec<String> {
    let needle = needle.to_ascii_lowercase();
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    let mut seen = 0;
    while let Some(at) = stack.pop() {
        for entry in std::fs::read_dir(&at).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.file_name().is_some_and(|n| n != ".limina-secrets.toml") {
                seen += 1;
                let bytes = std::fs::read(&path).unwrap().to_ascii_lowercase();
                if memchr_find(&bytes, needle.as_bytes()) {
                    found.push(path.display().to_string());
                }
            }
        }
    }
    assert!(seen > 5, "the run wrote its files ({seen} seen)");
    found
}

fn memchr_find(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

fn text_of(result: &Value) -> String {
    result["content"][0]["text"].as_str().unwrap_or_default().to_string()
}

fn secret_run(worker: bool) {
    let dir = project();
    let d = dir.path();
    // Not approved yet: the package loads, its call is refused naming the fix.
    let (results, _) = session(d, worker, &[("vault.check", json!({}))]);
    assert_eq!(results[0]["isError"], true);
    assert!(text_of(&results[0]).contains("limina packages trust vault"), "{}", results[0]);
    std::fs::remove_dir_all(d.join("run")).unwrap();

    // Approved, but nothing supplied.
    let trusted = limina(d, &["packages", "trust", "vault"]);
    let said = String::from_utf8_lossy(&trusted.stdout);
    assert!(trusted.status.success(), "{said}{}", String::from_utf8_lossy(&trusted.stderr));
    assert!(said.contains("secrets approved: API_KEY, SPARE, PIN"), "{said}");
    let (results, _) = session(d, worker, &[("vault.check", json!({}))]);
    assert!(text_of(&results[0]).contains("no value is supplied for vault's secret 'API_KEY'"), "{}", results[0]);
    std::fs::remove_dir_all(d.join("run")).unwrap();

    // A file others may read gives nothing, and says so without the value.
    write_secrets(d, &format!("[vault]\nAPI_KEY = \"{KEY}\"\n"), 0o644);
    let (results, printed) = session(d, worker, &[("vault.check", json!({}))]);
    let refused = text_of(&results[0]);
    assert!(refused.contains("mode 0644") && refused.contains("chmod 600"), "{refused}");
    assert!(!printed.contains(KEY));
    let inspected = String::from_utf8_lossy(&limina(d, &["packages", "inspect", "vault"]).stdout).to_string();
    assert!(inspected.contains("\"secretsFile\": \"") && inspected.contains("chmod 600"), "{inspected}");
    std::fs::remove_dir_all(d.join("run")).unwrap();

    // Supplied privately: read at call time, and kept out of everything.
    write_secrets(d, &format!("[vault]\nAPI_KEY = \"{KEY}\"\nPIN = \"{PIN}\"\n"), 0o600);
    let (results, printed) = session(
        d,
        worker,
        &[
            ("vault.check", json!({})),
            ("vault.leak", json!({})),
            ("vault.fail", json!({})),
            ("vault.early", json!({})),
            ("vault.spare", json!({})),
            ("vault.undeclared", json!({})),
        ],
    );
    let check = &results[0]["structuredContent"];
    assert_eq!(check["length"], KEY.len(), "{}", results[0]);
    assert_eq!(check["sum"], digest(KEY), "the package read the operator's value");
    let leak = &results[1]["structuredContent"];
    assert_eq!((leak["event"].as_bool(), leak["hud"].as_bool()), (Some(true), Some(true)), "{}", results[1]);
    assert_eq!(leak["echo"], "key=[redacted]", "{}", results[1]);
    assert_eq!(leak["pin"], "[redacted]", "{}", results[1]);
    assert_eq!(results[2]["isError"], true);
    assert!(text_of(&results[2]).contains("cannot use key [redacted]"), "{}", results[2]);
    let early = &results[3]["structuredContent"];
    assert_eq!(early["ok"], false);
    assert!(early["err"].as_str().unwrap().contains("not while its files load"), "{early}");
    assert!(text_of(&results[4]).contains("no value is supplied for vault's secret 'SPARE'"), "{}", results[4]);
    assert!(text_of(&results[5]).contains("does not declare the secret 'OTHER'"), "{}", results[5]);
    let row = &results[6]["structuredContent"]["packages"][0];
    assert_eq!(row["isolation"], if worker { "worker" } else { "in-process" }, "{results:?}");
    let listed = row["secrets"].clone();
    assert_eq!(
        listed,
        json!([
            {"name": "API_KEY", "approved": true, "supplied": "secrets file"},
            {"name": "SPARE", "approved": true, "supplied": null},
            {"name": "PIN", "approved": true, "supplied": "secrets file"},
        ])
    );
    let inspected = limina(d, &["packages", "inspect", "vault"]);
    let inspected = String::from_utf8_lossy(&inspected.stdout).to_string() + &String::from_utf8_lossy(&inspected.stderr);
    assert!(inspected.contains("\"supplied\": \"secrets file\""), "{inspected}");

    // The value is nowhere: not in the answers, the log lines, the trace, the command log, the
    // snapshots or the world the package wrote to — in any case.
    assert!(!printed.to_ascii_lowercase().contains(&KEY.to_ascii_lowercase()), "{printed}");
    assert!(!printed.contains(PIN), "{printed}");
    assert!(printed.contains("the key is [redacted]"), "print is redacted too: {printed}");
    assert!(d.join("run/world.log").exists() && d.join("traces").exists());
    assert_eq!(files_holding(d, KEY), Vec::<String>::new());
    assert_eq!(files_holding(d, PIN), Vec::<String>::new());
    // The test can fail: the secrets file holds it, and the trace holds what it redacted.
    assert!(std::fs::read_to_string(d.join(".limina-secrets.toml")).unwrap().contains(KEY));
    assert!(files_holding(d, "[redacted]").iter().any(|f| f.ends_with("world.log")), "the command log holds what was redacted");

    // An edit that drops the grant drops the approval with it.
    std::fs::write(d.join("scripts/vault/init.luau"), format!("{CODE}\n-- edited")).unwrap();
    std::fs::remove_dir_all(d.join("run")).unwrap();
    let (results, _) = session(d, worker, &[("vault.check", json!({}))]);
    assert!(text_of(&results[0]).contains("has not approved vault's secret 'API_KEY'"), "{}", results[0]);
    let inspected = String::from_utf8_lossy(&limina(d, &["packages", "inspect", "vault"]).stdout).to_string();
    assert!(inspected.contains("approval of its secrets") && inspected.contains("its code changed since the grant"), "{inspected}");
}

#[test]
fn an_approved_secret_reaches_its_package_in_process_and_no_file() {
    within(HANG_GUARD * 4, "secrets in process", || secret_run(false));
}

#[test]
fn an_approved_secret_reaches_its_package_in_a_worker_and_no_file() {
    within(HANG_GUARD * 4, "secrets in a worker", || secret_run(true));
}

#[test]
fn the_environment_supplies_a_value_the_file_lacks() {
    let dir = project();
    let d = dir.path();
    assert!(limina(d, &["packages", "trust", "vault"]).status.success());
    let check = |value: &str| call_once(d, ("LIMINA_SECRET_API_KEY", value), "vault.check");
    let answer = check(KEY);
    assert_eq!(answer["result"]["structuredContent"]["sum"], digest(KEY), "{answer}");
    // Set but unusable: said so, not "not supplied", and without the value.
    let huge = "k".repeat(5000);
    let answer = check(&huge);
    let said = text_of(&answer["result"]);
    assert!(said.contains("LIMINA_SECRET_API_KEY is set but is 5000 bytes"), "{said}");
    assert!(!said.contains("kkkkkkkk"), "{said}");
}

/// One `limina mcp --stdio` in `dir` with `env` set: `initialize`, then `tool` with no
/// arguments; its answer, after the server read the end of its input and exited.
pub(crate) fn call_once(dir: &Path, env: (&str, &str), tool: &str) -> Value {
    let mut child = Command::new(env!("CARGO_BIN_EXE_limina"))
        .args(["mcp", "--stdio"])
        .env(env.0, env.1)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for r in [
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25"}}),
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": {}}}),
    ] {
        writeln!(stdin, "{r}").unwrap();
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    text.lines().filter_map(|l| serde_json::from_str::<Value>(l).ok()).find(|v| v["id"] == 1).unwrap_or_else(|| panic!("no answer: {text}"))
}
