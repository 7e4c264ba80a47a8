//! Sound measured in rendered WAVs: panning follows the camera listener, distance attenuates as
//! 1/d² in power, maxDistance silences, bus and sound volumes scale the level, stop silences, the
//! same script gives the same bytes, and espeak-ng speech is heard on the voice bus, positioned.

use limina::audio::AudioBackend;
use limina::host::{Engine, EngineConfig, Output};
use limina::skills::Caller;
use serde_json::{Value, json};

/// Runs `script` for `ticks` with the camera at the origin looking down -z, rendering to a WAV;
/// returns the engine (for the trace) and the interleaved stereo samples.
fn render(script: &str, ticks: u64) -> (Engine, Vec<i16>, Vec<u8>) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.wav");
    let config = EngineConfig { output: Output::Silent, audio: AudioBackend::Wav(out.clone()), ..EngineConfig::new(crate::root()) };
    let e = Engine::new(config).unwrap();
    let camera = r#"assert(limina.call("render.setCamera", { position = { 0, 0, 0 }, target = { 0, 0, -1 }, fov = 60 }).success)"#;
    e.run_source(&format!("{camera}\n{script}"), "audio_test.lua").unwrap();
    e.step(ticks).unwrap();
    let report = e.finish_audio().unwrap();
    assert!(report.error.is_none(), "{:?}", report.error);
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(&bytes[0..4], b"RIFF");
    let samples = bytes[44..].chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect();
    (e, samples, bytes)
}

/// RMS of the left and right channels over frames `from..to`.
fn rms(samples: &[i16], from: usize, to: usize) -> (f64, f64) {
    let (mut l, mut r) = (0.0, 0.0);
    for f in from..to {
        l += f64::from(samples[2 * f]).powi(2);
        r += f64::from(samples[2 * f + 1]).powi(2);
    }
    let n = (to - from) as f64;
    ((l / n).sqrt(), (r / n).sqrt())
}

/// A blip's window: 0.05-0.25 s (past the attack, before much decay).
fn blip_rms(script: &str) -> (f64, f64) {
    let (_, s, _) = render(script, 30);
    rms(&s, 2205, 11025)
}

