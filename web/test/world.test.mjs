// World queries from JavaScript. parts_in_box against brute force: every part (a compound's
// parts, a chain's segments) whose bounds overlap the box is found once, with its shape, chain
// segment, transform, box and kind; nothing far off is found; the filter applies; more parts than
// the binding's first buffer (64) all come out; an invalid box finds nothing.
// Uses the package folder of PEBBLE_WASM_DIR (default build/wasm; scripts/web.sh builds it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const pkg = join(resolve(root, process.env.PEBBLE_WASM_DIR ?? 'build/wasm'), 'pkg');
const { load } = await import(pathToFileURL(join(pkg, 'index.mjs')).href);

// A fixed pseudo-random sequence.
let seed = 4242;
const rand = () => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed / 4294967296; };
const uniform = (lo, hi) => Math.fround(lo + (hi - lo) * rand());  // float32, as the world keeps them
const overlaps = (a, b) => a.lower.x <= b.upper.x && b.lower.x <= a.upper.x && a.lower.y <= b.upper.y && b.lower.y <= a.upper.y;
const sameShape = (a, b) => a.radius() === b.radius() && JSON.stringify(a.vertices()) === JSON.stringify(b.vertices());

test('parts_in_box finds the parts whose boxes overlap the box, as brute force does', async () => {
  const pb = await load();
  const world = new pb.CollisionWorld();
  const known = new Map();  // slot index -> {id, parts, xf, fixed, sensor, category, chain}
  const owned = [];
  for (let i = 0; i < 40; ++i) {
    const options = { fixed: i % 3 === 0, sensor: i % 7 === 3, filter: { category: i % 5 === 4 ? 2 : 1 } };
    const xf = pb.Transform.from(uniform(-8, 8), uniform(-8, 8), uniform(-3, 3));
    const parts = i % 4 === 1
      ? [pb.Shape.box(uniform(0.1, 0.8), uniform(0.1, 0.8), { x: 0.4, y: 0 }, 0.3), pb.Shape.circle(uniform(0.1, 0.8), { x: -0.5, y: 0.2 })]
      : [i % 2 === 0 ? pb.Shape.circle(uniform(0.1, 0.8)) : pb.Shape.capsule({ x: -uniform(0.1, 0.8), y: 0 }, { x: uniform(0.1, 0.8), y: 0 }, 0.1)];
    const id = parts.length > 1 ? world.add(parts, xf, options) : world.add(parts[0], xf, options);
    known.set(id.index, { id, parts, xf, fixed: options.fixed, sensor: options.sensor, category: options.filter.category, chain: null });
    owned.push(...parts);
  }
  const points = [];
  for (let k = 40; k >= 0; --k) points.push({ x: -10 + 0.5 * k, y: -2 + Math.sin(0.7 * k) });
  const chain = pb.Chain.open(points);
  const segments = [];
  for (let i = 0; i < chain.segment_count(); ++i) {
    const s = chain.segment(i);
    segments.push({ a: s.a, b: s.b, shape: s.shape() });
    s.delete();
  }
  const chainId = world.add(chain, pb.Transform.identity(), { fixed: true });
  known.set(chainId.index, { id: chainId, parts: segments.map((s) => s.shape), xf: pb.Transform.identity(), fixed: true, sensor: false,
    category: 1, chain: segments });
  owned.push(...segments.map((s) => s.shape));
  const totalParts = [...known.values()].reduce((n, k) => n + k.parts.length, 0);
  assert.ok(totalParts > 64);

  const release = (views) => { for (const v of views) { v.shape.delete(); v.segment?.delete(); } };
  let compounds = 0, chains = 0;
  for (let q = 0; q < 200; ++q) {
    const c = { x: uniform(-8, 8), y: uniform(-8, 8) }, h = { x: uniform(0.3, 2.4), y: uniform(0.3, 2.4) };
    const f = Math.fround;
    const box = { lower: { x: f(c.x - h.x), y: f(c.y - h.y) }, upper: { x: f(c.x + h.x), y: f(c.y + h.y) } };
    const filter = { sensors: q % 4 === 2, fixed: q % 3 !== 1, ...(q % 5 === 0 ? { mask: 2 } : {}) };
    const mask = filter.mask ?? 3;
    const views = world.parts_in_box(box, filter);
    const found = new Set();
    for (const v of views) {
      const key = `${v.id.index}:${v.part}`;
      assert.ok(!found.has(key), 'a part found twice');
      found.add(key);
      const k = known.get(v.id.index);
      assert.deepEqual(v.id, k.id);
      assert.equal(v.fixed, k.fixed);
      assert.deepEqual(v.xf, k.xf);
      assert.ok(sameShape(v.shape, k.parts[v.part]));
      assert.equal(v.segment !== null, k.chain !== null);
      if (v.segment !== null) {
        ++chains;
        assert.deepEqual([v.segment.a, v.segment.b], [k.chain[v.part].a, k.chain[v.part].b]);
      }
      if (k.parts.length === 2) ++compounds;
      const b = pb.bounds(v.shape, v.xf);  // the view's box holds the part's bounds
      assert.ok(v.box.lower.x <= b.lower.x && v.box.lower.y <= b.lower.y && v.box.upper.x >= b.upper.x && v.box.upper.y >= b.upper.y);
      assert.ok((filter.fixed || !k.fixed) && (filter.sensors || !k.sensor) && (k.category & mask) !== 0);
      // near: within the moving tree's fat margins of the box
      assert.ok(overlaps({ lower: { x: box.lower.x - 2, y: box.lower.y - 2 }, upper: { x: box.upper.x + 2, y: box.upper.y + 2 } }, b));
    }
    for (const k of known.values()) {
      if ((k.fixed && !filter.fixed) || (k.sensor && !filter.sensors) || (k.category & mask) === 0) continue;
      k.parts.forEach((s, p) => {
        if (overlaps(box, pb.bounds(s, k.xf))) assert.ok(found.has(`${k.id.index}:${p}`), `query ${q} missed part ${p} of ${k.id.index}`);
      });
    }
    release(views);
  }
  assert.ok(compounds > 10 && chains > 10);
  // Everything, past the first buffer: every part once, moving colliders first.
  const all = world.parts_in_box({ lower: [-50, -50], upper: [50, 50] }, { sensors: true });
  assert.equal(all.length, totalParts);
  assert.equal(new Set(all.map((v) => `${v.id.index}:${v.part}`)).size, totalParts);
  const kinds = all.map((v) => v.fixed);
  assert.deepEqual(kinds, [...kinds].sort());
  release(all);
  const moving = world.parts_in_box({ lower: [-50, -50], upper: [50, 50] }, { fixed: false });
  assert.ok(moving.length > 0 && moving.every((v) => !v.fixed && v.segment === null));
  release(moving);
  assert.deepEqual(world.parts_in_box({ lower: [-50, -50], upper: [50, 50] }, { mask: 0 }), []);
  assert.deepEqual(world.parts_in_box({ lower: [1, 1], upper: [0, 0] }), []);
  assert.deepEqual(world.parts_in_box({ lower: [NaN, 0], upper: [1, 1] }), []);
  assert.throws(() => world.parts_in_box(3), /CollisionWorld\.parts_in_box: box/);
  for (const s of owned) s.delete();
  chain.delete();
  world.delete();
});

