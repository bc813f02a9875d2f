// three.js as a judge of `md2 export`'s tags and attached models
// (tests/tool/export.cases): loads an exported .gltf or .glb with
// GLTFLoader, plays its clips with an AnimationMixer and compares the tag
// nodes and attached meshes with what libmd2 shows
// (export_tags_reference's JSON).
//
//   node three_tags.mjs --npm DIR --reference REF.json [--tolerance REL] [--orthonormal] FILE
//
// Checks:
//  - one node per tag of REF, named after it, a child of the model's node
//    (named REF's "model");
//  - each attached model of REF: a mesh under its tag's node, named after
//    it, with REF's number of vertices;
//  - with no clip playing, and in every clip at each of REF's sample times
//    (its keyframes): each tag node's world matrix is libmd2's tag matrix
//    (md2_tag_lerp / md2_player_tag) in glTF's axes (glTF (x, y, z) = MD2
//    (y, z, x): P M P^T): rotation elements within REL, translation within
//    REL times the model's size (REF's "size"); and each attached mesh's
//    morphed vertices, world matrix applied, are libmd2's
//    (md2_player_pose_linked placed by md2_attach) within REL times the
//    size. REL defaults to 1e-5 (docs/tool.md). --orthonormal: REF's tag
//    axes are first made a rotation as docs/tool.md says the export does
//    (forward normalised, right made orthogonal to it and normalised, up
//    their cross product), for files whose axes are not orthonormal (no
//    attached models then: REF places them with the axes as they are).
// Images are not decoded (a plugin hands GLTFLoader empty textures). Exit
// 0 on success, 1 on a mismatch, 2 for a bad command line.
//
// SPDX-License-Identifier: MIT

import { readFileSync } from 'node:fs';

import { idleFirst, loadThree, playSamples } from './three_node.mjs';

function usage(message) {
  console.error(`three_tags.mjs: ${message}\n` +
    'usage: node three_tags.mjs --npm DIR --reference REF.json [--tolerance REL] [--orthonormal] FILE');
  process.exit(2);
}

let npm = null, reference = null, file = null, tolerance = 1e-5, orthonormal = false;
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--npm' && i + 1 < argv.length) npm = argv[++i];
  else if (a === '--reference' && i + 1 < argv.length) reference = argv[++i];
  else if (a === '--tolerance' && i + 1 < argv.length) tolerance = Number(argv[++i]);
  else if (a === '--orthonormal') orthonormal = true;
  else if (a.startsWith('--') || file) usage(`unexpected argument ${a}`);
  else file = a;
}
if (!npm || !reference || !file || !(tolerance > 0)) usage('--npm, --reference and a file are needed');

// The rotation the export makes of a tag matrix m (column-major 4x4).
function rotationOf(m) {
  const col = (c) => [m[4 * c], m[4 * c + 1], m[4 * c + 2]];
  const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const unit = (a) => { const n = Math.sqrt(dot(a, a)); return a.map((x) => x / n); };
  const f = unit(col(0)), r0 = col(1), d = dot(r0, f);
  const r = unit([r0[0] - d * f[0], r0[1] - d * f[1], r0[2] - d * f[2]]);
  const u = [f[1] * r[2] - f[2] * r[1], f[2] * r[0] - f[0] * r[2], f[0] * r[1] - f[1] * r[0]];
  return [...f, 0, ...r, 0, ...u, 0, m[12], m[13], m[14], 1];
}

const { THREE, GLTFLoader } = await loadThree(npm);
const ref = JSON.parse(readFileSync(reference, 'utf8'));
const bytes = readFileSync(file);
const data = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
const loader = new GLTFLoader();
loader.register(() => ({
  name: 'md2_test_no_image_decoding',
  loadTexture() { return Promise.resolve(new THREE.Texture()); },
}));
const gltf = await new Promise((resolve, reject) => loader.parse(data, '', resolve, reject));

const problems = [];
function check(ok, message) {
  if (!ok) problems.push(message);
  return ok;
}
const name = (s) => THREE.PropertyBinding.sanitizeNodeName(s);

