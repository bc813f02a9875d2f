// The layout `md2 export` promises for glTF (docs/tool.md, "md2 export"),
// read from the file's JSON: what the validator and three.js accept but do
// not pin down. Needs node only.
//
//   node layout.mjs --reference REF.json [--texture | --no-texture] [--compact] FILE
//
// REF.json is export_reference's (the model's path, keyframes and their
// names, the exported animations with their ranges, rates and loop flags,
// the keyframe of --frame). The default layout: no extension, float
// positions and normals, dense float morph targets, node scale 1 (none
// written), the base mesh the first keyframe of the first (default)
// animation (the keyframe of --frame without animations); --compact: the
// quantised layout (KHR_mesh_quantization, sparse SHORT and BYTE deltas,
// a uniform node scale). Both: one morph target per kept keyframe, named
// after it, in keyframe order (every keyframe of the model unless
// md2 export dropped some), the default weights showing --frame's, each
// animation's keys a subset of its keyframes starting with its first and
// ending where md2_player ends. Checks too: the node is
// named after the model's file (without folders and extension), the morph
// targets are named after the frames (mesh.extras.targetNames), and the
// material "skin" has the skin as its base colour texture with no sampler
// (none anywhere in the file), or, without a skin, no texture, image or
// sampler at all. Exit 0 if everything holds, 1 otherwise, 2 for a bad
// command line.
//
// SPDX-License-Identifier: MIT

import { readFileSync } from 'node:fs';

function usage(message) {
  console.error(`layout.mjs: ${message}\n` +
    'usage: node layout.mjs --reference REF.json [--texture | --no-texture] FILE');
  process.exit(2);
}

let reference = null, file = null, texture = null, compact = false;
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--reference' && i + 1 < argv.length) reference = argv[++i];
  else if (a === '--compact') compact = true;
  else if (a === '--texture') texture = true;
  else if (a === '--no-texture') texture = false;
  else if (a.startsWith('--') || file) usage(`unexpected argument ${a}`);
  else file = a;
}
if (!reference || !file) usage('--reference and a file are needed');

const ref = JSON.parse(readFileSync(reference, 'utf8'));
const bytes = readFileSync(file);
let json, binary = false;
if (bytes.length >= 20 && bytes.readUInt32LE(0) === 0x46546c67) {
  binary = true;
  json = JSON.parse(bytes.subarray(20, 20 + bytes.readUInt32LE(12)).toString('utf8'));
} else {
  json = JSON.parse(bytes.toString('utf8'));
}

const problems = [];
function check(ok, message) {
  if (!ok) problems.push(message);
}
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

check(json.asset && json.asset.version === '2.0', 'asset.version is not "2.0"');
if (compact) {
  check(same(json.extensionsUsed, ['KHR_mesh_quantization']) &&
        same(json.extensionsRequired, ['KHR_mesh_quantization']),
        'KHR_mesh_quantization is not the one extension used and required');
} else {
  check(json.extensionsUsed === undefined && json.extensionsRequired === undefined,
        'the default layout uses an extension');
}
// the model's node is the scene's one root; the nodes after it are its
// tags' (three_tags.mjs checks them)
check(json.scenes.length === 1 && same(json.scenes[0].nodes, [0]) && json.nodes.length >= 1,
      'not one scene of one node');
const node = json.nodes[0];
// the model's file name without folders and extension (a leading dot is
// part of the name)
const modelBase = String(ref.model).split(/[\\/]/).pop();
const modelDot = modelBase.lastIndexOf('.');
const modelName = modelDot > 0 ? modelBase.slice(0, modelDot) : modelBase;
check(node.name === modelName, `the node is named ${JSON.stringify(node.name)}, not after the ` +
      `model's file (${JSON.stringify(modelName)})`);
check(node.mesh === 0 && (compact ? Array.isArray(node.scale) && node.scale.length === 3 &&
      node.scale[0] > 0 && node.scale[0] === node.scale[1] && node.scale[1] === node.scale[2]
      : node.scale === undefined) &&
      node.rotation === undefined && node.translation === undefined && node.matrix === undefined,
      `the node has not mesh 0 and a uniform scale alone: ${JSON.stringify(node)}`);

const acc = json.accessors;
const mesh = json.meshes[0];
const prim = mesh.primitives[0];
check(json.meshes.length === 1 && mesh.primitives.length === 1 &&
      (prim.mode === undefined || prim.mode === 4), 'not one mesh of one triangle list');
