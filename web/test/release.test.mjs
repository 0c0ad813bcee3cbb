// Issue 34 for the npm package: its version is the library's (CMake's project version) and its
// licence MIT; a Vec2 may be an [x, y] array anywhere; wrong or missing arguments throw errors that
// name the function and the argument; String(shape) reads; the sandbox (Stepper, DemoPile) is not
// part of the API; the TypeScript settings the package README gives compile a top-level await.
// Uses the package folder of PEBBLE_WASM_DIR (default build/wasm; scripts/web.sh builds it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const wasmDir = resolve(root, process.env.PEBBLE_WASM_DIR ?? 'build/wasm');
const pkg = join(wasmDir, 'pkg');
const { load } = await import(pathToFileURL(join(pkg, 'index.mjs')).href);
const pb = await load();

const projectVersion = /project\(pebble VERSION (\d+\.\d+\.\d+)/.exec(readFileSync(join(root, 'CMakeLists.txt'), 'utf8'))[1];

test('one version: package.json, the module and CMake agree; MIT licence shipped', () => {
  const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));
  assert.equal(manifest.version, pb.version);
  assert.equal(pb.version, projectVersion);
  assert.equal(manifest.license, 'MIT');
  assert.ok(manifest.files.includes('LICENSE'));
  assert.match(readFileSync(join(pkg, 'LICENSE'), 'utf8'), /^MIT License\n\nCopyright \(c\) 2026 the pebble authors/);
  // The source package.json holds no version of its own to drift: the build writes it.
  assert.equal(JSON.parse(readFileSync(join(root, 'web/package/package.json'), 'utf8')).version, '0.0.0-set-by-cmake');
});

test('[x, y] arrays wherever a Vec2 goes, with the same answers as {x, y}', () => {
  const box = pb.Shape.rounded_box(1, 0.5, 0.1);
  const ball = pb.Shape.circle(0.25, [0.1, 0]);
  assert.equal(String(ball), String(pb.Shape.circle(0.25, { x: 0.1, y: 0 })));
  const q = pb.Rot.from_angle(0.2);
  const obj = { p: { x: 0.1, y: 0.78 }, q };
  const arr = { p: [0.1, 0.78], q };
  const at0 = pb.Transform.from(0, 0, 0.2);
  assert.deepEqual(pb.collide(box, at0, ball, arr, 0.02), pb.collide(box, at0, ball, obj, 0.02));
  assert.deepEqual(pb.distance(box, at0, ball, arr), pb.distance(box, at0, ball, obj));
  assert.deepEqual(pb.cast_ray(box, at0, { origin: [-3, 0], translation: [6, 0] }),
    pb.cast_ray(box, at0, { origin: { x: -3, y: 0 }, translation: { x: 6, y: 0 } }));
  assert.deepEqual(pb.cast_shape(ball, pb.Transform.from(-3, 0), [6, 0], box, at0, [0, 0]),
    pb.cast_shape(ball, pb.Transform.from(-3, 0), { x: 6, y: 0 }, box, at0, { x: 0, y: 0 }));
  assert.deepEqual(pb.closest_approach(ball, pb.Transform.from(-3, 1), [1, 0], box, at0, [0, 0], 6),
    pb.closest_approach(ball, pb.Transform.from(-3, 1), { x: 1, y: 0 }, box, at0, { x: 0, y: 0 }, 6));
  assert.equal(pb.time_to_collision(ball, pb.Transform.from(-3, 0), [1, 0], box, at0, new Float32Array([0, 0]), 6),
    pb.time_to_collision(ball, pb.Transform.from(-3, 0), { x: 1, y: 0 }, box, at0, { x: 0, y: 0 }, 6));
  const sweep = { local_center: [0, 0], c0: [-3, 0], c1: [3, 0], a0: 0, a1: 1 };
  assert.deepEqual(pb.sweep_transform(sweep, 0.5), pb.sweep_transform({ ...sweep, local_center: { x: 0, y: 0 },
    c0: { x: -3, y: 0 }, c1: { x: 3, y: 0 } }, 0.5));
  assert.equal(pb.contains(box, at0, [0.2, 0.1]), true);
  assert.deepEqual(pb.project_point(box, at0, [2, 0]), pb.project_point(box, at0, { x: 2, y: 0 }));
  assert.deepEqual(pb.transform_point(arr, [1, 0]), pb.transform_point(obj, { x: 1, y: 0 }));
  assert.equal(pb.Shape.capsule([0, 0], [1, 0], 0.1).vertex_count(), 2);
  assert.equal(pb.Shape.box(1, 1, [0.5, 0], 0.3).vertex_count(), 4);

  const world = new pb.CollisionWorld();
  const id = world.add(box, { p: [0, 0], q: pb.Rot.identity() });
  world.add(ball, { p: [3, 0], q: pb.Rot.identity() });
  assert.equal(world.overlap_point([0, 0]).length, 1);
  assert.equal(world.overlap_aabb({ lower: [-0.1, -0.1], upper: [0.1, 0.1] }).length, 1);
  assert.equal(world.cast_ray({ origin: [-3, 0], translation: [6, 0] }).id.index, id.index);
  assert.ok(world.set_transform(id, { p: [0, 0.5], q: pb.Rot.identity() }));
  const mover = new pb.CharacterMover(pb.Shape.circle(0.2), { p: [-2, 2], q: pb.Rot.identity() }, { up: [0, 1] });
  assert.ok(mover instanceof pb.CharacterMover);
  const step = mover.step(world, [1, 0], 1 / 60);
  assert.ok(step.transform.p.x > -2);
  mover.delete();
  world.delete();
});

