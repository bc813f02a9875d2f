// A real browser is the judge of the web viewer (examples/web/index.html):
// Debian's chromium, headless (WebGL 2 through SwiftShader), driven by
// puppeteer-core. The pictures pass the checks md2_view's screenshots pass,
// by the same checker (examples/md2_view_check.c): the model's pixel box
// equals the projected box the page reports within 2 px (or lies inside it,
// and equals the projected vertices' box, for views in perspective), and
// every model pixel is a texel colour of the skin when unlit. The
// animation changes the pixels as it plays, the side files beside a model's
// URL are found, a truncated file shows the library's message, the drawing
// modes draw, and the page works from file:// with files picked by hand.
//
//   node browser.mjs NPM_DIR WEB_DIR PACKAGE_DIR CHECKER MODELS_DIR SHARED_DIR OUT_DIR
//
// The faerie cases need SHARED_DIR/corpus (CI has it); without it they
// say so and are skipped. Screenshots land in OUT_DIR.
// SPDX-License-Identifier: MIT
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, serve } from './serve.mjs';

const [npmDir, webDir, pkgDir, checker, modelsDir, sharedDir, outDir] = process.argv.slice(2).map((p) => resolve(p));
const { load } = await import(pathToFileURL(join(pkgDir, 'libmd2.mjs')).href);
mkdirSync(outDir, { recursive: true });
const dataDir = join(outDir, 'data');
mkdirSync(dataDir, { recursive: true });
const corpus = join(sharedDir, 'corpus');
const haveCorpus = existsSync(join(corpus, 'faerie.md2')) && existsSync(join(corpus, 'faerie2.bmp'));

// A static server: /web/ the viewer, /models/ the bundled models,
// /corpus/ the shared corpus, /data/ files this test writes, /pkg/ the
// npm package folder, /repo/ the repository.
const repo = resolve(new URL('../..', import.meta.url).pathname);
const server = await serve({ web: webDir, models: modelsDir, corpus, data: dataDir, pkg: pkgDir, repo });
const origin = server.origin;
const browser = await chromium(npmDir);
let failed = 0;
let passed = 0;
let skipped = 0;

// A page of the viewer, once it has shown a model or an error (and drawn a
// picture, unless drawn is false: a page without the build's script draws nothing).
async function openPage(url, drawn = true) {
  const page = await browser.newPage();
  const logs = [];
  page.on('console', (m) => logs.push(m.text()));
  page.on('pageerror', (e) => logs.push(`page error: ${e.message}`));
  await page.setViewport({ width: 1200, height: 800, deviceScaleFactor: 1 });
  await page.goto(url);
  await page.waitForFunction((d) => globalThis.md2viewer && md2viewer.ready && !md2viewer.loading && (!d || md2viewer.draws > 0),
    { timeout: 60000 }, drawn);
  page.logs = logs;
  return page;
}

async function shot(page, name) {
  const file = join(outDir, `${name}.png`);
  const canvas = await page.$('#view');
  await canvas.screenshot({ path: file });
  return file;
}

// md2_view_check on a screenshot; args as md2_view_test.cmake passes them.
function check(file, skin, box, extra = []) {
  const out = execFileSync(checker, [file, skin, '--bg', '01fe02', '--bbox', ...box.map(String), ...extra],
    { encoding: 'utf8' });
  return out.trim();
}

async function test(name, fn, needsCorpus = false) {
  if (needsCorpus && !haveCorpus) {
    console.log(`SKIP ${name}: ${corpus} is not there`);
    skipped++;
    return;
  }
  try {
    await fn();
    console.log(`PASS ${name}`);
    passed++;
  } catch (e) {
    console.log(`FAIL ${name}: ${e.stack || e}`);
    failed++;
  }
}

const q = (o) => Object.entries(o).map(([k, v]) => (v === true ? k : `${k}=${encodeURIComponent(v)}`)).join('&');
const viewer = (o) => `${origin}/web/index.html?${q(o)}`;
const crystal = { model: '/models/crystal.md2', skin: '/models/skin.pcx' };
const faerie = { model: '/corpus/faerie.md2', skin: '/corpus/faerie2.bmp' };
const crystalSkin = join(modelsDir, 'skin.pcx');
const faerieSkin = join(corpus, 'faerie2.bmp');

