//! Agent perception and `scene.queryEntities` see the same neighbourhoods: a batch of radius
//! queries through `World::query_near_batch` answers each agent exactly as the skill does for
//! that agent's position (minus the agent itself), in a world built with its own capacity.

use limina::host::{Engine, EngineConfig, Output};
use limina::world::{EntityId, NearQuery};
use serde_json::{Value, json};

const CAPACITY: usize = 300;

fn engine() -> Engine {
    Engine::new(EngineConfig { output: Output::Silent, entity_capacity: CAPACITY, ..EngineConfig::new(crate::root()) }).unwrap()
}

fn ok(e: &Engine, name: &str, input: Value) -> Value {
    let r = e.call(e.script_caller(), name, input.clone());
    assert!(r.success, "{name} {input} failed: {:?}", r.error);
    r.result.unwrap()
}

#[test]
fn a_perception_batch_matches_scene_query_entities_per_agent() {
    let e = engine();
    // A coarse lattice with a stack of duplicates: plenty of exact distance ties.
    for i in 0..CAPACITY {
        let p = if i % 12 == 0 { [3.0, 0.0, 3.0] } else { [(i * 7 % 29) as f64 - 14.0, (i % 2) as f64, (i * 11 % 31) as f64 - 15.0] };
        ok(&e, "scene.createEntity", json!({"shape": "sphere", "size": 0.5, "position": p}));
    }
    let refused = e.call(e.script_caller(), "scene.createEntity", json!({}));
    let error = refused.error.expect("the world is full");
    assert!(error.message.contains(&CAPACITY.to_string()), "{}", error.message);

    let agents: Vec<EntityId> = (1..=CAPACITY as u64).step_by(9).map(EntityId).collect();
    let queries: Vec<NearQuery> = agents
        .iter()
        .map(|&id| NearQuery {
            center: e.world().transform(id).unwrap().position.map(f64::from),
            radius: 6.5,
            exclude: Some(id),
            nearest: None,
        })
        .collect();
    let batch = e.world().query_near_batch(&queries).unwrap();
    for ((agent, q), hits) in agents.iter().zip(&queries).zip(&batch) {
        let listed = ok(&e, "scene.queryEntities", json!({"near": q.center, "radius": q.radius}));
        let from_skill: Vec<(String, f64)> = listed["entities"]
            .as_array()
            .unwrap()
            .iter()
            .map(|row| (row["entity"].as_str().unwrap().to_string(), row["distance"].as_f64().unwrap()))
            .filter(|(id, _)| *id != agent.to_string())
            .collect();
        let from_batch: Vec<(String, f64)> = hits.iter().map(|h| (h.id.to_string(), h.distance)).collect();
        assert_eq!(from_batch, from_skill, "agent {agent}");
    }
    assert!(batch.iter().all(|hits| !hits.is_empty()), "every agent has neighbours");
}

/// The skill's rows are JSON written as a Lua number converts: whole values as integers, others
/// as the f64 of the stored f32, keys sorted; from a script they are plain tables again.
#[test]
fn query_entities_rows_are_the_json_a_lua_table_gave() {
    let e = engine();
    ok(&e, "scene.createEntity", json!({"shape": "box", "position": [3, 0, 4]}));
    ok(&e, "scene.createEntity", json!({"shape": "box", "position": [0.1, -2, 0]}));
    let listed = ok(&e, "scene.queryEntities", json!({"near": [0, 0, 0]}));
    assert_eq!(
        serde_json::to_string(&listed).unwrap(),
        r#"{"entities":[{"distance":2.0024984395244916,"entity":"ent_0002","position":[0.10000000149011612,-2,0],"revision":1},{"distance":5,"entity":"ent_0001","position":[3,0,4],"revision":1}]}"#
    );
    e.run_source(
        r#"
        local r = limina.call("scene.queryEntities", { near = {0, 0, 0}, radius = 4 })
        assert(r.success, r.error and r.error.message)
        local row = r.result.entities[1]
        assert(#r.result.entities == 1 and row.entity == "ent_0002" and row.position[2] == -2, "a plain table")
        row.position[1] = 99 -- the caller's own copy
        "#,
        "rows.lua",
    )
    .unwrap();
}
