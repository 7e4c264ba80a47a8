//! Server-sent events for the Streamable HTTP transport: a response body fed by a bounded
//! channel, and the engine-side sink that writes JSON-RPC messages into it.
//!
//! The engine thread never waits on a client: `SseSink::send` is `try_send` on a queue bounded
//! in messages (`SSE_QUEUE`) and in bytes (`MAX_OWED_BYTES`, counted until the body hands an
//! event to the socket), so a client that stops reading fills its own queue and is then skipped
//! (deltas) or cut off (the engine drops the sink, which ends the stream); the socket itself cuts
//! off a client that takes nothing for 3 s (`outgoing`). An event is encoded once and its bytes
//! shared by every stream it goes to. The body sends a comment line every `PING` so proxies with
//! idle-read timeouts keep a quiet stream open.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http_body::Frame;
use serde_json::Value;
use serde_json::value::RawValue;
use tokio::sync::mpsc;

use super::engine_loop::{DeltaSink, Encoded, Undelivered};
use super::outgoing::MAX_OWED_BYTES;
use super::transport::Cutoff;
use crate::mcp::dispatcher::RpcError;

/// Messages queued per stream before the client counts as not reading.
pub(super) const SSE_QUEUE: usize = 64;
/// Keep-alive interval on an open stream.
const PING: Duration = Duration::from_secs(15);

/// One SSE event carrying one JSON-RPC message.
pub(super) fn event(message: &Value) -> Bytes {
    Bytes::from(format!("event: message\ndata: {message}\n\n"))
}

/// One SSE event carrying a JSON-RPC notification whose params are already encoded.
pub(super) fn notification(method: &str, params: &RawValue) -> Bytes {
    let method = Value::from(method);
    Bytes::from(format!("event: message\ndata: {{\"jsonrpc\":\"2.0\",\"method\":{method},\"params\":{}}}\n\n", params.get()))
}

/// A new event stream: the engine's end and the response body.
pub(super) fn stream(connection: Option<Arc<Cutoff>>) -> (SseSink, SseBody) {
    let (tx, rx) = mpsc::channel(SSE_QUEUE);
    let queued = Arc::new(AtomicUsize::new(0));
    (SseSink { tx, queued: Arc::clone(&queued), connection, wrote: false, answers: None, ended: false }, SseBody::new(rx, queued))
}

/// A stream fed finished events by a task that waits for room (a relay's viewer, `relay`): the
/// channel's `capacity` is its bound, and the task learns from a closed sender that the client
/// went away.
pub(super) fn fed(capacity: usize) -> (mpsc::Sender<Bytes>, SseBody) {
    let (tx, rx) = mpsc::channel(capacity);
    (tx, SseBody::new(rx, Arc::new(AtomicUsize::new(0))))
}

/// A streaming response body: events from the channel, pings while it is quiet, and the end of
/// the stream when every sender is gone.
pub(super) struct SseBody {
    rx: mpsc::Receiver<Bytes>,
    /// Bytes in the channel (the sink's count; lowered as events leave).
    queued: Arc<AtomicUsize>,
    ping: tokio::time::Interval,
    /// Keeps its session from expiring while the stream is open.
    _guard: Option<std::sync::Arc<()>>,
}

impl SseBody {
    fn new(rx: mpsc::Receiver<Bytes>, queued: Arc<AtomicUsize>) -> Self {
        let mut ping = tokio::time::interval_at(tokio::time::Instant::now() + PING, PING);
        ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        Self { rx, queued, ping, _guard: None }
    }

    pub fn holding(mut self, guard: Option<std::sync::Arc<()>>) -> Self {
        self._guard = guard;
        self
    }
}

impl http_body::Body for SseBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        match self.rx.poll_recv(cx) {
            Poll::Ready(Some(bytes)) => {
                let _ = self.queued.fetch_update(Ordering::AcqRel, Ordering::Acquire, |q| Some(q.saturating_sub(bytes.len())));
                return Poll::Ready(Some(Ok(Frame::data(bytes))));
            }
            Poll::Ready(None) => return Poll::Ready(None),
            Poll::Pending => {}
        }
        if self.ping.poll_tick(cx).is_ready() {
            return Poll::Ready(Some(Ok(Frame::data(Bytes::from_static(b": ping\n\n")))));
        }
        Poll::Pending
    }
}

/// The engine's end of an SSE stream: each message becomes one JSON-RPC notification event.
///
/// When the engine lets go of a stream it has written to (the client stalled and was cut off,
/// a new subscription replaced it, the session ended), the connection is shut: a client that
/// stopped reading would otherwise keep its queued events and socket buffers for as long as it
/// keeps the connection. An HTTP/1.1 connection carrying an event stream carries nothing else.
pub(super) struct SseSink {
    tx: mpsc::Sender<Bytes>,
    /// Bytes queued and not yet handed to the socket.
    queued: Arc<AtomicUsize>,
    connection: Option<Arc<Cutoff>>,
    wrote: bool,
    /// The id of the request the stream answers (a POST's stream): `end` answers it.
    answers: Option<Value>,
    /// Ended by the engine with a last event queued: the body ends once it is sent, and the
    /// connection stays.
    ended: bool,
}

