//! A scripted policy's request, `{agentId, systemPrompt, perception, tools, previousResults,
//! tick}`, built for every scripted decision. Hot at density (each due agent sees up to
//! `MAX_NEARBY` entities): the host packs the nearby entries into one Luau `buffer` and a Luau
//! function (`scripted_request.luau`) builds the tables with constructors, where building them
//! through the C API cost a string push per field name and per id. Measured by
//! `limina bench --only agents` (its `decisions` column). Previous results are converted once
//! and shared, frozen, by the requests that carry them (each result rides in eight).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use mlua::{Buffer, Function, Lua, MultiValue, Table, Value as LuaValue};
use serde_json::Value;

use super::perception::MAX_NEARBY;
use super::record::AgentRecord;
use crate::script::convert::json_to_lua;

/// Bytes per nearby entry in the buffer: entity number, x, y, z, distance.
const ENTRY: usize = 40;
/// The largest entity number an f64 holds exactly; larger ones travel as text.
const EXACT: u64 = 1 << 53;

/// The compiled builder and its reused buffer, made in the engine's VM on first use.
#[derive(Default)]
pub(crate) struct RequestBuilder {
    made: RefCell<Option<(Function, Buffer)>>,
    /// Each agent's previous results as the frozen Lua tables its last request held: a result
    /// goes into `PREVIOUS_RESULTS` requests in a row, and is converted for the first only.
    previous: RefCell<HashMap<Rc<str>, Vec<SharedResult>>>,
}

/// A previous result and the Lua value made from it.
type SharedResult = (Rc<Value>, LuaValue);

/// Most agents whose previous results are kept as Lua tables; past it the cache starts over
/// (entries of despawned agents leave with it).
const MAX_CACHED_AGENTS: usize = 8192;

impl RequestBuilder {
    fn parts(&self, lua: &Lua) -> mlua::Result<(Function, Buffer)> {
        if let Some(parts) = &*self.made.borrow() {
            return Ok(parts.clone());
        }
        let build: Function = lua.load(include_str!("scripted_request.luau")).set_name("=limina/scripted_request").call(())?;
        let buffer = lua.create_buffer_with_capacity(MAX_NEARBY * ENTRY)?;
        *self.made.borrow_mut() = Some((build.clone(), buffer.clone()));
        Ok((build, buffer))
    }

    /// Forgets the Lua copies no record holds any more (its agent was despawned): each cached
    /// result is shared with its record, so a result only the cache holds is one nobody will
    /// ask for again. Called once per tick; a few pointer reads per agent.
    pub(super) fn forget_gone(&self) {
        self.previous.borrow_mut().retain(|_, kept| kept.iter().any(|(result, _)| Rc::strong_count(result) > 1));
    }

    /// `previousResults`: a new list (a policy may change it) of shared, frozen results.
    fn previous_results(&self, lua: &Lua, r: &AgentRecord) -> mlua::Result<Table> {
        let mut cache = self.previous.borrow_mut();
        if cache.len() >= MAX_CACHED_AGENTS && !cache.contains_key(&r.id) {
            cache.clear();
        }
        let cached = cache.entry(Rc::clone(&r.id)).or_default();
        let mut kept = Vec::with_capacity(r.previous_results.len());
        for result in &r.previous_results {
            let value = match cached.iter().find(|(v, _)| Rc::ptr_eq(v, result)) {
                Some((_, t)) => t.clone(),
                None => {
                    let value = json_to_lua(lua, result)?;
                    if let LuaValue::Table(t) = &value {
                        super::systems::freeze(t)?;
                    }
                    value
                }
            };
            kept.push((Rc::clone(result), value));
        }
        let list = lua.create_table_with_capacity(kept.len(), 0)?;
        for (i, (_, value)) in kept.iter().enumerate() {
            list.raw_set(i + 1, value)?;
        }
        *cached = kept;
        Ok(list)
    }

    /// The request for `r`'s decision at `tick`, with the tools its profile may call.
    pub(super) fn build(&self, lua: &Lua, r: &AgentRecord, system_prompt: &str, tools: Option<Table>, tick: u64) -> mlua::Result<Table> {
        let (build, buffer) = self.parts(lua)?;
        let previous = self.previous_results(lua, r)?;
        let text = |s: &str| lua.create_string(s).map(LuaValue::String);
        let mut args = MultiValue::with_capacity(16 + super::perception::RECENT_EVENTS);
        args.push_back(text(&r.id)?);
        args.push_back(text(system_prompt)?);
        args.push_back(tools.map_or(LuaValue::Nil, LuaValue::Table));
        args.push_back(LuaValue::Table(previous));
        args.push_back(LuaValue::Number(tick as f64));
        match &r.perception {
            None => args.push_back(LuaValue::Boolean(false)),
            Some(p) => {
                let nearby = &p.nearby[..p.nearby.len().min(MAX_NEARBY)];
                let mut bytes = Vec::with_capacity(nearby.len() * ENTRY);
                let mut big: Option<Table> = None;
                for (i, n) in nearby.iter().enumerate() {
                    let number = if n.id.0 < EXACT {
                        n.id.0 as f64
                    } else {
                        let table = match &big {
                            Some(t) => t,
                            None => big.insert(lua.create_table()?),
                        };
                        table.raw_set(i + 1, n.id.to_string())?;
                        -1.0
                    };
                    for v in [number, n.position[0], n.position[1], n.position[2], n.distance] {
                        bytes.extend_from_slice(&v.to_le_bytes());
                    }
                }
                buffer.write_bytes(0, &bytes);
                let position = p.position.unwrap_or_default();
                args.push_back(LuaValue::Boolean(true));
                args.push_back(text(&p.self_id)?);
                args.push_back(match &p.self_entity {
                    Some(e) => text(e)?,
                    None => LuaValue::Nil,
                });
                args.push_back(LuaValue::Boolean(p.position.is_some()));
                args.extend(position.map(LuaValue::Number));
                args.push_back(LuaValue::Number(p.tick as f64));
                args.push_back(LuaValue::Number(nearby.len() as f64));
                args.push_back(LuaValue::Buffer(buffer));
                args.push_back(big.map_or(LuaValue::Nil, LuaValue::Table));
                // Lines heard since the last perception: usually none, so usually nothing built.
                args.push_back(if p.heard.is_empty() && p.heard_dropped == 0 {
                    LuaValue::Nil
                } else {
                    let heard = json_to_lua(lua, &serde_json::to_value(&p.heard).unwrap_or_default())?;
                    if let LuaValue::Table(t) = &heard {
                        super::systems::freeze(t)?;
                    }
                    heard
                });
                args.push_back(LuaValue::Number(p.heard_dropped as f64));
                for event in &p.recent_events {
                    args.push_back(text(&event.event_type)?);
                }
            }
        }
        build.call(args)
    }
}
