//! Rendering: a wgpu forward renderer in rend3's spirit. Render-sync (`sync.rs`) reads plain
//! world data into a `RenderList` (camera, lighting, instances per mesh) once per frame; the
//! renderer owns only GPU resources, never world state. Headless rendering (screenshots, `render.capture`) needs a
//! Vulkan driver — Mesa's CPU driver (lavapipe) is enough; headless runs that draw nothing need
//! no GPU at all. `capture.rs` holds what a capture adds to a frame: framing one entity, and
//! entity id labels drawn through the UI overlay.

pub mod asset;
pub(crate) mod capture;
mod gpu;
pub mod mask;
pub mod math;
pub mod mesh;
mod overlay;
pub mod scene;
pub mod sky;
mod sync;

pub use gpu::{RenderError, encode_png};
pub use scene::{Camera, Instance, Lighting, MeshKey, RenderList, RenderStats, UiAt, UiItem, linear_rgb};
pub(crate) use sync::{Capture, CaptureRequest};
pub use sync::{ModelCache, RenderState, fill_render_list};

/// A renderer presenting to a window.
pub(crate) struct WindowRenderer {
    gpu: gpu::Gpu,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    last: RenderStats,
}

impl std::fmt::Debug for WindowRenderer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WindowRenderer").field("size", &(self.config.width, self.config.height)).finish()
    }
}

impl WindowRenderer {
    pub fn new(window: std::sync::Arc<winit::window::Window>) -> Result<Self, RenderError> {
        crate::native_noise::quiet("opening the GPU", || Self::open(window))
    }

    fn open(window: std::sync::Arc<winit::window::Window>) -> Result<Self, RenderError> {
        let instance = gpu::instance();
        let size = window.inner_size();
        let surface = instance.create_surface(window).map_err(|e| RenderError::Device(format!("cannot create a window surface: {e}")))?;
        // The adapter must be able to present to this surface.
        let probe = pollster::block_on(
            instance.request_adapter(&wgpu::RequestAdapterOptions { compatible_surface: Some(&surface), ..Default::default() }),
        )
        .map_err(|e| RenderError::NoAdapter(e.to_string()))?;
        let caps = surface.get_capabilities(&probe);
        let format = caps
            .formats
            .iter()
            .copied()
            .find(|f| f.is_srgb())
            .or_else(|| caps.formats.first().copied())
            .ok_or_else(|| RenderError::Device("the surface offers no formats".into()))?;
        let gpu = gpu::Gpu::new(&instance, Some(&surface), format)?;
        let config = wgpu::SurfaceConfiguration {
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            format,
            color_space: wgpu::SurfaceColorSpace::Auto,
            width: size.width.max(1),
            height: size.height.max(1),
            present_mode: wgpu::PresentMode::AutoVsync,
            desired_maximum_frame_latency: 2,
            alpha_mode: caps.alpha_modes.first().copied().unwrap_or(wgpu::CompositeAlphaMode::Auto),
            view_formats: vec![],
        };
        surface.configure(&gpu.device, &config);
        Ok(Self { gpu, surface, config, last: RenderStats::default() })
    }

    pub fn resize(&mut self, width: u32, height: u32) {
        if width == 0 || height == 0 {
            return;
        }
        self.config.width = width;
        self.config.height = height;
        self.surface.configure(&self.gpu.device, &self.config);
    }

    /// Draws and presents one frame; a lost or outdated surface is reconfigured and the frame
    /// skipped.
    pub fn draw(&mut self, list: &RenderList) -> RenderStats {
        let frame = match self.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(t) | wgpu::CurrentSurfaceTexture::Suboptimal(t) => t,
            wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                self.surface.configure(&self.gpu.device, &self.config);
                return self.last;
            }
            _ => return self.last,
        };
        let view = frame.texture.create_view(&wgpu::TextureViewDescriptor::default());
        let (encoder, stats) = self.gpu.encode(list, (self.config.width, self.config.height), Some(&view), self.config.format);
        self.gpu.queue.submit([encoder.finish()]);
        self.gpu.queue.present(frame);
        self.last = stats;
        stats
    }
}

/// An offscreen renderer.
#[derive(Debug)]
pub(crate) struct Renderer {
    gpu: gpu::Gpu,
    last: RenderStats,
}

impl Renderer {
    pub fn headless() -> Result<Self, RenderError> {
        let gpu = crate::native_noise::quiet("opening the GPU", || gpu::Gpu::new(&gpu::instance(), None, gpu::COLOR_FORMAT))?;
        Ok(Self { gpu, last: RenderStats::default() })
    }

    /// What the UI text holds on the GPU and uploaded on the last frame.
    pub(crate) fn ui_text_stats(&self) -> overlay::TextStats {
        self.gpu.overlay.text_stats()
    }

    pub(crate) fn adapter_name(&self) -> &str {
        &self.gpu.adapter_name
    }

    /// Renders a frame and returns its RGBA8 pixels (sRGB, top row first).
    pub(crate) fn render_rgba(&mut self, list: &RenderList, width: u32, height: u32) -> Result<Vec<u8>, RenderError> {
        let (rgba, stats) = self.gpu.render_image(list, width, height)?;
        self.last = stats;
        Ok(rgba)
    }

    /// Encodes a frame without submitting or waiting: the CPU cost of a frame (benchmarks).
    pub(crate) fn encode_only(&mut self, list: &RenderList, width: u32, height: u32) -> RenderStats {
        let (encoder, stats) = self.gpu.encode(list, (width, height), None, gpu::COLOR_FORMAT);
        drop(encoder);
        self.last = stats;
        stats
    }

    /// Submits the uploads `encode_only` staged and waits for the device, so a benchmark's
    /// frames recycle their staging memory as real frames do (call it outside the timed part).
    pub(crate) fn flush(&mut self) {
        self.gpu.queue.submit([]);
        let _ = self.gpu.device.poll(wgpu::PollType::Wait { submission_index: None, timeout: None });
    }

    /// Counts of the last frame.
    pub fn stats(&self) -> RenderStats {
        self.last
    }
}
