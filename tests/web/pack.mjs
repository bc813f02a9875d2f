// The package folder is an npm package: `npm pack` makes a tarball of the
// module, its declarations and the .wasm; it installs offline into a new
// project, where `import { load } from 'libmd2'` works as docs/web.md says
// (numVertices, numFrames, decodeFrame(i) as md2_decode_frame gives it,
// free(), and a bad file rejected with an Error carrying the library's
// message). The declarations declare every export of the module.
//
//   node pack.mjs PACKAGE_DIR MODEL.md2 OUT_DIR
//
// SPDX-License-Identifier: MIT
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [pkg, model, outDir] = process.argv.slice(2).map((p) => resolve(p));
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const npm = (args, cwd) => execFileSync('npm', [...args, '--cache', join(outDir, 'npm-cache'), '--no-audit', '--no-fund'],
  { cwd, encoding: 'utf8' });

// every export of the module is declared
const source = readFileSync(join(pkg, 'libmd2.mjs'), 'utf8');
const dts = readFileSync(join(pkg, 'libmd2.d.ts'), 'utf8');
const exported = [...source.matchAll(/^export (?:async function|function|class|const) (\w+)/gm)].map((m) => m[1]);
assert.ok(exported.length > 8, `exports: ${exported}`);
for (const name of exported) {
  assert.match(dts, new RegExp(`^export declare (?:function|class|const) ${name}\\b`, 'm'), `${name} is not declared in libmd2.d.ts`);
}

const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', outDir], pkg));
const files = packed[0].files.map((f) => f.path).sort();
assert.deepEqual(files, ['README.md', 'libmd2.d.ts', 'libmd2.mjs', 'libmd2.wasm', 'package.json']);
assert.equal(packed[0].name, 'libmd2');
console.log(`npm pack: ${packed[0].filename}, ${packed[0].size} bytes, ${files.join(' ')}`);

const project = join(outDir, 'project');
mkdirSync(project);
writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'uses-libmd2', private: true, type: 'module' }));
npm(['install', '--offline', join(outDir, packed[0].filename)], project);
writeFileSync(join(project, 'main.mjs'), `
import { load, Md2Error } from 'libmd2';
import { readFileSync } from 'node:fs';
const bytes = readFileSync(process.argv[2]);
const m = await load(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
const f = m.decodeFrame(m.numFrames - 1);
console.log(JSON.stringify({ numVertices: m.numVertices, numFrames: m.numFrames, length: f.length,
  last: Array.from(f) }));
m.free();
try {
  await load(new Uint8Array(bytes.subarray(0, 40)));
  console.log('loaded a cut file');
} catch (e) {
  console.log(JSON.stringify({ error: e instanceof Error && e instanceof Md2Error, message: e.message }));
}
`);
const lines = execFileSync(process.execPath, ['main.mjs', model], { cwd: project, encoding: 'utf8' }).trim().split('\n');
const got = JSON.parse(lines[0]);
const err = JSON.parse(lines[1]);
console.log(`installed and run: ${got.numVertices} vertices, ${got.numFrames} frames; a cut file: ${err.message}`);
assert.equal(got.length, got.numVertices * 3);
assert.ok(got.numFrames > 1);
assert.equal(err.error, true);
assert.match(err.message, /^header: .*40 bytes/);
// the installed package decodes what the package folder's module decodes
const { load } = await import(pathToFileURL(join(pkg, 'libmd2.mjs')).href);
const m = await load(readFileSync(model));
assert.deepEqual(got.last, Array.from(m.decodeFrame(m.numFrames - 1)));
m.free();
