// The batch queries from JavaScript (pebble.batch, pebble/batch.hpp): for 300 pairs of mixed
// kinds (mostly discs, which run in lanes), every result equals the WebAssembly single query and
// native pebble (the Python module's batch forms, which call C++ directly), bit for bit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from '../../build/wasm/pkg/index.mjs';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const hex = (x) => { const b = new DataView(new ArrayBuffer(4)); b.setFloat32(0, x); return b.getUint32(0).toString(16).padStart(8, '0'); };

// A fixed pseudo-random sequence (the same floats go to both sides as float32 bits).
let seed = 12345;
const rand = () => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed / 4294967296; };
const N = 300;
const kinds = ['disc', 'disc', 'small_disc', 'disc', 'capsule', 'rounded_box'];
const pick = [], states = [[], []];
for (let i = 0; i < N; ++i) {
  for (let side = 0; side < 2; ++side) {
    pick.push(kinds[Math.floor(rand() * kinds.length)]);
    const angle = rand() * 6.28;
    const base = side === 0 ? [0, 0] : [rand() * 3 - 1.5, rand() * 3 - 1.5];
    states[side].push(base[0] + rand() * 0.2, base[1], Math.cos(angle), Math.sin(angle), rand() * 2 - 1, rand() * 2 - 1);
  }
}
const f32a = states.map((s) => Float32Array.from(s));
const bits = (a) => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length));
const kinds_a = pick.filter((_, k) => k % 2 === 0), kinds_b = pick.filter((_, k) => k % 2 === 1);

const python = `
import numpy as np, pebble
from pebble import batch
S = {'disc': pebble.Shape.circle(0.3), 'small_disc': pebble.Shape.circle(0.2, (0.05, 0)),
     'capsule': pebble.Shape.capsule((-0.2, 0), (0.2, 0), 0.15), 'rounded_box': pebble.Shape.rounded_box(0.2, 0.15, 0.05)}
a = [S[k] for k in ${JSON.stringify(kinds_a)}]
b = [S[k] for k in ${JSON.stringify(kinds_b)}]
sa = np.array(${JSON.stringify(bits(f32a[0]))}, dtype=np.uint32).view(np.float32).reshape(-1, 6)
sb = np.array(${JSON.stringify(bits(f32a[1]))}, dtype=np.uint32).view(np.float32).reshape(-1, 6)
xa, xb = np.ascontiguousarray(sa[:, :4]), np.ascontiguousarray(sb[:, :4])
va, vb = np.ascontiguousarray(sa[:, 4:]), np.ascontiguousarray(sb[:, 4:])
h = lambda arr: ' '.join(format(int(u), '08x') for u in np.ascontiguousarray(arr, dtype=np.float32).view(np.uint32).ravel())
t = batch.time_to_collision(a, xa, va, b, xb, vb, 1.5)
c = batch.closest_approach(a, xa, va, b, xb, vb, 1.5)
d = batch.distance(a, xa, b, xb)
print('ttc', h(t))
print('approach', h(np.stack([c['time'], c['distance']], 1)), h(c['point_a']), h(c['normal']))
print('hits', ' '.join(str(int(x)) for x in c['hit']))
print('distance', h(d['distance']), h(d['point_b']), h(d['normal']))
print('overlap', ' '.join(str(int(x)) for x in batch.overlap(a, xa, b, xb)))
`;

