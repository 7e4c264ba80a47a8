//! The synthesized sources: a sine blip with an envelope, a looping ambience bed, and the
//! resampling of a spoken line's samples. Each is a pure function of the sample index since the
//! sound started, so any stretch of any sound can be rendered again bit for bit.

/// The mixer's sample rate; one fixed step (1/60 s) is exactly 735 frames.
pub const SAMPLE_RATE: u32 = 44_100;
pub const FRAMES_PER_TICK: usize = 735;

/// A blip's attack, seconds (avoids a click at the start).
const ATTACK: f64 = 0.005;

/// Sample `i` of a `freq` Hz sine lasting `secs`: a 5 ms linear attack, then an exponential decay
/// that reaches -60 dB at the end; 0 after it.
pub fn blip(freq: f64, secs: f64, i: u64) -> f32 {
    let t = i as f64 / f64::from(SAMPLE_RATE);
    if t >= secs {
        return 0.0;
    }
    let attack = (t / ATTACK).min(1.0);
    let decay = (-6.907_755 * t / secs).exp(); // ln(1000): -60 dB at t = secs
    ((2.0 * std::f64::consts::PI * freq * t).sin() * attack * decay * 0.5) as f32
}

/// A 32-bit hash of `i`, as a value in -1..1 (deterministic noise).
fn noise(i: u64) -> f64 {
    let mut x = i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^= x >> 29;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^= x >> 32;
    (x as u32) as f64 / f64::from(u32::MAX) * 2.0 - 1.0
}

/// Sample `i` of the ambience bed: a soft drone (55 and 82.5 Hz, slowly breathing) over noise
/// smoothed by a moving average, looping forever.
pub fn ambient(i: u64) -> f32 {
    let t = i as f64 / f64::from(SAMPLE_RATE);
    let breath = 0.75 + 0.25 * (2.0 * std::f64::consts::PI * 0.1 * t).sin();
    let drone = (2.0 * std::f64::consts::PI * 55.0 * t).sin() * 0.6 + (2.0 * std::f64::consts::PI * 82.5 * t).sin() * 0.3;
    // An 8-tap average of the noise: a gentle low-pass, still a pure function of i.
    let hiss: f64 = (0..8).map(|k| noise(i.wrapping_sub(k))).sum::<f64>() / 8.0;
    ((drone * breath * 0.15) + hiss * 0.05) as f32
}

/// Sample `i` (at `SAMPLE_RATE`) of `pcm` recorded at `rate`, linearly interpolated; 0 past its end.
pub fn resampled(pcm: &[f32], rate: u32, i: u64) -> f32 {
    let at = i as f64 * f64::from(rate) / f64::from(SAMPLE_RATE);
    let k = at.floor() as usize;
    let frac = (at - k as f64) as f32;
    match (pcm.get(k), pcm.get(k + 1)) {
        (Some(a), Some(b)) => a + (b - a) * frac,
        (Some(a), None) => *a * (1.0 - frac),
        _ => 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blip_rings_at_its_frequency_and_ends() {
        // Zero crossings in the first 0.1 s of a 440 Hz blip: about 88.
        let samples: Vec<f32> = (0..4410).map(|i| blip(440.0, 0.5, i)).collect();
        let crossings = samples.windows(2).filter(|w| (w[0] <= 0.0) != (w[1] <= 0.0)).count();
        assert!((86..=90).contains(&crossings), "{crossings}");
        assert_eq!(blip(440.0, 0.5, 22_050), 0.0);
    }

    #[test]
    fn the_bed_is_quiet_bounded_and_repeatable() {
        let a: Vec<f32> = (0..44_100).map(ambient).collect();
        assert!(a.iter().all(|s| s.abs() < 0.3));
        assert!(a.iter().map(|s| s.abs()).sum::<f32>() > 100.0, "not silent");
        assert_eq!(a[1234], ambient(1234));
    }
}
