//! Lua values <-> JSON, without silently losing data, and within a budget.
//!
//! Lua has one table type where JSON has two, and Luau numbers are all doubles. The rules:
//! a table whose keys are exactly `1..n` is an array; a table with only string keys is an object;
//! anything else (mixed keys, holes, float or negative keys) is an error naming the path. An empty
//! table is an empty object unless it carries mlua's array metatable (the schema layer turns `{}`
//! into `[]` where an array is expected). Integral numbers become JSON integers; NaN and infinity
//! are errors, since JSON cannot carry them; so are strings and table keys that are not UTF-8
//! (two keys differing only in invalid bytes would otherwise collapse into one).
//!
//! A Lua value can be far larger as JSON than in the VM: a subtable referenced twice is copied
//! twice, so 61 tables referencing the next one twice describe 2^61 JSON nodes. The `_within`
//! variants take a `Budget` (bytes of text, nodes, depth), charged at every visit — a shared
//! subtable is charged each time it is reached, since that is the copy being made — and a
//! `check` called every `CHECK_EVERY` nodes so a caller's deadline can stop a long conversion.
//! Anything that converts values on behalf of untrusted code uses them; `lua_to_json` and
//! `json_to_lua` keep their old meaning (only the depth is limited) for the engine's own VM.
//!
//! Hot: handler inputs and results go through here on every skill call. Paths are kept as a stack
//! of segments and only formatted into a string when an error is reported.

use mlua::{AnyUserData, Lua, LuaSerdeExt, MetaMethod, Table, UserData, UserDataMethods, Value as LuaValue};
use serde_json::{Map, Number, Value};

/// Deepest nesting accepted; deeper (or cyclic) tables are refused instead of overflowing.
pub(crate) const MAX_DEPTH: usize = 64;

/// Values one conversion from the engine's VM may visit (`Budget::ENGINE`): far more than a
/// skill input needs (a 65,536-entity batch is ~1M), a fraction of a second to convert.
pub(crate) const ENGINE_NODES: usize = 4 << 20;

/// Bytes of text (strings and keys, at every visit) one conversion from the engine's VM may copy.
pub(crate) const ENGINE_BYTES: usize = 256 << 20;

/// Nodes converted between two calls of a conversion's `check`.
pub(crate) const CHECK_EVERY: usize = 1024;

/// Longest table key shown in an error path; longer keys are cut (they can be megabytes).
const PATH_KEY_CHARS: usize = 40;

/// How much one conversion may produce. Each counter is charged at every visit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Budget {
    /// Bytes of text: string values and object keys.
    pub bytes: usize,
    /// Values of any kind (tables, strings, numbers, booleans, nulls).
    pub nodes: usize,
    /// Deepest nesting of tables.
    pub depth: usize,
}

impl Budget {
    /// What `lua_to_json` (and so every call from the engine's own VM) allows: nesting up to
    /// `MAX_DEPTH`, `ENGINE_NODES` values and `ENGINE_BYTES` of text. Counted at every visit, so
    /// a table that holds another twice counts it twice: 40 levels of `t = {a = t, b = t}` are
    /// a few hundred bytes of Lua and 2^40 values of JSON, which unbounded held the loop (and
    /// a playtest past its deadline) while memory grew without end.
    pub(crate) const ENGINE: Budget = Budget { bytes: ENGINE_BYTES, nodes: ENGINE_NODES, depth: MAX_DEPTH };
}

/// Which budget a conversion ran out of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BudgetLimit {
    Bytes,
    Nodes,
    Depth,
}

/// Why a conversion failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ConvertErrorKind {
    /// The value has no faithful JSON form (a function, NaN, a mixed table, invalid UTF-8...).
    NotJson,
    /// The value is larger than the budget allows.
    OverBudget(BudgetLimit),
    /// The caller's `check` stopped the conversion (its message is the error's message).
    Interrupted,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{path}: {message}")]
pub(crate) struct ConvertError {
    pub path: String,
    pub message: String,
    pub kind: ConvertErrorKind,
}

/// Why a conversion's `check` stopped it (a package's CPU deadline, say); its text becomes the
/// `Interrupted` error's message.
pub(crate) type Interrupt = Box<dyn std::error::Error + Send + Sync>;

