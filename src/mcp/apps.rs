//! MCP Apps (the `io.modelcontextprotocol/ui` extension): one interactive view of the world that
//! hosts such as Claude, ChatGPT, VS Code and Goose open in a sandboxed iframe when `world.view`
//! is called.
//!
//! The server lists one resource, `ui://limina/world`, a self-contained HTML document
//! (`text/html;profile=mcp-app`: every script inlined, nothing fetched) whose `_meta.ui.csp`
//! asks for no network origin at all: the view gets its data only from the host, over the
//! postMessage JSON-RPC the extension defines (`ui/initialize`, the tool result it was opened
//! with, then `tools/call world.view` proxied by the host a few times a second).
//!
//! Only a client that declared the extension (`capabilities.extensions["io.modelcontextprotocol/ui"]`
//! in `initialize`, or, in the stateless revision, the same under each request's
//! `_meta["io.modelcontextprotocol/clientCapabilities"]`) sees `world.view` carry
//! `_meta.ui.resourceUri` (and has it listed in the core tier); every other client's tool list
//! is what it was without this module. Such a client is also listed the app-only skills
//! (`Tier::App`, marked `_meta.ui.visibility: ["app"]`): `world.viewModel`, which hands the view a
//! glTF model's bytes, since the sandboxed view cannot fetch `/assets/<id>` itself.

use serde_json::{Value, json};

use super::dispatcher::RpcError;
use super::protocol;

/// The extension's identifier, under `capabilities.extensions`.
pub(crate) const EXTENSION_ID: &str = "io.modelcontextprotocol/ui";
/// The MIME type of an MCP App document.
pub(crate) const MIME_TYPE: &str = "text/html;profile=mcp-app";
/// The one view this server offers.
pub(crate) const VIEW_URI: &str = "ui://limina/world";
/// The tool that opens it.
pub(crate) const VIEW_TOOL: &str = "world.view";
/// The app-only tool the view loads a glTF model's bytes with (the view cannot fetch `/assets`).
pub(crate) const MODEL_TOOL: &str = "world.viewModel";
/// The stateless revision's `_meta` key for a request's client capabilities.
pub(crate) const CLIENT_CAPABILITIES_KEY: &str = "io.modelcontextprotocol/clientCapabilities";
/// The extension's older flat tool-metadata key, which hosts still read.
const LEGACY_RESOURCE_URI_KEY: &str = "ui/resourceUri";

/// The view document, assembled at build time: the page and the web viewer's stylesheet, the
/// vendored three.js bundle, the bridge (the viewer's data source here) and the web viewer's
/// script. About 0.9 MB, sent once per `resources/read`.
pub(crate) const VIEW_HTML: &str = concat!(
    include_str!("apps/head.html"),
    include_str!("../../web/viewer/viewer.css"),
    include_str!("apps/body.html"),
    "<script>\n",
    include_str!("../../vendor/three/three.bundle.js"),
    "\n</script>\n<script>\n",
    include_str!("apps/bridge.js"),
    "</script>\n<script>\n",
    include_str!("../../web/viewer/viewer.js"),
    "</script>\n</body>\n</html>\n",
);

/// Whether a client's capabilities declare MCP Apps: the extension present, and its `mimeTypes`
/// (when given) including ours.
pub(crate) fn declares(capabilities: Option<&Value>) -> bool {
    let Some(ui) = capabilities.and_then(|c| c.get("extensions")).and_then(|e| e.get(EXTENSION_ID)) else { return false };
    if !ui.is_object() {
        return false;
    }
    match ui.get("mimeTypes") {
        None | Some(Value::Null) => true,
        Some(Value::Array(types)) => types.iter().any(|t| t.as_str() == Some(MIME_TYPE)),
        Some(_) => false,
    }
}

/// Whether a stateless request declares MCP Apps in its own `_meta`.
pub(crate) fn declared_by_request(params: &Value) -> bool {
    declares(params.get("_meta").and_then(|m| m.get(CLIENT_CAPABILITIES_KEY)))
}

/// Adds the view to `world.view`'s tool definition (both the current and the legacy key, as the
/// extension's own `registerAppTool` does).
pub(crate) fn mark_tool(tool: &mut Value) {
    tool["_meta"] = json!({"ui": {"resourceUri": VIEW_URI}, LEGACY_RESOURCE_URI_KEY: VIEW_URI});
}

/// Marks an app-only tool (`Tier::App`): the host offers it to views, never to the model.
pub(crate) fn mark_app_only(tool: &mut Value) {
    tool["_meta"] = json!({"ui": {"visibility": ["app"]}});
}

