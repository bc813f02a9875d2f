// The npm package builds itself: `npm pack` in a copy of js/ (with the
// repository's CMakeLists.txt, src/ and include/ around it, so the source
// tree is never written) runs js/build.mjs, which compiles libmd2.wasm, and
// packs it. The tarball holds the module, its declarations, the README and
// the .wasm, byte for byte what CMake's package folder holds; it installs
// offline into a new project, where `import { load } from 'libmd2'` loads
// the crystal as docs/web.md says (numVertices, numFrames, decodeFrame(i) as
// md2_decode_frame gives it, free(), a bad file rejected with an Md2Error
// carrying the library's message). The declarations declare every export.
//
//   node pack.mjs NPM ROOT PACKAGE_DIR MODEL.md2 OUT_DIR
//
// And npm pack refuses, loudly, to pack the package without libmd2.wasm:
// the same copy, with no clang on PATH, or MD2_WASM_CC naming a clang that is
// not there, or a clang without wasi-libc, exits non-zero with a message
// naming libmd2.wasm, the command that makes it and what to install, and
// writes no tarball; as it does for a .wasm that libmd2.mjs cannot
// instantiate, and for a package without a file package.json lists.
//
//   node pack.mjs --refused NPM ROOT OUT_DIR
//
// MD2_WASM_CC in the environment is the clang the package is built with
// (CMake passes its own, so that the two builds can be compared).
//
// SPDX-License-Identifier: MIT
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync,
  writeFileSync } from 'node:fs';
