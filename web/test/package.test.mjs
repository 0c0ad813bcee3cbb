// The npm package: `npm pack` of build/wasm/pkg gives a tarball holding the entry, the glue, the
// .wasm and the declarations; installed into an empty folder, it answers a query from Node with
// the bits `pebble query` prints; the declarations type-check a program using the whole API.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { differences } from './compare.mjs';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
// PEBBLE_WASM_DIR (scripts/web.sh): the build folder whose pkg/ is packed; build/wasm by default.
const wasmDir = resolve(root, process.env.PEBBLE_WASM_DIR ?? 'build/wasm');
const out = wasmDir === resolve(root, 'build/wasm') ? join(root, 'build/web-test') : join(wasmDir, 'web-test');
const pebble_program = process.env.PEBBLE_QUERY ?? join(root, 'build/release/tools/pebble');
const npm = (args, cwd) => execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, encoding: 'utf8' });

test('npm pack, install into an empty folder, run a query from Node', () => {
  mkdirSync(out, { recursive: true });
  const packed = JSON.parse(npm(['pack', join(wasmDir, 'pkg'), '--pack-destination', out, '--json'], out));
  const files = packed[0].files.map((f) => f.path).sort();
  assert.deepEqual(files, ['LICENSE', 'README.md', 'index.d.ts', 'index.mjs', 'package.json', 'pebble_wasm.mjs', 'pebble_wasm.wasm']);
  const tarball = join(out, packed[0].filename);

  const app = join(out, 'consumer');
  rmSync(app, { recursive: true, force: true });
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  npm(['install', tarball, '--offline'], app);
  writeFileSync(join(app, 'query.mjs'), `
import { load } from 'pebble-collide';
const pebble = await load();
const crate = pebble.Shape.rounded_box(1.0, 0.5, 0.1), ball = pebble.Shape.circle(0.25);
const m = pebble.collide(crate, pebble.Transform.from(0, 0, 0.2), ball, pebble.Transform.from(0.1, 0.78), 0.02);
let error = null;
try { pebble.Shape.circle(-1); } catch (e) { error = { name: e.name, message: e.message, typed: e instanceof pebble.InvalidShape }; }
console.log(JSON.stringify({
  count: m.count, normal: [m.normal.x, m.normal.y],
  points: m.points.map((p) => ({ point: [p.point.x, p.point.y], separation: p.separation, id: pebble.hex_id(p.id) })),
  error,
}));
`);
  const answer = JSON.parse(execFileSync('node', ['query.mjs'], { cwd: app, encoding: 'utf8' }));
  const native = JSON.parse(execFileSync(pebble_program, ['query', join(root, 'tools/scenes/example.json')], { encoding: 'utf8' }));
  const { error, ...manifold } = answer;
  assert.deepEqual(differences(native.results[0].result, manifold), []);
  assert.ok(manifold.count === 1 && manifold.points[0].separation < 0);
  // The maker's message is the C++ one (docs/scene-format.md lists it).
  assert.deepEqual(error, { name: 'InvalidShape', message: 'pebble: circle radius is negative (-1)', typed: true });
});

test('the TypeScript declarations cover a program using the API (tsc --strict)', () => {
  const app = join(out, 'consumer');
  writeFileSync(join(app, 'use.ts'), readFileSync(join(root, 'web/test/use_api.ts'), 'utf8'));
  const tsc = join(root, 'web/node_modules/typescript/bin/tsc');
  execFileSync('node', [tsc, '--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext',
    '--outDir', 'out', 'use.ts'], { cwd: app, encoding: 'utf8' });
  // It runs, too: every call of the API once.
  const ran = JSON.parse(execFileSync('node', ['out/use.js'], { cwd: app, encoding: 'utf8' }));
  assert.equal(ran.loop, true);
  assert.ok(ran.count > 0 && ran.first < 1 && ran.many < 1 && ran.arrays === true && ran.sm > 0);
  assert.ok(Math.abs(ran.angle - 0.5) < 1e-6);
  assert.ok(ran.ttc > 0 && ran.ttc < 2 && Number.isFinite(ran.bd));
  // And a wrong use is refused (so that the check above can fail).
  writeFileSync(join(app, 'wrong.ts'), "import { load } from 'pebble-collide';\nconst p = await load();\np.collide(p.Shape.circle(1), p.Transform.identity(), 3, p.Transform.identity());\nexport {};\n");
  assert.throws(() => execFileSync('node', [tsc, '--strict', '--noEmit', '--target', 'es2022', '--module', 'nodenext',
    '--moduleResolution', 'nodenext', 'wrong.ts'], { cwd: app, encoding: 'utf8', stdio: 'pipe' }));
});
