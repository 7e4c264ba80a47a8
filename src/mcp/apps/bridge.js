// The view's data source: the MCP Apps postMessage JSON-RPC with the host (extension
// io.modelcontextprotocol/ui, protocol 2026-01-26), written out here so the document needs no
// library. The view sends `ui/initialize` and `ui/notifications/initialized`; the host sends the
// result of the `world.view` call that opened it (`ui/notifications/tool-result`); from then on
// the view asks the host to call `world.view` (`tools/call`, proxied to the server) about five
// times a second, one call at a time. It is the web viewer's data source here
// (`LIMINA_VIEW_SOURCE`, read by web/viewer/viewer.js): the first answer goes to the viewer as a
// snapshot, each later one as a delta against the one before (created, changed, destroyed; UI
// and agents upserted and removed; the scene), so the viewer keeps its objects and interpolates.
// glTF models come the same way (`loadModel`, the app-only tool `world.viewModel`).
// Only messages from the parent window are read. `window.liminaView` is a read-only hook for
// tests and hosts' devtools: entities shown, tick, polls answered, last error.
(function () {
  "use strict";
  var PROTOCOL = "2026-01-26";
  var POLL_MS = 200;
  var LIMIT = 2000;
  var MAX_PAGES = 8;
  var deliver = null; // the viewer's onMessage, once it starts this source
  var setStatus = function () {};
  var shown = null; // the last view handed over: {entities, ui, agents} by id, as JSON text
  var host = window.parent;
  var nextId = 1;
  var pending = new Map();
  var state = { polls: 0, lastError: null, initialized: false, stopped: false };

  function send(message) { host.postMessage(Object.assign({ jsonrpc: "2.0" }, message), "*"); }
  function request(method, params) {
    var id = nextId++;
    return new Promise(function (resolve, reject) {
      pending.set(id, { resolve: resolve, reject: reject });
      send({ id: id, method: method, params: params });
    });
  }
  function notify(method, params) { send({ method: method, params: params || {} }); }

  function byKey(rows, key) {
    var map = new Map();
    (rows || []).forEach(function (row) { if (row && typeof row[key] === "string") map.set(row[key], JSON.stringify(row)); });
    return map;
  }
  // What changed between two maps of id -> JSON text: [upserted rows, removed ids].
  function diff(before, after) {
    var upserted = [], removed = [];
    after.forEach(function (text, id) { if (before.get(id) !== text) upserted.push(JSON.parse(text)); });
    before.forEach(function (_, id) { if (!after.has(id)) removed.push(id); });
    return [upserted, removed];
  }

  function show(result) {
    var view = result && result.structuredContent;
    if (!view || view.kind !== "snapshot") {
      if (result && result.isError) state.lastError = (result.content && result.content[0] && result.content[0].text) || "error";
      return false;
    }
    if (!deliver) return false;
    var next = { entities: byKey(view.entities, "entity"), ui: byKey(view.ui, "handle"), agents: byKey(view.agents, "agentId") };
    if (!shown) {
      deliver(view);
    } else {
      var e = diff(shown.entities, next.entities), u = diff(shown.ui, next.ui), a = diff(shown.agents, next.agents);
      var created = [], changed = [];
      e[0].forEach(function (row) {
        var before = shown.entities.get(row.entity);
        if (before === undefined) return created.push(row);
        // Only the fields that changed (as the stream's deltas): a pose change moves the
        // viewer's object; a look change rebuilds it.
        var was = JSON.parse(before), delta = { entity: row.entity };
        Object.keys(row).forEach(function (k) { if (JSON.stringify(row[k]) !== JSON.stringify(was[k])) delta[k] = row[k]; });
        changed.push(delta);
      });
      deliver({
        kind: "delta", tick: view.tick, created: created, changed: changed, destroyed: e[1],
        ui: { upserted: u[0], removed: u[1] }, agents: { upserted: a[0], removed: a[1] }, scene: view.scene,
      });
    }
    shown = next;
    state.total = view.total;
    setStatus("tick " + view.tick + " · " + next.entities.size + " of " + view.total + " entities");
    return true;
  }

  // One poll: the first page and, while the world has more, the pages after it; shown together.
  function callView(cursor) {
    var args = { limit: LIMIT };
    if (cursor) args.cursor = cursor;
    return request("tools/call", { name: "world.view", arguments: args });
  }
  async function pollOnce() {
    var first = await callView();
    var view = first && first.structuredContent;
    var pages = 1;
    while (view && view.nextCursor && pages < MAX_PAGES) {
      var more = (await callView(view.nextCursor)).structuredContent;
      if (!more) break;
      first.structuredContent = Object.assign({}, more, { entities: view.entities.concat(more.entities || []) });
      view = first.structuredContent;
      pages++;
    }
    if (show(first)) state.polls++;
  }
  async function poll() {
    while (!state.stopped) {
      try {
        await pollOnce();
      } catch (e) {
        state.lastError = String((e && e.message) || e);
        setStatus("host: " + state.lastError, true);
      }
      await new Promise(function (r) { setTimeout(r, POLL_MS); });
    }
  }

  window.addEventListener("message", function (event) {
    if (event.source !== host) return;
    var m = event.data;
    if (!m || m.jsonrpc !== "2.0") return;
    if (m.method === undefined && pending.has(m.id)) {
      var p = pending.get(m.id);
      pending.delete(m.id);
      if (m.error) p.reject(new Error(m.error.message || "error " + m.error.code));
      else p.resolve(m.result);
      return;
    }
    switch (m.method) {
      case "ui/notifications/tool-result":
        show(m.params);
        break;
      case "ui/resource-teardown":
        state.stopped = true;
        send({ id: m.id, result: {} });
        break;
      case "ping":
        send({ id: m.id, result: {} });
        break;
      default:
        // Requests the view does not serve get an error; other notifications are ignored.
        if (m.id !== undefined && m.method !== undefined) send({ id: m.id, error: { code: -32601, message: "method not found: " + m.method } });
    }
  });

  // What the viewer draws (its own hook), falling back to what was handed to it.
  function viewer() { return window.liminaViewer; }
  window.liminaView = Object.freeze({
    entityCount: function () { return viewer() ? viewer().entityCount() : 0; },
    tick: function () { return viewer() ? viewer().tick() : 0; },
    polls: function () { return state.polls; },
    lastError: function () { return state.lastError; },
  });

  function start(onMessage, status) {
    deliver = onMessage;
    setStatus = status || setStatus;
    setStatus("waiting for the host…");
    request("ui/initialize", {
      appInfo: { name: "limina-world", version: "1.0.0" },
      appCapabilities: { availableDisplayModes: ["inline", "fullscreen"] },
      protocolVersion: PROTOCOL,
    }).then(function () {
      state.initialized = true;
      notify("ui/notifications/initialized");
      notify("ui/notifications/size-changed", { width: document.body.clientWidth, height: document.body.clientHeight });
      setStatus("connected");
      poll();
    }, function (e) {
      state.lastError = String((e && e.message) || e);
      setStatus("host refused: " + state.lastError, true);
    });
  }

  // A glTF model's bytes: the view has no network, so its host calls the app-only tool
  // `world.viewModel` for it (one call per model; the viewer keeps what it loaded).
  async function loadModel(asset) {
    var result = await request("tools/call", { name: "world.viewModel", arguments: { asset: asset } });
    var model = result && result.structuredContent;
    if (!model || result.isError || typeof model.data !== "string") {
      throw new Error((result && result.content && result.content[0] && result.content[0].text) || "no model");
    }
    var text = atob(model.data), bytes = new Uint8Array(text.length);
    for (var i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    return bytes.buffer;
  }

  // GLTFLoader turns a .glb's embedded images into `blob:` URLs and fetches them, which a host's
  // CSP (connect-src 'none') refuses; this plugin decodes them from memory instead
  // (createImageBitmap on the bytes, as GLTFLoader's own ImageBitmapLoader would).
  function inlineImages(parser) {
    var THREE = window.LIMINA_THREE.THREE;
    var original = parser.loadImageSource.bind(parser);
    parser.loadImageSource = function (index, loader) {
      var def = parser.json.images[index];
      if (def.bufferView === undefined) return original(index, loader);
      if (!parser.sourceCache[index]) {
        parser.sourceCache[index] = parser.getDependency("bufferView", def.bufferView).then(function (view) {
          return createImageBitmap(new Blob([view], { type: def.mimeType }), { premultiplyAlpha: "none" });
        }).then(function (bitmap) {
          var texture = new THREE.Texture(bitmap);
          texture.needsUpdate = true;
          texture.name = def.name || "";
          texture.userData.mimeType = def.mimeType;
          return texture;
        });
      }
      return parser.sourceCache[index].then(function (t) { return t.clone(); });
    };
    return { name: "limina_inline_images" };
  }
  function prepareLoader(loader) { loader.register(inlineImages); }

  window.LIMINA_VIEW_SOURCE = Object.freeze({ start: start, loadModel: loadModel, prepareLoader: prepareLoader });
})();
