//! The `scenes` ops behind `scene.save` and `scene.load`, and `apply`: how a checked `Scene`
//! becomes the world.
//!
//! A save only reads the world (`scenes::capture`) and writes a file. A load never touches the
//! world itself: it replaces the scene through the registry, as the caller, one skill call per
//! change — `scene.destroyEntity` for every live entity, then per scene entity
//! `scene.createEntity` or `three.loadGLTF`, `ecs.updateComponent` (rotation, scale) or
//! `three.setTransform` (Euler angles), `three.setMaterial`, `ecs.addComponent` per tag, and last
//! `three.setLighting` and `render.setCamera` — so each change is validated, permission-checked,
//! policed and traced exactly as a script's call would be, and a command log that records
//! mutating calls records these (not the load, which reads a file it cannot replay).
//!
//! Everything that can be known before the first change is checked first, so a refused load
//! changes nothing: the scene file as a whole (`scenes::read`), no agent inhabiting an entity
//! (the load would destroy its body), the entity count against the world's capacity, every
//! model's asset present, and every planned call against the caller's permissions and the live
//! policy taken together (`PolicyEngine::preview`: revocations, profile, quota windows and call
//! budget with room for all of them). What cannot be foreseen (a cpu budget running out midway,
//! a model file that does not parse) stops the load at that call; the error says which call
//! failed with its own code and message, and what had changed by then.
//!
//! Ids: a fresh world numbers entities from `ent_0001`, and a load creates them in the scene's
//! order, so a scene saved from a world whose ids are dense (`ent_0001..n`, nothing destroyed)
//! loads into a fresh engine under the same ids, with the same transforms: the same world hash.
//! A load never picks ids (ids are never reused, and there is no skill to choose one); when an
//! entity comes out under another id than the one saved, the result says `renumbered`.
//!
//! The caller of the nested calls is rebuilt from the handler's `ctx` (agent, session, profile,
//! the permissions it actually holds), with `scene.load`'s own policy decision as their cause.
//! `ctx` does not carry a package's name, so a package's nested calls are attributed to its
//! agent without the package; they still hold only the package's permissions, and `scene.load`
//! requires every permission its calls need.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use mlua::{Lua, Table};
use serde_json::{Map, Value, json};

use crate::agents::table::Agents;
use crate::policy::{DecisionContext, Permission, PermissionSet, PlannedCalls, PolicyEngine};
use crate::scenes::{self, Look, Rotation, Scene, SceneEntity, SceneError, files};
use crate::script::convert::blob;
use crate::skills::{Caller, ErrorCode, HandlerFailure, SkillFailure, SkillRegistry, SkillResponse};
use crate::world::{Camera, EntityId, Lighting, World};

/// Runs a skill through the registry pipeline as a caller (the engine's `Host::invoke`).
pub(crate) type Invoke = Rc<dyn Fn(&Caller, &str, Value) -> SkillResponse>;

const DESTROY: &str = "scene.destroyEntity";
const CREATE: &str = "scene.createEntity";
const LOAD_MODEL: &str = "three.loadGLTF";
const UPDATE: &str = "ecs.updateComponent";
const SET_TRANSFORM: &str = "three.setTransform";
const SET_MATERIAL: &str = "three.setMaterial";
const ADD_TAG: &str = "ecs.addComponent";
const SET_LIGHTING: &str = "three.setLighting";
const SET_CAMERA: &str = "render.setCamera";

/// What a scene is applied to, and who applies it.
pub(crate) struct SceneTarget<'a> {
    pub world: &'a RefCell<World>,
    pub registry: &'a RefCell<SkillRegistry>,
    /// The live policy, when calls are decided by it (else the static profile check).
    pub policy: Option<&'a RefCell<PolicyEngine>>,
    pub agents: &'a RefCell<Agents>,
    /// Models load from its `assets/`.
    pub project: &'a Path,
    pub caller: &'a Caller,
    pub tick: u64,
    /// Runs one call as `caller` through the registry.
    pub invoke: &'a dyn Fn(&str, Value) -> SkillResponse,
}

/// What a load did.
#[derive(Debug, Clone, PartialEq)]
pub struct SceneLoaded {
    /// The new entities, in the scene's order.
    pub created: Vec<EntityId>,
    /// Entities the scene replaced.
    pub destroyed: usize,
    /// Some entity came out under another id than the scene recorded.
    pub renumbered: bool,
    /// Skill calls made.
    pub calls: u64,
}

