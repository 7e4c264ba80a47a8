//! MCP over the real binary: the reference's native-mode exchange, and hostile input over stdio
//! (each case must leave the server answering the next request). WebSocket sessions, state sync
//! and hostile WebSocket input are covered in `mcp_ws.rs`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};

pub struct StdioServer {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
}

impl Drop for StdioServer {
    /// A server a test lets go of (or that panicked) is never left running.
    fn drop(&mut self) {
        self.stdin.take();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl StdioServer {
    pub fn start(extra: &[&str]) -> Self {
        let args: Vec<&str> = ["mcp", "--stdio"].into_iter().chain(extra.iter().copied()).collect();
        Self::start_in(&args, &crate::root())
    }

    /// The binary with exactly `args`, started in `cwd` (a client's snippet, from any folder).
    pub fn start_in<S: AsRef<std::ffi::OsStr>>(args: &[S], cwd: &std::path::Path) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_limina"))
            .args(args)
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Self { child, stdin, lines }
    }

    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    pub fn send(&mut self, message: &Value) {
        self.send_raw(format!("{message}\n").as_bytes());
    }

    pub fn recv(&self) -> Value {
        let line = self.lines.recv_timeout(Duration::from_secs(30)).expect("a reply within 30 s");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("stdout carried a non-JSON line ({e}): {line}"))
    }

    pub fn request(&mut self, id: u64, method: &str, params: Value) -> Value {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let reply = self.recv();
        assert_eq!(reply["id"], json!(id), "{reply}");
        reply
    }

    /// Ends the server with SIGKILL (no chance to flush or clean up).
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Closes stdin and returns the exit code.
    pub fn finish(mut self) -> Option<i32> {
        self.stdin.take();
        for _ in 0..100 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        None
    }
}

fn keys(v: &Value) -> Vec<&str> {
    let mut k: Vec<&str> = v.as_object().map(|o| o.keys().map(String::as_str).collect()).unwrap_or_default();
    k.sort();
    k
}

#[test]
fn native_mode_matches_the_reference_exchange() {
    // The reference's exchange starts from an empty world (its first entity is ent_0001).
    let mut s = StdioServer::start(&["--empty"]);
    // A call before initialize is refused as the reference does.
    let early = s.request(1, "callTool", json!({"name": "scene.createEntity", "arguments": {}}));
    assert_eq!(early["error"]["code"], -32001);
    assert_eq!(early["error"]["message"], "MCP session is not initialized");
    assert_eq!(early["error"]["data"]["error"]["code"], "forbidden");

    let init = s.request(2, "initialize", json!({"agentId": "agt_builder", "sessionId": "ses_b", "profile": "builder.readWrite"}));
    assert_eq!(keys(&init["result"]), ["protocolVersion", "session"]);
    assert_eq!(init["result"]["session"]["agentId"], "agt_builder");

    let list = s.request(3, "tools/list", json!({}));
    let tools = list["result"]["tools"].as_array().unwrap();
    assert_eq!(keys(&tools[0]), ["description", "input_schema", "name"], "native tools are the reference's MCPTool shape");
    assert_eq!(tools[0]["input_schema"]["$schema"], "http://json-schema.org/draft-07/schema#");
    assert_eq!(s.request(4, "listTools", json!({}))["result"], list["result"], "listTools is an alias");

    let call = s.request(5, "tools/call", json!({"name": "scene.createEntity", "arguments": {"shape": "sphere", "color": 16747546, "position": [0, 0.5, 0], "dynamic": true}}));
    let r = &call["result"];
    assert_eq!(keys(r), ["metadata", "result", "success"], "callTool returns the MCPResponse: {call}");
    assert_eq!(r["success"], true);
    assert_eq!(r["result"]["entity"], "ent_0001");
    assert_eq!(keys(&r["metadata"]), ["eventsEmitted", "executionTimeMs"]);
    assert_eq!(
        s.request(6, "callTool", json!({"tool": "scene.queryEntities", "input": {}}))["result"]["result"]["entities"][0]["entity"],
        "ent_0001"
    );

    // Failures are JSON-RPC errors with the MCPResponse in error.data, codes per the reference.
    let invalid = s.request(7, "callTool", json!({"name": "scene.createEntity", "arguments": {"size": 80}}));
    assert_eq!(invalid["error"]["code"], -32602);
    assert_eq!(invalid["error"]["data"]["success"], false);
    assert_eq!(invalid["error"]["data"]["error"]["code"], "invalid_input");
    let missing = s.request(8, "callTool", json!({"name": "social.nothing", "arguments": {}}));
    assert_eq!(missing["error"]["code"], -32601);
    assert_eq!(missing["error"]["data"]["error"]["code"], "not_found");

    // A narrower session: the permission denial (as `social.say` is for a builder in the reference).
    assert_eq!(s.request(9, "shutdown", json!({}))["result"], json!({"ok": true}));
    s.request(10, "initialize", json!({"agentId": "agt_viewer", "sessionId": "ses_v", "profile": "system.readonly"}));
    let denied = s.request(11, "callTool", json!({"name": "scene.destroyEntity", "arguments": {"entity": "ent_0001"}}));
    assert_eq!(denied["error"]["code"], -32001);
    let why = "missing permission: scene.write (profile system.readonly lacks it; granted by builder.readWrite)";
    assert_eq!(denied["error"]["message"], why);
    assert_eq!(denied["error"]["data"]["error"], json!({"code": "forbidden", "message": why}));
    assert_eq!(denied["error"]["data"]["metadata"]["eventsEmitted"], json!(["policy.denied", "security.permission.denied"]));
    // Zero effect: the entity is still there.
    let still = s.request(12, "callTool", json!({"name": "scene.queryEntities", "arguments": {}}));
    assert_eq!(still["result"]["result"]["entities"].as_array().unwrap().len(), 1);
    assert_eq!(s.finish(), Some(0));
}