test('a wrong or missing argument names the function and the argument', () => {
  const a = pb.Shape.circle(1);
  const at = pb.Transform.identity();
  const throwsType = (f, pattern) => assert.throws(f, (e) => e instanceof TypeError && pattern.test(e.message), String(pattern));
  throwsType(() => pb.collide(a, at, a), /^collide: xb: expected a Transform \{p, q\} .*got undefined$/);
  throwsType(() => pb.distance(a, at, a, { p: { x: 1 }, q: { c: 1, s: 0 } }), /^distance: xb\.p: expected a Vec2 \{x, y\} or an \[x, y\] array, got an object with keys \{x\}$/);
  throwsType(() => pb.distance(a, at, 3, at), /^distance: b: expected a Shape, got number 3$/);
  throwsType(() => pb.cast_ray(a, at, { origin: [0, 0] }), /^cast_ray: ray: expected a Ray/);
  throwsType(() => pb.cast_ray(a, at, { origin: [0, 0], translation: [1, 2, 3] }), /^cast_ray: ray\.translation: .*got an array of 3$/);
  throwsType(() => pb.Shape.circle(1, [0]), /^Shape\.circle: center: /);
  throwsType(() => pb.Shape.polygon([[0, 0], [1, 0], 'x']), /^Shape\.polygon: points\[2\]: /);
  throwsType(() => pb.cast_shape(a, at, undefined, a, at, [0, 0]), /^cast_shape: translation_a: /);
  throwsType(() => pb.time_of_impact(a, {}, a, {}), /^time_of_impact: sweep_a: expected a Sweep/);
  throwsType(() => pb.contains(a, at), /^contains: point: .*got undefined$/);
  const world = new pb.CollisionWorld();
  throwsType(() => world.add(a), /^CollisionWorld\.add: xf: /);
  throwsType(() => world.add(7, at), /^CollisionWorld\.add: collider: /);
  throwsType(() => world.cast_ray({ origin: [0, 0], translation: null }), /^CollisionWorld\.cast_ray: ray\.translation: .*got null$/);
  throwsType(() => new pb.CharacterMover(a, at, { up: 'up' }), /^CharacterMover: settings\.up: /);
  world.delete();
  // The makers' own refusals keep their type and C++ message.
  assert.throws(() => pb.Shape.circle(-1), (e) => e instanceof pb.InvalidShape && e.message === 'pebble: circle radius is negative (-1)');
});

