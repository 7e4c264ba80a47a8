//! The spill file: the part of the world log that left the memory window, on disk.
//!
//! The log keeps only its newest events in memory; older ones are written here, oldest first,
//! as the canonical JSON lines an export chains (a deferred payload is serialized at that
//! moment, on the engine thread, since it holds `Rc`s). A spill writes whole blocks of up to
//! [`BLOCK_EVENTS`] events with one positioned write, never one per emit, and what stays in
//! memory per block is one 40-byte [`Block`]: where it starts, its first seq, the smallest
//! parent seq it names (so `children` skips blocks that cannot hold a child) and a truncated
//! sha256 of its bytes. That is under 0.1 byte per event (about 0.16 MiB per million skill
//! calls); an index entry per event (16 bytes and more) would not stay flat. Every read checks
//! its block against that digest, so a file changed on disk is reported, never believed.
//!
//! Hot: a spill runs inside an emit, every 512 events. It pays once what the log used to put
//! off for ever: each event's canonical line (`Event::write_canonical`) and a sha256 over the
//! bytes. In a release build that is about 2 µs per two-event skill call, amortized; hashing
//! and writing on a background thread would take about a third of it off the engine thread.
//!
//! The file is created on the first spill (a short-lived engine never touches the disk), in a
//! new folder with an unguessable name (0700) as `history.jsonl` (0600), under the system temp
//! folder, or beside the `--trace-append` file when there is one: the disk the operator chose
//! for the world's history, where /tmp may be a RAM-backed tmpfs. On Unix both names are
//! removed as soon as the file is open: the history then lives exactly as long as this open
//! file, so nothing is left behind even when the process is killed, and nobody can open it by
//! name. Elsewhere they are removed when the log is dropped.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::event::Event;

/// Events per block at most. A random read (`get` of an old event) reads and checks one block,
/// and the index holds one entry per block: 512 keeps both small (a block of skill-call events
/// is about 250 KB).
pub(super) const BLOCK_EVENTS: usize = 512;
/// A block ends early past this many bytes, so a few huge payloads do not make every read of
/// their neighbours slow.
const BLOCK_BYTES: usize = 1 << 20;
/// A spill's buffer is kept for the next spill up to this size, and given back above it.
const KEEP_BUFFER: usize = 4 << 20;

/// One block of spilled events: its lines run from `offset` to the next block's offset (or the
/// end of the file), its seqs from `first_seq` to the next block's first seq.
#[derive(Debug, Clone, Copy)]
struct Block {
    first_seq: u64,
    offset: u64,
    /// The smallest seq any of its events names as a parent or cause (`u64::MAX` for none).
    min_parent: u64,
    /// The first half of the sha256 of its bytes (a second preimage is still out of reach).
    digest: [u8; 16],
}

/// Why the spilled part of the history could not be read back.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    #[error("cannot read events {first}..={last} back from the trace spill file {path} (bytes {offset}..{end}): {source}")]
    Read { path: PathBuf, first: u64, last: u64, offset: u64, end: u64, source: io::Error },
    #[error(
        "the trace spill file {path} was changed on disk: events {first}..={last} (bytes {offset}..{end}) no longer hash to what was written, so they are not trusted"
    )]
    Tampered { path: PathBuf, first: u64, last: u64, offset: u64, end: u64 },
    #[error("event {seq} in the trace spill file {path} does not read back: {detail}")]
    Corrupt { path: PathBuf, seq: u64, detail: String },
    #[error("event {seq} in the trace spill file {path} does not read back: {source}")]
    Unreadable { path: PathBuf, seq: u64, source: super::event::EventLineError },
}

impl From<HistoryError> for io::Error {
    fn from(e: HistoryError) -> Self {
        io::Error::new(io::ErrorKind::InvalidData, e)
    }
}

