//! The one constructor of restricted Luau VMs, and the meter that ends their calls.
//!
//! Every VM that runs package code is built by `restricted_vm`: a package's pooled VM
//! (`runtime.rs`) and the throwaway VMs that read a folder package's `package.luau` or evaluate a
//! single-file mod for its header. This module owns what such a VM can reach and how much work
//! one call into it can cause; it knows nothing of skills or the registry. Callers add their own
//! globals (`host`, `s`, `require`), call `Lua::sandbox(true)`, and only then run package code:
//! sealed first, so not even a package's top-level code can rewrite the standard libraries or
//! the string metatable.
//!
//! **Reach.** Luau's standard libraries without `loadstring`, `getfenv`, `setfenv`, `require`,
//! `os`, `collectgarbage`, `newproxy`, `gcinfo`, and with nothing of `debug` but `traceback`.
//! `print` writes one line to stderr prefixed with the owner's name, cut at 4 KiB.
//!
//! **Memory.** `Lua::set_memory_limit`. mlua reads 0 as "no limit", so 0 is refused here.
//!
//! **Time.** A `Meter`, armed by the caller around each call, holds a deadline in CPU time of
//! the calling thread (`CLOCK_THREAD_CPUTIME_ID` through the `cpu-time` crate), so a host whose
//! cores are busy with other work does not end a well-behaved call: only the package's own work
//! counts, including what the host does for it on this thread (conversions, validation, skills
//! it invokes). Once past the deadline every check fails, so `pcall` cannot swallow it. A
//! wall-clock backstop, `max(10 × the CPU deadline, 5 s)`, ends a call that stops consuming CPU
//! yet never returns — blocked in a host call, or starved — which CPU time alone never would;
//! it is far enough above the deadline that load on the machine does not reach it first.
//!
//! **Hot.** The interrupt runs at every loop back-edge, call and return, and at every step of
//! the pattern matcher. It reads the monotonic wall clock (a vDSO call, tens of nanoseconds) and
//! reads the thread's CPU clock (a system call) only once the deadline has become possible:
//! CPU time on one thread never runs faster than wall time, so after reading `used`, nothing
//! can be over before `deadline - used` more wall time has passed.
//!
//! **C library calls.** The interrupt only runs between Luau instructions and inside Luau's
//! pattern matcher, so a C library function that loops on its own runs to the end whatever the
//! deadline says. Every such loop is bounded here; the rest of the libraries do work linear in
//! a value the memory limit already bounds (`table.concat`/`insert`/`remove`/`clone`/`create`/
//! `find`, `string.pack`/`lower`/`upper`/`reverse`, `buffer`, `utf8`).
//!
//! | call | unbounded before | now |
//! |---|---|---|
//! | `string.find` plain or without specials | `memchr` + `memcmp` at every start: O(n·m) | replaced: linear `memmem` (Two-Way), meter polled every 1 MiB scanned |
//! | `string.split` | `memcmp` at every position: O(n·m); one allocation per piece | replaced: the same search, meter also polled every 4096 pieces |
//! | (both, preparing the search) | — | linear in the needle, which the memory limit bounds (about 8 ns a byte here) |
//! | `table.sort` without a comparator | O(n log n) comparisons in C | at most `MAX_PLAIN_SORT` items; with a comparator (Luau code, interruptible) no bound |
//! | `string.rep`, `string.format` | one copy of up to the memory limit | results of at most `min(memory limit, MAX_BUILT_STRING)` |
//! | `table.move` | one step per index in `f..e`, up to 2^31 of them when moving nils (a minute here) | moved in chunks of `MOVE_CHUNK`, meter polled between them |
//! | `find`/`match`/`gmatch`/`gsub` with a pattern | backtracking: the matcher calls the interrupt | unchanged, plus a refusal of many quantifiers on long subjects (a clear reason rather than a timeout) |

use std::cell::Cell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use memchr::memmem;
use mlua::{Function, Lua, MultiValue, Table, Value as LuaValue, VmState};

/// The wall-clock backstop is this many times the CPU deadline...
pub(crate) const WALL_BACKSTOP_FACTOR: u32 = 10;
/// ...and never less than this.
pub(crate) const WALL_BACKSTOP_FLOOR: Duration = Duration::from_secs(5);
/// Least wall time between two reads of the CPU clock, so an almost-spent deadline does not make
/// every interrupt a system call; it is also the most a deadline can be overshot by.
const MIN_CPU_SAMPLE: Duration = Duration::from_micros(100);

