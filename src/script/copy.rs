//! Lua → JSON and a private Lua copy of the same value, in one walk.
//!
//! A skill call from a script crosses the pipeline twice: the caller's input becomes JSON (to be
//! validated and traced) and then a Lua table again for a handler in the same VM; the handler's
//! result takes the same trip back. Each trip re-created every key and string and walked each
//! table twice. Here the walk that builds the JSON also builds the copy, reusing the VM's own
//! strings, so the handler (or caller) gets fresh tables it may change without touching the
//! other side's, or what was validated.
//!
//! The copy is exactly what `json_to_lua(lua_to_json(v))` builds — same values, arrays with the
//! array metatable, keys inserted in the JSON map's (sorted) order with the same capacities, so
//! even `pairs` order matches. Only the common shapes are handled here: anything unusual (a
//! conversion error, a hole, a mixed table, a blob, depth at the limit) falls back to the two
//! conversions, which also produce the exact error message. Only the engine's own VM uses this:
//! untrusted packages keep `lua_to_json_within` and its budgets.

use mlua::{Lua, LuaSerdeExt, LuaString, Table, Value as LuaValue};
use serde_json::{Map, Value};

use super::convert::{
    ConvertError, ConvertErrorKind, ENGINE_BYTES, ENGINE_NODES, MAX_DEPTH, json_to_lua, lua_to_json, number, number_to_lua,
};

/// What the fast path has visited: past `Budget::ENGINE`'s nodes or bytes it gives up, and the
/// general path reports the limit.
#[derive(Default)]
struct Spent {
    nodes: usize,
    bytes: usize,
}

impl Spent {
    fn visit(&mut self, bytes: usize) -> Option<()> {
        self.nodes += 1;
        self.bytes = self.bytes.saturating_add(bytes);
        (self.nodes <= ENGINE_NODES && self.bytes <= ENGINE_BYTES).then_some(())
    }
}

/// Converts `value` to JSON and builds a private Lua copy of it (see the module doc). Errors are
/// `lua_to_json`'s, word for word.
pub(crate) fn lua_to_json_with_copy(lua: &Lua, value: &LuaValue, root: &str) -> Result<(Value, LuaValue), ConvertError> {
    let array_mt = lua.array_metatable();
    let mut spent = Spent::default();
    let fast = match value {
        LuaValue::Table(t) => table(lua, t, 0, &array_mt, &mut spent),
        other => fast(lua, other.clone(), 0, &array_mt, &mut spent),
    };
    if let Some(both) = fast {
        return Ok(both);
    }
    let json = lua_to_json(lua, value, root)?;
    // The slow path is the old pair of conversions; a Lua error here (out of memory) is
    // reported like any conversion failure.
    let copy = json_to_lua(lua, &json).map_err(|e| ConvertError {
        path: root.to_string(),
        message: e.to_string(),
        kind: ConvertErrorKind::NotJson,
    })?;
    Ok((json, copy))
}

/// One value, or None when the general path must decide.
fn fast(lua: &Lua, value: LuaValue, depth: usize, array_mt: &Table, spent: &mut Spent) -> Option<(Value, LuaValue)> {
    let bytes = match &value {
        LuaValue::String(s) => s.as_bytes().len(),
        _ => 0,
    };
    spent.visit(bytes)?;
    Some(match value {
        LuaValue::Boolean(b) => (Value::Bool(b), LuaValue::Boolean(b)),
        LuaValue::Integer(i) => {
            let json = Value::Number(i.into());
            let copy = number_to_lua_value(&json);
            (json, copy)
        }
        LuaValue::Number(n) => {
            let json = number(n).ok()?;
            let copy = number_to_lua_value(&json);
            (json, copy)
        }
        // Strings are immutable and compared by content: the copy shares the VM's string.
        LuaValue::String(s) => {
            let text = std::str::from_utf8(&s.as_bytes()).ok()?.to_string();
            (Value::String(text), LuaValue::String(s))
        }
        LuaValue::Table(t) => table(lua, &t, depth, array_mt, spent)?,
        // JSON null (mlua's null) is nil again in the copy.
        LuaValue::Nil => (Value::Null, LuaValue::Nil),
        LuaValue::LightUserData(p) if p.0.is_null() => (Value::Null, LuaValue::Nil),
        // Blobs, functions, other userdata: the general path converts or names them.
        _ => return None,
    })
}

fn number_to_lua_value(json: &Value) -> LuaValue {
    match json {
        Value::Number(n) => number_to_lua(n),
        _ => LuaValue::Nil,
    }
}

