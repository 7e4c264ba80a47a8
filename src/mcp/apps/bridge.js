// The view's data source: the MCP Apps postMessage JSON-RPC with the host (extension
// io.modelcontextprotocol/ui, protocol 2026-01-26), written out here so the document needs no
// library. The view sends `ui/initialize` and `ui/notifications/initialized`; the host sends the
// result of the `world.view` call that opened it (`ui/notifications/tool-result`); from then on
// the view asks the host to call `world.view` (`tools/call`, proxied to the server) about five
// times a second, one call at a time, and hands each answer, a snapshot, to the renderer.
// Only messages from the parent window are read. `window.liminaView` is a read-only hook for
// tests and hosts' devtools: entities shown, tick, polls answered, last error.
(function () {
  "use strict";
  var PROTOCOL = "2026-01-26";
  var POLL_MS = 200;
  var LIMIT = 2000;
  var MAX_PAGES = 8;
  var renderer = window.LiminaRenderer.create(document.getElementById("canvas"), document.getElementById("ui"));
  var status = document.getElementById("status");
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

  function show(result) {
    var view = result && result.structuredContent;
    if (!view || view.kind !== "snapshot") {
      if (result && result.isError) state.lastError = (result.content && result.content[0] && result.content[0].text) || "error";
      return false;
    }
    renderer.apply(view);
    status.textContent = "tick " + renderer.tick() + " · " + renderer.entityCount() + " of " + view.total + " entities";
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
        status.textContent = "host: " + state.lastError;
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

  window.liminaView = Object.freeze({
    entityCount: function () { return renderer.entityCount(); },
    tick: function () { return renderer.tick(); },
    polls: function () { return state.polls; },
    lastError: function () { return state.lastError; },
  });

  request("ui/initialize", {
    appInfo: { name: "limina-world", version: "1.0.0" },
    appCapabilities: { availableDisplayModes: ["inline", "fullscreen"] },
    protocolVersion: PROTOCOL,
  }).then(function () {
    state.initialized = true;
    notify("ui/notifications/initialized");
    var box = document.getElementById("view");
    notify("ui/notifications/size-changed", { width: box.clientWidth, height: box.clientHeight });
    status.textContent = "connected";
    poll();
  }, function (e) {
    state.lastError = String((e && e.message) || e);
    status.textContent = "host refused: " + state.lastError;
  });
})();