fn fail(path: &str, message: impl Into<String>) -> ConvertError {
    ConvertError { path: path.to_string(), message: message.into(), kind: ConvertErrorKind::NotJson }
}

/// A JSON value handed to Lua without converting it: native ops return large results (trace
/// pages, audit answers) this way. Lua can still read it (`blob.field`, `blob[1]`, `#blob`);
/// returning it from a handler passes the JSON through untouched, nulls included.
#[derive(Debug, Clone)]
pub(crate) struct JsonBlob(pub Value);

impl UserData for JsonBlob {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_meta_method(MetaMethod::Index, |lua, this, key: LuaValue| {
            let child = match (&this.0, &key) {
                (Value::Object(map), LuaValue::String(k)) => map.get(&*k.to_str()?),
                (Value::Array(items), LuaValue::Integer(i)) if *i >= 1 => items.get(*i as usize - 1),
                _ => None,
            };
            match child {
                // Containers stay JSON (so nulls inside survive being passed on); scalars convert.
                Some(v @ (Value::Object(_) | Value::Array(_))) => Ok(LuaValue::UserData(blob(lua, v.clone())?)),
                Some(v) => json_to_lua(lua, v),
                None => Ok(LuaValue::Nil),
            }
        });
        // `for k, v in blob do` iterates a plain copy.
        methods.add_meta_method(MetaMethod::Iter, |lua, this, ()| {
            let next: mlua::Function = lua.globals().get("next")?;
            Ok((next, json_to_lua(lua, &this.0)?))
        });
        methods.add_meta_method(MetaMethod::Len, |_, this, ()| {
            Ok(match &this.0 {
                Value::Array(items) => items.len(),
                Value::Object(map) => map.len(),
                _ => 0,
            })
        });
    }
}

/// Wraps a JSON value for Lua (see `JsonBlob`).
pub(crate) fn blob(lua: &Lua, value: Value) -> mlua::Result<AnyUserData> {
    lua.create_userdata(JsonBlob(value))
}

/// Converts a Lua value to JSON; `root` names the value in error paths (e.g. `input`), within
/// `Budget::ENGINE`: code converting values for untrusted packages uses `lua_to_json_within`
/// with a tighter budget.
pub(crate) fn lua_to_json(lua: &Lua, value: &LuaValue, root: &str) -> Result<Value, ConvertError> {
    lua_to_json_within(lua, value, root, &Budget::ENGINE, &mut || Ok(()))
}

/// Converts a Lua value to JSON within `budget`, calling `check` every `CHECK_EVERY` nodes; an
/// `Err` from `check` stops the conversion with that message (`ConvertErrorKind::Interrupted`).
pub(crate) fn lua_to_json_within(
    lua: &Lua,
    value: &LuaValue,
    root: &str,
    budget: &Budget,
    check: &mut dyn FnMut() -> Result<(), Interrupt>,
) -> Result<Value, ConvertError> {
    let mut walk = Walk::new(root, budget, check);
    walk.convert_lua(value, 0, &lua.array_metatable())
}

/// Converts JSON to a Lua value within `budget` (see `lua_to_json_within`). Budget and check
/// failures are `mlua::Error::external(ConvertError)`; Lua errors (out of memory) pass through.
pub(crate) fn json_to_lua_within(
    lua: &Lua,
    value: &Value,
    root: &str,
    budget: &Budget,
    check: &mut dyn FnMut() -> Result<(), Interrupt>,
) -> mlua::Result<LuaValue> {
    let mut walk = Walk::new(root, budget, check);
    walk.convert_json(lua, value, 0)
}

/// One segment of the path to the value being converted.
enum Segment {
    Key(String),
    Index(usize),
}

/// The state of one conversion: what has been charged, and where it is.
struct Walk<'a> {
    root: &'a str,
    budget: Budget,
    bytes: usize,
    nodes: usize,
    path: Vec<Segment>,
    check: &'a mut dyn FnMut() -> Result<(), Interrupt>,
}

impl<'a> Walk<'a> {
    fn new(root: &'a str, budget: &Budget, check: &'a mut dyn FnMut() -> Result<(), Interrupt>) -> Self {
        Walk { root, budget: *budget, bytes: 0, nodes: 0, path: Vec::new(), check }
    }