impl SseSink {
    /// A stream that answers the request `id` when the engine ends it.
    pub fn answering(mut self, id: Value) -> Self {
        self.answers = Some(id);
        self
    }
}

impl Drop for SseSink {
    fn drop(&mut self) {
        if self.wrote
            && !self.ended
            && let Some(connection) = &self.connection
        {
            connection.cut("the server ended its event stream");
        }
    }
}

impl DeltaSink for SseSink {
    fn has_room(&self) -> bool {
        self.tx.capacity() > 0 && self.queued.load(Ordering::Acquire) < MAX_OWED_BYTES
    }

    fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }

    fn send(&mut self, message: &Encoded) -> Result<(), Undelivered> {
        let frame = message.sse_event();
        let len = frame.len();
        let queued = self.queued.load(Ordering::Acquire);
        if queued > 0 && queued.saturating_add(len) > MAX_OWED_BYTES {
            return Err(if self.tx.is_closed() { Undelivered::Closed } else { Undelivered::Full });
        }
        self.wrote = true;
        // Counted first: the body may take it (and lower the count) before `try_send` returns.
        self.queued.fetch_add(len, Ordering::AcqRel);
        self.tx.try_send(frame).map_err(|e| {
            let _ = self.queued.fetch_update(Ordering::AcqRel, Ordering::Acquire, |q| Some(q.saturating_sub(len)));
            match e {
                mpsc::error::TrySendError::Full(_) => Undelivered::Full,
                mpsc::error::TrySendError::Closed(_) => Undelivered::Closed,
            }
        })
    }

    fn cut_off(&self, why: &str) {
        // The engine drops this sink right after, which ends the stream.
        tracing::warn!("HTTP event stream cut off: {why}");
    }

    fn end(&mut self, why: &RpcError) {
        let last = match &self.answers {
            Some(id) => crate::mcp::protocol::error(id.clone(), why.code, why.message.clone(), why.data.clone()),
            None => crate::mcp::protocol::notification(
                "notifications/message",
                Some(serde_json::json!({"level": "error", "data": why.message})),
            ),
        };
        let frame = event(&last);
        let len = frame.len();
        // Counted first, as in `send`. A client with no room for it is not reading: it goes
        // unsaid, and the connection is shut as for any stream the engine lets go of.
        self.queued.fetch_add(len, Ordering::AcqRel);
        if self.tx.try_send(frame).is_ok() {
            self.ended = true;
        } else {
            let _ = self.queued.fetch_update(Ordering::AcqRel, Ordering::Acquire, |q| Some(q.saturating_sub(len)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;
    use serde_json::json;

    fn note(method: &str, params: Value) -> Encoded {
        Encoded::new(method, &params)
    }

    #[tokio::test]
    async fn a_stream_carries_events_then_ends_when_the_sink_goes() {
        let (mut sink, body) = stream(None);
        sink.send(&note("notifications/tools/list_changed", json!({}))).unwrap();
        sink.send(&note("state/delta", json!({"tick": 3}))).unwrap();
        drop(sink);
        let body = body.collect().await.unwrap().to_bytes();
        let text = String::from_utf8(body.to_vec()).unwrap();
        assert_eq!(
            text,
            "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\",\"params\":{}}\n\n\
             event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"state/delta\",\"params\":{\"tick\":3}}\n\n"
        );
    }

    #[tokio::test]
    async fn a_stream_is_bounded_in_messages_and_in_bytes_and_never_waits() {
        let (mut sink, _body) = stream(None);
        for _ in 0..SSE_QUEUE {
            sink.send(&note("state/delta", json!({}))).unwrap();
        }
        assert!(!sink.has_room());
        assert_eq!(sink.send(&note("state/delta", json!({}))), Err(Undelivered::Full), "a full queue refuses, never waits");

        // Bytes: one message larger than the limit alone is taken; then nothing more until the
        // body has handed it on.
        let (mut sink, mut body) = stream(None);
        let big = note("state/delta", json!({"blob": "x".repeat(MAX_OWED_BYTES)}));
        sink.send(&big).unwrap();
        assert!(!sink.has_room(), "{} bytes queued", sink.queued.load(Ordering::Acquire));
        assert_eq!(sink.send(&note("state/delta", json!({}))), Err(Undelivered::Full));
        let frame = body.frame().await.unwrap().unwrap().into_data().unwrap();
        assert!(frame.len() > MAX_OWED_BYTES);
        assert!(sink.has_room(), "the count falls as events leave");
        sink.send(&note("state/delta", json!({}))).unwrap();
    }
}
