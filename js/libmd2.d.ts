// TypeScript declarations of libmd2.mjs (docs/web.md).
// SPDX-License-Identifier: MIT

/** Names of the library's result codes, by number. */
export declare const RESULTS: readonly string[];

/** Play modes of Player.play(). */
export declare const PLAY: Readonly<{ DEFAULT: 0; LOOP: 1; ONCE: 2; PINGPONG: 3 }>;

/** Flags of Model.meshLerp(), or'ed. */
export declare const LAYOUT: Readonly<{ UNIT_NORMALS: 1; Y_UP: 2; FLIP_V: 4 }>;

/** Every strict flag: load(bytes, { strict: STRICT_ALL }). */
export declare const STRICT_ALL: number;

/** A diagnostic of the library as an exception. */
export declare class Md2Error extends Error {
  /** md2_result as a number. */
  readonly code: number;
  /** Its name, e.g. "MD2_ERR_SECTION_OUT_OF_BOUNDS". */
  readonly result: string;
  /** "header", "skins", "texcoords", "triangles", "frames", "glcmds", "side file", "tags" or "none". */
  readonly section: string;
  /** The header or element field at fault, e.g. "ofs_skins"; "" if none. */
  readonly field: string;
  /** Byte offset in the data (or the side file's text). */
  readonly offset: number;
  /** Element number within the section. */
  readonly index: number;
  /** Side files: 1-based line and column (0: none). */
  readonly line: number;
  readonly column: number;
}

export interface LoadOptions {
  /** md2_warning flags to treat as errors (STRICT_ALL: all). Default 0: lenient. */
  strict?: number;
}

export interface Bounds {
  min: [number, number, number];
  max: [number, number, number];
}

export interface Animation {
  name: string;
  first: number;
  last: number;
  fps: number;
  loop: boolean;
  /** True for the one animation a viewer opens on (md2_anim_idle(): "stand", else "idle",
   *  ignoring case, else the first that loops, else the first). */
  idle: boolean;
}

export interface AnimationSource {
  /** The text of a UFO:AI .anm file. */
  anm?: string | Uint8Array;
  /** The text of a DarkPlaces .framegroups file. */
  framegroups?: string | Uint8Array;
  /** The standard Quake II player table. */
  quake2?: boolean;
}

export interface Mesh {
  numVertices: number;
  memoryBytes: number;
  /** Three indices a triangle into the welded vertices. */
  indices: Uint32Array;
  /** The model vertex of each welded vertex. */
  sourceVertex: Uint32Array;
  /** u, v of each welded vertex (v = 0 is the skin's top row). */
  uv: Float32Array;
}

export interface Morph {
  /** 4 bytes (x, y, z, normal index) a welded vertex a frame, frame after frame. */
  vertices: Uint8Array;
  /** scale[3] then translate[3] of each frame. */
  transforms: Float32Array;
  /** The 162 table normals, 3 floats each. */
  normals: Float32Array;
}

export interface MeshOptions {
  /** Front faces counter-clockwise (WebGL's default). Default true. */
  counterClockwise?: boolean;
}

export interface Pose {
  positions: Float32Array;
  normals: Float32Array | null;
}

export interface PlayerState {
  frameA: number;
  frameB: number;
  t: number;
  fromA: number;
  fromB: number;
  fromT: number;
  weight: number;
  finished: boolean;
  position: number;
}

/** A loaded model, in the module's memory until free(). */
export declare class Model {
  readonly numVertices: number;
  readonly numTexcoords: number;
  readonly numTriangles: number;
  readonly numFrames: number;
  readonly numSkins: number;
  readonly numGlcmds: number;
  readonly skinWidth: number;
  readonly skinHeight: number;
  /** md2_warning flags of the quirks lenient loading repaired. */
  readonly warnings: number;
  /** Bytes of the model's one allocation. */
  readonly memoryBytes: number;
  readonly skins: string[];
  readonly frameNames: string[];
  readonly warningTexts: string[];
  /** Keyframe i's positions as md2_decode_frame() gives them: numVertices * 3 floats. */
  decodeFrame(i: number, out?: Float32Array): Float32Array;
  /** Keyframe i's table normals: numVertices * 3 floats. */
  decodeNormals(i: number, out?: Float32Array): Float32Array;
  /** Positions between keyframes a and b at t in [0, 1]. */
  lerp(a: number, b: number, t: number, out?: Float32Array): Float32Array;
  /** The same as views of the module's memory (no copy), valid until the next call. */
  lerpView(a: number, b: number, t: number, withNormals?: boolean): Pose;
  frameBounds(i: number): Bounds;
  animations(source?: AnimationSource): Animation[];
  player(): Player;
  mesh(options?: MeshOptions): Mesh;
  morph(options?: MeshOptions): Morph;
  /** The pose of every welded vertex, 8 floats each (position, normal, uv); flags from LAYOUT. */
  meshLerp(a: number, b: number, t: number, flags?: number, options?: MeshOptions): Float32Array;
  /** Triangle indices from the farthest to the nearest to eye (model space). */
  backToFront(a: number, b: number, t: number, eye: [number, number, number] | Float32Array,
              options?: MeshOptions): Uint32Array;
  /** Releases the model; safe to call twice. A FinalizationRegistry releases a model that was never freed. */
  free(): void;
}

/** One instance's playback state. */
export declare class Player {
  play(anim: Pick<Animation, 'first' | 'last'> & Partial<Animation>, mode?: number, rate?: number): void;
  /** Cross-fades to anim over duration seconds. */
  crossfade(anim: Pick<Animation, 'first' | 'last'> & Partial<Animation>, duration: number, mode?: number,
            rate?: number): void;
  /** Advances by dt seconds; returns event flags (1 looped, 2 finished, 4 fade done). */
  advance(dt: number): number;
  seek(position: number): void;
  state(): PlayerState;
  pose(out?: Float32Array): Float32Array;
  free(): void;
}

export interface Image {
  width: number;
  height: number;
  /** width * height * 4 bytes, row 0 the top. */
  rgba: Uint8ClampedArray;
}

export interface Tags {
  names: string[];
  numFrames: number;
}

/** The instantiated module, from init(). */
export interface Library {
  readonly memory: ArrayBuffer;
}

/** Instantiates the module once; load() calls it. source: the .wasm's bytes or a compiled module. */
export declare function init(source?: BufferSource | WebAssembly.Module): Promise<Library>;
/** Loads a model; rejects with an Md2Error carrying the library's diagnostic. */
export declare function load(bytes: ArrayBuffer | Uint8Array, options?: LoadOptions): Promise<Model>;
/** load() with the Library init() resolved to, without a promise. */
export declare function loadSync(lib: Library, bytes: ArrayBuffer | Uint8Array, options?: LoadOptions): Model;
/** Decodes a PCX skin to RGBA. */
export declare function decodePcx(bytes: ArrayBuffer | Uint8Array): Promise<Image>;
/** Parses a UFO:AI .tag file. */
export declare function parseTags(bytes: ArrayBuffer | Uint8Array): Promise<Tags>;
/** The size of the module's linear memory in bytes. */
export declare function memoryBytes(): Promise<number>;
