//! `PackageRuntime`: where one package's code runs, and the only door out of it.
//!
//! Every package, whatever its trust tier, gets its own Luau VM from `sandbox::restricted_vm`
//! (see there for what it can reach and how its C library calls are bounded), with a fresh
//! environment per file, the standard libraries, the string metatable and `_G` sealed read-only
//! before the package's first line runs, `require` limited to the package's own files, the memory limit of its
//! tier, and a CPU deadline on every call kept by a `sandbox::Meter`. The VM is created once and
//! reused for every call (the pool); a VM that hit a limit is discarded and rebuilt from the
//! package's files at its next call.
//!
//! The tier the operator granted widens the limits; it never opens another door. A package
//! never runs in the engine VM, so not even a `local` one can reach `limina.*`, the engine's
//! `require`, `getfenv` or the globals the demos share: the engine VM's environment is not a
//! wall (`getfenv(0)` and any engine function's environment lead back to its globals), a VM
//! boundary is.
//!
//! Host work done for a call is charged to the package: every value crossing the VM boundary
//! (handler input and result, `host.invoke` input and response) is converted within the
//! package's `limits.value*` budget, and the meter stays armed from the input's conversion to
//! the result's — conversions and every skill it invokes through `host.invoke` (their schema
//! validation included) run on this thread, so they count against its CPU deadline, which is
//! checked between them. The registry validates the package skill's own input before the call
//! and its output after it, outside the deadline; the budget bounds both.
//!
//! **Out of process.** For a package that runs in a worker (`worker/`), the engine's runtime
//! holds no VM: its calls cross to the worker, which builds this same runtime
//! (`load_in_worker`) with a host that turns `host.invoke` into a frame back to the engine.
//!
//! The host functions are `host.invoke(skill, input)`, which goes through the skill registry as
//! the agent whose call is running, with permissions cut down to the package's capabilities,
//! and the package named for provenance; and `host.secret(name)`, a secret the operator
//! approved and supplied for this package (`secrets.rs`), during a call only. Whatever the
//! package hands back — results, errors, `host.invoke` inputs — has the secrets it was handed
//! redacted on the engine's side, in process and out.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;
use std::time::Duration;

use mlua::{Function, Lua, Table, Value as LuaValue};
use serde_json::{Value, json};

use super::discover::Source;
use super::manifest::{Limits, Manifest, Trust};
use super::sandbox::{Meter, Overrun, SandboxSpec, restricted_vm};
use super::worker::protocol::LoadSpec;
use super::{LoadError, ManifestReadError, ShapeError};
use crate::policy::PermissionSet;
use crate::script::convert::{Budget, BudgetLimit, ConvertError, ConvertErrorKind, Interrupt, json_to_lua_within, lua_to_json_within};
use crate::script::error_message_and_traceback;
use crate::skills::{CallInfo, Caller, ErrorCode, ExternalHandler, Handler, HandlerFailure, Skill, SkillFailure, SkillResponse};

/// What packages need from the engine.
pub trait Host {
    /// Runs a skill through the registry pipeline.
    fn invoke(&self, caller: &Caller, skill: &str, input: Value) -> SkillResponse;
    /// `invoke`, its response as JSON (what `host.invoke` hands the package). A package
    /// worker's host answers this one over its pipe.
    fn invoke_json(&self, caller: &Caller, skill: &str, input: Value) -> Value {
        serde_json::to_value(self.invoke(caller, skill, input)).unwrap_or(Value::Null)
    }
    /// Records an event in the world log; returns its id.
    fn record(&self, actor: &str, thread: &str, event_type: &str, payload: Value) -> String;
    /// `host.secret(name)` for a package whose secrets the engine holds elsewhere: a package
    /// worker's host asks over its pipe. The engine's own host has none to give.
    fn secret(&self, name: &str) -> Result<String, String> {
        Err(format!("host.secret('{name}'): no secrets are available here"))
    }
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
    /// The package's path as clients see it (relative to the scripts root): in chunk names, so a
    /// mod's error never shows a remote client where the host keeps its files.
    shown: String,
    entry: String,
    host: Rc<dyn Host>,
    vm: RefCell<Option<Vm>>,
    /// Callers of the package's skills now running, innermost last.
    frames: Rc<RefCell<Vec<Caller>>>,
    /// The deadline of the outermost call running in this package's VM.
    meter: Rc<Meter>,
    rebuilds: Cell<u64>,
    /// Set when the package runs in a worker process (`worker/`): calls go there, and `vm`
    /// stays empty.
    worker: Option<super::worker::Client>,
    /// The engine's side of the package's secrets (`None` in a worker, whose host asks).
    secrets: Option<Rc<super::secrets::PackageSecrets>>,
    /// The values this VM was handed, kept out of its `print`.
    seen: Rc<RefCell<super::secrets::Seen>>,
}

