//! What a caller reads when its input (or a handler's output) does not match the skill's schema:
//! each problem names the field path, the rule it broke and what is allowed, in one short line.
//!
//! ```text
//! size: 80 is above the maximum of 50; allowed [0.001, 50]
//! shape: 'sphre' is not one of 'box', 'sphere', 'capsule' (did you mean 'sphere'?)
//! unknown field 'colour' (did you mean 'color'?); allowed fields: collider, color, ...
//! dynamic: expected a boolean, got the string 'yes'
//! ```
//!
//! `jsonschema` finds the problems; the text is ours, built from the error's kind and the schema
//! node it names (its `schema_path`), because the crate's own text names neither the allowed
//! values of an enum nor the fields an object takes. Agents pay for every token, so the lines
//! stay short: at most three problems, one per field, values shown cut to a few dozen
//! characters. Runs only on a failed call.

use jsonschema::error::{ValidationError, ValidationErrorKind};
use serde_json::Value;

use super::schema::field_path;
use super::suggest::did_you_mean;
use crate::world::bounds::Num;

/// Problems reported at most per failure.
const MAX_PROBLEMS: usize = 3;
/// Characters of a caller's value shown back to it.
const MAX_SHOWN: usize = 40;

/// Up to three problems of `value` against `schema` (which `validator` was compiled from), each
/// at a different field, joined by `; ` (and `root` naming the value itself, e.g. `input`).
pub(crate) fn describe(validator: &jsonschema::Validator, schema: &Value, value: &Value, root: &str) -> String {
    let mut seen: Vec<String> = Vec::new();
    let mut parts = Vec::new();
    for e in validator.iter_errors(value) {
        let pointer = e.instance_path().as_str().to_string();
        // One problem per field: an enum of strings given a number fails both `type` and `enum`.
        if seen.contains(&pointer) {
            continue;
        }
        seen.push(pointer);
        parts.push(explain(&e, schema, root));
        if parts.len() == MAX_PROBLEMS {
            break;
        }
    }
    if parts.is_empty() { "does not match its schema".to_string() } else { parts.join("; ") }
}

/// One problem as `path: rule and what is allowed`.
fn explain(e: &ValidationError<'_>, schema: &Value, root: &str) -> String {
    let path = field_path(e.instance_path().as_str(), root);
    let at_root = e.instance_path().as_str().is_empty();
    let node = node_of(schema, e.schema_path().as_str());
    let instance = e.instance();
    match e.kind() {
        ValidationErrorKind::AnyOf { context } => union(&path, e.instance_path().as_str(), instance, node, context, schema, root),
        ValidationErrorKind::Type { .. } => format!("{path}: expected {}, got {}", summary(node), show(instance)),
        ValidationErrorKind::Enum { options } => {
            let allowed = options.as_array().map(|o| o.iter().map(literal).collect::<Vec<_>>().join(", ")).unwrap_or_default();
            let hint = match (instance.as_str(), options.as_array()) {
                (Some(given), Some(o)) => {
                    did_you_mean(given, o.iter().filter_map(Value::as_str)).map(|m| format!(" (did you mean '{m}'?)"))
                }
                _ => None,
            };
            format!("{path}: {} is not one of {allowed}{}", literal(instance), hint.unwrap_or_default())
        }
        ValidationErrorKind::AdditionalProperties { unexpected } => {
            let allowed: Vec<&str> =
                node.get("properties").and_then(Value::as_object).map(|p| p.keys().map(String::as_str).collect()).unwrap_or_default();
            let names = unexpected.iter().map(|u| format!("'{u}'")).collect::<Vec<_>>().join(", ");
            let hint = match unexpected.as_slice() {
                [one] => did_you_mean(one, allowed.iter().copied()).map(|m| format!(" (did you mean '{m}'?)")),
                _ => None,
            };
            let prefix = if at_root { String::new() } else { format!("{path}: ") };
            let noun = if unexpected.len() == 1 { "field" } else { "fields" };
            let allowed =
                if allowed.is_empty() { "it takes no fields".to_string() } else { format!("allowed fields: {}", allowed.join(", ")) };
            format!("{prefix}unknown {noun} {names}{}; {allowed}", hint.unwrap_or_default())
        }
        ValidationErrorKind::Required { property } => {
            let name = property.as_str().unwrap_or_default();
            let field = if at_root { name.to_string() } else { format!("{path}.{name}") };
            let wanted = node.get("properties").and_then(|p| p.get(name)).map(summary).unwrap_or_else(|| "a value".into());
            format!("{field}: required, expected {wanted}")
        }
        ValidationErrorKind::Maximum { limit } => bound(&path, instance, "is above the maximum of", limit, node),
        ValidationErrorKind::Minimum { limit } => bound(&path, instance, "is below the minimum of", limit, node),
        ValidationErrorKind::ExclusiveMaximum { limit } => bound(&path, instance, "must be below", limit, node),
        ValidationErrorKind::ExclusiveMinimum { limit } => bound(&path, instance, "must be above", limit, node),
        ValidationErrorKind::MinItems { .. } | ValidationErrorKind::MaxItems { .. } => {
            let n = instance.as_array().map_or(0, Vec::len);
            format!("{path}: expected {} items, got {n}", count(node, "minItems", "maxItems"))
        }
        ValidationErrorKind::MinLength { .. } | ValidationErrorKind::MaxLength { .. } => {
            let n = instance.as_str().map_or(0, |s| s.chars().count());
            format!("{path}: expected {} characters, got {n}", count(node, "minLength", "maxLength"))
        }
        ValidationErrorKind::Pattern { pattern } => format!("{path}: {} does not match the pattern {pattern}", literal(instance)),
        _ => format!("{path}: {e}"),
    }
}

