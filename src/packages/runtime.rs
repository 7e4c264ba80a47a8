//! `PackageRuntime`: where one package's code runs, and the only door out of it.
//!
//! Untrusted and verified packages get their own Luau VM: sandboxed (read-only libraries, a
//! fresh environment per file), without `loadstring`, `getfenv`, `setfenv`, `os`, or `debug`
//! beyond `traceback`, with `require` limited to the package's own files, a memory limit on the
//! VM and a CPU deadline on every call (the interrupt keeps failing past the deadline, so `pcall`
//! cannot swallow it). The VM is created once and reused for every call (the pool); a VM that
//! hit a limit is discarded and rebuilt from the package's files at its next call. Local
//! packages run in the engine VM in their own environment, like the demos.
//!
//! The one host function is `host.invoke(skill, input)`: it goes through the skill registry as
//! the agent whose call is running, with permissions cut down to the package's capabilities,
//! and the package named for provenance.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;
use std::time::{Duration, Instant};

use mlua::{Function, Lua, Table, Value as LuaValue, VmState};
use serde_json::{Value, json};

use super::discover::Source;
use super::manifest::{Limits, Manifest, Trust};
use crate::policy::PermissionSet;
use crate::script::convert::{json_to_lua, lua_to_json};
use crate::script::error_message_and_traceback;
use crate::skills::{CallInfo, Caller, ErrorCode, ExternalHandler, Handler, HandlerFailure, Skill, SkillFailure, SkillResponse};

/// What packages need from the engine.
pub trait Host {
    /// Runs a skill through the registry pipeline.
    fn invoke(&self, caller: &Caller, skill: &str, input: Value) -> SkillResponse;
    /// Records an event in the world log; returns its id.
    fn record(&self, actor: &str, thread: &str, event_type: &str, payload: Value) -> String;
    /// The engine VM (for local packages).
    fn engine_lua(&self) -> Option<Lua>;
}

struct Handlers {
    handler: Function,
    before: Option<Function>,
    after: Option<Function>,
}

struct Vm {
    lua: Lua,
    handlers: HashMap<String, Handlers>,
}

pub struct PackageRuntime {
    pub reference: String,
    pub trust: Trust,
    pub limits: Limits,
    /// What `host.invoke` may use: declared capabilities ∩ what the loading profile grants.
    pub capabilities: PermissionSet,
    source: Source,
    entry: String,
    host: Rc<dyn Host>,
    vm: RefCell<Option<Vm>>,
    /// Callers of the package's skills now running, innermost last.
    frames: Rc<RefCell<Vec<Caller>>>,
    deadline: Rc<Cell<Option<Instant>>>,
    deadline_hit: Rc<Cell<bool>>,
    rebuilds: Cell<u64>,
}

impl std::fmt::Debug for PackageRuntime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PackageRuntime").field("reference", &self.reference).field("trust", &self.trust).finish()
    }
}

/// Why a load failed (the message names the file and line when Lua reported one).
pub type LoadError = String;

fn lua_err(e: mlua::Error) -> String {
    let (message, _) = error_message_and_traceback(&e);
    message
}

/// Quantifier characters outside `[...]` sets, the cost driver of Lua patterns.
fn pattern_quantifiers(pattern: &str) -> usize {
    let (mut n, mut in_set, mut escaped) = (0, false, false);
    for c in pattern.chars() {
        if escaped {
            escaped = false;
            continue;
        }
        match c {
            '%' => escaped = true,
            '[' => in_set = true,
            ']' => in_set = false,
            '*' | '+' | '-' | '?' if !in_set => n += 1,
            _ => {}
        }
    }
    n
}

/// Most quantifiers a sandboxed pattern may carry on a long subject. Lua's matcher backtracks:
/// k quantifiers over n bytes can cost n^k. The CPU deadline would stop it too; refusing up
/// front gives the mod author a clear reason instead of a timeout.
const MAX_PATTERN_QUANTIFIERS: usize = 4;
const LONG_SUBJECT: usize = 256;

