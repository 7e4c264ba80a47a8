//! Progressive discovery over the registry: what a caller may call, ranked search, and the
//! categories a client can browse or enable (the `skills.search`, `skills.browse`,
//! `skills.enable` and `skills.disable` meta-tools, and the MCP tool list).
//!
//! Everything here is bounded by the caller's permissions: a skill its permission set cannot
//! call is never found, browsed, counted or enabled, so discovery reveals nothing a listing
//! would not. It reads the registry and changes nothing; applying an enable/disable to a
//! session's visible tool set is the MCP dispatcher's business. Not hot: it runs on discovery
//! calls and `tools/list`, never on the tick path.

use std::rc::Rc;
use std::sync::Arc;

use crate::instructions::InstructionSkill;

use super::{Skill, SkillRegistry};
use crate::policy::PermissionSet;

/// Results `skills.search` returns when the caller does not say.
pub(crate) const SEARCH_DEFAULT_LIMIT: usize = 8;
/// Most results `skills.search` returns (its input schema's bound).
pub(crate) const SEARCH_MAX_LIMIT: usize = 25;

/// Words that say nothing about which skill is meant.
const STOPWORDS: [&str; 16] = ["a", "an", "the", "to", "of", "and", "or", "for", "in", "on", "with", "at", "by", "is", "it", "my"];

/// Whether a caller holding `permissions` may call `skill` (the pipeline's permission check;
/// policy rules such as revocations and quotas are decided per call, not here).
pub(crate) fn may_call(skill: &Skill, permissions: PermissionSet) -> bool {
    permissions.first_missing(&skill.permissions).is_none()
}

/// Whether discovery offers `skill` at all: an app-only skill (`Tier::App`) is for an MCP App
/// view, which calls it by name; an agent never needs to find it.
pub(crate) fn discoverable(skill: &Skill) -> bool {
    skill.tier != super::Tier::App
}

/// What discovery shows a caller holding `permissions`: what it may call and may find.
pub(crate) fn offered(skill: &Skill, permissions: PermissionSet) -> bool {
    discoverable(skill) && may_call(skill, permissions)
}

/// One search result and how well it matched.
#[derive(Debug, Clone)]
pub(crate) struct Hit {
    pub skill: Rc<Skill>,
    pub score: u32,
}

/// How much one query term says about one skill: the whole name or its action part (20), part of
/// the name (8), the category (5), a word of the description (2).
/// Word forms match through their stem: "entity" finds "entities", "creating" finds "create".
fn term_score(term: &str, name: &str, category: &str, description: &str) -> u32 {
    let action = name.rsplit_once('.').map_or(name, |(_, a)| a);
    let stem = stem(term);
    let mut score = 0;
    if name == term || action == term {
        score += 20;
    } else if name.contains(stem) {
        score += 8;
    }
    if category == term || category == stem {
        score += 5;
    }
    if description.contains(stem) {
        score += 2;
    }
    score
}

/// A crude English stem, enough for plurals and verb forms in skill names and descriptions.
fn stem(term: &str) -> &str {
    if term.len() <= 4 {
        return term;
    }
    ["ies", "ing", "es", "ed", "s", "y", "e"].iter().find_map(|suffix| term.strip_suffix(suffix)).unwrap_or(term)
}

/// The query's terms: lowercased, split on anything but letters, digits, `.` and `_`, without
/// stopwords.
fn terms(query: &str) -> Vec<String> {
    let lower = query.to_lowercase();
    let mut out: Vec<String> = Vec::new();
    for term in lower.split(|c: char| !(c.is_alphanumeric() || c == '.' || c == '_')) {
        let term = term.trim_matches('.');
        if term.is_empty() || STOPWORDS.contains(&term) || out.iter().any(|t| t == term) {
            continue;
        }
        out.push(term.to_string());
    }
    out
}

/// The skills `permissions` may call that match `query`, best first; ties keep registration
/// order, so the same registry and query always give the same list. At most `limit`.
pub(crate) fn search(registry: &SkillRegistry, query: &str, permissions: PermissionSet, limit: usize) -> Vec<Hit> {
    let terms = terms(query);
    if terms.is_empty() {
        return Vec::new();
    }
    let mut hits: Vec<(usize, Hit)> = registry
        .list()
        .enumerate()
        .filter(|(_, s)| offered(s, permissions))
        .filter_map(|(at, s)| {
            let (name, category, description) = (s.name.to_lowercase(), s.category.to_lowercase(), s.description.to_lowercase());
            let score: u32 = terms.iter().map(|t| term_score(t, &name, &category, &description)).sum();
            (score > 0).then(|| (at, Hit { skill: Rc::clone(s), score }))
        })
        .collect();
    hits.sort_by(|(a_at, a), (b_at, b)| b.score.cmp(&a.score).then(a_at.cmp(b_at)));
    hits.into_iter().take(limit).map(|(_, h)| h).collect()
}

/// The category instruction skills are listed under in `skills.browse`.
pub(crate) const INSTRUCTIONS_CATEGORY: &str = "instructions";

