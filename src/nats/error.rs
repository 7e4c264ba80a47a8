//! What can go wrong talking to JetStream, with the values that caused it. No async-nats type
//! appears here: the client's errors are kept as their (credential-free) text.

use std::time::Duration;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NatsError {
    #[error("'{url}' is not a NATS URL: {why}")]
    BadUrl { url: String, why: &'static str },
    #[error("'{world}' is not a world name: {why}")]
    BadWorld { world: String, why: &'static str },
    #[error(
        "no connection to {url} within {waited:?} ({})",
        last_error.as_ref().map_or("is nats-server running there with -js?".to_string(), |e| format!("last error: {e}"))
    )]
    Connect { url: String, waited: Duration, last_error: Option<String> },
    #[error("the NATS client's runtime could not start: {message}")]
    Runtime { message: String },
    #[error("the NATS client blocks its caller and cannot be called from inside a tokio runtime ({operation})")]
    InsideRuntime { operation: &'static str },
    #[error("world {world}: JetStream stream {stream} at {url}: {operation} failed: {message}")]
    Stream { world: String, stream: String, url: String, operation: &'static str, message: String },
    #[error(
        "world {world}: another writer has written the log: this writer's message {sequence} expected the last \
         sequence to be {expected}, the stream's last sequence is {}; this writer acknowledges nothing more",
        found.map_or("unknown".to_string(), |f| f.to_string())
    )]
    Fenced { world: String, writer: u64, sequence: u64, expected: u64, found: Option<u64> },
    #[error(
        "world {world}: the stream lost acknowledged messages: this writer's message {sequence} expected the last \
         sequence to be {expected}, the stream's last sequence is {found}; this writer acknowledges nothing more"
    )]
    Lost { world: String, writer: u64, sequence: u64, expected: u64, found: u64 },
    #[error("world {world}: message {sequence} was refused for good: {message}")]
    Refused { world: String, sequence: u64, message: String },
    #[error("world {world}: {bytes} more bytes would pass the backlog of {limit} bytes not yet acknowledged ({waiting} wait)")]
    Backlog { world: String, bytes: u64, waiting: u64, limit: u64 },
    #[error(
        "world {world}: {waiting} bytes still unacknowledged after {waited:?} (the client is {}{})",
        if *connected { "connected" } else { "not connected" },
        last_retry.as_ref().map_or(String::new(), |r| format!("; last retry because: {r}"))
    )]
    Timeout { world: String, waited: Duration, waiting: u64, connected: bool, last_retry: Option<String> },
    #[error("world {world}: no command log on JetStream (stream {stream} is missing or empty)")]
    NoLog { world: String, stream: String },
    #[error("world {world}: the log ends at sequence {last}, reading up to {end} was asked")]
    ShortLog { world: String, end: u64, last: u64 },
    #[error("world {world}: reading the log at sequence {sequence}: {message}")]
    Read { world: String, sequence: u64, message: String },
    #[error("world {world}: the fleet's buckets at {url}: {operation} failed: {message}")]
    Lease { world: String, url: String, operation: &'static str, message: String },
    #[error("world {world}: the log writer has stopped")]
    Closed { world: String },
}