    fn path(&self) -> String {
        let mut out = self.root.to_string();
        for segment in &self.path {
            match segment {
                Segment::Key(k) => {
                    out.push('.');
                    out.push_str(k);
                }
                Segment::Index(i) => out.push_str(&format!("[{i}]")),
            }
        }
        out
    }

    fn fail(&self, message: impl Into<String>) -> ConvertError {
        fail(&self.path(), message)
    }

    fn over(&self, limit: BudgetLimit) -> ConvertError {
        let message = match limit {
            BudgetLimit::Bytes => format!("value has more than {} bytes of text", self.budget.bytes),
            BudgetLimit::Nodes => format!("value has more than {} nodes", self.budget.nodes),
            BudgetLimit::Depth => format!("nested deeper than {} levels (or a table contains itself)", self.budget.depth),
        };
        ConvertError { path: self.path(), message, kind: ConvertErrorKind::OverBudget(limit) }
    }

    fn charge_node(&mut self) -> Result<(), ConvertError> {
        self.nodes += 1;
        if self.nodes > self.budget.nodes {
            return Err(self.over(BudgetLimit::Nodes));
        }
        if self.nodes.is_multiple_of(CHECK_EVERY)
            && let Err(why) = (self.check)()
        {
            return Err(ConvertError { path: self.path(), message: why.to_string(), kind: ConvertErrorKind::Interrupted });
        }
        Ok(())
    }

    fn charge_bytes(&mut self, n: usize) -> Result<(), ConvertError> {
        self.bytes = self.bytes.saturating_add(n);
        if self.bytes > self.budget.bytes { Err(self.over(BudgetLimit::Bytes)) } else { Ok(()) }
    }

    fn enter(&self, depth: usize) -> Result<(), ConvertError> {
        if depth >= self.budget.depth { Err(self.over(BudgetLimit::Depth)) } else { Ok(()) }
    }

    fn push_key(&mut self, key: &str) {
        let shown = match key.char_indices().nth(PATH_KEY_CHARS) {
            Some((cut, _)) => format!("{}…", &key[..cut]),
            None => key.to_string(),
        };
        self.path.push(Segment::Key(shown));
    }

    fn convert_lua(&mut self, value: &LuaValue, depth: usize, array_mt: &Table) -> Result<Value, ConvertError> {
        self.charge_node()?;
        match value {
            LuaValue::Nil => Ok(Value::Null),
            LuaValue::Boolean(b) => Ok(Value::Bool(*b)),
            LuaValue::Integer(i) => Ok(Value::Number(Number::from(*i))),
            LuaValue::Number(n) => number(*n).map_err(|e| self.fail(e.to_string())),
            LuaValue::String(s) => {
                let bytes = s.as_bytes();
                self.charge_bytes(bytes.len())?;
                match std::str::from_utf8(&bytes) {
                    Ok(text) => Ok(Value::String(text.to_string())),
                    Err(_) => Err(self.fail("string is not valid UTF-8")),
                }
            }
            LuaValue::Table(t) => self.table_to_json(t, depth, array_mt),
            LuaValue::LightUserData(p) if p.0.is_null() => Ok(Value::Null),
            LuaValue::UserData(ud) if ud.is::<JsonBlob>() => match ud.borrow::<JsonBlob>() {
                Ok(b) => {
                    // A blob referenced from many places is copied as often: charge every copy.
                    self.charge_json(&b.0, depth)?;
                    Ok(b.0.clone())
                }
                Err(_) => Err(self.fail("a JSON value could not be read")),
            },
            other => Err(self.fail(format!("a {} cannot be converted to JSON", crate::script::lua_type_name(other)))),
        }
    }

    /// Charges a JSON value already in the host (a blob) as if it were converted.
    fn charge_json(&mut self, value: &Value, depth: usize) -> Result<(), ConvertError> {
        match value {
            Value::String(s) => self.charge_bytes(s.len()),
            Value::Array(items) => {
                self.enter(depth)?;
                for item in items {
                    self.charge_node()?;
                    self.charge_json(item, depth + 1)?;
                }
                Ok(())
            }
            Value::Object(map) => {
                self.enter(depth)?;
                for (k, v) in map {
                    self.charge_node()?;
                    self.charge_bytes(k.len())?;
                    self.charge_json(v, depth + 1)?;
                }
                Ok(())
            }
            Value::Null | Value::Bool(_) | Value::Number(_) => Ok(()),
        }
    }