impl std::fmt::Debug for PackageRuntime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PackageRuntime").field("reference", &self.reference).field("trust", &self.trust).finish()
    }
}

/// A Lua error as a load error: its message names the file and line.
fn lua_err(e: mlua::Error) -> LoadError {
    let (message, _) = error_message_and_traceback(&e);
    LoadError::Script(message)
}

/// `lua_err` for package code run in a sealed VM: a write to a sealed table says why it was
/// refused (Luau's own message names no table and no rule).
fn sealed_err(e: mlua::Error) -> LoadError {
    match lua_err(e) {
        LoadError::Script(message) if message.to_ascii_lowercase().contains("attempt to modify a readonly table") => {
            LoadError::Script(format!(
                "{message} (the standard libraries, the string metatable and _G are sealed before a package's code runs; keep your own values in locals or your own tables)"
            ))
        }
        other => other,
    }
}

/// Load time allowed to a package: four calls' worth of CPU time, at most 2 s.
pub(super) fn load_deadline(limits: &Limits) -> Duration {
    Duration::from_secs_f64((limits.cpu_ms * 4.0).min(2000.0) / 1000.0)
}

/// The manifest field that raises a budget, for messages.
fn budget_field(limit: BudgetLimit) -> &'static str {
    match limit {
        BudgetLimit::Bytes => "limits.valueBytes",
        BudgetLimit::Nodes => "limits.valueNodes",
        BudgetLimit::Depth => "limits.valueDepth",
    }
}

/// A conversion error, with the package limit that bounded it named.
fn describe(e: &ConvertError) -> String {
    match e.kind {
        ConvertErrorKind::OverBudget(limit) => format!("{e} (the package's {})", budget_field(limit)),
        ConvertErrorKind::NotJson | ConvertErrorKind::Interrupted => e.to_string(),
    }
}

fn overrun_error(o: Overrun) -> mlua::Error {
    mlua::Error::runtime(o.to_string())
}