impl PackageRuntime {
    /// Builds the runtime and its skills. Nothing is registered here: the caller registers the
    /// skills all at once, or not at all.
    pub fn load(
        source: &Source,
        manifest: &Manifest,
        granted: PermissionSet,
        host: Rc<dyn Host>,
    ) -> Result<(Rc<Self>, Vec<Skill>), LoadError> {
        let entry = match (&manifest.main, source.kind) {
            (Some(main), _) => main.clone(),
            (None, super::discover::Kind::SingleFile) => source.files.first().map(|f| f.0.clone()).unwrap_or_default(),
            (None, super::discover::Kind::Folder) => ["init.luau", "init.lua"]
                .iter()
                .find(|f| source.file(f).is_some())
                .map(|f| f.to_string())
                .unwrap_or_else(|| "init.luau".into()),
        };
        if source.file(&entry).is_none() {
            return Err(format!("{}: entry file '{entry}' is missing", source.path.display()));
        }
        let mut capabilities = PermissionSet::EMPTY;
        for c in &manifest.capabilities {
            capabilities.insert(*c);
        }
        let runtime = Rc::new(PackageRuntime {
            reference: manifest.reference(),
            trust: manifest.trust,
            limits: manifest.limits,
            capabilities: capabilities.intersect(granted),
            source: source.clone(),
            entry,
            host,
            vm: RefCell::new(None),
            frames: Rc::new(RefCell::new(Vec::new())),
            deadline: Rc::new(Cell::new(None)),
            deadline_hit: Rc::new(Cell::new(false)),
            rebuilds: Cell::new(0),
        });
        let (vm, defs) = runtime.build_vm()?;
        let mut skills = Vec::new();
        for def in defs {
            let mut skill = Skill::from_table(&vm.lua, &def, &runtime.display_path()).map_err(|e| e.to_string())?;
            skill.handler = Handler::External(Rc::clone(&runtime) as Rc<dyn ExternalHandler>);
            skills.push(skill);
        }
        runtime.vm.replace(Some(vm));
        Ok((runtime, skills))
    }

    fn display_path(&self) -> String {
        match self.source.kind {
            super::discover::Kind::SingleFile => self.source.path.display().to_string(),
            super::discover::Kind::Folder => self.source.path.join(&self.entry).display().to_string(),
        }
    }

    fn chunk_name(&self, file: &str) -> String {
        match self.source.kind {
            super::discover::Kind::SingleFile => format!("@{}", self.source.path.display()),
            super::discover::Kind::Folder => format!("@{}", self.source.path.join(file).display()),
        }
    }

    /// How many times the VM was discarded and rebuilt after hitting a limit.
    pub fn rebuilds(&self) -> u64 {
        self.rebuilds.get()
    }

    /// Creates the VM, runs the entry file, and collects its skill definitions.
    fn build_vm(&self) -> Result<(Vm, Vec<Table>), LoadError> {
        let lua = match self.trust {
            Trust::Local => self.host.engine_lua().ok_or("the engine VM is gone")?,
            Trust::Untrusted | Trust::Verified => self.restricted_vm().map_err(lua_err)?,
        };
        let globals = lua.globals();
        let require = self.package_require(&lua).map_err(lua_err)?;
        let host_table = self.host_table(&lua).map_err(lua_err)?;
        let dsl: Table = lua.load(crate::skills::SCHEMA_DSL).set_name("@limina/schema.luau").eval().map_err(lua_err)?;
        let env = self.file_env(&lua, &globals, &require, &host_table, &dsl).map_err(lua_err)?;
        let source = self.source.file(&self.entry).unwrap_or_default().to_string();
        self.deadline.set(Some(Instant::now() + Duration::from_secs_f64((self.limits.cpu_ms * 4.0).min(2000.0) / 1000.0)));
        let returned: LuaValue = lua.load(source).set_name(self.chunk_name(&self.entry)).set_environment(env).eval().map_err(|e| {
            self.deadline.set(None);
            lua_err(e)
        })?;
        self.deadline.set(None);
        let defs = skill_defs(&returned).map_err(|e| format!("{}: {e}", self.display_path()))?;
        let mut handlers = HashMap::new();
        for def in &defs {
            let name: String = def.raw_get("name").unwrap_or_default();
            let handler: Option<Function> = def.raw_get("handler").ok().flatten();
            let hooks: Option<Table> = def.raw_get("hooks").ok().flatten();
            let hook = |k: &str| hooks.as_ref().and_then(|h| h.raw_get::<Option<Function>>(k).ok().flatten());
            if let Some(handler) = handler {
                handlers.insert(name, Handlers { handler, before: hook("before"), after: hook("after") });
            }
        }
        // Sandboxed: the globals installed above become read-only now; scripts write to their
        // own environments.
        if self.trust != Trust::Local {
            lua.sandbox(true).map_err(lua_err)?;
        }
        Ok((Vm { lua, handlers }, defs))
    }

