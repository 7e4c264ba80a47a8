//! One instruction skill: the fields of its front matter, checked, and its markdown body.
//!
//! `parse` turns the text of a `SKILL.md` into an `InstructionSkill` or a `FormatError` naming
//! the file and the line. It checks only what the text alone can tell (field names and shapes,
//! the name, semver, the surface mode, the syntax of gated tool names, the body's size);
//! whether a gated tool exists, and whether the skill may gate it, is for whoever registers it
//! (`InstructionSkill::check_tools`, and the package loader's capability check).

use std::collections::BTreeMap;
use std::sync::Arc;

use semver::{Version, VersionReq};

use super::front_matter::{self, Entry, Value};

/// Largest markdown body: 64 KiB, about 16,000 tokens, far more than one craft guide needs and
/// small enough that activating one cannot swamp a model's context.
pub const MAX_BODY_BYTES: usize = 64 * 1024;
/// Longest description (the Claude Skills limit): it is what `list_skills` and `prompts/list`
/// show for every skill, so it is paid for on every listing.
pub const MAX_DESCRIPTION_CHARS: usize = 1024;
/// Longest name (the Claude Skills limit).
pub const MAX_NAME_CHARS: usize = 64;
/// Most typed tools one skill gates.
pub const MAX_GATED_TOOLS: usize = 32;
/// Longest `compatibility` note (the Claude Skills format's own bound).
pub const MAX_COMPATIBILITY_CHARS: usize = 500;

/// Where an activated skill's text and tools go in a model's request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SurfaceMode {
    /// The body goes into the system message; the gated tools are not added.
    SystemPrompt,
    /// The gated tools go into the tool list; the body stays out of the system message.
    ToolOnly,
    /// Both.
    Both,
}

impl SurfaceMode {
    pub const ALL: [SurfaceMode; 3] = [SurfaceMode::SystemPrompt, SurfaceMode::ToolOnly, SurfaceMode::Both];

    pub fn parse(text: &str) -> Option<SurfaceMode> {
        Self::ALL.into_iter().find(|m| m.as_str() == text)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            SurfaceMode::SystemPrompt => "system-prompt",
            SurfaceMode::ToolOnly => "tool-only",
            SurfaceMode::Both => "both",
        }
    }

    /// Whether the body goes into the system message.
    pub fn shows_body(self) -> bool {
        matches!(self, SurfaceMode::SystemPrompt | SurfaceMode::Both)
    }

    /// Whether the gated tools go into the tool list.
    pub fn shows_tools(self) -> bool {
        matches!(self, SurfaceMode::ToolOnly | SurfaceMode::Both)
    }
}

impl std::fmt::Display for SurfaceMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A typed tool a skill gates, with the front matter line that names it (for errors).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GatedTool {
    pub name: String,
    pub line: usize,
}

/// A file beside a folder skill's `SKILL.md`, served as `skill://<id>/<path>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resource {
    /// Relative to the skill's folder, `/`-separated, plain names only.
    pub path: String,
    pub bytes: Arc<[u8]>,
}

impl Resource {
    /// The text, when the file is UTF-8 (else it is served as a base64 blob).
    pub fn text(&self) -> Option<&str> {
        std::str::from_utf8(&self.bytes).ok()
    }
}

/// An instruction skill: knowledge an agent reads when it needs it. It never runs code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstructionSkill {
    /// Its id everywhere (registry, `read_skill`, MCP prompt name, `skill://<id>`): the `name`
    /// field, which must equal the folder or file stem it was found under.
    pub id: String,
    pub description: String,
    pub version: Option<Version>,
    /// Its own surface mode; `None` lets the registry's cascade decide.
    pub surface_mode: Option<SurfaceMode>,
    /// The typed tools it gates, in the order written.
    pub tools: Vec<GatedTool>,
    pub license: Option<String>,
    /// The Claude Skills `compatibility` note (what the skill expects of its environment).
    pub compatibility: Option<String>,
    /// The Claude Skills `metadata` map (author, tags…), shown, never interpreted.
    pub metadata: BTreeMap<String, String>,
    pub dependencies: BTreeMap<String, VersionReq>,
    pub conflicts_with: Vec<String>,
    /// The markdown after the front matter.
    pub body: String,
    /// The 1-based line of `file` the body starts on.
    pub body_line: usize,
    pub resources: Vec<Resource>,
    /// The file as it may be shown (`scripts/light/SKILL.md`), for errors and listings.
    pub file: String,
    /// sha256 of `SKILL.md` and its resources (path order), hex.
    pub content_hash: String,
}

