//! The web viewer's routes on the real server (`limina mcp --http`): the page and its embedded
//! scripts need no token; models at `/assets/<id>` need one and resolve only inside the project's
//! `assets/` (no `..`, no symlink out, model files only, a size cap); foreign origins are refused
//! on every route, and the server's own page is same-origin with the Host it was reached by.
//! Requests are written by hand on a socket so that `..` reaches the server as sent (URL libraries
//! normalise it away).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};

struct Server {
    child: Child,
    port: u16,
    _project: tempfile::TempDir,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A project with one model, a file outside `assets/`, a link out of it, a file of another kind
/// and one over the size cap; served with `extra` arguments.
fn start(extra: &[&str]) -> Server {
    let project = tempfile::tempdir().unwrap();
    let p = project.path();
    std::fs::create_dir_all(p.join("assets/models")).unwrap();
    std::fs::copy(crate::root().join("assets/models/crate.glb"), p.join("assets/models/crate.glb")).unwrap();
    std::fs::write(p.join("tokens"), "watch-token system.readonly\nother-token system.readonly\n").unwrap();
    std::fs::write(p.join("secret.glb"), "not for the viewer").unwrap();
    std::os::unix::fs::symlink(p.join("secret.glb"), p.join("assets/models/link.glb")).unwrap();
    std::fs::write(p.join("assets/notes.txt"), "text").unwrap();
    // Sparse: 65 MiB on paper, nothing on disk.
    std::fs::File::create(p.join("assets/models/huge.glb")).unwrap().set_len(65 << 20).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_limina"))
        .args(["mcp", "--http", "--port", "0", "--empty"])
        .args(extra)
        .current_dir(p)
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stderr.take().unwrap()).read_line(&mut line).unwrap();
    let port = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("ws://"))
        .and_then(|a| a.rsplit(':').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no port in {line:?}"));
    Server { child, port, _project: project }
}

struct Reply {
    status: u16,
    headers: String,
    body: Vec<u8>,
}

impl Reply {
    fn header(&self, name: &str) -> Option<String> {
        self.headers.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case(name).then(|| v.trim().to_string())
        })
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// One request, exactly as written (`extra` header lines end in `\r\n`).
fn request(port: u16, method: &str, target: &str, extra: &str) -> Reply {
    request_as(port, method, target, &format!("Host: 127.0.0.1:{port}\r\n{extra}"))
}

fn request_as(port: u16, method: &str, target: &str, headers: &str) -> Reply {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(s, "{method} {target} HTTP/1.1\r\n{headers}Connection: close\r\n\r\n").unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").expect("a header block");
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap();
    let mut body = raw[split + 4..].to_vec();
    if head.to_ascii_lowercase().contains("transfer-encoding: chunked") {
        body = unchunk(&body);
    }
    Reply { status, headers: head, body }
}

fn unchunk(mut raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let line_end = raw.windows(2).position(|w| w == b"\r\n").unwrap();
        let size = usize::from_str_radix(std::str::from_utf8(&raw[..line_end]).unwrap().trim(), 16).unwrap();
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&raw[line_end + 2..line_end + 2 + size]);
        raw = &raw[line_end + 2 + size + 2..];
    }
}

const TOKEN: &str = "Authorization: Bearer watch-token\r\n";