// md2_view's screenshot views (examples/CMakeLists.txt), in the browser.
async function screenshotCase(name, src, skin, view, inside) {
  const page = await openPage(viewer({ ...src, unlit: true, bg: '01fe02', ...view }));
  const status = await page.evaluate(() => ({ box: md2viewer.projectedBox, vbox: md2viewer.projectedVertexBox,
    error: md2viewer.error, frames: md2viewer.frames }));
  assert.equal(status.error, null, JSON.stringify(status.error));
  const file = await shot(page, name);
  console.log(`  ${name}: frames ${JSON.stringify(status.frames)} projected-bbox ${status.box.join(' ')} ` +
    `projected-vertex-bbox ${status.vbox.join(' ')}`);
  console.log(`  ${check(file, skin, status.box, inside ? ['--inside'] : []).replace(/\n/g, '\n  ')}`);
  if (inside) console.log(`  ${check(file, skin, status.vbox).replace(/\n/g, '\n  ')}`);
  await page.close();
}

await test('crystal, front, orthographic, unlit: pixel box = projected box, skin colours', () =>
  screenshotCase('web_crystal', crystal, crystalSkin, { frame: 0, ortho: true, size: '320x240' }, false));
await test('crystal, a blended pose in perspective: inside the box, vertex box, skin colours', () =>
  screenshotCase('web_crystal_pose', crystal, crystalSkin,
    { frame: 9, t: 0.5, yaw: 35, pitch: 25, size: '320x240' }, true));
await test('faerie, front, orthographic, unlit (BMP skin)', () =>
  screenshotCase('web_faerie', faerie, faerieSkin, { frame: 0, ortho: true, size: '480x360' }, false), true);
await test('faerie, keyframe 42 towards 43 in perspective', () =>
  screenshotCase('web_faerie_pose', faerie, faerieSkin,
    { frame: 42, t: 0.5, yaw: -35, pitch: 20, size: '480x360' }, true), true);

// What a modder sees first, in the page's own size (the stage beside the
// panel): the idle animation (md2_anim_idle(): "stand", listed after a
// death and a pain in the .anm), paused at its first keyframe, framed over
// the animation's keyframes as md2_view frames them: the model's pixels'
// box spans 70% of the picture's height or width at least (the faerie
// lying dead at keyframe 197 too; framed by the bounding sphere, 45%).
async function idleCase(name, src, skin, extra, anim, frame) {
  const page = await openPage(viewer({ ...src, unlit: true, bg: '01fe02', paused: true, ...extra }));
  const status = await page.evaluate(() => ({ box: md2viewer.projectedBox, info: md2viewer.info,
    frames: md2viewer.frames, size: [document.getElementById('view').width, document.getElementById('view').height] }));
  if (anim) assert.match(status.info, new RegExp(`\nanimation ${anim}\n`));
  assert.equal(status.frames.a, frame);
  const file = await shot(page, name);
  const out = check(file, skin, status.box, ['--inside', '--fill', '0.7']);
  console.log(`  ${name}: ${status.size.join('x')}, frames ${JSON.stringify(status.frames)}\n  ${out.replace(/\n/g, '\n  ')}`);
  await page.close();
}
writeFileSync(join(dataDir, 'idle.anm'), 'death 14 17 4\npain 8 9 10\nstand 2 7 10\nhop 8 13 10\n');
copyFileSync(join(modelsDir, 'crystal.md2'), join(dataDir, 'idle.md2'));
await test('opens on the idle animation (after a death and a pain in the .anm), framed to fill the view', () =>
  idleCase('web_idle', { model: '/data/idle.md2', skin: '/models/skin.pcx' }, crystalSkin, {}, 'stand', 2));
await test('the faerie opens on "stand", framed to fill the view', () =>
  idleCase('web_faerie_idle', faerie, faerieSkin, {}, 'stand', 0), true);
await test('the faerie lying dead (keyframe 197) fills the view\'s width', () =>
  idleCase('web_faerie_dead', faerie, faerieSkin, { frame: 197 }, null, 197), true);

// The pixels change as the animation plays.
async function playing(name, src, anim) {
  const page = await openPage(viewer({ ...src, anim, size: '320x240', bg: '01fe02' }));
  const seen = new Set();
  const pictures = new Set();
  for (let i = 0; i < 6; i++) {
    await new Promise((r) => setTimeout(r, 250));
    const s = await page.evaluate(() => md2viewer.frames);
    seen.add(`${s.a}/${s.b}/${s.t.toFixed(3)}`);
    const png = await (await page.$('#view')).screenshot();
    pictures.add(Buffer.from(png).toString('base64'));
    if (i === 5) writeFileSync(join(outDir, `${name}.png`), png);
  }
  const info = await page.evaluate(() => md2viewer.info);
  assert.match(info, new RegExp(`animation ${anim}`));
  assert.ok(seen.size >= 3, `the pose changed ${seen.size} times: ${[...seen].join(', ')}`);
  assert.ok(pictures.size >= 3, `${pictures.size} different pictures in 6`);
  console.log(`  ${name}: ${seen.size} poses, ${pictures.size} different pictures in 1.5 s`);
  await page.close();
}
await test('crystal: "spin" plays, the pictures change', () => playing('web_crystal_playing', crystal, 'spin'));
await test('faerie: "run" plays, the pictures change', () => playing('web_faerie_playing', faerie, 'run'), true);

