//! Reading one trace line as JSON while refusing duplicate object keys.
//!
//! serde_json keeps the last of two equal keys; other readers keep the first. A line that
//! carries a key twice can therefore hash correctly (the last value is what gets re-hashed)
//! while a first-wins reader shows a forged value, so verification must refuse it outright.
//! Keys are compared after unescaping (`"t\u0079pe"` is `"type"`). This builds the same
//! `Value` serde_json would, in one pass; the path to a duplicate is collected only on the
//! error path.

use std::cell::RefCell;
use std::fmt::{self, Write as _};

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// Why a line did not parse.
#[derive(Debug)]
pub(super) enum ParseError {
    /// Not JSON (or cut off); the serde_json error says where.
    Syntax(serde_json::Error),
    /// A key appears twice in one object; the path to it, e.g. `payload.parts[0].kind`.
    DuplicateKey(String),
}

/// Parses `bytes` as one JSON value, refusing any object that repeats a key.
pub(super) fn parse_unique_keys(bytes: &[u8]) -> Result<Value, ParseError> {
    let duplicate = RefCell::new(None);
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let parsed = UniqueKeys { duplicate: &duplicate }.deserialize(&mut de).and_then(|v| de.end().map(|()| v));
    match (parsed, duplicate.into_inner()) {
        (_, Some(path)) => Err(ParseError::DuplicateKey(path_text(path))),
        (Ok(value), None) => Ok(value),
        (Err(e), None) => Err(ParseError::Syntax(e)),
    }
}

/// One step of the path to a duplicate, collected innermost first as the error unwinds.
enum Step {
    Key(String),
    Index(usize),
}

fn path_text(mut steps: Vec<Step>) -> String {
    steps.reverse();
    let mut text = String::new();
    for step in steps {
        match step {
            Step::Key(k) if text.is_empty() => text.push_str(&k),
            Step::Key(k) => {
                text.push('.');
                text.push_str(&k);
            }
            Step::Index(i) => {
                let _ = write!(text, "[{i}]");
            }
        }
    }
    text
}

#[derive(Clone, Copy)]
struct UniqueKeys<'a> {
    /// Set when a duplicate is found; outer containers add their step while unwinding.
    duplicate: &'a RefCell<Option<Vec<Step>>>,
}

impl UniqueKeys<'_> {
    fn on_error(&self, step: impl FnOnce() -> Step) {
        if let Some(path) = self.duplicate.borrow_mut().as_mut() {
            path.push(step());
        }
    }
}

impl<'de> DeserializeSeed<'de> for UniqueKeys<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for UniqueKeys<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        loop {
            match seq.next_element_seed(self) {
                Ok(Some(item)) => items.push(item),
                Ok(None) => return Ok(Value::Array(items)),
                Err(e) => {
                    self.on_error(|| Step::Index(items.len()));
                    return Err(e);
                }
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                let message = format!("duplicate key {key:?}");
                *self.duplicate.borrow_mut() = Some(vec![Step::Key(key)]);
                return Err(de::Error::custom(message));
            }
            match map.next_value_seed(self) {
                Ok(value) => {
                    object.insert(key, value);
                }
                Err(e) => {
                    self.on_error(|| Step::Key(key));
                    return Err(e);
                }
            }
        }
        Ok(Value::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn duplicate(text: &str) -> String {
        match parse_unique_keys(text.as_bytes()) {
            Err(ParseError::DuplicateKey(path)) => path,
            other => panic!("{text}: expected a duplicate key, got {other:?}"),
        }
    }

    #[test]
    fn builds_what_serde_json_builds() {
        let text = r#"{"b":[1,-2,3.5,"x",null,true,{"z":{}}],"a":{"c":[]},"e":18446744073709551615}"#;
        let strict = parse_unique_keys(text.as_bytes()).unwrap();
        assert_eq!(strict, serde_json::from_str::<Value>(text).unwrap());
        assert_eq!(
            serde_json::to_string(&strict).unwrap(),
            r#"{"a":{"c":[]},"b":[1,-2,3.5,"x",null,true,{"z":{}}],"e":18446744073709551615}"#
        );
    }

    #[test]
    fn names_the_path_to_a_repeated_key() {
        assert_eq!(duplicate(r#"{"a":1,"a":2}"#), "a");
        assert_eq!(duplicate(r#"{"p":{"x":1,"y":[0,{"k":1,"k":1}]}}"#), "p.y[1].k");
        assert_eq!(duplicate(r#"[{"a":1},{"a":1,"\u0061":2}]"#), "[1].a");
    }

    #[test]
    fn syntax_errors_stay_syntax_errors() {
        for text in ["{\"a\":", "{\"a\":1} x", "not json", ""] {
            assert!(matches!(parse_unique_keys(text.as_bytes()), Err(ParseError::Syntax(_))), "{text}");
        }
    }
}
