//! Package manifests: what a mod is, what it needs, and how much trust it asks for.
//!
//! A manifest is a Luau table (`package.luau` in a folder package, or the `package` field of a
//! single-file mod). It is converted to JSON and checked here field by field; anything unknown
//! or malformed is refused with a message naming the field.
//!
//! A manifest's `trust` is a request, never a grant: the tier a package runs in comes from the
//! operator (`trust.rs`), so the field is `requested_trust`, and `limits` are kept as asked and
//! checked again against the tier the package is actually given (`Manifest::limits_for`).

use std::collections::BTreeMap;

use semver::{Version, VersionReq};
use serde_json::Value;

use crate::policy::Permission;
use crate::script::convert::Budget;

/// How far a package is trusted. Ordered: a grant never lifts a package above what it asks for.
///
/// Every tier runs in its own restricted VM and reaches the world only through `host.invoke`
/// within its declared capabilities; the tiers differ in their limits. None of them is
/// unlimited: the operator vouching for code does not make its bugs unable to stall the tick.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Trust {
    /// Tight limits (the default, and what every package runs as until the operator grants more).
    Untrusted,
    /// Relaxed limits.
    Verified,
    /// The widest limits, for code the operator wrote or reviewed.
    Local,
}

impl Trust {
    pub fn parse(text: &str) -> Option<Trust> {
        match text {
            "untrusted" => Some(Trust::Untrusted),
            "verified" => Some(Trust::Verified),
            "local" => Some(Trust::Local),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Trust::Untrusted => "untrusted",
            Trust::Verified => "verified",
            Trust::Local => "local",
        }
    }

    /// The limits of this tier: what a package gets by default, and the range its manifest may
    /// choose within.
    pub(crate) fn limit_bounds(self) -> LimitBounds {
        const MIB: usize = 1 << 20;
        const GIB: u64 = 1 << 30;
        // The process limits bind a package's worker (`worker/confine.rs`): its address space
        // must hold the limina binary's own mappings (`WORKER_BASE_BYTES`) beside the VM's memory
        // limit, and its CPU time is the worker's whole life (it is recycled at half of it).
        let untrusted = LimitBounds {
            floor: Limits {
                memory_bytes: MIB,
                cpu_ms: 1.0,
                value_bytes: 1024,
                value_nodes: 100,
                value_depth: 2,
                process_memory_bytes: GIB / 4,
                process_cpu_seconds: 1,
                process_files: 4,
            },
            default: Limits {
                memory_bytes: 16 * MIB,
                cpu_ms: 50.0,
                value_bytes: 4 * MIB,
                value_nodes: 100_000,
                value_depth: 64,
                process_memory_bytes: GIB,
                process_cpu_seconds: 60,
                process_files: 16,
            },
            ceiling: Limits {
                memory_bytes: 64 * MIB,
                cpu_ms: 250.0,
                value_bytes: 16 * MIB,
                value_nodes: 1_000_000,
                value_depth: 64,
                process_memory_bytes: 2 * GIB,
                process_cpu_seconds: 600,
                process_files: 64,
            },
        };
        let verified = LimitBounds {
            default: Limits {
                memory_bytes: 64 * MIB,
                cpu_ms: 200.0,
                value_bytes: 16 * MIB,
                value_nodes: 250_000,
                value_depth: 64,
                process_memory_bytes: 2 * GIB,
                process_cpu_seconds: 300,
                ..untrusted.default
            },
            ceiling: Limits {
                memory_bytes: 256 * MIB,
                cpu_ms: 1000.0,
                value_bytes: 64 * MIB,
                value_nodes: 4_000_000,
                value_depth: 64,
                process_memory_bytes: 8 * GIB,
                process_cpu_seconds: 3600,
                ..untrusted.ceiling
            },
            ..untrusted
        };
        match self {
            Trust::Untrusted => untrusted,
            Trust::Verified => verified,
            // A local package runs in the engine's process: its process limits are not applied
            // (they would bind the engine), only kept in range.
            Trust::Local => LimitBounds {
                floor: untrusted.floor,
                default: Limits { memory_bytes: 256 * MIB, cpu_ms: 1000.0, ..verified.ceiling },
                ceiling: Limits { memory_bytes: 1024 * MIB, cpu_ms: 5000.0, ..verified.ceiling },
            },
        }
    }

