//! Compiles the schema DSL's descriptors (plain data built by `schema.luau`) into JSON Schema
//! draft-07, applies declared defaults, and reconciles Lua's one table type with JSON's two.
//!
//! Rules that matter to callers: a field with a default is never `required`; objects reject
//! unknown fields; every node may carry a `description`. Compilation rejects descriptors it does
//! not understand (an unknown key is a typo, not something to ignore).

use serde_json::{Map, Value, json};

pub(crate) const DRAFT_07: &str = "http://json-schema.org/draft-07/schema#";

#[derive(Debug, thiserror::Error, PartialEq)]
#[error("schema error at {path}: {message}")]
pub(crate) struct SchemaError {
    pub path: String,
    pub message: String,
}

fn err(path: &str, message: impl Into<String>) -> SchemaError {
    SchemaError { path: if path.is_empty() { "(root)".into() } else { path.to_string() }, message: message.into() }
}

/// `schema` without its root `$schema` (what clients are shown: every keyword the compiler emits
/// means the same under draft-07 and 2020-12, the MCP default when `$schema` is absent, so the
/// ~15 tokens it costs on every listed schema buy nothing).
pub(crate) fn without_dialect(schema: &Value) -> Value {
    let mut out = schema.clone();
    if let Some(map) = out.as_object_mut() {
        map.remove("$schema");
    }
    out
}

/// Compiles a root descriptor to a draft-07 schema with `$schema` set.
pub(crate) fn compile(descriptor: &Value) -> Result<Value, SchemaError> {
    let mut schema = compile_node(descriptor, "", false)?;
    if let Value::Object(map) = &mut schema {
        map.insert("$schema".into(), Value::String(DRAFT_07.into()));
    }
    Ok(schema)
}

/// The schema `tools/list` shows for a root descriptor, without `$schema`: the compiled schema,
/// except that a node with a `summary` (`s.…:summary(text)`) is shown as its JSON type and that
/// text. A skill whose input repeats a large shape another listed skill shows in full (the ui
/// element skills' style, anchor, tail, leader and lifecycle, shown by `ui.panel`) lists it once:
/// every client pays for each listed byte on every turn. Calls are still validated against the
/// whole schema, and `skills.describe`, `skills.browse` and `skills.search` return it.
pub(crate) fn compile_listed(descriptor: &Value) -> Result<Value, SchemaError> {
    compile_node(descriptor, "", true)
}

/// The output schema `tools/list` shows: the result's own fields with their types and
/// descriptions, and anything nested below them shown as its JSON type with its fields named in
/// its description (`[{entity, distance (From the camera, metres), x, y}]`). A model reads every
/// field's name; a client that checks `structuredContent` checks the result's own fields. Output
/// objects are listed open (no `additionalProperties: false`): what a result leaves out is not
/// something a caller acts on. The whole schema still checks every result the skill returns, and
/// `skills.describe` returns it.
pub(crate) fn compile_listed_output(descriptor: &Value) -> Result<Value, SchemaError> {
    let mut schema = compile_listed(descriptor)?;
    if let Some(Value::Object(fields)) = schema.get_mut("properties") {
        for field in fields.values_mut() {
            let shape = shape_of(field);
            if shape.is_empty() {
                continue;
            }
            let mut folded = Map::new();
            if let Some(t) = field.get("type") {
                folded.insert("type".into(), t.clone());
            }
            let text = match field.get("description").and_then(Value::as_str) {
                Some(text) => format!("{text} {shape}"),
                None => shape,
            };
            folded.insert("description".into(), json!(text));
            *field = Value::Object(folded);
        }
    }
    open_objects(&mut schema);
    Ok(schema)
}

