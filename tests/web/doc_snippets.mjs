// Runs the ```js blocks of Markdown files (README.md, docs/web.md) as ES
// modules with the package as 'libmd2', from the repository root, and
// checks that every `console.log(...); // TEXT` line prints TEXT.
//
//   node doc_snippets.mjs PACKAGE_DIR REPOSITORY OUT_DIR FILE.md...
//
// SPDX-License-Identifier: MIT
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const [pkg, repo, outDir, ...docs] = process.argv.slice(2).map((p) => resolve(p));
rmSync(outDir, { recursive: true, force: true });
mkdirSync(join(outDir, 'node_modules'), { recursive: true });
symlinkSync(pkg, join(outDir, 'node_modules', 'libmd2'), 'dir');

let blocks = 0;
let checks = 0;
for (const doc of docs) {
  const text = readFileSync(doc, 'utf8');
  for (const m of text.matchAll(/^```js\n([\s\S]*?)^```$/gm)) {
    blocks++;
    const expected = [];
    const code = m[1].split('\n').map((line) => {
      const c = /^(\s*)console\.log\((.*)\); \/\/ (.*)$/.exec(line);
      if (!c) return line;
      expected.push(c[3]);
      return `${c[1]}console.log(${c[2]});`;
    }).join('\n');
    const file = join(outDir, `block${blocks}.mjs`);
    writeFileSync(file, code);
    const out = execFileSync(process.execPath, [file], { cwd: repo, encoding: 'utf8' }).replace(/\n$/, '').split('\n');
    const name = `${doc.slice(repo.length + 1)}, block ${blocks}`;
    if (out.length !== expected.length || out.some((l, i) => l !== expected[i])) {
      console.error(`${name} printed:\n${out.join('\n')}\nwhere its comments say:\n${expected.join('\n')}`);
      process.exit(1);
    }
    checks += expected.length;
    console.log(`${name}: ran, ${expected.length} lines as its comments say`);
  }
}
if (blocks === 0) {
  console.error('no ```js blocks');
  process.exit(1);
}
console.log(`${blocks} blocks, ${checks} printed lines checked`);