/// The view's resource metadata: no network origins (everything is inlined; data comes through
/// the host), no border asked of the host.
fn resource_meta() -> Value {
    json!({"ui": {"csp": {"connectDomains": [], "resourceDomains": []}, "prefersBorder": false}})
}

/// `resources/list`: the one view.
pub(crate) fn list() -> Value {
    json!({"resources": [{
        "uri": VIEW_URI,
        "name": "world",
        "title": "limina world",
        "description": "Live 3D view of the world (MCP Apps); opened by world.view.",
        "mimeType": MIME_TYPE,
        "_meta": resource_meta(),
    }]})
}

/// `resources/read`: the view's document, or -32002 for any other URI (as the MCP spec asks).
pub(crate) fn read(params: &Value) -> Result<Value, RpcError> {
    let uri = match params.get("uri") {
        Some(Value::String(u)) => u,
        Some(other) => {
            let message = format!("uri must be a string, got {}", crate::skills::schema::type_name(other));
            return Err(RpcError { code: protocol::INVALID_PARAMS, message, data: None });
        }
        None => {
            let message = "resources/read needs the resource's uri".to_string();
            return Err(RpcError { code: protocol::INVALID_PARAMS, message, data: None });
        }
    };
    if uri != VIEW_URI {
        // (clipped: a hostile client's megabyte URI is not echoed back)
        let shown = crate::clip::shown(uri);
        return Err(RpcError {
            code: protocol::RESOURCE_NOT_FOUND,
            message: format!("resource not found: {shown}; this server has {VIEW_URI}"),
            data: Some(json!({"uri": shown})),
        });
    }
    Ok(json!({"contents": [{"uri": VIEW_URI, "mimeType": MIME_TYPE, "text": VIEW_HTML, "_meta": resource_meta()}]}))
}

/// The text a host without Apps shows for a `world.view` result: a line, not the whole world
/// (the structured content carries that).
pub(crate) fn summary(view: &Value) -> String {
    let n = |key: &str| view.get(key).and_then(Value::as_array).map_or(0, Vec::len);
    let total = view.get("total").and_then(Value::as_u64).unwrap_or(0);
    let tick = view.get("tick").and_then(Value::as_u64).unwrap_or(0);
    let mut text = format!("World at tick {tick}: {} of {total} entities shown", n("entities"));
    if view.get("agents").is_some() {
        text.push_str(&format!(", {} agents", n("agents")));
    }
    text.push_str(&format!(", {} UI elements", n("ui")));
    if let Some(c) = view.get("nextCursor").and_then(Value::as_str) {
        text.push_str(&format!("; more after cursor {c}"));
    }
    text.push_str(". The full state is in structuredContent; MCP Apps hosts render it in 3D.");
    text
}

/// The text of a `world.viewModel` result: what was sent, not the bytes again.
pub(crate) fn model_summary(model: &Value) -> String {
    let asset = model.get("asset").and_then(Value::as_str).map(crate::clip::shown).unwrap_or_default();
    let bytes = model.get("bytes").and_then(Value::as_u64).unwrap_or(0);
    format!("Model {asset}: {bytes} bytes, base64 in structuredContent.data (for the MCP App view).")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_extension_with_our_mime_type_declares_apps() {
        let ui = |v: Value| json!({"extensions": {EXTENSION_ID: v}});
        assert!(declares(Some(&ui(json!({"mimeTypes": [MIME_TYPE]})))));
        assert!(declares(Some(&ui(json!({})))));
        assert!(!declares(Some(&ui(json!({"mimeTypes": ["text/html"]})))));
        assert!(!declares(Some(&ui(json!(true)))));
        assert!(!declares(Some(&json!({"experimental": {EXTENSION_ID: {}}}))));
        assert!(!declares(None));
    }

    #[test]
    fn the_document_is_one_self_contained_page() {
        assert!(VIEW_HTML.starts_with("<!doctype html>"), "{}", &VIEW_HTML[..40]);
        assert!(VIEW_HTML.contains("Content-Security-Policy"));
        // Nothing fetched: no script or stylesheet by URL.
        assert!(!VIEW_HTML.contains("<script src"), "every script is inlined");
        assert!(!VIEW_HTML.contains("<link"), "no stylesheet by URL");
        // An inlined script that said `</script>` would end its element early.
        for script in
            [include_str!("../../vendor/three/three.bundle.js"), include_str!("apps/bridge.js"), include_str!("../../web/viewer/viewer.js")]
        {
            assert!(!script.to_ascii_lowercase().contains("</script"));
        }
    }
}
