// libmd2 for JavaScript: the C library compiled to WebAssembly (wasm32-wasi,
// a reactor module), in Node 18+ and in browsers. docs/web.md is the guide.
//
//   import { load } from 'libmd2';
//   const model = await load(bytes);          // ArrayBuffer or Uint8Array
//   const xyz = model.decodeFrame(0);          // Float32Array, 3 a vertex
//   model.free();
//
// A refused file rejects with an Md2Error (an Error) whose message is the
// library's diagnostic, with its section, field and byte offset.
//
// SPDX-License-Identifier: MIT

/** The library's error codes, by number (md2_result in <md2/md2.h>). */
export const RESULTS = Object.freeze([
  'MD2_OK', 'MD2_ERR_INVALID_ARGUMENT', 'MD2_ERR_OUT_OF_MEMORY', 'MD2_ERR_IO',
  'MD2_ERR_TRUNCATED_HEADER', 'MD2_ERR_BAD_MAGIC', 'MD2_ERR_BAD_VERSION', 'MD2_ERR_BAD_COUNT',
  'MD2_ERR_BAD_SKIN_SIZE', 'MD2_ERR_BAD_FRAMESIZE', 'MD2_ERR_NO_VERTICES', 'MD2_ERR_NO_FRAMES',
  'MD2_ERR_LIMIT_EXCEEDED', 'MD2_ERR_SECTION_OUT_OF_BOUNDS', 'MD2_ERR_SECTION_OVERLAP',
  'MD2_ERR_BAD_OFS_END', 'MD2_ERR_UNTERMINATED_NAME', 'MD2_ERR_BAD_VERTEX_INDEX',
  'MD2_ERR_BAD_TEXCOORD_INDEX', 'MD2_ERR_BAD_NORMAL_INDEX', 'MD2_ERR_BAD_GLCMDS',
  'MD2_ERR_GLCMDS_UNTERMINATED', 'MD2_ERR_FRAME_RANGE', 'MD2_ERR_BUFFER_TOO_SMALL',
  'MD2_ERR_INVALID_MODEL', 'MD2_ERR_PARSE_SIDEFILE', 'MD2_ERR_NOT_FOUND',
  'MD2_ERR_BAD_FRAME_TRANSFORM', 'MD2_ERR_BAD_OFFSET',
]);

/** Play modes of Player.play() (md2_play_mode). */
export const PLAY = Object.freeze({ DEFAULT: 0, LOOP: 1, ONCE: 2, PINGPONG: 3 });

/** Flags of Model.meshLerp() (MD2_LAYOUT_*). */
export const LAYOUT = Object.freeze({ UNIT_NORMALS: 1, Y_UP: 2, FLIP_V: 4 });

/** Every strict flag (MD2_STRICT_ALL): load(bytes, { strict: STRICT_ALL }). */
export const STRICT_ALL = 0x1ffff;

/** A diagnostic of the library as an exception. */
export class Md2Error extends Error {
  constructor(d) {
    super(d.message);
    this.name = 'Md2Error';
    this.code = d.code;           // md2_result as a number
    this.result = d.result;       // its name, e.g. 'MD2_ERR_SECTION_OUT_OF_BOUNDS'
    this.section = d.section;     // 'header', 'skins', ..., 'none'
    this.field = d.field;         // e.g. 'ofs_skins'; '' if none
    this.offset = d.offset;       // byte offset in the data
    this.index = d.index;         // element number in the section
    this.line = d.line;           // side files: 1-based line (0: none)
    this.column = d.column;
  }
}

const WASM_NAME = 'libmd2.wasm';
let instancePromise = null;

// The WASI functions wasi-libc's stdio links in. libmd2 never reads or
// writes a file from here (md2_load_file() is not exported), so each says
// "not supported" (ENOSYS, 52).
function wasiImports() {
  const nosys = () => 52;
  return { wasi_snapshot_preview1: { fd_close: nosys, fd_seek: nosys, fd_write: nosys,
    proc_exit: (code) => { throw new Error(`libmd2.wasm exited with status ${code}`); } } };
}

function decodeBase64(text) {
  if (typeof atob === 'function') {
    const s = atob(text);
    const out = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return out;
  }
  return new Uint8Array(globalThis.Buffer.from(text, 'base64'));
}