import { basename, delimiter, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';

const refused = process.argv[2] === '--refused';
const args = process.argv.slice(refused ? 3 : 2);
const npmPath = args[0];
const [root, ...rest] = args.slice(1).map((p) => resolve(p));
const outDir = rest[rest.length - 1];
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const cache = join(outDir, 'npm-cache');
const npmArgs = ['--cache', cache, '--no-audit', '--no-fund'];

// js/ with what its build reads, into DIR; never a .wasm or a tarball the
// source folder may hold from an earlier `npm run build` or `npm pack`
function copyTree(dir) {
  for (const part of ['CMakeLists.txt', 'src', 'include', 'js']) {
    cpSync(join(root, part), join(dir, part), {
      recursive: true,
      filter: (src) => !/^(libmd2\.wasm(\.part)?|libmd2-.*\.tgz|node_modules)$/.test(basename(src)),
    });
  }
  assert.ok(!existsSync(join(dir, 'js', 'libmd2.wasm')));
  return join(dir, 'js');
}

// the files of a .tgz: name (without "package/") -> bytes
function untar(file) {
  const tar = gunzipSync(readFileSync(file));
  const files = new Map();
  for (let at = 0; at + 512 <= tar.length && tar[at] !== 0;) {
    const text = (from, len) => tar.subarray(at + from, at + from + len).toString('latin1').replace(/\0.*$/s, '');
    const size = parseInt(text(124, 12).trim(), 8);
    const prefix = text(345, 155);
    const name = (prefix ? `${prefix}/` : '') + text(0, 100);
    if (text(156, 1) === '0' || text(156, 1) === '') files.set(name.replace(/^package\//, ''), tar.subarray(at + 512, at + 512 + size));
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

function onPath(name) {
  for (const dir of (process.env.PATH || '').split(delimiter).filter(Boolean)) {
    if (existsSync(join(dir, name))) return join(dir, name);
  }
  throw new Error(`no ${name} on PATH`);
}

if (refused) {
  // a PATH with node and sh only (npm runs its scripts with sh)
  const bin = join(outDir, 'bin');
  mkdirSync(bin);
  symlinkSync(process.execPath, join(bin, 'node'));
  symlinkSync(realpathSync(onPath('sh')), join(bin, 'sh'));
  // a clang that finds no wasi-libc: clang as it is, with an empty sysroot
  const cc = process.env.MD2_WASM_CC || 'clang-14';
  const clang = realpathSync(cc.includes('/') ? cc : onPath(cc));
  const noLibc = join(bin, 'clang-without-wasi-libc');
  mkdirSync(join(outDir, 'empty-sysroot'));
  writeFileSync(noLibc, `#!/bin/sh\nexec '${clang}' --sysroot='${join(outDir, 'empty-sysroot')}' "$@"\n`);
  chmodSync(noLibc, 0o755);
  // a "clang" whose output is no module, and succeeds
  const bogus = join(bin, 'clang-writing-no-module');
  writeFileSync(bogus, '#!/bin/sh\nwhile [ $# -gt 1 ]; do\n  if [ "$1" = -o ]; then printf "no module" >"$2"; exit 0; fi\n' +
    '  shift\ndone\nexit 1\n');
  chmodSync(bogus, 0o755);
  const cases = [
    ['no clang on PATH', { PATH: bin }, /no clang on PATH \(looked for clang-14 and clang\)/],
    ['MD2_WASM_CC names no file', { MD2_WASM_CC: join(outDir, 'no-such-clang') }, /no clang at .*no-such-clang \(MD2_WASM_CC\)/],
    ['a clang without wasi-libc', { MD2_WASM_CC: noLibc }, /failed \(status 1\): it lacks wasi-libc/],
    ['a libmd2.wasm that is no module', { MD2_WASM_CC: bogus }, /libmd2\.wasm does not instantiate under libmd2\.mjs/],
    ['a package without its README.md', { MD2_WASM_CC: bogus }, /the package lacks README\.md \(package\.json "files"\)/],
  ];
  for (const [k, [what, env, reason]] of cases.entries()) {
    const js = copyTree(join(outDir, `tree${k}`));
    if (what.includes('README')) rmSync(join(js, 'README.md'));
    const dest = join(outDir, `dest${k}`);
    mkdirSync(dest);
    const e = { ...process.env, ...env };
    if (!env.MD2_WASM_CC) delete e.MD2_WASM_CC;
    const r = spawnSync(npmPath, ['pack', '--pack-destination', dest, ...npmArgs], { cwd: js, env: e, encoding: 'utf8' });
    const said = `${r.stdout}${r.stderr}`;
    console.log(`${what}: npm pack exit status ${r.status}\n${said.split('\n').filter((l) => /^(libmd2:|The package)/.test(l)).join('\n')}`);
    assert.notEqual(r.status, 0, `${what}: npm pack succeeded:\n${said}`);
    assert.match(said, /libmd2: npm pack refused: /, what);
    assert.match(said, /The package is not packed without libmd2\.wasm \(/, what);
    assert.match(said, /`npm run build` in .*js makes/, what);
    assert.match(said, /apt-get install clang-14 lld-14 wasi-libc libclang-rt-14-dev-wasm32/, what);
    assert.match(said, reason, what);
    assert.deepEqual(readdirSync(dest), [], `${what}: a tarball was written`);
    if (env.MD2_WASM_CC !== bogus) assert.ok(!existsSync(join(js, 'libmd2.wasm')), `${what}: a libmd2.wasm was left`);
  }
  console.log(`npm pack refused all ${cases.length} times`);
  process.exit(0);
}

const [pkg, model] = rest;
const js = copyTree(join(outDir, 'tree'));
const project = join(outDir, 'project');
mkdirSync(project);
writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'uses-libmd2', private: true, type: 'module' }));
const packed = JSON.parse(execFileSync(npmPath, ['pack', '--json', '--pack-destination', project, ...npmArgs],
  { cwd: js, encoding: 'utf8' }));
assert.equal(packed[0].name, 'libmd2');
const tgz = join(project, packed[0].filename);
const files = untar(tgz);
const names = [...files.keys()].sort();
console.log(`npm pack in a copy of js/: ${packed[0].filename}, ${packed[0].size} bytes: ${names.join(' ')}`);
assert.deepEqual(names, ['README.md', 'libmd2.d.ts', 'libmd2.mjs', 'libmd2.wasm', 'package.json']);
assert.deepEqual([...files.get('libmd2.wasm').subarray(0, 4)], [0, 0x61, 0x73, 0x6d], 'libmd2.wasm is no module');
// what CMake's package folder holds, the same bytes (package.json: less its scripts)
for (const name of names.filter((n) => n !== 'package.json')) {
  assert.ok(files.get(name).equals(readFileSync(join(pkg, name))), `${name} differs from ${pkg}/${name}`);
}
const manifest = JSON.parse(files.get('package.json').toString('utf8'));
assert.equal(manifest.scripts.prepack, 'node build.mjs --prepack');
delete manifest.scripts;
assert.deepEqual(manifest, JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')));
console.log(`its libmd2.wasm (${files.get('libmd2.wasm').length} bytes) and other files are ${pkg}'s`);

// every export of the module is declared
const source = files.get('libmd2.mjs').toString('utf8');
const dts = files.get('libmd2.d.ts').toString('utf8');
const exported = [...source.matchAll(/^export (?:async function|function|class|const) (\w+)/gm)].map((m) => m[1]);
assert.ok(exported.length > 8, `exports: ${exported}`);
for (const name of exported) {
  assert.match(dts, new RegExp(`^export declare (?:function|class|const) ${name}\\b`, 'm'), `${name} is not declared in libmd2.d.ts`);
}

execFileSync(npmPath, ['install', '--offline', ...npmArgs, `./${packed[0].filename}`], { cwd: project, encoding: 'utf8' });
writeFileSync(join(project, 'main.mjs'), `
import { load, Md2Error } from 'libmd2';
import { readFileSync } from 'node:fs';
const bytes = readFileSync(process.argv[2]);
const m = await load(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
const f = m.decodeFrame(m.numFrames - 1);
console.log(JSON.stringify({ numVertices: m.numVertices, numFrames: m.numFrames, length0: m.decodeFrame(0).length,
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
console.log(`installed offline and run: ${got.numVertices} vertices, ${got.numFrames} frames, decodeFrame(0): ${got.length0} floats; a cut file: ${err.message}`);
assert.equal(got.numVertices, 14);
assert.equal(got.numFrames, 18);
assert.equal(got.length0, 42);
assert.equal(got.last.length, 42);
assert.equal(err.error, true);
assert.match(err.message, /^header: .*40 bytes/);
// the installed package decodes what CMake's package folder decodes
const { load } = await import(pathToFileURL(join(pkg, 'libmd2.mjs')).href);
const m = await load(readFileSync(model));
assert.deepEqual(got.last, Array.from(m.decodeFrame(m.numFrames - 1)));
m.free();