test('String() of the heap objects is readable', () => {
  assert.equal(String(pb.Shape.circle(0.25)), 'Shape(vertices=[(0, 0)], radius=0.25)');
  assert.equal(`${pb.Shape.box(1, 0.5)}`, 'Shape(vertices=[(-1, -0.5), (1, -0.5), (1, 0.5), (-1, 0.5)], radius=0)');
  assert.equal(String(pb.Shape.circle(0.1)), 'Shape(vertices=[(0, 0)], radius=0.1)');  // the float32 0.1, shortest form
  const chain = pb.Chain.open([[0, 0], [1, 0], [2, 0.5]]);
  assert.equal(String(chain), 'Chain(open, 2 segments)');
  assert.equal(String(chain.segment(0)), 'ChainSegment(a=(0, 0), b=(1, 0))');
  assert.equal(String(new pb.CollisionWorld()), 'CollisionWorld(0 colliders)');
});

test('the sandbox is not part of the package API', () => {
  assert.ok(!('Stepper' in pb) && !('DemoPile' in pb));
  const declarations = readFileSync(join(pkg, 'index.d.ts'), 'utf8');
  assert.ok(!/Stepper|DemoPile/.test(declarations));
  // The site still reaches them through the raw module (the playground's pile, the benchmark page).
  assert.equal(typeof pb.module.DemoPile, 'function');
  assert.equal(typeof pb.module.Stepper, 'function');
});

test("the package README's TypeScript settings compile a top-level await; tsc's defaults do not", () => {
  const tsc = join(root, 'web/node_modules/typescript/bin/tsc');
  if (!existsSync(tsc)) throw new Error(`${tsc} is missing: run scripts/web.sh test (npm ci in web/)`);
  const readme = readFileSync(join(pkg, 'README.md'), 'utf8');
  const tsconfig = JSON.parse(/## TypeScript[\s\S]*?```json\n([\s\S]*?)```/.exec(readme)[1]);
  const app = join(wasmDir, 'release-test', 'ts-app');
  rmSync(app, { recursive: true, force: true });
  mkdirSync(join(app, 'node_modules'), { recursive: true });
  cpSync(pkg, join(app, 'node_modules', 'pebble-collide'), { recursive: true });
  const source = "import { load } from 'pebble-collide';\nconst pb = await load();\n" +
    'const d = pb.distance(pb.Shape.circle(1), { p: [0, 0], q: pb.Rot.identity() }, pb.Shape.circle(1), pb.Transform.from(3, 0));\n' +
    'console.log(JSON.stringify({ distance: d.distance, version: pb.version }));\n';
  writeFileSync(join(app, 'app.ts'), source);
  const tscRun = (args) => execFileSync('node', [tsc, ...args], { cwd: app, encoding: 'utf8', stdio: 'pipe' });
  const failsWith = (args, code) => assert.throws(() => tscRun(args), (e) => String(e.stdout).includes(code), code);

  // As `npm init -y` leaves it (CommonJS): both ways refused.
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'ts-app', version: '1.0.0', type: 'commonjs' }));
  failsWith(['--strict', '--noEmit', 'app.ts'], 'TS1378');
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ ...tsconfig, files: ['app.ts'] }));
  failsWith(['--noEmit', '-p', '.'], 'TS1309');

  // As the README says: "type": "module" and its tsconfig.
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'ts-app', version: '1.0.0', type: 'module' }));
  tscRun(['-p', '.']);
  const out = JSON.parse(execFileSync('node', ['app.js'], { cwd: app, encoding: 'utf8' }));
  assert.deepEqual(out, { distance: 1, version: projectVersion });
});
