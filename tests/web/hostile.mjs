// Bad input through the module: truncated files, hostile headers and huge
// counts are refused with the library's diagnostic as an Md2Error (result,
// section, field, offset), and the module stays usable: after every refusal
// the bundled crystal loads and decodes to the same floats as before.
//
//   node hostile.mjs PACKAGE_DIR CRYSTAL.md2 SKIN.pcx
//
// SPDX-License-Identifier: MIT
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [pkg, crystalPath, pcxPath] = process.argv.slice(2);
const md2 = await import(pathToFileURL(resolve(pkg, 'libmd2.mjs')).href);
const { load, decodePcx, Md2Error, STRICT_ALL } = md2;

const crystal = new Uint8Array(readFileSync(crystalPath));
const reference = await load(crystal);
const frame0 = reference.decodeFrame(0);
const last = reference.decodeFrame(reference.numFrames - 1);
reference.free();

async function stillWorks() {
  const m = await load(crystal);
  assert.deepEqual(m.decodeFrame(0), frame0);
  assert.deepEqual(m.decodeFrame(m.numFrames - 1), last);
  m.free();
}

const SECTIONS = ['none', 'header', 'skins', 'texcoords', 'triangles', 'frames', 'glcmds', 'side file', 'tags'];
let refusals = 0;

// load(bytes) must reject with an Md2Error; expect: { result, field, section, offset }
async function refused(bytes, expect, what, options) {
  let error = null;
  try {
    const m = await load(bytes, options);
    m.free();
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof Md2Error, `${what}: expected an Md2Error, got ${error}`);
  assert.ok(error instanceof Error);
  assert.ok(error.message.length > 20, `${what}: message "${error.message}"`);
  assert.ok(SECTIONS.includes(error.section), `${what}: section "${error.section}"`);
  assert.ok(error.code > 0 && error.result.startsWith('MD2_ERR_'), `${what}: ${error.result}`);
  for (const [k, v] of Object.entries(expect)) assert.equal(error[k], v, `${what}: ${k} (${error.message})`);
  await stillWorks();
  refusals++;
  return error;
}

function withHeader(field, value) {
  const out = crystal.slice();
  new DataView(out.buffer).setInt32(field * 4, value, true);
  return out;
}

// Truncated: every length of the header, then every 37th byte of the file.
for (let n = 0; n < 68; n++) {
  await refused(crystal.subarray(0, n), { result: 'MD2_ERR_TRUNCATED_HEADER', section: 'header' }, `${n} bytes`);
}
for (let n = 68; n < crystal.length - 1; n += 37) {
  const e = await refused(crystal.subarray(0, n), {}, `${n} bytes`);
  assert.match(e.message, new RegExp(`\\b${n}\\b`), `the message names the data's size: ${e.message}`);
}
const cut = await refused(crystal.subarray(0, 100), { result: 'MD2_ERR_SECTION_OUT_OF_BOUNDS' }, '100 bytes');
console.log(`truncated: "${cut.message}"`);

// Hostile headers: fields 0 ident ... 16 ofs_end.
const F = { ident: 0, version: 1, skinwidth: 2, framesize: 4, num_skins: 5, num_xyz: 6, num_st: 7,
  num_tris: 8, num_glcmds: 9, num_frames: 10, ofs_skins: 11, ofs_st: 12, ofs_tris: 13, ofs_frames: 14 };
