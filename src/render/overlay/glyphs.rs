//! UI text on the GPU: each text block (an element's body or title) is turned into glyph
//! instances once, when its shaping changes, and kept in one persistent instance buffer; a frame
//! then only writes one small record per visible block (where its origin is, how much to scale
//! its glyphs, its opacity, its clip rectangle and the typewriter's hidden characters), and one
//! instanced draw places every glyph by its block's record. So labels that merely move, fade or
//! reveal upload a record each, never their glyphs, and text is one draw call however many
//! blocks there are.
//!
//! Glyphs are rasterized (in `atlas`) at the scale the block was laid out at. A world label's
//! scale changes with its distance; its glyphs are stretched by the ratio meanwhile (bilinear,
//! so slightly soft) and laid out again at the exact scale when the ratio passes `RESCALE` or
//! the scale holds still for a frame, within a per-frame glyph budget. At rest every block is
//! drawn at ratio 1, texel for pixel: the same image in the window and in a headless capture.
//!
//! Owns the text pipeline, the glyph atlas, the instance pool and the block table; reads the
//! shaper's cache and the frame's placements; touches nothing else. Hot: `prepare` (three hash
//! lookups and one 48-byte record per visible block when nothing was reshaped).

use std::ops::Range;

use bytemuck::{Pod, Zeroable};
use cosmic_text::{Buffer, CacheKey, FontSystem};

use super::atlas::{AtlasError, AtlasStats, GlyphAtlas};
use super::layout::TextPlacement;
use super::text::ShapedTexts;
use crate::render::scene::UiItem;

/// A block's glyphs are laid out again once its scale is this factor away from the scale they
/// were rasterized at (6%: past that the stretched bitmaps look soft).
const RESCALE: f32 = 1.06;
/// Glyphs laid out again per frame for scale changes alone, and glyphs rasterized for them (new
/// and reshaped text is not held back: shaping has its own budget). A camera dolly rescales
/// every label at once; this spreads the work over frames, the rest drawing stretched meanwhile.
/// Rasterizing is the dear part (~15 µs a glyph, mostly hinting): 256 is about 4 ms.
const RESCALE_GLYPHS: usize = 4096;
const RESCALE_RASTERS: usize = 256;
/// Steps per doubling of the grid of sizes moving text is rasterized at (4.4% apart, so a
/// snapped block starts within 2.2% of its true size).
const SNAP_STEPS: f32 = 16.0;
/// A block not placed for this many frames gives its glyphs back (its element went away or
/// stayed off screen).
const IDLE_FRAMES: u64 = 120;
/// Record 0 is never a block's: freed instances point at it, and it stays zero (not drawn).
const DEAD_BLOCK: u32 = 0;

/// One glyph of one block: a bitmap in the atlas and where it sits from its block's origin.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub(crate) struct GlyphInstance {
    /// Bitmap top-left from the block's origin, pixels at the block's raster scale.
    pub rel: [i16; 2],
    pub size: [u16; 2],
    /// Bitmap top-left in the atlas, texels.
    pub uv: [u16; 2],
    /// sRGB bytes, straight alpha.
    pub color: [u8; 4],
    pub block: u32,
    /// The glyph's first character as a char index of the block's text (the typewriter hides
    /// glyphs by this).
    pub char_index: u32,
}

const INSTANCE_ATTRIBUTES: [wgpu::VertexAttribute; 5] =
    wgpu::vertex_attr_array![0 => Sint16x2, 1 => Uint16x4, 2 => Unorm8x4, 3 => Uint32, 4 => Uint32];

/// What a frame says about one block (the shader's `Block`).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub(crate) struct BlockRecord {
    /// Screen pixel of the block's origin (its layout's top-left).
    pub origin: [f32; 2],
    /// Screen pixels per raster pixel: the block's scale now over the scale it was laid out at.
    pub ratio: f32,
    /// Multiplies the glyphs' alpha; 0 draws nothing (a block not on screen this frame).
    pub opacity: f32,
    /// left, top, right, bottom, screen pixels
    pub clip: [f32; 4],
    /// Glyphs whose char index is in start..end are not drawn.
    pub hidden: [u32; 2],
    pub _pad: [u32; 2],
}

/// A block's glyphs as they are in the pool.
#[derive(Debug)]
struct Block {
    /// Its record's index.
    id: u32,
    /// The shaping its glyphs came from.
    generation: u64,
    raster_scale: f32,
    /// Its scale on the last frame it was placed (still for a frame: rasterize exactly).
    last_scale: f32,
    range: Range<u32>,
    /// The atlas glyphs it holds, one per instance.
    keys: Vec<CacheKey>,
    last_frame: u64,
}

