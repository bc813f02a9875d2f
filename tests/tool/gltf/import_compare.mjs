// three.js as a judge of md2 import's glTF reader: loads a glTF with
// GLTFLoader, plays each animation with an AnimationMixer at the keyframe
// times the reader must sample (docs/tool.md, "md2 import: glTF"), works out
// on the CPU where every triangle corner of the default scene is (morph
// targets and skinning applied: Mesh.getVertexPosition, which a SkinnedMesh
// extends with applyBoneTransform), and compares that, triangle by
// triangle, with what the reader gave.
//
//   node import_compare.mjs --npm DIR (--dump DUMP.json | --md2 MD2.json)
//        [--fps N] [--anim NAME]... [--tolerance REL] [--uv-tolerance ABS] FILE
//
// --dump: import_dump's JSON (the reader's scene: glTF's axes, world space).
// --md2: the same shape, made from an `md2 import` output by libmd2
// (import_md2_dump), already turned back into glTF's axes and scale; its
// positions are on the MD2's grid, so each coordinate may be off by half a
// grid step (its "half_step": one [x, y, z] a frame, in glTF's axes) more,
// and its texture coordinates are texels: within one texel ("texel": 1 /
// the skin's width, 1 / its height). --no-uv: texture coordinates not
// compared (a skin packed from several images has them moved).
// Otherwise texture coordinates are compared within --uv-tolerance
// (default 1e-6).
//
// What is checked:
//  - the keyframes: for each animation kept (all of them, or those of
//    --anim in that order), its name (the glTF name, or animN), its rate
//    and its count: N = floor(duration * fps) + 1 keys at t0 + k / fps,
//    t0 and the duration from the clip's tracks, or last - first + 1 keys
//    at extras.fps when the animation's extras (md2 export's) give first,
//    last and fps > 0 and no --fps is given;
//  - the triangles: every three.js Mesh of the default scene (not Points
//    or Lines) in traversal order (depth-first, child order; a glTF mesh of
//    several primitives is a Group of one Mesh a primitive, in order), its
//    triangles in index order; a mesh whose world matrix has a negative
//    determinant, unless skinned, has its corners 0, 2, 1;
//  - every corner's position at every keyframe: Mesh.getVertexPosition,
//    then the mesh's world matrix, as three.js draws it (a SkinnedMesh's
//    bone transform ends in the inverse of that matrix, so that its own node
//    transform cancels, as the spec wants), within REL (default
//    1e-5) times the model's size (the largest side of its box over all
//    keyframes);
//  - every corner's texture coordinate (three.js's uv attribute, or 0, 0
//    for a mesh that has none);
//  - normals: the reader gives them when every mesh has them, and (but
//    for skinned meshes, which three.js skins on the GPU alone) each is the
//    morphed normal under the normal matrix of the mesh's world matrix,
//    within 1e-4 radians (--dump only).
// Images are not decoded (Node has no DOM): a plugin hands GLTFLoader an
// empty texture. Files a .gltf names are read from its folder. Exit 0 on
// success, 1 on a mismatch, 2 for a bad command line.
//
// SPDX-License-Identifier: MIT

import { readFileSync } from 'node:fs';
import path from 'node:path';

import { loadThree } from './three_node.mjs';

function usage(message) {
  console.error(`import_compare.mjs: ${message}\n` +
    'usage: node import_compare.mjs --npm DIR (--dump DUMP.json | --md2 MD2.json) [--fps N] ' +
    '[--anim NAME]... [--tolerance REL] [--uv-tolerance ABS] [--no-uv] FILE');
  process.exit(2);
}

let npm = null, dumpFile = null, md2 = false, file = null, fps = 10, fpsGiven = false;
let tolerance = 1e-5, uvTolerance = 1e-6, noUv = false;
const wanted = [];
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--npm' && i + 1 < argv.length) npm = argv[++i];
  else if (a === '--dump' && i + 1 < argv.length) dumpFile = argv[++i];
  else if (a === '--md2' && i + 1 < argv.length) { dumpFile = argv[++i]; md2 = true; }
  else if (a === '--fps' && i + 1 < argv.length) { fps = Number(argv[++i]); fpsGiven = true; }
  else if (a === '--anim' && i + 1 < argv.length) wanted.push(argv[++i]);
  else if (a === '--tolerance' && i + 1 < argv.length) tolerance = Number(argv[++i]);
  else if (a === '--uv-tolerance' && i + 1 < argv.length) uvTolerance = Number(argv[++i]);
  else if (a === '--no-uv') noUv = true;
  else if (a.startsWith('--') || file) usage(`unexpected argument ${a}`);
  else file = a;
}
if (!npm || !dumpFile || !file || !(fps > 0) || !(tolerance > 0) || !(uvTolerance > 0)) {
  usage('--npm, --dump or --md2, and a file are needed');
}

