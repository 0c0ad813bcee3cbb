// The naming pass (docs/api-changes.md) from JavaScript: the new names answer, the old names still
// work and give the same answers, the world's casts give null for no hit, and a bad mover setting
// throws InvalidSettings, which is an InvalidShape for this release.
// Uses the package folder of PEBBLE_WASM_DIR (default build/wasm; scripts/web.sh builds it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const pkg = join(resolve(root, process.env.PEBBLE_WASM_DIR ?? 'build/wasm'), 'pkg');
const { load, InvalidSettings, InvalidShape } = await import(pathToFileURL(join(pkg, 'index.mjs')).href);

const hitting = { origin: [-2, 0.1], translation: [8, 0.2] };
const missing = { origin: [-2, 5], translation: [8, 0] };

test('cast_ray and cast_shape answer, and the old names give the same answers', async () => {
  const pb = await load();
  const box = pb.Shape.box(1, 0.5), ball = pb.Shape.circle(0.25);
  const at = pb.Transform.from(2, 0, 0.3), start = pb.Transform.from(-2, 0);
  assert.equal(pb.cast_ray(box, at, hitting).hit, true);
  assert.equal(pb.cast_ray(box, at, missing).hit, false);
  for (const ray of [hitting, missing]) {
    assert.deepEqual(pb.raycast(box, at, ray), pb.cast_ray(box, at, ray));
    assert.deepEqual(pb.raycast(box, at, ray, 0.3), pb.cast_ray(box, at, ray, 0.3));
  }
  assert.equal(pb.cast_shape(ball, start, [6, 0], box, at, [0, 0]).hit, true);
  assert.equal(pb.cast_shape(ball, start, [0, 6], box, at, [0, 0]).hit, false);
  assert.deepEqual(pb.shape_cast(ball, start, [6, 0], box, at, [0, 0]), pb.cast_shape(ball, start, [6, 0], box, at, [0, 0]));
  const chain = pb.Chain.open([[-3, 0], [3, 0]]);
  const up = { origin: [0, -2], translation: [0, 4] };  // segment a -> b collides on its right side: below
  const seg = chain.segment(0);
  assert.equal(pb.cast_ray(seg, pb.Transform.identity(), up, 0.2).hit, true);
  assert.deepEqual(pb.raycast(seg, pb.Transform.identity(), up, 0.2), pb.cast_ray(seg, pb.Transform.identity(), up, 0.2));
  seg.delete(); box.delete(); ball.delete(); chain.delete();
});

test('the world: casts give a result or null; the old event names give the new events', async () => {
  const pb = await load();
  const box = pb.Shape.box(1, 0.5), ball = pb.Shape.circle(0.25);
  const world = new pb.CollisionWorld();
  const boxId = world.add(box, pb.Transform.from(2, 0, 0.3));
  const ballId = world.add(ball, pb.Transform.from(2.5, 0.6));
  world.update();
  const hit = world.cast_ray(hitting);
  assert.notEqual(hit, null);
  assert.deepEqual(hit.id, boxId);
  assert.equal(hit.hit.hit, true);
  assert.equal(world.cast_ray(missing), null);
  assert.equal(world.cast_circle(missing, 0.1), null);
  assert.equal(world.touch_begin_events().length, 1);
  assert.deepEqual(world.begin_touch_events(), world.touch_begin_events());
  world.set_transform(ballId, pb.Transform.from(9, 9));
  world.update();
  assert.equal(world.touch_end_events().length, 1);
  assert.deepEqual(world.end_touch_events(), world.touch_end_events());
  world.delete(); box.delete(); ball.delete();
});

test('bad mover settings throw InvalidSettings, an InvalidShape for this release', async () => {
  const pb = await load();
  assert.equal(pb.InvalidSettings, InvalidSettings);
  assert.ok(new InvalidSettings('x') instanceof InvalidShape);
  const point = pb.Shape.circle(0.3);
  assert.throws(() => new pb.CharacterMover(point, pb.Transform.identity(), { skin: 0 }),
    (e) => e instanceof pb.InvalidSettings && e instanceof pb.InvalidShape && e.name === 'InvalidSettings' && /skin/.test(e.message));
  assert.throws(() => pb.Shape.circle(-1), (e) => e instanceof pb.InvalidShape && !(e instanceof pb.InvalidSettings));
  point.delete();
});
