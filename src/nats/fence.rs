//! The fence a new owner puts in a world's log before it serves: one message holding its
//! `owner` record, published only if the log still ends where the new owner read it. Once it is
//! in, every message of an earlier owner (whose expected last sequence is older) is refused by
//! the server, whatever that owner's clock says — paused, partitioned or slow — so no two owners
//! ever both have writes acknowledged after each other's.
//!
//! The message carries the header `Limina-Fence`: a reader drops the bytes of a line the
//! previous owner left half-written before it (its end was never published, so no client was
//! told it succeeded).

use std::future::IntoFuture;
use std::time::Duration;

use async_nats::jetstream::{context::PublishErrorKind, message::PublishMessage};
use bytes::Bytes;

use super::stream::{check_world, subject};
use super::{JetStream, NatsError};

/// The header that marks a fence message (its value: the epoch).
pub(crate) const FENCE_HEADER: &str = "Limina-Fence";
/// Attempts at one fence when the server does not answer (each waits for the ack timeout).
const ATTEMPTS: u32 = 5;

/// Where a fence went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fence {
    /// In the log at this sequence: write after it.
    Placed(u64),
    /// The log had grown past what was read (the previous owner's late write landed): read it
    /// again from the new end.
    Moved,
}

/// The fence's message id: `{world}.fence.{epoch}.{tag}`, the tag a hash of a secret of this
/// process's. The same in every call for the epoch (a resend finds its own fence), and
/// unguessable to others: a message published ahead of the fence under its id would be answered
/// as the fence stored (a duplicate) while holding someone else's bytes.
fn fence_id(world: &str, epoch: u64) -> String {
    use sha2::Digest as _;
    static SECRET: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let secret = SECRET.get_or_init(|| crate::unguessable::hex(16));
    let digest =
        sha2::Sha256::new().chain_update(secret.as_bytes()).chain_update(world.as_bytes()).chain_update(epoch.to_le_bytes()).finalize();
    let tag: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
    format!("{world}.fence.{epoch}.{tag}")
}

/// Publishes `line` (one record, ending in a newline) as the message right after `after`, as
/// the owner of `epoch`. Resending after a lost acknowledgement is exact: the message id is the
/// epoch's own (`fence_id`), and the server answers a stored copy as a duplicate.
pub fn place(js: &JetStream, world: &str, after: u64, epoch: u64, line: &[u8]) -> Result<Fence, NatsError> {
    check_world(world).map_err(|why| NatsError::BadWorld { world: crate::clip::shown(world), why })?;
    let publish = js.inner.publish.clone();
    let (subject, payload) = (subject(world), Bytes::copy_from_slice(line));
    let id = fence_id(world, epoch);
    let mut last_error = String::new();
    for attempt in 0..ATTEMPTS {
        let message = PublishMessage::build()
            .payload(payload.clone())
            .message_id(id.clone())
            .expected_last_subject_sequence(after)
            .header(FENCE_HEADER, epoch.to_string());
        let publish = publish.clone();
        let subject = subject.clone();
        let answer = js.block_on("fence", async move {
            let future = publish.send_publish(subject, message).await?;
            future.into_future().await
        })?;
        match answer {
            Ok(ack) if ack.sequence == after + 1 => return Ok(Fence::Placed(ack.sequence)),
            Ok(ack) => {
                return Err(NatsError::Refused {
                    world: world.to_string(),
                    sequence: after + 1,
                    message: format!("the fence was stored at sequence {}, not {}", ack.sequence, after + 1),
                });
            }
            Err(e) if e.kind() == PublishErrorKind::WrongLastSequence => return Ok(Fence::Moved),
            Err(e) => {
                last_error = js.message(&e);
                if attempt + 1 < ATTEMPTS {
                    std::thread::sleep(Duration::from_millis(100));
                }
            }
        }
    }
    Err(NatsError::Refused {
        world: world.to_string(),
        sequence: after + 1,
        message: format!("the fence was not acknowledged: {last_error}"),
    })
}
