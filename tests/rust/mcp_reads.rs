//! State streams go through the same door as writes, over the real server: a revoked session
//! cannot open one (WebSocket or Streamable HTTP), the decision is in the trace, a stream whose
//! session is revoked later ends with the reason, a read-only token still subscribes, and an
//! opening counts against the session's quota.

use std::time::Duration;

use jsonrpsee::core::client::{ClientT, SubscriptionClientT};
use jsonrpsee::rpc_params;
use jsonrpsee_ws_client::WsClient;
use serde_json::{Map, Value, json};

use crate::mcp_ws::{WsServer, call, client, subscribe, wait_for};

/// The operator's script: revokes `ses_banned` and `ses_banned_http` and limits `ses_counted` to one stream at once,
/// and revokes `ses_victim` and `ses_victim_http` once the world holds an entity (so a test
/// decides when, by creating one).
const GOVERNOR: &str = r#"
assert(limina.call("policy.revoke", { sessionId = "ses_banned" }).success)
assert(limina.call("policy.revoke", { sessionId = "ses_banned_http" }).success)
assert(limina.call("policy.quota", { sessionId = "ses_counted", cap = "state.subscribe", limit = 1, windowTicks = 1000000 }).success)
local revoked = false
limina.on_step(function()
	if not revoked and #limina.call("scene.queryEntities", {}).result.entities > 0 then
		revoked = limina.call("policy.revoke", { sessionId = "ses_victim" }).success
			and limina.call("policy.revoke", { sessionId = "ses_victim_http" }).success
	end
end)
"#;

fn start(dir: &tempfile::TempDir, extra: &[&str]) -> WsServer {
    let scene = dir.path().join("governor.lua");
    std::fs::write(&scene, GOVERNOR).unwrap();
    let mut args = vec!["--scene", scene.to_str().unwrap()];
    args.extend_from_slice(extra);
    WsServer::start(&args)
}

fn obj(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap()
}

/// A native `initialize` under a chosen session id.
async fn init_as(c: &WsClient, session: &str) {
    let agent = session.replace("ses_", "agt_");
    let r: Value =
        c.request("initialize", obj(json!({"agentId": agent, "sessionId": session, "profile": "builder.readWrite"}))).await.unwrap();
    assert_eq!(r["session"]["sessionId"], session, "{r}");
}

/// A refused `state/subscribe`: its JSON-RPC error message.
async fn refused(c: &WsClient) -> String {
    match c.subscribe::<Value, _>("state/subscribe", rpc_params![], "state/unsubscribe").await {
        Ok(_) => panic!("the subscription was accepted"),
        Err(jsonrpsee::core::ClientError::Call(e)) => {
            assert_eq!(e.code(), -32001, "forbidden: {e:?}");
            e.message().to_string()
        }
        Err(other) => panic!("not a JSON-RPC error: {other}"),
    }
}

struct Http {
    url: String,
    http: reqwest::Client,
    token: Option<&'static str>,
}

impl Http {
    fn new(server: &WsServer, token: Option<&'static str>) -> Self {
        // reqwest is built with rustls and no default crypto provider (see the `tls` feature).
        #[cfg(feature = "tls")]
        let _ = rustls::crypto::ring::default_provider().install_default();
        let url = format!("{}/mcp", server.url.replace("ws://", "http://"));
        Self { url, http: reqwest::Client::builder().no_proxy().build().unwrap(), token }
    }

    async fn post(&self, session: Option<&str>, body: Value) -> reqwest::Response {
        let mut req = self
            .http
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(body.to_string());
        if let Some(s) = session {
            req = req.header("mcp-session-id", s);
        }
        if let Some(t) = self.token {
            req = req.header("authorization", format!("Bearer {t}"));
        }
        req.send().await.unwrap()
    }

    /// A handshake session under a chosen session id (native `initialize`); its id.
    async fn session_as(&self, session: &str) -> String {
        let agent = session.replace("ses_", "agt_");
        let params = json!({"agentId": agent, "sessionId": session, "profile": "builder.readWrite"});
        let r = self.post(None, json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params})).await;
        assert_eq!(r.status(), reqwest::StatusCode::OK);
        match r.headers().get("mcp-session-id") {
            Some(id) => id.to_str().unwrap().to_string(),
            None => panic!("no session id: {}", r.text().await.unwrap()),
        }
    }

    async fn subscribe(&self, session: &str) -> reqwest::Response {
        self.post(Some(session), json!({"jsonrpc": "2.0", "id": 7, "method": "state/subscribe", "params": {}})).await
    }
}