const { THREE, GLTFLoader } = await loadThree(npm);

const dump = JSON.parse(readFileSync(dumpFile, 'utf8'));
const bytes = readFileSync(file);
const data = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
const folder = path.dirname(path.resolve(file));
const isGlb = bytes.length >= 4 && bytes.toString('latin1', 0, 4) === 'glTF';
let json;
if (isGlb) {
  const jsonLength = bytes.readUInt32LE(12);
  json = JSON.parse(bytes.toString('utf8', 20, 20 + jsonLength));
} else {
  json = JSON.parse(bytes.toString('utf8'));
}

// Node's fetch reads no file: URLs: the files a .gltf names are handed to
// GLTFLoader as data: URIs of their bytes.
async function load() {
  const manager = new THREE.LoadingManager();
  manager.setURLModifier((url) => {
    if (url.startsWith('data:') || url.startsWith('blob:')) return url;
    const relative = url.startsWith('file:') ? new URL(url).pathname : decodeURIComponent(url);
    const full = path.isAbsolute(relative) ? relative : path.join(folder, relative);
    return `data:application/octet-stream;base64,${readFileSync(full).toString('base64')}`;
  });
  const loader = new GLTFLoader(manager);
  loader.register(() => ({
    name: 'md2_test_no_image_decoding',
    loadTexture() { return Promise.resolve(new THREE.Texture()); },
  }));
  const gltf = await new Promise((resolve, reject) => loader.parse(data, '', resolve, reject));
  gltf.scene.updateMatrixWorld(true);
  return gltf;
}

const problems = [];
function check(ok, message) {
  if (!ok) problems.push(message);
  return ok;
}
function finish() {
  if (problems.length) {
    console.log(`${file}: FAILED`);
    for (const p of problems.slice(0, 20)) console.log(`  ${p}`);
    process.exit(1);
  }
}

// ---- the keyframe times -----------------------------------------------------
const names = (json.animations ?? []).map((a, i) => (typeof a.name === 'string' ? a.name : `anim${i}`));
let picked = [];
if (wanted.length) {
  for (const w of wanted) {
    const i = names.indexOf(w);
    if (!check(i >= 0, `--anim ${w}: no such animation`)) finish();
    picked.push(i);
  }
} else {
  picked = names.map((_, i) => i);
}

const first = await load();
const plans = [];
for (const index of picked) {
  const clip = first.animations[index];
  let t0 = Infinity, t1 = -Infinity;
  for (const track of clip.tracks) {
    t0 = Math.min(t0, track.times[0]);
    t1 = Math.max(t1, track.times[track.times.length - 1]);
  }
  if (!clip.tracks.length) t0 = t1 = 0;
  const extras = json.animations[index].extras;
  let rate = fps, count;
  if (!fpsGiven && extras && typeof extras.fps === 'number' && extras.fps > 0 &&
      Number.isInteger(extras.first) && Number.isInteger(extras.last) && extras.first >= 0 &&
      extras.last >= extras.first) {
    rate = extras.fps;
    count = extras.last - extras.first + 1;
  } else {
    const x = (t1 - t0) * rate;
    count = Math.floor(x + 1e-6 * (1 + x)) + 1;
  }
  plans.push({ index, name: names[index], t0, fps: rate, count });
}
const frames = plans.length ? plans.reduce((n, p) => n + p.count, 0) : 1;
check(dump.frames === frames, `${dump.frames} keyframes, three.js's clips give ${frames}`);
// An MD2 keeps its animations in its frame names (walk1, walk2, ...), and
// md2 import's .anm file (--anm) names them as read, as the frames carry
// them: cut to fit 16 bytes with the number of the last frame ("anim3" of
// 6 keyframes stays "anim3", though its frames anim31 .. anim36 alone
// would give "anim"); a model without animations has one frame, named as
// md2 import names it.
const md2Name = (n, count) => (md2 ? n.slice(0, 15 - String(count).length) : n);
if (!(md2 && !plans.length)) {
  check(dump.anims.length === plans.length, `${dump.anims.length} animations, expected ${plans.length}`);
}
let at = 0;
plans.forEach((p, i) => {
  const a = dump.anims[i];
  if (!a) return;
  check(a.name === md2Name(p.name, p.count),
        `animation ${i} is "${a.name}", expected "${md2Name(p.name, p.count)}"`);
  check(a.first === at && a.frames === p.count,
        `animation ${p.name}: frames ${a.first} + ${a.frames}, expected ${at} + ${p.count}`);
  // (an MD2's .anm file holds a float)
  check(Math.abs(a.fps - p.fps) <= (md2 ? 1e-6 : 1e-9) * p.fps, `animation ${p.name}: ${a.fps} fps, expected ${p.fps}`);
  at += p.count;
});
finish();

