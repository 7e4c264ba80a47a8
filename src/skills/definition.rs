//! Turns a skill definition table (as written in a `.luau` file) into a `Skill`: checks every
//! field, compiles the input and output schemas once, and builds their validators.

use std::rc::Rc;

use mlua::{Function, Lua, Table, Value as LuaValue};
use serde_json::Value;

use super::effects::{Effect, Effects};
use super::schema;
use crate::policy::Permission;
use crate::script::convert::lua_to_json;

/// Where a skill's code runs.
pub enum Handler {
    /// Functions in the engine VM (core skills, trusted local mods).
    Vm { handler: Function, before: Option<Function>, after: Option<Function> },
    /// Code the engine reaches through a boundary, e.g. a sandboxed package's VM.
    External(Rc<dyn ExternalHandler>),
}

/// Who a call is for, as an external handler sees it.
#[derive(Debug, Clone, Copy)]
pub struct CallInfo<'a> {
    pub caller: &'a super::Caller,
    pub tick: u64,
    pub decision_id: Option<&'a str>,
}

/// A handler living outside the engine VM. It gets the validated input as JSON and returns the
/// output as JSON (the pipeline validates it); failures carry their code.
pub trait ExternalHandler {
    fn call(&self, skill: &str, input: &Value, call: &CallInfo<'_>) -> Result<Value, super::SkillFailure>;
}

/// How a skill is offered to a standard MCP client by default (progressive discovery). Every
/// skill is callable by name whatever its tier; the tier only decides whether `tools/list`
/// shows it before the client asks (`skills.search`, `skills.browse`, `skills.enable`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Tier {
    /// Listed to every client: what an agent needs to start building and looking, and the
    /// discovery meta-tools. Reserved for the engine's own skills (a package may not claim it).
    Core,
    /// Listed once the client enables its category (or the server runs with `--tools all`).
    #[default]
    Standard,
    /// For an MCP App view, not for the model: listed only to a client that shows MCP Apps,
    /// marked `_meta.ui.visibility: ["app"]` (so the host keeps it from the model), and never
    /// found by discovery (`skills.list`, search, browse, enable). Callable by name like any
    /// skill, through the same policy. Reserved for the engine's own skills.
    App,
}

impl Tier {
    pub const ALL: [Tier; 3] = [Tier::Core, Tier::Standard, Tier::App];

    pub fn as_str(self) -> &'static str {
        match self {
            Tier::Core => "core",
            Tier::Standard => "standard",
            Tier::App => "app",
        }
    }

    pub fn parse(text: &str) -> Option<Tier> {
        Tier::ALL.into_iter().find(|t| t.as_str() == text)
    }
}

/// Which entities a call of a skill writes, as the skill declares it (`targets = "entity"`, the
/// input field naming the one entity; `targets = "*"`, every entity: the call replaces the
/// world). The pipeline checks leases and the caller's `ifRevision` against them before the
/// handler runs (`sharing`), so a skill that declares its target cannot forget the check.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Targets {
    /// Writes no entity a caller names (or the skill did not say).
    #[default]
    None,
    /// Writes the entity named by this (string) input field; the input also takes `ifRevision`.
    Field(String),
    /// Replaces every entity.
    World,
}

/// The input property every skill that targets one entity takes (added by the registry, so
/// its name, range and description are the same everywhere).
pub const IF_REVISION: &str = "ifRevision";

/// `ifRevision`'s schema: a whole number within the revisions there are.
fn if_revision_schema() -> Value {
    serde_json::json!({
        "type": "integer",
        "minimum": 1,
        "maximum": crate::world::sharing::MAX_REVISION,
        "description": "Apply only if the entity's revision (a count of the writes that changed it, 1 when made; shown by scene.queryEntities) is still this whole number, 1..=2^53-1; otherwise the call fails with `conflict` naming the current revision and changes nothing.",
    })
}

/// `ifRevision` as `tools/list` shows it, in every skill that writes entities: shorter, and
/// without the 2^53 - 1 bound every JSON client's numbers stop at (`schema::compile_listed`).
fn listed_if_revision_schema() -> Value {
    serde_json::json!({
        "type": "integer",
        "minimum": 1,
        "description": "Apply only if the entity's revision (scene.queryEntities shows it) is still this; else fails with `conflict`, changing nothing.",
    })
}

