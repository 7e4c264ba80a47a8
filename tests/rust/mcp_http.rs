//! MCP Streamable HTTP against the real server: handshake sessions, the stateless revision's
//! routing headers and listen streams, origin and token checks, body limits, and one world
//! shared with WebSocket clients.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::mcp_ws::{WsServer, client, subscribe, wait_for};

const INIT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
const V: &str = "2026-07-28";

struct Http {
    server: WsServer,
    http: reqwest::Client,
}

impl Http {
    fn start(extra: &[&str]) -> Self {
        // reqwest is built with rustls and no default crypto provider (see the `tls` feature).
        #[cfg(feature = "tls")]
        let _ = rustls::crypto::ring::default_provider().install_default();
        Self { server: WsServer::start(extra), http: reqwest::Client::builder().no_proxy().build().unwrap() }
    }

    fn url(&self) -> String {
        format!("{}/mcp", self.server.url.replace("ws://", "http://"))
    }

    fn post(&self, body: impl Into<reqwest::Body>) -> reqwest::RequestBuilder {
        self.http
            .post(self.url())
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(body)
    }

    /// Opens a handshake session; returns its id.
    async fn initialize(&self) -> String {
        let r = self.post(INIT).send().await.unwrap();
        assert_eq!(r.status(), StatusCode::OK);
        r.headers().get("mcp-session-id").expect("initialize answers with a session id").to_str().unwrap().to_string()
    }

    /// A stateless (2026-07-28) request with its routing headers.
    fn stateless(&self, id: u64, method: &str, params: Value) -> reqwest::RequestBuilder {
        self.stateless_as(None, id, method, params)
    }

