//! Server-sent events for the Streamable HTTP transport: a response body fed by a bounded
//! channel, and the engine-side sink that writes JSON-RPC messages into it.
//!
//! The engine thread never waits on a client: `SseSink::send` is `try_send` on a bounded queue,
//! so a client that stops reading fills its own queue and is then skipped (deltas) or cut off
//! (the engine drops the sink, which ends the stream). The body sends a comment line every
//! `PING` so proxies with idle-read timeouts keep a quiet stream open.

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http_body::Frame;
use serde_json::{Value, json};
use tokio::sync::mpsc;

use std::sync::Arc;

use super::engine_loop::{DeltaSink, Undelivered};
use super::transport::Cutoff;

/// Messages queued per stream before the client counts as not reading.
pub(super) const SSE_QUEUE: usize = 64;
/// Keep-alive interval on an open stream.
const PING: Duration = Duration::from_secs(15);

/// One SSE event carrying one JSON-RPC message.
pub(super) fn event(message: &Value) -> Bytes {
    Bytes::from(format!("event: message\ndata: {message}\n\n"))
}

/// A streaming response body: events from the channel, pings while it is quiet, and the end of
/// the stream when every sender is gone.
pub(super) struct SseBody {
    rx: mpsc::Receiver<Bytes>,
    ping: tokio::time::Interval,
    /// Keeps its session from expiring while the stream is open.
    _guard: Option<std::sync::Arc<()>>,
}

impl SseBody {
    pub fn new(rx: mpsc::Receiver<Bytes>) -> Self {
        let mut ping = tokio::time::interval_at(tokio::time::Instant::now() + PING, PING);
        ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        Self { rx, ping, _guard: None }
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
            Poll::Ready(Some(bytes)) => return Poll::Ready(Some(Ok(Frame::data(bytes)))),
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
    connection: Option<Arc<Cutoff>>,
    wrote: bool,
}

impl SseSink {
    pub fn new(tx: mpsc::Sender<Bytes>, connection: Option<Arc<Cutoff>>) -> Self {
        Self { tx, connection, wrote: false }
    }
}

impl Drop for SseSink {
    fn drop(&mut self) {
        if self.wrote
            && let Some(connection) = &self.connection
        {
            connection.cut("the server ended its event stream");
        }
    }
}

impl DeltaSink for SseSink {
    fn has_room(&self) -> bool {
        self.tx.capacity() > 0
    }

    fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }

    fn send(&mut self, method: &str, message: &Value) -> Result<(), Undelivered> {
        let frame = event(&json!({"jsonrpc": "2.0", "method": method, "params": message}));
        self.wrote = true;
        self.tx.try_send(frame).map_err(|e| match e {
            mpsc::error::TrySendError::Full(_) => Undelivered::Full,
            mpsc::error::TrySendError::Closed(_) => Undelivered::Closed,
        })
    }

    fn cut_off(&self, why: &str) {
        // The engine drops this sink right after, which ends the stream.
        tracing::warn!("HTTP event stream cut off: {why}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;

    #[tokio::test]
    async fn a_stream_carries_events_then_ends_when_the_sink_goes() {
        let (tx, rx) = mpsc::channel(2);
        let mut sink = SseSink::new(tx, None);
        sink.send("notifications/tools/list_changed", &json!({})).unwrap();
        sink.send("state/delta", &json!({"tick": 3})).unwrap();
        assert!(!sink.has_room());
        assert_eq!(sink.send("state/delta", &json!({})), Err(Undelivered::Full), "a full queue refuses, never waits");
        drop(sink);
        let body = SseBody::new(rx).collect().await.unwrap().to_bytes();
        let text = String::from_utf8(body.to_vec()).unwrap();
        assert_eq!(
            text,
            "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\",\"params\":{}}\n\n\
             event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"state/delta\",\"params\":{\"tick\":3}}\n\n"
        );
    }
}