/// A registered skill. Immutable once built; replacing a skill builds a new one.
pub struct Skill {
    pub name: String,
    pub version: String,
    pub category: String,
    pub description: String,
    /// Whether standard MCP clients see it listed by default.
    pub tier: Tier,
    pub permissions: Vec<Permission>,
    /// What calling it does (annotations, sanity checks and replay derive from this).
    pub effects: Effects,
    pub input_schema: Value,
    pub output_schema: Value,
    /// The input and output schemas as `tools/list` shows them (`schema::compile_listed`),
    /// without `$schema`.
    pub listed_input_schema: Value,
    pub listed_output_schema: Value,
    pub(crate) input_validator: jsonschema::Validator,
    pub(crate) output_validator: jsonschema::Validator,
    /// Whether each schema names a default: without one, only an empty container can need
    /// reconciling, so most calls skip `apply_defaults`' walk of the schema.
    pub(crate) input_defaults: bool,
    pub(crate) output_defaults: bool,
    /// Whether the input schema has a colour (`s.color()`): only then is a call's input walked
    /// for colour strings to turn into integers.
    pub(crate) input_colors: bool,
    pub(crate) handler: Handler,
    /// Where the definition came from (`core/scene.luau`, a mod's path).
    pub source: String,
    /// One of the engine's own skills (set only by the core catalog's registration, never by a
    /// definition table): the command log records calls of these.
    pub builtin: bool,
    /// One call may hold the loop for a long time by design (a render, a playtest, a whole
    /// scene or world written or read): in-world agents are not offered it, since their
    /// actions run on the loop every agent and client shares (`heavy = true`).
    pub heavy: bool,
    /// The entities a call writes (`targets`), for the lease and revision checks.
    pub targets: Targets,
}

impl std::fmt::Debug for Skill {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Skill").field("name", &self.name).field("version", &self.version).field("source", &self.source).finish()
    }
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{source_name}: skill {skill}: {message}")]
pub struct DefinitionError {
    pub source_name: String,
    pub skill: String,
    pub message: String,
}

const KNOWN_KEYS: [&str; 14] = [
    "name",
    "version",
    "category",
    "description",
    "tier",
    "permissions",
    "effects",
    "idempotent",
    "heavy",
    "targets",
    "input",
    "output",
    "handler",
    "hooks",
];

