//! `limina trace verify FILE.jsonl`: re-read an exported (or live-appended) trace and check its
//! sha256 chain, naming the first broken line and exactly one reason.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::{EXIT_FAILURE, EXIT_OK, report_error};
use crate::trace::verify_jsonl;

#[derive(Debug, Args)]
pub struct TraceArgs {
    #[command(subcommand)]
    pub command: TraceCommand,
}

#[derive(Debug, Subcommand)]
pub enum TraceCommand {
    /// Verify a JSONL trace: prints `ok: N events` or the first broken line and why.
    Verify {
        /// The trace file (e.g. traces/builder.jsonl).
        file: PathBuf,
    },
}

pub fn run(args: &TraceArgs) -> i32 {
    match &args.command {
        TraceCommand::Verify { file } => verify(file),
    }
}

fn verify(file: &PathBuf) -> i32 {
    let bytes = match std::fs::read(file) {
        Ok(b) => b,
        Err(e) => {
            report_error(&format!("{}: cannot read: {e}", file.display()), None);
            return EXIT_FAILURE;
        }
    };
    match verify_jsonl(&bytes) {
        Ok(n) => {
            outln!("ok: {n} events");
            EXIT_OK
        }
        Err(f) => {
            outln!("{}:{}: {} ({})", file.display(), f.line, f.reason.as_str(), f.detail);
            EXIT_FAILURE
        }
    }
}