impl PackageRuntime {
    /// Builds the runtime and its skills, in `tier` (the operator's grant, never the manifest's
    /// request) with `limits` (already checked against that tier). Nothing is registered here:
    /// the caller registers the skills all at once, or not at all. `isolation` decides whether
    /// the package runs here or in a worker process.
    #[allow(clippy::too_many_arguments, reason = "the admitted package, its grants, and where it runs")]
    pub fn load(
        source: &Source,
        shown: String,
        manifest: &Manifest,
        tier: Trust,
        limits: Limits,
        granted: PermissionSet,
        host: Rc<dyn Host>,
        isolation: &super::worker::Isolation,
        secrets: super::secrets::PackageSecrets,
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
            return Err(LoadError::EntryMissing { package: shown, entry });
        }
        let mut capabilities = PermissionSet::EMPTY;
        for c in &manifest.capabilities {
            capabilities.insert(*c);
        }
        let spec = LoadSpec {
            reference: manifest.reference(),
            trust: tier.as_str().to_string(),
            limits,
            capabilities: capabilities.intersect(granted),
            folder: source.kind == super::discover::Kind::Folder,
            files: source.files.clone(),
            shown,
            entry,
        };
        if let Some(program) = isolation.worker_for(tier) {
            return Self::load_out_of_process(program, spec, source, tier, host, secrets);
        }
        let runtime = Rc::new(Self::from_spec(&spec, source.clone(), tier, host, None, Some(Rc::new(secrets))));
        let (vm, defs) = runtime.build_vm()?;
        let mut skills = Vec::new();
        for def in defs {
            // The registry converts these tables itself, without a budget: measure them first.
            runtime.check_definition(&vm.lua, &def)?;
            let mut skill = Skill::from_table(&vm.lua, &def, &runtime.display_path())?;
            skill.handler = Handler::External(Rc::clone(&runtime) as Rc<dyn ExternalHandler>);
            skills.push(skill);
        }
        runtime.vm.replace(Some(vm));
        Ok((runtime, skills))
    }

    fn from_spec(
        spec: &LoadSpec,
        source: Source,
        trust: Trust,
        host: Rc<dyn Host>,
        worker: Option<super::worker::Client>,
        secrets: Option<Rc<super::secrets::PackageSecrets>>,
    ) -> Self {
        let seen = secrets.as_ref().map(|s| Rc::clone(&s.seen)).unwrap_or_default();
        PackageRuntime {
            reference: spec.reference.clone(),
            trust,
            limits: spec.limits,
            capabilities: spec.capabilities,
            source,
            shown: spec.shown.clone(),
            entry: spec.entry.clone(),
            host,
            vm: RefCell::new(None),
            frames: Rc::new(RefCell::new(Vec::new())),
            meter: Meter::new(),
            rebuilds: Cell::new(0),
            worker,
            secrets,
            seen,
        }
    }

    /// Starts the package's worker, loads the package there, and builds its skills from the
    /// definitions it sends back, with the same checks as in process.
    fn load_out_of_process(
        program: &std::path::Path,
        spec: LoadSpec,
        source: &Source,
        tier: Trust,
        host: Rc<dyn Host>,
        secrets: super::secrets::PackageSecrets,
    ) -> Result<(Rc<Self>, Vec<Skill>), LoadError> {
        let (client, defs) = super::worker::Client::start(program, spec.clone(), load_deadline(&spec.limits)).map_err(LoadError::Script)?;
        let runtime = Rc::new(Self::from_spec(&spec, source.clone(), tier, host, Some(client), Some(Rc::new(secrets))));
        // A plain VM only to hold the definitions as tables for `Skill::from_table`: no package
        // code runs in it.
        let lua = Lua::new();
        let budget = spec.limits.value_budget();
        let mut skills = Vec::new();
        for def in &defs {
            let table = definition_table(&lua, def, &budget).map_err(|problem| LoadError::Value {
                file: runtime.display_path(),
                what: "a skill definition from its worker".into(),
                problem,
            })?;
            let mut skill = Skill::from_table(&lua, &table, &runtime.display_path())?;
            skill.handler = Handler::External(Rc::clone(&runtime) as Rc<dyn ExternalHandler>);
            skills.push(skill);
        }
        Ok((runtime, skills))
    }

    /// In a package worker: builds the runtime from its `Load` frame and returns its skill
    /// definitions as JSON, after the checks the engine would run in process.
    pub(crate) fn load_in_worker(spec: &LoadSpec, host: Rc<dyn Host>) -> Result<(Rc<Self>, Vec<Value>), LoadError> {
        let kind = if spec.folder { super::discover::Kind::Folder } else { super::discover::Kind::SingleFile };
        let source = Source { kind, path: spec.shown.clone().into(), files: spec.files.clone(), content_hash: String::new() };
        let trust = Trust::parse(&spec.trust).unwrap_or(Trust::Untrusted);
        let runtime = Rc::new(Self::from_spec(spec, source, trust, host, None, None));
        let (vm, defs) = runtime.build_vm()?;
        let mut out = Vec::new();
        for def in defs {
            runtime.check_definition(&vm.lua, &def)?;
            Skill::from_table(&vm.lua, &def, &runtime.display_path())?;
            out.push(definition_json(&vm.lua, &def, &spec.limits.value_budget()).map_err(|problem| LoadError::Value {
                file: runtime.display_path(),
                what: "a skill definition".into(),
                problem,
            })?);
        }
        runtime.vm.replace(Some(vm));
        Ok((runtime, out))
    }

    /// The worker this package runs in, if it runs out of process.
    pub fn worker(&self) -> Option<super::worker::WorkerInfo> {
        self.worker.as_ref().map(super::worker::Client::info)
    }

    /// Ends the package's worker for good, if it has one (it was unloaded or replaced).
    pub(crate) fn close_worker(&self) {
        if let Some(client) = &self.worker {
            client.close();
        }
    }

    /// Arms a test hook in the package's worker, for its next call (tests of the worker's
    /// confinement; an error when the package runs in process).
    #[doc(hidden)]
    pub fn arm_worker_hook(&self, hook: super::worker::TestHook) -> Result<(), String> {
        match &self.worker {
            Some(client) => client.arm(hook),
            None => Err(format!("{} runs in process", self.reference)),
        }
    }

    fn display_path(&self) -> String {
        self.shown_file(&self.entry)
    }

    fn chunk_name(&self, file: &str) -> String {
        format!("@{}", self.shown_file(file))
    }

    /// One of the package's files as clients see it.
    fn shown_file(&self, file: &str) -> String {
        match self.source.kind {
            super::discover::Kind::SingleFile => self.shown.clone(),
            super::discover::Kind::Folder => format!("{}/{file}", self.shown),
        }
    }

    /// How many times the VM was discarded and rebuilt after hitting a limit.
    pub fn rebuilds(&self) -> u64 {
        match &self.worker {
            Some(client) => client.rebuilds(),
            None => self.rebuilds.get(),
        }
    }

    /// Creates the VM, runs the entry file, and collects its skill definitions.
    fn build_vm(&self) -> Result<(Vm, Vec<Table>), LoadError> {
        let spec = SandboxSpec {
            owner: self.reference.clone(),
            memory_bytes: self.limits.memory_bytes,
            print_redaction: Some(Rc::clone(&self.seen)),
        };
        let lua = restricted_vm(&spec, &self.meter).map_err(|source| LoadError::Sandbox { owner: self.reference.clone(), source })?;
        let globals = lua.globals();
        let require = self.package_require(&lua).map_err(lua_err)?;
        let host_table = self.host_table(&lua).map_err(lua_err)?;
        let dsl: Table = lua.load(crate::skills::SCHEMA_DSL).set_name("@limina/schema.luau").eval().map_err(lua_err)?;
        let env = self.file_env(&lua, &globals, &require, &host_table, &dsl).map_err(lua_err)?;
        // Sealed before any of the package's code runs: the standard libraries, the string
        // metatable and the globals table are read-only from the first line, so top-level code
        // cannot rewrite `string.upper` or `getmetatable("").__index` for the handlers that
        // follow (it writes globals into its own environment instead).
        lua.sandbox(true).map_err(lua_err)?;
        let source = self.source.file(&self.entry).unwrap_or_default().to_string();
        // A rebuild inside a running call (a nested call after the VM was discarded) keeps that
        // call's deadline; otherwise loading gets its own.
        let arm = !self.meter.is_armed();
        if arm {
            self.meter.arm(load_deadline(&self.limits));
        }
        let returned = lua.load(source).set_name(self.chunk_name(&self.entry)).set_environment(env).eval::<LuaValue>();
        if arm {
            self.meter.disarm();
        }
        let returned = returned.map_err(sealed_err)?;
        let defs = skill_defs(&returned).map_err(|problem| LoadError::Shape { file: self.display_path(), problem })?;
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
        Ok((Vm { lua, handlers }, defs))
    }

    /// Converts the parts of a skill definition the registry will convert (its schemas and
    /// permissions) within the package's budget, so a shared-subtable bomb in a schema is refused
    /// here instead of expanding in the registry.
    fn check_definition(&self, lua: &Lua, def: &Table) -> Result<(), LoadError> {
        let budget = self.limits.value_budget();
        for field in ["input", "output", "permissions"] {
            let value: LuaValue = def.raw_get(field).unwrap_or(LuaValue::Nil);
            if let LuaValue::Table(_) = value
                && let Err(e) = lua_to_json_within(lua, &value, field, &budget, &mut || Ok(()))
                && e.kind != ConvertErrorKind::NotJson
            {
                let name: String = def.raw_get("name").unwrap_or_default();
                return Err(LoadError::Value { file: self.display_path(), what: format!("skill {name}"), problem: describe(&e) });
            }
        }
        Ok(())
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
            super::discover::Kind::Folder => Some(self.shown.clone()),
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
            let value: LuaValue = lua.load(source.as_str()).set_name(format!("@{base}/{file}")).set_environment(env).call(())?;
            let value = if value.is_nil() { LuaValue::Boolean(true) } else { value };
            cache.borrow_mut().insert(file.clone(), value.clone());
            Ok(value)
        })
    }

    /// `host.invoke(skill, input)`: the registry, as the running caller, within the package's
    /// capabilities. Never raises for a skill failure (like `limina.call`); an input over the
    /// package's budget is an `invalid_input` failure. The deadline is checked before and after:
    /// the invoked skill's time counts against the call that invoked it.
    fn host_table(&self, lua: &Lua) -> mlua::Result<Table> {
        let host = Rc::clone(&self.host);
        let frames = Rc::clone(&self.frames);
        let meter = Rc::clone(&self.meter);
        let reference = self.reference.clone();
        let budget = self.limits.value_budget();
        let invoke_secrets = self.secrets.clone();
        let t = lua.create_table()?;
        t.raw_set("secret", self.secret_function(lua)?)?;
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
                meter.check().map_err(overrun_error)?;
                let check = &mut || meter.check().map_err(Interrupt::from);
                let response = match lua_to_json_within(lua, &input, "input", &budget, check) {
                    Ok(input) => {
                        let name = match &invoke_secrets {
                            Some(s) => s.redact_text(&name),
                            None => name.clone(),
                        };
                        host.invoke_json(&caller, &name, redact_input(&invoke_secrets, input))
                    }
                    Err(e) if e.kind == ConvertErrorKind::Interrupted => return Err(mlua::Error::runtime(e.message)),
                    Err(e) => serde_json::to_value(SkillResponse::failure(
                        ErrorCode::InvalidInput,
                        format!("invalid input for {name}: {}", describe(&e)),
                    ))
                    .unwrap_or(Value::Null),
                };
                meter.check().map_err(overrun_error)?;
                json_to_lua_within(lua, &response, "response", &budget, check).map_err(|e| match e.downcast_ref::<ConvertError>() {
                    Some(c) if c.kind != ConvertErrorKind::Interrupted => crate::script::located_error(
                        lua,
                        format!("host.invoke({name}): the response is too large for {reference}: {}", describe(c)),
                    ),
                    _ => e,
                })
            })?,
        )?;
        t.set_readonly(true);
        Ok(t)
    }

    /// `host.secret(name)`: the value of a secret the operator approved and supplied for this
    /// package, while one of its skills runs; an error naming the fix otherwise.
    fn secret_function(&self, lua: &Lua) -> mlua::Result<Function> {
        let secrets = self.secrets.clone();
        let host = Rc::clone(&self.host);
        let frames = Rc::clone(&self.frames);
        let seen = Rc::clone(&self.seen);
        let reference = self.reference.clone();
        lua.create_function(move |lua, name: LuaValue| {
            let LuaValue::String(name) = name else {
                return Err(crate::script::located_error(lua, "host.secret: the secret's name must be a string"));
            };
            let name = name.to_string_lossy();
            if !super::manifest::is_valid_secret_name(&name) {
                return Err(crate::script::located_error(
                    lua,
                    format!("host.secret: '{}' is not a secret name (1-64 uppercase letters, digits or '_')", crate::clip::shown(&name)),
                ));
            }
            if frames.borrow().is_empty() {
                return Err(crate::script::located_error(
                    lua,
                    format!("host.secret('{name}'): only while one of {reference}'s skills is running, not while its files load"),
                ));
            }
            let value = match &secrets {
                Some(s) => s.get(&name),
                None => host.secret(&name),
            };
            match value {
                Ok(value) => {
                    seen.borrow_mut().add(&value);
                    lua.create_string(value)
                }
                Err(why) => Err(crate::script::located_error(lua, format!("host.secret('{name}'): {why}"))),
            }
        })
    }

    /// The pooled VM (rebuilt here if a limit discarded it) and a skill's functions.
    fn checkout(&self, skill: &str) -> Result<(Lua, Function, Option<Function>, Option<Function>), SkillFailure> {
        // Never build a VM here for a package that runs in a worker.
        if self.worker.is_some() {
            return Err(SkillFailure { code: ErrorCode::HandlerError, message: format!("{} runs in its worker", self.reference) });
        }
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
    pub(crate) fn checkout_cost_probe(&self, skill: &str) -> bool {
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
        // A conversion error can name a key of the package's value, and a key can be a secret.
        let message = self.secrets.as_ref().map_or_else(|| message.to_string(), |s| s.redact_text(message));
        let payload = json!({"package": self.reference, "skill": skill, "kind": kind, "message": message});
        self.host.record(&caller.agent_id, &caller.session_id, "package.violation", payload);
    }
}