    fn restricted_vm(&self) -> mlua::Result<Lua> {
        let lua = Lua::new();
        lua.set_memory_limit(self.limits.memory_bytes)?;
        let g = lua.globals();
        for name in ["loadstring", "getfenv", "setfenv", "require", "os", "collectgarbage", "newproxy", "gcinfo"] {
            g.raw_set(name, LuaValue::Nil)?;
        }
        let debug: Table = g.get("debug")?;
        let only_traceback = lua.create_table()?;
        only_traceback.set("traceback", debug.get::<Function>("traceback")?)?;
        g.raw_set("debug", only_traceback)?;
        let reference = self.reference.clone();
        g.raw_set(
            "print",
            lua.create_function(move |lua, args: mlua::Variadic<LuaValue>| {
                let parts: Vec<String> =
                    args.iter().map(|v| v.to_string().unwrap_or_else(|_| crate::script::lua_type_name(v).to_string())).collect();
                let _ = lua;
                eprintln!("[{reference}] {}", parts.join("\t"));
                Ok(())
            })?,
        )?;
        // Guard the backtracking matcher (it runs in C, out of the interrupt's reach).
        let string: Table = g.get("string")?;
        for name in ["find", "match", "gmatch", "gsub"] {
            let original: Function = string.get(name)?;
            let guarded = lua.create_function(move |_, args: mlua::MultiValue| {
                let subject = args.front().and_then(|v| v.as_string().map(|s| s.as_bytes().len())).unwrap_or(0);
                let pattern = args.get(1).and_then(|v| v.as_string().map(|s| s.to_string_lossy())).unwrap_or_default();
                let quantifiers = pattern_quantifiers(&pattern);
                if subject > LONG_SUBJECT && quantifiers > MAX_PATTERN_QUANTIFIERS {
                    return Err(mlua::Error::runtime(format!(
                        "pattern too costly for a sandboxed package: {quantifiers} quantifiers on a {subject}-byte subject (at most {MAX_PATTERN_QUANTIFIERS} beyond {LONG_SUBJECT} bytes)"
                    )));
                }
                original.call::<mlua::MultiValue>(args)
            })?;
            string.raw_set(name, guarded)?;
        }
        let deadline = Rc::clone(&self.deadline);
        let hit = Rc::clone(&self.deadline_hit);
        let cpu_ms = self.limits.cpu_ms;
        lua.set_interrupt(move |_| {
            if deadline.get().is_some_and(|d| Instant::now() > d) {
                hit.set(true);
                return Err(mlua::Error::runtime(format!("cpu deadline of {cpu_ms} ms exceeded")));
            }
            Ok(VmState::Continue)
        });
        Ok(lua)
    }

    /// A fresh environment for one file: its globals are its own, reads fall through.
    fn file_env(&self, lua: &Lua, globals: &Table, require: &Function, host: &Table, dsl: &Table) -> mlua::Result<Table> {
        let env = lua.create_table()?;
        env.raw_set("require", require.clone())?;
        env.raw_set("host", host.clone())?;
        env.raw_set("s", dsl.clone())?;
        let meta = lua.create_table()?;
        meta.raw_set("__index", globals.clone())?;
        env.set_metatable(Some(meta))?;
        Ok(env)
    }

