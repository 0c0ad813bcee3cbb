// Scene files (docs/scene-format.md) in JavaScript: builds the objects with the WASM module and
// answers the queries as `pebble query` does, in the same JSON shape (numbers as the floats
// themselves). The playground loads scenes with it, and the browser test compares its answers
// with the native program's, number by number.

const vec = (a) => ({ x: a[0], y: a[1] });
const arr = (v) => [v.x, v.y];

/** The shape of one convex shape description. */
function make_shape(pb, d) {
  switch (d.type) {
    case 'circle': return pb.Shape.circle(d.radius, vec(d.center ?? [0, 0]));
    case 'capsule': return pb.Shape.capsule(vec(d.a), vec(d.b), d.radius);
    case 'segment': return pb.Shape.segment(vec(d.a), vec(d.b));
    case 'box': return pb.Shape.box(d.half_width, d.half_height);
    case 'rounded_box': return pb.Shape.rounded_box(d.half_width, d.half_height, d.corner_radius);
    case 'polygon': return pb.Shape.polygon(d.points, d.radius ?? 0);
    default: throw new Error(`unknown shape type "${d.type}"`);
  }
}

/**
 * The scene's objects: {name, kind, shape (the convex shape or the first part), parts, chain,
 * heightfield, angle, xf, convex}. Call free_scene() when done.
 */
export function build_scene(pb, scene) {
  const objects = scene.objects.map((o) => {
    const d = o.shape;
    const angle = Math.fround(o.angle ?? 0);
    const position = o.position ?? [0, 0];
    const xf = { p: { x: Math.fround(position[0]), y: Math.fround(position[1]) }, q: pb.Rot.from_angle(angle) };
    const object = { name: o.name, kind: d.type, angle, xf, parts: [], chain: null, heightfield: null, convex: true, desc: d };
    if (d.type === 'chain' || d.type === 'loop') {
      object.chain = d.type === 'chain' ? pb.Chain.open(d.points) : pb.Chain.loop(d.points);
      object.segments = [];
      for (let i = 0; i < object.chain.segment_count(); ++i) object.segments.push(object.chain.segment(i));
      object.parts = object.segments.map((s) => s.shape());
      object.convex = false;
    } else if (d.type === 'heightfield') {
      object.heightfield = pb.Heightfield.make(d.heights, d.spacing);
      object.segments = [];
      for (let i = 0; i < object.heightfield.cell_count(); ++i) object.segments.push(object.heightfield.cell(i));
      object.parts = object.segments.map((s) => s.shape());
      object.convex = false;
    } else if (d.type === 'concave') {
      object.parts = pb.decompose(d.points, d.radius ?? 0);
      object.convex = false;
    } else if (d.type === 'compound') {
      object.parts = d.parts.map((p) => make_shape(pb, p));
      object.convex = false;
    } else {
      object.parts = [make_shape(pb, d)];
    }
    object.shape = object.parts[0];
    return object;
  });
  return objects;
}

export function free_scene(objects) {
  for (const o of objects) {
    for (const p of o.parts) p.delete();
    for (const s of o.segments ?? []) s.delete();
    if (o.chain) o.chain.delete();
    if (o.heightfield) o.heightfield.delete();
  }
}

const manifold_json = (pb, m) => ({
  count: m.count,
  normal: arr(m.normal),
  points: m.points.map((p) => ({ point: arr(p.point), separation: p.separation, id: pb.hex_id(p.id) })),
});
const hit_json = (h) => ({ hit: h.hit, fraction: h.fraction, point: arr(h.point), normal: arr(h.normal) });

function make_world(pb, objects, margin) {
  const world = new pb.CollisionWorld({ contact_margin: margin });
  const object_of = new Map();
  objects.forEach((o, i) => {
    let id;
    try {
      if (o.chain) id = world.add(o.chain, o.xf, { fixed: true, user_data: i });
      else if (o.heightfield) id = world.add(o.heightfield, o.xf, { fixed: true, user_data: i });
      else if (!o.convex) id = world.add(o.parts, o.xf, i);
      else id = world.add(o.shape, o.xf, i);
    } catch (e) {
      if (e instanceof pb.InvalidArgument) return;  // an invalid placement stays out, as natively
      throw e;
    }
    object_of.set(id.index, i);
  });
  return { world, object_of: (id) => object_of.get(id.index) };
}

/** The centre of mass path of an object from its placement to `to` (tools/query.cpp sweep_of). */
function sweep_of(pb, o, to) {
  const center = pb.area(o.shape) > 0 ? pb.mass_properties(o.shape).center : o.shape.core_centroid();
  const end = { p: to.position, q: pb.Rot.from_angle(to.angle) };
  return { local_center: center, c0: pb.transform_point(o.xf, center), c1: pb.transform_point(end, center), a0: o.angle, a1: to.angle };
}

