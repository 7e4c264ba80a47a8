//! The glyph atlas: every glyph bitmap the UI text draws, rasterized once by cosmic-text's
//! swash cache into one single-channel texture packed with etagere. Text blocks hold their
//! glyphs' places for as long as their glyph instances exist (a reference count per glyph), so
//! an entry is never moved or evicted under a block that still draws it; unreferenced glyphs
//! stay cached until the space is needed. The texture starts small and doubles (keeping every
//! glyph where it is) up to `MAX_SIDE`.
//!
//! Hot path: `acquire` when a block is laid out (a hash lookup per glyph; rasterizing only the
//! first time a glyph is seen at a size and subpixel offset). Nothing here runs on a frame where
//! text merely moves.

use cosmic_text::{CacheKey, FontSystem, SwashCache, SwashContent};
use etagere::{BucketedAtlasAllocator, size2};

/// The first texture side, texels (64 KiB): enough for a screenful of one font size.
const FIRST_SIDE: u32 = 256;
/// The largest texture side, texels (16 MiB): far more than a frame of UI text needs, and a
/// bound on what hostile text at many sizes can make the atlas hold.
const MAX_SIDE: u32 = 4096;
/// Empty texels around each glyph, so bilinear sampling of a scaled glyph never reads its
/// neighbour's edge.
const PAD: u32 = 1;

/// Why a glyph could not be placed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub(crate) enum AtlasError {
    #[error(
        "the glyph atlas is full at {side}x{side} texels with {held} glyphs held by text on screen; a {width}x{height} glyph does not fit"
    )]
    Full { side: u32, held: usize, width: u32, height: u32 },
}

/// Where a glyph's bitmap is in the atlas and how it sits against its pen position.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct AtlasGlyph {
    /// Top-left texel of the bitmap (inside the padding).
    pub uv: [u16; 2],
    pub size: [u16; 2],
    /// Bitmap offset from the pen position: right, and up (swash's placement).
    pub left: i32,
    pub top: i32,
}

#[derive(Debug)]
struct Entry {
    /// None for a glyph with no pixels (a space) or that could not be rasterized.
    glyph: Option<AtlasGlyph>,
    alloc: Option<etagere::AllocId>,
    /// Text blocks' glyph instances drawing it.
    refs: u32,
}

/// What the atlas holds (for the benchmark).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct AtlasStats {
    pub glyphs: usize,
    /// Bytes of the glyph bitmaps held (without padding).
    pub glyph_bytes: usize,
    pub side: u32,
    /// Bytes of the texture.
    pub texture_bytes: usize,
}

pub(crate) struct GlyphAtlas {
    texture: wgpu::Texture,
    view: wgpu::TextureView,
    side: u32,
    max_side: u32,
    packer: BucketedAtlasAllocator,
    entries: rustc_hash::FxHashMap<CacheKey, Entry>,
    swash: SwashCache,
    /// A padded bitmap being uploaded (reused).
    scratch: Vec<u8>,
    /// Bumped when the texture is replaced, so bind groups over it are rebuilt.
    generation: u64,
    /// Glyphs rasterized since `begin_frame`.
    rasterized: usize,
}

impl std::fmt::Debug for GlyphAtlas {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GlyphAtlas").field("side", &self.side).field("glyphs", &self.entries.len()).finish()
    }
}

fn texture(device: &wgpu::Device, side: u32) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some("ui glyph atlas"),
        size: wgpu::Extent3d { width: side, height: side, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::R8Unorm,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    })
}

impl GlyphAtlas {
    pub fn new(device: &wgpu::Device) -> Self {
        Self::with_max_side(device, MAX_SIDE)
    }

    fn with_max_side(device: &wgpu::Device, max_side: u32) -> Self {
        let max_side = max_side.min(device.limits().max_texture_dimension_2d);
        let side = FIRST_SIDE.min(max_side);
        let texture = texture(device, side);
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        Self {
            texture,
            view,
            side,
            max_side,
            packer: BucketedAtlasAllocator::new(size2(side as i32, side as i32)),
            entries: rustc_hash::FxHashMap::default(),
            swash: SwashCache::new(),
            scratch: Vec::new(),
            generation: 0,
            rasterized: 0,
        }
    }

    pub fn begin_frame(&mut self) {
        self.rasterized = 0;
    }

    /// Glyphs rasterized this frame: the costly part of laying text out (hinting alone is
    /// ~10-20 µs a glyph here).
    pub fn rasterized(&self) -> usize {
        self.rasterized
    }

