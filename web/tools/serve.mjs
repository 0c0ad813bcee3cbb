// A static file server for the playground and the benchmark page, on 127.0.0.1 only:
//   /        web/site/ (index.html: the playground; bench.html: the benchmark)
//   /pkg/    build/wasm/pkg/ (the npm package folder: the entry, the glue and the .wasm)
//   /planck/ web/node_modules/planck/dist/ (the benchmark page's rival, after npm ci in web/)
// Usage: node web/tools/serve.mjs [port]   (scripts/web.sh serve); port 0 picks a free one.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const mounts = [
  ['/pkg/', join(root, 'build/wasm/pkg')],
  ['/planck/', join(root, 'web/node_modules/planck/dist')],
  ['/', join(root, 'web/site')],
];
const types = { '.html': 'text/html', '.mjs': 'text/javascript', '.js': 'text/javascript', '.css': 'text/css',
  '.wasm': 'application/wasm', '.json': 'application/json', '.png': 'image/png' };

export function serve(port = 0) {
  const server = createServer(async (req, res) => {
    const url = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    const [prefix, dir] = mounts.find(([p]) => url.startsWith(p));
    let rel = normalize(url.slice(prefix.length));
    if (rel === '.' || rel.endsWith('/')) rel = join(rel, 'index.html');
    if (rel.startsWith('..')) return res.writeHead(403).end();
    try {
      const body = await readFile(join(dir, rel));
      res.writeHead(200, { 'content-type': types[extname(rel)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${url}`);
    }
  });
  return new Promise((ok) => server.listen(port, '127.0.0.1', () => ok(server)));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const server = await serve(Number(process.argv[2] ?? 8024));
  console.log(`pebble playground: http://127.0.0.1:${server.address().port}/  (benchmark: /bench.html; Ctrl-C stops)`);
}
