//! Counting a scene source's tokens before it is compiled.
//!
//! Luau's compiler runs outside the VM's memory limit (its syntax tree and bytecode are C++
//! allocations), and its memory grows with the number of tokens, not bytes: a 31 MiB file of
//! `0,0,0,…` took the process to 2.3 GB. So a source is refused past a token budget sized to
//! what `scene.save` writes for a full world (`MAX_TOKENS_PER_ENTITY` per entity of the world's
//! capacity, plus `BASE_TOKENS`). The count is a deliberate over-estimate (multi-character
//! operators count per character, an interpolated string per byte), so nothing compiles to more
//! than it; comments and whitespace cost nothing. Cold: once per scene read.

/// Tokens a scene may spend outside its entities (format, description, lighting, camera, and
/// room for a hand-written file's locals).
pub const BASE_TOKENS: usize = 16_384;

/// The most tokens `scene.save` prints for one entity (every field set to a negative number
/// where it can be, `MAX_TAGS` tags), rounded up; pinned by a test.
pub const MAX_TOKENS_PER_ENTITY: usize = 192;

/// The token budget of a scene for a world of `capacity` entities.
pub fn budget(capacity: usize) -> usize {
    BASE_TOKENS.saturating_add(capacity.saturating_mul(MAX_TOKENS_PER_ENTITY))
}

/// Counts the tokens of `source`, stopping once the count passes `max`: `Ok(count)` or
/// `Err(count)` (then more than `max`).
pub fn count(source: &[u8], max: usize) -> Result<usize, usize> {
    let mut tokens = 0usize;
    let mut i = 0;
    let n = source.len();
    while i < n {
        if tokens > max {
            return Err(tokens);
        }
        let b = source[i];
        match b {
            b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c => i += 1,
            b'-' if source.get(i + 1) == Some(&b'-') => {
                i += 2;
                match long_bracket(source, i) {
                    Some(level) => i = close_long_bracket(source, i, level),
                    None => i = source[i..].iter().position(|&c| c == b'\n').map_or(n, |p| i + p + 1),
                }
            }
            b'[' if long_bracket(source, i).is_some() => {
                let level = long_bracket(source, i).unwrap_or(0);
                i = close_long_bracket(source, i, level);
                tokens += 1;
            }
            b'"' | b'\'' => {
                i += 1;
                while i < n && source[i] != b && source[i] != b'\n' {
                    i += if source[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                tokens += 1;
            }
            b'`' => {
                // An interpolated string holds expressions: every byte counts.
                let start = i;
                i += 1;
                while i < n && source[i] != b'`' {
                    i += if source[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                tokens += i.min(n) - start;
            }
            _ if b.is_ascii_alphanumeric() || b == b'_' => {
                while i < n && (source[i].is_ascii_alphanumeric() || source[i] == b'_' || (b.is_ascii_digit() && source[i] == b'.')) {
                    i += 1;
                }
                tokens += 1;
            }
            b'.' if source.get(i + 1).is_some_and(u8::is_ascii_digit) => {
                i += 1;
                while i < n && (source[i].is_ascii_alphanumeric() || source[i] == b'_' || source[i] == b'.') {
                    i += 1;
                }
                tokens += 1;
            }
            _ => {
                i += 1;
                tokens += 1;
            }
        }
    }
    if tokens > max { Err(tokens) } else { Ok(tokens) }
}

/// At `i`, `[` followed by `=`* and `[`: the number of `=`.
fn long_bracket(source: &[u8], i: usize) -> Option<usize> {
    if source.get(i) != Some(&b'[') {
        return None;
    }
    let level = source[i + 1..].iter().take_while(|&&c| c == b'=').count();
    (source.get(i + 1 + level) == Some(&b'[')).then_some(level)
}

/// The index after the `]`, `=`*`level`, `]` that closes the long bracket opened at `i` (or the
/// end of the source).
fn close_long_bracket(source: &[u8], i: usize, level: usize) -> usize {
    let mut j = i + level + 2;
    while j < source.len() {
        let equals = source[j + 1..].iter().take(level).take_while(|&&c| c == b'=').count();
        if source[j] == b']' && equals == level && source.get(j + 1 + level) == Some(&b']') {
            return j + level + 2;
        }
        j += 1;
    }
    source.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_counted_and_comments_and_strings_are_not_split() {
        assert_eq!(count(b"return { 0, 0, 0 }", 100), Ok(8));
        assert_eq!(count(b"-- a comment { { {\nreturn 1", 100), Ok(2));
        assert_eq!(count(b"--[==[ long { { ]] still ]==] x", 100), Ok(1));
        assert_eq!(count(b"x = \"a { b \\\" c\" .. 'd'", 100), Ok(6));
        assert_eq!(count(b"[[ { } ]] 0x1F 1.5e3 .5", 100), Ok(4));
        assert_eq!(count(b"`{a}{b}`", 100), Ok(8), "an interpolated string counts every byte");
        assert_eq!(count("{0,".repeat(1000).as_bytes(), 50), Err(51), "counting stops past the limit");
    }

    /// The heaviest entity `scene.save` can print: every optional field, negative numbers
    /// (a `-` is a token of its own), the longest decimals, `MAX_TAGS` tags.
    fn heaviest_entity() -> crate::scenes::SceneEntity {
        use crate::scenes::{Look, Rotation, SceneBody, SceneEntity};
        let n = -1.234_567_9e-7_f32;
        SceneEntity {
            id: Some(crate::world::EntityId(65_536)),
            look: Look::Model("models/crate.glb".into()),
            size: 0.123_456_79,
            color: 0x123456,
            position: [n; 3],
            rotation: Some(Rotation::Quaternion([n, n, n, 0.999_999_9])),
            scale: Some([0.123_456_79; 3]),
            material: Some(crate::world::Material {
                roughness: 0.123_456_79,
                metalness: 0.123_456_79,
                cast_shadow: false,
                receive_shadow: false,
            }),
            tags: (0..crate::world::MAX_TAGS).map(|i| format!("t{i}")).collect(),
            body: Some(SceneBody {
                kind: crate::physics::BodyKind::Dynamic,
                collider: Some(crate::world::ColliderKind::Capsule),
                friction: 0.123_456_79,
                restitution: 0.123_456_79,
            }),
        }
    }

    #[test]
    fn the_per_entity_budget_covers_the_heaviest_entity_a_save_prints() {
        let scene = |entities| crate::scenes::Scene { description: None, entities, lighting: None, camera: None };
        let empty = count(crate::scenes::to_luau(&scene(Vec::new())).as_bytes(), usize::MAX).unwrap();
        let one = count(crate::scenes::to_luau(&scene(vec![heaviest_entity()])).as_bytes(), usize::MAX).unwrap();
        let per_entity = one - empty;
        assert!(per_entity <= MAX_TOKENS_PER_ENTITY, "{per_entity} tokens for one entity");
        assert!(per_entity * 5 / 4 >= MAX_TOKENS_PER_ENTITY, "{per_entity} tokens for one entity: the budget is loose");
        let lit = crate::scenes::Scene { lighting: Some(Default::default()), camera: Some(Default::default()), ..scene(Vec::new()) };
        assert!(count(crate::scenes::to_luau(&lit).as_bytes(), usize::MAX).unwrap() < BASE_TOKENS / 8);
    }
}
