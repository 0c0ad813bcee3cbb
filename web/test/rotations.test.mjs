// Rotations in the npm package (docs/robustness.md, Rotations): Rot.from_angle is pebble's own
// cosine and sine, the nearest float of the exact values (checked against Math.cos and Math.sin,
// whose doubles round to the same floats), Rot.angle inverts it, and Rot.normalize repairs a
// rotation drifted past the 1e-5 the queries accept.
// Uses the package folder of PEBBLE_WASM_DIR (default build/wasm; scripts/web.sh builds it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const pkg = join(resolve(root, process.env.PEBBLE_WASM_DIR ?? 'build/wasm'), 'pkg');
const { load } = await import(pathToFileURL(join(pkg, 'index.mjs')).href);
const pb = await load();

test('Rot.from_angle gives the nearest floats of cos and sin; Rot.angle inverts it', () => {
  let s = 33;
  const next = () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 4294967296; };
  let differ = 0;
  for (let i = 0; i < 20000; ++i) {
    const a = Math.fround((next() - 0.5) * (i % 2 ? 20 : 2e4));
    const q = pb.Rot.from_angle(a);
    differ += q.c !== Math.fround(Math.cos(a)) || q.s !== Math.fround(Math.sin(a));
    if (Math.abs(a) < 3.1) assert.ok(Math.abs(pb.Rot.angle(q) - a) <= 4e-7, `angle of from_angle(${a})`);
  }
  assert.equal(differ, 0);
});

test('Rot.normalize repairs a rotation past the tolerance', () => {
  const box = pb.Shape.box(1, 1);
  const far = pb.Transform.from(3, 0);
  const drifted = { c: 1.01, s: 0.02 };
  assert.ok(pb.distance(box, { p: [0, 0], q: drifted }, box, far).distance > 1e38);  // refused: the empty result
  const q = pb.Rot.normalize(drifted);
  assert.ok(Math.abs(q.c * q.c + q.s * q.s - 1) < 3e-7);
  const d = pb.distance(box, { p: [0, 0], q }, box, far).distance;
  assert.ok(d > 0.9 && d < 1, String(d));
  assert.deepEqual(pb.Rot.normalize({ c: 0, s: 0 }), { c: 1, s: 0 });
  assert.throws(() => pb.Rot.normalize(undefined), /Rot\.normalize: q/);
});