test('the batch queries equal the single queries and native pebble, bit for bit', async () => {
  const native = Object.fromEntries(execFileSync('/usr/bin/python3', ['-c', python], {
    encoding: 'utf8', env: { ...process.env, PYTHONPATH: process.env.PEBBLE_PYTHON ?? join(root, 'build/release/python') },
  }).trim().split('\n').map((l) => { const i = l.indexOf(' '); return [l.slice(0, i), l.slice(i + 1)]; }));

  const pebble = await load();
  const S = {
    disc: pebble.Shape.circle(0.3), small_disc: pebble.Shape.circle(0.2, { x: 0.05, y: 0 }),
    capsule: pebble.Shape.capsule({ x: -0.2, y: 0 }, { x: 0.2, y: 0 }, 0.15), rounded_box: pebble.Shape.rounded_box(0.2, 0.15, 0.05),
  };
  const a = kinds_a.map((k) => S[k]), b = kinds_b.map((k) => S[k]);
  const t = pebble.batch.time_to_collision(a, f32a[0], b, f32a[1], 1.5);
  const c = pebble.batch.closest_approach(a, f32a[0], b, f32a[1], 1.5);
  const d = pebble.batch.distance(a, f32a[0], b, f32a[1]);
  const o = pebble.batch.overlap(a, f32a[0], b, f32a[1]);
  const h = (arr) => Array.from(arr, hex).join(' ');
  const interleave = (x, y) => Float32Array.from(Array.from(x).flatMap((v, i) => [v, y[i]]));
  assert.equal(h(t), native.ttc, 'time_to_collision differs from native');
  assert.equal(`${h(interleave(c.time, c.distance))} ${h(c.point_a)} ${h(c.normal)}`, native.approach, 'closest_approach differs from native');
  assert.equal(Array.from(c.hit).join(' '), native.hits);
  assert.equal(`${h(d.distance)} ${h(d.point_b)} ${h(d.normal)}`, native.distance, 'distance differs from native');
  assert.equal(Array.from(o).join(' '), native.overlap);
  // And each equals the WebAssembly single query.
  const body = (s, i) => ({ p: { x: s[6 * i], y: s[6 * i + 1] }, q: { c: s[6 * i + 2], s: s[6 * i + 3] } });
  const vel = (s, i) => ({ x: s[6 * i + 4], y: s[6 * i + 5] });
  let hits = 0;
  for (let i = 0; i < N; ++i) {
    const xa = body(f32a[0], i), xb = body(f32a[1], i), va = vel(f32a[0], i), vb = vel(f32a[1], i);
    const one = pebble.closest_approach(a[i], xa, va, b[i], xb, vb, 1.5);
    assert.equal(hex(c.time[i]) + hex(c.distance[i]), hex(one.time) + hex(one.distance), `pair ${i}`);
    assert.equal(hex(t[i]), hex(pebble.time_to_collision(a[i], xa, va, b[i], xb, vb, 1.5)), `pair ${i}`);
    assert.equal(hex(d.distance[i]), hex(pebble.distance(a[i], xa, b[i], xb).distance), `pair ${i}`);
    hits += one.hit;
  }
  assert.ok(hits > 30 && hits < N - 30, `a mix of hits and misses (${hits})`);
  // One shape and one body against many.
  const one_state = Float32Array.from([0, 0, 1, 0, 0.5, 0]);
  const many = pebble.batch.time_to_collision(S.disc, one_state, b, f32a[1], 1.5);
  assert.equal(many.length, N);
  assert.throws(() => pebble.batch.distance(a, f32a[0], b.slice(1), f32a[1]), /different lengths/);
  assert.throws(() => pebble.batch.distance(a, [1, 2, 3], b, f32a[1]), /6 numbers per body/);
  for (const s of Object.values(S)) s.delete();
});

test('reuse bounds: Box2D v3\'s carry a slid box over, the default collides it again; set_transforms moves every tracked collider', async () => {
  const pebble = await load();
  const at = (x, y) => ({ p: { x, y }, q: { c: 1, s: 0 } });
  const reused = (settings) => {
    const world = new pebble.CollisionWorld(settings);
    const ground = pebble.Shape.box(2, 0.5);
    const box = pebble.Shape.box(0.25, 0.25);
    world.add(ground, at(0, -0.5));
    const id = world.add(box, at(0.3, 0.251));
    world.track(id);
    world.update();
    assert.equal(world.set_transforms(new Float32Array([0.32, 0.251, 1, 0])), 1);
    world.update();
    const n = world.stats().reused;
    assert.equal(world.contact_count(), 1);
    world.delete(); ground.delete(); box.delete();
    return n;
  };
  assert.equal(reused(undefined), 0);
  assert.equal(reused({ reuse_bounds: 'box2d_v3' }), 1);
  assert.equal(reused({ reuse_bounds: { distance: 0.05, angle: 0.2 } }), 1);
  assert.equal(reused({ reuse_bounds: { distance: 0.01 } }), 0);
  assert.throws(() => new pebble.CollisionWorld({ reuse_bounds: 'box2d' }), /reuse_bounds/);
});