pub fn is_valid_skill_name(name: &str) -> bool {
    // MCP tool names: 1..=128 of [A-Za-z0-9_.-]; ours are dotted, starting with a letter.
    !name.is_empty()
        && name.len() <= 128
        && name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

fn is_semver(v: &str) -> bool {
    let core = v.split(['-', '+']).next().unwrap_or("");
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() == 3 && parts.iter().all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

impl Skill {
    /// Whether in-world agents may call this skill. Their actions run on the loop, one after
    /// another, within call-count caps but no clock (a time budget would make the world depend
    /// on the machine's speed), so skills that hold the loop for long by design (`heavy`:
    /// playtests, captures, whole scenes and worlds read or written) and test skills are for
    /// builders only.
    pub fn offered_to_agents(&self) -> bool {
        !self.heavy && self.category != "test"
    }

    pub fn from_table(lua: &Lua, def: &Table, source: &str) -> Result<Skill, DefinitionError> {
        let name_hint: String = def.raw_get::<Option<String>>("name").ok().flatten().unwrap_or_else(|| "(unnamed)".into());
        let fail = |message: String| DefinitionError { source_name: source.to_string(), skill: name_hint.clone(), message };

        let mut unknown = Vec::new();
        let _ = def.for_each(|k: LuaValue, _: LuaValue| {
            match k.as_string().and_then(|s| s.to_str().ok().map(|s| s.to_string())) {
                Some(key) if KNOWN_KEYS.contains(&key.as_str()) => {}
                Some(key) => unknown.push(key),
                None => unknown.push(format!("{k:?}")),
            }
            Ok(())
        });
        if let Some(key) = unknown.first() {
            return Err(fail(format!("unknown field `{key}` (a skill has: {})", KNOWN_KEYS.join(", "))));
        }

        let text = |key: &str| -> Result<String, DefinitionError> {
            match def.raw_get::<LuaValue>(key) {
                Ok(LuaValue::String(s)) => Ok(s.to_string_lossy()),
                Ok(LuaValue::Nil) => Err(fail(format!("`{key}` is required"))),
                Ok(other) => Err(fail(format!("`{key}` must be a string, got {}", crate::script::lua_type_name(&other)))),
                Err(e) => Err(fail(format!("`{key}` could not be read: {e}"))),
            }
        };
        let name = text("name")?;
        if !is_valid_skill_name(&name) {
            return Err(fail(format!("name '{name}' is not a valid skill name (letters, digits, '.', '_', '-'; at most 128)")));
        }
        let version = text("version")?;
        if !is_semver(&version) {
            return Err(fail(format!("version '{version}' is not semver (MAJOR.MINOR.PATCH)")));
        }
        let category = text("category")?;
        let description = text("description")?;
        let tier = match def.raw_get::<LuaValue>("tier") {
            Ok(LuaValue::Nil) => Tier::default(),
            Ok(LuaValue::String(t)) => {
                let t = t.to_string_lossy();
                Tier::parse(&t).ok_or_else(|| {
                    let known: Vec<&str> = Tier::ALL.iter().map(|t| t.as_str()).collect();
                    fail(format!("unknown tier '{t}' (known: {})", known.join(" ")))
                })?
            }
            Ok(other) => return Err(fail(format!("`tier` must be a string, got {}", crate::script::lua_type_name(&other)))),
            Err(e) => return Err(fail(format!("`tier` could not be read: {e}"))),
        };

        let permissions = match def.raw_get::<LuaValue>("permissions") {
            Ok(LuaValue::Nil) => Vec::new(),
            Ok(v) => {
                let json = lua_to_json(lua, &v, "permissions").map_err(|e| fail(e.to_string()))?;
                let list = match json {
                    Value::Array(list) => list,
                    Value::Object(m) if m.is_empty() => Vec::new(),
                    other => {
                        return Err(fail(format!("`permissions` must be a list of strings, got {}", schema::type_name(&other))));
                    }
                };
                let mut perms = Vec::new();
                for p in list {
                    let p = p.as_str().ok_or_else(|| fail("`permissions` must be a list of strings".into()))?;
                    let perm = Permission::parse(p).ok_or_else(|| {
                        let known: Vec<&str> = Permission::ALL.iter().map(|p| p.as_str()).collect();
                        fail(format!("unknown permission '{p}' (known: {})", known.join(" ")))
                    })?;
                    perms.push(perm);
                }
                perms
            }
            Err(e) => return Err(fail(format!("`permissions` could not be read: {e}"))),
        };

        let effects = match def.raw_get::<LuaValue>("effects") {
            Ok(LuaValue::Nil) => None,
            Ok(v) => {
                let json = lua_to_json(lua, &v, "effects").map_err(|e| fail(e.to_string()))?;
                let list = json.as_array().cloned().unwrap_or_default();
                if !json.is_array() {
                    return Err(fail(format!("`effects` must be a list like {{\"read\"}}, got {}", schema::type_name(&json))));
                }
                let mut effects = Vec::new();
                for e in list {
                    let e = e.as_str().ok_or_else(|| fail("`effects` must be a list of strings".into()))?;
                    effects.push(Effect::parse(e).ok_or_else(|| {
                        let known: Vec<&str> = Effect::ALL.iter().map(|e| e.as_str()).collect();
                        fail(format!("unknown effect '{e}' (known: {})", known.join(" ")))
                    })?);
                }
                Some(effects)
            }
            Err(e) => return Err(fail(format!("`effects` could not be read: {e}"))),
        };
        let idempotent = match def.raw_get::<LuaValue>("idempotent") {
            Ok(LuaValue::Nil) => None,
            Ok(LuaValue::Boolean(b)) => Some(b),
            Ok(other) => return Err(fail(format!("`idempotent` must be a boolean, got {}", crate::script::lua_type_name(&other)))),
            Err(e) => return Err(fail(format!("`idempotent` could not be read: {e}"))),
        };
        let heavy = match def.raw_get::<LuaValue>("heavy") {
            Ok(LuaValue::Nil) => false,
            Ok(LuaValue::Boolean(b)) => b,
            Ok(other) => return Err(fail(format!("`heavy` must be a boolean, got {}", crate::script::lua_type_name(&other)))),
            Err(e) => return Err(fail(format!("`heavy` could not be read: {e}"))),
        };
        let effects = match effects {
            Some(list) => {
                let read_only = list.iter().all(|e| *e == Effect::Read);
                Effects::of(&list, idempotent.unwrap_or(read_only))
            }
            None => {
                let mut implied = Effects::implied_by(&permissions);
                implied.idempotent = idempotent.unwrap_or(implied.idempotent);
                implied
            }
        };
        effects.check(&permissions).map_err(|e| fail(format!("effects: {e}")))?;

        let compile = |key: &str| -> Result<(Value, jsonschema::Validator), DefinitionError> {
            let desc: LuaValue = def.raw_get(key).map_err(|e| fail(format!("`{key}` could not be read: {e}")))?;
            if desc.is_nil() {
                return Err(fail(format!("`{key}` schema is required (use s.object{{}} for none)")));
            }
            let desc = lua_to_json(lua, &desc, key).map_err(|e| fail(format!("{key} schema: {e}")))?;
            let compiled = schema::compile(&desc).map_err(|e| fail(format!("{key} {e}")))?;
            if compiled.get("type").and_then(Value::as_str) != Some("object") {
                return Err(fail(format!("`{key}` must be an object schema (s.object{{...}})")));
            }
            let validator = jsonschema::draft7::new(&compiled).map_err(|e| fail(format!("{key} schema is not valid JSON Schema: {e}")))?;
            Ok((compiled, validator))
        };
        let targets = match def.raw_get::<LuaValue>("targets") {
            Ok(LuaValue::Nil) => Targets::None,
            Ok(LuaValue::String(t)) if t.to_string_lossy() == "*" => Targets::World,
            Ok(LuaValue::String(t)) => Targets::Field(t.to_string_lossy()),
            Ok(other) => {
                return Err(fail(format!(
                    "`targets` must be the name of the input field naming the entity written, or \"*\", got {}",
                    crate::script::lua_type_name(&other)
                )));
            }
            Err(e) => return Err(fail(format!("`targets` could not be read: {e}"))),
        };
        if targets != Targets::None && effects.read_only() {
            return Err(fail("`targets` names what a call writes, but the skill declares only read effects".into()));
        }
        let (mut input_schema, mut input_validator) = compile("input")?;
        if let Targets::Field(field) = &targets {
            let properties = input_schema.get_mut("properties").and_then(Value::as_object_mut);
            let Some(properties) = properties else {
                return Err(fail(format!("`targets` names input field `{field}`, but the input has no fields")));
            };
            if properties.get(field).and_then(|p| p.get("type")).and_then(Value::as_str) != Some("string") {
                return Err(fail(format!("`targets` names input field `{field}`, which is not a string field of the input")));
            }
            if properties.contains_key(IF_REVISION) {
                return Err(fail(format!("the input declares `{IF_REVISION}` itself; `targets` adds it")));
            }
            properties.insert(IF_REVISION.into(), if_revision_schema());
            input_validator = jsonschema::draft7::new(&input_schema)
                .map_err(|e| fail(format!("input schema with {IF_REVISION} is not valid JSON Schema: {e}")))?;
        }
        let listed = |key: &str| -> Result<Value, DefinitionError> {
            let desc: LuaValue = def.raw_get(key).map_err(|e| fail(format!("`{key}` could not be read: {e}")))?;
            let desc = lua_to_json(lua, &desc, key).map_err(|e| fail(format!("{key} schema: {e}")))?;
            let compiled = if key == "output" { schema::compile_listed_output(&desc) } else { schema::compile_listed(&desc) };
            compiled.map_err(|e| fail(format!("{key} {e}")))
        };
        let mut listed_input_schema = listed("input")?;
        // What a client lists shows the added field too.
        if let Targets::Field(_) = &targets
            && let Some(properties) = listed_input_schema.get_mut("properties").and_then(Value::as_object_mut)
        {
            properties.insert(IF_REVISION.into(), listed_if_revision_schema());
        }
        let (output_schema, output_validator) = compile("output")?;
        let listed_output_schema = listed("output")?;

        let handler = match def.raw_get::<LuaValue>("handler") {
            Ok(LuaValue::Function(f)) => f,
            Ok(LuaValue::Nil) => return Err(fail("`handler` is required".into())),
            Ok(other) => {
                return Err(fail(format!("`handler` must be a function, got {}", crate::script::lua_type_name(&other))));
            }
            Err(e) => return Err(fail(format!("`handler` could not be read: {e}"))),
        };
        let (before, after) = match def.raw_get::<LuaValue>("hooks") {
            Ok(LuaValue::Nil) => (None, None),
            Ok(LuaValue::Table(hooks)) => {
                let hook = |key: &str| match hooks.raw_get::<LuaValue>(key) {
                    Ok(LuaValue::Function(f)) => Ok(Some(f)),
                    Ok(LuaValue::Nil) => Ok(None),
                    _ => Err(fail(format!("hooks.{key} must be a function"))),
                };
                (hook("before")?, hook("after")?)
            }
            _ => {
                return Err(fail("`hooks` must be a table {before = fn, after = fn}".into()));
            }
        };

        let (input_defaults, output_defaults) = (schema::has_defaults(&input_schema), schema::has_defaults(&output_schema));
        let input_colors = super::colour::has_colors(&input_schema);
        Ok(Skill {
            name,
            version,
            category,
            description,
            tier,
            permissions,
            effects,
            input_schema,
            output_schema,
            listed_input_schema,
            listed_output_schema,
            input_defaults,
            output_defaults,
            input_colors,
            input_validator,
            output_validator,
            handler: Handler::Vm { handler, before, after },
            source: source.to_string(),
            builtin: false,
            heavy,
            targets,
        })
    }
}
