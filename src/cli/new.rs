//! `limina new NAME`: a project folder that runs, tests and serves from the first minute —
//! `limina.toml` (the marker `project::find` looks for), `main.lua`, `scripts/` with one mod and
//! the starter library of instruction skills (`scripts/<id>/SKILL.md`),
//! `scenes/`, `assets/`, `tests/lua/` with a passing test, Luau definitions from `limina types`
//! with luau-lsp pointed at them, and an MCP client config naming this binary and the project.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use clap::Args;

use super::{CliError, CliResult};
use crate::host::{Engine, EngineConfig, Output};
use crate::script::typedefs::luau_definitions;

#[derive(Debug, Args)]
pub(crate) struct NewArgs {
    /// The folder to create (its last part names the project: letters, digits, `_` and `-`).
    pub path: PathBuf,
}

/// The files every new project starts with, by path in the project.
const FILES: &[(&str, &str)] = &[
    (super::project::MARKER, LIMINA_TOML),
    ("main.lua", MAIN_LUA),
    ("scripts/hello.luau", HELLO_MOD),
    ("scenes/start.lua", START_SCENE),
    ("assets/README.md", ASSETS_README),
    ("tests/lua/world_test.lua", WORLD_TEST),
    (".vscode/settings.json", VSCODE_SETTINGS),
    (".gitignore", GITIGNORE),
];

/// The definitions file the editor settings name.
const TYPES_FILE: &str = "limina.d.luau";
/// The MCP client config: Claude Code reads it from the project root; Claude Desktop and Cursor
/// take the same `mcpServers` object.
const MCP_FILE: &str = ".mcp.json";

const LIMINA_TOML: &str = "# This folder is a limina project: `limina` commands given a file in it, or run anywhere below it,
# work on it (require, scripts/, scenes/, assets/, and the traces/ and snapshots/ they write).
# Only the file's presence counts today.
";

const MAIN_LUA: &str = r#"-- A first world (`limina run main.lua`; add --screenshot out.png to see it).
local function make(input) return limina.call("scene.createEntity", input).result.entity end
make({ shape = "box", size = 40, position = { 0, -20, 0 }, static = true, color = 0x4a7a3a })
for i = 0, 4 do make({ shape = "box", position = { 0, 0.5 + i, 0 }, dynamic = true, color = 0xb07a3a }) end
local ball = make({ shape = "sphere", size = 1.2, position = { -6, 3.5, 0 }, dynamic = true, color = 0xd1281f })
limina.call("physics.applyImpulse", { entity = ball, impulse = { 20, 2, 0 } })
limina.call("render.setCamera", { position = { -4, 7, 16 }, target = { 3, 1, 0 }, fov = 50 })
limina.step(240)
print(limina.call("mods.hello", { name = "main.lua" }).result.message)
"#;

const HELLO_MOD: &str = r#"-- A mod: every file in scripts/ adds skills (here `mods.hello`), reloaded when saved. It runs in
-- its own sandboxed VM with `s` (the schema DSL) and `host` (host.invoke calls other skills).
return {
	package = { name = "hello", version = "0.1.0", description = "Says hello.", capabilities = { "scene.read" } },
	skills = {
		{
			name = "mods.hello",
			version = "0.1.0",
			category = "mods",
			description = "Greet someone and say how many entities the world holds.",
			permissions = {},
			input = s.object({ name = s.string():min(1):max(60):default("world") }),
			output = s.object({ message = s.string() }),
			handler = function(input, ctx)
				local r = host.invoke("scene.queryEntities", {})
				local count = if r.success then #r.result.entities else 0
				return { message = string.format("hello, %s: %d entities", input.name, count) }
			end,
		},
	},
}
"#;

const START_SCENE: &str = r#"-- A scene file: data only (`limina run scenes/start.lua`, or `limina mcp --stdio --scene scenes/start.lua`).
return {
	format = 1,
	description = "A floor and a crate.",
	entities = {
		{ shape = "box", color = 0x9a9388, position = { 0, -0.5, 0 }, scale = { 20, 1, 20 }, body = { kind = "static" } },
		{ shape = "box", color = 0xa0703c, position = { 0, 2, 0 }, body = { kind = "dynamic" } },
	},
}
"#;

