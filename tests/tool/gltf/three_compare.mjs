// three.js as a judge of `md2 export` (tests/tool/export.cases): loads an
// exported .gltf or .glb with GLTFLoader, plays its animations with an
// AnimationMixer, morphs the vertices itself and compares them, vertex by
// vertex, with what libmd2 shows (export_reference's JSON).
//
//   node three_compare.mjs --npm DIR --reference REF.json
//        [--texture | --no-texture] [--tolerance REL] [--keyframe-error E]
//        [--max-targets N] [--targets N] FILE
//
// DIR holds node_modules/three (tests/run.sh installs it there). Checks:
//  - the meshes: relative morph targets, each as many vertices as libmd2's
//    welded mesh; at most N morph targets a mesh (--max-targets), N
//    different ones in all (--targets; default: at most one per keyframe,
//    with --keyframe-error 0 exactly one);
//  - at any time exactly one mesh is visible (its world transform does not
//    scale it to nothing): the pose is that mesh's;
//  - texture coordinates: three.js's uv attribute is REF's "uv" (md2_mesh's
//    u = s / skinwidth, v = t / skinheight), every value within 1e-6;
//  - with no animation playing (the mesh's default weights), the pose is
//    REF's "frame";
//  - one clip per animation of REF, with its name, the idle one first
//    (stand, else idle, ignoring case, else the first that loops), the
//    others in REF's order; each
//    played from its start (LoopRepeat for looping animations, LoopOnce
//    held at its end for the others) to every sample time of REF gives
//    REF's positions;
//  - positions (node transform applied: glTF's (x, y, z) is MD2's
//    (y, z, x)): every coordinate within REL (default 1e-5) times the
//    model's size (REF's "size", the largest side of its box over all
//    keyframes); the largest distance between a vertex and libmd2's is
//    reported too (up to sqrt(3) times the coordinate error). With
//    --keyframe-error E (model units; default: "default", md2 export's
//    own, half REF's "step"; 0 when the export kept every keyframe),
//    dropped keyframes may put a vertex up to E farther: E is added to the
//    coordinate bound. Normals are
//    compared as directions: within DEG degrees (--normal-tolerance,
//    default 3; the byte deltas' step, larger where a blend of two far
//    apart normals is short);
//  - --texture / --no-texture: the material has a base color map, or not;
//  - --winding (for closed models): the triangles run counter-clockwise
//    seen from outside, glTF's front faces: the signed volume of the
//    default pose is positive.
// Images are not decoded (Node has no DOM): a plugin hands GLTFLoader an
// empty texture for each glTF texture; geometry and animations are
// GLTFLoader's own. Exit 0 on success, 1 on a mismatch, 2 for a bad
// command line.
//
// SPDX-License-Identifier: MIT

import { readFileSync } from 'node:fs';

import { idleFirst, loadThree, playSamples } from './three_node.mjs';

function usage(message) {
  console.error(`three_compare.mjs: ${message}\n` +
    'usage: node three_compare.mjs --npm DIR --reference REF.json ' +
    '[--texture | --no-texture] [--winding] [--tolerance REL] [--normal-tolerance DEG] FILE');
  process.exit(2);
}

let npm = null, reference = null, file = null, texture = null, tolerance = 1e-5, winding = false;
let normalTolerance = 3, keyframeError = 'default', maxTargets = Infinity, targets = null;
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--npm' && i + 1 < argv.length) npm = argv[++i];
  else if (a === '--reference' && i + 1 < argv.length) reference = argv[++i];
  else if (a === '--tolerance' && i + 1 < argv.length) tolerance = Number(argv[++i]);
  else if (a === '--normal-tolerance' && i + 1 < argv.length) normalTolerance = Number(argv[++i]);
  else if (a === '--keyframe-error' && i + 1 < argv.length) keyframeError = argv[++i];
  else if (a === '--max-targets' && i + 1 < argv.length) maxTargets = Number(argv[++i]);
  else if (a === '--targets' && i + 1 < argv.length) targets = Number(argv[++i]);
  else if (a === '--texture') texture = true;
  else if (a === '--no-texture') texture = false;
  else if (a === '--winding') winding = true;
  else if (a.startsWith('--') || file) usage(`unexpected argument ${a}`);
  else file = a;
}
if (!npm || !reference || !file || !(tolerance > 0) || !(normalTolerance > 0)) {
  usage('--npm, --reference and a file are needed');
}

const { THREE, GLTFLoader } = await loadThree(npm);

const ref = JSON.parse(readFileSync(reference, 'utf8'));
keyframeError = keyframeError === 'default' ? ref.step / 2 : Number(keyframeError);
if (!(keyframeError >= 0) || !(maxTargets > 0)) usage('bad --keyframe-error or --max-targets');
const bytes = readFileSync(file);
const data = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);

