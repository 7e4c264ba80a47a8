//! Append-on-emit: a background thread that chains and writes each event as it is emitted.
//!
//! The emitting thread only serializes the event (no hashing); the writer thread computes the
//! chain and writes one whole line per event, flushing after every burst. A crash can therefore
//! tear at most the last line, which verification reports as `partial_final_line` while every
//! line before it still verifies.

use std::fs::File;
use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread::JoinHandle;

use super::chain::ChainWriter;

enum Message {
    Event(Vec<u8>),
    Flush(mpsc::Sender<io::Result<()>>),
}

#[derive(Debug)]
pub struct AppendWriter {
    path: PathBuf,
    tx: Option<mpsc::Sender<Message>>,
    thread: Option<JoinHandle<io::Result<()>>>,
}

impl AppendWriter {
    /// Starts a new chained log at `path` (an existing file is replaced).
    pub fn create(path: &Path) -> io::Result<Self> {
        let file = File::create(path)?;
        let (tx, rx) = mpsc::channel::<Message>();
        let thread = std::thread::Builder::new().name("limina-trace-append".into()).spawn(move || -> io::Result<()> {
            let mut writer = ChainWriter::new(BufWriter::new(file), None);
            while let Ok(first) = rx.recv() {
                let mut next = Some(first);
                while let Some(message) = next {
                    match message {
                        Message::Event(canonical) => writer.write_canonical(&canonical)?,
                        Message::Flush(done) => {
                            let _ = done.send(writer.flush());
                        }
                    }
                    next = rx.try_recv().ok();
                }
                writer.flush()?;
            }
            writer.flush()
        })?;
        Ok(Self { path: path.to_path_buf(), tx: Some(tx), thread: Some(thread) })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Queues one event, given as its canonical JSON. False if the writer has stopped (its
    /// error is reported by `flush`).
    pub fn send(&self, canonical: Vec<u8>) -> bool {
        self.tx.as_ref().is_some_and(|tx| tx.send(Message::Event(canonical)).is_ok())
    }

    /// Waits until everything sent so far is on disk.
    pub fn flush(&self) -> io::Result<()> {
        let (done_tx, done_rx) = mpsc::channel();
        let sent = self.tx.as_ref().is_some_and(|tx| tx.send(Message::Flush(done_tx)).is_ok());
        if !sent {
            return Err(io::Error::other(format!("trace writer for {} has stopped", self.path.display())));
        }
        done_rx.recv().map_err(|_| io::Error::other(format!("trace writer for {} stopped while flushing", self.path.display())))?
    }
}

impl Drop for AppendWriter {
    fn drop(&mut self) {
        // Closing the channel lets the thread drain, flush and exit.
        self.tx.take();
        if let Some(thread) = self.thread.take() {
            match thread.join() {
                Ok(Err(e)) => {
                    tracing::warn!(path = %self.path.display(), "trace append failed: {e}")
                }
                Err(_) => {
                    tracing::warn!(path = %self.path.display(), "trace append thread panicked")
                }
                Ok(Ok(())) => {}
            }
        }
    }
}