/// A value that matched no option of a union (`s.union`, or a nullable object). When one option
/// is the evident intent (its own one-value tag, such as `kind = 'world'`, matched, or only it has
/// the value's type), its problems are the answer; when the tag itself is wrong, the tag is the
/// answer, with the tags the options take; else what the options accept.
fn union(
    path: &str,
    pointer: &str,
    instance: &Value,
    node: &Value,
    context: &[Vec<ValidationError<'static>>],
    schema: &Value,
    root: &str,
) -> String {
    let options = node.get("anyOf").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    // An option is ruled out by a type mismatch at the value itself, or by its tag.
    let plausible: Vec<&Vec<ValidationError<'static>>> = context
        .iter()
        .filter(|errors| {
            !errors.iter().any(|e| {
                let here = e.instance_path().as_str() == pointer;
                let tag = matches!(e.kind(), ValidationErrorKind::Enum { options } if options.as_array().is_some_and(|o| o.len() == 1));
                (here && matches!(e.kind(), ValidationErrorKind::Type { .. })) || tag
            })
        })
        .collect();
    if let [only] = plausible.as_slice()
        && !only.is_empty()
    {
        return only.iter().take(MAX_PROBLEMS).map(|e| explain(e, schema, root)).collect::<Vec<_>>().join("; ");
    }
    // The tag: a field every option pins to one value.
    if let Some(given) = instance.as_object() {
        for (field, value) in given {
            let tags: Vec<&str> = options.iter().filter_map(|o| tag_value(o, field)).collect();
            if tags.len() == options.len()
                && let Some(text) = value.as_str()
                && !tags.contains(&text)
            {
                let listed = tags.iter().map(|t| format!("'{t}'")).collect::<Vec<_>>().join(", ");
                let hint = did_you_mean(text, tags.iter().copied()).map(|m| format!(" (did you mean '{m}'?)")).unwrap_or_default();
                return format!("{path}.{field}: {} is not one of {listed}{hint}", literal(value));
            }
        }
    }
    format!("{path}: expected {}, got {}", summary(node), show(instance))
}

/// The one value an object option pins `field` to (`kind = s.enum({'world'})`).
fn tag_value<'a>(option: &'a Value, field: &str) -> Option<&'a str> {
    match option.get("properties")?.get(field)?.get("enum")?.as_array()?.as_slice() {
        [Value::String(one)] => Some(one),
        _ => None,
    }
}