#[test]
fn a_native_client_cannot_claim_more_than_the_server_grants() {
    let mut s = StdioServer::start(&["--profile", "system.readonly"]);
    let init = s.request(1, "initialize", json!({"agentId": "a", "sessionId": "s", "profile": "builder.readWrite"}));
    assert_eq!(init["result"]["session"]["permissions"], json!(["scene.read", "ecs.read", "physics.read", "agent.read", "trace.read"]));
    let denied = s.request(2, "callTool", json!({"name": "scene.createEntity", "arguments": {}}));
    assert_eq!(denied["error"]["code"], -32001);
    s.finish();
}

#[test]
fn standard_mode_lists_tools_with_schemas_and_annotations() {
    let mut s = StdioServer::start(&[]);
    let init = s.request(
        1,
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
    );
    assert_eq!(init["result"]["protocolVersion"], "2025-06-18", "the client's revision is answered when supported");
    assert_eq!(init["result"]["capabilities"]["tools"]["listChanged"], true);
    let future = StdioServer::start(&[]).request(1, "initialize", json!({"protocolVersion": "2099-01-01"}));
    assert_eq!(future["result"]["protocolVersion"], "2025-11-25", "unknown revisions get our latest");
    let tools = s.request(2, "tools/list", json!({}))["result"]["tools"].as_array().unwrap().clone();
    let create = tools.iter().find(|t| t["name"] == "scene.createEntity").unwrap();
    assert_eq!(keys(create), ["annotations", "description", "inputSchema", "name", "outputSchema", "title"]);
    assert_eq!(create["title"], "Scene: Create Entity");
    // Only hints that differ from MCP's defaults (readOnly false, destructive true, idempotent
    // false, openWorld true) are sent.
    assert_eq!(create["annotations"], json!({"destructiveHint": false, "openWorldHint": false}));
    let query = tools.iter().find(|t| t["name"] == "scene.queryEntities").unwrap();
    assert_eq!(query["annotations"], json!({"readOnlyHint": true, "idempotentHint": true, "openWorldHint": false}));
    let destroy = tools.iter().find(|t| t["name"] == "scene.destroyEntity").unwrap();
    assert_eq!(destroy["annotations"], json!({"idempotentHint": true, "openWorldHint": false}));
    let unknown = s.request(3, "tools/call", json!({"name": "no.such.tool", "arguments": {}}));
    assert_eq!(unknown["error"]["code"], -32602);
    assert!(unknown["error"]["message"].as_str().unwrap().contains("no.such.tool"));
    let bad_cursor = s.request(4, "tools/list", json!({"cursor": "zzz"}));
    assert_eq!(bad_cursor["error"]["code"], -32602);

    // dev.reload changes the registry: the client is told its tool list changed.
    let reload = s.request(5, "tools/call", json!({"name": "dev.reload", "arguments": {"target": "skill", "name": "scene.createEntity"}}));
    assert_eq!(reload["result"]["structuredContent"]["ok"], true, "{reload}");
    assert_eq!(s.recv()["method"], "notifications/tools/list_changed");
    assert_eq!(s.finish(), Some(0));
}

