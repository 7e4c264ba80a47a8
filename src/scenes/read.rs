//! Reading a scene file: evaluate it where it can reach nothing, then check every field.
//!
//! Scene files are shared (between agents, between users), so reading one is an attack
//! surface. Each file is evaluated in a fresh Luau VM of its own whose chunk sees one global,
//! a frozen `math` table of pure functions (no `random`): no `require`, no `string`, `table`,
//! `os`, `debug`, `getfenv` or `loadstring`, no metatables (so no string methods either). The
//! source is compiled as text (never loaded as bytecode), is at most `MAX_FILE_BYTES` and at most
//! the token budget of a full world (`tokens`: compiling runs outside the VM's memory limit), and
//! its evaluation is bounded by `INTERRUPT_BUDGET` interrupts (every call and loop back-edge), a
//! two-second wall clock and `MEMORY_LIMIT` bytes. The VM is dropped once the table is read.
//!
//! The table it returns is then converted into a `Scene` with every field checked: only the
//! known keys, of the right type, numbers finite and within the bounds the skills enforce
//! (`world::bounds`, the catalog's ranges), lists that are lists and no longer than their limits
//! (entities at most the world's capacity, tags at most `MAX_TAGS`), strings of bounded length,
//! shapes and body kinds from their closed vocabularies, entity ids unique. The first problem is
//! the error, naming the field (`entities[3].position[2]`, Lua's 1-based indices) and the value.

use std::cell::Cell;
use std::collections::HashMap;
use std::path::Path;
use std::rc::Rc;
use std::time::Duration;

use mlua::chunk::ChunkMode;
use mlua::{Lua, LuaOptions, StdLib, Table, Value, VmState};

use super::{
    FORMAT, INTERRUPT_BUDGET, Look, MAX_ASSET_ID, MAX_DESCRIPTION, MAX_FILE_BYTES, MAX_TAG, MEMORY_LIMIT, Rotation, Scene, SceneBody,
    SceneEntity, SceneError,
};
use crate::physics::BodyKind;
use crate::world::bounds::{self, Num};
use crate::world::{Camera, ColliderKind, EntityId, Lighting, MAX_TAGS, Material};

/// Backstop of one evaluation, in this thread's CPU time (the interrupt budget normally ends a
/// runaway first). CPU time, not wall time: a loaded machine that leaves the reading thread
/// waiting must not turn a file that is refused for its memory into one refused for its time.
const DEADLINE: Duration = Duration::from_secs(2);

/// This thread's CPU time so far (None where the platform cannot say: then only the interrupt
/// budget bounds an evaluation).
fn thread_cpu() -> Option<Duration> {
    cpu_time::ThreadTime::try_now().ok().map(|t| t.as_duration())
}
/// The `math` functions a scene file may use to compute its numbers.
const MATH: [&str; 16] =
    ["abs", "acos", "asin", "atan", "atan2", "ceil", "cos", "deg", "floor", "max", "min", "pi", "rad", "sin", "sqrt", "tan"];

const TOP_FIELDS: [&str; 5] = ["format", "description", "entities", "lighting", "camera"];
const ENTITY_FIELDS: [&str; 12] =
    ["id", "shape", "model", "size", "color", "position", "rotation", "rotationEuler", "scale", "material", "tags", "body"];
const MATERIAL_FIELDS: [&str; 4] = ["roughness", "metalness", "castShadow", "receiveShadow"];
const BODY_FIELDS: [&str; 4] = ["kind", "collider", "friction", "restitution"];
const LIGHTING_FIELDS: [&str; 11] = [
    "ambientColor",
    "ambientIntensity",
    "directionalColor",
    "directionalIntensity",
    "direction",
    "castShadow",
    "shadowMapSize",
    "shadowCameraExtent",
    "shadowCameraNear",
    "shadowCameraFar",
    "shadowBias",
];
const CAMERA_FIELDS: [&str; 3] = ["position", "target", "fov"];

/// What `limina run` makes of a file: a scene, a scene that is invalid, or not a scene at all
/// (then it is run as a script).
#[derive(Debug)]
pub enum Probe {
    Scene(Scene),
    /// The file returned a scene table (it has `format` or `entities`) that did not check out.
    Invalid(SceneError),
    /// Why the file is not read as a scene (it did not evaluate as data, or returned no scene
    /// table).
    NotScene(SceneError),
}

/// Reads and checks the scene file at `path` (shown as `file`) for a world of `capacity`.
pub fn read_file(path: &Path, file: &str, capacity: usize) -> Result<Scene, SceneError> {
    let source = super::files::read_capped(path, file)?;
    parse(&source, file, capacity)
}

/// Evaluates scene source and checks the table it returns.
pub fn parse(source: &[u8], file: &str, capacity: usize) -> Result<Scene, SceneError> {
    let (_lua, value) = evaluate(source, file, capacity)?;
    Check { file }.scene(value, capacity)
}

