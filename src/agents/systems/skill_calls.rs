//! The agent systems' side of instruction skills (rules in `agents::instructions`): checking a
//! decision's `list_skills` / `read_skill` calls and running them as the decision is received
//! (they change the agent's own state, never the world, so they go neither through the registry
//! nor into the action queue), and shaping each request of an agent with skills enabled. Every activation
//! and deactivation is traced, caused by the decision (or perception) it came from.

use serde_json::{Value, json};

use super::super::instructions::{self, Deactivation, Resolved, SkillCard, SkillTool, Surfacing};
use super::super::provider::ToolSpec;
use super::super::record::ProviderKind;
use super::{ActionError, AgentSystems, Inputs};
use crate::trace::EventKind;

/// An agent's enabled skills, each with its mode for the agent's provider and model.
type Enabled = Vec<(SkillCard, Resolved)>;

impl AgentSystems {
    /// The model an agent's decision asks, as the provider/model rule sees it: its `llm.model`,
    /// or for an HTTP provider the operator's configured default when it names none.
    fn effective_model(&self, provider: ProviderKind, model: &str) -> String {
        if !model.is_empty() {
            return model.to_string();
        }
        let mut config = self.config.borrow_mut();
        let config = config.get_or_insert_with(super::ProvidersConfig::from_env);
        let default = match provider {
            ProviderKind::Ollama => config.ollama.default_model.clone(),
            ProviderKind::OpenAi => config.openai.default_model.clone(),
            ProviderKind::Scripted | ProviderKind::Client => None,
        };
        default.unwrap_or_default()
    }

    /// The instruction skills agent `id` may read now, with their modes (registration order).
    /// None when its spawn enabled none.
    fn enabled_skills(&self, env: &Inputs<'_>, id: &str) -> Option<Enabled> {
        let (choice, provider, model) = {
            let agents = env.agents.borrow();
            let r = agents.get(id)?;
            if r.skills.is_empty() {
                return None;
            }
            (r.skills.clone(), r.llm.provider, r.llm.model.clone())
        };
        let model = self.effective_model(provider, &model);
        let enabled = env
            .door
            .instruction_skills()
            .into_iter()
            .filter(|card| choice.allows(&card.id))
            .filter_map(|card| env.door.surface_mode(&card.id, provider.as_str(), &model).ok().map(|resolved| (card, resolved)))
            .collect();
        Some(enabled)
    }

    fn skill_event(&self, env: &Inputs<'_>, kind: EventKind, agent: &str, cause: &str, payload: &Value) {
        let thread = env.agents.borrow().get(agent).map_or_else(|| format!("ses_{agent}"), |r| r.session_id.to_string());
        self.agent_event(env, kind, agent, &thread, vec![cause.to_string()], payload);
    }

    fn deactivated(&self, env: &Inputs<'_>, agent: &str, skill: &str, why: Deactivation, cause: &str) {
        let payload = json!({"agentId": agent, "skill": skill, "reason": why.as_str(), "tick": env.tick});
        self.skill_event(env, EventKind::SkillDeactivated, agent, cause, &payload);
    }

    /// The system prompt and tools of agent `id`'s request when it has instruction skills
    /// enabled (None: it has none, and its request is built as it always was). Active skills
    /// that are no longer enabled leave first (traced); those read for this decision only leave
    /// after it (traced as used): the request is built before this returns.
    pub(super) fn skill_surface(
        &self,
        env: &Inputs<'_>,
        id: &str,
        offered: &[ToolSpec],
        perception_event: &str,
    ) -> Option<(String, Vec<ToolSpec>)> {
        let enabled = self.enabled_skills(env, id)?;
        let (gone, active, prompt) = {
            let mut agents = env.agents.borrow_mut();
            let r = agents.get_mut(id)?;
            let gone = r.active_skills.retain(|skill| enabled.iter().any(|(card, _)| card.id == skill));
            let active: Vec<String> = r.active_skills.iter().map(|a| a.id.clone()).collect();
            (gone, active, r.llm.system_prompt.clone())
        };
        for skill in gone {
            self.deactivated(env, id, &skill, Deactivation::Disabled, perception_event);
        }
        let surfacing: Vec<Surfacing<'_>> = enabled
            .iter()
            .map(|(card, resolved)| Surfacing { card, mode: resolved.mode, active: active.iter().any(|a| *a == card.id) })
            .collect();
        let order: Vec<&str> = active.iter().map(String::as_str).collect();
        let surface = instructions::compose(&prompt, offered, &surfacing, &order);
        let used = env.agents.borrow_mut().get_mut(id).map(|r| r.active_skills.take_used()).unwrap_or_default();
        for skill in used {
            self.deactivated(env, id, &skill, Deactivation::Used, perception_event);
        }
        Some(surface)
    }