async function wasmBytes() {
  // a page that cannot fetch (file://) sets the bytes as base64 first
  if (typeof globalThis.LIBMD2_WASM_BASE64 === 'string') return decodeBase64(globalThis.LIBMD2_WASM_BASE64);
  const url = new URL(WASM_NAME, import.meta.url);
  if (url.protocol === 'file:' && typeof process !== 'undefined' && process.versions && process.versions.node) {
    const fs = await import('node:fs/promises');
    return fs.readFile(url);
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`libmd2: cannot fetch ${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * Instantiates the WebAssembly module once (load() and decodePcx() call it
 * themselves). source: the module's bytes or a WebAssembly.Module, to use
 * instead of libmd2.wasm beside this file.
 */
export function init(source) {
  if (!instancePromise) {
    instancePromise = (async () => {
      const bytes = source || await wasmBytes();
      const module = bytes instanceof WebAssembly.Module ? bytes : await WebAssembly.compile(bytes);
      const instance = await WebAssembly.instantiate(module, wasiImports());
      instance.exports._initialize();
      return new Library(instance.exports);
    })();
    instancePromise.catch(() => { instancePromise = null; });
  }
  return instancePromise;
}

// What one instance shares: its exports, a context for diagnostics, and a
// few words of scratch for the records the glue fills.
class Library {
  constructor(x) {
    this.x = x;
    this.ctx = x.md2js_ctx_new();
    this.words = x.md2js_alloc(64);
    if (!this.ctx || !this.words) throw new Error('libmd2: out of memory at start');
    this.utf8 = new TextDecoder('utf-8');
    this.latin1 = new TextDecoder('latin1');
    this.registry = typeof FinalizationRegistry === 'function'
      ? new FinalizationRegistry((release) => release()) : null;
  }

  get memory() { return this.x.memory.buffer; }
  u32(n) { return new Uint32Array(this.memory, this.words, n); }
  f32(n) { return new Float32Array(this.memory, this.words, n); }

  // A NUL-terminated string at ptr (bytes as in the file: Latin-1).
  string(ptr, latin1 = true) {
    const heap = new Uint8Array(this.memory);
    let end = ptr;
    while (heap[end] !== 0) end++;
    return (latin1 ? this.latin1 : this.utf8).decode(heap.subarray(ptr, end));
  }

  error() {
    const w = this.u32(7);
    const [code, , offset, index, line, column] = w;
    return new Md2Error({
      code, result: RESULTS[code] || `MD2_RESULT_${code}`,
      offset, index, line, column,
      message: this.string(this.x.md2js_error_text(this.ctx, 0), false),
      field: this.string(this.x.md2js_error_text(this.ctx, 1)),
      section: this.string(this.x.md2js_error_text(this.ctx, 2)),
    });
  }

  // The diagnostic of the last call, read after it failed.
  fail() {
    this.x.md2js_error(this.ctx, this.words);
    return this.error();
  }

  // bytes copied into the module's memory; the pointer (md2js_free()).
  copyIn(bytes) {
    const src = toBytes(bytes);
    const ptr = this.x.md2js_alloc(src.length);
    if (!ptr) throw new Md2Error({ code: 2, result: RESULTS[2], section: 'none', field: '', offset: 0,
      index: 0, line: 0, column: 0, message: `out of memory: no room for the ${src.length} bytes of the input` });
    new Uint8Array(this.memory, ptr, src.length).set(src);
    return [ptr, src.length];
  }

  // A result code other than MD2_OK as an Md2Error of what the call was.
  check(code, what) {
    if (code !== 0) {
      throw new Md2Error({ code, result: RESULTS[code] || `MD2_RESULT_${code}`, section: 'none', field: '',
        offset: 0, index: 0, line: 0, column: 0,
        message: `${what}: ${this.string(this.x.md2_result_string(code), false)}` });
    }
  }
}

function toBytes(bytes) {
  if (bytes instanceof Uint8Array) return bytes;
  if (bytes instanceof ArrayBuffer) return new Uint8Array(bytes);
  if (ArrayBuffer.isView(bytes)) return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  throw new TypeError('libmd2: expected an ArrayBuffer or a Uint8Array');
}

/**
 * Loads a model: resolves to a Model, or rejects with an Md2Error that
 * carries the library's diagnostic. options.strict: md2_warning flags to
 * treat as errors (STRICT_ALL: all).
 */
export async function load(bytes, options = {}) {
  const lib = await init();
  return loadWith(lib, bytes, options);
}

/** load() once init() has resolved: the same, without a promise. */
export function loadSync(lib, bytes, options = {}) {
  return loadWith(lib, bytes, options);
}

function loadWith(lib, bytes, options) {
  const [ptr, size] = lib.copyIn(bytes);
  let model;
  try {
    model = lib.x.md2js_parse(lib.ctx, ptr, size, (options.strict || 0) >>> 0);
  } finally {
    lib.x.md2js_free(ptr);
  }
  if (!model) throw lib.fail();
  return new Model(lib, model);
}

/** Decodes a PCX skin: { width, height, rgba } (rgba a Uint8ClampedArray, row 0 the top). */
export async function decodePcx(bytes) {
  const lib = await init();
  const [ptr, size] = lib.copyIn(bytes);
  let img;
  try {
    img = lib.x.md2js_pcx_decode(lib.ctx, ptr, size);
  } finally {
    lib.x.md2js_free(ptr);
  }
  if (!img) throw lib.fail();
  lib.x.md2js_image_info(img, lib.words);
  const [width, height, rgba] = lib.u32(3);
  const out = new Uint8ClampedArray(lib.memory, rgba, width * height * 4).slice();
  lib.x.md2_image_free(img);
  return { width, height, rgba: out };
}

/** Parses a UFO:AI .tag file: { names, numFrames }. */
export async function parseTags(bytes) {
  const lib = await init();
  const [ptr, size] = lib.copyIn(bytes);
  let tags;
  try {
    tags = lib.x.md2js_tags_parse(lib.ctx, ptr, size);
  } finally {
    lib.x.md2js_free(ptr);
  }
  if (!tags) throw lib.fail();
  const names = [];
  lib.x.md2js_tags_info(tags, 0, lib.words);
  const [count, numFrames] = lib.u32(2);
  for (let i = 0; i < count; i++) names.push(lib.string(lib.x.md2js_tags_info(tags, i, lib.words)));
  lib.x.md2_tags_free(tags);
  return { names, numFrames };
}

const SIDE_KINDS = { names: 0, anm: 1, framegroups: 2, quake2: 3 };

/** A loaded model: immutable, in the module's memory until free(). */
export class Model {
  constructor(lib, ptr) {
    this._lib = lib;
    this._ptr = ptr;
    const x = lib.x;
    x.md2js_model_info(ptr, lib.words);
    const w = lib.u32(10);
    this.numVertices = w[0];
    this.numTexcoords = w[1];
    this.numTriangles = w[2];
    this.numFrames = w[3];
    this.numSkins = w[4];
    this.numGlcmds = w[5];
    this.skinWidth = w[6] | 0;
    this.skinHeight = w[7] | 0;
    this.warnings = w[8];      // md2_warning flags of the quirks repaired
    this.memoryBytes = w[9];   // the model's one allocation
    this.skins = [];
    for (let i = 0; i < this.numSkins; i++) this.skins.push(lib.string(x.md2js_model_name(ptr, 0, i)));
    this._frameNames = null;
    // one pose buffer: positions then normals, 3 floats a vertex each
    this._pose = x.md2js_alloc(this.numVertices * 24);
    if (!this._pose) { x.md2_free(ptr); lib.check(2, 'load'); }
    this._mesh = null;
    const held = { ptrs: [ptr, this._pose], meshes: [] };
    this._held = held;
    this._token = {};
    if (lib.registry) {
      lib.registry.register(this, () => Model._release(lib, held), this._token);
    }
  }

  static _release(lib, held) {
    for (const m of held.meshes) lib.x.md2_mesh_free(m);
    lib.x.md2_free(held.ptrs[0]);
    lib.x.md2js_free(held.ptrs[1]);
    held.meshes.length = 0;
  }

  _live() {
    if (!this._ptr) throw new Error('libmd2: this model has been freed');
    return this._lib;
  }

  /** The frame names (as in the file). */
  get frameNames() {
    if (!this._frameNames) {
      const lib = this._live();
      this._frameNames = [];
      for (let i = 0; i < this.numFrames; i++) this._frameNames.push(lib.string(lib.x.md2js_model_name(this._ptr, 1, i)));
    }
    return this._frameNames;
  }

  /** The warning texts of the quirks lenient loading repaired. */
  get warningTexts() {
    const lib = this._live();
    const out = [];
    for (let bit = 0; bit < 17; bit++) {
      if (this.warnings & (1 << bit)) out.push(lib.string(lib.x.md2_warning_string(1 << bit), false));
    }
    return out;
  }

  _frame(i, name) {
    if (!Number.isInteger(i) || i < 0 || i >= this.numFrames) {
      throw new RangeError(`libmd2: ${name} ${i} is not a frame of this model (0 to ${this.numFrames - 1})`);
    }
  }

  _out(out, n) {
    if (out === undefined) return new Float32Array(n);
    if (!(out instanceof Float32Array) || out.length < n) throw new TypeError(`libmd2: out must be a Float32Array of at least ${n} floats`);
    return out;
  }

  /**
   * Keyframes a and b blended at t (md2_lerp()) in the module's memory:
   * positions and normals as Float32Array views, no copy. The views are
   * valid until the next call on any model (memory may move when it grows).
   */
  lerpView(a, b, t, withNormals = false) {
    const lib = this._live();
    this._frame(a, 'frame');
    this._frame(b, 'frame');
    const n = this.numVertices * 3;
    lib.check(lib.x.md2_lerp(this._ptr, a, b, t, this._pose, 0, withNormals ? this._pose + n * 4 : 0, 0), 'lerp');
    return { positions: new Float32Array(lib.memory, this._pose, n),
      normals: withNormals ? new Float32Array(lib.memory, this._pose + n * 4, n) : null };
  }

  /** Keyframe i's positions, as md2_decode_frame() gives them (x, y, z a vertex). */
  decodeFrame(i, out) {
    this._frame(i, 'frame');
    const n = this.numVertices * 3;
    const dst = this._out(out, n);
    dst.set(this.lerpView(i, i, 0).positions);
    return dst;
  }

  /** Keyframe i's table normals (3 floats a vertex). */
  decodeNormals(i, out) {
    this._frame(i, 'frame');
    const n = this.numVertices * 3;
    const dst = this._out(out, n);
    dst.set(this.lerpView(i, i, 0, true).normals);
    return dst;
  }

  /** Positions between keyframes a and b at t in [0, 1] (md2_lerp()). */
  lerp(a, b, t, out) {
    const n = this.numVertices * 3;
    const dst = this._out(out, n);
    dst.set(this.lerpView(a, b, t).positions);
    return dst;
  }

  /** Keyframe i's bounding box: { min: [x, y, z], max: [x, y, z] }. */
  frameBounds(i) {
    const lib = this._live();
    this._frame(i, 'frame');
    lib.check(lib.x.md2_frame_bounds(this._ptr, i, lib.words, lib.words + 12), 'frameBounds');
    const f = lib.f32(6);
    return { min: [f[0], f[1], f[2]], max: [f[3], f[4], f[5]] };
  }

  /**
   * Animations: from the frame names (no argument), or from a side file's
   * text ({ anm: text } UFO:AI, { framegroups: text } DarkPlaces), or the
   * Quake II player table ({ quake2: true }). Each is
   * { name, first, last, fps, loop, idle }: idle is true for one of them,
   * the one a viewer opens on (md2_anim_idle(): "stand", else "idle",
   * ignoring case, else the first that loops, else the first). A bad side
   * file throws its Md2Error (section 'sidefile', with line and column).
   */
  animations(source = {}) {
    const lib = this._live();
    let kind = SIDE_KINDS.names;
    let text = null;
    if (source.anm !== undefined) { kind = SIDE_KINDS.anm; text = source.anm; }
    else if (source.framegroups !== undefined) { kind = SIDE_KINDS.framegroups; text = source.framegroups; }
    else if (source.quake2) kind = SIDE_KINDS.quake2;
    let ptr = 0;
    let size = 0;
    if (text !== null) [ptr, size] = lib.copyIn(typeof text === 'string' ? new TextEncoder().encode(text) : text);
    let arr;
    try {
      arr = lib.x.md2js_anims(lib.ctx, this._ptr, kind, ptr, size, lib.words + 32);
    } finally {
      if (ptr) lib.x.md2js_free(ptr);
    }
    if (!arr) throw lib.fail();
    const [count, idle] = new Uint32Array(lib.memory, lib.words + 32, 2);
    const out = [];
    for (let i = 0; i < count; i++) {
      const name = lib.string(lib.x.md2js_anim(arr, i, lib.words));
      const w = lib.u32(4);
      const fps = new Float32Array(lib.memory, lib.words + 8, 1)[0];
      out.push({ name, first: w[0], last: w[1], fps, loop: w[3] !== 0, idle: i === idle });
    }
    lib.x.md2js_free(arr);
    return out;
  }

  /** A new Player (md2_player) of this model, showing keyframe 0. */
  player() {
    return new Player(this);
  }

  /**
   * The welded mesh (md2_mesh_build()), built once per winding:
   * { numVertices, indices (Uint32Array, 3 a triangle), uv (Float32Array,
   * 2 a vertex), sourceVertex (Uint32Array: the model vertex of each) },
   * copies the caller keeps. counterClockwise: OpenGL's and WebGL's front
   * faces.
   */
  mesh({ counterClockwise = true } = {}) {
    const lib = this._live();
    const mesh = this._meshPtr(counterClockwise);
    lib.x.md2js_mesh_info(mesh, lib.words);
    const [numVertices, numIndices, indices, source, uv, memoryBytes] = lib.u32(6);
    return {
      numVertices,
      memoryBytes,
      indices: new Uint32Array(lib.memory, indices, numIndices).slice(),
      sourceVertex: new Uint32Array(lib.memory, source, numVertices).slice(),
      uv: new Float32Array(lib.memory, uv, numVertices * 2).slice(),
    };
  }

  _meshPtr(ccw) {
    const lib = this._live();
    const key = ccw ? 1 : 0;
    if (!this._mesh) this._mesh = [0, 0];
    if (!this._mesh[key]) {
      const mesh = lib.x.md2js_mesh_build(lib.ctx, this._ptr, key);
      if (!mesh) throw lib.fail();
      this._mesh[key] = mesh;
      this._held.meshes.push(mesh);
    }
    return this._mesh[key];
  }

  /**
   * GPU morph data for a blend in the vertex shader (docs/rendering.md):
   * vertices: a Uint8Array of 4 bytes (x, y, z, normal index) a welded
   * vertex a frame, frame after frame; transforms: a Float32Array of each
   * frame's scale[3] and translate[3]; normals: the 162 table normals.
   */
  morph({ counterClockwise = true } = {}) {
    const lib = this._live();
    const mesh = this._meshPtr(counterClockwise);
    const size = lib.x.md2_mesh_morph_size(mesh, this._ptr);
    const buf = lib.x.md2js_alloc(size);
    const tr = lib.x.md2js_alloc(this.numFrames * 24);
    try {
      if (!buf || !tr) lib.check(2, 'morph');
      lib.check(lib.x.md2_mesh_morph_data(mesh, this._ptr, buf, size), 'morph');
      lib.check(lib.x.md2_frame_transforms(this._ptr, tr), 'morph');
      return {
        vertices: new Uint8Array(lib.memory, buf, size).slice(),
        transforms: new Float32Array(lib.memory, tr, this.numFrames * 6).slice(),
        normals: new Float32Array(lib.memory, lib.x.md2_normal(0), 162 * 3).slice(),
      };
    } finally {
      if (buf) lib.x.md2js_free(buf);
      if (tr) lib.x.md2js_free(tr);
    }
  }

  /**
   * The pose between keyframes a and b at t for every welded vertex
   * (md2_mesh_lerp()), interleaved as md2_layout_default() lays it out: 8
   * floats a vertex, position, normal, uv. flags: LAYOUT.UNIT_NORMALS,
   * LAYOUT.Y_UP, LAYOUT.FLIP_V, or'ed.
   */
  meshLerp(a, b, t, flags = 0, { counterClockwise = true } = {}) {
    const lib = this._live();
    this._frame(a, 'frame');
    this._frame(b, 'frame');
    const mesh = this._meshPtr(counterClockwise);
    lib.x.md2js_mesh_info(mesh, lib.words);
    const n = lib.u32(1)[0] * 8;
    const verts = lib.x.md2js_alloc(n * 4);
    try {
      if (!verts) lib.check(2, 'meshLerp');
      lib.check(lib.x.md2js_mesh_lerp(mesh, this._ptr, a, b, t, verts, flags >>> 0), 'meshLerp');
      return new Float32Array(lib.memory, verts, n).slice();
    } finally {
      if (verts) lib.x.md2js_free(verts);
    }
  }

  /**
   * The mesh's triangles from the farthest to the nearest to eye ([x, y,
   * z], model space) in the pose between keyframes a and b at t: a
   * Uint32Array of indices, for translucent skins
   * (md2_mesh_sort_back_to_front()).
   */
  backToFront(a, b, t, eye, { counterClockwise = true } = {}) {
    const lib = this._live();
    this._frame(a, 'frame');
    this._frame(b, 'frame');
    const mesh = this._meshPtr(counterClockwise);
    lib.x.md2js_mesh_info(mesh, lib.words);
    const [numVertices, numIndices] = lib.u32(2);
    const scratchSize = lib.x.md2_mesh_sort_scratch_size(mesh);
    const verts = lib.x.md2js_alloc(numVertices * 32);
    const idx = lib.x.md2js_alloc(numIndices * 4);
    const scratch = lib.x.md2js_alloc(scratchSize);
    try {
      if (!verts || !idx || !scratch) lib.check(2, 'backToFront');
      lib.check(lib.x.md2js_mesh_lerp(mesh, this._ptr, a, b, t, verts, 0), 'backToFront');
      lib.f32(3).set(eye);
      lib.check(lib.x.md2js_mesh_sort(mesh, verts, lib.words, idx, scratch, scratchSize), 'backToFront');
      return new Uint32Array(lib.memory, idx, numIndices).slice();
    } finally {
      for (const p of [verts, idx, scratch]) if (p) lib.x.md2js_free(p);
    }
  }

  /** Releases the model (and its meshes); further calls throw. Safe to call twice. */
  free() {
    if (!this._ptr) return;
    if (this._lib.registry) this._lib.registry.unregister(this._token);
    Model._release(this._lib, this._held);
    this._ptr = 0;
    this._pose = 0;
    this._mesh = null;
  }
}

/** One instance's playback state (md2_player): animation, playhead, fades. */
export class Player {
  constructor(model) {
    const lib = model._live();
    this._model = model;
    this._lib = lib;
    this._ptr = lib.x.md2js_player_new();
    if (!this._ptr) lib.check(2, 'player');
    const ptr = this._ptr;
    this._token = {};
    if (lib.registry) lib.registry.register(this, () => lib.x.md2js_free(ptr), this._token);
  }

  /**
   * Plays anim ({ first, last, fps, loop }, as animations() gives them) in
   * mode (PLAY.*) at rate keyframes a second (default: the animation's).
   */
  play(anim, mode = PLAY.DEFAULT, rate = -1) {
    const lib = this._lib;
    this._model._live();
    const fps = anim.fps === undefined ? 10 : anim.fps;
    lib.check(lib.x.md2js_player_play(this._ptr, anim.first >>> 0, anim.last >>> 0, fps,
      anim.loop === false ? 0 : 1, mode, rate), 'play');
  }

  /** Cross-fades to anim over duration seconds (md2_player_crossfade()). */
  crossfade(anim, duration, mode = PLAY.DEFAULT, rate = -1) {
    const lib = this._lib;
    this._model._live();
    const fps = anim.fps === undefined ? 10 : anim.fps;
    lib.check(lib.x.md2js_player_crossfade(this._ptr, anim.first >>> 0, anim.last >>> 0, fps,
      anim.loop === false ? 0 : 1, mode, rate, duration), 'crossfade');
  }

  /** Advances by dt seconds; returns the event flags (1 looped, 2 finished, 4 fade done). */
  advance(dt) {
    return this._lib.x.md2_player_advance(this._ptr, dt);
  }

  /** Moves the playhead to position keyframes after the animation's first. */
  seek(position) {
    this._lib.check(this._lib.x.md2_player_seek(this._ptr, position), 'seek');
  }

  /** What it shows: { frameA, frameB, t, weight, finished, position }. */
  state() {
    const lib = this._lib;
    lib.x.md2js_player_state(this._ptr, lib.words);
    const w = lib.u32(9);
    const f = lib.f32(9);
    return { frameA: w[0], frameB: w[1], t: f[2], fromA: w[3], fromB: w[4], fromT: f[5],
      weight: f[6], finished: w[7] !== 0, position: f[8] };
  }

  /** The pose it shows (md2_player_pose()) as positions, a copy unless out is given. */
  pose(out) {
    const m = this._model;
    const lib = m._live();
    const n = m.numVertices * 3;
    const dst = m._out(out, n);
    lib.check(lib.x.md2_player_pose(this._ptr, m._ptr, m._pose, 0, 0, 0), 'pose');
    dst.set(new Float32Array(lib.memory, m._pose, n));
    return dst;
  }

  /** Releases the player. */
  free() {
    if (!this._ptr) return;
    if (this._lib.registry) this._lib.registry.unregister(this._token);
    this._lib.x.md2js_free(this._ptr);
    this._ptr = 0;
  }
}

/** The bytes in use by the module: its linear memory's size. */
export async function memoryBytes() {
  const lib = await init();
  return lib.memory.byteLength;
}
