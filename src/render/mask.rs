//! Entity masks: a capture in which every entity is one flat colour (no light, sky, shadow or
//! UI), and the count of the pixels each one covers. An agent learns which of its entities a
//! view shows and how much of the frame each fills; the viewer's test compares the native and
//! the browser renderers object by object (mask IoU, as the original engine's design gate did).
//!
//! The colour is a function of the entity id alone (`color_of`), so any renderer paints the same
//! colours without being told them (`web/viewer/viewer.js` has the same function, pinned by
//! `browser_and_native_agree_on_colours`). An id's low 18 bits are scrambled by an odd multiplier
//! (a bijection, so neighbouring ids get unrelated colours) and spread over the three channels,
//! six bits each, at the centre of a four-value bucket. A pixel counts only when every channel
//! lies within one of a bucket's centre and the colour is a drawn entity's: an anti-aliased edge,
//! where two colours blend, lands on one of N drawn entities' colours about 0.42·N/2^18 of the
//! time, so edges are left out of the masks rather than given to the wrong entity. Black (the
//! background) never counts.

use std::collections::HashMap;

use crate::world::EntityId;

/// Bits of an id a mask colour tells apart: ids equal modulo 2^18 share a colour.
const KEY_BITS: u32 = 18;
/// Scrambles keys so that ids 1, 2, 3 get far-apart colours; odd, so a bijection mod 2^18.
const SCRAMBLE: u64 = 0x2F6B1;
/// A decoded channel may be this far from its bucket's centre (sRGB round trips move it by one).
const TOLERANCE: u8 = 1;

/// The flat colour (0xRRGGBB, sRGB) entity `id` is painted in a mask.
pub fn color_of(id: EntityId) -> u32 {
    let key = (id.0.wrapping_mul(SCRAMBLE) & ((1 << KEY_BITS) - 1)) as u32;
    let channel = |shift: u32| ((key >> shift) & 63) * 4 + 2;
    (channel(12) << 16) | (channel(6) << 8) | channel(0)
}

/// The colour a pixel decodes to, when it is a mask colour (every channel within `TOLERANCE` of
/// a bucket centre); None for the background and blended edges.
fn decode(r: u8, g: u8, b: u8) -> Option<u32> {
    let bucket = |c: u8| {
        let centre = (c / 4) * 4 + 2;
        (c.abs_diff(centre) <= TOLERANCE).then_some(u32::from(centre))
    };
    let color = (bucket(r)? << 16) | (bucket(g)? << 8) | bucket(b)?;
    // Black's nearest bucket centre is 0x020202: a blend of it with the background is not an entity.
    (color != 0x020202).then_some(color)
}

/// One entity as a mask shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MaskEntry {
    pub entity: EntityId,
    /// Its flat colour (0xRRGGBB).
    pub color: u32,
    /// Pixels showing it (edges that blend with a neighbour are not counted).
    pub pixels: u32,
    /// The smallest box holding those pixels: left, top, right, bottom (inclusive), from the top left.
    pub bounds: [u32; 4],
}

/// Reads `rgba` (`width` x `height`, rows from the top) for the colours of `drawn` entities:
/// each one seen, most pixels first (ties by id). Colours no drawn entity has (a key shared by
/// two drawn ids goes to the first) are ignored.
pub fn read(rgba: &[u8], width: u32, height: u32, drawn: &[EntityId]) -> Vec<MaskEntry> {
    let mut by_color: HashMap<u32, usize> = HashMap::with_capacity(drawn.len());
    let mut entries: Vec<MaskEntry> = Vec::with_capacity(drawn.len());
    for &entity in drawn {
        let color = color_of(entity);
        by_color.entry(color).or_insert_with(|| {
            entries.push(MaskEntry { entity, color, pixels: 0, bounds: [u32::MAX, u32::MAX, 0, 0] });
            entries.len() - 1
        });
    }
    let mut last: Option<(u32, usize)> = None;
    for (i, px) in rgba.chunks_exact(4).take(width as usize * height as usize).enumerate() {
        let Some(color) = decode(px[0], px[1], px[2]) else { continue };
        // Runs of one colour are the common case: skip the map for them.
        let slot = match last {
            Some((c, slot)) if c == color => slot,
            _ => match by_color.get(&color) {
                Some(&slot) => {
                    last = Some((color, slot));
                    slot
                }
                None => continue,
            },
        };
        let (x, y) = ((i as u32) % width, (i as u32) / width);
        let e = &mut entries[slot];
        e.pixels += 1;
        e.bounds = [e.bounds[0].min(x), e.bounds[1].min(y), e.bounds[2].max(x), e.bounds[3].max(y)];
    }
    entries.retain(|e| e.pixels > 0);
    entries.sort_by(|a, b| b.pixels.cmp(&a.pixels).then(a.entity.0.cmp(&b.entity.0)));
    entries
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_colour_decodes_to_itself_and_black_to_nothing() {
        for n in 0..5000u64 {
            let c = color_of(EntityId(n));
            let [_, r, g, b] = c.to_be_bytes();
            assert_eq!(decode(r, g, b), (n % (1 << KEY_BITS) != 0).then_some(c), "ent {n}");
            // One step either way (an sRGB round trip) still decodes.
            assert_eq!(decode(r + 1, g - 1, b), decode(r, g, b));
        }
        assert_eq!(decode(0, 0, 0), None);
        assert_eq!(decode(1, 1, 1), None);
    }

    #[test]
    fn ids_below_the_key_space_never_share_a_colour() {
        let mut seen = std::collections::HashSet::new();
        for n in 1..(1u64 << KEY_BITS) {
            assert!(seen.insert(color_of(EntityId(n))), "ent {n} repeats a colour");
        }
    }

    #[test]
    fn browser_and_native_agree_on_colours() {
        // web/viewer/viewer.js `maskColor` is checked against these in tests/node/compare.test.mjs.
        let pinned: Vec<String> = [1u64, 2, 3, 42, 1000, 262_145].iter().map(|&n| format!("{:06x}", color_of(EntityId(n)))).collect();
        assert_eq!(pinned, ["be6ac6", "7ad68a", "3a424e", "1e922a", "ea36a2", "be6ac6"]);
    }

    #[test]
    fn pixels_count_per_entity_with_bounds_and_blends_left_out() {
        let (a, b) = (EntityId(7), EntityId(9));
        let [_, ar, ag, ab] = color_of(a).to_be_bytes();
        let [_, br, bg, bb] = color_of(b).to_be_bytes();
        // 4 x 2: a a b blend / a bg b b
        let px: [[u8; 4]; 8] = [
            [ar, ag, ab, 255],
            [ar, ag, ab, 255],
            [br, bg, bb, 255],
            [ar / 2 + br / 2, 132, 76, 255],
            [ar, ag, ab, 255],
            [0, 0, 0, 255],
            [br, bg, bb, 255],
            [br, bg, bb, 255],
        ];
        let rgba: Vec<u8> = px.concat();
        let masks = read(&rgba, 4, 2, &[b, a, EntityId(11)]);
        assert_eq!(
            masks,
            vec![
                MaskEntry { entity: a, color: color_of(a), pixels: 3, bounds: [0, 0, 1, 1] },
                MaskEntry { entity: b, color: color_of(b), pixels: 3, bounds: [2, 0, 3, 1] },
            ]
        );
    }
}