/// The schema node whose keyword failed: the parent of the keyword in `schema_path`.
fn node_of<'a>(schema: &'a Value, keyword_pointer: &str) -> &'a Value {
    let parent = keyword_pointer.rsplit_once('/').map_or("", |(parent, _)| parent);
    schema.pointer(parent).unwrap_or(&Value::Null)
}

/// A numeric bound broken, with the whole range when the node has both ends.
fn bound(path: &str, instance: &Value, rule: &str, limit: &Value, node: &Value) -> String {
    let range = range(node).filter(|r| r.starts_with('[') || r.starts_with('(')).map(|r| format!("; allowed {r}")).unwrap_or_default();
    format!("{path}: {} {rule} {}{range}", number(instance), number(limit))
}

/// A number node's range: `[0.001, 50]`, `(0, 50]`, `>= 0`, `< 170`; None without bounds.
fn range(node: &Value) -> Option<String> {
    let get = |k: &str| node.get(k).and_then(Value::as_f64);
    // The tighter of an inclusive and an exclusive bound; exclusive when they are equal.
    let low = match (get("minimum"), get("exclusiveMinimum")) {
        (Some(m), Some(x)) => Some(if m > x { (m, false) } else { (x, true) }),
        (m, x) => m.map(|m| (m, false)).or(x.map(|x| (x, true))),
    };
    let high = match (get("maximum"), get("exclusiveMaximum")) {
        (Some(m), Some(x)) => Some(if m < x { (m, false) } else { (x, true) }),
        (m, x) => m.map(|m| (m, false)).or(x.map(|x| (x, true))),
    };
    match (low, high) {
        (Some((lo, lx)), Some((hi, hx))) => {
            Some(format!("{}{}, {}{}", if lx { "(" } else { "[" }, Num(lo), Num(hi), if hx { ")" } else { "]" }))
        }
        (Some((lo, lx)), None) => Some(format!("{} {}", if lx { ">" } else { ">=" }, Num(lo))),
        (None, Some((hi, hx))) => Some(format!("{} {}", if hx { "<" } else { "<=" }, Num(hi))),
        (None, None) => None,
    }
}

/// `3`, `3 to 4`, `at least 1`, `at most 200` from a node's count bounds.
fn count(node: &Value, min_key: &str, max_key: &str) -> String {
    match (node.get(min_key).and_then(Value::as_u64), node.get(max_key).and_then(Value::as_u64)) {
        (Some(lo), Some(hi)) if lo == hi => lo.to_string(),
        (Some(lo), Some(hi)) => format!("{lo} to {hi}"),
        (Some(lo), None) => format!("at least {lo}"),
        (None, Some(hi)) => format!("at most {hi}"),
        (None, None) => "some".to_string(),
    }
}

/// What a schema node accepts, in a few words: `a number in [0.001, 50]`, `one of 'box',
/// 'sphere'`, `a list of 3 numbers (each in [-1000000, 1000000])`.
fn summary(node: &Value) -> String {
    if let Some(options) = node.get("enum").and_then(Value::as_array) {
        return format!("one of {}", options.iter().map(literal).collect::<Vec<_>>().join(", "));
    }
    if let Some(options) = node.get("anyOf").and_then(Value::as_array) {
        return options.iter().map(summary).collect::<Vec<_>>().join(" or ");
    }
    match node.get("type") {
        Some(Value::String(t)) => typed(t, node),
        Some(Value::Array(types)) => types.iter().filter_map(Value::as_str).map(|t| typed(t, node)).collect::<Vec<_>>().join(" or "),
        _ => "any value".to_string(),
    }
}

