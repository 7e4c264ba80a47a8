//! The wgpu renderer: one forward PBR pipeline over instanced meshes, a depth-only shadow pass,
//! MSAA 4x into an sRGB target, and readback for screenshots.
//!
//! Draw calls grow with the number of distinct meshes (one instanced draw per mesh per pass),
//! not with entities. Nothing outside this module sees a wgpu type.

use std::num::NonZeroU64;

use wgpu::util::DeviceExt;

use super::math::{self, Mat4};
use super::mesh::{self, MeshData, Vertex};
use super::scene::{Instance, RenderList, RenderStats, linear_rgb, srgb_byte, unit_byte};

pub(crate) const SAMPLES: u32 = 4;
pub(crate) const COLOR_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;
const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error(
        "no GPU adapter found ({0}); rendering needs a Vulkan driver: on Debian install mesa-vulkan-drivers (a CPU driver, lavapipe, works)"
    )]
    NoAdapter(String),
    #[error("the GPU device could not be created: {0}")]
    Device(String),
    #[error("reading the frame back failed: {0}")]
    Readback(String),
    #[error("image size {0}x{1} is out of range (1..=8192)")]
    Size(u32, u32),
    #[error("PNG encoding failed: {0}")]
    Png(String),
}

#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Globals {
    view_proj: Mat4,
    light_view_proj: Mat4,
    camera_pos: [f32; 4],
    light_dir: [f32; 4],
    light_color: [f32; 4],
    ambient: [f32; 4],
    shadow: [f32; 4],
    sky: [f32; 4],
    zenith: [f32; 4],
    ground: [f32; 4],
    below: [f32; 4],
    hemi: [f32; 4],
    view_forward: [f32; 4],
    view_right: [f32; 4],
    view_up: [f32; 4],
}

struct GpuMesh {
    vertices: wgpu::Buffer,
    indices: wgpu::Buffer,
    count: u32,
}

struct Target {
    size: (u32, u32),
    msaa: wgpu::TextureView,
    depth: wgpu::TextureView,
    resolve: wgpu::Texture,
    resolve_view: wgpu::TextureView,
}

pub(crate) struct Gpu {
    pub(super) device: wgpu::Device,
    pub(super) queue: wgpu::Queue,
    pub(super) adapter_name: String,
    pipeline: wgpu::RenderPipeline,
    /// The sky gradient: a fullscreen triangle at the far plane, drawn after the meshes.
    sky_pipeline: wgpu::RenderPipeline,
    shadow_pipeline: wgpu::RenderPipeline,
    globals: wgpu::Buffer,
    globals_layout: wgpu::BindGroupLayout,
    globals_group: wgpu::BindGroup,
    uniforms_group: wgpu::BindGroup,
    material_group: wgpu::BindGroup,
    material_layout: wgpu::BindGroupLayout,
    linear_sampler: wgpu::Sampler,
    /// Uploaded model parts: (asset address, part index) -> mesh and its texture binding.
    asset_parts: std::collections::HashMap<(usize, usize), (GpuMesh, wgpu::BindGroup)>,
    shadow_sampler: wgpu::Sampler,
    /// UI panels and text, drawn over the resolved frame.
    pub(super) overlay: super::overlay::Overlay,
    shadow_view: wgpu::TextureView,
    shadow_size: u32,
    meshes: Vec<GpuMesh>,
    instances: wgpu::Buffer,
    instance_capacity: usize,
    target: Option<Target>,
    /// Reused between frames so a frame allocates nothing for instances.
    staging: Vec<Instance>,
}

impl std::fmt::Debug for Gpu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gpu").field("adapter", &self.adapter_name).finish()
    }
}

const VERTEX_ATTRS: [wgpu::VertexAttribute; 3] = wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3, 2 => Float32x2];
const INSTANCE_ATTRS: [wgpu::VertexAttribute; 5] =
    wgpu::vertex_attr_array![3 => Float32x4, 4 => Float32x4, 5 => Float32x4, 6 => Unorm8x4, 7 => Unorm8x4];

