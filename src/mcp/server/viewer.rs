//! The live web viewer's routes on the HTTP/WebSocket port: the page at `/`, its scripts at
//! `/viewer/…` (embedded in the binary: three.js is vendored in `vendor/three`, nothing is fetched
//! from the network), and glTF models at `/assets/<asset id>` from the project's `assets/`.
//!
//! The page and its scripts hold no secret and need no token: the page asks the user for one (the
//! URL fragment, which browsers never send, or a form) and presents it as `Authorization: Bearer`
//! on its own `/mcp` requests. Models are world data: `/assets/…` needs a known token whose profile
//! may read the scene (no token at all when the server runs without a tokens file), and resolves
//! exactly as `three.loadGLTF` does (`paths::resolve_under`: plain relative ids, no `..`, no
//! symlink out of `assets/`), limited to model files and their buffers and PNG textures, at most
//! `MAX_ASSET_BYTES` each and `ASSET_BUDGET` being served at once. Origin and Host checks,
//! connection limits and the header timeout apply to these routes as to every other on the port.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;

use bytes::Bytes;
use http::{Method, StatusCode, header};
use jsonrpsee::server::{HttpBody, HttpResponse};

use super::admission::Reservation;
use super::tokens::TokenCheck;
use super::transport::Shared;
use crate::policy::Permission;

/// Bytes of one model file (or buffer, or texture) the server hands out, at most.
pub(crate) const MAX_ASSET_BYTES: u64 = 64 << 20;
/// Bytes of asset files held for sending at once, across all connections.
pub(crate) const ASSET_BUDGET: usize = 256 << 20;
/// Asset bytes one token may have being sent at once (a quarter of `ASSET_BUDGET`), so one
/// client reading slowly cannot hold every other client's models back.
pub(crate) const ASSET_BUDGET_PER_TOKEN: usize = ASSET_BUDGET / 4;

/// The viewer's files, embedded at build time.
const PAGE: &str = include_str!("../../../web/viewer/index.html");
const VIEWER_JS: &str = include_str!("../../../web/viewer/viewer.js");
const VIEWER_CSS: &str = include_str!("../../../web/viewer/viewer.css");
const THREE_BUNDLE: &str = include_str!("../../../vendor/three/three.bundle.js");
const THREE_LICENSE: &str = include_str!("../../../vendor/three/LICENSE");

/// The files an asset id may name: models, their external buffers, PNG textures (the only
/// texture format the engine loads).
const ASSET_EXTENSIONS: [(&str, &str); 4] =
    [("glb", "model/gltf-binary"), ("gltf", "model/gltf+json"), ("bin", "application/octet-stream"), ("png", "image/png")];

/// What a page may do: its own scripts, its own styles, and requests to its own origin
/// (`/mcp`, `/assets`); GLTFLoader reads a model's `data:` buffers and turns embedded textures into
/// `blob:` images.
const PAGE_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self' data: blob:; \
                           img-src 'self' blob: data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// Everything the viewer routes need, one per server (the world a request reaches only decides
/// whose token check an asset passes).
pub(super) struct Viewer {
    /// The project's `assets/` folder.
    assets: PathBuf,
    serving: Arc<AtomicUsize>,
    /// Bytes being sent per token (only tokens of the tokens file reach here, so it is bounded).
    serving_by: std::sync::Mutex<std::collections::HashMap<String, Arc<AtomicUsize>>>,
}

impl Viewer {
    pub fn new(project: &std::path::Path) -> Arc<Self> {
        Arc::new(Self { assets: project.join("assets"), serving: Arc::new(AtomicUsize::new(0)), serving_by: Default::default() })
    }

    /// Whether `path` is one of the page's own files (the same for every world, needing no token).
    pub fn is_page(path: &str) -> bool {
        Self::owns(path) && !path.starts_with("/assets/")
    }

    /// Whether `path` is one of the viewer's routes (the caller sends everything else on).
    pub fn owns(path: &str) -> bool {
        path == "/" || path == "/index.html" || path.starts_with("/viewer/") || path.starts_with("/assets/")
    }

    /// Serves a viewer route: `path` is the request's path within its world (`owns(path)` is
    /// true).
    /// `world`: the world whose assets a token is checked against (None: the page's files only).
    pub async fn handle<B>(self: Arc<Self>, req: http::Request<B>, path: &str, world: Option<&Shared>) -> HttpResponse {
        if req.method() != Method::GET && req.method() != Method::HEAD {
            let mut refused = super::http::plain(StatusCode::METHOD_NOT_ALLOWED, "the viewer's files take GET");
            refused.headers_mut().insert(header::ALLOW, http::HeaderValue::from_static("GET, HEAD"));
            return refused;
        }
        let response = match (page_file(path), path.strip_prefix("/assets/"), world) {
            (Some(file), ..) => file,
            (None, Some(id), Some(world)) => self.asset(req.headers(), id, world).await,
            (None, Some(_), None) => super::http::plain(StatusCode::NOT_FOUND, "not found: no such world"),
            (None, None, _) => {
                super::http::plain(StatusCode::NOT_FOUND, &format!("not found: {} (the viewer is at /)", crate::clip::shown(path)))
            }
        };
        headless(req.method(), response)
    }

