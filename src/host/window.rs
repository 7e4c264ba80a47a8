//! `limina run --window`: a winit window driving the fixed-step loop in real time and drawing
//! every frame with the leftover `alpha`. Escape or closing the window quits; so does reaching
//! `--frames`.

use std::sync::Arc;
use std::time::Instant;

use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{ElementState, KeyEvent, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::{Key, NamedKey};
use winit::window::{Fullscreen, Window, WindowId};

use super::{Engine, RealTimeDriver};
use crate::render::{RenderList, WindowRenderer};

struct App<'e> {
    engine: &'e Engine,
    frames: Option<u64>,
    size: (u32, u32),
    fullscreen: bool,
    window: Option<Arc<Window>>,
    renderer: Option<WindowRenderer>,
    list: RenderList,
    driver: RealTimeDriver,
    drawn: u64,
    error: Option<WindowError>,
}

impl App<'_> {
    fn fail(&mut self, event_loop: &ActiveEventLoop, error: WindowError) {
        self.error = Some(error);
        event_loop.exit();
    }

    fn frame(&mut self, event_loop: &ActiveEventLoop) {
        let plan = self.driver.frame(Instant::now());
        if let Err(e) = self.engine.step(u64::from(plan.steps)) {
            return self.fail(event_loop, WindowError::Script(e));
        }
        if let Err(e) = self.engine.frame(plan.alpha) {
            return self.fail(event_loop, WindowError::Script(e));
        }
        self.engine.fill_render_list(plan.alpha as f32, &mut self.list);
        if let Some(r) = &mut self.renderer {
            r.draw(&self.list);
        }
        self.drawn += 1;
        if self.frames.is_some_and(|n| self.drawn >= n) || self.engine.quit_requested() {
            event_loop.exit();
        }
    }
}

impl ApplicationHandler for App<'_> {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.window.is_some() {
            return;
        }
        let mut attrs = Window::default_attributes().with_title("limina").with_inner_size(PhysicalSize::new(self.size.0, self.size.1));
        if self.fullscreen {
            attrs = attrs.with_fullscreen(Some(Fullscreen::Borderless(None)));
        }
        let window = match event_loop.create_window(attrs) {
            Ok(w) => Arc::new(w),
            Err(e) => return self.fail(event_loop, WindowError::Create(e)),
        };
        match WindowRenderer::new(Arc::clone(&window)) {
            Ok(r) => self.renderer = Some(r),
            Err(e) => return self.fail(event_loop, WindowError::Renderer(e)),
        }
        self.window = Some(window);
        self.driver = RealTimeDriver::new(Instant::now());
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::KeyboardInput {
                event: KeyEvent { logical_key: Key::Named(NamedKey::Escape), state: ElementState::Pressed, .. },
                ..
            } => event_loop.exit(),
            WindowEvent::Resized(size) => {
                if let Some(r) = &mut self.renderer {
                    r.resize(size.width, size.height);
                }
            }
            WindowEvent::RedrawRequested => self.frame(event_loop),
            _ => {}
        }
    }

    fn about_to_wait(&mut self, _event_loop: &ActiveEventLoop) {
        if let Some(w) = &self.window {
            w.request_redraw();
        }
    }
}

/// Why the window could not run, or stopped.
#[derive(Debug, thiserror::Error)]
pub enum WindowError {
    #[error("cannot open a window ({0}); is a display available? (try xvfb-run)")]
    NoDisplay(#[source] winit::error::EventLoopError),
    #[error("cannot open a window: {0}")]
    Create(#[source] winit::error::OsError),
    #[error("{0}")]
    Renderer(#[source] crate::render::RenderError),
    #[error("the window loop failed: {0}")]
    Loop(#[source] winit::error::EventLoopError),
    #[error("{}", .0.message)]
    Script(#[source] crate::script::ScriptError),
}

/// Opens the window and runs until it is closed (or `frames` frames were drawn).
pub fn run(engine: &Engine, frames: Option<u64>, width: u32, height: u32, fullscreen: bool) -> Result<(), WindowError> {
    let event_loop = EventLoop::new().map_err(WindowError::NoDisplay)?;
    event_loop.set_control_flow(ControlFlow::Poll);
    let mut app = App {
        engine,
        frames,
        size: (width, height),
        fullscreen,
        window: None,
        renderer: None,
        list: RenderList::default(),
        driver: RealTimeDriver::new(Instant::now()),
        drawn: 0,
        error: None,
    };
    event_loop.run_app(&mut app).map_err(WindowError::Loop)?;
    match app.error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}
