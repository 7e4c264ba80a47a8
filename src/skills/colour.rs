//! Colours as skills take them: an integer `0xRRGGBB`, or the strings `"#rrggbb"` and
//! `"0xrrggbb"` (what a JSON client, which has no hex literals, naturally sends). The schema DSL's
//! `s.color()` compiles to one node that accepts all three (`COLOR_PATTERN` marks it); before a
//! call is validated, `normalize` turns every colour string the schema places into its integer,
//! so the handler, the world, the trace and the command log see the same value whichever form
//! was sent (a replay of either is identical). This is the one place a colour string is parsed.
//!
//! A string that is not a colour is left as it is and fails validation on the pattern, which the
//! validator reports naming the value. Runs on calls whose schema has a colour (`has_colors`).

use serde_json::Value;

/// The pattern a colour node's string form must match; also how a compiled node is known to be
/// a colour.
pub(crate) const COLOR_PATTERN: &str = "^(#|0x)[0-9a-fA-F]{6}$";
/// The largest colour, `0xffffff`.
pub(crate) const MAX_COLOR: u32 = 0xff_ffff;

/// `"#ff8800"` or `"0xff8800"` (hex digits in either case) as `0xff8800`; None for anything else.
pub(crate) fn parse_color(text: &str) -> Option<u32> {
    let hex = text.strip_prefix('#').or_else(|| text.strip_prefix("0x"))?;
    if hex.len() != 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u32::from_str_radix(hex, 16).ok()
}

/// Whether a compiled schema node is a colour (`s.color()`).
pub(crate) fn is_color(node: &Value) -> bool {
    node.get("pattern").and_then(Value::as_str) == Some(COLOR_PATTERN)
}

/// Whether `schema` has a colour anywhere (else `normalize` has nothing to do).
pub(crate) fn has_colors(schema: &Value) -> bool {
    match schema {
        Value::Object(m) => is_color(schema) || m.values().any(has_colors),
        Value::Array(a) => a.iter().any(has_colors),
        _ => false,
    }
}

/// Replaces each colour string in `value` that `schema` places at a colour node by its integer.
/// Walks only where value and schema agree (properties, record values, items, union options);
/// leaves anything it does not recognise for validation to report. Returns whether anything
/// changed.
pub(crate) fn normalize(schema: &Value, value: &mut Value) -> bool {
    let Value::Object(s) = schema else { return false };
    if is_color(schema)
        && let Value::String(text) = &*value
        && let Some(rgb) = parse_color(text)
    {
        *value = Value::from(rgb);
        return true;
    }
    let mut changed = false;
    match value {
        Value::Object(fields) => {
            if let Some(Value::Object(props)) = s.get("properties") {
                for (name, v) in fields.iter_mut() {
                    if let Some(prop) = props.get(name) {
                        changed |= normalize(prop, v);
                    }
                }
            }
            if let Some(extra @ Value::Object(_)) = s.get("additionalProperties") {
                for v in fields.values_mut() {
                    changed |= normalize(extra, v);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item) = s.get("items") {
                for v in items {
                    changed |= normalize(item, v);
                }
            }
        }
        _ => {}
    }
    if let Some(Value::Array(options)) = s.get("anyOf") {
        for o in options {
            changed |= normalize(o, value);
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn both_string_forms_parse_to_the_integer_and_nothing_else_does() {
        assert_eq!(parse_color("#ff8800"), Some(0xff8800));
        assert_eq!(parse_color("0xFF8800"), Some(0xff8800));
        assert_eq!(parse_color("#000000"), Some(0));
        for bad in ["ff8800", "#ff880", "#ff88000", "0Xff8800", "#gg0000", "#+12345", "", "#", "0x", "red", "#ff 800"] {
            assert_eq!(parse_color(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_pattern_and_the_parser_agree() {
        let validator = jsonschema::draft7::new(&json!({"type": "string", "pattern": COLOR_PATTERN})).unwrap();
        let matches = |text: &str| validator.is_valid(&json!(text));
        for text in ["#ff8800", "0xff8800", "0xABCDEF", "#abcdef", "ff8800", "#ff880", "0Xff8800", "#gg0000", "#ff88001", "x#ff8800"] {
            assert_eq!(matches(text), parse_color(text).is_some(), "{text}");
        }
    }

    #[test]
    fn strings_become_integers_wherever_the_schema_has_a_colour() {
        let color = json!({"type": ["integer", "string"], "minimum": 0, "maximum": MAX_COLOR, "pattern": COLOR_PATTERN});
        let rgba = json!({"type": "object", "properties": {"r": {"type": "integer"}}});
        let schema = json!({"type": "object", "properties": {
            "color": color,
            "name": {"type": "string"},
            "runs": {"type": "array", "items": {"type": "object", "properties": {"color": {"anyOf": [color, rgba]}}}},
            "byName": {"type": "object", "additionalProperties": color},
        }});
        assert!(has_colors(&schema));
        assert!(!has_colors(&json!({"type": "object", "properties": {"name": {"type": "string"}}})));
        let mut v = json!({"color": "#ff0000", "name": "#ff0000", "runs": [{"color": "0x00ff00"}, {"color": {"r": 1}}], "byName": {"a": "#0000ff"}});
        assert!(normalize(&schema, &mut v));
        assert_eq!(
            v,
            json!({"color": 0xff0000, "name": "#ff0000", "runs": [{"color": 0x00ff00}, {"color": {"r": 1}}], "byName": {"a": 0x0000ff}})
        );
        assert!(!normalize(&schema, &mut v), "integers are left as they are");
        let mut bad = json!({"color": "#ff00zz"});
        assert!(!normalize(&schema, &mut bad));
        assert_eq!(bad, json!({"color": "#ff00zz"}), "a bad string is left for validation to report");
    }
}