/// Most bytes one `string.rep` or `string.format` call may build (and never more than the VM's
/// memory limit): about 15 ms of allocating and copying here, and the interrupt runs as soon
/// as the call returns.
pub(crate) const MAX_BUILT_STRING: usize = 16 << 20;
/// Most items `table.sort` sorts without a comparator: its C comparisons never reach the
/// interrupt. Sorting 2^17 numbers took 5–15 ms here; 2^20 took about 60 ms.
pub(crate) const MAX_PLAIN_SORT: usize = 1 << 17;
/// Bytes a plain search scans between two polls of the meter (a few ms at worst here).
const SEARCH_WINDOW: usize = 1 << 20;
/// Items one call of Luau's `table.move` moves before the meter is polled (about 2 ms when
/// every item is nil, its slowest case).
const MOVE_CHUNK: usize = 1 << 16;
/// Pieces `string.split` makes between two polls of the meter.
const SPLIT_POLL_EVERY: usize = 4096;
/// Longest line `print` writes.
const PRINT_BYTES: usize = 4096;
/// Most quantifiers a pattern may carry on a long subject. Lua's matcher backtracks: k
/// quantifiers over n bytes can cost n^k. The CPU deadline stops it too; refusing up front gives
/// the mod author a clear reason instead of a timeout.
const MAX_PATTERN_QUANTIFIERS: usize = 4;
const LONG_SUBJECT: usize = 256;
/// Characters that make a Lua pattern more than a plain string (Luau's `SPECIALS`).
const PATTERN_SPECIALS: &[u8] = b"^$*+?.([%-";

/// A call that ran past its limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub(crate) enum Overrun {
    #[error("cpu deadline of {} ms exceeded", .0.as_millis())]
    Cpu(Duration),
    #[error(
        "wall-clock backstop of {} ms exceeded (the call used less than its cpu deadline of {} ms but did not return)",
        .backstop.as_millis(),
        .cpu.as_millis()
    )]
    Wall { backstop: Duration, cpu: Duration },
}

impl Overrun {
    /// The `kind` recorded in a `package.violation` event.
    pub fn kind(self) -> &'static str {
        match self {
            Overrun::Cpu(_) => "cpu",
            Overrun::Wall { .. } => "wall",
        }
    }

    /// What was exceeded, for "x exceeded its …" messages.
    pub fn limit(self) -> String {
        match self {
            Overrun::Cpu(cpu) => format!("cpu deadline of {} ms", cpu.as_millis()),
            Overrun::Wall { backstop, cpu } => {
                format!("wall-clock backstop of {} ms (cpu deadline {} ms)", backstop.as_millis(), cpu.as_millis())
            }
        }
    }
}

/// The backstop used with a CPU deadline of `cpu`.
pub(crate) fn wall_backstop(cpu: Duration) -> Duration {
    cpu.saturating_mul(WALL_BACKSTOP_FACTOR).max(WALL_BACKSTOP_FLOOR)
}

/// CPU time consumed by the calling thread so far.
fn thread_cpu() -> Option<Duration> {
    cpu_time::ThreadTime::try_now().ok().map(|t| t.as_duration())
}

#[derive(Debug, Clone, Copy)]
struct Armed {
    cpu: Duration,
    /// Thread CPU time when armed; `None` if the clock could not be read (then wall time is
    /// used, which can only end a call sooner).
    cpu_start: Option<Duration>,
    wall_start: Instant,
    backstop: Duration,
    /// No check can fail before this instant (see the module doc).
    next_sample: Instant,
}

/// The deadline of the call running in a VM (see the module doc). One per VM owner, shared by
/// the interrupt, the bounded library functions and the host code working for the call.
#[derive(Debug, Default)]
pub(crate) struct Meter {
    armed: Cell<Option<Armed>>,
    overrun: Cell<Option<Overrun>>,
}

impl Meter {
    pub fn new() -> Rc<Meter> {
        Rc::new(Meter::default())
    }

    /// Starts a deadline of `cpu` of this thread's CPU time, with the usual wall backstop.
    pub(crate) fn arm(&self, cpu: Duration) {
        self.arm_with_backstop(cpu, wall_backstop(cpu));
    }

    /// Starts a deadline with an explicit backstop (tests use a short one).
    pub(crate) fn arm_with_backstop(&self, cpu: Duration, backstop: Duration) {
        let now = Instant::now();
        self.overrun.set(None);
        self.armed.set(Some(Armed { cpu, cpu_start: thread_cpu(), wall_start: now, backstop, next_sample: now }));
    }

    /// Ends the deadline; checks pass until the next `arm`. The overrun, if any, stays readable.
    pub(crate) fn disarm(&self) {
        self.armed.set(None);
    }

    pub(crate) fn is_armed(&self) -> bool {
        self.armed.get().is_some()
    }

    /// The limit this call ran past, if it did (kept until the next `arm`).
    pub(crate) fn overrun(&self) -> Option<Overrun> {
        self.overrun.get()
    }

