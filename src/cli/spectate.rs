//! `limina spectate nats://HOST:PORT/WORLD`: prints a world's feeds from NATS as JSON lines (a
//! recorder, an analytics consumer, and the reference for writing one), or with `--http ADDR`
//! serves the web viewer fed from them (`mcp::server::serve_relay`). It reads what a server run
//! with `--nats` publishes; it never talks to the server, so any number of them add no load to
//! the world.

use std::io::Write as _;
use std::time::Duration;

use clap::Args;
use serde_json::{Value, json};

use super::{CliError, CliResult};
use crate::nats::{Feed, JetStream, NatsUrl, Spectated, Spectator};

#[derive(Debug, Args)]
pub(crate) struct SpectateArgs {
    /// The NATS server and the world: nats://[USER:PASSWORD@|TOKEN@]HOST[:PORT]/WORLD.
    #[arg(value_name = "URL")]
    pub url: String,
    /// The state feed: a keyframe (the full state) every 300 ticks, deltas between (the
    /// default unless --trace alone is given).
    #[arg(long)]
    pub state: bool,
    /// The trace feed: the world's trace events, one line each.
    #[arg(long)]
    pub trace: bool,
    /// Stop after this many messages (a trace message may print several lines).
    #[arg(long, value_name = "N")]
    pub count: Option<u64>,
    /// Seconds to wait for the first connection to NATS.
    #[arg(long, value_name = "SECS", default_value_t = 10)]
    pub connect_timeout: u64,
    /// Serve the web viewer of the world at this address (HOST:PORT; port 0 picks one) instead
    /// of printing: a read-only relay of the feeds, for any number of browsers. It prints the
    /// link to open, with a token made for this run.
    #[arg(long, value_name = "HOST:PORT", conflicts_with_all = ["state", "trace", "count"])]
    pub http: Option<String>,
}

pub fn run(args: &SpectateArgs) -> CliResult {
    let url = NatsUrl::parse(&args.url).map_err(CliError::usage)?;
    let Some(world) = url.world().map(str::to_string) else {
        return Err(CliError::usage(format_args!("{url}: name the world: nats://HOST:PORT/WORLD")));
    };
    let bind = match &args.http {
        None => None,
        Some(addr) => Some(addr.parse::<std::net::SocketAddr>().map_err(|e| {
            CliError::usage(format_args!(
                "--http {}: {e}; give HOST:PORT, as 127.0.0.1:7780 (port 0 picks a free one)",
                crate::clip::shown(addr)
            ))
        })?),
    };
    if let Some(bind) = bind {
        let js = JetStream::connect(&url, Duration::from_secs(args.connect_timeout)).map_err(CliError::failed)?;
        let options = crate::mcp::server::RelayOptions { world: world.clone(), bind };
        return crate::mcp::server::serve_relay(&js, &options, |_, link| {
            // One line: callers read it for the address and may close the pipe after it.
            eprintln!("limina spectate: relaying world '{world}' from {url}; watch at {link} (a read-only token for this run)");
        })
        .map_err(CliError::failed);
    }
    let mut feeds = Vec::new();
    if args.state || !args.trace {
        feeds.push(Feed::State);
    }
    if args.trace {
        feeds.push(Feed::Trace);
    }
    let js = JetStream::connect(&url, Duration::from_secs(args.connect_timeout)).map_err(CliError::failed)?;
    let mut spectator = Spectator::subscribe(&js, &world, &feeds).map_err(CliError::failed)?;
    let stdout = std::io::stdout();
    let mut read = 0u64;
    while args.count.is_none_or(|n| read < n) {
        let Some(message) = spectator.next_within(Duration::from_secs(3600)).map_err(CliError::failed)? else { continue };
        read += 1;
        let mut out = stdout.lock();
        for line in lines(&message) {
            // A reader that went away (`| head`) ends the command quietly.
            if writeln!(out, "{line}").is_err() {
                return Ok(());
            }
        }
        if out.flush().is_err() {
            return Ok(());
        }
    }
    Ok(())
}

/// A message as the lines printed for it: the state message whole, or one line per trace event
/// (and gap line). A body that is not JSON is printed as text, so nothing is lost silently.
fn lines(message: &Spectated) -> Vec<Value> {
    let mut head = json!({"tick": message.tick, "seq": message.seq});
    if message.missed > 0 {
        head["missed"] = json!(message.missed);
    }
    match message.feed {
        Feed::State => {
            head["feed"] = json!("state");
            head["kind"] = json!(message.kind.as_str());
            head["message"] = serde_json::from_slice(&message.body).unwrap_or_else(|_| json!(String::from_utf8_lossy(&message.body)));
            vec![head]
        }
        Feed::Trace => {
            head["feed"] = json!("trace");
            message
                .body
                .split(|b| *b == b'\n')
                .filter(|line| !line.is_empty())
                .map(|line| {
                    let mut out = head.clone();
                    match serde_json::from_slice::<Value>(line) {
                        Ok(Value::Object(mut fields)) if fields.contains_key("gap") => {
                            out["gap"] = fields.remove("gap").unwrap_or_default()
                        }
                        Ok(event) => out["event"] = event,
                        Err(_) => out["text"] = json!(String::from_utf8_lossy(line)),
                    }
                    out
                })
                .collect()
        }
    }
}