/// Why a load did not complete; `changed` says whether the world was touched before it stopped.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct SceneApplyError {
    pub code: ErrorCode,
    pub message: String,
    pub changed: bool,
}

fn refused(code: ErrorCode, message: impl Into<String>) -> SceneApplyError {
    SceneApplyError { code, message: message.into(), changed: false }
}

/// One planned skill call; `entity` is filled in once the entity exists.
struct Step {
    skill: &'static str,
    input: Map<String, Value>,
}

impl Step {
    fn new(skill: &'static str, input: Value) -> Self {
        let input = match input {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        Step { skill, input }
    }
}

/// The calls that build one entity: its creation, then the calls naming it.
struct EntityPlan {
    create: Step,
    then: Vec<Step>,
}

fn vector(v: &[f32]) -> Value {
    Value::Array(v.iter().map(|c| json!(f64::from(*c))).collect())
}

fn plan_entity(e: &SceneEntity) -> EntityPlan {
    let mut create = json!({"position": vector(&e.position), "size": f64::from(e.size)});
    let skill = match &e.look {
        Look::Model(asset) => {
            create["assetId"] = json!(asset);
            LOAD_MODEL
        }
        look => {
            create["shape"] = json!(look.shape_name());
            create["color"] = json!(e.color);
            CREATE
        }
    };
    if let Some(b) = e.body {
        let kind = if b.kind == crate::physics::BodyKind::Dynamic { "dynamic" } else { "static" };
        create[kind] = json!(true);
        create["friction"] = json!(f64::from(b.friction));
        create["restitution"] = json!(f64::from(b.restitution));
        if let Some(c) = b.collider {
            create["collider"] = json!(c.as_str());
        }
    }
    let mut then = Vec::new();
    match e.rotation {
        Some(Rotation::Quaternion(q)) => then.push(Step::new(UPDATE, json!({"component": "rotation", "value": vector(&q)}))),
        Some(Rotation::Euler(a)) => then.push(Step::new(SET_TRANSFORM, json!({"rotationEuler": vector(&a)}))),
        None => {}
    }
    if let Some(s) = e.scale {
        then.push(Step::new(UPDATE, json!({"component": "scale", "value": vector(&s)})));
    }
    let model_color = matches!(e.look, Look::Model(_)) && e.color != 0xffffff;
    if e.material.is_some() || model_color {
        let mut input = json!({});
        if model_color {
            input["color"] = json!(e.color);
        }
        if let Some(m) = e.material {
            input["roughness"] = json!(f64::from(m.roughness));
            input["metalness"] = json!(f64::from(m.metalness));
            input["castShadow"] = json!(m.cast_shadow);
            input["receiveShadow"] = json!(m.receive_shadow);
        }
        then.push(Step::new(SET_MATERIAL, input));
    }
    for tag in &e.tags {
        then.push(Step::new(ADD_TAG, json!({"component": tag})));
    }
    EntityPlan { create: Step::new(skill, create), then }
}

fn lighting_input(l: &Lighting) -> Value {
    json!({
        "ambientColor": l.ambient_color,
        "ambientIntensity": f64::from(l.ambient_intensity),
        "directionalColor": l.directional_color,
        "directionalIntensity": f64::from(l.directional_intensity),
        "direction": vector(&l.direction),
        "castShadow": l.cast_shadow,
        "shadowMapSize": l.shadow_map_size,
        "shadowCameraExtent": f64::from(l.shadow_camera_extent),
        "shadowCameraNear": f64::from(l.shadow_camera_near),
        "shadowCameraFar": f64::from(l.shadow_camera_far),
        "shadowBias": f64::from(l.shadow_bias),
    })
}

fn camera_input(c: &Camera) -> Value {
    json!({"position": vector(&c.position), "target": vector(&c.target), "fov": f64::from(c.fov_deg)})
}

/// Replaces the target's scene with `scene` (see the module doc).
pub(crate) fn apply(target: &SceneTarget<'_>, scene: &Scene) -> Result<SceneLoaded, SceneApplyError> {
    // Before any change: what the world and the caller allow.
    let inhabited = {
        let world = target.world.borrow();
        target.agents.borrow().iter().find_map(|a| a.entity.filter(|e| world.transform(*e).is_some()).map(|e| (a.id.to_string(), e)))
    };
    if let Some((agent, entity)) = inhabited {
        return Err(refused(
            ErrorCode::HandlerError,
            format!(
                "agent {agent} inhabits {entity}; scene.load replaces every entity, so despawn the world's agents first (agent.despawn)"
            ),
        ));
    }
    let existing: Vec<EntityId> = {
        let world = target.world.borrow();
        if scene.entities.len() > world.capacity() {
            return Err(refused(
                ErrorCode::CapacityExceeded,
                format!("the scene has {} entities, more than the world holds ({})", scene.entities.len(), world.capacity()),
            ));
        }
        let mut ids = Vec::with_capacity(world.entity_count());
        world.for_each_entity(|e| ids.push(e.id));
        ids
    };
    for (i, e) in scene.entities.iter().enumerate() {
        if let Look::Model(asset) = &e.look {
            check_model(target.project, asset)
                .map_err(|why| refused(ErrorCode::InvalidInput, format!("entities[{}].model: {why}", i + 1)))?;
        }
    }
    let plans: Vec<EntityPlan> = scene.entities.iter().map(plan_entity).collect();
    let mut counts: BTreeMap<&'static str, u64> = BTreeMap::new();
    *counts.entry(DESTROY).or_default() += existing.len() as u64;
    for p in &plans {
        *counts.entry(p.create.skill).or_default() += 1;
        for step in &p.then {
            *counts.entry(step.skill).or_default() += 1;
        }
    }
    *counts.entry(SET_LIGHTING).or_default() += 1;
    *counts.entry(SET_CAMERA).or_default() += 1;
    preview(target, &counts)?;

    // The changes, each a call through the registry.
    let mut progress = Progress { destroyed: 0, created: Vec::with_capacity(plans.len()), calls: 0 };
    for id in existing {
        call(target, &mut progress, "the existing entities", DESTROY, json!({"entity": id.to_string()}))?;
        progress.destroyed += 1;
    }
    let mut renumbered = false;
    for (i, (plan, e)) in plans.into_iter().zip(&scene.entities).enumerate() {
        let at = format!("entities[{}]", i + 1);
        let result = call(target, &mut progress, &at, plan.create.skill, Value::Object(plan.create.input))?;
        let Some(id) = result.get("entity").and_then(Value::as_str).and_then(EntityId::parse) else {
            return Err(progress.stopped(&at, plan.create.skill, ErrorCode::HandlerError, "it returned no entity id"));
        };
        progress.created.push(id);
        renumbered |= e.id.is_some_and(|saved| saved != id);
        for mut step in plan.then {
            step.input.insert("entity".into(), json!(id.to_string()));
            call(target, &mut progress, &at, step.skill, Value::Object(step.input))?;
        }
    }
    let lighting = scene.lighting.unwrap_or_default();
    call(target, &mut progress, "lighting", SET_LIGHTING, lighting_input(&lighting))?;
    let camera = scene.camera.unwrap_or_default();
    call(target, &mut progress, "camera", SET_CAMERA, camera_input(&camera))?;
    Ok(SceneLoaded { created: progress.created, destroyed: progress.destroyed, renumbered, calls: progress.calls })
}

/// Why a scene's model cannot be placed.
#[derive(Debug, thiserror::Error)]
enum ModelError {
    #[error("'{asset}' cannot be placed: this limina was built without the `render` feature, which loads models")]
    NoRender { asset: String },
    #[error(transparent)]
    Asset(#[from] crate::paths::PathError),
}

/// A model's asset must be there before the load starts (it would stop halfway otherwise).
fn check_model(project: &Path, asset: &str) -> Result<(), ModelError> {
    if !cfg!(feature = "render") {
        return Err(ModelError::NoRender { asset: asset.to_string() });
    }
    crate::paths::resolve_under(&project.join("assets"), asset, &[".glb", ".gltf"])?;
    Ok(())
}

/// Every planned call against the caller's permissions and the live policy, all at once.
fn preview(target: &SceneTarget<'_>, counts: &BTreeMap<&'static str, u64>) -> Result<(), SceneApplyError> {
    let registry = target.registry.borrow();
    let mut needs: Vec<(&'static str, Vec<Permission>, u64)> = Vec::with_capacity(counts.len());
    for (skill, count) in counts {
        let Some(s) = registry.get(skill) else {
            return Err(refused(ErrorCode::HandlerError, format!("scene.load builds with {skill}, which is not registered")));
        };
        needs.push((skill, s.permissions.clone(), *count));
    }
    drop(registry);
    let before = |why: String| refused(ErrorCode::Forbidden, format!("{why} (checked before any change: the world is as it was)"));
    let caller = target.caller;
    for (skill, required, count) in &needs {
        if *count > 0
            && let Some(missing) = caller.permissions.first_missing(required)
        {
            return Err(before(format!(
                "{skill}: {}",
                crate::policy::missing_permission(missing, &caller.profile, caller.package.as_deref())
            )));
        }
    }
    let Some(policy) = target.policy else { return Ok(()) };
    let base = DecisionContext {
        agent_id: &caller.agent_id,
        session_id: &caller.session_id,
        profile: &caller.profile,
        skill: "scene.load",
        required: &[],
        granted: caller.permissions,
        tick: target.tick,
        package: caller.package.as_deref(),
        acting_for: caller.acting_for.as_deref().unwrap_or(&[]),
    };
    let plan: Vec<PlannedCalls<'_>> =
        needs.iter().map(|(skill, required, count)| PlannedCalls { skill, required, count: *count }).collect();
    policy.borrow().preview(&base, &plan).map_err(|r| before(r.to_string()))
}

/// How far a load got.
struct Progress {
    destroyed: usize,
    created: Vec<EntityId>,
    calls: u64,
}

impl Progress {
    fn stopped(&self, at: &str, skill: &str, code: ErrorCode, why: &str) -> SceneApplyError {
        let changed = self.destroyed > 0 || !self.created.is_empty() || self.calls > 0;
        let created = match (self.created.first(), self.created.last()) {
            (Some(first), Some(last)) if first != last => format!("{} created ({first}..{last})", self.created.len()),
            (Some(only), _) => format!("1 created ({only})"),
            _ => "none created".to_string(),
        };
        let state = if changed {
            format!(
                "by then {} existing entities were destroyed and {created}; the world holds part of the scene, load it again once the cause is fixed",
                self.destroyed
            )
        } else {
            "nothing had changed".to_string()
        };
        SceneApplyError { code, message: format!("scene load stopped at {at}: {skill} failed: {why}; {state}"), changed }
    }
}

/// One call as the target's caller; a failure stops the load.
fn call(target: &SceneTarget<'_>, progress: &mut Progress, at: &str, skill: &'static str, input: Value) -> Result<Value, SceneApplyError> {
    let response = (target.invoke)(skill, input);
    if response.success {
        progress.calls += 1;
        return Ok(response.result.unwrap_or(Value::Null));
    }
    let (code, message) = response.error.map_or((ErrorCode::HandlerError, "no reason given".to_string()), |f| (f.code, f.message));
    Err(progress.stopped(at, skill, code, &format!("[{}] {message}", code.as_str())))
}

/// What the `scenes` ops need.
pub(crate) struct ScenesParts {
    pub world: Rc<RefCell<World>>,
    pub registry: Rc<RefCell<SkillRegistry>>,
    pub policy: Rc<RefCell<PolicyEngine>>,
    pub policy_enabled: bool,
    pub agents: Rc<RefCell<Agents>>,
    pub project: PathBuf,
    /// The folder whose `scenes/` saves go to: the project, or a playtest's private folder.
    pub saves: PathBuf,
    pub invoke: Invoke,
    /// The engine's tick now (a deferred load applies at a later tick than it was called on).
    pub now: Rc<dyn Fn() -> u64>,
    /// Where saves and loads park their heavy half when their call may wait.
    pub heavy: Rc<crate::skills::HeavyWork>,
}

/// A scene file problem as a skill failure: a missing file is `not_found`, an unreadable one a
/// `handler_error`, anything about the name or the contents `invalid_input`.
fn scene_failure(e: SceneError) -> SkillFailure {
    let code = match e {
        SceneError::Missing { .. } => ErrorCode::NotFound,
        SceneError::Io { .. } => ErrorCode::HandlerError,
        SceneError::TooMany { .. } => ErrorCode::CapacityExceeded,
        _ => ErrorCode::InvalidInput,
    };
    SkillFailure { code, message: e.to_string() }
}

fn into_lua(failure: SkillFailure) -> mlua::Error {
    HandlerFailure::new(failure.code, failure.message).into_lua()
}

/// `scene.save`'s second half: prints the captured scene and writes it (on the heavy-work thread
/// when the call may wait; no world is needed by then).
fn write_scene(dir: &Path, path: &Path, name: &str, overwrite: bool, scene: &Scene) -> Result<Value, SkillFailure> {
    let text = scenes::to_luau(scene);
    files::write_atomic(dir, path, name, &text, overwrite).map_err(scene_failure)?;
    Ok(json!({"name": name, "path": files::shown(name), "entities": scene.entities.len(), "bytes": text.len()}))
}

/// `scene.load`'s last half, on the engine thread: applies a read and checked scene as `caller`.
fn load_scene(p: &ScenesParts, caller: &Caller, tick: u64, name: &str, scene: &Scene) -> Result<Value, SkillFailure> {
    let invoke = |skill: &str, input: Value| (p.invoke)(caller, skill, input);
    let target = SceneTarget {
        world: &p.world,
        registry: &p.registry,
        policy: p.policy_enabled.then_some(&*p.policy),
        agents: &p.agents,
        project: &p.project,
        caller,
        tick,
        invoke: &invoke,
    };
    let loaded = apply(&target, scene).map_err(|e| SkillFailure { code: e.code, message: e.message })?;
    Ok(json!({
        "name": name,
        "entities": loaded.created.len(),
        "destroyed": loaded.destroyed,
        "renumbered": loaded.renumbered,
        "calls": loaded.calls,
    }))
}

/// The caller a handler's `ctx` describes (see the module doc), and the call's tick. An agent
/// caller acts for its spawners in the load's nested calls as in its own.
fn caller_of(ctx: &Table, agents: &RefCell<Agents>) -> mlua::Result<(Caller, u64)> {
    let mut permissions = PermissionSet::default();
    for name in ctx.get::<Vec<String>>("permissions")? {
        if let Some(p) = Permission::parse(&name) {
            permissions.insert(p);
        }
    }
    let agent_id: String = ctx.get("agentId")?;
    let acting_for = agents.borrow().acting_for(&agent_id);
    let caller = Caller {
        agent_id: agent_id.into(),
        session_id: ctx.get::<String>("sessionId")?.into(),
        profile: ctx.get::<String>("profile")?.into(),
        permissions,
        package: None,
        cause: ctx.get::<Option<String>>("decisionId")?.map(Into::into),
        acting_for: (!acting_for.is_empty()).then_some(acting_for),
    };
    Ok((caller, ctx.get("tick")?))
}

/// Builds the `scenes` ops table. A caller that can wait (`skills::deferred`) has a save's
/// printing and writing, and a load's reading and checking, done on the heavy-work thread; a
/// load's changes are still made on the engine thread, all between two steps, so no one sees a
/// half-loaded scene.
pub(crate) fn create(lua: &Lua, parts: ScenesParts) -> mlua::Result<Table> {
    let ops = lua.create_table()?;
    let parts = Rc::new(parts);

    let p = Rc::clone(&parts);
    ops.set(
        "save",
        lua.create_function(move |lua, (name, overwrite): (String, bool)| {
            let (dir, path) = files::for_save(&p.saves, &name, overwrite).map_err(|e| into_lua(scene_failure(e)))?;
            let scene = scenes::capture(&p.world.borrow());
            if p.heavy.may_defer("scene.save").map_err(HandlerFailure::into_lua)? {
                p.heavy.park(move || write_scene(&dir, &path, &name, overwrite, &scene));
                return Ok(mlua::Value::Nil);
            }
            blob(lua, write_scene(&dir, &path, &name, overwrite, &scene).map_err(into_lua)?).map(mlua::Value::UserData)
        })?,
    )?;

    let p = Rc::clone(&parts);
    ops.set(
        "load",
        lua.create_function(move |lua, (name, ctx): (String, Table)| {
            // A playtest's own saves first (they are not in the project), then the project's.
            let path = match files::existing(&p.saves, &name) {
                Err(SceneError::Missing { .. }) if p.saves != p.project => files::existing(&p.project, &name),
                found => found,
            }
            .map_err(|e| into_lua(scene_failure(e)))?;
            let capacity = p.world.borrow().capacity();
            let (caller, tick) = caller_of(&ctx, &p.agents)?;
            let shown = files::shown(&name);
            if p.heavy.may_defer("scene.load").map_err(HandlerFailure::into_lua)? {
                let finish = Rc::clone(&p);
                p.heavy.park_then(
                    move || scenes::read_file(&path, &shown, capacity).map_err(scene_failure),
                    // Applied at the tick the read is done on: the policy's preview counts from it.
                    move |scene| load_scene(&finish, &caller, (finish.now)(), &name, &scene),
                );
                return Ok(mlua::Value::Nil);
            }
            let scene = scenes::read_file(&path, &shown, capacity).map_err(|e| into_lua(scene_failure(e)))?;
            blob(lua, load_scene(&p, &caller, tick, &name, &scene).map_err(into_lua)?).map(mlua::Value::UserData)
        })?,
    )?;

    ops.set_readonly(true);
    Ok(ops)
}
