//! `limina run FILE`: run a demo script, or load a scene file (`host::FileRun`), headless, and
//! print a summary.

use std::path::PathBuf;

use clap::Args;
use mlua::Value as LuaValue;

use super::{CliError, CliResult};
use crate::host::{Engine, EngineConfig, EngineError, FileRun};

/// Frames a headless run takes when the script registered callbacks but set no count.
pub(crate) const DEFAULT_HEADLESS_FRAMES: u64 = 600;

#[derive(Debug, Args)]
pub(crate) struct RunArgs {
    /// The Luau script or scene file to run (e.g. demos/billiards.lua); or a world to continue:
    /// a snapshot file, or the folder of a logged run (recovered first, as `limina recover`
    /// does). A continued world runs no script; with --log, the new log starts from it.
    pub file: PathBuf,
    /// Exit after N frames (headless: one fixed step per frame; `--steps` says the same).
    #[arg(long, value_name = "N", visible_alias = "steps")]
    pub frames: Option<u64>,
    /// Permission profile the script acts under.
    #[arg(long, value_name = "P", value_enum, default_value = "builder.readWrite")]
    pub profile: crate::policy::Profile,
    /// Seed for math.random and limina.seed().
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Append the world log to FILE as it happens (sha256-chained JSONL; `limina trace verify`).
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// The decision provider the script's agents use (`limina.provider()`): scripted, ollama
    /// (LIMINA_OLLAMA_URL) or openai (LIMINA_OPENAI_BASE_URL, LIMINA_OPENAI_API_KEY).
    #[arg(long, value_name = "NAME", value_enum, default_value = "scripted")]
    pub provider: super::ProviderArg,
    /// Mods and packages root (default: ./scripts).
    #[arg(long, value_name = "DIR")]
    pub scripts: Option<PathBuf>,
    /// After the frames, render the world headless and save a PNG (needs a Vulkan driver;
    /// Mesa's CPU driver works).
    #[arg(long, value_name = "OUT.png")]
    pub screenshot: Option<PathBuf>,
    /// Render everything the run played to a WAV file (44.1 kHz, 16-bit stereo), sample-accurate:
    /// the same script and seed give the same bytes.
    #[arg(long, value_name = "OUT.wav")]
    pub audio_out: Option<PathBuf>,
    /// Open a window and run in real time (Escape quits).
    #[arg(long)]
    pub window: bool,
    /// With --window: borderless fullscreen.
    #[arg(long, requires = "window")]
    pub fullscreen: bool,
    /// Image or window width in pixels.
    #[arg(long, default_value_t = 1280, value_parser = clap::value_parser!(u32).range(16..=8192))]
    pub width: u32,
    /// Image or window height in pixels.
    #[arg(long, default_value_t = 720, value_parser = clap::value_parser!(u32).range(16..=8192))]
    pub height: u32,
    /// Run in real time and serve the world on this port (127.0.0.1) for watching: the live web
    /// viewer at http://127.0.0.1:PORT/ (a link with a read-only token made for this run is
    /// printed), and MCP over HTTP and WebSocket as `limina mcp --http` does. Runs until stopped.
    #[arg(long, value_name = "PORT", conflicts_with_all = ["window", "screenshot", "audio_out", "frames", "trace", "seed", "provider"])]
    pub serve: Option<u16>,
    /// With --serve: a tokens file (`TOKEN PROFILE` lines, as `limina mcp --tokens`) for other
    /// clients; without it only the printed viewer link's token is accepted.
    #[arg(long, value_name = "FILE", requires = "serve")]
    pub tokens: Option<PathBuf>,
    #[command(flatten)]
    pub log: super::durable::LogArgs,
}

pub fn run(args: &RunArgs) -> CliResult {
    args.log.one_world("limina run")?;
    if let Some(port) = args.serve {
        return serve(args, port);
    }
    let summary = run_headless(args)?;
    outln!("summary: ticks={} entities={} bodies={} world_hash={}", summary.ticks, summary.entities, summary.bodies, summary.world_hash);
    Ok(())
}