await refused(withHeader(F.ident, 0x32504449 + 1), { result: 'MD2_ERR_BAD_MAGIC', field: 'ident', offset: 0 }, 'ident');
await refused(withHeader(F.version, 7), { result: 'MD2_ERR_BAD_VERSION', field: 'version', offset: 4 }, 'version');
await refused(withHeader(F.num_frames, -1), { result: 'MD2_ERR_BAD_COUNT', field: 'num_frames' }, 'negative count');
await refused(withHeader(F.num_xyz, 0), { result: 'MD2_ERR_NO_VERTICES', field: 'num_xyz' }, 'no vertices');
await refused(withHeader(F.num_frames, 0), { result: 'MD2_ERR_NO_FRAMES' }, 'no frames');
await refused(withHeader(F.skinwidth, -5), { result: 'MD2_ERR_BAD_SKIN_SIZE', field: 'skinwidth' }, 'skin size');
await refused(withHeader(F.framesize, 8), { result: 'MD2_ERR_BAD_FRAMESIZE', field: 'framesize' }, 'framesize');
const huge = 0x7fffffff;
for (const f of ['num_skins', 'num_st', 'num_tris', 'num_glcmds', 'num_frames']) {
  const e = await refused(withHeader(F[f], huge), {}, `huge ${f}`);
  assert.ok(['MD2_ERR_SECTION_OUT_OF_BOUNDS', 'MD2_ERR_LIMIT_EXCEEDED', 'MD2_ERR_SECTION_OVERLAP', 'MD2_ERR_BAD_COUNT'].includes(e.result), `${f}: ${e.result}`);
}
await refused(withHeader(F.num_xyz, 70000), { result: 'MD2_ERR_LIMIT_EXCEEDED', field: 'num_xyz' }, 'num_xyz past uint16');
for (const f of ['ofs_skins', 'ofs_st', 'ofs_tris', 'ofs_frames']) {
  await refused(withHeader(F[f], huge), { result: 'MD2_ERR_SECTION_OUT_OF_BOUNDS' }, `huge ${f}`);
  await refused(withHeader(F[f], -4), {}, `negative ${f}`);
}
const overlap = withHeader(F.ofs_tris, new DataView(crystal.buffer).getInt32(F.ofs_frames * 4, true));
await refused(overlap, { result: 'MD2_ERR_SECTION_OVERLAP' }, 'overlapping sections');

// Strict mode through options: bytes after the model.
const padded = new Uint8Array(crystal.length + 7);
padded.set(crystal);
(await load(padded)).free();
await refused(padded, { result: 'MD2_ERR_BAD_OFS_END', field: 'ofs_end' }, 'strict ofs_end', { strict: STRICT_ALL });

// Random bytes after a valid header's first word: refused or loaded, never a crash.
let seed = 7;
const rand = () => { seed = (seed * 1103515245 + 12345) >>> 0; return seed >>> 16; };
for (let i = 0; i < 300; i++) {
  const b = crystal.slice();
  for (let k = 0; k < 8; k++) b[rand() % b.length] = rand() & 255;
  try {
    const m = await load(b);
    for (let f = 0; f < m.numFrames; f++) m.decodeFrame(f);
    m.free();
  } catch (e) {
    assert.ok(e instanceof Md2Error, `mutated file ${i}: ${e}`);
  }
}
await stillWorks();

// Not bytes at all.
await assert.rejects(load('crystal.md2'), TypeError);
await assert.rejects(load(null), TypeError);

// A model in use: frame numbers out of range, and a freed model.
const m = await load(crystal);
assert.throws(() => m.decodeFrame(m.numFrames), RangeError);
assert.throws(() => m.decodeFrame(-1), RangeError);
// side files, good ones: the library reads the text as its tests say
assert.deepEqual(m.animations({ anm: 'spin 0 7 10\n"slow spin" 0 7 2.5 // comment\n' }).map((a) => [a.name, a.first, a.last, a.fps]),
  [['spin', 0, 7, 10], ['slow spin', 0, 7, 2.5]]);
assert.deepEqual(m.animations({ framegroups: '0 8 10 1 // spin\n8 6 12.5 0 bounce\n' }).map((a) => [a.name, a.first, a.last, a.fps, a.loop]),
  [['spin', 0, 7, 10, true], ['bounce', 8, 13, 12.5, false]]);
// side files: a malformed .anm line names its line and column
assert.throws(() => m.animations({ anm: 'spin 0 3 10\nbounce 4 x 10\n' }),
  (e) => e instanceof Md2Error && e.section === 'side file' && e.line === 2 && e.result === 'MD2_ERR_PARSE_SIDEFILE');
assert.throws(() => m.animations({ framegroups: `0 ${m.numFrames + 5} 10 1 // past\n` }),
  (e) => e instanceof Md2Error && e.result === 'MD2_ERR_FRAME_RANGE');
// the Quake II player table needs 198 frames; the crystal has 18
assert.throws(() => m.animations({ quake2: true }), (e) => e instanceof Md2Error && e.result === 'MD2_ERR_FRAME_RANGE');
m.free();
assert.throws(() => m.decodeFrame(0), /freed/);
m.free(); // twice is a no-op

// A bad PCX, and a good one.
const pcx = new Uint8Array(readFileSync(pcxPath));
await assert.rejects(decodePcx(pcx.subarray(0, 100)), (e) => e instanceof Md2Error && e.result === 'MD2_ERR_TRUNCATED_HEADER');
const img = await decodePcx(pcx);
assert.ok(img.width > 0 && img.rgba.length === img.width * img.height * 4);
await stillWorks();

console.log(`${refusals} bad files refused with the library's diagnostic; the module stayed usable`);