// Play once ends on the last frame and stays; ping-pong comes back.
await test('play once holds the last frame; ping-pong turns back', async () => {
  const page = await openPage(viewer({ ...crystal, anim: 'spin', mode: 'once', size: '160x120' }));
  await page.waitForFunction(() => md2viewer.frames && md2viewer.frames.a === md2viewer.frames.b && md2viewer.frames.a > 0,
    { timeout: 10000 });
  const end = await page.evaluate(() => md2viewer.frames.a);
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(await page.evaluate(() => md2viewer.frames.a), end);
  await page.close();
  const pp = await openPage(viewer({ ...crystal, anim: 'spin', mode: 'pingpong', size: '160x120' }));
  await pp.waitForFunction(() => md2viewer.frames && md2viewer.frames.b < md2viewer.frames.a, { timeout: 10000 });
  await pp.close();
});

// Side files beside the model's URL: an .anm and the crystal's .tag.
await test('side files beside the model URL: .anm animations and .tag names', async () => {
  copyFileSync(join(modelsDir, 'crystal.md2'), join(dataDir, 'sided.md2'));
  copyFileSync(join(modelsDir, 'crystal.tag'), join(dataDir, 'sided.tag'));
  writeFileSync(join(dataDir, 'sided.anm'), 'sway 0 5 8\nwhirl 6 11 12\n');
  const page = await openPage(viewer({ model: '/data/sided.md2', skin: '/models/skin.pcx', anim: 'whirl', size: '160x120' }));
  const s = await page.evaluate(() => ({ info: md2viewer.info, list: [...document.querySelectorAll('#anims option')].map((o) => o.textContent) }));
  assert.deepEqual(s.list.map((t) => t.split(' ')[0]), ['sway', 'whirl']);
  assert.match(s.info, /animations from the \.anm file/);
  assert.match(s.info, /animation whirl/);
  assert.match(s.info, /2 tags \(tag_rweapon, .*\) over \d+ frames/);
  await page.close();
});

// The model's own skins, found beside its URL, and the skin choice: the
// second skin's picture has the second skin's colours.
await test('skins named by the model are found beside it; choosing one draws with it', async () => {
  const page = await openPage(viewer({ model: '/models/crystal.md2', frame: 0, unlit: true, ortho: true,
    size: '320x240', bg: '01fe02' }));
  const names = await page.$$eval('#skins option', (o) => o.map((x) => x.textContent));
  assert.deepEqual(names, ['skin.pcx (128x64)', 'skin_dark.pcx (128x64)']);
  const draws = await page.evaluate(() => md2viewer.draws);
  await page.select('#skins', '1');
  await page.evaluate(() => globalThis.md2viewer.redraw());
  await page.waitForFunction((n) => md2viewer.draws > n, {}, draws);
  const box = await page.evaluate(() => md2viewer.projectedBox);
  const file = await shot(page, 'web_crystal_dark');
  console.log(`  ${check(file, join(modelsDir, 'skin_dark.pcx'), box).replace(/\n/g, '\n  ')}`);
  // and the first skin's colours are not what it drew
  assert.throws(() => check(file, crystalSkin, box));
  await page.close();
});

