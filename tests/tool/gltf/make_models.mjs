// The glTF models md2 import's tests read (tests/tool/import_gltf.cases),
// written at test time with Node's built-ins alone:
//
//   node make_models.mjs OUTDIR
//
// Each model is written three ways: NAME.gltf with its buffer in NAME.bin
// (the model "hierarchy": "hierarchy data.bin", percent-encoded in the
// URI) and its images as files, NAME_embedded.gltf with data: URIs, and
// NAME.glb (one binary chunk; images in buffer views).
//  - skin: a cylinder skinned to a chain of three joints (JOINTS_0 bytes,
//    WEIGHTS_0 floats, inverse bind matrices), its mesh node moved (which
//    the spec ignores); animations "bend" (LINEAR rotations) and "stretch"
//    (STEP translation, CUBICSPLINE scale, LINEAR translation of the root);
//  - morph: a cube with two morph targets (POSITION and NORMAL; one sparse
//    without a bufferView), mesh.weights, on two nodes, one with
//    node.weights; animations "grow" (LINEAR), "snap" (STEP), "wobble"
//    (CUBICSPLINE), all on weights;
//  - hierarchy: no animation; a root with a rotation and a non-uniform
//    scale, children by matrix and by TRS in an order that is not the
//    nodes' order, a mirrored node (scale -1) and a child of it mirrored
//    back, a mesh of two primitives on two nodes, three materials (two
//    textured), and a default scene ("scene": 1) that is not the first;
//  - samplers: one node animated on translation, rotation, scale and
//    weights by "linear", "step", "cubic" and an unnamed animation (anim3),
//    keys at uneven times from t0 = 0.05 (the weights' from 0.3 to 0.95),
//    rotations that flip sign between keys (the shorter arc);
//  - accessors: a mesh of eight primitives: every component type of
//    POSITION, NORMAL and TEXCOORD_0 (float, normalized and plain integers,
//    KHR_mesh_quantization, required), interleaved views with byteStride,
//    sparse accessors with and without a bufferView, indices of 8, 16 and
//    32 bits, a strip, a fan, non-indexed triangles with a degenerate one,
//    and a POINTS and a LINES primitive (skipped, with notes);
//  - exported: an animation with md2 export's extras (first, last, fps,
//    loop, and the loop's extra key), and one whose extras have no fps.
//
// SPDX-License-Identifier: MIT

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const out = process.argv[2];
if (!out) {
  console.error('usage: node make_models.mjs OUTDIR');
  process.exit(2);
}
mkdirSync(out, { recursive: true });

const BYTE = 5120, UBYTE = 5121, SHORT = 5122, USHORT = 5123, UINT = 5125, FLOAT = 5126;
const SIZE = { [BYTE]: 1, [UBYTE]: 1, [SHORT]: 2, [USHORT]: 2, [UINT]: 4, [FLOAT]: 4 };
const COMPS = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 };

function encode(values, ctype, normalized) {
  const b = Buffer.alloc(values.length * SIZE[ctype]);
  values.forEach((v, i) => {
    const o = i * SIZE[ctype];
    switch (ctype) {
      case FLOAT: b.writeFloatLE(v, o); break;
      case BYTE: b.writeInt8(normalized ? Math.round(v * 127) : v, o); break;
      case UBYTE: b.writeUInt8(normalized ? Math.round(v * 255) : v, o); break;
      case SHORT: b.writeInt16LE(normalized ? Math.round(v * 32767) : v, o); break;
      case USHORT: b.writeUInt16LE(normalized ? Math.round(v * 65535) : v, o); break;
      default: b.writeUInt32LE(v, o);
    }
  });
  return b;
}