fn typed(t: &str, node: &Value) -> String {
    let with_range = |noun: &str| match range(node) {
        Some(r) if r.starts_with('[') || r.starts_with('(') => format!("{noun} in {r}"),
        Some(r) => format!("{noun} {r}"),
        None => noun.to_string(),
    };
    match t {
        "number" => with_range("a number"),
        "integer" => with_range("an integer"),
        "string" => match (node.get("minLength"), node.get("maxLength")) {
            (None, None) => "a string".to_string(),
            _ => format!("a string of {} characters", count(node, "minLength", "maxLength")),
        },
        "boolean" => "a boolean".to_string(),
        "null" => "null".to_string(),
        "object" => {
            // A tagged option of a union reads by its tag: `an object with kind 'world'`.
            let tag =
                node.get("properties").and_then(Value::as_object).and_then(|p| p.keys().find_map(|k| tag_value(node, k).map(|v| (k, v))));
            match tag {
                Some((field, value)) => format!("an object with {field} '{value}'"),
                None => "an object".to_string(),
            }
        }
        "array" => {
            let items = node.get("items").unwrap_or(&Value::Null);
            let noun = match items.get("type").and_then(Value::as_str) {
                Some("number") => "numbers",
                Some("integer") => "integers",
                Some("string") if items.get("enum").is_none() => "strings",
                Some("boolean") => "booleans",
                Some("object") => "objects",
                _ => "items",
            };
            let n = match (node.get("minItems"), node.get("maxItems")) {
                (None, None) => String::new(),
                _ => format!("{} ", count(node, "minItems", "maxItems")),
            };
            let each = match (noun, range(items)) {
                ("numbers" | "integers", Some(r)) if r.starts_with('[') || r.starts_with('(') => format!(" (each in {r})"),
                ("numbers" | "integers", Some(r)) => format!(" (each {r})"),
                ("items", _) if !items.is_null() => format!(" (each {})", summary(items)),
                _ => String::new(),
            };
            format!("a list of {n}{noun}{each}")
        }
        other => format!("a {other}"),
    }
}

/// A caller's value as it is shown back: `the string 'big'`, `1.5`, `an array of 2 items`.
fn show(v: &Value) -> String {
    match v {
        Value::String(_) => format!("the string {}", literal(v)),
        Value::Array(a) => format!("an array of {} items", a.len()),
        Value::Object(_) => "an object".to_string(),
        other => literal(other),
    }
}

/// A value as a literal: strings in single quotes, numbers as people read them, cut short.
fn literal(v: &Value) -> String {
    let text = match v {
        Value::String(s) => format!("'{s}'"),
        Value::Number(_) => number(v),
        other => other.to_string(),
    };
    if text.chars().count() > MAX_SHOWN {
        let cut: String = text.chars().take(MAX_SHOWN).collect();
        format!("{cut}…")
    } else {
        text
    }
}

