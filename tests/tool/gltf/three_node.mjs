// three.js and its GLTFLoader in Node, for the judges that load glTF with
// them (three_compare.mjs, three_tags.mjs, import_compare.mjs): the npm
// folder's copy of three, the one piece of the DOM its FileLoader needs,
// and the clips played as md2_player plays animations (playSamples).
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

// The animations of anims in md2 export's order: the idle one first
// ("stand", else "idle", ignoring case, else the first that loops), the
// others in their order.
export function idleFirst(anims) {
  let idle = anims.findIndex((an) => an.name.toLowerCase() === 'stand');
  if (idle < 0) idle = anims.findIndex((an) => an.name.toLowerCase() === 'idle');
  if (idle < 0) idle = anims.findIndex((an) => an.loop);
  if (idle < 0) idle = 0;
  return anims.length ? [anims[idle], ...anims.filter((_, i) => i !== idle)] : [];
}

// Plays each clip of gltf against the animation of anims (REF.json's:
// { name, loop, samples: [{ time, ... }] }) of the same index: repeating
// the looping ones, holding the others at their end, as md2_player does;
// at each sample, from the clip's start, calls visit(sample, label).
// check(ok, message) hears a clip count or name that differs.
export function playSamples(THREE, gltf, anims, check, visit) {
  const clips = gltf.animations;
  check(clips.length === anims.length, `${clips.length} clips, libmd2 has ${anims.length} animations`);
  const mixer = new THREE.AnimationMixer(gltf.scene);
  for (let a = 0; a < Math.min(clips.length, anims.length); a++) {
    const clip = clips[a], an = anims[a];
    check(clip.name === an.name, `clip ${a} is named '${clip.name}', libmd2's animation '${an.name}'`);
    const action = mixer.clipAction(clip);
    action.setLoop(an.loop ? THREE.LoopRepeat : THREE.LoopOnce, Infinity);
    action.clampWhenFinished = true;
    for (const s of an.samples) {
      action.reset();
      action.play();
      mixer.setTime(s.time);
      visit(s, `${an.name} at ${s.time.toFixed(4)} s`);
    }
    action.stop();
  }
  return clips.length;
}
