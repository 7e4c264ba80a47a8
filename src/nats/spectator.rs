//! Spectators through NATS, the reading side: subscribes to a world's feeds (`spectate`) and
//! hands their messages to a plain std thread one at a time, each whole (parts put back
//! together) with its kind, tick and sequence number. `limina spectate` is built on it; no
//! async-nats type leaves this file.
//!
//! What arrives is bounded: a message's parts are put together only up to `MAX_PARTS`, and a
//! message whose parts do not arrive in order is dropped (counted in `Spectated::missed` of the
//! next one, through its sequence number). A reader slower than the feed is NATS's slow consumer:
//! the server drops for it, and the sequence numbers show what was lost.

use std::time::Duration;

use futures_util::StreamExt as _;

use super::spectate::{Feed, KIND, Kind, PART, SEQ, TICK};
use super::{JetStream, NatsError};

/// Parts one message may come in (64 MiB with the default 1 MiB `max_payload`).
const MAX_PARTS: usize = 64;
/// Messages waiting for the reader, per subscription.
const BUFFERED: usize = 256;

/// One whole message of a feed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spectated {
    pub feed: Feed,
    pub kind: Kind,
    pub tick: u64,
    pub seq: u64,
    /// Messages of this feed numbered between the previous one read and this one, that never
    /// arrived whole (dropped by the server, the publisher or a lost part).
    pub missed: u64,
    pub body: Vec<u8>,
}

/// A subscription to some of a world's feeds.
pub struct Spectator {
    js: JetStream,
    rx: tokio::sync::mpsc::Receiver<Raw>,
    /// A message whose parts are arriving: (feed, seq, parts, bytes so far).
    partial: Option<(Feed, u64, usize, Vec<u8>)>,
    numbering: Numbering,
    world: String,
}

/// One NATS message as it arrived.
struct Raw {
    feed: Feed,
    kind: Option<Kind>,
    tick: u64,
    seq: u64,
    part: Option<(usize, usize)>,
    body: bytes::Bytes,
}

impl Spectator {
    /// Subscribes to `feeds` of `world` (the subscriptions are made before this returns).
    pub fn subscribe(js: &JetStream, world: &str, feeds: &[Feed]) -> Result<Spectator, NatsError> {
        super::stream::check_world(world).map_err(|why| NatsError::BadWorld { world: crate::clip::shown(world).to_string(), why })?;
        let (tx, rx) = tokio::sync::mpsc::channel(BUFFERED);
        for &feed in feeds {
            let subject = feed.subject(world);
            let client = js.inner.client.clone();
            let subscribed = js.block_on("subscribe", async move {
                let subscription = client.subscribe(subject).await.map_err(|e| e.to_string())?;
                // The server has it once a round trip has passed: what is published after
                // `subscribe` returns reaches it.
                client.flush().await.map_err(|e| e.to_string())?;
                Ok::<_, String>(subscription)
            })?;
            let mut subscription =
                subscribed.map_err(|e| NatsError::Read { world: world.to_string(), sequence: 0, message: js.message(&e) })?;
            let tx = tx.clone();
            js.runtime().spawn(async move {
                while let Some(message) = subscription.next().await {
                    if tx.send(raw(feed, &message)).await.is_err() {
                        break;
                    }
                }
            });
        }
        Ok(Spectator { js: js.clone(), rx, partial: None, numbering: Numbering::default(), world: world.to_string() })
    }

    /// The next whole message, waiting up to `wait` (None: nothing came in time).
    pub fn next_within(&mut self, wait: Duration) -> Result<Option<Spectated>, NatsError> {
        let deadline = std::time::Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            let rx = &mut self.rx;
            let got = self.js.block_on("spectate", async move { tokio::time::timeout(left, rx.recv()).await })?;
            let raw = match got {
                Ok(Some(raw)) => raw,
                Ok(None) => return Err(NatsError::Closed { world: self.world.clone() }),
                Err(_) => return Ok(None),
            };
            if let Some(whole) = self.assemble(raw) {
                return Ok(Some(whole));
            }
        }
    }

    /// Puts parts together; a message that is not ours (no kind) is passed over.
    fn assemble(&mut self, raw: Raw) -> Option<Spectated> {
        let kind = raw.kind?;
        let body = match raw.part {
            None => {
                self.partial = None;
                raw.body.to_vec()
            }
            Some((index, count)) => {
                if count > MAX_PARTS || index == 0 || index > count {
                    self.partial = None;
                    return None;
                }
                if index == 1 {
                    self.partial = Some((raw.feed, raw.seq, count, raw.body.to_vec()));
                } else {
                    match &mut self.partial {
                        Some((feed, seq, parts, bytes)) if *feed == raw.feed && *seq == raw.seq && *parts == count => {
                            bytes.extend_from_slice(&raw.body);
                        }
                        _ => {
                            self.partial = None;
                            return None;
                        }
                    }
                }
                if index < count {
                    return None;
                }
                self.partial.take()?.3
            }
        };
        let missed = self.numbering.missed(raw.feed, raw.seq);
        Some(Spectated { feed: raw.feed, kind, tick: raw.tick, seq: raw.seq, missed, body })
    }
}

/// The last sequence number read on each feed.
#[derive(Debug, Default)]
struct Numbering {
    last: [Option<u64>; 2],
}

impl Numbering {
    /// How many numbers lie between the last one read on `feed` and `seq` (none when `seq` is
    /// not past it: a publisher that started again).
    fn missed(&mut self, feed: Feed, seq: u64) -> u64 {
        let last = &mut self.last[feed as usize];
        // Any number may come in a header: the largest must not overflow the count.
        let missed = last.map_or(0, |l| seq.saturating_sub(l.saturating_add(1)));
        *last = Some(seq);
        missed
    }
}

fn raw(feed: Feed, message: &async_nats::Message) -> Raw {
    let header = |name: &str| message.headers.as_ref().and_then(|h| h.get(name)).map(|v| v.as_str().to_string());
    let number = |name: &str| header(name).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
    let part = header(PART).and_then(|p| {
        let (index, count) = p.split_once('/')?;
        Some((index.parse().ok()?, count.parse().ok()?))
    });
    Raw {
        feed,
        kind: header(KIND).as_deref().and_then(Kind::parse),
        tick: number(TICK),
        seq: number(SEQ),
        part,
        body: message.payload.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Headers come from whoever publishes: the largest number, then any other, is counted
    /// without overflow (it panicked the reader in a debug build).
    #[test]
    fn any_sequence_numbers_are_counted_without_overflow() {
        let mut numbering = Numbering::default();
        assert_eq!(numbering.missed(Feed::State, 5), 0, "the first message starts the count");
        assert_eq!(numbering.missed(Feed::State, 9), 3);
        assert_eq!(numbering.missed(Feed::Trace, 1), 0, "each feed counts its own");
        assert_eq!(numbering.missed(Feed::State, u64::MAX), u64::MAX - 10);
        assert_eq!(numbering.missed(Feed::State, 3), 0);
        assert_eq!(numbering.missed(Feed::State, u64::MAX), u64::MAX - 4);
        assert_eq!(numbering.missed(Feed::State, u64::MAX), 0);
    }
}