// A glTF being built: JSON and one binary buffer.
class Model {
  constructor() {
    this.json = { asset: { version: '2.0', generator: 'libmd2 tests/tool/gltf/make_models.mjs' },
                  buffers: [{ byteLength: 0 }], bufferViews: [], accessors: [] };
    this.chunks = [];
    this.length = 0;
    this.images = []; // { bytes, mime, file }
  }
  bytes(b) {
    const pad = (4 - (this.length % 4)) % 4;
    if (pad) { this.chunks.push(Buffer.alloc(pad)); this.length += pad; }
    const at = this.length;
    this.chunks.push(b);
    this.length += b.length;
    return at;
  }
  view(b, stride) {
    const v = { buffer: 0, byteOffset: this.bytes(b), byteLength: b.length };
    if (stride) v.byteStride = stride;
    this.json.bufferViews.push(v);
    return this.json.bufferViews.length - 1;
  }
  // values: flat numbers; opts: ctype, type, normalized, minmax
  accessor(values, type, ctype = FLOAT, opts = {}) {
    const a = { bufferView: this.view(encode(values, ctype, opts.normalized)), componentType: ctype,
                count: values.length / COMPS[type], type };
    if (opts.normalized) a.normalized = true;
    if (opts.minmax) {
      const n = COMPS[type];
      a.min = []; a.max = [];
      for (let c = 0; c < n; c++) {
        let lo = Infinity, hi = -Infinity;
        for (let i = c; i < values.length; i += n) { lo = Math.min(lo, values[i]); hi = Math.max(hi, values[i]); }
        a.min.push(ctype === FLOAT ? Math.fround(lo) : lo);
        a.max.push(ctype === FLOAT ? Math.fround(hi) : hi);
      }
    }
    this.json.accessors.push(a);
    return this.json.accessors.length - 1;
  }
  // several attributes interleaved in one view: parts [{values, type, ctype, normalized}]
  interleaved(parts, stride) {
    const count = parts[0].values.length / COMPS[parts[0].type];
    const b = Buffer.alloc(stride * count);
    let offset = 0;
    const offsets = [];
    for (const p of parts) {
      offsets.push(offset);
      const n = COMPS[p.type];
      for (let i = 0; i < count; i++) {
        encode(p.values.slice(i * n, i * n + n), p.ctype, p.normalized).copy(b, i * stride + offset);
      }
      offset += Math.ceil((n * SIZE[p.ctype]) / 4) * 4;
    }
    const view = this.view(b, stride);
    return parts.map((p, k) => {
      const a = { bufferView: view, byteOffset: offsets[k], componentType: p.ctype, count, type: p.type };
      if (p.normalized) a.normalized = true;
      if (p.type === 'VEC3' && p.minmax) Object.assign(a, minmax(p.values, 3));
      this.json.accessors.push(a);
      return this.json.accessors.length - 1;
    });
  }
  // a sparse accessor: base values (or none: zeros) and replacements {index: [values]}
  sparse(count, type, base, replace, ctype = FLOAT) {
    const n = COMPS[type];
    const keys = Object.keys(replace).map(Number).sort((x, y) => x - y);
    const a = { componentType: ctype, count, type };
    if (base) a.bufferView = this.view(encode(base, ctype));
    a.sparse = {
      count: keys.length,
      indices: { bufferView: this.view(encode(keys, keys.length > 200 ? USHORT : UBYTE)),
                 componentType: keys.length > 200 ? USHORT : UBYTE },
      values: { bufferView: this.view(encode(keys.flatMap((k) => replace[k]), ctype)) },
    };
    if (type === 'VEC3' && ctype === FLOAT) {
      const full = base ? base.slice() : new Array(count * n).fill(0);
      for (const k of keys) for (let c = 0; c < n; c++) full[k * n + c] = replace[k][c];
      Object.assign(a, minmax(full, 3));
    }
    this.json.accessors.push(a);
    return this.json.accessors.length - 1;
  }
  image(bytes, file) {
    this.images.push({ bytes, file });
    (this.json.images ??= []).push({});
    return this.json.images.length - 1;
  }
  // writes NAME.gltf + BIN, NAME_embedded.gltf, NAME.glb
  write(name, binName = `${name}.bin`) {
    const bin = Buffer.concat(this.chunks);
    const padded = Buffer.concat([bin, Buffer.alloc((4 - (bin.length % 4)) % 4)]);
    const forms = {};
    // .gltf + .bin, images as files
    let j = structuredClone(this.json);
    j.buffers[0] = { byteLength: bin.length, uri: encodeURIComponent(binName) };
    this.images.forEach((im, i) => { j.images[i] = { uri: encodeURIComponent(im.file) }; });
    writeFileSync(path.join(out, binName), bin);
    this.images.forEach((im) => writeFileSync(path.join(out, im.file), im.bytes));
    forms[`${name}.gltf`] = Buffer.from(JSON.stringify(j, null, 1));
    // data: URIs
    j = structuredClone(this.json);
    j.buffers[0] = { byteLength: bin.length, uri: `data:application/octet-stream;base64,${bin.toString('base64')}` };
    this.images.forEach((im, i) => { j.images[i] = { uri: `data:image/png;base64,${im.bytes.toString('base64')}` }; });
    forms[`${name}_embedded.gltf`] = Buffer.from(JSON.stringify(j));
    // .glb: the images appended to the binary chunk
    j = structuredClone(this.json);
    let glbBin = padded;
    this.images.forEach((im, i) => {
      const at = glbBin.length;
      glbBin = Buffer.concat([glbBin, im.bytes, Buffer.alloc((4 - (im.bytes.length % 4)) % 4)]);
      j.bufferViews.push({ buffer: 0, byteOffset: at, byteLength: im.bytes.length });
      j.images[i] = { bufferView: j.bufferViews.length - 1, mimeType: 'image/png' };
    });
    j.buffers[0] = { byteLength: glbBin.length };
    let text = Buffer.from(JSON.stringify(j));
    text = Buffer.concat([text, Buffer.alloc((4 - (text.length % 4)) % 4, 0x20)]);
    const header = Buffer.alloc(12);
    header.write('glTF', 0, 'latin1');
    header.writeUInt32LE(2, 4);
    header.writeUInt32LE(12 + 8 + text.length + 8 + glbBin.length, 8);
    const ch = (len, type) => { const c = Buffer.alloc(8); c.writeUInt32LE(len, 0); c.writeUInt32LE(type, 4); return c; };
    forms[`${name}.glb`] = Buffer.concat([header, ch(text.length, 0x4e4f534a), text, ch(glbBin.length, 0x004e4942), glbBin]);
    for (const [file, data] of Object.entries(forms)) writeFileSync(path.join(out, file), data);
  }
}

