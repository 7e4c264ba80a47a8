//! The tokens file of a network server: `TOKEN PROFILE [+PERMISSION ...] [@WORLD ...]` per line.
//! A token grants its profile (plus what its `+` words grant) on the worlds its `@` words name,
//! or on every world when it names none. The file is the operator's: nothing a client sends
//! widens what a token is for.

use std::collections::HashMap;

use super::worlds::WorldName;
use crate::mcp::TokenFileError;
use crate::policy::{Grant, Profile};

/// One token's line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TokenEntry {
    pub grant: Grant,
    /// The worlds it may reach; empty: every world.
    pub worlds: Vec<WorldName>,
}

impl TokenEntry {
    /// A token for every world.
    pub fn everywhere(grant: Grant) -> Self {
        Self { grant, worlds: Vec::new() }
    }

    pub fn reaches(&self, world: &WorldName) -> bool {
        self.worlds.is_empty() || self.worlds.contains(world)
    }
}

/// What a request's bearer token is worth on one world.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TokenCheck {
    /// No such token (or none presented).
    Unknown,
    /// A known token, scoped to other worlds.
    OtherWorld,
    Granted(Grant),
}

/// The tokens of one server, by token.
#[derive(Debug, Default)]
pub(crate) struct Tokens(HashMap<String, TokenEntry>);

impl Tokens {
    pub fn insert(&mut self, token: String, entry: TokenEntry) {
        self.0.insert(token, entry);
    }

    pub fn check(&self, token: Option<&str>, world: &WorldName) -> TokenCheck {
        match token.and_then(|t| self.0.get(t)) {
            None => TokenCheck::Unknown,
            Some(entry) if entry.reaches(world) => TokenCheck::Granted(entry.grant),
            Some(_) => TokenCheck::OtherWorld,
        }
    }

    /// Whether `token` is on the file at all (for the process-wide routes: `/health`).
    pub fn knows(&self, token: Option<&str>) -> bool {
        token.is_some_and(|t| self.0.contains_key(t))
    }

    #[cfg(test)]
    pub fn get(&self, token: &str) -> Option<&TokenEntry> {
        self.0.get(token)
    }
}

/// Parses a tokens file: `TOKEN PROFILE [+PERMISSION ...] [@WORLD ...]` per line, `#` comments.
/// The `+PERMISSION` words grant what no profile holds (`+world.time`: pause and step the world);
/// the `@WORLD` words limit the token to those worlds. A token on two lines is refused.
pub(crate) fn parse_tokens(text: &str, file: &str) -> Result<Tokens, TokenFileError> {
    let mut tokens = Tokens::default();
    let mut lines = HashMap::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split_whitespace();
        let (Some(token), Some(profile)) = (parts.next(), parts.next()) else {
            return Err(TokenFileError::Shape { file: file.to_string(), line: n + 1 });
        };
        let Some(profile) = Profile::parse(profile) else {
            return Err(TokenFileError::UnknownProfile { file: file.to_string(), line: n + 1, profile: profile.to_string() });
        };
        let (scopes, grants): (Vec<&str>, Vec<&str>) = parts.partition(|w| w.starts_with('@'));
        let extra = Grant::parse_extra(grants).map_err(|source| TokenFileError::Grant { file: file.to_string(), line: n + 1, source })?;
        let mut worlds = Vec::new();
        for scope in scopes {
            let name = WorldName::parse(&scope[1..]).map_err(|source| TokenFileError::World {
                file: file.to_string(),
                line: n + 1,
                reason: source.to_string(),
            })?;
            if !worlds.contains(&name) {
                worlds.push(name);
            }
        }
        if let Some(&first) = lines.get(token) {
            return Err(TokenFileError::Duplicate { file: file.to_string(), line: n + 1, first });
        }
        lines.insert(token, n + 1);
        tokens.insert(token.to_string(), TokenEntry { grant: Grant { profile, extra }, worlds });
    }
    Ok(tokens)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::PermissionSet;

    fn world(name: &str) -> WorldName {
        WorldName::parse(name).unwrap()
    }

    #[test]
    fn token_files_name_bad_lines() {
        let ok = parse_tokens("# comment\nabc builder.readWrite\n\nxyz system.readonly\n", "t").unwrap();
        assert_eq!(ok.get("xyz").map(|e| e.grant.profile.as_str()), Some("system.readonly"));
        assert_eq!(ok.get("xyz").map(|e| e.grant.extra), Some(PermissionSet::default()), "a plain line grants only its profile");
        assert!(parse_tokens("abc root", "t").unwrap_err().to_string().contains("t:1: unknown profile 'root'"));
        assert!(parse_tokens("onlytoken", "t").unwrap_err().to_string().contains("t:1: expected"));
    }

    #[test]
    fn a_token_line_may_grant_world_time() {
        let ok = parse_tokens("abc builder.readWrite +world.time\nxyz builder.readWrite\n", "t").unwrap();
        assert!(ok.get("abc").unwrap().grant.permissions().contains(crate::policy::Permission::WorldTime));
        assert!(!ok.get("xyz").unwrap().grant.permissions().contains(crate::policy::Permission::WorldTime));
        let bad = parse_tokens("ok system.readonly\nabc builder.readWrite world.time", "t").unwrap_err().to_string();
        assert!(bad.contains("t:2:") && bad.contains("'world.time' is not a grant"), "{bad}");
        let unknown = parse_tokens("abc builder.readWrite +world.stop", "t").unwrap_err().to_string();
        assert!(unknown.contains("unknown permission 'world.stop'"), "{unknown}");
    }

    /// A token listed twice has no one meaning: the later line silently won, so a token first
    /// listed as `system.readonly` could write. The message names both lines, never the token.
    #[test]
    fn a_token_listed_twice_is_refused_without_printing_it() {
        let text = "# viewers\nsecret-42 system.readonly\nother builder.readWrite\nsecret-42 builder.readWrite\n";
        let twice = parse_tokens(text, "t").unwrap_err().to_string();
        assert!(twice.contains("t:4:") && twice.contains("line 2"), "{twice}");
        assert!(!twice.contains("secret-42"), "{twice}");
    }

    #[test]
    fn token_lines_take_world_scopes() {
        let text = "a builder.readWrite @alpha +world.time @beta\nall system.readonly\n";
        let tokens = parse_tokens(text, "t").unwrap();
        let a = tokens.check(Some("a"), &world("alpha"));
        assert!(matches!(a, TokenCheck::Granted(g) if g.permissions().contains(crate::policy::Permission::WorldTime)), "{a:?}");
        assert!(matches!(tokens.check(Some("a"), &world("beta")), TokenCheck::Granted(_)));
        assert_eq!(tokens.check(Some("a"), &world("main")), TokenCheck::OtherWorld, "a scoped token reaches only its worlds");
        assert!(matches!(tokens.check(Some("all"), &world("gamma")), TokenCheck::Granted(_)), "no @ word: every world");
        assert_eq!(tokens.check(Some("nope"), &world("alpha")), TokenCheck::Unknown);
        assert_eq!(tokens.check(None, &world("alpha")), TokenCheck::Unknown);
        let bad = parse_tokens("ok system.readonly\nb builder.readWrite @Bad.Name", "t").unwrap_err().to_string();
        assert!(bad.contains("t:2:") && bad.contains("Bad.Name"), "{bad}");
    }
}
