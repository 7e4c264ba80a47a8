//! The `registry` ops the discovery, inspector and dev skills read from: listing, describing,
//! searching and browsing (bounded by the caller's permissions, see `skills::discovery`),
//! permission profiles, and reloading a skill from its source.

use std::cell::RefCell;
use std::rc::Rc;

use mlua::{Lua, Table, Value};
use serde_json::json;

use crate::instructions::InstructionSkill;
use crate::policy::{PROFILES, Permission, PermissionSet, profile_permissions};
use crate::script::convert::{blob, json_to_lua};
use crate::skills::{Skill, SkillRegistry, discovery};

/// Re-registers a skill from its source; returns the names it invalidated, or why it could not.
pub(crate) type Reloader = Rc<dyn Fn(&Lua, &str) -> Result<Vec<String>, crate::skills::core::ReloadError>>;

pub(crate) fn create(lua: &Lua, registry: Rc<RefCell<SkillRegistry>>, reloader: Reloader) -> mlua::Result<Table> {
    let ops = lua.create_table()?;

    let r = Rc::clone(&registry);
    ops.set(
        "list",
        lua.create_function(move |lua, permissions: Vec<String>| {
            let registry = r.borrow();
            let tools = registry.tools();
            let permissions = permission_set(&permissions);
            let out = lua.create_table_with_capacity(tools.len(), 0)?;
            // App-only skills are for MCP App views, not for the catalog an agent reads.
            let listed = |name: &str| registry.get(name).is_none_or(|s| discovery::discoverable(&s));
            for (i, tool) in tools.iter().filter(|t| permissions.first_missing(&t.permissions).is_none() && listed(&t.name)).enumerate() {
                let row = lua.create_table_with_capacity(0, 2)?;
                row.raw_set("name", tool.name.as_str())?;
                row.raw_set("description", tool.description.as_str())?;
                out.raw_set(i + 1, row)?;
            }
            Ok(out)
        })?,
    )?;

    let r = Rc::clone(&registry);
    ops.set("unknown_skill", lua.create_function(move |_, name: String| Ok(r.borrow().unknown_skill(&name)))?)?;

    let r = Rc::clone(&registry);
    ops.set(
        "list_full",
        lua.create_function(move |lua, ()| {
            let rows: Vec<serde_json::Value> = r
                .borrow()
                .list()
                .map(|s| json!({"name": s.name, "version": s.version, "category": s.category, "permissions": s.permissions.iter().map(|p| p.as_str()).collect::<Vec<_>>()}))
                .collect();
            blob(lua, serde_json::Value::Array(rows))
        })?,
    )?;

    let r = Rc::clone(&registry);
    ops.set(
        "describe",
        lua.create_function(move |lua, name: String| {
            let Some(skill) = r.borrow().get(&name) else {
                return Ok(Value::Nil);
            };
            let out = lua.create_table_with_capacity(0, 6)?;
            out.raw_set("name", skill.name.as_str())?;
            out.raw_set("version", skill.version.as_str())?;
            out.raw_set("category", skill.category.as_str())?;
            out.raw_set("tier", skill.tier.as_str())?;
            out.raw_set("description", skill.description.as_str())?;
            out.raw_set("input_schema", json_to_lua(lua, &skill.input_schema)?)?;
            Ok(Value::Table(out))
        })?,
    )?;

    // Discovery: every op takes the caller's `ctx.permissions` and sees only what they may call.
    let r = Rc::clone(&registry);
    ops.set(
        "search",
        lua.create_function(move |lua, (query, limit, permissions): (String, Option<usize>, Vec<String>)| {
            let limit = limit.unwrap_or(discovery::SEARCH_DEFAULT_LIMIT).min(discovery::SEARCH_MAX_LIMIT);
            let registry = r.borrow();
            let hits = discovery::search(&registry, &query, permission_set(&permissions), limit);
            let mut rows: Vec<(u32, serde_json::Value)> = hits
                .iter()
                .map(|h| {
                    let mut row = listed_skill(&h.skill);
                    row["score"] = json!(h.score);
                    (h.score, row)
                })
                .collect();
            // Both kinds in one ranking; a typed tool first on a tie (a stable sort keeps it so).
            for (skill, score) in discovery::search_instructions(&registry, &query, limit) {
                let mut row = listed_instruction(&skill, &registry, permission_set(&permissions));
                row["score"] = json!(score);
                rows.push((score, row));
            }
            rows.sort_by_key(|(score, _)| std::cmp::Reverse(*score));
            blob(lua, serde_json::Value::Array(rows.into_iter().take(limit).map(|(_, row)| row).collect()))
        })?,
    )?;

    let r = Rc::clone(&registry);
    ops.set(
        "categories",
        lua.create_function(move |lua, permissions: Vec<String>| {
            let registry = r.borrow();
            let mut rows: Vec<serde_json::Value> = discovery::categories(&registry, permission_set(&permissions))
                .into_iter()
                .map(|(name, count)| json!({"name": name, "count": count}))
                .collect();
            let instructions = registry.instructions().size();
            if instructions > 0 {
                rows.push(json!({"name": discovery::INSTRUCTIONS_CATEGORY, "count": instructions}));
            }
            blob(lua, serde_json::Value::Array(rows))
        })?,
    )?;

    let r = Rc::clone(&registry);
    ops.set(
        "browse",
        lua.create_function(move |lua, (category, permissions, profile): (String, Vec<String>, String)| {
            let registry = r.borrow();
            if category == discovery::INSTRUCTIONS_CATEGORY && !registry.instructions().is_empty() {
                let rows: Vec<serde_json::Value> =
                    registry.instructions().list().map(|s| listed_instruction(s, &registry, permission_set(&permissions))).collect();
                return Ok((Value::UserData(blob(lua, serde_json::Value::Array(rows))?), None));
            }
            let permissions = permission_set(&permissions);
            let resolved = discovery::resolve_categories(&registry, std::slice::from_ref(&category), permissions, &profile);
            if let Some(refusal) = resolved.refused.first() {
                return Ok((Value::Nil, Some(refusal.to_string())));
            }
            let rows: Vec<serde_json::Value> =
                discovery::in_category(&registry, &category, permissions).iter().map(|s| listed_skill(s)).collect();
            Ok((Value::UserData(blob(lua, serde_json::Value::Array(rows))?), None))
        })?,
    )?;

    let r = Rc::clone(&registry);
    ops.set(
        "resolveCategories",
        lua.create_function(move |lua, (requested, permissions, profile): (Vec<String>, Vec<String>, String)| {
            let registry = r.borrow();
            let permissions = permission_set(&permissions);
            let resolved = discovery::resolve_categories(&registry, &requested, permissions, &profile);
            if resolved.valid.is_empty() {
                // Nothing to apply: the call fails, naming why each name was refused.
                let why: Vec<String> = resolved.refused.iter().map(ToString::to_string).collect();
                return Ok((Value::Nil, Some(why.join("; "))));
            }
            let categories = resolved.valid;
            let tools: Vec<&str> = registry
                .list()
                .filter(|s| categories.contains(&s.category) && discovery::offered(s, permissions))
                .map(|s| s.name.as_str())
                .collect();
            let mut out = json!({"categories": categories, "tools": tools});
            if !resolved.refused.is_empty() {
                let refused: Vec<serde_json::Value> =
                    resolved.refused.iter().map(|r| json!({"category": r.category(), "reason": r.to_string()})).collect();
                out["refused"] = json!(refused);
            }
            Ok((Value::UserData(blob(lua, out)?), None))
        })?,
    )?;

    // `skills.read`: an instruction skill's body and what it gates, or one of its files.
    let r = Rc::clone(&registry);
    ops.set(
        "readInstruction",
        lua.create_function(move |lua, (id, file, permissions): (String, Option<String>, Vec<String>)| {
            let registry = r.borrow();
            let Some(skill) = registry.instructions().get(&id) else {
                return Ok((
                    Value::Nil,
                    Some(format!(
                        "no instruction skill '{}' (skills.browse {{category = \"instructions\"}} lists them)",
                        crate::clip::shown(&id)
                    )),
                ));
            };
            let mut out = json!({
                "id": skill.id,
                "description": skill.description,
                "tools": callable_tools(&skill, &registry, permission_set(&permissions)),
                "resources": skill.resources.iter().map(|r| r.path.as_str()).collect::<Vec<_>>(),
            });
            if let Some(v) = &skill.version {
                out["version"] = json!(v.to_string());
            }
            if let Some(m) = skill.surface_mode {
                out["surfaceMode"] = json!(m.as_str());
            }
            match file {
                None => out["body"] = json!(skill.body),
                Some(path) => {
                    let Some(text) = skill.resource(&path).and_then(|r| r.text()) else {
                        return Ok((
                            Value::Nil,
                            Some(format!(
                                "'{}' is not a text file of skill '{}' (its resources: {})",
                                crate::clip::shown(&path),
                                skill.id,
                                skill.resources.len()
                            )),
                        ));
                    };
                    out["file"] = json!(path);
                    out["text"] = json!(text);
                }
            }
            Ok((Value::UserData(blob(lua, out)?), None))
        })?,
    )?;

    ops.set(
        "permissions",
        lua.create_function(|lua, profile: String| {
            let caller: Vec<&str> = profile_permissions(&profile).names();
            let profiles: serde_json::Map<String, serde_json::Value> =
                PROFILES.iter().map(|(name, perms)| (name.to_string(), json!(PermissionSet::of(perms).names()))).collect();
            blob(lua, json!({"caller": caller, "profiles": profiles}))
        })?,
    )?;

    ops.set(
        "reload",
        lua.create_function(move |lua, name: String| match reloader(lua, &name) {
            Ok(invalidated) => Ok((true, json_to_lua(lua, &json!(invalidated))?)),
            Err(reason) => Ok((false, Value::String(lua.create_string(reason.to_string())?))),
        })?,
    )?;

    ops.set_readonly(true);
    Ok(ops)
}