    fn table_to_json(&mut self, t: &Table, depth: usize, array_mt: &Table) -> Result<Value, ConvertError> {
        self.enter(depth)?;
        let len = t.raw_len();
        // A raw pass classifies the keys. It holds no references (mlua's reference stack is
        // small), and a table with more entries than nodes left in the budget is refused here,
        // before any entry is converted.
        let room = self.budget.nodes.saturating_sub(self.nodes);
        let mut entries = 0usize;
        let mut int_keys = 0usize;
        let mut string_keys = 0usize;
        let mut bad_key: Option<String> = None;
        let classify = t.for_each(|k: LuaValue, _: LuaValue| {
            entries += 1;
            if entries > room {
                return Err(mlua::Error::runtime("over budget"));
            }
            match &k {
                LuaValue::Integer(i) if *i >= 1 && (*i as usize) <= len => int_keys += 1,
                LuaValue::Number(n) if n.fract() == 0.0 && *n >= 1.0 && (*n as usize) <= len => int_keys += 1,
                LuaValue::String(_) => string_keys += 1,
                other => {
                    if bad_key.is_none() {
                        bad_key = Some(describe_key(other));
                    }
                }
            }
            Ok(())
        });
        if entries > room {
            return Err(self.over(BudgetLimit::Nodes));
        }
        if classify.is_err() {
            return Err(self.fail("table could not be read"));
        }
        if let Some(key) = bad_key {
            return Err(self.fail(format!(
                "table has key {key} that is neither a string nor part of a 1..n sequence (a sparse array or a mixed table cannot be converted without losing data)"
            )));
        }
        if int_keys > 0 && string_keys > 0 {
            return Err(self.fail("table mixes array items and named fields; use one or the other"));
        }
        if int_keys > 0 || (string_keys == 0 && t.metatable().as_ref() == Some(array_mt)) {
            let mut items = Vec::with_capacity(len.min(room));
            for i in 1..=len {
                let item: LuaValue = t.raw_get(i).map_err(|_| self.fail("table could not be read"))?;
                self.path.push(Segment::Index(i));
                let converted = self.convert_lua(&item, depth + 1, array_mt);
                self.path.pop();
                items.push(converted?);
            }
            return Ok(Value::Array(items));
        }
        let mut map = Map::new();
        let mut error = None;
        let walk = t.for_each(|k: LuaValue, v: LuaValue| {
            let LuaValue::String(k) = k else { return Ok(()) };
            match self.entry_to_json(&k, &v, depth, array_mt) {
                Ok((key, json)) => {
                    map.insert(key, json);
                    Ok(())
                }
                Err(e) => {
                    error = Some(e);
                    Err(mlua::Error::runtime("stop"))
                }
            }
        });
        match (error, walk) {
            (Some(e), _) => Err(e),
            (None, Err(_)) => Err(self.fail("table could not be read")),
            (None, Ok(())) => Ok(Value::Object(map)),
        }
    }

    fn entry_to_json(
        &mut self,
        k: &mlua::LuaString,
        v: &LuaValue,
        depth: usize,
        array_mt: &Table,
    ) -> Result<(String, Value), ConvertError> {
        let bytes = k.as_bytes();
        self.charge_bytes(bytes.len())?;
        let Ok(key) = std::str::from_utf8(&bytes) else {
            return Err(self.fail(format!("table key \"{}\" is not valid UTF-8", bytes.escape_ascii())));
        };
        self.push_key(key);
        let converted = self.convert_lua(v, depth + 1, array_mt);
        self.path.pop();
        Ok((key.to_string(), converted?))
    }