/// Instruction skills matching `query` by id and description, best first (registration order on
/// ties). Anyone may read them: they are text, and the tools they gate keep their own checks.
pub(crate) fn search_instructions(registry: &SkillRegistry, query: &str, limit: usize) -> Vec<(Arc<InstructionSkill>, u32)> {
    let terms = terms(query);
    let mut hits: Vec<(usize, Arc<InstructionSkill>, u32)> = registry
        .instructions()
        .list()
        .enumerate()
        .filter_map(|(at, s)| {
            let (name, description) = (s.id.to_lowercase(), s.description.to_lowercase());
            let score: u32 = terms.iter().map(|t| term_score(t, &name, INSTRUCTIONS_CATEGORY, &description)).sum();
            (score > 0).then(|| (at, Arc::clone(s), score))
        })
        .collect();
    hits.sort_by(|(a_at, _, a), (b_at, _, b)| b.cmp(a).then(a_at.cmp(b_at)));
    hits.into_iter().take(limit).map(|(_, s, score)| (s, score)).collect()
}

/// The categories holding a skill `permissions` may call, in order of first registration, each
/// with how many such skills it holds.
pub(crate) fn categories(registry: &SkillRegistry, permissions: PermissionSet) -> Vec<(String, usize)> {
    let mut out: Vec<(String, usize)> = Vec::new();
    for skill in registry.list().filter(|s| offered(s, permissions)) {
        match out.iter_mut().find(|(c, _)| *c == skill.category) {
            Some((_, n)) => *n += 1,
            None => out.push((skill.category.clone(), 1)),
        }
    }
    out
}

/// The skills of `category` that `permissions` may call, in registration order.
pub(crate) fn in_category(registry: &SkillRegistry, category: &str, permissions: PermissionSet) -> Vec<Rc<Skill>> {
    registry.list().filter(|s| s.category == category && offered(s, permissions)).cloned().collect()
}

/// Why a category a client named was not enabled (or disabled, or browsed).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum CategoryRefusal {
    /// The registry has no such category.
    #[error("unknown category '{category}'{}; known: {}", suggestion.as_ref().map(|s| format!(" (did you mean '{s}'?)")).unwrap_or_default(), known.join(", "))]
    Unknown { category: String, suggestion: Option<String>, known: Vec<String> },
    /// It exists, but the caller's permissions reach none of its skills.
    #[error("category '{category}' exists but is not permitted for profile {profile}: its skills need {}", needs.join(" or "))]
    NotPermitted { category: String, profile: String, needs: Vec<String> },
}

impl CategoryRefusal {
    pub(crate) fn category(&self) -> &str {
        match self {
            CategoryRefusal::Unknown { category, .. } | CategoryRefusal::NotPermitted { category, .. } => category,
        }
    }
}

/// The categories a client asked to enable or disable, sorted: those holding a skill the caller
/// may call (without duplicates, in the order asked), and why each other one was refused.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct CategoryResolution {
    pub valid: Vec<String>,
    pub refused: Vec<CategoryRefusal>,
}

/// Sorts the categories a client names (enable, disable, browse): a valid one holds a skill the
/// caller may call; any other is either unknown (with the nearest known name) or exists but
/// holds nothing `profile`'s permissions reach (with the permissions its skills need). One wrong
/// name does not spoil the others.
pub(crate) fn resolve_categories(
    registry: &SkillRegistry,
    requested: &[String],
    permissions: PermissionSet,
    profile: &str,
) -> CategoryResolution {
    let known: Vec<String> = categories(registry, permissions).into_iter().map(|(c, _)| c).collect();
    let mut out = CategoryResolution::default();
    for c in requested {
        if known.contains(c) {
            if !out.valid.contains(c) {
                out.valid.push(c.clone());
            }
            continue;
        }
        if out.refused.iter().any(|r| r.category() == c) {
            continue;
        }
        let mut needs: Vec<String> = Vec::new();
        for skill in registry.list().filter(|s| s.category == *c) {
            if let Some(missing) = permissions.first_missing(&skill.permissions)
                && !needs.iter().any(|n| n == missing.as_str())
            {
                needs.push(missing.as_str().to_string());
            }
        }
        let refusal = if needs.is_empty() {
            let suggestion = super::suggest::did_you_mean(c, known.iter().map(String::as_str)).map(str::to_string);
            CategoryRefusal::Unknown { category: crate::clip::shown(c), suggestion, known: known.clone() }
        } else {
            CategoryRefusal::NotPermitted { category: c.clone(), profile: profile.to_string(), needs }
        };
        out.refused.push(refusal);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_drop_stopwords_case_and_repeats() {
        assert_eq!(terms("Play a SOUND at the position, play"), ["play", "sound", "position"]);
        assert_eq!(terms("scene.createEntity"), ["scene.createentity"]);
        assert_eq!(terms("  ...  "), Vec::<String>::new());
    }

    #[test]
    fn a_whole_name_outranks_a_mention() {
        let exact = term_score("setmaterial", "three.setmaterial", "three", "update an entity's material");
        let partial = term_score("material", "three.setmaterial", "three", "update an entity's material");
        let mention = term_score("material", "scene.createentity", "scene", "with a material");
        assert!(exact > partial && partial > mention && mention > 0, "{exact} {partial} {mention}");
        assert_eq!(term_score("audio", "audio.play", "audio", "play a blip"), 8 + 5);
        assert_eq!(term_score("zebra", "audio.play", "audio", "play a blip"), 0);
        assert!(term_score("entity", "scene.queryentities", "scene", "list entities") >= 8 + 2, "plurals match");
        assert!(term_score("creating", "scene.createentity", "scene", "") >= 8, "verb forms match");
    }
}