/// The permission set a `ctx.permissions` list names (the pipeline built that list, so every name
/// is known; an unknown one would grant nothing).
fn permission_set(names: &[String]) -> PermissionSet {
    let mut set = PermissionSet::EMPTY;
    for p in names.iter().filter_map(|n| Permission::parse(n)) {
        set.insert(p);
    }
    set
}

/// A skill as discovery returns it: enough to call it directly. The input schema goes without
/// `$schema` (the same draft-07 keywords mean the same under the MCP default, 2020-12).
/// An instruction skill as `skills.search` / `skills.browse` list it: read it with `skills.read`.
fn listed_instruction(skill: &InstructionSkill, registry: &SkillRegistry, permissions: PermissionSet) -> serde_json::Value {
    json!({
        "name": skill.id,
        "kind": "instruction",
        "category": discovery::INSTRUCTIONS_CATEGORY,
        "description": skill.description,
        "tools": callable_tools(skill, registry, permissions),
    })
}

/// The tools `skill` gates that a caller holding `permissions` may call: a client is never shown
/// a tool its profile cannot call, not even as a name in a skill's listing.
fn callable_tools<'a>(skill: &'a InstructionSkill, registry: &SkillRegistry, permissions: PermissionSet) -> Vec<&'a str> {
    skill.tool_names().filter(|name| registry.get(name).is_some_and(|t| t.permissions.iter().all(|p| permissions.contains(*p)))).collect()
}

fn listed_skill(skill: &Skill) -> serde_json::Value {
    json!({
        "name": skill.name,
        "kind": "tool",
        "category": skill.category,
        "tier": skill.tier.as_str(),
        "description": skill.description,
        "inputSchema": crate::skills::schema::without_dialect(&skill.input_schema),
    })
}