// Pause holds the pose; the frame slider shows the keyframe it names;
// dragging orbits and the wheel zooms; what lenient loading repaired is said.
await test('pause, the frame slider, drag to orbit, wheel to zoom, repairs listed', async () => {
  const bytes = readFileSync(join(modelsDir, 'crystal.md2'));
  writeFileSync(join(dataDir, 'padded.md2'), Buffer.concat([bytes, Buffer.alloc(9)]));
  const page = await openPage(viewer({ model: '/data/padded.md2', skin: '/models/skin.pcx', anim: 'spin', size: '320x240' }));
  assert.match(await page.evaluate(() => md2viewer.info), /repaired: /);
  await page.click('#paused');
  const held = await page.evaluate(() => md2viewer.frames);
  await new Promise((r) => setTimeout(r, 400));
  assert.deepEqual(await page.evaluate(() => md2viewer.frames), held);
  await page.$eval('#frame', (e) => { e.value = '11'; e.dispatchEvent(new Event('input')); });
  await page.waitForFunction(() => md2viewer.frames.a === 11 && md2viewer.frames.t === 0, { timeout: 5000 });
  const box0 = await page.evaluate(() => md2viewer.projectedBox);
  const c = await (await page.$('#view')).boundingBox();
  await page.mouse.move(c.x + 100, c.y + 100);
  await page.mouse.down();
  await page.mouse.move(c.x + 180, c.y + 140, { steps: 4 });
  await page.mouse.up();
  await page.waitForFunction((b) => md2viewer.projectedBox.join() !== b.join(), { timeout: 5000 }, box0);
  const box1 = await page.evaluate(() => md2viewer.projectedBox);
  await page.mouse.wheel({ deltaY: -300 });
  await page.waitForFunction((b) => md2viewer.projectedBox.join() !== b.join(), { timeout: 5000 }, box1);
  const box2 = await page.evaluate(() => md2viewer.projectedBox);
  const width = (b) => b[2] - b[0];
  assert.ok(width(box2) > width(box1), `zoomed in: ${box1} -> ${box2}`);
  await page.close();
});

// Files dropped on the picture: a model, its skin and a .framegroups file.
await test('files dropped on the picture are loaded with their side file', async () => {
  const page = await openPage(viewer({ size: '320x240' }));
  await page.evaluate(async () => {
    const dt = new DataTransfer();
    for (const [url, name] of [['/models/crystal.md2', 'crystal.md2'], ['/models/skin_dark.pcx', 'skin_dark.pcx']]) {
      dt.items.add(new File([await (await fetch(url)).arrayBuffer()], name));
    }
    dt.items.add(new File(['0 8 10 1 // turn\n8 6 10 1 // hop\n'], 'crystal.framegroups'));
    document.getElementById('stage').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  });
  await page.waitForFunction(() => md2viewer.info && /crystal\.md2/.test(md2viewer.info), { timeout: 10000 });
  const s = await page.evaluate(() => ({ info: md2viewer.info,
    anims: [...document.querySelectorAll('#anims option')].map((o) => o.textContent.split(' ')[0]),
    skins: [...document.querySelectorAll('#skins option')].map((o) => o.textContent) }));
  assert.deepEqual(s.anims, ['turn', 'hop']);
  assert.deepEqual(s.skins, ['skin_dark.pcx (128x64)']);
  assert.match(s.info, /animations from the \.framegroups file/);
  await page.close();
});

// A truncated file: the library's own message on the page.
await test('a truncated file shows the library\'s message', async () => {
  const bytes = readFileSync(join(modelsDir, 'crystal.md2')).subarray(0, 100);
  writeFileSync(join(dataDir, 'truncated.md2'), bytes);
  let expected = null;
  try { (await load(bytes)).free(); } catch (e) { expected = e.message; }
  assert.ok(expected);
  const page = await openPage(viewer({ model: '/data/truncated.md2', size: '160x120' }));
  const text = await page.$eval('#error', (e) => e.textContent);
  const err = await page.evaluate(() => md2viewer.error);
  assert.equal(text, `truncated.md2: ${expected}`);
  assert.equal(err.section, 'skins');
  assert.equal(err.field, 'ofs_skins');
  console.log(`  the page says: "${text}"`);
  await shot(page, 'web_truncated_page');
  await page.screenshot({ path: join(outDir, 'web_truncated_full.png') });
  await page.close();
});

// Wireframe, bounding box and back to front draw, each its own picture.
await test('wireframe, bounding box and translucent back-to-front draw', async () => {
  const base = { ...crystal, frame: 3, size: '320x240', bg: '01fe02', yaw: 20 };
  const pictures = {};
  for (const [name, extra] of [['solid', {}], ['wireframe', { wireframe: true }], ['box', { box: true }],
    ['translucent', { translucent: 0.5 }]]) {
    const page = await openPage(viewer({ ...base, ...extra }));
    assert.equal(await page.evaluate(() => md2viewer.error), null);
    const file = await shot(page, `web_mode_${name}`);
    pictures[name] = readFileSync(file).toString('base64');
    assert.deepEqual(page.logs.filter((l) => /error/i.test(l)), []);
    await page.close();
  }
  assert.equal(new Set(Object.values(pictures)).size, 4, 'the four modes drew four different pictures');
});