    /// Default limits and the ceiling a manifest may raise them to.
    pub fn limits(self) -> (Limits, Limits) {
        let bounds = self.limit_bounds();
        (bounds.default, bounds.ceiling)
    }
}

/// Per-VM memory, per-call CPU time, and the size of values the host converts for a package.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Limits {
    pub memory_bytes: usize,
    /// A whole number of milliseconds.
    pub cpu_ms: f64,
    /// Bytes of text in one value converted between the package's VM and JSON.
    pub value_bytes: usize,
    /// Nodes in one such value; a subtable referenced twice counts twice (it is copied twice).
    pub value_nodes: usize,
    /// Nesting depth of one such value.
    pub value_depth: usize,
    /// The worker process's address space (`RLIMIT_AS`), for packages run out of process.
    pub process_memory_bytes: u64,
    /// The worker process's CPU time over its whole life (`RLIMIT_CPU`, whole seconds).
    pub process_cpu_seconds: u64,
    /// The worker process's open files (`RLIMIT_NOFILE`).
    pub process_files: u64,
}

impl Limits {
    /// The conversion budget these limits give each value crossing the VM boundary.
    pub(crate) fn value_budget(&self) -> Budget {
        Budget { bytes: self.value_bytes, nodes: self.value_nodes, depth: self.value_depth }
    }
}

/// The limits of one trust tier.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct LimitBounds {
    pub floor: Limits,
    pub default: Limits,
    pub ceiling: Limits,
}

/// One settable field of `limits`: its manifest name, its unit, and where it lives in `Limits`.
struct LimitField {
    name: &'static str,
    unit: &'static str,
    get: fn(&Limits) -> f64,
    set: fn(&mut Limits, u64),
}

const LIMIT_FIELDS: [LimitField; 8] = [
    LimitField { name: "memoryBytes", unit: " bytes", get: |l| l.memory_bytes as f64, set: |l, n| l.memory_bytes = n as usize },
    LimitField { name: "cpuMs", unit: " ms", get: |l| l.cpu_ms, set: |l, n| l.cpu_ms = n as f64 },
    LimitField { name: "valueBytes", unit: " bytes", get: |l| l.value_bytes as f64, set: |l, n| l.value_bytes = n as usize },
    LimitField { name: "valueNodes", unit: " nodes", get: |l| l.value_nodes as f64, set: |l, n| l.value_nodes = n as usize },
    LimitField { name: "valueDepth", unit: " levels", get: |l| l.value_depth as f64, set: |l, n| l.value_depth = n as usize },
    LimitField {
        name: "processMemoryBytes",
        unit: " bytes",
        get: |l| l.process_memory_bytes as f64,
        set: |l, n| l.process_memory_bytes = n,
    },
    LimitField { name: "processCpuSeconds", unit: " s", get: |l| l.process_cpu_seconds as f64, set: |l, n| l.process_cpu_seconds = n },
    LimitField { name: "processFiles", unit: " files", get: |l| l.process_files as f64, set: |l, n| l.process_files = n },
];

fn limit_names() -> String {
    LIMIT_FIELDS.iter().map(|f| f.name).collect::<Vec<_>>().join(", ")
}

