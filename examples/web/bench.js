// bench.html: libmd2 (WebAssembly, libmd2_web.js) against three.js's
// MD2Loader, load plus first pose of each model, in one run of one browser.
//   libmd2: load(bytes), the welded mesh (indices, uv), keyframe 0's positions
//   three:  new MD2Loader().parse(buffer): a BufferGeometry whose position
//           attribute is keyframe 0, with every frame as a morph target
// Time: the fastest and the median of several samples, each a batch long
// enough for the clock (performance.now() is coarse in a page); the first
// run alone too. Memory: what each keeps for a loaded model, measured with
// a garbage collection before and after (gc() with --js-flags=--expose-gc):
// the JavaScript heap's growth plus the bytes of the typed arrays it holds,
// and for libmd2 also the WebAssembly memory's growth (at least the bytes
// the model, its mesh and its pose buffer hold there).
// SPDX-License-Identifier: MIT
'use strict';

(async function () {
  const out = document.getElementById('result');
  const params = new URLSearchParams(location.search);
  const state = { done: false, error: null, results: [], exactHeap: false };
  globalThis.md2bench = state;
  const print = (text) => { out.textContent = text; };

  try {
    const urls = (params.get('models') || '').split(',').filter(Boolean);
    if (!urls.length) throw new Error('give the models to measure: bench.html?models=URL,URL');
    const threeBase = new URL(params.get('three') || '../npm/node_modules/three/', location.href).href;
    const map = document.createElement('script');
    map.type = 'importmap';
    map.textContent = JSON.stringify({ imports: { three: `${threeBase}build/three.module.js` } });
    document.head.appendChild(map);
    const THREE = await import(`${threeBase}build/three.module.js`);
    const { MD2Loader } = await import(`${threeBase}examples/jsm/loaders/MD2Loader.js`);
    const lib = await libmd2.init();

    const gc = typeof globalThis.gc === 'function' ? globalThis.gc : null;
    state.exactHeap = !!gc && !!performance.memory;
    const heap = () => {
      if (gc) { gc(); gc(); }
      return performance.memory ? performance.memory.usedJSHeapSize : 0;
    };
    const arrayBytes = (arrays) => arrays.reduce((s, a) => s + a.byteLength, 0);

    function libmd2Pose(bytes) {
      const model = libmd2.loadSync(lib, bytes);
      const mesh = model.mesh();
      const pose = model.decodeFrame(0);
      return { model, mesh, pose };
    }
    function threePose(buffer) {
      return new MD2Loader().parse(buffer);
    }
    function threeArrays(geometry) {
      const arrays = Object.values(geometry.attributes).map((a) => a.array);
      for (const list of Object.values(geometry.morphAttributes)) for (const a of list) arrays.push(a.array);
      if (geometry.index) arrays.push(geometry.index.array);
      return arrays;
    }

    // samples of fn: per call, each sample a batch of at least 25 ms
    function timing(fn, samples) {
      const t0 = performance.now();
      fn();
      const first = performance.now() - t0;
      let batch = 1;
      for (;;) {
        const s = performance.now();
        for (let i = 0; i < batch; i++) fn();
        if (performance.now() - s >= 25 || batch >= 1 << 16) break;
        batch *= 2;
      }
      const times = [];
      for (let k = 0; k < samples; k++) {
        if (gc) gc();
        const s = performance.now();
        for (let i = 0; i < batch; i++) fn();
        times.push((performance.now() - s) / batch);
      }
      times.sort((a, b) => a - b);
      return { first, fastest: times[0], median: times[times.length >> 1], batch };
    }

    const models = [];
    for (const url of urls) {
      const r = await fetch(url);
      if (!r.ok) throw new Error(`cannot fetch ${url}: HTTP ${r.status}`);
      models.push({ name: decodeURIComponent(url.split('/').pop()), buffer: await r.arrayBuffer() });
    }

    for (const m of models) {
      const bytes = new Uint8Array(m.buffer);
      // memory, libmd2 first (its instance is fresh for the first model)
      let h0 = heap();
      let w0 = lib.memory.byteLength;
      const kept = libmd2Pose(bytes);
      let h1 = heap();
      const wasmGrowth = lib.memory.byteLength - w0;
      const wasmKept = kept.model.memoryBytes + kept.mesh.memoryBytes + kept.model.numVertices * 24;
      const libJs = Math.max(0, h1 - h0) + arrayBytes([kept.mesh.indices, kept.mesh.uv, kept.mesh.sourceVertex, kept.pose]);
      const libMemory = libJs + Math.max(wasmGrowth, wasmKept);
      const info = { vertices: kept.model.numVertices, frames: kept.model.numFrames, triangles: kept.model.numTriangles };
      kept.model.free();
      h0 = heap();
      const geometry = threePose(m.buffer);
      h1 = heap();
      const threeMemory = Math.max(0, h1 - h0) + arrayBytes(threeArrays(geometry));
      const threeVertices = geometry.attributes.position.count;
      const threeTargets = (geometry.morphAttributes.position || []).length;
      geometry.dispose();

      const samples = m.buffer.byteLength > (1 << 20) ? 5 : 15;
      const libTime = timing(() => { const k = libmd2Pose(bytes); k.model.free(); }, samples);
      const threeTime = timing(() => { threePose(m.buffer); }, samples);
      state.results.push({ model: m.name, bytes: m.buffer.byteLength, ...info,
        libmd2: { ...libTime, memory: libMemory, wasmGrowth, wasmKept, js: libJs },
        three: { ...threeTime, memory: threeMemory, vertices: threeVertices, targets: threeTargets },
        speedup: threeTime.median / libTime.median, memoryRatio: libMemory / threeMemory });
    }

    const ms = (x) => x.toFixed(x < 1 ? 3 : 1).padStart(9);
    const mb = (x) => (x / 1048576).toFixed(2).padStart(8);
    const lines = [`${navigator.userAgent}`, `three r${THREE.REVISION}`,
      `heap measured ${state.exactHeap ? 'after gc(), precise' : 'without gc() (approximate)'}`, '',
      'model                      who     first ms  fastest ms  median ms    MiB kept',
    ];
    for (const r of state.results) {
      lines.push(`${r.model.padEnd(26)} libmd2 ${ms(r.libmd2.first)} ${ms(r.libmd2.fastest)}  ${ms(r.libmd2.median)}  ${mb(r.libmd2.memory)}`);
      lines.push(`${''.padEnd(26)} three  ${ms(r.three.first)} ${ms(r.three.fastest)}  ${ms(r.three.median)}  ${mb(r.three.memory)}`);
      lines.push(`${''.padEnd(26)} libmd2 is ${r.speedup.toFixed(1)} times faster (medians) and keeps ` +
        `${(r.memoryRatio * 100).toFixed(1)} % of three's memory (1/${(1 / r.memoryRatio).toFixed(1)})`);
      lines.push(`${''.padEnd(26)} (${r.vertices} vertices, ${r.triangles} triangles, ${r.frames} frames; ` +
        `three: ${r.three.vertices} vertices x ${r.three.targets} morph targets; libmd2 WebAssembly memory +${r.libmd2.wasmGrowth} bytes)`);
    }
    print(lines.join('\n'));
    state.done = true;
  } catch (e) {
    state.error = e.message;
    state.done = true;
    print(`error: ${e.message}`);
  }
})();