/// Why a spill failed (nothing of it is kept: the events stay in memory).
#[derive(Debug, thiserror::Error)]
pub(super) enum SpillError {
    #[error("cannot create a trace spill file under {base}: {source}")]
    Create { base: PathBuf, source: io::Error },
    #[error("cannot write events {first}..={last} ({bytes} bytes) to the trace spill file {path} at byte {offset}: {source}")]
    Write { path: PathBuf, first: u64, last: u64, bytes: usize, offset: u64, source: io::Error },
    #[error("events must spill in order: expected seq {expected}, got {found}")]
    OutOfOrder { expected: u64, found: u64 },
}

/// The on-disk history: events `1..=events()`, and the sparse index of their blocks.
#[derive(Debug)]
pub(super) struct Spill {
    /// The folder a spill file is made under, when the first block spills.
    base: PathBuf,
    file: Option<SpillFile>,
    blocks: Vec<Block>,
    /// The last seq on disk (`first - 1` before anything spilled): the file holds
    /// `first..=events`.
    events: u64,
    /// The first seq this log numbered (1, unless it continued a restored engine's numbering).
    first: u64,
    /// Bytes the blocks hold; the next block starts here.
    end: u64,
    buffer: Vec<u8>,
}

impl Spill {
    pub(super) fn new(base: PathBuf) -> Self {
        Self { base, file: None, blocks: Vec::new(), events: 0, first: 1, end: 0, buffer: Vec::new() }
    }

    /// Moves where the file will be made; no effect once it exists.
    pub(super) fn set_base(&mut self, base: PathBuf) {
        if self.file.is_none() {
            self.base = base;
        }
    }

    /// The last seq on disk, or `first - 1` while nothing is (memory holds the seqs after it).
    pub(super) fn events(&self) -> u64 {
        self.events
    }

    /// The first seq the log holds.
    pub(super) fn first(&self) -> u64 {
        self.first
    }

    /// Makes the log's numbering start after `seq` (only while it holds nothing).
    pub(super) fn start_after(&mut self, seq: u64) {
        debug_assert!(self.blocks.is_empty(), "the numbering is set before anything spills");
        self.events = seq;
        self.first = seq.saturating_add(1);
    }

    /// Bytes on disk.
    pub(super) fn bytes(&self) -> u64 {
        self.end
    }

    /// Memory the index holds.
    pub(super) fn index_bytes(&self) -> usize {
        self.blocks.capacity() * std::mem::size_of::<Block>()
    }

