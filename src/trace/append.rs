//! Append-on-emit: a background thread that chains and writes each event as it is emitted, and
//! seals the file when it is closed.
//!
//! The emitting thread only serializes the event (no hashing); the writer thread computes the
//! chain and writes one whole line per event, flushing after every burst. A crash can therefore
//! tear at most the last line, which verification reports as `partial_final_line` while every
//! line before it still verifies. Closing the writer (`seal`, or dropping it) writes the seal;
//! a file whose engine crashed or was killed has none, and verification says so rather than
//! calling it complete.

use std::fs::File;
use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread::JoinHandle;

use super::chain::{Anchor, ChainWriter};

enum Message {
    Event(Vec<u8>),
    Flush(mpsc::Sender<io::Result<()>>),
    /// Write the seal, reply with the anchor and stop.
    Seal(mpsc::Sender<io::Result<Anchor>>),
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
                        Message::Seal(done) => {
                            let _ = done.send(writer.seal().and_then(|anchor| writer.flush().map(|()| anchor)));
                            return Ok(());
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
    /// error is reported by `flush`) or was sealed.
    pub fn send(&self, canonical: Vec<u8>) -> bool {
        self.tx.as_ref().is_some_and(|tx| tx.send(Message::Event(canonical)).is_ok())
    }

    /// Waits until everything sent so far is on disk.
    pub fn flush(&self) -> io::Result<()> {
        let (done_tx, done_rx) = mpsc::channel();
        let sent = self.tx.as_ref().is_some_and(|tx| tx.send(Message::Flush(done_tx)).is_ok());
        if !sent {
            return Err(self.stopped("has stopped"));
        }
        done_rx.recv().map_err(|_| self.stopped("stopped while flushing"))?
    }

    /// Writes everything sent so far, then the seal, and stops the writer; returns the anchor.
    /// Events sent afterwards are refused (`send` returns false).
    pub fn seal(&mut self) -> io::Result<Anchor> {
        let Some(tx) = self.tx.take() else {
            return Err(self.stopped("was already sealed"));
        };
        let (done_tx, done_rx) = mpsc::channel();
        let sent = tx.send(Message::Seal(done_tx)).is_ok();
        drop(tx);
        let reply = if sent { done_rx.recv().ok() } else { None };
        let stopped = self.join();
        match (reply, stopped) {
            (Some(sealed), _) => sealed,
            (None, Err(e)) => Err(e),
            (None, Ok(())) => Err(self.stopped("stopped before sealing")),
        }
    }

    fn join(&mut self) -> io::Result<()> {
        match self.thread.take().map(JoinHandle::join) {
            None | Some(Ok(Ok(()))) => Ok(()),
            Some(Ok(Err(e))) => Err(e),
            Some(Err(_)) => Err(self.stopped("panicked")),
        }
    }

    fn stopped(&self, what: &str) -> io::Error {
        io::Error::other(format!("trace writer for {} {what}", self.path.display()))
    }
}

impl Drop for AppendWriter {
    fn drop(&mut self) {
        if self.tx.is_none() {
            return;
        }
        // Closing cleanly means sealing: the file then reads as complete.
        match self.seal() {
            Ok(anchor) => tracing::info!(path = %self.path.display(), %anchor, "trace sealed"),
            Err(e) => tracing::warn!(path = %self.path.display(), "trace append failed, the file is left unsealed: {e}"),
        }
    }
}
