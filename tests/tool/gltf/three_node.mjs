// three.js and its GLTFLoader in Node, for the judges that load glTF with
// them (three_compare.mjs, import_compare.mjs): the npm folder's copy of
// three, and the one piece of the DOM its FileLoader needs.
//
// SPDX-License-Identifier: MIT
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// Node has fetch (FileLoader reads a .gltf's data: URI buffer with it) but
// not the DOM's ProgressEvent, which FileLoader reports progress with.
if (typeof globalThis.ProgressEvent === 'undefined') {
  globalThis.ProgressEvent = class ProgressEvent extends Event {
    constructor(type, init = {}) {
      super(type);
      this.lengthComputable = Boolean(init.lengthComputable);
      this.loaded = init.loaded ?? 0;
      this.total = init.total ?? 0;
    }
  };
}

// { THREE, GLTFLoader } from npm/node_modules/three.
export async function loadThree(npm) {
  const modules = path.join(path.resolve(npm), 'node_modules', 'three');
  const THREE = await import(pathToFileURL(path.join(modules, 'build', 'three.module.js')).href);
  const { GLTFLoader } = await import(
    pathToFileURL(path.join(modules, 'examples', 'jsm', 'loaders', 'GLTFLoader.js')).href);
  return { THREE, GLTFLoader };
}