/// `parse`, telling a scene that does not check out from a file that is no scene.
pub fn probe(source: &[u8], file: &str, capacity: usize) -> Probe {
    let (_lua, value) = match evaluate(source, file, capacity) {
        Ok(v) => v,
        Err(e) => return Probe::NotScene(e),
    };
    let is_scene = match &value {
        Value::Table(t) => ["format", "entities"].iter().any(|k| t.raw_get::<Value>(*k).is_ok_and(|v| !v.is_nil())),
        _ => false,
    };
    if !is_scene {
        let check = Check { file };
        return Probe::NotScene(check.invalid("", "the file returns no scene table (one with `format` and `entities`)"));
    }
    match (Check { file }).scene(value, capacity) {
        Ok(scene) => Probe::Scene(scene),
        Err(e) => Probe::Invalid(e),
    }
}

/// Runs the source in a fresh data-only VM; returns the VM (the value lives in it) and the value.
/// `capacity` (the world's) sets the source's token budget.
fn evaluate(source: &[u8], file: &str, capacity: usize) -> Result<(Lua, Value), SceneError> {
    if source.len() > MAX_FILE_BYTES {
        return Err(SceneError::TooLarge { file: file.to_string(), bytes: source.len() as u64, max: MAX_FILE_BYTES });
    }
    // Compiling runs outside the VM's memory limit, in memory linear in the tokens: they are
    // counted first (`tokens`).
    let max = super::tokens::budget(capacity);
    if super::tokens::count(source, max).is_err() {
        return Err(SceneError::TooManyTokens {
            file: file.to_string(),
            max,
            capacity,
            per_entity: super::tokens::MAX_TOKENS_PER_ENTITY,
            base: super::tokens::BASE_TOKENS,
        });
    }
    let script = |e: mlua::Error| SceneError::Script { file: file.to_string(), message: crate::script::error_message_and_traceback(&e).0 };
    let lua = Lua::new_with(StdLib::MATH, LuaOptions::new()).map_err(script)?;
    let env = lua.create_table().map_err(script)?;
    let math = lua.create_table().map_err(script)?;
    let library: Table = lua.globals().raw_get("math").map_err(script)?;
    for name in MATH {
        math.raw_set(name, library.raw_get::<Value>(name).map_err(script)?).map_err(script)?;
    }
    math.set_readonly(true);
    env.raw_set("math", math).map_err(script)?;
    env.set_readonly(true);

    // After the libraries: the limit counts what the file builds, not the VM's own start.
    lua.set_memory_limit(lua.used_memory() + MEMORY_LIMIT).map_err(script)?;
    let loaded = lua.load(source).set_name(format!("@{file}")).set_mode(ChunkMode::Text).set_environment(env).into_function();
    let chunk = match loaded {
        Ok(f) => f,
        Err(e) if is_memory(&e) => return Err(SceneError::Memory { file: file.to_string(), limit: MEMORY_LIMIT }),
        Err(e) => return Err(script(e)),
    };

    // Compiling is linear in the tokens the budget above bounds; running is what the interrupt
    // budget bounds.
    let overran = Rc::new(Cell::new(false));
    let (count, flag, started) = (Cell::new(0u64), Rc::clone(&overran), thread_cpu());
    lua.set_interrupt(move |_| {
        count.set(count.get() + 1);
        // The clock is a system call: read it every 1024 interrupts.
        let spent = count.get() % 1024 == 0 && started.zip(thread_cpu()).is_some_and(|(start, now)| now.saturating_sub(start) > DEADLINE);
        if count.get() > INTERRUPT_BUDGET || spent {
            flag.set(true);
            return Err(mlua::Error::runtime("the scene's interrupt budget is spent"));
        }
        Ok(VmState::Continue)
    });
    let result = chunk.call::<Value>(());
    lua.remove_interrupt();
    match result {
        Ok(value) => Ok((lua, value)),
        Err(_) if overran.get() => Err(SceneError::Budget { file: file.to_string(), budget: INTERRUPT_BUDGET }),
        Err(e) if is_memory(&e) => Err(SceneError::Memory { file: file.to_string(), limit: MEMORY_LIMIT }),
        Err(e) => Err(script(e)),
    }
}

fn is_memory(e: &mlua::Error) -> bool {
    match e {
        mlua::Error::MemoryError(_) => true,
        mlua::Error::CallbackError { cause, .. } => is_memory(cause),
        _ => false,
    }
}

/// A value as an error message shows it: numbers short, strings quoted and cut.
fn describe(v: &Value) -> String {
    match v {
        Value::Nil => "nil".into(),
        Value::Boolean(b) => b.to_string(),
        Value::Integer(i) => i.to_string(),
        Value::Number(n) => Num(*n).to_string(),
        Value::String(s) => {
            let bytes = s.as_bytes();
            let shown = String::from_utf8_lossy(&bytes[..bytes.len().min(40)]).into_owned();
            if bytes.len() > 40 { format!("\"{shown}…\" ({} bytes)", bytes.len()) } else { format!("\"{shown}\"") }
        }
        other => format!("a {}", crate::script::lua_type_name(other)),
    }
}

