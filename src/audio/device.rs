//! Real-time playback on the default audio device through rodio: the audio thread mixes each
//! step into a short queue that a rodio source drains. The device never waits on the mixer (an
//! empty queue plays silence) and the mixer never waits on the device (a queue past its latency
//! bound drops its oldest samples), so neither side can stall the other or the loop.

use std::collections::VecDeque;
use std::num::NonZero;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::synth::SAMPLE_RATE;

/// Most audio queued ahead of the device: 0.2 s of stereo frames.
const MAX_QUEUED: usize = SAMPLE_RATE as usize / 5 * 2;

/// Samples mixed and not yet played.
pub(super) type Queue = Arc<Mutex<VecDeque<f32>>>;

/// The rodio source that plays the queue (interleaved stereo at 44.1 kHz, forever).
struct QueueSource {
    queue: Queue,
    local: VecDeque<f32>,
}

impl Iterator for QueueSource {
    type Item = f32;

    fn next(&mut self) -> Option<f32> {
        if self.local.is_empty() {
            // Take what is there in one lock; an empty queue is silence, never a wait.
            if let Ok(mut q) = self.queue.lock() {
                let n = q.len().min(1024);
                self.local.extend(q.drain(..n));
            }
        }
        Some(self.local.pop_front().unwrap_or(0.0))
    }
}

impl rodio::Source for QueueSource {
    fn current_span_len(&self) -> Option<usize> {
        None
    }
    fn channels(&self) -> rodio::ChannelCount {
        NonZero::new(2).expect("2 is not zero")
    }
    fn sample_rate(&self) -> rodio::SampleRate {
        NonZero::new(SAMPLE_RATE).expect("the rate is not zero")
    }
    fn total_duration(&self) -> Option<Duration> {
        None
    }
}

/// Why the default output device could not be opened (rodio's reason; its cause is the
/// source).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(super) struct DeviceError(#[source] rodio::DeviceSinkError);

/// The open device; dropping it stops playback.
pub(super) struct Device {
    _sink: rodio::MixerDeviceSink,
    pub queue: Queue,
}

impl Device {
    /// Opens the default output device, or says why there is none.
    pub fn open() -> Result<Device, DeviceError> {
        let sink = rodio::DeviceSinkBuilder::open_default_sink().map_err(DeviceError)?;
        let queue: Queue = Arc::new(Mutex::new(VecDeque::with_capacity(MAX_QUEUED)));
        sink.mixer().add(QueueSource { queue: Arc::clone(&queue), local: VecDeque::new() });
        Ok(Device { _sink: sink, queue })
    }

    /// Queues a mixed block; drops the oldest samples past the latency bound.
    pub fn push(&self, block: &[f32]) {
        if let Ok(mut q) = self.queue.lock() {
            q.extend(block.iter().copied());
            let extra = q.len().saturating_sub(MAX_QUEUED);
            q.drain(..extra);
        }
    }
}