    /// `require` over the package's own files only.
    fn package_require(&self, lua: &Lua) -> mlua::Result<Function> {
        let files: Rc<Vec<(String, String)>> = Rc::new(self.source.files.clone());
        let cache: Rc<RefCell<HashMap<String, LuaValue>>> = Rc::new(RefCell::new(HashMap::new()));
        let base = match self.source.kind {
            super::discover::Kind::SingleFile => None,
            super::discover::Kind::Folder => Some(self.source.path.clone()),
        };
        lua.create_function(move |lua, name: String| {
            let refuse = |why: String| crate::script::located_error(lua, format!("require('{name}'): {why}"));
            let rel = name.strip_prefix("./").unwrap_or(&name);
            if rel.is_empty() || rel.starts_with('/') || rel.contains('\\') || rel.split('/').any(|p| p == ".." || p == "." || p.is_empty())
            {
                return Err(refuse("a package can only require its own files (no '..', no absolute paths)".into()));
            }
            let Some(base) = &base else { return Err(refuse("a single-file package has no other files to require".into())) };
            let candidates = [format!("{rel}.luau"), format!("{rel}.lua"), format!("{rel}/init.luau"), format!("{rel}/init.lua")];
            let Some((file, source)) = candidates.iter().find_map(|c| files.iter().find(|(p, _)| p == c)) else {
                return Err(refuse("no such file in this package".into()));
            };
            if let Some(v) = cache.borrow().get(file) {
                return Ok(v.clone());
            }
            let env = lua.create_table()?;
            let meta = lua.create_table()?;
            meta.raw_set("__index", lua.globals())?;
            env.set_metatable(Some(meta))?;
            let value: LuaValue =
                lua.load(source.as_str()).set_name(format!("@{}", base.join(file).display())).set_environment(env).call(())?;
            let value = if value.is_nil() { LuaValue::Boolean(true) } else { value };
            cache.borrow_mut().insert(file.clone(), value.clone());
            Ok(value)
        })
    }

    /// `host.invoke(skill, input)`: the registry, as the running caller, within the package's
    /// capabilities. Never raises for a skill failure (like `limina.call`).
    fn host_table(&self, lua: &Lua) -> mlua::Result<Table> {
        let host = Rc::clone(&self.host);
        let frames = Rc::clone(&self.frames);
        let reference = self.reference.clone();
        let t = lua.create_table()?;
        t.raw_set(
            "invoke",
            lua.create_function(move |lua, (name, input): (LuaValue, LuaValue)| {
                let LuaValue::String(name) = name else {
                    return Err(crate::script::located_error(lua, "host.invoke: the skill name must be a string"));
                };
                let name = name.to_str()?.to_string();
                let caller = frames.borrow().last().cloned().ok_or_else(|| {
                    crate::script::located_error(
                        lua,
                        format!("host.invoke({name}): only available while one of {reference}'s skills is running"),
                    )
                })?;
                let response = match lua_to_json(lua, &input, "input") {
                    Ok(input) => host.invoke(&caller, &name, input),
                    Err(e) => SkillResponse {
                        success: false,
                        result: None,
                        error: Some(SkillFailure { code: ErrorCode::InvalidInput, message: format!("invalid input for {name}: {e}") }),
                        metadata: crate::skills::ResponseMetadata { execution_time_ms: 0.0, events_emitted: Vec::new() },
                    },
                };
                json_to_lua(lua, &serde_json::to_value(&response).unwrap_or(Value::Null))
            })?,
        )?;
        t.set_readonly(true);
        Ok(t)
    }

    /// The pooled VM (rebuilt here if a limit discarded it) and a skill's functions.
    fn checkout(&self, skill: &str) -> Result<(Lua, Function, Option<Function>, Option<Function>), SkillFailure> {
        if self.vm.borrow().is_none() {
            let (vm, _) = self.build_vm().map_err(|e| SkillFailure {
                code: ErrorCode::HandlerError,
                message: format!("{}: cannot rebuild its VM: {e}", self.reference),
            })?;
            self.rebuilds.set(self.rebuilds.get() + 1);
            self.vm.replace(Some(vm));
        }
        let vm = self.vm.borrow();
        let vm = vm.as_ref().ok_or_else(|| SkillFailure { code: ErrorCode::HandlerError, message: "no VM".into() })?;
        let h = vm
            .handlers
            .get(skill)
            .ok_or_else(|| SkillFailure { code: ErrorCode::NotFound, message: format!("{} has no handler for {skill}", self.reference) })?;
        Ok((vm.lua.clone(), h.handler.clone(), h.before.clone(), h.after.clone()))
    }