test('save and restore: the restored world gives the same contacts and hits; bad bytes throw InvalidSnapshot', async () => {
  const pb = await load();
  const world = new pb.CollisionWorld();
  const ids = [];
  for (let i = 0; i < 30; ++i) {
    const xf = pb.Transform.from(uniform(-4, 4), uniform(-4, 4), uniform(-3, 3));
    ids.push(world.add(i % 2 ? pb.Shape.box(0.6, 0.4) : pb.Shape.circle(0.5), xf));
  }
  world.add(pb.Chain.open([{ x: -6, y: -5 }, { x: 0, y: -4.5 }, { x: 6, y: -5 }]), pb.Transform.identity());
  world.update();
  world.remove(ids.pop());
  const bytes = world.save();
  assert.ok(bytes instanceof Uint8Array);
  const restored = pb.CollisionWorld.restore(bytes);
  assert.deepEqual(restored.save(), bytes);
  const seen = (w) => JSON.stringify([w.contacts(), w.touch_begin_events(), w.touch_end_events(),
    [-3, -1, 1, 3].map((y) => w.cast_ray({ origin: { x: -9, y }, translation: { x: 18, y: 0.3 } }))]);
  for (let step = 0; step < 10; ++step) {
    for (const w of [world, restored]) {
      w.set_transform(ids[step], pb.Transform.from(0.1 * step, 0.2, 0.1));
      w.update();
    }
    assert.equal(seen(restored), seen(world));
  }
  assert.ok(restored.contains(ids[0]));
  assert.throws(() => pb.CollisionWorld.restore(bytes.slice(0, bytes.length - 1)), pb.InvalidSnapshot);
  assert.throws(() => pb.CollisionWorld.restore(new Uint8Array([1, 2, 3])), /snapshot|truncated/);
  world.delete();
  restored.delete();
});