    /// Checks the deadline now, reading the CPU clock: for the host between pieces of work.
    pub fn check(&self) -> Result<(), Overrun> {
        match self.armed.get() {
            None => Ok(()),
            Some(armed) => self.sample(armed, Instant::now()),
        }
    }

    /// The interrupt's check: reads the CPU clock only when the deadline may have passed.
    pub fn poll(&self) -> Result<(), Overrun> {
        let Some(armed) = self.armed.get() else { return Ok(()) };
        if let Some(overrun) = self.overrun.get() {
            return Err(overrun);
        }
        let now = Instant::now();
        if now < armed.next_sample {
            return Ok(());
        }
        self.sample(armed, now)
    }

    fn sample(&self, mut armed: Armed, now: Instant) -> Result<(), Overrun> {
        if let Some(overrun) = self.overrun.get() {
            return Err(overrun);
        }
        let wall = now.saturating_duration_since(armed.wall_start);
        if wall >= armed.backstop {
            return Err(self.fail(Overrun::Wall { backstop: armed.backstop, cpu: armed.cpu }));
        }
        let used = match (armed.cpu_start, thread_cpu()) {
            (Some(start), Some(now_cpu)) => now_cpu.saturating_sub(start),
            _ => wall,
        };
        if used >= armed.cpu {
            return Err(self.fail(Overrun::Cpu(armed.cpu)));
        }
        let wait = (armed.cpu - used).max(MIN_CPU_SAMPLE).min(armed.backstop - wall);
        armed.next_sample = now + wait;
        self.armed.set(Some(armed));
        Ok(())
    }

    fn fail(&self, overrun: Overrun) -> Overrun {
        self.overrun.set(Some(overrun));
        overrun
    }
}

/// Who a restricted VM is for, and its memory limit.
#[derive(Debug, Clone)]
pub(crate) struct SandboxSpec {
    /// Prefixes `print` output: a package reference, or the file whose header is read.
    pub owner: String,
    pub memory_bytes: usize,
    /// The secrets the VM's package has been handed, kept out of what `print` writes.
    pub print_redaction: Option<Rc<std::cell::RefCell<super::secrets::Seen>>>,
}

#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    #[error("a memory limit of 0 bytes would mean no limit at all (mlua reads 0 as unlimited)")]
    NoMemoryLimit,
    #[error("{}", crate::script::error_message_and_traceback(.0).0)]
    Lua(#[from] mlua::Error),
}

/// Builds a restricted VM whose calls are ended by `meter` (see the module doc).
pub(crate) fn restricted_vm(spec: &SandboxSpec, meter: &Rc<Meter>) -> Result<Lua, SandboxError> {
    if spec.memory_bytes == 0 {
        return Err(SandboxError::NoMemoryLimit);
    }
    let lua = Lua::new();
    lua.set_memory_limit(spec.memory_bytes)?;
    let g = lua.globals();
    for name in ["loadstring", "getfenv", "setfenv", "require", "os", "collectgarbage", "newproxy", "gcinfo"] {
        g.raw_set(name, LuaValue::Nil)?;
    }
    let debug: Table = g.get("debug")?;
    let only_traceback = lua.create_table()?;
    only_traceback.raw_set("traceback", debug.get::<Function>("traceback")?)?;
    g.raw_set("debug", only_traceback)?;
    g.raw_set("print", print_to_stderr(&lua, spec.owner.clone(), spec.print_redaction.clone())?)?;
    bound_library(&lua, spec.memory_bytes.min(MAX_BUILT_STRING), meter)?;
    let m = Rc::clone(meter);
    lua.set_interrupt(move |_| match m.poll() {
        Ok(()) => Ok(VmState::Continue),
        Err(overrun) => Err(mlua::Error::runtime(overrun.to_string())),
    });
    Ok(lua)
}

fn print_to_stderr(lua: &Lua, owner: String, redaction: Option<Rc<std::cell::RefCell<super::secrets::Seen>>>) -> mlua::Result<Function> {
    lua.create_function(move |_, args: mlua::Variadic<LuaValue>| {
        let mut line = Vec::new();
        for (i, v) in args.iter().enumerate() {
            if i > 0 {
                line.push(b'\t');
            }
            match v {
                LuaValue::String(s) => line.extend_from_slice(&s.as_bytes()[..s.as_bytes().len().min(PRINT_BYTES)]),
                other => {
                    line.extend_from_slice(other.to_string().unwrap_or_else(|_| crate::script::lua_type_name(other).to_string()).as_bytes())
                }
            }
            if line.len() >= PRINT_BYTES {
                line.truncate(PRINT_BYTES);
                line.extend_from_slice("…".as_bytes());
                break;
            }
        }
        let line = String::from_utf8_lossy(&line);
        let line = match &redaction {
            Some(seen) => seen.borrow().text(&line),
            None => line.into_owned(),
        };
        // Every line carries the owner, and no control character reaches the terminal: a
        // package cannot forge an engine log line or move the cursor.
        for part in line.split('\n') {
            let shown: String = part
                .chars()
                .flat_map(|c| if c.is_control() && c != '\t' { c.escape_default().collect::<Vec<_>>() } else { vec![c] })
                .collect();
            eprintln!("[{owner}] {shown}");
        }
        Ok(())
    })
}