#[test]
fn the_page_and_its_scripts_are_served_without_a_token() {
    let s = start(&["--tokens", "tokens"]);
    let page = request(s.port, "GET", "/", "");
    assert_eq!(page.status, 200, "{}", page.text());
    assert_eq!(page.header("content-type").as_deref(), Some("text/html; charset=utf-8"));
    assert!(page.text().contains(r#"<script src="/viewer/three.bundle.js"></script>"#), "{}", page.text());
    assert!(page.header("content-security-policy").is_some_and(|p| p.contains("script-src 'self'")));
    let bundle = request(s.port, "GET", "/viewer/three.bundle.js", "");
    assert_eq!(bundle.status, 200);
    assert_eq!(bundle.header("content-type").as_deref(), Some("text/javascript; charset=utf-8"));
    assert!(bundle.text().starts_with("/* three.js 0.187.0"), "the vendored bundle, not a fetched one");
    assert_eq!(bundle.body.len(), std::fs::metadata(crate::root().join("vendor/three/three.bundle.js")).unwrap().len() as usize);
    let script = request(s.port, "GET", "/viewer/viewer.js", "");
    assert_eq!((script.status, script.header("content-type").as_deref()), (200, Some("text/javascript; charset=utf-8")));
    assert!(script.text().contains("window.liminaViewer"));
    let license = request(s.port, "GET", "/viewer/three.LICENSE.txt", "");
    assert!(license.text().contains("The MIT License"));
    assert_eq!(request(s.port, "GET", "/viewer/nothing.js", "").status, 404);
    assert_eq!(request(s.port, "POST", "/", "Content-Length: 0\r\n").status, 405);
    let head = request(s.port, "HEAD", "/", "");
    assert_eq!((head.status, head.body.len()), (200, 0));
}

#[test]
fn assets_need_a_token_and_stay_inside_assets() {
    let s = start(&["--tokens", "tokens"]);
    let want = std::fs::read(crate::root().join("assets/models/crate.glb")).unwrap();
    let none = request(s.port, "GET", "/assets/models/crate.glb", "");
    assert_eq!(none.status, 401, "{}", none.text());
    assert_eq!(request(s.port, "GET", "/assets/models/crate.glb", "Authorization: Bearer nope\r\n").status, 401);
    let model = request(s.port, "GET", "/assets/models/crate.glb", TOKEN);
    assert_eq!(model.status, 200, "{}", model.text());
    assert_eq!(model.header("content-type").as_deref(), Some("model/gltf-binary"));
    assert_eq!(model.body, want);
    let by_id = request(s.port, "GET", "/assets/models/crate", TOKEN);
    assert_eq!((by_id.status, by_id.body.len()), (200, want.len()), "an asset id without its extension, as three.loadGLTF takes it");

    for escape in [
        "/assets/../tokens",
        "/assets/models/../../tokens",
        "/assets/%2e%2e/tokens",
        "/assets/%2F..%2Ftokens",
        "/assets/models%2f..%2f..%2fsecret.glb",
    ] {
        let r = request(s.port, "GET", escape, TOKEN);
        assert!(r.status == 403 || r.status == 404, "{escape}: {} {}", r.status, r.text());
        assert!(!r.text().contains("watch-token") && !r.text().contains("not for the viewer"), "{escape}: {}", r.text());
    }
    let link = request(s.port, "GET", "/assets/models/link.glb", TOKEN);
    assert_eq!(link.status, 403, "a symlink out of assets/: {}", link.text());
    assert!(!link.text().contains("not for the viewer"));
    let other = request(s.port, "GET", "/assets/notes.txt", TOKEN);
    assert_eq!(other.status, 403, "{}", other.text());
    assert!(other.text().contains("only .glb, .gltf, .bin and .png"), "{}", other.text());
    let huge = request(s.port, "GET", "/assets/models/huge.glb", TOKEN);
    assert_eq!(huge.status, 413, "{}", huge.text());
    assert!(huge.text().contains("67108864-byte limit"), "{}", huge.text());
    assert_eq!(request(s.port, "GET", "/assets/models/absent.glb", TOKEN).status, 404);
}

#[test]
fn foreign_origins_are_refused_on_every_route_and_the_servers_own_page_is_not() {
    let s = start(&["--tokens", "tokens"]);
    for path in ["/", "/viewer/viewer.js", "/assets/models/crate.glb", "/mcp"] {
        let r = request(s.port, "GET", path, &format!("Origin: http://evil.example\r\n{TOKEN}"));
        assert_eq!(r.status, 403, "{path}: {}", r.text());
    }
    let rebound = request_as(s.port, "GET", "/", &format!("Host: evil.example:{}\r\n", s.port));
    assert_eq!(rebound.status, 403, "a loopback server refuses a foreign Host (DNS rebinding)");
    let own = request(s.port, "GET", "/assets/models/crate.glb", &format!("Origin: http://127.0.0.1:{}\r\n{TOKEN}", s.port));
    assert_eq!(own.status, 200);
}

/// On a non-loopback bind with tokens, the page reached by a machine's name is same-origin with
/// that Host and may call `/mcp`; another origin may not. Without tokens, same-origin is not enough
/// there (a rebound name would get in): `--allow-origin` says which.
#[test]
fn a_named_host_is_same_origin_with_its_own_page() {
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    let s = start(&["--tokens", "tokens", "--bind", "0.0.0.0"]);
    let own = mcp_post(s.port, &format!("viewer.lan:{}", s.port), &format!("http://viewer.lan:{}", s.port), TOKEN, init);
    assert_eq!(own.status, 200, "{}", own.text());
    let foreign = mcp_post(s.port, &format!("viewer.lan:{}", s.port), "http://evil.example", TOKEN, init);
    assert_eq!(foreign.status, 403);
    let open = start(&["--bind", "0.0.0.0"]);
    let rebound = mcp_post(open.port, &format!("viewer.lan:{}", open.port), &format!("http://viewer.lan:{}", open.port), "", init);
    assert_eq!(rebound.status, 403, "without tokens a named Host's own origin is not trusted: {}", rebound.text());
}

fn mcp_post(port: u16, host: &str, origin: &str, token: &str, body: &str) -> Reply {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        s,
        "POST /mcp HTTP/1.1\r\nHost: {host}\r\nOrigin: {origin}\r\n{token}Content-Type: application/json\r\nAccept: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, rest) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    Reply {
        status: head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap(),
        headers: head.to_string(),
        body: rest.as_bytes().to_vec(),
    }
}

#[test]
fn without_tokens_assets_are_served_to_anyone_the_server_serves() {
    let s = start(&[]);
    let model = request(s.port, "GET", "/assets/models/crate.glb", "");
    assert_eq!(model.status, 200, "{}", model.text());
    assert!(Path::new(&crate::root().join("web/viewer/index.html")).is_file());
}

/// `limina run FILE --serve PORT`: the script's world on a server whose every client needs a token;
/// the printed link holds a read-only one made for the run.
#[test]
fn run_serve_prints_a_read_only_viewer_link() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_limina"))
        .args(["run", "demos/first_world.lua", "--serve", "0"])
        .current_dir(crate::root())
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let link = lines.by_ref().map_while(Result::ok).find(|l| l.contains("watch at http://")).expect("a viewer link");
    let url = link.split_whitespace().find(|w| w.starts_with("http://") && w.contains("/#token=")).unwrap().to_string();
    let (address, token) = url.trim_start_matches("http://").split_once("/#token=").unwrap();
    let port: u16 = address.rsplit(':').next().unwrap().parse().unwrap();
    assert_eq!(token.len(), 32, "{link}");
    assert_eq!(request(port, "GET", "/", "").status, 200);
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    let host = format!("127.0.0.1:{port}");
    let origin = format!("http://{host}");
    assert_eq!(mcp_post(port, &host, &origin, "", init).status, 401, "no token, no world");
    let watching = mcp_post(port, &host, &origin, &format!("Authorization: Bearer {token}\r\n"), init);
    assert_eq!(watching.status, 200, "{}", watching.text());
    let _ = child.kill();
    let _ = child.wait();
}