    fn convert_json(&mut self, lua: &Lua, value: &Value, depth: usize) -> mlua::Result<LuaValue> {
        self.charge_node().map_err(mlua::Error::external)?;
        Ok(match value {
            Value::Null => LuaValue::Nil,
            Value::Bool(b) => LuaValue::Boolean(*b),
            Value::Number(n) => number_to_lua(n),
            Value::String(s) => {
                self.charge_bytes(s.len()).map_err(mlua::Error::external)?;
                LuaValue::String(lua.create_string(s)?)
            }
            Value::Array(items) => {
                self.enter(depth).map_err(mlua::Error::external)?;
                let t = lua.create_table_with_capacity(items.len(), 0)?;
                for (i, item) in items.iter().enumerate() {
                    self.path.push(Segment::Index(i + 1));
                    let converted = self.convert_json(lua, item, depth + 1);
                    self.path.pop();
                    t.raw_set(i + 1, converted?)?;
                }
                t.set_metatable(Some(lua.array_metatable()))?;
                LuaValue::Table(t)
            }
            Value::Object(map) => {
                self.enter(depth).map_err(mlua::Error::external)?;
                let t = lua.create_table_with_capacity(0, map.len())?;
                for (k, v) in map {
                    self.charge_bytes(k.len()).map_err(mlua::Error::external)?;
                    self.push_key(k);
                    let converted = self.convert_json(lua, v, depth + 1);
                    self.path.pop();
                    t.raw_set(k.as_str(), converted?)?;
                }
                LuaValue::Table(t)
            }
        })
    }
}

/// Why a Lua number has no JSON form.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
pub(crate) enum NumberError {
    #[error("{0} is not a finite number (JSON cannot carry NaN or infinity)")]
    NotFinite(f64),
    #[error("{0} is not representable in JSON")]
    NotRepresentable(f64),
}

/// A Lua number as JSON, or why it has none (the caller adds the path: building it for every
/// number would cost an allocation per number on the hot path).
pub(crate) fn number(n: f64) -> Result<Value, NumberError> {
    if !n.is_finite() {
        return Err(NumberError::NotFinite(n));
    }
    // Whole numbers that fit exactly become integers, so `color = 0xffffff` satisfies "integer".
    if n.fract() == 0.0 && n.abs() < 9_007_199_254_740_992.0 {
        return Ok(Value::Number(Number::from(n as i64)));
    }
    Number::from_f64(n).map(Value::Number).ok_or(NumberError::NotRepresentable(n))
}

pub(crate) fn number_to_lua(n: &Number) -> LuaValue {
    match n.as_i64() {
        Some(i) => LuaValue::Integer(i),
        None => LuaValue::Number(n.as_f64().unwrap_or(f64::NAN)),
    }
}

fn describe_key(k: &LuaValue) -> String {
    match k {
        LuaValue::Integer(i) => format!("[{i}]"),
        LuaValue::Number(n) => format!("[{n}]"),
        LuaValue::Boolean(b) => format!("[{b}]"),
        other => format!("of type {}", crate::script::lua_type_name(other)),
    }
}