    /// `GET /assets/<id>`: a model file for a reader of the scene.
    async fn asset(&self, headers: &http::HeaderMap, raw_id: &str, world: &Shared) -> HttpResponse {
        let granted = match world.check(headers) {
            TokenCheck::Granted(granted) => granted,
            refused => return world.refusal(refused, "assets need a known bearer token"),
        };
        if !granted.permissions().contains(Permission::SceneRead) {
            return super::http::plain(StatusCode::FORBIDDEN, "forbidden: this token's profile may not read the scene (scene.read)");
        }
        let Some(id) = percent_decode(raw_id) else {
            return super::http::plain(StatusCode::BAD_REQUEST, "the asset id is not valid percent-encoded UTF-8");
        };
        let shown = crate::clip::shown(&id);
        let path = match crate::paths::resolve_under(&self.assets, &id, &[".glb", ".gltf"]) {
            Ok(path) => path,
            Err(crate::paths::PathError::Missing(..)) => {
                return super::http::plain(StatusCode::NOT_FOUND, &format!("assetId '{shown}': no such asset in assets/"));
            }
            Err(_) => {
                return super::http::plain(
                    StatusCode::FORBIDDEN,
                    &format!("assetId '{shown}' is not a path inside assets/ (no '..', no absolute paths, no backslashes, no links out)"),
                );
            }
        };
        let extension = path.extension().and_then(|e| e.to_str()).unwrap_or_default().to_ascii_lowercase();
        let Some((_, media)) = ASSET_EXTENSIONS.iter().find(|(e, _)| *e == extension) else {
            return super::http::plain(
                StatusCode::FORBIDDEN,
                &format!("assetId '{shown}': only .glb, .gltf, .bin and .png files in assets/ are served"),
            );
        };
        let size = match std::fs::metadata(&path) {
            Ok(meta) => meta.len(),
            Err(e) => return super::http::plain(StatusCode::NOT_FOUND, &format!("assetId '{shown}': {e}")),
        };
        if size > MAX_ASSET_BYTES {
            return super::http::plain(
                StatusCode::PAYLOAD_TOO_LARGE,
                &format!("assetId '{shown}' is {size} bytes, over the {MAX_ASSET_BYTES}-byte limit of one asset"),
            );
        }
        // Held until the body is sent (or the client is cut off), so files in memory stay bounded:
        // the token's share first, then the server's.
        let token = world.tokens.as_ref().and_then(|_| super::transport::bearer_token(headers));
        let own = match token {
            None => None,
            Some(token) => {
                let count = Arc::clone(self.serving_by.lock().unwrap_or_else(|p| p.into_inner()).entry(token.to_string()).or_default());
                let Some(own) = Reservation::take(&count, size as usize, ASSET_BUDGET_PER_TOKEN) else {
                    let mut busy = super::http::plain(
                        StatusCode::SERVICE_UNAVAILABLE,
                        &format!("this token has {ASSET_BUDGET_PER_TOKEN} bytes of assets being sent, its limit; retry when they are read"),
                    );
                    busy.headers_mut().insert(header::RETRY_AFTER, http::HeaderValue::from_static("1"));
                    return busy;
                };
                Some(own)
            }
        };
        let Some(held) = Reservation::take(&self.serving, size as usize, ASSET_BUDGET) else {
            let mut busy = super::http::plain(
                StatusCode::SERVICE_UNAVAILABLE,
                &format!("the server is sending {ASSET_BUDGET} bytes of assets, its limit; retry shortly"),
            );
            busy.headers_mut().insert(header::RETRY_AFTER, http::HeaderValue::from_static("1"));
            return busy;
        };
        let read = tokio::task::spawn_blocking(move || std::fs::read(&path)).await;
        let bytes = match read {
            Ok(Ok(bytes)) if bytes.len() as u64 <= MAX_ASSET_BYTES => bytes,
            Ok(Ok(bytes)) => {
                return super::http::plain(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    &format!("assetId '{shown}' grew to {} bytes, over the {MAX_ASSET_BYTES}-byte limit", bytes.len()),
                );
            }
            Ok(Err(e)) => return super::http::plain(StatusCode::NOT_FOUND, &format!("assetId '{shown}': {e}")),
            Err(_) => return super::http::plain(StatusCode::INTERNAL_SERVER_ERROR, "reading the asset failed"),
        };
        let mut response = HttpResponse::new(HttpBody::new(Held { data: Bytes::from(bytes), _held: (held, own) }));
        let h = response.headers_mut();
        h.insert(header::CONTENT_TYPE, http::HeaderValue::from_static(media));
        h.insert(header::CACHE_CONTROL, http::HeaderValue::from_static("private, no-store"));
        h.insert(header::X_CONTENT_TYPE_OPTIONS, http::HeaderValue::from_static("nosniff"));
        response
    }
}

