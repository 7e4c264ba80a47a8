//! The UI overlay: in-world and screen UI elements drawn over the 3D frame, in the window and in
//! headless captures alike. Layout and text shaping run on the CPU (`layout`, `text`, `look`);
//! this module owns the GPU side: one pipeline for every panel shape (one draw call) and the
//! text layer's glyph instances over one glyph atlas (one more, `glyphs`), so draw calls do not
//! grow with the number of elements. Text is drawn after all shapes, so where two panels
//! overlap, the lower panel's text shows through the upper one (a known trade for the bounded
//! draw count).

mod atlas;
mod fallback;
mod glyphs;
mod layout;
mod look;
mod text;

pub(crate) use glyphs::TextStats;
pub(crate) use layout::{Frame, View};
pub(crate) use look::BASE_FONT_PX;
pub(crate) use text::TextShaper;

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
    text: glyphs::TextLayer,
    /// Shapes to draw this frame (vertices) and whether there is text to draw.
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
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat) -> Self {
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
        let text = glyphs::TextLayer::new(device, format, &screen);
        Self {
            pipeline,
            screen,
            screen_group,
            vertices,
            vertex_capacity,
            shaper: TextShaper::new(),
            frame: Frame::default(),
            text,
            shape_count: 0,
            text_ready: false,
        }
    }

    /// Lays out and uploads this frame's UI. Returns the draw calls `draw` will make.
    pub fn prepare(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, items: &[UiItem], camera: &Camera, size: (u32, u32)) -> u32 {
        lay_out_frame(items, camera, size.0, size.1, &mut self.shaper, &mut self.frame);
        let vertices = &self.frame.vertices;
        self.shape_count = vertices.len() as u32;
        self.text_ready = false;
        if vertices.is_empty() && self.frame.texts.is_empty() {
            // Still a frame for the text layer: text of elements gone gives its glyphs back.
            let (fonts, shapes) = self.shaper.split();
            self.text.prepare(device, queue, fonts, shapes, items, &[]);
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
        let (fonts, shapes) = self.shaper.split();
        self.text_ready = self.text.prepare(device, queue, fonts, shapes, items, &self.frame.texts);
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
        if self.text_ready {
            self.text.draw(pass);
        }
    }

    /// What the text layer holds (glyph atlas, instances) and uploaded on the last frame.
    pub fn text_stats(&self) -> TextStats {
        self.text.stats()
    }
}