function minmax(values, n) {
  const min = [], max = [];
  for (let c = 0; c < n; c++) {
    let lo = Infinity, hi = -Infinity;
    for (let i = c; i < values.length; i += n) { lo = Math.min(lo, values[i]); hi = Math.max(hi, values[i]); }
    min.push(Math.fround(lo)); max.push(Math.fround(hi));
  }
  return { min, max };
}

// ---- a PNG (real, so that md2 import can decode it) -------------------------
const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(b) {
  let c = 0xffffffff;
  for (const x of b) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function png(w, h, rgb) {
  const raw = Buffer.alloc((3 * w + 1) * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const c = rgb(x, y);
      raw.set(c, y * (3 * w + 1) + 1 + 3 * x);
    }
  }
  const chunk = (type, data) => {
    const len = Buffer.alloc(4); len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4); crc.writeUInt32BE(crc32(td));
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0); ihdr.writeUInt32BE(h, 4); ihdr[8] = 8; ihdr[9] = 2;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
                        chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

// ---- small math ----------------------------------------------------------------
const deg = Math.PI / 180;
function quat(axis, angle) {
  const l = Math.hypot(...axis), s = Math.sin(angle / 2) / l;
  return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angle / 2)];
}

// A box of 24 vertices (4 a face), normals and texcoords.
function box(sx, sy, sz) {
  const pos = [], nrm = [], uv = [], idx = [];
  const faces = [[[1, 0, 0], [0, 1, 0], [0, 0, 1]], [[-1, 0, 0], [0, 1, 0], [0, 0, -1]],
                 [[0, 1, 0], [0, 0, 1], [1, 0, 0]], [[0, -1, 0], [0, 0, -1], [1, 0, 0]],
                 [[0, 0, 1], [1, 0, 0], [0, 1, 0]], [[0, 0, -1], [-1, 0, 0], [0, 1, 0]]];
  for (const [n, u, v] of faces) {
    const base = pos.length / 3;
    for (const [a, b] of [[-1, -1], [1, -1], [1, 1], [-1, 1]]) {
      pos.push((n[0] + a * u[0] + b * v[0]) * sx / 2, (n[1] + a * u[1] + b * v[1]) * sy / 2,
               (n[2] + a * u[2] + b * v[2]) * sz / 2);
      nrm.push(...n);
      uv.push((a + 1) / 2, (1 - b) / 2);
    }
    // counter-clockwise seen from outside: u x v = n
    idx.push(base, base + 1, base + 2, base, base + 2, base + 3);
  }
  return { pos, nrm, uv, idx };
}

