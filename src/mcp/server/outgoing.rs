//! What the server owes one client on its socket, and the socket that keeps the count.
//!
//! Every accepted connection's socket is wrapped in `Metered`, so one rule holds whatever runs on
//! it (WebSocket answers and deltas, an HTTP answer, an event stream): a write the client does
//! not take (the kernel's buffers toward it are full) starts a clock, and if no byte is taken for
//! `STALL_TIME` the client has stopped reading and is cut off — its socket shut down, which ends
//! its calls, streams and session and frees everything queued for it. While a write waits,
//! nothing more is read from that client: requests read then would only spawn work whose answers
//! queue behind the ones it is not reading (32 such clients pinned 543 MB).
//!
//! `Owed` counts the bytes handed to a connection's send queue (answers, deltas) that its socket
//! has not yet taken, so that queue is bounded in bytes, not only in messages: past
//! `MAX_OWED_BYTES` a delta is skipped and an answer waits for room (one message alone always
//! fits, however large). The count is lowered by every byte written, framing included, so it
//! may run a little under what is queued, never over.

use std::io;
use std::pin::Pin;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::{Instant, Sleep};

use super::transport::Cutoff;

/// How long a client may leave what it was sent untaken before it counts as not reading; also
/// how long an answer may wait for room in its queue.
pub(crate) const STALL_TIME: Duration = Duration::from_secs(3);

/// Bytes one connection may have queued toward its client and not yet taken by its socket.
pub const MAX_OWED_BYTES: usize = 1 << 20;

/// The bytes queued toward one client, and whether a write to it is waiting.
#[derive(Debug, Default)]
pub(super) struct Owed {
    bytes: AtomicUsize,
    /// Bytes of answers made and waiting for room (not in the queue yet, but held all the same).
    held: AtomicUsize,
    /// Since when a write has waited for the client to take bytes.
    blocked: Mutex<Option<Instant>>,
    /// The reader held back while a write waits.
    reader: Mutex<Option<Waker>>,
    /// Answers waiting for room.
    room: tokio::sync::Notify,
    waiting: AtomicUsize,
}

impl Owed {
    pub fn bytes(&self) -> usize {
        self.bytes.load(Ordering::Acquire)
    }

    /// Whether another message may be queued (a delta is skipped otherwise) or made (a call
    /// waits otherwise): counting the answers waiting for room.
    pub fn has_room(&self) -> bool {
        self.bytes().saturating_add(self.held.load(Ordering::Acquire)) < MAX_OWED_BYTES
    }

    /// Counts an answer of `len` bytes that waits for room, until the guard goes.
    pub fn hold(&self, len: usize) -> Held<'_> {
        self.held.fetch_add(len, Ordering::AcqRel);
        Held { owed: self, len }
    }

    /// Whether a message of `len` bytes fits: within the limit, or alone in the queue.
    pub fn fits(&self, len: usize) -> bool {
        let owed = self.bytes();
        owed == 0 || owed.saturating_add(len) <= MAX_OWED_BYTES
    }

    /// Counts `len` bytes handed to the connection's send queue.
    pub fn queued(&self, len: usize) {
        self.bytes.fetch_add(len, Ordering::AcqRel);
    }

    /// Waits until a message of `len` bytes fits (the caller bounds the wait).
    pub async fn room_for(&self, len: usize) {
        self.waiting.fetch_add(1, Ordering::AcqRel);
        let _waiting = Decrement(&self.waiting);
        loop {
            let notified = self.room.notified();
            tokio::pin!(notified);
            // Registered before the check, so a write between the two still wakes us.
            notified.as_mut().enable();
            if self.fits(len) {
                return;
            }
            notified.await;
        }
    }

    /// The socket took `n` bytes: the client is reading.
    fn took(&self, n: usize) {
        let _ = self.bytes.fetch_update(Ordering::AcqRel, Ordering::Acquire, |b| Some(b.saturating_sub(n)));
        if lock(&self.blocked).take().is_some() {
            self.wake_reader();
        }
        if self.waiting.load(Ordering::Acquire) > 0 {
            self.room.notify_waiters();
        }
    }

    /// A write is waiting; returns since when.
    fn block(&self) -> Instant {
        *lock(&self.blocked).get_or_insert_with(Instant::now)
    }

    fn blocked_since(&self) -> Option<Instant> {
        *lock(&self.blocked)
    }

    fn park_reader(&self, waker: &Waker) {
        let mut reader = lock(&self.reader);
        if !reader.as_ref().is_some_and(|w| w.will_wake(waker)) {
            *reader = Some(waker.clone());
        }
    }

    /// Lets a held-back reader run (a write went through, or the client was cut off).
    pub fn wake_reader(&self) {
        if let Some(waker) = lock(&self.reader).take() {
            waker.wake();
        }
    }

    /// Wakes everything waiting on this client (it was cut off).
    pub fn release(&self) {
        self.wake_reader();
        self.room.notify_waiters();
    }
}