/// Converts and checks a returned table; errors name `file` and the field.
struct Check<'a> {
    file: &'a str,
}

impl Check<'_> {
    fn invalid(&self, field: &str, problem: impl Into<String>) -> SceneError {
        SceneError::Invalid { file: self.file.to_string(), field: field.to_string(), problem: problem.into() }
    }

    fn lua(&self, e: mlua::Error) -> SceneError {
        SceneError::Script { file: self.file.to_string(), message: crate::script::error_message_and_traceback(&e).0 }
    }

    fn bounds(&self, error: bounds::BoundsError) -> SceneError {
        SceneError::Bounds { file: self.file.to_string(), error }
    }

    fn get(&self, t: &Table, key: &str) -> Result<Value, SceneError> {
        t.raw_get::<Value>(key).map_err(|e| self.lua(e))
    }

    fn table(&self, v: Value, field: &str) -> Result<Table, SceneError> {
        match v {
            Value::Table(t) => Ok(t),
            other => Err(self.invalid(field, format!("expected a table, got {}", describe(&other)))),
        }
    }

    /// Every key of `t` is one of `known`.
    fn known_keys(&self, t: &Table, field: &str, known: &[&str]) -> Result<(), SceneError> {
        for pair in t.pairs::<Value, Value>() {
            let (key, _) = pair.map_err(|e| self.lua(e))?;
            let name = match &key {
                Value::String(s) => s.to_str().ok().map(|s| s.to_string()),
                _ => None,
            };
            if !name.as_deref().is_some_and(|n| known.contains(&n)) {
                let at = if field.is_empty() { "the scene table".to_string() } else { field.to_string() };
                return Err(self.invalid(
                    &at,
                    format!("unknown field {} (known: {})", name.map_or_else(|| describe(&key), |n| format!("'{n}'")), known.join(", ")),
                ));
            }
        }
        Ok(())
    }

    /// The items of a list: keys 1..n and nothing else, n at most `max` (else the error says
    /// `too_many(n)`). Its length is checked before anything is read.
    fn list(&self, v: Value, field: &str, max: usize, too_many: impl Fn(usize) -> String) -> Result<Vec<Value>, SceneError> {
        let t = self.table(v, field)?;
        let n = t.raw_len();
        if n > max {
            return Err(self.invalid(field, too_many(n)));
        }
        let mut keys = 0usize;
        for pair in t.pairs::<Value, Value>() {
            let (key, _) = pair.map_err(|e| self.lua(e))?;
            keys += 1;
            if keys > n {
                return Err(self.invalid(field, format!("must be a list (keys 1 to {n} only), found key {}", describe(&key))));
            }
        }
        (1..=n).map(|i| t.raw_get::<Value>(i).map_err(|e| self.lua(e))).collect()
    }

    fn number(&self, v: &Value, field: &str) -> Result<f64, SceneError> {
        match v {
            Value::Number(n) => Ok(*n),
            Value::Integer(i) => Ok(*i as f64),
            other => Err(self.invalid(field, format!("expected a number, got {}", describe(other)))),
        }
    }

    /// A finite number in [min, max], as f32.
    fn ranged(&self, v: &Value, field: &str, min: f64, max: f64) -> Result<f32, SceneError> {
        let n = self.number(v, field)?;
        if !n.is_finite() {
            return Err(self.invalid(field, format!("{} is not a finite number", Num(n))));
        }
        if !(min..=max).contains(&n) {
            return Err(self.invalid(field, format!("{} is outside [{}, {}]", Num(n), Num(min), Num(max))));
        }
        Ok(n as f32)
    }

    /// An optional `ranged` field, else `default`.
    fn ranged_or(&self, t: &Table, key: &str, field: &str, (min, max): (f64, f64), default: f32) -> Result<f32, SceneError> {
        match self.get(t, key)? {
            Value::Nil => Ok(default),
            v => self.ranged(&v, &format!("{field}.{key}"), min, max),
        }
    }

    /// A whole number in [min, max].
    fn integer(&self, v: &Value, field: &str, min: u32, max: u32) -> Result<u32, SceneError> {
        let n = self.number(v, field)?;
        if n.fract() != 0.0 || !(f64::from(min)..=f64::from(max)).contains(&n) {
            return Err(self.invalid(field, format!("{} is not a whole number in [{min}, {max}]", Num(n))));
        }
        Ok(n as u32)
    }

    fn color(&self, v: &Value, field: &str) -> Result<u32, SceneError> {
        let n = self.number(v, field)?;
        if n.fract() != 0.0 || !(0.0..=f64::from(0xffffffu32)).contains(&n) {
            return Err(self.invalid(field, format!("{} is not a colour 0xRRGGBB (a whole number in [0, 0xffffff])", Num(n))));
        }
        Ok(n as u32)
    }

    fn boolean(&self, v: &Value, field: &str) -> Result<bool, SceneError> {
        match v {
            Value::Boolean(b) => Ok(*b),
            other => Err(self.invalid(field, format!("expected true or false, got {}", describe(other)))),
        }
    }

    /// A non-empty UTF-8 string of at most `max` bytes.
    fn string(&self, v: &Value, field: &str, max: usize) -> Result<String, SceneError> {
        let Value::String(s) = v else {
            return Err(self.invalid(field, format!("expected a string, got {}", describe(v))));
        };
        let bytes = s.as_bytes();
        if bytes.is_empty() || bytes.len() > max {
            return Err(self.invalid(field, format!("{} must be 1 to {max} bytes long", describe(v))));
        }
        std::str::from_utf8(&bytes).map(str::to_string).map_err(|_| self.invalid(field, format!("{} is not UTF-8 text", describe(v))))
    }

    /// A list of exactly `N` numbers, each finite and in [min, max] (components named from 1).
    fn vector<const N: usize>(&self, v: Value, field: &str, min: f64, max: f64) -> Result<[f64; N], SceneError> {
        let items = self.list(v, field, N, |n| format!("expected {N} numbers, got {n}"))?;
        if items.len() != N {
            return Err(self.invalid(field, format!("expected {N} numbers, got {}", items.len())));
        }
        let mut out = [0.0; N];
        for (i, item) in items.iter().enumerate() {
            out[i] = f64::from(self.ranged(item, &format!("{field}[{}]", i + 1), min, max)?);
        }
        Ok(out)
    }

    fn point(&self, v: Value, field: &str) -> Result<[f32; 3], SceneError> {
        let p = self.vector::<3>(v, field, -bounds::POSITION_LIMIT, bounds::POSITION_LIMIT)?;
        bounds::position(field, p).map_err(|e| self.bounds(e))
    }

    fn scene(&self, value: Value, capacity: usize) -> Result<Scene, SceneError> {
        let top = match value {
            Value::Table(t) => t,
            other => return Err(self.invalid("", format!("the file must return a scene table, not {}", describe(&other)))),
        };
        self.known_keys(&top, "", &TOP_FIELDS)?;
        match self.get(&top, "format")? {
            Value::Nil => return Err(self.invalid("format", format!("missing; a scene file says `format = {FORMAT}`"))),
            v => {
                let n = self.number(&v, "format")?;
                if n != f64::from(FORMAT) {
                    return Err(
                        self.invalid("format", format!("{} is not a format this limina reads (it reads format {FORMAT})", describe(&v)))
                    );
                }
            }
        }
        let description = match self.get(&top, "description")? {
            Value::Nil => None,
            v => Some(self.string(&v, "description", MAX_DESCRIPTION)?),
        };
        let entities = match self.get(&top, "entities")? {
            Value::Nil => Vec::new(),
            v => {
                let items = self.list(v, "entities", capacity, |n| format!("{n} entities, more than the world holds ({capacity})"))?;
                let mut ids = HashMap::new();
                let mut entities = Vec::with_capacity(items.len());
                for (i, item) in items.into_iter().enumerate() {
                    entities.push(self.entity(item, i + 1, &mut ids)?);
                }
                entities
            }
        };
        let lighting = match self.get(&top, "lighting")? {
            Value::Nil => None,
            v => Some(self.lighting(v)?),
        };
        let camera = match self.get(&top, "camera")? {
            Value::Nil => None,
            v => Some(self.camera(v)?),
        };
        Ok(Scene { description, entities, lighting, camera })
    }

    fn entity(&self, value: Value, at: usize, ids: &mut HashMap<EntityId, usize>) -> Result<SceneEntity, SceneError> {
        let field = format!("entities[{at}]");
        let f = |key: &str| format!("{field}.{key}");
        let t = self.table(value, &field)?;
        self.known_keys(&t, &field, &ENTITY_FIELDS)?;
        let mut e = SceneEntity::at([0.0; 3]);

        match self.get(&t, "id")? {
            Value::Nil => {}
            v => {
                let text = self.string(&v, &f("id"), 32)?;
                let id = EntityId::parse(&text)
                    .ok_or_else(|| self.invalid(&f("id"), format!("'{text}' is not an entity id (ent_0001, ...)")))?;
                if let Some(first) = ids.insert(id, at) {
                    return Err(self.invalid(&f("id"), format!("{id} is listed twice (also entities[{first}])")));
                }
                e.id = Some(id);
            }
        }

        match (self.get(&t, "shape")?, self.get(&t, "model")?) {
            (Value::Nil, Value::Nil) => {}
            (shape, Value::Nil) => {
                let name = self.string(&shape, &f("shape"), 16)?;
                e.look = Look::parse_shape(&name).ok_or_else(|| {
                    self.invalid(&f("shape"), format!("unknown shape '{name}' (box, sphere or capsule; a glTF model is `model`)"))
                })?;
            }
            (Value::Nil, model) => {
                let id = self.string(&model, &f("model"), MAX_ASSET_ID)?;
                if !crate::paths::is_plain_relative(&id) {
                    return Err(
                        self.invalid(&f("model"), format!("'{id}' is not an asset id (a path inside assets/, like models/crate.glb)"))
                    );
                }
                e.look = Look::Model(id);
            }
            _ => return Err(self.invalid(&field, "give a shape or a model, not both")),
        }

        match self.get(&t, "size")? {
            Value::Nil => {}
            v => e.size = self.ranged(&v, &f("size"), bounds::SIZE_MIN, bounds::SIZE_MAX)?,
        }
        match self.get(&t, "color")? {
            Value::Nil => {}
            v => e.color = self.color(&v, &f("color"))?,
        }
        match self.get(&t, "position")? {
            Value::Nil => {}
            v => e.position = self.point(v, &f("position"))?,
        }

        match (self.get(&t, "rotation")?, self.get(&t, "rotationEuler")?) {
            (Value::Nil, Value::Nil) => {}
            (q, Value::Nil) => {
                let q = self.vector::<4>(q, &f("rotation"), -bounds::POSITION_LIMIT, bounds::POSITION_LIMIT)?;
                e.rotation = Some(Rotation::Quaternion(bounds::rotation(&f("rotation"), q).map_err(|e| self.bounds(e))?));
            }
            (Value::Nil, angles) => {
                let a = self.vector::<3>(angles, &f("rotationEuler"), -bounds::ANGLE_LIMIT, bounds::ANGLE_LIMIT)?;
                e.rotation = Some(Rotation::Euler(a.map(|c| c as f32)));
            }
            _ => return Err(self.invalid(&field, "give rotation (a quaternion) or rotationEuler (radians), not both")),
        }
        match self.get(&t, "scale")? {
            Value::Nil => {}
            v => {
                let s = self.vector::<3>(v, &f("scale"), bounds::SCALE_MIN, bounds::SCALE_MAX)?;
                e.scale = Some(bounds::scale(&f("scale"), s).map_err(|e| self.bounds(e))?);
            }
        }
        match self.get(&t, "material")? {
            Value::Nil => {}
            v => e.material = Some(self.material(v, &f("material"))?),
        }
        match self.get(&t, "tags")? {
            Value::Nil => {}
            v => {
                let items = self.list(v, &f("tags"), MAX_TAGS, |n| format!("{n} tags, more than an entity carries ({MAX_TAGS})"))?;
                for (i, item) in items.iter().enumerate() {
                    let tag = self.string(item, &format!("{}[{}]", f("tags"), i + 1), MAX_TAG)?;
                    if let Some(first) = e.tags.iter().position(|t| *t == tag) {
                        return Err(self
                            .invalid(&format!("{}[{}]", f("tags"), i + 1), format!("'{tag}' is listed twice (also tags[{}])", first + 1)));
                    }
                    e.tags.push(tag);
                }
            }
        }
        match self.get(&t, "body")? {
            Value::Nil => {}
            v => e.body = Some(self.body(v, &f("body"))?),
        }
        Ok(e)
    }

    fn material(&self, v: Value, field: &str) -> Result<Material, SceneError> {
        let t = self.table(v, field)?;
        self.known_keys(&t, field, &MATERIAL_FIELDS)?;
        let d = Material::default();
        let flag = |key: &str, default: bool| -> Result<bool, SceneError> {
            match self.get(&t, key)? {
                Value::Nil => Ok(default),
                v => self.boolean(&v, &format!("{field}.{key}")),
            }
        };
        Ok(Material {
            roughness: self.ranged_or(&t, "roughness", field, (0.0, 1.0), d.roughness)?,
            metalness: self.ranged_or(&t, "metalness", field, (0.0, 1.0), d.metalness)?,
            cast_shadow: flag("castShadow", d.cast_shadow)?,
            receive_shadow: flag("receiveShadow", d.receive_shadow)?,
        })
    }

    fn body(&self, v: Value, field: &str) -> Result<SceneBody, SceneError> {
        let t = self.table(v, field)?;
        self.known_keys(&t, field, &BODY_FIELDS)?;
        let kind = match self.get(&t, "kind")? {
            Value::Nil => return Err(self.invalid(&format!("{field}.kind"), "missing: \"dynamic\" or \"static\"")),
            v => match self.string(&v, &format!("{field}.kind"), 16)?.as_str() {
                "dynamic" => BodyKind::Dynamic,
                "static" => BodyKind::Fixed,
                other => return Err(self.invalid(&format!("{field}.kind"), format!("unknown body kind '{other}' (dynamic or static)"))),
            },
        };
        let collider = match self.get(&t, "collider")? {
            Value::Nil => None,
            v => {
                let name = self.string(&v, &format!("{field}.collider"), 16)?;
                Some(ColliderKind::parse(&name).ok_or_else(|| {
                    self.invalid(&format!("{field}.collider"), format!("unknown collider '{name}' (box, sphere or capsule)"))
                })?)
            }
        };
        Ok(SceneBody {
            kind,
            collider,
            friction: self.ranged_or(&t, "friction", field, (0.0, 10.0), 0.5)?,
            restitution: self.ranged_or(&t, "restitution", field, (0.0, 2.0), 0.0)?,
        })
    }

    fn lighting(&self, v: Value) -> Result<Lighting, SceneError> {
        let field = "lighting";
        let t = self.table(v, field)?;
        self.known_keys(&t, field, &LIGHTING_FIELDS)?;
        let f = |key: &str| format!("{field}.{key}");
        let mut l = Lighting::default();
        for (key, slot) in [("ambientColor", &mut l.ambient_color), ("directionalColor", &mut l.directional_color)] {
            match self.get(&t, key)? {
                Value::Nil => {}
                v => *slot = self.color(&v, &f(key))?,
            }
        }
        l.ambient_intensity = self.ranged_or(&t, "ambientIntensity", field, (0.0, 10.0), l.ambient_intensity)?;
        l.directional_intensity = self.ranged_or(&t, "directionalIntensity", field, (0.0, 10.0), l.directional_intensity)?;
        match self.get(&t, "direction")? {
            Value::Nil => {}
            v => {
                let d = self.vector::<3>(v, &f("direction"), -bounds::POSITION_LIMIT, bounds::POSITION_LIMIT)?;
                l.direction = bounds::direction(&f("direction"), d).map_err(|e| self.bounds(e))?;
            }
        }
        match self.get(&t, "castShadow")? {
            Value::Nil => {}
            v => l.cast_shadow = self.boolean(&v, &f("castShadow"))?,
        }
        match self.get(&t, "shadowMapSize")? {
            Value::Nil => {}
            v => l.shadow_map_size = self.integer(&v, &f("shadowMapSize"), 256, 4096)?,
        }
        l.shadow_camera_extent = self.ranged_or(&t, "shadowCameraExtent", field, (0.0, 500.0), l.shadow_camera_extent)?;
        if l.shadow_camera_extent <= 0.0 {
            return Err(self.invalid(&f("shadowCameraExtent"), "must be above 0"));
        }
        let distance = (bounds::MIN_LENGTH, bounds::DISTANCE_MAX);
        l.shadow_camera_near = self.ranged_or(&t, "shadowCameraNear", field, distance, l.shadow_camera_near)?;
        l.shadow_camera_far = self.ranged_or(&t, "shadowCameraFar", field, distance, l.shadow_camera_far)?;
        if l.shadow_camera_near >= l.shadow_camera_far {
            return Err(self.invalid(
                &f("shadowCameraNear"),
                format!("{} is not below shadowCameraFar ({})", Num(l.shadow_camera_near.into()), Num(l.shadow_camera_far.into())),
            ));
        }
        l.shadow_bias = self.ranged_or(&t, "shadowBias", field, (-0.01, 0.01), l.shadow_bias)?;
        l.check().map_err(|e| self.invalid(field, e.to_string()))?;
        Ok(l)
    }

    fn camera(&self, v: Value) -> Result<Camera, SceneError> {
        let field = "camera";
        let t = self.table(v, field)?;
        self.known_keys(&t, field, &CAMERA_FIELDS)?;
        let mut c = Camera::default();
        match self.get(&t, "position")? {
            Value::Nil => {}
            v => c.position = self.point(v, "camera.position")?,
        }
        match self.get(&t, "target")? {
            Value::Nil => {}
            v => c.target = self.point(v, "camera.target")?,
        }
        match self.get(&t, "fov")? {
            Value::Nil => {}
            v => {
                // `render.setCamera`'s bounds are exclusive.
                c.fov_deg = self.ranged(&v, "camera.fov", 1.0, 170.0)?;
                if c.fov_deg <= 1.0 || c.fov_deg >= 170.0 {
                    return Err(
                        self.invalid("camera.fov", format!("{} must lie strictly between 1 and 170 degrees", Num(c.fov_deg.into())))
                    );
                }
            }
        }
        c.check().map_err(|e| self.invalid(field, e.to_string()))?;
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(source: &str) -> Result<Scene, SceneError> {
        parse(source.as_bytes(), "scenes/t.lua", 100)
    }

    fn refused(source: &str) -> String {
        read(source).expect_err("refused").to_string()
    }

    #[test]
    fn a_plain_table_reads_with_the_skills_defaults() {
        let scene = read("return { format = 1, entities = { { shape = 'sphere', position = { 1, 2, 3 } }, {} } }").unwrap();
        assert_eq!(scene.entities.len(), 2);
        let ball = &scene.entities[0];
        assert_eq!((ball.look.clone(), ball.position, ball.size, ball.color), (Look::Sphere, [1.0, 2.0, 3.0], 1.0, 0xffffff));
        assert_eq!(scene.entities[1], SceneEntity::at([0.0; 3]));
        assert_eq!((scene.lighting, scene.camera), (None, None));
    }

    #[test]
    fn a_scene_may_compute_with_math_and_nothing_else() {
        let scene = read("local r = math.sqrt(0.5) return { format = 1, entities = { { rotation = { 0, r, 0, r } } } }").unwrap();
        assert!(matches!(scene.entities[0].rotation, Some(Rotation::Quaternion(_))));
        for reach in ["print('x')", "require('x')", "getfenv()", "loadstring('x')", "math.random()", "os.time()", "('x'):rep(3)", "x = 1"] {
            let e = refused(&format!("{reach} return {{ format = 1 }}"));
            assert!(e.starts_with("scenes/t.lua:1:"), "{reach}: {e}");
        }
    }

    #[test]
    fn bytecode_is_never_loaded() {
        // Luau bytecode starts with a version byte; compiled as text it is a syntax error.
        let e = parse(b"\x06\x01\x02return", "scenes/t.lua", 100).unwrap_err();
        assert!(matches!(e, SceneError::Script { .. }), "{e}");
    }

    #[test]
    fn runaway_files_are_stopped_by_their_budgets() {
        assert!(matches!(read("while true do end"), Err(SceneError::Budget { .. })));
        assert!(matches!(read("local function f() return f() + 1 end return f()"), Err(SceneError::Script { .. })));
        assert!(matches!(read("local s = 'xxxxxxxx' for i = 1, 40 do s = s .. s end return s"), Err(SceneError::Memory { .. })));
        let big = vec![b' '; MAX_FILE_BYTES + 1];
        assert!(matches!(parse(&big, "scenes/t.lua", 100), Err(SceneError::TooLarge { .. })));
    }

    #[test]
    fn every_bad_field_is_named_with_its_value() {
        let cases = [
            ("return 5", "scenes/t.lua: the file must return a scene table, not 5"),
            ("return { entities = {} }", "scenes/t.lua: format: missing; a scene file says `format = 1`"),
            ("return { format = 2 }", "scenes/t.lua: format: 2 is not a format this limina reads (it reads format 1)"),
            (
                "return { format = 1, extra = 1 }",
                "scenes/t.lua: the scene table: unknown field 'extra' (known: format, description, entities, lighting, camera)",
            ),
            (
                "return { format = 1, entities = { { position = { 0/0, 0, 0 } } } }",
                "scenes/t.lua: entities[1].position[1]: NaN is not a finite number",
            ),
            (
                "return { format = 1, entities = { {}, { position = { 0, 1e7, 0 } } } }",
                "scenes/t.lua: entities[2].position[2]: 10000000 is outside [-1000000, 1000000]",
            ),
            (
                "return { format = 1, entities = { { shape = 'cone' } } }",
                "scenes/t.lua: entities[1].shape: unknown shape 'cone' (box, sphere or capsule; a glTF model is `model`)",
            ),
            ("return { format = 1, entities = { { size = '1' } } }", "scenes/t.lua: entities[1].size: expected a number, got \"1\""),
            ("return { format = 1, entities = { { size = 80 } } }", "scenes/t.lua: entities[1].size: 80 is outside [0.001, 50]"),
            (
                "return { format = 1, entities = { { color = 1.5 } } }",
                "scenes/t.lua: entities[1].color: 1.5 is not a colour 0xRRGGBB (a whole number in [0, 0xffffff])",
            ),
            (
                "return { format = 1, entities = { { position = { 1, 2 } } } }",
                "scenes/t.lua: entities[1].position: expected 3 numbers, got 2",
            ),
            (
                "return { format = 1, entities = { { rotation = { 0, 0, 0, 0 } } } }",
                "scenes/t.lua: entities[1].rotation: the rotation quaternion has length 0, too close to zero to give a rotation (it must be at least 1e-6)",
            ),
            (
                "return { format = 1, entities = { { scale = { 1000, 1000, 2 } } } }",
                "scenes/t.lua: entities[1].scale: the scale product 2000000 is outside [1e-6, 1000000] (a body's volume may change at most 10^6-fold)",
            ),
            (
                "return { format = 1, entities = { { body = { kind = 'floaty' } } } }",
                "scenes/t.lua: entities[1].body.kind: unknown body kind 'floaty' (dynamic or static)",
            ),
            (
                "return { format = 1, entities = { { body = { kind = 'dynamic', friction = -1 } } } }",
                "scenes/t.lua: entities[1].body.friction: -1 is outside [0, 10]",
            ),
            (
                "return { format = 1, entities = { { tags = { 'a', 'a' } } } }",
                "scenes/t.lua: entities[1].tags[2]: 'a' is listed twice (also tags[1])",
            ),
            (
                "return { format = 1, entities = { { id = 'ent_0001' }, { id = 'ent_0001' } } }",
                "scenes/t.lua: entities[2].id: ent_0001 is listed twice (also entities[1])",
            ),
            (
                "return { format = 1, entities = { { model = '../secret' } } }",
                "scenes/t.lua: entities[1].model: '../secret' is not an asset id (a path inside assets/, like models/crate.glb)",
            ),
            (
                "return { format = 1, entities = { { shape = 'box', model = 'models/crate.glb' } } }",
                "scenes/t.lua: entities[1]: give a shape or a model, not both",
            ),
            (
                "return { format = 1, entities = { [1] = {}, [3] = {} } }",
                "scenes/t.lua: entities: must be a list (keys 1 to 1 only), found key 3",
            ),
            (
                "return { format = 1, entities = { { material = { roughness = 2 } } } }",
                "scenes/t.lua: entities[1].material.roughness: 2 is outside [0, 1]",
            ),
            (
                "return { format = 1, lighting = { shadowCameraNear = 200 } }",
                "scenes/t.lua: lighting.shadowCameraNear: 200 is not below shadowCameraFar (120)",
            ),
            (
                "return { format = 1, lighting = { direction = { 0, 0, 0 } } }",
                "scenes/t.lua: lighting.direction: the direction has length 0, too close to zero to point anywhere (it must be at least 1e-6)",
            ),
            ("return { format = 1, camera = { fov = 170 } }", "scenes/t.lua: camera.fov: 170 must lie strictly between 1 and 170 degrees"),
            (
                "return { format = 1, camera = { position = { 0, 0, 0 }, target = { 0, 0, 0 } } }",
                "scenes/t.lua: camera: target (from position): the direction has length 0, too close to zero to point anywhere (it must be at least 1e-6)",
            ),
        ];
        for (source, expected) in cases {
            assert_eq!(refused(source), expected, "{source}");
        }
    }

    #[test]
    fn more_entities_than_the_world_holds_are_refused_before_they_are_read() {
        let e = refused("local e = { shape = 'box' } local t = {} for i = 1, 101 do t[i] = e end return { format = 1, entities = t }");
        assert_eq!(e, "scenes/t.lua: entities: 101 entities, more than the world holds (100)");
    }

    #[test]
    #[ignore = "slow: runs with the full suite (cargo test -- --include-ignored)"]
    fn a_world_at_the_default_capacity_fits_the_file_and_memory_limits() {
        let n = crate::world::DEFAULT_ENTITY_CAPACITY;
        let entities = (0..n)
            .map(|i| {
                let f = i as f32;
                let mut e = SceneEntity::at([f * 0.013_7 - 400.0, 0.499_999_97 + f * 1e-4, -f * 0.007_3]);
                e.id = EntityId::parse(&format!("ent_{:04}", i + 1));
                let q = [0.001_234_567_8 * f64::from(f), -0.707_106_77, 0.002_345_678_9, 0.707_106_77];
                let len = q.iter().map(|c| c * c).sum::<f64>().sqrt();
                e.rotation = Some(Rotation::Quaternion(q.map(|c| (c / len) as f32)));
                e.body = Some(SceneBody { kind: BodyKind::Dynamic, collider: Some(ColliderKind::Box), friction: 0.5, restitution: 0.0 });
                e
            })
            .collect();
        let scene = Scene { description: None, entities, lighting: Some(Lighting::default()), camera: Some(Camera::default()) };
        let text = super::super::to_luau(&scene);
        assert!(text.len() < MAX_FILE_BYTES / 2, "{} bytes", text.len());
        let (lua, value) = evaluate(text.as_bytes(), "scenes/full.lua", n).unwrap();
        assert!(lua.used_memory() < MEMORY_LIMIT / 2, "{} bytes", lua.used_memory());
        let read = Check { file: "scenes/full.lua" }.scene(value, n).unwrap();
        assert!(read == scene, "the scene reads back as written");
    }

    #[test]
    fn only_tables_with_format_or_entities_are_probed_as_scenes() {
        assert!(matches!(probe(b"return { format = 1 }", "x.lua", 10), Probe::Scene(_)));
        assert!(matches!(probe(b"return { format = 1, entities = 3 }", "x.lua", 10), Probe::Invalid(_)));
        assert!(matches!(probe(b"return { frames = 10 }", "x.lua", 10), Probe::NotScene(_)));
        assert!(matches!(probe(b"limina.step(1)", "x.lua", 10), Probe::NotScene(_)));
    }
}
