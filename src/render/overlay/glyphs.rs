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
//! shaper's cache and the frame's placements; touches nothing else. Hot: `prepare` (one hash
//! lookup and one 48-byte record per visible block when nothing was reshaped).

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
/// Glyphs laid out again per frame for scale changes alone (new and reshaped text is not held
/// back: shaping already has its own budget). A camera dolly rescales every label at once; this
/// spreads the work over frames, the rest drawing stretched meanwhile.
const RESCALE_BUDGET_GLYPHS: usize = 4096;
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
                entry(2 + 1, wgpu::ShaderStages::FRAGMENT, wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering)),
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
        let mut rescale_budget = RESCALE_BUDGET_GLYPHS;
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
            let relayout = match block {
                None => true,
                Some(b) if b.generation != shaped.generation => true,
                Some(b) => {
                    let ratio = t.scale / b.raster_scale;
                    let drifted = !(1.0 / RESCALE..=RESCALE).contains(&ratio);
                    let settled = t.scale == b.last_scale && t.scale != b.raster_scale;
                    (drifted || settled) && rescale_budget > 0 && {
                        rescale_budget = rescale_budget.saturating_sub(b.keys.len().max(1));
                        true
                    }
                }
            };
            if relayout {
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
                    t.scale,
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
                    raster_scale: t.scale,
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
        self.upload(device, queue);
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

    fn upload(&mut self, device: &wgpu::Device, queue: &wgpu::Queue) {
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
            queue.write_buffer(&self.instances, u64::from(r.start) * std::mem::size_of::<GlyphInstance>() as u64, bytemuck::cast_slice(data));
            bytes += std::mem::size_of_val(data);
        }
        self.writes = writes;
        queue.write_buffer(&self.records_buffer, 0, bytemuck::cast_slice(&self.records));
        bytes += std::mem::size_of_val(self.records.as_slice());
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