/// A mod returns `{ package = {...}, skills = {...} }`, `{ skills = {...} }`, or a list of skill
/// definitions. The error is the problem with the shape, for `LoadError::Shape`.
fn skill_defs(returned: &LuaValue) -> Result<Vec<Table>, ShapeError> {
    let LuaValue::Table(t) = returned else {
        return Err(ShapeError::NotATable { got: crate::script::lua_type_name(returned) });
    };
    let list = match t.raw_get::<LuaValue>("skills") {
        Ok(LuaValue::Table(s)) => s,
        Ok(LuaValue::Nil) if t.raw_len() > 0 => t.clone(),
        Ok(LuaValue::Nil) => return Ok(Vec::new()),
        _ => return Err(ShapeError::SkillsNotAList),
    };
    list.sequence_values::<Table>().collect::<Result<Vec<_>, _>>().map_err(ShapeError::NotADefinition)
}

/// Memory of the throwaway VMs that read manifests and headers.
const MANIFEST_MEMORY: usize = 16 << 20;
/// CPU time allowed for reading one manifest or header.
const MANIFEST_CPU: Duration = Duration::from_millis(200);
/// A manifest is a small table of fields: this is far more than any real one needs.
const MANIFEST_BUDGET: Budget = Budget { bytes: 256 << 10, nodes: 10_000, depth: 16 };