// ---- skin: a cylinder on three joints --------------------------------------------
{
  const m = new Model();
  const rings = 7, segs = 8, height = 3;
  const pos = [], nrm = [], uv = [], joints = [], weights = [], idx = [];
  for (let r = 0; r < rings; r++) {
    const y = (height * r) / (rings - 1);
    // joints at 0, 1.5, 3: blend between the two around y
    const f = y / 1.5, j = Math.min(Math.floor(f), 1), w = Math.min(f - j, 1);
    for (let s = 0; s <= segs; s++) {
      const a = (2 * Math.PI * s) / segs;
      pos.push(0.5 * Math.cos(a), y, 0.5 * Math.sin(a));
      nrm.push(Math.cos(a), 0, Math.sin(a));
      uv.push(s / segs, 1 - r / (rings - 1));
      joints.push(j, j + 1, 0, 0);
      weights.push(1 - w, w, 0, 0);
    }
  }
  for (let r = 0; r + 1 < rings; r++) {
    for (let s = 0; s < segs; s++) {
      const a = r * (segs + 1) + s, b = a + 1, c = a + segs + 1, d = c + 1;
      idx.push(a, c, b, b, c, d);
    }
  }
  const P = m.accessor(pos, 'VEC3', FLOAT, { minmax: true });
  const N = m.accessor(nrm, 'VEC3');
  const T = m.accessor(uv, 'VEC2');
  const J = m.accessor(joints, 'VEC4', UBYTE);
  const W = m.accessor(weights, 'VEC4');
  const I = m.accessor(idx, 'SCALAR', USHORT);
  const ibm = [];
  for (const y of [0, 1.5, 3]) ibm.push(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -y, 0, 1);
  const IBM = m.accessor(ibm, 'MAT4');
  m.json.meshes = [{ name: 'cylinder', primitives: [{ attributes: { POSITION: P, NORMAL: N, TEXCOORD_0: T, JOINTS_0: J, WEIGHTS_0: W },
                                                      indices: I, material: 0 }] }];
  m.json.materials = [{ name: 'bark' }];
  m.json.nodes = [
    { name: 'armature', children: [1], rotation: quat([0, 1, 0], 20 * deg), translation: [0.5, 0, -1] },
    { name: 'root', children: [2] },
    { name: 'mid', translation: [0, 1.5, 0], children: [3] },
    { name: 'tip', translation: [0, 1.5, 0] },
    { name: 'body', mesh: 0, skin: 0, translation: [5, 0, 0], scale: [2, 2, 2] },
  ];
  m.json.skins = [{ joints: [1, 2, 3], inverseBindMatrices: IBM, skeleton: 1 }];
  m.json.scenes = [{ nodes: [0, 4] }];
  const t3 = m.accessor([0, 0.5, 1], 'SCALAR');
  const bend = m.accessor([...quat([0, 0, 1], 0), ...quat([0, 0, 1], 40 * deg), ...quat([0, 0, 1], 80 * deg)], 'VEC4');
  const bend2 = m.accessor([...quat([1, 0, 0], 0), ...quat([1, 0, 0], -30 * deg), ...quat([1, 0, 1], 60 * deg)], 'VEC4');
  const t4 = m.accessor([0, 0.4, 0.8, 1.25], 'SCALAR');
  const stepT = m.accessor([0, 1.5, 0, 0, 1.8, 0, 0.3, 1.2, 0, 0, 1.5, 0], 'VEC3');
  const cubicS = m.accessor([
    0, 0, 0, 1, 1, 1, 0.5, 0, 0.5,
    1, 1, 1, 1.4, 0.8, 1.4, -1, 0, -1,
    0.3, 0.2, 0.3, 0.9, 1.1, 0.9, 0, 0, 0,
    0, 0, 0, 1, 1, 1, 0, 0, 0], 'VEC3');
  const rootT = m.accessor([0, 0, 0, 0, 0.2, 0, 0.1, 0.4, 0, 0, 0, 0.3], 'VEC3');
  m.json.animations = [
    { name: 'bend', channels: [{ sampler: 0, target: { node: 2, path: 'rotation' } },
                               { sampler: 1, target: { node: 3, path: 'rotation' } }],
      samplers: [{ input: t3, output: bend }, { input: t3, output: bend2, interpolation: 'LINEAR' }] },
    { name: 'stretch', channels: [{ sampler: 0, target: { node: 2, path: 'translation' } },
                                  { sampler: 1, target: { node: 3, path: 'scale' } },
                                  { sampler: 2, target: { node: 1, path: 'translation' } }],
      samplers: [{ input: t4, output: stepT, interpolation: 'STEP' }, { input: t4, output: cubicS, interpolation: 'CUBICSPLINE' },
                 { input: t4, output: rootT }] },
  ];
  m.write('skin');
}