const pos = acc[prim.attributes.POSITION], nrm = acc[prim.attributes.NORMAL];
const uv = acc[prim.attributes.TEXCOORD_0], idx = acc[prim.indices];
check(pos.componentType === 5126 && nrm.componentType === 5126 && uv.componentType === 5126 &&
      pos.count === ref.vertices, 'base POSITION, NORMAL, TEXCOORD_0 are not float, or not one a welded vertex');
check(idx.componentType === (ref.vertices <= 65535 ? 5123 : 5125), 'indices are not the narrowest type');

const targets = prim.targets ?? [];
const names = mesh.extras && mesh.extras.targetNames;
check(targets.length >= 1 && targets.length <= ref.frames,
      `${targets.length} morph targets for ${ref.frames} keyframes`);
// the keyframe of each target: its name, matched in keyframe order
const targetFrame = [];
if (Array.isArray(names) && names.length === targets.length && Array.isArray(ref.frameNames)) {
  let f = 0;
  for (const name of names) {
    while (f < ref.frameNames.length && ref.frameNames[f] !== name) f++;
    targetFrame.push(f);
    f++;
  }
  check(targetFrame.every((f) => f < ref.frameNames.length),
        'mesh.extras.targetNames are not frame names in keyframe order');
} else {
  check(false, 'mesh.extras.targetNames is not one name a morph target (or no reference frameNames)');
}
const sparseIndexViews = new Set();
let morphBytes = 0;
targets.forEach((t, k) => {
  const p = acc[t.POSITION], n = acc[t.NORMAL];
  if (!compact) {
    const ok = p && n && p.componentType === 5126 && n.componentType === 5126 &&
      p.type === 'VEC3' && n.type === 'VEC3' && !p.sparse && !n.sparse &&
      p.bufferView !== undefined && n.bufferView !== undefined &&
      p.count === ref.vertices && n.count === ref.vertices &&
      Array.isArray(p.min) && Array.isArray(p.max);
    check(ok, `morph target ${k}: not dense float positions and normals`);
    morphBytes += 24 * ref.vertices;
    return;
  }
  const ok = p && n && p.componentType === 5122 && !p.normalized && p.type === 'VEC3' &&
    p.bufferView === undefined && p.sparse && p.sparse.count === ref.vertices &&
    Array.isArray(p.min) && Array.isArray(p.max) &&
    n.componentType === 5120 && n.normalized === true && n.bufferView === undefined &&
    n.sparse && n.sparse.count === ref.vertices;
  if (!ok) { check(false, `morph target ${k}: not sparse SHORT positions and BYTE normalized normals`); return; }
  sparseIndexViews.add(p.sparse.indices.bufferView);
  sparseIndexViews.add(n.sparse.indices.bufferView);
  morphBytes += 6 * ref.vertices + 3 * ref.vertices;
});
if (compact) check(sparseIndexViews.size === 1, 'the morph targets do not share one sparse index list');
const shownTarget = targetFrame.indexOf(ref.frame.index);
check(shownTarget >= 0, `keyframe ${ref.frame.index} (--frame) is not a morph target`);
const weights = mesh.weights ?? [];
check(weights.length === targets.length && weights.every((w, k) => w === (k === shownTarget ? 1 : 0)),
      `mesh.weights do not show keyframe ${ref.frame.index} alone`);

