// Type-checked by package.test.mjs against the package's index.d.ts (tsc --strict), and run by it
// too: every call of the JavaScript API once.
import { load, InvalidShape, type ChainSegment, type Manifold, type Pebble, type Transform } from 'pebble-collide';

const pb: Pebble = await load();
const at = (x: number, y: number, angle = 0): Transform => pb.Transform.from(x, y, angle);
const shapes = [
  pb.Shape.circle(0.5), pb.Shape.circle(0.2, { x: 0.1, y: 0 }), pb.Shape.capsule({ x: -1, y: 0 }, { x: 1, y: 0 }, 0.2),
  pb.Shape.segment({ x: 0, y: 0 }, { x: 1, y: 1 }), pb.Shape.box(1, 0.5), pb.Shape.box(1, 0.5, { x: 0.2, y: 0 }, 0.3),
  pb.Shape.rounded_box(1, 0.5, 0.1), pb.Shape.polygon([[0, 0], [1, 0], [0, 1]], 0.05), pb.Shape.polygon([{ x: 0, y: 0 }, { x: 1, y: 0 }, { x: 0, y: 1 }]),
];
const [a, b] = [shapes[4], shapes[6]];
const m: Manifold = pb.collide(a, at(0, 0), b, at(1.5, 0.2, 0.1), 0.02);
const n: number = m.points.length + pb.kMaxPolygonVertices + a.vertex_count() + a.edge_count() + a.radius() + a.extent();
const d = pb.distance(a, at(0, 0), b, at(3, 0));
const o: boolean = pb.overlap(a, at(0, 0), b, at(3, 0)) || pb.contains(a, at(0, 0), { x: 0, y: 0 });
const pp = pb.project_point(a, at(0, 0), { x: 2, y: 0 });
const mp = pb.mass_properties(a, 2).mass + pb.mass_properties([a, b]).inertia + pb.area(a);
const box = pb.bounds(a, at(0, 0));
const ray = { origin: { x: -3, y: 0 }, translation: { x: 6, y: 0 } };
const hits = [pb.cast_ray(a, at(0, 0), ray), pb.cast_ray(a, at(0, 0), ray, 0.1),
  pb.cast_shape(a, at(0, 0), { x: 3, y: 0 }, b, at(4, 0), { x: 0, y: 0 }, { target_separation: 0.01 })];
const sweep = { local_center: { x: 0, y: 0 }, c0: { x: 0, y: 0 }, c1: { x: 3, y: 0 }, a0: 0, a1: 1 };
const toi = pb.time_of_impact(a, sweep, b, { ...sweep, c0: { x: 4, y: 0 }, c1: { x: 4, y: 0 }, a1: 0 }, 1, { tolerance: 0 });
const state: 'hit' | 'separated' | 'overlapped' | 'failed' = toi.state;
const xf: Transform = pb.sweep_transform(sweep, 0.5);
const ap = pb.closest_approach(a, at(0, 0), { x: 1, y: 0 }, b, at(4, 1), { x: -1, y: 0 }, 2);
const ttc: number = pb.time_to_collision(a, at(0, 0), { x: 1, y: 0 }, b, at(4, 0), { x: -1, y: 0 }, 2) + (pb.kNoCollision > 0 ? 0 : 1);
const states = new Float32Array([0, 0, 1, 0, 1, 0, 4, 1, 1, 0, -1, 0]);
const bt: Float32Array = pb.batch.time_to_collision([a, b], states, b, [4, 0, 1, 0, 0, 0], 2);
const ba = pb.batch.closest_approach(a, states.subarray(0, 6), [a, b], states, 2);
const bd: number = pb.batch.distance([a, b], states, [b, a], states).distance[0] + ba.normal[0] + bt[0] +
  pb.batch.overlap(a, [0, 0, 1, 0, 0, 0], b, [1, 0, 1, 0, 0, 0])[0];