impl InstructionSkill {
    /// The names of the gated tools.
    pub fn tool_names(&self) -> impl Iterator<Item = &str> {
        self.tools.iter().map(|t| t.name.as_str())
    }

    pub fn resource(&self, path: &str) -> Option<&Resource> {
        self.resources.iter().find(|r| r.path == path)
    }

    /// Refuses the first gated tool `known` does not know, naming its line.
    pub fn check_tools(&self, known: impl Fn(&str) -> bool) -> Result<(), FormatError> {
        match self.tools.iter().find(|t| !known(&t.name)) {
            Some(t) => Err(FormatError::at(&self.file, t.line, Problem::UnknownTool(t.name.clone()))),
            None => Ok(()),
        }
    }
}

/// What is wrong with a skill's files.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    #[error("{0}")]
    Syntax(String),
    #[error(
        "unknown field '{0}' (fields: name, description, version, surfaceMode, tools or allowed-tools, license, compatibility, metadata, dependencies, conflicts_with)"
    )]
    UnknownField(String),
    #[error("'{0}' is missing (a skill needs a name and a description)")]
    Missing(&'static str),
    #[error("'{field}' must be {expected}")]
    Shape { field: &'static str, expected: &'static str },
    #[error("name '{0}' must be 1 to 64 of lowercase letters, digits and '-', starting with a letter or digit")]
    BadName(String),
    #[error("name '{name}' must match the {place} it is in ('{expected}')")]
    NameMismatch { name: String, expected: String, place: &'static str },
    #[error("description is {chars} characters, above the maximum of {max}")]
    DescriptionTooLong { chars: usize, max: usize },
    #[error("{field} is {chars} characters, above the maximum of {max}")]
    TooLong { field: &'static str, chars: usize, max: usize },
    #[error("version '{0}' is not semver (like 1.2.0)")]
    BadVersion(String),
    #[error("surfaceMode '{0}' is not one of system-prompt, tool-only, both")]
    BadMode(String),
    #[error("'{0}' is not a tool name (dotted, like scene.createEntity)")]
    BadToolName(String),
    #[error("gates {count} tools, above the maximum of {max}")]
    TooManyTools { count: usize, max: usize },
    #[error("gates '{0}', which no typed skill is registered as")]
    UnknownTool(String),
    #[error("dependency '{0}' is not 'name' or 'name@range' with a semver range")]
    BadDependency(String),
    #[error("the body is {bytes} bytes, above the maximum of {max}")]
    BodyTooLarge { bytes: usize, max: usize },
    /// The file is past what is read of it, so its body's size is not known exactly.
    #[error("the body is larger than the maximum of {max} bytes")]
    BodyPastCap { max: usize },
    #[error("the file is not UTF-8 text")]
    NotUtf8,
    #[error("the file contains a NUL byte")]
    Nul,
    #[error("{0}")]
    File(String),
    #[error("a symlink that leads outside the skill's folder")]
    Escapes,
    #[error("gates '{tool}', which needs permission {permission} that profile {profile} does not grant")]
    NotGranted { tool: String, permission: String, profile: String },
    #[error("{0}")]
    Unresolved(String),
    /// Within the format's bounds but beyond those of the tier the operator granted.
    #[error("{0}")]
    BeyondTier(String),
}

/// A `Problem` in a file, at a line (1-based; 0 when it is about the file as a whole).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.shown())]
pub struct FormatError {
    pub file: String,
    pub line: usize,
    pub problem: Problem,
}

impl FormatError {
    /// `file:line: problem`, or `file: problem` for a problem with the file as a whole.
    fn shown(&self) -> String {
        match self.line {
            0 => format!("{}: {}", self.file, self.problem),
            line => format!("{}:{line}: {}", self.file, self.problem),
        }
    }

    pub fn at(file: &str, line: usize, problem: Problem) -> Self {
        FormatError { file: file.to_string(), line, problem }
    }
}

/// Whether `name` is a skill id: 1..=64 of `[a-z0-9-]`, not starting with `-`. Safe in a URI
/// path segment and an MCP prompt name as is.
pub fn is_valid_id(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME_CHARS
        && !name.starts_with('-')
        && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// A typed tool name as `skills` spells them (a letter, then `[A-Za-z0-9_.-]`, at most 128),
/// with at least one dot: instruction skills gate namespaced tools only.
fn is_tool_name(name: &str) -> bool {
    name.len() <= 128
        && name.contains('.')
        && name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// What a skill's file must be named after.
#[derive(Debug, Clone, Copy)]
pub struct Expected<'a> {
    pub name: &'a str,
    /// "folder" or "file name".
    pub place: &'static str,
}

/// Parses the bytes of a `SKILL.md`. `file` is how errors show it; `expected` is the name the
/// folder or file gives it (the `name` field must match), if any.
pub fn parse(bytes: &[u8], file: &str, expected: Option<Expected<'_>>) -> Result<InstructionSkill, FormatError> {
    let line_of = |offset: usize| 1 + bytes[..offset].iter().filter(|&&b| b == b'\n').count();
    if let Some(at) = memchr::memchr(0, bytes) {
        return Err(FormatError::at(file, line_of(at), Problem::Nul));
    }
    let text = std::str::from_utf8(bytes).map_err(|e| FormatError::at(file, line_of(e.valid_up_to()), Problem::NotUtf8))?;
    let split = front_matter::split(text).map_err(|e| FormatError::at(file, e.line, Problem::Syntax(e.message)))?;
    if split.body.len() > MAX_BODY_BYTES {
        return Err(FormatError::at(file, split.body_line, Problem::BodyTooLarge { bytes: split.body.len(), max: MAX_BODY_BYTES }));
    }
    let fail = |line: usize, problem: Problem| FormatError::at(file, line, problem);
    let mut skill = InstructionSkill {
        id: String::new(),
        description: String::new(),
        version: None,
        surface_mode: None,
        tools: Vec::new(),
        license: None,
        compatibility: None,
        metadata: BTreeMap::new(),
        dependencies: BTreeMap::new(),
        conflicts_with: Vec::new(),
        body: split.body.to_string(),
        body_line: split.body_line,
        resources: Vec::new(),
        file: file.to_string(),
        content_hash: String::new(),
    };
    let mut saw_name = false;
    let mut saw_description = false;
    for Entry { key, line, value } in split.entries {
        match key.as_str() {
            "name" => {
                let name = one(&value, "name", line, file)?;
                if !is_valid_id(&name) {
                    return Err(fail(line, Problem::BadName(crate::clip::shown(&name))));
                }
                if let Some(Expected { name: wanted, place }) = expected
                    && wanted != name
                {
                    return Err(fail(line, Problem::NameMismatch { name, expected: crate::clip::shown(wanted), place }));
                }
                skill.id = name;
                saw_name = true;
            }
            "description" => {
                let text = one(&value, "description", line, file)?;
                let chars = text.chars().count();
                if chars > MAX_DESCRIPTION_CHARS {
                    return Err(fail(line, Problem::DescriptionTooLong { chars, max: MAX_DESCRIPTION_CHARS }));
                }
                saw_description = !text.trim().is_empty();
                skill.description = text;
            }
            "version" => {
                let text = one(&value, "version", line, file)?;
                skill.version = Some(Version::parse(&text).map_err(|_| fail(line, Problem::BadVersion(crate::clip::shown(&text))))?);
            }
            "surfaceMode" => {
                let text = one(&value, "surfaceMode", line, file)?;
                skill.surface_mode =
                    Some(SurfaceMode::parse(&text).ok_or_else(|| fail(line, Problem::BadMode(crate::clip::shown(&text))))?);
            }
            "license" => skill.license = Some(one(&value, "license", line, file)?),
            "compatibility" => {
                let text = one(&value, "compatibility", line, file)?;
                let chars = text.chars().count();
                if chars > MAX_COMPATIBILITY_CHARS {
                    return Err(fail(line, Problem::TooLong { field: "compatibility", chars, max: MAX_COMPATIBILITY_CHARS }));
                }
                skill.compatibility = Some(text);
            }
            "metadata" => {
                let Value::Map(pairs) = value else {
                    return Err(fail(line, Problem::Shape { field: "metadata", expected: "a map of indented 'name: value' lines" }));
                };
                skill.metadata = pairs.into_iter().map(|(k, v, _)| (k, v)).collect();
            }
            // `tools` is limina's name, `allowed-tools` the Claude Skills one (space-separated
            // there): both name the typed tools the skill gates, and both may be given.
            "tools" | "allowed-tools" => {
                let items = match (key.as_str(), value) {
                    ("allowed-tools", Value::Scalar(text)) => {
                        text.split([' ', ',']).filter(|t| !t.is_empty()).map(|t| (t.to_string(), line)).collect()
                    }
                    (_, value) => many(value, "tools", line, file)?,
                };
                for (name, item_line) in items {
                    if !is_tool_name(&name) {
                        return Err(fail(item_line, Problem::BadToolName(crate::clip::shown(&name))));
                    }
                    if !skill.tools.iter().any(|t| t.name == name) {
                        skill.tools.push(GatedTool { name, line: item_line });
                    }
                }
                if skill.tools.len() > MAX_GATED_TOOLS {
                    return Err(fail(line, Problem::TooManyTools { count: skill.tools.len(), max: MAX_GATED_TOOLS }));
                }
            }
            "dependencies" => {
                for (text, item_line) in many(value, "dependencies", line, file)? {
                    let (name, range) = text.split_once('@').unwrap_or((text.as_str(), "*"));
                    let req = VersionReq::parse(range.trim()).ok().filter(|_| is_valid_id(name.trim()));
                    let Some(req) = req else { return Err(fail(item_line, Problem::BadDependency(crate::clip::shown(&text)))) };
                    skill.dependencies.insert(name.trim().to_string(), req);
                }
            }
            "conflicts_with" => {
                for (name, item_line) in many(value, "conflicts_with", line, file)? {
                    if !is_valid_id(&name) {
                        return Err(fail(item_line, Problem::BadName(crate::clip::shown(&name))));
                    }
                    skill.conflicts_with.push(name);
                }
            }
            _ => return Err(fail(line, Problem::UnknownField(crate::clip::shown(&key)))),
        }
    }
    if !saw_name {
        return Err(fail(1, Problem::Missing("name")));
    }
    if !saw_description {
        return Err(fail(1, Problem::Missing("description")));
    }
    Ok(skill)
}

fn one(value: &Value, field: &'static str, line: usize, file: &str) -> Result<String, FormatError> {
    match value {
        Value::Scalar(s) => Ok(s.clone()),
        Value::List(_) => Err(FormatError::at(file, line, Problem::Shape { field, expected: "a single value, not a list" })),
        Value::Map(_) => Err(FormatError::at(file, line, Problem::Shape { field, expected: "a single value, not a map" })),
    }
}

/// A list field's items; a scalar is a list of one.
fn many(value: Value, field: &'static str, line: usize, file: &str) -> Result<Vec<(String, usize)>, FormatError> {
    match value {
        Value::Scalar(s) => Ok(vec![(s, line)]),
        Value::List(items) => Ok(items),
        Value::Map(_) => Err(FormatError::at(file, line, Problem::Shape { field, expected: "a list, not a map" })),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "---\nname: light-a-scene\ndescription: Light a scene so captures read well.\nversion: 1.2.0\nsurfaceMode: both\ntools:\n  - scene.createEntity\n  - three.setLight\nlicense: MIT\ndependencies: [readable-scenes@^1, physics-basics]\nconflicts_with: [noir]\n---\n# Lighting\nKey light first.\n";

    #[test]
    fn claude_skills_fields_are_read_allowed_tools_gate_like_tools() {
        let text = "---\nname: x\ndescription: d\nallowed-tools: scene.createEntity three.setLighting\ntools: [physics.raycast]\ncompatibility: Needs a world with physics.\nmetadata:\n  author: limina\n  version: \"2.1\"\n---\nbody\n";
        let s = parse(text.as_bytes(), "f", None).unwrap();
        assert_eq!(s.tool_names().collect::<Vec<_>>(), ["scene.createEntity", "three.setLighting", "physics.raycast"]);
        assert_eq!(s.compatibility.as_deref(), Some("Needs a world with physics."));
        assert_eq!(s.metadata.get("author").map(String::as_str), Some("limina"));
        assert_eq!(s.metadata.get("version").map(String::as_str), Some("2.1"));
        let list = "---\nname: x\ndescription: d\nallowed-tools:\n  - scene.createEntity\n---\nb\n";
        assert_eq!(parse(list.as_bytes(), "f", None).unwrap().tool_names().collect::<Vec<_>>(), ["scene.createEntity"]);
        for (text, want) in [
            ("---\nname: x\ndescription: d\nallowed-tools: Bash(git:*) Read\n---\nb\n", (4, Problem::BadToolName("Bash(git:*)".into()))),
            (
                "---\nname: x\ndescription: d\nmetadata: flat\n---\nb\n",
                (4, Problem::Shape { field: "metadata", expected: "a map of indented 'name: value' lines" }),
            ),
            (
                "---\nname: x\ndescription: d\ntools:\n  a: b\n---\nb\n",
                (4, Problem::Shape { field: "tools", expected: "a list, not a map" }),
            ),
            (
                "---\nname: x\ndescription: d\nlicense:\n  a: b\n---\nb\n",
                (4, Problem::Shape { field: "license", expected: "a single value, not a map" }),
            ),
        ] {
            assert_eq!(problem(text.as_bytes()), want, "{text}");
        }
        let long = format!("---\nname: x\ndescription: d\ncompatibility: {}\n---\nb\n", "c".repeat(501));
        assert_eq!(problem(long.as_bytes()), (4, Problem::TooLong { field: "compatibility", chars: 501, max: 500 }));
        let syntax = |text: &str| match problem(text.as_bytes()) {
            (line, Problem::Syntax(message)) => (line, message),
            other => panic!("{other:?}"),
        };
        let (line, message) = syntax("---\nname: x\ndescription: d\nmetadata:\n  a:\n    b: c\n---\nb\n");
        assert_eq!((line, message.as_str()), (5, "'metadata.a' must be a single value; nested maps and lists are not supported"));
        let (_, message) = syntax("---\nname: x\ndescription: d\nmetadata:\n  a: 1\n  - b\n---\nb\n");
        assert!(message.contains("'metadata' mixes map entries and list items"), "{message}");
        let (_, message) = syntax("---\nname: x\ndescription: d\nmetadata:\n  a: 1\n  a: 2\n---\nb\n");
        assert!(message.contains("'metadata.a' is given twice"), "{message}");
    }

    fn problem(text: &[u8]) -> (usize, Problem) {
        let e = parse(text, "scripts/x/SKILL.md", None).unwrap_err();
        assert!(e.to_string().starts_with("scripts/x/SKILL.md:"), "{e}");
        (e.line, e.problem)
    }

    #[test]
    fn a_good_skill_parses_every_field() {
        let s =
            parse(GOOD.as_bytes(), "scripts/light-a-scene/SKILL.md", Some(Expected { name: "light-a-scene", place: "folder" })).unwrap();
        assert_eq!(s.id, "light-a-scene");
        assert_eq!(s.version, Some(Version::new(1, 2, 0)));
        assert_eq!(s.surface_mode, Some(SurfaceMode::Both));
        assert_eq!(s.tool_names().collect::<Vec<_>>(), ["scene.createEntity", "three.setLight"]);
        assert_eq!(s.tools[1].line, 8);
        assert_eq!(s.dependencies.len(), 2);
        assert_eq!(s.dependencies["physics-basics"], VersionReq::STAR);
        assert_eq!(s.conflicts_with, ["noir"]);
        assert_eq!(s.body, "# Lighting\nKey light first.\n");
        assert_eq!(s.body_line, 13);
        assert_eq!(
            s.check_tools(|t| t == "scene.createEntity").unwrap_err().to_string(),
            "scripts/light-a-scene/SKILL.md:8: gates 'three.setLight', which no typed skill is registered as"
        );
    }

    #[test]
    fn each_bad_field_is_refused_with_its_line() {
        let with = |field: &str| format!("---\nname: x\ndescription: d\n{field}\n---\nbody\n");
        type Check = fn(&Problem) -> bool;
        let cases: Vec<(String, usize, Check)> = vec![
            (with("colour: red"), 4, |p| matches!(p, Problem::UnknownField(f) if f == "colour")),
            (with("version: 1.2"), 4, |p| matches!(p, Problem::BadVersion(_))),
            (with("surfaceMode: loud"), 4, |p| matches!(p, Problem::BadMode(_))),
            (with("surfaceMode: [both]"), 4, |p| matches!(p, Problem::Shape { .. })),
            (with("tools:\n  - scene.createEntity\n  - rm -rf"), 6, |p| matches!(p, Problem::BadToolName(_))),
            (with("dependencies: [a@not-a-range]"), 4, |p| matches!(p, Problem::BadDependency(_))),
            (with("conflicts_with: [Bad_Name]"), 4, |p| matches!(p, Problem::BadName(_))),
            ("---\ndescription: d\n---\n".into(), 1, |p| matches!(p, Problem::Missing("name"))),
            ("---\nname: x\n---\n".into(), 1, |p| matches!(p, Problem::Missing("description"))),
            ("---\nname: ../x\ndescription: d\n---\n".into(), 2, |p| matches!(p, Problem::BadName(_))),
            ("---\nname: x\ndescription: d\nname x\n---\n".into(), 4, |p| matches!(p, Problem::Syntax(_))),
        ];
        for (text, line, check) in cases {
            let (got_line, p) = problem(text.as_bytes());
            assert_eq!(got_line, line, "{text:?}: {p}");
            assert!(check(&p), "{text:?}: {p}");
        }
        let many: Vec<String> = (0..40).map(|i| format!("a.t{i}")).collect();
        assert!(matches!(problem(with(&format!("tools: [{}]", many.join(", "))).as_bytes()).1, Problem::TooManyTools { count: 40, .. }));
    }

    #[test]
    fn the_name_must_match_its_folder() {
        let e = parse(GOOD.as_bytes(), "f", Some(Expected { name: "other", place: "folder" })).unwrap_err();
        assert_eq!((e.line, matches!(e.problem, Problem::NameMismatch { .. })), (2, true));
    }

    #[test]
    fn bytes_that_are_not_text_and_oversized_bodies_are_refused_with_their_line() {
        assert_eq!(problem(b"---\nname: x\ndescription: \0\n---\n"), (3, Problem::Nul));
        assert_eq!(problem(b"---\nname: x\n\xff\n---\n"), (3, Problem::NotUtf8));
        let big = format!("---\nname: x\ndescription: d\n---\n{}", "a".repeat(MAX_BODY_BYTES + 1));
        assert_eq!(problem(big.as_bytes()), (5, Problem::BodyTooLarge { bytes: MAX_BODY_BYTES + 1, max: MAX_BODY_BYTES }));
        let long = format!("---\nname: x\ndescription: {}\n---\n", "d".repeat(MAX_DESCRIPTION_CHARS + 1));
        assert!(matches!(problem(long.as_bytes()), (3, Problem::DescriptionTooLong { .. })));
    }
}
