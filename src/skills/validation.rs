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

/// One way a value failed its schema. Values are kept as they are shown back (`'sphre'`, `80`,
/// `the string 'big'`); `path` is the field path (`position[1]`, `camera.fov`).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub(crate) enum Problem {
    #[error("{path}: expected {expected}, got {got}")]
    WrongType { path: String, expected: String, got: String },
    #[error("{path}: {given} is not one of {}{}", allowed.join(", "), hint(suggestion))]
    NotOneOf { path: String, given: String, allowed: Vec<String>, suggestion: Option<String> },
    /// `object` is None at the top level of the value.
    #[error(
        "{}unknown {} {}{}; {}",
        object.as_ref().map(|o| format!("{o}: ")).unwrap_or_default(),
        if names.len() == 1 { "field" } else { "fields" },
        names.iter().map(|n| format!("'{n}'")).collect::<Vec<_>>().join(", "),
        hint(suggestion),
        if allowed.is_empty() { "it takes no fields".to_string() } else { format!("allowed fields: {}", allowed.join(", ")) }
    )]
    UnknownFields { object: Option<String>, names: Vec<String>, suggestion: Option<String>, allowed: Vec<String> },
    #[error("{path}: required, expected {expected}")]
    Required { path: String, expected: String },
    /// `range` is the whole allowed range, given when the field has both ends.
    #[error("{path}: {value} {rule} {limit}{}", range.as_ref().map(|r| format!("; allowed {r}")).unwrap_or_default())]
    OutOfRange { path: String, value: String, rule: BoundRule, limit: String, range: Option<String> },
    #[error("{path}: expected {expected} {unit}, got {got}")]
    Count { path: String, unit: CountUnit, expected: String, got: usize },
    #[error("{path}: {given} does not match the pattern {pattern}")]
    Pattern { path: String, given: String, pattern: String },
    #[error("{path}: {given} is not a colour; give an integer 0xRRGGBB (0 to 16777215) or a string '#rrggbb' or '0xrrggbb'")]
    NotAColor { path: String, given: String },
    /// A rule our schemas do not use, in `jsonschema`'s words.
    #[error("{path}: {message}")]
    Other { path: String, message: String },
}

fn hint(suggestion: &Option<String>) -> String {
    suggestion.as_ref().map(|m| format!(" (did you mean '{m}'?)")).unwrap_or_default()
}

/// Which numeric bound a value broke.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BoundRule {
    Maximum,
    Minimum,
    ExclusiveMaximum,
    ExclusiveMinimum,
}

impl std::fmt::Display for BoundRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            BoundRule::Maximum => "is above the maximum of",
            BoundRule::Minimum => "is below the minimum of",
            BoundRule::ExclusiveMaximum => "must be below",
            BoundRule::ExclusiveMinimum => "must be above",
        })
    }
}

/// What a length rule counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CountUnit {
    Items,
    Characters,
}

impl std::fmt::Display for CountUnit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            CountUnit::Items => "items",
            CountUnit::Characters => "characters",
        })
    }
}

/// Up to three problems of `value` against `schema` (which `validator` was compiled from), each
/// at a different field (`root` names the value itself, e.g. `input`).
pub(crate) fn problems(validator: &jsonschema::Validator, schema: &Value, value: &Value, root: &str) -> Vec<Problem> {
    let mut seen: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for e in validator.iter_errors(value) {
        let pointer = e.instance_path().as_str().to_string();
        // One problem per field: an enum of strings given a number fails both `type` and `enum`.
        if seen.contains(&pointer) {
            continue;
        }
        seen.push(pointer);
        out.extend(explain(&e, schema, root));
        if out.len() >= MAX_PROBLEMS {
            out.truncate(MAX_PROBLEMS);
            break;
        }
    }
    out
}

/// `problems`, joined by `; `.
pub(crate) fn describe(validator: &jsonschema::Validator, schema: &Value, value: &Value, root: &str) -> String {
    let found = problems(validator, schema, value, root);
    if found.is_empty() {
        "does not match its schema".to_string()
    } else {
        found.iter().map(Problem::to_string).collect::<Vec<_>>().join("; ")
    }
}