    /// Appends `events` (the oldest in memory, seqs following the file's last) as blocks: all
    /// of them, or on an error none (the caller keeps them). `links` are their causal links as
    /// (parent seq, child seq), in child order (the log has them already: no id is parsed again).
    pub(super) fn write<'e>(
        &mut self,
        events: impl IntoIterator<Item = &'e Event>,
        links: impl IntoIterator<Item = (u64, u64)>,
    ) -> Result<(), SpillError> {
        let mut buffer = std::mem::take(&mut self.buffer);
        buffer.clear();
        let result = self.write_through(&mut buffer, events, links);
        if buffer.capacity() <= KEEP_BUFFER {
            self.buffer = buffer;
        }
        result
    }

    fn write_through<'e>(
        &mut self,
        buffer: &mut Vec<u8>,
        events: impl IntoIterator<Item = &'e Event>,
        links: impl IntoIterator<Item = (u64, u64)>,
    ) -> Result<(), SpillError> {
        let mut links = links.into_iter().peekable();
        let mut blocks = Vec::new();
        // The open block, where it starts in the buffer, and how many events it holds.
        let mut open: Option<(Block, usize, usize)> = None;
        let mut next_seq = self.events + 1;
        for event in events {
            if event.seq != next_seq {
                return Err(SpillError::OutOfOrder { expected: next_seq, found: event.seq });
            }
            let offset = self.end + buffer.len() as u64;
            let (block, start, count) =
                open.get_or_insert((Block { first_seq: event.seq, offset, min_parent: u64::MAX, digest: [0; 16] }, buffer.len(), 0));
            event.write_canonical(buffer);
            buffer.push(b'\n');
            while let Some((parent, _)) = links.next_if(|(_, child)| *child <= event.seq) {
                block.min_parent = block.min_parent.min(parent);
            }
            *count += 1;
            if *count == BLOCK_EVENTS || buffer.len() - *start >= BLOCK_BYTES {
                block.digest = digest(&buffer[*start..]);
                blocks.push(*block);
                open = None;
            }
            next_seq += 1;
        }
        if let Some((mut block, start, _)) = open {
            block.digest = digest(&buffer[start..]);
            blocks.push(block);
        }
        if blocks.is_empty() {
            return Ok(());
        }
        let file = match self.file.take() {
            Some(file) => file,
            None => SpillFile::create(&self.base).map_err(|source| SpillError::Create { base: self.base.clone(), source })?,
        };
        // At `end`, not at the file's end: a write that failed halfway left bytes past `end`
        // that no block covers, and this one overwrites them.
        let written = file.write_at(buffer, self.end).map_err(|source| SpillError::Write {
            path: file.path.clone(),
            first: self.events + 1,
            last: next_seq - 1,
            bytes: buffer.len(),
            offset: self.end,
            source,
        });
        self.file = Some(file);
        written?;
        self.end += buffer.len() as u64;
        self.events = next_seq - 1;
        self.blocks.extend(blocks);
        Ok(())
    }

    /// The block holding `seq`, if it is on disk.
    fn block_of(&self, seq: u64) -> Option<usize> {
        if seq < self.first || seq > self.events {
            return None;
        }
        // The first block starts at seq 1, so some block starts at or before `seq`.
        self.blocks.partition_point(|b| b.first_seq <= seq).checked_sub(1)
    }

    /// Block `i`'s seqs and bytes: (first seq, last seq, offset, end).
    fn extent(&self, i: usize) -> (u64, u64, u64, u64) {
        let block = self.blocks[i];
        match self.blocks.get(i + 1) {
            Some(next) => (block.first_seq, next.first_seq - 1, block.offset, next.offset),
            None => (block.first_seq, self.events, block.offset, self.end),
        }
    }

    pub(super) fn path(&self) -> PathBuf {
        self.file.as_ref().map_or_else(|| self.base.clone(), |f| f.path.clone())
    }

    /// Reads block `i` back, checked against its digest.
    fn read_block(&self, i: usize) -> Result<Vec<u8>, HistoryError> {
        let (first, last, offset, end) = self.extent(i);
        let read = |source| HistoryError::Read { path: self.path(), first, last, offset, end, source };
        let len = usize::try_from(end - offset).map_err(|_| read(io::Error::other("the block is larger than memory can address")))?;
        let Some(file) = &self.file else {
            return Err(read(io::Error::new(io::ErrorKind::NotFound, "the spill file is gone")));
        };
        let mut bytes = vec![0; len];
        file.read_at(&mut bytes, offset).map_err(read)?;
        if digest(&bytes) != self.blocks[i].digest {
            return Err(HistoryError::Tampered { path: self.path(), first, last, offset, end });
        }
        Ok(bytes)
    }

    /// The lines of block `i` with their seqs; a line count that disagrees with the block's is
    /// an error (the block's digest matched, so this is a bug, not tampering).
    fn lines<'b>(&self, i: usize, bytes: &'b [u8]) -> Result<impl Iterator<Item = (u64, &'b [u8])> + use<'b>, HistoryError> {
        let (first, last, _, _) = self.extent(i);
        let lines = bytes.strip_suffix(b"\n").unwrap_or(bytes);
        let count = lines.split(|b| *b == b'\n').count() as u64;
        if count != last - first + 1 {
            return Err(HistoryError::Corrupt {
                path: self.path(),
                seq: first,
                detail: format!("the block of events {first}..={last} holds {count} lines"),
            });
        }
        Ok((first..).zip(lines.split(|b| *b == b'\n')))
    }

    fn decode(&self, seq: u64, line: &[u8]) -> Result<Event, HistoryError> {
        let corrupt = |detail| HistoryError::Corrupt { path: self.path(), seq, detail };
        let event = Event::from_canonical(line).map_err(|source| HistoryError::Unreadable { path: self.path(), seq, source })?;
        if event.seq != seq {
            return Err(corrupt(format!("the line at seq {seq} holds event {}", event.seq)));
        }
        Ok(event)
    }

    /// The event with this seq, read back (None when it is not on disk).
    pub(super) fn event(&self, seq: u64) -> Result<Option<Event>, HistoryError> {
        let Some(i) = self.block_of(seq) else { return Ok(None) };
        let bytes = self.read_block(i)?;
        let found = self.lines(i, &bytes)?.find(|(s, _)| *s == seq);
        found.map(|(s, line)| self.decode(s, line)).transpose()
    }

    /// Events from `seq` to the end of its block, read back (empty when `seq` is not on disk).
    pub(super) fn events_from(&self, seq: u64) -> Result<Vec<Event>, HistoryError> {
        let Some(i) = self.block_of(seq) else { return Ok(Vec::new()) };
        let bytes = self.read_block(i)?;
        self.lines(i, &bytes)?.filter(|(s, _)| *s >= seq).map(|(s, line)| self.decode(s, line)).collect()
    }

    /// Every event line on disk in order, each checked with its block (for export).
    pub(super) fn for_each_line<E: From<HistoryError>>(&self, mut f: impl FnMut(&[u8]) -> Result<(), E>) -> Result<(), E> {
        for i in 0..self.blocks.len() {
            let bytes = self.read_block(i)?;
            for (_, line) in self.lines(i, &bytes)? {
                f(line)?;
            }
        }
        Ok(())
    }

    /// Events on disk after `parent_seq` that name `id` (the event with that seq) as a parent or
    /// cause, in order. Only blocks whose smallest parent seq is at or below it are read.
    pub(super) fn children_of(&self, id: &str, parent_seq: u64) -> Result<Vec<Event>, HistoryError> {
        let Some(from) = self.block_of(parent_seq) else { return Ok(Vec::new()) };
        // The id as its lines spell it, quotes and escapes included.
        let quoted =
            serde_json::to_string(id).map_err(|e| HistoryError::Corrupt { path: self.path(), seq: parent_seq, detail: e.to_string() })?;
        let finder = memchr::memmem::Finder::new(quoted.as_bytes());
        let mut children = Vec::new();
        for i in from..self.blocks.len() {
            if self.blocks[i].min_parent > parent_seq {
                continue;
            }
            let bytes = self.read_block(i)?;
            if finder.find(&bytes).is_none() {
                continue;
            }
            for (seq, line) in self.lines(i, &bytes)? {
                if seq > parent_seq && finder.find(line).is_some() {
                    let event = self.decode(seq, line)?;
                    if event.parents().any(|p| p == id) {
                        children.push(event);
                    }
                }
            }
        }
        Ok(children)
    }

    /// Reopens the spill file read-only (`writable` false), as if its disk went read-only, or
    /// read-write again.
    #[cfg(test)]
    pub(super) fn reopen_for_test(&mut self, writable: bool) -> io::Result<()> {
        use std::os::fd::AsRawFd;
        let Some(spill) = &mut self.file else { return Err(io::Error::other("nothing has spilled yet")) };
        let path = format!("/proc/self/fd/{}", spill.file.as_raw_fd());
        spill.file = OpenOptions::new().read(true).write(writable).open(path)?;
        Ok(())
    }

    /// Overwrites bytes of the spill file at `offset` (a test tampering with it).
    #[cfg(test)]
    pub(super) fn overwrite_for_test(&self, offset: u64, bytes: &[u8]) -> io::Result<()> {
        let Some(spill) = &self.file else { return Err(io::Error::other("nothing has spilled yet")) };
        spill.write_at(bytes, offset)
    }
}

