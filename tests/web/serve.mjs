// What the browser tests share: a static server of a few folders and
// Debian's chromium started headless through puppeteer-core.
// SPDX-License-Identifier: MIT
import { createServer } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname, join, normalize } from 'node:path';

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.wasm': 'application/wasm', '.json': 'application/json', '.md': 'text/plain' };

// Serves roots ({ name: folder }) as /name/...; resolves to its origin and a close().
export async function serve(roots) {
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const [, root, ...rest] = decodeURIComponent(url.pathname).split('/');
    const base = roots[root];
    const path = base && normalize(join(base, ...rest));
    if (!base || !path.startsWith(base) || !existsSync(path) || !statSync(path).isFile()) {
      res.writeHead(404);
      res.end('not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': TYPES[extname(path)] || 'application/octet-stream' });
    res.end(readFileSync(path));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { origin: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}

// chromium (MD2_CHROMIUM, default /usr/bin/chromium) headless, from the
// puppeteer-core in npmDir/node_modules. As root (CI) it needs --no-sandbox;
// SwiftShader gives WebGL 2 without a GPU.
export async function chromium(npmDir, args = []) {
  const require = createRequire(join(npmDir, 'node_modules', 'x.js'));
  const puppeteer = require('puppeteer-core');
  return puppeteer.launch({
    executablePath: process.env.MD2_CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--enable-unsafe-swiftshader', '--use-angle=swiftshader', ...args],
  });
}