const anims = json.animations ?? [];
check(anims.length === ref.anims.length, `${anims.length} animations, expected ${ref.anims.length}`);
// the idle animation first (stand, idle, else the first that loops)
let idle = ref.anims.findIndex((an) => an.name.toLowerCase() === 'stand');
if (idle < 0) idle = ref.anims.findIndex((an) => an.name.toLowerCase() === 'idle');
if (idle < 0) idle = ref.anims.findIndex((an) => an.loop);
if (idle < 0) idle = 0;
const order = ref.anims.length ? [ref.anims[idle], ...ref.anims.filter((_, i) => i !== idle)] : [];
if (!compact) {
  // the base POSITION, read from the buffer, is the default animation's
  // first keyframe (its pose at time 0 in REF), or --frame's without
  // animations, in glTF axes (x, y, z) = MD2 (y, z, x) and model units
  const want = order.length ? order[0].samples[0] : ref.frame;
  const bin = binary ? bytes.subarray(28 + bytes.readUInt32LE(12))
    : Buffer.from(String(json.buffers[0].uri).split(',')[1], 'base64');
  const view = json.bufferViews[pos.bufferView];
  const stride = view.byteStride ?? 12, at = (view.byteOffset ?? 0) + (pos.byteOffset ?? 0);
  const axis = [1, 2, 0];
  let worst = 0;
  for (let i = 0; i < ref.vertices; i++) {
    for (let c = 0; c < 3; c++) {
      const d = Math.abs(bin.readFloatLE(at + i * stride + 4 * c) - want.positions[3 * i + axis[c]]);
      if (!(d <= worst)) worst = Number.isNaN(d) ? Infinity : d;
    }
  }
  check(order.length === 0 || want.time === 0, 'the reference does not start at time 0');
  check(worst <= 1e-6 * ref.size, `the base mesh is ${worst} from the ` +
        `${order.length ? `first keyframe of ${order[0].name}` : `keyframe ${ref.frame.index}`}`);
}
anims.forEach((an, a) => {
  const want = order[a];
  if (!want) return;
  const n = want.last - want.first + 1;
  const full = want.fps > 0 ? (want.loop || n === 1 ? n + 1 : n) : 2;
  const ch = an.channels;
  const s = an.samplers[0];
  const input = acc[s.input], output = acc[s.output];
  // (the channels after the first animate the tags' nodes: never node 0)
  check(an.name === want.name && ch[0].sampler === 0 && ch[0].target.node === 0 &&
        ch[0].target.path === 'weights' && ch.slice(1).every((c) => c.target.node !== 0) &&
        (s.interpolation === undefined || s.interpolation === 'LINEAR'),
        `animation ${a}: not one LINEAR weights channel named ${want.name}`);
  const end = want.fps > 0 ? Math.fround((full - 1) / want.fps) : 1;
  const keys = input.count;
  check(input.componentType === 5126 && keys >= 2 && keys <= full && input.min[0] === 0 &&
        Math.fround(input.max[0]) === end, `animation ${want.name}: ${input.count} keys ending at ${input.max[0]}, ` +
        `expected at most ${full} ending at ${end}`);
  check(output.componentType === 5121 && output.normalized === true &&
        output.count === keys * targets.length && output.sparse && output.sparse.count === keys &&
        output.bufferView === undefined,
        `animation ${want.name}: weights are not sparse UNSIGNED_BYTE normalized, one a key`);
  const x = an.extras ?? {};
  check(x.first === want.first && x.last === want.last && x.loop === want.loop &&
        Math.fround(x.fps) === Math.fround(want.fps),
        `animation ${want.name}: extras ${JSON.stringify(x)} do not match`);
});

const material = json.materials[0];
check(json.materials.length === 1 && prim.material === 0 && material.name === 'skin' &&
      material.pbrMetallicRoughness.metallicFactor === 0,
      'not one material "skin" with metallicFactor 0');
const baseColor = material.pbrMetallicRoughness.baseColorTexture;
const textured = Boolean(baseColor);
if (texture !== null) check(textured === texture, textured ? 'a texture, expected none' : 'no texture');
// no sampler: repeat wrapping and the viewer's filtering (docs/tool.md)
check(json.samplers === undefined, `a samplers array: ${JSON.stringify(json.samplers)}`);
if (textured) {
  const tex = json.textures && json.textures[baseColor.index];
  check(baseColor.index === 0 && (baseColor.texCoord ?? 0) === 0 && json.textures.length === 1 &&
        tex && tex.sampler === undefined,
        `the base colour texture is not texture 0 on TEXCOORD_0 without a sampler: ` +
        `${JSON.stringify(baseColor)}, ${JSON.stringify(json.textures)}`);
  const image = tex && json.images && json.images[tex.source];
  check(image && json.images.length === 1 && image.mimeType === 'image/png' &&
        image.bufferView !== undefined, 'the image is not one PNG inside the buffer');
} else {
  check(json.textures === undefined && json.images === undefined,
        'no skin, but a textures or images array');
}
check(json.buffers.length === 1, 'not one buffer');
if (binary) check(json.buffers[0].uri === undefined, 'a .glb buffer with a uri');
else check(String(json.buffers[0].uri).startsWith('data:application/octet-stream;base64,'),
           'the .gltf buffer is not a base64 data: URI');

console.log(`${file}: ${targets.length} ${compact ? 'sparse' : 'float'} morph targets (${morphBytes} bytes of deltas, ` +
            `${(morphBytes / Math.max(1, targets.length * ref.vertices)).toFixed(0)} a vertex), ` +
            `${anims.length} animations, node ${JSON.stringify(node.name)} scale ${node.scale ? node.scale[0] : 1}, ` +
            `target names ${JSON.stringify(names ? names[0] : null)}..` +
            `${JSON.stringify(names ? names[names.length - 1] : null)}` +
            `${textured ? ', textured, no sampler' : ', untextured'}` +
            (problems.length ? ': FAILED' : ': ok'));
for (const p of problems) console.log(`  ${p}`);
process.exit(problems.length ? 1 : 0);