    /// `stateless`, from the client named `client` in its `_meta.clientInfo`.
    fn stateless_as(&self, client: Option<&str>, id: u64, method: &str, mut params: Value) -> reqwest::RequestBuilder {
        params["_meta"] = json!({"io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {}});
        if let Some(name) = client {
            params["_meta"]["io.modelcontextprotocol/clientInfo"] = json!({"name": name, "version": "1.0"});
        }
        let mut req = self
            .post(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string())
            .header("mcp-protocol-version", V)
            .header("mcp-method", method);
        if let Some(name) = params.get("name").and_then(Value::as_str) {
            req = req.header("mcp-name", name);
        }
        req
    }
}

async fn body(r: reqwest::Response) -> (StatusCode, Value) {
    let status = r.status();
    let text = r.text().await.unwrap();
    let parsed = serde_json::from_str(&text).ok();
    (status, parsed.unwrap_or(Value::String(text)))
}

fn call(id: u64, tool: &str, arguments: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": tool, "arguments": arguments}}).to_string()
}

/// Reads an event stream until `events` `data:` lines have arrived (or `wait` passes).
async fn events(r: &mut reqwest::Response, events: usize, wait: Duration) -> Vec<Value> {
    let mut text = String::new();
    let mut out = Vec::new();
    let deadline = tokio::time::Instant::now() + wait;
    while out.len() < events {
        let Ok(Ok(Some(chunk))) = tokio::time::timeout_at(deadline, r.chunk()).await else { break };
        text.push_str(&String::from_utf8_lossy(&chunk));
        while let Some(end) = text.find("\n\n") {
            let frame: String = text.drain(..end + 2).collect();
            if let Some(data) = frame.lines().find_map(|l| l.strip_prefix("data: ")) {
                out.push(serde_json::from_str(data).unwrap());
            }
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_handshake_session_is_opened_used_and_ended() {
    let s = Http::start(&["--http"]);
    let sid = s.initialize().await;
    let (status, made) = body(s.post(call(2, "scene.createEntity", json!({}))).header("mcp-session-id", &sid).send().await.unwrap()).await;
    assert_eq!(status, StatusCode::OK);
    // The default world's ground is ent_0001: the client's first entity comes after it.
    assert_eq!(made["result"]["structuredContent"]["entity"], "ent_0002", "{made}");

    let (status, refused) = body(s.post(call(3, "scene.createEntity", json!({}))).send().await.unwrap()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(refused["error"]["message"].as_str().unwrap().starts_with("no Mcp-Session-Id header"), "{refused}");
    let (status, _) = body(s.post(call(4, "ping", json!({}))).header("mcp-session-id", "0123").send().await.unwrap()).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "an unknown session");

    let ended = s.http.delete(s.url()).header("mcp-session-id", &sid).send().await.unwrap();
    assert_eq!(ended.status(), StatusCode::OK);
    let (status, gone) = body(s.post(call(5, "scene.createEntity", json!({}))).header("mcp-session-id", &sid).send().await.unwrap()).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{gone}");
    // Notifications and responses are acknowledged, not answered.
    let note = s.post(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).send().await.unwrap();
    assert_eq!(note.status(), StatusCode::ACCEPTED);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn foreign_origins_and_rebound_host_names_are_refused_for_http_and_websocket() {
    let s = Http::start(&["--http"]);
    let r = s.post(INIT).header("origin", "http://evil.example").send().await.unwrap();
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    assert!(r.text().await.unwrap().contains("origin 'http://evil.example'"));
    // A DNS-rebinding page reaches 127.0.0.1 under its own name: the Host header gives it away.
    let r = s.post(INIT).header("host", "evil.example:7777").send().await.unwrap();
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    // The same check guards the WebSocket upgrade.
    let upgrade = s
        .http
        .get(s.server.url.replace("ws://", "http://"))
        .header("connection", "Upgrade")
        .header("upgrade", "websocket")
        .header("sec-websocket-version", "13")
        .header("sec-websocket-key", "dGhlIHNhbXBsZSBub25jZQ==")
        .header("origin", "https://evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(upgrade.status(), StatusCode::FORBIDDEN);
    // Loopback origins (a local inspector, say) pass.
    let r = s.post(INIT).header("origin", "http://localhost:6274").send().await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ten_megabyte_body_is_refused_and_the_server_keeps_serving() {
    let s = Http::start(&["--http"]);
    let sid = s.initialize().await;
    let huge = format!(
        r#"{{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{{"name":"ui.label","arguments":{{"text":"{}"}}}}}}"#,
        "x".repeat(10 << 20)
    );
    // The server answers 413 from the Content-Length alone, without reading the body; a client
    // still sending may see the connection close before it reads that answer. Either is a refusal.
    match s.post(huge).header("mcp-session-id", &sid).send().await {
        Ok(r) => {
            let (status, refused) = body(r).await;
            assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
            assert!(refused["error"]["message"].as_str().unwrap().contains("4194304-byte limit"), "{refused}");
        }
        Err(e) => assert!(e.is_request() || e.is_body() || e.is_connect(), "the body was refused by closing: {e}"),
    }
    let (status, pong) =
        body(s.post(r#"{"jsonrpc":"2.0","id":10,"method":"ping"}"#).header("mcp-session-id", &sid).send().await.unwrap()).await;
    assert_eq!((status, &pong["result"]), (StatusCode::OK, &json!({})));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokens_are_required_and_a_session_belongs_to_its_token() {
    let dir = tempfile::tempdir().unwrap();
    let tokens = dir.path().join("tokens");
    std::fs::write(&tokens, "builder-token builder.readWrite\nreader-token system.readonly\n").unwrap();
    let s = Http::start(&["--http", "--tokens", tokens.to_str().unwrap()]);
    let r = s.post(INIT).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(r.headers().get("www-authenticate").unwrap(), "Bearer");
    // A connection without a token is closed after its refusal: it cannot keep its slot by
    // asking again (the next request on it is never read).
    let addr = s.server.url.trim_start_matches("ws://").to_string();
    let camped = tokio::task::spawn_blocking(move || {
        use std::io::{Read, Write};
        let mut c = std::net::TcpStream::connect(&addr).unwrap();
        let ask = "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n";
        c.write_all(format!("{ask}{ask}").as_bytes()).unwrap();
        c.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let mut answered = Vec::new();
        let _ = c.read_to_end(&mut answered);
        String::from_utf8_lossy(&answered).matches("HTTP/1.1 401").count()
    });
    assert_eq!(camped.await.unwrap(), 1, "one refusal, then the connection ends");
    let r = s.post(INIT).header("authorization", "Bearer builder-token").send().await.unwrap();
    let sid = r.headers().get("mcp-session-id").unwrap().to_str().unwrap().to_string();
    // Another token cannot ride the builder's session: it is unknown to them.
    let stolen =
        s.post(call(2, "scene.createEntity", json!({}))).header("mcp-session-id", &sid).header("authorization", "Bearer reader-token");
    assert_eq!(stolen.send().await.unwrap().status(), StatusCode::NOT_FOUND);
    let own =
        s.post(call(3, "scene.createEntity", json!({}))).header("mcp-session-id", &sid).header("authorization", "Bearer builder-token");
    let (_, made) = body(own.send().await.unwrap()).await;
    assert_eq!(made["result"]["isError"], false, "{made}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stateless_requests_need_agreeing_routing_headers() {
    let s = Http::start(&["--http"]);
    let (status, discovered) = body(s.stateless(1, "server/discover", json!({})).send().await.unwrap()).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(discovered["result"]["supportedVersions"][0], V);
    assert_eq!(discovered["result"]["resultType"], "complete");

    let (status, made) =
        body(s.stateless(2, "tools/call", json!({"name": "scene.createEntity", "arguments": {}})).send().await.unwrap()).await;
    assert_eq!((status, &made["result"]["isError"]), (StatusCode::OK, &json!(false)), "{made}");

    let lying = s.stateless(3, "tools/call", json!({"name": "scene.createEntity", "arguments": {}})).header("mcp-name", "render.capture");
    let (status, refused) = body(lying.send().await.unwrap()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(refused["error"]["code"], -32020, "{refused}");
    let (status, refused) = body(s.stateless(4, "tools/list", json!({})).header("mcp-method", "tools/call").send().await.unwrap()).await;
    assert_eq!((status, &refused["error"]["code"]), (StatusCode::BAD_REQUEST, &json!(-32020)), "a second Mcp-Method header");

    let mut future = s.stateless(5, "tools/list", json!({}));
    future = future.header("mcp-protocol-version", "2099-01-01");
    let (status, refused) = body(future.send().await.unwrap()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_listen_stream_is_acknowledged_first_and_the_get_stream_needs_a_session() {
    let s = Http::start(&["--http"]);
    let mut listen = s
        .stateless(
            1,
            "subscriptions/listen",
            json!({"notifications": {"toolsListChanged": true, "promptsListChanged": true, "elicitationsPending": true}}),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(listen.status(), StatusCode::OK);
    assert_eq!(listen.headers().get("content-type").unwrap(), "text/event-stream");
    let first = events(&mut listen, 1, Duration::from_secs(10)).await;
    assert_eq!(first[0]["method"], "notifications/subscriptions/acknowledged");
    assert_eq!(first[0]["params"]["notifications"], json!({"toolsListChanged": true, "promptsListChanged": true}));
    assert_eq!(first[0]["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], 1);

    // A handshake session has no listen, but a GET stream.
    let sid = s.initialize().await;
    let (_, refused) = body(
        s.post(json!({"jsonrpc": "2.0", "id": 2, "method": "subscriptions/listen", "params": {"notifications": {}}}).to_string())
            .header("mcp-session-id", &sid)
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(refused["error"]["code"], -32601, "{refused}");
    let get = s.http.get(s.url()).header("accept", "text/event-stream").header("mcp-session-id", &sid).send().await.unwrap();
    assert_eq!(get.status(), StatusCode::OK);
    assert_eq!(get.headers().get("content-type").unwrap(), "text/event-stream");
    let get = s.http.get(s.url()).header("accept", "text/event-stream").send().await.unwrap();
    assert_eq!(get.status(), StatusCode::METHOD_NOT_ALLOWED, "no session, no GET stream");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_http_clients_change_reaches_a_websocket_subscriber() {
    let s = Http::start(&["--http"]);
    let ws = client(&s.server.url, None).await.unwrap();
    let mut sub = subscribe(&ws).await;
    let sid = s.initialize().await;
    let (_, made) = body(
        s.post(call(2, "scene.createEntity", json!({"shape": "sphere", "static": true})))
            .header("mcp-session-id", &sid)
            .send()
            .await
            .unwrap(),
    )
    .await;
    let entity = made["result"]["structuredContent"]["entity"].as_str().unwrap().to_string();
    let seen = wait_for(&mut sub, Duration::from_secs(10), |d| {
        d["created"].as_array().is_some_and(|c| c.iter().any(|e| e["entity"] == entity.as_str()))
    })
    .await;
    assert!(seen.is_some(), "the WebSocket client sees {entity}, made over HTTP");
}

/// A full session table makes room only from the asking credential's own idle sessions: no
/// token can log another out (one opening its 64 closed 65 others'), and a refused initialize
/// closes nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_session_table_never_closes_another_credentials_session() {
    let dir = tempfile::tempdir().unwrap();
    let tokens = dir.path().join("tokens");
    let names: Vec<String> = (0..17).map(|i| format!("token{i}")).collect();
    std::fs::write(&tokens, names.iter().map(|t| format!("{t} system.readonly\n")).collect::<String>()).unwrap();
    let s = Http::start(&["--http", "--tokens", tokens.to_str().unwrap()]);
    let open = |token: String| {
        let request = s.post(INIT).header("authorization", format!("Bearer {token}"));
        async move {
            let r = request.send().await.unwrap();
            let sid = r.headers().get("mcp-session-id").map(|v| v.to_str().unwrap().to_string());
            let (_, answer) = body(r).await;
            (sid, answer)
        }
    };
    let mut first = None;
    for token in &names[..16] {
        for _ in 0..64 {
            let (sid, answer) = open(token.clone()).await;
            let sid = sid.unwrap_or_else(|| panic!("{answer}"));
            first.get_or_insert(sid);
        }
    }
    // Full (16 × 64): a newcomer is refused, closing nothing; a credential at its own limit
    // makes room from its own idle sessions only.
    let (sid, answer) = open(names[16].clone()).await;
    assert!(sid.is_none() && answer["error"]["message"].as_str().unwrap().contains("1024 sessions, its limit"), "{answer}");
    let (sid, answer) = open(names[3].clone()).await;
    assert!(sid.is_some(), "token3 replaces its own oldest idle session: {answer}");
    // The oldest session of all, token0's, is still open.
    let ping = s
        .post(r#"{"jsonrpc":"2.0","id":9,"method":"ping"}"#)
        .header("mcp-session-id", first.unwrap())
        .header("authorization", "Bearer token0");
    let (status, pong) = body(ping.send().await.unwrap()).await;
    assert_eq!((status, &pong["result"]), (StatusCode::OK, &json!({})));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_credential_cannot_take_every_session() {
    let dir = tempfile::tempdir().unwrap();
    let tokens = dir.path().join("tokens");
    std::fs::write(&tokens, "greedy system.readonly\nbuilder builder.readWrite\n").unwrap();
    let s = Http::start(&["--http", "--tokens", tokens.to_str().unwrap()]);
    let init = || s.post(INIT).header("authorization", "Bearer greedy").send();
    let mut sids = Vec::new();
    for _ in 0..64 {
        let r = init().await.unwrap();
        assert_eq!(r.status(), StatusCode::OK);
        sids.push(r.headers()["mcp-session-id"].to_str().unwrap().to_string());
    }
    // At its limit the token's own longest-idle session without a stream makes room: a client
    // that opens sessions in a loop (or viewers closing tabs) does not lock the token out.
    let r = init().await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    sids.push(r.headers()["mcp-session-id"].to_str().unwrap().to_string());
    let ping = |sid: &str| {
        s.post(r#"{"jsonrpc":"2.0","id":9,"method":"ping"}"#).header("authorization", "Bearer greedy").header("mcp-session-id", sid).send()
    };
    assert_eq!(ping(&sids[0]).await.unwrap().status(), StatusCode::NOT_FOUND, "the oldest idle session made room");
    assert_eq!(ping(&sids[1]).await.unwrap().status(), StatusCode::OK);
    // With every session holding an open stream, nothing makes room: the 65th is refused.
    let mut streams = Vec::new();
    for sid in &sids[1..] {
        let get = s
            .http
            .get(s.url())
            .header("accept", "text/event-stream")
            .header("authorization", "Bearer greedy")
            .header("mcp-session-id", sid);
        let get = get.send().await.unwrap();
        assert_eq!(get.status(), StatusCode::OK);
        streams.push(get);
    }
    let (status, refused) = body(init().await.unwrap()).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(refused["error"]["message"].as_str().unwrap().contains("limit of 64"), "{refused}");
    assert_eq!(ping(&sids[1]).await.unwrap().status(), StatusCode::OK, "a refused initialize closed nothing");
    // Another credential is unaffected, and the scheme's case does not matter.
    let r = s.post(INIT).header("authorization", "bearer builder").send().await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    drop(streams);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stateless_requests_cannot_reidentify_the_shared_state_and_browsers_get_cors() {
    let s = Http::start(&["--http", "--allow-origin", "https://inspector.example"]);
    for method in ["initialize", "shutdown", "callTool", "listTools"] {
        let (status, refused) = body(s.stateless(1, method, json!({"agentId": "agt_x"})).send().await.unwrap()).await;
        assert_eq!((status, &refused["error"]["code"]), (StatusCode::NOT_FOUND, &json!(-32601)), "{method}: {refused}");
    }
    let preflight = s.http.request(reqwest::Method::OPTIONS, s.url()).header("origin", "https://inspector.example").send().await.unwrap();
    assert_eq!(preflight.status(), StatusCode::NO_CONTENT);
    assert_eq!(preflight.headers()["access-control-allow-origin"], "https://inspector.example");
    assert!(preflight.headers()["access-control-allow-headers"].to_str().unwrap().contains("mcp-session-id"));
    let r = s.post(INIT).header("origin", "https://inspector.example").send().await.unwrap();
    assert_eq!(r.headers()["access-control-expose-headers"], "mcp-session-id");
    let r = s.post(INIT).header("origin", "https://other.example").send().await.unwrap();
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_that_sends_nothing_is_let_go_and_tokenless_servers_cap_only_the_total() {
    let s = Http::start(&["--http"]);
    let addr = s.server.url.trim_start_matches("ws://").to_string();
    // Idle and half-sent headers hold a connection slot only for the header timeout.
    let idle = tokio::task::spawn_blocking(move || {
        use std::io::{Read, Write};
        let mut idle = std::net::TcpStream::connect(&addr).unwrap();
        let mut half = std::net::TcpStream::connect(&addr).unwrap();
        half.write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n").unwrap();
        let closed = |s: &mut std::net::TcpStream| {
            s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
            let mut buf = [0u8; 256];
            // EOF, a reset, or a 408 followed by EOF: the server let go, well before 30 s.
            loop {
                match s.read(&mut buf) {
                    Ok(0) => return true,
                    Err(e) => return !matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut),
                    Ok(_) => {}
                }
            }
        };
        (closed(&mut idle), closed(&mut half))
    });
    assert_eq!(idle.await.unwrap(), (true, true));
    // Without tokens every client is the same credential: only the server-wide cap applies.
    for _ in 0..70 {
        assert_eq!(s.post(INIT).send().await.unwrap().status(), StatusCode::OK);
    }
}

/// Stateless clients of one credential share its state; their listen streams may carry the
/// same request id, and each hears the change. A full session table makes room from the idle.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stateless_clients_sharing_a_credential_each_hear_on_their_own_stream() {
    let s = Http::start(&["--http"]);
    let listen = || s.stateless(1, "subscriptions/listen", json!({"notifications": {"toolsListChanged": true}})).send();
    let (mut a, mut b) = (listen().await.unwrap(), listen().await.unwrap());
    assert_eq!(events(&mut a, 1, Duration::from_secs(10)).await[0]["method"], "notifications/subscriptions/acknowledged");
    assert_eq!(events(&mut b, 1, Duration::from_secs(10)).await[0]["method"], "notifications/subscriptions/acknowledged");
    let (_, enabled) =
        body(s.stateless(2, "tools/call", json!({"name": "skills.enable", "arguments": {"categories": ["audio"]}})).send().await.unwrap())
            .await;
    assert_eq!(enabled["result"]["isError"], false, "{enabled}");
    for stream in [&mut a, &mut b] {
        let heard = events(stream, 1, Duration::from_secs(10)).await;
        assert_eq!(heard.first().map(|m| m["method"].clone()), Some(json!("notifications/tools/list_changed")), "{heard:?}");
    }
    // 1024 handshake sessions, then more: the longest idle ones make room.
    for _ in 0..1030 {
        assert_eq!(s.post(INIT).send().await.unwrap().status(), StatusCode::OK);
    }
}

/// HTTP/1.1 only: an HTTP/2 connection preface gets no HTTP/2 session (the limits here assume
/// one request at a time per connection).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http2_is_not_spoken() {
    let s = Http::start(&["--http"]);
    let addr = s.server.url.trim_start_matches("ws://").to_string();
    let answer = tokio::task::spawn_blocking(move || {
        use std::io::{Read, Write};
        let mut c = std::net::TcpStream::connect(&addr).unwrap();
        c.write_all(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x00\x04\x00\x00\x00\x00\x00").unwrap();
        c.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let mut got = Vec::new();
        let _ = c.read_to_end(&mut got);
        got
    })
    .await
    .unwrap();
    // An HTTP/2 server would answer with a SETTINGS frame (type 4) first; HTTP/1 refuses or closes.
    assert!(answer.is_empty() || answer.starts_with(b"HTTP/1.1 4"), "{:?}", String::from_utf8_lossy(&answer[..answer.len().min(80)]));
}

/// A stream holds its credential's admission permit for as long as it is open (it was given
/// back once the stream was set up: one credential held 90 stateless state streams). Past the
/// limit a new stream is refused as busy, naming it; another credential is not affected; a
/// stream that closes gives its place back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_credentials_streams_count_against_its_limit_for_as_long_as_they_are_open() {
    const LIMIT: usize = limina::mcp::server::MAX_CALLS_PER_CONNECTION;
    let dir = tempfile::tempdir().unwrap();
    let tokens = dir.path().join("tokens");
    std::fs::write(&tokens, "greedy system.readonly\nother system.readonly\n").unwrap();
    let s = Http::start(&["--http", "--tokens", tokens.to_str().unwrap()]);
    let open = |id: u64, token: &str, method: &str| {
        let params = if method == "subscriptions/listen" { json!({"notifications": {"toolsListChanged": true}}) } else { json!({}) };
        s.stateless(id, method, params).header("authorization", format!("Bearer {token}")).send()
    };
    let mut streams = Vec::new();
    for i in 0..LIMIT {
        // State streams and listen streams alike.
        let method = if i % 2 == 0 { "state/subscribe" } else { "subscriptions/listen" };
        let mut r = open(i as u64, "greedy", method).await.unwrap();
        assert_eq!(r.status(), StatusCode::OK, "stream {i}");
        // Its first event means the engine has set it up (and, before, given its permit back).
        assert_eq!(events(&mut r, 1, Duration::from_secs(30)).await.len(), 1, "stream {i} is open");
        streams.push(r);
    }
    for method in ["state/subscribe", "subscriptions/listen"] {
        let (status, refused) = body(open(100, "greedy", method).await.unwrap()).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{method}: {refused}");
        let message = refused["error"]["message"].as_str().unwrap();
        assert!(message.starts_with("busy:") && message.contains(&format!("limit is {LIMIT}")), "{message}");
    }
    let mut other = open(101, "other", "state/subscribe").await.unwrap();
    assert_eq!(other.status(), StatusCode::OK, "another credential is not affected");
    assert_eq!(events(&mut other, 1, Duration::from_secs(30)).await[0]["method"], "state/snapshot");
    // A stream that ends gives its place back (the engine notices at its next publish).
    drop(streams.swap_remove(0));
    let mut reopened = None;
    for attempt in 0..200 {
        let r = open(200 + attempt, "greedy", "state/subscribe").await.unwrap();
        if r.status() == StatusCode::OK {
            reopened = Some(r);
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mut reopened = reopened.expect("a closed stream's place is given back");
    assert_eq!(events(&mut reopened, 1, Duration::from_secs(30)).await[0]["method"], "state/snapshot");
}

/// Stateless clients of one credential that name themselves (`_meta.clientInfo`) each have their
/// own tool view and listen streams, so a tool list's `cacheScope: "private"` is true; the
/// discover result, the same for everyone, is `public`. A client name is bounded.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stateless_clients_that_name_themselves_each_have_their_own_tool_view() {
    let s = Http::start(&["--http"]);
    let names = |list: &Value| -> Vec<String> {
        list["result"]["tools"]
            .as_array()
            .unwrap_or_else(|| panic!("{list}"))
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_string())
            .collect()
    };
    let (_, discovered) = body(s.stateless_as(Some("a"), 1, "server/discover", json!({})).send().await.unwrap()).await;
    assert_eq!(discovered["result"]["cacheScope"], "public", "{discovered}");
    let mut a_listen =
        s.stateless_as(Some("a"), 2, "subscriptions/listen", json!({"notifications": {"toolsListChanged": true}})).send().await.unwrap();
    assert_eq!(events(&mut a_listen, 1, Duration::from_secs(10)).await[0]["method"], "notifications/subscriptions/acknowledged");
    let (_, enabled) = body(
        s.stateless_as(Some("a"), 3, "tools/call", json!({"name": "skills.enable", "arguments": {"categories": ["audio"]}}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(enabled["result"]["isError"], false, "{enabled}");
    let heard = events(&mut a_listen, 1, Duration::from_secs(10)).await;
    assert_eq!(heard.first().map(|m| m["method"].clone()), Some(json!("notifications/tools/list_changed")), "{heard:?}");

    let (_, a_list) = body(s.stateless_as(Some("a"), 4, "tools/list", json!({})).send().await.unwrap()).await;
    let (_, b_list) = body(s.stateless_as(Some("b"), 5, "tools/list", json!({})).send().await.unwrap()).await;
    let (_, anonymous) = body(s.stateless(6, "tools/list", json!({})).send().await.unwrap()).await;
    assert!(names(&a_list).iter().any(|n| n == "audio.play"), "a enabled audio: {:?}", names(&a_list));
    assert!(!names(&b_list).iter().any(|n| n.starts_with("audio.")), "b's list is its own: {:?}", names(&b_list));
    assert!(!names(&anonymous).iter().any(|n| n.starts_with("audio.")), "so is an unnamed client's");
    assert_eq!(b_list["result"]["cacheScope"], "private");

    let long = "x".repeat(300);
    let (status, refused) = body(s.stateless_as(Some(&long), 7, "tools/list", json!({})).send().await.unwrap()).await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert!(refused["error"]["message"].as_str().unwrap().contains("over the limit of 256"), "{refused}");
    assert_ne!(status, StatusCode::OK);
    // More names than a credential keeps: the longest idle make room, and every request is served.
    for i in 0..40 {
        let (_, list) = body(s.stateless_as(Some(&format!("c{i}")), 100 + i, "tools/list", json!({})).send().await.unwrap()).await;
        assert!(!names(&list).is_empty());
    }
}
