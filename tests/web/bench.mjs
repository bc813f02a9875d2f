// Runs the benchmark page (examples/web/bench.html) in headless chromium:
// libmd2's WebAssembly against three.js's MD2Loader, load plus first pose
// of faerie (the shared corpus) and of md2_bench's generated 1480-vertex,
// 1007-frame model, side by side in one run of one browser, and prints
// what the page prints (also to OUT_DIR/bench.txt, and as JSON to
// OUT_DIR/bench.json). It
// checks that every number was measured, never how large it is: speed is
// reported, not asserted.
//
//   node bench.mjs NPM_DIR WEB_DIR BIG.md2 SHARED_DIR OUT_DIR
//
// SPDX-License-Identifier: MIT
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { chromium, serve } from './serve.mjs';

const [npmDir, webDir, big, sharedDir, outDir] = process.argv.slice(2).map((p) => resolve(p));
mkdirSync(outDir, { recursive: true });
const faerie = join(sharedDir, 'corpus', 'faerie.md2');
const models = ['/data/' + basename(big)];
if (existsSync(faerie)) models.unshift('/corpus/faerie.md2');
else console.log(`(${faerie} is not there: the generated model only)`);

const server = await serve({ web: webDir, npm: join(npmDir, 'node_modules'), data: dirname(big),
  corpus: join(sharedDir, 'corpus') });
const browser = await chromium(npmDir, ['--js-flags=--expose-gc', '--enable-precise-memory-info']);
try {
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.log(`page error: ${e.message}`));
  await page.goto(`${server.origin}/web/bench.html?models=${models.join(',')}&three=/npm/three/`);
  await page.waitForFunction(() => globalThis.md2bench && md2bench.done, { timeout: 300000, polling: 500 });
  const state = await page.evaluate(() => globalThis.md2bench);
  const text = await page.$eval('#result', (e) => e.textContent);
  console.log(text);
  writeFileSync(join(outDir, 'bench.txt'), `${text}\n`);
  writeFileSync(join(outDir, 'bench.json'), JSON.stringify(state, null, 2));
  assert.equal(state.error, null);
  assert.ok(state.exactHeap, 'the page had gc() and precise memory numbers');
  assert.equal(state.results.length, models.length);
  for (const r of state.results) {
    for (const who of ['libmd2', 'three']) {
      for (const k of ['first', 'fastest', 'median', 'memory']) {
        assert.ok(Number.isFinite(r[who][k]) && r[who][k] > 0, `${r.model} ${who} ${k}: ${r[who][k]}`);
      }
    }
    assert.equal(r.three.targets, r.frames, 'three made a morph target a frame');
  }
} finally {
  await browser.close();
  server.close();
}