const loader = new GLTFLoader();
let texturesAsked = 0;
loader.register(() => ({
  name: 'md2_test_no_image_decoding',
  loadTexture() {
    texturesAsked++;
    return Promise.resolve(new THREE.Texture());
  },
}));
const gltf = await new Promise((resolve, reject) => loader.parse(data, '', resolve, reject));

const problems = [];
function check(ok, message) {
  if (!ok) problems.push(message);
  return ok;
}

const meshes = [];
gltf.scene.traverse((o) => { if (o.isMesh) meshes.push(o); });
if (!meshes.length) {
  console.log(`${file}: FAILED: no mesh`);
  process.exit(1);
}
// The one mesh shown now: the others are scaled to nothing.
function shownMesh(label) {
  gltf.scene.updateMatrixWorld(true);
  const shown = meshes.filter((m) => Math.abs(m.matrixWorld.determinant()) > 0);
  check(shown.length === 1, `${label}: ${shown.length} meshes shown, not one`);
  return shown[0] ?? meshes[0];
}
let mesh = shownMesh('at load');
const geom = mesh.geometry;
const base = geom.attributes.position;
const baseNormal = geom.attributes.normal;
const count = base.count;
const names = new Set();
for (const m of meshes) {
  const g = m.geometry, mp = g.morphAttributes.position ?? [], mn = g.morphAttributes.normal ?? [];
  check(g.attributes.position.count === ref.vertices,
        `${g.attributes.position.count} vertices, libmd2's mesh has ${ref.vertices}`);
  check(mp.length <= maxTargets, `a mesh with ${mp.length} morph targets, more than ${maxTargets}`);
  check(mn.length === mp.length, 'not every morph target has normals');
  check(mp.length === 0 || g.morphTargetsRelative === true, 'morph targets are not relative');
  // the same target in several meshes is the same accessor: count it once
  for (const t of mp) names.add(t);
}
const distinct = new Set([...names].map((t) => t.array)).size;
if (targets !== null) check(distinct === targets, `${distinct} morph targets, expected ${targets}`);
else if (keyframeError > 0) check(distinct <= ref.frames, `${distinct} morph targets for ${ref.frames} keyframes`);
else check(distinct === ref.frames, `${distinct} morph targets, the model has ${ref.frames} keyframes`);
if (texture !== null) {
  const map = mesh.material && mesh.material.map;
  check(texture ? Boolean(map) && texturesAsked === 1 : !map && texturesAsked === 0,
        texture ? 'expected a textured material' : 'expected no texture');
}
// Texture coordinates: the same floats as md2_mesh's (written as floats,
// read back as floats), so within 1e-6 holds with room to spare.
const uv = geom.attributes.uv;
let uvError = 0;
if (check(uv && uv.count === count && uv.itemSize === 2, 'no uv attribute of one pair a vertex') &&
    check(Array.isArray(ref.uv) && ref.uv.length === 2 * count,
          'the reference has no uv of one pair a vertex')) {
  let firstBad = -1;
  for (let i = 0; i < count; i++) {
    const du = Math.abs(uv.getX(i) - ref.uv[2 * i]), dv = Math.abs(uv.getY(i) - ref.uv[2 * i + 1]);
    const d = Math.max(du, dv);
    if (!(d <= uvError)) uvError = Number.isNaN(d) ? Infinity : d;
    if (!(d <= 1e-6) && firstBad < 0) firstBad = i;
  }
  if (firstBad >= 0) {
    check(false, `uv of vertex ${firstBad} is (${uv.getX(firstBad)}, ${uv.getY(firstBad)}), ` +
                 `libmd2's (${ref.uv[2 * firstBad]}, ${ref.uv[2 * firstBad + 1]}); ` +
                 `largest difference ${uvError.toExponential(3)}, more than 1e-6`);
  }
}
if (problems.length) {
  console.log(`${file}: FAILED:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}

const v = new THREE.Vector3();
const n = new THREE.Vector3();

// The morphed pose of mesh m, as a renderer computes it: base + sum of
// weight * target (getX/getY/getZ denormalise normalized attributes), then
// the node's transform.
function pose(m) {
  const influences = m.morphTargetInfluences ?? [];
  const g = m.geometry, b = g.attributes.position, bn = g.attributes.normal;
  const mp = g.morphAttributes.position ?? [], mn = g.morphAttributes.normal ?? [];
  const world = m.matrixWorld;
  const normalMatrix = new THREE.Matrix3().getNormalMatrix(world);
  const positions = new Float64Array(3 * count);
  const normals = new Float64Array(3 * count);
  const active = [];
  for (let k = 0; k < influences.length; k++) if (influences[k] !== 0) active.push(k);
  for (let i = 0; i < count; i++) {
    let x = b.getX(i), y = b.getY(i), z = b.getZ(i);
    let nx = bn.getX(i), ny = bn.getY(i), nz = bn.getZ(i);
    for (const k of active) {
      const w = influences[k];
      x += w * mp[k].getX(i);
      y += w * mp[k].getY(i);
      z += w * mp[k].getZ(i);
      nx += w * mn[k].getX(i);
      ny += w * mn[k].getY(i);
      nz += w * mn[k].getZ(i);
    }
    v.set(x, y, z).applyMatrix4(world);
    n.set(nx, ny, nz).applyMatrix3(normalMatrix).normalize();
    positions[3 * i] = v.x; positions[3 * i + 1] = v.y; positions[3 * i + 2] = v.z;
    normals[3 * i] = n.x; normals[3 * i + 1] = n.y; normals[3 * i + 2] = n.z;
  }
  return { positions, normals };
}

const stats = { maxError: 0, maxDistance: 0, maxAngle: 0, samples: 0, where: '' };
// glTF (x, y, z) = MD2 (y, z, x)
const axis = [1, 2, 0];
function compare(got, want, label) {
  let worst = 0, worstDistance = 0, worstAngle = 0;
  for (let i = 0; i < count; i++) {
    let d2 = 0, dot = 0, len = 0;
    for (let c = 0; c < 3; c++) {
      const d = got.positions[3 * i + c] - want.positions[3 * i + axis[c]];
      d2 += d * d;
      if (Math.abs(d) > worst) worst = Math.abs(d);
      const wn = want.normals[3 * i + axis[c]];
      dot += got.normals[3 * i + c] * wn;
      len += wn * wn;
    }
    if (Math.sqrt(d2) > worstDistance) worstDistance = Math.sqrt(d2);
    const angle = Math.acos(Math.min(1, Math.max(-1, dot / Math.sqrt(len))));
    if (angle > worstAngle) worstAngle = angle;
  }
  stats.samples++;
  if (worst > stats.maxError) { stats.maxError = worst; stats.where = label; }
  if (worstDistance > stats.maxDistance) stats.maxDistance = worstDistance;
  if (worstAngle > stats.maxAngle) stats.maxAngle = worstAngle;
  check(worstAngle * 180 / Math.PI <= normalTolerance,
        `${label}: a normal is ${(worstAngle * 180 / Math.PI).toFixed(3)} degrees from libmd2's ` +
        `(more than ${normalTolerance})`);
  check(worst <= tolerance * ref.size + keyframeError,
        `${label}: a coordinate is ${worst.toExponential(3)} from libmd2's ` +
        `(${(worst / ref.size).toExponential(3)} of the size, more than ${tolerance}` +
        (keyframeError > 0 ? ` plus the keyframe error ${keyframeError}` : '') + ')');
}