/// The persistent glyph instances: a range per block, freed ranges reused first-fit, and the
/// CPU copy the GPU buffer is updated from (only changed ranges are written).
#[derive(Debug, Default)]
struct InstancePool {
    mirror: Vec<GlyphInstance>,
    /// Free ranges inside `mirror`, sorted and coalesced.
    free: Vec<Range<u32>>,
    live: u32,
    dirty: Vec<Range<u32>>,
    /// The whole buffer must be written (it was regrown or compacted).
    all_dirty: bool,
}

impl InstancePool {
    fn alloc(&mut self, glyphs: &[GlyphInstance]) -> Range<u32> {
        let n = glyphs.len() as u32;
        if n == 0 {
            return 0..0;
        }
        self.live += n;
        let range = match self.free.iter().position(|f| f.len() as u32 >= n) {
            Some(i) => {
                let start = self.free[i].start;
                self.free[i].start += n;
                if self.free[i].is_empty() {
                    self.free.remove(i);
                }
                start..start + n
            }
            None => {
                let start = self.mirror.len() as u32;
                self.mirror.resize(self.mirror.len() + n as usize, GlyphInstance::zeroed());
                start..start + n
            }
        };
        self.mirror[range.start as usize..range.end as usize].copy_from_slice(glyphs);
        self.dirty.push(range.clone());
        range
    }

    fn free(&mut self, range: Range<u32>) {
        if range.is_empty() {
            return;
        }
        self.live -= range.len() as u32;
        // Zeroed instances belong to the dead block: drawn as nothing until reused.
        self.mirror[range.start as usize..range.end as usize].fill(GlyphInstance::zeroed());
        self.dirty.push(range.clone());
        let at = self.free.partition_point(|f| f.start < range.start);
        self.free.insert(at, range);
        if at + 1 < self.free.len() && self.free[at].end == self.free[at + 1].start {
            self.free[at].end = self.free.remove(at + 1).end;
        }
        if at > 0 && self.free[at - 1].end == self.free[at].start {
            self.free[at - 1].end = self.free.remove(at).end;
        }
        // A free tail is not drawn at all.
        if self.free.last().is_some_and(|f| f.end as usize == self.mirror.len()) {
            let tail = self.free.pop().expect("checked above");
            self.mirror.truncate(tail.start as usize);
        }
    }

    /// Worth compacting: more than half the drawn instances are holes.
    fn fragmented(&self) -> bool {
        self.mirror.len() > 4096 && (self.live as usize) * 2 < self.mirror.len()
    }

    /// The dirty ranges as few writes: nearby ranges merged, and one span when there are many.
    fn take_writes(&mut self, out: &mut Vec<Range<u32>>) {
        out.clear();
        let len = self.mirror.len() as u32;
        if self.all_dirty {
            self.all_dirty = false;
            self.dirty.clear();
            if len > 0 {
                out.push(0..len);
            }
            return;
        }
        self.dirty.sort_by_key(|r| r.start);
        for r in self.dirty.drain(..) {
            let r = r.start.min(len)..r.end.min(len);
            if r.is_empty() {
                continue;
            }
            match out.last_mut() {
                // A small gap costs less to rewrite than another write call.
                Some(last) if r.start <= last.end + 64 => last.end = last.end.max(r.end),
                _ => out.push(r),
            }
        }
        if out.len() > 32 {
            let span = out[0].start..out[out.len() - 1].end;
            out.clear();
            out.push(span);
        }
    }
}

/// What the text layer holds and did on its last frame (for the benchmark).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct TextStats {
    pub atlas: AtlasStats,
    /// Glyph instances drawn (holes included) and live.
    pub instances: usize,
    pub live_instances: usize,
    /// Bytes of the instance buffer's drawn part.
    pub instance_bytes: usize,
    /// Blocks laid out (glyphs rebuilt) on the last frame, and bytes written to the GPU for text.
    pub blocks_laid_out: usize,
    pub upload_bytes: usize,
}

pub(crate) struct TextLayer {
    pipeline: wgpu::RenderPipeline,
    layout: wgpu::BindGroupLayout,
    screen: wgpu::Buffer,
    sampler: wgpu::Sampler,
    group: wgpu::BindGroup,
    /// The atlas generation the bind group was made for.
    bound_atlas: u64,
    atlas: GlyphAtlas,
    instances: wgpu::Buffer,
    instance_capacity: usize,
    records_buffer: wgpu::Buffer,
    record_capacity: usize,
    pool: InstancePool,
    /// Blocks by element handle: body (0) and title (1).
    blocks: rustc_hash::FxHashMap<String, [Option<Block>; 2]>,
    records: Vec<BlockRecord>,
    free_ids: Vec<u32>,
    frame: u64,
    /// Scratch: one block's instances, and the write ranges of a frame.
    scratch: Vec<GlyphInstance>,
    writes: Vec<Range<u32>>,
    line_chars: LineChars,
    /// Instances to draw this frame (0: no draw).
    draw_count: u32,
    stats: TextStats,
}

