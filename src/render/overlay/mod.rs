//! The UI overlay: in-world and screen UI elements drawn over the 3D frame, in the window and in
//! headless captures alike. Layout and text shaping run on the CPU (`layout`, `text`, `look`);
//! this module owns the GPU side: one pipeline for every panel shape (one draw call) and
//! glyphon's text renderer over a shared glyph atlas (one more), so draw calls do not grow with
//! the number of elements. Text is drawn after all shapes, so where two panels overlap, the
//! lower panel's text shows through the upper one (a known trade for the bounded draw count).

mod layout;
mod look;
mod text;

pub(crate) use layout::{Frame, View};
pub(crate) use look::BASE_FONT_PX;
pub(crate) use text::TextShaper;

use glyphon::{Cache, Resolution, SwashCache, TextArea, TextAtlas, TextBounds, TextRenderer, Viewport};
use wgpu::util::DeviceExt;

use super::math;
use super::scene::{Camera, UiItem};

/// Lays out every item for a `width` x `height` frame seen from `camera`.
pub(crate) fn lay_out_frame(items: &[UiItem], camera: &Camera, width: u32, height: u32, shaper: &mut TextShaper, frame: &mut Frame) {
    frame.vertices.clear();
    frame.texts.clear();
    if items.is_empty() {
        return;
    }
    let aspect = width as f32 / height.max(1) as f32;
    let proj = math::perspective(camera.fov_deg.clamp(1.0, 170.0).to_radians(), aspect, math::NEAR, math::FAR);
    let view = View {
        view_proj: math::view_projection(camera.position, camera.target, camera.fov_deg, aspect),
        width: width as f32,
        height: height as f32,
        focal_px: height as f32 * 0.5 * proj[1][1],
    };
    for (index, item) in items.iter().enumerate() {
        layout::lay_out(index, item, &view, shaper, frame);
    }
    shaper.end_frame();
}

pub(crate) struct Overlay {
    pipeline: wgpu::RenderPipeline,
    screen: wgpu::Buffer,
    screen_group: wgpu::BindGroup,
    vertices: wgpu::Buffer,
    vertex_capacity: usize,
    shaper: TextShaper,
    frame: Frame,
    swash: SwashCache,
    viewport: Viewport,
    atlas: TextAtlas,
    text: TextRenderer,
    /// Shapes to draw this frame (vertices) and whether text was prepared.
    shape_count: u32,
    text_ready: bool,
}

impl std::fmt::Debug for Overlay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Overlay").field("vertices", &self.shape_count).finish()
    }
}

const VERTEX_ATTRIBUTES: [wgpu::VertexAttribute; 6] =
    wgpu::vertex_attr_array![0 => Float32x2, 1 => Float32x2, 2 => Float32x2, 3 => Float32x4, 4 => Unorm8x4, 5 => Unorm8x4];

