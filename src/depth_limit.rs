//! A serde `Deserializer` adapter that refuses values nested deeper than a limit.
//!
//! postcard, unlike serde_json, has no recursion limit, and types outside our control decode
//! recursively: a snapshot carries rapier's physics state, where a parry `Compound` shape holds
//! shapes that may be compounds again. A crafted file nesting them thousands deep overflowed
//! the stack, which aborts the process (no panic to catch). Wrapping the deserializer counts
//! every nested value (each element, field, map entry, option and enum payload) on the way
//! down and stops with an error past `max_depth`, before the stack is at risk.
//!
//! Everything else is forwarded unchanged, `is_human_readable` included (types may encode
//! differently for binary formats), so a value within the limit decodes exactly as without it.

use std::cell::Cell;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, Visitor};

/// Decodes a `T` from the front of `bytes` as `postcard::take_from_bytes` does, refusing
/// nesting deeper than `max_depth`; returns it and the bytes after it.
pub(crate) fn take_from_bytes<'a, T: de::Deserialize<'a>>(bytes: &'a [u8], max_depth: usize) -> Result<(T, &'a [u8]), DepthError> {
    let budget = Budget { left: Cell::new(max_depth), exceeded: Cell::new(false) };
    let mut postcard = postcard::Deserializer::from_bytes(bytes);
    let decoded = T::deserialize(Limited { inner: &mut postcard, budget: &budget });
    match decoded {
        Ok(value) => Ok((value, postcard.finalize().map_err(DepthError::Decode)?)),
        Err(_) if budget.exceeded.get() => Err(DepthError::TooDeep { max_depth }),
        Err(e) => Err(DepthError::Decode(e)),
    }
}

/// Why a limited decode failed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum DepthError {
    #[error("it nests deeper than {max_depth} levels")]
    TooDeep { max_depth: usize },
    #[error("{0}")]
    Decode(postcard::Error),
}

/// Levels left, shared by every wrapper of one decode.
struct Budget {
    left: Cell<usize>,
    /// Set when the limit stopped the decode (the format's own error type may not carry our
    /// message: postcard's custom error has none).
    exceeded: Cell<bool>,
}

impl Budget {
    fn enter<E: de::Error>(&self) -> Result<(), E> {
        match self.left.get().checked_sub(1) {
            Some(left) => {
                self.left.set(left);
                Ok(())
            }
            None => {
                self.exceeded.set(true);
                Err(E::custom("nested too deeply"))
            }
        }
    }

    fn leave(&self) {
        self.left.set(self.left.get() + 1);
    }

    /// `decode` one level deeper, or the error that says the limit was reached.
    fn nested<T, E: de::Error>(&self, decode: impl FnOnce() -> Result<T, E>) -> Result<T, E> {
        self.enter::<E>()?;
        let value = decode();
        self.leave();
        value
    }
}

/// The wrapper: a deserializer, visitor, access or seed, with the shared budget.
struct Limited<'b, T> {
    inner: T,
    budget: &'b Budget,
}

impl<'b, T> Limited<'b, T> {
    fn wrap<U>(&self, inner: U) -> Limited<'b, U> {
        Limited { inner, budget: self.budget }
    }
}

