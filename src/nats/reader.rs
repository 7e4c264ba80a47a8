//! Reading a world's log back: the concatenated payloads of a range of its messages, as a
//! `BufRead` for the file log's line reader. An ordered consumer on the NATS runtime feeds a
//! bounded channel (a log can be far larger than memory); the reader's thread blocks on it.
//!
//! The stream holds one subject, so the consumer is unfiltered and starts anywhere at full
//! speed. A line an owner left half-written before another took the world over (its `fence`)
//! is dropped. Every message's stream sequence is checked: a gap (a message missing) or a reader
//! that stops early is an error, never a short log.

use std::io::{BufRead, Read};
use std::time::Duration;

use async_nats::jetstream::{self, consumer};
use bytes::Bytes;
use futures_util::StreamExt;

use super::stream::{check_world, stream_name};
use super::{JetStream, NatsError, WorldLog};

/// Bytes of an unfinished line held back at most (more than the longest line a log may hold).
const MAX_HELD_LINE: usize = 16 << 20;
/// Messages read ahead at most (each up to 256 KiB).
const READ_AHEAD: usize = 32;
/// A consumer silent this long is recreated from where it stopped.
const SILENCE: Duration = Duration::from_secs(20);
/// Consumer failures in a row without a message in between before reading gives up.
const MAX_FAILURES: u32 = 8;

/// A range of a world's log, read in order. Blocks its caller (a std thread) while messages
/// come; must not be read from inside a tokio runtime.
pub struct LogBytes {
    world: String,
    chunks: tokio::sync::mpsc::Receiver<Result<(u64, Bytes), NatsError>>,
    chunk: Bytes,
    at: usize,
    /// The last sequence received; reading ends after `end`.
    received: u64,
    end: u64,
    failed: bool,
    task: Option<tokio::task::JoinHandle<()>>,
    /// Keeps the runtime the feeding task runs on.
    _js: JetStream,
}

impl std::fmt::Debug for LogBytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LogBytes").field("world", &self.world).field("received", &self.received).field("end", &self.end).finish()
    }
}

impl LogBytes {
    /// The last sequence this reader ends with.
    pub fn end(&self) -> u64 {
        self.end
    }
}

impl Drop for LogBytes {
    fn drop(&mut self) {
        if let Some(task) = self.task.take() {
            task.abort();
        }
    }
}

impl Read for LogBytes {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(out.len());
        out[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for LogBytes {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        while self.at >= self.chunk.len() {
            if self.received >= self.end || self.failed {
                return Ok(&[]);
            }
            match self.chunks.blocking_recv() {
                Some(Ok((sequence, chunk))) => {
                    self.received = sequence;
                    self.chunk = chunk;
                    self.at = 0;
                }
                Some(Err(error)) => {
                    self.failed = true;
                    return Err(std::io::Error::other(error));
                }
                None => {
                    self.failed = true;
                    return Err(std::io::Error::other(NatsError::Read {
                        world: self.world.clone(),
                        sequence: self.received + 1,
                        message: format!("the reader stopped before the end ({})", self.end),
                    }));
                }
            }
        }
        Ok(&self.chunk[self.at..])
    }

    fn consume(&mut self, amount: usize) {
        self.at = (self.at + amount).min(self.chunk.len());
    }
}

impl WorldLog {
    /// `world`'s log from its first message through `end` (`None`: the last one now).
    pub fn read(js: &JetStream, world: &str, end: Option<u64>) -> Result<LogBytes, NatsError> {
        Self::read_range(js, world, 1, end)
    }

    /// `world`'s log from message `first` through `end` (`None`: the last one now), e.g. the
    /// messages after those a snapshot covers.
    pub fn read_range(js: &JetStream, world: &str, first: u64, end: Option<u64>) -> Result<LogBytes, NatsError> {
        check_world(world).map_err(|why| NatsError::BadWorld { world: crate::clip::shown(world), why })?;
        let first = first.max(1);
        let name = stream_name(world);
        let no_log = || NatsError::NoLog { world: world.to_string(), stream: name.clone() };
        let api = js.inner.api.clone();
        let lookup = js.block_on("read", {
            let name = name.clone();
            async move { api.get_stream(name).await }
        })?;
        let stream = match lookup {
            Ok(stream) => stream,
            Err(e) if is_not_found(&e) => return Err(no_log()),
            Err(e) => {
                return Err(NatsError::Stream {
                    world: world.to_string(),
                    stream: name,
                    url: js.url().to_string(),
                    operation: "look up",
                    message: js.message(&e),
                });
            }
        };
        let state = &stream.cached_info().state;
        if state.last_sequence == 0 {
            return Err(no_log());
        }
        let end = end.unwrap_or(state.last_sequence);
        if end > state.last_sequence {
            return Err(NatsError::ShortLog { world: world.to_string(), end, last: state.last_sequence });
        }
        if state.first_sequence > first && first <= end {
            let message = format!("the stream starts at sequence {}", state.first_sequence);
            return Err(NatsError::Read { world: world.to_string(), sequence: first, message });
        }
        let (sender, chunks) = tokio::sync::mpsc::channel(READ_AHEAD);
        let task = (first <= end).then(|| {
            let feed = Feed {
                world: world.to_string(),
                stream,
                sender,
                next: first,
                end,
                redactor: js.inner.redactor.clone(),
                tail: bytes::BytesMut::new(),
            };
            js.runtime().spawn(feed.run())
        });
        Ok(LogBytes {
            world: world.to_string(),
            chunks,
            chunk: Bytes::new(),
            at: 0,
            received: first - 1,
            end,
            failed: false,
            task,
            _js: js.clone(),
        })
    }