/// Reads an event stream until `pred` holds for an event (returned), the stream ends, or `wait`
/// passes (None for both).
async fn next_event(r: &mut reqwest::Response, text: &mut String, wait: Duration, pred: impl Fn(&Value) -> bool) -> Option<Value> {
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        while let Some(end) = text.find("\n\n") {
            let frame: String = text.drain(..end + 2).collect();
            if let Some(data) = frame.lines().find_map(|l| l.strip_prefix("data: ")) {
                let event: Value = serde_json::from_str(data).unwrap();
                if pred(&event) {
                    return Some(event);
                }
            }
        }
        let Ok(Ok(Some(chunk))) = tokio::time::timeout_at(deadline, r.chunk()).await else { return None };
        text.push_str(&String::from_utf8_lossy(&chunk));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_revoked_session_cannot_subscribe_over_either_transport_and_the_refusal_is_traced() {
    let dir = tempfile::tempdir().unwrap();
    let tokens = dir.path().join("tokens");
    std::fs::write(&tokens, "builder-secret builder.readWrite\nviewer-secret system.readonly\n").unwrap();
    let server = start(&dir, &["--tokens", tokens.to_str().unwrap()]);

    let banned = client(&server.url, Some("builder-secret")).await.unwrap();
    init_as(&banned, "ses_banned").await;
    assert_eq!(refused(&banned).await, "state/subscribe refused: session ses_banned was revoked");

    let http = Http::new(&server, Some("builder-secret"));
    let sid = http.session_as("ses_banned_http").await;
    let r = http.subscribe(&sid).await;
    assert_eq!(r.status(), reqwest::StatusCode::OK);
    let answer: Value = serde_json::from_str(&r.text().await.unwrap()).unwrap();
    assert_eq!(answer["id"], 7, "{answer}");
    assert_eq!(answer["error"]["code"], -32001, "{answer}");
    assert_eq!(answer["error"]["message"], "state/subscribe refused: session ses_banned_http was revoked");

    // A read-only token still subscribes; it may read the trace, where both refusals are.
    let viewer = client(&server.url, Some("viewer-secret")).await.unwrap();
    let r: Value = viewer
        .request(
            "initialize",
            obj(json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}})),
        )
        .await
        .unwrap();
    assert_eq!(r["protocolVersion"], "2025-11-25");
    let _stream = subscribe(&viewer).await;
    for session in ["ses_banned", "ses_banned_http"] {
        let audit = call(&viewer, "audit.query", json!({"sessionId": session, "decision": "deny"})).await;
        let audit = &audit["structuredContent"];
        assert_eq!(audit["summary"]["byRule"], json!({"session.revoked": 1}), "{audit}");
        assert_eq!(audit["decisions"][0]["skill"], "state.subscribe", "{audit}");
    }
    let allowed = call(&viewer, "audit.query", json!({"decision": "allow", "cap": "scene.read"})).await;
    let viewers: Vec<&Value> = allowed["structuredContent"]["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["skill"] == "state.subscribe" && d["profile"] == "system.readonly")
        .collect();
    assert_eq!(viewers.len(), 1, "the viewer's stream was decided too: {allowed}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn opening_a_stream_counts_against_the_sessions_quota() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&dir, &[]);
    let counted = client(&server.url, None).await.unwrap();
    init_as(&counted, "ses_counted").await;
    let _first = subscribe(&counted).await;
    let message = refused(&counted).await;
    assert!(message.starts_with("state/subscribe refused: quota of 1 calls per 1000000 ticks for state.subscribe is used up"), "{message}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_whose_session_is_revoked_later_ends_with_the_reason_and_the_others_carry_on() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&dir, &[]);
    let victim = client(&server.url, None).await.unwrap();
    init_as(&victim, "ses_victim").await;
    let mut victim_stream = subscribe(&victim).await;
    let http = Http::new(&server, None);
    let sid = http.session_as("ses_victim_http").await;
    let mut http_stream = http.subscribe(&sid).await;
    let mut text = String::new();
    let first = next_event(&mut http_stream, &mut text, Duration::from_secs(30), |_| true).await.expect("a snapshot");
    assert_eq!(first["method"], "state/snapshot", "{first}");
    let bystander = client(&server.url, None).await.unwrap();
    init_as(&bystander, "ses_bystander").await;
    let mut bystander_stream = subscribe(&bystander).await;

    // An entity: the operator's script revokes both victims at the next step.
    call(&bystander, "scene.createEntity", json!({"static": true})).await;

    // The WebSocket stream closes (jsonrpsee ends the subscription on its error notification).
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        match tokio::time::timeout_at(deadline, victim_stream.next()).await {
            Ok(None) => break,
            Ok(Some(delta)) => assert!(delta.is_ok(), "{delta:?}"),
            Err(_) => panic!("the revoked session's WebSocket stream is still open"),
        }
    }
    // The HTTP stream answers its request with the reason, then ends.
    let last = next_event(&mut http_stream, &mut text, Duration::from_secs(30), |e| e.get("error").is_some())
        .await
        .expect("the revoked session's event stream ends with an error");
    assert_eq!(last["id"], 7);
    assert_eq!(last["error"]["message"], "state stream ended: session ses_victim_http was revoked");
    assert!(next_event(&mut http_stream, &mut text, Duration::from_secs(30), |_| true).await.is_none(), "nothing after it");

    // The bystander's stream carries on.
    let made = call(&bystander, "scene.createEntity", json!({"static": true, "position": [3, 0, 0]})).await;
    // A native client's call answers with the skill response itself.
    let id = made["result"]["entity"].as_str().unwrap_or_else(|| panic!("{made}")).to_string();
    let seen = wait_for(&mut bystander_stream, Duration::from_secs(30), |d| {
        d["created"].as_array().is_some_and(|c| c.iter().any(|e| e["entity"] == id.as_str()))
    })
    .await;
    assert!(seen.is_some(), "the bystander still gets deltas");
}
