//! `limina bench --only audio`: the mixer's CPU per 10 ms of sound with 64 concurrent positional
//! sounds (on the audio thread), what handing a step's sounds to the audio thread adds to the
//! fixed step (the same world stepped with and without an audio backend, in one run), and the
//! TTS latency from `audio.speak` to its first sample for a 10-word line.

use std::time::Instant;

use super::bench::percentile;
use crate::audio::{Listener, MixFrame, Mixer, SpeechTiming};
use crate::host::{Engine, EngineConfig, Output};
use crate::world::sound::{Bus, SoundKind, SoundTable};

const SOUNDS: usize = 64;

fn positional_sounds() -> SoundTable {
    let mut table = SoundTable::default();
    for i in 0..SOUNDS {
        let angle = i as f64 / SOUNDS as f64 * std::f64::consts::TAU;
        let kind = if i % 8 == 0 { SoundKind::Ambient } else { SoundKind::Blip { freq: 220.0 + i as f64 * 15.0, secs: 10.0 } };
        let position = Some([angle.cos() * 6.0, 0.0, angle.sin() * 6.0]);
        table
            .play(kind, Bus::Sfx, 0.5, position, Some(50.0), &crate::world::ui::Writer { agent: "agt_bench", operator: true })
            .expect("room for 64");
    }
    table
}

fn mixer_cost() -> f64 {
    let table = positional_sounds();
    let frame = |tick| MixFrame {
        tick,
        listener: Listener::camera([0.0, 1.0, 8.0], [0.0, 0.0, 0.0]),
        bus_volumes: table.bus_volumes,
        sounds: std::sync::Arc::new(table.snapshot()),
    };
    let mut mixer = Mixer::new(SpeechTiming::Wait);
    let mut block = Vec::new();
    let mut us = Vec::new();
    for tick in 0..600 {
        let f = frame(tick);
        let t = Instant::now();
        mixer.mix(&f, &mut block);
        us.push(t.elapsed().as_secs_f64() * 1e6);
    }
    us.sort_by(f64::total_cmp);
    // One step's block is 1/60 s; scale to 10 ms.
    percentile(&us, 0.5) * 10.0 / (1000.0 / 60.0)
}

/// Which backend a step is measured with.
#[derive(Clone, Copy, PartialEq)]
enum Backend {
    Null,
    /// Real-time playback: the loop hands the step over and never waits.
    RealTime,
    /// Rendering to a file: the loop waits when the mixer is 64 steps behind.
    File,
}

fn step_cost(backend: Backend, churn: bool) -> anyhow::Result<f64> {
    let dir = tempfile_dir()?;
    let audio = match backend {
        Backend::Null => crate::audio::AudioBackend::Null,
        Backend::RealTime => crate::audio::AudioBackend::Device,
        Backend::File => crate::audio::AudioBackend::Wav(dir.join("bench.wav")),
    };
    let engine = Engine::new(EngineConfig { output: Output::Silent, audio, ..EngineConfig::new(super::project_root()) })?;
    let mut source = String::from(
        "for i = 1, 64 do local a = i / 64 * 6.283 limina.call(\"audio.playAt\", { freq = 200 + i * 10, secs = 10, position = { math.cos(a) * 6, 0, math.sin(a) * 6 } }) end",
    );
    source.push('\n');
    if churn {
        // One sound re-levelled every step: the snapshot handed over is rebuilt every step.
        source.push_str(
            "limina.on_step(function(tick) limina.call(\"audio.setVolume\", { handle = \"snd_0001\", volume = (tick % 10) / 10 }) end)\n",
        );
    }
    engine.run_source(&source, "bench_audio.lua")?;
    let mut us = Vec::new();
    for _ in 0..500 {
        let t = Instant::now();
        engine.step(1)?;
        us.push(t.elapsed().as_secs_f64() * 1e6);
    }
    let _ = engine.finish_audio();
    let _ = std::fs::remove_dir_all(&dir);
    us.sort_by(f64::total_cmp);
    Ok(percentile(&us, 0.5))
}

fn tempfile_dir() -> anyhow::Result<std::path::PathBuf> {
    let dir = std::env::temp_dir().join(format!("limina-bench-audio-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

pub fn run() -> anyhow::Result<()> {
    let mix = mixer_cost();
    outln!(
        "audio        mixer: {mix:.0} µs of CPU per 10 ms block with {SOUNDS} concurrent positional sounds (audio thread; {:.1}% of one core)",
        mix / 100.0
    );
    let (without, with) = (step_cost(Backend::Null, false)?, step_cost(Backend::RealTime, false)?);
    outln!(
        "audio        fixed step with those {SOUNDS} sounds: {without:.1} µs p50 without an audio backend, {with:.1} µs playing in real time (+{:.1} µs: the step handed to the audio thread; target <= 10 µs)",
        with - without
    );
    let (without, with) = (step_cost(Backend::Null, true)?, step_cost(Backend::RealTime, true)?);
    outln!(
        "audio        ... with one of them re-levelled every step (the snapshot rebuilt each step): {without:.1} µs without, {with:.1} µs playing (+{:.1} µs)",
        with - without
    );
    let file = step_cost(Backend::File, false)?;
    outln!(
        "audio        rendering the same to a WAV (--audio-out), the loop runs at the mixer's pace once it is 64 steps ahead: {file:.0} µs per step (offline only)"
    );
    if crate::audio::tts::available() {
        let line = "the quick brown hedgehog jumps over the lazy sleeping fox today";
        let mut ms = Vec::new();
        for _ in 0..5 {
            let t = Instant::now();
            let speech = crate::audio::tts::synthesize(line)?;
            let first = speech.samples.iter().position(|s| s.abs() > 0.01).unwrap_or(0);
            // First audible sample: synthesis time plus the leading silence in the samples.
            ms.push(t.elapsed().as_secs_f64() * 1e3 + first as f64 * 1e3 / f64::from(speech.rate));
        }
        ms.sort_by(f64::total_cmp);
        outln!(
            "audio        TTS (espeak-ng) latency from audio.speak to the first audible sample, 10-word line: {:.0} ms p50, {:.0} ms max of 5 (off the loop; the step never waits)",
            percentile(&ms, 0.5),
            ms[ms.len() - 1]
        );
    } else {
        outln!("audio        TTS latency: skipped (espeak-ng is not installed)");
    }
    Ok(())
}
