// Builds libmd2.wasm, the WebAssembly module of the npm package `libmd2`,
// from the library's own C sources: clang for wasm32-wasi with wasi-libc (a
// WASI reactor: no main(), no JavaScript glue from a toolchain). The one
// recipe of the module: `npm run build` and `npm pack` here run it, and so
// does CMake (-DMD2_WEB=ON, js/CMakeLists.txt) for build/js/libmd2/.
//
//   node build.mjs             libmd2.wasm beside this file (npm run build)
//   node build.mjs --prepack   the same, then checks that every file of
//                              package.json's "files" is there and that the
//                              module instantiates under libmd2.mjs; npm pack
//                              runs it first (prepack) and packs nothing when
//                              it fails
//   node build.mjs --out DIR   the package folder in DIR: libmd2.wasm built
//                              there, the package's other files copied, and
//                              package.json without its "scripts" (they need
//                              the repository around this folder)
//   node build.mjs --check     a trial link with the module's flags only: exit
//                              status 0 when the clang can build the module,
//                              else 1 and the reason (CMake's configure step)
//   node build.mjs --sources   the library's .c files, one a line
//
// The clang: --cc PATH, else the environment variable MD2_WASM_CC, else
// clang-14, then clang, on PATH. It needs lld (wasm-ld), wasi-libc and the
// wasm32 compiler-rt builtins; on Debian or Ubuntu:
//   apt-get install clang-14 lld-14 wasi-libc libclang-rt-14-dev-wasm32
//
// The library's sources are the md2 target's: the .c files of
// add_library(md2 ...) in the repository's CMakeLists.txt (one list; CMake
// checks at configure time that this script reads the same files).
//
// SPDX-License-Identifier: MIT
import { spawnSync } from 'node:child_process';
import { accessSync, constants, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync,
  rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const WASM = 'libmd2.wasm';
const INSTALL = 'clang 14 or later with lld, wasi-libc and the wasm32 compiler-rt builtins ' +
  '(Debian or Ubuntu: apt-get install clang-14 lld-14 wasi-libc libclang-rt-14-dev-wasm32), ' +
  'or MD2_WASM_CC=/path/to/clang for another clang that targets wasm32-wasi';

// The library's flags (C99, pedantic warnings as errors, no floating-point
// contraction), optimised, with wasm SIMD128 so that clang may vectorise the
// scalar kernels (IEEE operations lane by lane: the same bits, which
// tests/web/digest.mjs checks against the native build).
const FLAGS = ['--target=wasm32-wasi', '-std=c99', '-O2', '-msimd128', '-Wall', '-Wextra', '-Wpedantic', '-Werror',
  '-ffp-contract=off', '-DMD2_STATIC', '-mexec-model=reactor'];

// The library's functions that take numbers and pointers only, exported as
// they are; the md2js_* wrappers of md2js.c export themselves.
const EXPORTS = ['md2_free', 'md2_lerp', 'md2_frame_bounds', 'md2_normal', 'md2_result_string',
  'md2_section_string', 'md2_warning_string', 'md2_version_string', 'md2_player_advance', 'md2_player_seek',
  'md2_player_pose', 'md2_mesh_free', 'md2_mesh_morph_size', 'md2_mesh_morph_data', 'md2_frame_transforms',
  'md2_mesh_sort_scratch_size', 'md2_image_free', 'md2_tags_free'];
const LINK = ['-Wl,--gc-sections', '-Wl,--strip-debug', ...EXPORTS.map((e) => `-Wl,--export=${e}`)];

class BuildError extends Error {}

// The .c files of add_library(md2 ...) in CMakeLists.txt, as paths relative
// to the repository, in their order.
export function librarySources() {
  const listFile = join(root, 'CMakeLists.txt');
  if (!existsSync(listFile)) {
    throw new BuildError(`${listFile} is missing: this folder builds from the libmd2 repository around it (js/ beside CMakeLists.txt, src/ and include/)`);
  }
  const text = readFileSync(listFile, 'utf8');
  const start = text.search(/^add_library\(md2\s/m);
  if (start < 0) throw new BuildError(`${listFile} has no add_library(md2 ...)`);
  const body = text.slice(start + 'add_library(md2'.length).split('\n').map((l) => l.replace(/#.*/, '')).join('\n');
  const end = body.indexOf(')');
  if (end < 0) throw new BuildError(`${listFile}: add_library(md2 ... has no closing parenthesis`);
  const sources = [];
  for (const word of body.slice(0, end).split(/\s+/).filter(Boolean)) {
    if (/[$"<>;]/.test(word)) {
      throw new BuildError(`${listFile}: add_library(md2 ...) names "${word}"; js/build.mjs reads plain file names only`);
    }
    if (!word.endsWith('.c')) continue;
    if (!existsSync(join(root, word))) throw new BuildError(`${word} (add_library(md2 ...) in ${listFile}) is missing`);
    sources.push(word);
  }
  if (sources.length === 0) throw new BuildError(`${listFile}: add_library(md2 ...) lists no .c file`);
  return sources;
}

function onPath(name) {
  const exts = process.platform === 'win32' ? ['.exe', ''] : [''];
  for (const dir of (process.env.PATH || '').split(delimiter).filter(Boolean)) {
    for (const ext of exts) {
      const file = join(dir, name + ext);
      try {
        accessSync(file, constants.X_OK);
        return file;
      } catch {
        // not in this folder
      }
    }
  }
  return null;
}

function findClang(cc) {
  const given = cc || process.env.MD2_WASM_CC;
  if (given) {
    const found = given.includes('/') || given.includes(sep) ? (existsSync(given) ? given : null) : onPath(given);
    if (!found) throw new BuildError(`no clang at ${given} (${cc ? '--cc' : 'MD2_WASM_CC'})`);
    return found;
  }
  const found = onPath('clang-14') || onPath('clang');
  if (!found) throw new BuildError('no clang on PATH (looked for clang-14 and clang)');
  return found;
}

// Runs clang in the repository with relative paths (so the module does not
// depend on where the repository is); a failure names what is missing when
// the output says it.
function clang(cc, args) {
  const r = spawnSync(cc, args, { cwd: root, encoding: 'utf8' });
  if (r.error) throw new BuildError(`cannot run ${cc}: ${r.error.message}`);
  if (r.status === 0) return;
  const all = `${r.stdout || ''}${r.stderr || ''}`.trim();
  const lines = all.split('\n');
  const shown = lines.length > 24 ? `${lines.slice(0, 20).join('\n')}\n... (${lines.length - 20} more lines)` : all;
  let what = null;
  if (/wasm-ld|unable to execute command|linker.*not found/i.test(all) && !/wasm-ld: error/.test(all)) {
    what = 'lld (wasm-ld: Debian lld-14)';
  } else if (/libclang_rt\.builtins-wasm32\.a/.test(all)) {
    what = 'the wasm32 compiler-rt builtins (Debian libclang-rt-14-dev-wasm32)';
  } else if (/'(stdlib|string|stddef|stdint|math|stdio)\.h' file not found|crt1[-\w]*\.o|unable to find library -lc\b/.test(all)) {
    what = 'wasi-libc (Debian wasi-libc)';
  }
  const status = r.signal ? `signal ${r.signal}` : `status ${r.status}`;
  throw new BuildError(`${cc} failed (${status})${what ? `: it lacks ${what}` : ''}:\n${shown}`);
}

function compile(cc, outFile) {
  const glue = relative(root, join(here, 'md2js.c')).split(sep).join('/');
  const part = `${outFile}.part`;
  rmSync(part, { force: true });
  clang(cc, [...FLAGS, '-Iinclude', '-Isrc', ...LINK, '-o', part, ...librarySources(), glue]);
  renameSync(part, outFile);
}

function check(cc) {
  const dir = mkdtempSync(join(tmpdir(), 'libmd2-wasm-check-'));
  try {
    // malloc, memset and a 64-bit division: wasi-libc and the builtins
    writeFileSync(join(dir, 'trial.c'), '#include <stdlib.h>\n#include <string.h>\n' +
      '__attribute__((export_name("f"))) double f(unsigned long long a, unsigned long long b) {\n' +
      '  char *p = malloc(8); double d = (double)(a / b); if (p) { memset(p, 0, 8); free(p); } return d; }\n');
    clang(cc, [...FLAGS, '-o', join(dir, 'trial.wasm'), join(dir, 'trial.c')]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// The package's files are there, and libmd2.mjs instantiates the module.
async function verify(dir) {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const missing = (pkg.files || []).filter((f) => !existsSync(join(dir, f)));
  if (missing.length) throw new BuildError(`the package lacks ${missing.join(', ')} (package.json "files")`);
  const lib = await import(pathToFileURL(join(dir, 'libmd2.mjs')).href);
  try {
    await lib.init(readFileSync(join(dir, WASM)));
  } catch (e) {
    throw new BuildError(`${join(dir, WASM)} does not instantiate under libmd2.mjs: ${e.message}`);
  }
}

function packageFolder(cc, out) {
  mkdirSync(out, { recursive: true });
  const pkg = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));
  for (const f of pkg.files) if (f !== WASM) copyFileSync(join(here, f), join(out, f));
  delete pkg.scripts;
  writeFileSync(join(out, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  compile(cc, join(out, WASM));
}

function usage() {
  console.error('usage: node build.mjs [--prepack | --out DIR | --check | --sources] [--cc CLANG]');
  process.exit(2);
}

async function main(argv) {
  let mode = 'build';
  let out = null;
  let cc = null;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--cc' && i + 1 < argv.length) cc = argv[++i];
    else if (a === '--out' && i + 1 < argv.length) [mode, out] = ['out', resolve(argv[++i])];
    else if (['--prepack', '--check', '--sources'].includes(a)) mode = a.slice(2);
    else usage();
  }
  const target = mode === 'out' ? join(out, WASM) : join(here, WASM);
  try {
    if (mode === 'sources') {
      console.log(librarySources().join('\n'));
    } else if (mode === 'check') {
      const clangPath = findClang(cc);
      check(clangPath);
      console.log(`${clangPath} builds for wasm32-wasi`);
    } else {
      const clangPath = findClang(cc);
      if (mode === 'out') packageFolder(clangPath, out);
      else compile(clangPath, target);
      if (mode === 'prepack') await verify(here);
      console.error(`libmd2: built ${target} with ${clangPath}`);
    }
  } catch (e) {
    if (!(e instanceof BuildError)) throw e;
    if (mode === 'prepack') {
      console.error(`libmd2: npm pack refused: ${e.message}\nThe package is not packed without ${WASM} (${target}), ` +
        `which \`npm run build\` in ${here} makes; the build needs ${INSTALL}.`);
    } else if (mode === 'sources') {
      console.error(e.message);
    } else if (mode === 'check') {
      console.error(`${e.message}\nIt needs ${INSTALL}.`);
    } else {
      console.error(`libmd2: cannot build ${target}: ${e.message}\nIt needs ${INSTALL}.`);
    }
    process.exitCode = 1;
  }
}

await main(process.argv.slice(2));
