// libmd2's web viewer (index.html, docs/web.md): the model is loaded,
// validated and animated by libmd2 compiled to WebAssembly (libmd2_web.js
// sets globalThis.libmd2), and drawn with plain WebGL 2: every keyframe is
// uploaded once, 4 bytes a vertex, and md2_view's vertex shader blends two
// of them (LIBMD2_SHADERS holds md2_view's own shader text). Its camera is
// md2_view's, so the projected box it reports (md2viewer.projectedBox) is
// checked against the picture as md2_view's screenshots are.
// SPDX-License-Identifier: MIT
'use strict';

(function () {
  const lib = globalThis.libmd2;
  const params = new URLSearchParams(location.search);
  const $ = (id) => document.getElementById(id);
  const canvas = $('view');
  const errorBox = $('error');
  const FOVY = 40 * Math.PI / 180;
  const BG = hexColour(params.get('bg') || '202326');

  // What the page shows, for people and for tests (tests/web/browser.mjs).
  const status = {
    ready: false,      // a model (or an error) has been shown
    loading: false,
    error: null,       // { message, section, field, offset } of a refused file
    draws: 0,          // pictures drawn
    projectedBox: null, // [x0, y0, x1, y1]: the pose's box projected, pixels, inclusive, y down
    projectedVertexBox: null,
    frames: null,      // { a, b, t } of the last picture
    info: null,
    redraw: () => draw(), // a picture now, also when paused or held
  };
  globalThis.md2viewer = status;

  function hexColour(text) {
    const m = /^#?([0-9a-f]{6})$/i.exec(text || '');
    const v = m ? parseInt(m[1], 16) : 0x202326;
    return [(v >> 16) / 255, ((v >> 8) & 255) / 255, (v & 255) / 255];
  }

  function showError(message, detail) {
    errorBox.textContent = message;
    status.error = detail || { message };
  }

  function clearError() {
    errorBox.textContent = '';
    status.error = null;
  }

  if (!lib || !globalThis.LIBMD2_SHADERS) {
    showError('libmd2_web.js is missing: it is not beside this page, nor in build/web/ or ' +
      'build-web/web/ of the repository. Build it (cmake -S . -B build -DMD2_WEB=ON && ' +
      'cmake --build build) and open build/web/index.html, or this page again.');
    status.ready = true;
    return;
  }

  // ---------------------------------------------------------------------
  // WebGL 2
  // ---------------------------------------------------------------------
  const gl = canvas.getContext('webgl2', { antialias: false, alpha: false, preserveDrawingBuffer: true });
  if (!gl) {
    showError('This browser has no WebGL 2.');
    status.ready = true;
    return;
  }

  function compile(type, src) {
    const s = gl.createShader(type);
    gl.shaderSource(s, src);
    gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(`shader: ${gl.getShaderInfoLog(s)}`);
    return s;
  }

  function program(vs, fs) {
    const p = gl.createProgram();
    gl.attachShader(p, compile(gl.VERTEX_SHADER, vs));
    gl.attachShader(p, compile(gl.FRAGMENT_SHADER, fs));
    gl.linkProgram(p);
    if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error(`program: ${gl.getProgramInfoLog(p)}`);
    return p;
  }

  // md2_view's shaders: the blend of two keyframes, skin times light
  const morphProgram = program(LIBMD2_SHADERS.vertex, LIBMD2_SHADERS.fragment);
  const u = {};
  for (const name of ['u_mvp', 'u_scale_a', 'u_translate_a', 'u_scale_b', 'u_translate_b', 'u_t',
    'u_normals', 'u_skin', 'u_lit', 'u_light_dir']) u[name] = gl.getUniformLocation(morphProgram, name);
  gl.useProgram(morphProgram);
  gl.uniform1i(u.u_skin, 0);
  {
    const l = [0.75, -0.35, 0.56]; // md2_view's light: from the front, above and to the right
    const n = Math.hypot(...l);
    gl.uniform3f(u.u_light_dir, l[0] / n, l[1] / n, l[2] / n);
  }

  // lines in one colour: the bounding box and the wireframe
  const lineProgram = program(`#version 300 es
layout(location = 0) in vec3 a_position;
uniform mat4 u_mvp;
void main() { gl_Position = u_mvp * vec4(a_position, 1.0); }
`, `#version 300 es
precision highp float;
uniform vec4 u_colour;
out vec4 o_color;
void main() { o_color = u_colour; }
`);
  const lu = { mvp: gl.getUniformLocation(lineProgram, 'u_mvp'), colour: gl.getUniformLocation(lineProgram, 'u_colour') };
  const boxVao = gl.createVertexArray();
  const boxBuffer = gl.createBuffer();
  gl.bindVertexArray(boxVao);
  gl.bindBuffer(gl.ARRAY_BUFFER, boxBuffer);
  gl.bufferData(gl.ARRAY_BUFFER, 24 * 12, gl.DYNAMIC_DRAW);
  gl.enableVertexAttribArray(0);
  gl.vertexAttribPointer(0, 3, gl.FLOAT, false, 12, 0);

  const vao = gl.createVertexArray();
  const morphBuffer = gl.createBuffer();
  const uvBuffer = gl.createBuffer();
  const indexBuffer = gl.createBuffer();
  const lineIndexBuffer = gl.createBuffer();
  const sortedIndexBuffer = gl.createBuffer();
  const texture = gl.createTexture();
  gl.bindVertexArray(vao);
  gl.enableVertexAttribArray(0);
  gl.enableVertexAttribArray(1);
  gl.enableVertexAttribArray(2);
  gl.bindVertexArray(null);

  // ---------------------------------------------------------------------
  // The model
  // ---------------------------------------------------------------------
  let view = null; // what is loaded: model, mesh, anims, player, skins, ...

  function checkerboard() {
    const rgba = new Uint8Array(64 * 64 * 4);
    for (let y = 0; y < 64; y++) {
      for (let x = 0; x < 64; x++) {
        const c = ((x >> 3) + (y >> 3)) % 2 ? 200 : 110;
        rgba.set([c, c, c, 255], 4 * (y * 64 + x));
      }
    }
    return { name: '(checkerboard)', width: 64, height: 64, rgba };
  }

  // A skin's RGBA: PCX through libmd2, other formats through the browser.
  async function decodeSkin(name, bytes) {
    if (/\.pcx$/i.test(name)) {
      const img = await lib.decodePcx(bytes);
      return { name, width: img.width, height: img.height, rgba: new Uint8Array(img.rgba.buffer) };
    }
    const bitmap = await createImageBitmap(new Blob([bytes]), { colorSpaceConversion: 'none', premultiplyAlpha: 'none' });
    const c = document.createElement('canvas');
    c.width = bitmap.width;
    c.height = bitmap.height;
    const g = c.getContext('2d', { colorSpace: 'srgb' });
    g.drawImage(bitmap, 0, 0);
    const data = g.getImageData(0, 0, c.width, c.height).data;
    return { name, width: c.width, height: c.height, rgba: new Uint8Array(data.buffer) };
  }

  function useSkin(skin) {
    gl.bindTexture(gl.TEXTURE_2D, texture);
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
    gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, false);
    gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, false);
    gl.pixelStorei(gl.UNPACK_COLORSPACE_CONVERSION_WEBGL, gl.NONE);
    // row 0 of the image (its top) first: v = 0, as the mesh's uv
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, skin.width, skin.height, 0, gl.RGBA, gl.UNSIGNED_BYTE, skin.rgba);
    gl.generateMipmap(gl.TEXTURE_2D);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.REPEAT);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.REPEAT);
  }

  // The unique edges of the triangles, for the wireframe.
  function edges(indices) {
    const seen = new Set();
    const out = [];
    for (let i = 0; i < indices.length; i += 3) {
      for (let k = 0; k < 3; k++) {
        const a = indices[i + k];
        const b = indices[i + (k + 1) % 3];
        const key = a < b ? a * 4294967296 + b : b * 4294967296 + a;
        if (!seen.has(key)) {
          seen.add(key);
          out.push(a, b);
        }
      }
    }
    return new Uint32Array(out);
  }

  function upload(model) {
    const mesh = model.mesh({ counterClockwise: true });
    const morph = model.morph({ counterClockwise: true });
    gl.bindVertexArray(vao);
    gl.bindBuffer(gl.ARRAY_BUFFER, morphBuffer);
    gl.bufferData(gl.ARRAY_BUFFER, morph.vertices, gl.STATIC_DRAW);
    gl.bindBuffer(gl.ARRAY_BUFFER, uvBuffer);
    gl.bufferData(gl.ARRAY_BUFFER, mesh.uv, gl.STATIC_DRAW);
    gl.vertexAttribPointer(2, 2, gl.FLOAT, false, 8, 0);
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, indexBuffer);
    gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, mesh.indices, gl.STATIC_DRAW);
    gl.bindVertexArray(null);
    const lines = edges(mesh.indices);
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, lineIndexBuffer);
    gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, lines, gl.STATIC_DRAW);
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, sortedIndexBuffer);
    gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, mesh.indices.byteLength, gl.DYNAMIC_DRAW);
    gl.useProgram(morphProgram);
    gl.uniform3fv(u.u_normals, morph.normals);
    return { mesh, transforms: morph.transforms, frameBytes: mesh.numVertices * 4, numLines: lines.length };
  }

  // Side files beside a model's URL, as the bundle loader finds them on disk.
  function besideUrl(url, ext) {
    const u2 = new URL(url, location.href);
    u2.pathname = /\.md2$/i.test(u2.pathname) ? u2.pathname.replace(/\.md2$/i, ext) : u2.pathname + ext;
    return u2.href;
  }

  async function fetchBytes(url, optional) {
    try {
      const r = await fetch(url);
      if (!r.ok) {
        if (optional) return null;
        throw new Error(`cannot fetch ${url}: HTTP ${r.status}`);
      }
      return new Uint8Array(await r.arrayBuffer());
    } catch (e) {
      if (optional) return null;
      throw new Error(`cannot fetch ${url}: ${e.message}`);
    }
  }

  async function loadFromUrl(modelUrl, skinUrl) {
    const bytes = await fetchBytes(modelUrl, false);
    const side = {};
    for (const ext of ['.anm', '.framegroups', '.tag']) {
      const b = await fetchBytes(besideUrl(modelUrl, ext), true);
      if (b) side[ext.slice(1)] = b;
    }
    const skinFiles = [];
    if (skinUrl) {
      const b = await fetchBytes(new URL(skinUrl, location.href).href, false);
      skinFiles.push({ name: skinUrl.split('/').pop(), bytes: b });
    }
    return { label: modelUrl.split('/').pop(), bytes, side, skinFiles, base: new URL(modelUrl, location.href).href };
  }

  async function loadFromFiles(files) {
    const list = Array.from(files);
    const md2 = list.find((f) => /\.md2$/i.test(f.name));
    if (!md2) throw new Error('no .md2 among the files');
    const side = {};
    const skinFiles = [];
    for (const f of list) {
      const ext = (/\.([a-z0-9]+)$/i.exec(f.name) || ['', ''])[1].toLowerCase();
      const bytes = new Uint8Array(await f.arrayBuffer());
      if (ext === 'anm' || ext === 'framegroups' || ext === 'tag') side[ext] = bytes;
      else if (ext !== 'md2') skinFiles.push({ name: f.name, bytes });
    }
    return { label: md2.name, bytes: new Uint8Array(await md2.arrayBuffer()), side, skinFiles, base: null };
  }

  function animationsOf(model, side, notes) {
    for (const kind of ['anm', 'framegroups']) {
      if (side[kind]) {
        try {
          const anims = model.animations({ [kind]: side[kind] });
          notes.push(`animations from the .${kind} file`);
          return anims;
        } catch (e) {
          notes.push(`.${kind} refused: ${e.message}`);
        }
      }
    }
    return model.animations();
  }

  async function open(source) {
    status.loading = true;
    clearError();
    let model;
    try {
      model = await lib.load(source.bytes);
    } catch (e) {
      // the library's diagnostic, as it gave it
      showError(`${source.label}: ${e.message}`, { message: e.message, section: e.section, field: e.field, offset: e.offset, result: e.result });
      if (view) { view.model.free(); view.player.free(); view = null; }
      updateInfo();
      status.loading = false;
      status.ready = true;
      draw();
      return;
    }
    if (view) { view.model.free(); view.player.free(); }
    const notes = [];
    const anims = animationsOf(model, source.side, notes);
    let tags = null;
    if (source.side.tag) {
      try {
        tags = await lib.parseTags(source.side.tag);
        notes.push(`${tags.names.length} tags (${tags.names.join(', ')}) over ${tags.numFrames} frames`);
      } catch (e) {
        notes.push(`.tag refused: ${e.message}`);
      }
    }
    // skins: the files given, then the model's own names beside its URL
    const skinFiles = source.skinFiles.slice();
    if (source.base) {
      for (const name of model.skins) {
        const file = name.split('/').pop();
        if (!file || skinFiles.some((s) => s.name === file)) continue;
        const b = await fetchBytes(new URL(file, source.base).href, true);
        if (b) skinFiles.push({ name: file, bytes: b });
      }
    }
    const skins = [];
    for (const s of skinFiles) {
      try {
        skins.push(await decodeSkin(s.name, s.bytes));
      } catch (e) {
        notes.push(`skin ${s.name} refused: ${e.message}`);
      }
    }
    if (skins.length === 0) skins.push(checkerboard());
    view = { model, anims, tags, skins, notes, label: source.label, player: model.player(), gpu: upload(model),
      anim: null, a: 0, b: 0, t: 0, held: null };
    fillLists();
    useSkin(skins[0]);
    // the idle animation (the library's md2_anim_idle(), as md2_view and
    // md2 export choose it) unless ?anim names another
    const idle = Math.max(0, anims.findIndex((x) => x.idle));
    const wanted = params.get('anim');
    let index = wanted ? anims.findIndex((x) => x.name === wanted) : idle;
    if (wanted && index < 0) {
      notes.push(`no animation named "${wanted}"`);
      index = idle;
    }
    if (params.has('frame')) {
      // md2_view's screenshot pose: keyframe N blended towards the next by t
      const n = Math.min(Math.max(parseInt(params.get('frame'), 10) || 0, 0), model.numFrames - 1);
      const t = Math.min(Math.max(parseFloat(params.get('t') || '0') || 0, 0), 1);
      hold(n, t);
    } else if (anims.length) {
      play(index);
    }
    resetCamera();
    status.loading = false;
    status.ready = true;
    status.draws = 0;
    draw();
  }

  function hold(n, t) {
    const m = view.model;
    const b = n + 1 < m.numFrames ? n + 1 : n;
    view.held = { a: n, b, t: b === n ? 0 : t };
    $('paused').checked = true;
    $('frame').value = String(n);
  }

  function mode() {
    const v = document.querySelector('input[name="mode"]:checked').value;
    return v === 'once' ? lib.PLAY.ONCE : v === 'pingpong' ? lib.PLAY.PINGPONG : lib.PLAY.LOOP;
  }

  function play(index) {
    const anim = view.anims[index];
    if (!anim) return;
    view.anim = index;
    view.held = null;
    view.player.play(anim, mode());
    $('anims').value = String(index);
    resetCamera();
  }

  function fillLists() {
    const anims = $('anims');
    anims.textContent = '';
    view.anims.forEach((a, i) => {
      const o = document.createElement('option');
      o.value = String(i);
      o.textContent = `${a.name || '(no name)'}  ${a.first}-${a.last}  ${a.fps} fps`;
      anims.appendChild(o);
    });
    const skins = $('skins');
    skins.textContent = '';
    view.skins.forEach((s, i) => {
      const o = document.createElement('option');
      o.value = String(i);
      o.textContent = `${s.name} (${s.width}x${s.height})`;
      skins.appendChild(o);
    });
    $('frame').max = String(view.model.numFrames - 1);
  }

  // ---------------------------------------------------------------------
  // Camera: md2_view's (examples/md2_view.c: frame_camera, view_fit,
  // camera_mvp), column-major matrices. At zoom 1 the box of the keyframes
  // shown (lo..hi), seen from the direction it was framed from (fitYaw,
  // fitPitch), fills the picture within 1 / FIT_MARGIN on its limiting side.
  // ---------------------------------------------------------------------
  const FIT_MARGIN = 1.08;
  const camera = { center: [0, 0, 0], radius: 1, lo: [-1, -1, -1], hi: [1, 1, 1], yaw: 0, pitch: 0,
    fitYaw: 0, fitPitch: 0, zoom: 1, dist0: 1, dist: 1, ortho: params.has('ortho') };
  camera.yaw = (parseFloat(params.get('yaw') || '0') || 0) * Math.PI / 180;
  camera.pitch = Math.max(-89, Math.min(89, parseFloat(params.get('pitch') || '0') || 0)) * Math.PI / 180;
  camera.zoom = Math.max(0.05, Math.min(20, parseFloat(params.get('zoom') || '1') || 1));

  function resetCamera() {
    if (!view) return;
    const m = view.model;
    let first = 0;
    let last = 0;
    if (view.held) {
      first = Math.min(view.held.a, view.held.b);
      last = Math.max(view.held.a, view.held.b);
    } else if (view.anim !== null) {
      first = view.anims[view.anim].first;
      last = view.anims[view.anim].last;
    }
    const lo = [Infinity, Infinity, Infinity];
    const hi = [-Infinity, -Infinity, -Infinity];
    for (let f = first; f <= last && f < m.numFrames; f++) {
      const b = m.frameBounds(f);
      for (let i = 0; i < 3; i++) {
        lo[i] = Math.min(lo[i], b.min[i]);
        hi[i] = Math.max(hi[i], b.max[i]);
      }
    }
    let r2 = 0;
    for (let i = 0; i < 3; i++) {
      const e = (hi[i] - lo[i]) / 2;
      camera.center[i] = (hi[i] + lo[i]) / 2;
      r2 += e * e;
    }
    camera.lo = lo;
    camera.hi = hi;
    camera.radius = Math.sqrt(r2) > 1e-3 ? Math.sqrt(r2) : 1;
    camera.fitYaw = camera.yaw;
    camera.fitPitch = camera.pitch;
  }

  // md2_view's view_fit(): the eye's distance (perspective) and the half
  // height of the view (orthographic) at which the box fills the picture.
  function viewFit(aspect) {
    const cp = Math.cos(camera.fitPitch);
    const dir = [cp * Math.cos(camera.fitYaw), cp * Math.sin(camera.fitYaw), Math.sin(camera.fitPitch)];
    let side = [dir[1], -dir[0], 0];
    let len = Math.hypot(side[0], side[1]);
    if (len < 1e-9) { side = [0, 1, 0]; len = 1; }
    side = [side[0] / len, side[1] / len, 0];
    const up = [-dir[2] * side[1], dir[2] * side[0], dir[0] * side[1] - dir[1] * side[0]];
    const ty = Math.tan(FOVY / 2);
    const tx = ty * aspect;
    let d = 1.05 * camera.radius;
    let half = 0;
    for (let k = 0; k < 8; k++) {
      const p = [0, 1, 2].map((i) => ((k >> i) & 1 ? camera.hi[i] : camera.lo[i]) - camera.center[i]);
      let x = 0;
      let y = 0;
      let z = 0;
      for (let i = 0; i < 3; i++) {
        x += p[i] * side[i];
        y += p[i] * up[i];
        z += p[i] * dir[i];
      }
      x = Math.abs(x) * FIT_MARGIN;
      y = Math.abs(y) * FIT_MARGIN;
      d = Math.max(d, z + Math.max(x / tx, y / ty));
      half = Math.max(half, y, x / aspect);
    }
    return { dist0: d, half0: half > 1e-6 ? half : camera.radius };
  }

  function mul(a, b) {
    const out = new Float32Array(16);
    for (let c = 0; c < 4; c++) {
      for (let r = 0; r < 4; r++) {
        let s = 0;
        for (let k = 0; k < 4; k++) s = Math.fround(s + Math.fround(a[k * 4 + r] * b[c * 4 + k]));
        out[c * 4 + r] = s;
      }
    }
    return out;
  }

  function lookAt(eye, at, up) {
    const f = [at[0] - eye[0], at[1] - eye[1], at[2] - eye[2]];
    let len = Math.hypot(...f);
    for (let i = 0; i < 3; i++) f[i] /= len;
    const s = [f[1] * up[2] - f[2] * up[1], f[2] * up[0] - f[0] * up[2], f[0] * up[1] - f[1] * up[0]];
    len = Math.hypot(...s);
    for (let i = 0; i < 3; i++) s[i] /= len;
    const v = [s[1] * f[2] - s[2] * f[1], s[2] * f[0] - s[0] * f[2], s[0] * f[1] - s[1] * f[0]];
    const m = new Float32Array(16);
    m[15] = 1;
    for (let i = 0; i < 3; i++) {
      m[i * 4] = s[i];
      m[i * 4 + 1] = v[i];
      m[i * 4 + 2] = -f[i];
    }
    m[12] = -(s[0] * eye[0] + s[1] * eye[1] + s[2] * eye[2]);
    m[13] = -(v[0] * eye[0] + v[1] * eye[1] + v[2] * eye[2]);
    m[14] = f[0] * eye[0] + f[1] * eye[1] + f[2] * eye[2];
    return m;
  }

  function cameraMatrix(w, h) {
    const aspect = w / h;
    const fit = viewFit(aspect);
    camera.dist0 = fit.dist0;
    camera.dist = camera.dist0 / camera.zoom;
    const eyeDist = camera.ortho ? camera.dist0 : camera.dist;
    const cp = Math.cos(camera.pitch);
    const eye = [camera.center[0] + eyeDist * cp * Math.cos(camera.yaw),
      camera.center[1] + eyeDist * cp * Math.sin(camera.yaw),
      camera.center[2] + eyeDist * Math.sin(camera.pitch)];
    const viewM = lookAt(eye, camera.center, [0, 0, 1]);
    let n = eyeDist - 1.5 * camera.radius;
    if (n < eyeDist * 0.01) n = eyeDist * 0.01;
    const f = eyeDist + 1.5 * camera.radius;
    const proj = new Float32Array(16);
    if (camera.ortho) {
      const halfH = fit.half0 / camera.zoom;
      const halfW = halfH * aspect;
      proj[0] = 1 / halfW;
      proj[5] = 1 / halfH;
      proj[10] = -2 / (f - n);
      proj[14] = -(f + n) / (f - n);
      proj[15] = 1;
    } else {
      const k = 1 / Math.tan(FOVY / 2);
      proj[0] = k / aspect;
      proj[5] = k;
      proj[10] = (f + n) / (n - f);
      proj[11] = -1;
      proj[14] = 2 * f * n / (n - f);
    }
    return { mvp: mul(proj, viewM), eye };
  }

  // md2_view's print_projected_box: the pixels whose centres lie inside
  // the projections of points (3 floats each).
  function projectedBox(mvp, points, w, h) {
    let loX = Infinity;
    let loY = Infinity;
    let hiX = -Infinity;
    let hiY = -Infinity;
    for (let i = 0; i < points.length; i += 3) {
      const c = [0, 0, 0, 0];
      for (let r = 0; r < 4; r++) c[r] = mvp[r] * points[i] + mvp[4 + r] * points[i + 1] + mvp[8 + r] * points[i + 2] + mvp[12 + r];
      const x = (c[0] / c[3] * 0.5 + 0.5) * w;
      const y = (0.5 - c[1] / c[3] * 0.5) * h;
      loX = Math.min(loX, x); hiX = Math.max(hiX, x);
      loY = Math.min(loY, y); hiY = Math.max(hiY, y);
    }
    return [Math.ceil(loX - 0.5), Math.ceil(loY - 0.5), Math.floor(hiX - 0.5), Math.floor(hiY - 0.5)];
  }

  // The drawn pose's welded vertices and their box, on the CPU.
  function poseBox(a, b, t) {
    const pos = view.model.lerpView(a, b, t).positions;
    const src = view.gpu.mesh.sourceVertex;
    const pts = new Float32Array(src.length * 3);
    const lo = [Infinity, Infinity, Infinity];
    const hi = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i < src.length; i++) {
      for (let k = 0; k < 3; k++) {
        const c = pos[src[i] * 3 + k];
        pts[i * 3 + k] = c;
        if (c < lo[k]) lo[k] = c;
        if (c > hi[k]) hi[k] = c;
      }
    }
    const corners = new Float32Array(24);
    for (let i = 0; i < 8; i++) {
      corners[i * 3] = i & 1 ? hi[0] : lo[0];
      corners[i * 3 + 1] = i & 2 ? hi[1] : lo[1];
      corners[i * 3 + 2] = i & 4 ? hi[2] : lo[2];
    }
    return { pts, corners, lo, hi };
  }

  // ---------------------------------------------------------------------
  // Drawing
  // ---------------------------------------------------------------------
  function currentFrames() {
    if (view.held) return view.held;
    const s = view.player.state();
    return { a: s.frameA, b: s.frameB, t: s.t, finished: s.finished };
  }

  function draw() {
    const w = canvas.width;
    const h = canvas.height;
    gl.viewport(0, 0, w, h);
    gl.clearColor(BG[0], BG[1], BG[2], 1);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    if (!view) {
      status.draws++;
      return;
    }
    const { a, b, t } = currentFrames();
    const { mvp, eye } = cameraMatrix(w, h);
    const lit = $('lit').checked;
    const wire = $('wireframe').checked;
    const translucent = $('translucent').checked;
    const g = view.gpu;

    gl.enable(gl.DEPTH_TEST);
    gl.enable(gl.CULL_FACE);
    gl.cullFace(gl.BACK);
    gl.frontFace(gl.CCW); // the mesh was built with counterClockwise
    gl.useProgram(morphProgram);
    gl.uniformMatrix4fv(u.u_mvp, false, mvp);
    gl.uniform1i(u.u_lit, lit ? 1 : 0);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, texture);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, lit ? gl.LINEAR_MIPMAP_LINEAR : gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, lit ? gl.LINEAR : gl.NEAREST);
    gl.uniform3fv(u.u_scale_a, g.transforms.subarray(6 * a, 6 * a + 3));
    gl.uniform3fv(u.u_translate_a, g.transforms.subarray(6 * a + 3, 6 * a + 6));
    gl.uniform3fv(u.u_scale_b, g.transforms.subarray(6 * b, 6 * b + 3));
    gl.uniform3fv(u.u_translate_b, g.transforms.subarray(6 * b + 3, 6 * b + 6));
    gl.uniform1f(u.u_t, t);
    gl.bindVertexArray(vao);
    gl.bindBuffer(gl.ARRAY_BUFFER, morphBuffer);
    // the two keyframes' parts of the morph buffer
    gl.vertexAttribIPointer(0, 4, gl.UNSIGNED_BYTE, 4, a * g.frameBytes);
    gl.vertexAttribIPointer(1, 4, gl.UNSIGNED_BYTE, 4, b * g.frameBytes);
    const count = g.mesh.indices.length;
    if (wire) {
      gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, lineIndexBuffer);
      gl.drawElements(gl.LINES, g.numLines, gl.UNSIGNED_INT, 0);
    } else if (translucent) {
      // the library's back-to-front order from the eye, blended with a
      // constant opacity, depth tested but not written
      const order = view.model.backToFront(a, b, t, eye);
      gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, sortedIndexBuffer);
      gl.bufferSubData(gl.ELEMENT_ARRAY_BUFFER, 0, order);
      gl.enable(gl.BLEND);
      gl.blendColor(0, 0, 0, parseFloat($('opacity').value));
      gl.blendFunc(gl.CONSTANT_ALPHA, gl.ONE_MINUS_CONSTANT_ALPHA);
      gl.depthMask(false);
      gl.disable(gl.CULL_FACE);
      gl.drawElements(gl.TRIANGLES, count, gl.UNSIGNED_INT, 0);
      gl.depthMask(true);
      gl.disable(gl.BLEND);
    } else {
      gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, indexBuffer);
      gl.drawElements(gl.TRIANGLES, count, gl.UNSIGNED_INT, 0);
    }
    gl.bindVertexArray(null);

    const box = poseBox(a, b, t);
    if ($('box').checked) {
      const c = box.corners;
      const lines = [];
      for (let i = 0; i < 8; i++) {
        for (const bit of [1, 2, 4]) {
          if (!(i & bit)) lines.push(...c.subarray(i * 3, i * 3 + 3), ...c.subarray((i | bit) * 3, (i | bit) * 3 + 3));
        }
      }
      gl.useProgram(lineProgram);
      gl.uniformMatrix4fv(lu.mvp, false, mvp);
      gl.uniform4f(lu.colour, 1, 0.85, 0.2, 1);
      gl.bindVertexArray(boxVao);
      gl.bindBuffer(gl.ARRAY_BUFFER, boxBuffer);
      gl.bufferSubData(gl.ARRAY_BUFFER, 0, new Float32Array(lines));
      gl.drawArrays(gl.LINES, 0, 24);
      gl.bindVertexArray(null);
    }
    status.projectedBox = projectedBox(mvp, box.corners, w, h);
    status.projectedVertexBox = projectedBox(mvp, box.pts, w, h);
    status.frames = { a, b, t };
    status.draws++;
    updateInfo();
  }

  function updateInfo() {
    const info = $('info');
    if (!view) {
      info.textContent = '';
      status.info = null;
      return;
    }
    const m = view.model;
    const f = status.frames || { a: 0, b: 0, t: 0 };
    const anim = view.anim !== null && !view.held ? view.anims[view.anim].name : '(held)';
    const lines = [
      `${view.label}`,
      `${m.numVertices} vertices, ${m.numTriangles} triangles`,
      `${m.numFrames} frames, ${view.anims.length} animations`,
      `animation ${anim}`,
      `frame ${f.a} -> ${f.b}  t ${f.t.toFixed(2)}`,
      `skin ${m.skinWidth}x${m.skinHeight}, ${m.numSkins} named`,
      `memory ${m.memoryBytes} bytes`,
      ...m.warningTexts.map((w) => `repaired: ${w}`),
      ...view.notes,
    ];
    info.textContent = lines.join('\n');
    status.info = info.textContent;
  }

  // ---------------------------------------------------------------------
  // The page
  // ---------------------------------------------------------------------
  function sizeCanvas() {
    const size = /^(\d+)x(\d+)$/.exec(params.get('size') || '');
    if (size) {
      canvas.width = parseInt(size[1], 10);
      canvas.height = parseInt(size[2], 10);
    } else {
      const area = $('stage');
      const w = Math.max(64, area.clientWidth);
      const h = Math.max(64, area.clientHeight);
      if (canvas.width === w && canvas.height === h) return;
      canvas.width = w;
      canvas.height = h;
    }
    canvas.style.width = `${canvas.width}px`;
    canvas.style.height = `${canvas.height}px`;
  }

  let last = null;
  function tick(now) {
    if (view && !view.held && !$('paused').checked && last !== null) {
      view.player.advance(Math.min((now - last) / 1000, 0.25));
    }
    last = now;
    if (view && !view.held) {
      const s = view.player.state();
      $('frame').value = String(s.frameA);
    }
    if (view) draw();
    requestAnimationFrame(tick);
  }

  function report(e) {
    showError(e.message || String(e));
    status.loading = false;
    status.ready = true;
  }

  $('files').addEventListener('change', (e) => {
    if (e.target.files.length) loadFromFiles(e.target.files).then(open).catch(report);
  });
  const stage = $('stage');
  stage.addEventListener('dragover', (e) => { e.preventDefault(); stage.classList.add('dragging'); });
  stage.addEventListener('dragleave', () => stage.classList.remove('dragging'));
  stage.addEventListener('drop', (e) => {
    e.preventDefault();
    stage.classList.remove('dragging');
    loadFromFiles(e.dataTransfer.files).then(open).catch(report);
  });
  $('anims').addEventListener('change', (e) => { if (view) play(parseInt(e.target.value, 10)); });
  for (const r of document.querySelectorAll('input[name="mode"]')) {
    r.addEventListener('change', () => { if (view && view.anim !== null) play(view.anim); });
  }
  $('skins').addEventListener('change', (e) => { if (view) useSkin(view.skins[parseInt(e.target.value, 10)]); });
  $('frame').addEventListener('input', (e) => {
    if (view) { hold(parseInt(e.target.value, 10), 0); resetCamera(); }
  });
  $('paused').addEventListener('change', (e) => {
    if (view && !e.target.checked && view.held) play(view.anim === null ? 0 : view.anim);
  });
  $('ortho').addEventListener('change', (e) => { camera.ortho = e.target.checked; });
  let drag = null;
  canvas.addEventListener('mousedown', (e) => { drag = [e.clientX, e.clientY]; });
  window.addEventListener('mouseup', () => { drag = null; });
  window.addEventListener('mousemove', (e) => {
    if (!drag) return;
    camera.yaw -= (e.clientX - drag[0]) * 0.01;
    camera.pitch = Math.max(-1.55, Math.min(1.55, camera.pitch + (e.clientY - drag[1]) * 0.01));
    drag = [e.clientX, e.clientY];
  });
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    camera.zoom = Math.max(0.05, Math.min(20, camera.zoom * (e.deltaY < 0 ? 1.1 : 1 / 1.1)));
  }, { passive: false });
  if (!params.get('size')) {
    // the picture fills the stage, whatever its size becomes
    if (typeof ResizeObserver === 'function') new ResizeObserver(() => sizeCanvas()).observe(stage);
    else window.addEventListener('resize', sizeCanvas);
  }

  // options from the address
  $('ortho').checked = camera.ortho;
  if (params.has('unlit')) $('lit').checked = false;
  if (params.has('wireframe')) $('wireframe').checked = true;
  if (params.has('box')) $('box').checked = true;
  if (params.has('translucent')) {
    $('translucent').checked = true;
    const o = parseFloat(params.get('translucent'));
    if (o > 0 && o <= 1) $('opacity').value = String(o);
  }
  if (params.has('paused')) $('paused').checked = true;
  const wantedMode = params.get('mode');
  if (wantedMode) {
    const r = document.querySelector(`input[name="mode"][value="${wantedMode === 'once' ? 'once' : wantedMode === 'pingpong' ? 'pingpong' : 'loop'}"]`);
    r.checked = true;
  }
  sizeCanvas();
  draw();
  if (params.get('model')) {
    status.loading = true;
    loadFromUrl(params.get('model'), params.get('skin')).then(open).catch(report);
  } else {
    status.ready = true;
  }
  requestAnimationFrame(tick);
})();