// ---- morph: a cube of two morph targets on two nodes --------------------------------
{
  const m = new Model();
  const b = box(1, 1, 1);
  const P = m.accessor(b.pos, 'VEC3', FLOAT, { minmax: true });
  const N = m.accessor(b.nrm, 'VEC3');
  const T = m.accessor(b.uv, 'VEC2', USHORT, { normalized: true });
  const I = m.accessor(b.idx, 'SCALAR', UBYTE);
  // target 0: the top face (y > 0) up by 1, as a sparse accessor without a view
  const up = {};
  for (let i = 0; i < 24; i++) if (b.pos[3 * i + 1] > 0) up[i] = [0, 1, 0];
  const T0 = m.sparse(24, 'VEC3', null, up);
  const T0N = m.accessor(new Array(72).fill(0), 'VEC3');
  // target 1: x doubled, normals tilted
  const T1 = m.accessor(b.pos.map((v, i) => (i % 3 === 0 ? v : 0)), 'VEC3', FLOAT, { minmax: true });
  const T1N = m.accessor(b.nrm.map((v, i) => (i % 3 === 1 ? 0.2 : 0)), 'VEC3');
  m.json.meshes = [{ name: 'cube', weights: [0.25, 0.5],
                     primitives: [{ attributes: { POSITION: P, NORMAL: N, TEXCOORD_0: T }, indices: I,
                                    targets: [{ POSITION: T0, NORMAL: T0N }, { POSITION: T1, NORMAL: T1N }] }] }];
  m.json.nodes = [{ name: 'cube_a', mesh: 0, weights: [1, 0] }, { name: 'cube_b', mesh: 0, translation: [3, 0, 0] }];
  m.json.scenes = [{ nodes: [0, 1] }];
  const t = m.accessor([0, 1, 2], 'SCALAR');
  const lin = m.accessor([0, 0, 1, 0.5, 0.2, 1], 'SCALAR');
  const step = m.accessor([1, 0, 0, 1, 0.5, 0.5], 'SCALAR');
  const cub = m.accessor([0, 0, 0, 0, 1, 1, 2, -1, 1, 1, 0.5, 0.2, 0, 0, 1, 0, 0, 0], 'SCALAR');
  m.json.animations = [
    { name: 'grow', channels: [{ sampler: 0, target: { node: 0, path: 'weights' } }], samplers: [{ input: t, output: lin }] },
    { name: 'snap', channels: [{ sampler: 0, target: { node: 1, path: 'weights' } }],
      samplers: [{ input: t, output: step, interpolation: 'STEP' }] },
    { name: 'wobble', channels: [{ sampler: 0, target: { node: 0, path: 'weights' } }],
      samplers: [{ input: t, output: cub, interpolation: 'CUBICSPLINE' }] },
  ];
  m.write('morph');
}

// ---- hierarchy: transforms, mirrors, materials ------------------------------------------
{
  const m = new Model();
  const b = box(1, 2, 0.5);
  const P = m.accessor(b.pos.slice(0, 36), 'VEC3', FLOAT, { minmax: true });
  const N = m.accessor(b.nrm.slice(0, 36), 'VEC3');
  const T = m.accessor(b.uv.slice(0, 24), 'VEC2');
  const I = m.accessor(b.idx.slice(0, 18), 'SCALAR', USHORT);
  const P2 = m.accessor(b.pos.slice(36), 'VEC3', FLOAT, { minmax: true });
  const N2 = m.accessor(b.nrm.slice(36), 'VEC3');
  const T2 = m.accessor(b.uv.slice(24), 'VEC2');
  const I2 = m.accessor(b.idx.slice(0, 18), 'SCALAR', USHORT);
  const c = box(0.3, 0.3, 0.3);
  const CP = m.accessor(c.pos, 'VEC3', FLOAT, { minmax: true });
  const CN = m.accessor(c.nrm, 'VEC3');
  const CT = m.accessor(c.uv, 'VEC2');
  const CI = m.accessor(c.idx, 'SCALAR', UINT);
  m.json.meshes = [
    { name: 'halves', primitives: [{ attributes: { POSITION: P, NORMAL: N, TEXCOORD_0: T }, indices: I, material: 0 },
                                   { attributes: { POSITION: P2, NORMAL: N2, TEXCOORD_0: T2 }, indices: I2, material: 1 }] },
    { name: 'small', primitives: [{ attributes: { POSITION: CP, NORMAL: CN, TEXCOORD_0: CT }, indices: CI, material: 2 }] },
  ];
  const red = png(4, 2, (x, y) => [255, 40 * x, 60 * y]);
  const blue = png(2, 2, (x, y) => [10, 100 * y, 255 - 50 * x]);
  m.image(red, 'red skin.png');
  m.image(blue, 'blue.png');
  m.json.textures = [{ source: 0 }, { source: 1 }];
  m.json.materials = [{ name: 'painted', pbrMetallicRoughness: { baseColorTexture: { index: 0 } } },
                      { name: 'plain' },
                      { name: 'decal', pbrMetallicRoughness: { baseColorTexture: { index: 1 } } }];
  const c30 = Math.cos(30 * deg), s30 = Math.sin(30 * deg);
  m.json.nodes = [
    { name: 'unused', mesh: 1 },
    { name: 'root', children: [4, 2, 3], rotation: quat([0, 1, 0], 30 * deg), scale: [2, 1, 0.5], translation: [0, 1, 0] },
    { name: 'arm', mesh: 0, matrix: [c30, s30, 0, 0, -s30, c30, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1] },
    { name: 'mirror', mesh: 0, scale: [-1, 1, 1], translation: [-2, 0, 0], children: [5] },
    { name: 'leaf', mesh: 1, translation: [0, -1, 0.5], rotation: quat([1, 1, 0], 45 * deg) },
    { name: 'back', mesh: 1, scale: [1, -1, 1], translation: [0, 0, 1] },
  ];
  m.json.scenes = [{ nodes: [0] }, { nodes: [1] }];
  m.json.scene = 1;
  m.write('hierarchy', 'hierarchy data.bin');
}