    /// Whether a decision's call of one of the two skill tools may be queued; Err is the reason
    /// it is rejected (traced as `agent.toolcall.rejected`, as an unknown tool is).
    pub(super) fn check_skill_call(&self, env: &Inputs<'_>, id: &str, tool: SkillTool, input: &Value) -> Result<(), String> {
        let name = match tool {
            SkillTool::List => instructions::LIST_SKILLS,
            SkillTool::Read => instructions::READ_SKILL,
        };
        let Some(enabled) = self.enabled_skills(env, id) else {
            return Err(format!("{name} is offered only to agents spawned with instruction skills enabled (agent.spawn skills.enabled)"));
        };
        let read = instructions::check_input(tool, input).map_err(|problem| format!("invalid input for {name}: {problem}"))?;
        if let Some(read) = read
            && !enabled.iter().any(|(card, _)| card.id == read.id)
        {
            return Err(not_enabled(&read.id, id));
        }
        Ok(())
    }

    /// Runs a checked `list_skills` or `read_skill` of agent `id`'s decision `cause`: its answer
    /// goes into the agent's `previousResults` like an action's.
    pub(super) fn skill_call(&self, env: &Inputs<'_>, id: &str, cause: &str, tool: SkillTool, input: &Value) -> Result<Value, ActionError> {
        let failure = |code: &'static str, message: String| ActionError { code, message };
        let enabled = self.enabled_skills(env, id).unwrap_or_default();
        let read = match instructions::check_input(tool, input) {
            Ok(None) => return Ok(instructions::listing(enabled.iter().map(|(card, _)| card))),
            Ok(Some(read)) => read,
            Err(problem) => return Err(failure("invalid_input", problem)),
        };
        // Checked when queued, and again now: the skill may have left since.
        let Some((card, resolved)) = enabled.iter().find(|(card, _)| card.id == read.id) else {
            return Err(failure("not_found", not_enabled(&read.id, id)));
        };
        let (keep, evicted, profile) = {
            let mut agents = env.agents.borrow_mut();
            let Some(r) = agents.get_mut(id) else { return Err(failure("not_found", format!("the agent {id} is gone"))) };
            let (keep, evicted) = r.active_skills.activate(&card.id, read.keep);
            (keep, evicted, r.profile)
        };
        if let Some(evicted) = evicted {
            self.deactivated(env, id, &evicted, Deactivation::Evicted, cause);
        }
        // What the gated tools come to for this agent: activation grants no permission.
        let (offered, _) = self.tools_for(env, None, profile);
        let (tools, withheld): (Vec<&str>, Vec<&str>) = if resolved.mode.shows_tools() {
            card.tool_names().partition(|tool| offered.iter().any(|t| t.name == *tool))
        } else {
            (Vec::new(), Vec::new())
        };
        let active_for = if keep { "kept" } else { "next decision" };
        let version = card.version.as_ref().map(ToString::to_string);
        let payload = json!({
            "agentId": id,
            "skill": card.id,
            "version": version,
            "mode": resolved.mode.as_str(),
            "reason": resolved.reason.to_string(),
            "keep": keep,
            "activeFor": active_for,
            "tools": tools,
            "notOffered": withheld,
            "bodyBytes": if resolved.mode.shows_body() { card.body.len() } else { 0 },
            "tick": env.tick,
        });
        self.skill_event(env, EventKind::SkillActivated, id, cause, &payload);
        Ok(json!({
            "skill": card.id,
            "version": version,
            "mode": resolved.mode.as_str(),
            "activeFor": active_for,
            "tools": tools,
            "notOffered": withheld,
        }))
    }
}

/// The refusal for a skill id the agent may not read (unknown, unregistered or not enabled
/// for it): one message for all, so an agent cannot probe which skills exist beyond its own.
fn not_enabled(skill: &str, agent: &str) -> String {
    format!("no instruction skill '{}' is enabled for {agent} (list_skills lists those that are)", crate::clip::shown(skill))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_refusal_clips_a_huge_id() {
        let message = not_enabled(&"a".repeat(100_000), "agt_0001");
        assert!(message.len() < 300, "{} bytes", message.len());
        assert!(message.contains("agt_0001"));
    }
}
