//! Admission: how much work a WebSocket connection may have handed the server and not yet got
//! back on its socket. Checked by the connection's handler before anything reaches the engine,
//! so a flood is refused at the door (a JSON-RPC `busy` error naming the limit) instead of
//! queueing without bound.
//!
//! A `CallPermit` is taken when a call arrives and released when its answer is in the
//! connection's send buffer (or the call was dropped): it counts calls waiting in the engine's
//! queue, running, and answered but not yet handed to the socket, so a client that sends without
//! reading cannot pile up answers either. A stream (`state/subscribe`, `subscriptions/listen`)
//! holds its permit until it closes, so streams count against the same limit for their whole
//! life (one credential held 90 stateless state streams when the permit was returned at setup). Limits are per connection (calls and bytes) plus one
//! byte limit for the whole server.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::json;

use crate::mcp::dispatcher::RpcError;
use crate::mcp::protocol;

/// A share of a counted resource (open connections, bytes of bodies being read) held until
/// dropped: taken only when the count stays within its limit, given back on drop.
#[derive(Debug)]
pub(super) struct Reservation {
    count: Arc<AtomicUsize>,
    amount: usize,
}

impl Reservation {
    pub fn take(count: &Arc<AtomicUsize>, amount: usize, limit: usize) -> Option<Self> {
        count
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |used| used.checked_add(amount).filter(|total| *total <= limit))
            .ok()
            .map(|_| Self { count: Arc::clone(count), amount })
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        self.count.fetch_sub(self.amount, Ordering::AcqRel);
    }
}

/// Calls one connection may have in flight (queued, running or answered but unsent).
pub const MAX_CALLS_PER_CONNECTION: usize = 64;
/// Request bytes one connection may have in flight.
pub const MAX_BYTES_PER_CONNECTION: usize = 16 << 20;
/// Request bytes all connections together may have in flight.
pub const MAX_BYTES_TOTAL: usize = 256 << 20;

/// What one connection has in flight.
#[derive(Debug, Default)]
pub(super) struct Load {
    calls: AtomicUsize,
    bytes: AtomicUsize,
}

/// What the whole server has in flight, and its limits.
#[derive(Debug)]
pub(super) struct Admission {
    bytes: AtomicUsize,
    calls_per_connection: usize,
    bytes_per_connection: usize,
    bytes_total: usize,
}

impl Default for Admission {
    fn default() -> Self {
        Self::with_limits(MAX_CALLS_PER_CONNECTION, MAX_BYTES_PER_CONNECTION, MAX_BYTES_TOTAL)
    }
}

/// Why a call was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Busy {
    Calls { limit: usize },
    Bytes { limit: usize, asked: usize },
    ServerBytes { limit: usize, asked: usize },
}

impl Busy {
    pub(crate) fn to_rpc_error(self) -> RpcError {
        let (message, data) = match self {
            Busy::Calls { limit } => (
                format!(
                    "busy: this connection already has {limit} calls waiting or unanswered and streams open (the limit is {limit} per connection; a stateless credential counts as one); send more once answers arrive or streams close"
                ),
                json!({"reason": "busy", "limit": "callsPerConnection", "max": limit}),
            ),
            Busy::Bytes { limit, asked } => (
                format!(
                    "busy: {asked} more request bytes would put this connection over its limit of {limit} bytes waiting or unanswered; send more once answers arrive"
                ),
                json!({"reason": "busy", "limit": "bytesPerConnection", "max": limit}),
            ),
            Busy::ServerBytes { limit, asked } => (
                format!(
                    "busy: the server already holds its limit of {limit} request bytes from all connections ({asked} more asked); retry shortly"
                ),
                json!({"reason": "busy", "limit": "bytesTotal", "max": limit}),
            ),
        };
        RpcError { code: protocol::BUSY, message, data: Some(data) }
    }
}

/// One admitted call; releases its share of the limits when dropped.
#[derive(Debug)]
pub(super) struct CallPermit {
    conn: Arc<Load>,
    server: Arc<Admission>,
    bytes: usize,
}