// ---- samplers: every interpolation on every path -----------------------------------------
{
  const m = new Model();
  const pos = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1];
  const P = m.accessor(pos, 'VEC3', FLOAT, { minmax: true });
  const I = m.accessor([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3], 'SCALAR', UBYTE);
  const M0 = m.accessor([0, 0, 0, 0.5, 0, 0, 0, 0, 0, 0, 0, 0], 'VEC3', FLOAT, { minmax: true });
  const M1 = m.accessor([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.7], 'VEC3', FLOAT, { minmax: true });
  m.json.meshes = [{ primitives: [{ attributes: { POSITION: P }, indices: I, targets: [{ POSITION: M0 }, { POSITION: M1 }] }] }];
  m.json.nodes = [{ name: 'parent', children: [1], translation: [0, 0.5, 0] }, { name: 'thing', mesh: 0 }];
  m.json.scenes = [{ nodes: [0] }];
  const times = [0.05, 0.37, 0.81, 1.23];
  const t = m.accessor(times, 'SCALAR');
  const tr = [0, 0, 0, 1, 0.5, 0, 1.5, 1, -0.5, 0.2, 0.3, 0.4];
  // the second key is the negated quaternion of a close rotation: the shorter arc turns little
  const q1 = quat([0, 1, 0], 10 * deg), q2 = quat([0, 1, 0], 100 * deg).map((v) => -v);
  const q3 = quat([1, 0, 0], 170 * deg), q4 = quat([1, 0, 0], -170 * deg);
  const rot = [...q1, ...q2, ...q3, ...q4];
  const sc = [1, 1, 1, 2, 1, 0.5, 0.5, 0.5, 0.5, 1, 2, 1];
  const wt = [0, 0, 1, 0, 0.3, 0.6, 1, 1];
  const tangents = (vals, n) => {
    const o = [];
    for (let k = 0; k < 4; k++) {
      const v = vals.slice(k * n, k * n + n);
      o.push(...v.map((x, i) => 0.5 * (i + 1) - x), ...v, ...v.map((x, i) => x - 0.3 * i));
    }
    return o;
  };
  const acc = (vals, type) => m.accessor(vals, type);
  // small tangents around the unit key rotations
  const cubicRotations = () => {
    const vals = tangents(rot, 4).map((x) => x * 0.1);
    for (let k = 0; k < 4; k++) for (let c = 0; c < 4; c++) vals[12 * k + 4 + c] = rot[4 * k + c];
    return vals;
  };
  const sampler = (interp) => ({
    T: m.accessor(interp === 'CUBICSPLINE' ? tangents(tr, 3) : tr, 'VEC3'),
    R: interp === 'CUBICSPLINE' ? m.accessor(cubicRotations(), 'VEC4')
                                : m.accessor(rot, 'VEC4', SHORT, { normalized: true }),
    S: acc(interp === 'CUBICSPLINE' ? tangents(sc, 3) : sc, 'VEC3'),
    W: interp === 'CUBICSPLINE'
      ? acc([0, 0, 0, 0, 0.1, 0.2, 1, 0, 0, 0, 0, 0.3, 0.4, 0, 0, 0.2, 0.2, 0, 0.6, 0.5, 0, 0, 0, 0], 'SCALAR')
      : m.accessor(wt, 'SCALAR', UBYTE, { normalized: true }),
  });
  // the weights' keys start later and end sooner than the others': before
  // their first key their first value, after their last their last
  const tw = m.accessor([0.3, 0.55, 0.7, 0.95], 'SCALAR');
  const anim = (name, interp) => {
    const s = sampler(interp);
    const a = {
      channels: ['translation', 'rotation', 'scale', 'weights'].map((p, i) => ({ sampler: i, target: { node: 1, path: p } })),
      samplers: [s.T, s.R, s.S, s.W].map((o, i) => ({ input: i === 3 ? tw : t, output: o, interpolation: interp })),
    };
    if (name) a.name = name;
    return a;
  };
  m.json.animations = [anim('linear', 'LINEAR'), anim('step', 'STEP'), anim('cubic', 'CUBICSPLINE')];
  // the unnamed one: translation only, from 0.2 (its own t0)
  const t2 = m.accessor([0.2, 0.9], 'SCALAR');
  m.json.animations[3] = { channels: [{ sampler: 0, target: { node: 0, path: 'translation' } }],
                           samplers: [{ input: t2, output: m.accessor([0, 0, 0, 0, 2, 0], 'VEC3') }] };
  m.write('samplers');
}