    /// Whether `world` has a log stream (possibly empty).
    pub fn exists(js: &JetStream, world: &str) -> Result<bool, NatsError> {
        Ok(Self::stored_last_sequence(js, world)?.is_some())
    }

    /// The last sequence of `world`'s stream (0: empty), or `None` without a stream.
    pub fn stored_last_sequence(js: &JetStream, world: &str) -> Result<Option<u64>, NatsError> {
        check_world(world).map_err(|why| NatsError::BadWorld { world: crate::clip::shown(world), why })?;
        let name = stream_name(world);
        let api = js.inner.api.clone();
        let lookup = js.block_on("look up", {
            let name = name.clone();
            async move { api.get_stream(name).await }
        })?;
        match lookup {
            Ok(stream) => Ok(Some(stream.cached_info().state.last_sequence)),
            Err(e) if is_not_found(&e) => Ok(None),
            Err(e) => Err(NatsError::Stream {
                world: world.to_string(),
                stream: name,
                url: js.url().to_string(),
                operation: "look up",
                message: js.message(&e),
            }),
        }
    }
}

fn is_not_found(error: &jetstream::context::GetStreamError) -> bool {
    matches!(error.kind(), jetstream::context::GetStreamErrorKind::JetStream(e)
        if e.error_code() == jetstream::ErrorCode::STREAM_NOT_FOUND)
}

/// The task that reads the stream into the channel.
struct Feed {
    world: String,
    stream: jetstream::stream::Stream,
    sender: tokio::sync::mpsc::Sender<Result<(u64, Bytes), NatsError>>,
    next: u64,
    end: u64,
    redactor: crate::redact::Redactor,
    /// The bytes after the last newline so far, held back until the line ends: a fence drops
    /// them (a line its writer never finished).
    tail: bytes::BytesMut,
}

impl Feed {
    /// What of `payload` can go out now: whole lines only, except at the end of the range (a
    /// torn tail is the line reader's to report). A fence first drops the unfinished line.
    fn whole_lines(&mut self, payload: Bytes, fence: bool, last: bool) -> Bytes {
        if fence {
            self.tail.clear();
        }
        if self.tail.is_empty() && (last || payload.last() == Some(&b'\n')) {
            return payload;
        }
        // Only the new bytes are searched (the tail holds no newline), and a tail longer than
        // any line a log may hold goes out as it is: the line reader refuses it by name, and
        // this never holds more than that.
        let end = payload.iter().rposition(|&b| b == b'\n');
        if last || self.tail.len() + payload.len() > MAX_HELD_LINE {
            self.tail.extend_from_slice(&payload);
            return self.tail.split().freeze();
        }
        match end {
            Some(at) => {
                self.tail.extend_from_slice(&payload[..=at]);
                let whole = self.tail.split().freeze();
                self.tail.extend_from_slice(&payload[at + 1..]);
                whole
            }
            None => {
                self.tail.extend_from_slice(&payload);
                Bytes::new()
            }
        }
    }

    async fn run(mut self) {
        let mut failures = 0;
        while self.next <= self.end {
            match self.read_some().await {
                Ok(progress) => {
                    if progress {
                        failures = 0;
                    } else {
                        failures += 1;
                    }
                }
                Err(stop) => {
                    let _ = self.sender.send(Err(stop)).await;
                    return;
                }
            }
            if failures >= MAX_FAILURES {
                let message = format!("the consumer failed {MAX_FAILURES} times in a row");
                let _ = self.sender.send(Err(self.failed(message))).await;
                return;
            }
            if failures > 0 {
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
    }

    fn failed(&self, message: String) -> NatsError {
        NatsError::Read { world: self.world.clone(), sequence: self.next, message: self.redactor.text(&message) }
    }

    /// One ordered consumer from `next` on, until the end, an error or silence. `Ok(true)`
    /// if it delivered anything; `Err` stops reading (a gap, or the reader went away).
    async fn read_some(&mut self) -> Result<bool, NatsError> {
        let config = consumer::pull::OrderedConfig {
            deliver_policy: consumer::DeliverPolicy::ByStartSequence { start_sequence: self.next },
            ..Default::default()
        };
        let Ok(consumer) = self.stream.create_consumer(config).await else { return Ok(false) };
        let Ok(mut messages) = consumer.messages().await else { return Ok(false) };
        let mut progress = false;
        while self.next <= self.end {
            let message = match tokio::time::timeout(SILENCE, messages.next()).await {
                Ok(Some(Ok(message))) => message,
                Ok(Some(Err(_))) | Ok(None) | Err(_) => return Ok(progress),
            };
            let Ok(info) = message.info() else { return Ok(progress) };
            let sequence = info.stream_sequence;
            if sequence < self.next {
                continue;
            }
            if sequence > self.next {
                return Err(self.failed(format!("message {} is missing (the next one is {sequence})", self.next)));
            }
            let fence = message.headers.as_ref().is_some_and(|h| h.get(super::fence::FENCE_HEADER).is_some());
            let chunk = self.whole_lines(message.payload.clone(), fence, sequence == self.end);
            if self.sender.send(Ok((sequence, chunk))).await.is_err() {
                return Err(self.failed("the reader went away".to_string()));
            }
            progress = true;
            self.next += 1;
        }
        Ok(progress)
    }
}