fn buffers() -> [Option<wgpu::VertexBufferLayout<'static>>; 2] {
    [
        Some(wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<Vertex>() as u64,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &VERTEX_ATTRS,
        }),
        Some(wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<Instance>() as u64,
            step_mode: wgpu::VertexStepMode::Instance,
            attributes: &INSTANCE_ATTRS,
        }),
    ]
}

impl Gpu {
    /// Opens the GPU (Vulkan; a CPU driver is fine). `surface` makes the adapter compatible with
    /// a window.
    pub fn new(
        instance: &wgpu::Instance,
        surface: Option<&wgpu::Surface<'_>>,
        color_format: wgpu::TextureFormat,
    ) -> Result<Self, RenderError> {
        let adapter = pollster::block_on(
            instance.request_adapter(&wgpu::RequestAdapterOptions { compatible_surface: surface, ..Default::default() }),
        )
        .map_err(|e| RenderError::NoAdapter(e.to_string()))?;
        let adapter_name = adapter.get_info().name;
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("limina"),
            required_limits: wgpu::Limits::downlevel_defaults().using_resolution(adapter.limits()),
            ..Default::default()
        }))
        .map_err(|e| RenderError::Device(e.to_string()))?;
        device.on_uncaptured_error(std::sync::Arc::new(|e: wgpu::Error| tracing::error!("wgpu: {e}")));

        let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("limina"),
            source: wgpu::ShaderSource::Wgsl(include_str!("shader.wgsl").into()),
        });
        use wgpu::{BindingType as B, ShaderStages as S};
        let entry = |binding, visibility, ty| wgpu::BindGroupLayoutEntry { binding, visibility, ty, count: None };
        let globals_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("globals"),
            entries: &[
                entry(
                    0,
                    S::VERTEX_FRAGMENT,
                    B::Buffer { ty: wgpu::BufferBindingType::Uniform, has_dynamic_offset: false, min_binding_size: None },
                ),
                entry(
                    1,
                    S::FRAGMENT,
                    B::Texture {
                        sample_type: wgpu::TextureSampleType::Depth,
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                ),
                entry(2, S::FRAGMENT, B::Sampler(wgpu::SamplerBindingType::Comparison)),
            ],
        });
        let material_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("material"),
            entries: &[
                entry(
                    0,
                    S::FRAGMENT,
                    B::Texture {
                        sample_type: wgpu::TextureSampleType::Float { filterable: true },
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                ),
                entry(1, S::FRAGMENT, B::Sampler(wgpu::SamplerBindingType::Filtering)),
            ],
        });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("main"),
            bind_group_layouts: &[Some(&globals_layout), Some(&material_layout)],
            immediate_size: 0,
        });
        // The shadow pass cannot bind the shadow map it writes: it gets the uniforms alone.
        let uniforms_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("uniforms"),
            entries: &[entry(
                0,
                S::VERTEX_FRAGMENT,
                B::Buffer { ty: wgpu::BufferBindingType::Uniform, has_dynamic_offset: false, min_binding_size: None },
            )],
        });
        let shadow_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("shadow"),
            bind_group_layouts: &[Some(&uniforms_layout)],
            immediate_size: 0,
        });
        let vertex_buffers = buffers();
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("main"),
            layout: Some(&layout),
            vertex: wgpu::VertexState {
                module: &shader,
                entry_point: Some("vs_main"),
                compilation_options: Default::default(),
                buffers: &vertex_buffers,
            },
            primitive: wgpu::PrimitiveState { cull_mode: Some(wgpu::Face::Back), ..Default::default() },
            depth_stencil: Some(wgpu::DepthStencilState {
                format: DEPTH_FORMAT,
                depth_write_enabled: Some(true),
                depth_compare: Some(wgpu::CompareFunction::Less),
                stencil: wgpu::StencilState::default(),
                bias: wgpu::DepthBiasState::default(),
            }),
            multisample: wgpu::MultisampleState { count: SAMPLES, mask: !0, alpha_to_coverage_enabled: false },
            fragment: Some(wgpu::FragmentState {
                module: &shader,
                entry_point: Some("fs_main"),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format: color_format,
                    blend: Some(wgpu::BlendState::REPLACE),
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            multiview_mask: None,
            cache: None,
        });
        let sky_pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("sky"),
            layout: Some(&layout),
            vertex: wgpu::VertexState {
                module: &shader,
                entry_point: Some("vs_sky"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            primitive: wgpu::PrimitiveState::default(),
            // At the far plane (depth 1, the clear value): LessEqual passes only where no mesh drew.
            depth_stencil: Some(wgpu::DepthStencilState {
                format: DEPTH_FORMAT,
                depth_write_enabled: Some(false),
                depth_compare: Some(wgpu::CompareFunction::LessEqual),
                stencil: wgpu::StencilState::default(),
                bias: wgpu::DepthBiasState::default(),
            }),
            multisample: wgpu::MultisampleState { count: SAMPLES, mask: !0, alpha_to_coverage_enabled: false },
            fragment: Some(wgpu::FragmentState {
                module: &shader,
                entry_point: Some("fs_sky"),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format: color_format,
                    blend: Some(wgpu::BlendState::REPLACE),
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            multiview_mask: None,
            cache: None,
        });
        let shadow_pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("shadow"),
            layout: Some(&shadow_layout),
            vertex: wgpu::VertexState {
                module: &shader,
                entry_point: Some("vs_shadow"),
                compilation_options: Default::default(),
                buffers: &vertex_buffers,
            },
            primitive: wgpu::PrimitiveState { cull_mode: None, ..Default::default() },
            depth_stencil: Some(wgpu::DepthStencilState {
                format: DEPTH_FORMAT,
                depth_write_enabled: Some(true),
                depth_compare: Some(wgpu::CompareFunction::Less),
                stencil: wgpu::StencilState::default(),
                bias: wgpu::DepthBiasState { constant: 2, slope_scale: 2.0, clamp: 0.0 },
            }),
            multisample: wgpu::MultisampleState::default(),
            fragment: None,
            multiview_mask: None,
            cache: None,
        });
        let globals = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("globals"),
            size: std::mem::size_of::<Globals>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let shadow_sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("shadow"),
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            compare: Some(wgpu::CompareFunction::LessEqual),
            ..Default::default()
        });
        // A 1x1 white base-colour texture: untextured meshes sample it.
        let white = device.create_texture_with_data(
            &queue,
            &wgpu::TextureDescriptor {
                label: Some("white"),
                size: wgpu::Extent3d { width: 1, height: 1, depth_or_array_layers: 1 },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: wgpu::TextureFormat::Rgba8UnormSrgb,
                usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
                view_formats: &[],
            },
            wgpu::util::TextureDataOrder::LayerMajor,
            &[255, 255, 255, 255],
        );
        let white_view = white.create_view(&wgpu::TextureViewDescriptor::default());
        let linear = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("linear"),
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            ..Default::default()
        });
        let material_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("material"),
            layout: &material_layout,
            entries: &[
                wgpu::BindGroupEntry { binding: 0, resource: wgpu::BindingResource::TextureView(&white_view) },
                wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::Sampler(&linear) },
            ],
        });
        let meshes = [mesh::cube(), mesh::sphere(48, 24), mesh::capsule(32, 16)].iter().map(|m| upload(&device, m)).collect();
        let (shadow_view, globals_group) = shadow_resources(&device, &globals_layout, &globals, &shadow_sampler, 1);
        let uniforms_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("uniforms"),
            layout: &uniforms_layout,
            entries: &[wgpu::BindGroupEntry { binding: 0, resource: globals.as_entire_binding() }],
        });
        let instances = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("instances"),
            size: 1024 * std::mem::size_of::<Instance>() as u64,
            usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let overlay = super::overlay::Overlay::new(&device, color_format);
        Ok(Self {
            overlay,
            device,
            queue,
            adapter_name,
            pipeline,
            sky_pipeline,
            shadow_pipeline,
            globals,
            globals_layout,
            globals_group,
            uniforms_group,
            material_group,
            material_layout,
            linear_sampler: linear,
            asset_parts: std::collections::HashMap::new(),
            shadow_sampler,
            shadow_view,
            shadow_size: 1,
            meshes,
            instances,
            instance_capacity: 1024,
            target: None,
            staging: Vec::new(),
        })
    }

    fn ensure_target(&mut self, size: (u32, u32), format: wgpu::TextureFormat) {
        if self.target.as_ref().is_some_and(|t| t.size == size) {
            return;
        }
        let extent = wgpu::Extent3d { width: size.0, height: size.1, depth_or_array_layers: 1 };
        let texture = |label, samples, format, usage| {
            self.device.create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
                size: extent,
                mip_level_count: 1,
                sample_count: samples,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage,
                view_formats: &[],
            })
        };
        let msaa = texture("msaa", SAMPLES, format, wgpu::TextureUsages::RENDER_ATTACHMENT).create_view(&Default::default());
        let depth = texture("depth", SAMPLES, DEPTH_FORMAT, wgpu::TextureUsages::RENDER_ATTACHMENT).create_view(&Default::default());
        let resolve = texture("resolve", 1, format, wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC);
        let resolve_view = resolve.create_view(&Default::default());
        self.target = Some(Target { size, msaa, depth, resolve, resolve_view });
    }

    /// Encodes one frame into `output` (the resolve target). Returns the draw counts.
    pub(super) fn encode(
        &mut self,
        list: &RenderList,
        size: (u32, u32),
        output: Option<&wgpu::TextureView>,
        format: wgpu::TextureFormat,
    ) -> (wgpu::CommandEncoder, RenderStats) {
        self.ensure_target(size, format);
        let l = &list.lighting;
        let want_shadow = if l.cast_shadow { l.shadow_map_size.clamp(256, 4096) } else { 1 };
        if want_shadow != self.shadow_size {
            let (view, group) = shadow_resources(&self.device, &self.globals_layout, &self.globals, &self.shadow_sampler, want_shadow);
            self.shadow_view = view;
            self.globals_group = group;
            self.shadow_size = want_shadow;
        }

        // Globals: camera, light and its shadow camera.
        let c = &list.camera;
        let aspect = size.0 as f32 / size.1.max(1) as f32;
        let view_proj = math::view_projection(c.position, c.target, c.fov_deg, aspect);
        let towards = math::normalize(l.direction);
        let eye = towards.map(|v| v * (l.shadow_camera_far * 0.5));
        let up = if towards[1].abs() > 0.99 { [0.0, 0.0, 1.0] } else { [0.0, 1.0, 0.0] };
        let light_view_proj = math::mul(
            &math::orthographic(l.shadow_camera_extent.max(0.01), l.shadow_camera_near, l.shadow_camera_far),
            &math::look_at(eye, [0.0; 3], up),
        );
        let light_rgb = linear_rgb(l.directional_color).map(|v| v * l.directional_intensity);
        let ambient_rgb = linear_rgb(l.ambient_color).map(|v| v * l.ambient_intensity);
        let sky = super::sky::Sky::of(l);
        let rays = math::view_rays(c.position, c.target, c.fov_deg, aspect);
        let rgb = |c: [f32; 3], w: f32| [c[0], c[1], c[2], w];
        let globals = Globals {
            view_proj,
            light_view_proj,
            camera_pos: [c.position[0], c.position[1], c.position[2], 1.0],
            light_dir: [-towards[0], -towards[1], -towards[2], if l.cast_shadow { 1.0 } else { 0.0 }],
            light_color: [light_rgb[0], light_rgb[1], light_rgb[2], 1.0],
            ambient: [ambient_rgb[0], ambient_rgb[1], ambient_rgb[2], 1.0],
            shadow: [l.shadow_bias, 1.0 / want_shadow as f32, 0.0, 0.0],
            sky: rgb(sky.horizon, 1.0),
            zenith: rgb(sky.zenith, 1.0),
            ground: rgb(sky.ground, 1.0),
            below: rgb(sky.below, 1.0),
            hemi: [sky.intensity, if list.flat { 1.0 } else { 0.0 }, 0.0, 0.0],
            view_forward: rays[0],
            view_right: rays[1],
            view_up: rays[2],
        };
        self.queue.write_buffer(&self.globals, 0, bytemuck::bytes_of(&globals));

        // All instances in one buffer, one contiguous range per mesh.
        // Built-in meshes are uploaded straight from the list; only model parts (whose
        // transforms are composed here) go through `staging`, after them.
        let mut ranges = Vec::with_capacity(list.batches.len());
        let mut next = 0u32;
        for batch in &list.batches {
            ranges.push(next..next + batch.len() as u32);
            next += batch.len() as u32;
        }
        self.staging.clear();
        // Model parts: one range (one instanced draw) per part, transforms composed here.
        let mut part_draws: Vec<((usize, usize), std::ops::Range<u32>)> = Vec::new();
        for (asset, instances) in &list.assets {
            let Some(asset) = asset else { continue };
            if instances.is_empty() {
                continue;
            }
            let address = std::sync::Arc::as_ptr(asset) as usize;
            for (index, part) in asset.parts.iter().enumerate() {
                let key = (address, index);
                if !self.asset_parts.contains_key(&key) {
                    let group = self.texture_group(part.texture.as_ref());
                    self.asset_parts.insert(key, (upload(&self.device, &part.mesh), group));
                }
                let start = next + self.staging.len() as u32;
                // A mask paints the entity's colour alone, whatever the model's own.
                let white = list.flat || part.base_color[..3].iter().all(|c| *c == 1.0);
                for i in instances {
                    let mut instance = *i;
                    instance.rows = math::affine_rows(&math::mul(&i.model(), &part.transform));
                    if !white {
                        let linear = linear_rgb(u32::from_be_bytes([0, i.color[0], i.color[1], i.color[2]]));
                        for ((out, l), factor) in instance.color.iter_mut().zip(linear).zip(part.base_color) {
                            *out = srgb_byte(l * factor);
                        }
                    }
                    if i.material[3] == 0 {
                        instance.material[0] = unit_byte(part.roughness);
                        instance.material[1] = unit_byte(part.metalness);
                    }
                    self.staging.push(instance);
                }
                part_draws.push((key, start..next + self.staging.len() as u32));
            }
        }
        let total = next as usize + self.staging.len();
        if total > self.instance_capacity {
            self.instance_capacity = total.next_power_of_two();
            self.instances = self.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("instances"),
                size: (self.instance_capacity * std::mem::size_of::<Instance>()) as u64,
                usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
        }
        let stride = std::mem::size_of::<Instance>() as u64;
        for (batch, range) in list.batches.iter().zip(&ranges) {
            if !batch.is_empty() {
                self.queue.write_buffer(&self.instances, u64::from(range.start) * stride, bytemuck::cast_slice(batch));
            }
        }
        if !self.staging.is_empty() {
            self.queue.write_buffer(&self.instances, u64::from(next) * stride, bytemuck::cast_slice(&self.staging));
        }

        let mut stats = RenderStats { draw_calls: 0, instances: total as u32 };
        let mut encoder = self.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("frame") });
        if l.cast_shadow {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("shadow"),
                color_attachments: &[],
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: &self.shadow_view,
                    depth_ops: Some(wgpu::Operations { load: wgpu::LoadOp::Clear(1.0), store: wgpu::StoreOp::Store }),
                    stencil_ops: None,
                }),
                ..Default::default()
            });
            pass.set_pipeline(&self.shadow_pipeline);
            pass.set_bind_group(0, &self.uniforms_group, &[]);
            stats.draw_calls += self.draw_instances(&mut pass, &ranges, &part_draws, false);
        }
        let target = self.target.as_ref().map(|t| (&t.msaa, &t.depth, &t.resolve_view));
        if let Some((msaa, depth, resolve)) = target {
            let clear = if list.flat { [0.0; 3] } else { linear_rgb(l.clear_color) };
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("main"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: msaa,
                    depth_slice: None,
                    resolve_target: Some(output.unwrap_or(resolve)),
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color {
                            r: f64::from(clear[0]),
                            g: f64::from(clear[1]),
                            b: f64::from(clear[2]),
                            a: 1.0,
                        }),
                        store: wgpu::StoreOp::Discard,
                    },
                })],
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: depth,
                    depth_ops: Some(wgpu::Operations { load: wgpu::LoadOp::Clear(1.0), store: wgpu::StoreOp::Discard }),
                    stencil_ops: None,
                }),
                ..Default::default()
            });
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &self.globals_group, &[]);
            pass.set_bind_group(1, &self.material_group, &[]);
            stats.draw_calls += self.draw_instances(&mut pass, &ranges, &part_draws, true);
            pass.set_pipeline(&self.sky_pipeline);
            pass.draw(0..3, 0..1);
            stats.draw_calls += 1;
        }
        // UI over the resolved frame: one draw for every panel shape, one for all text.
        let ui_draws = self.overlay.prepare(&self.device, &self.queue, &list.ui, &list.camera, size);
        if let (true, Some(target)) = (ui_draws > 0, self.target.as_ref()) {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("ui"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: output.unwrap_or(&target.resolve_view),
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations { load: wgpu::LoadOp::Load, store: wgpu::StoreOp::Store },
                })],
                ..Default::default()
            });
            self.overlay.draw(&mut pass);
            stats.draw_calls += ui_draws;
        }
        (encoder, stats)
    }

    /// One instanced draw per non-empty built-in mesh range and per model part; `textured`
    /// binds each part's base-colour texture (the shadow pass needs none). Returns the draw count.
    fn draw_instances(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        ranges: &[std::ops::Range<u32>],
        part_draws: &[((usize, usize), std::ops::Range<u32>)],
        textured: bool,
    ) -> u32 {
        pass.set_vertex_buffer(1, self.instances.slice(..));
        let mut draws = 0;
        let built_in = self.meshes.iter().zip(ranges).filter(|(_, r)| !r.is_empty()).map(|(mesh, range)| (mesh, None, range));
        let parts = part_draws.iter().filter_map(|(key, range)| self.asset_parts.get(key).map(|(mesh, group)| (mesh, Some(group), range)));
        for (mesh, group, range) in built_in.chain(parts) {
            if let Some(group) = group.filter(|_| textured) {
                pass.set_bind_group(1, group, &[]);
            }
            pass.set_vertex_buffer(0, mesh.vertices.slice(..));
            pass.set_index_buffer(mesh.indices.slice(..), wgpu::IndexFormat::Uint32);
            pass.draw_indexed(0..mesh.count, 0, range.clone());
            draws += 1;
        }
        draws
    }

    /// A material binding for a base-colour texture (or the white one).
    fn texture_group(&self, image: Option<&super::asset::Image>) -> wgpu::BindGroup {
        let Some(image) = image.filter(|i| i.width > 0 && i.height > 0 && i.rgba.len() == (i.width * i.height * 4) as usize) else {
            return self.material_group.clone();
        };
        let texture = self.device.create_texture_with_data(
            &self.queue,
            &wgpu::TextureDescriptor {
                label: Some("base colour"),
                size: wgpu::Extent3d { width: image.width, height: image.height, depth_or_array_layers: 1 },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: wgpu::TextureFormat::Rgba8UnormSrgb,
                usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
                view_formats: &[],
            },
            wgpu::util::TextureDataOrder::LayerMajor,
            &image.rgba,
        );
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("base colour"),
            layout: &self.material_layout,
            entries: &[
                wgpu::BindGroupEntry { binding: 0, resource: wgpu::BindingResource::TextureView(&view) },
                wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::Sampler(&self.linear_sampler) },
            ],
        })
    }

    /// Renders offscreen and reads the pixels back (RGBA8, sRGB, rows top to bottom).
    pub(crate) fn render_image(&mut self, list: &RenderList, width: u32, height: u32) -> Result<(Vec<u8>, RenderStats), RenderError> {
        if !(1..=8192).contains(&width) || !(1..=8192).contains(&height) {
            return Err(RenderError::Size(width, height));
        }
        let (mut encoder, stats) = self.encode(list, (width, height), None, COLOR_FORMAT);
        let Some(target) = &self.target else { return Err(RenderError::Readback("no target".into())) };
        let unpadded = width * 4;
        let padded = unpadded.div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
        let readback = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("readback"),
            size: u64::from(padded) * u64::from(height),
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        encoder.copy_texture_to_buffer(
            target.resolve.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &readback,
                layout: wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(padded), rows_per_image: Some(height) },
            },
            wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
        );
        let index = self.queue.submit([encoder.finish()]);
        let slice = readback.slice(..);
        let (tx, rx) = std::sync::mpsc::channel();
        slice.map_async(wgpu::MapMode::Read, move |r| {
            let _ = tx.send(r);
        });
        self.device
            .poll(wgpu::PollType::Wait { submission_index: Some(index), timeout: None })
            .map_err(|e| RenderError::Readback(e.to_string()))?;
        rx.recv().map_err(|e| RenderError::Readback(e.to_string()))?.map_err(|e| RenderError::Readback(e.to_string()))?;
        let mut rgba = Vec::with_capacity((unpadded * height) as usize);
        {
            let data = slice.get_mapped_range().map_err(|e| RenderError::Readback(e.to_string()))?;
            for row in data.chunks(padded as usize) {
                rgba.extend_from_slice(&row[..unpadded as usize]);
            }
        }
        readback.unmap();
        Ok((rgba, stats))
    }
}