impl Admission {
    pub(crate) fn with_limits(calls_per_connection: usize, bytes_per_connection: usize, bytes_total: usize) -> Self {
        Self { bytes: AtomicUsize::new(0), calls_per_connection, bytes_per_connection, bytes_total }
    }

    /// Admits a call of `bytes` request bytes from the connection whose load is `conn`.
    pub(crate) fn admit(self: &Arc<Self>, conn: &Arc<Load>, bytes: usize) -> Result<CallPermit, Busy> {
        // Add first, then check what we added to: racing calls can be refused early, never let
        // in over a limit.
        if conn.calls.fetch_add(1, Ordering::AcqRel) >= self.calls_per_connection {
            conn.calls.fetch_sub(1, Ordering::AcqRel);
            return Err(Busy::Calls { limit: self.calls_per_connection });
        }
        if conn.bytes.fetch_add(bytes, Ordering::AcqRel).saturating_add(bytes) > self.bytes_per_connection {
            conn.bytes.fetch_sub(bytes, Ordering::AcqRel);
            conn.calls.fetch_sub(1, Ordering::AcqRel);
            return Err(Busy::Bytes { limit: self.bytes_per_connection, asked: bytes });
        }
        if self.bytes.fetch_add(bytes, Ordering::AcqRel).saturating_add(bytes) > self.bytes_total {
            self.bytes.fetch_sub(bytes, Ordering::AcqRel);
            conn.bytes.fetch_sub(bytes, Ordering::AcqRel);
            conn.calls.fetch_sub(1, Ordering::AcqRel);
            return Err(Busy::ServerBytes { limit: self.bytes_total, asked: bytes });
        }
        Ok(CallPermit { conn: Arc::clone(conn), server: Arc::clone(self), bytes })
    }
}

impl Drop for CallPermit {
    fn drop(&mut self) {
        self.conn.calls.fetch_sub(1, Ordering::AcqRel);
        self.conn.bytes.fetch_sub(self.bytes, Ordering::AcqRel);
        self.server.bytes.fetch_sub(self.bytes, Ordering::AcqRel);
    }
}

/// The size a call is charged for: its params as sent.
pub(super) fn request_bytes(params: Option<&str>) -> usize {
    params.map_or(0, str::len)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_connection_over_its_call_limit_is_told_busy_naming_the_limit() {
        let admission = Arc::new(Admission::with_limits(3, 1000, 10_000));
        let conn = Arc::new(Load::default());
        let permits: Vec<CallPermit> = (0..3).map(|_| admission.admit(&conn, 10).unwrap()).collect();
        let refused = admission.admit(&conn, 10).unwrap_err();
        assert_eq!(refused, Busy::Calls { limit: 3 });
        let e = refused.to_rpc_error();
        assert_eq!(e.code, protocol::BUSY);
        assert!(e.message.starts_with("busy:") && e.message.contains("limit is 3 per connection"), "{}", e.message);
        // Another connection is not affected; an answered call makes room again.
        assert!(admission.admit(&Arc::new(Load::default()), 10).is_ok());
        drop(permits);
        assert!(admission.admit(&conn, 10).is_ok());
    }

    #[test]
    fn bytes_are_bounded_per_connection_and_for_the_server() {
        let admission = Arc::new(Admission::with_limits(100, 1000, 1500));
        let a = Arc::new(Load::default());
        let b = Arc::new(Load::default());
        let first = admission.admit(&a, 900).unwrap();
        assert_eq!(admission.admit(&a, 200).unwrap_err(), Busy::Bytes { limit: 1000, asked: 200 });
        let _second = admission.admit(&b, 500).unwrap();
        assert_eq!(admission.admit(&b, 200).unwrap_err(), Busy::ServerBytes { limit: 1500, asked: 200 });
        drop(first);
        assert!(admission.admit(&b, 200).is_ok(), "released bytes are admitted again");
        // A refusal leaves no trace in the counts.
        assert_eq!(a.calls.load(Ordering::Acquire), 0);
        assert_eq!(a.bytes.load(Ordering::Acquire), 0);
    }
}
