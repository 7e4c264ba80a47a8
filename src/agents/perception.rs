//! What an agent sees when its decision is due: the reference's envelope
//! `{selfId, selfEntity?, position?, nearby[{id, position, distance}], recentEvents[{type}], tick}`.
//! `nearby` comes from the world's batched spatial query (one per tick for all due agents),
//! sorted by distance then entity id, self excluded. `recentEvents` is a short tail of what
//! happened to or around the agent since it last looked; `heard`, the lines said within earshot
//! since then (left out when there are none).

use serde::{Deserialize, Serialize};

use crate::trace::Event;
use crate::world::EntityId;

/// Nearby entities kept in one perception (nearest first); the rest are cut, so one agent in a
/// crowd cannot make its own perception (and the decision request) unbounded.
pub(crate) const MAX_NEARBY: usize = 64;
/// Recent event types kept in one perception.
pub(crate) const RECENT_EVENTS: usize = 8;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PerceivedEntity {
    /// Written and read as its `ent_` text; kept as the number, so building a perception
    /// allocates no string per entity seen.
    #[serde(with = "entity_text")]
    pub id: EntityId,
    pub position: [f64; 3],
    pub distance: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecentEvent {
    #[serde(rename = "type")]
    pub event_type: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Perception {
    pub self_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub self_entity: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<[f64; 3]>,
    pub nearby: Vec<PerceivedEntity>,
    pub recent_events: Vec<RecentEvent>,
    /// Lines said within earshot since its last perception, oldest first (see `hearing`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub heard: Vec<super::hearing::HeardLine>,
    /// Lines it missed since its last perception because its inbox was full.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub heard_dropped: u64,
    pub tick: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// `EntityId` as its canonical `ent_` text in serde formats.
mod entity_text {
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::world::EntityId;

    pub(super) fn serialize<S: Serializer>(id: &EntityId, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(id)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<EntityId, D::Error> {
        let text = String::deserialize(d)?;
        EntityId::parse(&text).ok_or_else(|| serde::de::Error::custom(format!("'{text}' is not an entity id (ent_NNNN)")))
    }
}

/// Whether an event belongs in an agent's recent events: what it did itself (its calls and
/// their outcomes), signals and speech in the world, and collisions. Other agents' bookkeeping
/// (their perceptions and decisions) is theirs.
pub(crate) fn is_recent_for(event: &Event, agent_id: &str) -> bool {
    let t = &*event.event_type;
    if &*event.actor_id == agent_id {
        return !t.starts_with("agent.perception.") && t != "policy.decision";
    }
    t.starts_with("agent.signal.") || t.starts_with("social.") || t.starts_with("physics.collision")
}