const ASSETS_README: &str =
    "glTF models (`.glb`, `.gltf`) go here; `three.loadGLTF` and scene files name them by their path in this folder.\n";

const WORLD_TEST: &str = r#"-- `limina test` runs every file under tests/lua, each in a fresh world.
describe("the world", function()
	it("lets a crate fall onto the floor", function()
		limina.call("scene.createEntity", { shape = "box", size = 20, position = { 0, -10, 0 }, static = true })
		local crate = limina.call("scene.createEntity", { shape = "box", position = { 0, 5, 0 }, dynamic = true }).result.entity
		limina.step(120)
		local y = limina.call("scene.queryEntities", {}).result.entities
		expect(#y).toBe(2)
		expect(crate).toBe("ent_0002")
	end)

	it("has the project's mod", function()
		local r = limina.call("mods.hello", { name = "test" })
		expect(r.success).toBe(true)
	end)
end)
"#;

const VSCODE_SETTINGS: &str = r#"{
  "luau-lsp.types.definitionFiles": ["limina.d.luau"]
}
"#;

// `.limina/` holds the registry cache and staging folders (docs/registries.md).
const GITIGNORE: &str = "/traces/\n/snapshots/\n/.limina/\n";

pub fn run(args: &NewArgs) -> CliResult {
    match create(&args.path) {
        Ok(root) => {
            let shown = args.path.display();
            outln!("created limina project {} in {}", args.path.file_name().unwrap_or_default().to_string_lossy(), root.display());
            outln!("  limina run {shown}/main.lua        a first world");
            outln!("  cd {shown} && limina test        its tests");
            outln!(
                "  {shown}/{MCP_FILE}                    the MCP client config (Claude Code reads it; Claude Desktop and Cursor take the same mcpServers)"
            );
            Ok(())
        }
        Err(e) => Err(CliError::failed(format_args!("{e:#}"))),
    }
}

/// Makes the project folder and its files; returns the folder, absolute.
fn create(path: &Path) -> anyhow::Result<PathBuf> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    if name.is_empty() || name.len() > 64 || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-') {
        bail!("'{}': a project's name is 1 to 64 letters, digits, '_' or '-'", path.display());
    }
    if path.exists() {
        bail!("{} already exists; limina new makes a new folder", path.display());
    }
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !parent.is_dir() {
        bail!("{}: no such folder to make the project in", parent.display());
    }
    std::fs::create_dir(path).with_context(|| format!("cannot create {}", path.display()))?;
    let root = path.canonicalize().with_context(|| format!("cannot resolve {}", path.display()))?;
    for (file, text) in FILES {
        write(&root, file, text)?;
    }
    // The starter library of instruction skills: agents spawned with skills.enabled read them.
    for (id, text) in super::starter_skills::STARTER_SKILLS {
        write(&root, &format!("scripts/{id}/SKILL.md"), text)?;
    }
    write(&root, TYPES_FILE, &definitions(&root)?)?;
    write(&root, MCP_FILE, &mcp_config(&root)?)?;
    Ok(root)
}

fn write(root: &Path, file: &str, text: &str) -> anyhow::Result<()> {
    let path = root.join(file);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
}

/// `limina types` for the new project: the core skills and its own mods' skills.
fn definitions(root: &Path) -> anyhow::Result<String> {
    let engine = Engine::new(EngineConfig { output: Output::Silent, scripts: Some(root.join("scripts")), ..EngineConfig::new(root) })
        .context("cannot start an engine for the project's type definitions")?;
    Ok(luau_definitions(engine.registry().signatures()))
}

/// An MCP client config that starts this binary on this project from any folder.
fn mcp_config(root: &Path) -> anyhow::Result<String> {
    let exe = std::env::current_exe().context("cannot find the path of this limina binary")?;
    let config = serde_json::json!({
        "mcpServers": {
            "limina": {
                "command": exe.display().to_string(),
                "args": ["--project", root.display().to_string(), "mcp", "--stdio"],
            }
        }
    });
    Ok(serde_json::to_string_pretty(&config)? + "\n")
}
