// The Khronos glTF-Validator as a judge of `md2 export` (tests/tool/export.cases).
//
//   node validate.mjs --npm DIR [--texture | --no-texture] FILE.gltf|FILE.glb...
//
// DIR holds node_modules/gltf-validator (tests/run.sh installs it there).
// Each file must validate with 0 errors and 0 warnings; infos and hints are
// listed but allowed. --texture: the file must hold exactly one PNG image,
// used by a texture; --no-texture: it must hold none. Exit 0 if every file
// passes, 1 otherwise, 2 for a bad command line.
//
// SPDX-License-Identifier: MIT

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

function usage(message) {
  console.error(`validate.mjs: ${message}\n` +
    'usage: node validate.mjs --npm DIR [--texture | --no-texture] FILE...');
  process.exit(2);
}

const files = [];
let npm = null;
let texture = null;
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--npm' && i + 1 < argv.length) npm = argv[++i];
  else if (argv[i] === '--texture') texture = true;
  else if (argv[i] === '--no-texture') texture = false;
  else if (argv[i].startsWith('--')) usage(`unknown option ${argv[i]}`);
  else files.push(argv[i]);
}
if (!npm || files.length === 0) usage('--npm DIR and at least one file are needed');

const require = createRequire(path.join(path.resolve(npm), 'node_modules') + path.sep);
const validator = require('gltf-validator');

let failed = 0;
for (const file of files) {
  const bytes = new Uint8Array(readFileSync(file));
  const report = await validator.validateBytes(bytes, {
    uri: path.basename(file),
    maxIssues: 0, // all of them
    // everything is inside the file: asking for anything else is a fault
    externalResourceFunction: (uri) => Promise.reject(new Error(`external resource ${uri}`)),
  });
  const issues = report.issues;
  const lines = [];
  for (const m of issues.messages) {
    const kind = ['error', 'warning', 'info', 'hint'][m.severity] ?? `severity ${m.severity}`;
    lines.push(`  ${kind} ${m.code} at ${m.pointer ?? m.offset ?? '?'}: ${m.message}`);
  }
  let problem = issues.numErrors > 0 || issues.numWarnings > 0;
  const info = report.info ?? {};
  if (texture !== null) {
    const images = info.resources ? info.resources.filter((r) => r.pointer.startsWith('/images/')) : [];
    if (texture && (images.length !== 1 || images[0].mimeType !== 'image/png' ||
                    info.hasTextures !== true)) {
      lines.push(`  expected one PNG image used by a texture; found ${images.length} image(s)` +
                 (info.hasTextures ? '' : ', no texture'));
      problem = true;
    }
    if (!texture && (images.length !== 0 || info.hasTextures)) {
      lines.push(`  expected no image; found ${images.length}`);
      problem = true;
    }
  }
  console.log(`${file}: ${issues.numErrors} errors, ${issues.numWarnings} warnings, ` +
              `${issues.numInfos} infos, ${issues.numHints} hints` +
              ` (validator ${report.validatorVersion}; ${info.totalVertexCount ?? '?'} vertices, ` +
              `${info.totalTriangleCount ?? '?'} triangles, ${info.animationCount ?? 0} animations` +
              `${info.hasTextures ? ', textured' : ''})` +
              (problem ? ': FAILED' : ': ok'));
  for (const l of lines) console.log(l);
  if (problem) failed++;
}
process.exit(failed ? 1 : 0);
