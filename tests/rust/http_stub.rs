//! A tiny HTTP/1.1 server on 127.0.0.1:0 for the provider tests. It records every request and
//! answers each connection with one scripted `Reply` — including the ones a real framework
//! would not let a test send: a body shorter than its `Content-Length`, a `Content-Length`
//! far above the client's cap, an endless chunked body, or silence.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// What the server does with each request.
#[derive(Clone, Debug)]
pub enum Reply {
    /// A complete response with a correct `Content-Length`.
    Body { status: u16, body: Vec<u8> },
    /// Exactly these bytes (status line and headers included), then the connection closes.
    Raw(Vec<u8>),
    /// Reads the request, then says nothing for this long before closing.
    Stall(Duration),
    /// A 200 with `Transfer-Encoding: chunked` and no length: `total` bytes of filler.
    Chunked { total: usize },
    /// Holds every request until the gate opens (the test sends `true`), then answers `then`.
    Gated { gate: tokio::sync::watch::Receiver<bool>, then: Box<Reply> },
    /// The first request gets the first reply, the second the second, and so on; the last
    /// answers every request after it.
    Sequence(Arc<Vec<Reply>>),
}

impl Reply {
    pub fn json(value: &Value) -> Self {
        Reply::Body { status: 200, body: value.to_string().into_bytes() }
    }

    pub fn status(status: u16, body: &str) -> Self {
        Reply::Body { status, body: body.as_bytes().to_vec() }
    }
}

/// One request as the server saw it.
#[derive(Clone, Debug)]
pub struct Received {
    pub method: String,
    pub path: String,
    /// Header names lower-cased.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Received {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(key, _)| key == name).map(|(_, value)| value.as_str())
    }

    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|error| panic!("request body is not JSON ({error}): {:?}", self.body))
    }
}

pub struct StubServer {
    /// `http://127.0.0.1:<port>`, no trailing slash.
    pub base_url: String,
    received: Arc<Mutex<Vec<Received>>>,
}

impl StubServer {
    /// Starts serving on the current tokio runtime; the server stops with the runtime.
    pub async fn start(reply: Reply) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base_url = format!("http://{}", listener.local_addr().unwrap());
        let received = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&received);
        tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                tokio::spawn(serve(socket, reply.clone(), Arc::clone(&log)));
            }
        });
        Self { base_url, received }
    }

    pub fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }

    /// The only request the server got (fails if there were none or several).
    pub fn single_request(&self) -> Received {
        let received = self.received();
        assert_eq!(received.len(), 1, "expected exactly one request, got {received:?}");
        received.into_iter().next().unwrap()
    }
}

/// A base URL where nothing listens: a port that was just bound, then released.
pub async fn dead_base_url() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    drop(listener);
    format!("http://{address}")
}

async fn serve(mut socket: TcpStream, mut reply: Reply, log: Arc<Mutex<Vec<Received>>>) {
    let Some(request) = read_request(&mut socket).await else { return };
    let nth = {
        let mut log = log.lock().unwrap();
        log.push(request);
        log.len() - 1
    };
    if let Reply::Sequence(replies) = reply {
        reply = replies.get(nth).or(replies.last()).cloned().unwrap_or(Reply::Stall(Duration::from_secs(1)));
    }
    if let Reply::Gated { mut gate, then } = reply {
        let _ = gate.wait_for(|open| *open).await;
        reply = *then;
    }
    // Write errors are expected: the client under test hangs up on purpose in several cases.
    match reply {
        Reply::Body { status, body } => {
            let head = format!(
                "HTTP/1.1 {status} {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                reason(status),
                body.len()
            );
            let _ = socket.write_all(head.as_bytes()).await;
            let _ = socket.write_all(&body).await;
        }
        Reply::Raw(bytes) => {
            let _ = socket.write_all(&bytes).await;
        }
        Reply::Stall(quiet) => {
            tokio::time::sleep(quiet).await;
        }
        Reply::Gated { .. } | Reply::Sequence(_) => unreachable!("resolved above"),
        Reply::Chunked { total } => {
            let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n";
            if socket.write_all(head.as_bytes()).await.is_err() {
                return;
            }
            let chunk = vec![b' '; 16 * 1024];
            let mut sent = 0;
            while sent < total {
                let size = chunk.len().min(total - sent);
                let frame = [format!("{size:x}\r\n").as_bytes(), &chunk[..size], b"\r\n"].concat();
                if socket.write_all(&frame).await.is_err() {
                    return;
                }
                sent += size;
            }
            let _ = socket.write_all(b"0\r\n\r\n").await;
        }
    }
    let _ = socket.shutdown().await;
}

async fn read_request(socket: &mut TcpStream) -> Option<Received> {
    let mut buffer = Vec::new();
    let mut chunk = [0u8; 8192];
    let head_end = loop {
        if let Some(at) = buffer.windows(4).position(|window| window == b"\r\n\r\n") {
            break at;
        }
        let read = socket.read(&mut chunk).await.ok()?;
        if read == 0 {
            return None;
        }
        buffer.extend_from_slice(&chunk[..read]);
    };
    let head = String::from_utf8_lossy(&buffer[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let mut request_line = lines.next()?.split(' ');
    let (method, path) = (request_line.next()?.to_string(), request_line.next()?.to_string());
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_string()))
        .collect();
    let length: usize = headers.iter().find(|(name, _)| name == "content-length").and_then(|(_, value)| value.parse().ok()).unwrap_or(0);
    let mut body = buffer[head_end + 4..].to_vec();
    while body.len() < length {
        let read = socket.read(&mut chunk).await.ok()?;
        if read == 0 {
            return None;
        }
        body.extend_from_slice(&chunk[..read]);
    }
    Some(Received { method, path, headers, body })
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        404 => "Not Found",
        500 => "Internal Server Error",
        _ => "Status",
    }
}
