// three.js as a judge of `md2 export` (tests/tool/export.cases): loads an
// exported .gltf or .glb with GLTFLoader, plays its animations with an
// AnimationMixer, morphs the vertices itself and compares them, vertex by
// vertex, with what libmd2 shows (export_reference's JSON).
//
//   node three_compare.mjs --npm DIR --reference REF.json
//        [--texture | --no-texture] [--tolerance REL] FILE
//
// DIR holds node_modules/three (tests/run.sh installs it there). Checks:
//  - the mesh: one morph target per keyframe, relative targets, and as
//    many vertices as libmd2's welded mesh;
//  - texture coordinates: three.js's uv attribute is REF's "uv" (md2_mesh's
//    u = s / skinwidth, v = t / skinheight), every value within 1e-6;
//  - with no animation playing (the mesh's default weights), the pose is
//    REF's "frame";
//  - one clip per animation of REF, in its order and with its name; each
//    played from its start (LoopRepeat for looping animations, LoopOnce
//    held at its end for the others) to every sample time of REF gives
//    REF's positions;
//  - positions (node transform applied: glTF's (x, y, z) is MD2's
//    (y, z, x)): every coordinate within REL (default 1e-5) times the
//    model's size (REF's "size", the largest side of its box over all
//    keyframes); the largest distance between a vertex and libmd2's is
//    reported too (up to sqrt(3) times the coordinate error). Normals are
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

import { loadThree, playSamples } from './three_node.mjs';

function usage(message) {
  console.error(`three_compare.mjs: ${message}\n` +
    'usage: node three_compare.mjs --npm DIR --reference REF.json ' +
    '[--texture | --no-texture] [--winding] [--tolerance REL] [--normal-tolerance DEG] FILE');
  process.exit(2);
}

let npm = null, reference = null, file = null, texture = null, tolerance = 1e-5, winding = false;
let normalTolerance = 3;
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--npm' && i + 1 < argv.length) npm = argv[++i];
  else if (a === '--reference' && i + 1 < argv.length) reference = argv[++i];
  else if (a === '--tolerance' && i + 1 < argv.length) tolerance = Number(argv[++i]);
  else if (a === '--normal-tolerance' && i + 1 < argv.length) normalTolerance = Number(argv[++i]);
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

let mesh = null;
gltf.scene.traverse((o) => { if (o.isMesh && !mesh) mesh = o; });
if (!mesh) {
  console.log(`${file}: FAILED: no mesh`);
  process.exit(1);
}
gltf.scene.updateMatrixWorld(true);
const geom = mesh.geometry;
const base = geom.attributes.position;
const baseNormal = geom.attributes.normal;
const morphPos = geom.morphAttributes.position ?? [];
const morphNrm = geom.morphAttributes.normal ?? [];
const count = base.count;
check(count === ref.vertices, `${count} vertices, libmd2's mesh has ${ref.vertices}`);
check(morphPos.length === ref.frames, `${morphPos.length} morph targets, the model has ${ref.frames} keyframes`);
check(morphNrm.length === morphPos.length, 'not every morph target has normals');
check(geom.morphTargetsRelative === true, 'morph targets are not relative');
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

const world = mesh.matrixWorld;
const normalMatrix = new THREE.Matrix3().getNormalMatrix(world);
const v = new THREE.Vector3();
const n = new THREE.Vector3();

// The morphed pose, as a renderer computes it: base + sum of weight *
// target (getX/getY/getZ denormalise normalized attributes), then the
// node's transform.
function pose(influences) {
  const positions = new Float64Array(3 * count);
  const normals = new Float64Array(3 * count);
  const active = [];
  for (let k = 0; k < influences.length; k++) if (influences[k] !== 0) active.push(k);
  for (let i = 0; i < count; i++) {
    let x = base.getX(i), y = base.getY(i), z = base.getZ(i);
    let nx = baseNormal.getX(i), ny = baseNormal.getY(i), nz = baseNormal.getZ(i);
    for (const k of active) {
      const w = influences[k];
      x += w * morphPos[k].getX(i);
      y += w * morphPos[k].getY(i);
      z += w * morphPos[k].getZ(i);
      nx += w * morphNrm[k].getX(i);
      ny += w * morphNrm[k].getY(i);
      nz += w * morphNrm[k].getZ(i);
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
  check(worst <= tolerance * ref.size,
        `${label}: a coordinate is ${worst.toExponential(3)} from libmd2's ` +
        `(${(worst / ref.size).toExponential(3)} of the size, more than ${tolerance})`);
}

// The mesh's default weights: keyframe ref.frame.index.
const rest = pose(mesh.morphTargetInfluences);
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

const clipCount = playSamples(THREE, gltf, ref.anims, check,
  (s, label) => compare(pose(mesh.morphTargetInfluences), s, label));

const rel = stats.maxError / ref.size;
console.log(`${file}: ${clipCount} clips, ${stats.samples} poses of ${count} vertices; ` +
            `largest coordinate error ${stats.maxError.toExponential(3)} = ` +
            `${rel.toExponential(3)} of the model's size ${ref.size.toPrecision(6)} ` +
            `(at most ${tolerance} allowed; ${stats.where}); ` +
            `uv within ${uvError.toExponential(3)} of libmd2's (at most 1e-6 allowed); ` +
            `largest vertex distance ${stats.maxDistance.toExponential(3)} = ` +
            `${(stats.maxDistance / ref.size).toExponential(3)} of the size; largest normal angle ` +
            `${(stats.maxAngle * 180 / Math.PI).toFixed(3)} degrees (at most ${normalTolerance} allowed)` +
            (winding ? `; signed volume ${volume.toPrecision(6)} (counter-clockwise)` : '') +
            (problems.length ? ': FAILED' : ': ok'));
for (const p of problems.slice(0, 20)) console.log(`  ${p}`);
if (problems.length > 20) console.log(`  ... and ${problems.length - 20} more`);
process.exit(problems.length ? 1 : 0);