fn digest(bytes: &[u8]) -> [u8; 16] {
    let full: [u8; 32] = Sha256::digest(bytes).into();
    let mut half = [0; 16];
    half.copy_from_slice(&full[..16]);
    half
}

/// The open spill file.
#[derive(Debug)]
struct SpillFile {
    file: File,
    /// Where it was made (for messages; on Unix the name is already gone).
    path: PathBuf,
    /// Its folder while it still has a name, removed on drop.
    linked: Option<PathBuf>,
}

impl SpillFile {
    fn create(base: &Path) -> io::Result<SpillFile> {
        let mut collision = None;
        for _ in 0..8 {
            let dir = base.join(format!("limina-trace-{}", crate::unguessable::hex(12)));
            let mut builder = std::fs::DirBuilder::new();
            #[cfg(unix)]
            std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
            match builder.create(&dir) {
                Ok(()) => {}
                // Made here, by us, so nobody can have planted a link under the name.
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                    collision = Some(e);
                    continue;
                }
                Err(e) => return Err(e),
            }
            let path = dir.join("history.jsonl");
            let mut options = OpenOptions::new();
            options.read(true).write(true).create_new(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
            let file = match options.open(&path) {
                Ok(file) => file,
                Err(e) => {
                    let _ = std::fs::remove_dir(&dir);
                    return Err(e);
                }
            };
            // Unix lets an open file lose its name; elsewhere it keeps it until drop.
            let unlinked = std::fs::remove_file(&path).is_ok() && std::fs::remove_dir(&dir).is_ok();
            return Ok(SpillFile { file, path, linked: (!unlinked).then_some(dir) });
        }
        Err(collision.unwrap_or_else(|| io::Error::other("no free name")))
    }

