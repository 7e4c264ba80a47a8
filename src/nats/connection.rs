//! The connection to a NATS server, with the small tokio runtime it runs on. Callers are plain
//! std threads (an engine thread is no async task): every method blocks its caller, and the
//! client's tasks (and the log writers' and readers') run on the runtime's one worker thread.
//!
//! The client retries the first connection and reconnects without limit; a writer resends what
//! the server did not acknowledge (`writer`), so an outage only delays acknowledgements.

use std::sync::Arc;
use std::time::{Duration, Instant};

use async_nats::jetstream;

use super::{NatsError, NatsUrl};
use crate::redact::Redactor;

/// API requests (stream info, creation, gets) give up after this.
const API_TIMEOUT: Duration = Duration::from_secs(5);
/// A publish not acknowledged within this is resent (same id, so never stored twice). Short,
/// because a lost acknowledgement is only noticed through it; a slow server just sees resends
/// it answers as duplicates.
const ACK_TIMEOUT: Duration = Duration::from_secs(2);
/// Longest pause between reconnect attempts (the client's default backoff reaches 4 s, which a
/// server restart then waits out).
const MAX_RECONNECT_DELAY: Duration = Duration::from_millis(500);
/// A connection that answers no ping for two intervals is dropped and redialled (the default
/// 60 s leaves a silently dead network unnoticed for two minutes).
const PING_INTERVAL: Duration = Duration::from_secs(10);

/// A connection to one NATS server with JetStream. Cheap to clone (one connection shared).
#[derive(Clone)]
pub struct JetStream {
    pub(crate) inner: Arc<Inner>,
}

pub(crate) struct Inner {
    pub(crate) url: NatsUrl,
    pub(crate) client: async_nats::Client,
    /// For API requests.
    pub(crate) api: jetstream::Context,
    /// For publishes: the short acknowledgement timeout.
    pub(crate) publish: jetstream::Context,
    /// The client's messages with the credentials taken out (they should never hold them: the
    /// client is given them as options, not in the address; this is the second lock).
    pub(crate) redactor: Redactor,
    runtime: OwnedRuntime,
}

impl std::fmt::Debug for JetStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JetStream").field("url", &self.inner.url).field("connected", &self.is_connected()).finish()
    }
}

/// The runtime, shut down without waiting when the last handle goes: dropping a runtime
/// blocks, which panics inside another runtime's task.
struct OwnedRuntime(Option<tokio::runtime::Runtime>);

impl Drop for OwnedRuntime {
    fn drop(&mut self) {
        if let Some(runtime) = self.0.take() {
            runtime.shutdown_background();
        }
    }
}

impl JetStream {
    /// Connects to `url` and waits up to `timeout` for the first connection. The client keeps
    /// reconnecting after that for as long as the handle lives.
    pub fn connect(url: &NatsUrl, timeout: Duration) -> Result<JetStream, NatsError> {
        refuse_inside_runtime("connect")?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("limina-nats")
            .enable_all()
            .build()
            .map_err(|e| NatsError::Runtime { message: e.to_string() })?;
        let mut options = async_nats::ConnectOptions::new()
            .name("limina")
            .retry_on_initial_connect()
            .max_reconnects(None)
            .ping_interval(PING_INTERVAL)
            .reconnect_delay_callback(|attempts| {
                Duration::from_millis(50).saturating_mul(attempts.min(1000) as u32).min(MAX_RECONNECT_DELAY)
            });
        // The last thing the client or server complained about, for an operator reading why
        // no connection came (a wrong password is an "authorization violation").
        let complaint: Arc<std::sync::Mutex<Option<String>>> = Arc::default();
        let heard = complaint.clone();
        options = options.event_callback(move |event| {
            if matches!(event, async_nats::Event::ServerError(_) | async_nats::Event::ClientError(_)) {
                *heard.lock().unwrap_or_else(|p| p.into_inner()) = Some(event.to_string());
            }
            std::future::ready(())
        });
        options = match url.credentials() {
            None => options,
            Some(super::url::Credentials::UserPassword { user, password }) => options.user_and_password(user.clone(), password.clone()),
            Some(super::url::Credentials::Token(token)) => options.token(token.clone()),
        };
        let redactor = Redactor::new(url.credentials().map(|c| c.secrets()).unwrap_or_default());
        let address = url.server_address();
        let client = runtime.block_on(async move {
            let client = options.connect(address).await?;
            let deadline = Instant::now() + timeout;
            while client.connection_state() != async_nats::connection::State::Connected {
                if Instant::now() >= deadline {
                    return Ok(None);
                }
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            Ok::<_, async_nats::ConnectError>(Some(client))
        });
        let client = match client {
            Ok(Some(client)) => client,
            // With retry_on_initial_connect the client only fails on a malformed address.
            Ok(None) | Err(_) => {
                let last = complaint.lock().unwrap_or_else(|p| p.into_inner()).clone();
                let last_error = last.map(|text| crate::clip::to_bytes(&redactor.text(&text), 512).to_string());
                return Err(NatsError::Connect { url: url.to_string(), waited: timeout, last_error });
            }
        };
        // Building a context spawns its acknowledgement task: inside the runtime.
        let _inside = runtime.enter();
        let api = jetstream::context::ContextBuilder::new().timeout(API_TIMEOUT).build(client.clone());
        // A dropped (superseded) acknowledgement future holds its in-flight permit for
        // `ack_timeout`: kept as short as the wait itself.
        let publish = jetstream::context::ContextBuilder::new().timeout(ACK_TIMEOUT).ack_timeout(ACK_TIMEOUT).build(client.clone());
        drop(_inside);
        Ok(JetStream { inner: Arc::new(Inner { url: url.clone(), client, api, publish, redactor, runtime: OwnedRuntime(Some(runtime)) }) })
    }

    /// Whether the client holds a connection now (it reconnects by itself when not).
    pub fn is_connected(&self) -> bool {
        self.inner.client.connection_state() == async_nats::connection::State::Connected
    }

    /// The server's URL (without credentials).
    pub fn url(&self) -> &NatsUrl {
        &self.inner.url
    }

    /// The largest message payload the server takes (1 MiB by default).
    pub(crate) fn max_payload(&self) -> usize {
        self.inner.client.server_info().max_payload
    }

    pub(crate) fn runtime(&self) -> &tokio::runtime::Runtime {
        self.inner.runtime.0.as_ref().unwrap_or_else(|| unreachable!("the runtime lives as long as the handle"))
    }

    /// Runs `future` on the runtime and waits for it.
    pub(crate) fn block_on<F: std::future::Future>(&self, operation: &'static str, future: F) -> Result<F::Output, NatsError> {
        refuse_inside_runtime(operation)?;
        Ok(self.runtime().block_on(future))
    }

    /// A client error as text fit for an error message.
    pub(crate) fn message(&self, error: &dyn std::fmt::Display) -> String {
        let text = error.to_string();
        crate::clip::to_bytes(&self.inner.redactor.text(&text), 512).to_string()
    }
}

fn refuse_inside_runtime(operation: &'static str) -> Result<(), NatsError> {
    match tokio::runtime::Handle::try_current() {
        Ok(_) => Err(NatsError::InsideRuntime { operation }),
        Err(_) => Ok(()),
    }
}
