//! Render-sync: reads plain world data (transforms, renderables, materials, camera, lighting)
//! and packs the GPU instance list the renderer draws. The world never learns the instance
//! layout; the renderer never sees the world. Hot once per drawn frame: no per-entity lookups
//! or allocations once the list has grown.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::asset::LoadedAsset;
use super::capture;
use super::mask::{self, MaskEntry};
use super::scene::{UiAt, UiItem};
use super::{Instance, MeshKey, RenderError, RenderList, RenderStats, Renderer, math};
use crate::world::{Camera, EntityId, Material, RenderShape, RenderableState, World};

/// Models by asset id, loaded once (by `three.loadGLTF`) and shared by every frame.
pub type ModelCache = HashMap<String, Arc<LoadedAsset>>;

/// Fills `list` with every renderable entity, transforms interpolated `alpha` of the way from
/// the start of the step to its end.
pub fn fill_render_list(world: &World, models: &ModelCache, alpha: f32, list: &mut RenderList) {
    fill_painted(world, models, alpha, list, |e| e.renderable.color);
}

/// Fills `list` as `fill_render_list` does, each entity in the colour `paint` gives it.
fn fill_painted(world: &World, models: &ModelCache, alpha: f32, list: &mut RenderList, mut paint: impl FnMut(&RenderableState<'_>) -> u32) {
    list.clear();
    fill_ui(world, alpha, list);
    list.camera = world.camera;
    list.lighting = world.lighting;
    let default_material = Material::default();
    world.for_each_renderable(|e| {
        let t = e.transform;
        let prev = e.previous.copied().unwrap_or(*t);
        let r = e.renderable;
        let m = e.material.unwrap_or(&default_material);
        let lerp = |a: f32, b: f32| a + (b - a) * alpha;
        let position = std::array::from_fn(|i| lerp(prev.position[i], t.position[i]));
        let rotation = if alpha >= 1.0 { t.rotation } else { math::nlerp(prev.rotation, t.rotation, alpha) };
        let scale = std::array::from_fn(|i| lerp(prev.scale[i], t.scale[i]) * r.size);
        let color = paint(&e);
        let instance =
            Instance::new(&math::trs(position, rotation, scale), color, [m.roughness, m.metalness], m.receive_shadow, m.cast_shadow);
        match r.shape {
            RenderShape::Box => list.push(MeshKey::Cube, instance),
            RenderShape::Sphere => list.push(MeshKey::Sphere, instance),
            RenderShape::Capsule => list.push(MeshKey::Capsule, instance),
            RenderShape::Asset(handle) => {
                let mut instance = instance;
                // The entity's own material overrides the model's.
                instance.material[3] = if e.material.is_some() { 255 } else { 0 };
                if let Some(asset) = world.model_asset(handle).and_then(|id| models.get(id)) {
                    list.push_asset(handle, asset, instance);
                }
            }
        }
    });
}

/// Resolves every UI element's anchor and lifecycle for this frame into `list.ui`, in draw
/// order (render order, then creation). Elements following an entity that no longer exists, or
/// fully faded out, are not drawn.
fn fill_ui(world: &World, alpha: f32, list: &mut RenderList) {
    use crate::world::ui::Anchor;
    let tick = world.ui.tick;
    for element in world.ui.iter_shared() {
        let at = match &element.spec.anchor {
            Anchor::Screen(_) => UiAt::Screen,
            Anchor::World(w) => {
                let base = match (&w.entity, w.point) {
                    (Some(entity), _) => world.resolve(entity).and_then(|id| world.interpolated_position(id, alpha)),
                    (None, Some(p)) => Some(p.map(|v| v as f32)),
                    (None, None) => None,
                };
                let Some(base) = base else { continue };
                let offset = w.offset.unwrap_or_default();
                UiAt::World(std::array::from_fn(|i| base[i] + offset[i] as f32))
            }
        };
        let opacity = element.opacity(tick);
        if opacity <= 0.0 {
            continue;
        }
        list.ui.push(UiItem { element: std::sync::Arc::clone(element), at, opacity, tick });
    }
    // A stable sort keeps creation order among equal render orders.
    list.ui.sort_by(|a, b| a.element.spec.anchor.render_order().total_cmp(&b.element.spec.anchor.render_order()));
}

/// What one capture asks for.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CaptureRequest {
    pub width: u32,
    pub height: u32,
    /// The view; None is the world's camera.
    pub camera: Option<Camera>,
    /// Draw id labels over the nearest visible entities (at most `capture::MAX_LABELS`).
    pub labels: bool,
    /// Draw an entity mask (`render::mask`) instead of the picture, and count its pixels.
    pub mask: bool,
}

/// One capture: the PNG, what drawing it took, the view it was taken from, and the labelled
/// entities nearest first (with how many visible ones went unlabelled past the limit).
#[derive(Debug)]
pub(crate) struct Capture {
    pub png: Vec<u8>,
    pub stats: RenderStats,
    pub camera: Camera,
    pub labels: Vec<capture::EntityLabel>,
    pub labels_omitted: usize,
    /// With `mask`: the entities it shows, most pixels first.
    pub masks: Vec<MaskEntry>,
}

/// The offscreen renderer, made on first capture. Shared with the heavy-work thread, which
/// renders the captures whose callers can wait (`skills::deferred`); the engine thread renders
/// a script's capture itself, after any capture the worker is drawing.
pub(crate) type SharedRenderer = Arc<Mutex<Option<Renderer>>>;