fn upload(device: &wgpu::Device, m: &MeshData) -> GpuMesh {
    GpuMesh {
        vertices: device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("vertices"),
            contents: bytemuck::cast_slice(&m.vertices),
            usage: wgpu::BufferUsages::VERTEX,
        }),
        indices: device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("indices"),
            contents: bytemuck::cast_slice(&m.indices),
            usage: wgpu::BufferUsages::INDEX,
        }),
        count: m.indices.len() as u32,
    }
}

fn shadow_resources(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    globals: &wgpu::Buffer,
    sampler: &wgpu::Sampler,
    size: u32,
) -> (wgpu::TextureView, wgpu::BindGroup) {
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("shadow map"),
        size: wgpu::Extent3d { width: size, height: size, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: DEPTH_FORMAT,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
        view_formats: &[],
    });
    let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
    let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("globals"),
        layout,
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                    buffer: globals,
                    offset: 0,
                    size: NonZeroU64::new(std::mem::size_of::<Globals>() as u64),
                }),
            },
            wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::TextureView(&view) },
            wgpu::BindGroupEntry { binding: 2, resource: wgpu::BindingResource::Sampler(sampler) },
        ],
    });
    (view, group)
}

/// A headless instance (Vulkan only: lavapipe on machines without a GPU).
pub(crate) fn instance() -> wgpu::Instance {
    wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: wgpu::Backends::VULKAN,
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    })
}

/// Encodes RGBA8 pixels as a PNG.
pub fn encode_png(rgba: &[u8], width: u32, height: u32) -> Result<Vec<u8>, RenderError> {
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, width, height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(|e| RenderError::Png(e.to_string()))?;
        writer.write_image_data(rgba).map_err(|e| RenderError::Png(e.to_string()))?;
    }
    Ok(out)
}