// ---- accessors: every kind -----------------------------------------------------------------
{
  const m = new Model();
  m.json.extensionsUsed = ['KHR_mesh_quantization'];
  m.json.extensionsRequired = ['KHR_mesh_quantization'];
  const prims = [];
  const quad = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]; // 4 corners, unit square
  const quv = [0, 1, 1, 1, 1, 0, 0, 0];
  const qn = [0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1];
  const shift = (p, dx) => p.map((v, i) => (i % 3 === 0 ? v + dx : v));
  // 0: floats; texcoords normalized bytes; 8-bit indices
  prims.push({ attributes: { POSITION: m.accessor(shift(quad, 0), 'VEC3', FLOAT, { minmax: true }),
                             NORMAL: m.accessor(qn, 'VEC3'),
                             TEXCOORD_0: m.accessor(quv, 'VEC2', UBYTE, { normalized: true }) },
               indices: m.accessor([0, 1, 2, 0, 2, 3], 'SCALAR', UBYTE) });
  // 1: SHORT positions (plain integers, KHR_mesh_quantization), normalized
  //    SHORT normals, UNSIGNED_SHORT normalized texcoords; a strip of 16-bit
  //    indices; interleaved with byteStride
  {
    const p = [0, 0, 0, 2, 0, 0, 0, 1, 0, 2, 1, 0, 0, 2, 0, 2, 2, 0].map((v, i) => (i % 3 === 0 ? v + 4 : v));
    const n = [0, 0, 1, 0, 0.6, 0.8, 0, 0, 1, 0, 0.6, 0.8, 0, 0, 1, 0, 0, 1];
    const uv = [0, 0, 1, 0, 0, 0.5, 1, 0.5, 0, 1, 1, 1];
    const [PA, NA, TA] = m.interleaved([{ values: p, type: 'VEC3', ctype: SHORT, minmax: true },
                                        { values: n, type: 'VEC3', ctype: SHORT, normalized: true },
                                        { values: uv, type: 'VEC2', ctype: USHORT, normalized: true }], 20);
    prims.push({ attributes: { POSITION: PA, NORMAL: NA, TEXCOORD_0: TA }, mode: 5,
                 indices: m.accessor([0, 1, 2, 3, 4, 5], 'SCALAR', USHORT) });
  }
  // 2: normalized UNSIGNED_BYTE positions, BYTE normals, normalized BYTE texcoords; a fan of 32-bit indices
  {
    const p = [0.5, 0.5, 0, 1, 0.5, 0, 0.85, 0.85, 0, 0.5, 1, 0, 0.15, 0.85, 0, 0, 0.5, 0];
    const [PA, NA] = m.interleaved([{ values: p, type: 'VEC3', ctype: UBYTE, normalized: true, minmax: true },
                                    { values: new Array(6).fill([0, 0, 1]).flat(), type: 'VEC3', ctype: BYTE, normalized: true }], 8);
    prims.push({ attributes: { POSITION: PA, NORMAL: NA,
                               TEXCOORD_0: m.accessor([0.5, 0.5, 1, 0.5, 0.8, 0.2, 0.5, 0, 0.2, 0.2, 0, 0.5], 'VEC2', BYTE, { normalized: true }) },
                 mode: 6, indices: m.accessor([0, 1, 2, 3, 4, 5], 'SCALAR', UINT) });
  }
  // 3: normalized BYTE positions, normalized SHORT texcoords; non-indexed, with a degenerate triangle
  {
    const p = [-1, 0, 0, -0.5, 0, 0, -0.5, 0.5, 0, -1, 0, 0, -1, 0, 0, -0.5, 0.5, 0];
    const [PA] = m.interleaved([{ values: p, type: 'VEC3', ctype: BYTE, normalized: true, minmax: true }], 4);
    prims.push({ attributes: { POSITION: PA, NORMAL: m.accessor(new Array(6).fill([0, 0, 1]).flat(), 'VEC3'),
                               TEXCOORD_0: m.accessor([0, 0, 1, 0, 1, 1, 0, 0, 0, 0, 1, 1], 'VEC2', SHORT, { normalized: true }) } });
  }
  // 4: UNSIGNED_SHORT positions, UNSIGNED_BYTE texcoords (plain integers)
  {
    const p = [8, 0, 0, 9, 0, 0, 9, 1, 0, 8, 1, 0];
    const [PA, TA] = m.interleaved([{ values: p, type: 'VEC3', ctype: USHORT, minmax: true },
                                    { values: [0, 1, 1, 1, 1, 0, 0, 0], type: 'VEC2', ctype: UBYTE }], 12);
    prims.push({ attributes: { POSITION: PA, NORMAL: m.accessor(qn, 'VEC3'), TEXCOORD_0: TA },
                 indices: m.accessor([0, 1, 2, 2, 3, 0], 'SCALAR', UBYTE) });
  }
  // 5: sparse positions on a view (two replaced), sparse texcoords without a view; a non-indexed strip
  {
    const base = [10, 0, 0, 11, 0, 0, 10, 1, 0, 11, 1, 0, 10, 2, 0];
    prims.push({ attributes: { POSITION: m.sparse(5, 'VEC3', base, { 1: [11.5, -0.5, 0], 4: [10.5, 2.5, 0.25] }),
                               NORMAL: m.accessor(new Array(5).fill([0, 0, 1]).flat(), 'VEC3'),
                               TEXCOORD_0: m.sparse(5, 'VEC2', null, { 1: [1, 0], 3: [1, 1], 4: [0.5, 1] }) },
                 mode: 5 });
  }
  // 6, 7: POINTS and LINES, skipped
  prims.push({ attributes: { POSITION: m.accessor([0, 5, 0, 1, 5, 0], 'VEC3', FLOAT, { minmax: true }) }, mode: 0 });
  prims.push({ attributes: { POSITION: m.accessor([0, 6, 0, 1, 6, 0], 'VEC3', FLOAT, { minmax: true }) }, mode: 1 });
  m.json.meshes = [{ name: 'kinds', primitives: prims }];
  m.json.nodes = [{ name: 'kinds', mesh: 0, scale: [0.5, 0.5, 0.5] }];
  m.json.scenes = [{ nodes: [0] }];
  m.write('accessors');
}