/// Replaces the library functions whose C loops the interrupt cannot reach (module doc table).
fn bound_library(lua: &Lua, max_built: usize, meter: &Rc<Meter>) -> mlua::Result<()> {
    let string: Table = lua.globals().get("string")?;
    let table: Table = lua.globals().get("table")?;

    let original: Function = string.get("find")?;
    let m = Rc::clone(meter);
    let find = lua.create_function(move |lua, args: MultiValue| {
        if let (Some(LuaValue::String(s)), Some(LuaValue::String(p))) = (args.front(), args.get(1)) {
            let pattern = p.as_bytes();
            let plain = args.get(3).is_some_and(|v| !matches!(v, LuaValue::Nil | LuaValue::Boolean(false)));
            if plain || !pattern.iter().any(|b| PATTERN_SPECIALS.contains(b)) {
                if let Some(init) = integer_arg(lua, args.get(2), 1)? {
                    return plain_find(&s.as_bytes(), &pattern, init, &m);
                }
            } else {
                refuse_costly_pattern("find", s.as_bytes().len(), &pattern)?;
            }
        }
        original.call::<MultiValue>(args)
    })?;
    string.raw_set("find", find)?;

    for name in ["match", "gmatch", "gsub"] {
        let original: Function = string.get(name)?;
        let guarded = lua.create_function(move |_, args: MultiValue| {
            if let (Some(LuaValue::String(s)), Some(LuaValue::String(p))) = (args.front(), args.get(1)) {
                refuse_costly_pattern(name, s.as_bytes().len(), &p.as_bytes())?;
            }
            original.call::<MultiValue>(args)
        })?;
        string.raw_set(name, guarded)?;
    }

    let original: Function = string.get("split")?;
    let m = Rc::clone(meter);
    let split = lua.create_function(move |lua, args: MultiValue| {
        let Some(LuaValue::String(s)) = args.front() else { return original.call::<MultiValue>(args) };
        let separator = match args.get(1) {
            None | Some(LuaValue::Nil) => b",".to_vec(),
            Some(LuaValue::String(sep)) => sep.as_bytes().to_vec(),
            // A number separator is at most a few bytes: Luau's own loop stays linear.
            Some(_) => return original.call::<MultiValue>(args),
        };
        split(lua, &s.as_bytes(), &separator, &m).map(|t| MultiValue::from_iter([LuaValue::Table(t)]))
    })?;
    string.raw_set("split", split)?;

    let original: Function = string.get("rep")?;
    let rep = lua.create_function(move |lua, args: MultiValue| {
        let unit = match args.front() {
            Some(LuaValue::String(s)) => s.as_bytes().len(),
            // A number is repeated as its text: at most a few dozen bytes.
            Some(LuaValue::Integer(_) | LuaValue::Number(_)) => 32,
            _ => return original.call::<MultiValue>(args),
        };
        if let Some(n) = integer_arg(lua, args.get(1), 0)?
            && n > 0
            && unit.saturating_mul(n as usize) > max_built
        {
            return Err(mlua::Error::runtime(format!(
                "string.rep would build {} bytes, more than the {max_built} one call may build in a sandboxed package",
                unit.saturating_mul(n as usize)
            )));
        }
        original.call::<MultiValue>(args)
    })?;
    string.raw_set("rep", rep)?;

    let original: Function = string.get("format")?;
    let format = lua.create_function(move |_, args: MultiValue| {
        if let Some(LuaValue::String(f)) = args.front() {
            let f = f.as_bytes();
            // `%q` writes `\0` as four bytes; every other directive writes a string argument at
            // most once, and anything else in at most a few hundred bytes.
            let per_byte = if f.windows(2).any(|w| w == b"%q") { 4 } else { 1 };
            let mut most = f.len();
            for arg in args.iter().skip(1) {
                most = most.saturating_add(match arg {
                    LuaValue::String(s) => s.as_bytes().len().saturating_mul(per_byte).saturating_add(2),
                    _ => 512,
                });
            }
            if most > max_built {
                return Err(mlua::Error::runtime(format!(
                    "string.format could build up to {most} bytes, more than the {max_built} one call may build in a sandboxed package"
                )));
            }
        }
        original.call::<MultiValue>(args)
    })?;
    string.raw_set("format", format)?;

    let original: Function = table.get("sort")?;
    let sort = lua.create_function(move |_, args: MultiValue| {
        if let Some(LuaValue::Table(t)) = args.front() {
            let comparator = args.get(1).is_some_and(|v| !v.is_nil());
            let n = t.raw_len();
            if !comparator && n > MAX_PLAIN_SORT {
                return Err(mlua::Error::runtime(format!(
                    "table.sort without a comparator sorts at most {MAX_PLAIN_SORT} items in a sandboxed package, and this table has {n}; pass a comparator function (the cpu deadline can interrupt it)"
                )));
            }
        }
        original.call::<MultiValue>(args)
    })?;
    table.raw_set("sort", sort)?;

    let original: Function = table.get("move")?;
    let m = Rc::clone(meter);
    let move_items = lua.create_function(move |lua, args: MultiValue| {
        let (Some(LuaValue::Table(a1)), Some(f), Some(e), Some(t)) = (
            args.front(),
            integer_arg(lua, args.get(1).filter(|v| !v.is_nil()), 0)?,
            integer_arg(lua, args.get(2).filter(|v| !v.is_nil()), 0)?,
            integer_arg(lua, args.get(3).filter(|v| !v.is_nil()), 0)?,
        ) else {
            return original.call::<MultiValue>(args);
        };
        let a2 = match args.get(4) {
            None | Some(LuaValue::Nil) => a1.clone(),
            Some(LuaValue::Table(a2)) => a2.clone(),
            Some(_) => return original.call::<MultiValue>(args),
        };
        let n = e - f + 1;
        // Small moves, and the ones Luau refuses (its own checks, its own messages), go as they are.
        let refused = !(f > 0 || e < i32::MAX as i64 + f) || t > i32::MAX as i64 - n + 1;
        if n <= MOVE_CHUNK as i64 || refused {
            return original.call::<MultiValue>(args);
        }
        // The same order Luau uses (upwards unless the ranges overlap with t above f), one chunk
        // at a time: each chunk's order is then safe too, and the meter runs between chunks.
        let upwards = t > e || t <= f || a1 != &a2;
        let chunks = (n + MOVE_CHUNK as i64 - 1) / MOVE_CHUNK as i64;
        for k in 0..chunks {
            let k = if upwards { k } else { chunks - 1 - k };
            let from = f + k * MOVE_CHUNK as i64;
            let to = (from + MOVE_CHUNK as i64 - 1).min(e);
            original.call::<()>((a1.clone(), from, to, t + (from - f), a2.clone()))?;
            m.poll().map_err(|o| mlua::Error::runtime(o.to_string()))?;
        }
        Ok(MultiValue::from_iter([LuaValue::Table(a2)]))
    })?;
    table.raw_set("move", move_items)?;
    Ok(())
}

