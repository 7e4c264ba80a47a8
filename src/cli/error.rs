//! How a subcommand ends: `Ok(())`, or a `CliError` that `main_with` prints and turns into the
//! process's exit code in one place (0 ok, 1 failure, 2 usage).

use std::fmt::Display;

use crate::host::EngineError;
use crate::script::ScriptError;

pub(crate) const EXIT_OK: i32 = 0;
pub(crate) const EXIT_FAILURE: i32 = 1;
pub(crate) const EXIT_USAGE: i32 = 2;

/// What every subcommand returns.
pub(crate) type CliResult = Result<(), CliError>;

/// Why a subcommand did not succeed.
#[derive(Debug)]
pub(crate) enum CliError {
    /// clap refused the arguments, or was asked for `--help` / `--version` (which exit 0).
    Args(clap::Error),
    /// The arguments parsed but name nothing usable (an unknown skill, a missing folder): exit 2.
    Usage(String),
    /// The command ran and failed: exit 1, printed as `error: message` and then the traceback
    /// (a script's), indented.
    Failed { message: String, traceback: Option<String> },
    /// The command failed and its own output already says how (failing tests, the broken line
    /// of a trace): exit 1, nothing more is printed.
    Reported,
}

impl CliError {
    pub(crate) fn usage(message: impl Display) -> Self {
        CliError::Usage(message.to_string())
    }

    pub(crate) fn failed(message: impl Display) -> Self {
        CliError::Failed { message: message.to_string(), traceback: None }
    }

    pub(crate) fn exit_code(&self) -> i32 {
        match self {
            CliError::Args(e) => e.exit_code(),
            CliError::Usage(_) => EXIT_USAGE,
            CliError::Failed { .. } | CliError::Reported => EXIT_FAILURE,
        }
    }

    /// Prints the error the way its kind is shown: clap's own text, or one `error:` line.
    pub(crate) fn report(&self) {
        match self {
            CliError::Args(e) => {
                let _ = e.print();
            }
            CliError::Usage(message) => super::report_error(message, None),
            CliError::Failed { message, traceback } => super::report_error(message, traceback.as_deref()),
            CliError::Reported => {}
        }
    }
}

/// A script's error keeps its traceback; the others are one line.
impl From<EngineError> for CliError {
    fn from(e: EngineError) -> Self {
        match e {
            EngineError::Script(e) => e.into(),
            other => CliError::failed(other),
        }
    }
}

impl From<ScriptError> for CliError {
    fn from(e: ScriptError) -> Self {
        CliError::Failed { message: e.message, traceback: e.traceback }
    }
}

impl From<crate::mcp::McpServerError> for CliError {
    fn from(e: crate::mcp::McpServerError) -> Self {
        CliError::failed(e)
    }
}

/// The process's exit code for a subcommand's result: the one place it is chosen.
pub(crate) fn exit_code(result: &CliResult) -> i32 {
    match result {
        Ok(()) => EXIT_OK,
        Err(e) => e.exit_code(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct Probe {
        #[arg(long)]
        n: u8,
    }

    fn args_error(args: &[&str]) -> CliError {
        CliError::Args(Probe::try_parse_from(args).expect_err("the probe refuses these arguments"))
    }

    #[test]
    fn each_outcome_has_its_exit_code() {
        assert_eq!(exit_code(&Ok(())), EXIT_OK);
        assert_eq!(exit_code(&Err(CliError::usage("no skill named 'x'"))), EXIT_USAGE);
        assert_eq!(exit_code(&Err(CliError::failed("demo.lua: boom"))), EXIT_FAILURE);
        assert_eq!(exit_code(&Err(CliError::Reported)), EXIT_FAILURE);
        assert_eq!(exit_code(&Err(args_error(&["probe", "--n", "x"]))), EXIT_USAGE, "a bad value is a usage error");
        assert_eq!(exit_code(&Err(args_error(&["probe", "--help"]))), EXIT_OK, "--help is not a failure");
    }

    #[test]
    fn a_script_error_keeps_its_traceback() {
        let e = EngineError::Script(ScriptError { message: "demo.lua:3: boom".into(), traceback: Some("stack".into()) });
        match CliError::from(e) {
            CliError::Failed { message, traceback } => {
                assert_eq!((message.as_str(), traceback.as_deref()), ("demo.lua:3: boom", Some("stack")));
            }
            other => panic!("expected a failure, got {other:?}"),
        }
        let e = EngineError::File { path: "demo.lua".into(), message: "cannot read".into() };
        assert!(matches!(CliError::from(e), CliError::Failed { message, traceback: None } if message == "demo.lua: cannot read"));
    }
}
