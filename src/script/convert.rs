//! Lua values <-> JSON, without silently losing data.
//!
//! Lua has one table type where JSON has two, and Luau numbers are all doubles. The rules:
//! a table whose keys are exactly `1..n` is an array; a table with only string keys is an object;
//! anything else (mixed keys, holes, float or negative keys) is an error naming the path. An empty
//! table is an empty object unless it carries mlua's array metatable (the schema layer turns `{}`
//! into `[]` where an array is expected). Integral numbers become JSON integers; NaN and infinity
//! are errors, since JSON cannot carry them.

use mlua::{AnyUserData, Lua, LuaSerdeExt, MetaMethod, Table, UserData, UserDataMethods, Value as LuaValue};
use serde_json::{Map, Number, Value};

/// Deepest nesting accepted; deeper (or cyclic) tables are refused instead of overflowing.
pub const MAX_DEPTH: usize = 64;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{path}: {message}")]
pub struct ConvertError {
    pub path: String,
    pub message: String,
}

fn fail(path: &str, message: impl Into<String>) -> ConvertError {
    ConvertError { path: path.to_string(), message: message.into() }
}

/// A JSON value handed to Lua without converting it: native ops return large results (trace
/// pages, audit answers) this way. Lua can still read it (`blob.field`, `blob[1]`, `#blob`);
/// returning it from a handler passes the JSON through untouched, nulls included.
#[derive(Debug, Clone)]
pub struct JsonBlob(pub Value);

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
pub fn blob(lua: &Lua, value: Value) -> mlua::Result<AnyUserData> {
    lua.create_userdata(JsonBlob(value))
}

/// Converts a Lua value to JSON; `root` names the value in error paths (e.g. `input`).
pub fn lua_to_json(lua: &Lua, value: &LuaValue, root: &str) -> Result<Value, ConvertError> {
    let array_mt = lua.array_metatable();
    to_json(value, root, 0, &array_mt)
}

fn number(path: &str, n: f64) -> Result<Value, ConvertError> {
    if !n.is_finite() {
        return Err(fail(path, format!("{n} is not a finite number (JSON cannot carry NaN or infinity)")));
    }
    // Whole numbers that fit exactly become integers, so `color = 0xffffff` satisfies "integer".
    if n.fract() == 0.0 && n.abs() < 9_007_199_254_740_992.0 {
        return Ok(Value::Number(Number::from(n as i64)));
    }
    Number::from_f64(n).map(Value::Number).ok_or_else(|| fail(path, format!("{n} is not representable in JSON")))
}

fn to_json(value: &LuaValue, path: &str, depth: usize, array_mt: &Table) -> Result<Value, ConvertError> {
    match value {
        LuaValue::Nil => Ok(Value::Null),
        LuaValue::Boolean(b) => Ok(Value::Bool(*b)),
        LuaValue::Integer(i) => Ok(Value::Number(Number::from(*i))),
        LuaValue::Number(n) => number(path, *n),
        LuaValue::String(s) => match s.to_str() {
            Ok(s) => Ok(Value::String(s.to_string())),
            Err(_) => Err(fail(path, "string is not valid UTF-8")),
        },
        LuaValue::Table(t) => table_to_json(t, path, depth, array_mt),
        LuaValue::LightUserData(p) if p.0.is_null() => Ok(Value::Null),
        LuaValue::UserData(ud) if ud.is::<JsonBlob>() => match ud.borrow::<JsonBlob>() {
            Ok(b) => Ok(b.0.clone()),
            Err(_) => Err(fail(path, "a JSON value could not be read")),
        },
        other => Err(fail(path, format!("a {} cannot be converted to JSON", crate::script::lua_type_name(other)))),
    }
}

fn table_to_json(t: &Table, path: &str, depth: usize, array_mt: &Table) -> Result<Value, ConvertError> {
    if depth >= MAX_DEPTH {
        return Err(fail(path, format!("nested deeper than {MAX_DEPTH} levels (or a table contains itself)")));
    }
    let len = t.raw_len();
    let mut int_keys = 0usize;
    let mut string_keys = 0usize;
    let mut bad_key: Option<String> = None;
    // One raw pass to classify keys; errors inside for_each are collected, not raised.
    let classify = t.for_each(|k: LuaValue, _: LuaValue| {
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
    if classify.is_err() {
        return Err(fail(path, "table could not be read"));
    }
    if let Some(key) = bad_key {
        return Err(fail(
            path,
            format!(
                "table has key {key} that is neither a string nor part of a 1..n sequence (a sparse array or a mixed table cannot be converted without losing data)"
            ),
        ));
    }
    if int_keys > 0 && string_keys > 0 {
        return Err(fail(path, "table mixes array items and named fields; use one or the other"));
    }
    if int_keys > 0 || t.metatable().as_ref() == Some(array_mt) {
        let mut items = Vec::with_capacity(len);
        for i in 1..=len {
            let item: LuaValue = t.raw_get(i).map_err(|_| fail(path, "table could not be read"))?;
            items.push(to_json(&item, &format!("{path}[{i}]"), depth + 1, array_mt)?);
        }
        return Ok(Value::Array(items));
    }
    let mut map = Map::new();
    let mut error = None;
    let walk = t.for_each(|k: LuaValue, v: LuaValue| {
        if error.is_some() {
            return Ok(());
        }
        let key = match &k {
            LuaValue::String(s) => s.to_string_lossy(),
            _ => return Ok(()),
        };
        let child = format!("{path}.{key}");
        match to_json(&v, &child, depth + 1, array_mt) {
            Ok(json) => {
                map.insert(key, json);
            }
            Err(e) => error = Some(e),
        }
        Ok(())
    });
    if walk.is_err() {
        return Err(fail(path, "table could not be read"));
    }
    match error {
        Some(e) => Err(e),
        None => Ok(Value::Object(map)),
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
/// even when empty; JSON null becomes nil.
pub fn json_to_lua(lua: &Lua, value: &Value) -> mlua::Result<LuaValue> {
    Ok(match value {
        Value::Null => LuaValue::Nil,
        Value::Bool(b) => LuaValue::Boolean(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => LuaValue::Integer(i),
            None => LuaValue::Number(n.as_f64().unwrap_or(f64::NAN)),
        },
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