const parts = pb.decompose([[0, 0], [2, 0], [2, 2], [1, 2], [1, 1], [0, 1]], 0.02);
const chain = pb.Chain.open([[3, 0], [0, 0], [-3, 0.5]]);
const loop = pb.Chain.loop([[0, 0], [1, 0], [0, 1]]);
const seg = chain.segment(0);
const sm = pb.collide(seg, at(0, 0), shapes[0], at(1, 0.4));
const sd = pb.distance(seg, at(0, 0), shapes[0], at(1, 0.4)).distance + pb.cast_ray(seg, at(0, 0), ray).fraction;
const outlines = pb.outline_tiles({ columns: 2, rows: 1, solid: [1, 1] });
const tops = pb.outline_tile_tops({ columns: 2, rows: 1, solid: new Uint8Array([1, 0]), cell_size: { x: 0.5, y: 0.5 } }, 1);
const world = new pb.CollisionWorld({ contact_margin: 0.02, reuse_bounds: 'box2d_v3' });
const loose = new pb.CollisionWorld({ reuse_bounds: { distance: 0.05, angle: 0.2 } });
loose.delete();
const field = pb.Heightfield.make(new Float32Array([0, 0.5, 0.25]), 0.5);
const cell: ChainSegment = field.cell(field.cell_count() - 1);
const heights: Float32Array = field.heights();
const ids = [world.add(a, at(0, 0)), world.add(parts, at(1.2, 0), { user_data: 7 }), world.add(chain, at(0, -0.6)),
  world.add_shape(b, at(5, 0), 3), world.add(field, at(-8, 0)), world.add_heightfield(field, at(-12, 0), { fixed: true })];
world.track(ids[0]);
world.set_transforms(new Float32Array([0.1, 0, 1, 0]));
world.set_transform(ids[3], at(5, 0.1));
world.update();
const count: number = world.contact_count() + world.contacts().length + world.touch_begin_events().length + world.stats().pairs;
const first = world.cast_ray(ray)?.hit.fraction ?? 1;
const all = world.cast_ray_all(ray).length + world.cast_ray_all(ray, 0.1).length + (world.cast_circle(ray, 0.1)?.part ?? 0);
const many = world.cast_rays(new Float32Array([-3, 0, 6, 0])).fraction[0];
const near = world.overlap_point({ x: 0, y: 0 }).length + world.overlap_aabb(box).length + world.overlap_shape(b, at(0, 0)).length;
const cast = world.cast_shape(b, at(-4, 0), { x: 8, y: 0 });
const mover = new pb.CharacterMover(b, at(0, 3), { step_height: 0.25, filter: { fixed: true } });
const ms = mover.step(world, { x: 1, y: -0.3 }, 1 / 60);
const moved: number = ms.transform.p.x + (ms.ground.grounded ? 1 : 0) + world.nearest(b, at(0, 3), 2).length +
  world.within_radius(b, at(0, 3), 5).length + world.collide_shape(b, ms.transform, 0.01).length;
// parts_in_box: each view's shape (and segment, on a chain) is the caller's to delete().
const views = world.parts_in_box(box);
const viewed: number = views.reduce((sum, v) => sum + v.part + v.box.upper.x - v.xf.p.x + v.shape.radius() + (v.segment?.a.x ?? 0) +
  (v.fixed ? 1 : 0) + v.id.index, 0);
for (const v of views) { v.shape.delete(); v.segment?.delete(); }
mover.delete();
world.remove(ids[3]);
const kept: number | null = world.user_data(ids[1]);
// A snapshot: bytes out, a world back (InvalidSnapshot for bytes that are not one).
const snapshot: Uint8Array = world.save();
const back = pb.CollisionWorld.restore(snapshot);
if (back.size() !== world.size()) throw new Error('restore');
back.delete();
try {
  pb.CollisionWorld.restore(snapshot.subarray(0, 10));
} catch (e) {
  if (!(e instanceof pb.InvalidSnapshot)) throw e;
}
try {
  pb.Shape.polygon([]);
} catch (e) {
  if (!(e instanceof InvalidShape)) throw e;
}
// [x, y] arrays where a Vec2 goes (issue 34), and String() of a shape.
const arrays: boolean = pb.contains(a, { p: [0, 0], q: pb.Rot.identity() }, [0.1, 0]) &&
  pb.cast_ray(a, at(0, 0), { origin: [-3, 0], translation: [6, 0] }).hit && String(a).startsWith('Shape(');
console.log(JSON.stringify({ n, d: d.distance, o, pp: pp.distance, mp, hits: hits.length, state, xf, ap: ap.time, sm: sm.count, sd,
  outlines: outlines.length + tops.length, count, moved, viewed, first, all, many, near, cast: cast?.id.index, kept, arrays,
  loop: loop.closed(), version: pb.version, hex: pb.hex_id(m.points[0]?.id ?? 0),
  angle: pb.Rot.angle(pb.Rot.from_angle(0.5)), ttc, bd, cell: cell.normal.y, heights: heights.length }));
for (const s of [...shapes, ...parts]) s.delete();
[seg, chain, loop, world, field, cell].forEach((x) => x.delete());
