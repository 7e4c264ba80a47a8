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
        .filter(|(_, s)| may_call(s, permissions))
        .filter_map(|(at, s)| {
            let (name, category, description) = (s.name.to_lowercase(), s.category.to_lowercase(), s.description.to_lowercase());
            let score: u32 = terms.iter().map(|t| term_score(t, &name, &category, &description)).sum();
            (score > 0).then(|| (at, Hit { skill: Rc::clone(s), score }))
        })
        .collect();
    hits.sort_by(|(a_at, a), (b_at, b)| b.score.cmp(&a.score).then(a_at.cmp(b_at)));
    hits.into_iter().take(limit).map(|(_, h)| h).collect()
}

/// The categories holding a skill `permissions` may call, in order of first registration, each
/// with how many such skills it holds.
pub(crate) fn categories(registry: &SkillRegistry, permissions: PermissionSet) -> Vec<(String, usize)> {
    let mut out: Vec<(String, usize)> = Vec::new();
    for skill in registry.list().filter(|s| may_call(s, permissions)) {
        match out.iter_mut().find(|(c, _)| *c == skill.category) {
            Some((_, n)) => *n += 1,
            None => out.push((skill.category.clone(), 1)),
        }
    }
    out
}

/// The skills of `category` that `permissions` may call, in registration order.
pub(crate) fn in_category(registry: &SkillRegistry, category: &str, permissions: PermissionSet) -> Vec<Rc<Skill>> {
    registry.list().filter(|s| s.category == category && may_call(s, permissions)).cloned().collect()
}

/// A request named categories the caller has no skill in.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {} {} (known: {})", if unknown.len() == 1 { "category" } else { "categories" }, unknown.join(", "), known.join(", "))]
pub(crate) struct UnknownCategories {
    pub unknown: Vec<String>,
    pub known: Vec<String>,
}

/// Checks the categories a client asks to enable or disable: each must hold a skill the caller
/// may call. Returns them without duplicates, in the order asked.
pub(crate) fn resolve_categories(
    registry: &SkillRegistry,
    requested: &[String],
    permissions: PermissionSet,
) -> Result<Vec<String>, UnknownCategories> {
    let known: Vec<String> = categories(registry, permissions).into_iter().map(|(c, _)| c).collect();
    let mut out: Vec<String> = Vec::new();
    let mut unknown: Vec<String> = Vec::new();
    for c in requested {
        let list = if known.contains(c) { &mut out } else { &mut unknown };
        if !list.contains(c) {
            list.push(c.clone());
        }
    }
    if unknown.is_empty() { Ok(out) } else { Err(UnknownCategories { unknown, known }) }
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
