// The same numbers as native: every keyframe of every model given, decoded
// through libmd2.wasm (the package's module), hashed as tests/web/web_native.c
// hashes the native library's decoding, and the two lines compared; and on
// the same line what the rest of the module gives (animations, a player's
// poses, the welded mesh, morph data, back-to-front order) and the model's
// warning flags (the generated models include some whose normal indices are
// all the same: MD2_WARN_SAME_NORMALS).
//
//   node digest.mjs PACKAGE_DIR WEB_NATIVE MODEL.md2...
//
// A model whose file is absent is named "absent" by both and skipped (the
// shared corpus is not in every checkout; CI has it). Exit status 1 on any
// difference.
// SPDX-License-Identifier: MIT
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [pkg, native, ...models] = process.argv.slice(2);
const { init, load, PLAY } = await import(pathToFileURL(resolve(pkg, 'libmd2.mjs')).href);
// the module from bytes given to init(), the way a bundler or a worker may hand it over
await init(readFileSync(resolve(pkg, 'libmd2.wasm')));

const PRIME = 1099511628211n;
const MASK = (1n << 64n) - 1n;

// FNV-1a over the floats' bits, little-endian bytes, as web_native.c does it.
function fnvFloats(h, floats) {
  return fnvBytes(h, new Uint8Array(floats.buffer, floats.byteOffset, floats.byteLength));
}

function fnvBytes(h, bytes) {
  // the bits must be the floats' own: on a big-endian host the bytes of a
  // Float32Array would come in the other order
  const probe = new Uint8Array(new Float32Array([1]).buffer);
  if (probe[3] !== 0x3f) throw new Error('digest.mjs expects a little-endian host');
  for (let i = 0; i < bytes.length; i++) {
    h ^= BigInt(bytes[i]);
    h = (h * PRIME) & MASK;
  }
  return h;
}

const hex = (h) => h.toString(16).padStart(16, '0');

// web_native.c's digest_api(), through the module: animations, a player,
// the welded mesh, the morph data and the back-to-front order.
function digestApi(m) {
  let h = 14695981039346656037n;
  const anims = m.animations();
  for (const a of anims) {
    const w = new Uint32Array(3);
    w[0] = a.first;
    w[1] = a.last;
    new Float32Array(w.buffer, 8, 1)[0] = a.fps;
    h = fnvFloats(h, w);
  }
  const p = m.player();
  if (anims.length) p.play(anims[0], PLAY.LOOP);
  p.advance(0.137);
  h = fnvFloats(h, p.pose());
  p.advance(1.3);
  h = fnvFloats(h, p.pose());
  p.seek(2.5);
  h = fnvFloats(h, p.pose());
  // a cross-fade from the first half of the frames to the second, halfway through
  const half = m.numFrames >> 1;
  p.play({ first: 0, last: half > 0 ? half - 1 : 0, fps: 10 }, PLAY.LOOP);
  p.advance(0.137);
  p.crossfade({ first: half, last: m.numFrames - 1, fps: 7 }, 0.5, PLAY.LOOP);
  p.advance(0.21);
  h = fnvFloats(h, p.pose());
  p.free();
  const mesh = m.mesh({ counterClockwise: true });
  h = fnvFloats(h, mesh.indices);
  h = fnvFloats(h, mesh.sourceVertex);
  h = fnvFloats(h, mesh.uv);
  const morph = m.morph({ counterClockwise: true });
  h = fnvBytes(h, morph.vertices);
  h = fnvFloats(h, morph.transforms);
  h = fnvFloats(h, m.backToFront(0, m.numFrames - 1, 0.5, [100, 50, 25]));
  for (let flags = 0; flags < 8; flags++) h = fnvFloats(h, m.meshLerp(0, m.numFrames - 1, 0.3, flags));
  return h;
}

async function digest(path) {
  const name = basename(path);
  if (!existsSync(path)) return [`${name} absent`, 0];
  const m = await load(readFileSync(path));
  let h = 14695981039346656037n;
  let api;
  const n = m.numFrames;
  const warnings = m.warnings.toString(16);
  try {
    for (let f = 0; f < n; f++) {
      h = fnvFloats(h, m.decodeFrame(f));
      h = fnvFloats(h, m.decodeNormals(f));
      h = fnvFloats(h, m.lerp(f, (f + 1) % n, 0.5));
      const b = m.frameBounds(f);
      h = fnvFloats(h, new Float32Array([...b.min, ...b.max]));
    }
    api = digestApi(m);
  } finally {
    m.free();
  }
  return [`${name} ${hex(h)} ${hex(api)} ${warnings}`, n];
}

const wasmLines = [];
let frames = 0;
for (const path of models) {
  const [line, n] = await digest(path);
  wasmLines.push(line);
  frames += n;
}
const nativeLines = execFileSync(native, ['digest', ...models], { encoding: 'utf8' }).trim().split('\n');
let failures = 0;
let compared = 0;
for (let i = 0; i < models.length; i++) {
  const ok = wasmLines[i] === nativeLines[i];
  if (!ok) failures++;
  if (!wasmLines[i].endsWith(' absent')) compared++;
  console.log(`${ok ? 'same' : 'DIFFERENT'}  wasm: ${wasmLines[i]}  native: ${nativeLines[i]}`);
}
console.log(`${compared} models (${frames} keyframes) compared, ${failures} different`);
if (failures || compared === 0) process.exit(1);
