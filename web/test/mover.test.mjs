// The character mover, nearest and collide_shape from JavaScript: the same walk as native pebble
// gives, bit for bit. Native here is the Python module (built by the release preset, like the
// `pebble query` the page tests use), which calls the C++ library directly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from '../../build/wasm/pkg/index.mjs';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const f32 = (x) => Math.fround(x);
const hex = (x) => { const b = new DataView(new ArrayBuffer(4)); b.setFloat32(0, x); return b.getUint32(0).toString(16).padStart(8, '0'); };

// A floor with a 0.2 stair, a steep 60-degree slope and a wall; each shape walks right for 4 s at
// 60 Hz with gravity fed back, then left for 1 s.
const level = [[12, 6], [12, 1.2], [10, 1.2], [9, 0.2 + 1.732], [8, 0.2], [4, 0.2], [4, 0], [-10, 0]];
const shapes = ['capsule', 'box', 'circle'];
const python = `
import struct, pebble
def h(x): return struct.pack('>f', x).hex()
w = pebble.CollisionWorld()
w.add(pebble.Chain.open(${JSON.stringify(level)}), pebble.Transform(), pebble.ColliderOptions(fixed=True))
shapes = {'capsule': pebble.Shape.capsule((0, -0.45), (0, 0.45), 0.3), 'box': pebble.Shape.box(0.3, 0.75), 'circle': pebble.Shape.circle(0.4)}
for name in ${JSON.stringify(shapes)}:
    m = pebble.CharacterMover(shapes[name], pebble.Transform((-2, 1.5), pebble.Rot(1, 0)))
    vy = pebble.Vec2(0, 0).y
    out = []
    for i in range(300):
        vx = 4.0 if i < 240 else -4.0
        s = m.step(w, pebble.Vec2(vx, vy - 20.0 / 60.0), 1.0 / 60.0)
        vy = s.velocity.y
        out.append(h(s.transform.p.x) + h(s.transform.p.y) + ('g' if s.ground.grounded else '-') + ('s' if s.stepped else '-'))
    print(name, ' '.join(out))
near = w.nearest(pebble.Shape.circle(0.0), pebble.Transform((5, 3), pebble.Rot(1, 0)), 3)
print('nearest', ' '.join(str(n.part) + ':' + h(n.distance) for n in near))
`;

test('the character mover walks the same steps as native, bit for bit', async () => {
  const native = Object.fromEntries(execFileSync('/usr/bin/python3', ['-c', python], {
    encoding: 'utf8', env: { ...process.env, PYTHONPATH: process.env.PEBBLE_PYTHON ?? join(root, 'build/release/python') },
  }).trim().split('\n').map((l) => { const [k, ...v] = l.split(' '); return [k, v]; }));

  const pebble = await load();
  const world = new pebble.CollisionWorld();
  const chain = pebble.Chain.open(level.map(([x, y]) => ({ x, y })));
  world.add(chain, pebble.Transform.identity(), { fixed: true });
  const makers = {
    capsule: () => pebble.Shape.capsule({ x: 0, y: -0.45 }, { x: 0, y: 0.45 }, 0.3),
    box: () => pebble.Shape.box(0.3, 0.75),
    circle: () => pebble.Shape.circle(0.4),
  };
  for (const name of shapes) {
    const shape = makers[name]();
    const mover = new pebble.CharacterMover(shape, { p: { x: -2, y: 1.5 }, q: { c: 1, s: 0 } }, {});
    let vy = 0;
    const walk = [];
    let stepped = false;
    for (let i = 0; i < 300; ++i) {
      const s = mover.step(world, { x: i < 240 ? 4 : -4, y: f32(vy - 20 / 60) }, f32(1 / 60));
      vy = s.velocity.y;
      stepped ||= s.stepped;
      walk.push(hex(s.transform.p.x) + hex(s.transform.p.y) + (s.ground.grounded ? 'g' : '-') + (s.stepped ? 's' : '-'));
    }
    assert.ok(stepped, `${name} climbed the stair`);
    assert.deepEqual(walk, native[name], `${name}: the WebAssembly walk differs from native`);
    mover.delete();
    shape.delete();
  }
  const point = pebble.Shape.circle(0);
  const near = world.nearest(point, { p: { x: 5, y: 3 }, q: { c: 1, s: 0 } }, 3);
  assert.deepEqual(near.map((n) => `${n.part}:${hex(n.distance)}`), native.nearest.slice(0, 1));  // one collider: the chain, at its nearest part
  const contacts = world.collide_shape(pebble.Shape.circle(0.5), { p: { x: 0, y: 0.4 }, q: { c: 1, s: 0 } }, 0.01);
  assert.equal(contacts.length, 1);
  assert.equal(contacts[0].manifold.normal.y, 1);
  assert.throws(() => new pebble.CharacterMover(point, pebble.Transform.identity(), { skin: 0 }), (e) => e instanceof pebble.InvalidShape && /skin/.test(e.message));
  point.delete();
  chain.delete();
  world.delete();
});