#[test]
fn hostile_stdio_input_never_stops_the_server() {
    let mut s = StdioServer::start(&[]);
    let ping = |s: &mut StdioServer, id: u64| assert_eq!(s.request(id, "ping", json!({}))["result"], json!({}));

    s.send_raw(b"{this is not json\n");
    assert_eq!(s.recv()["error"]["code"], -32700);
    ping(&mut s, 1);

    // A 10 MB line is refused without being kept.
    let mut huge = Vec::with_capacity(10 << 20);
    huge.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"ping\",\"params\":{\"pad\":\"");
    huge.resize(10 << 20, b'x');
    huge.extend_from_slice(b"\"}}\n");
    s.send_raw(&huge);
    let refused = s.recv();
    assert_eq!(refused["error"]["code"], -32600);
    assert!(refused["error"]["message"].as_str().unwrap().contains("limit"), "{refused}");
    ping(&mut s, 2);

    let nested = "[".repeat(100_000) + &"]".repeat(100_000) + "\n";
    s.send_raw(nested.as_bytes());
    assert_eq!(s.recv()["error"]["code"], -32700);
    ping(&mut s, 3);

    s.request(4, "initialize", json!({"protocolVersion": "2025-11-25"}));
    assert_eq!(s.request(5, "tools/call", json!({"name": 42}))["error"]["code"], -32602);
    assert_eq!(s.request(6, "tools/call", json!({"name": "scene.createEntity", "arguments": [1, 2]}))["error"]["code"], -32602);
    assert_eq!(s.request(7, "initialize", json!({"protocolVersion": 5}))["error"]["code"], -32602);
    assert_eq!(s.request(8, "tools/call", json!("nope"))["error"]["code"], -32600);
    s.send(&json!({"jsonrpc": "2.0", "id": 9, "method": "ping", "params": 5}));
    assert_eq!(s.recv()["error"]["code"], -32600);
    assert_eq!(s.request(10, "frobnicate", json!({}))["error"]["code"], -32601);
    s.send(&json!({"jsonrpc": "1.0", "id": 11, "method": "ping"}));
    assert_eq!(s.recv()["error"]["code"], -32600);
    s.send_raw(b"\xff\xfe\n");
    assert_eq!(s.recv()["error"]["code"], -32700);

    // A flood of notifications gets no answers, and the next request is still served in order.
    let mut flood = String::new();
    for i in 0..5000 {
        flood.push_str(&format!("{{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{{\"n\":{i}}}}}\n"));
    }
    s.send_raw(flood.as_bytes());
    ping(&mut s, 12);

    // Batches: answered together, notifications left out.
    s.send(&json!([{"jsonrpc": "2.0", "id": 13, "method": "ping"}, {"jsonrpc": "2.0", "method": "notifications/initialized"}, {"jsonrpc": "2.0", "id": 14, "method": "nope"}]));
    let batch = s.recv();
    assert_eq!(batch.as_array().map(Vec::len), Some(2), "{batch}");
    ping(&mut s, 15);
    assert_eq!(s.finish(), Some(0), "EOF ends the server cleanly");
}

#[test]
fn disconnecting_mid_call_ends_the_server_cleanly() {
    let mut s = StdioServer::start(&[]);
    s.send_raw(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"scene.creat");
    assert_eq!(s.finish(), Some(0));
}

/// Pipes `input` into a fresh `limina mcp --stdio`, closes stdin and returns every stdout line
/// and the exit code (None if the server had to be killed after going silent for a minute).
fn pipe_through_stdio(input: String) -> (Vec<String>, Option<i32>) {
    pipe_through_stdio_in(&crate::root(), &[], input)
}

/// `pipe_through_stdio` for `limina mcp --stdio ARGS` started in `dir`.
fn pipe_through_stdio_in(dir: &std::path::Path, args: &[&str], input: String) -> (Vec<String>, Option<i32>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_limina"))
        .args(["mcp", "--stdio"])
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // Written from a thread (and then closed) so a server that answers while it reads never
    // deadlocks against us on a full pipe.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
            // A client that reads a little slower than the server answers: the server's
            // answers queue up behind its stdout, which is where they were lost at end of
            // input. (It decides nothing: a server that keeps every answer passes at any pace.)
            std::thread::sleep(Duration::from_millis(3));
        }
    });
    let mut lines = Vec::new();
    loop {
        match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(line) => lines.push(line),
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let _ = child.kill();
                break;
            }
        }
    }
    writer.join().unwrap();
    (lines, child.wait().ok().and_then(|s| s.code()))
}