fn number(v: &Value) -> String {
    match (v.as_i64(), v.as_f64()) {
        (Some(i), _) => i.to_string(),
        (None, Some(f)) => Num(f).to_string(),
        _ => v.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(desc: Value, value: Value) -> String {
        let schema = crate::skills::schema::compile(&desc).unwrap();
        let validator = jsonschema::options().build(&schema).unwrap();
        describe(&validator, &schema, &value, "input")
    }

    fn create_entity() -> Value {
        json!({"kind": "object", "fields": {
            "shape": {"kind": "enum", "values": ["box", "sphere", "capsule"], "default": "box"},
            "size": {"kind": "number", "exclusiveMinimum": 0, "minimum": 0.001, "maximum": 50, "default": 1},
            "color": {"kind": "integer", "minimum": 0, "maximum": 16777215, "default": 16777215},
            "collider": {"kind": "enum", "values": ["box", "sphere", "capsule"], "optional": true},
            "position": {"kind": "array", "items": {"kind": "number", "minimum": -1e6, "maximum": 1e6}, "minItems": 3, "maxItems": 3, "optional": true},
            "dynamic": {"kind": "boolean", "default": false},
            "camera": {"kind": "object", "optional": true, "fields": {"fov": {"kind": "number", "exclusiveMinimum": 1, "exclusiveMaximum": 170}, "target": {"kind": "string", "optional": true}}},
            "name": {"kind": "string", "minLength": 1, "maxLength": 8, "optional": true},
        }})
    }

    #[test]
    fn each_rule_is_named_with_what_is_allowed() {
        let cases = [
            (json!({"size": 80}), "size: 80 is above the maximum of 50; allowed [0.001, 50]"),
            (json!({"size": "big"}), "size: expected a number in [0.001, 50], got the string 'big'"),
            (json!({"color": 1.5}), "color: expected an integer in [0, 16777215], got 1.5"),
            (json!({"dynamic": "yes"}), "dynamic: expected a boolean, got the string 'yes'"),
            (json!({"shape": "sphre"}), "shape: 'sphre' is not one of 'box', 'sphere', 'capsule' (did you mean 'sphere'?)"),
            (json!({"shape": "cone"}), "shape: 'cone' is not one of 'box', 'sphere', 'capsule'"),
            (
                json!({"colour": 1}),
                "unknown field 'colour' (did you mean 'color'?); allowed fields: camera, collider, color, dynamic, name, position, shape, size",
            ),
            (
                json!({"camera": {"fov": 60, "targt": "x"}}),
                "camera: unknown field 'targt' (did you mean 'target'?); allowed fields: fov, target",
            ),
            (json!({"camera": {}}), "camera.fov: required, expected a number in (1, 170)"),
            (json!({"camera": {"fov": 170}}), "camera.fov: 170 must be below 170; allowed (1, 170)"),
            (json!({"position": [1, 2]}), "position: expected 3 items, got 2"),
            (json!({"position": [1, "a", 3]}), "position[1]: expected a number in [-1000000, 1000000], got the string 'a'"),
            (json!({"position": 5}), "position: expected a list of 3 numbers (each in [-1000000, 1000000]), got 5"),
            (json!({"name": ""}), "name: expected 1 to 8 characters, got 0"),
        ];
        for (value, expected) in cases {
            assert_eq!(check(create_entity(), value.clone()), expected, "{value}");
        }
    }

    #[test]
    fn a_union_answers_for_the_option_its_tag_picks() {
        let anchor = json!({"kind": "object", "fields": {"anchor": {"kind": "union", "options": [
            {"kind": "object", "fields": {"kind": {"kind": "enum", "values": ["world"]}, "entity": {"kind": "string", "optional": true}}},
            {"kind": "object", "fields": {"kind": {"kind": "enum", "values": ["screen"]}, "corner": {"kind": "string", "optional": true}}},
        ]}}});
        let cases = [
            (
                json!({"anchor": {"kind": "world", "entty": "x"}}),
                "anchor: unknown field 'entty' (did you mean 'entity'?); allowed fields: entity, kind",
            ),
            (json!({"anchor": {"kind": "wrld"}}), "anchor.kind: 'wrld' is not one of 'world', 'screen' (did you mean 'world'?)"),
            (json!({"anchor": 5}), "anchor: expected an object with kind 'world' or an object with kind 'screen', got 5"),
            (json!({}), "anchor: required, expected an object with kind 'world' or an object with kind 'screen'"),
        ];
        for (value, expected) in cases {
            assert_eq!(check(anchor.clone(), value.clone()), expected, "{value}");
        }
    }

    #[test]
    fn one_problem_per_field_and_at_most_three() {
        let msg = check(create_entity(), json!({"shape": 5}));
        assert!(!msg.contains(';'), "{msg}");
        let msg = check(create_entity(), json!({"size": 80, "color": -1, "dynamic": 1, "shape": "x"}));
        let named = ["size:", "color:", "dynamic:", "shape:"].iter().filter(|f| msg.contains(*f)).count();
        assert_eq!(named, 3, "{msg}");
    }

    #[test]
    fn long_values_are_cut() {
        let long = "x".repeat(200);
        let msg = check(create_entity(), json!({ "shape": long }));
        assert!(msg.len() < 120 && msg.contains('…'), "{msg}");
    }
}