// ---- the triangles and where their corners are -------------------------------
function meshesOf(gltf) {
  const list = [];
  gltf.scene.traverse((o) => { if (o.isMesh) list.push(o); });
  return list;
}
const v = new THREE.Vector3(), nv = new THREE.Vector3(), mv = new THREE.Vector3();
const normalMatrix = new THREE.Matrix3();
// The morphed normal of vertex i in world space (relative morph targets, as
// getVertexPosition morphs positions), or null for a SkinnedMesh.
function worldNormal(mesh, i) {
  const g = mesh.geometry;
  if (mesh.isSkinnedMesh || !g.attributes.normal) return null;
  nv.fromBufferAttribute(g.attributes.normal, i);
  (g.morphAttributes.normal ?? []).forEach((a, k) => {
    const w = mesh.morphTargetInfluences[k];
    if (w) nv.addScaledVector(mv.fromBufferAttribute(a, i), w);
  });
  return nv.applyMatrix3(normalMatrix.getNormalMatrix(mesh.matrixWorld)).normalize();
}
// corners[f]: x, y, z of every corner of every triangle at keyframe f
// (normals[f]: their normals, NaN for a skinned mesh's)
function corners(gltf, flips, normals) {
  const out = [];
  const nout = [];
  normals.push(nout);
  meshesOf(gltf).forEach((mesh, m) => {
    const g = mesh.geometry;
    const index = g.index;
    const n = index ? index.count : g.attributes.position.count;
    // a SkinnedMesh (attached bind mode) skins into its bindMatrixInverse,
    // the inverse of its matrixWorld: its own node transform cancels, as
    // the spec wants it ignored
    const world = mesh.matrixWorld;
    const order = flips[m] ? [0, 2, 1] : [0, 1, 2];
    for (let t = 0; t + 2 < n; t += 3) {
      for (const c of order) {
        const i = index ? index.getX(t + c) : t + c;
        mesh.getVertexPosition(i, v);
        v.applyMatrix4(world);
        out.push(v.x, v.y, v.z);
        const n = worldNormal(mesh, i);
        if (n) nout.push(n.x, n.y, n.z); else nout.push(NaN, NaN, NaN);
      }
    }
  });
  return out;
}

const meshes = meshesOf(first);
const flips = meshes.map((m) => !m.isSkinnedMesh && m.matrixWorld.determinant() < 0);
const uvs = [];
for (const [m, mesh] of meshes.entries()) {
  const g = mesh.geometry;
  const index = g.index;
  const n = index ? index.count : g.attributes.position.count;
  const uv = g.attributes.uv;
  const order = flips[m] ? [0, 2, 1] : [0, 1, 2];
  for (let t = 0; t + 2 < n; t += 3) {
    for (const c of order) {
      const i = index ? index.getX(t + c) : t + c;
      uvs.push(uv ? uv.getX(i) : 0, uv ? uv.getY(i) : 0);
    }
  }
}
const expected = [], expectedNormals = [];
if (!plans.length) {
  expected.push(corners(first, flips, expectedNormals));
} else {
  for (const p of plans) {
    const gltf = await load();
    const mixer = new THREE.AnimationMixer(gltf.scene);
    const action = mixer.clipAction(gltf.animations[p.index]);
    action.setLoop(THREE.LoopOnce, 1);
    action.clampWhenFinished = true;
    action.play();
    for (let k = 0; k < p.count; k++) {
      mixer.setTime(p.t0 + k / p.fps);
      gltf.scene.updateMatrixWorld(true);
      expected.push(corners(gltf, flips, expectedNormals));
    }
  }
}

const ntri = dump.triangles.length / 3;
check(3 * ntri * 3 === expected[0].length,
      `${ntri} triangles, three.js has ${expected[0].length / 9}`);
finish();