/// The problems one error stands for (a union's may be its likely option's several).
fn explain(e: &ValidationError<'_>, schema: &Value, root: &str) -> Vec<Problem> {
    let path = field_path(e.instance_path().as_str(), root);
    let at_root = e.instance_path().as_str().is_empty();
    let node = node_of(schema, e.schema_path().as_str());
    let instance = e.instance();
    let one = match e.kind() {
        ValidationErrorKind::AnyOf { context } => return union(path, e.instance_path().as_str(), instance, node, context, schema, root),
        ValidationErrorKind::Type { .. } => Problem::WrongType { path, expected: summary(node), got: show(instance) },
        ValidationErrorKind::Enum { options } => {
            let options = options.as_array().map(Vec::as_slice).unwrap_or_default();
            let suggestion =
                instance.as_str().and_then(|given| did_you_mean(given, options.iter().filter_map(Value::as_str))).map(str::to_string);
            Problem::NotOneOf { path, given: literal(instance), allowed: options.iter().map(literal).collect(), suggestion }
        }
        ValidationErrorKind::AdditionalProperties { unexpected } => {
            let allowed: Vec<String> =
                node.get("properties").and_then(Value::as_object).map(|p| p.keys().cloned().collect()).unwrap_or_default();
            let suggestion = match unexpected.as_slice() {
                [one] => did_you_mean(one, allowed.iter().map(String::as_str)).map(str::to_string),
                _ => None,
            };
            Problem::UnknownFields {
                object: (!at_root).then_some(path),
                names: unexpected.iter().map(|n| crate::clip::shown(n)).collect(),
                suggestion,
                allowed,
            }
        }
        ValidationErrorKind::Required { property } => {
            let name = property.as_str().unwrap_or_default();
            let expected = node.get("properties").and_then(|p| p.get(name)).map(summary).unwrap_or_else(|| "a value".into());
            Problem::Required { path: if at_root { name.to_string() } else { format!("{path}.{name}") }, expected }
        }
        ValidationErrorKind::Maximum { limit } => bound(path, instance, BoundRule::Maximum, limit, node),
        ValidationErrorKind::Minimum { limit } => bound(path, instance, BoundRule::Minimum, limit, node),
        ValidationErrorKind::ExclusiveMaximum { limit } => bound(path, instance, BoundRule::ExclusiveMaximum, limit, node),
        ValidationErrorKind::ExclusiveMinimum { limit } => bound(path, instance, BoundRule::ExclusiveMinimum, limit, node),
        ValidationErrorKind::MinItems { .. } | ValidationErrorKind::MaxItems { .. } => Problem::Count {
            path,
            unit: CountUnit::Items,
            expected: count(node, "minItems", "maxItems"),
            got: instance.as_array().map_or(0, Vec::len),
        },
        ValidationErrorKind::MinLength { .. } | ValidationErrorKind::MaxLength { .. } => Problem::Count {
            path,
            unit: CountUnit::Characters,
            expected: count(node, "minLength", "maxLength"),
            got: instance.as_str().map_or(0, |s| s.chars().count()),
        },
        ValidationErrorKind::Pattern { .. } if super::colour::is_color(node) => Problem::NotAColor { path, given: literal(instance) },
        ValidationErrorKind::Pattern { pattern } => Problem::Pattern { path, given: literal(instance), pattern: pattern.clone() },
        _ => Problem::Other { path, message: e.to_string() },
    };
    vec![one]
}

/// A value that matched no option of a union (`s.union`, or a nullable object). When one option
/// is the evident intent (its own one-value tag, such as `kind = 'world'`, matched, or only it has
/// the value's type), its problems are the answer; when the tag itself is wrong, the tag is the
/// answer, with the tags the options take; else what the options accept.
fn union(
    path: String,
    pointer: &str,
    instance: &Value,
    node: &Value,
    context: &[Vec<ValidationError<'static>>],
    schema: &Value,
    root: &str,
) -> Vec<Problem> {
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
        return only.iter().flat_map(|e| explain(e, schema, root)).take(MAX_PROBLEMS).collect();
    }
    // The tag: a field every option pins to one value.
    if let Some(given) = instance.as_object() {
        for (field, value) in given {
            let tags: Vec<&str> = options.iter().filter_map(|o| tag_value(o, field)).collect();
            if tags.len() == options.len()
                && let Some(text) = value.as_str()
                && !tags.contains(&text)
            {
                return vec![Problem::NotOneOf {
                    path: format!("{path}.{field}"),
                    given: literal(value),
                    allowed: tags.iter().map(|t| format!("'{t}'")).collect(),
                    suggestion: did_you_mean(text, tags.iter().copied()).map(str::to_string),
                }];
            }
        }
    }
    vec![Problem::WrongType { path, expected: summary(node), got: show(instance) }]
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
fn bound(path: String, instance: &Value, rule: BoundRule, limit: &Value, node: &Value) -> Problem {
    let range = range(node).filter(|r| r.starts_with('[') || r.starts_with('('));
    Problem::OutOfRange { path, value: number(instance), rule, limit: number(limit), range }
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
    if super::colour::is_color(node) {
        return "a colour (an integer 0xRRGGBB, or a string '#rrggbb' or '0xrrggbb')".to_string();
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
    fn a_bad_colour_is_named_with_the_forms_a_colour_takes() {
        let desc = json!({"kind": "object", "fields": {
            "color": {"kind": "color", "optional": true},
            "ui": {"kind": "union", "optional": true, "options": [
                {"kind": "color"},
                {"kind": "object", "fields": {"r": {"kind": "integer"}}},
            ]},
        }});
        let forms = "is not a colour; give an integer 0xRRGGBB (0 to 16777215) or a string '#rrggbb' or '0xrrggbb'";
        assert_eq!(check(desc.clone(), json!({"color": "#ff00zz"})), format!("color: '#ff00zz' {forms}"));
        assert_eq!(check(desc.clone(), json!({"color": "red"})), format!("color: 'red' {forms}"));
        assert_eq!(check(desc.clone(), json!({"ui": "#12"})), format!("ui: '#12' {forms}"));
        assert_eq!(
            check(desc.clone(), json!({"color": 16777216})),
            "color: 16777216 is above the maximum of 16777215; allowed [0, 16777215]"
        );
        assert_eq!(
            check(desc, json!({"color": true})),
            "color: expected a colour (an integer 0xRRGGBB, or a string '#rrggbb' or '0xrrggbb'), got true"
        );
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
    fn problems_carry_the_values_that_caused_them() {
        let schema = crate::skills::schema::compile(&create_entity()).unwrap();
        let validator = jsonschema::options().build(&schema).unwrap();
        let found = problems(&validator, &schema, &json!({"shape": "sphre", "size": 80}), "input");
        assert_eq!(
            found,
            [
                Problem::NotOneOf {
                    path: "shape".into(),
                    given: "'sphre'".into(),
                    allowed: vec!["'box'".into(), "'sphere'".into(), "'capsule'".into()],
                    suggestion: Some("sphere".into()),
                },
                Problem::OutOfRange {
                    path: "size".into(),
                    value: "80".into(),
                    rule: BoundRule::Maximum,
                    limit: "50".into(),
                    range: Some("[0.001, 50]".into()),
                },
            ]
        );
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