#[test]
fn every_piped_request_is_answered_before_exit() {
    // Calls that write, calls with large answers (the whole tool list, a growing entity list)
    // and cheap ones, so the last answers are still queued for the writer when stdin ends.
    let mut input =
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25"}}).to_string() + "\n";
    let requests = 500u64;
    for id in 1..requests {
        let (method, params) = match id % 4 {
            0 => ("ping", json!({})),
            1 => ("tools/call", json!({"name": "scene.createEntity", "arguments": {"shape": "box"}})),
            2 => ("tools/call", json!({"name": "scene.queryEntities", "arguments": {}})),
            _ => ("tools/list", json!({})),
        };
        input += &json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string();
        input.push('\n');
    }
    for run in 0..6 {
        let (lines, code) = pipe_through_stdio(input.clone());
        assert_eq!(code, Some(0), "run {run}: EOF ends the server cleanly");
        let mut answered = vec![0u32; requests as usize];
        for line in &lines {
            let reply: Value =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("run {run}: a truncated or non-JSON line ({e}): {line:.200}"));
            let Some(id) = reply["id"].as_u64() else { continue };
            assert!(reply.get("result").is_some() || reply.get("error").is_some(), "run {run}: {reply}");
            answered[id as usize] += 1;
        }
        let missing: Vec<usize> = (0..answered.len()).filter(|i| answered[*i] != 1).collect();
        assert!(
            missing.is_empty(),
            "run {run}: {} of {requests} ids not answered exactly once, first {:?}",
            missing.len(),
            &missing[..missing.len().min(10)]
        );
    }
}

#[test]
fn heavy_piped_calls_are_answered_in_order_and_a_logged_load_replays() {
    // Saves, playtests and loads run on the heavy-work thread over stdio too; end of input waits
    // for them, a client's calls after a load apply after it, and the load's changes are logged
    // as the calls that made them, at the tick they were made.
    let project = tempfile::tempdir().unwrap();
    std::fs::write(project.path().join("limina.toml"), "").unwrap();
    let request =
        |id: u64, method: &str, params: Value| json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string() + "\n";
    let tool = |id: u64, name: &str, arguments: Value| request(id, "tools/call", json!({"name": name, "arguments": arguments}));
    let mut input = request(0, "initialize", json!({"protocolVersion": "2025-11-25"}));
    for id in 1..=20 {
        input += &tool(id, "scene.createEntity", json!({"shape": "box", "position": [id as f64, 0.5, 0.0], "dynamic": id % 2 == 0}));
    }
    input += &tool(21, "scene.save", json!({"name": "twenty"}));
    input += &tool(
        22,
        "test.run",
        json!({"source": "it('sees twenty', function() expect(#limina.call('scene.queryEntities', {}).result.entities).toBe(20) end)"}),
    );
    input += &tool(23, "scene.createEntity", json!({"shape": "sphere"}));
    input += &tool(24, "scene.load", json!({"name": "twenty"}));
    input += &tool(25, "scene.createEntity", json!({"shape": "capsule"}));
    input += &tool(26, "scene.queryEntities", json!({}));
    let log = project.path().join("run.log");
    let (lines, code) = pipe_through_stdio_in(project.path(), &["--empty", "--log", log.to_str().unwrap()], input);
    assert_eq!(code, Some(0));
    let answers: std::collections::BTreeMap<u64, Value> =
        lines.iter().filter_map(|l| serde_json::from_str::<Value>(l).ok()).filter_map(|v| v["id"].as_u64().map(|id| (id, v))).collect();
    assert_eq!(answers.keys().copied().collect::<Vec<_>>(), (0..=26).collect::<Vec<_>>(), "every request answered once");
    let ok = |id: u64| {
        let result = &answers[&id]["result"];
        assert_eq!(result["isError"], json!(false), "{id}: {}", answers[&id]);
        result["structuredContent"].clone()
    };
    assert_eq!(ok(21)["entities"], json!(20));
    assert_eq!(ok(22)["passed"], json!(1), "the playtest ran on a copy of the world at its call");
    assert_eq!((ok(24)["entities"].clone(), ok(24)["destroyed"].clone()), (json!(20), json!(21)));
    assert_eq!(ok(26)["entities"].as_array().map(Vec::len), Some(21), "the capsule came after the load, as sent");
    let replay = Command::new(env!("CARGO_BIN_EXE_limina")).args(["replay", log.to_str().unwrap(), "--verify"]).output().unwrap();
    assert!(replay.status.success(), "{}{}", String::from_utf8_lossy(&replay.stdout), String::from_utf8_lossy(&replay.stderr));
}