/** Answers every query of the scene: [{type, result}], result as `pebble query` prints it. */
export function run_queries(pb, scene, objects) {
  const by_name = new Map(objects.map((o, i) => [o.name, i]));
  const at = (name) => {
    const o = objects[by_name.get(name)];
    if (!o) throw new Error(`no object named "${name}"`);
    return o;
  };
  const pose = (o, p) => ({
    position: p?.position ? vec(p.position.map(Math.fround)) : o.xf.p,
    angle: Math.fround(p?.angle ?? o.angle),
  });
  const v2 = (a) => vec(a ?? [0, 0]);
  return (scene.queries ?? []).map((q) => {
    let result;
    switch (q.type) {
      case 'collide': {
        const a = at(q.a), b = at(q.b);
        result = manifold_json(pb, pb.collide(a.shape, a.xf, b.shape, b.xf, q.margin ?? 0));
        break;
      }
      case 'distance': {
        const a = at(q.a), b = at(q.b), d = pb.distance(a.shape, a.xf, b.shape, b.xf);
        result = { distance: d.distance, normal: arr(d.normal), point_a: arr(d.point_a), point_b: arr(d.point_b) };
        break;
      }
      case 'overlap': {
        const a = at(q.a), b = at(q.b);
        result = { overlap: pb.overlap(a.shape, a.xf, b.shape, b.xf) };
        break;
      }
      case 'project_point': {
        const o = at(q.object), p = pb.project_point(o.shape, o.xf, vec(q.point));
        result = { closest: arr(p.point), normal: arr(p.normal), distance: p.distance, inside: p.inside };
        break;
      }
      case 'contains': {
        const o = at(q.object);
        result = { inside: pb.contains(o.shape, o.xf, vec(q.point)) };
        break;
      }
      case 'mass': {
        const o = at(q.object), m = pb.mass_properties(o.convex ? o.shape : o.parts, q.density ?? 1);
        result = { mass: m.mass, center: arr(m.center), inertia: m.inertia };
        break;
      }
      case 'bounds': {
        const o = at(q.object), b = pb.bounds(o.shape, o.xf);
        result = { lower: arr(b.lower), upper: arr(b.upper) };
        break;
      }
      case 'raycast': {
        const o = at(q.object);
        result = hit_json(pb.cast_ray(o.shape, o.xf, { origin: vec(q.origin), translation: vec(q.translation) }, q.radius ?? 0));
        break;
      }
      case 'shape_cast': {
        const a = at(q.a), b = at(q.b);
        result = hit_json(pb.cast_shape(a.shape, a.xf, v2(q.translation_a), b.shape, b.xf, v2(q.translation_b),
          { target_separation: q.target_separation ?? 0 }));
        break;
      }
      case 'time_of_impact': {
        const a = at(q.a), b = at(q.b);
        const t = pb.time_of_impact(a.shape, sweep_of(pb, a, pose(a, q.a_to)), b.shape, sweep_of(pb, b, pose(b, q.b_to)),
          q.t_max ?? 1, { target_separation: q.target_separation ?? 0 });
        result = { state: t.state, fraction: t.fraction, point: arr(t.point), normal: arr(t.normal) };
        break;
      }
      case 'closest_approach': {
        const a = at(q.a), b = at(q.b);
        const r = pb.closest_approach(a.shape, a.xf, v2(q.velocity_a), b.shape, b.xf, v2(q.velocity_b), q.horizon ?? 1);
        result = { hit: r.hit, time: r.time, distance: r.distance, point_a: arr(r.point_a), point_b: arr(r.point_b), normal: arr(r.normal) };
        break;
      }
      case 'world_contacts': {
        const { world, object_of } = make_world(pb, objects, q.margin ?? 0.02);
        world.update();
        const pairs = world.contacts().map((c) => {
          let a = object_of(c.a), b = object_of(c.b), part_a = c.part_a, part_b = c.part_b, m = c.manifold;
          if (a > b) {
            [a, b, part_a, part_b] = [b, a, part_b, part_a];
            m = { normal: { x: -m.normal.x, y: -m.normal.y }, count: m.count,
              points: m.points.map((p) => ({ ...p, id: ((p.id >>> 16) | (p.id << 16)) >>> 0 })) };
          }
          return { a, b, part_a, part_b, m };
        });
        pairs.sort((x, y) => x.a - y.a || x.b - y.b || x.part_a - y.part_a || x.part_b - y.part_b);
        world.delete();
        result = {
          pairs: pairs.map((c) => {
            const m = manifold_json(pb, c.m);
            const pair = { a: objects[c.a].name, b: objects[c.b].name };
            if (!objects[c.a].convex) pair.part_a = c.part_a;
            if (!objects[c.b].convex) pair.part_b = c.part_b;
            return { ...pair, count: m.count, normal: m.normal, points: m.points };
          }),
        };
        break;
      }
      case 'world_raycast': {
        const { world, object_of } = make_world(pb, objects, 0.02);
        const ray = { origin: vec(q.origin), translation: vec(q.translation) };
        const radius = q.radius ?? 0;
        let hits;
        if (!q.all) {
          const r = radius > 0 ? world.cast_circle(ray, radius) : world.cast_ray(ray);
          hits = r ? [r] : [];
        } else {
          hits = world.cast_ray_all(ray, radius);
        }
        hits = hits.map((h) => ({ object: object_of(h.id), part: h.part, hit: h.hit }));
        hits.sort((x, y) => (x.hit.fraction !== y.hit.fraction ? x.hit.fraction - y.hit.fraction : x.object - y.object));
        world.delete();
        result = {
          hits: hits.map((h) => {
            const one = { object: objects[h.object].name };
            if (!objects[h.object].convex) one.part = h.part;
            return { ...one, ...hit_json(h.hit) };
          }),
        };
        break;
      }
      default:
        throw new Error(`unknown query "${q.type}"`);
    }
    return { type: q.type, result };
  });
}

/** Builds the scene, answers its queries, frees what it built. */
export function run_scene(pb, scene) {
  const objects = build_scene(pb, scene);
  try {
    return run_queries(pb, scene, objects);
  } finally {
    free_scene(objects);
  }
}