/// An answer waiting for room (`Owed::hold`).
pub(super) struct Held<'a> {
    owed: &'a Owed,
    len: usize,
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        self.owed.held.fetch_sub(self.len, Ordering::AcqRel);
    }
}

struct Decrement<'a>(&'a AtomicUsize);

impl Drop for Decrement<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A connection's socket, counting what it takes and cutting off a client that takes nothing.
pub(super) struct Metered {
    io: tokio::net::TcpStream,
    cutoff: std::sync::Arc<Cutoff>,
    /// The writer's clock: when the waiting write started, and its deadline.
    write_clock: Option<(Instant, Pin<Box<Sleep>>)>,
    /// The same for a reader held back by that write (it may be polled by another task).
    read_clock: Option<(Instant, Pin<Box<Sleep>>)>,
}

impl Metered {
    pub fn new(io: tokio::net::TcpStream, cutoff: std::sync::Arc<Cutoff>) -> Self {
        Self { io, cutoff, write_clock: None, read_clock: None }
    }

    /// Polls the stall clock for a write blocked since `since`; true once it has run out.
    fn ran_out(clock: &mut Option<(Instant, Pin<Box<Sleep>>)>, since: Instant, cx: &mut Context<'_>) -> bool {
        if clock.as_ref().is_none_or(|(started, _)| *started != since) {
            *clock = Some((since, Box::pin(tokio::time::sleep_until(since + STALL_TIME))));
        }
        clock.as_mut().is_some_and(|(_, sleep)| sleep.as_mut().poll(cx).is_ready())
    }

    fn stalled(&self) -> String {
        format!(
            "nothing it was sent was taken for {} s ({} bytes queued for it): the client stopped reading",
            STALL_TIME.as_secs(),
            self.cutoff.owed().bytes()
        )
    }

    fn after_write(&mut self, cx: &mut Context<'_>, polled: Poll<io::Result<usize>>) -> Poll<io::Result<usize>> {
        match polled {
            Poll::Ready(Ok(n)) => {
                self.write_clock = None;
                self.cutoff.owed().took(n);
                Poll::Ready(Ok(n))
            }
            Poll::Pending => {
                let since = self.cutoff.owed().block();
                if Self::ran_out(&mut self.write_clock, since, cx) {
                    self.cutoff.cut(&self.stalled());
                    return Poll::Ready(Err(io::Error::new(io::ErrorKind::BrokenPipe, "the client stopped reading")));
                }
                Poll::Pending
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
        }
    }
}

impl AsyncRead for Metered {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.cutoff.is_cut() {
            // The end of the stream: whoever reads learns the connection is over.
            return Poll::Ready(Ok(()));
        }
        if this.cutoff.owed().blocked_since().is_some() {
            this.cutoff.owed().park_reader(cx.waker());
            // Checked again once parked, so a write that went through meanwhile still wakes us.
            if let Some(since) = this.cutoff.owed().blocked_since() {
                if Self::ran_out(&mut this.read_clock, since, cx) {
                    this.cutoff.cut(&this.stalled());
                    return Poll::Ready(Ok(()));
                }
                return Poll::Pending;
            }
        }
        this.read_clock = None;
        Pin::new(&mut this.io).poll_read(cx, buf)
    }
}

impl AsyncWrite for Metered {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.io).poll_write(cx, buf);
        this.after_write(cx, polled)
    }

    fn poll_write_vectored(self: Pin<&mut Self>, cx: &mut Context<'_>, bufs: &[io::IoSlice<'_>]) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.io).poll_write_vectored(cx, bufs);
        this.after_write(cx, polled)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }
}