fn play_at(x: f64, z: f64, extra: &str) -> String {
    format!(r#"assert(limina.call("audio.playAt", {{ freq = 440, secs = 1, position = {{ {x}, 0, {z} }} {extra} }}).success)"#)
}

#[test]
fn a_sound_on_the_right_is_louder_in_the_right_channel_and_straight_ahead_is_even() {
    let (l, r) = blip_rms(&play_at(3.0, 0.0, ""));
    assert!(r > 10.0 * l.max(1.0), "right {r} left {l}");
    let (l, r) = blip_rms(&play_at(-3.0, 0.0, ""));
    assert!(l > 10.0 * r.max(1.0), "left {l} right {r}");
    let (l, r) = blip_rms(&play_at(0.0, -3.0, ""));
    assert!(l > 100.0 && (l - r).abs() <= 1.0, "ahead: {l} {r}");
}

#[test]
fn doubling_the_distance_quarters_the_power_and_past_max_distance_is_silence() {
    let near = blip_rms(&play_at(0.0, -4.0, ""));
    let far = blip_rms(&play_at(0.0, -8.0, ""));
    let ratio = (near.0.powi(2) + near.1.powi(2)) / (far.0.powi(2) + far.1.powi(2));
    assert!((ratio - 4.0).abs() < 0.1, "power ratio {ratio}");
    let beyond = blip_rms(&play_at(0.0, -8.0, ", maxDistance = 7.5"));
    assert_eq!(beyond, (0.0, 0.0));
    let within = blip_rms(&play_at(0.0, -8.0, ", maxDistance = 8.5"));
    assert!(within.0 > 100.0);
}

#[test]
fn sound_and_bus_volumes_scale_the_level() {
    let full = blip_rms(&play_at(0.0, -2.0, ""));
    let half = blip_rms(&play_at(0.0, -2.0, ", volume = 0.5"));
    assert!((half.0 / full.0 - 0.5).abs() < 0.01, "{half:?} {full:?}");
    let bus =
        format!("assert(limina.call(\"audio.setBusVolume\", {{ bus = \"sfx\", volume = 0.25 }}).success)\n{}", play_at(0.0, -2.0, ""));
    let quarter = blip_rms(&bus);
    assert!((quarter.0 / full.0 - 0.25).abs() < 0.01);
    let master =
        format!("assert(limina.call(\"audio.setBusVolume\", {{ bus = \"master\", volume = 0.5 }}).success)\n{}", play_at(0.0, -2.0, ""));
    assert!((blip_rms(&master).0 / full.0 - 0.5).abs() < 0.01);
    // A sound on another bus is untouched by the sfx bus.
    let other = format!(
        "assert(limina.call(\"audio.setBusVolume\", {{ bus = \"sfx\", volume = 0 }}).success)\n{}",
        play_at(0.0, -2.0, ", bus = \"ambience\"")
    );
    assert!((blip_rms(&other).0 / full.0 - 1.0).abs() < 0.01);
}

#[test]
fn stop_silences_a_sound_from_the_next_tick() {
    let script = r#"
        local h = limina.call("audio.ambient", { volume = 1 }).result.handle
        limina.on_step(function(tick) if tick == 30 then assert(limina.call("audio.stop", { handle = h }).success) end end)
    "#;
    let (_, s, _) = render(script, 60);
    let before = rms(&s, 0, 30 * 735);
    let after = rms(&s, 31 * 735, 60 * 735);
    assert!(before.0 > 100.0, "the bed plays: {before:?}");
    assert_eq!(after, (0.0, 0.0));
}

#[test]
fn the_same_script_gives_a_byte_identical_wav() {
    let script = r#"
        limina.call("audio.ambient", { volume = 0.4 })
        limina.on_step(function(tick)
            if tick % 15 == 0 then limina.call("audio.playAt", { freq = 220 + tick * 3, secs = 0.3, position = { math.random() * 8 - 4, 0, -3 } }) end
        end)
    "#;
    let (_, _, a) = render(script, 120);
    let (_, _, b) = render(script, 120);
    assert_eq!(a.len(), 44 + 120 * 735 * 4);
    assert!(a == b, "two renders of the same script differ");
}

#[test]
fn speech_is_heard_on_the_voice_bus_positioned_for_a_plausible_time() {
    if !limina::audio::tts::available() {
        panic!("espeak-ng is not installed (.ci/deps installs it)");
    }
    let line = r#"assert(limina.call("audio.speak", { text = "The hedgehog dances in the moonlight", position = { 4, 0, -1 } }).success)"#;
    let (_, s, _) = render(line, 240);
    // Where the voice is: frames with any sound.
    let frames = s.len() / 2;
    let voiced: Vec<usize> = (0..frames).filter(|f| s[2 * f].unsigned_abs() > 300 || s[2 * f + 1].unsigned_abs() > 300).collect();
    assert!(!voiced.is_empty(), "speech is not silent");
    let seconds = (voiced[voiced.len() - 1] - voiced[0]) as f64 / 44_100.0;
    assert!((1.0..=3.5).contains(&seconds), "six words took {seconds:.2} s");
    let (l, r) = rms(&s, 0, frames);
    assert!(r > 2.0 * l, "to the right: left {l} right {r}");
    // On the voice bus: muting it silences the line.
    let muted = format!("assert(limina.call(\"audio.setBusVolume\", {{ bus = \"voice\", volume = 0 }}).success)\n{line}");
    let (_, s, _) = render(&muted, 240);
    assert!(s.iter().all(|v| *v == 0));
}

fn call(e: &Engine, caller: &Caller, skill: &str, input: Value) -> limina::skills::SkillResponse {
    e.call(caller, skill, input)
}

#[test]
fn bounds_unknown_fields_stale_handles_and_a_denied_profile_change_nothing() {
    let e = Engine::new(EngineConfig { output: Output::Silent, ..EngineConfig::new(crate::root()) }).unwrap();
    let me = e.script_caller().clone();
    let before = e.world_hash();
    for (skill, input) in [
        ("audio.play", json!({"freq": 0, "secs": 1})),
        ("audio.play", json!({"freq": 440, "secs": 0})),
        ("audio.play", json!({"freq": 440, "secs": 10.5})),
        ("audio.play", json!({"freq": 30000, "secs": 1})),
        ("audio.play", json!({"freq": 440, "secs": 1, "volume": 1.5})),
        ("audio.play", json!({"freq": 440, "secs": 1, "bus": "drums"})),
        ("audio.play", json!({"freq": 440, "secs": 1, "loud": true})),
        ("audio.ambient", json!({"volume": -0.1})),
        ("audio.playAt", json!({"freq": 440, "secs": 1})),
        ("audio.playAt", json!({"freq": 440, "secs": 1, "position": [0, 0]})),
        ("audio.playAt", json!({"freq": 440, "secs": 1, "position": [0, 0, 0], "maxDistance": -1})),
        ("audio.speak", json!({"text": "", "position": [0, 0, 0]})),
        ("audio.speak", json!({"text": "x".repeat(501), "position": [0, 0, 0]})),
        ("audio.setVolume", json!({"handle": "snd_0001"})),
        ("audio.setBusVolume", json!({"bus": "voice", "volume": 2})),
    ] {
        let r = call(&e, &me, skill, input.clone());
        assert_eq!(r.error.as_ref().map(|f| f.code.as_str()), Some("invalid_input"), "{skill} {input}: {r:?}");
    }
    for (skill, input, why) in [
        ("audio.stop", json!({"handle": "snd_0042"}), "never existed"),
        ("audio.setVolume", json!({"handle": "beep", "volume": 1}), "not a sound handle"),
    ] {
        let r = call(&e, &me, skill, input);
        let error = r.error.unwrap();
        assert_eq!(error.code.as_str(), "not_found");
        assert!(error.message.contains(why), "{}", error.message);
    }
    assert_eq!(e.world_hash(), before, "nothing changed");
    // Stopped: the handle then resolves to nothing, and says so.
    let made = call(&e, &me, "audio.ambient", json!({}));
    let handle = made.result.unwrap()["handle"].as_str().unwrap().to_string();
    assert!(call(&e, &me, "audio.stop", json!({"handle": handle})).success);
    let again = call(&e, &me, "audio.stop", json!({"handle": handle})).error.unwrap();
    assert!(again.message.contains("finished or was stopped"), "{}", again.message);
    // A profile without audio.play: denied, nothing played.
    let before = e.world_hash();
    let player = Caller::new("agt_p", "ses_p", "player.limited");
    for skill in ["audio.play", "audio.ambient", "audio.setBusVolume"] {
        let input = match skill {
            "audio.play" => json!({"freq": 440, "secs": 1}),
            "audio.setBusVolume" => json!({"bus": "master", "volume": 0}),
            _ => json!({}),
        };
        let r = call(&e, &player, skill, input);
        assert_eq!(
            r.error.map(|f| f.message),
            Some(
                "missing permission: audio.play (profile player.limited lacks it; granted by builder.readWrite, social.actor)".to_string()
            )
        );
    }
    assert_eq!(e.world_hash(), before);
    assert!(e.world().sounds.is_empty());
}

#[test]
fn without_an_audio_backend_sounds_are_still_world_state_and_nothing_is_mixed() {
    let e = Engine::new(EngineConfig { output: Output::Silent, ..EngineConfig::new(crate::root()) }).unwrap();
    e.run_source(r#"assert(limina.call("audio.play", { freq = 440, secs = 0.5 }).success)"#, "silent.lua").unwrap();
    assert_eq!(e.world().sounds.len(), 1);
    e.step(31).unwrap();
    assert!(e.world().sounds.is_empty(), "the blip finished");
    assert!(e.finish_audio().is_none(), "the null backend renders nothing");
}

#[test]
fn with_no_audio_device_the_device_backend_plays_silently_without_a_hang_or_a_crash() {
    // This machine (and CI) has no sound card: opening the device fails, is reported once, and
    // every step is still accepted. Where a device exists, the same run plays.
    let config = EngineConfig { output: Output::Silent, audio: AudioBackend::Device, ..EngineConfig::new(crate::root()) };
    let e = Engine::new(config).unwrap();
    e.run_source(r#"assert(limina.call("audio.ambient", {}).success)"#, "device.lua").unwrap();
    e.step(120).unwrap();
    let report = e.finish_audio().unwrap();
    // Playing in real time, steps that find the audio thread behind (here: while it tries to open
    // a device) are dropped, never waited for.
    assert!(report.frames <= 120 * 735 && report.frames.is_multiple_of(735), "{}", report.frames);
    if let Some(error) = report.error {
        assert!(error.contains("no audio device"), "{error}");
    }
}

#[test]
fn limina_audio_null_selects_the_silent_backend_for_real_time_runs() {
    assert_eq!(AudioBackend::real_time_with(Some("null")), AudioBackend::Null);
    assert_eq!(AudioBackend::real_time_with(Some("NULL")), AudioBackend::Null);
    assert_eq!(AudioBackend::real_time_with(None), AudioBackend::Device);
}

#[test]
fn a_line_said_with_social_say_is_voiced_from_where_the_speaker_stands() {
    let script = r#"
        limina.scripted_policy("idle", function() return {} end)
        local a = limina.call("agent.spawn", { id = "agt_talker", profile = "social.actor", body = { shape = "box", position = { -4, 0, -1 } }, llm = { model = "idle" } })
        assert(a.success, a.error and a.error.message)
        local s = limina.session({ agentId = "agt_talker", sessionId = "ses_agt_talker", profile = "social.actor" })
        local r = s:call("social.say", { text = "Over here, on your left" })
        assert(r.success, r.error and r.error.message)
    "#;
    let (e, s, _) = render(script, 200);
    let said: Vec<Value> =
        e.trace().durable().map(Result::unwrap).filter(|ev| &*ev.event_type == "social.said").map(|ev| ev.payload_value()).collect();
    assert!(said[0]["voice"].as_str().is_some_and(|h| h.starts_with("snd_")), "{:?}", said[0]);
    let (l, r) = rms(&s, 0, s.len() / 2);
    assert!(l > 2.0 * r && l > 50.0, "heard from the left: left {l} right {r}");
}

#[test]
#[ignore = "slow: runs with the full suite (cargo test -- --include-ignored)"]
fn the_hedgehog_dance_writes_the_same_song_twice_with_its_sung_line() {
    let song = || {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("song.wav");
        let config = EngineConfig { output: Output::Silent, audio: AudioBackend::Wav(out.clone()), ..EngineConfig::new(crate::root()) };
        let e = Engine::new(config).unwrap();
        e.run_file(&crate::root().join("demos/hedgehog_dance.lua")).unwrap();
        e.step(510).unwrap();
        let report = e.finish_audio().unwrap();
        assert!(report.speech_failures.is_empty(), "{:?}", report.speech_failures);
        let spoken = e
            .trace()
            .durable()
            .map(Result::unwrap)
            .filter(|ev| &*ev.event_type == "skill.executed" && ev.payload.json().get().contains("\"audio.speak\""))
            .count();
        (std::fs::read(out).unwrap(), spoken)
    };
    let (a, spoken) = song();
    let (b, _) = song();
    assert_eq!(spoken, 1, "the lead hedgehog sang");
    assert_eq!(a.len(), 44 + 510 * 735 * 4);
    assert!(a == b, "the same seed gives the same song");
    let samples: Vec<i16> = a[44..].chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect();
    assert!(samples.iter().any(|s| s.unsigned_abs() > 3000), "the song is audible");
}

#[test]
fn a_player_cannot_mute_the_scene_or_stop_someone_elses_sound() {
    let e = Engine::new(EngineConfig { output: Output::Silent, ..EngineConfig::new(crate::root()) }).unwrap();
    let alice = Caller::new("agt_alice", "ses_alice", "social.actor");
    let bob = Caller::new("agt_bob", "ses_bob", "social.actor");
    let made = call(&e, &alice, "audio.ambient", json!({}));
    let handle = made.result.unwrap()["handle"].as_str().unwrap().to_string();
    let before = e.world_hash();
    let r = call(&e, &bob, "audio.stop", json!({"handle": handle}));
    let error = r.error.unwrap();
    assert_eq!(error.code.as_str(), "forbidden");
    assert!(error.message.contains("belongs to agt_alice"), "{}", error.message);
    let r = call(&e, &bob, "audio.setBusVolume", json!({"bus": "master", "volume": 0}));
    let error = r.error.unwrap();
    assert_eq!(error.code.as_str(), "forbidden");
    assert!(error.message.contains("scene.write"), "{}", error.message);
    assert_eq!(e.world_hash(), before, "nothing changed");
    assert!(call(&e, &alice, "audio.stop", json!({"handle": handle})).success, "the owner may");
}

#[test]
fn a_voice_moves_with_its_speaker() {
    // The speaker walks from the listener's left to its right while saying a long line: the
    // voice is heard on the left first and on the right at the end.
    let script = r#"
        limina.scripted_policy("idle", function() return {} end)
        local floor = limina.call("scene.createEntity", { shape = "box", position = { 0, -1.5, -2 }, static = true }).result.entity
        limina.call("ecs.updateComponent", { entity = floor, component = "scale", value = { 30, 1, 10 } })
        local a = limina.call("agent.spawn", { id = "agt_walker", profile = "social.actor", body = { shape = "box", position = { -5, -0.5, -2 }, friction = 0 }, llm = { model = "idle" } })
        assert(a.success, a.error and a.error.message)
        local s = limina.session({ agentId = "agt_walker", sessionId = "ses_agt_walker", profile = "social.actor" })
        assert(s:call("social.say", { text = "I am walking across in front of you, from your left side over to your right side, talking all the way" }).success)
        assert(s:call("social.approach", { target = { 5, 0, -2 }, talkDistance = 0.5 }).success)
    "#;
    let (_, s, _) = render(script, 420);
    let second = 44_100;
    let (l0, r0) = rms(&s, 0, second);
    let per_second: Vec<(f64, f64)> = (0..7).map(|k| rms(&s, k * second, (k + 1) * second)).collect();
    let (l1, r1) = rms(&s, 3 * second + second / 2, 4 * second + second / 2);
    assert!(l0 > 1.5 * r0, "first second from the left: {per_second:?}");
    assert!(r1 > 1.5 * l1, "3.5-4.5 s (the speaker at x = +2 to +4) from the right: {per_second:?}");
}