/// Converts JSON to a Lua value. Arrays get mlua's array metatable so they round-trip as arrays
/// even when empty; JSON null becomes nil. Nothing is bounded: code converting values into an
/// untrusted package's VM uses `json_to_lua_within`.
pub(crate) fn json_to_lua(lua: &Lua, value: &Value) -> mlua::Result<LuaValue> {
    Ok(match value {
        Value::Null => LuaValue::Nil,
        Value::Bool(b) => LuaValue::Boolean(*b),
        Value::Number(n) => number_to_lua(n),
        Value::String(s) => LuaValue::String(lua.create_string(s)?),
        Value::Array(items) => {
            let t = lua.create_table_with_capacity(items.len(), 0)?;
            for (i, item) in items.iter().enumerate() {
                t.raw_set(i + 1, json_to_lua(lua, item)?)?;
            }
            t.set_metatable(Some(lua.array_metatable()))?;
            LuaValue::Table(t)
        }
        Value::Object(map) => {
            let t = lua.create_table_with_capacity(0, map.len())?;
            for (k, v) in map {
                t.raw_set(k.as_str(), json_to_lua(lua, v)?)?;
            }
            LuaValue::Table(t)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn eval(lua: &Lua, src: &str) -> Result<Value, ConvertError> {
        let v: LuaValue = lua.load(src).eval().unwrap();
        lua_to_json(lua, &v, "input")
    }

    #[test]
    fn arrays_objects_and_numbers() {
        let lua = Lua::new();
        assert_eq!(eval(&lua, "{1, 2.5, 'x'}").unwrap(), json!([1, 2.5, "x"]));
        assert_eq!(eval(&lua, "{a = {b = true}}").unwrap(), json!({"a": {"b": true}}));
        assert_eq!(eval(&lua, "0xffffff").unwrap(), json!(16777215));
        assert_eq!(eval(&lua, "{}").unwrap(), json!({}));
    }

    #[test]
    fn mixed_and_sparse_tables_are_refused_with_a_path() {
        let lua = Lua::new();
        let e = eval(&lua, "{pos = {1, 2, x = 3}}").unwrap_err();
        assert_eq!(e.path, "input.pos");
        assert!(e.message.contains("mixes"), "{e}");
        let e = eval(&lua, "{items = {[1] = 1, [3] = 3}}").unwrap_err();
        assert_eq!(e.path, "input.items");
        assert!(e.message.contains("sparse"), "{e}");
        let e = eval(&lua, "{[2.5] = 1}").unwrap_err();
        assert!(e.message.contains("[2.5]"), "{e}");
    }

    #[test]
    fn non_finite_numbers_and_functions_are_refused() {
        let lua = Lua::new();
        assert_eq!(eval(&lua, "{x = 0/0}").unwrap_err().path, "input.x");
        assert!(eval(&lua, "{1/0}").unwrap_err().message.contains("finite"));
        assert!(eval(&lua, "{f = print}").unwrap_err().message.contains("function"));
    }

    #[test]
    fn self_containing_tables_are_refused() {
        let lua = Lua::new();
        let e = eval(&lua, "(function() local t = {} t.self = t return t end)()").unwrap_err();
        assert!(e.message.contains("nested deeper"), "{e}");
    }

    fn within(lua: &Lua, src: &str, budget: Budget) -> Result<Value, ConvertError> {
        let v: LuaValue = lua.load(src).eval().unwrap();
        lua_to_json_within(lua, &v, "input", &budget, &mut || Ok(()))
    }

    const ROOMY: Budget = Budget { bytes: 1 << 20, nodes: 1000, depth: 16 };

    #[test]
    fn a_shared_subtable_is_charged_at_every_visit() {
        let lua = Lua::new();
        // root + 2 x (table + 3 items) = 9 nodes, although the VM holds only 2 tables.
        let src = "local t = {1, 2, 3} return {a = t, b = t}";
        assert_eq!(within(&lua, src, Budget { nodes: 9, ..ROOMY }).unwrap(), json!({"a": [1, 2, 3], "b": [1, 2, 3]}));
        let e = within(&lua, src, Budget { nodes: 8, ..ROOMY }).unwrap_err();
        assert_eq!(e.kind, ConvertErrorKind::OverBudget(BudgetLimit::Nodes));
        assert_eq!(e.to_string(), "input.b: value has more than 8 nodes");
    }

    #[test]
    fn a_dag_of_61_tables_is_refused_at_the_node_budget() {
        let lua = Lua::new();
        let src = "local t = {} for _ = 1, 61 do t = {a = t, b = t} end return t";
        let e = within(&lua, src, Budget { nodes: 100_000, bytes: usize::MAX, depth: MAX_DEPTH }).unwrap_err();
        assert_eq!(e.kind, ConvertErrorKind::OverBudget(BudgetLimit::Nodes));
        assert!(e.path.matches('.').count() > 30, "the walk went deep before running out: {e}");
        assert!(e.message.contains("more than 100000 nodes"), "{e}");
    }

    #[test]
    fn text_is_charged_for_keys_and_values_at_every_visit() {
        let lua = Lua::new();
        let src = "local s = string.rep('x', 100) return {s, s, s}";
        assert!(within(&lua, src, Budget { bytes: 300, ..ROOMY }).is_ok());
        let e = within(&lua, src, Budget { bytes: 299, ..ROOMY }).unwrap_err();
        assert_eq!((e.path.as_str(), e.kind), ("input[3]", ConvertErrorKind::OverBudget(BudgetLimit::Bytes)));
        assert_eq!(e.message, "value has more than 299 bytes of text");
        let e = within(&lua, "return {[string.rep('k', 50)] = 1}", Budget { bytes: 49, ..ROOMY }).unwrap_err();
        assert_eq!(e.kind, ConvertErrorKind::OverBudget(BudgetLimit::Bytes));
    }

    #[test]
    fn depth_is_bounded_by_the_budget() {
        let lua = Lua::new();
        let src = "return {a = {b = {c = 1}}}";
        assert!(within(&lua, src, Budget { depth: 3, ..ROOMY }).is_ok());
        let e = within(&lua, src, Budget { depth: 2, ..ROOMY }).unwrap_err();
        assert_eq!((e.path.as_str(), e.kind), ("input.a.b", ConvertErrorKind::OverBudget(BudgetLimit::Depth)));
    }

    #[test]
    fn a_wide_table_is_refused_before_its_entries_are_converted() {
        let lua = Lua::new();
        let e = within(&lua, "return table.create(5000, {})", Budget { nodes: 100, ..ROOMY }).unwrap_err();
        assert_eq!((e.path.as_str(), e.kind), ("input", ConvertErrorKind::OverBudget(BudgetLimit::Nodes)));
    }

    #[test]
    fn the_check_can_stop_a_conversion() {
        let lua = Lua::new();
        let v: LuaValue = lua.load("return table.create(5000, 1)").eval().unwrap();
        let mut calls = 0;
        let e = lua_to_json_within(&lua, &v, "result", &Budget::ENGINE, &mut || {
            calls += 1;
            if calls > 2 { Err("deadline".into()) } else { Ok(()) }
        })
        .unwrap_err();
        assert_eq!((e.kind, e.message.as_str(), e.path.as_str()), (ConvertErrorKind::Interrupted, "deadline", "result[3071]"));
    }

    #[test]
    fn keys_that_are_not_utf8_are_refused_instead_of_merged() {
        let lua = Lua::new();
        let e = eval(&lua, "return {pos = {['a\\xff'] = 1, ['a\\xfe'] = 2}}").unwrap_err();
        assert_eq!(e.path, "input.pos");
        assert!(e.message.contains("is not valid UTF-8") && e.message.contains("a\\x"), "{e}");
    }

    #[test]
    fn long_keys_are_cut_in_error_paths() {
        let lua = Lua::new();
        let e = eval(&lua, "return {[string.rep('k', 5000)] = {f = print}}").unwrap_err();
        assert_eq!(e.path, format!("input.{}….f", "k".repeat(40)));
    }

    #[test]
    fn an_array_metatable_does_not_hide_named_fields() {
        let lua = Lua::new();
        let v = json_to_lua(&lua, &json!([])).unwrap();
        let LuaValue::Table(t) = &v else { panic!() };
        t.raw_set("x", 1).unwrap();
        assert_eq!(lua_to_json(&lua, &v, "input").unwrap(), json!({"x": 1}));
    }

    #[test]
    fn json_to_lua_within_charges_and_names_the_path() {
        let lua = Lua::new();
        let value = json!({"a": [1, 2, {"b": "xyz"}]});
        assert!(json_to_lua_within(&lua, &value, "response", &Budget { nodes: 6, ..ROOMY }, &mut || Ok(())).is_ok());
        let e = json_to_lua_within(&lua, &value, "response", &Budget { nodes: 5, ..ROOMY }, &mut || Ok(())).unwrap_err();
        let e = e.downcast_ref::<ConvertError>().unwrap();
        assert_eq!((e.path.as_str(), e.kind), ("response.a[3].b", ConvertErrorKind::OverBudget(BudgetLimit::Nodes)));
        let e = json_to_lua_within(&lua, &value, "response", &Budget { bytes: 2, ..ROOMY }, &mut || Ok(())).unwrap_err();
        assert_eq!(e.downcast_ref::<ConvertError>().unwrap().kind, ConvertErrorKind::OverBudget(BudgetLimit::Bytes));
    }

    #[test]
    fn json_round_trips_including_empty_arrays() {
        let lua = Lua::new();
        let original = json!({"a": [], "b": [1, {"c": null}], "d": {}, "e": 1.5, "f": "s"});
        let v = json_to_lua(&lua, &original).unwrap();
        let back = lua_to_json(&lua, &v, "x").unwrap();
        // null inside an object is nil in Lua, so the key disappears; everything else survives.
        assert_eq!(back, json!({"a": [], "b": [1, {}], "d": {}, "e": 1.5, "f": "s"}));
    }
}