/// Entries of one table, converted, before the copy is built.
enum Entries {
    Empty,
    Array(Vec<(i64, Value, LuaValue)>),
    /// Key text, key, value as JSON, value copied.
    Object(Vec<(String, LuaString, Value, LuaValue)>),
}

fn table(lua: &Lua, t: &Table, depth: usize, array_mt: &Table, spent: &mut Spent) -> Option<(Value, LuaValue)> {
    if depth >= MAX_DEPTH {
        return None;
    }
    let mut entries = Entries::Empty;
    let walked = t.for_each(|k: LuaValue, v: LuaValue| {
        let stop = || mlua::Error::runtime("not a plain value");
        if let LuaValue::String(key) = &k {
            spent.visit(key.as_bytes().len()).ok_or_else(stop)?;
        }
        let (json, copy) = fast(lua, v, depth + 1, array_mt, spent).ok_or_else(stop)?;
        match (&mut entries, k) {
            (Entries::Object(items), LuaValue::String(key)) => items.push((key_text(&key).ok_or_else(stop)?, key, json, copy)),
            (Entries::Array(items), LuaValue::Integer(i)) => items.push((i, json, copy)),
            (Entries::Array(items), LuaValue::Number(n)) if n.fract() == 0.0 && n >= 1.0 && n <= i64::MAX as f64 => {
                items.push((n as i64, json, copy))
            }
            (Entries::Empty, LuaValue::String(key)) => entries = Entries::Object(vec![(key_text(&key).ok_or_else(stop)?, key, json, copy)]),
            (Entries::Empty, LuaValue::Integer(i)) => entries = Entries::Array(vec![(i, json, copy)]),
            (Entries::Empty, LuaValue::Number(n)) if n.fract() == 0.0 && n >= 1.0 && n <= i64::MAX as f64 => {
                entries = Entries::Array(vec![(n as i64, json, copy)])
            }
            // Mixed keys or keys JSON has no form for: the general path names the problem.
            _ => return Err(stop()),
        }
        Ok(())
    });
    walked.ok()?;
    match entries {
        Entries::Empty => {
            let is_array = t.metatable().as_ref() == Some(array_mt);
            let copy = lua.create_table().ok()?;
            if is_array {
                copy.set_metatable(Some(array_mt.clone())).ok()?;
                Some((Value::Array(Vec::new()), LuaValue::Table(copy)))
            } else {
                Some((Value::Object(Map::new()), LuaValue::Table(copy)))
            }
        }
        Entries::Array(mut items) => {
            // Exactly the keys 1..=n (table keys are distinct), so the border is n: anything
            // else is a sparse table for the general path.
            let n = items.len();
            if items.iter().any(|(i, _, _)| *i < 1 || *i as u64 > n as u64) {
                return None;
            }
            items.sort_unstable_by_key(|(i, _, _)| *i);
            let copy = lua.create_table_with_capacity(n, 0).ok()?;
            let mut json = Vec::with_capacity(n);
            for (i, value, lua_value) in items {
                copy.raw_set(i, lua_value).ok()?;
                json.push(value);
            }
            copy.set_metatable(Some(array_mt.clone())).ok()?;
            Some((Value::Array(json), LuaValue::Table(copy)))
        }
        Entries::Object(mut items) => {
            // The JSON map iterates in sorted order and `json_to_lua` inserts in that order;
            // doing the same gives the copy the same layout (and `pairs` order).
            items.sort_unstable_by(|a, b| a.0.cmp(&b.0));
            let copy = lua.create_table_with_capacity(0, items.len()).ok()?;
            let mut json = Map::new();
            for (text, key, value, lua_value) in items {
                copy.raw_set(key, lua_value).ok()?;
                json.insert(text, value);
            }
            Some((Value::Object(json), LuaValue::Table(copy)))
        }
    }
}

