// 10,000 loads and frees do not grow memory: neither the module's linear
// memory nor, after a garbage collection, the JavaScript heap. Refused
// loads count too (every tenth load is a truncated file). And a model (or
// a player) that is never freed is released by the FinalizationRegistry
// once it is garbage: rounds of unfreed ones leave the memory where it was.
//
//   node --expose-gc loop.mjs PACKAGE_DIR MODEL.md2
//
// SPDX-License-Identifier: MIT
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [pkg, modelPath] = process.argv.slice(2);
const { load, memoryBytes, Md2Error } = await import(pathToFileURL(resolve(pkg, 'libmd2.mjs')).href);
assert.equal(typeof globalThis.gc, 'function', 'run with node --expose-gc');

const bytes = new Uint8Array(readFileSync(modelPath));
const truncated = bytes.subarray(0, bytes.length >> 1);

async function cycle(i) {
  if (i % 10 === 9) {
    await assert.rejects(load(truncated), Md2Error);
    return;
  }
  const m = await load(bytes);
  m.decodeFrame(i % m.numFrames);
  if (i % 100 === 0) m.mesh();
  m.free();
}

const settle = async () => {
  for (let k = 0; k < 3; k++) {
    globalThis.gc();
    await new Promise((r) => setTimeout(r, 10));
  }
};

for (let i = 0; i < 200; i++) await cycle(i);
await settle();
const wasm0 = await memoryBytes();
const heap0 = process.memoryUsage().heapUsed;
for (let i = 0; i < 10000; i++) await cycle(i);
await settle();
const wasm1 = await memoryBytes();
const heap1 = process.memoryUsage().heapUsed;
console.log(`10,000 loads and frees: module memory ${wasm0} -> ${wasm1} bytes, ` +
  `JavaScript heap ${(heap0 / 1048576).toFixed(2)} -> ${(heap1 / 1048576).toFixed(2)} MiB`);
assert.equal(wasm1, wasm0, 'the module\'s memory grew');
assert.ok(heap1 - heap0 < 1 << 20, `the JavaScript heap grew by ${heap1 - heap0} bytes`);

// Never freed: the FinalizationRegistry frees them once they are garbage.
const probe = await load(bytes);
const perModel = probe.memoryBytes;
probe.free();
const rounds = 8;
const perRound = Math.ceil((4 << 20) / perModel); // 4 MiB of models a round
for (let r = 0; r < rounds; r++) {
  for (let i = 0; i < perRound; i++) {
    const m = await load(bytes);
    m.decodeFrame(0);
  }
  await settle();
}
const wasm2 = await memoryBytes();
console.log(`${rounds} rounds of ${perRound} models never freed (${rounds * perRound * perModel} bytes): ` +
  `module memory ${wasm1} -> ${wasm2} bytes`);
assert.ok(wasm2 - wasm1 < 3 * perRound * perModel + (1 << 20),
  'unfreed models were not released by the FinalizationRegistry');

// Players never freed: the same, 256 bytes each.
const model = await load(bytes);
const playersPerRound = 20000;
for (let r = 0; r < rounds; r++) {
  for (let i = 0; i < playersPerRound; i++) model.player().advance(0.1);
  await settle();
}
const wasm3 = await memoryBytes();
console.log(`${rounds} rounds of ${playersPerRound} players never freed (${rounds * playersPerRound * 256} bytes): ` +
  `module memory ${wasm2} -> ${wasm3} bytes`);
assert.ok(wasm3 - wasm2 < 3 * playersPerRound * 256 + (1 << 20),
  'unfreed players were not released by the FinalizationRegistry');
model.free();