    pub fn view(&self) -> &wgpu::TextureView {
        &self.view
    }

    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The glyph for `key`, rasterized and uploaded the first time, and held (one reference)
    /// until `release`. None for a glyph with nothing to draw (not held: do not release it).
    pub fn acquire(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        fonts: &mut FontSystem,
        key: CacheKey,
    ) -> Result<Option<AtlasGlyph>, AtlasError> {
        if let Some(entry) = self.entries.get_mut(&key) {
            if entry.glyph.is_some() {
                entry.refs += 1;
            }
            return Ok(entry.glyph);
        }
        self.rasterized += 1;
        let Some(image) = self.swash.get_image_uncached(fonts, key) else {
            self.entries.insert(key, Entry { glyph: None, alloc: None, refs: 0 });
            return Ok(None);
        };
        let (w, h) = (image.placement.width, image.placement.height);
        if w == 0 || h == 0 || w > u32::from(u16::MAX) || h > u32::from(u16::MAX) {
            self.entries.insert(key, Entry { glyph: None, alloc: None, refs: 0 });
            return Ok(None);
        }
        let (pw, ph) = (w + 2 * PAD, h + 2 * PAD);
        let alloc = self.allocate(device, queue, pw, ph)?;
        // Coverage only: DejaVu has no colour glyphs, but a colour bitmap still draws by its alpha.
        let channels = match image.content {
            SwashContent::Mask => 1,
            SwashContent::Color | SwashContent::SubpixelMask => 4,
        };
        self.scratch.clear();
        self.scratch.resize((pw * ph) as usize, 0);
        for y in 0..h as usize {
            for x in 0..w as usize {
                let texel = (y * w as usize + x) * channels + channels - 1;
                let value = image.data.get(texel).copied().unwrap_or(0);
                self.scratch[(y + PAD as usize) * pw as usize + x + PAD as usize] = value;
            }
        }
        let min = alloc.rectangle.min;
        queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture: &self.texture,
                mip_level: 0,
                origin: wgpu::Origin3d { x: min.x as u32, y: min.y as u32, z: 0 },
                aspect: wgpu::TextureAspect::All,
            },
            &self.scratch,
            wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(pw), rows_per_image: None },
            wgpu::Extent3d { width: pw, height: ph, depth_or_array_layers: 1 },
        );
        let glyph = AtlasGlyph {
            uv: [(min.x as u32 + PAD) as u16, (min.y as u32 + PAD) as u16],
            size: [w as u16, h as u16],
            left: image.placement.left,
            top: image.placement.top,
        };
        self.entries.insert(key, Entry { glyph: Some(glyph), alloc: Some(alloc.id), refs: 1 });
        Ok(Some(glyph))
    }

    /// Drops one hold on a glyph `acquire` returned; the glyph stays cached until its space is needed.
    pub fn release(&mut self, key: &CacheKey) {
        if let Some(entry) = self.entries.get_mut(key) {
            entry.refs = entry.refs.saturating_sub(1);
        }
    }

    /// A place for a `width` x `height` rectangle: free space, else the space of glyphs no text
    /// holds, else a texture twice the side.
    fn allocate(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, width: u32, height: u32) -> Result<etagere::Allocation, AtlasError> {
        let size = size2(width as i32, height as i32);
        if let Some(a) = self.packer.allocate(size) {
            return Ok(a);
        }
        self.evict_unheld();
        if let Some(a) = self.packer.allocate(size) {
            return Ok(a);
        }
        while self.side < self.max_side {
            self.grow(device, queue);
            if let Some(a) = self.packer.allocate(size) {
                return Ok(a);
            }
        }
        Err(AtlasError::Full { side: self.side, held: self.entries.len(), width, height })
    }

    /// Frees every glyph no text block holds. Scans all entries, so it runs only when the
    /// texture is full.
    fn evict_unheld(&mut self) {
        let packer = &mut self.packer;
        self.entries.retain(|_, entry| {
            if entry.refs > 0 {
                return true;
            }
            if let Some(id) = entry.alloc {
                packer.deallocate(id);
            }
            false
        });
    }

    /// Doubles the texture side, copying the glyphs over on the GPU so they keep their places.
    fn grow(&mut self, device: &wgpu::Device, queue: &wgpu::Queue) {
        let side = (self.side * 2).min(self.max_side);
        let bigger = texture(device, side);
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("ui glyph atlas grow") });
        encoder.copy_texture_to_texture(
            self.texture.as_image_copy(),
            bigger.as_image_copy(),
            wgpu::Extent3d { width: self.side, height: self.side, depth_or_array_layers: 1 },
        );
        // Uploads already staged into the old texture run before this copy: a submission
        // executes the queue's pending writes first.
        queue.submit([encoder.finish()]);
        self.packer.grow(size2(side as i32, side as i32));
        self.view = bigger.create_view(&wgpu::TextureViewDescriptor::default());
        self.texture = bigger;
        self.side = side;
        self.generation += 1;
    }

    pub fn stats(&self) -> AtlasStats {
        let held = self.entries.values().filter_map(|e| e.glyph);
        let (glyphs, glyph_bytes) = held.fold((0, 0), |(n, bytes), g| (n + 1, bytes + usize::from(g.size[0]) * usize::from(g.size[1])));
        AtlasStats { glyphs, glyph_bytes, side: self.side, texture_bytes: (self.side * self.side) as usize }
    }

    /// References held on `key` (tests).
    #[cfg(test)]
    pub fn refs(&self, key: &CacheKey) -> u32 {
        self.entries.get(key).map_or(0, |e| e.refs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::overlay::glyphs::tests::device;

    /// The cache key of `c` in the bundled font at `px` pixels.
    fn key(fonts: &mut FontSystem, c: &str, px: f32) -> CacheKey {
        let mut buffer = cosmic_text::Buffer::new(fonts, cosmic_text::Metrics::new(px, px));
        buffer.set_text(c, &cosmic_text::Attrs::new(), cosmic_text::Shaping::Advanced, None);
        buffer.shape_until_scroll(fonts, false);
        buffer.layout_runs().next().unwrap().glyphs[0].physical((0.0, 0.0), 1.0).cache_key
    }

    #[test]
    fn held_glyphs_keep_their_place_and_unheld_ones_make_room() {
        let Some((device, queue)) = device() else { return };
        let mut fonts = crate::render::overlay::TextShaper::new();
        let (fonts, _) = fonts.split();
        let mut atlas = GlyphAtlas::with_max_side(&device, 256);
        let held = key(fonts, "W", 120.0);
        let first = atlas.acquire(&device, &queue, fonts, held).unwrap().unwrap();
        assert_eq!(atlas.acquire(&device, &queue, fonts, held).unwrap(), Some(first), "cached: the same place");
        assert_eq!(atlas.refs(&held), 2);
        atlas.release(&held);
        // Big glyphs, each released at once: more than the texture holds together.
        for c in ["A", "B", "C", "D", "E", "F", "G", "H"] {
            let k = key(fonts, c, 120.0);
            assert!(atlas.acquire(&device, &queue, fonts, k).unwrap().is_some(), "{c} fits once unheld glyphs are evicted");
            atlas.release(&k);
        }
        assert_eq!(atlas.acquire(&device, &queue, fonts, held).unwrap(), Some(first), "the held glyph was not moved");
        assert_eq!(atlas.refs(&held), 2);
        let space = key(fonts, " ", 120.0);
        assert_eq!(atlas.acquire(&device, &queue, fonts, space).unwrap(), None, "nothing to draw for a space");
    }

    /// The texture's texels in `rect` (x, y, width, height), read back from the GPU.
    fn read(device: &wgpu::Device, queue: &wgpu::Queue, atlas: &GlyphAtlas, [x, y, w, h]: [u32; 4]) -> Vec<u8> {
        let row = w.div_ceil(256) * 256;
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: u64::from(row * h),
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        let mut encoder = device.create_command_encoder(&Default::default());
        encoder.copy_texture_to_buffer(
            wgpu::TexelCopyTextureInfo { origin: wgpu::Origin3d { x, y, z: 0 }, ..atlas.texture.as_image_copy() },
            wgpu::TexelCopyBufferInfo {
                buffer: &buffer,
                layout: wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(row), rows_per_image: None },
            },
            wgpu::Extent3d { width: w, height: h, depth_or_array_layers: 1 },
        );
        queue.submit([encoder.finish()]);
        buffer.slice(..).map_async(wgpu::MapMode::Read, |r| r.unwrap());
        device.poll(wgpu::PollType::Wait { submission_index: None, timeout: None }).unwrap();
        let data = buffer.slice(..).get_mapped_range().unwrap();
        (0..h).flat_map(|r| data[(r * row) as usize..(r * row + w) as usize].to_vec()).collect()
    }

    #[test]
    fn growing_keeps_every_glyph_where_it_was() {
        let Some((device, queue)) = device() else { return };
        let mut fonts = crate::render::overlay::TextShaper::new();
        let (fonts, _) = fonts.split();
        let mut atlas = GlyphAtlas::with_max_side(&device, 1024);
        let w = key(fonts, "W", 120.0);
        let first = atlas.acquire(&device, &queue, fonts, w).unwrap().unwrap();
        let rect = [u32::from(first.uv[0]), u32::from(first.uv[1]), u32::from(first.size[0]), u32::from(first.size[1])];
        let pixels = read(&device, &queue, &atlas, rect);
        assert!(pixels.iter().any(|&p| p > 200), "the glyph is in the texture");
        // All held, so the texture has to grow.
        for c in ["A", "B", "C", "D", "E", "F", "G", "H", "K", "M", "N", "O"] {
            let k = key(fonts, c, 120.0);
            atlas.acquire(&device, &queue, fonts, k).unwrap().unwrap();
        }
        assert!(atlas.stats().side > 256 && atlas.generation() > 0, "{:?}", atlas.stats());
        assert_eq!(read(&device, &queue, &atlas, rect), pixels, "copied over to the bigger texture, in place");
    }

    #[test]
    fn a_glyph_larger_than_the_atlas_says_so() {
        let Some((device, queue)) = device() else { return };
        let mut fonts = crate::render::overlay::TextShaper::new();
        let (fonts, _) = fonts.split();
        let mut atlas = GlyphAtlas::with_max_side(&device, 256);
        let huge = key(fonts, "W", 400.0);
        let err = atlas.acquire(&device, &queue, fonts, huge).unwrap_err();
        let AtlasError::Full { side, width, .. } = err.clone();
        assert_eq!(side, 256);
        assert!(width > 256, "{err}");
        assert!(err.to_string().contains("256x256"), "{err}");
    }
}