// The mesh's default weights: keyframe ref.frame.index.
const rest = pose(mesh);
compare(rest, ref.frame, `default pose (keyframe ${ref.frame.index})`);
let volume = 0;
if (winding) {
  const index = geom.index;
  const p = (i, c) => rest.positions[3 * index.getX(i) + c];
  for (let t = 0; t + 2 < index.count; t += 3) {
    const [ax, ay, az] = [p(t, 0), p(t, 1), p(t, 2)];
    const [bx, by, bz] = [p(t + 1, 0), p(t + 1, 1), p(t + 1, 2)];
    const [cx, cy, cz] = [p(t + 2, 0), p(t + 2, 1), p(t + 2, 2)];
    volume += (ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx)) / 6;
  }
  check(volume > 0, `the signed volume of the default pose is ${volume}: triangles are not ` +
                    'counter-clockwise seen from outside');
}

const order = idleFirst(ref.anims);
const clipCount = playSamples(THREE, gltf, order, check,
  (s, label) => compare(pose(shownMesh(label)), s, label));

const rel = stats.maxError / ref.size;
console.log(`${file}: ${meshes.length} mesh(es), ${distinct} morph targets, ` +
            `${clipCount} clips, ${stats.samples} poses of ${count} vertices; ` +
            `largest coordinate error ${stats.maxError.toExponential(3)} = ` +
            `${rel.toExponential(3)} of the model's size ${ref.size.toPrecision(6)} ` +
            `(at most ${tolerance} allowed` +
            (keyframeError > 0 ? `, plus ${keyframeError} of keyframe error` : '') +
            `; ${stats.where}); ` +
            `uv within ${uvError.toExponential(3)} of libmd2's (at most 1e-6 allowed); ` +
            `largest vertex distance ${stats.maxDistance.toExponential(3)} = ` +
            `${(stats.maxDistance / ref.size).toExponential(3)} of the size; largest normal angle ` +
            `${(stats.maxAngle * 180 / Math.PI).toFixed(3)} degrees (at most ${normalTolerance} allowed)` +
            (winding ? `; signed volume ${volume.toPrecision(6)} (counter-clockwise)` : '') +
            (problems.length ? ': FAILED' : ': ok'));
for (const p of problems.slice(0, 20)) console.log(`  ${p}`);
if (problems.length > 20) console.log(`  ... and ${problems.length - 20} more`);
process.exit(problems.length ? 1 : 0);