    /// Checks a VM out of the pool without calling anything (for the benchmark).
    pub fn checkout_cost_probe(&self, skill: &str) -> bool {
        self.checkout(skill).is_ok()
    }

    fn make_ctx(lua: &Lua, caller: &Caller, call: &CallInfo<'_>, package: &str) -> mlua::Result<Table> {
        let ctx = lua.create_table()?;
        ctx.raw_set("agentId", &*caller.agent_id)?;
        ctx.raw_set("sessionId", &*caller.session_id)?;
        ctx.raw_set("profile", &*caller.profile)?;
        ctx.raw_set("tick", call.tick)?;
        ctx.raw_set("package", package)?;
        ctx.raw_set(
            "fail",
            lua.create_function(|_, (code, message): (String, String)| -> mlua::Result<()> {
                Err(HandlerFailure::new(ErrorCode::parse(&code).unwrap_or(ErrorCode::HandlerError), message).into_lua())
            })?,
        )?;
        if let Some(d) = call.decision_id {
            ctx.raw_set("decisionId", d)?;
        }
        Ok(ctx)
    }

    fn violation(&self, caller: &Caller, skill: &str, kind: &str, message: &str) {
        let payload = json!({"package": self.reference, "skill": skill, "kind": kind, "message": message});
        self.host.record(&caller.agent_id, &caller.session_id, "package.violation", payload);
    }
}

/// A mod returns `{ package = {...}, skills = {...} }`, `{ skills = {...} }`, or a list of skill
/// definitions.
fn skill_defs(returned: &LuaValue) -> Result<Vec<Table>, String> {
    let LuaValue::Table(t) = returned else {
        return Err(format!("a mod must return a table of skills, got {}", crate::script::lua_type_name(returned)));
    };
    let list = match t.raw_get::<LuaValue>("skills") {
        Ok(LuaValue::Table(s)) => s,
        Ok(LuaValue::Nil) if t.raw_len() > 0 => t.clone(),
        Ok(LuaValue::Nil) => return Ok(Vec::new()),
        _ => return Err("`skills` must be a list of skill definitions".into()),
    };
    list.sequence_values::<Table>().collect::<Result<Vec<_>, _>>().map_err(|e| format!("`skills` must hold skill definition tables ({e})"))
}

/// A throwaway VM for reading manifests: 16 MiB, 200 ms (reported as `what took longer…`), no
/// loadstring/getfenv/setfenv/require/os. The caller adds what it needs, then sandboxes it.
fn manifest_vm(what: &'static str) -> Result<Lua, String> {
    let lua = Lua::new();
    lua.set_memory_limit(16 << 20).map_err(lua_err)?;
    for name in ["loadstring", "getfenv", "setfenv", "require", "os"] {
        lua.globals().raw_set(name, LuaValue::Nil).map_err(lua_err)?;
    }
    let deadline = Instant::now() + Duration::from_millis(200);
    lua.set_interrupt(move |_| {
        if Instant::now() > deadline { Err(mlua::Error::runtime(format!("{what} took longer than 200 ms"))) } else { Ok(VmState::Continue) }
    });
    Ok(lua)
}