/// Why a `limits` table was refused. Every message names the field, the value and the bounds.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LimitError {
    #[error("limits: must be a table of {}", limit_names())]
    NotATable,
    #[error("limits: unknown field `{0}` (fields: {names})", names = limit_names())]
    UnknownField(String),
    #[error("limits.{field}: must be a whole number ({range})")]
    NotANumber { field: &'static str, range: String },
    #[error("limits.{field}: {value} is not a whole number ({range})")]
    NotWhole { field: &'static str, value: String, range: String },
    #[error("limits.{field}: {value} is below the {floor} floor ({range})")]
    BelowFloor { field: &'static str, value: String, floor: String, range: String },
    #[error("limits.{field}: {value} is above the {ceiling} ceiling ({range})")]
    AboveCeiling { field: &'static str, value: String, ceiling: String, range: String },
    #[error(
        "limits.processMemoryBytes: {process} bytes cannot hold limits.memoryBytes ({memory} bytes) beside the worker's own {base} bytes; raise it to at least {}",
        .memory + .base
    )]
    ProcessMemoryTooSmall { process: u64, memory: u64, base: u64 },
}

/// Address space a package worker needs beside its VM's memory: the limina binary's own
/// mappings (about 70 MiB for a debug build here) with room to spare.
pub(crate) const WORKER_BASE_BYTES: u64 = 128 << 20;

fn show(n: f64, unit: &str) -> String {
    format!("{n}{unit}")
}

/// Reads a manifest's `limits` table over the tier's defaults. Each value must be a whole
/// number between the tier's floor and ceiling: `0.5` is refused rather than truncated to 0
/// (which mlua would read as "no memory limit"), and 0 is below every floor.
pub(crate) fn parse_limits(value: Option<&Value>, trust: Trust) -> Result<Limits, LimitError> {
    let bounds = trust.limit_bounds();
    let mut limits = bounds.default;
    let Some(value) = value else { return Ok(limits) };
    let Value::Object(fields) = value else { return Err(LimitError::NotATable) };
    for (key, v) in fields {
        let field = LIMIT_FIELDS.iter().find(|f| f.name == key).ok_or_else(|| LimitError::UnknownField(key.clone()))?;
        let (floor, ceiling) = ((field.get)(&bounds.floor), (field.get)(&bounds.ceiling));
        let range = format!("allowed: {} to {} for {} packages", show(floor, field.unit), show(ceiling, field.unit), trust.as_str());
        let n = v.as_f64().ok_or_else(|| LimitError::NotANumber { field: field.name, range: range.clone() })?;
        let value = v.to_string();
        if !n.is_finite() || n.fract() != 0.0 {
            return Err(LimitError::NotWhole { field: field.name, value, range });
        }
        if n < floor {
            return Err(LimitError::BelowFloor { field: field.name, value, floor: show(floor, field.unit), range });
        }
        if n > ceiling {
            return Err(LimitError::AboveCeiling { field: field.name, value, ceiling: show(ceiling, field.unit), range });
        }
        (field.set)(&mut limits, n as u64);
    }
    // The VM's own limit must end a table bomb before the address space does, so that the
    // package gets its usual `memory limit` error rather than a failed allocation anywhere.
    if limits.process_memory_bytes < limits.memory_bytes as u64 + WORKER_BASE_BYTES {
        return Err(LimitError::ProcessMemoryTooSmall {
            process: limits.process_memory_bytes,
            memory: limits.memory_bytes as u64,
            base: WORKER_BASE_BYTES,
        });
    }
    Ok(limits)
}

#[derive(Debug, Clone, PartialEq)]
pub struct Manifest {
    pub name: String,
    pub version: Version,
    pub description: String,
    pub capabilities: Vec<Permission>,
    /// The tier the package asks for. Only an operator grant can give it (see `trust.rs`).
    pub requested_trust: Trust,
    pub engine: VersionReq,
    pub dependencies: BTreeMap<String, VersionReq>,
    pub conflicts_with: Vec<String>,
    pub extends: Vec<String>,
    pub attestation: Option<String>,
    /// Entry file of a folder package, relative to it.
    pub main: Option<String>,
    /// The `limits` table as written (already valid for the requested tier).
    pub limits_request: Option<Value>,
    /// Names of the secrets it needs (`API_KEY`): shown for approval at install
    /// (docs/registries.md).
    pub secrets: Vec<String>,
    /// What `limina packages browse` files it under (`physics`, `ui`…): the publisher's word,
    /// shown, never interpreted ([`is_valid_category`]).
    pub category: Option<String>,
}

impl Manifest {
    pub fn reference(&self) -> String {
        format!("{}@{}", self.name, self.version)
    }

    /// The limits this package runs with in `tier`: its own `limits` over the tier's defaults,
    /// each within the tier's floor and ceiling.
    pub(crate) fn limits_for(&self, tier: Trust) -> Result<Limits, LimitError> {
        parse_limits(self.limits_request.as_ref(), tier)
    }
}

const FIELDS: [&str; 14] = [
    "name",
    "version",
    "description",
    "capabilities",
    "trust",
    "engine",
    "dependencies",
    "conflicts_with",
    "extends",
    "attestation",
    "main",
    "limits",
    "secrets",
    "category",
];

/// A secret's name: 1-64 uppercase letters, digits or `_`, starting with a letter.
pub(crate) fn is_valid_secret_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name.starts_with(|c: char| c.is_ascii_uppercase())
        && name.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

pub(crate) fn is_valid_package_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
}

/// Longest category name.
pub const MAX_CATEGORY_CHARS: usize = 32;