/// Evaluates `text` in a throwaway restricted VM (the sandbox factory's, 16 MiB, 200 ms of CPU)
/// and converts what `pick` takes from the result within `MANIFEST_BUDGET`. `prepare` adds
/// globals the code may use before the VM is sandboxed.
fn read_manifest_value(
    chunk: &str,
    text: &str,
    prepare: impl FnOnce(&Lua) -> mlua::Result<()>,
    pick: impl FnOnce(LuaValue) -> mlua::Result<Option<LuaValue>>,
) -> Result<Option<Value>, LoadError> {
    let meter = Meter::new();
    let spec = SandboxSpec { owner: chunk.to_string(), memory_bytes: MANIFEST_MEMORY, print_redaction: None };
    let lua = restricted_vm(&spec, &meter).map_err(|source| LoadError::Sandbox { owner: chunk.to_string(), source })?;
    prepare(&lua).map_err(lua_err)?;
    lua.sandbox(true).map_err(lua_err)?;
    meter.arm(MANIFEST_CPU);
    let picked = lua.load(text).set_name(format!("@{chunk}")).eval::<LuaValue>().and_then(pick).map_err(sealed_err);
    let converted = match picked {
        Ok(Some(value)) => lua_to_json_within(&lua, &value, "package", &MANIFEST_BUDGET, &mut || meter.check().map_err(Interrupt::from))
            .map(Some)
            .map_err(|e| LoadError::Value { file: chunk.to_string(), what: "package".into(), problem: e.to_string() }),
        Ok(None) => Ok(None),
        Err(e) => Err(e),
    };
    meter.disarm();
    converted
}