/// Reads the `package` header of a single-file mod, evaluating it in a throwaway restricted VM.
pub fn read_header(source: &Source) -> Result<Option<Value>, String> {
    let lua = manifest_vm("reading the header")?;
    let dsl: Table = lua.load(crate::skills::SCHEMA_DSL).eval().map_err(lua_err)?;
    let host = lua.create_table().map_err(lua_err)?;
    lua.globals().raw_set("s", dsl).map_err(lua_err)?;
    lua.globals().raw_set("host", host).map_err(lua_err)?;
    lua.globals()
        .raw_set("require", lua.create_function(|_, _: String| -> mlua::Result<()> { Ok(()) }).map_err(lua_err)?)
        .map_err(lua_err)?;
    lua.sandbox(true).map_err(lua_err)?;
    let (file, text) = source.files.first().ok_or("empty package")?;
    let name = match source.kind {
        super::discover::Kind::SingleFile => source.path.display().to_string(),
        super::discover::Kind::Folder => source.path.join(file).display().to_string(),
    };
    let returned: LuaValue = lua.load(text.as_str()).set_name(format!("@{name}")).eval().map_err(lua_err)?;
    let LuaValue::Table(t) = returned else { return Ok(None) };
    match t.raw_get::<LuaValue>("package").map_err(lua_err)? {
        LuaValue::Nil => Ok(None),
        header => lua_to_json(&lua, &header, "package").map(Some).map_err(|e| format!("{name}: {e}")),
    }
}

/// Evaluates a folder package's `package.luau` (pure data) in a throwaway restricted VM.
pub fn read_manifest_file(path: &std::path::Path, text: &str) -> Result<Value, String> {
    let lua = manifest_vm("the manifest")?;
    lua.sandbox(true).map_err(lua_err)?;
    let v: LuaValue = lua.load(text).set_name(format!("@{}", path.display())).eval().map_err(lua_err)?;
    lua_to_json(&lua, &v, "package").map_err(|e| format!("{}: {e}", path.display()))
}

impl ExternalHandler for PackageRuntime {
    fn call(&self, skill: &str, input: &Value, call: &CallInfo<'_>) -> Result<Value, SkillFailure> {
        let (lua, handler, before, after) = self.checkout(skill)?;
        // The package acts as the caller, never with more than its capabilities.
        let mut caller = call.caller.clone();
        caller.permissions = caller.permissions.intersect(self.capabilities);
        caller.package = Some(self.reference.as_str().into());
        let outermost = self.frames.borrow().is_empty();
        if outermost && self.trust != Trust::Local {
            self.deadline_hit.set(false);
            self.deadline.set(Some(Instant::now() + Duration::from_secs_f64(self.limits.cpu_ms / 1000.0)));
        }
        self.frames.borrow_mut().push(caller.clone());
        let result = (|| -> Result<LuaValue, mlua::Error> {
            let input = json_to_lua(&lua, input)?;
            let ctx = Self::make_ctx(&lua, &caller, call, &self.reference)?;
            if let Some(before) = &before {
                before.call::<()>((input.clone(), ctx.clone()))?;
            }
            let raw: LuaValue = handler.call((input, ctx.clone()))?;
            if let Some(after) = &after {
                after.call::<()>((raw.clone(), ctx))?;
            }
            Ok(raw)
        })();
        self.frames.borrow_mut().pop();
        let hit_deadline = self.deadline_hit.get();
        if outermost {
            self.deadline.set(None);
        }
        let raw = match result {
            Ok(raw) => raw,
            Err(e) => {
                if let Some(f) = e.downcast_ref::<HandlerFailure>() {
                    return Err(SkillFailure { code: f.code, message: f.message.clone() });
                }
                let memory = matches!(crate::script::error_message_and_traceback(&e), (ref m, _) if m.starts_with("out of memory"));
                let (message, _) = error_message_and_traceback(&e);
                if hit_deadline || memory {
                    let (kind, limit) = if memory {
                        ("memory", format!("memory limit of {} bytes", self.limits.memory_bytes))
                    } else {
                        ("cpu", format!("cpu deadline of {} ms", self.limits.cpu_ms))
                    };
                    // A VM that hit a limit may be in any state: discard it; the next call rebuilds.
                    if outermost {
                        self.vm.replace(None);
                    }
                    let text = format!("{} exceeded its {limit} in {skill}", self.reference);
                    self.violation(&caller, skill, kind, &text);
                    return Err(SkillFailure { code: ErrorCode::HandlerError, message: text });
                }
                return Err(SkillFailure { code: ErrorCode::HandlerError, message: format!("{skill} handler failed: {message}") });
            }
        };
        lua_to_json(&lua, &raw, "result")
            .map_err(|e| SkillFailure { code: ErrorCode::HandlerError, message: format!("{skill} returned a value that is not JSON: {e}") })
    }
}