/// A key's text, when it is UTF-8 (else the general path names it).
fn key_text(key: &LuaString) -> Option<String> {
    std::str::from_utf8(&key.as_bytes()).ok().map(str::to_string)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// `json_to_lua(lua_to_json(v))`, the reference the copy must match.
    fn reference(lua: &Lua, v: &LuaValue) -> (Value, LuaValue) {
        let json = lua_to_json(lua, v, "input").unwrap();
        let copy = json_to_lua(lua, &json).unwrap();
        (json, copy)
    }

    /// A description of a Lua value precise enough to tell the copy from the reference apart:
    /// types, values, array metatables, and `pairs` order.
    pub(crate) fn describe(lua: &Lua, v: &LuaValue) -> String {
        let f: mlua::Function = lua
            .load(
                r#"
                local function d(v)
                    if type(v) ~= "table" then return type(v) .. ":" .. tostring(v) end
                    local parts = {}
                    for k, x in pairs(v) do table.insert(parts, tostring(k) .. "=" .. d(x)) end
                    local mt = getmetatable(v) and "[mt]" or ""
                    return mt .. "{" .. table.concat(parts, ",") .. "}"
                end
                return d
                "#,
            )
            .eval()
            .unwrap();
        f.call(v.clone()).unwrap()
    }

    fn check(src: &str) {
        let lua = Lua::new();
        let v: LuaValue = lua.load(src).eval().unwrap();
        let (json, copy) = lua_to_json_with_copy(&lua, &v, "input").unwrap();
        let (want_json, want_copy) = reference(&lua, &v);
        assert_eq!(json, want_json, "{src}");
        assert_eq!(describe(&lua, &copy), describe(&lua, &want_copy), "{src}");
        if let (LuaValue::Table(a), LuaValue::Table(b)) = (&copy, &v) {
            assert_ne!(a.to_pointer(), b.to_pointer(), "the copy is a new table");
        }
    }

    #[test]
    fn the_copy_matches_the_round_trip_it_replaces() {
        for src in [
            "return { entity = 'ent_1', component = 'position', value = {1, 2.5, -3} }",
            "return {}",
            "return setmetatable({}, nil)",
            "return { a = {}, b = {{x = 1}, {y = true}}, ['é'] = 'ü' }",
            "return { n = -0.0, big = 2^60, frac = 0.1, int = 0xffffff }",
            "return {10, 20, 30, 40, 50, 60, 70, 80, 90}",
            "return { k1 = 1, k2 = 2, k3 = 3, k4 = 4, k5 = 5, k6 = 6, k7 = 7, k8 = 8, k9 = 9, z = 0, a = 0 }",
            "return 'just a string'",
            "return 42",
        ] {
            check(src);
        }
    }

    #[test]
    fn arrays_keep_the_array_metatable_even_when_empty() {
        let lua = Lua::new();
        let empty = json_to_lua(&lua, &serde_json::json!({"list": []})).unwrap();
        let (json, copy) = lua_to_json_with_copy(&lua, &empty, "input").unwrap();
        assert_eq!(json, serde_json::json!({"list": []}));
        let LuaValue::Table(copy) = copy else { panic!("a table") };
        let list: Table = copy.raw_get("list").unwrap();
        assert_eq!(list.metatable(), Some(lua.array_metatable()));
    }

    #[test]
    fn unusual_values_take_the_general_path_with_its_errors() {
        let lua = Lua::new();
        for (src, want) in [
            ("return { pos = {1, 2, x = 3} }", "input.pos: table mixes array items and named fields; use one or the other"),
            ("return { x = 0/0 }", "input.x: NaN is not a finite number (JSON cannot carry NaN or infinity)"),
            ("return { f = print }", "input.f: a function cannot be converted to JSON"),
        ] {
            let v: LuaValue = lua.load(src).eval().unwrap();
            let e = lua_to_json_with_copy(&lua, &v, "input").unwrap_err();
            assert_eq!(e, lua_to_json(&lua, &v, "input").unwrap_err(), "{src}");
            assert_eq!(e.to_string(), want, "{src}");
        }
        // Holes and blobs are fine, just not for the fast walk.
        check("return {1, nil, 3}");
        let blob = super::super::convert::blob(&lua, serde_json::json!({"a": [1, null]})).unwrap();
        let t = lua.create_table().unwrap();
        t.raw_set("b", blob).unwrap();
        let (json, _) = lua_to_json_with_copy(&lua, &LuaValue::Table(t), "input").unwrap();
        assert_eq!(json, serde_json::json!({"b": {"a": [1, null]}}));
    }

    #[test]
    fn changing_the_copy_leaves_the_original_alone() {
        let lua = Lua::new();
        let v: LuaValue = lua.load("return { value = {1, 2, 3}, name = 'a' }").eval().unwrap();
        let (_, copy) = lua_to_json_with_copy(&lua, &v, "input").unwrap();
        let change: mlua::Function = lua.load("return function(t) t.value[1] = 99; t.name = 'b'; t.extra = true end").eval().unwrap();
        change.call::<()>(copy).unwrap();
        assert_eq!(lua_to_json(&lua, &v, "input").unwrap(), serde_json::json!({"value": [1, 2, 3], "name": "a"}));
    }
}
