//! Which tools one MCP session's `tools/list` shows (progressive discovery).
//!
//! Every tool definition a client lists is paid for in its context on every turn, so a standard
//! client starts with the core tier (what an agent needs to build and look, plus the discovery
//! meta-tools) and widens its list by category with `skills.enable`, narrows it with
//! `skills.disable`. The server's `--tools all|core` picks where a session starts. The view only
//! decides what is *listed*: every skill stays callable by name, and what a caller's permissions
//! cannot call is never listed whatever the view says (the dispatcher filters by both).
//!
//! The meta-tools are ordinary skills (traced, permission-checked, run through the registry);
//! they validate the categories and return them, and the dispatcher applies a successful result
//! to the calling session here. A session's view is its own: no other client's list changes.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::skills::{Skill, SkillResponse, Tier};

/// The meta-tool that adds categories to a session's list.
pub(crate) const ENABLE_TOOL: &str = "skills.enable";
/// The meta-tool that removes categories from a session's list.
pub(crate) const DISABLE_TOOL: &str = "skills.disable";

/// Where a session's tool list starts (`limina mcp --tools`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ToolsMode {
    /// The core tier only; other categories once enabled.
    #[default]
    Core,
    /// Every skill the caller may call; categories can still be disabled.
    All,
}

/// A change a successful `skills.enable` / `skills.disable` asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ViewChange {
    Enable(Vec<String>),
    Disable(Vec<String>),
}

impl ViewChange {
    /// The change a finished call asks for: only a successful enable/disable asks for one, and
    /// only with the categories the skill validated (its output, never the client's input).
    pub(crate) fn from_call(tool: &str, response: &SkillResponse) -> Option<ViewChange> {
        if response.error.is_some() {
            return None;
        }
        let categories: Vec<String> =
            response.result.as_ref()?.get("categories")?.as_array()?.iter().filter_map(Value::as_str).map(str::to_string).collect();
        match tool {
            ENABLE_TOOL => Some(ViewChange::Enable(categories)),
            DISABLE_TOOL => Some(ViewChange::Disable(categories)),
            _ => None,
        }
    }
}

/// One session's listed set: its starting mode plus the categories it enabled or disabled since.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ToolView {
    mode: ToolsMode,
    enabled: BTreeSet<String>,
    disabled: BTreeSet<String>,
}

impl ToolView {
    pub(crate) fn new(mode: ToolsMode) -> Self {
        Self { mode, ..Self::default() }
    }

    /// Whether the list shows `skill` (permissions aside): core-tier skills always, others by
    /// their category.
    pub(crate) fn shows(&self, skill: &Skill) -> bool {
        match skill.tier {
            Tier::Core => return true,
            // Listed only to a client that shows MCP Apps (the dispatcher decides).
            Tier::App => return false,
            Tier::Standard => {}
        }
        match self.mode {
            ToolsMode::Core => self.enabled.contains(&skill.category),
            ToolsMode::All => !self.disabled.contains(&skill.category),
        }
    }

    pub(crate) fn apply(&mut self, change: &ViewChange) {
        match change {
            ViewChange::Enable(categories) => {
                for c in categories {
                    self.disabled.remove(c);
                    self.enabled.insert(c.clone());
                }
            }
            ViewChange::Disable(categories) => {
                for c in categories {
                    self.enabled.remove(c);
                    self.disabled.insert(c.clone());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ok(result: Value) -> SkillResponse {
        let mut response = SkillResponse::failure(crate::skills::ErrorCode::HandlerError, "");
        (response.success, response.result, response.error) = (true, Some(result), None);
        response
    }

    #[test]
    fn only_a_successful_meta_tool_result_changes_the_view() {
        let change = ok(json!({"categories": ["audio", "ui"], "tools": []}));
        assert_eq!(ViewChange::from_call(ENABLE_TOOL, &change), Some(ViewChange::Enable(vec!["audio".into(), "ui".into()])));
        assert_eq!(ViewChange::from_call(DISABLE_TOOL, &change), Some(ViewChange::Disable(vec!["audio".into(), "ui".into()])));
        assert_eq!(ViewChange::from_call("scene.createEntity", &change), None);
        let failed = SkillResponse::failure(crate::skills::ErrorCode::InvalidInput, "categories: unknown category x");
        assert_eq!(ViewChange::from_call(ENABLE_TOOL, &failed), None);
    }

    #[test]
    fn enable_and_disable_undo_each_other_in_both_modes() {
        for mode in [ToolsMode::Core, ToolsMode::All] {
            let mut v = ToolView::new(mode);
            v.apply(&ViewChange::Enable(vec!["audio".into()]));
            assert!(v.enabled.contains("audio") && !v.disabled.contains("audio"));
            v.apply(&ViewChange::Disable(vec!["audio".into()]));
            assert!(!v.enabled.contains("audio") && v.disabled.contains("audio"));
            assert_eq!(v.mode, mode);
        }
    }
}