/// Reads an integer argument the way `luaL_optinteger` does (numbers truncate, numeric strings
/// convert); `None` when it is something else, so the original function raises its own error.
fn integer_arg(lua: &Lua, arg: Option<&LuaValue>, default: i64) -> mlua::Result<Option<i64>> {
    let as_int = |n: f64| n.trunc().clamp(i32::MIN as f64, i32::MAX as f64) as i64;
    Ok(match arg {
        None | Some(LuaValue::Nil) => Some(default),
        Some(LuaValue::Integer(i)) => Some((*i).clamp(i32::MIN as i64, i32::MAX as i64)),
        Some(LuaValue::Number(n)) => Some(as_int(*n)),
        Some(v @ LuaValue::String(_)) => lua.coerce_number(v.clone())?.map(as_int),
        Some(_) => None,
    })
}

/// `string.find(s, p, init, true)` with Luau's results, in time linear in `s` and `p`.
fn plain_find(s: &[u8], p: &[u8], init: i64, meter: &Meter) -> mlua::Result<MultiValue> {
    let len = s.len() as i64;
    // Luau's `posrelat`, then its clamping of `init` to 1..=len+1.
    let mut init = if init < 0 { (init + len + 1).max(0) } else { init };
    if init < 1 {
        init = 1;
    } else if init > len + 1 {
        return Ok(MultiValue::from_iter([LuaValue::Nil]));
    }
    let finder = memmem::Finder::new(p);
    Ok(match search(&finder, s, (init - 1) as usize, meter)? {
        Some(at) => MultiValue::from_iter([LuaValue::Integer(at as i64 + 1), LuaValue::Integer((at + p.len()) as i64)]),
        None => MultiValue::from_iter([LuaValue::Nil]),
    })
}