/// Reads the `package` header of a single-file mod, evaluating it in a throwaway restricted VM.
pub(crate) fn read_header(source: &Source) -> Result<Option<Value>, ManifestReadError> {
    let (file, text) = source.files.first().ok_or_else(|| ManifestReadError::Empty { package: source.shown() })?;
    let name = match source.kind {
        super::discover::Kind::SingleFile => source.shown(),
        super::discover::Kind::Folder => source.path.join(file).display().to_string(),
    };
    let prepare = |lua: &Lua| -> mlua::Result<()> {
        let dsl: Table = lua.load(crate::skills::SCHEMA_DSL).eval()?;
        lua.globals().raw_set("s", dsl)?;
        lua.globals().raw_set("host", lua.create_table()?)?;
        lua.globals().raw_set("require", lua.create_function(|_, _: String| -> mlua::Result<()> { Ok(()) })?)
    };
    let pick = |returned: LuaValue| -> mlua::Result<Option<LuaValue>> {
        let LuaValue::Table(t) = returned else { return Ok(None) };
        match t.raw_get::<LuaValue>("package")? {
            LuaValue::Nil => Ok(None),
            header => Ok(Some(header)),
        }
    };
    Ok(read_manifest_value(&name, text, prepare, pick)?)
}

/// Evaluates a folder package's `package.luau` (pure data) in a throwaway restricted VM.
pub(crate) fn read_manifest_file(path: &std::path::Path, text: &str) -> Result<Value, LoadError> {
    let value = read_manifest_value(&super::discover::shown(path), text, |_| Ok(()), |v| Ok(Some(v)))?;
    Ok(value.unwrap_or(Value::Null))
}