/// The fields below a listed node, as text: `{a, b (what b is), c{d}}`, `[…]` for an array's
/// items, `{*: …}` for a record's values, `x | y` for a union; empty when nothing is nested.
fn shape_of(node: &Value) -> String {
    if let Some(Value::Array(options)) = node.get("anyOf") {
        let shapes: Vec<String> = options.iter().map(shape_of).filter(|s| !s.is_empty()).collect();
        return shapes.join(" | ");
    }
    if let Some(items) = node.get("items") {
        let inner = shape_of(items);
        return if inner.is_empty() { inner } else { format!("[{inner}]") };
    }
    if let Some(Value::Object(properties)) = node.get("properties") {
        let fields: Vec<String> = properties
            .iter()
            .map(|(name, field)| {
                let about = field.get("description").and_then(Value::as_str).map(|d| format!(" ({})", d.trim_end_matches('.')));
                format!("{name}{}{}", about.unwrap_or_default(), shape_of(field))
            })
            .collect();
        return format!("{{{}}}", fields.join(", "));
    }
    if let Some(values @ Value::Object(_)) = node.get("additionalProperties") {
        let inner = shape_of(values);
        return if inner.is_empty() { inner } else { format!("{{*: {inner}}}") };
    }
    String::new()
}

/// Removes `additionalProperties: false` everywhere in a listed output schema.
fn open_objects(node: &mut Value) {
    match node {
        Value::Object(map) => {
            if map.get("additionalProperties") == Some(&Value::Bool(false)) {
                map.remove("additionalProperties");
            }
            map.values_mut().for_each(open_objects);
        }
        Value::Array(items) => items.iter_mut().for_each(open_objects),
        _ => {}
    }
}

/// The largest integer JSON numbers carry exactly (2^53 - 1). Schemas bound whole numbers by it
/// so a call cannot pass one a Lua number would round; listed schemas leave the bound out, since
/// every JSON client's numbers stop there anyway (calls are still checked against it).
pub(crate) const MAX_EXACT_INTEGER: f64 = 9_007_199_254_740_991.0;

const COMMON_KEYS: [&str; 6] = ["kind", "optional", "default", "description", "nullable", "summary"];