// ---- exported: md2 export's extras ------------------------------------------------------------
{
  const m = new Model();
  const b = box(1, 1, 1);
  const P = m.accessor(b.pos, 'VEC3', FLOAT, { minmax: true });
  const I = m.accessor(b.idx, 'SCALAR', USHORT);
  const targets = [];
  for (let k = 0; k < 4; k++) {
    targets.push({ POSITION: m.accessor(b.pos.map((v, i) => (i % 3 === 1 ? v * 0.25 * k : 0)), 'VEC3', FLOAT, { minmax: true }) });
  }
  m.json.meshes = [{ primitives: [{ attributes: { POSITION: P }, indices: I, targets }], weights: [1, 0, 0, 0] }];
  m.json.nodes = [{ name: 'exported', mesh: 0 }];
  m.json.scenes = [{ nodes: [0] }];
  // "run": frames 0-2 looping at 8 fps: keys 0, 1/8, 2/8 and the loop's 3/8 back on frame 0
  const onehot = (ks) => ks.flatMap((k) => [0, 1, 2, 3].map((i) => (i === k ? 1 : 0)));
  const tr = m.accessor([0, 1 / 8, 2 / 8, 3 / 8].map(Math.fround), 'SCALAR');
  const tw = m.accessor([0, 0.25, 0.5], 'SCALAR');
  m.json.animations = [
    { name: 'run', channels: [{ sampler: 0, target: { node: 0, path: 'weights' } }],
      samplers: [{ input: tr, output: m.accessor(onehot([0, 1, 2, 0]), 'SCALAR') }],
      extras: { first: 0, last: 2, fps: 8, loop: true } },
    { name: 'wave', channels: [{ sampler: 0, target: { node: 0, path: 'weights' } }],
      samplers: [{ input: tw, output: m.accessor(onehot([3, 2, 3]), 'SCALAR') }],
      extras: { first: 3, last: 3, loop: false } },
  ];
  m.write('exported');
}