/// The first match of `finder`'s needle in `hay` at or after `from`. The search runs in windows
/// of at least `SEARCH_WINDOW` bytes with the meter polled between them: linear time, and never
/// long out of the deadline's reach.
fn search(finder: &memmem::Finder<'_>, hay: &[u8], from: usize, meter: &Meter) -> mlua::Result<Option<usize>> {
    let m = finder.needle().len();
    if m == 0 {
        return Ok((from <= hay.len()).then_some(from));
    }
    let window = SEARCH_WINDOW.max(m);
    let mut pos = from;
    while pos + m <= hay.len() {
        // Every match starting in pos..pos+window lies inside this slice.
        let end = (pos + window + m - 1).min(hay.len());
        if let Some(at) = finder.find(&hay[pos..end]) {
            return Ok(Some(pos + at));
        }
        pos += window;
        meter.poll().map_err(|o| mlua::Error::runtime(o.to_string()))?;
    }
    Ok(None)
}

/// `string.split` with Luau's results: an empty separator gives each byte, otherwise the
/// pieces between non-overlapping matches, the last piece always included.
fn split(lua: &Lua, s: &[u8], separator: &[u8], meter: &Meter) -> mlua::Result<Table> {
    let out = lua.create_table()?;
    let mut pieces = 0usize;
    let mut push = |piece: &[u8]| -> mlua::Result<()> {
        pieces += 1;
        if pieces.is_multiple_of(SPLIT_POLL_EVERY) {
            meter.poll().map_err(|o| mlua::Error::runtime(o.to_string()))?;
        }
        out.raw_set(pieces, lua.create_string(piece)?)
    };
    if separator.is_empty() {
        for i in 0..s.len() {
            push(&s[i..i + 1])?;
        }
    } else {
        let finder = memmem::Finder::new(separator);
        let mut start = 0;
        while let Some(at) = search(&finder, s, start, meter)? {
            push(&s[start..at])?;
            start = at + separator.len();
        }
        push(&s[start..])?;
    }
    Ok(out)
}

/// Quantifier characters outside `[...]` sets, the cost driver of Lua patterns.
fn pattern_quantifiers(pattern: &[u8]) -> usize {
    let (mut n, mut in_set, mut escaped) = (0, false, false);
    for &c in pattern {
        if escaped {
            escaped = false;
            continue;
        }
        match c {
            b'%' => escaped = true,
            b'[' => in_set = true,
            b']' => in_set = false,
            b'*' | b'+' | b'-' | b'?' if !in_set => n += 1,
            _ => {}
        }
    }
    n
}