impl std::fmt::Debug for TextLayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TextLayer").field("blocks", &self.blocks.len()).field("instances", &self.pool.mirror.len()).finish()
    }
}

fn instance_buffer(device: &wgpu::Device, capacity: usize) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("ui glyph instances"),
        size: (capacity * std::mem::size_of::<GlyphInstance>()) as u64,
        usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

fn records_buffer(device: &wgpu::Device, capacity: usize) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("ui text blocks"),
        size: (capacity * std::mem::size_of::<BlockRecord>()) as u64,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

impl TextLayer {
    /// `screen` is the overlay's uniform holding the target size in pixels.
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat, screen: &wgpu::Buffer) -> Self {
        let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("ui text"),
            source: wgpu::ShaderSource::Wgsl(include_str!("text.wgsl").into()),
        });
        let entry = |binding, visibility, ty| wgpu::BindGroupLayoutEntry { binding, visibility, ty, count: None };
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("ui text"),
            entries: &[
                entry(
                    0,
                    wgpu::ShaderStages::VERTEX,
                    wgpu::BindingType::Buffer { ty: wgpu::BufferBindingType::Uniform, has_dynamic_offset: false, min_binding_size: None },
                ),
                entry(
                    1,
                    wgpu::ShaderStages::VERTEX,
                    wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Storage { read_only: true },
                        has_dynamic_offset: false,
                        min_binding_size: None,
                    },
                ),
                entry(
                    2,
                    wgpu::ShaderStages::VERTEX | wgpu::ShaderStages::FRAGMENT,
                    wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Float { filterable: true },
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                ),
                entry(3, wgpu::ShaderStages::FRAGMENT, wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering)),
            ],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("ui text"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("ui text"),
            layout: Some(&pipeline_layout),
            vertex: wgpu::VertexState {
                module: &shader,
                entry_point: Some("vs"),
                compilation_options: Default::default(),
                buffers: &[Some(wgpu::VertexBufferLayout {
                    array_stride: std::mem::size_of::<GlyphInstance>() as u64,
                    step_mode: wgpu::VertexStepMode::Instance,
                    attributes: &INSTANCE_ATTRIBUTES,
                })],
            },
            fragment: Some(wgpu::FragmentState {
                module: &shader,
                entry_point: Some("fs"),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format,
                    blend: Some(wgpu::BlendState::ALPHA_BLENDING),
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            primitive: wgpu::PrimitiveState { topology: wgpu::PrimitiveTopology::TriangleStrip, ..Default::default() },
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            multiview_mask: None,
            cache: None,
        });
        // Bilinear: at ratio 1 every pixel samples a texel centre (the same as nearest); a
        // stretched block blends instead of dropping texels.
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("ui glyph atlas"),
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            ..Default::default()
        });
        let atlas = GlyphAtlas::new(device);
        let instance_capacity = 1024;
        let record_capacity = 64;
        let records_buffer = records_buffer(device, record_capacity);
        let group = bind_group(device, &layout, screen, &records_buffer, atlas.view(), &sampler);
        Self {
            pipeline,
            layout,
            screen: screen.clone(),
            sampler,
            group,
            bound_atlas: atlas.generation(),
            atlas,
            instances: instance_buffer(device, instance_capacity),
            instance_capacity,
            records_buffer,
            record_capacity,
            pool: InstancePool::default(),
            blocks: rustc_hash::FxHashMap::default(),
            records: vec![BlockRecord::zeroed(); DEAD_BLOCK as usize + 1],
            free_ids: Vec::new(),
            frame: 0,
            scratch: Vec::new(),
            writes: Vec::new(),
            line_chars: LineChars::default(),
            draw_count: 0,
            stats: TextStats::default(),
        }
    }

    /// Places this frame's text blocks (`texts`, for `items`), laying out the glyphs of blocks
    /// whose shaping or scale changed, and uploads what changed. Returns whether text is drawn.
    pub fn prepare(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        fonts: &mut FontSystem,
        shapes: &ShapedTexts,
        items: &[UiItem],
        texts: &[TextPlacement],
    ) -> bool {
        self.frame += 1;
        self.records.fill(BlockRecord::zeroed());
        self.atlas.begin_frame();
        let mut rescale_glyphs = RESCALE_GLYPHS;
        let mut laid_out = 0;
        let mut any = false;
        for t in texts {
            let Some(item) = items.get(t.item) else { continue };
            let handle = item.element.handle.as_str();
            let slot = usize::from(t.slot.min(1));
            let Some(shaped) = shapes.get(handle).and_then(|s| s[slot].as_ref()) else { continue };
            if !self.blocks.contains_key(handle) {
                self.blocks.insert(handle.to_string(), [None, None]);
            }
            let Some(slots) = self.blocks.get_mut(handle) else { continue };
            let block = &mut slots[slot];
            // The scale to lay the glyphs out at, when they must be (again).
            let relayout = match block {
                None => Some(t.scale),
                // Reshaped while moving: on the grid (below); still: exactly.
                Some(b) if b.generation != shaped.generation => Some(if t.scale == b.last_scale { t.scale } else { snapped(t.scale) }),
                Some(b) => {
                    let ratio = t.scale / b.raster_scale;
                    let drifted = !(1.0 / RESCALE..=RESCALE).contains(&ratio);
                    let settled = t.scale == b.last_scale && t.scale != b.raster_scale;
                    let affordable = rescale_glyphs > 0 && self.atlas.rasterized() < RESCALE_RASTERS;
                    match (drifted, settled, affordable) {
                        (_, _, false) | (false, false, _) => None,
                        (true, false, true) => {
                            rescale_glyphs = rescale_glyphs.saturating_sub(b.keys.len().max(1));
                            // Moving: sizes on a grid, so labels at like distances (and later
                            // frames) share the rasterized glyphs.
                            Some(snapped(t.scale))
                        }
                        (_, true, true) => {
                            rescale_glyphs = rescale_glyphs.saturating_sub(b.keys.len().max(1));
                            Some(t.scale)
                        }
                    }
                }
            };
            if let Some(raster_scale) = relayout {
                let id = match block.take() {
                    Some(old) => {
                        self.pool.free(old.range);
                        for key in &old.keys {
                            self.atlas.release(key);
                        }
                        old.id
                    }
                    None => self.free_ids.pop().unwrap_or_else(|| {
                        self.records.push(BlockRecord::zeroed());
                        self.records.len() as u32 - 1
                    }),
                };
                let mut keys = Vec::new();
                self.scratch.clear();
                let built = glyph_instances(
                    &shaped.buffer,
                    raster_scale,
                    id,
                    (&mut self.atlas, device, queue, fonts),
                    &mut self.line_chars,
                    &mut self.scratch,
                    &mut keys,
                );
                if let Err(e) = built {
                    // Drawn without text this frame; tried again on the next.
                    tracing::warn!("UI text of {handle} not drawn: {e}");
                    for key in &keys {
                        self.atlas.release(key);
                    }
                    self.free_ids.push(id);
                    continue;
                }
                laid_out += 1;
                let range = self.pool.alloc(&self.scratch);
                *block = Some(Block {
                    id,
                    generation: shaped.generation,
                    raster_scale,
                    last_scale: t.scale,
                    range,
                    keys,
                    last_frame: self.frame,
                });
            }
            let Some(b) = block.as_mut() else { continue };
            b.last_scale = t.scale;
            b.last_frame = self.frame;
            any |= !b.range.is_empty();
            self.records[b.id as usize] = BlockRecord {
                origin: [t.left, t.top],
                ratio: t.scale / b.raster_scale,
                opacity: t.opacity,
                clip: t.clip.map(|c| c as f32),
                hidden: [t.hidden.start, t.hidden.end],
                _pad: [0; 2],
            };
        }
        if self.frame.is_multiple_of(64) {
            self.drop_idle();
        }
        if self.pool.fragmented() {
            self.compact();
        }
        self.stats.blocks_laid_out = laid_out;
        self.upload(device, queue, any);
        self.draw_count = if any { self.pool.mirror.len() as u32 } else { 0 };
        self.draw_count > 0
    }

    /// Frees the glyphs of blocks not placed for `IDLE_FRAMES`.
    fn drop_idle(&mut self) {
        let (frame, pool, atlas, free_ids) = (self.frame, &mut self.pool, &mut self.atlas, &mut self.free_ids);
        self.blocks.retain(|_, slots| {
            for slot in slots.iter_mut() {
                if slot.as_ref().is_some_and(|b| frame - b.last_frame > IDLE_FRAMES)
                    && let Some(b) = slot.take()
                {
                    pool.free(b.range);
                    for key in &b.keys {
                        atlas.release(key);
                    }
                    free_ids.push(b.id);
                }
            }
            slots.iter().any(Option::is_some)
        });
    }

    /// Moves every block's instances together, closing the holes.
    fn compact(&mut self) {
        let mut packed = Vec::with_capacity(self.pool.live as usize);
        for b in self.blocks.values_mut().flat_map(|s| s.iter_mut().flatten()) {
            let start = packed.len() as u32;
            packed.extend_from_slice(&self.pool.mirror[b.range.start as usize..b.range.end as usize]);
            b.range = start..packed.len() as u32;
        }
        self.pool.mirror = packed;
        self.pool.free.clear();
        self.pool.all_dirty = true;
    }

    /// Writes the changed instances, and the records when anything is drawn (only a draw reads them).
    fn upload(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, drawn: bool) {
        let mut bytes = 0;
        let mut rebind = self.atlas.generation() != self.bound_atlas;
        if self.pool.mirror.len() > self.instance_capacity {
            self.instance_capacity = self.pool.mirror.len().next_power_of_two();
            self.instances = instance_buffer(device, self.instance_capacity);
            self.pool.all_dirty = true;
        }
        if self.records.len() > self.record_capacity {
            self.record_capacity = self.records.len().next_power_of_two();
            self.records_buffer = records_buffer(device, self.record_capacity);
            rebind = true;
        }
        let mut writes = std::mem::take(&mut self.writes);
        self.pool.take_writes(&mut writes);
        for r in &writes {
            let data = &self.pool.mirror[r.start as usize..r.end as usize];
            queue.write_buffer(
                &self.instances,
                u64::from(r.start) * std::mem::size_of::<GlyphInstance>() as u64,
                bytemuck::cast_slice(data),
            );
            bytes += std::mem::size_of_val(data);
        }
        self.writes = writes;
        if drawn {
            queue.write_buffer(&self.records_buffer, 0, bytemuck::cast_slice(&self.records));
            bytes += std::mem::size_of_val(self.records.as_slice());
        }
        if rebind {
            self.group = bind_group(device, &self.layout, &self.screen, &self.records_buffer, self.atlas.view(), &self.sampler);
            self.bound_atlas = self.atlas.generation();
        }
        self.stats.upload_bytes = bytes;
    }

    /// Draws every glyph instance (one call), each placed by its block's record.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>) {
        if self.draw_count == 0 {
            return;
        }
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &self.group, &[]);
        pass.set_vertex_buffer(0, self.instances.slice(..));
        pass.draw(0..4, 0..self.draw_count);
    }

    pub fn stats(&self) -> TextStats {
        TextStats {
            atlas: self.atlas.stats(),
            instances: self.pool.mirror.len(),
            live_instances: self.pool.live as usize,
            instance_bytes: std::mem::size_of_val(self.pool.mirror.as_slice()),
            ..self.stats
        }
    }
}