fn compile_node(desc: &Value, path: &str, listed: bool) -> Result<Value, SchemaError> {
    let Value::Object(d) = desc else {
        return Err(err(path, format!("expected a schema node (a table built by the schema DSL), got {}", type_name(desc))));
    };
    let kind = d.get("kind").and_then(Value::as_str).ok_or_else(|| err(path, "schema node has no `kind`"))?;
    let allowed: &[&str] = match kind {
        "object" => &["fields"],
        "record" => &["values"],
        "string" => &["minLength", "maxLength", "pattern"],
        "number" | "integer" => &["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"],
        "boolean" | "any" | "color" => &[],
        "enum" => &["values"],
        "array" => &["items", "minItems", "maxItems"],
        "union" => &["options"],
        other => return Err(err(path, format!("unknown schema kind `{other}`"))),
    };
    for key in d.keys() {
        if !COMMON_KEYS.contains(&key.as_str()) && !allowed.contains(&key.as_str()) {
            return Err(err(path, format!("`{key}` does not apply to a {kind} schema")));
        }
    }
    let summary = match d.get("summary") {
        None => None,
        Some(Value::String(text)) => Some(text),
        Some(other) => return Err(err(path, format!("`summary` must be a string, got {}", type_name(other)))),
    };
    if listed && let Some(text) = summary {
        // Compiled in full all the same, so a listed schema is never made of a broken one.
        compile_node(desc, path, false)?;
        let mut out = Map::new();
        let json_type = match kind {
            "object" | "record" => Some("object"),
            "array" => Some("array"),
            "string" => Some("string"),
            "number" | "integer" | "boolean" => Some(kind),
            _ => None,
        };
        if let Some(t) = json_type {
            out.insert("type".into(), json!(t));
        }
        out.insert("description".into(), json!(text));
        return Ok(Value::Object(out));
    }
    let mut out = Map::new();
    match kind {
        "object" => {
            out.insert("type".into(), json!("object"));
            let mut properties = Map::new();
            let mut required = Vec::new();
            match d.get("fields") {
                Some(Value::Object(fields)) => {
                    for (name, field) in fields {
                        let child_path = join(path, name);
                        properties.insert(name.clone(), compile_node(field, &child_path, listed)?);
                        let optional = field.get("optional").and_then(Value::as_bool).unwrap_or(false);
                        if !optional && field.get("default").is_none() {
                            required.push(Value::String(name.clone()));
                        }
                    }
                }
                // An empty Lua table arrives as an empty array or object: both mean no fields.
                Some(Value::Array(a)) if a.is_empty() => {}
                None => {}
                Some(other) => {
                    return Err(err(path, format!("`fields` must be a table of named schemas, got {}", type_name(other))));
                }
            }
            out.insert("properties".into(), Value::Object(properties));
            if !required.is_empty() {
                out.insert("required".into(), Value::Array(required));
            }
            out.insert("additionalProperties".into(), Value::Bool(false));
        }
        "record" => {
            out.insert("type".into(), json!("object"));
            let values = match d.get("values") {
                Some(v) => compile_node(v, &join(path, "*"), listed)?,
                None => json!({}),
            };
            // Any value (`{}`) is what an object without the keyword takes already.
            if !(listed && values == json!({})) {
                out.insert("additionalProperties".into(), values);
            }
        }
        "string" => {
            out.insert("type".into(), json!("string"));
            copy_count(d, &mut out, &["minLength", "maxLength"], path)?;
            if let Some(p) = d.get("pattern") {
                let p = p.as_str().ok_or_else(|| err(path, "`pattern` must be a string"))?;
                out.insert("pattern".into(), json!(p));
            }
        }
        "number" | "integer" => {
            out.insert("type".into(), json!(kind));
            for key in ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] {
                if let Some(v) = d.get(key) {
                    if !v.is_number() {
                        return Err(err(path, format!("`{key}` must be a number, got {}", type_name(v))));
                    }
                    if listed && key == "maximum" && v.as_f64() == Some(MAX_EXACT_INTEGER) {
                        continue;
                    }
                    out.insert(key.into(), v.clone());
                }
            }
        }
        "boolean" => {
            out.insert("type".into(), json!("boolean"));
        }
        "any" => {}
        "color" => {
            // One node for the three forms (no anyOf): `minimum`/`maximum` bind only the integer,
            // `pattern` only the string (`skills::colour`).
            out.insert("type".into(), json!(["integer", "string"]));
            out.insert("minimum".into(), json!(0));
            out.insert("maximum".into(), json!(super::colour::MAX_COLOR));
            out.insert("pattern".into(), json!(super::colour::COLOR_PATTERN));
        }
        "enum" => {
            let values = d.get("values").and_then(Value::as_array).filter(|v| !v.is_empty());
            let values = values.ok_or_else(|| err(path, "an enum needs a non-empty list of values"))?;
            if values.iter().all(Value::is_string) {
                out.insert("type".into(), json!("string"));
            }
            out.insert("enum".into(), Value::Array(values.clone()));
        }
        "array" => {
            out.insert("type".into(), json!("array"));
            let items = d.get("items").ok_or_else(|| err(path, "an array needs `items`"))?;
            let items = compile_node(items, &format!("{path}[]"), listed)?;
            if !(listed && items == json!({})) {
                out.insert("items".into(), items);
            }
            copy_count(d, &mut out, &["minItems", "maxItems"], path)?;
        }
        "union" => {
            let options = d.get("options").and_then(Value::as_array).filter(|v| v.len() >= 2);
            let options = options.ok_or_else(|| err(path, "a union needs at least two options"))?;
            let compiled =
                options.iter().enumerate().map(|(i, o)| compile_node(o, &format!("{path}|{i}"), listed)).collect::<Result<Vec<_>, _>>()?;
            out.insert("anyOf".into(), Value::Array(compiled));
        }
        _ => unreachable!("kind checked above"),
    }
    if d.get("nullable").and_then(Value::as_bool).unwrap_or(false) {
        out = nullable(out);
    }
    if let Some(text) = d.get("description") {
        let text = text.as_str().ok_or_else(|| err(path, "`description` must be a string"))?;
        out.insert("description".into(), json!(text));
    }
    if let Some(default) = d.get("default") {
        out.insert("default".into(), default.clone());
    }
    Ok(Value::Object(out))
}

fn nullable(mut schema: Map<String, Value>) -> Map<String, Value> {
    match schema.get("type").cloned() {
        Some(Value::String(t)) if !schema.contains_key("enum") => {
            schema.insert("type".into(), json!([t, "null"]));
            schema
        }
        _ => {
            let mut out = Map::new();
            out.insert("anyOf".into(), json!([Value::Object(schema), {"type": "null"}]));
            out
        }
    }
}