/// A category is a short lowercase word (`physics`, `level-design`): 1 to
/// [`MAX_CATEGORY_CHARS`] lowercase letters, digits or '-', starting with a letter. A registry
/// shows it in a terminal, so nothing else gets in (no spaces, no control characters, no case
/// variants of one category).
pub(crate) fn is_valid_category(category: &str) -> bool {
    !category.is_empty()
        && category.len() <= MAX_CATEGORY_CHARS
        && category.starts_with(|c: char| c.is_ascii_lowercase())
        && category.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// What [`is_valid_category`] wants, for error messages.
pub(crate) const CATEGORY_RULE: &str = "1-32 lowercase letters, digits or '-', starting with a letter";

/// Why a manifest was refused: the field at fault and what is wrong with its value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ManifestError {
    #[error("the manifest must be a table")]
    NotATable,
    #[error("unknown manifest field `{field}` (fields: {})", FIELDS.join(", "))]
    UnknownField { field: String },
    /// A known field with a bad or missing value; `problem` names the value and what was expected.
    #[error("{field}: {problem}")]
    Field { field: String, problem: String },
    #[error(transparent)]
    Limits(#[from] LimitError),
}

fn bad(field: &str, problem: impl Into<String>) -> ManifestError {
    ManifestError::Field { field: field.to_string(), problem: problem.into() }
}

fn strings(v: &Value, field: &str) -> Result<Vec<String>, ManifestError> {
    match v {
        Value::String(s) => Ok(vec![s.clone()]),
        Value::Array(items) => {
            items.iter().map(|i| i.as_str().map(str::to_string).ok_or_else(|| bad(field, "every entry must be a string"))).collect()
        }
        Value::Object(o) if o.is_empty() => Ok(Vec::new()),
        _ => Err(bad(field, "must be a list of strings")),
    }
}

/// Parses a manifest given as JSON (from its Luau table). `default_name` names single-file mods
/// that declare no name.
pub fn parse(value: &Value, default_name: Option<&str>) -> Result<Manifest, ManifestError> {
    let Value::Object(m) = value else { return Err(ManifestError::NotATable) };
    if let Some(unknown) = m.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(ManifestError::UnknownField { field: unknown.clone() });
    }
    let text = |field: &str| -> Result<Option<String>, ManifestError> {
        match m.get(field) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(bad(field, "must be a string")),
        }
    };
    let name = match (text("name")?, default_name) {
        (Some(n), _) => n,
        (None, Some(d)) => d.to_string(),
        (None, None) => return Err(bad("name", "missing (every package needs a name)")),
    };
    if !is_valid_package_name(&name) {
        return Err(bad("name", format!("'{name}' must be 1-64 lowercase letters, digits, '-' or '_', starting with a letter")));
    }
    let version_text = text("version")?.ok_or_else(|| bad("version", "missing (a semver version like 1.0.0)"))?;
    let version = Version::parse(&version_text).map_err(|e| bad("version", format!("'{version_text}' is not semver ({e})")))?;
    let description = text("description")?.unwrap_or_default();
    let capabilities = match m.get("capabilities") {
        None => Vec::new(),
        Some(v) => strings(v, "capabilities")?
            .iter()
            .map(|c| Permission::parse(c).ok_or_else(|| bad("capabilities", format!("unknown permission '{c}'"))))
            .collect::<Result<_, _>>()?,
    };
    let trust = match text("trust")? {
        None => Trust::Untrusted,
        Some(t) => Trust::parse(&t).ok_or_else(|| bad("trust", format!("'{t}' must be local, verified or untrusted")))?,
    };
    let req = |field: &str, text: &str| VersionReq::parse(text).map_err(|e| bad(field, format!("'{text}' is not a semver range ({e})")));
    let engine = match text("engine")? {
        Some(r) => req("engine", &r)?,
        None => VersionReq::STAR,
    };
    let mut dependencies = BTreeMap::new();
    match m.get("dependencies") {
        None => {}
        Some(Value::Object(deps)) => {
            for (dep, range) in deps {
                let range = range.as_str().ok_or_else(|| bad(&format!("dependencies.{dep}"), "must be a semver range string"))?;
                dependencies.insert(dep.clone(), req(&format!("dependencies.{dep}"), range)?);
            }
        }
        Some(Value::Array(a)) if a.is_empty() => {}
        Some(_) => return Err(bad("dependencies", "must be a table of name = \"range\"")),
    }
    let conflicts_with = m.get("conflicts_with").map(|v| strings(v, "conflicts_with")).transpose()?.unwrap_or_default();
    let extends = m.get("extends").map(|v| strings(v, "extends")).transpose()?.unwrap_or_default();
    let attestation = text("attestation")?;
    if let Some(a) = &attestation
        && !(a.starts_with("sha256:") && a.len() == 71 && a[7..].bytes().all(|b| b.is_ascii_hexdigit()))
    {
        return Err(bad("attestation", format!("'{a}' must be sha256:<64 hex digits>")));
    }
    let main = text("main")?;
    if let Some(main) = &main
        && (main.contains("..") || main.starts_with('/') || main.contains('\\'))
    {
        return Err(bad("main", format!("'{main}' must be a file inside the package")));
    }
    // Checked now against the tier asked for (a manifest that is wrong even there is invalid), and
    // again at admission against the tier the package is given.
    let limits_request = m.get("limits").cloned();
    parse_limits(limits_request.as_ref(), trust)?;
    let secrets = m.get("secrets").map(|v| strings(v, "secrets")).transpose()?.unwrap_or_default();
    if let Some(bad_secret) = secrets.iter().find(|s| !is_valid_secret_name(s)) {
        return Err(bad("secrets", format!("'{bad_secret}' must be 1-64 uppercase letters, digits or '_', starting with a letter")));
    }
    let category = text("category")?;
    if let Some(c) = &category
        && !is_valid_category(c)
    {
        return Err(bad("category", format!("'{c}' must be {CATEGORY_RULE}")));
    }
    Ok(Manifest {
        name,
        version,
        description,
        capabilities,
        requested_trust: trust,
        engine,
        dependencies,
        conflicts_with,
        extends,
        attestation,
        main,
        limits_request,
        secrets,
        category,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_full_manifest_parses() {
        let m = parse(
            &json!({"name": "towers", "version": "1.2.0", "capabilities": ["scene.write"], "trust": "verified", "engine": ">=0.1, <1",
                     "dependencies": {"base": "^1"}, "limits": {"cpuMs": 100}}),
            None,
        )
        .unwrap();
        assert_eq!(m.reference(), "towers@1.2.0");
        assert_eq!(m.requested_trust, Trust::Verified);
        assert_eq!(m.limits_for(Trust::Verified).unwrap().cpu_ms, 100.0);
        // Not granted, the same request is judged against the untrusted tier's bounds.
        assert_eq!(m.limits_for(Trust::Untrusted).unwrap().cpu_ms, 100.0);
        assert_eq!(m.limits_for(Trust::Untrusted).unwrap().memory_bytes, 16 << 20);
        assert!(m.engine.matches(&Version::new(0, 1, 0)));
    }

    #[test]
    fn a_category_is_a_short_lowercase_word() {
        let with = |c: Value| parse(&json!({"name": "towers", "version": "1.0.0", "category": c}), None);
        assert_eq!(with(json!("level-design")).unwrap().category.as_deref(), Some("level-design"));
        assert_eq!(parse(&json!({"name": "towers", "version": "1.0.0"}), None).unwrap().category, None);
        let long = "a".repeat(MAX_CATEGORY_CHARS + 1);
        for bad_one in ["Physics", "ui tools", "", "9lives", "ui\u{1b}[31m", long.as_str()] {
            let err = with(json!(bad_one)).unwrap_err();
            assert!(matches!(&err, ManifestError::Field { field, .. } if field == "category"), "{bad_one:?}: {err}");
        }
        assert!(with(json!(["ui"])).is_err());
    }

    #[test]
    fn no_tier_is_unlimited_and_tiers_only_widen() {
        let tiers = [Trust::Untrusted, Trust::Verified, Trust::Local];
        for tier in tiers {
            let b = tier.limit_bounds();
            for l in [b.floor, b.default, b.ceiling] {
                assert!(l.memory_bytes > 0 && l.memory_bytes <= 1 << 30, "{tier:?}: {l:?}");
                assert!(l.cpu_ms.is_finite() && l.cpu_ms >= 1.0 && l.cpu_ms <= 5000.0, "{tier:?}: {l:?}");
            }
        }
        for pair in tiers.windows(2) {
            let (lower, higher) = (pair[0].limit_bounds().ceiling, pair[1].limit_bounds().ceiling);
            assert!(lower.memory_bytes <= higher.memory_bytes && lower.cpu_ms <= higher.cpu_ms, "{pair:?}");
        }
    }

    #[test]
    fn each_problem_is_named() {
        let cases = [
            (json!({"version": "1.0.0"}), "name: missing"),
            (json!({"name": "x", "version": "1.0"}), "version: '1.0' is not semver"),
            (json!({"name": "x"}), "version: missing"),
            (json!({"name": "x", "version": "1.0.0", "capabilities": ["root"]}), "unknown permission 'root'"),
            (json!({"name": "x", "version": "1.0.0", "engine": "nope"}), "engine: 'nope' is not a semver range"),
            (json!({"name": "x", "version": "1.0.0", "trust": "total"}), "trust: 'total'"),
            (json!({"name": "x", "version": "1.0.0", "colour": 1}), "unknown manifest field `colour`"),
            (json!({"name": "Bad Name", "version": "1.0.0"}), "name: 'Bad Name'"),
            (json!({"name": "x", "version": "1.0.0", "limits": {"cpuMs": 99999}}), "above the 250 ms ceiling"),
            (json!({"name": "x", "version": "1.0.0", "attestation": "md5:abc"}), "attestation"),
            (json!({"name": "x", "version": "1.0.0", "main": "../evil.luau"}), "main"),
        ];
        for (manifest, expected) in cases {
            let err = parse(&manifest, None).unwrap_err();
            assert!(err.to_string().contains(expected), "{err:?} should contain {expected:?}");
        }
    }

    #[test]
    fn limits_are_whole_numbers_between_the_tiers_floor_and_ceiling() {
        let parse = |l: Value, trust: Trust| parse_limits(Some(&l), trust).map_err(|e| e.to_string());
        let ok = parse(json!({"memoryBytes": 2097152, "cpuMs": 20, "valueNodes": 500}), Trust::Untrusted).unwrap();
        assert_eq!((ok.memory_bytes, ok.cpu_ms, ok.value_nodes), (2097152, 20.0, 500));
        assert_eq!(parse_limits(None, Trust::Untrusted).unwrap(), Trust::Untrusted.limit_bounds().default);
        let refused = [
            (
                json!({"memoryBytes": 0.5}),
                "limits.memoryBytes: 0.5 is not a whole number (allowed: 1048576 bytes to 67108864 bytes for untrusted packages)",
            ),
            (json!({"memoryBytes": 0}), "limits.memoryBytes: 0 is below the 1048576 bytes floor"),
            (json!({"cpuMs": -5}), "limits.cpuMs: -5 is below the 1 ms floor"),
            (json!({"cpuMs": 1e300}), "above the 250 ms ceiling"),
            (json!({"valueDepth": 65}), "limits.valueDepth: 65 is above the 64 levels ceiling"),
            (json!({"cpuMs": "50"}), "limits.cpuMs: must be a whole number"),
            (json!({"stack": 1}), "limits: unknown field `stack`"),
            (json!([1]), "limits: must be a table"),
        ];
        for (limits, want) in refused {
            let err = parse(limits.clone(), Trust::Untrusted).unwrap_err();
            assert!(err.contains(want), "{limits}: {err:?} should contain {want:?}");
        }
        assert!(parse(json!({"memoryBytes": 134217728}), Trust::Verified).is_ok(), "verified packages may go higher");
        let e = parse(json!({"memoryBytes": 268435456, "processMemoryBytes": 268435456}), Trust::Verified).unwrap_err();
        assert!(e.contains("cannot hold limits.memoryBytes (268435456 bytes)") && e.contains("at least 402653184"), "{e}");
        let ok = parse(json!({"processMemoryBytes": 268435456, "processCpuSeconds": 2, "processFiles": 4}), Trust::Untrusted).unwrap();
        assert_eq!((ok.process_memory_bytes, ok.process_cpu_seconds, ok.process_files), (268435456, 2, 4));
        let local = parse(json!({"memoryBytes": 0.5}), Trust::Local).unwrap_err();
        assert!(local.contains("not a whole number"), "{local}");
    }

    #[test]
    fn every_tier_has_a_nonzero_floor_below_its_default_and_ceiling() {
        for trust in [Trust::Untrusted, Trust::Verified, Trust::Local] {
            let b = trust.limit_bounds();
            for field in &LIMIT_FIELDS {
                let (floor, default, ceiling) = ((field.get)(&b.floor), (field.get)(&b.default), (field.get)(&b.ceiling));
                assert!(
                    floor > 0.0 && floor <= default && default <= ceiling,
                    "{} {}: {floor} {default} {ceiling}",
                    trust.as_str(),
                    field.name
                );
            }
        }
    }
}