/// `input` with the secrets the package was handed redacted, when the engine holds them.
fn redact_input(secrets: &Option<Rc<super::secrets::PackageSecrets>>, input: Value) -> Value {
    match secrets {
        Some(s) => s.redact_value(input),
        None => input,
    }
}

impl ExternalHandler for PackageRuntime {
    fn call(&self, skill: &str, input: &Value, call: &CallInfo<'_>) -> Result<Value, SkillFailure> {
        let outcome = self.call_unredacted(skill, input, call);
        // What the package hands back, in process or from its worker, never carries a secret
        // it was handed: the trace, the command log and clients all see this.
        match &self.secrets {
            Some(s) => outcome.map(|v| s.redact_value(v)).map_err(|f| SkillFailure { code: f.code, message: s.redact_text(&f.message) }),
            None => outcome,
        }
    }
}

impl PackageRuntime {
    fn call_unredacted(&self, skill: &str, input: &Value, call: &CallInfo<'_>) -> Result<Value, SkillFailure> {
        // The package acts as the caller, never with more than its capabilities.
        let mut caller = call.caller.clone();
        caller.permissions = caller.permissions.intersect(self.capabilities);
        caller.package = Some(self.reference.as_str().into());
        if let Some(client) = &self.worker {
            return client.call(&self.host, &caller, skill, input, call, self.secrets.as_deref());
        }
        let (lua, handler, before, after) = self.checkout(skill)?;
        let outermost = self.frames.borrow().is_empty();
        if outermost {
            self.meter.arm(Duration::from_secs_f64(self.limits.cpu_ms / 1000.0));
        }
        self.frames.borrow_mut().push(caller.clone());
        let budget = self.limits.value_budget();
        let meter = Rc::clone(&self.meter);
        let check = &mut || meter.check().map_err(Interrupt::from);
        let result = (|| -> Result<Value, CallError> {
            let input = json_to_lua_within(&lua, input, "input", &budget, check).map_err(CallError::Input)?;
            let ctx = Self::make_ctx(&lua, &caller, call, &self.reference).map_err(CallError::Lua)?;
            if let Some(before) = &before {
                before.call::<()>((input.clone(), ctx.clone())).map_err(CallError::Lua)?;
            }
            let raw: LuaValue = handler.call((input, ctx.clone())).map_err(CallError::Lua)?;
            if let Some(after) = &after {
                after.call::<()>((raw.clone(), ctx)).map_err(CallError::Lua)?;
            }
            // Converting the result is work done for this call: it runs under its deadline.
            let result = lua_to_json_within(&lua, &raw, "result", &budget, check).map_err(CallError::Result)?;
            meter.check().map_err(|o| CallError::Lua(overrun_error(o)))?;
            Ok(result)
        })();
        self.frames.borrow_mut().pop();
        let overrun = self.meter.overrun();
        if outermost {
            self.meter.disarm();
        }
        let error = match result {
            Ok(result) => return Ok(result),
            Err(e) => e,
        };
        let memory =
            matches!(&error, CallError::Lua(e) | CallError::Input(e) if error_message_and_traceback(e).0.starts_with("out of memory"));
        if overrun.is_some() || memory {
            let (kind, limit) = match overrun {
                Some(o) if !memory => (o.kind(), o.limit()),
                _ => ("memory", format!("memory limit of {} bytes", self.limits.memory_bytes)),
            };
            // A VM that hit a limit may be in any state: discard it; the next call rebuilds.
            if outermost {
                self.vm.replace(None);
            }
            let text = format!("{} exceeded its {limit} in {skill}", self.reference);
            self.violation(&caller, skill, kind, &text);
            return Err(SkillFailure { code: ErrorCode::HandlerError, message: text });
        }
        Err(match error {
            CallError::Lua(e) => {
                if let Some(f) = e.downcast_ref::<HandlerFailure>() {
                    return Err(SkillFailure { code: f.code, message: f.message.clone() });
                }
                let (message, _) = error_message_and_traceback(&e);
                SkillFailure { code: ErrorCode::HandlerError, message: format!("{skill} handler failed: {message}") }
            }
            CallError::Input(e) => {
                let message = match e.downcast_ref::<ConvertError>() {
                    Some(c) => describe(c),
                    None => error_message_and_traceback(&e).0,
                };
                SkillFailure {
                    code: ErrorCode::InvalidInput,
                    message: format!("{skill}: the input is too large for {}: {message}", self.reference),
                }
            }
            CallError::Result(e) if e.kind == ConvertErrorKind::NotJson => {
                SkillFailure { code: ErrorCode::HandlerError, message: format!("{skill} returned a value that is not JSON: {e}") }
            }
            CallError::Result(e) => {
                let message = format!("{skill} returned a value larger than {} may return: {}", self.reference, describe(&e));
                self.violation(&caller, skill, "value", &message);
                SkillFailure { code: ErrorCode::HandlerError, message }
            }
        })
    }
}

