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

/// The variable holding the operator's provider/model rules: `provider/model=mode` entries
/// separated by commas (`ollama/*=system-prompt, openai/gpt-4o-mini=both`), first match wins;
/// `none` for no rules. Unset: `ModelRule::defaults()`.
pub const ENV_MODE_RULES: &str = "LIMINA_SKILL_MODE_RULES";
/// The variable holding the registry's default mode (`system-prompt`, `tool-only`, `both`).
pub const ENV_DEFAULT_MODE: &str = "LIMINA_SKILL_DEFAULT_MODE";
/// Most rules an operator may configure.
pub const MAX_MODEL_RULES: usize = 32;
/// Longest glob of a rule.
const MAX_GLOB_CHARS: usize = 128;

/// The operator's part of the cascade: the registry's default mode and the provider/model rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SurfaceConfig {
    pub default_mode: Option<SurfaceMode>,
    pub rules: Vec<ModelRule>,
}

impl Default for SurfaceConfig {
    fn default() -> Self {
        SurfaceConfig { default_mode: None, rules: ModelRule::defaults() }
    }
}

/// A configured rule or default mode that cannot be taken: the variable, the entry and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{variable}: '{entry}' {problem}")]
pub struct SurfaceConfigError {
    pub variable: &'static str,
    pub entry: String,
    pub problem: String,
}

impl SurfaceConfig {
    /// From `LIMINA_SKILL_MODE_RULES` and `LIMINA_SKILL_DEFAULT_MODE` of this process.
    pub fn from_env() -> Result<Self, SurfaceConfigError> {
        Self::from_lookup(|name| std::env::var(name).ok())
    }

    /// Like `from_env`, with the variables looked up through `lookup` (empty counts as unset).
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, SurfaceConfigError> {
        let var = |name: &str| lookup(name).map(|v| v.trim().to_string()).filter(|v| !v.is_empty());
        let default_mode = match var(ENV_DEFAULT_MODE) {
            None => None,
            Some(text) => Some(SurfaceMode::parse(&text).ok_or_else(|| SurfaceConfigError {
                variable: ENV_DEFAULT_MODE,
                entry: crate::clip::shown(&text),
                problem: "is not one of system-prompt, tool-only, both".into(),
            })?),
        };
        let rules = match var(ENV_MODE_RULES) {
            None => ModelRule::defaults(),
            Some(text) => parse_rules(&text)?,
        };
        Ok(SurfaceConfig { default_mode, rules })
    }
}

/// Parses `provider/model=mode` entries separated by commas (`none`: no rules).
pub fn parse_rules(text: &str) -> Result<Vec<ModelRule>, SurfaceConfigError> {
    if text.trim() == "none" {
        return Ok(Vec::new());
    }
    let fail = |entry: &str, problem: &str| SurfaceConfigError {
        variable: ENV_MODE_RULES,
        entry: crate::clip::shown(entry.trim()),
        problem: problem.to_string(),
    };
    let entries: Vec<&str> = text.split(',').collect();
    if entries.len() > MAX_MODEL_RULES {
        return Err(fail(text, &format!("has {} rules, more than the {MAX_MODEL_RULES} allowed", entries.len())));
    }
    let glob_ok = |g: &str| {
        !g.is_empty()
            && g.len() <= MAX_GLOB_CHARS
            && g.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'*' | b'.' | b'-' | b'_' | b':' | b'/' | b'@'))
    };
    entries
        .into_iter()
        .map(|entry| {
            let Some((globs, mode)) = entry.split_once('=') else {
                return Err(fail(entry, "is not provider/model=mode"));
            };
            let Some((provider, model)) = globs.trim().split_once('/') else {
                return Err(fail(entry, "is not provider/model=mode (no '/' between provider and model)"));
            };
            if !glob_ok(provider) || provider.contains('/') || !glob_ok(model) {
                return Err(fail(
                    entry,
                    &format!("has a glob that is not 1 to {MAX_GLOB_CHARS} of letters, digits, '*', '.', '-', '_', ':', '@' and '/'"),
                ));
            }
            let mode = SurfaceMode::parse(mode.trim())
                .ok_or_else(|| fail(entry, "ends in a mode that is not system-prompt, tool-only or both"))?;
            Ok(ModelRule::new(provider, model, mode))
        })
        .collect()
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
    fn the_operator_configures_rules_and_the_default_mode_and_bad_entries_are_named() {
        let vars = |rules: &'static str, mode: &'static str| {
            SurfaceConfig::from_lookup(move |name| match name {
                ENV_MODE_RULES => Some(rules.to_string()),
                ENV_DEFAULT_MODE => Some(mode.to_string()),
                _ => None,
            })
        };
        assert_eq!(vars("", "").unwrap(), SurfaceConfig::default());
        let c = vars(" ollama/llama3*:1b=system-prompt , openai/meta-llama/Llama-3*=both ", "tool-only").unwrap();
        assert_eq!(c.default_mode, Some(SurfaceMode::ToolOnly));
        assert_eq!(
            c.rules,
            [
                ModelRule::new("ollama", "llama3*:1b", SurfaceMode::SystemPrompt),
                ModelRule::new("openai", "meta-llama/Llama-3*", SurfaceMode::Both)
            ]
        );
        assert!(c.rules[1].matches("OpenAI", "meta-llama/Llama-3.1-8B"));
        assert_eq!(vars("none", "").unwrap().rules, []);
        for (rules, mode, want) in [
            ("ollama=both", "", "LIMINA_SKILL_MODE_RULES: 'ollama=both' is not provider/model=mode (no '/'"),
            ("ollama/*", "", "'ollama/*' is not provider/model=mode"),
            ("ollama/*=loud", "", "'ollama/*=loud' ends in a mode that is not"),
            ("oll ama/*=both", "", "has a glob that is not"),
            ("/x=both", "", "has a glob that is not"),
            ("", "verbose", "LIMINA_SKILL_DEFAULT_MODE: 'verbose' is not one of system-prompt, tool-only, both"),
        ] {
            let e = vars(rules, mode).unwrap_err().to_string();
            assert!(e.starts_with(want) || e.contains(want), "{e:?} should contain {want:?}");
        }
        let many = vec!["a/b=both"; 33].join(",");
        let e = parse_rules(&many).unwrap_err().to_string();
        assert!(e.contains("has 33 rules, more than the 32 allowed"), "{e}");
    }

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