/// The page's own file at `path` (`/`, `/index.html`, `/viewer/…`), or None.
pub(super) fn page_file(path: &str) -> Option<HttpResponse> {
    Some(match path {
        "/" | "/index.html" => page(PAGE, "text/html; charset=utf-8"),
        "/viewer/viewer.js" => page(VIEWER_JS, "text/javascript; charset=utf-8"),
        "/viewer/viewer.css" => page(VIEWER_CSS, "text/css; charset=utf-8"),
        "/viewer/three.bundle.js" => page(THREE_BUNDLE, "text/javascript; charset=utf-8"),
        "/viewer/three.LICENSE.txt" => page(THREE_LICENSE, "text/plain; charset=utf-8"),
        _ => return None,
    })
}

/// `response` without its body when answering HEAD.
pub(super) fn headless(method: &Method, response: HttpResponse) -> HttpResponse {
    if method != Method::HEAD {
        return response;
    }
    let (parts, _) = response.into_parts();
    HttpResponse::from_parts(parts, HttpBody::empty())
}

/// One of the embedded files, with headers that keep the page to itself.
fn page(text: &'static str, media: &'static str) -> HttpResponse {
    let mut response = HttpResponse::new(HttpBody::from(text));
    let h = response.headers_mut();
    h.insert(header::CONTENT_TYPE, http::HeaderValue::from_static(media));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, http::HeaderValue::from_static("nosniff"));
    h.insert(header::CONTENT_SECURITY_POLICY, http::HeaderValue::from_static(PAGE_POLICY));
    h.insert(header::REFERRER_POLICY, http::HeaderValue::from_static("no-referrer"));
    h.insert(header::X_FRAME_OPTIONS, http::HeaderValue::from_static("DENY"));
    // Embedded in this binary: another build serves other files at the same paths.
    h.insert(header::CACHE_CONTROL, http::HeaderValue::from_static("no-cache"));
    response
}

/// `%XX` sequences decoded (a browser encodes spaces and non-ASCII in asset ids); None when the
/// result is not UTF-8 or a sequence is cut short. `%2F` decodes to `/`, which the path check
/// then judges like any other.
fn percent_decode(raw: &str) -> Option<String> {
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// A response body that keeps its share of `ASSET_BUDGET` (and its token's) until it is sent or
/// dropped. It gives the file in 64 KiB frames: the server asks for the next frame only once the
/// last is written, so the body — and its reservation — lives as long as bytes wait to be sent to
/// a slow reader (one whole-file frame was taken at once and the reservation freed at once, while
/// the bytes still sat in the server's write buffer).
struct Held {
    data: Bytes,
    _held: (Reservation, Option<Reservation>),
}

/// Bytes per frame of an asset body.
const FRAME_BYTES: usize = 64 << 10;

impl http_body::Body for Held {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<Bytes>, Self::Error>>> {
        if self.data.is_empty() {
            return std::task::Poll::Ready(None);
        }
        let n = self.data.len().min(FRAME_BYTES);
        let frame = self.data.split_to(n);
        std::task::Poll::Ready(Some(Ok(http_body::Frame::data(frame))))
    }

    fn is_end_stream(&self) -> bool {
        self.data.is_empty()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        http_body::SizeHint::with_exact(self.data.len() as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_decoding_is_strict() {
        assert_eq!(percent_decode("models/crate.glb").as_deref(), Some("models/crate.glb"));
        assert_eq!(percent_decode("a%20b").as_deref(), Some("a b"));
        assert_eq!(percent_decode("%2e%2e/x").as_deref(), Some("../x"), "decoded, then refused by the path check");
        assert_eq!(percent_decode("a%2"), None);
        assert_eq!(percent_decode("%ff"), None);
    }

    #[test]
    fn routes_are_the_viewers_own() {
        for owned in ["/", "/index.html", "/viewer/viewer.js", "/assets/models/crate.glb"] {
            assert!(Viewer::owns(owned), "{owned}");
        }
        for other in ["/mcp", "/viewer", "/assets", "/x"] {
            assert!(!Viewer::owns(other), "{other}");
        }
    }

    #[test]
    fn the_page_names_only_embedded_scripts() {
        assert!(PAGE.contains("/viewer/three.bundle.js") && PAGE.contains("/viewer/viewer.js"));
        assert!(!THREE_BUNDLE.contains("</script"), "the bundle can be inlined into one HTML document");
    }
}
