// three.js's MD2Loader as a judge of MD2 files (tests/judges/CMakeLists.txt):
// loads FILE's bytes with MD2Loader.parse, as a web page would after a
// fetch, and writes what it made to OUT for md2_judge_three, which compares
// it with libmd2's decoding of the same file. Nothing here knows the MD2
// format: the geometry is MD2Loader's own.
//
//   node three_md2.mjs --npm DIR FILE OUT
//
// DIR holds node_modules/three (tests/run.sh installs it there). OUT is a
// text header of "key value" lines, a line "data", then raw float32 arrays
// in this machine's byte order:
//   three <THREE.REVISION>            status loaded | refused <message>
//   vertices N (position.count)       indexed 0|1 (geometry.index set)
//   relative 0|1 (morphTargetsRelative)
//   targets F (morphAttributes.position), normal_targets F'
//   uv 0|1, normal 0|1, target <i> <name as hex>, clip <name as hex> <tracks> <seconds>
//   data: position N*3, normal N*3 (if normal 1), uv N*2 (if uv 1), each
//   target's positions N*3, each normal target's normals N*3.
// A file MD2Loader refuses (it logs with console.error and returns
// nothing) or throws on is written as "status refused" with the message,
// so that the comparison reports it. Exit 0 when OUT is written, 2 for a
// bad command line or a missing three.
//
// SPDX-License-Identifier: MIT

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

function usage(message) {
  console.error(`three_md2.mjs: ${message}\nusage: node three_md2.mjs --npm DIR FILE OUT`);
  process.exit(2);
}

let npm = null;
const rest = [];
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--npm' && i + 1 < argv.length) npm = argv[++i];
  else if (argv[i].startsWith('--')) usage(`unknown option ${argv[i]}`);
  else rest.push(argv[i]);
}
if (!npm || rest.length !== 2) usage('--npm DIR, FILE and OUT are needed');
const [file, out] = rest;

const three = path.join(path.resolve(npm), 'node_modules', 'three');
let THREE, MD2Loader;
try {
  THREE = await import(pathToFileURL(path.join(three, 'build', 'three.module.js')).href);
  ({ MD2Loader } = await import(
    pathToFileURL(path.join(three, 'examples', 'jsm', 'loaders', 'MD2Loader.js')).href));
} catch (e) {
  usage(`cannot load three.js's MD2Loader from ${three}: ${e.message}`);
}

const hex = (s) => Buffer.from(s, 'latin1').toString('hex') || '-';
const lines = ['md2-judge-three 1', `three ${THREE.REVISION}`];
const arrays = [];

const bytes = readFileSync(file);
const data = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
// MD2Loader reports a refused file with console.error and returns nothing.
const logged = [];
const consoleError = console.error;
console.error = (...args) => logged.push(args.map(String).join(' '));
let geometry, thrown = null;
try {
  geometry = new MD2Loader().parse(data);
} catch (e) {
  thrown = e;
} finally {
  console.error = consoleError;
}

if (thrown || !geometry) {
  const why = thrown ? `threw ${thrown.name}: ${thrown.message}`
                     : `returned nothing (${logged.join('; ') || 'no message'})`;
  lines.push(`status refused MD2Loader.parse ${why}`.replace(/[\r\n]+/g, ' '));
} else {
  const pos = geometry.attributes.position;
  const nrm = geometry.attributes.normal;
  const uv = geometry.attributes.uv;
  const targets = geometry.morphAttributes.position ?? [];
  const normalTargets = geometry.morphAttributes.normal ?? [];
  const count = pos ? pos.count : 0;
  // Every array must hold count items of its size, as plain float32 (the
  // comparison reads them as such).
  const plain = (a, size) => a && a.itemSize === size && a.count === count &&
    a.array instanceof Float32Array && !a.normalized && a.array.length === size * count;
  const bad = [];
  if (pos && !plain(pos, 3)) bad.push('position');
  if (nrm && !plain(nrm, 3)) bad.push('normal');
  if (uv && !plain(uv, 2)) bad.push('uv');
  targets.forEach((t, i) => { if (!plain(t, 3)) bad.push(`morph position ${i}`); });
  normalTargets.forEach((t, i) => { if (!plain(t, 3)) bad.push(`morph normal ${i}`); });
  if (!pos || bad.length) {
    lines.push(`status refused MD2Loader made ${pos ? 'arrays of another shape: ' + bad.join(', ')
                                                     : 'no position attribute'}`);
  } else {
    lines.push('status loaded', `vertices ${count}`, `indexed ${geometry.index ? 1 : 0}`,
               `relative ${geometry.morphTargetsRelative ? 1 : 0}`,
               `targets ${targets.length}`, `normal_targets ${normalTargets.length}`,
               `normal ${nrm ? 1 : 0}`, `uv ${uv ? 1 : 0}`);
    targets.forEach((t, i) => lines.push(`target ${i} ${hex(t.name ?? '')}`));
    for (const clip of geometry.animations ?? []) {
      lines.push(`clip ${hex(clip.name)} ${clip.tracks.length} ${clip.duration}`);
    }
    arrays.push(pos.array);
    if (nrm) arrays.push(nrm.array);
    if (uv) arrays.push(uv.array);
    for (const t of targets) arrays.push(t.array);
    for (const t of normalTargets) arrays.push(t.array);
  }
}
lines.push('data');
const parts = [Buffer.from(lines.join('\n') + '\n', 'latin1')];
for (const a of arrays) parts.push(Buffer.from(a.buffer, a.byteOffset, a.byteLength));
writeFileSync(out, Buffer.concat(parts));