fn refuse_costly_pattern(function: &str, subject: usize, pattern: &[u8]) -> mlua::Result<()> {
    let quantifiers = pattern_quantifiers(pattern);
    if subject > LONG_SUBJECT && quantifiers > MAX_PATTERN_QUANTIFIERS {
        return Err(mlua::Error::runtime(format!(
            "string.{function}: pattern too costly for a sandboxed package: {quantifiers} quantifiers on a {subject}-byte subject (at most {MAX_PATTERN_QUANTIFIERS} beyond {LONG_SUBJECT} bytes)"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vm(meter: &Rc<Meter>) -> Lua {
        restricted_vm(&SandboxSpec { owner: "test".into(), memory_bytes: 64 << 20, print_redaction: None }, meter).unwrap()
    }

    fn message(e: mlua::Error) -> String {
        crate::script::error_message_and_traceback(&e).0
    }

    /// Spins until `meter.check()` fails; a hang guard, not a timing assertion.
    fn spin_until_overrun(meter: &Meter) -> Overrun {
        let guard = Instant::now() + Duration::from_secs(120);
        loop {
            if let Err(o) = meter.check() {
                return o;
            }
            assert!(Instant::now() < guard, "the meter never ran out");
            std::hint::black_box((0..1000).sum::<u64>());
        }
    }

    #[test]
    fn the_deadline_counts_this_threads_cpu_time_not_wall_time() {
        let meter = Meter::new();
        meter.arm_with_backstop(Duration::from_millis(20), Duration::from_secs(600));
        // Sleeping uses wall time, not CPU time: a call waiting on a busy host is not ended.
        std::thread::sleep(Duration::from_millis(100));
        assert_eq!(meter.check(), Ok(()));
        assert_eq!(spin_until_overrun(&meter), Overrun::Cpu(Duration::from_millis(20)));
        assert_eq!(meter.poll(), Err(Overrun::Cpu(Duration::from_millis(20))), "an overrun stays until the next arm");
        meter.arm(Duration::from_secs(600));
        assert_eq!(meter.check(), Ok(()));
    }

    #[test]
    fn the_wall_backstop_ends_a_call_that_stops_using_cpu() {
        let meter = Meter::new();
        meter.arm_with_backstop(Duration::from_secs(600), Duration::from_millis(20));
        std::thread::sleep(Duration::from_millis(50));
        let overrun = meter.check().unwrap_err();
        assert_eq!(overrun.kind(), "wall");
        assert!(overrun.to_string().contains("wall-clock backstop of 20 ms"), "{overrun}");
    }

    #[test]
    fn the_backstop_is_far_above_the_deadline() {
        assert_eq!(wall_backstop(Duration::from_millis(50)), Duration::from_secs(5));
        assert_eq!(wall_backstop(Duration::from_millis(1000)), Duration::from_secs(10));
    }

    #[test]
    fn a_disarmed_meter_never_fails() {
        let meter = Meter::new();
        assert_eq!(meter.check(), Ok(()));
        meter.arm_with_backstop(Duration::ZERO, Duration::from_secs(600));
        assert!(meter.check().is_err());
        meter.disarm();
        assert_eq!((meter.poll(), meter.check()), (Ok(()), Ok(())));
    }

    #[test]
    fn an_endless_loop_stops_at_the_deadline_even_under_pcall() {
        let meter = Meter::new();
        let lua = vm(&meter);
        meter.arm(Duration::from_millis(30));
        let e = lua.load("for i = 1, 100 do pcall(function() while true do end end) end").exec().unwrap_err();
        assert!(message(e).contains("cpu deadline of 30 ms exceeded"));
        assert_eq!(meter.overrun(), Some(Overrun::Cpu(Duration::from_millis(30))));
    }

    #[test]
    fn a_zero_memory_limit_is_refused() {
        let e = restricted_vm(&SandboxSpec { owner: "x".into(), memory_bytes: 0, print_redaction: None }, &Meter::new()).unwrap_err();
        assert!(e.to_string().contains("0 bytes would mean no limit"), "{e}");
    }

    #[test]
    fn dangerous_globals_are_gone() {
        let lua = vm(&Meter::new());
        let seen: String = lua
            .load("return tostring(loadstring) .. tostring(getfenv) .. tostring(os) .. tostring(debug.getinfo) .. tostring(collectgarbage)")
            .eval()
            .unwrap();
        assert_eq!(seen, "nilnilnilnilnil");
    }

    /// Runs `expr` in a stock VM and in a restricted one; both must agree.
    fn same_as_luau(stock: &Lua, restricted: &Lua, expr: &str) {
        let src = format!(
            "local r = table.pack({expr}) local out = {{}} for i = 1, r.n do out[i] = tostring(r[i]) end return table.concat(out, ',')"
        );
        let want: String = stock.load(&src).eval().unwrap_or_else(|e| format!("error: {}", message(e)));
        let got: String = restricted.load(&src).eval().unwrap_or_else(|e| format!("error: {}", message(e)));
        assert_eq!(got, want, "{expr}");
    }

    #[test]
    fn plain_find_and_split_answer_like_luau() {
        let stock = Lua::new();
        let restricted = vm(&Meter::new());
        for hay in ["", "a", "abcabc", "a,b,,c,", "xx.yy", "aaaa"] {
            for needle in ["", "a", "bc", "abc", "abcabcx", ",", ".", "aa"] {
                for init in ["nil", "1", "0", "-1", "-3", "-100", "2", "4", "6", "7", "8", "'2'", "2.7"] {
                    same_as_luau(&stock, &restricted, &format!("string.find({hay:?}, {needle:?}, {init}, true)"));
                    if !needle.contains('.') {
                        same_as_luau(&stock, &restricted, &format!("string.find({hay:?}, {needle:?}, {init})"));
                    }
                }
                let count = format!("(function() local t = string.split({hay:?}, {needle:?}) return #t, table.concat(t, '|') end)()");
                same_as_luau(&stock, &restricted, &count);
            }
            same_as_luau(&stock, &restricted, &format!("#string.split({hay:?}), table.concat(string.split({hay:?}), '|')"));
        }
        assert!(restricted.load("return string.find('abc', 'b', {}, true)").exec().is_err(), "a bad init is still an error");
        same_as_luau(&stock, &restricted, "('hello'):find('l')");
        same_as_luau(&stock, &restricted, "string.find(12345, 34)");
    }

    #[test]
    fn the_windowed_search_finds_matches_across_window_edges() {
        let meter = Meter::new();
        let mut hay = vec![b'a'; 3 * SEARCH_WINDOW + 10];
        for at in [0, SEARCH_WINDOW - 3, SEARCH_WINDOW, 2 * SEARCH_WINDOW - 1, 3 * SEARCH_WINDOW + 5] {
            hay[at..at + 5].copy_from_slice(b"xyzzy");
            let finder = memmem::Finder::new(b"xyzzy");
            assert_eq!(search(&finder, &hay, 0, &meter).unwrap(), Some(at), "needle at {at}");
            assert_eq!(search(&finder, &hay, at + 1, &meter).unwrap(), None, "nothing after {at}");
            hay[at..at + 5].copy_from_slice(b"aaaaa");
        }
        let long = vec![b'a'; SEARCH_WINDOW + 7];
        let finder = memmem::Finder::new(&long);
        assert_eq!(search(&finder, &hay, 5, &meter).unwrap(), Some(5), "a needle longer than a window");
        assert_eq!(search(&memmem::Finder::new(b""), &hay, hay.len(), &meter).unwrap(), Some(hay.len()));
    }

    #[test]
    fn one_call_builds_at_most_the_bound() {
        let lua = vm(&Meter::new());
        let n: usize = lua.load(format!("return #string.rep('ab', {})", MAX_BUILT_STRING / 2)).eval().unwrap();
        assert_eq!(n, MAX_BUILT_STRING);
        let e = message(lua.load(format!("return string.rep('ab', {})", MAX_BUILT_STRING / 2 + 1)).exec().unwrap_err());
        assert!(e.contains(&format!("string.rep would build {} bytes", MAX_BUILT_STRING + 2)), "{e}");
        let e = message(lua.load("local s = string.rep('x', 6000000) return string.format('%s%s%s', s, s, s)").exec().unwrap_err());
        assert!(e.contains("string.format could build up to 18000012 bytes"), "{e}");
        let small = restricted_vm(&SandboxSpec { owner: "x".into(), memory_bytes: 2 << 20, print_redaction: None }, &Meter::new()).unwrap();
        let e = message(small.load("return string.rep('x', 3000000)").exec().unwrap_err());
        assert!(e.contains("more than the 2097152 one call may build"), "never more than the memory limit: {e}");
    }

    #[test]
    fn a_plain_sort_is_bounded_and_a_comparator_lifts_the_bound() {
        let lua = vm(&Meter::new());
        let sorted: bool = lua.load(format!("local t = table.create({MAX_PLAIN_SORT}, 1) table.sort(t) return true")).eval().unwrap();
        assert!(sorted);
        let e = message(lua.load(format!("table.sort(table.create({}, 1))", MAX_PLAIN_SORT + 1)).exec().unwrap_err());
        assert!(e.contains(&format!("this table has {}", MAX_PLAIN_SORT + 1)), "{e}");
        let sorted: bool = lua
            .load(format!("local t = table.create({}, 1) table.sort(t, function(a, b) return a < b end) return true", MAX_PLAIN_SORT + 1))
            .eval()
            .unwrap();
        assert!(sorted);
    }

    #[test]
    fn table_move_answers_like_luau_and_is_stopped_by_the_meter() {
        let stock = Lua::new();
        let restricted = vm(&Meter::new());
        let n = 3 * MOVE_CHUNK + 17;
        for (f, e, t, other) in
            [(1, n, 1, true), (1, n, 5, false), (5, n, 1, false), (1, n - 10, 11, false), (3, n, 2, false), (1, n, -20, true)]
        {
            let src = format!(
                "local a = {{}} for i = 1, {n} do a[i] = i * 3 end local b = {} \
                 local r = table.move(a, {f}, {e}, {t}, b) local sum = 0 \
                 for k, v in r do sum = (sum + ((k * 7919 + v * 104729) % 1000003) * (k % 97 + 1)) % 1000000007 end return sum",
                if other { "{}" } else { "a" }
            );
            let want: i64 = stock.load(&src).eval().unwrap();
            let got: i64 = restricted.load(&src).eval().unwrap();
            assert_eq!(got, want, "table.move(a, {f}, {e}, {t}, {})", if other { "b" } else { "a" });
        }
        let meter = Meter::new();
        let lua = vm(&meter);
        meter.arm_with_backstop(Duration::from_millis(30), Duration::from_secs(600));
        let e = message(lua.load("table.move({}, 1, 2^31 - 2, -(2^30), {})").exec().unwrap_err());
        assert!(e.contains("cpu deadline of 30 ms exceeded"), "{e}");
    }

    #[test]
    fn split_polls_the_meter_between_pieces() {
        let meter = Meter::new();
        let lua = vm(&meter);
        let commas = vec![b','; 100_000];
        assert_eq!(split(&lua, &commas, b",", &meter).unwrap().raw_len(), 100_001);
        meter.arm_with_backstop(Duration::ZERO, Duration::from_secs(600));
        let e = message(split(&lua, &commas, b",", &meter).unwrap_err());
        assert!(e.contains("cpu deadline of 0 ms exceeded"), "{e}");
    }
}
