//! `limina trace verify FILE.jsonl [--anchor sha256:…] [--live]`: re-read an exported (or
//! live-appended) trace and check its sha256 chain and seal, naming the first broken line and
//! exactly one reason.
//!
//! A sealed file prints its anchor (the seal's hash). The chain has no key, so anyone who can
//! write the file can rewrite and re-seal it whole; comparing against the anchor kept at export
//! time (`--anchor`) is what catches that. An unsealed file is refused as `truncated` unless
//! `--live` says it may be a log that is still being written.

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};

use super::{CliError, CliResult};
use crate::trace::{Anchor, VerifyReason, require_seal};

#[derive(Debug, Args)]
pub(crate) struct TraceArgs {
    #[command(subcommand)]
    pub command: TraceCommand,
}

#[derive(Debug, Subcommand)]
pub(crate) enum TraceCommand {
    /// Verify a JSONL trace: prints `ok: N events, sealed (anchor sha256:…)` or the first broken
    /// line and why.
    Verify {
        /// The trace file (e.g. traces/builder.jsonl).
        file: PathBuf,
        /// The anchor kept when the trace was exported; the file's seal must hash to it.
        #[arg(long, value_name = "sha256:HEX", conflicts_with = "live")]
        anchor: Option<Anchor>,
        /// Accept a file without a seal (a live `--trace` log still being written), reporting
        /// it as unsealed: its end cannot be shown to be complete.
        #[arg(long)]
        live: bool,
    },
}

pub fn run(args: &TraceArgs) -> CliResult {
    match &args.command {
        TraceCommand::Verify { file, anchor, live } => verify(file, anchor.as_ref(), *live),
    }
}

fn verify(file: &Path, anchor: Option<&Anchor>, live: bool) -> CliResult {
    // Read a line at a time (a trace can be larger than memory); a regular file only.
    let chained = crate::trace::verify_file(file).map_err(|e| CliError::failed(format_args!("{}: cannot read: {e}", file.display())))?;
    let verified = if live { chained } else { chained.and_then(|v| require_seal(v, anchor)) };
    match verified {
        Ok(v) => {
            match (v.seal, anchor) {
                (Some(seal), Some(_)) => outln!("ok: {} events, sealed (anchor {seal} matches)", v.events),
                (Some(seal), None) => outln!("ok: {} events, sealed (anchor {seal})", v.events),
                (None, _) => outln!("ok: {} events, unsealed (possibly truncated or still being written)", v.events),
            }
            Ok(())
        }
        Err(f) => {
            outln!("{}:{}: {} ({})", file.display(), f.line, f.reason.as_str(), f.detail);
            if f.reason == VerifyReason::Truncated {
                outln!("hint: a live --trace log is sealed when its engine exits; pass --live to check one that is still open");
            }
            Err(CliError::Reported)
        }
    }
}