/// A client that reads slowly holds its token's share of the asset budget (a quarter), not all of
/// it: the same token is told so, another token is still served (found by an outside attack: one
/// token holding 256 MiB of unread downloads got every other client 503).
#[test]
fn one_token_reading_slowly_holds_only_its_share_of_the_asset_budget() {
    use std::io::{Read, Write};
    let s = start(&["--tokens", "tokens"]);
    for name in ["big1.glb", "big2.glb"] {
        // Sparse, 40 MiB each: over a quarter of the budget together.
        std::fs::File::create(s._project.path().join("assets/models").join(name)).unwrap().set_len(40 << 20).unwrap();
    }
    // A: asks for big1 and reads only the status line; the rest waits in the server.
    let mut slow = std::net::TcpStream::connect(("127.0.0.1", s.port)).unwrap();
    write!(slow, "GET /assets/models/big1.glb HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n{TOKEN}\r\n", s.port).unwrap();
    let mut head = [0u8; 12];
    slow.read_exact(&mut head).unwrap();
    assert_eq!(&head, b"HTTP/1.1 200", "{}", String::from_utf8_lossy(&head));
    let same = request(s.port, "GET", "/assets/models/big2.glb", TOKEN);
    assert_eq!(same.status, 503, "{}", same.text());
    assert!(same.text().contains("this token has 67108864 bytes"), "{}", same.text());
    let other = request(s.port, "GET", "/assets/models/big2.glb", "Authorization: Bearer other-token\r\n");
    assert_eq!((other.status, other.body.len()), (200, 40 << 20), "another token is served");
    drop(slow);
    // Once A's connection is gone its share comes back (the server notices the closed socket).
    let mut again = request(s.port, "GET", "/assets/models/big2.glb", TOKEN);
    for _ in 0..600 {
        if again.status == 200 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
        again = request(s.port, "GET", "/assets/models/big2.glb", TOKEN);
    }
    assert_eq!(again.status, 200, "{}", again.text());
}