const tagNodes = ref.tags.map((t) => gltf.scene.getObjectByName(name(t)));
ref.tags.forEach((t, k) => {
  const node = tagNodes[k];
  if (check(node, `no node named after tag '${t}'`)) {
    check(node.parent && node.parent.name === name(ref.model),
          `tag node '${t}' is a child of '${node.parent && node.parent.name}', not of the model's node '${ref.model}'`);
  }
});
const meshes = ref.attached.map((at) => {
  const tag = tagNodes[ref.tags.indexOf(at.tag)];
  let mesh = null;
  // (GLTFLoader makes names unique: a second 'crystal' is 'crystal_1')
  if (tag) tag.traverse((o) => { if (o.isMesh && !mesh && o.name.startsWith(name(at.name))) mesh = o; });
  if (check(mesh, `no mesh '${at.name}' under the node of tag '${at.tag}'`)) {
    check(mesh.geometry.attributes.position.count === at.vertices,
          `attached '${at.name}' has ${mesh.geometry.attributes.position.count} vertices, libmd2's mesh ${at.vertices}`);
  }
  return mesh;
});
if (problems.length) {
  console.log(`${file}: FAILED:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}

// glTF axis c is MD2 axis axis[c]
const axis = [1, 2, 0];
const stats = { rotation: 0, translation: 0, vertex: 0, samples: 0 };
const v = new THREE.Vector3();

function compareTag(node, m, label) {
  const e = node.matrixWorld.elements; // column-major, as m
  let rot = 0, tr = 0;
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) rot = Math.max(rot, Math.abs(e[4 * c + r] - m[4 * axis[c] + axis[r]]));
    tr = Math.max(tr, Math.abs(e[12 + r] - m[12 + axis[r]]));
  }
  if (!(rot <= stats.rotation)) stats.rotation = Number.isNaN(rot) ? Infinity : rot;
  if (!(tr <= stats.translation)) stats.translation = Number.isNaN(tr) ? Infinity : tr;
  check(rot <= tolerance, `${label}: a rotation element is ${rot.toExponential(3)} from libmd2's (more than ${tolerance})`);
  check(tr <= tolerance * ref.size,
        `${label}: the origin is ${tr.toExponential(3)} from libmd2's (${(tr / ref.size).toExponential(3)} of the size, more than ${tolerance})`);
}

function compareMesh(mesh, want, label) {
  const geom = mesh.geometry, base = geom.attributes.position;
  const targets = geom.morphAttributes.position ?? [];
  const w = mesh.morphTargetInfluences ?? [];
  let worst = 0;
  for (let i = 0; i < base.count; i++) {
    let x = base.getX(i), y = base.getY(i), z = base.getZ(i);
    for (let k = 0; k < targets.length; k++) {
      if (!w[k]) continue;
      x += w[k] * targets[k].getX(i);
      y += w[k] * targets[k].getY(i);
      z += w[k] * targets[k].getZ(i);
    }
    v.set(x, y, z).applyMatrix4(mesh.matrixWorld);
    const got = [v.x, v.y, v.z];
    for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(got[c] - want[3 * i + axis[c]]));
  }
  if (!(worst <= stats.vertex)) stats.vertex = Number.isNaN(worst) ? Infinity : worst;
  check(worst <= tolerance * ref.size,
        `${label}: a vertex of '${mesh.name}' is ${worst.toExponential(3)} from libmd2's (${(worst / ref.size).toExponential(3)} of the size, more than ${tolerance})`);
}

function compareAll(want, label) {
  gltf.scene.updateMatrixWorld(true);
  stats.samples++;
  ref.tags.forEach((t, k) => compareTag(tagNodes[k], orthonormal ? rotationOf(want.tags[k]) : want.tags[k],
                                        `${label}, tag ${t}`));
  meshes.forEach((mesh, a) => compareMesh(mesh, want.attached[a], `${label}, on ${ref.attached[a].tag}`));
}

compareAll(ref.rest, `no clip playing (keyframe ${ref.rest.frame})`);
const clipCount = playSamples(THREE, gltf, idleFirst(ref.anims), check, compareAll);

console.log(`${file}: ${ref.tags.length} tags, ${ref.attached.length} attached, ${clipCount} clips, ` +
            `${stats.samples} poses; largest rotation element error ${stats.rotation.toExponential(3)}, ` +
            `origin error ${(stats.translation / ref.size).toExponential(3)} and attached vertex error ` +
            `${(stats.vertex / ref.size).toExponential(3)} of the model's size ${ref.size.toPrecision(6)} ` +
            `(at most ${tolerance} allowed)` + (problems.length ? ': FAILED' : ': ok'));
for (const p of problems.slice(0, 20)) console.log(`  ${p}`);
if (problems.length > 20) console.log(`  ... and ${problems.length - 20} more`);
process.exit(problems.length ? 1 : 0);
