// The view's renderer, behind the interface the App's data source drives:
//   LiminaRenderer.create(canvas, uiElement) -> { apply(message), entityCount(), tick() }
// where `message` is a state-stream message (docs: the stream format, version 2): a snapshot
// replaces everything shown, a delta changes it. This one draws with the 2D canvas (a perspective
// projection from the world's camera, entities as shaded discs and squares, farthest first), so
// the view works in any host without WebGL.
(function () {
  "use strict";
  var SHAPES = { box: 1, sphere: 1, capsule: 1, gltf: 1 };

  function sub(a, b) { return [a[0] - b[0], a[1] - b[1], a[2] - b[2]]; }
  function dot(a, b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
  function cross(a, b) { return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]; }
  function norm(a) { var l = Math.hypot(a[0], a[1], a[2]) || 1; return [a[0] / l, a[1] / l, a[2] / l]; }
  function vec(v, fallback) { return Array.isArray(v) && v.length === 3 && v.every(Number.isFinite) ? v : fallback; }
  function css(color, shade) {
    var c = (Number(color) >>> 0) & 0xffffff;
    var r = Math.round(((c >> 16) & 255) * shade), g = Math.round(((c >> 8) & 255) * shade), b = Math.round((c & 255) * shade);
    return "rgb(" + Math.min(r, 255) + "," + Math.min(g, 255) + "," + Math.min(b, 255) + ")";
  }

  function create(canvas, uiElement) {
    var entities = new Map();
    var ui = new Map();
    var scene = { camera: { position: [8, 6, 10], target: [0, 0, 0], fov: 60 }, lighting: null };
    var tick = 0;
    var dirty = true;

    function upsert(e) {
      if (!e || typeof e.entity !== "string") return;
      var had = entities.get(e.entity) || {};
      entities.set(e.entity, Object.assign({}, had, e));
    }

    function apply(message) {
      if (!message || typeof message !== "object") return;
      if (message.kind === "snapshot") {
        entities.clear();
        ui.clear();
        (message.entities || []).forEach(upsert);
        (message.ui || []).forEach(function (u) { if (u && u.handle) ui.set(u.handle, u); });
      } else if (message.kind === "delta") {
        (message.created || []).forEach(upsert);
        (message.changed || []).forEach(upsert);
        (message.destroyed || []).forEach(function (id) { entities.delete(id); });
        if (message.ui) {
          (message.ui.upserted || []).forEach(function (u) { if (u && u.handle) ui.set(u.handle, u); });
          (message.ui.removed || []).forEach(function (h) { ui.delete(h); });
        }
      } else {
        return;
      }
      if (message.scene) {
        if (message.scene.camera) scene.camera = message.scene.camera;
        if (message.scene.lighting) scene.lighting = message.scene.lighting;
      }
      if (Number.isFinite(message.tick)) tick = message.tick;
      dirty = true;
    }

    function draw() {
      var w = canvas.clientWidth, h = canvas.clientHeight;
      if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; dirty = true; }
      if (!dirty) return;
      dirty = false;
      var g = canvas.getContext("2d");
      var light = scene.lighting || {};
      g.fillStyle = Number.isFinite(light.clearColor) ? css(light.clearColor, 1) : "#1d2127";
      g.fillRect(0, 0, w, h);
      var eye = vec(scene.camera.position, [8, 6, 10]);
      var forward = norm(sub(vec(scene.camera.target, [0, 0, 0]), eye));
      var right = norm(cross(forward, [0, 1, 0]));
      var up = cross(right, forward);
      var f = (h / 2) / Math.tan(((Number(scene.camera.fov) || 60) * Math.PI) / 360);
      var sun = norm(vec(light.direction, [5, 10, 7]));
      var ambient = Number.isFinite(light.ambientIntensity) ? light.ambientIntensity : 0.4;
      var drawn = [];
      entities.forEach(function (e) {
        var p = sub(vec(e.position, [0, 0, 0]), eye);
        var z = dot(p, forward);
        if (z <= 0.05) return;
        var s = vec(e.scale, [1, 1, 1]);
        var size = (Number(e.size) || 1) * Math.max(Math.abs(s[0]), Math.abs(s[1]), Math.abs(s[2]));
        drawn.push({ e: e, z: z, x: w / 2 + (dot(p, right) * f) / z, y: h / 2 - (dot(p, up) * f) / z, r: (size * f) / z / 2 });
      });
      drawn.sort(function (a, b) { return b.z - a.z; });
      drawn.forEach(function (d) {
        var shade = Math.min(1.2, ambient + Math.max(0, dot(sun, [0, 1, 0])) * 0.6);
        g.fillStyle = css(d.e.color === undefined ? 0x888888 : d.e.color, shade);
        var shape = SHAPES[d.e.shape] ? d.e.shape : "box";
        if (d.r > 2000) return;
        if (shape === "sphere") {
          g.beginPath(); g.arc(d.x, d.y, Math.max(d.r, 0.5), 0, 2 * Math.PI); g.fill();
        } else if (shape === "capsule") {
          g.fillRect(d.x - d.r / 2, d.y - d.r, d.r, 2 * d.r);
        } else {
          g.fillRect(d.x - d.r, d.y - d.r, 2 * d.r, 2 * d.r);
        }
      });
      if (uiElement) {
        var lines = [];
        ui.forEach(function (u) {
          var text = typeof u.text === "string" ? u.text : Array.isArray(u.lines) ? u.lines.join("\n") : "";
          if (text) lines.push(text.slice(0, 500));
        });
        uiElement.textContent = lines.slice(0, 20).join("\n");
      }
    }

    (function frame() { draw(); requestAnimationFrame(frame); })();
    return {
      apply: apply,
      entityCount: function () { return entities.size; },
      tick: function () { return tick; },
    };
  }

  window.LiminaRenderer = Object.freeze({ create: create });
})();