/// The engine's render state: the offscreen renderer (made on first capture, so worlds that
/// never draw never need a GPU), a reused instance list, and the loaded models.
#[derive(Default)]
pub struct RenderState {
    renderer: SharedRenderer,
    list: RenderList,
    pub models: ModelCache,
}

impl std::fmt::Debug for RenderState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ready = self.renderer.try_lock().map(|r| r.is_some()).ok();
        f.debug_struct("RenderState").field("ready", &ready).field("models", &self.models.len()).finish()
    }
}

/// A capture as the engine thread prepares it: everything the picture needs, read from the
/// world at one tick (instances, UI and labels, the view). Rendering it needs no world, so it
/// may happen on another thread while the world steps on.
#[derive(Debug)]
pub(crate) struct PreparedCapture {
    list: RenderList,
    width: u32,
    height: u32,
    camera: Camera,
    labels: Vec<capture::EntityLabel>,
    labels_omitted: usize,
    /// A mask's drawn entities (their colours are what it decodes); None for a picture.
    masked: Option<Vec<EntityId>>,
}

impl PreparedCapture {
    /// Renders it with the shared renderer (made here on first use) and encodes the PNG.
    pub(crate) fn render(&mut self, renderer: &SharedRenderer) -> Result<Capture, RenderError> {
        let mut slot = match renderer.lock() {
            Ok(slot) => slot,
            // A render panicked while it held the renderer: drop it (its GPU state is unknown)
            // and make another.
            Err(poisoned) => {
                let mut slot = poisoned.into_inner();
                *slot = None;
                renderer.clear_poison();
                slot
            }
        };
        let r = match &mut *slot {
            Some(r) => r,
            empty => empty.insert(Renderer::headless()?),
        };
        let rgba = r.render_rgba(&self.list, self.width, self.height)?;
        let masks = self.masked.as_deref().map_or_else(Vec::new, |drawn| mask::read(&rgba, self.width, self.height, drawn));
        let png = super::encode_png(&rgba, self.width, self.height)?;
        let labels = std::mem::take(&mut self.labels);
        Ok(Capture { png, stats: r.stats(), camera: self.camera, labels, labels_omitted: self.labels_omitted, masks })
    }
}

impl RenderState {
    /// Fills `list` from the world with this state's models.
    pub(crate) fn fill(&self, world: &World, alpha: f32, list: &mut RenderList) {
        fill_render_list(world, &self.models, alpha, list);
    }

    /// Renders the world as it is (alpha = 1) to a PNG, optionally from another camera.
    pub fn capture(
        &mut self,
        world: &World,
        width: u32,
        height: u32,
        camera: Option<Camera>,
    ) -> Result<(Vec<u8>, RenderStats), RenderError> {
        let c = self.capture_view(world, &CaptureRequest { width, height, camera, labels: false, mask: false })?;
        Ok((c.png, c.stats))
    }

    /// Renders the world as it is (alpha = 1) to a PNG as `request` asks, on this thread: see
    /// `prepare_capture`.
    pub(crate) fn capture_view(&mut self, world: &World, request: &CaptureRequest) -> Result<Capture, RenderError> {
        let list = std::mem::take(&mut self.list);
        let mut prepared = self.prepare_capture(world, request, list);
        let result = prepared.render(&self.renderer);
        self.list = prepared.list;
        result
    }

    /// Reads what a capture of the world as it is (alpha = 1) needs into `list`, as `request`
    /// asks: from its camera (else the world's), with id labels over the nearest visible
    /// entities when asked, or as a mask (listing the labelled entities without drawing them).
    /// Reads the world, never writes it.
    pub(crate) fn prepare_capture(&self, world: &World, request: &CaptureRequest, mut list: RenderList) -> PreparedCapture {
        let masked = if request.mask {
            let mut drawn = Vec::new();
            fill_painted(world, &self.models, 1.0, &mut list, |e| {
                drawn.push(e.id);
                mask::color_of(e.id)
            });
            list.flat = true;
            list.ui.clear();
            Some(drawn)
        } else {
            fill_render_list(world, &self.models, 1.0, &mut list);
            None
        };
        if let Some(c) = request.camera {
            list.camera = c;
        }
        let (labels, labels_omitted) = if request.labels {
            capture::visible_entities(world, &list.camera, request.width, request.height, capture::MAX_LABELS)
        } else {
            (Vec::new(), 0)
        };
        if !request.mask {
            list.ui.extend(capture::label_items(&labels, request.height, world.ui.tick));
        }
        let camera = list.camera;
        PreparedCapture { list, width: request.width, height: request.height, camera, labels, labels_omitted, masked }
    }

    /// The renderer, for a prepared capture rendered elsewhere.
    pub(crate) fn shared_renderer(&self) -> SharedRenderer {
        Arc::clone(&self.renderer)
    }

    /// A camera framing entity `id` (see `capture::frame_sphere`) from `view`'s direction, for a
    /// frame `aspect` wide per unit of height; None for unknown ids.
    pub(crate) fn framing(&self, world: &World, id: crate::world::EntityId, view: Camera, aspect: f32) -> Option<Camera> {
        let (centre, radius) = capture::bounding_sphere(world, &self.models, id)?;
        Some(capture::frame_sphere(view, centre, radius, aspect))
    }

    /// Counts of the last captured frame (waits for a capture the worker is drawing).
    pub fn stats(&self) -> RenderStats {
        self.renderer.lock().ok().and_then(|r| r.as_ref().map(Renderer::stats)).unwrap_or_default()
    }
}