// the model's size: the largest side of its box over every keyframe
const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
for (const e of expected) {
  for (let i = 0; i < e.length; i++) {
    lo[i % 3] = Math.min(lo[i % 3], e[i]);
    hi[i % 3] = Math.max(hi[i % 3], e[i]);
  }
}
const size = Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2], 1e-30);
let worst = 0, bad = 0, firstBad = '';
expected.forEach((e, f) => {
  const pos = dump.positions[f];
  const half = md2 ? dump.half_step[f] : [0, 0, 0];
  for (let t = 0; t < ntri; t++) {
    for (let c = 0; c < 3; c++) {
      const vi = dump.triangles[3 * t + c];
      for (let a = 0; a < 3; a++) {
        const d = Math.abs(pos[3 * vi + a] - e[9 * t + 3 * c + a]);
        const allowed = tolerance * size + half[a] * (1 + 1e-6);
        const excess = d - half[a];
        if (!(excess <= worst)) worst = Number.isNaN(d) ? Infinity : excess;
        if (!(d <= allowed)) {
          if (!bad) {
            firstBad = `keyframe ${f}, triangle ${t}, corner ${c}: (${pos.slice(3 * vi, 3 * vi + 3).join(', ')}), ` +
                       `three.js (${e.slice(9 * t + 3 * c, 9 * t + 3 * c + 3).join(', ')})`;
          }
          bad++;
        }
      }
    }
  }
});
check(!bad, `${bad} coordinates off by more than ${tolerance} of the size ${size}` +
      `${md2 ? ' plus half a grid step' : ''}; first: ${firstBad}`);
let uvWorst = 0, uvBad = 0, uvFirst = '';
for (let t = 0; t < ntri; t++) {
  for (let c = 0; c < 3; c++) {
    const ui = dump.tri_uv[3 * t + c];
    const u = dump.uv ? dump.uv[2 * ui] : 0, w = dump.uv ? dump.uv[2 * ui + 1] : 0;
    const du = Math.abs(u - uvs[6 * t + 2 * c]), dv = Math.abs(w - uvs[6 * t + 2 * c + 1]);
    const d = Math.max(du, dv);
    if (!(d <= uvWorst)) uvWorst = Number.isNaN(d) ? Infinity : d;
    const ok = md2 ? du <= dump.texel[0] * (1 + 1e-6) && dv <= dump.texel[1] * (1 + 1e-6) : d <= uvTolerance;
    if (!ok && !noUv) {
      if (!uvBad) uvFirst = `triangle ${t}, corner ${c}: (${u}, ${w}), three.js (${uvs[6 * t + 2 * c]}, ${uvs[6 * t + 2 * c + 1]})`;
      uvBad++;
    }
  }
}
// normals: there when every mesh has them; directions within 1e-4 radians
// (skinned meshes' are not compared: three.js skins them on the GPU only)
const allNormals = meshes.every((m) => m.geometry.attributes.normal);
check(md2 || (dump.normals !== null) === allNormals,
      allNormals ? 'no normals, though every primitive has NORMAL' : 'normals, though a primitive has no NORMAL');
let nWorst = 0, nBad = 0, nFirst = '', nCompared = 0;
if (allNormals && dump.normals && !md2) {
  expectedNormals.forEach((e, f) => {
    for (let t = 0; t < ntri; t++) {
      for (let c = 0; c < 3; c++) {
        const q = 9 * t + 3 * c;
        if (Number.isNaN(e[q])) continue;
        nCompared++;
        const vi = dump.triangles[3 * t + c];
        const d = dump.normals[f].slice(3 * vi, 3 * vi + 3);
        const dot = d[0] * e[q] + d[1] * e[q + 1] + d[2] * e[q + 2];
        const cross = Math.hypot(d[1] * e[q + 2] - d[2] * e[q + 1], d[2] * e[q] - d[0] * e[q + 2],
                                 d[0] * e[q + 1] - d[1] * e[q]);
        const angle = Math.atan2(cross, dot);
        if (!(angle <= nWorst)) nWorst = Number.isNaN(angle) ? Infinity : angle;
        if (!(angle <= 1e-4)) {
          if (!nBad) nFirst = `keyframe ${f}, triangle ${t}, corner ${c}: (${d.join(', ')}), three.js (${e.slice(q, q + 3).join(', ')})`;
          nBad++;
        }
      }
    }
  });
}
check(!nBad, `${nBad} normals off by more than 1e-4 radians; first: ${nFirst}`);
check(!uvBad, `${uvBad} texture coordinates off by more than ${md2 ? 'one texel' : uvTolerance}; first: ${uvFirst}`);
finish();
console.log(`${file}: ${ntri} triangles, ${frames} keyframes as three.js has them: positions within ` +
            `${(worst / size).toExponential(2)} of the size ${size.toPrecision(4)}${md2 ? ' beyond half a step' : ''}, ` +
            (noUv ? 'texcoords not compared' : `texcoords within ${uvWorst.toExponential(2)}`) +
            (!allNormals ? ', no normals' : md2 ? '' : nCompared ? `, normals within ${nWorst.toExponential(2)} radians`
              : ', normals (of skinned meshes: not compared)'));