/// `scale` on the grid of sizes moving text is rasterized at.
fn snapped(scale: f32) -> f32 {
    if scale > 0.0 && scale.is_finite() { ((scale.log2() * SNAP_STEPS).round() / SNAP_STEPS).exp2() } else { scale }
}

fn bind_group(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    screen: &wgpu::Buffer,
    records: &wgpu::Buffer,
    atlas: &wgpu::TextureView,
    sampler: &wgpu::Sampler,
) -> wgpu::BindGroup {
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("ui text"),
        layout,
        entries: &[
            wgpu::BindGroupEntry { binding: 0, resource: screen.as_entire_binding() },
            wgpu::BindGroupEntry { binding: 1, resource: records.as_entire_binding() },
            wgpu::BindGroupEntry { binding: 2, resource: wgpu::BindingResource::TextureView(atlas) },
            wgpu::BindGroupEntry { binding: 3, resource: wgpu::BindingResource::Sampler(sampler) },
        ],
    })
}

/// Char indices for a shaped buffer's glyphs: where each line starts in the whole text, and
/// (for a line that is not ASCII) the char index of each byte offset. Reused scratch.
#[derive(Debug, Default)]
struct LineChars {
    line_starts: Vec<u32>,
    line: Option<usize>,
    byte_chars: Vec<u32>,
}