/// A skill definition as JSON for the engine, converted within the package's budget: every
/// field but the functions, which are marked (`handler = true`, `hooks = {before, after}`).
fn definition_json(lua: &Lua, def: &Table, budget: &Budget) -> Result<Value, String> {
    let mut out = serde_json::Map::new();
    for pair in def.clone().pairs::<LuaValue, LuaValue>() {
        let (key, value) = pair.map_err(|e| e.to_string())?;
        let LuaValue::String(key) = key else { return Err("a skill definition's keys must be strings".into()) };
        let key = key.to_str().map_err(|e| e.to_string())?.to_string();
        let json = match (key.as_str(), &value) {
            ("handler", LuaValue::Function(_)) => Value::Bool(true),
            ("hooks", LuaValue::Table(hooks)) => {
                let has = |k: &str| matches!(hooks.raw_get::<LuaValue>(k), Ok(LuaValue::Function(_)));
                json!({"before": has("before"), "after": has("after")})
            }
            _ => lua_to_json_within(lua, &value, &key, budget, &mut || Ok(())).map_err(|e| describe(&e))?,
        };
        out.insert(key, json);
    }
    Ok(Value::Object(out))
}

/// The engine's side of `definition_json`: the table `Skill::from_table` reads, with inert
/// functions where the worker marked its own.
fn definition_table(lua: &Lua, def: &Value, budget: &Budget) -> Result<Table, String> {
    let Value::Object(fields) = def else { return Err("not a table".into()) };
    let table = lua.create_table().map_err(|e| e.to_string())?;
    let inert = || lua.create_function(|_, ()| Ok(())).map_err(|e| e.to_string());
    for (key, value) in fields {
        let lua_value = match (key.as_str(), value) {
            ("handler", Value::Bool(true)) => LuaValue::Function(inert()?),
            ("hooks", Value::Object(marks)) => {
                let hooks = lua.create_table().map_err(|e| e.to_string())?;
                for k in ["before", "after"] {
                    if marks.get(k) == Some(&Value::Bool(true)) {
                        hooks.raw_set(k, inert()?).map_err(|e| e.to_string())?;
                    }
                }
                LuaValue::Table(hooks)
            }
            _ => json_to_lua_within(lua, value, key, budget, &mut || Ok(())).map_err(|e| e.to_string())?,
        };
        table.raw_set(key.as_str(), lua_value).map_err(|e| e.to_string())?;
    }
    Ok(table)
}

/// Where a package call failed.
enum CallError {
    /// Converting the caller's input into the VM (budget, or out of memory).
    Input(mlua::Error),
    /// Running the hooks or the handler.
    Lua(mlua::Error),
    /// Converting the handler's result to JSON.
    Result(ConvertError),
}