macro_rules! forward_deserialize {
    ($($method:ident),* $(,)?) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
            let visitor = self.wrap(visitor);
            self.inner.$method(visitor)
        }
    )*};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Limited<'_, D> {
    type Error = D::Error;

    forward_deserialize!(
        deserialize_any,
        deserialize_bool,
        deserialize_i8,
        deserialize_i16,
        deserialize_i32,
        deserialize_i64,
        deserialize_i128,
        deserialize_u8,
        deserialize_u16,
        deserialize_u32,
        deserialize_u64,
        deserialize_u128,
        deserialize_f32,
        deserialize_f64,
        deserialize_char,
        deserialize_str,
        deserialize_string,
        deserialize_bytes,
        deserialize_byte_buf,
        deserialize_option,
        deserialize_unit,
        deserialize_seq,
        deserialize_map,
        deserialize_identifier,
        deserialize_ignored_any,
    );

    fn deserialize_unit_struct<V: Visitor<'de>>(self, name: &'static str, visitor: V) -> Result<V::Value, Self::Error> {
        let visitor = self.wrap(visitor);
        self.inner.deserialize_unit_struct(name, visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, name: &'static str, visitor: V) -> Result<V::Value, Self::Error> {
        let visitor = self.wrap(visitor);
        self.inner.deserialize_newtype_struct(name, visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, Self::Error> {
        let visitor = self.wrap(visitor);
        self.inner.deserialize_tuple(len, visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(self, name: &'static str, len: usize, visitor: V) -> Result<V::Value, Self::Error> {
        let visitor = self.wrap(visitor);
        self.inner.deserialize_tuple_struct(name, len, visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        let visitor = self.wrap(visitor);
        self.inner.deserialize_struct(name, fields, visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        let visitor = self.wrap(visitor);
        self.inner.deserialize_enum(name, variants, visitor)
    }

    fn is_human_readable(&self) -> bool {
        self.inner.is_human_readable()
    }
}

/// A nested value: one level deeper while it decodes.
impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Limited<'_, S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        let budget = self.budget;
        budget.nested(|| self.inner.deserialize(Limited { inner: deserializer, budget }))
    }
}

macro_rules! forward_visit {
    ($($method:ident($ty:ty)),* $(,)?) => {$(
        fn $method<E: de::Error>(self, v: $ty) -> Result<Self::Value, E> {
            self.inner.$method(v)
        }
    )*};
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Limited<'_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.expecting(f)
    }

    forward_visit!(
        visit_bool(bool),
        visit_i8(i8),
        visit_i16(i16),
        visit_i32(i32),
        visit_i64(i64),
        visit_i128(i128),
        visit_u8(u8),
        visit_u16(u16),
        visit_u32(u32),
        visit_u64(u64),
        visit_u128(u128),
        visit_f32(f32),
        visit_f64(f64),
        visit_char(char),
        visit_str(&str),
        visit_borrowed_str(&'de str),
        visit_string(String),
        visit_bytes(&[u8]),
        visit_borrowed_bytes(&'de [u8]),
        visit_byte_buf(Vec<u8>),
    );

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        self.inner.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        self.inner.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        let budget = self.budget;
        budget.nested(|| self.inner.visit_some(Limited { inner: deserializer, budget }))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        let budget = self.budget;
        budget.nested(|| self.inner.visit_newtype_struct(Limited { inner: deserializer, budget }))
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        let seq = self.wrap(seq);
        self.inner.visit_seq(seq)
    }

    fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        let map = self.wrap(map);
        self.inner.visit_map(map)
    }

    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<Self::Value, A::Error> {
        let data = self.wrap(data);
        self.inner.visit_enum(data)
    }
}

impl<'de, A: de::SeqAccess<'de>> de::SeqAccess<'de> for Limited<'_, A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Self::Error> {
        let seed = self.wrap(seed);
        self.inner.next_element_seed(seed)
    }

    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

impl<'de, A: de::MapAccess<'de>> de::MapAccess<'de> for Limited<'_, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Self::Error> {
        let seed = self.wrap(seed);
        self.inner.next_key_seed(seed)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Self::Error> {
        let seed = self.wrap(seed);
        self.inner.next_value_seed(seed)
    }

    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

impl<'de, 'b, A: de::EnumAccess<'de>> de::EnumAccess<'de> for Limited<'b, A> {
    type Error = A::Error;
    type Variant = Limited<'b, A::Variant>;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self::Variant), Self::Error> {
        let budget = self.budget;
        let (value, variant) = self.inner.variant_seed(Limited { inner: seed, budget })?;
        Ok((value, Limited { inner: variant, budget }))
    }
}

impl<'de, A: de::VariantAccess<'de>> de::VariantAccess<'de> for Limited<'_, A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), Self::Error> {
        self.inner.unit_variant()
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Self::Error> {
        let seed = self.wrap(seed);
        self.inner.newtype_variant_seed(seed)
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, Self::Error> {
        let visitor = self.wrap(visitor);
        self.inner.tuple_variant(len, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(self, fields: &'static [&'static str], visitor: V) -> Result<V::Value, Self::Error> {
        let visitor = self.wrap(visitor);
        self.inner.struct_variant(fields, visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A recursive type, as parry's compound shapes are.
    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    enum Nest {
        Leaf(u32),
        Inner(Vec<(f32, Nest)>),
        Maybe(Option<Box<Nest>>),
    }

    fn nested(depth: usize) -> Nest {
        let mut n = Nest::Leaf(7);
        for i in 0..depth {
            n = if i % 2 == 0 { Nest::Inner(vec![(1.5, n)]) } else { Nest::Maybe(Some(Box::new(n))) };
        }
        n
    }

    #[test]
    fn values_within_the_limit_decode_as_without_it_and_the_rest_is_returned() {
        let value = nested(20);
        let mut bytes = postcard::to_stdvec(&value).unwrap();
        bytes.extend_from_slice(b"tail");
        let (decoded, rest): (Nest, _) = take_from_bytes(&bytes, 128).unwrap();
        assert_eq!(decoded, value);
        assert_eq!(rest, b"tail");
        assert_eq!(postcard::take_from_bytes::<Nest>(&bytes).unwrap().0, decoded);
    }

    #[test]
    fn nesting_past_the_limit_is_an_error_not_a_stack_overflow() {
        // Written by hand, deep enough to overflow any test thread's stack without the limit:
        // Maybe(Some(...)) is variant 2, then the option tag 1, repeated; then a leaf.
        let mut bytes = [2u8, 1].repeat(1_000_000);
        bytes.extend_from_slice(&[0, 7]);
        match take_from_bytes::<Nest>(&bytes, 128) {
            Err(e @ DepthError::TooDeep { .. }) => assert_eq!(e.to_string(), "it nests deeper than 128 levels"),
            other => panic!("expected TooDeep, got {other:?}"),
        }
        // The limit counts levels, not values: a wide value at shallow depth is fine.
        let wide = Nest::Inner((0..10_000).map(|i| (i as f32, Nest::Leaf(i))).collect());
        let bytes = postcard::to_stdvec(&wide).unwrap();
        assert_eq!(take_from_bytes::<Nest>(&bytes, 8).unwrap().0, wide);
        // Malformed input is still the format's own error.
        assert!(matches!(take_from_bytes::<Nest>(&[9], 128), Err(DepthError::Decode(_))));
    }
}
