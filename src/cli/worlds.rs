//! `limina worlds list | create | show | retire`: the operator's client of a running server's
//! admin path (`/admin/worlds`). Everything it does, an HTTP client can do with the same token;
//! this only spares writing the requests. The token comes from a file (`--admin-token FILE`, as
//! the server was given), never from the command line, where other users could read it.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Subcommand};
use serde_json::{Value, json};

use super::{CliError, CliResult};

#[derive(Debug, Args)]
pub(crate) struct WorldsArgs {
    /// The server: its address as `limina mcp` printed it (http://HOST:PORT).
    #[arg(long, value_name = "URL", default_value = "http://127.0.0.1:7777", global = true)]
    pub server: String,
    /// A file whose first line is the admin token (the server's --admin-token file).
    #[arg(long, value_name = "FILE", global = true)]
    pub admin_token: Option<PathBuf>,
    #[command(subcommand)]
    pub command: WorldsCommand,
}

#[derive(Debug, Subcommand)]
pub(crate) enum WorldsCommand {
    /// Every world the server serves, with its state, tick and steps per second.
    List,
    /// A world's tick, world hash and entity count, computed on its engine thread.
    Show { name: String },
    /// Start a world: from the default world (a ground, a light and a camera), nothing, a
    /// scene or script file, or a snapshot or logged run's folder (paths in the server's project).
    Create {
        name: String,
        /// `default`, `empty`, `scene:FILE` or `resume:SNAPSHOT|DIR`.
        #[arg(long, value_name = "FROM", default_value = "default")]
        from: String,
        /// Start with the clock stopped.
        #[arg(long)]
        paused: bool,
        /// Milliseconds of each step its clients' calls may use.
        #[arg(long, value_name = "MS")]
        call_budget_ms: Option<f64>,
    },
    /// Stop serving a world: calls it holds are answered with an error, its log is made
    /// durable, and its final tick and hash are printed.
    Retire { name: String },
}

/// How long one admin request may take (a creation builds an engine; a resume may recover a run).
const TIMEOUT: Duration = Duration::from_secs(300);

pub fn run(args: &WorldsArgs) -> CliResult {
    let token = match &args.admin_token {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| CliError::usage(format_args!("--admin-token {}: cannot read: {e}", path.display())))?;
            Some(text.lines().next().unwrap_or_default().trim().to_string())
        }
        None => None,
    };
    let base = args.server.trim_end_matches('/');
    let (method, path, body) = match &args.command {
        WorldsCommand::List => (reqwest::Method::GET, "/admin/worlds".to_string(), None),
        WorldsCommand::Show { name } => (reqwest::Method::GET, format!("/admin/worlds/{name}"), None),
        WorldsCommand::Retire { name } => (reqwest::Method::DELETE, format!("/admin/worlds/{name}"), None),
        WorldsCommand::Create { name, from, paused, call_budget_ms } => {
            let from = match from.split_once(':') {
                None if from == "default" || from == "empty" => json!(from),
                Some(("scene", file)) => json!({"scene": file}),
                Some(("resume", what)) => json!({"resume": what}),
                _ => return Err(CliError::usage(format_args!("--from {from}: give default, empty, scene:FILE or resume:SNAPSHOT|DIR"))),
            };
            let mut body = json!({"name": name, "from": from, "paused": paused});
            if let Some(ms) = call_budget_ms {
                body["callBudgetMs"] = json!(ms);
            }
            (reqwest::Method::POST, "/admin/worlds".to_string(), Some(body))
        }
    };
    let url = format!("{base}{path}");
    crate::agents::provider::install_crypto_provider();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(CliError::failed)?;
    let (status, text) = runtime
        .block_on(async {
            let client = reqwest::Client::builder().no_proxy().timeout(TIMEOUT).build().map_err(|e| e.to_string())?;
            let mut req = client.request(method, &url);
            if let Some(token) = &token {
                req = req.bearer_auth(token);
            }
            if let Some(body) = body {
                req = req.header("content-type", "application/json").body(body.to_string());
            }
            let answer = req.send().await.map_err(|e| format!("{url}: {e}"))?;
            let status = answer.status();
            let text = answer.text().await.map_err(|e| format!("{url}: {e}"))?;
            Ok::<_, String>((status, text))
        })
        .map_err(CliError::failed)?;
    if !status.is_success() {
        return Err(CliError::failed(format!("{url}: {status}: {}", crate::clip::shown(text.trim()))));
    }
    let value: Value = serde_json::from_str(&text).unwrap_or(Value::String(text));
    print_answer(&args.command, &value);
    Ok(())
}

fn print_answer(command: &WorldsCommand, value: &Value) {
    let text = |v: &Value| v.as_str().map(String::from).unwrap_or_else(|| v.to_string());
    match command {
        WorldsCommand::List => {
            for w in value["worlds"].as_array().into_iter().flatten() {
                let why = w.get("why").map(|why| format!(" ({})", text(why))).unwrap_or_default();
                outln!(
                    "{:<24} {:<8} tick {:<10} {:>5} steps/s  {}{why}",
                    text(&w["name"]),
                    text(&w["state"]),
                    w["tick"],
                    w["stepsPerSecond"],
                    text(&w["mcp"])
                );
            }
        }
        WorldsCommand::Create { .. } => {
            outln!("created {}: MCP at {}, viewer at {}", text(&value["name"]), text(&value["mcp"]), text(&value["viewer"]))
        }
        WorldsCommand::Show { .. } | WorldsCommand::Retire { .. } => {
            outln!("{}", serde_json::to_string_pretty(value).unwrap_or_default());
        }
    }
}
