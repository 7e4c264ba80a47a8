//! The surface-mode cascade: where an activated skill goes in a model's request.
//!
//! In order, the first that gives a mode wins: the skill's own `surfaceMode`; the registry's
//! default; the first provider/model rule whose globs match the decision's provider and model;
//! `tool-only`. The `Reason` says which step decided, so a trace can show why a body was (or was
//! not) put in front of a model.

use super::SurfaceMode;

/// Which step of the cascade decided a skill's surface mode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// The skill's own `surfaceMode`.
    Skill,
    /// The registry's default mode.
    RegistryDefault,
    /// The provider/model rule at `index` (its globs shown as written).
    ModelRule { index: usize, provider: String, model: String },
    /// Nothing else decided: `tool-only`.
    Fallback,
}

impl Reason {
    /// The step's name as traced (`skill`, `registry-default`, `model-rule`, `fallback`).
    pub fn as_str(&self) -> &'static str {
        match self {
            Reason::Skill => "skill",
            Reason::RegistryDefault => "registry-default",
            Reason::ModelRule { .. } => "model-rule",
            Reason::Fallback => "fallback",
        }
    }
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reason::ModelRule { index, provider, model } => write!(f, "model-rule #{index} ({provider} / {model})"),
            other => f.write_str(other.as_str()),
        }
    }
}

/// `provider` and `model` globs (`*` matches any run of characters, case-insensitively) and the
/// mode they give.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelRule {
    pub provider: String,
    pub model: String,
    pub mode: SurfaceMode,
}

impl ModelRule {
    pub fn new(provider: &str, model: &str, mode: SurfaceMode) -> Self {
        ModelRule { provider: provider.to_string(), model: model.to_string(), mode }
    }

    pub fn matches(&self, provider: &str, model: &str) -> bool {
        glob(&self.provider, provider) && glob(&self.model, model)
    }

    /// The rules a new registry starts with: models served by a local Ollama are usually small
    /// and follow text in the system message more reliably than they pick new tools, so they
    /// get `system-prompt`. Everything else falls through to `tool-only`.
    pub fn defaults() -> Vec<ModelRule> {
        vec![ModelRule::new("ollama", "*", SurfaceMode::SystemPrompt)]
    }
}

/// Resolves the cascade for a skill whose own mode is `own`.
pub(crate) fn cascade(
    own: Option<SurfaceMode>,
    default: Option<SurfaceMode>,
    rules: &[ModelRule],
    provider: &str,
    model: &str,
) -> (SurfaceMode, Reason) {
    if let Some(mode) = own {
        return (mode, Reason::Skill);
    }
    if let Some(mode) = default {
        return (mode, Reason::RegistryDefault);
    }
    if let Some((index, rule)) = rules.iter().enumerate().find(|(_, r)| r.matches(provider, model)) {
        return (rule.mode, Reason::ModelRule { index, provider: rule.provider.clone(), model: rule.model.clone() });
    }
    (SurfaceMode::ToolOnly, Reason::Fallback)
}

/// `*`-only glob, ASCII case-insensitive, iterative (no backtracking blow-up: the classic
/// two-pointer match, linear in practice and quadratic at worst on these short strings).
fn glob(pattern: &str, text: &str) -> bool {
    let (p, t) = (pattern.as_bytes(), text.as_bytes());
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && p[pi] == b'*' {
            star = Some((pi, ti));
            pi += 1;
        } else if pi < p.len() && p[pi].eq_ignore_ascii_case(&t[ti]) {
            pi += 1;
            ti += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&b| b == b'*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_stars_and_case() {
        for (p, t, want) in [
            ("*", "", true),
            ("ollama", "Ollama", true),
            ("llama3*", "llama3.2:1b", true),
            ("*:1b", "llama3.2:1b", true),
            ("*:1b", "llama3.2:70b", false),
            ("gpt-*-mini", "gpt-4o-mini", true),
            ("gpt-*-mini", "gpt-4o", false),
            ("a*b*c", "aXbYc", true),
            ("", "x", false),
        ] {
            assert_eq!(glob(p, t), want, "{p} ~ {t}");
        }
    }
}