test('a heightfield in the world: contacts and ray hits name the cell, as collide() and raycast() of each cell say', async () => {
  const pb = await load();
  const heights = [];
  for (let i = 0; i <= 60; ++i) heights.push(Math.fround(0.6 * Math.sin(0.35 * i) + 0.2 * Math.sin(1.3 * i)));
  const field = pb.Heightfield.make(heights, 0.25);
  assert.equal(field.cell_count(), 60);
  assert.equal(String(field), 'Heightfield(60 cells, spacing=0.25)');
  assert.deepEqual(Array.from(field.heights()), heights);
  const xs = pb.Transform.from(-3, 1, 0.2);
  const world = new pb.CollisionWorld();
  const ground = world.add(field, xs, 9);
  assert.equal(world.part_count(ground), 60);
  assert.equal(world.user_data(ground), 9);
  const bodies = [];
  for (let i = 0; i < 40; ++i) {
    const shape = i % 2 ? pb.Shape.circle(uniform(0.05, 0.3)) : pb.Shape.box(uniform(0.05, 0.3), uniform(0.05, 0.2));
    const local = field.point(1 + Math.floor(rand() * 58));
    const xb = { p: pb.transform_point(xs, { x: local.x + uniform(0, 0.25), y: local.y + uniform(-0.05, 0.35) }), q: pb.Rot.from_angle(uniform(-3, 3)) };
    bodies.push({ shape, xb, id: world.add(shape, xb) });
  }
  world.update();
  const got = new Map();
  for (const c of world.contacts()) if (c.a.index === ground.index) got.set(`${c.b.index}/${c.part_a}`, c.manifold);
  let want = 0;
  for (const b of bodies) {
    for (let k = 0; k < field.cell_count(); ++k) {
      const cell = field.cell(k);
      const m = pb.collide(cell, xs, b.shape, b.xb, 0.02);
      cell.delete();
      if (m.count === 0) continue;
      ++want;
      const it = got.get(`${b.id.index}/${k}`);
      assert.ok(it, `body ${b.id.index} cell ${k}`);
      assert.equal(it.count, m.count);
      assert.deepEqual(it.normal, m.normal);
    }
  }
  assert.equal(got.size, want);
  assert.ok(want > 10);
  // Rays straight down in the field's frame: the cell under them; from below, none of its cells.
  for (let i = 0; i < 50; ++i) {
    const x = uniform(0.01, 14.99);
    const down = { origin: pb.transform_point(xs, { x, y: 3 }), translation: pb.transform_point({ p: { x: 0, y: 0 }, q: xs.q }, { x: 0, y: -6 }) };
    let best = null;
    for (let k = 0; k < field.cell_count(); ++k) {
      const cell = field.cell(k);
      const h = pb.cast_ray(cell, xs, down);
      cell.delete();
      if (h.hit && (best === null || h.fraction < best.fraction)) best = { fraction: h.fraction, part: k };
    }
    const hits = [];
    world.cast_ray_all(down).forEach((h) => { if (h.id.index === ground.index) hits.push(h); });
    hits.sort((p, q) => p.hit.fraction - q.hit.fraction);
    assert.ok(best !== null && hits.length > 0);
    assert.equal(hits[0].part, best.part);
    assert.equal(hits[0].part, Math.min(59, Math.floor(x / 0.25)));
    const up = { origin: pb.transform_point(xs, { x, y: -3 }), translation: pb.transform_point({ p: { x: 0, y: 0 }, q: xs.q }, { x: 0, y: 2.5 }) };
    assert.equal(world.cast_ray_all(up).filter((h) => h.id.index === ground.index).length, 0);
  }
  assert.throws(() => pb.Heightfield.make([1], 1), (e) => e instanceof pb.InvalidShape && /at least 2 heights/.test(e.message));
  assert.throws(() => pb.Heightfield.make([0, NaN], 1), (e) => e instanceof pb.InvalidShape && /height 1 \(nan\)/.test(e.message));
  assert.throws(() => pb.Heightfield.make([0, 1], -2), (e) => e instanceof pb.InvalidShape && /spacing -2/.test(e.message));
  assert.throws(() => pb.Heightfield.make('0 1', 1), TypeError);
  for (const b of bodies) b.shape.delete();
  world.delete();
  field.delete();
});