/// `limina run FILE --serve PORT`: the script builds the world on a network server's engine, which
/// then runs in real time; a read-only token is made for the viewer link (printed once the port
/// is bound, on the terminal that started the run, so only its user holds it) and every client
/// needs a token.
fn serve(args: &RunArgs, port: u16) -> CliResult {
    use crate::mcp::server::{self, ServerOptions};
    use crate::mcp::{ToolsMode, WorldStart};
    let project = super::project_root();
    let file = super::project::in_project(&project, &args.file, true);
    if !file.is_file() {
        return Err(CliError::usage(format_args!("{}: no such script or scene file", args.file.display())));
    }
    if let Some(what) = crate::host::FileKind::of(&file).not_a_script() {
        return Err(CliError::usage(format_args!("--serve runs a script or scene file: {}: {what}", args.file.display())));
    }
    server::serve_blocking(&ServerOptions {
        tokens: args.tokens.as_deref().map(|p| super::project::in_project(&project, p, true)),
        viewer_token: Some(crate::unguessable::hex(16)),
        project,
        bind: "127.0.0.1".into(),
        port,
        profile: args.profile,
        grant: crate::policy::PermissionSet::default(),
        paused: false,
        start: WorldStart::File(file),
        publish_deltas: true,
        scripts: super::scripts_root(args.scripts.as_deref()),
        call_budget: crate::host::CALL_BUDGET,
        allow_origins: Vec::new(),
        tools: ToolsMode::Core,
        log: args.log.config(),
        log_dir: None,
        nats: None,
        nats_log: None,
        worlds: Vec::new(),
        admin_token: None,
        fleet: None,
    })?;
    Ok(())
}