fn copy_count(d: &Map<String, Value>, out: &mut Map<String, Value>, keys: &[&str], path: &str) -> Result<(), SchemaError> {
    for key in keys {
        if let Some(v) = d.get(*key) {
            let n = v
                .as_f64()
                .filter(|n| *n >= 0.0 && n.fract() == 0.0)
                .ok_or_else(|| err(path, format!("`{key}` must be a whole number >= 0")))?;
            out.insert((*key).into(), json!(n as u64));
        }
    }
    Ok(())
}

fn join(path: &str, name: &str) -> String {
    if path.is_empty() { name.to_string() } else { format!("{path}.{name}") }
}

pub(crate) fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Fills in declared defaults for absent fields (recursively), and turns an empty `{}` into `[]`
/// where the schema wants an array (and back), because Lua cannot tell the two apart. Returns
/// whether anything changed (a copy of the value made before is then stale).
pub(crate) fn apply_defaults(schema: &Value, value: &mut Value) -> bool {
    let Value::Object(s) = schema else { return false };
    let mut changed = false;
    if is_empty_container(value) {
        match (s.get("type").and_then(Value::as_str), &*value) {
            (Some("array"), Value::Object(_)) => {
                *value = Value::Array(Vec::new());
                changed = true;
            }
            (Some("object"), Value::Array(_)) => {
                *value = Value::Object(Map::new());
                changed = true;
            }
            _ => {}
        }
    }
    match value {
        Value::Object(fields) => {
            if let Some(Value::Object(props)) = s.get("properties") {
                for (name, prop) in props {
                    match fields.get_mut(name) {
                        Some(v) => changed |= apply_defaults(prop, v),
                        None => {
                            if let Some(default) = prop.get("default") {
                                // A default object gets its own fields' defaults too.
                                let mut value = default.clone();
                                apply_defaults(prop, &mut value);
                                fields.insert(name.clone(), value);
                                changed = true;
                            }
                        }
                    }
                }
            }
            if let Some(extra @ Value::Object(_)) = s.get("additionalProperties") {
                for v in fields.values_mut() {
                    changed |= apply_defaults(extra, v);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = s.get("items") {
                for v in items {
                    changed |= apply_defaults(item_schema, v);
                }
            }
        }
        _ => {}
    }
    if let Some(Value::Array(options)) = s.get("anyOf") {
        // Only containers need reconciling inside a union; take the first option that wants the
        // shape we have.
        if is_empty_container(value) {
            for o in options {
                changed |= apply_defaults(o, value);
            }
        }
    }
    changed
}

/// `apply_defaults` for a schema whose `has_defaults` is known: without defaults it can change
/// only an empty container, so a value without one is left as it is without walking the schema.
pub(crate) fn apply_defaults_if_any(schema: &Value, has_defaults: bool, value: &mut Value) -> bool {
    if !has_defaults && !has_empty_container(value) {
        return false;
    }
    apply_defaults(schema, value)
}

/// True when `schema` may name a default: any key `default` anywhere (a property of that name
/// counts too, which only costs the walk).
pub(crate) fn has_defaults(schema: &Value) -> bool {
    match schema {
        Value::Object(m) => m.iter().any(|(k, v)| k == "default" || has_defaults(v)),
        Value::Array(a) => a.iter().any(has_defaults),
        _ => false,
    }
}

/// True when `value` is or holds an empty array or object.
fn has_empty_container(value: &Value) -> bool {
    match value {
        Value::Object(m) => m.is_empty() || m.values().any(has_empty_container),
        Value::Array(a) => a.is_empty() || a.iter().any(has_empty_container),
        _ => false,
    }
}

fn is_empty_container(v: &Value) -> bool {
    matches!(v, Value::Array(a) if a.is_empty()) || matches!(v, Value::Object(o) if o.is_empty())
}

/// Renders a JSON pointer (`/position/1`) as a field path (`position[1]`); the root is `input`.
pub(crate) fn field_path(pointer: &str, root: &str) -> String {
    let mut out = String::new();
    for part in pointer.split('/').skip(1) {
        let part = part.replace("~1", "/").replace("~0", "~");
        if part.bytes().all(|b| b.is_ascii_digit()) && !part.is_empty() {
            out.push_str(&format!("[{part}]"));
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(&part);
        }
    }
    if out.is_empty() { root.to_string() } else { out }
}

#[cfg(test)]
mod tests {

    /// Every builder (`function s.NAME(`) and modifier (`function Node:NAME(`) the schema DSL
    /// defines is declared in the types mods are given, so a mod author's editor knows it.
    #[test]
    fn every_builder_and_modifier_of_the_dsl_is_typed_for_mods() {
        let defs = crate::script::typedefs::luau_definitions([]);
        let names = |prefix: &str| -> Vec<String> {
            super::super::SCHEMA_DSL
                .lines()
                .filter_map(|l| l.strip_prefix(prefix))
                .filter_map(|rest| rest.split('(').next())
                .map(str::to_string)
                .collect()
        };
        let (builders, modifiers) = (names("function s."), names("function Node:"));
        assert!(builders.len() >= 10 && modifiers.len() >= 10, "{builders:?} {modifiers:?}");
        for name in builders.iter().chain(&modifiers) {
            assert!(defs.contains(&format!("\t{name}: (")), "{name} is not typed in typedefs.rs");
        }
    }
    use super::*;

    fn num(extra: Value) -> Value {
        let mut base = json!({"kind": "number"});
        base.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        base
    }

    #[test]
    fn defaults_are_not_required_and_unknown_fields_are_rejected() {
        let desc = json!({"kind": "object", "fields": {
            "size": num(json!({"exclusiveMinimum": 0, "maximum": 50, "default": 1})),
            "entity": {"kind": "string"},
            "tag": {"kind": "string", "optional": true},
        }});
        let schema = compile(&desc).unwrap();
        assert_eq!(schema["$schema"], DRAFT_07);
        assert_eq!(schema["required"], json!(["entity"]));
        assert_eq!(schema["additionalProperties"], json!(false));
        assert_eq!(schema["properties"]["size"], json!({"type": "number", "exclusiveMinimum": 0, "maximum": 50, "default": 1}));
    }

    #[test]
    fn typos_in_descriptors_are_errors() {
        let e = compile(&json!({"kind": "number", "maximun": 3})).unwrap_err();
        assert!(e.message.contains("maximun"), "{e}");
        let e = compile(&json!({"kind": "color", "maximum": 3})).unwrap_err();
        assert!(e.message.contains("maximum"), "{e}");
        let e = compile(&json!({"kind": "object", "fields": {"a": {"kind": "strng"}}})).unwrap_err();
        assert_eq!(e.path, "a");
        assert!(e.message.contains("strng"));
        assert!(compile(&json!({"kind": "enum", "values": []})).is_err());
    }

    #[test]
    fn a_summary_shortens_only_the_listed_schema() {
        let desc = json!({"kind": "object", "fields": {
            "style": {"kind": "object", "optional": true, "summary": "As ui.panel's style.", "description": "Look.",
                "fields": {"width": {"kind": "number", "description": "Pixels."}}},
            "size": {"kind": "number", "description": "Metres."},
        }});
        let full = compile(&desc).unwrap();
        assert_eq!(full["properties"]["style"]["properties"]["width"]["type"], "number", "validated in full");
        assert_eq!(full["properties"]["style"]["description"], "Look.");
        let listed = compile_listed(&desc).unwrap();
        assert_eq!(listed["properties"]["style"], json!({"type": "object", "description": "As ui.panel's style."}));
        assert_eq!(listed["properties"]["size"], full["properties"]["size"]);
        assert_eq!(listed["required"], json!(["size"]), "optional stays optional");
        assert!(listed.get("$schema").is_none());
        let broken = json!({"kind": "object", "fields": {"s": {"kind": "object", "summary": "x", "fields": {"w": {"kind": "nmber"}}}}});
        assert!(compile_listed(&broken).is_err(), "a summarised node is still checked");
    }

    #[test]
    fn a_listed_output_names_nested_fields_in_its_description() {
        let desc = json!({"kind": "object", "fields": {
            "labels": {"kind": "array", "description": "Nearest first.", "items": {"kind": "object", "fields": {
                "entity": {"kind": "string"},
                "at": {"kind": "object", "description": "Pixels.", "fields": {"x": {"kind": "integer"}}},
            }}},
            "count": {"kind": "integer", "description": "How many.", "maximum": MAX_EXACT_INTEGER},
            "extra": {"kind": "record", "values": {"kind": "any"}},
        }});
        let listed = compile_listed_output(&desc).unwrap();
        assert_eq!(listed["properties"]["labels"], json!({"type": "array", "description": "Nearest first. [{at (Pixels){x}, entity}]"}));
        assert_eq!(listed["properties"]["count"], json!({"type": "integer", "description": "How many."}), "no 2^53 bound listed");
        assert_eq!(listed["properties"]["extra"], json!({"type": "object"}), "any value is an open object");
        assert_eq!(listed["required"], json!(["count", "extra", "labels"]));
        assert!(listed.get("additionalProperties").is_none(), "outputs are listed open");
        let full = compile(&desc).unwrap();
        assert_eq!(full["properties"]["labels"]["items"]["properties"]["at"]["properties"]["x"]["type"], "integer");
        assert_eq!(full["properties"]["count"]["maximum"], json!(MAX_EXACT_INTEGER), "calls are still checked");
        assert_eq!(full["additionalProperties"], json!(false));
    }

    #[test]
    fn nullable_widens_the_type() {
        let s = compile(&json!({"kind": "integer", "nullable": true})).unwrap();
        assert_eq!(s["type"], json!(["integer", "null"]));
        let s = compile(&json!({"kind": "enum", "values": ["a"], "nullable": true})).unwrap();
        assert_eq!(s["anyOf"][1], json!({"type": "null"}));
    }

    #[test]
    fn defaults_fill_absent_fields_and_empty_tables_become_arrays() {
        let schema = compile(&json!({"kind": "object", "fields": {
            "size": num(json!({"default": 1})),
            "lines": {"kind": "array", "items": {"kind": "string"}, "optional": true},
            "inner": {"kind": "object", "optional": true, "fields": {"flag": {"kind": "boolean", "default": false}}},
        }}))
        .unwrap();
        let mut v = json!({"lines": {}, "inner": {}});
        assert!(apply_defaults(&schema, &mut v));
        assert_eq!(v, json!({"size": 1, "lines": [], "inner": {"flag": false}}));
        assert!(!apply_defaults(&schema, &mut v), "nothing left to fill in");
        let mut v = json!({"size": 2, "lines": ["a"]});
        assert!(!apply_defaults(&schema, &mut v), "a complete value is unchanged");
    }

    #[test]
    fn skipping_the_walk_without_defaults_changes_nothing_it_would_have_changed() {
        let no_defaults = compile(&json!({"kind": "object", "fields": {
            "lines": {"kind": "array", "items": {"kind": "string"}, "optional": true},
            "tags": {"kind": "object", "optional": true, "fields": {}},
            "pos": {"kind": "array", "items": {"kind": "number"}, "optional": true},
        }}))
        .unwrap();
        let with_default = compile(&json!({"kind": "object", "fields": {"size": num(json!({"default": 1}))}})).unwrap();
        assert!(!has_defaults(&no_defaults));
        assert!(has_defaults(&with_default));
        for (schema, value) in [
            (&no_defaults, json!({"lines": {}})),
            (&no_defaults, json!({"pos": [1, 2, 3], "tags": []})),
            (&no_defaults, json!({"pos": [1, 2, 3]})),
            (&no_defaults, json!({})),
            (&with_default, json!({})),
            (&with_default, json!({"size": 3})),
        ] {
            let (mut full, mut skipped) = (value.clone(), value.clone());
            let changed = apply_defaults(schema, &mut full);
            assert_eq!(apply_defaults_if_any(schema, has_defaults(schema), &mut skipped), changed, "{value}");
            assert_eq!(skipped, full, "{value}");
        }
    }

    #[test]
    fn pointers_render_as_field_paths() {
        assert_eq!(field_path("/position/1", "input"), "position[1]");
        assert_eq!(field_path("", "input"), "input");
        assert_eq!(field_path("/a/b", "input"), "a.b");
    }
}