impl Overlay {
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue, format: wgpu::TextureFormat) -> Self {
        let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("ui overlay"),
            source: wgpu::ShaderSource::Wgsl(include_str!("overlay.wgsl").into()),
        });
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("ui screen"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::VERTEX,
                ty: wgpu::BindingType::Buffer { ty: wgpu::BufferBindingType::Uniform, has_dynamic_offset: false, min_binding_size: None },
                count: None,
            }],
        });
        let screen = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("ui screen"),
            contents: bytemuck::cast_slice(&[1.0f32, 1.0, 0.0, 0.0]),
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        });
        let screen_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("ui screen"),
            layout: &layout,
            entries: &[wgpu::BindGroupEntry { binding: 0, resource: screen.as_entire_binding() }],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("ui overlay"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("ui overlay"),
            layout: Some(&pipeline_layout),
            vertex: wgpu::VertexState {
                module: &shader,
                entry_point: Some("vs"),
                compilation_options: Default::default(),
                buffers: &[Some(wgpu::VertexBufferLayout {
                    array_stride: std::mem::size_of::<layout::ShapeVertex>() as u64,
                    step_mode: wgpu::VertexStepMode::Vertex,
                    attributes: &VERTEX_ATTRIBUTES,
                })],
            },
            fragment: Some(wgpu::FragmentState {
                module: &shader,
                entry_point: Some("fs"),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format,
                    blend: Some(wgpu::BlendState::PREMULTIPLIED_ALPHA_BLENDING),
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            multiview_mask: None,
            cache: None,
        });
        let vertex_capacity = 1024;
        let vertices = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("ui shapes"),
            size: (vertex_capacity * std::mem::size_of::<layout::ShapeVertex>()) as u64,
            usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let cache = Cache::new(device);
        let viewport = Viewport::new(device, &cache);
        let mut atlas = TextAtlas::new(device, queue, &cache, format);
        let text = TextRenderer::new(&mut atlas, device, wgpu::MultisampleState::default(), None);
        Self {
            pipeline,
            screen,
            screen_group,
            vertices,
            vertex_capacity,
            shaper: TextShaper::new(),
            frame: Frame::default(),
            swash: SwashCache::new(),
            viewport,
            atlas,
            text,
            shape_count: 0,
            text_ready: false,
        }
    }

    /// Lays out and uploads this frame's UI. Returns the draw calls `draw` will make.
    pub fn prepare(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, items: &[UiItem], camera: &Camera, size: (u32, u32)) -> u32 {
        // Glyphs the last frame did not use may be evicted from the atlas from here on.
        self.atlas.trim();
        lay_out_frame(items, camera, size.0, size.1, &mut self.shaper, &mut self.frame);
        let vertices = &self.frame.vertices;
        self.shape_count = vertices.len() as u32;
        self.text_ready = false;
        if vertices.is_empty() && self.frame.texts.is_empty() {
            return 0;
        }
        queue.write_buffer(&self.screen, 0, bytemuck::cast_slice(&[size.0 as f32, size.1 as f32, 0.0, 0.0]));
        if vertices.len() > self.vertex_capacity {
            self.vertex_capacity = vertices.len().next_power_of_two();
            self.vertices = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("ui shapes"),
                size: (self.vertex_capacity * std::mem::size_of::<layout::ShapeVertex>()) as u64,
                usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
        }
        if !vertices.is_empty() {
            queue.write_buffer(&self.vertices, 0, bytemuck::cast_slice(vertices));
        }
        self.viewport.update(queue, Resolution { width: size.0, height: size.1 });
        let (fonts, shapes) = self.shaper.split();
        let areas = self.frame.texts.iter().filter_map(|t| {
            let shaped = shapes.get(items[t.item].element.handle.as_str())?[usize::from(t.slot)].as_ref()?;
            Some(TextArea {
                buffer: &shaped.buffer,
                left: t.left,
                top: t.top,
                scale: t.scale,
                bounds: TextBounds { left: t.clip[0], top: t.clip[1], right: t.clip[2], bottom: t.clip[3] },
                default_color: glyphon::Color::rgba(255, 255, 255, 255),
                custom_glyphs: &[],
            })
        });
        let result = self.text.prepare(device, queue, fonts, &mut self.atlas, &self.viewport, areas, &mut self.swash);
        match result {
            Ok(()) => self.text_ready = true,
            Err(e) => tracing::warn!("UI text skipped this frame: {e}"),
        }
        u32::from(self.shape_count > 0) + u32::from(self.text_ready)
    }

    /// Draws what `prepare` uploaded, over what the pass already holds.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>) {
        if self.shape_count > 0 {
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &self.screen_group, &[]);
            pass.set_vertex_buffer(0, self.vertices.slice(..));
            pass.draw(0..self.shape_count, 0..1);
        }
        if self.text_ready
            && let Err(e) = self.text.render(&self.atlas, &self.viewport, pass)
        {
            tracing::warn!("UI text not drawn: {e}");
        }
    }

    /// The distinct glyphs the last frame drew (for `items`, the items it was prepared with) and
    /// the bytes of their bitmaps: what the glyph atlas must hold for that frame. Rasterizes
    /// them again to measure, so it is for benchmarks, not frames.
    pub fn glyph_stats(&mut self, items: &[UiItem]) -> (usize, usize) {
        let (fonts, shapes) = self.shaper.split();
        let mut keys = std::collections::HashSet::new();
        for t in &self.frame.texts {
            let Some(shaped) =
                items.get(t.item).and_then(|i| shapes.get(i.element.handle.as_str())).and_then(|s| s[usize::from(t.slot)].as_ref())
            else {
                continue;
            };
            for run in shaped.buffer.layout_runs() {
                for glyph in run.glyphs {
                    keys.insert(glyph.physical((t.left, t.top), t.scale).cache_key);
                }
            }
        }
        let bytes = keys.iter().filter_map(|k| self.swash.get_image_uncached(fonts, *k)).map(|image| image.data.len()).sum();
        (keys.len(), bytes)
    }
}
