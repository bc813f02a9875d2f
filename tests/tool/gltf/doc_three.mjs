// Runs docs/tool.md's three.js example ("Playing a clip in three.js", the
// first ```js block after that heading) in Node, as written, against an
// export (md2_export_doc_three in export.cases):
//
//   node doc_three.mjs --npm DIR --doc docs/tool.md --dir FOLDER
//
// FOLDER holds the export the example loads (crystal.glb). The block runs
// as a module in FOLDER beside a node_modules link to DIR's (so 'three' and
// 'three/addons/...' resolve as in a bundler), with what a page gives it
// and Node lacks: relative URLs (fetch reads them from FOLDER), a renderer
// whose setAnimationLoop calls the loop 30 times (30 ms apart), and a
// camera. Checks what the text promises: the first clip is the idle one
// (REF's order rule: here `spin`, the first that loops), it plays (the
// mesh's morph weights change between frames and always sum to 1), the
// renderer drew every frame, and playOnce(bounce) cross-fades to bounce,
// which ends held on its last key. Exit 0 if all holds, 1 otherwise.
//
// SPDX-License-Identifier: MIT
import { readFileSync, writeFileSync, symlinkSync, existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import './three_node.mjs';

let npm = null, doc = null, dir = null;
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--npm') npm = argv[++i];
  else if (argv[i] === '--doc') doc = argv[++i];
  else if (argv[i] === '--dir') dir = argv[++i];
}
if (!npm || !doc || !dir) {
  console.error('usage: node doc_three.mjs --npm DIR --doc tool.md --dir FOLDER');
  process.exit(2);
}
const text = readFileSync(doc, 'utf8');
const at = text.indexOf('#### Playing a clip in three.js');
const m = at >= 0 ? /```js\n([\s\S]*?)```/.exec(text.slice(at)) : null;
if (!m) {
  console.log(`${doc}: no js block under "Playing a clip in three.js": FAILED`);
  process.exit(1);
}
dir = path.resolve(dir);
const link = path.join(dir, 'node_modules');
if (!existsSync(link)) symlinkSync(path.join(path.resolve(npm), 'node_modules'), link, 'dir');
const modulePath = path.join(dir, 'doc_example.mjs');
// the example, then what the check reads from it
writeFileSync(modulePath, `${m[1]}\nexport { gltf, mixer, idle, bounce, playOnce };\n`);

// What a page has and Node does not: ProgressEvent (three_node.mjs) ...
// ... relative URLs, relative to the page: here to FOLDER ...
const page = 'http://page.invalid/';
const RealRequest = globalThis.Request;
globalThis.Request = class Request extends RealRequest {
  constructor(input, init) {
    super(typeof input === 'string' ? new URL(input, page).href : input, init);
  }
};
const realFetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const url = new URL(typeof input === 'string' ? input : input.url, page);
  if (url.origin + '/' !== page) return realFetch(input, init);
  return new Response(readFileSync(path.join(dir, decodeURIComponent(url.pathname))), { status: 200 });
};
let loop = null;
let drawn = 0;
globalThis.renderer = {
  setAnimationLoop(f) { loop = f; },
  render() { drawn++; },
};
globalThis.camera = {};

const problems = [];
const check = (ok, what) => { if (!ok) problems.push(what); };
const ex = await import(pathToFileURL(modulePath).href);
rmSync(modulePath);
check(typeof loop === 'function', 'the example set no animation loop');
let mesh = null;
ex.gltf.scene.traverse((o) => { if (o.isMesh && !mesh) mesh = o; });
check(ex.gltf.animations[0] && ex.gltf.animations[0].name === 'spin',
      `the first clip is ${ex.gltf.animations[0]?.name}, not spin`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const seen = new Set();
async function frames(n) {
  for (let k = 0; k < n; k++) {
    await sleep(30);
    loop(performance.now());
    const w = mesh.morphTargetInfluences;
    const sum = w.reduce((a, b) => a + b, 0);
    check(Math.abs(sum - 1) < 1e-5, `frame ${drawn}: the weights sum to ${sum}`);
    seen.add(w.map((x) => x.toFixed(4)).join(','));
  }
}
if (loop && mesh) {
  await frames(30);
  check(drawn === 30, `${drawn} frames drawn of 30`);
  check(seen.size >= 10, `the weights took ${seen.size} values over 30 frames: the clip does not play`);
  check(ex.bounce && ex.bounce.name === 'bounce', 'findByName found no bounce clip');
  ex.playOnce(ex.bounce);
  await frames(30); // 0.9 s: bounce (0.5 s) has ended
  // held on the clip's last key (bounce loops: its last key is the wrap
  // back to its first keyframe)
  const w = mesh.morphTargetInfluences;
  const track = ex.bounce.tracks.find((t) => t.name.endsWith('.morphTargetInfluences'));
  const last = track ? Array.from(track.values.slice(track.values.length - w.length)) : [];
  check(last.length === w.length && last.every((x, k) => Math.abs(x - w[k]) < 1e-5),
        `after playOnce(bounce) the weights are ${w.join(',')}, not bounce's last key ${last.join(',')}`);
}
console.log(`${doc}: the three.js example: ${drawn} frames, first clip ${ex.gltf.animations[0]?.name}, ` +
            `${seen.size} distinct poses` + (problems.length ? ': FAILED' : ': ok'));
for (const p of problems.slice(0, 10)) console.log(`  ${p}`);
process.exit(problems.length ? 1 : 0);
