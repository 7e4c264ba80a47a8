//! One JetStream stream per world: its name, its subject and its configuration. One stream per
//! world (not one stream for all) because nats-server 2.9 reads a filtered consumer that starts
//! mid-stream at ~2k messages/s when other subjects are interleaved (docs/durability.md), and
//! a world's log is read from a snapshot's sequence on every recovery.

use std::time::Duration;

use async_nats::jetstream::stream;

/// How long the server remembers a message id: a publish whose acknowledgement was lost is
/// resent with the same id within this window and answered as a duplicate, not stored twice.
pub(crate) const DUPLICATE_WINDOW: Duration = Duration::from_secs(120);

/// Why a text is no world name (`[a-z0-9][a-z0-9_-]{0,62}`, as `mcp`'s `WorldName`). The same
/// rule keeps it a valid stream-name part and subject token: no dots, wildcards, spaces or
/// slashes. `-` is allowed in both.
pub(crate) fn check_world(world: &str) -> Result<(), &'static str> {
    let Some(first) = world.bytes().next() else { return Err("its world name is empty") };
    if world.len() > 63 {
        return Err("its world name is longer than 63 characters");
    }
    if !(first.is_ascii_lowercase() || first.is_ascii_digit()) {
        return Err("its world name must start with a-z or 0-9");
    }
    if !world.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-') {
        return Err("its world name holds a character outside a-z, 0-9, '_' and '-' (a world name)");
    }
    Ok(())
}

/// `LIMINA_LOG_{world}`.
pub(crate) fn stream_name(world: &str) -> String {
    format!("LIMINA_LOG_{world}")
}

/// `limina.log.{world}`.
pub(crate) fn subject(world: &str) -> String {
    format!("limina.log.{world}")
}

/// File storage; a full stream refuses new messages rather than dropping old ones (a log that
/// lost its start is no log); nothing may delete a message; direct gets for reading single
/// messages from any replica.
pub(crate) fn config(world: &str) -> stream::Config {
    stream::Config {
        name: stream_name(world),
        subjects: vec![subject(world)],
        storage: stream::StorageType::File,
        discard: stream::DiscardPolicy::New,
        duplicate_window: DUPLICATE_WINDOW,
        deny_delete: true,
        deny_purge: true,
        allow_direct: true,
        ..Default::default()
    }
}

/// Why an existing stream cannot hold a world's log: something made it with settings under
/// which acknowledged messages can go (memory storage, limits that drop old messages, deletes or
/// purges allowed). None: it can.
pub(crate) fn unfit(found: &stream::Config) -> Option<String> {
    let mut why = Vec::new();
    if found.storage != stream::StorageType::File {
        why.push("its storage is not file".to_string());
    }
    if found.discard != stream::DiscardPolicy::New && (found.max_messages > 0 || found.max_bytes > 0 || !found.max_age.is_zero()) {
        why.push("it drops old messages at its limits".to_string());
    }
    if found.max_messages_per_subject > 0 || !found.max_age.is_zero() {
        why.push("messages expire or are capped per subject".to_string());
    }
    if !found.deny_delete {
        why.push("messages may be deleted".to_string());
    }
    if !found.deny_purge {
        why.push("it may be purged".to_string());
    }
    (!why.is_empty()).then(|| why.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn world_names_follow_the_world_rule() {
        for good in ["main", "w-1", "0_a", &"a".repeat(63)] {
            assert!(check_world(good).is_ok(), "{good}");
        }
        for bad in ["", "Main", "-a", "_a", "a.b", "a*", "a>", "a b", "a/b", &"a".repeat(64)] {
            assert!(check_world(bad).is_err(), "{bad}");
        }
        assert_eq!(stream_name("w-1"), "LIMINA_LOG_w-1");
        assert_eq!(subject("w-1"), "limina.log.w-1");
    }
}