    // `&File` reads and writes too: positioned I/O without `&mut` (readers hold `&TraceLog`),
    // and the log is used from one thread, so the shared cursor is never raced.
    fn write_at(&self, bytes: &[u8], offset: u64) -> io::Result<()> {
        let mut file = &self.file;
        file.seek(SeekFrom::Start(offset))?;
        file.write_all(bytes)
    }

    fn read_at(&self, bytes: &mut [u8], offset: u64) -> io::Result<()> {
        let mut file = &self.file;
        file.seek(SeekFrom::Start(offset))?;
        file.read_exact(bytes)
    }
}

impl Drop for SpillFile {
    fn drop(&mut self) {
        if let Some(dir) = &self.linked {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::super::{EventDraft, EventKind, TraceLog, TraceWindow, verify_jsonl};
    use super::*;

    const TINY: TraceWindow = TraceWindow { events: 16, bytes: usize::MAX };

    fn emit(log: &mut TraceLog, n: u64) {
        for i in 0..n {
            log.emit(EventDraft::new("e", "agt_x"), i, &json!({"i": i}));
        }
    }

    fn kinds(log: &TraceLog, kind: EventKind) -> Vec<Value> {
        log.durable().map(Result::unwrap).filter(|e| kind.is(&e.event_type)).map(|e| e.payload_value()).collect()
    }

    /// Every seq from 1 to `len`, each once and in order, in the log and its export.
    fn whole(log: &TraceLog) {
        let seqs: Vec<u64> = log.durable().map(|e| e.unwrap().seq).collect();
        assert_eq!(seqs, (1..=log.len() as u64).collect::<Vec<_>>());
        let mut out = Vec::new();
        log.export(&mut out).unwrap();
        assert_eq!(verify_jsonl(&out), Ok(log.len()));
    }

    #[test]
    fn an_unwritable_spill_file_keeps_events_in_memory_and_says_so() {
        let mut log = TraceLog::with_window("thr", TINY);
        emit(&mut log, 100);
        let spilled = log.spill.events();
        assert!(spilled >= 80, "{spilled}");
        // The disk goes read-only: the next spill fails, nothing is lost, and the log says so.
        log.spill.reopen_for_test(false).unwrap();
        emit(&mut log, 200);
        assert_eq!(log.spill.events(), spilled, "nothing more reached the disk");
        assert!(log.resident_len() > TINY.events, "the events stayed in memory: {}", log.resident_len());
        let failed = kinds(&log, EventKind::TraceSpillFailed);
        assert!(!failed.is_empty() && failed.len() <= 4, "tried again only as memory doubled: {failed:?}");
        assert!(failed[0]["error"].as_str().unwrap().contains("cannot write events"), "{}", failed[0]);
        assert_eq!(failed[0]["spilledEvents"], spilled);
        assert_eq!(log.len(), 300 + failed.len());
        whole(&log);

        // Writable again: the next retry spills everything past the window, and says so.
        log.spill.reopen_for_test(true).unwrap();
        emit(&mut log, 400);
        assert!(log.resident_len() <= TINY.events, "{}", log.resident_len());
        assert_eq!(kinds(&log, EventKind::TraceSpillResumed).len(), 1);
        whole(&log);
    }

    #[test]
    fn a_spill_file_that_cannot_be_made_keeps_events_in_memory() {
        let dir = tempfile::tempdir().unwrap();
        let not_a_folder = dir.path().join("file");
        std::fs::write(&not_a_folder, "").unwrap();
        let mut log = TraceLog::with_window("thr", TINY);
        log.spill.set_base(not_a_folder.join("below"));
        emit(&mut log, 100);
        let failed = kinds(&log, EventKind::TraceSpillFailed);
        assert!(failed[0]["error"].as_str().unwrap().contains("cannot create a trace spill file under"), "{}", failed[0]);
        assert_eq!((log.spill.events(), log.resident_len()), (0, log.len()));
        whole(&log);
    }

    #[test]
    fn a_spill_file_changed_on_disk_is_detected_not_believed() {
        let mut log = TraceLog::with_window("thr", TINY);
        emit(&mut log, 200);
        assert!(log.spill.events() >= 40, "seq 1 and 40 are on disk");
        let first = log.by_seq(1).unwrap().unwrap().id.clone();
        let later = log.by_seq(40).unwrap().unwrap().id.clone();
        // `"i":0` becomes `"i":7` on the first line: valid JSON, a plausible event, a new payload.
        let at = log.spill.read_block(0).unwrap().windows(5).position(|w| w == b"\"i\":0").unwrap() as u64;
        log.spill.overwrite_for_test(at + 4, b"7").unwrap();

        let tampered = |e: HistoryError| matches!(e, HistoryError::Tampered { first: 1, .. });
        assert!(log.get(&first).is_err_and(tampered));
        assert!(log.since(0).next().unwrap().is_err_and(tampered));
        assert!(log.children(&first).is_err_and(tampered));
        let export = log.export(Vec::new()).unwrap_err();
        assert!(export.to_string().contains("was changed on disk"), "{export}");
        // Blocks the change did not touch still read back.
        assert_eq!(log.get(&later).unwrap().map(|e| e.seq), Some(40));
    }

    #[test]
    fn the_byte_cap_bounds_memory_even_below_the_count() {
        let window = TraceWindow { events: 10_000, bytes: 64 * 1024 };
        let mut log = TraceLog::with_window("thr", window);
        let big = "x".repeat(10_000);
        for i in 0..200 {
            log.emit(EventDraft::new("e", "agt_x"), i, &json!({"big": big}));
            assert!(log.retained_bytes() <= window.bytes + 12_000, "{} bytes held", log.retained_bytes());
        }
        assert!(log.resident_len() < 10, "{}", log.resident_len());
        whole(&log);
    }

    #[test]
    fn appending_spills_beside_the_live_file_and_leaves_nothing_there() {
        let dir = tempfile::tempdir().unwrap();
        let live = dir.path().join("live.jsonl");
        let mut log = TraceLog::with_window("thr", TINY);
        log.append_to(&live).unwrap();
        emit(&mut log, 300);
        assert!(log.spill.events() > 0);
        assert!(log.spill.path().starts_with(dir.path()), "{}", log.spill.path().display());
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, ["live.jsonl"], "the spill file has no name on disk");
        log.flush().unwrap();
        let mut exported = Vec::new();
        log.export(&mut exported).unwrap();
        let written = std::fs::read(&live).unwrap();
        let seal = exported[..exported.len() - 1].iter().rposition(|b| *b == b'\n').unwrap() + 1;
        assert!(written == exported[..seal], "the live chain is the export's, until the seal");
    }
}