impl LineChars {
    fn reset(&mut self, buffer: &Buffer) {
        self.line_starts.clear();
        self.line = None;
        let mut at = 0u32;
        for line in &buffer.lines {
            self.line_starts.push(at);
            at += (line.text().chars().count() + line.ending().as_str().chars().count()) as u32;
        }
    }

    /// The char index in the whole text of byte `byte` of line `line_i`.
    fn char_index(&mut self, line_i: usize, text: &str, byte: usize) -> u32 {
        let start = self.line_starts.get(line_i).copied().unwrap_or(0);
        if text.is_ascii() {
            return start + byte as u32;
        }
        if self.line != Some(line_i) {
            self.line = Some(line_i);
            self.byte_chars.clear();
            self.byte_chars.resize(text.len() + 1, 0);
            let mut n = 0;
            for (i, c) in text.char_indices() {
                self.byte_chars[i..i + c.len_utf8()].fill(n);
                n += 1;
            }
            self.byte_chars[text.len()] = n;
        }
        start + self.byte_chars.get(byte).copied().unwrap_or(0)
    }
}

/// Lays out a shaped buffer's glyphs at `scale` for block `block`: positions relative to the
/// block's origin, bitmaps placed in the atlas (one hold each, its key pushed to `keys`). The
/// arithmetic is cosmic-text's physical placement with the origin at 0, so at ratio 1 a glyph
/// lands on the same pixel as when laid out at its screen position (the origin is whole pixels).
fn glyph_instances(
    buffer: &Buffer,
    scale: f32,
    block: u32,
    (atlas, device, queue, fonts): (&mut GlyphAtlas, &wgpu::Device, &wgpu::Queue, &mut FontSystem),
    chars: &mut LineChars,
    out: &mut Vec<GlyphInstance>,
    keys: &mut Vec<CacheKey>,
) -> Result<(), AtlasError> {
    chars.reset(buffer);
    for run in buffer.layout_runs() {
        let line_y = (run.line_y * scale).round() as i32;
        for glyph in run.glyphs {
            let physical = glyph.physical((0.0, 0.0), scale);
            let Some(g) = atlas.acquire(device, queue, fonts, physical.cache_key)? else { continue };
            let (x, y) = (physical.x + g.left, line_y + physical.y - g.top);
            // Past what an instance can place: far outside any panel's clip anyway.
            let (Ok(x), Ok(y)) = (i16::try_from(x), i16::try_from(y)) else {
                atlas.release(&physical.cache_key);
                continue;
            };
            keys.push(physical.cache_key);
            let color = glyph.color_opt.map_or([255; 4], |c| [c.r(), c.g(), c.b(), c.a()]);
            out.push(GlyphInstance {
                rel: [x, y],
                size: g.size,
                uv: g.uv,
                color,
                block,
                char_index: chars.char_index(run.line_i, run.text, glyph.start),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::render::overlay::TextShaper;
    use crate::render::overlay::look;
    use crate::render::scene::UiAt;
    use crate::world::ui::{UiKind, UiTable, Writer};

    /// A device on the Vulkan driver here; None (the test skips) only where none is installed.
    pub(crate) fn device() -> Option<(wgpu::Device, wgpu::Queue)> {
        let lavapipe = std::path::Path::new("/usr/share/vulkan/icd.d/lvp_icd.x86_64.json").exists();
        let instance = crate::render::gpu::instance();
        let adapter = match pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions::default())) {
            Ok(a) => a,
            Err(e) if !lavapipe => {
                eprintln!("skipping GPU test: {e}");
                return None;
            }
            Err(e) => panic!("no adapter on a machine with Mesa's Vulkan driver: {e}"),
        };
        let limits = wgpu::Limits::downlevel_defaults().using_resolution(adapter.limits());
        let descriptor = wgpu::DeviceDescriptor { required_limits: limits, ..Default::default() };
        Some(pollster::block_on(adapter.request_device(&descriptor)).expect("a device"))
    }

    /// A text layer over a 640x360 target, with labels to place.
    struct Rig {
        device: wgpu::Device,
        queue: wgpu::Queue,
        layer: TextLayer,
        shaper: TextShaper,
        items: Vec<UiItem>,
    }

    fn rig(labels: usize) -> Option<Rig> {
        let (device, queue) = device()?;
        let screen = device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: 16,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        queue.write_buffer(&screen, 0, bytemuck::cast_slice(&[640.0f32, 360.0, 0.0, 0.0]));
        let layer = TextLayer::new(&device, wgpu::TextureFormat::Rgba8UnormSrgb, &screen);
        let mut table = UiTable::default();
        let writer = Writer { agent: "agt", operator: true };
        let items = (0..labels)
            .map(|_| {
                let spec = serde_json::from_value(serde_json::json!({"anchor": {"kind": "screen"}, "text": "x"})).unwrap();
                let h = table.create(UiKind::Label, spec, &writer).unwrap();
                UiItem { element: std::sync::Arc::new(table.get(&h).unwrap().clone()), at: UiAt::Screen, opacity: 1.0, tick: 0 }
            })
            .collect();
        Some(Rig { device, queue, layer, shaper: TextShaper::new(), items })
    }

    impl Rig {
        /// One frame placing label `i` showing `text` at `at` and `scale`, for each entry.
        fn frame(&mut self, labels: &[(usize, &str, [f32; 2], f32)]) -> TextStats {
            let mut texts = Vec::new();
            for &(i, text, at, scale) in labels {
                let look = look::resolve(&self.items[i].element, 1.0);
                self.shaper.shape(&self.items[i].element.handle, 0, text, None, &look).unwrap();
                texts.push(TextPlacement {
                    item: i,
                    slot: 0,
                    left: at[0],
                    top: at[1],
                    scale,
                    clip: [0, 0, 640, 360],
                    opacity: 1.0,
                    hidden: 0..0,
                });
            }
            self.shaper.end_frame();
            let (fonts, shapes) = self.shaper.split();
            self.layer.prepare(&self.device, &self.queue, fonts, shapes, &self.items, &texts);
            self.layer.stats()
        }

        fn block(&self, i: usize) -> &Block {
            self.layer.blocks[&self.items[i].element.handle][0].as_ref().unwrap()
        }
    }

    #[test]
    fn a_block_that_only_moves_uploads_its_record_not_its_glyphs() {
        let Some(mut rig) = rig(2) else { return };
        let first = rig.frame(&[(0, "Crate 17", [100.0, 100.0], 1.0), (1, "Ωμέγα", [10.0, 10.0], 1.0)]);
        assert_eq!(first.blocks_laid_out, 2);
        assert_eq!(first.live_instances, 12, "7 + 5 glyphs with pixels");
        assert!(first.upload_bytes >= 12 * std::mem::size_of::<GlyphInstance>());
        for step in 1..5 {
            let moved = rig.frame(&[(0, "Crate 17", [100.0 + step as f32 * 13.0, 90.0], 1.0), (1, "Ωμέγα", [20.0, 10.0], 1.0)]);
            assert_eq!(moved.blocks_laid_out, 0);
            assert_eq!(moved.upload_bytes, 3 * std::mem::size_of::<BlockRecord>(), "the dead record and two blocks' records");
            assert_eq!(moved.instances, 12);
        }
        let record = rig.layer.records[rig.block(0).id as usize];
        assert_eq!((record.origin, record.ratio), ([152.0, 90.0], 1.0));
    }

    #[test]
    fn reshaped_text_reuses_the_freed_glyphs_and_atlas_holds() {
        let Some(mut rig) = rig(3) else { return };
        rig.frame(&[(0, "one", [0.0; 2], 1.0), (1, "two words", [0.0; 2], 1.0), (2, "three", [0.0; 2], 1.0)]);
        for n in 0..50 {
            let text = if n % 2 == 0 { "a longer line of text" } else { "short" };
            let stats = rig.frame(&[(0, "one", [0.0; 2], 1.0), (1, text, [0.0; 2], 1.0), (2, "three", [0.0; 2], 1.0)]);
            assert_eq!(stats.blocks_laid_out, 1);
        }
        let stats = rig.layer.stats();
        assert_eq!(stats.live_instances, 3 + 5 + 5, "one + short + three");
        assert!(stats.instances <= 3 + 17 + 5, "the freed range is reused, not appended: {} drawn", stats.instances);
        let n = rig.block(0).keys[1];
        assert_eq!(rig.layer.atlas.refs(&n), 1, "the 'n' of \"one\" only: the longer line's holds were given back");
    }

    #[test]
    fn a_block_not_placed_for_long_gives_its_glyphs_back() {
        let Some(mut rig) = rig(2) else { return };
        rig.frame(&[(0, "kept", [0.0; 2], 1.0), (1, "gone", [0.0; 2], 1.0)]);
        let g = rig.block(1).keys[0];
        for _ in 0..=IDLE_FRAMES + 64 {
            rig.frame(&[(0, "kept", [0.0; 2], 1.0)]);
        }
        assert!(!rig.layer.blocks.contains_key(&rig.items[1].element.handle));
        assert_eq!(rig.layer.stats().live_instances, 4);
        assert_eq!(rig.layer.atlas.refs(&g), 0);
    }

    #[test]
    fn a_scale_change_stretches_then_snaps_to_the_grid_then_settles_exactly() {
        let Some(mut rig) = rig(1) else { return };
        let at = |rig: &mut Rig, scale| {
            let stats = rig.frame(&[(0, "label", [50.0, 50.0], scale)]);
            let b = rig.block(0);
            (stats.blocks_laid_out, b.raster_scale, rig.layer.records[b.id as usize].ratio)
        };
        assert_eq!(at(&mut rig, 1.0), (1, 1.0, 1.0));
        let (laid, raster, ratio) = at(&mut rig, 1.03);
        assert_eq!((laid, raster), (0, 1.0), "within 6%: stretched");
        assert!((ratio - 1.03).abs() < 1e-6);
        let (laid, raster, ratio) = at(&mut rig, 1.5);
        assert_eq!(laid, 1, "moving past 6%: laid out again");
        assert_eq!(raster, snapped(1.5));
        assert!(raster != 1.5 && (ratio - 1.0).abs() < 0.023, "on the grid, within half a step: {raster} {ratio}");
        assert_eq!(at(&mut rig, 1.5), (1, 1.5, 1.0), "still for a frame: exact");
        assert_eq!(at(&mut rig, 1.5), (0, 1.5, 1.0));
    }

    #[test]
    fn holes_are_compacted_away_and_every_block_keeps_its_glyphs() {
        let Some(mut rig) = rig(400) else { return };
        let text = |i: usize| format!("label number {i:04}");
        let texts: Vec<String> = (0..400).map(text).collect();
        let all: Vec<(usize, &str, [f32; 2], f32)> = texts.iter().enumerate().map(|(i, t)| (i, t.as_str(), [0.0; 2], 1.0)).collect();
        let before = rig.frame(&all);
        assert!(before.instances > 4096, "{}", before.instances);
        // Two in three labels go away: once they are dropped, more than half the buffer is holes.
        let kept: Vec<_> = all.iter().copied().filter(|l| l.0 % 3 == 0).collect();
        for _ in 0..=IDLE_FRAMES + 64 {
            rig.frame(&kept);
        }
        let after = rig.layer.stats();
        assert_eq!(after.instances, after.live_instances, "no holes left");
        assert_eq!(after.live_instances, kept.len() * 15);
        for &(i, ..) in &kept {
            let b = rig.block(i);
            let glyphs = &rig.layer.pool.mirror[b.range.start as usize..b.range.end as usize];
            assert!(glyphs.len() == 15 && glyphs.iter().all(|g| g.block == b.id), "label {i} kept its glyphs");
        }
    }

    #[test]
    fn freed_ranges_are_reused_first_fit_and_a_free_tail_is_not_drawn() {
        let mut pool = InstancePool::default();
        let glyphs = |n| vec![GlyphInstance { block: 7, ..GlyphInstance::zeroed() }; n];
        let a = pool.alloc(&glyphs(4));
        let b = pool.alloc(&glyphs(3));
        let c = pool.alloc(&glyphs(5));
        assert_eq!((a.clone(), b.clone(), c.clone()), (0..4, 4..7, 7..12));
        pool.free(a);
        pool.free(b);
        assert_eq!(pool.free, vec![0..7], "neighbours coalesce");
        assert!(pool.mirror[..7].iter().all(|g| g.block == DEAD_BLOCK), "freed instances draw nothing");
        assert_eq!(pool.alloc(&glyphs(6)), 0..6, "first fit");
        pool.free(c);
        assert_eq!(pool.mirror.len(), 6, "a free tail is cut off");
        assert_eq!(pool.live, 6);
        let mut writes = Vec::new();
        pool.take_writes(&mut writes);
        assert_eq!(writes, vec![0..6], "nearby writes merged, nothing past the end");
    }

    #[test]
    fn char_indices_count_characters_across_lines_and_multibyte_text() {
        let mut shaper = TextShaper::new();
        let mut table = UiTable::default();
        let spec = serde_json::from_value(serde_json::json!({"anchor": {"kind": "screen"}})).unwrap();
        let h = table.create(UiKind::TextBox, spec, &Writer { agent: "a", operator: false }).unwrap();
        let look = look::resolve(table.get(&h).unwrap(), 1.0);
        let text = "añb\nçd";
        let shaped = shaper.shape("ui_0001", 0, text, None, &look).unwrap();
        let mut chars = LineChars::default();
        chars.reset(&shaped.buffer);
        let mut seen = Vec::new();
        for run in shaped.buffer.layout_runs() {
            for g in run.glyphs {
                seen.push(chars.char_index(run.line_i, run.text, g.start));
            }
        }
        assert_eq!(seen, vec![0, 1, 2, 4, 5], "the newline is a character of the text the typewriter counts");
    }

    #[test]
    fn the_size_grid_is_within_half_a_step() {
        for s in [0.6f32, 0.77, 1.0, 1.3, 2.2, 3.0] {
            let g = snapped(s);
            assert!((g / s - 1.0).abs() <= 2f32.powf(0.5 / SNAP_STEPS) - 1.0 + 1e-6, "{s} -> {g}");
            assert_eq!(snapped(g), g, "a grid size is its own snap");
        }
        assert_eq!(snapped(1.0), 1.0);
    }
}