/// Why `--window` or `--screenshot` could not produce its output.
#[derive(Debug, thiserror::Error)]
enum OutputError {
    #[cfg(not(feature = "render"))]
    #[error("{flag} needs a limina built with the `render` feature")]
    NoRender { flag: &'static str },
    /// The window's own reason (`host::window::run`).
    #[cfg(feature = "render")]
    #[error("{0}")]
    Window(#[source] crate::host::window::WindowError),
    #[cfg(feature = "render")]
    #[error(transparent)]
    Render(#[from] crate::render::RenderError),
    #[cfg(feature = "render")]
    #[error("cannot write: {0}")]
    Write(#[source] std::io::Error),
}

fn run_headless(args: &RunArgs) -> Result<crate::host::RunSummary, CliError> {
    use crate::host::FileKind;
    let resume = if args.file.is_dir() || FileKind::of(&args.file) == FileKind::Snapshot {
        Some(super::durable::resume(&args.file, args.log.log.as_deref())?)
    } else if let Some(what) = FileKind::of(&args.file).not_a_script() {
        return Err(CliError::usage(format_args!("{}: {what}", args.file.display())));
    } else {
        None
    };
    let extra_roots =
        args.file.parent().map(|p| vec![if p.as_os_str().is_empty() { PathBuf::from(".") } else { p.to_path_buf() }]).unwrap_or_default();
    let config = EngineConfig {
        seed: args.seed,
        profile: args.profile,
        extra_roots,
        trace_append: args.trace.clone(),
        scripts: super::scripts_root(args.scripts.as_deref()),
        watch_scripts: true,
        provider: args.provider.kind(),
        audio: match (&args.audio_out, args.window) {
            (Some(path), _) => crate::audio::AudioBackend::Wav(path.clone()),
            // Real time in a window: the device (LIMINA_AUDIO=null for silence).
            (None, true) => crate::audio::AudioBackend::real_time(),
            // Headless runs step faster than real time: nothing to hear.
            (None, false) => crate::audio::AudioBackend::Null,
        },
        log: args.log.config(),
        resume: resume.clone(),
        ..EngineConfig::new(super::project_root())
    };
    let engine = Engine::new(config)?;
    let display = args.file.display().to_string();
    let script_frames = if resume.is_some() {
        outln!("resume: {display}: tick {}, {} entities, world_hash={}", engine.tick(), engine.world().entity_count(), engine.world_hash());
        None
    } else {
        match engine.run_or_load_file(&args.file)? {
            FileRun::Scene(loaded) => {
                outln!("scene: {display}: {} entities loaded through {} skill calls", loaded.created.len(), loaded.calls);
                None
            }
            FileRun::Script(returned) => script_config(&returned, &display)?,
        }
    };
    let frames = args.frames.or(script_frames).unwrap_or(if engine.has_callbacks() { DEFAULT_HEADLESS_FRAMES } else { 0 });
    if args.window {
        run_window(&engine, args.frames.or(script_frames), args).map_err(|e| CliError::failed(format_args!("{display}: {e}")))?;
        finish_audio(&engine, args)?;
        return Ok(engine.summary());
    }
    for _ in 0..frames {
        if engine.quit_requested() {
            break;
        }
        engine.step(1)?;
    }
    if let Some(out) = &args.screenshot {
        screenshot(&engine, out, args).map_err(|e| CliError::failed(format_args!("{}: {e}", out.display())))?;
    }
    finish_audio(&engine, args)?;
    engine.make_durable().map_err(EngineError::from)?;
    Ok(engine.summary())
}

/// Writes the `--audio-out` file and says what it holds (and any line the voice could not say).
fn finish_audio(engine: &Engine, args: &RunArgs) -> CliResult {
    let Some(report) = engine.finish_audio() else { return Ok(()) };
    let Some(out) = &args.audio_out else {
        if let Some(error) = report.error {
            eprintln!("audio: {error} (played silently)");
        }
        return Ok(());
    };
    for failure in &report.speech_failures {
        eprintln!("audio: a spoken line was not synthesized: {failure}");
    }
    if let Some(error) = report.error {
        return Err(CliError::failed(format_args!("{}: {error}", out.display())));
    }
    eprintln!(
        "audio: {} ({:.2} s, 44.1 kHz stereo, peak {:.2})",
        out.display(),
        report.frames as f64 / f64::from(crate::audio::synth::SAMPLE_RATE),
        report.peak
    );
    Ok(())
}

#[cfg(feature = "render")]
fn run_window(engine: &Engine, frames: Option<u64>, args: &RunArgs) -> Result<(), OutputError> {
    crate::host::window::run(engine, frames, args.width, args.height, args.fullscreen).map_err(OutputError::Window)
}

#[cfg(feature = "render")]
fn screenshot(engine: &Engine, out: &std::path::Path, args: &RunArgs) -> Result<(), OutputError> {
    let png = engine.capture_png(args.width, args.height)?;
    std::fs::write(out, png).map_err(OutputError::Write)?;
    eprintln!("screenshot: {} ({}x{}, {} draw calls)", out.display(), args.width, args.height, engine.render_stats().draw_calls);
    Ok(())
}

#[cfg(not(feature = "render"))]
fn run_window(_: &Engine, _: Option<u64>, _: &RunArgs) -> Result<(), OutputError> {
    Err(OutputError::NoRender { flag: "--window" })
}

#[cfg(not(feature = "render"))]
fn screenshot(_: &Engine, _: &std::path::Path, _: &RunArgs) -> Result<(), OutputError> {
    Err(OutputError::NoRender { flag: "--screenshot" })
}

/// A script returns nothing, or a config table `{ frames = N }`.
fn script_config(returned: &LuaValue, display: &str) -> Result<Option<u64>, EngineError> {
    let bad = |message: String| EngineError::File { path: display.to_string(), message };
    match returned {
        LuaValue::Nil => Ok(None),
        LuaValue::Table(t) => {
            let mut frames = None;
            for pair in t.pairs::<LuaValue, LuaValue>() {
                let (k, v) = pair.map_err(|e| bad(e.to_string()))?;
                let key = k.as_string().map(|s| s.to_string_lossy()).unwrap_or_else(|| format!("{k:?}"));
                match (key.as_str(), v) {
                    ("frames", LuaValue::Integer(n)) if n >= 0 => frames = Some(n as u64),
                    ("frames", other) => {
                        return Err(bad(format!(
                            "the returned config's frames must be a whole number >= 0, got {}",
                            crate::script::lua_type_name(&other)
                        )));
                    }
                    (other, _) => {
                        return Err(bad(format!("the returned config has an unknown field '{other}' (known: frames)")));
                    }
                }
            }
            Ok(frames)
        }
        other => Err(bad(format!(
            "the script returned a {}; a script returns nothing or a config table like {{ frames = 600 }}",
            crate::script::lua_type_name(other)
        ))),
    }
}