// From file://: the page, the module from its base64, a model and its skin picked by hand.
await test('file://: index.html with a model and skin picked in the file input', async () => {
  const page = await openPage(`${pathToFileURL(join(webDir, 'index.html')).href}?size=320x240&bg=01fe02&unlit&ortho`);
  const input = await page.$('#files');
  await input.uploadFile(join(modelsDir, 'crystal.md2'), join(modelsDir, 'skin.pcx'));
  await page.waitForFunction(() => md2viewer.info && /crystal\.md2/.test(md2viewer.info) && md2viewer.draws > 1,
    { timeout: 20000 });
  const s = await page.evaluate(() => ({ info: md2viewer.info, error: md2viewer.error, box: md2viewer.projectedBox }));
  assert.equal(s.error, null);
  assert.match(s.info, /\d+ vertices, \d+ triangles/);
  await page.$eval('#paused', (e) => { e.click(); });
  await new Promise((r) => setTimeout(r, 100));
  const box = await page.evaluate(() => md2viewer.projectedBox);
  const file = await shot(page, 'web_file_url');
  console.log(`  ${check(file, crystalSkin, box, ['--inside']).replace(/\n/g, '\n  ')}`);
  await page.close();
});

// The page as it is in the repository: it uses the build's script in
// build-web/web/ (when the build folder is that one, as in tests/web/web.sh),
// and alone, without any build, it says how to build it.
await test('examples/web/index.html in the repository: the build\'s script, or how to build it', async () => {
  const source = new URL('../../examples/web/', import.meta.url);
  if (resolve(webDir) === resolve(new URL('../../build-web/web', import.meta.url).pathname)) {
    const page = await openPage(`${new URL('index.html', source).href}?size=160x120`);
    assert.equal(await page.evaluate(() => md2viewer.error), null);
    const input = await page.$('#files');
    await input.uploadFile(join(modelsDir, 'crystal.md2'));
    await page.waitForFunction(() => md2viewer.info && /crystal\.md2/.test(md2viewer.info), { timeout: 20000 });
    await page.close();
    // served from the repository's root, with a model URL and its side file
    const served = await openPage(`${origin}/repo/examples/web/index.html?model=/repo/examples/models/crystal.md2&anim=bounce&size=160x120`);
    const s2 = await served.evaluate(() => ({ error: md2viewer.error, info: md2viewer.info }));
    assert.equal(s2.error, null);
    assert.match(s2.info, /animation bounce/);
    assert.match(s2.info, /2 tags/);
    await served.close();
  } else {
    console.log(`  (the build folder is not build-web: only the page alone is tried)`);
  }
  const alone = join(outDir, 'alone');
  mkdirSync(alone, { recursive: true });
  for (const f of ['index.html', 'viewer.js']) copyFileSync(new URL(f, source), join(alone, f));
  const page = await openPage(pathToFileURL(join(alone, 'index.html')).href, false);
  assert.match(await page.$eval('#error', (e) => e.textContent), /libmd2_web\.js is missing.*-DMD2_WEB=ON.*build\/web\/index\.html/);
  await page.close();
});

// The package's ES module in the browser, fetching its .wasm beside it.
await test('the npm package\'s module in the browser: import, load, decodeFrame, a refused file', async () => {
  const page = await browser.newPage();
  await page.goto(`${origin}/pkg/README.md`);
  const got = await page.evaluate(async () => {
    const md2 = await import('/pkg/libmd2.mjs');
    const bytes = await (await fetch('/models/crystal.md2')).arrayBuffer();
    const m = await md2.load(bytes);
    const out = { numVertices: m.numVertices, numFrames: m.numFrames, last: Array.from(m.decodeFrame(m.numFrames - 1)) };
    m.free();
    try { await md2.load(bytes.slice(0, 100)); } catch (e) { out.error = `${e.name}: ${e.message}`; }
    return out;
  });
  const m = await load(readFileSync(join(modelsDir, 'crystal.md2')));
  assert.equal(got.numVertices, m.numVertices);
  assert.deepEqual(got.last, Array.from(m.decodeFrame(m.numFrames - 1)));
  m.free();
  assert.match(got.error, /^Md2Error: skins: .* past the end of the data \(100 bytes\)$/);
  await page.close();
});

await browser.close();
server.close();
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
if (failed) process.exit(1);
if (skipped) console.log('BROWSER_SKIPPED: the shared corpus is absent');
